// Fuzzes the assembler (source/text) with arbitrary text. When text assembles, its words must
// read back, disassemble, and reassemble to identical words, both with friendly names and with
// raw numeric ids (--preserve-numeric-ids). Text that writes raw words ("!<n>") may build
// modules the reader refuses or the disassembler cannot print canonically; for such text only
// crashes count.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "source/binary/reader.h"
#include "source/text/assembler.h"
#include "source/text/disassembler.h"
#include "test/fuzz/fuzz_util.h"

namespace {

using namespace coopspv;

void Report(const char* what, std::string_view text, const std::string& detail) {
  std::fprintf(stderr, "assembler_fuzz: %s\n--- input ---\n%.*s\n--- detail ---\n%s\n", what,
               static_cast<int>(text.size()), text.data(), detail.c_str());
}

// True when the lexer would see a raw-word token: '!' outside strings and comments.
bool HasRawWords(std::string_view text) {
  bool in_string = false, in_comment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_comment) {
      in_comment = c != '\n';
    } else if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == ';') {
      in_comment = true;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '!') {
      return true;
    }
  }
  return false;
}

void RoundTrip(std::string_view text, bool preserve_numeric_ids) {
  text::AssembleOptions options;
  options.preserve_numeric_ids = preserve_numeric_ids;
  std::vector<uint32_t> words;
  Diagnostic diagnostic;
  if (!text::Assemble(text, options, &words, &diagnostic)) {
    FUZZ_CHECK(!diagnostic.message.empty());
    return;
  }
  // A "; Bound:" comment or a preserved id may set a bound the reader refuses by default.
  const bool strict = !HasRawWords(text) && words[3] <= binary::kDefaultMaxIdBound;

  binary::ParsedModule module;
  Diagnostic read_error;
  if (!binary::ParseModule(words, &module, &read_error)) {
    if (strict) {
      Report("assembled words do not read back", text, read_error.ToString());
      FUZZ_CHECK(false);
    }
    return;
  }

  // Friendly names, reassembled without preserved ids.
  text::DisassembleOptions friendly;
  std::string listing;
  Diagnostic dis_error;
  FUZZ_CHECK(text::Disassemble(words, friendly, &listing, &dis_error));
  std::vector<uint32_t> again;
  Diagnostic again_error;
  const bool reassembled = text::Assemble(listing, {}, &again, &again_error);
  // Numeric ids, reassembled with preserved ids.
  text::DisassembleOptions raw;
  raw.friendly_names = false;
  std::string raw_listing;
  FUZZ_CHECK(text::Disassemble(words, raw, &raw_listing, &dis_error));
  text::AssembleOptions keep_ids;
  keep_ids.preserve_numeric_ids = true;
  std::vector<uint32_t> raw_again;
  Diagnostic raw_error;
  const bool raw_reassembled = text::Assemble(raw_listing, keep_ids, &raw_again, &raw_error);
  if (!strict) return;

  // Without preserved ids, ids are numbered in order of first use, so reassembling friendly
  // names renumbers them the same way.
  if (!preserve_numeric_ids && (!reassembled || again != words)) {
    Report(
        "friendly-name disassembly does not reassemble to the same words", text,
        (reassembled ? "words differ" : again_error.ToString()) + "\n--- listing ---\n" + listing);
    FUZZ_CHECK(false);
  }
  if (!raw_reassembled || raw_again != words) {
    Report("numeric-id disassembly does not reassemble to the same words", text,
           (raw_reassembled ? "words differ" : raw_error.ToString()) + "\n--- listing ---\n" +
               raw_listing);
    FUZZ_CHECK(false);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  RoundTrip(text, false);
  RoundTrip(text, true);
  return 0;
}
