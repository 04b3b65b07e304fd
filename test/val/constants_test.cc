// Tests of the constant rules (source/val/constants.cc): scalar, Boolean, composite and null
// constants of the right shape for their type, and OpSpecConstantOp's operations and operands.
#include <string>
#include <string_view>
#include <vector>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::ExpectOnly;
using testing::RuleAt;
using testing::RuleIds;
using testing::ValidateText;

// ---------------------------------------------------------------- constant.scalar

TEST(ConstantScalar, ScalarAndBooleanConstantsAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %use_fast_path SpecId 0
OpDecorate %iterations SpecId 1
OpDecorate %scale SpecId 2
OpDecorate %debug SpecId 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
%uint_7 = OpConstant %uint 7
%int_n3 = OpConstant %int -3
%float_0_5 = OpConstant %float 0.5
%use_fast_path = OpSpecConstantTrue %bool
%debug = OpSpecConstantFalse %bool
%iterations = OpSpecConstant %uint 16
%scale = OpSpecConstant %float 1.5
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(ConstantScalar, TrueOfIntegerType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %yes "yes"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%yes = OpConstantTrue %uint
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.scalar", "%yes = OpConstantTrue %uint",
                 "Result Type %uint is not a Boolean type");
  ExpectOnly(r, "constant.scalar");
}

TEST(ConstantScalar, SpecConstantFalseOfFloatType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %flag "flag"
OpDecorate %flag SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%flag = OpSpecConstantFalse %float
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.scalar", "%flag = OpSpecConstantFalse %float", "not a Boolean type");
}

TEST(ConstantScalar, NumericConstantOfBoolTypeIsMalformed) {
  // OpConstant's literal is sized by its type, so the reader already rejects a Boolean type
  // (the constant.scalar check for OpConstant is a second line of defence).
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%one = OpConstant %bool !1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"binary.malformed"}) << Dump(r);
}

// ---------------------------------------------------------------- constant.composite

TEST(ConstantComposite, CompositesOfEveryShapeAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 8 8 1
OpName %Material "Material"
OpDecorate %tile SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v3uint = OpTypeVector %uint 3
%mat2v2float = OpTypeMatrix %v2float 2
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%_arr_float_uint_3 = OpTypeArray %float %uint_3
%Material = OpTypeStruct %v2float %float %_arr_float_uint_3
%e0 = OpConstantComposite %v2float %float_1 %float_0
%e1 = OpConstantComposite %v2float %float_0 %float_1
%identity = OpConstantComposite %mat2v2float %e0 %e1
%weights = OpConstantComposite %_arr_float_uint_3 %float_0 %float_1 %float_0
%material = OpConstantComposite %Material %e0 %float_1 %weights
%tile = OpSpecConstant %uint 8
%gl_WorkGroupSize = OpSpecConstantComposite %v3uint %tile %tile %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// As test/data/corpus/khr_arith_funcs.spvasm does: one constituent fills a cooperative matrix.
constexpr std::string_view kCooperativeMatrixFill = R"(
OpCapability Shader
OpCapability Float16
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
OpName %acc "acc"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%uint = OpTypeInt 32 0
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%uint_2 = OpConstant %uint 2
%mat = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_2
%_ptr_Function_mat = OpTypePointer Function %mat
%half_0x1_8p_1 = OpConstant %half 0x1.8p+1
%half_0x1p_0 = OpConstant %half 0x1p+0
%threes = OpConstantComposite %mat %half_0x1_8p_1
%zeros = OpConstantNull %mat
%length = OpSpecConstantOp %uint CooperativeMatrixLengthKHR %mat
%main = OpFunction %void None %fn
%entry = OpLabel
%acc = OpVariable %_ptr_Function_mat Function
OpStore %acc %threes
OpStore %acc %zeros
OpReturn
OpFunctionEnd
)";

TEST(ConstantComposite, CooperativeMatrixWithOneConstituentIsValid) {
  EXPECT_CLEAN(ValidateText(kCooperativeMatrixFill));
  EXPECT_CLEAN(ValidateText(kCooperativeMatrixFill, "vulkan1.3"));
}

TEST(ConstantComposite, CooperativeMatrixWithTwoConstituents) {
  std::string text(kCooperativeMatrixFill);
  const std::string from = "%threes = OpConstantComposite %mat %half_0x1_8p_1";
  text.replace(text.find(from), from.size(),
               "%threes = OpConstantComposite %mat %half_0x1_8p_1 %half_0x1p_0");
  const Result r = ValidateText(text);
  // (The cooperative matrix type has no friendly name: it prints as its number.)
  EXPECT_RULE_AT(r, "constant.composite", "%half_0x1_8p_1 %half_0x1p_0", "has 2 constituents");
  EXPECT_RULE_AT(r, "constant.composite", "OpConstantComposite", "needs 1");
  ExpectOnly(r, "constant.composite");
}

// SPV_ARM_tensors: a tensor with a Shape is a composite of Shape[0] constituents (elements for
// rank 1, tensors of the rest of the shape above) and has a null value; one without has neither.
std::string TensorConstants(const std::string& extra) {
  return R"(
OpCapability Shader
OpCapability TensorsARM
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%arr1 = OpTypeArray %uint %uint_1
%arr2 = OpTypeArray %uint %uint_2
%shape1 = OpConstantComposite %arr1 %uint_3
%shape2 = OpConstantComposite %arr2 %uint_2 %uint_3
%t1 = OpTypeTensorARM %uint %uint_1 %shape1
%t2 = OpTypeTensorARM %uint %uint_2 %shape2
%row = OpConstantComposite %t1 %uint_1 %uint_2 %uint_3
%all = OpConstantComposite %t2 %row %row
%zero = OpConstantNull %t2
)" + extra +
         R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
}

TEST(ConstantComposite, ShapedTensors) {
  EXPECT_CLEAN(ValidateText(TensorConstants(""), "vulkan1.3"));
  EXPECT_RULE_AT(
      ValidateText(TensorConstants("%short = OpConstantComposite %t1 %uint_1"), "vulkan1.3"),
      "constant.composite", "OpConstantComposite", "needs 3");
  EXPECT_RULE_AT(
      ValidateText(TensorConstants("%bad = OpConstantComposite %t2 %uint_1 %uint_1"), "vulkan1.3"),
      "constant.composite", "OpConstantComposite", "rest of the shape");
  EXPECT_RULE_AT(ValidateText(TensorConstants("%opaque = OpTypeTensorARM %uint\n"
                                              "%null = OpConstantNull %opaque"),
                              "vulkan1.3"),
                 "constant.null", "OpConstantNull");
}

TEST(ConstantComposite, VectorWithTooFewConstituents) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %origin "origin"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%float_0 = OpConstant %float 0
%origin = OpConstantComposite %v3float %float_0 %float_0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.composite", "%origin = OpConstantComposite %v3float",
                 "has 2 constituents; its type %v3float needs 3");
  ExpectOnly(r, "constant.composite");
}

TEST(ConstantComposite, ArrayWithTooManyConstituents) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %weights "weights"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_2 = OpConstant %uint 2
%float_1 = OpConstant %float 1
%_arr_float_uint_2 = OpTypeArray %float %uint_2
%weights = OpConstantComposite %_arr_float_uint_2 %float_1 %float_1 %float_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.composite", "%weights = OpConstantComposite", "has 3 constituents");
}

TEST(ConstantComposite, ConstituentOfTheWrongType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %size "size"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%uint_8 = OpConstant %uint 8
%float_8 = OpConstant %float 8
%size = OpConstantComposite %v2uint %uint_8 %float_8
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.composite", "%size = OpConstantComposite %v2uint",
                 "constituent 1 %float_8 has type %float, not %uint");
  ExpectOnly(r, "constant.composite");
}

TEST(ConstantComposite, StructMemberOfTheWrongType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Range "Range"
OpName %range "range"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%Range = OpTypeStruct %uint %float
%uint_1 = OpConstant %uint 1
%range = OpConstantComposite %Range %uint_1 %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.composite", "%range = OpConstantComposite %Range",
                 "has type %uint, not %float");
}

TEST(ConstantComposite, SpecConstantInANonSpecComposite) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %tile "tile"
OpName %size "size"
OpDecorate %tile SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%uint_8 = OpConstant %uint 8
%tile = OpSpecConstant %uint 16
%size = OpConstantComposite %v2uint %uint_8 %tile
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.composite", "%size = OpConstantComposite",
                 "constituent 1 %tile is not a non-specialization constant");
  ExpectOnly(r, "constant.composite");
}

TEST(ConstantComposite, VariableAsConstituent) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %counter "counter"
OpName %pair "pair"
OpDecorate %uint_8 SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%uint_8 = OpSpecConstant %uint 8
%_ptr_Private_uint = OpTypePointer Private %uint
%counter = OpVariable %_ptr_Private_uint Private
%pair = OpSpecConstantComposite %v2uint %uint_8 %counter
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.composite", "%pair = OpSpecConstantComposite",
                 "constituent 1 %counter is not a constant");
}

TEST(ConstantComposite, CompositeOfAScalarType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %boxed "boxed"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%boxed = OpConstantComposite %uint %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.composite", "%boxed = OpConstantComposite %uint %uint_1",
                 "Result Type %uint is not a composite type");
  ExpectOnly(r, "constant.composite");
}

// ---------------------------------------------------------------- constant.null

TEST(ConstantNull, NullsOfTypesWithANullValueAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Particle "Particle"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%mat4v4float = OpTypeMatrix %v4float 4
%uint_4 = OpConstant %uint 4
%_arr_v4float_uint_4 = OpTypeArray %v4float %uint_4
%Particle = OpTypeStruct %v4float %float %bool
%null_bool = OpConstantNull %bool
%null_uint = OpConstantNull %uint
%null_float = OpConstantNull %float
%null_v4float = OpConstantNull %v4float
%null_mat = OpConstantNull %mat4v4float
%null_array = OpConstantNull %_arr_v4float_uint_4
%null_particle = OpConstantNull %Particle
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(ConstantNull, NullOfVoid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %nothing "nothing"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%nothing = OpConstantNull %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.null", "%nothing = OpConstantNull %void",
                 "type %void has no null value");
  ExpectOnly(r, "constant.null");
}

TEST(ConstantNull, NullOfAFunctionType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %fn "fn"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%no_function = OpConstantNull %fn
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.null", "OpConstantNull %fn", "type %fn has no null value");
}

TEST(ConstantNull, NullOfARuntimeArray) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %_runtimearr_float ArrayStride 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%_runtimearr_float = OpTypeRuntimeArray %float
%empty = OpConstantNull %_runtimearr_float
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.null", "OpConstantNull %_runtimearr_float", "has no null value");
}

// ---------------------------------------------------------------- constant.spec-op

TEST(ConstantSpecOp, IntegerArithmeticOfConstantsIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rows SpecId 0
OpDecorate %cols SpecId 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_0 = OpConstant %uint 0
%int_3 = OpConstant %int 3
%rows = OpSpecConstant %int 16
%cols = OpSpecConstant %int 8
%tiles = OpSpecConstantOp %int IMul %int_3 %rows
%elements = OpSpecConstantOp %int IMul %tiles %cols
%elements_u = OpSpecConstantOp %uint IAdd %elements %uint_0
%half_rows = OpSpecConstantOp %int SDiv %rows %int_3
%wide = OpSpecConstantOp %bool SGreaterThan %cols %rows
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// OpCompositeExtract as a spec-constant operation walks at least one index.
TEST(ConstantSpecOp, CompositeExtractNeedsAnIndex) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %x SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%x = OpSpecConstant %uint 4
%v = OpSpecConstantComposite %v2uint %x %x
%e = OpSpecConstantOp %uint CompositeExtract %v 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(ValidateText(text));
  const Result r =
      ValidateText(testing::Mutate(text, "%e = OpSpecConstantOp %uint CompositeExtract %v 1",
                                   "%e = OpSpecConstantOp %uint CompositeExtract %v"));
  EXPECT_RULE_AT(r, "constant.spec-op", "OpSpecConstantOp", "has no indexes");
}

TEST(ConstantSpecOp, QuantizeToF16InAShaderIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %scale SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%scale = OpSpecConstant %float 0.1
%scale_f16 = OpSpecConstantOp %float QuantizeToF16 %scale
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(ConstantSpecOp, FloatArithmeticInAKernelIsValid) {
  const Result r = ValidateText(R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %k "k"
OpDecorate %scale SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%float_1 = OpConstant %float 1
%scale = OpSpecConstant %float 2
%scale_plus_1 = OpSpecConstantOp %float FAdd %scale %float_1
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(ConstantSpecOp, FloatArithmeticInAShader) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %scale_plus_1 "scale_plus_1"
OpDecorate %scale SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%float_1 = OpConstant %float 1
%scale = OpSpecConstant %float 2
%scale_plus_1 = OpSpecConstantOp %float FAdd %scale %float_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.spec-op", "%scale_plus_1 = OpSpecConstantOp %float FAdd",
                 "OpFAdd is not an operation OpSpecConstantOp allows here");
  ExpectOnly(r, "constant.spec-op");
}

TEST(ConstantSpecOp, OperandIsAVariable) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %counter "counter"
OpName %next "next"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%_ptr_Private_uint = OpTypePointer Private %uint
%counter = OpVariable %_ptr_Private_uint Private
%next = OpSpecConstantOp %uint IAdd %counter %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "constant.spec-op", "%next = OpSpecConstantOp %uint IAdd %counter",
                 "operand %counter is not a constant");
  ExpectOnly(r, "constant.spec-op");
}

// A WorkgroupSize built-in constant known before specialization has no component 0.
TEST(ConstantWorkgroupSize, ZeroComponent) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %wgs BuiltIn WorkgroupSize
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_8 = OpConstant %uint 8
%wgs = OpConstantComposite %v3 %uint_8 %uint_0 %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_RULE_AT(ValidateText(text, "spv1.3"), "constant.workgroup-size", "OpConstantComposite",
                 "(8, 0, 1)");
  EXPECT_RULE(ValidateText(text, "vulkan1.1"), "constant.workgroup-size");
  const std::string eight =
      testing::Mutate(text, "%wgs = OpConstantComposite %v3 %uint_8 %uint_0 %uint_1",
                      "%wgs = OpConstantComposite %v3 %uint_8 %uint_1 %uint_1");
  EXPECT_CLEAN(ValidateText(eight, "spv1.3"));
  // A spec constant component is known only after specialization.
  const std::string spec =
      testing::Mutate(text, "%uint_0 = OpConstant %uint 0", "%uint_0 = OpSpecConstant %uint 0");
  EXPECT_CLEAN(
      ValidateText(testing::Mutate(spec, "%wgs = OpConstantComposite %v3 %uint_8 %uint_0 %uint_1",
                                   "%wgs = OpSpecConstantComposite %v3 %uint_8 %uint_0 %uint_1"),
                   "spv1.3"));
}

// SPV_KHR_constant_data: an array of integers packed into literal words, exactly as many as its
// bits need.
TEST(ConstantData, PackedWordsMatchTheArray) {
  const std::string text = R"(
OpCapability Shader
OpCapability Int8
OpCapability ConstantDataKHR
OpExtension "SPV_KHR_constant_data"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uchar = OpTypeInt 8 0
%uint_5 = OpConstant %uint 5
%arr = OpTypeArray %uchar %uint_5
%data = OpConstantDataKHR %arr DATA
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  auto with = [&](const std::string& data) {
    std::string t = text;
    t.replace(t.find("DATA"), 4, data);
    return testing::ValidateText(t);
  };
  EXPECT_CLEAN(with("0x64636261 0x65"));  // Five bytes: two words.
  EXPECT_RULE_AT(with("0x64636261"), "constant.data", "OpConstantDataKHR", "needs 2");
  EXPECT_RULE_AT(with("1 2 3"), "constant.data", "OpConstantDataKHR", "needs 2");
}

}  // namespace
}  // namespace coopspv::val
