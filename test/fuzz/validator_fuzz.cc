// Fuzzes the validator (source/val) with arbitrary words: the module is read once and validated
// in several target environments and option sets, then disassembled. Only crashes, hangs, leaks
// and UB count, plus the bookkeeping of the result (error counts, diagnostics that point inside
// the module).
// fuzz-corpus: test/fuzz/corpus/reader_fuzz
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "source/common/target_env.h"
#include "source/ir/module.h"
#include "source/text/disassembler.h"
#include "source/val/validator.h"
#include "test/fuzz/fuzz_util.h"

namespace {

using namespace coopspv;

void CheckResult(const val::Result& r, const val::Options& options, size_t num_words) {
  FUZZ_CHECK(r.valid == (r.num_errors == 0));
  FUZZ_CHECK(r.num_errors + r.num_warnings == r.diagnostics.size());
  if (options.max_errors != 0) FUZZ_CHECK(r.num_errors <= options.max_errors);
  FUZZ_CHECK(!r.truncated || options.max_errors != 0);
  for (const val::Diagnostic& d : r.diagnostics) {
    FUZZ_CHECK(d.rule != nullptr);
    FUZZ_CHECK(!d.message.empty());
    if (d.has_instruction) FUZZ_CHECK(d.word_offset < num_words);
  }
}

const std::vector<val::Options>& AllOptions() {
  static const std::vector<val::Options> all = [] {
    std::vector<val::Options> v;
    for (const char* env : {"spv1.0", "spv1.6", "vulkan1.0", "vulkan1.1spv1.4", "vulkan1.3"}) {
      val::Options o;
      o.env = *ParseTargetEnv(env);
      v.push_back(o);
    }
    v[1].max_errors = 0;  // Every error, no early stop.
    v[4].relax_logical_pointer = true;
    v[2].max_errors = 1;
    v[2].warnings_as_errors = {"*"};
    return v;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint32_t> words = fuzz::WordsOf(data, size);

  // The words entry point: a malformed module is one "binary.malformed" error.
  const val::Result first = val::Validate(words, AllOptions()[0]);
  CheckResult(first, AllOptions()[0], words.size());

  Diagnostic diagnostic;
  std::unique_ptr<ir::Module> module = ir::Module::ReadInPlace(words, &diagnostic);
  if (module == nullptr) {
    FUZZ_CHECK(!first.valid && first.diagnostics.size() == 1);
    return 0;
  }
  for (const val::Options& options : AllOptions()) {
    CheckResult(val::Validate(*module, options), options, words.size());
  }

  // Whatever reads also disassembles.
  std::string listing;
  text::DisassembleOptions dis;
  FUZZ_CHECK(text::Disassemble(words, dis, &listing, &diagnostic));
  return 0;
}
