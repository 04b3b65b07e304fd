// --lower-small-floats on small modules, one instruction family at a time, checked with FileCheck
// directives on the disassembly; coopspv::Optimize validates every output (vulkan1.3). What the
// emitted decode / encode computes is minifloat_code_test's subject, and the lavapipe run of
// test/run/legalize/small_floats.amber checks the values end to end.
#include <gtest/gtest.h>

#include <string>

#include "include/coopspv/coopspv.hpp"
#include "test/util/filecheck.h"
#include "test/util/pass_run.h"

namespace coopspv {
namespace {

using testing::FileCheck;
using testing::PassRun;

// A storage buffer holding one bfloat16, E4M3, E5M2, float and half (pointers %pbf %pe4 %pe5
// %pf %ph, loaded as %x %y %z %f %h), then `body` in the entry block.
std::string Module(const std::string& body, const std::string& decorations = "",
                   const std::string& globals = "") {
  return R"(
OpCapability Shader
OpCapability Float16
OpCapability StorageBuffer16BitAccess
OpCapability BFloat16TypeKHR
OpCapability BFloat16DotProductKHR
OpCapability Float8EXT
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_bfloat16"
OpExtension "SPV_EXT_float8"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
)" + decorations +
         R"(
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
OpMemberDecorate %S 2 Offset 8
OpMemberDecorate %S 3 Offset 12
OpMemberDecorate %S 4 Offset 16
OpDecorate %buf Binding 0
OpDecorate %buf DescriptorSet 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%bf = OpTypeFloat 16 BFloat16KHR
%e4 = OpTypeFloat 8 Float8E4M3EXT
%e5 = OpTypeFloat 8 Float8E5M2EXT
%v2bf = OpTypeVector %bf 2
%v2float = OpTypeVector %float 2
%S = OpTypeStruct %bf %e4 %e5 %float %half
%ptr = OpTypePointer StorageBuffer %S
%buf = OpVariable %ptr StorageBuffer
%pbf = OpTypePointer StorageBuffer %bf
%pe4 = OpTypePointer StorageBuffer %e4
%pe5 = OpTypePointer StorageBuffer %e5
%pf = OpTypePointer StorageBuffer %float
%ph = OpTypePointer StorageBuffer %half
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%int_3 = OpConstant %int 3
%int_4 = OpConstant %int 4
%bf_one = OpConstant %bf 1
)" + globals +
         R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%a0 = OpAccessChain %pbf %buf %int_0
%a1 = OpAccessChain %pe4 %buf %int_1
%a2 = OpAccessChain %pe5 %buf %int_2
%a3 = OpAccessChain %pf %buf %int_3
%a4 = OpAccessChain %ph %buf %int_4
%x = OpLoad %bf %a0
%y = OpLoad %e4 %a1
%z = OpLoad %e5 %a2
%f = OpLoad %float %a3
%h = OpLoad %half %a4
)" + body +
         R"(
OpReturn
OpFunctionEnd
)";
}

PassRun Lower(const std::string& assembly) {
  return testing::RunPasses(assembly, {{"lower-small-floats", ""}});
}

TEST(LowerSmallFloats, TypesBecomeUnsignedIntegersAndTheCapabilitiesGo) {
  // Loads, stores and constants need no change: the same bits, now integers.
  const PassRun r = Lower(Module("OpStore %a0 %bf_one\nOpStore %a1 %y\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(FileCheck(r.text, R"(
    CHECK-NOT: BFloat16
    CHECK-NOT: Float8
    CHECK: OpCapability Int16
    CHECK: OpCapability Int8
    CHECK: OpCapability StorageBuffer8BitAccess
    CHECK-NOT: OpExtension
    CHECK: OpTypeInt 16 0
    CHECK: OpTypeInt 8 0
    CHECK: OpTypeVector %ushort 2
    CHECK: OpTypeStruct %ushort %uchar %uchar %float %half
    CHECK: OpConstant %ushort 16256
    CHECK: OpStore
  )")) << r.text;
  // Two 8-bit types became one (declarations merged).
  EXPECT_EQ(r.text.find("OpTypeInt 8 0"), r.text.rfind("OpTypeInt 8 0")) << r.text;
}

TEST(LowerSmallFloats, ConversionsDecodeToFloat32AndEncodeBack) {
  const PassRun r = Lower(Module(R"(
%xf = OpFConvert %float %x
OpStore %a3 %xf
%fb = OpFConvert %bf %f
OpStore %a0 %fb
)"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(FileCheck(r.text, R"(
    CHECK: OpUConvert %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK-NEXT: OpBitcast %float
    CHECK: OpBitcast %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK-NEXT: OpUConvert %ushort
    CHECK-NOT: OpFConvert
    CHECK: OpFunction %uint None
  )")) << r.text;
}

// True when some OpSelect of the text picks the constant `value` (a uint32 constant's name).
bool SelectsConstant(const std::string& text, const std::string& name) {
  size_t at = 0;
  while ((at = text.find("OpSelect %uint ", at)) != std::string::npos) {
    const size_t end = text.find('\n', at);
    if (text.substr(at, end - at).find(" " + name + " ") != std::string::npos) return true;
    at = end;
  }
  return false;
}

TEST(LowerSmallFloats, Float8SaturatesWhereTheConversionIsDecorated) {
  // E5M2 past its largest finite value: infinity (0x7C, 124) unless decorated, then the largest
  // finite value (0x7B, 123). E4M3 has no infinity: always its largest, 0x7E (126).
  const std::string body = "%c = OpFConvert %e5 %f\nOpStore %a2 %c\n";
  PassRun r = Lower(Module(body));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(SelectsConstant(r.text, "%uint_124")) << r.text;
  EXPECT_FALSE(SelectsConstant(r.text, "%uint_123")) << r.text;
  r = Lower(Module(body, "OpDecorate %c SaturatedToLargestFloat8NormalConversionEXT\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(SelectsConstant(r.text, "%uint_123")) << r.text;
  EXPECT_FALSE(SelectsConstant(r.text, "%uint_124")) << r.text;
  EXPECT_EQ(r.text.find("SaturatedToLargestFloat8NormalConversionEXT"), std::string::npos)
      << r.text;
  r = Lower(Module("%c = OpFConvert %e4 %f\nOpStore %a1 %c\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(SelectsConstant(r.text, "%uint_126")) << r.text;
}

TEST(LowerSmallFloats, OtherFloatWidthsGoThroughFloat32) {
  const PassRun r = Lower(Module(R"(
%c = OpFConvert %e4 %h
OpStore %a1 %c
%d = OpFConvert %half %z
OpStore %a4 %d
%e = OpFConvert %e5 %y
OpStore %a2 %e
)"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(FileCheck(r.text, R"(
    CHECK: OpFConvert %float
    CHECK-NEXT: OpBitcast %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK-NEXT: OpUConvert %uchar
    CHECK: OpUConvert %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK-NEXT: OpBitcast %float
    CHECK-NEXT: OpFConvert %half
    CHECK: OpUConvert %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK-NEXT: OpBitcast %float
    CHECK-NEXT: OpBitcast %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK-NEXT: OpUConvert %uchar
  )")) << r.text;
}

TEST(LowerSmallFloats, IntegerConversions) {
  const PassRun r = Lower(Module(R"(
%i = OpConvertFToS %int %y
%u = OpConvertFToU %uint %x
%b = OpConvertSToF %bf %i
%c = OpConvertUToF %e5 %u
OpStore %a0 %b
OpStore %a2 %c
)"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(FileCheck(r.text, R"(
    CHECK: OpBitcast %float
    CHECK-NEXT: OpConvertFToS %int
    CHECK: OpBitcast %float
    CHECK-NEXT: OpConvertFToU %uint
    CHECK: OpConvertSToF %float
    CHECK-NEXT: OpBitcast %uint
    CHECK: OpConvertUToF %float
    CHECK-NEXT: OpBitcast %uint
  )")) << r.text;
}

// SPV_KHR_bfloat16 allows OpDot on bfloat16 vectors, not arithmetic or comparisons (the
// validator's bfloat16.use): the dot product is computed in float32.
TEST(LowerSmallFloats, DotAndSelectInFloat32) {
  const PassRun r = Lower(Module(R"(
%w = OpFConvert %bf %y
%v = OpCompositeConstruct %v2bf %x %w
%d = OpDot %bf %v %v
%lt = OpFOrdLessThan %bool %f %f
%s = OpSelect %bf %lt %d %x
OpStore %a0 %s
)"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(FileCheck(r.text, R"(
    CHECK: OpCompositeConstruct %v2ushort
    CHECK: OpCompositeExtract %ushort
    CHECK: OpCompositeConstruct %v2float
    CHECK: OpDot %float
    CHECK-NEXT: OpBitcast %uint
    CHECK: OpSelect %ushort
  )")) << r.text;
}

TEST(LowerSmallFloats, VectorsConvertComponentByComponent) {
  const PassRun r = Lower(Module(R"(
%v = OpCompositeConstruct %v2bf %x %x
%w = OpFConvert %v2float %v
%back = OpFConvert %v2bf %w
%e = OpCompositeExtract %bf %back 1
OpStore %a0 %e
)"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(FileCheck(r.text, R"(
    CHECK: OpCompositeExtract %ushort
    CHECK: OpCompositeExtract %ushort
    CHECK: OpCompositeConstruct %v2float
    CHECK: OpCompositeExtract %float
    CHECK: OpUConvert %ushort
    CHECK: OpCompositeExtract %float
    CHECK: OpUConvert %ushort
    CHECK: OpCompositeConstruct %v2ushort
  )")) << r.text;
}

TEST(LowerSmallFloats, BitcastsToTheSameIntegerBecomeCopies) {
  // 16-bit integers that are computed with, not only stored, need Int16 (small-type.use).
  std::string text = Module(R"(
%s = OpBitcast %short %x
%u = OpBitcast %ushort %x
%h2 = OpBitcast %half %x
%back = OpBitcast %bf %u
OpStore %a0 %back
)",
                            "", "%short = OpTypeInt 16 1\n%ushort = OpTypeInt 16 0\n");
  text.replace(text.find("OpCapability Float16"), 0, "OpCapability Int16\n");
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(FileCheck(r.text, R"(
    CHECK: OpBitcast %short
    CHECK: OpCopyObject %ushort
    CHECK: OpBitcast %half
    CHECK: OpCopyObject %ushort
  )")) << r.text;
}

TEST(LowerSmallFloats, RefusesWhatItCannotRewrite) {
  // A cooperative matrix of bfloat16 still there: the matrix lowering comes first.
  std::string matrix = Module("", "",
                              "%u3 = OpConstant %uint 3\n%u16 = OpConstant %uint 16\n"
                              "%u0 = OpConstant %uint 0\n"
                              "%m = OpTypeCooperativeMatrixKHR %bf %u3 %u16 %u16 %u0\n");
  matrix.replace(matrix.find("OpExtension"), 0,
                 "OpCapability CooperativeMatrixKHR\nOpCapability BFloat16CooperativeMatrixKHR\n"
                 "OpExtension \"SPV_KHR_cooperative_matrix\"\n");
  PassRun r = Lower(matrix);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("lower-small-floats.matrix"), std::string::npos) << r.error;
  // A GLSL.std.450 instruction on bfloat16: no software form.
  r = Lower(Module("%a = OpExtInst %bf %glsl FAbs %x\nOpStore %a0 %a\n"));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("lower-small-floats.unsupported"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("OpExtInst"), std::string::npos) << r.error;
}

// SPV_EXT_ocp_microscaling_types: the FP4 / FP6 / E8M0 / MXINT8 types are refused, naming the
// type, never half lowered.
TEST(LowerSmallFloats, RefusesTheOcpMicroscalingTypes) {
  for (const char* type : {"OpTypeFloat 4 Float4E2M1EXT", "OpTypeFloat 8 MXInt8EXT"}) {
    std::string text = Module("", "", std::string("%ocp = ") + type + "\n");
    text.replace(text.find("OpExtension"), 0,
                 "OpCapability Float4EXT\nOpCapability MXInt8EXT\n"
                 "OpExtension \"SPV_EXT_ocp_microscaling_types\"\n");
    const PassRun r = Lower(text);
    EXPECT_FALSE(r.ok) << type;
    EXPECT_NE(r.error.find("lower-small-floats.unsupported"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(std::string(type).substr(std::string(type).rfind(' ') + 1) +
                           " is not emulated"),
              std::string::npos)
        << r.error;
  }
}

// The GLSL.std.450 import is added only for a helper that calls FindUMsb (a float8 decode), and
// never left unused.
TEST(LowerSmallFloats, ImportsGlslOnlyForTheHelpersThatUseIt) {
  const std::string import = "%glsl = OpExtInstImport \"GLSL.std.450\"\n";
  auto without_import = [&](const std::string& body) {
    std::string text = Module(body);
    text.erase(text.find(import), import.size());
    return text;
  };
  // Encodes, and a bfloat16 decode: integer operations only.
  PassRun r = Lower(without_import(R"(
%xf = OpFConvert %float %x
OpStore %a3 %xf
%fb = OpFConvert %bf %f
OpStore %a0 %fb
%fe = OpFConvert %e4 %f
OpStore %a1 %fe
)"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(r.text.find("OpFunctionCall"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("OpExtInstImport"), std::string::npos) << r.text;
  // An E4M3 decode: FindUMsb for its subnormals, through one new import.
  r = Lower(without_import("%yf = OpFConvert %float %y\nOpStore %a3 %yf\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(FileCheck(r.text, R"(
    CHECK: OpExtInstImport "GLSL.std.450"
    CHECK-NOT: OpExtInstImport
    CHECK: FindUMsb
  )")) << r.text;
}

TEST(LowerSmallFloats, ModulesWithoutSmallFloatsStayUnchanged) {
  const std::string plain = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  const PassRun r = Lower(plain);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text.find("OpCapability Int16"), std::string::npos) << r.text;
}

}  // namespace
}  // namespace coopspv
