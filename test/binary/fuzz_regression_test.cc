// The binary reader against hostile input (test/fuzz/reader_fuzz, utils/fuzz.sh): what it must
// refuse with a clear diagnostic and where, and what it must read in linear time without
// allocating by attacker-chosen sizes. Inputs the fuzzer finds crashing or hanging the reader
// are added here, one test each.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/binary/reader.h"
#include "source/grammar/grammar.h"

namespace coopspv::binary {
namespace {

constexpr uint32_t Op(spv::Op op, uint32_t num_words) {
  return (num_words << 16) | static_cast<uint32_t>(op);
}

std::vector<uint32_t> Header(uint32_t bound) { return {0x07230203, 0x00010000, 0, bound, 0}; }

struct Read {
  bool ok;
  Diagnostic diagnostic;
  ParsedModule module;
};

Read ReadWords(const std::vector<uint32_t>& words, const ReaderOptions& options = {}) {
  Read r;
  r.ok = ParseModule(words, &r.module, &r.diagnostic, options);
  return r;
}

void ExpectRefused(const std::vector<uint32_t>& words, size_t word_offset, const std::string& says,
                   const ReaderOptions& options = {}) {
  const Read r = ReadWords(words, options);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.diagnostic.word_offset, word_offset) << r.diagnostic.ToString();
  EXPECT_NE(r.diagnostic.message.find(says), std::string::npos) << r.diagnostic.ToString();
}

// Id bounds: anything above SPIR-V's universal limit (or the caller's) is refused at word 3
// before anything is sized by it.
TEST(ReaderHostileInput, HugeIdBoundsAreRefused) {
  ExpectRefused(Header(0xFFFFFFFFu), 3, "id bound 4294967295 exceeds the limit of 4194303");
  ExpectRefused(Header(kDefaultMaxIdBound + 1), 3, "exceeds the limit");
  ExpectRefused(Header(0), 3, "id bound is 0");
  ReaderOptions small;
  small.max_id_bound = 100;
  ExpectRefused(Header(101), 3, "id bound 101 exceeds the limit of 100", small);
  EXPECT_TRUE(ReadWords(Header(100), small).ok);
  // At the limit, with its last id defined: accepted, and the per-id memory follows the ids used.
  std::vector<uint32_t> w = Header(kDefaultMaxIdBound);
  w.insert(w.end(), {Op(spv::Op::TypeVoid, 2), kDefaultMaxIdBound - 1});
  const Read r = ReadWords(w);
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.module.instructions[0].result_id, kDefaultMaxIdBound - 1);
  // An id at the bound, in any operand.
  w = Header(10);
  w.insert(w.end(), {Op(spv::Op::TypeInt, 4), 10, 32, 0});
  ExpectRefused(w, 6, "OpTypeInt: id 10 of operand is not below the bound 10");
}

// Word counts: 0, past the end, too small for the operands, too large for them.
TEST(ReaderHostileInput, WordCountsAreChecked) {
  std::vector<uint32_t> w = Header(10);
  w.push_back(Op(spv::Op::Nop, 0));
  ExpectRefused(w, 5, "word count 0");
  w = Header(10);
  w.insert(w.end(), {Op(spv::Op::Name, 0xFFFF), 1});
  ExpectRefused(w, 5, "runs past the end of the module (2 words left)");
  w = Header(10);
  w.insert(w.end(), {Op(spv::Op::TypeInt, 3), 1, 32});
  ExpectRefused(w, 5, "missing operand 'Signedness'");
  w = Header(10);
  w.insert(w.end(), {Op(spv::Op::TypeVoid, 4), 1, 2, 3});
  ExpectRefused(w, 5, "2 word(s) left over after the last operand");
}

// Strings: one that fills a maximal (65535-word) instruction without a null byte is refused at
// its first word; terminated in the last word, it is read as one operand.
TEST(ReaderHostileInput, StringsEndInsideTheirInstruction) {
  std::vector<uint32_t> w = Header(10);
  w.push_back(Op(spv::Op::SourceExtension, 0xFFFF));
  w.insert(w.end(), 0xFFFE, 0x61616161);
  ExpectRefused(w, 6, "literal string has no terminating null byte within the instruction");
  w.back() = 0x00616161;
  const Read r = ReadWords(w);
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  ASSERT_EQ(r.module.operands.size(), 1u);
  EXPECT_EQ(r.module.operands[0].num_words, 0xFFFE);
  EXPECT_EQ(DecodeString(std::span<const uint32_t>(w).subspan(6)).size(), 0xFFFEu * 4 - 1);
}

// Operand counts: the largest instructions the format allows (65533 struct members, 32766
// switch targets) read in linear time; their limits are the validator's business.
TEST(ReaderHostileInput, MaximalOperandCountsAreReadInLinearTime) {
  std::vector<uint32_t> w = Header(100);
  w.insert(w.end(), {Op(spv::Op::TypeInt, 4), 1, 64, 1});
  for (int k = 0; k < 64; ++k) {  // 64 maximal structs: 16 MB of input.
    w.push_back(Op(spv::Op::TypeStruct, 0xFFFF));
    w.push_back(2 + k);
    w.insert(w.end(), 0xFFFD, 1);
  }
  const auto start = std::chrono::steady_clock::now();
  const Read r = ReadWords(w);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.module.instructions.size(), 65u);
  EXPECT_EQ(r.module.operands.size(), 3 + 64 * 0xFFFEu);
  EXPECT_LT(seconds, 10.0);
  // OpSwitch on a 64-bit selector: each case literal takes two words.
  w = Header(100);
  w.insert(w.end(), {Op(spv::Op::TypeInt, 4), 1, 64, 0, Op(spv::Op::Undef, 3), 1, 2});
  constexpr uint32_t kCases = (0xFFFF - 3) / 3;  // 21844 cases: 65535 words.
  w.insert(w.end(), {Op(spv::Op::Switch, 3 + 3 * kCases), 2, 3});
  for (uint32_t k = 0; k < kCases; ++k) w.insert(w.end(), {k, 0, 3});
  const Read s = ReadWords(w);
  ASSERT_TRUE(s.ok) << s.diagnostic.ToString();
  EXPECT_EQ(s.module.instructions.back().operand_count, 2 + 2 * kCases);
  // A case literal cut off by the end of the instruction.
  w = Header(100);
  w.insert(w.end(), {Op(spv::Op::TypeInt, 4), 1, 64, 0, Op(spv::Op::Undef, 3), 1, 2,
                     Op(spv::Op::Switch, 4), 2, 3, 7});
  ExpectRefused(w, 15, "64-bit literal runs past the end of the instruction");
}

// Enumerant parameters and pairs never let an instruction read past its own words.
TEST(ReaderHostileInput, OperandsNeverReadPastTheirInstruction) {
  // OpLoad with every MemoryAccess bit that takes a parameter set, and no parameters.
  std::vector<uint32_t> w = Header(10);
  w.insert(w.end(), {Op(spv::Op::TypeInt, 4), 1, 32, 0, Op(spv::Op::Load, 5), 1, 2, 3,
                     0x2 | 0x8 | 0x10, Op(spv::Op::Nop, 1)});
  ExpectRefused(w, 9, "OpLoad: missing operand");
  // OpDecorate BuiltIn without its parameter, followed by a valid instruction.
  w = Header(10);
  w.insert(w.end(), {Op(spv::Op::Decorate, 3), 1, 11, Op(spv::Op::Nop, 1)});
  ExpectRefused(w, 5, "OpDecorate: missing operand");
}

}  // namespace
}  // namespace coopspv::binary
