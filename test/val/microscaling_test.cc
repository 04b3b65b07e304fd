// Tests of SPV_EXT_ocp_microscaling_types across the rule families that check it: the types and
// their storage classes (types.cc: type.float, type.float.storage and, with bfloat16 and float8,
// vulkan.encoded-float-interface), their uses
// (microscaling.cc: microscaling.use; bfloat16.use and float8.use, then small-type.use for the
// 8- and 16-bit storage types, at the end), the conversions'
// Vulkan rules (arithmetic.cc: vulkan.microscaling-convert) and OpBitcastExtractEXT
// (vector_matrix.cc: bitcast.extract, vulkan.bitcast-extract).
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

// A kernel declaring every OCP microscaling type, scalars and vectors, with constants of each and
// Function variables; `globals` follow the declarations, `body` is the entry block.
std::string Kernel(const std::string& body, const std::string& globals = "") {
  return R"(
OpCapability Shader
OpCapability Int8
OpCapability Float16
OpCapability Float8EXT
OpCapability Float4EXT
OpCapability Float6EXT
OpCapability Float8UnsignedE8M0EXT
OpCapability MXInt8EXT
OpCapability BitcastExtractEXT
OpExtension "SPV_EXT_float8"
OpExtension "SPV_EXT_ocp_microscaling_types"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %priv
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%e4m3 = OpTypeFloat 8 Float8E4M3EXT
%fp4 = OpTypeFloat 4 Float4E2M1EXT
%e2m3 = OpTypeFloat 6 Float6E2M3EXT
%e3m2 = OpTypeFloat 6 Float6E3M2EXT
%e8m0 = OpTypeFloat 8 Float8UnsignedE8M0EXT
%mx = OpTypeFloat 8 MXInt8EXT
%v2fp4 = OpTypeVector %fp4 2
%v4fp4 = OpTypeVector %fp4 4
%v2e3m2 = OpTypeVector %e3m2 2
%v2uchar = OpTypeVector %uchar 2
%v4uchar = OpTypeVector %uchar 4
%v2mx = OpTypeVector %mx 2
%S = OpTypeStruct %float %e2m3
%uint_2 = OpConstant %uint 2
%arr = OpTypeArray %mx %uint_2
%true = OpConstantTrue %bool
%uchar_9 = OpConstant %uchar 9
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
%half_1 = OpConstant %half 1
%fp4_1 = OpConstant %fp4 1
%e2m3_1 = OpConstant %e2m3 1
%e3m2_1 = OpConstant %e3m2 1
%e8m0_1 = OpConstant %e8m0 1
%mx_1 = OpConstant %mx 1
%fp4_v2 = OpConstantComposite %v2fp4 %fp4_1 %fp4_1
%mx_v2 = OpConstantComposite %v2mx %mx_1 %mx_1
%uchar_v2 = OpConstantComposite %v2uchar %uchar_9 %uchar_9
%S_1 = OpConstantComposite %S %float_1 %e2m3_1
%arr_1 = OpConstantComposite %arr %mx_1 %mx_1
%spec = OpSpecConstant %e3m2 2
%pfp4 = OpTypePointer Function %fp4
%pS = OpTypePointer Function %S
%parr = OpTypePointer Private %arr
%priv = OpVariable %parr Private
)" + globals +
         R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%vfp4 = OpVariable %pfp4 Function
%vS = OpVariable %pS Function
)" + body +
         R"(
OpReturn
OpFunctionEnd
)";
}

TEST(Microscaling, EveryTypeInConstantsMemoryConversionsAndComposites) {
  const std::string body = R"(
OpStore %vfp4 %fp4_1
%l = OpLoad %fp4 %vfp4
OpStore %vS %S_1
%a = OpFConvert %float %l
%b = OpFConvert %half %e2m3_1
%c = OpFConvert %float %spec
%d = OpFConvert %float %e8m0_1
%e = OpFConvert %e4m3 %mx_1
%g = OpBitcast %uchar %fp4_v2
%h = OpBitcast %v2fp4 %uchar_9
%i = OpBitcast %uchar %mx_1
%j = OpBitcast %v2uchar %mx_v2
%k = OpCompositeExtract %fp4 %fp4_v2 1
%m = OpCompositeConstruct %v2fp4 %k %l
%n = OpVectorShuffle %v4fp4 %m %fp4_v2 0 1 3 2
%o = OpSelect %fp4 %true %k %l
%p = OpCopyObject %S %S_1
%q = OpUndef %v2mx
%r = OpBitcastExtractEXT %fp4 %uchar_9 %uint_1
%s = OpBitcastExtractEXT %v2fp4 %uchar_v2 %uint_2
%t = OpBitcastExtractEXT %e3m2 %uint_1 %uint_1
%u = OpLoad %arr %priv
)";
  // spirv-val accepts the same module in both environments.
  EXPECT_CLEAN(testing::ValidateText(Kernel(body), "vulkan1.3"));
  EXPECT_CLEAN(testing::ValidateText(Kernel(body), "spv1.6"));
}

// Functions take, pass and return the values; OpPhi merges them.
TEST(Microscaling, FunctionsAndPhi) {
  const std::string text = Kernel(R"(
%x = OpFunctionCall %fp4 %id %fp4_1
OpBranch %next
%next = OpLabel
%y = OpPhi %fp4 %x %entry
)",
                                  "%idfn = OpTypeFunction %fp4 %fp4\n");
  const std::string with_function = text + R"(
%id = OpFunction %fp4 None %idfn
%param = OpFunctionParameter %fp4
%body = OpLabel
OpReturnValue %param
OpFunctionEnd
)";
  EXPECT_CLEAN(testing::ValidateText(with_function, "vulkan1.3"));
}

using Case = testing::InstructionCase;

class MicroscalingCase : public ::testing::TestWithParam<Case> {};

TEST_P(MicroscalingCase, IsReportedWithItsRule) {
  const Case& c = GetParam();
  const Result r = testing::ValidateText(Kernel(c.instruction), c.env);
  // The reported instruction: the case's first, by its opcode (the friendly names differ).
  const std::string first = c.instruction;
  const size_t op = first.find("= Op") + 2;
  const std::string opcode = first.substr(op, first.find(' ', op) - op);
  testing::ExpectCase(r, c.rule, c.rule[0] != '\0' ? opcode.c_str() : nullptr);
}

// microscaling.use: "must only be used with" constant-creation, memory, function, conversion,
// composite, ... instructions, OpSelect, OpPhi, OpReturnValue, OpLifetimeStart / Stop.
INSTANTIATE_TEST_SUITE_P(
    Use, MicroscalingCase,
    ::testing::Values(
        Case{"%x = OpFAdd %fp4 %fp4_1 %fp4_1", "spv1.6", "microscaling.use"},
        Case{"%x = OpFNegate %mx %mx_1", "spv1.6", "microscaling.use"},
        Case{"%x = OpFMul %v2fp4 %fp4_v2 %fp4_v2", "vulkan1.3", "microscaling.use"},
        Case{"%x = OpVectorTimesScalar %v2fp4 %fp4_v2 %fp4_1", "spv1.6", "microscaling.use"},
        Case{"%x = OpDot %fp4 %fp4_v2 %fp4_v2", "spv1.6", "microscaling.use"},
        Case{"%x = OpIsNan %bool %e8m0_1", "spv1.6", "microscaling.use"},
        Case{"%x = OpFOrdLessThan %bool %e3m2_1 %e3m2_1", "spv1.6", "microscaling.use"},
        Case{"%x = OpFOrdEqual %bool %spec %spec", "vulkan1.3", "microscaling.use"},
        // Values of a struct or array holding one are such values too.
        Case{"%x = OpIEqual %bool %uint_1 %uint_1\n%y = OpSelect %S %x %S_1 %S_1", "spv1.6", ""},
        // Other values in the same instructions are fine.
        Case{"%x = OpFAdd %float %float_1 %float_1", "spv1.6", ""},
        Case{"%x = OpExtInst %fp4 %glsl FAbs %fp4_1", "spv1.6", ""}));

// OpBitcastExtractEXT: numerical scalars or vectors of one component count, Base wider; in
// Vulkan FP4 / FP6 results from integers.
INSTANTIATE_TEST_SUITE_P(
    BitcastExtract, MicroscalingCase,
    ::testing::Values(
        Case{"%x = OpBitcastExtractEXT %fp4 %uchar_9 %uint_1", "vulkan1.3", ""},
        Case{"%x = OpBitcastExtractEXT %e2m3 %uint_1 %uchar_9", "vulkan1.3", ""},
        Case{"%x = OpBitcastExtractEXT %v2fp4 %uchar_9 %uint_1", "vulkan1.3", "bitcast.extract"},
        Case{"%x = OpBitcastExtractEXT %v4fp4 %uchar_v2 %uint_1", "spv1.6", "bitcast.extract"},
        Case{"%x = OpBitcastExtractEXT %mx %uchar_9 %uint_1", "spv1.6", "bitcast.extract"},
        Case{"%x = OpBitcastExtractEXT %fp4 %fp4_1 %uint_1", "spv1.6", "bitcast.extract"},
        Case{"%x = OpBitcastExtractEXT %fp4 %uchar_9 %float_1", "spv1.6", "bitcast.extract"},
        Case{"%x = OpBitcastExtractEXT %fp4 %true %uint_1", "spv1.6", "bitcast.extract"},
        Case{"%x = OpBitcastExtractEXT %S %uint_1 %uint_1", "spv1.6", "bitcast.extract"},
        // Outside Vulkan any numerical result and Base.
        Case{"%x = OpBitcastExtractEXT %uchar %uint_1 %uint_1", "spv1.6", ""},
        Case{"%x = OpBitcastExtractEXT %mx %half_1 %uint_1", "spv1.6", ""},
        Case{"%x = OpBitcastExtractEXT %uchar %uint_1 %uint_1", "vulkan1.3",
             "vulkan.bitcast-extract"},
        Case{"%x = OpBitcastExtractEXT %mx %uint_1 %uint_1", "vulkan1.3", "vulkan.bitcast-extract"},
        Case{"%x = OpBitcastExtractEXT %fp4 %half_1 %uint_1", "vulkan1.3",
             "vulkan.bitcast-extract"}));

// In Vulkan no conversion produces these values and only OpFConvert takes them.
INSTANTIATE_TEST_SUITE_P(
    Convert, MicroscalingCase,
    ::testing::Values(
        Case{"%x = OpFConvert %fp4 %float_1", "vulkan1.3", "vulkan.microscaling-convert"},
        Case{"%x = OpFConvert %e8m0 %half_1", "vulkan1.3", "vulkan.microscaling-convert"},
        Case{"%x = OpFConvert %e3m2 %e2m3_1", "vulkan1.3", "vulkan.microscaling-convert"},
        Case{"%x = OpFConvert %v2e3m2 %fp4_v2", "vulkan1.3", "vulkan.microscaling-convert"},
        Case{"%x = OpConvertFToU %uint %fp4_1", "vulkan1.3", "vulkan.microscaling-convert"},
        Case{"%x = OpConvertFToS %uint %mx_1", "vulkan1.3", "vulkan.microscaling-convert"},
        Case{"%x = OpConvertUToF %e2m3 %uint_1", "vulkan1.3", "vulkan.microscaling-convert"},
        Case{"%x = OpFConvert %e4m3 %e8m0_1", "vulkan1.3", ""},
        // The universal environment leaves the conversions to the client API.
        Case{"%x = OpFConvert %fp4 %float_1", "spv1.6", ""},
        Case{"%x = OpFConvert %e3m2 %e2m3_1", "spv1.6", ""},
        Case{"%x = OpFConvert %v2e3m2 %fp4_v2", "spv1.6", ""},
        Case{"%x = OpConvertFToU %uint %fp4_1", "spv1.6", ""},
        // Between one type and itself nothing converts.
        Case{"%x = OpFConvert %e3m2 %e3m2_1", "spv1.6", "conversion.operand"}));

// OpSpecConstantOp FConvert produces none either.
TEST(Microscaling, SpecConstantOpConversionInVulkan) {
  const std::string globals = "%x = OpSpecConstantOp %fp4 FConvert %float_1\n";
  EXPECT_RULE_AT(testing::ValidateText(Kernel("", globals), "vulkan1.3"),
                 "vulkan.microscaling-convert", "OpSpecConstantOp", "no OpFConvert produces");
  EXPECT_CLEAN(testing::ValidateText(Kernel("", globals), "spv1.6"));
}

TEST(Microscaling, UseNamesTheValueAndItsType) {
  const Result r = testing::ValidateText(Kernel("%x = OpIsNan %bool %e8m0_1"), "spv1.6");
  EXPECT_RULE_AT(r, "microscaling.use", "OpIsNan",
                 "operand %fp8e8m0_0x1p_0 (type %fp8e8m0) is or holds an OCP microscaling type");
  testing::ExpectOnly(r, "microscaling.use");
}

// type.float: each encoding fixes the width.
TEST(Microscaling, EncodingsFixTheWidth) {
  for (const char* bad :
       {"OpTypeFloat 8 Float4E2M1EXT", "OpTypeFloat 4 Float6E2M3EXT", "OpTypeFloat 8 Float6E3M2EXT",
        "OpTypeFloat 16 MXInt8EXT", "OpTypeFloat 6 Float8UnsignedE8M0EXT"}) {
    const Result r = testing::ValidateText(Kernel("", std::string("%bad = ") + bad + "\n"));
    EXPECT_RULE_AT(r, "type.float", bad, "the encoding requires Width");
  }
  for (const char* bad : {"OpTypeFloat 4", "OpTypeFloat 6"}) {
    const Result r = testing::ValidateText(Kernel("", std::string("%bad = ") + bad + "\n"));
    EXPECT_RULE_AT(r, "type.float", bad, "FP4, FP6 and FP8 floats name their encoding");
  }
}

// type.float.storage: FP4 / FP6 values, and what holds them, live in Function or Private
// storage only; E8M0 and MXINT8 anywhere.
TEST(Microscaling, SubByteFloatsOnlyInFunctionAndPrivateStorage) {
  const std::string globals = R"(
%pw = OpTypePointer Workgroup %fp4
%psb = OpTypePointer StorageBuffer %S
%Sarr = OpTypeStruct %arr
%pwarr = OpTypePointer Workgroup %Sarr
%pprivS = OpTypePointer Private %S
%w = OpVariable %pw Workgroup
)";
  const Result r = testing::ValidateText(Kernel("", globals), "vulkan1.3");
  EXPECT_RULE_AT(r, "type.float.storage", "OpTypePointer Workgroup %fp4",
                 "only Function and Private storage may hold, not Workgroup");
  EXPECT_RULE_AT(r, "type.float.storage", "OpTypePointer StorageBuffer", "not StorageBuffer");
  testing::ExpectOnly(r, "type.float.storage");
  EXPECT_EQ(r.diagnostics.size(), 2u) << testing::Dump(r);
}

// A realistic kernel (test/val/data/ocp_microscaling.comp as glslang compiles it) validates
// clean, and one-line breaks of it are reported.
TEST(Microscaling, RealisticKernel) {
  const std::string text = testing::ReadFile("test/val/data/ocp_microscaling.spvasm");
  ASSERT_FALSE(text.empty());
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  EXPECT_CLEAN(testing::ValidateText(text, "spv1.6"));
  const testing::Mutation mutations[] = {
      {"ArithmeticOnMxint8", "%203 = OpFConvert %float %202",
       "%203 = OpFConvert %float %202\n%bad = OpFMul %mxint8 %202 %202", "microscaling.use"},
      {"ConvertToE8M0", "%98 = OpFConvert %float %97",
       "%98 = OpFConvert %float %97\n%bad = OpFConvert %fp8e8m0 %98",
       "vulkan.microscaling-convert"},
      {"ExtractFromAFloat", "%130 = OpBitcastExtractEXT %fp6e2m3 %129 %uint_2",
       "%130 = OpBitcastExtractEXT %fp6e2m3 %97 %uint_2", "vulkan.bitcast-extract"},
      {"Fp4InWorkgroupMemory", "%_ptr_Workgroup_fp8e8m0 = OpTypePointer Workgroup %fp8e8m0",
       "%_ptr_Workgroup_fp8e8m0 = OpTypePointer Workgroup %fp8e8m0\n"
       "%bad = OpTypePointer Workgroup %v2fp4e2m1",
       "type.float.storage"},
  };
  for (const testing::Mutation& m : mutations) {
    SCOPED_TRACE(m.name);
    const Result r =
        testing::ValidateText(testing::Mutate(text, m.anchor, m.replacement), "vulkan1.3");
    EXPECT_RULE(r, m.rule);
  }
}

// vulkan.encoded-float-interface: in Vulkan no Input or Output variable holds a float with an
// encoding (E8M0, MXINT8, float8, bfloat16; FP4 / FP6 are type.float.storage's already).
TEST(Microscaling, EncodedFloatsNotInVulkanInputOutput) {
  for (const char* type : {"OpTypeFloat 8 Float8UnsignedE8M0EXT", "OpTypeFloat 8 MXInt8EXT",
                           "OpTypeFloat 8 Float8E5M2EXT", "OpTypeFloat 16 BFloat16KHR"}) {
    SCOPED_TRACE(type);
    const std::string text = std::string(R"(
OpCapability Shader
OpCapability Float8EXT
OpCapability BFloat16TypeKHR
OpCapability Float8UnsignedE8M0EXT
OpCapability MXInt8EXT
OpExtension "SPV_KHR_bfloat16"
OpExtension "SPV_EXT_float8"
OpExtension "SPV_EXT_ocp_microscaling_types"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %in Location 0
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%t = )") + type + R"(
%S = OpTypeStruct %float %t
%pin = OpTypePointer Input %S
%pout = OpTypePointer Output %float
%in = OpVariable %pin Input
%out = OpVariable %pout Output
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
    const Result r = testing::ValidateText(text, "vulkan1.3");
    EXPECT_RULE_AT(r, "vulkan.encoded-float-interface", "OpVariable",
                   "which no Input variable may hold");
    testing::ExpectOnly(r, "vulkan.encoded-float-interface");
    EXPECT_CLEAN(testing::ValidateText(text, "spv1.6"));
  }
}

// Without a capability of the types, no use is judged (the capability rules report the types).
TEST(Microscaling, UsesAreJudgedOnlyWithTheCapabilities) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%fp4 = OpTypeFloat 4 Float4E2M1EXT
%c = OpConstant %fp4 1
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpFAdd %fp4 %c %c
OpReturn
OpFunctionEnd
)";
  const Result r = testing::ValidateText(text, "spv1.6");
  EXPECT_RULE_AT(r, "capability.operand", "OpTypeFloat 4 Float4E2M1EXT", "Float4EXT");
  EXPECT_FALSE(testing::HasRule(r, "microscaling.use")) << testing::Dump(r);
}

// SPV_KHR_bfloat16, SPV_EXT_float8 (microscaling.cc: bfloat16.use, float8.use): bfloat16 values,
// cooperative matrices of them included, go to OpDot and the multiply-add but to no other
// arithmetic; float8 ones to the multiply-add only. `body` follows the Undef values %a, %b, %c
// (bfloat16 A, B, accumulator matrices), %a8, %b8 (float8 E4M3 A, B), %cf (float accumulator),
// %s (bfloat16), %s8 (float8) and %v (bfloat16 vector).
std::string EncodedMatrices(const std::string& body) {
  return R"(OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpCapability BFloat16TypeKHR
OpCapability BFloat16CooperativeMatrixKHR
OpCapability BFloat16DotProductKHR
OpCapability Float8EXT
OpCapability Float8CooperativeMatrixEXT
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_bfloat16"
OpExtension "SPV_EXT_float8"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%bf = OpTypeFloat 16 BFloat16KHR
%e4 = OpTypeFloat 8 Float8E4M3EXT
%v2bf = OpTypeVector %bf 2
%u0 = OpConstant %uint 0
%bool = OpTypeBool
%true = OpConstantTrue %bool
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u16 = OpConstant %uint 16
%A_bf = OpTypeCooperativeMatrixKHR %bf %u3 %u16 %u16 %u0
%B_bf = OpTypeCooperativeMatrixKHR %bf %u3 %u16 %u16 %u1
%C_bf = OpTypeCooperativeMatrixKHR %bf %u3 %u16 %u16 %u2
%A_e4 = OpTypeCooperativeMatrixKHR %e4 %u3 %u16 %u16 %u0
%B_e4 = OpTypeCooperativeMatrixKHR %e4 %u3 %u16 %u16 %u1
%C_f = OpTypeCooperativeMatrixKHR %float %u3 %u16 %u16 %u2
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpUndef %A_bf
%b = OpUndef %B_bf
%c = OpUndef %C_bf
%a8 = OpUndef %A_e4
%b8 = OpUndef %B_e4
%cf = OpUndef %C_f
%s = OpUndef %bf
%s8 = OpUndef %e4
%v = OpUndef %v2bf
)" + body +
         "\nOpReturn\nOpFunctionEnd\n";
}

TEST(EncodedFloats, MultiplyAddDotAndConversionsAreAllowed) {
  EXPECT_CLEAN(testing::ValidateText(EncodedMatrices(R"(
%x = OpCooperativeMatrixMulAddKHR %C_bf %a %b %c
%y = OpCooperativeMatrixMulAddKHR %C_f %a8 %b8 %cf
%z = OpCooperativeMatrixLengthKHR %uint %A_bf
%d = OpDot %bf %v %v
%cv = OpFConvert %C_f %c
%sel = OpSelect %bf %true %s %s
)"),
                                     "vulkan1.3"));
}

TEST(EncodedFloats, NoOtherArithmetic) {
  struct Case {
    const char* body;
    const char* rule;
  } cases[] = {
      {"%x = OpFAdd %A_bf %a %a", "bfloat16.use"},
      {"%x = OpFSub %bf %s %s", "bfloat16.use"},
      {"%x = OpFNegate %C_bf %c", "bfloat16.use"},
      {"%x = OpMatrixTimesScalar %C_bf %c %s", "bfloat16.use"},
      {"%x = OpFOrdLessThan %bool %s %s", "bfloat16.use"},
      {"%x = OpFMul %A_e4 %a8 %a8", "float8.use"},
      {"%x = OpFDiv %A_e4 %a8 %a8", "float8.use"},
      {"%x = OpIsNan %bool %s8", "float8.use"},
  };
  for (const Case& c : cases) {
    const Result r = testing::ValidateText(EncodedMatrices(c.body), "vulkan1.3");
    const std::string body = c.body;
    const std::string opcode = body.substr(5, body.find(' ', 5) - 5);  // After "%x = ".
    EXPECT_RULE_AT(r, c.rule, opcode, "may use");
    testing::ExpectOnly(r, c.rule);
  }
}

// SPV_VALVE_mixed_float_dot_product: OpFDot2MixAcc*VALVE take bfloat16 vectors (and
// OpFDot2MixAcc16VALVE a bfloat16 accumulator), OpFDot4MixAcc32VALVE float8 ones.
TEST(EncodedFloats, MixedFloatDotProductsAreAllowed) {
  const std::string text = testing::Mutate(EncodedMatrices(R"(
%v8 = OpUndef %v4e4
%x = OpFDot2MixAcc32VALVE %float %v %v %f1
%y = OpFDot2MixAcc16VALVE %bf %v %v %s
%z = OpFDot4MixAcc32VALVE %float %v8 %v8 %f1
)"),
                                           "OpCapability Float8CooperativeMatrixEXT",
                                           "OpCapability Float8CooperativeMatrixEXT\n"
                                           "OpCapability DotProductBFloat16AccVALVE\n"
                                           "OpCapability DotProductFloat8AccFloat32VALVE\n"
                                           "OpExtension \"SPV_VALVE_mixed_float_dot_product\"");
  EXPECT_CLEAN(testing::ValidateText(
      testing::Mutate(text, "%v2bf = OpTypeVector %bf 2",
                      "%v2bf = OpTypeVector %bf 2\n%v4e4 = OpTypeVector %e4 4\n"
                      "%f1 = OpConstant %float 1"),
      "vulkan1.3"));
}

// SPV_KHR_16bit_storage, SPV_KHR_8bit_storage (microscaling.cc: small-type.use): where only a
// storage capability declares 8- and 16-bit types, their values are loaded, stored, copied and
// converted to other widths, nothing else. `body` follows the loads %h (half), %s (ushort),
// %c (uchar), %v (v2half) and the 32-bit %f, %u.
std::string StorageOnly(const std::string& body, const std::string& capabilities = "") {
  return R"(OpCapability Shader
OpCapability StorageBuffer16BitAccess
OpCapability StorageBuffer8BitAccess
)" + capabilities +
         R"(OpExtension "SPV_KHR_16bit_storage"
OpExtension "SPV_KHR_8bit_storage"
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %h "h"
OpDecorate %B Block
OpMemberDecorate %B 0 Offset 0
OpMemberDecorate %B 1 Offset 2
OpMemberDecorate %B 2 Offset 4
OpMemberDecorate %B 3 Offset 8
OpMemberDecorate %B 4 Offset 12
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%half = OpTypeFloat 16
%ushort = OpTypeInt 16 0
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2half = OpTypeVector %half 2
%v2float = OpTypeVector %float 2
%B = OpTypeStruct %half %ushort %uchar %v2half %float
%pB = OpTypePointer StorageBuffer %B
%buf = OpVariable %pB StorageBuffer
%ph = OpTypePointer StorageBuffer %half
%ps = OpTypePointer StorageBuffer %ushort
%pc = OpTypePointer StorageBuffer %uchar
%pv = OpTypePointer StorageBuffer %v2half
%pf = OpTypePointer StorageBuffer %float
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%fnh = OpTypeFunction %void %half
%main = OpFunction %void None %fn
%l = OpLabel
%hp = OpAccessChain %ph %buf %u0
%sp = OpAccessChain %ps %buf %u1
%cp = OpAccessChain %pc %buf %u2
%vp = OpAccessChain %pv %buf %u3
%fp = OpAccessChain %pf %buf %u4
%h = OpLoad %half %hp
%s = OpLoad %ushort %sp
%c = OpLoad %uchar %cp
%v = OpLoad %v2half %vp
%f = OpLoad %float %fp
%u = OpConvertFToU %uint %f
)" + body +
         R"(
OpReturn
OpFunctionEnd
%callee = OpFunction %void None %fnh
%param = OpFunctionParameter %half
%cl = OpLabel
OpReturn
OpFunctionEnd
)";
}

TEST(StorageOnlyWidths, LoadsStoresCopiesAndWidthConversions) {
  EXPECT_CLEAN(testing::ValidateText(StorageOnly(R"(
%wf = OpFConvert %float %h
%ws = OpUConvert %uint %s
%wc = OpUConvert %uint %c
%wv = OpFConvert %v2float %v
%h2 = OpFConvert %half %f
%s2 = OpUConvert %ushort %u
%hc = OpCopyObject %half %h
OpStore %hp %hc
OpStore %sp %s2
OpStore %cp %c
OpStore %vp %v
)"),
                                     "vulkan1.1"));
}

TEST(StorageOnlyWidths, NoOtherUse) {
  struct Case {
    const char* body;
    const char* at;
  } cases[] = {
      {"%x = OpFAdd %half %h %h", "OpFAdd"},
      {"%x = OpIAdd %ushort %s %s", "OpIAdd"},
      {"%x = OpIEqual %bool %c %c", "OpIEqual"},
      {"%x = OpFOrdLessThan %bool %h %h", "OpFOrdLessThan"},
      {"%x = OpCompositeExtract %half %v 0", "OpCompositeExtract"},
      {"%x = OpVectorShuffle %v2half %v %v 1 0", "OpVectorShuffle"},
      {"%x = OpBitcast %ushort %h", "OpBitcast"},
      {"%x = OpConvertFToU %uint %h", "OpConvertFToU"},
      {"%x = OpFunctionCall %void %callee %h", "OpFunctionCall"},
      {"%x = OpSelect %half %true %h %h\n%true = OpConstantTrue %bool", "OpSelect"},
  };
  for (const Case& c : cases) {
    std::string body = c.body;
    std::string globals;
    if (const size_t nl = body.find('\n'); nl != std::string::npos) {
      globals = body.substr(nl + 1);
      body = body.substr(0, nl);
    }
    std::string text = StorageOnly(body);
    if (!globals.empty())
      text = testing::Mutate(text, "%bool = OpTypeBool", "%bool = OpTypeBool\n" + globals);
    const Result r = testing::ValidateText(text, "vulkan1.1");
    EXPECT_RULE_AT(r, "small-type.use", c.at, "only a storage capability declares");
    testing::ExpectOnly(r, "small-type.use");
  }
}

// Int8, Int16 and Float16 make the types whole: every use is then open to them.
TEST(StorageOnlyWidths, ArithmeticCapabilitiesLiftTheRestriction) {
  EXPECT_CLEAN(testing::ValidateText(StorageOnly(R"(
%x = OpFAdd %half %h %h
%y = OpIAdd %ushort %s %s
%z = OpIAdd %uchar %c %c
)",
                                                 "OpCapability Float16\nOpCapability Int16\n"
                                                 "OpCapability Int8\n"),
                                     "vulkan1.1"));
  // Float16 alone leaves the 16-bit integers restricted.
  const Result r = testing::ValidateText(
      StorageOnly("%x = OpFAdd %half %h %h\n%y = OpIAdd %ushort %s %s", "OpCapability Float16\n"),
      "vulkan1.1");
  EXPECT_RULE_AT(r, "small-type.use", "OpIAdd");
  EXPECT_FALSE(testing::RuleAt(r, "small-type.use", "OpFAdd"));
}

}  // namespace
}  // namespace coopspv::val
