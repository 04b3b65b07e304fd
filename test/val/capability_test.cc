// Tests of the capability rules (source/val/capability.cc): every instruction and every
// enumerant operand is enabled by a declared (or implicitly declared) capability, a declared
// extension, or the module's version.
#include <string>
#include <string_view>
#include <vector>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::RuleAt;
using testing::RuleIds;
using testing::ValidateText;

// ---------------------------------------------------------------- cooperative matrices

// A KHR cooperative matrix accumulator, filled with ones and doubled.
constexpr std::string_view kCooperativeMatrix = R"(
OpCapability Shader
OpCapability Float16
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 32 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%uint = OpTypeInt 32 0
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%uint_2 = OpConstant %uint 2
%acc = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_2
%_ptr_Function_acc = OpTypePointer Function %acc
%half_1 = OpConstant %half 0x1p+0
%ones = OpConstantComposite %acc %half_1
%main = OpFunction %void None %fn
%entry = OpLabel
%m = OpVariable %_ptr_Function_acc Function
%twos = OpFAdd %acc %ones %ones
OpStore %m %twos
OpReturn
OpFunctionEnd
)";

std::string Without(std::string_view text, std::string_view line) {
  std::string out(text);
  const size_t at = out.find(line);
  EXPECT_NE(at, std::string::npos) << line;
  if (at != std::string::npos) out.erase(at, line.size());
  return out;
}

TEST(CapabilityInstruction, CooperativeMatrixWithCapabilityAndExtensionIsValid) {
  EXPECT_CLEAN(ValidateText(kCooperativeMatrix));
  EXPECT_CLEAN(ValidateText(kCooperativeMatrix, "vulkan1.3"));
}

TEST(CapabilityInstruction, CooperativeMatrixTypeWithoutCapability) {
  const Result r = ValidateText(Without(kCooperativeMatrix, "OpCapability CooperativeMatrixKHR\n"));
  EXPECT_RULE_AT(r, "capability.instruction", "OpTypeCooperativeMatrixKHR %half",
                 "CooperativeMatrixKHR");
  // Nothing else is wrong with the module.
  for (const std::string& id : RuleIds(r)) EXPECT_EQ(id, "capability.instruction") << Dump(r);
}

TEST(CapabilityOperand, CooperativeMatrixCapabilityWithoutExtension) {
  const Result r =
      ValidateText(Without(kCooperativeMatrix, "OpExtension \"SPV_KHR_cooperative_matrix\"\n"));
  EXPECT_RULE_AT(r, "capability.operand", "OpCapability CooperativeMatrixKHR",
                 "SPV_KHR_cooperative_matrix");
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"capability.operand"}) << Dump(r);
  EXPECT_EQ(r.diagnostics[0].opcode, static_cast<uint32_t>(spv::Op::Capability));
}

// ---------------------------------------------------------------- capability.instruction

constexpr std::string_view kCopyLogical = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%Packed = OpTypeStruct %uint %float
%Local = OpTypeStruct %uint %float
%_ptr_Function_Local = OpTypePointer Function %Local
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%packed = OpConstantComposite %Packed %uint_1 %float_2
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %_ptr_Function_Local Function
%copy = OpCopyLogical %Local %packed
OpStore %local %copy
OpReturn
OpFunctionEnd
)";

TEST(CapabilityInstruction, CopyLogicalInSpirv14IsValid) {
  EXPECT_CLEAN(ValidateText(kCopyLogical, "spv1.4"));
}

TEST(CapabilityInstruction, CopyLogicalInSpirv13) {
  const Result r = ValidateText(kCopyLogical, "spv1.3");
  EXPECT_RULE_AT(r, "capability.instruction", "OpCopyLogical", "SPIR-V 1.4");
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"capability.instruction"}) << Dump(r);
}

constexpr std::string_view kLocalSizeId = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionModeId %main LocalSizeId %uint_8 %uint_8 %uint_1
OpDecorate %uint_8 SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_8 = OpSpecConstant %uint 8
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(CapabilityInstruction, ExecutionModeIdInSpirv12IsValid) {
  EXPECT_CLEAN(ValidateText(kLocalSizeId, "spv1.2"));
}

TEST(CapabilityInstruction, ExecutionModeIdInSpirv11) {
  const Result r = ValidateText(kLocalSizeId, "spv1.1");
  EXPECT_RULE_AT(r, "capability.instruction", "OpExecutionModeId", "SPIR-V 1.2");
  // Its LocalSizeId operand is new in 1.2 as well.
  EXPECT_RULE_AT(r, "capability.operand", "OpExecutionModeId", "LocalSizeId");
}

TEST(CapabilityInstruction, MatrixTypeIsImplicitlyEnabledByShader) {
  // Shader implicitly declares Matrix, which OpTypeMatrix needs.
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%mat4v4float = OpTypeMatrix %v4float 4
%_ptr_Function_mat4v4float = OpTypePointer Function %mat4v4float
%main = OpFunction %void None %fn
%entry = OpLabel
%m = OpVariable %_ptr_Function_mat4v4float Function
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(CapabilityInstruction, MatrixTypeInAKernel) {
  // Kernel does not declare Matrix.
  const Result r = ValidateText(R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%mat4v4float = OpTypeMatrix %v4float 4
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "capability.instruction", "OpTypeMatrix %v4float 4", "Matrix");
}

// ---------------------------------------------------------------- capability.operand

TEST(CapabilityOperand, PhysicalStorageBufferWithCapabilityIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main" %pc
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %PushConstants Block
OpMemberDecorate %PushConstants 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
%PushConstants = OpTypeStruct %_ptr_PhysicalStorageBuffer_uint
%_ptr_PushConstant_PushConstants = OpTypePointer PushConstant %PushConstants
%pc = OpVariable %_ptr_PushConstant_PushConstants PushConstant
%_ptr_PushConstant_ptr = OpTypePointer PushConstant %_ptr_PhysicalStorageBuffer_uint
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%uint_42 = OpConstant %uint 42
%main = OpFunction %void None %fn
%entry = OpLabel
%address = OpAccessChain %_ptr_PushConstant_ptr %pc %int_0
%data = OpLoad %_ptr_PhysicalStorageBuffer_uint %address
OpStore %data %uint_42 Aligned 4
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(CapabilityOperand, PhysicalStorageBufferWithoutCapability) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "capability.operand", "OpTypePointer PhysicalStorageBuffer %uint",
                 "PhysicalStorageBufferAddresses");
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"capability.operand"}) << Dump(r);
}

TEST(CapabilityOperand, AddressingModelWithoutCapability) {
  const Result r = ValidateText(R"(
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "capability.operand", "OpMemoryModel Physical64 OpenCL", "Addresses");
}

constexpr std::string_view kNonUniformIndex = R"(
OpCapability Shader
OpCapability ShaderNonUniform
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_LocalInvocationIndex
OpExecutionMode %main LocalSize 64 1 1
OpName %index "index"
OpDecorate %gl_LocalInvocationIndex BuiltIn LocalInvocationIndex
OpDecorate %index NonUniform
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Input_uint = OpTypePointer Input %uint
%gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input
%main = OpFunction %void None %fn
%entry = OpLabel
%index = OpLoad %uint %gl_LocalInvocationIndex
OpReturn
OpFunctionEnd
)";

TEST(CapabilityOperand, NonUniformDecorationWithCapabilityIsValid) {
  EXPECT_CLEAN(ValidateText(kNonUniformIndex));
}

TEST(CapabilityOperand, DecorationWithoutCapability) {
  const Result r = ValidateText(Without(kNonUniformIndex, "OpCapability ShaderNonUniform\n"));
  EXPECT_RULE_AT(r, "capability.operand", "OpDecorate %index NonUniform", "ShaderNonUniform");
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"capability.operand"}) << Dump(r);
}

TEST(CapabilityOperand, DecorationNewerThanTheModule) {
  // NonUniform is core from SPIR-V 1.5; a 1.4 module needs SPV_EXT_descriptor_indexing.
  const Result r = ValidateText(kNonUniformIndex, "spv1.4");
  EXPECT_RULE_AT(r, "capability.operand", "OpDecorate %index NonUniform",
                 "SPV_EXT_descriptor_indexing");
  const std::string with_extension(kNonUniformIndex);
  std::string text = with_extension;
  text.insert(text.find("OpMemoryModel"), "OpExtension \"SPV_EXT_descriptor_indexing\"\n");
  EXPECT_CLEAN(ValidateText(text, "spv1.4"));
}

constexpr std::string_view kSubgroupLocalId = R"(
OpCapability Shader
OpCapability GroupNonUniformBallot
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_SubgroupInvocationID
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gl_SubgroupInvocationID BuiltIn SubgroupLocalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Input_uint = OpTypePointer Input %uint
%gl_SubgroupInvocationID = OpVariable %_ptr_Input_uint Input
%main = OpFunction %void None %fn
%entry = OpLabel
%lane = OpLoad %uint %gl_SubgroupInvocationID
OpReturn
OpFunctionEnd
)";

TEST(CapabilityOperand, BuiltInEnabledByAnImplicitlyDeclaredCapability) {
  // SubgroupLocalInvocationId needs GroupNonUniform, which GroupNonUniformBallot declares.
  EXPECT_CLEAN(ValidateText(kSubgroupLocalId));
}

TEST(CapabilityOperand, BuiltInWithoutCapability) {
  const Result r = ValidateText(Without(kSubgroupLocalId, "OpCapability GroupNonUniformBallot\n"));
  EXPECT_RULE_AT(r, "capability.operand", "BuiltIn SubgroupLocalInvocationId", "GroupNonUniform");
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"capability.operand"}) << Dump(r);
}

TEST(CapabilityOperand, MakePointerAvailableWithVulkanMemoryModelIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability VulkanMemoryModel
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%Buf = OpTypeStruct %uint
%_ptr_StorageBuffer_Buf = OpTypePointer StorageBuffer %Buf
%buf = OpVariable %_ptr_StorageBuffer_Buf StorageBuffer
%_ptr_StorageBuffer_uint = OpTypePointer StorageBuffer %uint
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%uint_QueueFamily = OpConstant %uint 5
%uint_42 = OpConstant %uint 42
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %_ptr_StorageBuffer_uint %buf %int_0
OpStore %p %uint_42 MakePointerAvailable|NonPrivatePointer %uint_QueueFamily
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(CapabilityOperand, MakePointerAvailableWithoutVulkanMemoryModel) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%Buf = OpTypeStruct %uint
%_ptr_StorageBuffer_Buf = OpTypePointer StorageBuffer %Buf
%buf = OpVariable %_ptr_StorageBuffer_Buf StorageBuffer
%_ptr_StorageBuffer_uint = OpTypePointer StorageBuffer %uint
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%uint_QueueFamily = OpConstant %uint 5
%uint_42 = OpConstant %uint 42
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %_ptr_StorageBuffer_uint %buf %int_0
OpStore %p %uint_42 MakePointerAvailable|NonPrivatePointer %uint_QueueFamily
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "capability.operand", "OpStore", "MakePointerAvailable requires");
  EXPECT_RULE_AT(r, "capability.operand", "OpStore", "NonPrivatePointer requires");
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_EQ(d.opcode, static_cast<uint32_t>(spv::Op::Store)) << Dump(r);
  }
}

TEST(CapabilityOperand, CapabilityInCoreVersionNeedsNoExtension) {
  // StorageBuffer16BitAccess is core from SPIR-V 1.3; 1.2 needs SPV_KHR_16bit_storage.
  constexpr std::string_view kText = R"(
OpCapability Shader
OpCapability StorageBuffer16BitAccess
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
  EXPECT_CLEAN(ValidateText(kText, "spv1.3"));
  const Result r = ValidateText(kText, "spv1.2");
  EXPECT_RULE_AT(r, "capability.operand", "OpCapability StorageBuffer16BitAccess",
                 "SPV_KHR_16bit_storage");
  std::string with_extension(kText);
  with_extension.insert(with_extension.find("OpMemoryModel"),
                        "OpExtension \"SPV_KHR_16bit_storage\"\n");
  EXPECT_CLEAN(ValidateText(with_extension, "spv1.2"));
}

}  // namespace
}  // namespace coopspv::val
