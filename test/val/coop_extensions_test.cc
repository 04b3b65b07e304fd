// Rules of the newer cooperative extensions that SPIRV-Tools' validator tests exercise (issue
// 27): SPV_EXT_cooperative_matrix_maintenance1 (transposing conversions, GetCoordinate),
// SPV_EXT_shader_64bit_indexing (64-bit cooperative-vector offsets), SPV_EXT_long_vector's
// spec-constant lengths in Vulkan, and replicated composites of cooperative matrices.
#include <string>
#include <string_view>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::Replace;
using testing::ValidateText;

// An accumulator converted with a transpose into an A matrix of the swapped shape.
constexpr std::string_view kTranspose = R"(
OpCapability Shader
OpCapability Float16
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpCapability CooperativeMatrixConversionsEXT
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_EXT_cooperative_matrix_maintenance1"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %t CooperativeMatrixTransposeEXT
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%uint_0 = OpConstant %uint 0
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%float_1 = OpConstant %float 1
%acc = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_8 %uint_2
%a = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_8 %uint_16 %uint_0
%main = OpFunction %void None %fn
%entry = OpLabel
%c = OpCompositeConstruct %acc %float_1
%t = OpFConvert %a %c
OpReturn
OpFunctionEnd
)";

TEST(CoopExtensions, ATransposingConversionSwapsRowsAndColumns) {
  EXPECT_CLEAN(ValidateText(kTranspose, "vulkan1.3"));
}

TEST(CoopExtensions, WithoutTheDecorationTheShapesMustAgree) {
  const Result r =
      ValidateText(Replace(std::string(kTranspose), "OpDecorate %t CooperativeMatrixTransposeEXT\n",
                           ""),
                   "vulkan1.3");
  EXPECT_RULE_AT(r, "coop-matrix.convert", "OpFConvert", "rows of Result Type");
}

TEST(CoopExtensions, TheTransposeDecorationIsForMatrixConversions) {
  std::string text = Replace(std::string(kTranspose), "OpDecorate %t CooperativeMatrixTransposeEXT",
                             "OpDecorate %c CooperativeMatrixTransposeEXT");
  const Result r = ValidateText(text, "vulkan1.3");
  EXPECT_RULE_AT(r, "decoration.target", "CooperativeMatrixTransposeEXT",
                 "a conversion");
}

TEST(CoopExtensions, GetCoordinateNeedsAMatrixWhateverTheCapabilities) {
  const Result r = ValidateText(std::string(R"(
OpCapability Shader
OpCapability CooperativeMatrixGetCoordinateEXT
OpExtension "SPV_EXT_cooperative_matrix_maintenance1"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%uint_8 = OpConstant %uint 8
%main = OpFunction %void None %fn
%entry = OpLabel
%xy = OpCooperativeMatrixGetCoordinateEXT %v2uint %uint_8 %uint_8
OpReturn
OpFunctionEnd
)"), "spv1.3");
  EXPECT_RULE_AT(r, "coop-matrix2.get-coordinate", "OpCooperativeMatrixGetCoordinateEXT",
                 "Matrix a cooperative matrix");
}

TEST(CoopExtensions, AReplicatedMatrixTakesItsComponentType) {
  std::string text = Replace(std::string(kTranspose), "%c = OpCompositeConstruct %acc %float_1",
                             "%c = OpCompositeConstructReplicateEXT %acc %uint_8");
  text = Replace(text, "OpCapability CooperativeMatrixConversionsEXT",
                 "OpCapability CooperativeMatrixConversionsEXT\nOpCapability "
                 "ReplicatedCompositesEXT");
  text = Replace(text, "OpExtension \"SPV_KHR_cooperative_matrix\"",
                 "OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension "
                 "\"SPV_EXT_replicated_composites\"");
  const Result r = ValidateText(text, "vulkan1.3");
  EXPECT_RULE_AT(r, "coop-matrix.composite", "OpCompositeConstructReplicateEXT",
                 "component type");
  EXPECT_CLEAN(ValidateText(Replace(text, "ReplicateEXT %acc %uint_8", "ReplicateEXT %acc %float_1"),
                            "vulkan1.3"));
}

// A cooperative vector loaded at a 64-bit offset: SPV_EXT_shader_64bit_indexing's
// Shader64BitIndexingEXT capability allows it.
constexpr std::string_view kWideOffset = R"(
OpCapability Shader
OpCapability Float16
OpCapability Int64
OpCapability StorageBuffer16BitAccess
OpCapability VulkanMemoryModel
OpCapability CooperativeVectorNV
CAPABILITY
OpExtension "SPV_NV_cooperative_vector"
EXTENSION
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rt ArrayStride 2
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%half = OpTypeFloat 16
%uint_0 = OpConstant %uint 0
%uint_4 = OpConstant %uint 4
%ulong_8 = OpConstant %ulong 8
%v4 = OpTypeCooperativeVectorNV %half %uint_4
%rt = OpTypeRuntimeArray %half
%S = OpTypeStruct %rt
%ptr = OpTypePointer StorageBuffer %S
%prt = OpTypePointer StorageBuffer %rt
%buf = OpVariable %ptr StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %prt %buf %uint_0
%v = OpCooperativeVectorLoadNV %v4 %p %ulong_8
OpReturn
OpFunctionEnd
)";

TEST(CoopExtensions, SixtyFourBitOffsetsNeedShader64BitIndexing) {
  std::string with = Replace(std::string(kWideOffset), "CAPABILITY",
                             "OpCapability Shader64BitIndexingEXT");
  with = Replace(with, "EXTENSION", "OpExtension \"SPV_EXT_shader_64bit_indexing\"");
  EXPECT_CLEAN(ValidateText(with, "vulkan1.3"));
  std::string without = Replace(Replace(std::string(kWideOffset), "CAPABILITY", ""), "EXTENSION", "");
  const Result r = ValidateText(without, "vulkan1.3");
  EXPECT_RULE_AT(r, "coop-vector.memory.offset", "OpCooperativeVectorLoadNV",
                 "must be a 32-bit integer");
}

// VUID-StandaloneSpirv-Function-12294: a long vector whose length a spec constant gives has no
// explicit layout, so no buffer holds one.
constexpr std::string_view kSpecLength = R"(
OpCapability Shader
OpCapability LongVectorEXT
OpExtension "SPV_EXT_long_vector"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %n SpecId 0
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%n = OpSpecConstant %uint 8
%vn = OpTypeVectorIdEXT %float %n
%S = OpTypeStruct %vn
%ptr = OpTypePointer STORAGE %S
%buf = OpVariable %ptr STORAGE
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(CoopExtensions, SpecLengthLongVectorsStayOutOfLaidOutStorage) {
  std::string text(kSpecLength);
  text = Replace(Replace(text, "STORAGE", "StorageBuffer"), "STORAGE", "StorageBuffer");
  const Result r = ValidateText(text, "vulkan1.3");
  EXPECT_RULE_AT(r, "vulkan.long-vector-spec-count", "OpTypePointer StorageBuffer",
                 "spec constant");
  // Outside Vulkan the rule does not apply.
  EXPECT_FALSE(testing::HasRule(ValidateText(text, "spv1.6"), "vulkan.long-vector-spec-count"));
}

}  // namespace
}  // namespace coopspv::val
