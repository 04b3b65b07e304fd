// Tests of the type rules (source/val/types.cc): scalar widths and signedness, vectors,
// matrices, arrays, runtime arrays, structs, pointers, function types, uniqueness and nesting.
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

// ---------------------------------------------------------------- type.int

TEST(TypeInt, SmallAndLargeIntegersWithTheirCapabilitiesAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uchar = OpTypeInt 8 0
%char = OpTypeInt 8 1
%ushort = OpTypeInt 16 0
%short = OpTypeInt 16 1
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%long = OpTypeInt 64 1
%char_n1 = OpConstant %char -1
%long_n1 = OpConstant %long -1
%main = OpFunction %void None %fn
%entry = OpLabel
%wide = OpSConvert %long %char_n1
%sum = OpIAdd %long %wide %long_n1
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeInt, EightBitStorageCapabilityEnablesEightBitIntegers) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability StorageBuffer8BitAccess
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %_runtimearr_uchar ArrayStride 1
OpDecorate %Bytes Block
OpMemberDecorate %Bytes 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uchar = OpTypeInt 8 0
%_runtimearr_uchar = OpTypeRuntimeArray %uchar
%Bytes = OpTypeStruct %_runtimearr_uchar
%_ptr_StorageBuffer_Bytes = OpTypePointer StorageBuffer %Bytes
%buf = OpVariable %_ptr_StorageBuffer_Bytes StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeInt, ImplicitlyDeclaredCapabilityEnablesTheWidth) {
  // Int64Atomics implicitly declares Int64.
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability Int64Atomics
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%ulong = OpTypeInt 64 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeInt, EightBitIntegerWithoutCapability) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uchar = OpTypeInt 8 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.int", "OpTypeInt 8 0", "need the Int8 capability");
  ExpectOnly(r, "type.int");
}

TEST(TypeInt, SixtyFourBitIntegerWithoutCapability) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%long = OpTypeInt 64 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.int", "OpTypeInt 64 1", "Int64");
}

TEST(TypeInt, UnsupportedWidth) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability Int8
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%odd = OpTypeInt 7 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.int", "OpTypeInt 7 0", "Width 7 is not a supported integer width");
  ExpectOnly(r, "type.int");
}

TEST(TypeInt, SignednessTwo) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%weird = OpTypeInt 32 2
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.int", "OpTypeInt 32 2", "Signedness must be 0 or 1, not 2");
  ExpectOnly(r, "type.int");
}

TEST(TypeInt, SignedIntegerInAKernel) {
  const Result r = ValidateText(R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.int", "OpTypeInt 32 1", "kernels use Signedness 0 only");
}

// ---------------------------------------------------------------- type.float

TEST(TypeFloat, HalfAndDoubleWithTheirCapabilitiesAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability Float16
OpCapability Float64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%half_1 = OpConstant %half 1
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpFConvert %double %half_1
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeFloat, BFloat16WithWidth16IsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability BFloat16TypeKHR
OpExtension "SPV_KHR_bfloat16"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bfloat16 = OpTypeFloat 16 BFloat16KHR
%_ptr_Function_bfloat16 = OpTypePointer Function %bfloat16
%main = OpFunction %void None %fn
%entry = OpLabel
%b = OpVariable %_ptr_Function_bfloat16 Function
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeFloat, HalfWithoutCapability) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.float", "OpTypeFloat 16", "16-bit floats need the Float16 capability");
  ExpectOnly(r, "type.float");
}

TEST(TypeFloat, DoubleWithoutCapability) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%double = OpTypeFloat 64
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.float", "OpTypeFloat 64", "Float64");
}

TEST(TypeFloat, BFloat16WithWidth32) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability BFloat16TypeKHR
OpExtension "SPV_KHR_bfloat16"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bfloat = OpTypeFloat 32 BFloat16KHR
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.float", "OpTypeFloat 32 BFloat16KHR",
                 "the encoding requires Width 16, not 32");
  ExpectOnly(r, "type.float");
}

TEST(TypeFloat, Float8EncodingWithWidth16) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability Float8EXT
OpExtension "SPV_EXT_float8"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%fp8 = OpTypeFloat 16 Float8E4M3EXT
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.float", "OpTypeFloat 16 Float8E4M3EXT", "requires Width 8, not 16");
}

TEST(TypeFloat, EightBitFloatWithoutEncoding) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%quarter = OpTypeFloat 8
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.float", "OpTypeFloat 8", "Width 8 is not a supported float width");
}

// ---------------------------------------------------------------- type.vector

TEST(TypeVector, TwoThreeAndFourComponentsAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2bool = OpTypeVector %bool 2
%v3uint = OpTypeVector %uint 3
%v4float = OpTypeVector %float 4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeVector, SixteenComponentsWithVector16AreValid) {
  const Result r = ValidateText(R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Vector16
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v8float = OpTypeVector %float 8
%v16float = OpTypeVector %float 16
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeVector, FiveComponents) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v5float = OpTypeVector %float 5
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.vector", "OpTypeVector %float 5", "Component Count 5 is not 2, 3 or 4");
  ExpectOnly(r, "type.vector");
}

TEST(TypeVector, OneComponent) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v1float = OpTypeVector %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.vector", "OpTypeVector %float 1", "Component Count 1");
}

TEST(TypeVector, EightComponentsWithoutVector16) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v8float = OpTypeVector %float 8
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.vector", "OpTypeVector %float 8", "8 and 16 need Vector16");
}

TEST(TypeVector, VectorOfVectors) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v2v2float = OpTypeVector %v2float 2
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.vector", "OpTypeVector %v2float 2",
                 "Component Type %v2float is not a scalar type");
  ExpectOnly(r, "type.vector");
}

TEST(TypeVector, VectorOfStructs) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Pair "Pair"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%Pair = OpTypeStruct %float %float
%v2Pair = OpTypeVector %Pair 2
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.vector", "OpTypeVector %Pair 2", "is not a scalar type");
}

// SPV_EXT_long_vector: LongVectorEXT enables every count from 1, where the vectors may live,
// and matrices keep columns of 2, 3 or 4 components.
constexpr std::string_view kLongVectorPreamble = R"(
OpCapability Shader
OpCapability LongVectorEXT
OpExtension "SPV_EXT_long_vector"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
)";

TEST(TypeVector, LongVectorEXTAllowsAnyCountFromOne) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability LongVectorEXT
OpExtension "SPV_EXT_long_vector"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf %shared %priv
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %_arr_v5uint_2 ArrayStride 32
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpMemberDecorate %Buf 1 Offset 64
OpMemberDecorate %Buf 2 Offset 92
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_2 = OpConstant %uint 2
%uint_6 = OpConstant %uint 6
%v1float = OpTypeVector %float 1
%v5float = OpTypeVector %float 5
%v8float = OpTypeVector %float 8
%v12float = OpTypeVector %float 12
%v20float = OpTypeVector %float 20
%v5uint = OpTypeVector %uint 5
%v7uint = OpTypeVector %uint 7
%v1uint = OpTypeVector %uint 1
%v6float = OpTypeVectorIdEXT %float %uint_6
%_arr_v5uint_2 = OpTypeArray %v5uint %uint_2
%Buf = OpTypeStruct %_arr_v5uint_2 %v7uint %v1uint
%_ptr_StorageBuffer_Buf = OpTypePointer StorageBuffer %Buf
%buf = OpVariable %_ptr_StorageBuffer_Buf StorageBuffer
%_ptr_Workgroup_v20float = OpTypePointer Workgroup %v20float
%shared = OpVariable %_ptr_Workgroup_v20float Workgroup
%_ptr_Private_v6float = OpTypePointer Private %v6float
%priv = OpVariable %_ptr_Private_v6float Private
%_ptr_Function_v12float = OpTypePointer Function %v12float
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %_ptr_Function_v12float Function
%s = OpLoad %v20float %shared
%t = OpFAdd %v20float %s %s
OpStore %shared %t
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeVector, ZeroComponentsEvenWithLongVectorEXT) {
  const Result r = ValidateText(std::string(kLongVectorPreamble) + R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v0float = OpTypeVector %float 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.vector", "OpTypeVector %float 0", "at least one component");
  ExpectOnly(r, "type.vector");
}

TEST(TypeVectorStorage, LongVectorsNotInInputOutput) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability LongVectorEXT
OpExtension "SPV_EXT_long_vector"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in %out %in4
OpExecutionMode %main OriginUpperLeft
OpDecorate %in Location 0
OpDecorate %out Location 0
OpDecorate %in4 Location 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%uint_6 = OpConstant %uint 6
%v8float = OpTypeVector %float 8
%v6float = OpTypeVectorIdEXT %float %uint_6
%v4float = OpTypeVectorIdEXT %float %uint_4
%_arr_v6float_4 = OpTypeArray %v6float %uint_4
%_ptr_Input_v8float = OpTypePointer Input %v8float
%_ptr_Output_arr = OpTypePointer Output %_arr_v6float_4
%_ptr_Input_v4float = OpTypePointer Input %v4float
%in = OpVariable %_ptr_Input_v8float Input
%out = OpVariable %_ptr_Output_arr Output
%in4 = OpVariable %_ptr_Input_v4float Input
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.vector.storage", "OpTypePointer Input %v8float",
                 "more than four components, which Input storage cannot hold");
  EXPECT_RULE_AT(r, "type.vector.storage", "OpTypePointer Output", "Output storage");
  EXPECT_EQ(RuleIds(r).size(), 2u) << Dump(r);
}

// ---------------------------------------------------------------- type.matrix

TEST(TypeMatrix, FloatMatricesAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%mat2v3float = OpTypeMatrix %v3float 2
%mat4v4float = OpTypeMatrix %v4float 4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeMatrix, OneColumn) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%mat1v4float = OpTypeMatrix %v4float 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.matrix", "OpTypeMatrix %v4float 1", "Column Count 1 is not 2, 3 or 4");
  ExpectOnly(r, "type.matrix");
}

TEST(TypeMatrix, FiveColumns) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%mat5v4float = OpTypeMatrix %v4float 5
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.matrix", "OpTypeMatrix %v4float 5", "Column Count 5");
}

TEST(TypeMatrix, IntegerColumns) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%v4int = OpTypeVector %int 4
%mat4v4int = OpTypeMatrix %v4int 4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.matrix", "OpTypeMatrix %v4int 4",
                 "Column Type %v4int is not a vector of floats");
  ExpectOnly(r, "type.matrix");
}

TEST(TypeMatrix, ScalarColumns) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%mat4float = OpTypeMatrix %float 4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.matrix", "OpTypeMatrix %float 4", "is not a vector of floats");
}

TEST(TypeMatrix, LongVectorColumns) {
  const Result r = ValidateText(std::string(kLongVectorPreamble) + R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v5float = OpTypeVector %float 5
%v1float = OpTypeVector %float 1
%mat4v5float = OpTypeMatrix %v5float 4
%mat2v1float = OpTypeMatrix %v1float 2
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.matrix", "OpTypeMatrix %v5float 4",
                 "Column Type %v5float has 5 components; a column has 2, 3 or 4");
  EXPECT_RULE_AT(r, "type.matrix", "OpTypeMatrix %v1float 2", "has 1 components");
  ExpectOnly(r, "type.matrix");
}

// ---------------------------------------------------------------- type.array

TEST(TypeArray, ConstantAndSpecConstantLengthsAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %tile SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%uint_16 = OpConstant %uint 16
%int_4 = OpConstant %int 4
%tile = OpSpecConstant %uint 8
%uint_2 = OpConstant %uint 2
%tile_x2 = OpSpecConstantOp %uint IMul %tile %uint_2
%_arr_float_uint_16 = OpTypeArray %float %uint_16
%_arr_float_int_4 = OpTypeArray %float %int_4
%_arr_float_tile = OpTypeArray %float %tile
%_arr_float_tile_x2 = OpTypeArray %float %tile_x2
%_ptr_Workgroup__arr_float_tile_x2 = OpTypePointer Workgroup %_arr_float_tile_x2
%shared = OpVariable %_ptr_Workgroup__arr_float_tile_x2 Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeArray, VoidElements) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%_arr_void_uint_4 = OpTypeArray %void %uint_4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.array", "OpTypeArray %void %uint_4", "Element Type is void");
  ExpectOnly(r, "type.array");
}

TEST(TypeArray, LengthZero) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%_arr_float_uint_0 = OpTypeArray %float %uint_0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.array", "OpTypeArray %float %uint_0",
                 "Length %uint_0 is 0; an array has at least one element");
  ExpectOnly(r, "type.array");
}

TEST(TypeArray, NegativeLength) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%int_n1 = OpConstant %int -1
%_arr_float_int_n1 = OpTypeArray %float %int_n1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.array", "OpTypeArray %float %int_n1", "is -1");
}

TEST(TypeArray, UndefLength) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %length "length"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%length = OpUndef %uint
%_arr_float_length = OpTypeArray %float %length
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.array", "OpTypeArray %float %length",
                 "is not a constant of scalar integer type");
  ExpectOnly(r, "type.array");
}

TEST(TypeArray, VariableLength) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %count "count"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%_ptr_Private_uint = OpTypePointer Private %uint
%count = OpVariable %_ptr_Private_uint Private
%_arr_float_count = OpTypeArray %float %count
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.array", "OpTypeArray %float %count", "is not a constant");
}

TEST(TypeArray, FloatLength) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%float_4 = OpConstant %float 4
%_arr_float_float_4 = OpTypeArray %float %float_4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.array", "OpTypeArray %float %float_4",
                 "is not a constant of scalar integer type");
}

// ---------------------------------------------------------------- type.runtime-array

TEST(TypeRuntimeArray, RuntimeArrayInAStorageBufferIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %_runtimearr_float ArrayStride 4
OpDecorate %Data Block
OpMemberDecorate %Data 0 Offset 0
OpMemberDecorate %Data 1 Offset 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%_runtimearr_float = OpTypeRuntimeArray %float
%Data = OpTypeStruct %uint %_runtimearr_float
%_ptr_StorageBuffer_Data = OpTypePointer StorageBuffer %Data
%buf = OpVariable %_ptr_StorageBuffer_Data StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%n = OpArrayLength %uint %buf 1
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeRuntimeArray, VoidElements) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%_runtimearr_void = OpTypeRuntimeArray %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.runtime-array", "OpTypeRuntimeArray %void", "Element Type is void");
  ExpectOnly(r, "type.runtime-array");
}

// ---------------------------------------------------------------- type.struct

TEST(TypeStruct, NestedStructsAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Light "Light"
OpName %Scene "Scene"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%uint_4 = OpConstant %uint 4
%Light = OpTypeStruct %v3float %float
%_arr_Light_uint_4 = OpTypeArray %Light %uint_4
%Scene = OpTypeStruct %uint %_arr_Light_uint_4
%_ptr_Private_Scene = OpTypePointer Private %Scene
%scene = OpVariable %_ptr_Private_Scene Private
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeStruct, VoidMember) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Bad "Bad"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%Bad = OpTypeStruct %float %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.struct", "%Bad = OpTypeStruct %float %void", "member 1 is void");
  ExpectOnly(r, "type.struct");
}

TEST(TypeStruct, RuntimeArrayNotLast) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Data "Data"
OpDecorate %_runtimearr_float ArrayStride 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%_runtimearr_float = OpTypeRuntimeArray %float
%Data = OpTypeStruct %_runtimearr_float %uint
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.struct", "%Data = OpTypeStruct",
                 "member 0 is a runtime array but not the last member");
  ExpectOnly(r, "type.struct");
}

TEST(TypeStruct, MoreMembersThanTheLimit) {
  constexpr std::string_view kText = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Vertex "Vertex"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%Vertex = OpTypeStruct %float %float %float
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  Options options;
  options.max_struct_members = 3;
  EXPECT_CLEAN(ValidateText(kText, options));
  options.max_struct_members = 2;
  const Result r = ValidateText(kText, options);
  EXPECT_RULE_AT(r, "type.struct", "%Vertex = OpTypeStruct", "has 3 members; the limit is 2");
}

// ---------------------------------------------------------------- type.pointer

// A linked list in physical storage buffer memory, declared with OpTypeForwardPointer.
constexpr std::string_view kLinkedList = R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Node "Node"
OpMemberDecorate %Node 0 Offset 0
OpMemberDecorate %Node 1 Offset 8
OpDecorate %cursor AliasedPointer
OpTypeForwardPointer %_ptr_PhysicalStorageBuffer_Node PhysicalStorageBuffer
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%Node = OpTypeStruct %_ptr_PhysicalStorageBuffer_Node %uint
%_ptr_PhysicalStorageBuffer_Node = OpTypePointer PhysicalStorageBuffer %Node
%_ptr_Function_Node_ptr = OpTypePointer Function %_ptr_PhysicalStorageBuffer_Node
%main = OpFunction %void None %fn
%entry = OpLabel
%cursor = OpVariable %_ptr_Function_Node_ptr Function
OpReturn
OpFunctionEnd
)";

TEST(TypePointer, ForwardPointerOfTheSameStorageClassIsValid) {
  EXPECT_CLEAN(ValidateText(kLinkedList));
}

TEST(TypePointer, ForwardPointerStorageClassDiffers) {
  std::string text(kLinkedList);
  const std::string from =
      "OpTypeForwardPointer %_ptr_PhysicalStorageBuffer_Node "
      "PhysicalStorageBuffer";
  text.replace(text.find(from), from.size(),
               "OpTypeForwardPointer %_ptr_PhysicalStorageBuffer_Node CrossWorkgroup");
  const Result r = ValidateText(text);
  EXPECT_RULE_AT(r, "type.pointer", "OpTypeForwardPointer",
                 "storage class differs from that of %_ptr_PhysicalStorageBuffer_Node");
  ExpectOnly(r, "type.pointer");
}

TEST(TypePointer, ForwardPointerNamesAStruct) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Node "Node"
OpTypeForwardPointer %Node PhysicalStorageBuffer
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%Node = OpTypeStruct %uint
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.pointer", "OpTypeForwardPointer %Node", "%Node is not an OpTypePointer");
}

// ---------------------------------------------------------------- type.function

TEST(TypeFunction, FunctionTypesWithParametersAreValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%_ptr_Function_float = OpTypePointer Function %float
%fn_mix = OpTypeFunction %v4float %v4float %v4float %float
%fn_out = OpTypeFunction %void %_ptr_Function_float
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeFunction, VoidParameter) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%fn_bad = OpTypeFunction %float %float %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.function", "OpTypeFunction %float %float %void", "parameter 1 is void");
  ExpectOnly(r, "type.function");
}

TEST(TypeFunction, MoreParametersThanTheLimit) {
  constexpr std::string_view kText = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%fn_3 = OpTypeFunction %float %float %float %float
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  Options options;
  options.max_function_args = 3;
  EXPECT_CLEAN(ValidateText(kText, options));
  options.max_function_args = 2;
  const Result r = ValidateText(kText, options);
  EXPECT_RULE_AT(r, "type.function", "OpTypeFunction %float %float %float %float",
                 "has 3 parameters; the limit is 2");
}

// ---------------------------------------------------------------- type.unique

TEST(TypeUnique, StructsAndPointersMayRepeat) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Position "Position"
OpName %Velocity "Velocity"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%Position = OpTypeStruct %float %float
%Velocity = OpTypeStruct %float %float
%_ptr_Private_Position = OpTypePointer Private %Position
%_ptr_Private_Velocity = OpTypePointer Private %Velocity
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(TypeUnique, TwoIdenticalIntegerTypes) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %uint_again "uint_again"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_again = OpTypeInt 32 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.unique", "%uint_again = OpTypeInt 32 0",
                 "declares the same type as %uint");
  ASSERT_EQ(RuleIds(r), std::vector<std::string>{"type.unique"}) << Dump(r);
}

TEST(TypeUnique, TwoIdenticalVectorTypes) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %vec3 "vec3"
OpName %position "position"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%vec3 = OpTypeVector %float 3
%position = OpTypeVector %float 3
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.unique", "%position = OpTypeVector", "same type as %vec3");
}

TEST(TypeUnique, TwoIdenticalFunctionTypes) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %fn "fn"
OpName %fn_again "fn_again"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%fn_again = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "type.unique", "%fn_again = OpTypeFunction %void", "same type as %fn");
}

// ---------------------------------------------------------------- type.nesting

TEST(TypeNesting, NestingWithinTheLimitIsValid) {
  Options options;
  options.max_type_nesting_depth = 2;
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%_arr_uint_uint_4 = OpTypeArray %uint %uint_4
%_arr__arr_uint_uint_4_uint_4 = OpTypeArray %_arr_uint_uint_4 %uint_4
%_ptr_Private_grid = OpTypePointer Private %_arr__arr_uint_uint_4_uint_4
%grid = OpVariable %_ptr_Private_grid Private
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)",
                                options);
  EXPECT_CLEAN(r);
}

TEST(TypeNesting, StructOfArraysOfArraysThreeDeep) {
  Options options;
  options.max_type_nesting_depth = 2;
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Grid "Grid"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%_arr_uint_uint_4 = OpTypeArray %uint %uint_4
%_arr__arr_uint_uint_4_uint_4 = OpTypeArray %_arr_uint_uint_4 %uint_4
%Grid = OpTypeStruct %_arr__arr_uint_uint_4_uint_4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)",
                                options);
  EXPECT_RULE_AT(r, "type.nesting", "%Grid = OpTypeStruct", "nests 3 levels deep; the limit is 2");
  ExpectOnly(r, "type.nesting");
  // The default limit takes it.
  EXPECT_CLEAN(ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%_arr_uint_uint_4 = OpTypeArray %uint %uint_4
%_arr__arr_uint_uint_4_uint_4 = OpTypeArray %_arr_uint_uint_4 %uint_4
%Grid = OpTypeStruct %_arr__arr_uint_uint_4_uint_4
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)"));
}

TEST(TypeNesting, StructsThreeDeep) {
  Options options;
  options.max_type_nesting_depth = 2;
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Inner "Inner"
OpName %Middle "Middle"
OpName %Outer "Outer"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%Inner = OpTypeStruct %float
%Middle = OpTypeStruct %Inner
%Outer = OpTypeStruct %Middle %float
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)",
                                options);
  EXPECT_RULE_AT(r, "type.nesting", "%Outer = OpTypeStruct", "nests 3 levels deep");
  EXPECT_FALSE(RuleAt(r, "type.nesting", "%Middle = OpTypeStruct"));
}

}  // namespace
}  // namespace coopspv::val
