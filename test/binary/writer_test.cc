#include "source/binary/writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/diagnostic.h"
#include "source/grammar/grammar.h"
#include "test/binary/module_builder.h"

namespace coopspv::binary {
namespace {

using testing::ModuleBuilder;
using testing::StringWords;

// A module touching strings, 64-bit literals, bitmask parameters and extended instructions.
ModuleBuilder SampleModule() {
  ModuleBuilder b(40, 0x00010600, 0x00080001, 0);
  b.Add(spv::Op::Capability, {spv::Capability::Shader});
  b.Add(spv::Op::Capability, {spv::Capability::Int64});
  b.Add(spv::Op::ExtInstImport, {1, "GLSL.std.450"});
  b.Add(spv::Op::MemoryModel, {spv::AddressingModel::Logical, spv::MemoryModel::GLSL450});
  b.Add(spv::Op::EntryPoint, {spv::ExecutionModel::GLCompute, 10, "main", 11});
  b.Add(spv::Op::Name, {10, "a name of some length"});
  b.Add(spv::Op::Decorate, {12, spv::Decoration::SpecId, 3});
  b.Add(spv::Op::TypeInt, {2, 32, 0});
  b.Add(spv::Op::TypeInt, {3, 64, 1});
  b.Add(spv::Op::TypeFloat, {4, 32});
  b.Add(spv::Op::TypeFloat, {5, 16, spv::FPEncoding::BFloat16KHR});
  b.Add(spv::Op::Constant, {3, 6, 0xDEADBEEFu, 0xFEEDFACEu});
  b.Add(spv::Op::Constant, {4, 7, 0x3F800000u});
  b.Add(spv::Op::Constant, {5, 8, 0x3F80});
  b.Add(spv::Op::SpecConstant, {2, 12, 16});
  b.Add(spv::Op::SpecConstantOp, {2, 13, spv::Op::IMul, 12, 12});
  b.Add(spv::Op::ExtInst, {4, 14, 1, 40, 7, 7});
  b.Add(spv::Op::Store, {15, 7, 0x2A, 4, 16});
  b.Add(spv::Op::Switch, {6, 20, 1, 0, 21, 2, 0, 22});
  return b;
}

std::vector<uint8_t> BigEndianBytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes;
  for (uint32_t w : words) {
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<uint8_t>(w >> shift));
  }
  return bytes;
}

std::vector<uint8_t> LittleEndianBytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes;
  for (uint32_t w : words) {
    for (int shift = 0; shift < 32; shift += 8) bytes.push_back(static_cast<uint8_t>(w >> shift));
  }
  return bytes;
}

// Reads a byte image and writes it back in the byte order it was read in.
std::vector<uint8_t> ReadThenWrite(const std::vector<uint8_t>& bytes, Endianness* endianness) {
  std::vector<uint32_t> words;
  Diagnostic d;
  EXPECT_TRUE(BytesToWords(bytes, &words, &d)) << d.ToString();
  ParsedModule m;
  EXPECT_TRUE(ParseModule(words, &m, &d)) << d.ToString();
  *endianness = m.header.endianness;
  return WordsToBytes(m.words, m.header.endianness);
}

TEST(WriterTest, WordsToBytesInEitherOrder) {
  const std::vector<uint32_t> words = {0x01020304u, 0xA0B0C0D0u};
  EXPECT_EQ(WordsToBytes(words),
            (std::vector<uint8_t>{0x04, 0x03, 0x02, 0x01, 0xD0, 0xC0, 0xB0, 0xA0}));
  EXPECT_EQ(WordsToBytes(words, Endianness::kLittle), WordsToBytes(words));
  EXPECT_EQ(WordsToBytes(words, Endianness::kBig),
            (std::vector<uint8_t>{0x01, 0x02, 0x03, 0x04, 0xA0, 0xB0, 0xC0, 0xD0}));
  EXPECT_TRUE(WordsToBytes({}).empty());
  EXPECT_TRUE(WordsToBytes({}, Endianness::kBig).empty());
}

TEST(WriterTest, LittleEndianModuleRoundTripsByteForByte) {
  const ModuleBuilder b = SampleModule();
  const std::vector<uint8_t> bytes = LittleEndianBytes(b.words);
  ASSERT_EQ(bytes[0], 0x03);  // The magic, least significant byte first.
  ASSERT_EQ(bytes[3], 0x07);
  Endianness endianness = Endianness::kBig;
  EXPECT_EQ(ReadThenWrite(bytes, &endianness), bytes);
  EXPECT_EQ(endianness, Endianness::kLittle);
}

TEST(WriterTest, BigEndianModuleRoundTripsByteForByte) {
  const ModuleBuilder b = SampleModule();
  const std::vector<uint8_t> bytes = BigEndianBytes(b.words);
  ASSERT_EQ(bytes[0], 0x07);  // The magic, most significant byte first.
  ASSERT_EQ(bytes[3], 0x03);
  Endianness endianness = Endianness::kLittle;
  EXPECT_EQ(ReadThenWrite(bytes, &endianness), bytes);
  EXPECT_EQ(endianness, Endianness::kBig);
  // Written little-endian instead, the same module gives the other byte image.
  std::vector<uint32_t> words;
  Diagnostic d;
  ASSERT_TRUE(BytesToWords(bytes, &words, &d));
  ParsedModule m;
  ASSERT_TRUE(ParseModule(words, &m, &d)) << d.ToString();
  EXPECT_EQ(WordsToBytes(m.words, Endianness::kLittle), LittleEndianBytes(b.words));
}

// Rebuilding every instruction from its parsed operands with InstructionWriter gives back the
// module's words: the operands cover each instruction exactly.
TEST(WriterTest, InstructionsRebuiltFromOperandsMatch) {
  const ModuleBuilder b = SampleModule();
  ParsedModule m;
  Diagnostic d;
  ASSERT_TRUE(ParseModule(b.words, &m, &d)) << d.ToString();
  ASSERT_EQ(m.instructions.size(), b.instruction_count);
  std::vector<uint32_t> out(m.words.begin(), m.words.begin() + kHeaderWords);
  InstructionWriter writer(&out);
  for (size_t i = 0; i < m.instructions.size(); ++i) {
    const ParsedInstruction inst = m.Get(i);
    writer.Begin(inst.opcode);
    uint32_t next = 1;
    for (const ParsedOperand& op : inst.operands) {
      EXPECT_EQ(op.offset, next) << "instruction " << i;
      for (size_t k = 0; k < op.num_words; ++k) writer.Add(inst.word(op, k));
      next = op.offset + op.num_words;
    }
    ASSERT_TRUE(writer.End());
  }
  EXPECT_EQ(out, b.words);
}

TEST(WriterTest, AppendStringPadsAndTerminates) {
  const std::string alphabet = "abcdefghi";
  for (size_t length = 0; length <= 9; ++length) {
    SCOPED_TRACE(length);
    const std::string text = alphabet.substr(0, length);
    std::vector<uint32_t> words = {0xFFFFFFFFu};  // Existing content stays as it is.
    AppendString(text, &words);
    ASSERT_EQ(words.size(), 1 + length / 4 + 1);
    EXPECT_EQ(words[0], 0xFFFFFFFFu);
    const std::vector<uint8_t> bytes = WordsToBytes(std::span<const uint32_t>(words).subspan(1));
    for (size_t i = 0; i < bytes.size(); ++i) {
      EXPECT_EQ(bytes[i], i < length ? static_cast<uint8_t>(text[i]) : 0) << "byte " << i;
    }
    EXPECT_EQ(words.back() >> 24, 0u);  // At least one null byte, in the last word.
    EXPECT_EQ(std::vector<uint32_t>(words.begin() + 1, words.end()), StringWords(text));
    EXPECT_EQ(DecodeString(std::span<const uint32_t>(words).subspan(1)), text);
  }
}

TEST(WriterTest, AppendStringKeepsHighBytes) {
  std::vector<uint32_t> words;
  AppendString("\xff\x80\x7f", &words);
  EXPECT_EQ(words, (std::vector<uint32_t>{0x007F80FFu}));
  words.clear();
  AppendString("\xe2\x82\xac\xe2\x82\xac", &words);  // "€€" in UTF-8.
  EXPECT_EQ(words, (std::vector<uint32_t>{0xE2AC82E2u, 0x0000AC82u}));
}

TEST(WriterTest, AppendedStringIsReadBack) {
  for (const char* name : {"", "x", "main", "GLSL.std.450", "seven77"}) {
    SCOPED_TRACE(name);
    ModuleBuilder b;
    InstructionWriter writer(&b.words);
    writer.Begin(static_cast<uint16_t>(spv::Op::Name));
    writer.Add(1);
    writer.AddString(name);
    ASSERT_TRUE(writer.End());
    ParsedModule m;
    Diagnostic d;
    ASSERT_TRUE(ParseModule(b.words, &m, &d)) << d.ToString();
    ASSERT_EQ(m.instructions.size(), 1u);
    const ParsedInstruction inst = m.Get(0);
    ASSERT_EQ(inst.operands.size(), 2u);
    EXPECT_EQ(inst.operands[1].num_words, std::string_view(name).size() / 4 + 1);
    EXPECT_EQ(DecodeString(inst.words.subspan(2)), name);
  }
}

TEST(WriterTest, InstructionWriterFillsWordCounts) {
  std::vector<uint32_t> out = {7, 8, 9};  // Instructions are appended after existing words.
  InstructionWriter writer(&out);
  writer.Begin(static_cast<uint16_t>(spv::Op::TypeInt));
  writer.Add(2);
  writer.Add(32);
  writer.Add(0);
  ASSERT_TRUE(writer.End());
  writer.Begin(static_cast<uint16_t>(spv::Op::FunctionEnd));
  ASSERT_TRUE(writer.End());
  writer.Begin(static_cast<uint16_t>(spv::Op::ExtInstImport));
  writer.Add(1);
  writer.AddString("GLSL.std.450");
  ASSERT_TRUE(writer.End());
  writer.Begin(0xFFFF);
  writer.Add(0xFFFFFFFFu);
  ASSERT_TRUE(writer.End());
  const std::vector<uint32_t> name = StringWords("GLSL.std.450");
  std::vector<uint32_t> expected = {7, 8, 9, 0x00040015u, 2, 32, 0, 0x00010038u, 0x0006000Bu, 1};
  expected.insert(expected.end(), name.begin(), name.end());
  expected.push_back(0x0002FFFFu);
  expected.push_back(0xFFFFFFFFu);
  EXPECT_EQ(out, expected);
}

TEST(WriterTest, InstructionWriterAtTheWordCountLimit) {
  std::vector<uint32_t> out;
  InstructionWriter writer(&out);
  writer.Begin(static_cast<uint16_t>(spv::Op::Nop));
  for (int i = 0; i < 0xFFFE; ++i) writer.Add(i);
  ASSERT_TRUE(writer.End());  // 65535 words: the largest count there is.
  ASSERT_EQ(out.size(), 0xFFFFu);
  EXPECT_EQ(out[0], 0xFFFF0000u);
  EXPECT_EQ(out.back(), 0xFFFDu);
}

TEST(WriterTest, InstructionWriterRefusesMoreThan65535Words) {
  std::vector<uint32_t> out;
  InstructionWriter writer(&out);
  writer.Begin(static_cast<uint16_t>(spv::Op::Name));
  writer.Add(1);
  writer.AddString(std::string(0x40000, 'a'));  // 65537 words of string.
  EXPECT_FALSE(writer.End());
  EXPECT_EQ(out[0] >> 16, 0u) << "no truncated word count is written";

  // A later instruction in the same vector is still counted from its own start.
  std::vector<uint32_t> more = {1, 2};
  InstructionWriter second(&more);
  second.Begin(static_cast<uint16_t>(spv::Op::Nop));
  for (int i = 0; i < 0xFFFF; ++i) second.Add(0);
  EXPECT_FALSE(second.End());  // 65536 words.
  second.Begin(static_cast<uint16_t>(spv::Op::Capability));
  second.Add(1);
  ASSERT_TRUE(second.End());
  EXPECT_EQ(more[more.size() - 2], 0x00020011u);
}

}  // namespace
}  // namespace coopspv::binary
