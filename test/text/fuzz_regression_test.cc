// Regression tests for what test/fuzz/assembler_fuzz found (utils/fuzz.sh): each input that
// crashed the assembler or disassembler, or whose words did not read back or round-trip,
// embedded here.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "source/binary/reader.h"
#include "source/text/assembler.h"
#include "source/text/disassembler.h"

namespace coopspv::text {
namespace {

using namespace std::string_literals;

struct Assembled {
  bool ok = false;
  std::vector<uint32_t> words;
  Diagnostic diagnostic;
};

Assembled Asm(const std::string& text, bool preserve_numeric_ids = false) {
  Assembled a;
  AssembleOptions options;
  options.preserve_numeric_ids = preserve_numeric_ids;
  a.ok = Assemble(text, options, &a.words, &a.diagnostic);
  return a;
}

// What the fuzzer checks: the words read back, and disassembling then reassembling gives the
// same words (friendly names without preserved ids, numeric ids with them).
void ExpectRoundTrip(const std::string& text) {
  const Assembled a = Asm(text);
  ASSERT_TRUE(a.ok) << a.diagnostic.ToString();
  binary::ParsedModule module;
  Diagnostic d;
  ASSERT_TRUE(binary::ParseModule(a.words, &module, &d)) << d.ToString();
  std::string listing;
  ASSERT_TRUE(Disassemble(a.words, {}, &listing, &d)) << d.ToString();
  const Assembled again = Asm(listing);
  ASSERT_TRUE(again.ok) << again.diagnostic.ToString() << "\n" << listing;
  EXPECT_EQ(again.words, a.words) << listing;
  DisassembleOptions raw;
  raw.friendly_names = false;
  ASSERT_TRUE(Disassemble(a.words, raw, &listing, &d)) << d.ToString();
  const Assembled raw_again = Asm(listing, true);
  ASSERT_TRUE(raw_again.ok) << raw_again.diagnostic.ToString() << "\n" << listing;
  EXPECT_EQ(raw_again.words, a.words) << listing;
}

// A string with a null character inside was packed as written; the reader ends the string at
// the first null byte and then refused the instruction for its left-over words.
TEST(TextFuzzRegression, NullCharacterInAStringIsRefused) {
  const Assembled a = Asm("OpSource GLSL 450 %file \"spans\0 words\"\n%file = OpString \"f\"\n"s);
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.diagnostic.message.find("null"), std::string::npos) << a.diagnostic.message;
  EXPECT_EQ(a.diagnostic.line, 1u);
  const Assembled escaped = Asm("OpName %x \"a\\\0\"\n%x = OpUndef %x\n"s);
  EXPECT_FALSE(escaped.ok);
  ExpectRoundTrip("OpSource GLSL 450 %file \"no null here\"\n%file = OpString \"f\"\n");
}

// A number for an enumerant that the grammar does not define (Decoration 115, MemoryAccess bit
// 0x40000000) was emitted as is; the reader refuses such words. Raw words still write them.
TEST(TextFuzzRegression, UndefinedEnumerantNumbersAreRefused) {
  Assembled a = Asm("OpDecorate %x 115\n%x = OpUndef %x\n");
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.diagnostic.message.find("115"), std::string::npos) << a.diagnostic.message;
  EXPECT_EQ(a.diagnostic.line, 1u);
  EXPECT_EQ(a.diagnostic.column, 15u);
  a =
      Asm("%u = OpTypeInt 32 0\n%p = OpTypePointer Function %u\n"
          "%l = OpLoad %u %p Volatile|0x40000000\n");
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.diagnostic.message.find("0x40000000"), std::string::npos) << a.diagnostic.message;
  a = Asm("OpDecorate %x !115\n%x = OpUndef %x\n");
  EXPECT_TRUE(a.ok) << a.diagnostic.ToString();
  // Defined values may still be written as numbers.
  ExpectRoundTrip(
      "OpCapability 1\nOpMemoryModel 0 1\nOpDecorate %x 11 24\n%x = OpUndef %x\n"
      "%u = OpTypeInt 32 0\n%p = OpTypePointer Function %u\n"
      "%l = OpLoad %u %p Volatile|0x4\n");
}

// An OpName of digits ("3") gave an id the name another, unnamed id prints as (%3): the
// listing used one name for two ids, and reassembled into different words.
TEST(TextFuzzRegression, OpNamesOfDigitsDoNotCollideWithNumberedIds) {
  const std::string text =
      "OpName %a \"3\"\n%a = OpTypeVoid\n%b = OpTypeFunction %a\n%c = OpTypeFunction %a %b\n";
  ExpectRoundTrip(text);
  const Assembled a = Asm(text);
  binary::ParsedModule module;
  ASSERT_TRUE(binary::ParseModule(a.words, &module, nullptr));
  const auto names = FriendlyNames(module);
  EXPECT_EQ(names[3], "3");
  EXPECT_NE(names[1], "3");
}

// "-9223372036854775808" for a 64-bit signed literal negated INT64_MIN as an int64_t: undefined
// behaviour (found by the roundtrip tests under --config=asan).
TEST(TextFuzzRegression, SmallestSigned64BitLiteral) {
  const Assembled a = Asm("%long = OpTypeInt 64 1\n%c = OpConstant %long -9223372036854775808\n");
  ASSERT_TRUE(a.ok) << a.diagnostic.ToString();
  EXPECT_EQ(std::vector<uint32_t>(a.words.end() - 2, a.words.end()),
            (std::vector<uint32_t>{0, 0x80000000u}));
  EXPECT_FALSE(Asm("%long = OpTypeInt 64 1\n%c = OpConstant %long -9223372036854775809\n").ok);
  ExpectRoundTrip("%long = OpTypeInt 64 1\n%c = OpConstant %long -9223372036854775808\n");
}

// Hostile inputs for the friendly names (found reviewing the disassembler for input-driven
// superlinear work, not by the fuzzer).

uint32_t Op(spv::Op op, size_t num_words) {
  return (static_cast<uint32_t>(num_words) << 16) | static_cast<uint32_t>(op);
}

std::vector<uint32_t> Header(uint32_t bound) { return {0x07230203, 0x00010000, 0, bound, 0}; }

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

size_t LongestName(const ws::vector<ws::string>& names) {
  size_t longest = 0;
  for (const ws::string& n : names) longest = std::max(longest, n.size());
  return longest;
}

// Each duplicate name tried the suffixes _0, _1, ... from the start: k ids named "x" cost k^2/2
// lookups (24 s at -O2 for 30000 OpNames). Suffixes must be found in amortized constant time,
// and stay those spirv-dis prints.
TEST(TextHostileInput, ManyEqualOpNamesAreNamedInLinearTime) {
  constexpr uint32_t kIds = 60000;
  std::vector<uint32_t> w = Header(kIds + 1);
  // OpName strings "x_0" and "x_2" taken first, then "x" for every id.
  w.insert(w.end(), {Op(spv::Op::Name, 3), kIds - 1, 0x00305f78});  // "x_0"
  w.insert(w.end(), {Op(spv::Op::Name, 3), kIds, 0x00325f78});      // "x_2"
  for (uint32_t id = 1; id < kIds - 1; ++id) w.insert(w.end(), {Op(spv::Op::Name, 3), id, 'x'});
  for (uint32_t id = 1; id <= kIds; ++id) w.insert(w.end(), {Op(spv::Op::TypeVoid, 2), id});
  binary::ParsedModule module;
  Diagnostic d;
  ASSERT_TRUE(binary::ParseModule(w, &module, &d)) << d.ToString();
  const auto start = std::chrono::steady_clock::now();
  const auto names = FriendlyNames(module);
  EXPECT_LT(SecondsSince(start), 10.0);
  EXPECT_EQ(names[kIds - 1], "x_0");
  EXPECT_EQ(names[kIds], "x_2");
  EXPECT_EQ(names[1], "x");
  EXPECT_EQ(names[2], "x_1");
  EXPECT_EQ(names[3], "x_3");
  EXPECT_EQ(std::string_view(names[kIds - 2]), "x_" + std::to_string(kIds - 2));
  std::string text;
  ASSERT_TRUE(Disassemble(w, {}, &text, &d)) << d.ToString();
}

// Type names spell their element's name ("_arr__arr_uint_uint_1_uint_1"): a chain of nested
// types had names as long as the chain, quadratic in memory (out of memory for 100000 nested
// arrays, a 1.6 MB module). Derived names are capped; past the cap a type is named by kind and
// id.
TEST(TextHostileInput, NamesOfDeeplyNestedTypesStayShort) {
  constexpr uint32_t kDepth = 5000;
  // %1 uint, %2 uint 1, then %3... arrays and %kDepth+3... pointers, each of the previous.
  std::vector<uint32_t> w = Header(2 * kDepth + 3);
  w.insert(w.end(), {Op(spv::Op::TypeInt, 4), 1, 32, 0, Op(spv::Op::Constant, 4), 1, 2, 1});
  for (uint32_t i = 0; i < kDepth; ++i) {
    w.insert(w.end(), {Op(spv::Op::TypeArray, 4), 3 + i, i == 0 ? 1 : 2 + i, 2});
  }
  for (uint32_t i = 0; i < kDepth; ++i) {
    w.insert(w.end(), {Op(spv::Op::TypePointer, 4), 3 + kDepth + i, 7, 2 + kDepth + i});
  }
  binary::ParsedModule module;
  Diagnostic d;
  ASSERT_TRUE(binary::ParseModule(w, &module, &d)) << d.ToString();
  const auto names = FriendlyNames(module);
  EXPECT_EQ(names[3], "_arr_uint_uint_1");
  EXPECT_EQ(names[4], "_arr__arr_uint_uint_1_uint_1");
  EXPECT_LE(LongestName(names), 160u);
  std::string text;
  ASSERT_TRUE(Disassemble(w, {}, &text, &d)) << d.ToString();
  EXPECT_LT(text.size(), w.size() * 4 * 20);
  // The listing still reassembles to the same words.
  const Assembled again = Asm(text);
  ASSERT_TRUE(again.ok) << again.diagnostic.ToString();
  EXPECT_EQ(again.words, w);
}

// An OpName of 65533 words named an id that a 65535-word OpTypeStruct then used 65533 times:
// 16 GB of text from a 0.5 MB module. Names from OpName are capped too.
TEST(TextHostileInput, LongOpNameUsedManyTimesIsCapped) {
  constexpr uint32_t kWords = 65533;
  std::vector<uint32_t> w = Header(3);
  w.push_back(Op(spv::Op::Name, 2 + kWords));
  w.push_back(1);
  for (uint32_t i = 0; i + 1 < kWords; ++i) w.push_back(0x61616161);  // "aaaa"
  w.push_back(0);
  w.insert(w.end(), {Op(spv::Op::TypeInt, 4), 1, 32, 0});
  w.push_back(Op(spv::Op::TypeStruct, 2 + kWords));
  w.push_back(2);
  for (uint32_t i = 0; i < kWords; ++i) w.push_back(1);
  binary::ParsedModule module;
  Diagnostic d;
  ASSERT_TRUE(binary::ParseModule(w, &module, &d)) << d.ToString();
  const auto names = FriendlyNames(module);
  EXPECT_LE(names[1].size(), 1024u);
  EXPECT_EQ(names[1].substr(0, 8), "aaaaaaaa");
  std::string text;
  ASSERT_TRUE(Disassemble(w, {}, &text, &d)) << d.ToString();
  EXPECT_LT(text.size(), size_t{100} << 20);
}

}  // namespace
}  // namespace coopspv::text
