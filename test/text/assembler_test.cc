// The assembler: diagnostics (with line and column) and the features of the spirv-as syntax.
#include "source/text/assembler.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/diagnostic.h"
#include "source/grammar/grammar.h"

namespace coopspv::text {
namespace {

using Words = std::vector<uint32_t>;

struct Result {
  bool ok = false;
  Words words;
  Diagnostic diagnostic;
};

Result AsmRun(const std::string& text, const AssembleOptions& options = {}) {
  Result r;
  r.ok = Assemble(text, options, &r.words, &r.diagnostic);
  return r;
}

// Assembles and returns the words after the header; fails the test on an error.
Words Body(const std::string& text, const AssembleOptions& options = {}) {
  Result r = AsmRun(text, options);
  EXPECT_TRUE(r.ok) << r.diagnostic.ToString() << "\n" << text;
  if (!r.ok || r.words.size() < binary::kHeaderWords) return {};
  return Words(r.words.begin() + binary::kHeaderWords, r.words.end());
}

// The value words of the last instruction, from word `first` on.
Words LastInstruction(const Words& body) {
  size_t i = 0, last = 0;
  while (i < body.size()) {
    last = i;
    const uint32_t count = body[i] >> 16;
    if (count == 0) break;
    i += count;
  }
  return Words(body.begin() + last, body.end());
}

uint32_t Op(spv::Op op, uint32_t word_count) {
  return (word_count << 16) | static_cast<uint32_t>(op);
}

// ---------------------------------------------------------------------------------------------
// Errors.

struct ErrorCase {
  const char* what;
  const char* text;
  uint32_t line, column;
  const char* message_part;  // Must appear in the message.
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.what; }

class AssemblerError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(AssemblerError, ReportsLineAndColumn) {
  const ErrorCase& c = GetParam();
  Result r = AsmRun(c.text);
  ASSERT_FALSE(r.ok) << c.text;
  EXPECT_EQ(r.diagnostic.line, c.line) << r.diagnostic.ToString();
  EXPECT_EQ(r.diagnostic.column, c.column) << r.diagnostic.ToString();
  EXPECT_NE(r.diagnostic.message.find(c.message_part), std::string::npos)
      << r.diagnostic.ToString();
  EXPECT_EQ(r.diagnostic.ToString().rfind(
                std::to_string(c.line) + ":" + std::to_string(c.column) + ": ", 0),
            0u)
      << r.diagnostic.ToString();
}

const ErrorCase kErrorCases[] = {
    {"UnknownOpcodeFirst", "OpBogus %x\n", 1, 1, "OpBogus"},
    {"UnknownOpcodeWithResult", "OpCapability Shader\n%x = OpFoo %y\n", 2, 6, "OpFoo"},
    {"UnknownOpcodeAfterCompleteInstruction", "OpCapability Shader\n  OpFoo\n", 2, 3, "OpFoo"},
    {"MissingOperandBeforeNextInstruction", "%u = OpTypeInt 32\n%v = OpTypeVoid\n", 2, 1,
     "Signedness"},
    {"MissingOperandBeforeNextOpcode", "OpMemoryModel Logical\nOpCapability Shader\n", 2, 1,
     "missing operand"},
    {"MissingOperandAtEnd", "%u = OpTypeInt 32 0\n%c = OpConstant %u\n", 2, 17, "Value"},
    {"MissingMaskParameter",
     "%u = OpTypeInt 32 0\n%p = OpTypePointer Function %u\n%v = OpUndef %p\n"
     "%l = OpLoad %u %v Aligned\nOpNop\n",
     5, 1, "missing operand"},
    {"ExtraOperand", "%u = OpTypeInt 32 0\n%v = OpTypeInt 32 0 7\n", 2, 21, "'7'"},
    {"ExtraOperandAfterString", "OpCapability Shader\nOpName %x \"a\nbc\" extra\n", 3, 5,
     "'extra'"},
    {"BadValueEnumerant", "OpCapability Shader\nOpMemoryModel Logical GLSL451\n", 2, 23, "GLSL451"},
    {"BadEnumerantParameter", "OpDecorate %x BuiltIn Bogus\n", 1, 23, "Bogus"},
    {"BadMaskEnumerant",
     "%u = OpTypeInt 32 0\n%p = OpTypePointer Function %u\n%l = OpLoad %u %p Aligned|Bogus 4\n", 3,
     19, "Bogus"},
    {"UnterminatedString", "OpCapability Shader\nOpName %x \"abc\n", 2, 11, "closing quote"},
    {"UnterminatedStringAfterEscapedQuote", "OpExtension \"SPV_\\\"x\n", 1, 13, "closing quote"},
    {"U8OutOfRange", "%u8 = OpTypeInt 8 0\n%c = OpConstant %u8 256\n", 2, 21, "256"},
    {"U8HexOutOfRange", "%u8 = OpTypeInt 8 0\n%c = OpConstant %u8 0x100\n", 2, 21, "0x100"},
    {"NegativeUnsigned", "%u = OpTypeInt 32 0\n%c = OpConstant %u -1\n", 2, 20, "negative"},
    {"Int32OutOfRange", "%i = OpTypeInt 32 1\n%c = OpConstant %i 2147483648\n", 2, 20,
     "2147483648"},
    {"Int32NegativeOutOfRange", "%i = OpTypeInt 32 1\n%c = OpConstant %i -2147483649\n", 2, 20,
     "-2147483649"},
    {"Int8OutOfRange", "%i = OpTypeInt 8 1\n%c = OpConstant %i -129\n", 2, 20, "-129"},
    {"Int64OutOfRange", "%i = OpTypeInt 64 1\n%c = OpConstant %i 9223372036854775808\n", 2, 20,
     "9223372036854775808"},
    {"U32OutOfRange", "%u = OpTypeInt 32 0\n%c = OpConstant %u 4294967296\n", 2, 20, "4294967296"},
    {"IntegerLiteralForIntegerTypeIsNotAFloat", "%u = OpTypeInt 32 0\n%c = OpConstant %u 1.5\n", 2,
     20, "1.5"},
    {"HalfOutOfRange", "%h = OpTypeFloat 16\n%c = OpConstant %h 70000\n", 2, 20, "16-bit"},
    {"HalfRoundsToInfinity", "%h = OpTypeFloat 16\n%c = OpConstant %h 65520\n", 2, 20, "16-bit"},
    {"FloatOutOfRange", "%f = OpTypeFloat 32\n%c = OpConstant %f 1e39\n", 2, 20, "32-bit"},
    {"FloatGarbage", "%f = OpTypeFloat 32\n%c = OpConstant %f abc\n", 2, 20, "abc"},
    {"EqualsMissing", "%u OpTypeInt 32 1\n", 1, 1, "'='"},
    // After a complete instruction the id reads as an extra operand; the position is the same.
    {"EqualsMissingAfterInstruction", "OpCapability Shader\n%u OpTypeInt 32 1\n", 2, 1, ""},
    {"OpcodeMissingAfterEquals", "   %x =\n", 1, 7, "opcode"},
    {"ResultIdOnInstructionWithoutResult", "OpCapability Shader\n%x = OpCapability Shader\n", 2, 1,
     "does not produce a result id"},
    {"ResultIdMissing", "OpCapability Shader\n    OpTypeVoid\n", 2, 5, "requires a result id"},
    {"ResultTypeMissing", "%v = OpUndef\n", 1, 6, "result type"},
    {"BadIdCharacter", "  %a$b = OpTypeVoid\n", 1, 5, "%a$b"},
    {"EmptyId", "OpCapability Shader\n% = OpTypeVoid\n", 2, 1, "'%'"},
    {"IdWhereLiteralExpected", "%t = OpTypeInt %x 0\n", 1, 16, "Width"},
    {"LiteralWhereIdExpected", "%t = OpTypeVector 32 4\n", 1, 19, "must be an id"},
    {"UnknownExtInstName",
     "%g = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n"
     "%r = OpExtInst %f %g FMaxx %r %r\n",
     3, 22, "FMaxx"},
    // A known extended instruction takes exactly its own operands.
    {"ExtInstExtraOperand",
     "%g = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n%x = OpUndef %f\n"
     "%r = OpExtInst %f %g FMax %x %x %x\n",
     4, 33, "'%x'"},
    {"ExtInstMissingOperand",
     "%g = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n%x = OpUndef %f\n"
     "%r = OpExtInst %f %g FClamp %x %x\n%s = OpUndef %f\n",
     5, 1, "missing operand"},
    {"UnknownExtInstNumber",
     "%g = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n"
     "%r = OpExtInst %f %g 9999 %r\n",
     3, 22, "9999"},
    {"RawWordTooLarge", "OpCapability !0x100000000\n", 1, 14, "32-bit word"},
    {"UnknownSpecConstantOp", "%i = OpTypeInt 32 1\n%s = OpSpecConstantOp %i Bogus %i\n", 2, 26,
     "Bogus"},
};

INSTANTIATE_TEST_SUITE_P(Errors, AssemblerError, ::testing::ValuesIn(kErrorCases),
                         [](const ::testing::TestParamInfo<ErrorCase>& info) {
                           return std::string(info.param.what);
                         });

TEST(AssemblerErrorTest, NoOutputOnError) {
  Words words = {1, 2, 3};
  Diagnostic diagnostic;
  EXPECT_FALSE(Assemble("OpBogus\n", {}, &words, &diagnostic));
  EXPECT_FALSE(diagnostic.message.empty());
}

// ---------------------------------------------------------------------------------------------
// Header.

TEST(AssemblerHeader, Defaults) {
  Result r = AsmRun("OpCapability Shader\n%a = OpTypeVoid\n%b = OpTypeBool\n");
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  ASSERT_GE(r.words.size(), 5u);
  EXPECT_EQ(r.words[0], 0x07230203u);
  EXPECT_EQ(r.words[1], 0x00010600u);  // SPIR-V 1.6.
  EXPECT_EQ(r.words[2], 0u);           // No generator comment.
  EXPECT_EQ(r.words[3], 3u);           // Ids 1 and 2.
  EXPECT_EQ(r.words[4], 0u);
}

TEST(AssemblerHeader, CommentBlockIsHonoured) {
  const std::string text =
      "; SPIR-V\n"
      "; Version: 1.3\n"
      "; Generator: Khronos Glslang Reference Front End; 11\n"
      "; Bound: 99\n"
      "; Schema: 0\n"
      "OpCapability Shader\n"
      "%a = OpTypeVoid\n";
  Result r = AsmRun(text);
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.words[1], 0x00010300u);
  EXPECT_EQ(r.words[2], (8u << 16) | 11u);
  EXPECT_EQ(r.words[3], 99u);
  EXPECT_EQ(r.words[4], 0u);
}

TEST(AssemblerHeader, BoundCommentNeverLowersTheBound) {
  std::string text = "; Bound: 2\n";
  for (int i = 0; i < 5; ++i) text += "%t" + std::to_string(i) + " = OpTypeBool\n";
  Result r = AsmRun(text);
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.words[3], 6u);
}

TEST(AssemblerHeader, UnknownGeneratorComment) {
  Result r = AsmRun("; Generator: Unknown(65535); 3\nOpCapability Shader\n");
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.words[2], 0xFFFF0003u);
}

TEST(AssemblerHeader, CommentsAfterTheFirstInstructionAreNotHeader) {
  Result r = AsmRun("OpCapability Shader\n; Version: 1.2\n; Bound: 5000\n");
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.words[1], 0x00010600u);
  EXPECT_EQ(r.words[3], 1u);
}

TEST(AssemblerHeader, OptionVersionOverridesTheComment) {
  AssembleOptions options;
  options.version = 0x00010000;
  Result r = AsmRun("; Version: 1.3\nOpCapability Shader\n", options);
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.words[1], 0x00010000u);
  options.version = 0x00010500;
  r = AsmRun("OpCapability Shader\n", options);
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.words[1], 0x00010500u);
}

// ---------------------------------------------------------------------------------------------
// Ids.

TEST(AssemblerIds, NamedIdsAreNumberedInOrderOfFirstAppearance) {
  // %fn appears first as an operand-less result; %ret first as a forward reference.
  const Words body = Body(
      "%fn = OpTypeFunction %ret %arg\n"
      "%ret = OpTypeVoid\n"
      "%arg = OpTypeBool\n"
      "%other = OpTypeInt 32 0\n");
  EXPECT_EQ(body, (Words{Op(spv::Op::TypeFunction, 4), 1, 2, 3,  //
                         Op(spv::Op::TypeVoid, 2), 2,            //
                         Op(spv::Op::TypeBool, 2), 3,            //
                         Op(spv::Op::TypeInt, 4), 4, 32, 0}));
}

TEST(AssemblerIds, NumericNamesAreRenumberedByDefault) {
  Result r = AsmRun("%7 = OpTypeVoid\n%3 = OpTypeBool\n");
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.words[3], 3u);
  EXPECT_EQ(Words(r.words.begin() + 5, r.words.end()),
            (Words{Op(spv::Op::TypeVoid, 2), 1, Op(spv::Op::TypeBool, 2), 2}));
}

TEST(AssemblerIds, PreserveNumericIds) {
  AssembleOptions options;
  options.preserve_numeric_ids = true;
  // Named ids take the lowest numbers no numeric id claims.
  Result r = AsmRun("%7 = OpTypeVoid\n%x = OpTypeBool\n%1 = OpTypeInt 32 0\n%y = OpTypeFloat 32\n",
                    options);
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(r.words[3], 8u);
  EXPECT_EQ(Words(r.words.begin() + 5, r.words.end()), (Words{Op(spv::Op::TypeVoid, 2), 7,        //
                                                              Op(spv::Op::TypeBool, 2), 2,        //
                                                              Op(spv::Op::TypeInt, 4), 1, 32, 0,  //
                                                              Op(spv::Op::TypeFloat, 3), 3, 32}));
}

// ---------------------------------------------------------------------------------------------
// Literals.

TEST(AssemblerLiterals, HexAndNegativeIntegers) {
  const std::string prefix = "%u = OpTypeInt 32 0\n%i = OpTypeInt 32 1\n";
  EXPECT_EQ(LastInstruction(Body(prefix + "%c = OpConstant %u 0xDEADbeef\n")).back(), 0xDEADBEEFu);
  EXPECT_EQ(LastInstruction(Body(prefix + "%c = OpConstant %i -1\n")).back(), 0xFFFFFFFFu);
  EXPECT_EQ(LastInstruction(Body(prefix + "%c = OpConstant %i -2147483648\n")).back(), 0x80000000u);
  EXPECT_EQ(LastInstruction(Body(prefix + "%c = OpConstant %i 0xFFFFFFFF\n")).back(), 0xFFFFFFFFu);
  EXPECT_EQ(LastInstruction(Body(prefix + "%c = OpConstant %i -0x10\n")).back(), 0xFFFFFFF0u);
  EXPECT_EQ(LastInstruction(Body(prefix + "%c = OpConstant %u 4294967295\n")).back(), 0xFFFFFFFFu);
}

TEST(AssemblerLiterals, NarrowIntegersAreZeroOrSignExtended) {
  EXPECT_EQ(LastInstruction(Body("%t = OpTypeInt 8 0\n%c = OpConstant %t 255\n")).back(), 0xFFu);
  EXPECT_EQ(LastInstruction(Body("%t = OpTypeInt 16 1\n%c = OpConstant %t -2\n")).back(),
            0xFFFFFFFEu);
  EXPECT_EQ(LastInstruction(Body("%t = OpTypeInt 16 1\n%c = OpConstant %t -32768\n")).back(),
            0xFFFF8000u);
  EXPECT_EQ(LastInstruction(Body("%t = OpTypeInt 16 1\n%c = OpConstant %t 0x8000\n")).back(),
            0xFFFF8000u);
  EXPECT_EQ(LastInstruction(Body("%t = OpTypeInt 8 1\n%c = OpConstant %t 127\n")).back(), 0x7Fu);
}

TEST(AssemblerLiterals, SixtyFourBitLiteralsLowWordFirst) {
  Words inst =
      LastInstruction(Body("%t = OpTypeInt 64 0\n%c = OpConstant %t 0x123456789abcdef0\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::Constant, 5), 1, 2, 0x9ABCDEF0u, 0x12345678u}));
  inst = LastInstruction(Body("%t = OpTypeInt 64 1\n%c = OpConstant %t -2\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::Constant, 5), 1, 2, 0xFFFFFFFEu, 0xFFFFFFFFu}));
  inst = LastInstruction(Body("%t = OpTypeFloat 64\n%c = OpConstant %t 1.0\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::Constant, 5), 1, 2, 0u, 0x3FF00000u}));
  inst = LastInstruction(Body("%t = OpTypeInt 64 1\n%c = OpSpecConstant %t 4294967296\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::SpecConstant, 5), 1, 2, 0u, 1u}));
}

TEST(AssemblerLiterals, HexFloats) {
  const std::string f = "%f = OpTypeFloat 32\n";
  EXPECT_EQ(LastInstruction(Body(f + "%c = OpConstant %f 0x1.8p+1\n")).back(), 0x40400000u);
  EXPECT_EQ(LastInstruction(Body(f + "%c = OpConstant %f -0x1p-149\n")).back(), 0x80000001u);
  EXPECT_EQ(LastInstruction(Body(f + "%c = OpConstant %f 0x1p+128\n")).back(), 0x7F800000u);
  EXPECT_EQ(LastInstruction(Body(f + "%c = OpConstant %f -0x1.8p+128\n")).back(), 0xFFC00000u);
  EXPECT_EQ(LastInstruction(Body(f + "%c = OpConstant %f 0.5\n")).back(), 0x3F000000u);
  EXPECT_EQ(LastInstruction(Body(f + "%c = OpConstant %f -2.5e-1\n")).back(), 0xBE800000u);
  Words d = LastInstruction(Body("%d = OpTypeFloat 64\n%c = OpConstant %d -0x1.8p-1\n"));
  EXPECT_EQ(d, (Words{Op(spv::Op::Constant, 5), 1, 2, 0u, 0xBFE80000u}));
}

TEST(AssemblerLiterals, SixteenBitFloats) {
  const std::string h = "%h = OpTypeFloat 16\n";
  EXPECT_EQ(LastInstruction(Body(h + "%c = OpConstant %h 0.5\n")).back(), 0x3800u);
  EXPECT_EQ(LastInstruction(Body(h + "%c = OpConstant %h -1\n")).back(), 0xBC00u);
  EXPECT_EQ(LastInstruction(Body(h + "%c = OpConstant %h 0x1.8p-1\n")).back(), 0x3A00u);
  EXPECT_EQ(LastInstruction(Body(h + "%c = OpConstant %h 65504\n")).back(), 0x7BFFu);
  EXPECT_EQ(LastInstruction(Body(h + "%c = OpConstant %h 0x1p-24\n")).back(), 0x0001u);
  EXPECT_EQ(LastInstruction(Body(h + "%c = OpConstant %h -0x1p+16\n")).back(), 0xFC00u);
  const std::string bf = "%h = OpTypeFloat 16 BFloat16KHR\n";
  EXPECT_EQ(LastInstruction(Body(bf + "%c = OpConstant %h -1.5\n")).back(), 0xBFC0u);
  EXPECT_EQ(LastInstruction(Body(bf + "%c = OpConstant %h 1e38\n")).back(), 0x7E96u);
}

TEST(AssemblerLiterals, LiteralIntegerOperands) {
  EXPECT_EQ(LastInstruction(Body("%t = OpTypeInt 0x20 0\n")),
            (Words{Op(spv::Op::TypeInt, 4), 1, 32, 0}));
  EXPECT_EQ(LastInstruction(Body("%t = OpTypeBool\n%v = OpTypeVector %t 4\n")),
            (Words{Op(spv::Op::TypeVector, 4), 2, 1, 4}));
}

TEST(AssemblerLiterals, StringsWithEscapes) {
  // "a\"b\\c" is the six bytes a"b\c plus a terminator.
  Words inst = LastInstruction(Body("OpSourceExtension \"a\\\"b\\\\c\"\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::SourceExtension, 3), 0x5C622261u, 0x00000063u}));
  // Four characters take a second word for the terminator.
  inst = LastInstruction(Body("OpSourceExtension \"abcd\"\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::SourceExtension, 3), 0x64636261u, 0u}));
  inst = LastInstruction(Body("OpSourceExtension \"\"\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::SourceExtension, 2), 0u}));
  // A newline inside the quotes is kept; a backslash before any other character drops.
  inst = LastInstruction(Body("OpSourceExtension \"a\nb\\q\"\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::SourceExtension, 3), 0x71620A61u, 0u}));
}

TEST(AssemblerLiterals, StringDecodesBack) {
  Words inst = LastInstruction(Body("%s = OpString \"x \\\"quoted\\\" \\\\ path\nline\"\n"));
  ASSERT_GE(inst.size(), 3u);
  EXPECT_EQ(binary::DecodeString(std::span<const uint32_t>(inst).subspan(2)),
            "x \"quoted\" \\ path\nline");
}

// ---------------------------------------------------------------------------------------------
// Raw words, enumerants, masks.

TEST(AssemblerRaw, WholeInstruction) {
  // Raw-word instructions (OpCapability Shader, OpMemoryModel Logical GLSL450) before ordinary
  // ones; the words are emitted as written and take part in nothing else.
  const Words body = Body("!0x00020011 !1\n!0x0003000E !0 !1\nOpCapability Int64\n");
  EXPECT_EQ(body, (Words{0x00020011u, 1u, 0x0003000Eu, 0u, 1u, Op(spv::Op::Capability, 2), 11u}));
  Result r = AsmRun("!0xFFFF0001 !0xDEADBEEF\n");
  ASSERT_TRUE(r.ok) << r.diagnostic.ToString();
  EXPECT_EQ(Words(r.words.begin() + 5, r.words.end()), (Words{0xFFFF0001u, 0xDEADBEEFu}));
  EXPECT_EQ(r.words[3], 1u);  // No ids.
}

TEST(AssemblerRaw, AsOperand) {
  EXPECT_EQ(Body("OpCapability !0x2\n"), (Words{Op(spv::Op::Capability, 2), 2u}));
  // A raw word in place of an id and of a literal.
  EXPECT_EQ(Body("%t = OpTypeInt !32 !0\n%v = OpTypeVector !1 !4\n"),
            (Words{Op(spv::Op::TypeInt, 4), 1u, 32u, 0u, Op(spv::Op::TypeVector, 4), 2u, 1u, 4u}));
}

TEST(AssemblerEnums, NamesNumbersAndMasks) {
  // Value enumerants by name or number.
  EXPECT_EQ(Body("OpMemoryModel Logical GLSL450\n"), (Words{Op(spv::Op::MemoryModel, 3), 0u, 1u}));
  EXPECT_EQ(Body("OpMemoryModel 0 1\n"), (Words{Op(spv::Op::MemoryModel, 3), 0u, 1u}));
  // A numeric enumerant with a parameter still takes it (Decoration 11 = BuiltIn).
  EXPECT_EQ(Body("OpDecorate %x 11 24\n"), (Words{Op(spv::Op::Decorate, 4), 1u, 11u, 24u}));
  EXPECT_EQ(Body("OpDecorate %x BuiltIn WorkgroupSize\n"),
            (Words{Op(spv::Op::Decorate, 4), 1u, 11u, 25u}));

  const std::string load = "%u = OpTypeInt 32 0\n%p = OpTypePointer Function %u\n";
  // Masks: names joined with '|', in any order; parameters in the order of the bits.
  EXPECT_EQ(LastInstruction(Body(load + "%l = OpLoad %u %p Volatile|Aligned 4\n")),
            (Words{Op(spv::Op::Load, 6), 1, 3, 2, 0x3, 4}));
  EXPECT_EQ(LastInstruction(Body(load + "%l = OpLoad %u %p Aligned|Volatile 4\n")),
            (Words{Op(spv::Op::Load, 6), 1, 3, 2, 0x3, 4}));
  // A numeric mask, and a mix of names and numbers.
  EXPECT_EQ(LastInstruction(Body(load + "%l = OpLoad %u %p 3 8\n")),
            (Words{Op(spv::Op::Load, 6), 1, 3, 2, 0x3, 8}));
  EXPECT_EQ(LastInstruction(Body(load + "%l = OpLoad %u %p Volatile|0x4\n")),
            (Words{Op(spv::Op::Load, 5), 1, 3, 2, 0x5}));
  EXPECT_EQ(LastInstruction(Body(load + "%l = OpLoad %u %p None\n")),
            (Words{Op(spv::Op::Load, 5), 1, 3, 2, 0x0}));
  // Two parameters of different kinds: Aligned (literal) then MakePointerVisible (id).
  EXPECT_EQ(
      LastInstruction(Body(load + "%l = OpLoad %u %p MakePointerVisible|NonPrivatePointer|Aligned "
                                  "16 %scope\n")),
      (Words{Op(spv::Op::Load, 7), 1, 3, 2, 0x32, 16, 4}));
  // Cooperative-family masks.
  EXPECT_EQ(LastInstruction(Body("%r = OpCooperativeMatrixReduceEXT %t %m Row|Column|2x2 %f\n")),
            (Words{Op(spv::Op::CooperativeMatrixReduceEXT, 6), 1, 2, 3, 0x7, 4}));
  EXPECT_EQ(LastInstruction(Body("%r = OpCooperativeMatrixMulAddKHR %t %a %b %c "
                                 "SaturatingAccumulationKHR|MatrixASignedComponentsKHR\n")),
            (Words{Op(spv::Op::CooperativeMatrixMulAddKHR, 7), 1, 2, 3, 4, 5, 0x11}));
  EXPECT_EQ(LastInstruction(Body("%r = OpCooperativeMatrixMulAddKHR %t %a %b %c 0x1F\n")),
            (Words{Op(spv::Op::CooperativeMatrixMulAddKHR, 7), 1, 2, 3, 4, 5, 0x1F}));
  EXPECT_EQ(LastInstruction(Body("%r = OpCooperativeMatrixLoadTensorNV %t %p %o %l None "
                                 "DecodeVectorFunc|TensorView %view %dec\n")),
            (Words{Op(spv::Op::CooperativeMatrixLoadTensorNV, 10), 1, 2, 3, 4, 5, 0, 0x5, 6, 7}));
  // An optional enumerant operand may be left out.
  EXPECT_EQ(LastInstruction(Body("%r = OpCooperativeMatrixMulAddKHR %t %a %b %c\n")),
            (Words{Op(spv::Op::CooperativeMatrixMulAddKHR, 6), 1, 2, 3, 4, 5}));
}

TEST(AssemblerEnums, FPEncodingOperand) {
  EXPECT_EQ(Body("%t = OpTypeFloat 16 BFloat16KHR\n"),
            (Words{Op(spv::Op::TypeFloat, 4), 1, 16, 0}));
  EXPECT_EQ(Body("%t = OpTypeFloat 8 Float8E4M3EXT\n"),
            (Words{Op(spv::Op::TypeFloat, 4), 1, 8, 4214}));
  EXPECT_EQ(Body("%t = OpTypeFloat 8 Float8E5M2EXT\n"),
            (Words{Op(spv::Op::TypeFloat, 4), 1, 8, 4215}));
  EXPECT_EQ(Body("%t = OpTypeFloat 32\n"), (Words{Op(spv::Op::TypeFloat, 3), 1, 32}));
}

TEST(AssemblerAliases, OldSpellingsGiveTheSameOpcode) {
  EXPECT_EQ(Body("%v = OpTypeCooperativeVectorNV %f %n\n"), Body("%v = OpTypeVectorIdEXT %f %n\n"));
  EXPECT_EQ(Body("%v = OpTypeCooperativeVectorNV %f %n\n")[0], Op(spv::Op::TypeVectorIdEXT, 4));
  EXPECT_EQ(Body("%r = OpCooperativeMatrixConvertNV %t %m\n")[0] & 0xFFFF, 5293u);
  EXPECT_EQ(Body("%r = OpCooperativeMatrixReduceNV %t %m Row %f\n")[0] & 0xFFFF, 5366u);
  EXPECT_EQ(Body("%r = OpCooperativeMatrixPerElementOpNV %t %m %f\n")[0] & 0xFFFF, 5369u);
  // Capability aliases.
  EXPECT_EQ(Body("OpCapability VulkanMemoryModelKHR\n"), Body("OpCapability VulkanMemoryModel\n"));
  EXPECT_EQ(Body("OpCapability CooperativeMatrixReductionsNV\n"),
            (Words{Op(spv::Op::Capability, 2), 5430}));
}

TEST(AssemblerSyntax, CommentsAndWhitespace) {
  const Words body = Body(
      "; leading comment\n"
      "\tOpCapability Shader ; trailing comment\n"
      "\r\n"
      "%a=OpTypeVoid;no space\n"
      "  %b   =   OpTypeBool\n");
  EXPECT_EQ(body, (Words{Op(spv::Op::Capability, 2), 1, Op(spv::Op::TypeVoid, 2), 1,
                         Op(spv::Op::TypeBool, 2), 2}));
  EXPECT_EQ(Body(""), Words{});
}

TEST(AssemblerSyntax, ExtInstByNameAndNumber) {
  const std::string prefix =
      "%g = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n%x = OpUndef %f\n";
  const Words by_name = LastInstruction(Body(prefix + "%r = OpExtInst %f %g FMax %x %x\n"));
  const Words by_number = LastInstruction(Body(prefix + "%r = OpExtInst %f %g 40 %x %x\n"));
  EXPECT_EQ(by_name, (Words{Op(spv::Op::ExtInst, 7), 2, 4, 1, 40, 3, 3}));
  EXPECT_EQ(by_name, by_number);
  // An unknown set takes instruction numbers and any ids.
  const Words unknown =
      LastInstruction(Body("%g = OpExtInstImport \"Some.Unknown.Set\"\n%f = OpTypeFloat 32\n"
                           "%r = OpExtInst %f %g 7 %f %f %f\n"));
  EXPECT_EQ(unknown, (Words{Op(spv::Op::ExtInst, 8), 2, 3, 1, 7, 2, 2, 2}));
}

TEST(AssemblerSyntax, SpecConstantOp) {
  const Words inst =
      LastInstruction(Body("%i = OpTypeInt 32 1\n%a = OpSpecConstant %i 1\n"
                           "%s = OpSpecConstantOp %i IAdd %a %a\n"
                           "%v = OpTypeVector %i 2\n%c = OpSpecConstantComposite %v %a %a\n"
                           "%e = OpSpecConstantOp %i CompositeExtract %c 1\n"));
  EXPECT_EQ(inst, (Words{Op(spv::Op::SpecConstantOp, 6), 1, 6,
                         static_cast<uint32_t>(spv::Op::CompositeExtract), 5, 1}));
}

}  // namespace
}  // namespace coopspv::text
