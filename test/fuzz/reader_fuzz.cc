// Fuzzes the binary reader (source/binary) with arbitrary bytes: BytesToWords, Parse with a
// streaming handler, ParseModule and ParseModuleInPlace, both byte orders. Besides crashes it
// checks that the three entry points agree and that every parsed instruction and operand stays
// inside the module's words.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "source/binary/reader.h"
#include "source/binary/writer.h"
#include "source/grammar/grammar.h"
#include "test/fuzz/fuzz_util.h"

namespace {

using namespace coopspv;
using coopspv::fuzz::WordsOf;

// Checks each instruction as it streams by, and optionally stops early.
struct CheckingHandler : binary::InstructionHandler {
  size_t stop_after = ~size_t{0};
  size_t seen = 0;
  uint32_t bound = 0;
  size_t module_words = 0;
  size_t next_offset = binary::kHeaderWords;

  bool OnHeader(const binary::Header& h) override {
    bound = h.bound;
    return stop_after != 0;
  }
  bool OnInstruction(const binary::ParsedInstruction& inst) override {
    FUZZ_CHECK(inst.offset == next_offset);
    FUZZ_CHECK(!inst.words.empty());
    FUZZ_CHECK(inst.offset + inst.words.size() <= module_words);
    FUZZ_CHECK((inst.words[0] >> 16) == inst.words.size());
    FUZZ_CHECK((inst.words[0] & 0xFFFF) == inst.opcode);
    FUZZ_CHECK(inst.info != nullptr && inst.info->opcode == inst.opcode);
    FUZZ_CHECK(inst.result_id < bound && inst.type_id < bound);
    for (const binary::ParsedOperand& op : inst.operands) {
      FUZZ_CHECK(op.offset >= 1 && op.num_words >= 1);
      FUZZ_CHECK(op.offset + op.num_words <= inst.words.size());
      if (grammar::IsIdKind(op.kind)) {
        FUZZ_CHECK(op.num_words == 1);
        FUZZ_CHECK(inst.word(op) != 0 && inst.word(op) < bound);
      }
      if (op.kind == grammar::OperandKind::kLiteralString) {
        const std::string_view s =
            binary::DecodeString(inst.words.subspan(op.offset, op.num_words));
        FUZZ_CHECK(s.size() < op.num_words * 4u);
      }
      if (op.kind == grammar::OperandKind::kLiteralContextDependentNumber) {
        FUZZ_CHECK(op.number_width >= 1 && op.number_width <= 64);
        FUZZ_CHECK(op.num_words == (op.number_width > 32 ? 2 : 1));
      }
    }
    next_offset = inst.offset + inst.words.size();
    return ++seen < stop_after;
  }
};

bool SameModule(const binary::ParsedModule& a, const binary::ParsedModule& b) {
  if (a.instructions.size() != b.instructions.size() || a.operands.size() != b.operands.size()) {
    return false;
  }
  for (size_t i = 0; i < a.instructions.size(); ++i) {
    const auto& x = a.instructions[i];
    const auto& y = b.instructions[i];
    if (x.offset != y.offset || x.num_words != y.num_words || x.opcode != y.opcode ||
        x.type_id != y.type_id || x.result_id != y.result_id || x.ext_inst_set != y.ext_inst_set ||
        x.operand_begin != y.operand_begin || x.operand_count != y.operand_count) {
      return false;
    }
  }
  for (size_t i = 0; i < a.operands.size(); ++i) {
    const auto& x = a.operands[i];
    const auto& y = b.operands[i];
    if (x.offset != y.offset || x.num_words != y.num_words || x.kind != y.kind ||
        x.number_kind != y.number_kind || x.number_width != y.number_width ||
        x.fp_encoding != y.fp_encoding) {
      return false;
    }
  }
  const auto da = a.data(), db = b.data();
  return std::equal(da.begin(), da.end(), db.begin(), db.end());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // BytesToWords: fails exactly on sizes that are not a multiple of four.
  std::vector<uint32_t> words;
  Diagnostic diagnostic;
  const bool converted = binary::BytesToWords({data, size}, &words, &diagnostic);
  FUZZ_CHECK(converted == (size % 4 == 0));
  words = WordsOf(data, size);

  // ParseModule, ParseModuleInPlace and a streaming Parse agree.
  binary::ParsedModule module, in_place;
  Diagnostic d1, d2, d3;
  const bool ok = binary::ParseModule(words, &module, &d1);
  const bool ok_in_place = binary::ParseModuleInPlace(words, &in_place, &d2);
  CheckingHandler handler;
  handler.module_words = words.size();
  const bool ok_stream = binary::Parse(words, handler, &d3);
  FUZZ_CHECK(ok == ok_in_place && ok == ok_stream);
  FUZZ_CHECK(d1.message == d2.message && d1.message == d3.message);
  FUZZ_CHECK(d1.word_offset == d2.word_offset && d1.word_offset == d3.word_offset);
  if (!ok) {
    FUZZ_CHECK(!d1.message.empty());
    FUZZ_CHECK(d1.word_offset == Diagnostic::kNoOffset || d1.word_offset <= words.size());
    return 0;
  }
  FUZZ_CHECK(handler.next_offset == words.size());
  FUZZ_CHECK(SameModule(module, in_place));
  FUZZ_CHECK(module.header.bound >= 1 && module.header.bound <= binary::kDefaultMaxIdBound);
  for (size_t i = 0; i < module.instructions.size(); ++i) {
    const binary::ParsedInstruction inst = module.Get(i);
    FUZZ_CHECK(inst.info != nullptr);
    FUZZ_CHECK(inst.operands.size() == module.instructions[i].operand_count);
  }

  // Stopping early is a success with a prefix of the instructions.
  if (!module.instructions.empty()) {
    CheckingHandler partial;
    partial.module_words = words.size();
    partial.stop_after = module.instructions.size() / 2 + 1;
    FUZZ_CHECK(binary::Parse(words, partial, nullptr));
    FUZZ_CHECK(partial.seen == partial.stop_after);
  }

  // A lower bound limit refuses the module with a diagnostic, never by crashing.
  if (module.header.bound > 1) {
    binary::ReaderOptions strict;
    strict.max_id_bound = module.header.bound - 1;
    binary::ParsedModule refused;
    Diagnostic d;
    FUZZ_CHECK(!binary::ParseModule(words, &refused, &d, strict));
    FUZZ_CHECK(d.word_offset == 3);
  }

  // The other byte order reads the same; writing it back gives the input's bytes.
  std::vector<uint32_t> swapped(words.size());
  for (size_t i = 0; i < words.size(); ++i) swapped[i] = __builtin_bswap32(words[i]);
  binary::ParsedModule other;
  FUZZ_CHECK(binary::ParseModule(swapped, &other, nullptr));
  FUZZ_CHECK(SameModule(module, other));
  FUZZ_CHECK(other.header.endianness != module.header.endianness);
  const std::vector<uint8_t> bytes = binary::WordsToBytes(module.data(), module.header.endianness);
  FUZZ_CHECK(bytes.size() == words.size() * 4);
  FUZZ_CHECK(std::equal(bytes.begin(), bytes.end(), data));
  return 0;
}
