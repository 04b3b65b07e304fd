// The disassembler: friendly names, options, layout and the header comment block.
#include "source/text/disassembler.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "source/binary/reader.h"
#include "source/common/diagnostic.h"
#include "source/text/assembler.h"

namespace coopspv::text {
namespace {

using Words = std::vector<uint32_t>;

Words Asm(const std::string& text, const AssembleOptions& options = {}) {
  Words words;
  Diagnostic diagnostic;
  EXPECT_TRUE(Assemble(text, options, &words, &diagnostic)) << diagnostic.ToString() << "\n"
                                                            << text;
  return words;
}

std::string Dis(const Words& words, const DisassembleOptions& options = {}) {
  std::string text;
  Diagnostic diagnostic;
  EXPECT_TRUE(Disassemble(words, options, &text, &diagnostic)) << diagnostic.ToString();
  return text;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// A module with every kind of friendly name. Ids are numbered in order of first appearance:
// %main 1, %foo 2, %a 3, %b 4, %c 5, %wg 6, %st 7, %void 8, %uint 9, ...
constexpr char kNamesModule[] = R"(; Version: 1.3
; Generator: Khronos Glslang Reference Front End; 11
OpCapability Shader
OpCapability Float16
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %foo "foo(i1;"
OpName %a "x"
OpName %b "x"
OpName %c "x"
OpDecorate %wg BuiltIn WorkgroupSize
OpDecorate %st Block
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%bool = OpTypeBool
%v4float = OpTypeVector %float 4
%v3uint = OpTypeVector %uint 3
%pf = OpTypePointer Function %uint
%u16 = OpConstant %uint 16
%arr = OpTypeArray %half %u16
%rt = OpTypeRuntimeArray %float
%st = OpTypeStruct %float %uint
%n1 = OpConstant %int -1
%f05 = OpConstant %float 0.5
%h05 = OpConstant %half 0.5
%t = OpConstantTrue %bool
%fl = OpConstantFalse %bool
%wg = OpConstantComposite %v3uint %u16 %u16 %u16
%u3 = OpConstant %uint 3
%u16b = OpConstant %uint 16
%cm = OpTypeCooperativeMatrixKHR %half %u3 %u16 %u16 %u3
%cmnv = OpTypeCooperativeMatrixNV %half %u3 %u16 %u16
%fnty = OpTypeFunction %void
%main = OpFunction %void None %fnty
%entry = OpLabel
%a = OpUndef %uint
%b = OpUndef %uint
%c = OpUndef %uint
%foo = OpIAdd %uint %a %b
%named_uint = OpIAdd %uint %c %c
%m = OpUndef %cm
OpReturn
OpFunctionEnd
)";

// What spirv-dis prints for it.
constexpr char kNamesExpected[] = R"(; SPIR-V
; Version: 1.3
; Generator: Khronos Glslang Reference Front End; 11
; Bound: 33
; Schema: 0
               OpCapability Shader
               OpCapability Float16
               OpCapability CooperativeMatrixKHR
               OpExtension "SPV_KHR_cooperative_matrix"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpName %main "main"
               OpName %foo_i1_ "foo(i1;"
               OpName %x "x"
               OpName %x_0 "x"
               OpName %x_1 "x"
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %_struct_7 Block
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
       %half = OpTypeFloat 16
       %bool = OpTypeBool
    %v4float = OpTypeVector %float 4
     %v3uint = OpTypeVector %uint 3
%_ptr_Function_uint = OpTypePointer Function %uint
    %uint_16 = OpConstant %uint 16
%_arr_half_uint_16 = OpTypeArray %half %uint_16
%_runtimearr_float = OpTypeRuntimeArray %float
  %_struct_7 = OpTypeStruct %float %uint
     %int_n1 = OpConstant %int -1
  %float_0_5 = OpConstant %float 0.5
%half_0x1pn1 = OpConstant %half 0x1p-1
       %true = OpConstantTrue %bool
      %false = OpConstantFalse %bool
%gl_WorkGroupSize = OpConstantComposite %v3uint %uint_16 %uint_16 %uint_16
     %uint_3 = OpConstant %uint 3
  %uint_16_0 = OpConstant %uint 16
         %27 = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_3
         %28 = OpTypeCooperativeMatrixNV %half %uint_3 %uint_16 %uint_16
         %29 = OpTypeFunction %void
       %main = OpFunction %void None %29
         %30 = OpLabel
          %x = OpUndef %uint
        %x_0 = OpUndef %uint
        %x_1 = OpUndef %uint
    %foo_i1_ = OpIAdd %uint %x %x_0
         %31 = OpIAdd %uint %x_1 %x_1
         %32 = OpUndef %27
               OpReturn
               OpFunctionEnd
)";

TEST(DisassemblerNames, FriendlyNamesAsSpirvDisPrintsThem) {
  EXPECT_EQ(Dis(Asm(kNamesModule)), kNamesExpected);
}

TEST(DisassemblerNames, NamesTable) {
  const Words words = Asm(kNamesModule);
  binary::ParsedModule module;
  Diagnostic diagnostic;
  ASSERT_TRUE(binary::ParseModule(words, &module, &diagnostic)) << diagnostic.ToString();
  const auto names = FriendlyNames(module);
  ASSERT_EQ(names.size(), module.header.bound);
  EXPECT_EQ(names[1], "main");
  EXPECT_EQ(names[2], "foo_i1_");
  EXPECT_EQ(names[3], "x");
  EXPECT_EQ(names[4], "x_0");
  EXPECT_EQ(names[5], "x_1");
  EXPECT_EQ(names[6], "gl_WorkGroupSize");
  EXPECT_EQ(names[7], "_struct_7");
  EXPECT_EQ(names[8], "void");
  EXPECT_EQ(names[9], "uint");
  EXPECT_EQ(names[10], "int");
  EXPECT_EQ(names[13], "bool");
  EXPECT_EQ(names[14], "v4float");
  EXPECT_EQ(names[16], "_ptr_Function_uint");
  EXPECT_EQ(names[17], "uint_16");
  EXPECT_EQ(names[18], "_arr_half_uint_16");
  EXPECT_EQ(names[19], "_runtimearr_float");
  EXPECT_EQ(names[20], "int_n1");
  EXPECT_EQ(names[21], "float_0_5");
  EXPECT_EQ(names[22], "half_0x1pn1");
  EXPECT_EQ(names[23], "true");
  EXPECT_EQ(names[24], "false");
  EXPECT_EQ(names[26], "uint_16_0");
  // Cooperative matrix types, functions and labels without OpName keep their numbers.
  EXPECT_EQ(names[27], "27");
  EXPECT_EQ(names[28], "28");
  EXPECT_EQ(names[30], "30");
  EXPECT_EQ(names[0], "0");
}

TEST(DisassemblerNames, OpNameTakesPrecedenceAndDuplicatesGetSuffixes) {
  // An OpName spelled like a derived name claims it first; the type gets a suffix.
  const std::string text =
      Dis(Asm("OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
              "OpName %v \"uint\"\nOpName %w \"uint_0\"\nOpName %g \"my var\"\n"
              "OpDecorate %g BuiltIn GlobalInvocationId\n"
              "%uint = OpTypeInt 32 0\n%v3 = OpTypeVector %uint 3\n%p = OpTypePointer Input %v3\n"
              "%g = OpVariable %p Input\n%v = OpUndef %uint\n%w = OpUndef %uint\n"));
  EXPECT_NE(text.find("OpName %uint \"uint\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("OpName %uint_0 \"uint_0\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%uint_1 = OpTypeInt 32 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%v3uint_1 = OpTypeVector %uint_1 3\n"), std::string::npos) << text;
  // The OpName wins over the built-in's GLSL name; characters outside [A-Za-z0-9_] become '_'.
  EXPECT_NE(text.find("%my_var = OpVariable %_ptr_Input_v3uint_1 Input\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("gl_GlobalInvocationID"), std::string::npos) << text;
}

TEST(DisassemblerNames, BuiltInsWithoutOpName) {
  const std::string text = Dis(Asm(
      "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %lid BuiltIn LocalInvocationIndex\n"
      "%uint = OpTypeInt 32 0\n%v3 = OpTypeVector %uint 3\n%p = OpTypePointer Input %v3\n"
      "%pu = OpTypePointer Input %uint\n%gid = OpVariable %p Input\n%lid = OpVariable %pu "
      "Input\n"));
  EXPECT_NE(text.find("%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("%gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input\n"),
            std::string::npos)
      << text;
}

TEST(DisassemblerNames, ConstantsOfOtherWidths) {
  const std::string text = Dis(Asm(
      "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
      "%ulong = OpTypeInt 64 0\n%long = OpTypeInt 64 1\n%double = OpTypeFloat 64\n"
      "%short = OpTypeInt 16 1\n%uchar = OpTypeInt 8 0\n"
      "%a = OpConstant %ulong 18446744073709551615\n%b = OpConstant %long -5\n"
      "%c = OpConstant %double -2.5\n%d = OpConstant %short -300\n%e = OpConstant %uchar 200\n"));
  EXPECT_NE(text.find("%ulong_18446744073709551615 = OpConstant %ulong 18446744073709551615\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("%long_n5 = OpConstant %long -5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%double_n2_5 = OpConstant %double -2.5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%short_n300 = OpConstant %short -300\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%uchar_200 = OpConstant %uchar 200\n"), std::string::npos) << text;
}

TEST(DisassemblerNames, UnnamedCooperativeTypesStayNumeric) {
  const std::string text =
      Dis(Asm("OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
              "%half = OpTypeFloat 16\n%uint = OpTypeInt 32 0\n%u3 = OpConstant %uint 3\n"
              "%u16 = OpConstant %uint 16\n"
              "%m = OpTypeCooperativeMatrixKHR %half %u3 %u16 %u16 %u3\n"
              "%n = OpTypeCooperativeMatrixNV %half %u3 %u16 %u16\n"
              "%v = OpTypeCooperativeVectorNV %half %u16\n"
              "%l = OpTypeTensorLayoutNV %u3 %u3\n"));
  EXPECT_NE(text.find("          %5 = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 "
                      "%uint_3\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("          %6 = OpTypeCooperativeMatrixNV"), std::string::npos) << text;
  EXPECT_NE(text.find("          %7 = OpTypeVectorIdEXT %half %uint_16\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("          %8 = OpTypeTensorLayoutNV"), std::string::npos) << text;
}

// Opcode 5288: OpTypeCooperativeVectorNV where the module can only mean a cooperative vector
// (CooperativeVectorNV without LongVectorEXT), the grammar's OpTypeVectorIdEXT otherwise.
TEST(DisassemblerNames, Opcode5288IsSpelledAsTheModuleDeclares) {
  const std::string types =
      "OpMemoryModel Logical GLSL450\n%half = OpTypeFloat 16\n%uint = OpTypeInt 32 0\n"
      "%u16 = OpConstant %uint 16\n%v = OpTypeVectorIdEXT %half %u16\n";
  const std::string coop =
      Dis(Asm("OpCapability Shader\nOpCapability CooperativeVectorNV\n" + types));
  EXPECT_NE(coop.find("%4 = OpTypeCooperativeVectorNV %half %uint_16\n"), std::string::npos)
      << coop;
  const std::string both =
      Dis(Asm("OpCapability Shader\nOpCapability CooperativeVectorNV\n"
              "OpCapability LongVectorEXT\n" +
              types));
  EXPECT_NE(both.find("%4 = OpTypeVectorIdEXT %half %uint_16\n"), std::string::npos) << both;
  const std::string long_vector =
      Dis(Asm("OpCapability Shader\nOpCapability LongVectorEXT\n" + types));
  EXPECT_NE(long_vector.find("%4 = OpTypeVectorIdEXT %half %uint_16\n"), std::string::npos)
      << long_vector;
}

// ---------------------------------------------------------------------------------------------
// Options.

TEST(DisassemblerOptions, RawIds) {
  DisassembleOptions options;
  options.friendly_names = false;
  const std::string text = Dis(Asm(kNamesModule), options);
  EXPECT_NE(text.find("          %8 = OpTypeVoid\n"), std::string::npos) << text;
  EXPECT_NE(text.find("OpName %2 \"foo(i1;\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("          %1 = OpFunction %8 None %29\n"), std::string::npos) << text;
  EXPECT_NE(text.find("OpDecorate %6 BuiltIn WorkgroupSize\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("%uint"), std::string::npos) << text;
  EXPECT_EQ(text.find("%main"), std::string::npos) << text;
  // Every id is %<number>.
  for (const std::string& line : Lines(text)) {
    for (size_t at = line.find('%'); at != std::string::npos; at = line.find('%', at + 1)) {
      ASSERT_LT(at + 1, line.size()) << line;
      EXPECT_TRUE(line[at + 1] >= '0' && line[at + 1] <= '9') << line;
    }
  }
  // The text assembles back to the same binary.
  const Words words = Asm(kNamesModule);
  EXPECT_EQ(Asm(text), words);
}

TEST(DisassemblerOptions, NoHeader) {
  DisassembleOptions options;
  options.header = false;
  const std::string with = Dis(Asm(kNamesModule));
  const std::string without = Dis(Asm(kNamesModule), options);
  EXPECT_EQ(without.rfind("               OpCapability Shader\n", 0), 0u) << without;
  for (const std::string& line : Lines(without)) EXPECT_NE(line[0], ';') << line;
  // The same text minus the five comment lines.
  size_t fifth = 0;
  for (int i = 0; i < 5; ++i) fifth = with.find('\n', fifth) + 1;
  EXPECT_EQ(with.substr(fifth), without);
}

TEST(DisassemblerOptions, NoIndent) {
  DisassembleOptions options;
  options.indent = false;
  const std::string text = Dis(Asm(kNamesModule), options);
  for (const std::string& line : Lines(text)) {
    ASSERT_FALSE(line.empty());
    EXPECT_NE(line[0], ' ') << line;
  }
  EXPECT_NE(text.find("\nOpCapability Shader\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n%void = OpTypeVoid\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n%_ptr_Function_uint = OpTypePointer Function %uint\n"), std::string::npos)
      << text;
}

TEST(DisassemblerOptions, AllOff) {
  DisassembleOptions options;
  options.header = false;
  options.indent = false;
  options.friendly_names = false;
  EXPECT_EQ(Dis(Asm("OpCapability Shader\n%t = OpTypeInt 32 1\n%c = OpConstant %t -7\n"), options),
            "OpCapability Shader\n%1 = OpTypeInt 32 1\n%2 = OpConstant %1 -7\n");
}

// Opcodes start in column 16 when "%name = " fits in 15 characters; longer names push them right.
TEST(DisassemblerLayout, OpcodeColumn) {
  const std::string text = Dis(Asm(kNamesModule));
  int aligned = 0, long_names = 0;
  for (const std::string& line : Lines(text)) {
    if (line[0] == ';') continue;
    const size_t op = line.find("Op");
    ASSERT_NE(op, std::string::npos) << line;
    const size_t equals = line.find(" = ");
    if (equals != std::string::npos && equals + 3 > 15) {
      EXPECT_EQ(line[0], '%') << line;
      EXPECT_EQ(op, equals + 3) << line;
      ++long_names;
    } else {
      EXPECT_EQ(op, 15u) << line;  // 0-based 15 = column 16.
      ++aligned;
    }
  }
  EXPECT_GT(aligned, 10);
  EXPECT_GE(long_names, 4);
  // The boundary: "%123456789012 = " is 16 characters, "%12345678901 = " is 15.
  const std::string names =
      Dis(Asm("OpCapability Shader\nOpName %a \"abcdefghijkl\"\nOpName %b \"abcdefghijk\"\n"
              "%a = OpTypeVoid\n%b = OpTypeBool\n"));
  EXPECT_NE(names.find("\n%abcdefghijkl = OpTypeVoid\n"), std::string::npos) << names;
  EXPECT_NE(names.find("\n%abcdefghijk = OpTypeBool\n"), std::string::npos) << names;
  const std::string shorter =
      Dis(Asm("OpCapability Shader\nOpName %a \"abcdefghij\"\n%a = OpTypeVoid\n"));
  EXPECT_NE(shorter.find("\n %abcdefghij = OpTypeVoid\n"), std::string::npos) << shorter;
}

// ---------------------------------------------------------------------------------------------
// Header.

Words HeaderOnly(uint32_t version, uint32_t generator, uint32_t bound, uint32_t schema = 0) {
  return {0x07230203u, version, generator, bound, schema, 0x00020011u, 1u};
}

TEST(DisassemblerHeader, KnownGenerator) {
  EXPECT_EQ(Dis(HeaderOnly(0x00010500, (8u << 16) | 11, 7)),
            "; SPIR-V\n; Version: 1.5\n; Generator: Khronos Glslang Reference Front End; 11\n"
            "; Bound: 7\n; Schema: 0\n               OpCapability Shader\n");
}

TEST(DisassemblerHeader, UnknownGenerator) {
  const std::string text = Dis(HeaderOnly(0x00010000, 0xFFFF0003u, 1));
  EXPECT_EQ(text,
            "; SPIR-V\n; Version: 1.0\n; Generator: Unknown(65535); 3\n; Bound: 1\n; Schema: 0\n"
            "               OpCapability Shader\n");
  // The assembler reads the comment block back.
  EXPECT_EQ(Asm(text), HeaderOnly(0x00010000, 0xFFFF0003u, 1));
}

TEST(DisassemblerHeader, RoundTripsThroughTheAssembler) {
  const Words words = HeaderOnly(0x00010300, (8u << 16) | 11, 42);
  EXPECT_EQ(Asm(Dis(words)), words);
}

TEST(DisassemblerHeader, BigEndianInput) {
  Words words = HeaderOnly(0x00010300, (8u << 16) | 11, 5);
  for (uint32_t& w : words) w = __builtin_bswap32(w);
  EXPECT_EQ(Dis(words), Dis(HeaderOnly(0x00010300, (8u << 16) | 11, 5)));
}

// ---------------------------------------------------------------------------------------------
// Instruction text and malformed input.

TEST(DisassemblerInstructionText, NumbersWithoutNames) {
  const Words words =
      Asm("%g = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n%x = OpConstant %f 1.5\n"
          "%r = OpExtInst %f %g FMax %x %x\n%s = OpString \"a \\\"q\\\" \\\\\"\n");
  binary::ParsedModule module;
  Diagnostic diagnostic;
  ASSERT_TRUE(binary::ParseModule(words, &module, &diagnostic)) << diagnostic.ToString();
  ASSERT_EQ(module.instructions.size(), 5u);
  EXPECT_EQ(InstructionText(module.Get(0), {}), "%1 = OpExtInstImport \"GLSL.std.450\"");
  EXPECT_EQ(InstructionText(module.Get(2), {}), "%3 = OpConstant %2 1.5");
  EXPECT_EQ(InstructionText(module.Get(3), {}), "%4 = OpExtInst %2 %1 FMax %3 %3");
  EXPECT_EQ(InstructionText(module.Get(4), {}), "%5 = OpString \"a \\\"q\\\" \\\\\"");
  const auto names = FriendlyNames(module);
  EXPECT_EQ(InstructionText(module.Get(3), names),
            "%4 = OpExtInst %float %1 FMax %float_1_5 "
            "%float_1_5");
}

// Names that clash: OpNames taking type and constant names and their suffixed forms, names of
// digits, duplicate types and constants, a late OpName, names spelled from suffixed names.
constexpr char kClashModule[] = R"(OpCapability Shader
OpCapability Float16
OpMemoryModel Logical GLSL450
OpName %a "uint"
OpName %b "uint_0"
OpName %c "123"
OpName %d "_123"
OpName %e "x y"
OpName %f "v4uint_1"
OpName %g "uint_1_0_0"
OpName %h "_ptr_Private__arr__arr_v4uint_1_uint_1_16_uint_1_16"
OpDecorate %wg BuiltIn WorkgroupSize
OpDecorate %gid BuiltIn GlobalInvocationId
OpName %gid "gl_WorkGroupSize"
%u = OpTypeInt 32 0
%i = OpTypeInt 32 1
%hf = OpTypeFloat 16
%bl = OpTypeBool
%v4 = OpTypeVector %u 4
%v4b = OpTypeVector %u 4
%v4c = OpTypeVector %u 4
%k0 = OpConstant %u 0
%k0b = OpConstant %u 0
%k0c = OpConstant %u 0
%k1 = OpConstant %u 1
%kn = OpConstant %i -1
%kh = OpConstant %hf 0.5
%kt = OpConstantTrue %bl
%kf = OpConstantFalse %bl
%len = OpConstant %u 16
%arr = OpTypeArray %v4 %len
%arr2 = OpTypeArray %arr %len
%ptr = OpTypePointer Private %arr2
%ptr2 = OpTypePointer Private %arr2
%a = OpVariable %ptr Private
%b = OpVariable %ptr Private
%c = OpVariable %ptr Private
%d = OpVariable %ptr Private
%e = OpVariable %ptr Private
%f = OpVariable %ptr Private
%g = OpVariable %ptr Private
%h = OpVariable %ptr Private
%wg = OpVariable %ptr Private
%gid = OpVariable %ptr Private
OpName %k1 "late"
)";

// Every id's lazy name equals the whole module's, asked one id per object, or all ids of one
// object in reverse order; and instructions print the same with both.
void ExpectLazyNamesEqual(const std::string& text) {
  const Words words = Asm(text);
  binary::ParsedModule module;
  Diagnostic diagnostic;
  ASSERT_TRUE(binary::ParseModule(words, &module, &diagnostic)) << diagnostic.ToString();
  const auto names = FriendlyNames(module, /*number_unnamed=*/false);
  ASSERT_EQ(names.size(), module.header.bound);
  LazyFriendlyNames reverse(module);
  for (uint32_t id = module.header.bound + 1; id-- > 0;) {
    const std::string expected = id < names.size() ? std::string(names[id]) : "";
    EXPECT_EQ(std::string(LazyFriendlyNames(module).Get(id)), expected) << "id " << id;
    EXPECT_EQ(std::string(reverse.Get(id)), expected) << "id " << id;
  }
  LazyFriendlyNames lazy(module);
  for (size_t i = 0; i < module.instructions.size(); ++i) {
    EXPECT_EQ(InstructionText(module.Get(i), lazy), InstructionText(module.Get(i), names));
  }
}

TEST(DisassemblerNames, LazyNamesEqualTheWholeModulesWithClashes) {
  ExpectLazyNamesEqual(kClashModule);
  // Spot checks of the clashes themselves.
  const Words words = Asm(kClashModule);
  binary::ParsedModule module;
  Diagnostic diagnostic;
  ASSERT_TRUE(binary::ParseModule(words, &module, &diagnostic)) << diagnostic.ToString();
  const auto names = FriendlyNames(module, /*number_unnamed=*/false);
  LazyFriendlyNames lazy(module);
  EXPECT_EQ(lazy.Get(module.instructions[14].result_id), "uint_1");  // %u
  EXPECT_EQ(names[module.instructions[14].result_id], "uint_1");
  EXPECT_EQ(lazy.Get(module.instructions[19].result_id), "v4uint_1_1");  // %v4b
  EXPECT_EQ(lazy.Get(module.instructions[22].result_id), "uint_1_0_1");  // %k0b
  EXPECT_EQ(lazy.Get(module.instructions[24].result_id), "uint_1_1");    // %k1, not "late"
}

// The validator stops the naming scan at the first OpFunction once the layout is in order: the
// names are the same, and nothing after the end given is looked at.
TEST(DisassemblerNames, LazyNamesScanEndsAtTheFirstFunction) {
  const Words words = Asm(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %x "x"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u = OpTypeInt 32 0
%k3 = OpConstant %u 3
%pf = OpTypePointer Function %u
%main = OpFunction %void None %fn
%l = OpLabel
%x = OpVariable %pf Function
%y = OpVariable %pf Function
OpStore %x %k3
%v = OpLoad %u %y
OpReturn
OpFunctionEnd
)");
  binary::ParsedModule module;
  Diagnostic diagnostic;
  ASSERT_TRUE(binary::ParseModule(words, &module, &diagnostic)) << diagnostic.ToString();
  uint32_t first_function = 0;
  while (module.instructions[first_function].opcode != static_cast<uint16_t>(spv::Op::Function)) {
    ++first_function;
  }
  const auto names = FriendlyNames(module, /*number_unnamed=*/false);
  LazyFriendlyNames limited(module, first_function);
  for (uint32_t id = 0; id < module.header.bound; ++id) {
    EXPECT_EQ(std::string(limited.Get(id)), std::string(names[id])) << "id " << id;
  }
  const uint32_t x = module.instructions[first_function + 2].result_id;
  EXPECT_EQ(names[x], "x");
  // An end before the OpName: %x has no name, the type names stay.
  LazyFriendlyNames before_name(module, 4);
  EXPECT_EQ(before_name.Get(x), "");
  LazyFriendlyNames none(module, 0);
  EXPECT_EQ(none.Get(module.instructions[first_function - 1].result_id), "");
  EXPECT_EQ(limited.Get(module.instructions[first_function - 1].result_id), "_ptr_Function_uint");
}

TEST(DisassemblerNames, LazyNamesOfDeepTypesFallBackToTheWholeModule) {
  // Nested arrays beyond the depth the lazy naming follows; names long enough to be cut.
  std::string text =
      "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%f = OpTypeFloat 32\n"
      "%u = OpTypeInt 32 0\n%n = OpConstant %u 3\n%t0 = OpTypeVector %f 4\n";
  for (int i = 1; i <= 60; ++i) {
    text += "%t" + std::to_string(i) + " = OpTypeArray %t" + std::to_string(i - 1) + " %n\n";
    if (i % 7 == 0)
      text += "%d" + std::to_string(i) + " = OpTypeArray %t" + std::to_string(i - 1) +
              " %n\n";  // A duplicate.
  }
  ExpectLazyNamesEqual(text);
}

TEST(DisassemblerErrors, UndefinedEnumerantsAreRejectedWithTheirWord) {
  // Raw words put values no grammar defines into enumerant operands.
  const std::string prefix =
      "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%u = OpTypeInt 32 0\n";
  std::string text;
  Diagnostic diagnostic;
  // Header 5 + OpCapability 2 + OpMemoryModel 3 + OpTypeInt 4: the storage class is word 16.
  EXPECT_FALSE(Disassemble(Asm(prefix + "%p = OpTypePointer !12345 %u\n"), {}, &text, &diagnostic));
  EXPECT_EQ(diagnostic.word_offset, 16u) << diagnostic.ToString();
  EXPECT_NE(diagnostic.message.find("12345"), std::string::npos) << diagnostic.ToString();
  // ... + OpTypePointer 4 + OpUndef 3: the memory access mask is word 25.
  diagnostic = {};
  EXPECT_FALSE(Disassemble(Asm(prefix + "%p = OpTypePointer Function %u\n%l = OpUndef %p\n"
                                        "%x = OpLoad %u %l !0x80000001\n"),
                           {}, &text, &diagnostic));
  EXPECT_EQ(diagnostic.word_offset, 25u) << diagnostic.ToString();
  EXPECT_NE(diagnostic.message.find("0x80000000"), std::string::npos) << diagnostic.ToString();
}

TEST(DisassemblerErrors, MalformedBinaries) {
  std::string text;
  Diagnostic diagnostic;
  EXPECT_FALSE(Disassemble(Words{0x12345678u, 0x00010000u, 0, 1, 0}, {}, &text, &diagnostic));
  EXPECT_FALSE(diagnostic.message.empty());
  diagnostic = {};
  EXPECT_FALSE(Disassemble(Words{0x07230203u, 0x00010000u}, {}, &text, &diagnostic));
  EXPECT_FALSE(diagnostic.message.empty());
  // An instruction whose word count runs past the end.
  diagnostic = {};
  EXPECT_FALSE(Disassemble(Words{0x07230203u, 0x00010000u, 0, 1, 0, 0x00040011u, 1u}, {}, &text,
                           &diagnostic));
  EXPECT_FALSE(diagnostic.message.empty());
}

}  // namespace
}  // namespace coopspv::text
