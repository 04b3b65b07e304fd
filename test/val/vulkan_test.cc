// Tests of the Vulkan environment rules (source/val/vulkan.cc).
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

// VUID-StandaloneSpirv-Scope-12243: a cooperative matrix's Scope is Subgroup or Workgroup.
TEST(Vulkan, CoopMatrixScopeIsSubgroupOrWorkgroup) {
  const std::string text = testing::ReadFile("test/val/data/tiled_matmul_khr.spvasm");
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const std::string device =
      testing::Mutate(text, "%uint_3 = OpConstant %uint 3", "%uint_3 = OpConstant %uint 1");
  const Result r = testing::ValidateText(device, "vulkan1.3");
  EXPECT_RULE_AT(r, "vulkan.coop-matrix-scope", "OpTypeCooperativeMatrixKHR", "Device");
  // Outside Vulkan the rule does not apply.
  EXPECT_FALSE(
      testing::HasRule(testing::ValidateText(device, "spv1.6"), "vulkan.coop-matrix-scope"));
}

// VUID-StandaloneSpirv-Pointer-08973: tensor loads and stores go through Workgroup,
// StorageBuffer or PhysicalStorageBuffer pointers.
TEST(Vulkan, TensorLoadThroughAPushConstantPointer) {
  const std::string text = testing::ReadFile("test/data/corpus/cm2_tensor_layouts.spvasm");
  const std::string load = "%151 = OpCooperativeMatrixLoadTensorNV %137 %145 %150 %149 None None";
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const std::string push_constant =
      testing::Mutate(text, load,
                      "%pcx = OpAccessChain %_ptr_PushConstant_uint %pc %int_0\n"
                      "%151 = OpCooperativeMatrixLoadTensorNV %137 %pcx %150 %149 None None");
  EXPECT_RULE_AT(testing::ValidateText(push_constant, "vulkan1.3"), "vulkan.coop-matrix-pointer",
                 "OpCooperativeMatrixLoadTensorNV", "PushConstant");
  EXPECT_FALSE(testing::HasRule(testing::ValidateText(push_constant, "spv1.6"),
                                "vulkan.coop-matrix-pointer"));
}

// The type of compute built-ins, and the storage class of descriptor-bound variables.
TEST(Vulkan, BuiltInTypesAndResourceStorageClasses) {
  const std::string& text = testing::ReadFile("test/val/data/core_kernel.spvasm");
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const std::string scalar_id = testing::Mutate(text, "%gid = OpVariable %ptr_in_v3 Input",
                                                "%gid = OpVariable %ptr_in_uint Input");
  EXPECT_RULE_AT(testing::ValidateText(scalar_id, "vulkan1.3"), "vulkan.builtin-type",
                 "GlobalInvocationId", "three 32-bit integers");
  const std::string bound_push_constant =
      testing::Mutate(text, "OpDecorate %buf Binding 0", "OpDecorate %pc Binding 0");
  EXPECT_RULE_AT(testing::ValidateText(bound_push_constant, "vulkan1.3"),
                 "vulkan.resource-storage-class", "Binding", "PushConstant");
  for (const std::string* t : {&scalar_id, &bound_push_constant}) {
    const Result r = testing::ValidateText(*t, "spv1.6");
    EXPECT_FALSE(testing::HasRule(r, "vulkan.builtin-type"));
    EXPECT_FALSE(testing::HasRule(r, "vulkan.resource-storage-class"));
  }
}

// VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708: accesses through PhysicalStorageBuffer
// pointers carry Aligned.
TEST(Vulkan, PhysicalStorageBufferAccessesAreAligned) {
  const std::string text = testing::ReadFile("test/data/corpus/coopvec_loadstore_math.spvasm");
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const std::string load = "%59 = OpCooperativeVectorLoadNV %9 %55 %58 Aligned 16";
  const std::string unaligned =
      testing::Mutate(text, load, "%59 = OpCooperativeVectorLoadNV %9 %55 %58");
  EXPECT_RULE_AT(testing::ValidateText(unaligned, "vulkan1.3"),
                 "vulkan.physical-storage-buffer-aligned", "OpCooperativeVectorLoadNV",
                 "PhysicalStorageBuffer");
  EXPECT_FALSE(testing::HasRule(testing::ValidateText(unaligned, "spv1.6"),
                                "vulkan.physical-storage-buffer-aligned"));
}

// VUID-RuntimeSpirv-None-10824: without maintenance9 the bit-field instructions take 32-bit
// integers only; the option (spirv-val's --allow-vulkan-32-bit-bitwise) lifts it.
TEST(VulkanBitwise, BitFieldInstructionsOn16BitIntegers) {
  const std::string text = R"(
OpCapability Shader
OpCapability Int16
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%short = OpTypeInt 16 1
%uint = OpTypeInt 32 0
%s1 = OpConstant %short 1
%u1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpBitFieldSExtract %short %s1 %u1 %u1
%y = OpBitCount %uint %u1
OpReturn
OpFunctionEnd
)";
  const Result r = testing::ValidateText(text, "vulkan1.3");
  EXPECT_RULE_AT(r, "vulkan.bitwise-32bit", "OpBitFieldSExtract", "16-bit");
  EXPECT_EQ(testing::RuleIds(r).size(), 1u) << testing::Dump(r);  // OpBitCount's is 32-bit.
  Options allowed;
  allowed.env = *ParseTargetEnv("vulkan1.3");
  allowed.allow_vulkan_32_bit_bitwise = true;
  EXPECT_CLEAN(testing::ValidateText(text, allowed));
  EXPECT_CLEAN(testing::ValidateText(text, "spv1.6"));  // A Vulkan rule.
}

// VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314: Aligned covers the largest scalar moved.
TEST(VulkanPhysicalStorageBuffer, AlignedCoversTheLargestScalar) {
  const std::string text = R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v4uint = OpTypeVector %uint 4
%ptr = OpTypePointer PhysicalStorageBuffer %v4uint
%pf = OpTypePointer Function %ptr
%main = OpFunction %void None %fn
%entry = OpLabel
%var = OpVariable %pf Function
%p = OpLoad %ptr %var
%v = OpLoad %v4uint %p Aligned ALIGN
OpReturn
OpFunctionEnd
)";
  auto with = [&](const char* align) {
    std::string t = text;
    t.replace(t.find("ALIGN"), 5, align);
    return testing::ValidateText(t, "vulkan1.3");
  };
  EXPECT_CLEAN(with("4"));
  EXPECT_CLEAN(with("16"));
  EXPECT_RULE_AT(with("2"), "vulkan.physical-storage-buffer-aligned", "OpLoad %v4uint",
                 "largest scalar");
}

// VUID-StandaloneSpirv-PushConstant-06675: push constants are Blocks too.
TEST(VulkanBlocks, PushConstantStructIsABlock) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
DECORATION
OpMemberDecorate %S 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%S = OpTypeStruct %uint
%ptr = OpTypePointer PushConstant %S
%pc = OpVariable %ptr PushConstant
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  std::string with = text, without = text;
  with.replace(with.find("DECORATION"), 10, "OpDecorate %S Block");
  without.replace(without.find("DECORATION"), 10, "");
  EXPECT_CLEAN(testing::ValidateText(with, "vulkan1.3"));
  EXPECT_RULE_AT(testing::ValidateText(without, "vulkan1.3"), "vulkan.block-decoration",
                 "PushConstant", "not decorated Block");
}

// The split barriers' execution Scope is Workgroup or Subgroup (VUID-...-13553); a Subgroup
// memory Scope in Vulkan 1.0 needs a subgroup capability (VUID-...-07951).
TEST(VulkanScopes, SplitBarriersAndSubgroupMemoryScope) {
  const std::string text = R"(
OpCapability Shader
OpCapability SplitBarrierEXT
OpExtension "SPV_EXT_split_barrier"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%device = OpConstant %uint 1
%workgroup = OpConstant %uint 2
%subgroup = OpConstant %uint 3
%none = OpConstant %uint 0
%acqrel_workgroup = OpConstant %uint 264
%main = OpFunction %void None %fn
%entry = OpLabel
OpControlBarrierArriveEXT EXEC %workgroup %none
OpMemoryBarrier MEM %acqrel_workgroup
OpReturn
OpFunctionEnd
)";
  auto with = [&](const char* exec, const char* mem, const char* env) {
    std::string t = text;
    t.replace(t.find("EXEC"), 4, exec);
    t.replace(t.find("MEM"), 3, mem);
    return testing::ValidateText(t, env);
  };
  EXPECT_CLEAN(with("%workgroup", "%workgroup", "vulkan1.0"));
  EXPECT_RULE_AT(with("%device", "%workgroup", "vulkan1.0"), "vulkan.execution-scope",
                 "OpControlBarrierArriveEXT", "Device");
  EXPECT_RULE_AT(with("%workgroup", "%subgroup", "vulkan1.0"), "vulkan.memory-scope",
                 "OpMemoryBarrier", "Vulkan 1.0");
  EXPECT_CLEAN(with("%workgroup", "%subgroup", "vulkan1.1"));
}

}  // namespace
}  // namespace coopspv::val
