#include "source/binary/reader.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "source/common/diagnostic.h"
#include "source/grammar/grammar.h"
#include "test/binary/module_builder.h"

namespace coopspv::binary {
namespace {

using grammar::OperandKind;
using testing::ByteSwapped;
using testing::FirstWord;
using testing::ModuleBuilder;
using testing::StringWords;

// Ids defined by AddPrologue().
constexpr uint32_t kGlsl = 1;
constexpr uint32_t kVoid = 2;
constexpr uint32_t kBool = 3;
constexpr uint32_t kU32 = 4;
constexpr uint32_t kI64 = 5;
constexpr uint32_t kF16 = 6;
constexpr uint32_t kF32 = 7;
constexpr uint32_t kBF16 = 8;
constexpr uint32_t kU32Const = 9;  // Value 2 (Scope Workgroup).
constexpr uint32_t kI64Const = 10;
constexpr uint32_t kF32One = 11;
constexpr uint32_t kF32Two = 12;
constexpr size_t kPrologueInstructions = 12;
constexpr uint32_t kBound = 64;  // ModuleBuilder's default.

void AddPrologue(ModuleBuilder& b) {
  b.Add(spv::Op::ExtInstImport, {kGlsl, "GLSL.std.450"});
  b.Add(spv::Op::TypeVoid, {kVoid});
  b.Add(spv::Op::TypeBool, {kBool});
  b.Add(spv::Op::TypeInt, {kU32, 32, 0});
  b.Add(spv::Op::TypeInt, {kI64, 64, 1});
  b.Add(spv::Op::TypeFloat, {kF16, 16});
  b.Add(spv::Op::TypeFloat, {kF32, 32});
  b.Add(spv::Op::TypeFloat, {kBF16, 16, spv::FPEncoding::BFloat16KHR});
  b.Add(spv::Op::Constant, {kU32, kU32Const, 2});
  b.Add(spv::Op::Constant, {kI64, kI64Const, 0x89ABCDEFu, 0x01234567u});
  b.Add(spv::Op::Constant, {kF32, kF32One, 0x3F800000u});
  b.Add(spv::Op::Constant, {kF32, kF32Two, 0x40000000u});
}

ModuleBuilder WithPrologue() {
  ModuleBuilder b;
  AddPrologue(b);
  return b;
}

bool Contains(const std::string& text, const std::string& phrase) {
  return text.find(phrase) != std::string::npos;
}

void ExpectOperand(const ParsedOperand& op, uint16_t offset, uint16_t num_words, OperandKind kind) {
  EXPECT_EQ(op.offset, offset);
  EXPECT_EQ(op.num_words, num_words) << "operand at " << offset;
  EXPECT_EQ(op.kind, kind) << "operand at " << offset << " is "
                           << grammar::GetOperandKind(op.kind).name;
}

// Parses `b` and returns the last instruction's index; the module must be valid.
::testing::AssertionResult ParseValid(const ModuleBuilder& b, ParsedModule* module) {
  Diagnostic diagnostic;
  if (!ParseModule(b.words, module, &diagnostic)) {
    return ::testing::AssertionFailure() << diagnostic.ToString();
  }
  if (module->instructions.size() != b.instruction_count) {
    return ::testing::AssertionFailure() << module->instructions.size() << " instructions, "
                                         << b.instruction_count << " expected";
  }
  return ::testing::AssertionSuccess();
}

struct Recorder : InstructionHandler {
  bool OnHeader(const Header& h) override {
    header = h;
    ++headers;
    return header_result;
  }
  bool OnInstruction(const ParsedInstruction& inst) override {
    opcodes.push_back(inst.opcode);
    offsets.push_back(inst.offset);
    return stop_after == 0 || opcodes.size() < stop_after;
  }
  Header header;
  int headers = 0;
  bool header_result = true;
  size_t stop_after = 0;  // 0: never stop.
  std::vector<uint16_t> opcodes;
  std::vector<uint32_t> offsets;
};

// ---------------------------------------------------------------------------------------------
// Valid modules.

TEST(ReaderTest, HeaderAndInstructionIndex) {
  ModuleBuilder b(kBound, 0x00010500, 0x000D000B, 0);
  AddPrologue(b);
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  EXPECT_EQ(m.header.magic, spv::kMagicNumber);
  EXPECT_EQ(m.header.version, 0x00010500u);
  EXPECT_EQ(m.header.major_version(), 1u);
  EXPECT_EQ(m.header.minor_version(), 5u);
  EXPECT_EQ(m.header.generator, 0x000D000Bu);
  EXPECT_EQ(m.header.bound, kBound);
  EXPECT_EQ(m.header.schema, 0u);
  EXPECT_EQ(m.header.endianness, Endianness::kLittle);
  EXPECT_EQ(std::vector<uint32_t>(m.words.begin(), m.words.end()), b.words);
  ASSERT_EQ(m.instructions.size(), kPrologueInstructions);

  // Offsets chain through the word counts; result and type ids are picked out.
  uint32_t offset = kHeaderWords;
  for (size_t i = 0; i < m.instructions.size(); ++i) {
    SCOPED_TRACE(i);
    const ParsedInstruction inst = m.Get(i);
    EXPECT_EQ(inst.offset, offset);
    EXPECT_EQ(inst.words.size(), b.words[offset] >> 16);
    EXPECT_EQ(inst.opcode, b.words[offset] & 0xFFFF);
    ASSERT_NE(inst.info, nullptr);
    EXPECT_EQ(inst.info->opcode, inst.opcode);
    EXPECT_EQ(inst.result_id, i + 1);  // The prologue defines ids 1, 2, ... in order.
    offset += static_cast<uint32_t>(inst.words.size());
  }
  EXPECT_EQ(offset, b.words.size());
  EXPECT_EQ(m.Get(1).type_id, 0u);       // OpTypeVoid.
  EXPECT_EQ(m.Get(8).type_id, kU32);     // OpConstant %u32.
  EXPECT_EQ(m.Get(9).type_id, kI64);     // OpConstant %i64.
  EXPECT_EQ(m.Get(0).ext_inst_set, -1);  // Not an OpExtInst.
  EXPECT_STREQ(m.Get(3).info->name, "OpTypeInt");
}

TEST(ReaderTest, HeaderOnlyModuleHasNoInstructions) {
  ModuleBuilder b(1);
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  EXPECT_EQ(m.header.bound, 1u);
  EXPECT_TRUE(m.instructions.empty());
  EXPECT_TRUE(m.operands.empty());
}

TEST(ReaderTest, ReparsingResetsTheIndex) {
  ParsedModule m;
  ASSERT_TRUE(ParseValid(WithPrologue(), &m));
  ModuleBuilder small;
  small.Add(spv::Op::Capability, {spv::Capability::Shader});
  ASSERT_TRUE(ParseValid(small, &m));
  ASSERT_EQ(m.instructions.size(), 1u);
  EXPECT_EQ(m.operands.size(), 1u);
  EXPECT_EQ(std::vector<uint32_t>(m.words.begin(), m.words.end()), small.words);
}

TEST(ReaderTest, Capability) {
  ModuleBuilder b;
  b.Add(spv::Op::Capability, {spv::Capability::Shader});
  b.Add(spv::Op::Capability, {spv::Capability::CooperativeMatrixKHR});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  for (size_t i = 0; i < 2; ++i) {
    const ParsedInstruction inst = m.Get(i);
    EXPECT_EQ(inst.opcode, static_cast<uint16_t>(spv::Op::Capability));
    EXPECT_EQ(inst.result_id, 0u);
    EXPECT_EQ(inst.type_id, 0u);
    ASSERT_EQ(inst.operands.size(), 1u);
    ExpectOperand(inst.operands[0], 1, 1, OperandKind::kCapability);
  }
  EXPECT_EQ(m.Get(0).word(m.Get(0).operands[0]), 1u);
  EXPECT_EQ(m.Get(1).word(m.Get(1).operands[0]), 6022u);
  EXPECT_EQ(m.Get(1).offset, 7u);
}

TEST(ReaderTest, ExtInstImportString) {
  ModuleBuilder b;
  b.Add(spv::Op::ExtInstImport, {kGlsl, "GLSL.std.450"});  // 12 characters: 4 words.
  b.Add(spv::Op::ExtInstImport, {20, "abc"});              // 3 characters: 1 word.
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction glsl = m.Get(0);
  EXPECT_EQ(glsl.words.size(), 6u);
  EXPECT_EQ(glsl.result_id, kGlsl);
  ASSERT_EQ(glsl.operands.size(), 2u);
  ExpectOperand(glsl.operands[0], 1, 1, OperandKind::kIdResult);
  ExpectOperand(glsl.operands[1], 2, 4, OperandKind::kLiteralString);
  EXPECT_EQ(DecodeString(glsl.words.subspan(2)), "GLSL.std.450");
  const ParsedInstruction abc = m.Get(1);
  ASSERT_EQ(abc.operands.size(), 2u);
  ExpectOperand(abc.operands[1], 2, 1, OperandKind::kLiteralString);
  EXPECT_EQ(DecodeString(abc.words.subspan(2, 1)), "abc");
}

TEST(ReaderTest, TypeIntAndTypeFloat) {
  ParsedModule m;
  ASSERT_TRUE(ParseValid(WithPrologue(), &m));
  for (size_t i : {3, 4}) {  // OpTypeInt 32 0, OpTypeInt 64 1.
    const ParsedInstruction inst = m.Get(i);
    EXPECT_EQ(inst.opcode, static_cast<uint16_t>(spv::Op::TypeInt));
    ASSERT_EQ(inst.operands.size(), 3u);
    ExpectOperand(inst.operands[0], 1, 1, OperandKind::kIdResult);
    ExpectOperand(inst.operands[1], 2, 1, OperandKind::kLiteralInteger);
    ExpectOperand(inst.operands[2], 3, 1, OperandKind::kLiteralInteger);
  }
  EXPECT_EQ(m.Get(4).word(m.Get(4).operands[1]), 64u);
  const ParsedInstruction f16 = m.Get(5);
  EXPECT_EQ(f16.opcode, static_cast<uint16_t>(spv::Op::TypeFloat));
  EXPECT_EQ(f16.result_id, kF16);
  ASSERT_EQ(f16.operands.size(), 2u);  // The encoding is optional.
  ExpectOperand(f16.operands[0], 1, 1, OperandKind::kIdResult);
  ExpectOperand(f16.operands[1], 2, 1, OperandKind::kLiteralInteger);
}

TEST(ReaderTest, ConstantWidthsFollowTheirType) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::Constant, {kF16, 20, 0x3C00});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));

  const ParsedInstruction u32 = m.Get(8);
  EXPECT_EQ(u32.type_id, kU32);
  EXPECT_EQ(u32.result_id, kU32Const);
  ASSERT_EQ(u32.operands.size(), 3u);
  ExpectOperand(u32.operands[0], 1, 1, OperandKind::kIdResultType);
  ExpectOperand(u32.operands[1], 2, 1, OperandKind::kIdResult);
  ExpectOperand(u32.operands[2], 3, 1, OperandKind::kLiteralContextDependentNumber);
  EXPECT_EQ(u32.operands[2].number_kind, NumberKind::kUnsigned);
  EXPECT_EQ(u32.operands[2].number_width, 32);
  EXPECT_EQ(u32.operands[2].fp_encoding, 0);

  const ParsedInstruction i64 = m.Get(9);
  ASSERT_EQ(i64.operands.size(), 3u);
  ExpectOperand(i64.operands[2], 3, 2, OperandKind::kLiteralContextDependentNumber);
  EXPECT_EQ(i64.operands[2].number_kind, NumberKind::kSigned);
  EXPECT_EQ(i64.operands[2].number_width, 64);
  EXPECT_EQ(i64.word(i64.operands[2], 0), 0x89ABCDEFu);  // Low word first.
  EXPECT_EQ(i64.word(i64.operands[2], 1), 0x01234567u);

  const ParsedInstruction f16 = m.Get(kPrologueInstructions);
  EXPECT_EQ(f16.type_id, kF16);
  ASSERT_EQ(f16.operands.size(), 3u);
  ExpectOperand(f16.operands[2], 3, 1, OperandKind::kLiteralContextDependentNumber);
  EXPECT_EQ(f16.operands[2].number_kind, NumberKind::kFloat);
  EXPECT_EQ(f16.operands[2].number_width, 16);
  EXPECT_EQ(f16.operands[2].fp_encoding, 0);  // Plain IEEE half.
}

TEST(ReaderTest, SpecConstantIsSizedLikeConstant) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::SpecConstant, {kI64, 20, 7, 0});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(kPrologueInstructions);
  ASSERT_EQ(inst.operands.size(), 3u);
  ExpectOperand(inst.operands[2], 3, 2, OperandKind::kLiteralContextDependentNumber);
  EXPECT_EQ(inst.operands[2].number_kind, NumberKind::kSigned);
}

TEST(ReaderTest, SwitchOn64BitSelectorHasTwoWordCaseLiterals) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::Switch, {kI64Const, 30, 1, 0, 31, 0xFFFFFFFFu, 0x7FFFFFFFu, 32});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction sw = m.Get(kPrologueInstructions);
  EXPECT_EQ(sw.words.size(), 9u);
  ASSERT_EQ(sw.operands.size(), 6u);
  ExpectOperand(sw.operands[0], 1, 1, OperandKind::kIdRef);
  ExpectOperand(sw.operands[1], 2, 1, OperandKind::kIdRef);
  ExpectOperand(sw.operands[2], 3, 2, OperandKind::kLiteralContextDependentNumber);
  ExpectOperand(sw.operands[3], 5, 1, OperandKind::kIdRef);
  ExpectOperand(sw.operands[4], 6, 2, OperandKind::kLiteralContextDependentNumber);
  ExpectOperand(sw.operands[5], 8, 1, OperandKind::kIdRef);
  for (size_t i : {2, 4}) {
    EXPECT_EQ(sw.operands[i].number_kind, NumberKind::kSigned);
    EXPECT_EQ(sw.operands[i].number_width, 64);
  }
  EXPECT_EQ(sw.word(sw.operands[5]), 32u);
}

TEST(ReaderTest, SwitchOn32BitSelectorHasOneWordCaseLiterals) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::Switch, {kU32Const, 30, 1, 31, 2, 32, 3, 33});
  b.Add(spv::Op::Switch, {kU32Const, 30});  // No cases at all.
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction sw = m.Get(kPrologueInstructions);
  ASSERT_EQ(sw.operands.size(), 8u);
  for (uint16_t i = 2; i < 8; i += 2) {
    ExpectOperand(sw.operands[i], i + 1, 1, OperandKind::kLiteralContextDependentNumber);
    EXPECT_EQ(sw.operands[i].number_kind, NumberKind::kUnsigned);
    EXPECT_EQ(sw.operands[i].number_width, 32);
    ExpectOperand(sw.operands[i + 1], i + 2, 1, OperandKind::kIdRef);
  }
  EXPECT_EQ(m.Get(kPrologueInstructions + 1).operands.size(), 2u);
}

TEST(ReaderTest, ExtInstGlslFMax) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::ExtInst, {kF32, 20, kGlsl, 40, kF32One, kF32Two});  // FMax.
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(kPrologueInstructions);
  EXPECT_EQ(inst.ext_inst_set, grammar::LookupExtInstSet("GLSL.std.450"));
  ASSERT_GE(inst.ext_inst_set, 0);
  EXPECT_EQ(inst.type_id, kF32);
  EXPECT_EQ(inst.result_id, 20u);
  ASSERT_EQ(inst.operands.size(), 6u);
  ExpectOperand(inst.operands[0], 1, 1, OperandKind::kIdResultType);
  ExpectOperand(inst.operands[1], 2, 1, OperandKind::kIdResult);
  ExpectOperand(inst.operands[2], 3, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[3], 4, 1, OperandKind::kLiteralExtInstInteger);
  ExpectOperand(inst.operands[4], 5, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[5], 6, 1, OperandKind::kIdRef);
  // Get() on the index gives the same set as the handler saw.
  EXPECT_EQ(m.instructions[kPrologueInstructions].ext_inst_set, inst.ext_inst_set);
}

TEST(ReaderTest, NonSemanticExtInstTakesAnyNumberOfIds) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::Extension, {"SPV_KHR_non_semantic_info"});
  b.Add(spv::Op::ExtInstImport, {20, "NonSemantic.Foo"});
  b.Add(spv::Op::ExtInst, {kVoid, 21, 20, 7});
  b.Add(spv::Op::ExtInst, {kVoid, 22, 20, 123456, kF32One});
  b.Add(spv::Op::ExtInst, {kVoid, 23, 20, 0, kF32One, kF32Two, kU32Const, kI64Const, 21, 22});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const size_t first = kPrologueInstructions + 2;
  const size_t expected_ids[] = {0, 1, 6};
  for (size_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    const ParsedInstruction inst = m.Get(first + k);
    EXPECT_EQ(inst.ext_inst_set, -1);
    ASSERT_EQ(inst.operands.size(), 4 + expected_ids[k]);
    ExpectOperand(inst.operands[3], 4, 1, OperandKind::kLiteralExtInstInteger);
    for (uint16_t i = 4; i < inst.operands.size(); ++i) {
      ExpectOperand(inst.operands[i], i + 1, 1, OperandKind::kIdRef);
    }
  }
}

TEST(ReaderTest, SpecConstantOpIMul) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::SpecConstant, {kU32, 20, 3});
  b.Add(spv::Op::SpecConstantOp, {kU32, 21, spv::Op::IMul, kU32Const, 20});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(kPrologueInstructions + 1);
  EXPECT_EQ(inst.type_id, kU32);
  EXPECT_EQ(inst.result_id, 21u);
  ASSERT_EQ(inst.operands.size(), 5u);
  ExpectOperand(inst.operands[0], 1, 1, OperandKind::kIdResultType);
  ExpectOperand(inst.operands[1], 2, 1, OperandKind::kIdResult);
  ExpectOperand(inst.operands[2], 3, 1, OperandKind::kLiteralSpecConstantOpInteger);
  ExpectOperand(inst.operands[3], 4, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[4], 5, 1, OperandKind::kIdRef);
  EXPECT_EQ(inst.word(inst.operands[2]), 132u);
}

TEST(ReaderTest, LoadWithAlignedMemoryAccess) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::TypePointer, {20, spv::StorageClass::Function, kU32});
  b.Add(spv::Op::Load, {kU32, 22, 21, spv::MemoryAccess::Aligned, 4});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(kPrologueInstructions + 1);
  ASSERT_EQ(inst.operands.size(), 5u);
  ExpectOperand(inst.operands[2], 3, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[3], 4, 1, OperandKind::kMemoryAccess);
  ExpectOperand(inst.operands[4], 5, 1, OperandKind::kLiteralInteger);
  EXPECT_EQ(inst.word(inst.operands[4]), 4u);
  ExpectOperand(m.Get(kPrologueInstructions).operands[1], 2, 1, OperandKind::kStorageClass);
}

TEST(ReaderTest, StoreBitmaskParametersFollowInBitOrder) {
  ModuleBuilder b = WithPrologue();
  // MakePointerAvailable (0x8, a scope) | NonPrivatePointer (0x20, no parameter).
  b.Add(spv::Op::Store, {21, 22, 0x28, kU32Const});
  // Aligned (0x2, a literal) | MakePointerAvailable (0x8) | MakePointerVisible (0x10): the
  // parameters come lowest bit first.
  b.Add(spv::Op::Store, {21, 22, 0x3A, 16, 23, 24});
  // No memory access operand at all; and the mask 0 (None).
  b.Add(spv::Op::Store, {21, 22});
  b.Add(spv::Op::Store, {21, 22, 0});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));

  const ParsedInstruction one = m.Get(kPrologueInstructions);
  ASSERT_EQ(one.operands.size(), 4u);
  ExpectOperand(one.operands[0], 1, 1, OperandKind::kIdRef);
  ExpectOperand(one.operands[1], 2, 1, OperandKind::kIdRef);
  ExpectOperand(one.operands[2], 3, 1, OperandKind::kMemoryAccess);
  ExpectOperand(one.operands[3], 4, 1, OperandKind::kIdScope);

  const ParsedInstruction three = m.Get(kPrologueInstructions + 1);
  ASSERT_EQ(three.operands.size(), 6u);
  ExpectOperand(three.operands[2], 3, 1, OperandKind::kMemoryAccess);
  ExpectOperand(three.operands[3], 4, 1, OperandKind::kLiteralInteger);
  ExpectOperand(three.operands[4], 5, 1, OperandKind::kIdScope);
  ExpectOperand(three.operands[5], 6, 1, OperandKind::kIdScope);
  EXPECT_EQ(three.word(three.operands[4]), 23u);

  EXPECT_EQ(m.Get(kPrologueInstructions + 2).operands.size(), 2u);
  ASSERT_EQ(m.Get(kPrologueInstructions + 3).operands.size(), 3u);
  ExpectOperand(m.Get(kPrologueInstructions + 3).operands[2], 3, 1, OperandKind::kMemoryAccess);
}

TEST(ReaderTest, DecorateSpecId) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::Decorate, {20, spv::Decoration::SpecId, 7});
  b.Add(spv::Op::Decorate, {20, spv::Decoration::RelaxedPrecision});
  b.Add(spv::Op::SpecConstant, {kU32, 20, 16});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(kPrologueInstructions);
  EXPECT_EQ(inst.result_id, 0u);
  ASSERT_EQ(inst.operands.size(), 3u);
  ExpectOperand(inst.operands[0], 1, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[1], 2, 1, OperandKind::kDecoration);
  ExpectOperand(inst.operands[2], 3, 1, OperandKind::kLiteralInteger);
  EXPECT_EQ(inst.word(inst.operands[2]), 7u);
  EXPECT_EQ(m.Get(kPrologueInstructions + 1).operands.size(), 2u);
}

TEST(ReaderTest, EnumerantParametersClosingTheLayout) {
  // A decoration, execution mode or loop control with one-word parameters is read by the layout;
  // a string parameter by the general way: the records are the same either way.
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::MemberDecorate, {20, 1, spv::Decoration::Offset, 16});
  b.Add(spv::Op::ExecutionMode, {21, spv::ExecutionMode::LocalSize, 64, 2, 1});
  b.Add(spv::Op::DecorateId, {22, spv::Decoration::UniformId, kU32Const});
  b.Add(spv::Op::Decorate, {23, spv::Decoration::BuiltIn, spv::BuiltIn::SubgroupId});
  b.Add(spv::Op::Decorate, {24, spv::Decoration::UserSemantic, "abcd"});
  b.Add(spv::Op::LoopMerge, {25, 26, 0x8 | 0x1, 4});  // DependencyLength 4 | Unroll.
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction member = m.Get(kPrologueInstructions);
  ASSERT_EQ(member.operands.size(), 4u);
  ExpectOperand(member.operands[1], 2, 1, OperandKind::kLiteralInteger);
  ExpectOperand(member.operands[2], 3, 1, OperandKind::kDecoration);
  ExpectOperand(member.operands[3], 4, 1, OperandKind::kLiteralInteger);
  EXPECT_EQ(member.word(member.operands[3]), 16u);
  const ParsedInstruction mode = m.Get(kPrologueInstructions + 1);
  ASSERT_EQ(mode.operands.size(), 5u);
  ExpectOperand(mode.operands[1], 2, 1, OperandKind::kExecutionMode);
  for (uint16_t k = 2; k < 5; ++k) {
    ExpectOperand(mode.operands[k], k + 1, 1, OperandKind::kLiteralInteger);
  }
  const ParsedInstruction uniform_id = m.Get(kPrologueInstructions + 2);
  ASSERT_EQ(uniform_id.operands.size(), 3u);
  ExpectOperand(uniform_id.operands[2], 3, 1, OperandKind::kIdScope);
  const ParsedInstruction builtin = m.Get(kPrologueInstructions + 3);
  ASSERT_EQ(builtin.operands.size(), 3u);
  ExpectOperand(builtin.operands[2], 3, 1, OperandKind::kBuiltIn);
  const ParsedInstruction semantic = m.Get(kPrologueInstructions + 4);
  ASSERT_EQ(semantic.operands.size(), 3u);
  ExpectOperand(semantic.operands[2], 3, 2, OperandKind::kLiteralString);
  const ParsedInstruction merge = m.Get(kPrologueInstructions + 5);
  ASSERT_EQ(merge.operands.size(), 4u);
  ExpectOperand(merge.operands[2], 3, 1, OperandKind::kLoopControl);
  ExpectOperand(merge.operands[3], 4, 1, OperandKind::kLiteralInteger);
}

TEST(ReaderTest, LayoutReadInstructions) {
  // Opcodes whose operands the reader takes by a build-time layout: fixed one-word operands,
  // then optional ones, a variadic tail or a closing string.
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::Name, {20, "abcd"});
  b.Add(spv::Op::TypePointer, {21, spv::StorageClass::Function, kU32});
  b.Add(spv::Op::AccessChain, {21, 22, 23, kU32Const, kU32Const});
  b.Add(spv::Op::SelectionMerge, {24, spv::SelectionControl::Flatten});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction name = m.Get(kPrologueInstructions);
  ASSERT_EQ(name.operands.size(), 2u);
  ExpectOperand(name.operands[0], 1, 1, OperandKind::kIdRef);
  ExpectOperand(name.operands[1], 2, 2, OperandKind::kLiteralString);
  const ParsedInstruction pointer = m.Get(kPrologueInstructions + 1);
  EXPECT_EQ(pointer.result_id, 21u);
  ASSERT_EQ(pointer.operands.size(), 3u);
  ExpectOperand(pointer.operands[1], 2, 1, OperandKind::kStorageClass);
  const ParsedInstruction chain = m.Get(kPrologueInstructions + 2);
  EXPECT_EQ(chain.type_id, 21u);
  EXPECT_EQ(chain.result_id, 22u);
  ASSERT_EQ(chain.operands.size(), 5u);
  ExpectOperand(chain.operands[4], 5, 1, OperandKind::kIdRef);
  const ParsedInstruction merge = m.Get(kPrologueInstructions + 3);
  ASSERT_EQ(merge.operands.size(), 2u);
  ExpectOperand(merge.operands[1], 2, 1, OperandKind::kSelectionControl);
}

TEST(ReaderTest, TypeFloatWithBFloat16Encoding) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::Constant, {kBF16, 20, 0x3F80});
  b.Add(spv::Op::TypeFloat, {21, 8, spv::FPEncoding::Float8E4M3EXT});
  b.Add(spv::Op::Constant, {21, 22, 0x38});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction type = m.Get(7);
  EXPECT_EQ(type.result_id, kBF16);
  ASSERT_EQ(type.operands.size(), 3u);
  ExpectOperand(type.operands[1], 2, 1, OperandKind::kLiteralInteger);
  ExpectOperand(type.operands[2], 3, 1, OperandKind::kFPEncoding);
  EXPECT_EQ(type.word(type.operands[2]), 0u);  // BFloat16KHR is the value 0.

  const ParsedInstruction bf16 = m.Get(kPrologueInstructions);
  ASSERT_EQ(bf16.operands.size(), 3u);
  EXPECT_EQ(bf16.operands[2].number_kind, NumberKind::kFloat);
  EXPECT_EQ(bf16.operands[2].number_width, 16);
  EXPECT_EQ(bf16.operands[2].fp_encoding, 1);  // BFloat16KHR + 1.

  const ParsedInstruction fp8 = m.Get(kPrologueInstructions + 2);
  ASSERT_EQ(fp8.operands.size(), 3u);
  EXPECT_EQ(fp8.operands[2].number_width, 8);
  EXPECT_EQ(fp8.operands[2].fp_encoding, static_cast<uint16_t>(spv::FPEncoding::Float8E4M3EXT) + 1);
}

TEST(ReaderTest, TypeCooperativeMatrixKHR) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::TypeCooperativeMatrixKHR, {20, kF16, kU32Const, kU32Const, kU32Const, 21});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(kPrologueInstructions);
  EXPECT_EQ(inst.opcode, 4456);
  EXPECT_EQ(inst.result_id, 20u);
  ASSERT_EQ(inst.operands.size(), 6u);
  ExpectOperand(inst.operands[0], 1, 1, OperandKind::kIdResult);
  ExpectOperand(inst.operands[1], 2, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[2], 3, 1, OperandKind::kIdScope);
  ExpectOperand(inst.operands[3], 4, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[4], 5, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[5], 6, 1, OperandKind::kIdRef);
}

TEST(ReaderTest, CooperativeMatrixLoadTensorNVWithDecodeFunctions) {
  ModuleBuilder b = WithPrologue();
  // Result type 20, pointer 22, object 23, layout 24; MemoryAccess Aligned 16; addressing
  // DecodeFunc (0x2) | DecodeVectorFunc (0x4) with their functions 25 and 26.
  b.Add(spv::Op::CooperativeMatrixLoadTensorNV,
        {20, 21, 22, 23, 24, spv::MemoryAccess::Aligned, 16, 0x6, 25, 26});
  b.Add(spv::Op::CooperativeMatrixLoadTensorNV, {20, 27, 22, 23, 24, 0, 0});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(kPrologueInstructions);
  EXPECT_EQ(inst.opcode, 5367);
  EXPECT_EQ(inst.type_id, 20u);
  EXPECT_EQ(inst.result_id, 21u);
  ASSERT_EQ(inst.operands.size(), 10u);
  ExpectOperand(inst.operands[0], 1, 1, OperandKind::kIdResultType);
  ExpectOperand(inst.operands[1], 2, 1, OperandKind::kIdResult);
  ExpectOperand(inst.operands[2], 3, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[3], 4, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[4], 5, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[5], 6, 1, OperandKind::kMemoryAccess);
  ExpectOperand(inst.operands[6], 7, 1, OperandKind::kLiteralInteger);
  ExpectOperand(inst.operands[7], 8, 1, OperandKind::kTensorAddressingOperands);
  ExpectOperand(inst.operands[8], 9, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[9], 10, 1, OperandKind::kIdRef);
  EXPECT_EQ(inst.word(inst.operands[8]), 25u);
  EXPECT_EQ(inst.word(inst.operands[9]), 26u);
  const ParsedInstruction plain = m.Get(kPrologueInstructions + 1);
  ASSERT_EQ(plain.operands.size(), 7u);
  ExpectOperand(plain.operands[6], 7, 1, OperandKind::kTensorAddressingOperands);
}

TEST(ReaderTest, EntryPointNameThenInterface) {
  ModuleBuilder b = WithPrologue();
  b.Add(spv::Op::EntryPoint, {spv::ExecutionModel::GLCompute, 20, "main", 21, 22});
  b.Add(spv::Op::EntryPoint, {spv::ExecutionModel::GLCompute, 23, "a_longer_name"});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(kPrologueInstructions);
  ASSERT_EQ(inst.operands.size(), 5u);
  ExpectOperand(inst.operands[0], 1, 1, OperandKind::kExecutionModel);
  ExpectOperand(inst.operands[1], 2, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[2], 3, 2, OperandKind::kLiteralString);  // "main" + null word.
  ExpectOperand(inst.operands[3], 5, 1, OperandKind::kIdRef);
  ExpectOperand(inst.operands[4], 6, 1, OperandKind::kIdRef);
  EXPECT_EQ(DecodeString(inst.words.subspan(3)), "main");
  const ParsedInstruction other = m.Get(kPrologueInstructions + 1);
  ASSERT_EQ(other.operands.size(), 3u);
  ExpectOperand(other.operands[2], 3, 4, OperandKind::kLiteralString);
  EXPECT_EQ(DecodeString(other.words.subspan(3)), "a_longer_name");
}

TEST(ReaderTest, InstructionOfTheLargestWordCount) {
  ModuleBuilder b;
  b.Add(spv::Op::TypeInt, {2, 32, 0});
  b.words.push_back(testing::FirstWord(0xFFFF, spv::Op::TypeStruct));
  b.words.push_back(3);
  b.words.insert(b.words.end(), 0xFFFD, 2);  // 65533 members.
  b.instruction_count = 2;
  b.Add(spv::Op::Name, {3, "big"});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const ParsedInstruction inst = m.Get(1);
  EXPECT_EQ(inst.words.size(), 0xFFFFu);
  ASSERT_EQ(inst.operands.size(), 0xFFFEu);
  ExpectOperand(inst.operands[0], 1, 1, OperandKind::kIdResult);
  ExpectOperand(inst.operands.back(), 0xFFFE, 1, OperandKind::kIdRef);
  EXPECT_EQ(m.Get(2).offset, kHeaderWords + 4 + 0xFFFF);
}

// Type shapes are remembered per id however sparse the ids are.
TEST(ReaderTest, SparseIdsKeepTheirTypes) {
  const uint32_t bound = kDefaultMaxIdBound;
  ModuleBuilder b(bound);
  b.Add(spv::Op::TypeInt, {bound - 1, 64, 0});
  b.Add(spv::Op::TypeFloat, {1, 16});
  b.Add(spv::Op::TypeInt, {100000, 8, 1});
  b.Add(spv::Op::Constant, {bound - 1, 2, 1, 2});
  b.Add(spv::Op::Constant, {1, bound - 2, 0x3C00});
  b.Add(spv::Op::Constant, {100000, 3, 0xFF});
  b.Add(spv::Op::Switch, {2, 4, 7, 0, 5});
  ParsedModule m;
  ASSERT_TRUE(ParseValid(b, &m));
  const struct {
    size_t index;
    NumberKind kind;
    uint8_t width;
    uint16_t num_words;
  } expected[] = {{3, NumberKind::kUnsigned, 64, 2},
                  {4, NumberKind::kFloat, 16, 1},
                  {5, NumberKind::kSigned, 8, 1}};
  for (const auto& e : expected) {
    SCOPED_TRACE(e.index);
    const ParsedInstruction inst = m.Get(e.index);
    ASSERT_EQ(inst.operands.size(), 3u);
    EXPECT_EQ(inst.operands[2].number_kind, e.kind);
    EXPECT_EQ(inst.operands[2].number_width, e.width);
    EXPECT_EQ(inst.operands[2].num_words, e.num_words);
  }
  const ParsedInstruction sw = m.Get(6);
  ASSERT_EQ(sw.operands.size(), 4u);
  ExpectOperand(sw.operands[2], 3, 2, OperandKind::kLiteralContextDependentNumber);
}

TEST(ReaderTest, DecodeStringStopsAtTheNullOrTheEnd) {
  EXPECT_EQ(DecodeString(StringWords("")), "");
  EXPECT_EQ(DecodeString(StringWords("abcdefgh")), "abcdefgh");
  const std::vector<uint32_t> unterminated = {0x64636261u};
  EXPECT_EQ(DecodeString(unterminated), "abcd");
}

TEST(ReaderTest, IdBoundAtTheLimitIsAccepted) {
  ModuleBuilder b(100);
  b.Add(spv::Op::TypeVoid, {99});
  ReaderOptions options;
  options.max_id_bound = 100;
  ParsedModule m;
  Diagnostic d;
  EXPECT_TRUE(ParseModule(b.words, &m, &d, options)) << d.ToString();
  ModuleBuilder big(kDefaultMaxIdBound);
  big.Add(spv::Op::TypeVoid, {kDefaultMaxIdBound - 1});
  EXPECT_TRUE(ParseModule(big.words, &m, &d)) << d.ToString();
  EXPECT_EQ(m.Get(0).result_id, kDefaultMaxIdBound - 1);
}

TEST(ReaderTest, BigEndianModule) {
  ModuleBuilder b(kBound, 0x00010300, 0x00080001, 0);
  AddPrologue(b);
  b.Add(spv::Op::Switch, {kI64Const, 30, 1, 0, 31});
  b.Add(spv::Op::Name, {kU32, "uint"});
  const std::vector<uint32_t> swapped = ByteSwapped(b.words);
  ASSERT_NE(swapped[0], spv::kMagicNumber);

  ParsedModule little;
  ParsedModule big;
  Diagnostic d;
  ASSERT_TRUE(ParseModule(b.words, &little, &d)) << d.ToString();
  ASSERT_TRUE(ParseModule(swapped, &big, &d)) << d.ToString();
  EXPECT_EQ(big.header.endianness, Endianness::kBig);
  EXPECT_EQ(little.header.endianness, Endianness::kLittle);
  EXPECT_EQ(big.header.magic, spv::kMagicNumber);
  EXPECT_EQ(big.header.version, 0x00010300u);
  EXPECT_EQ(big.header.generator, 0x00080001u);
  EXPECT_EQ(big.header.bound, kBound);
  EXPECT_EQ(std::vector<uint32_t>(big.words.begin(), big.words.end()),
            b.words);  // Kept in host order.
  ASSERT_EQ(big.instructions.size(), little.instructions.size());
  for (size_t i = 0; i < big.instructions.size(); ++i) {
    SCOPED_TRACE(i);
    const ParsedInstruction x = big.Get(i);
    const ParsedInstruction y = little.Get(i);
    EXPECT_EQ(x.offset, y.offset);
    EXPECT_EQ(x.opcode, y.opcode);
    EXPECT_EQ(x.result_id, y.result_id);
    ASSERT_EQ(x.operands.size(), y.operands.size());
    for (size_t k = 0; k < x.operands.size(); ++k) {
      EXPECT_EQ(x.operands[k].offset, y.operands[k].offset);
      EXPECT_EQ(x.operands[k].num_words, y.operands[k].num_words);
      EXPECT_EQ(x.operands[k].kind, y.operands[k].kind);
    }
  }
  const ParsedInstruction name = big.Get(big.instructions.size() - 1);
  EXPECT_EQ(DecodeString(name.words.subspan(2)), "uint");
}

TEST(ReaderTest, BigEndianModuleThroughAHandler) {
  ModuleBuilder b = WithPrologue();
  const std::vector<uint32_t> swapped = ByteSwapped(b.words);
  Recorder big;
  Recorder little;
  Diagnostic d;
  ASSERT_TRUE(Parse(swapped, big, &d)) << d.ToString();
  ASSERT_TRUE(Parse(b.words, little, &d)) << d.ToString();
  EXPECT_EQ(big.headers, 1);
  EXPECT_EQ(big.header.endianness, Endianness::kBig);
  EXPECT_EQ(big.header.bound, kBound);
  EXPECT_EQ(little.header.endianness, Endianness::kLittle);
  EXPECT_EQ(big.opcodes, little.opcodes);
  EXPECT_EQ(big.offsets, little.offsets);
  EXPECT_EQ(big.opcodes.size(), kPrologueInstructions);
}

TEST(ReaderTest, BytesToWords) {
  const std::vector<uint8_t> bytes = {0x03, 0x02, 0x23, 0x07, 0x01, 0x02, 0x03, 0x04};
  std::vector<uint32_t> words = {99};
  Diagnostic d;
  ASSERT_TRUE(BytesToWords(bytes, &words, &d));
  EXPECT_EQ(words, (std::vector<uint32_t>{spv::kMagicNumber, 0x04030201u}));
  ASSERT_TRUE(BytesToWords({}, &words, &d));
  EXPECT_TRUE(words.empty());
}

TEST(ReaderTest, BytesToWordsFailsOnSizesNotMultipleOfFour) {
  for (size_t size : {1, 2, 3, 5, 6, 7, 21, 22, 23}) {
    SCOPED_TRACE(size);
    const std::vector<uint8_t> bytes(size, 0xAB);
    std::vector<uint32_t> words;
    Diagnostic d;
    EXPECT_FALSE(BytesToWords(bytes, &words, &d));
    EXPECT_EQ(d.message, "module size " + std::to_string(size) + " bytes is not a multiple of 4");
    EXPECT_EQ(d.word_offset, size / 4);
    EXPECT_FALSE(BytesToWords(bytes, &words, nullptr));
  }
}

// A module from bytes, as a file would give it, either byte order.
TEST(ReaderTest, BigEndianBytesParse) {
  ModuleBuilder b = WithPrologue();
  std::vector<uint8_t> bytes;
  for (uint32_t w : b.words) {
    for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<uint8_t>(w >> shift));
  }
  std::vector<uint32_t> words;
  Diagnostic d;
  ASSERT_TRUE(BytesToWords(bytes, &words, &d));
  ParsedModule m;
  ASSERT_TRUE(ParseModule(words, &m, &d)) << d.ToString();
  EXPECT_EQ(m.header.endianness, Endianness::kBig);
  EXPECT_EQ(std::vector<uint32_t>(m.words.begin(), m.words.end()), b.words);
  EXPECT_EQ(m.instructions.size(), kPrologueInstructions);
}

TEST(ReaderTest, HandlerReturningFalseStopsTheParse) {
  ModuleBuilder b = WithPrologue();
  b.words.push_back(FirstWord(1, static_cast<spv::Op>(9)));  // Never reached: unknown opcode.
  for (size_t n : {1, 3, 12}) {
    SCOPED_TRACE(n);
    Recorder r;
    r.stop_after = n;
    Diagnostic d;
    EXPECT_TRUE(Parse(b.words, r, &d)) << d.ToString();
    EXPECT_EQ(r.opcodes.size(), n);
    EXPECT_EQ(r.offsets.front(), kHeaderWords);
  }
  // Without the stop, the bad instruction is reached.
  Recorder all;
  Diagnostic d;
  EXPECT_FALSE(Parse(b.words, all, &d));
  EXPECT_EQ(all.opcodes.size(), kPrologueInstructions);
  EXPECT_TRUE(Contains(d.message, "unknown opcode 9")) << d.message;
}

TEST(ReaderTest, HandlerReturningFalseFromOnHeaderStopsBeforeInstructions) {
  ModuleBuilder b = WithPrologue();
  b.words.push_back(0);  // Never reached: word count 0.
  Recorder r;
  r.header_result = false;
  Diagnostic d;
  EXPECT_TRUE(Parse(b.words, r, &d));
  EXPECT_EQ(r.headers, 1);
  EXPECT_TRUE(r.opcodes.empty());
  Recorder swapped;
  swapped.header_result = false;
  EXPECT_TRUE(Parse(ByteSwapped(b.words), swapped, &d));
  EXPECT_EQ(swapped.header.endianness, Endianness::kBig);
  EXPECT_TRUE(swapped.opcodes.empty());
}

// ---------------------------------------------------------------------------------------------
// Bad input: each case must fail, at the right word, for the right reason.

struct BadInput {
  std::vector<uint32_t> words;
  size_t offset;       // Expected Diagnostic::word_offset.
  std::string phrase;  // Expected in Diagnostic::message.
  size_t seen = 0;     // Instructions the handler sees before the failure.
  ReaderOptions options = {};
  bool big_endian_too = true;  // The byte-swapped module fails the same way.
};

struct BadCase {
  const char* name;
  std::function<BadInput()> make;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

// The usual case: the last instruction of `b` is the bad one.
BadInput Bad(const ModuleBuilder& b, size_t offset, std::string phrase) {
  return {b.words, offset, std::move(phrase), b.instruction_count - 1};
}

BadInput TruncatedHeader(size_t n) {
  ModuleBuilder b;
  b.words.resize(n);
  return {b.words, 0, "truncated header: " + std::to_string(n) + " words, a SPIR-V module needs"};
}

std::vector<BadCase> BadCases() {
  using spv::Op;
  return {
      // Header.
      {"Empty",
       [] {
         return BadInput{{}, 0, "truncated header: 0 words"};
       }},
      {"HeaderOf1Word", [] { return TruncatedHeader(1); }},
      {"HeaderOf2Words", [] { return TruncatedHeader(2); }},
      {"HeaderOf3Words", [] { return TruncatedHeader(3); }},
      {"HeaderOf4Words", [] { return TruncatedHeader(4); }},
      {"WrongMagic",
       [] {
         ModuleBuilder b;
         b.words[0] = 0x07230204;
         return BadInput{b.words, 0,  "invalid magic number 0x07230204 (expected 0x07230203)",
                         0,       {}, false};
       }},
      {"BoundZero",
       [] {
         ModuleBuilder b(0);
         b.Add(Op::Capability, {spv::Capability::Shader});
         return BadInput{b.words, 3, "id bound is 0"};
       }},
      {"BoundAboveDefaultLimit",
       [] {
         ModuleBuilder b(kDefaultMaxIdBound + 1);
         return BadInput{b.words, 3, "id bound 4194304 exceeds the limit of 4194303"};
       }},
      {"BoundAboveOptionLimit",
       [] {
         ModuleBuilder b(101);
         ReaderOptions options;
         options.max_id_bound = 100;
         return BadInput{b.words, 3, "id bound 101 exceeds the limit of 100", 0, options};
       }},
      // Instruction framing.
      {"WordCountZero",
       [] {
         ModuleBuilder b;
         const size_t at = b.AddCounted(0, Op::Capability, {spv::Capability::Shader});
         return Bad(b, at, "instruction with opcode 17 has word count 0");
       }},
      {"WordCountPastTheEnd",
       [] {
         ModuleBuilder b;
         const size_t at = b.AddCounted(4, Op::TypeInt, {20, 32});
         return Bad(b, at,
                    "instruction with opcode 21 and word count 4 runs past the end of the module "
                    "(3 words left)");
       }},
      {"UnknownOpcodeInAGap",
       [] {
         ModuleBuilder b;
         const size_t at = b.AddCounted(1, static_cast<Op>(9), {});
         return Bad(b, at, "unknown opcode 9");
       }},
      {"UnknownOpcodeAboveTheLast",
       [] {
         ModuleBuilder b;
         const size_t at = b.AddCounted(2, static_cast<Op>(0xFFFF), {1});
         return Bad(b, at, "unknown opcode 65535");
       }},
      {"UnknownOpcodeAfterValidInstructions",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.AddCounted(1, static_cast<Op>(13), {});
         BadInput bad = Bad(b, at, "unknown opcode 13");
         EXPECT_EQ(bad.seen, kPrologueInstructions);
         return bad;
       }},
      {"ManyInstructionsLastTruncated",
       [] {
         ModuleBuilder b;
         for (int i = 0; i < 100; ++i) b.Add(Op::Capability, {spv::Capability::Shader});
         const size_t at = b.AddCounted(4, Op::TypeInt, {20, 32});
         EXPECT_EQ(at, kHeaderWords + 200);
         return Bad(b, at, "word count 4 runs past the end of the module (3 words left)");
       }},
      // Operand counts.
      {"TypeIntTooFewOperands",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::TypeInt, {20, 32});
         return Bad(b, at,
                    "OpTypeInt: missing operand 'Signedness' (LiteralInteger): word count 3 is "
                    "too small");
       }},
      {"TypeVoidTooManyOperands",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::TypeVoid, {20, 0});
         return Bad(b, at,
                    "OpTypeVoid: 1 word(s) left over after the last operand: word count 3 is too "
                    "large");
       }},
      {"ConstantWithExtraWord",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Constant, {kU32, 20, 1, 0});
         return Bad(b, at, "OpConstant: 1 word(s) left over after the last operand");
       }},
      {"ConstantWithoutItsValue",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Constant, {kU32, 20});
         return Bad(b, at, "OpConstant: missing operand 'Value' (LiteralContextDependentNumber)");
       }},
      {"Constant64BitWithAThirdWord",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Constant, {kI64, 20, 1, 0, 0});
         return Bad(b, at, "OpConstant: 1 word(s) left over after the last operand");
       }},
      {"NameWithAWordAfterItsString",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Name, {2, "ab", 0, 0});
         return Bad(b, at, "OpName: 2 word(s) left over after the last operand: word count 5");
       }},
      {"TypeCooperativeMatrixKHRTooFewOperands",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at =
             b.Add(Op::TypeCooperativeMatrixKHR, {20, kF16, kU32Const, kU32Const, kU32Const});
         return Bad(b, at,
                    "OpTypeCooperativeMatrixKHR: missing operand 'Use' (IdRef): word count 6 is "
                    "too small");
       }},
      {"DecorateSpecIdWithoutItsLiteral",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Decorate, {20, spv::Decoration::SpecId});
         return Bad(b, at,
                    "OpDecorate: missing operand 'Specialization Constant ID' (LiteralInteger): "
                    "word count 3 is too small");
       }},
      // Strings.
      {"NameStringWithoutNullByte",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Name, {2, 0x64636261u});  // "abcd", no terminator.
         return Bad(b, at + 2,
                    "OpName: literal string has no terminating null byte within the instruction");
       }},
      {"NameStringRunsIntoTheNextInstruction",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Name, {2, 0x64636261u, 0x68676665u});  // "abcdefgh".
         // The next instruction's first word has zero bytes: they must not end the string.
         b.Add(Op::Capability, {spv::Capability::Shader});
         BadInput bad = Bad(b, at + 2, "OpName: literal string has no terminating null byte");
         bad.seen = 0;
         return bad;
       }},
      {"ExtInstImportNameWithoutNullByte",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::ExtInstImport, {1, 0x4C534C47u, 0x6474732Eu});
         return Bad(b, at + 2, "OpExtInstImport: literal string has no terminating null byte");
       }},
      {"EntryPointNameWithoutNullByte",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::EntryPoint, {spv::ExecutionModel::GLCompute, 20, 0x6E69616Du});
         return Bad(b, at + 3, "OpEntryPoint: literal string has no terminating null byte");
       }},
      // Ids.
      // Instructions the reader takes by their opcode's build-time layout.
      {"AccessChainIndexIdZeroInTheVariadicTail",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::AccessChain, {kU32, 20, 21, kU32Const, 0});
         return Bad(b, at + 5, "OpAccessChain: id 0 of operand 'Indexes' is 0");
       }},
      {"TypePointerWithAnUnknownStorageClass",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::TypePointer, {20, 0x7FFFu, kU32});
         return Bad(b, at + 2, "OpTypePointer: 32767 is not a valid StorageClass value");
       }},
      {"ResultIdZero",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::TypeVoid, {0});
         return Bad(b, at + 1, "OpTypeVoid: id 0 of operand is 0, which is never a valid id");
       }},
      {"TargetIdZero",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Name, {0, "x"});
         return Bad(b, at + 1, "OpName: id 0 of operand 'Target' is 0, which is never a valid id");
       }},
      {"ResultIdEqualToTheBound",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::TypeVoid, {kBound});
         return Bad(b, at + 1, "OpTypeVoid: id 64 of operand is not below the bound 64");
       }},
      {"TargetIdAboveTheBound",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Decorate, {100, spv::Decoration::Block});
         return Bad(b, at + 1, "OpDecorate: id 100 of operand 'Target' is not below the bound 64");
       }},
      {"ResultTypeAboveTheBound",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Constant, {99, 20, 1});
         return Bad(b, at + 1, "OpConstant: id 99 of operand is not below the bound 64");
       }},
      {"StoreScopeParameterIdZero",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Store, {20, 21, spv::MemoryAccess::MakePointerAvailable, 0});
         return Bad(b, at + 4, "OpStore: id 0 of operand is 0");
       }},
      {"NonSemanticExtInstIdAboveTheBound",
       [] {
         ModuleBuilder b = WithPrologue();
         b.Add(Op::ExtInstImport, {20, "NonSemantic.Foo"});
         const size_t at = b.Add(Op::ExtInst, {kVoid, 21, 20, 3, kF32One, 70});
         return Bad(
             b, at + 6,
             "OpExtInst: id 70 of operand 'Operand 1, Operand 2, ...' is not below the bound 64");
       }},
      // Context-dependent literals.
      {"ConstantOfBoolType",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Constant, {kBool, 20, 1});
         return Bad(b, at + 3, "OpConstant: type %3 of the literal is not a numeric scalar type");
       }},
      {"ConstantOfUndefinedType",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Constant, {50, 20, 1});
         return Bad(b, at + 3, "OpConstant: type %50 of the literal is not a numeric scalar type");
       }},
      {"ConstantOfVectorType",
       [] {
         ModuleBuilder b = WithPrologue();
         b.Add(Op::TypeVector, {20, kU32, 4});
         const size_t at = b.Add(Op::Constant, {20, 21, 1});
         return Bad(b, at + 3, "OpConstant: type %20 of the literal is not a numeric scalar type");
       }},
      {"Constant64BitWithOneWord",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Constant, {kI64, 20, 5});
         return Bad(b, at + 3, "OpConstant: 64-bit literal runs past the end of the instruction");
       }},
      {"ConstantOf128BitType",
       [] {
         ModuleBuilder b;
         b.Add(Op::TypeInt, {20, 128, 0});
         const size_t at = b.Add(Op::Constant, {20, 21, 1, 0, 0, 0});
         return Bad(b, at + 3, "OpConstant: literal of unsupported width 128");
       }},
      {"SwitchWithTruncated64BitLiteral",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Switch, {kI64Const, 30, 1, 0, 31, 2});
         return Bad(b, at + 6, "OpSwitch: 64-bit literal runs past the end of the instruction");
       }},
      {"SwitchCaseWithoutItsLabel",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Switch, {kU32Const, 30, 1});
         return Bad(b, at, "OpSwitch: missing operand (IdRef): word count 4 is too small");
       }},
      {"SwitchOnABoolSelector",
       [] {
         ModuleBuilder b = WithPrologue();
         b.Add(Op::ConstantTrue, {kBool, 20});
         const size_t at = b.Add(Op::Switch, {20, 30, 1, 31});
         return Bad(b, at + 3, "OpSwitch: type %3 of the literal is not a numeric scalar type");
       }},
      // Enumerants.
      {"CapabilityNotAnEnumerant",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Capability, {99999});
         return Bad(b, at + 1, "OpCapability: 99999 is not a valid Capability value");
       }},
      {"MemoryModelWithBadAddressingModel",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::MemoryModel, {7, spv::MemoryModel::GLSL450});
         return Bad(b, at + 1, "OpMemoryModel: 7 is not a valid AddressingModel value");
       }},
      {"MemberDecorateOffsetWithAnExtraWord",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::MemberDecorate, {20, 0, spv::Decoration::Offset, 4, 8});
         return Bad(b, at, "OpMemberDecorate: 1 word(s) left over after the last operand");
       }},
      {"DecorateIdWithItsParameterOutOfBounds",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::DecorateId, {20, spv::Decoration::UniformId, 99});
         return Bad(b, at + 3, "OpDecorateId: id 99 of operand");
       }},
      {"DecorateBuiltInWithAnUnknownBuiltIn",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Decorate, {20, spv::Decoration::BuiltIn, 77777});
         return Bad(b, at + 3, "OpDecorate: 77777 is not a valid BuiltIn value");
       }},
      {"DecorateWithUnknownDecoration",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Decorate, {20, 12345});
         return Bad(b, at + 2, "OpDecorate: 12345 is not a valid Decoration value");
       }},
      {"TypeFloatWithUnknownEncoding",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::TypeFloat, {20, 16, 7});
         return Bad(b, at + 3, "OpTypeFloat: 7 is not a valid FPEncoding value");
       }},
      {"LoadWithUndefinedMemoryAccessBits",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Load, {kU32, 20, 21, 0x40000000u});
         return Bad(b, at + 4, "OpLoad: bits 0x40000000 of the MemoryAccess mask are not defined");
       }},
      {"LoadWithKnownAndUndefinedBits",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Load, {kU32, 20, 21, 0x40000082u, 4});
         return Bad(b, at + 4, "OpLoad: bits 0x40000080 of the MemoryAccess mask are not defined");
       }},
      {"LoadAlignedWithoutItsLiteral",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Load, {kU32, 20, 21, spv::MemoryAccess::Aligned});
         return Bad(b, at, "OpLoad: missing operand (LiteralInteger): word count 5 is too small");
       }},
      {"StoreMakePointerAvailableWithoutItsScope",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::Store, {20, 21, 0x28});
         return Bad(b, at, "OpStore: missing operand (IdScope): word count 4 is too small");
       }},
      {"TensorLoadWithUndefinedAddressingBit",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::CooperativeMatrixLoadTensorNV, {20, 21, 22, 23, 24, 0, 0x8});
         return Bad(b, at + 7,
                    "OpCooperativeMatrixLoadTensorNV: bits 0x8 of the TensorAddressingOperands "
                    "mask are not defined");
       }},
      {"TensorLoadDecodeFunctionsWithOneId",
       [] {
         ModuleBuilder b;
         const size_t at =
             b.Add(Op::CooperativeMatrixLoadTensorNV, {20, 21, 22, 23, 24, 0, 0x6, 25});
         return Bad(b, at,
                    "OpCooperativeMatrixLoadTensorNV: missing operand (IdRef): word count 9 is "
                    "too small");
       }},
      // Extended instructions and OpSpecConstantOp.
      {"ExtInstUnknownGlslInstruction",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::ExtInst, {kF32, 20, kGlsl, 9999, kF32One});
         return Bad(b, at + 4,
                    "OpExtInst: unknown instruction 9999 of extended instruction set "
                    "GLSL.std.450");
       }},
      {"ExtInstFMaxMissingAnOperand",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::ExtInst, {kF32, 20, kGlsl, 40, kF32One});
         return Bad(b, at, "OpExtInst: missing operand 'y' (IdRef): word count 6 is too small");
       }},
      {"SpecConstantOpUnknownOpcode",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::SpecConstantOp, {kU32, 20, 9, kU32Const});
         return Bad(b, at + 3, "OpSpecConstantOp: unknown opcode 9 as its operation");
       }},
      {"SpecConstantOpIMulMissingAnOperand",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::SpecConstantOp, {kU32, 20, Op::IMul, kU32Const});
         return Bad(b, at,
                    "OpSpecConstantOp: missing operand 'Operand 2' (IdRef): word count 5 is too "
                    "small");
       }},
      // More framing and literal cases.
      {"TypeVoidWithoutItsResultId",
       [] {
         ModuleBuilder b;
         const size_t at = b.Add(Op::TypeVoid, {});
         return Bad(b, at, "OpTypeVoid: missing operand (IdResult): word count 1 is too small");
       }},
      {"ConstantOfZeroWidthType",
       [] {
         ModuleBuilder b;
         b.Add(Op::TypeInt, {20, 0, 0});
         const size_t at = b.Add(Op::Constant, {20, 21, 1});
         return Bad(b, at + 3, "OpConstant: literal of unsupported width 0");
       }},
      {"SwitchOnAnUndefinedSelector",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::Switch, {40, 30, 1, 31});
         return Bad(b, at + 3, "OpSwitch: type %0 of the literal is not a numeric scalar type");
       }},
      {"SpecConstantOpWithoutItsOpcode",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::SpecConstantOp, {kU32, 20});
         return Bad(b, at,
                    "OpSpecConstantOp: missing operand 'Opcode' (LiteralSpecConstantOpInteger): "
                    "word count 3 is too small");
       }},
      {"ExtInstWithoutItsInstructionNumber",
       [] {
         ModuleBuilder b = WithPrologue();
         const size_t at = b.Add(Op::ExtInst, {kF32, 20, kGlsl});
         return Bad(b, at,
                    "OpExtInst: missing operand 'Instruction' (LiteralExtInstInteger): word count "
                    "4 is too small");
       }},
  };
}

struct Counter : InstructionHandler {
  bool OnInstruction(const ParsedInstruction&) override {
    ++count;
    return true;
  }
  size_t count = 0;
};

class BadInputTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInputTest, IsRejectedWhereTheProblemIs) {
  const BadInput bad = GetParam().make();
  ParsedModule m;
  Diagnostic d;
  EXPECT_FALSE(ParseModule(bad.words, &m, &d, bad.options));
  EXPECT_EQ(d.word_offset, bad.offset) << d.message;
  EXPECT_TRUE(Contains(d.message, bad.phrase))
      << "message: " << d.message << "\nexpected: " << bad.phrase;
  EXPECT_EQ(d.ToString(), "word " + std::to_string(bad.offset) + ": " + d.message);

  // Parse with a handler fails the same way, after seeing the instructions before the bad one.
  Counter counter;
  Diagnostic d2;
  EXPECT_FALSE(Parse(bad.words, counter, &d2, bad.options));
  EXPECT_EQ(d2.message, d.message);
  EXPECT_EQ(d2.word_offset, d.word_offset);
  EXPECT_EQ(counter.count, bad.seen);

  // No diagnostic wanted: still a failure.
  Counter quiet;
  EXPECT_FALSE(Parse(bad.words, quiet, nullptr, bad.options));

  if (bad.big_endian_too) {
    Diagnostic d3;
    EXPECT_FALSE(ParseModule(ByteSwapped(bad.words), &m, &d3, bad.options));
    EXPECT_EQ(d3.message, d.message);
    EXPECT_EQ(d3.word_offset, d.word_offset);
  }
}

INSTANTIATE_TEST_SUITE_P(Reader, BadInputTest, ::testing::ValuesIn(BadCases()),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(ReaderTest, AtLeastThirtyDistinctBadInputs) {
  const std::vector<BadCase> cases = BadCases();
  EXPECT_GE(cases.size(), 30u);
  std::vector<std::vector<uint32_t>> inputs;
  for (const BadCase& c : cases) {
    std::vector<uint32_t> words = c.make().words;
    for (const auto& other : inputs) EXPECT_NE(words, other) << c.name << " repeats an input";
    inputs.push_back(std::move(words));
  }
}

}  // namespace
}  // namespace coopspv::binary
