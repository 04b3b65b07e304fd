// Memory Semantics rules (source/val/memory_semantics.cc) and the memory Scope rules of the Vulkan
// memory model: one barrier or atomic in a compute kernel that counts in Workgroup memory, under
// the GLSL450 or the Vulkan memory model, in a Vulkan or a universal environment. The verdicts
// were compared with the reference validator's (spirv-val) on the same modules.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Mutate;

// The kernel: %counter is a Workgroup uint; the constants name the Scopes and the Memory
// Semantics the cases use. `{model}`, `{capabilities}` and `{body}` are filled in.
constexpr const char* kKernel = R"(
OpCapability Shader
{capabilities}
OpMemoryModel Logical {model}
OpEntryPoint GLCompute %main "main" %counter %staging
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%one = OpConstant %uint 1
%cross_device = OpConstant %uint 0
%device = OpConstant %uint 1
%workgroup = OpConstant %uint 2
%invocation = OpConstant %uint 4
%queue_family = OpConstant %uint 5
%relaxed = OpConstant %uint 0
%acquire_wg = OpConstant %uint 258
%release_wg = OpConstant %uint 260
%acq_rel_wg = OpConstant %uint 264
%seq_cst_wg = OpConstant %uint 272
%acq_and_rel_wg = OpConstant %uint 262
%acq_rel_bare = OpConstant %uint 8
%workgroup_only = OpConstant %uint 256
%uniform_only = OpConstant %uint 64
%subgroup_cross_wg = OpConstant %uint 640
%acq_rel_available = OpConstant %uint 8456
%acq_rel_visible = OpConstant %uint 16648
%acquire_available = OpConstant %uint 8450
%release_visible = OpConstant %uint 16644
%acquire_visible = OpConstant %uint 16642
%acquire_output = OpConstant %uint 4098
%volatile = OpConstant %uint 32768
%acq_rel_volatile = OpConstant %uint 33032
%acquire_uniform = OpConstant %uint 66
%ptr_wg_uint = OpTypePointer Workgroup %uint
%counter = OpVariable %ptr_wg_uint Workgroup
%staging = OpVariable %ptr_wg_uint Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
)";

enum Model { kGlsl450, kVulkanModel };

std::string Kernel(const std::string& body, Model model, const std::string& capabilities = "") {
  std::string text = kKernel;
  const auto fill = [&](const std::string& key, const std::string& value) {
    text.replace(text.find(key), key.size(), value);
  };
  fill("{capabilities}", model == kVulkanModel ? "OpCapability VulkanMemoryModel\n"
                                                 "OpCapability VulkanMemoryModelDeviceScope\n" +
                                                     capabilities
                                               : capabilities);
  fill("{model}", model == kVulkanModel ? "Vulkan" : "GLSL450");
  fill("{body}", body);
  return text;
}

// The opcode name of an instruction's text: "OpAtomicIAdd" of "%a = OpAtomicIAdd %uint ...".
std::string OpcodeOf(const std::string& instruction) {
  const size_t at = instruction.find("Op");
  return instruction.substr(at, instruction.find(' ', at) - at);
}

struct SemanticsCase {
  const char* name;
  const char* instruction;
  const char* env;
  Model model;
  const char* rule;  // "" when the module is valid.
};

class MemorySemantics : public ::testing::TestWithParam<SemanticsCase> {};

TEST_P(MemorySemantics, Verdict) {
  const SemanticsCase& c = GetParam();
  const Result r = testing::ValidateText(Kernel(c.instruction, c.model), c.env);
  if (c.rule[0] == '\0') {
    EXPECT_CLEAN(r);
  } else {
    EXPECT_RULE_AT(r, c.rule, OpcodeOf(c.instruction));
  }
}

constexpr const char* kVk = "vulkan1.3";
constexpr const char* kSpv = "spv1.6";

INSTANTIATE_TEST_SUITE_P(
    Rules, MemorySemantics,
    ::testing::Values(
        // What every tiled kernel does: ordered barriers and atomics that name their storage.
        SemanticsCase{"OrderedWithStorage",
                      "OpControlBarrier %workgroup %workgroup %acq_rel_wg\n"
                      "OpMemoryBarrier %workgroup %acq_rel_wg\n"
                      "%a = OpAtomicIAdd %uint %counter %workgroup "
                      "%acq_rel_wg %one\n"
                      "%l = OpAtomicLoad %uint %counter %workgroup "
                      "%acquire_wg\n"
                      "OpAtomicStore %counter %workgroup %release_wg %one",
                      kVk, kVulkanModel, ""},
        SemanticsCase{"RelaxedAtomic", "%a = OpAtomicIAdd %uint %counter %workgroup %relaxed %one",
                      kVk, kGlsl450, ""},
        SemanticsCase{"AvailableAndVisible",
                      "OpMemoryBarrier %workgroup %acq_rel_available\n"
                      "OpMemoryBarrier %workgroup %acq_rel_visible",
                      kVk, kVulkanModel, ""},
        SemanticsCase{"VolatileAtomic",
                      "%a = OpAtomicIAdd %uint %counter %workgroup %volatile %one", kVk,
                      kVulkanModel, ""},
        // Outside Vulkan, without the Vulkan memory model, the Vulkan rules do not apply.
        SemanticsCase{"UniversalSequentiallyConsistent",
                      "%a = OpAtomicIAdd %uint %counter %workgroup %seq_cst_wg %one", kSpv,
                      kGlsl450, ""},
        SemanticsCase{"UniversalRelaxedWithStorage",
                      "%a = OpAtomicIAdd %uint %counter %workgroup %workgroup_only %one", kSpv,
                      kGlsl450, ""},
        SemanticsCase{"UniversalRelaxedMemoryBarrier", "OpMemoryBarrier %workgroup %relaxed", kSpv,
                      kGlsl450, ""},
        // SubgroupMemory and CrossWorkgroupMemory are no storage Vulkan orders.
        SemanticsCase{"RelaxedWithOtherStorage",
                      "OpControlBarrier %workgroup %workgroup %subgroup_cross_wg", kVk, kGlsl450,
                      ""},

        SemanticsCase{"TwoOrders", "OpMemoryBarrier %workgroup %acq_and_rel_wg", kSpv, kGlsl450,
                      "memory-semantics.order"},
        SemanticsCase{"OutputMemoryNeedsVulkanMemoryModel",
                      "OpMemoryBarrier %workgroup %acquire_output", kSpv, kGlsl450,
                      "memory-semantics.capability"},
        SemanticsCase{"MakeAvailableNeedsVulkanMemoryModel",
                      "OpMemoryBarrier %workgroup %acq_rel_available", kSpv, kGlsl450,
                      "memory-semantics.capability"},
        SemanticsCase{"MakeVisibleNeedsVulkanMemoryModel",
                      "OpMemoryBarrier %workgroup %acq_rel_visible", kSpv, kGlsl450,
                      "memory-semantics.capability"},
        SemanticsCase{"VolatileNeedsVulkanMemoryModel",
                      "%a = OpAtomicIAdd %uint %counter %workgroup %volatile %one", kSpv, kGlsl450,
                      "memory-semantics.capability"},
        SemanticsCase{"MakeAvailableWithAcquire", "OpMemoryBarrier %workgroup %acquire_available",
                      kSpv, kVulkanModel, "memory-semantics.make-available"},
        SemanticsCase{"MakeVisibleWithRelease", "OpMemoryBarrier %workgroup %release_visible", kSpv,
                      kVulkanModel, "memory-semantics.make-visible"},
        SemanticsCase{"VolatileBarrier", "OpControlBarrier %workgroup %workgroup %acq_rel_volatile",
                      kSpv, kVulkanModel, "memory-semantics.volatile"},
        SemanticsCase{"ReleasingLoad", "%l = OpAtomicLoad %uint %counter %workgroup %release_wg",
                      kSpv, kGlsl450, "memory-semantics.load-store-order"},
        SemanticsCase{"AcquireReleaseLoad",
                      "%l = OpAtomicLoad %uint %counter %workgroup %acq_rel_wg", kVk, kGlsl450,
                      "memory-semantics.load-store-order"},
        SemanticsCase{"AcquiringStore", "OpAtomicStore %counter %workgroup %acquire_wg %one", kSpv,
                      kGlsl450, "memory-semantics.load-store-order"},
        SemanticsCase{"SequentiallyConsistentInVulkan",
                      "%a = OpAtomicIAdd %uint %counter %workgroup %seq_cst_wg %one", kVk, kGlsl450,
                      "vulkan.sequentially-consistent"},
        SemanticsCase{"SequentiallyConsistentUnderVulkanModel",
                      "%a = OpAtomicIAdd %uint %counter %workgroup %seq_cst_wg %one", kSpv,
                      kVulkanModel, "vulkan.sequentially-consistent"},
        SemanticsCase{"RelaxedMemoryBarrier", "OpMemoryBarrier %workgroup %workgroup_only", kVk,
                      kGlsl450, "vulkan.memory-barrier-relaxed"},
        SemanticsCase{"NoneMemoryBarrierUnderVulkanModel", "OpMemoryBarrier %workgroup %relaxed",
                      kSpv, kVulkanModel, "vulkan.memory-barrier-relaxed"},
        SemanticsCase{"OrderWithoutStorage", "OpControlBarrier %workgroup %workgroup %acq_rel_bare",
                      kVk, kGlsl450, "vulkan.memory-semantics-storage"},
        SemanticsCase{"OrderWithoutStorageUnderVulkanModel",
                      "OpControlBarrier %workgroup %workgroup %acq_rel_bare", kSpv, kVulkanModel,
                      "vulkan.memory-semantics-storage"},
        SemanticsCase{"RelaxedAtomicWithStorage",
                      "%a = OpAtomicIAdd %uint %counter %workgroup %workgroup_only %one", kVk,
                      kGlsl450, "vulkan.memory-semantics-relaxed"},
        SemanticsCase{"RelaxedBarrierWithStorage",
                      "OpControlBarrier %workgroup %workgroup %uniform_only", kVk, kGlsl450,
                      "vulkan.memory-semantics-relaxed"},
        SemanticsCase{"OrderedAtInvocationScope",
                      "%a = OpAtomicIAdd %uint %counter %invocation %acq_rel_wg %one", kVk,
                      kGlsl450, "vulkan.invocation-scope-order"},
        SemanticsCase{"RelaxedAtInvocationScope",
                      "%a = OpAtomicIAdd %uint %counter %invocation %relaxed %one", kVk, kGlsl450,
                      ""}),
    [](const ::testing::TestParamInfo<SemanticsCase>& info) { return info.param.name; });

// OpAtomicCompareExchange: Unequal is never a release, never a stronger order than Equal, and
// in Vulkan names no storage and no MakeVisible that Equal does not, and Volatile as Equal does.
class CompareExchange : public ::testing::TestWithParam<SemanticsCase> {};

TEST_P(CompareExchange, Verdict) {
  const SemanticsCase& c = GetParam();
  const std::string body =
      std::string("%was = OpAtomicCompareExchange %uint %counter %workgroup ") + c.instruction +
      " %one %one";
  const Result r = testing::ValidateText(Kernel(body, c.model), c.env);
  if (c.rule[0] == '\0') {
    EXPECT_CLEAN(r);
  } else {
    EXPECT_RULE_AT(r, c.rule, "OpAtomicCompareExchange", "Unequal");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rules, CompareExchange,
    ::testing::Values(
        SemanticsCase{"SameOrder", "%acq_rel_visible %acquire_visible", kVk, kVulkanModel, ""},
        SemanticsCase{"AcquireAfterRelease", "%release_wg %acquire_wg", kVk, kVulkanModel, ""},
        SemanticsCase{"RelaxedUnequal", "%acq_rel_wg %relaxed", kVk, kVulkanModel, ""},
        SemanticsCase{"BothVolatile", "%volatile %volatile", kVk, kVulkanModel, ""},
        SemanticsCase{"ReleasingUnequal", "%acq_rel_wg %release_wg", kSpv, kGlsl450,
                      "memory-semantics.compare-exchange"},
        SemanticsCase{"StrongerSequentiallyConsistent", "%acquire_wg %seq_cst_wg", kSpv, kGlsl450,
                      "memory-semantics.compare-exchange"},
        SemanticsCase{"AcquireAfterRelaxed", "%relaxed %acquire_wg", kSpv, kGlsl450,
                      "memory-semantics.compare-exchange"},
        SemanticsCase{"UnequalNamesOtherStorage", "%acq_rel_wg %acquire_uniform", kVk, kVulkanModel,
                      "vulkan.compare-exchange-semantics"},
        SemanticsCase{"UnequalMakesVisible", "%acq_rel_wg %acquire_visible", kVk, kVulkanModel,
                      "vulkan.compare-exchange-semantics"},
        SemanticsCase{"OnlyEqualVolatile", "%acq_rel_volatile %acquire_wg", kVk, kVulkanModel,
                      "vulkan.compare-exchange-semantics"},
        SemanticsCase{"OnlyUnequalVolatile", "%acq_rel_wg %volatile", kSpv, kVulkanModel,
                      "vulkan.compare-exchange-semantics"}),
    [](const ::testing::TestParamInfo<SemanticsCase>& info) { return info.param.name; });

// SPV_EXT_split_barrier: the arrive half releases, the wait half acquires; neither is Volatile.
TEST(SplitBarrier, ArriveReleasesWaitAcquires) {
  const auto check = [](const std::string& body) {
    return testing::ValidateText(
        Kernel(body, kVulkanModel,
               "OpCapability SplitBarrierEXT\nOpExtension \"SPV_EXT_split_barrier\""),
        kVk);
  };
  EXPECT_CLEAN(
      check("OpControlBarrierArriveEXT %workgroup %workgroup %release_wg\n"
            "OpControlBarrierWaitEXT %workgroup %workgroup %acquire_wg\n"
            "OpControlBarrierArriveEXT %workgroup %workgroup %relaxed"));
  EXPECT_RULE_AT(check("OpControlBarrierArriveEXT %workgroup %workgroup %acq_rel_wg"),
                 "vulkan.split-barrier-order", "OpControlBarrierArriveEXT", "Release");
  EXPECT_RULE_AT(check("OpControlBarrierWaitEXT %workgroup %workgroup %release_wg"),
                 "vulkan.split-barrier-order", "OpControlBarrierWaitEXT", "Acquire");
  EXPECT_RULE_AT(check("OpControlBarrierWaitEXT %workgroup %workgroup %acq_rel_volatile"),
                 "memory-semantics.volatile", "OpControlBarrierWaitEXT", "Volatile");
}

// UniformMemory needs the Shader capability: a kernel has no uniform memory.
TEST(MemorySemanticsCapability, UniformMemoryNeedsShader) {
  const std::string kernel = R"(
OpCapability Kernel
OpCapability Addresses
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%workgroup = OpConstant %uint 2
%semantics = OpConstant %uint {semantics}
%main = OpFunction %void None %fn
%entry = OpLabel
OpMemoryBarrier %workgroup %semantics
OpReturn
OpFunctionEnd
)";
  const auto with = [&](const char* semantics) {
    std::string text = kernel;
    text.replace(text.find("{semantics}"), 11, semantics);
    return testing::ValidateText(text, "spv1.2");
  };
  EXPECT_CLEAN(with("264"));  // AcquireRelease | WorkgroupMemory
  EXPECT_RULE_AT(with("72"), "memory-semantics.capability", "OpMemoryBarrier",
                 "UniformMemory");  // AcquireRelease | UniformMemory
}

// Memory Semantics are OpConstant in shaders; SPV_NV_cooperative_matrix allows any constant
// instruction, whose value is then not known before specialization (issue 27: two such modules
// were rejected).
TEST(MemorySemanticsId, SpecConstantsWithCooperativeMatrixNV) {
  const std::string nv =
      "OpCapability CooperativeMatrixNV\nOpExtension \"SPV_NV_cooperative_matrix\"";
  const std::string spec =
      "%spec_volatile = OpSpecConstant %uint 32768\n"
      "%spec_volatile_2 = OpSpecConstant %uint 32768";
  const auto module = [&](const std::string& body, bool with_nv) {
    std::string text = Kernel(body, kVulkanModel, with_nv ? nv : "");
    text = Mutate(text, "%volatile = OpConstant %uint 32768",
                  "%volatile = OpConstant %uint 32768\n" + spec);
    return testing::ValidateText(text, kSpv);
  };
  const std::string barrier = "OpControlBarrier %device %device %spec_volatile";
  const std::string exchange =
      "%was = OpAtomicCompareExchange %uint %counter %workgroup %spec_volatile %spec_volatile_2 "
      "%one %one";
  EXPECT_CLEAN(module(barrier, true));
  EXPECT_CLEAN(module(exchange, true));
  EXPECT_RULE_AT(module(barrier, false), "memory-semantics.id", "OpControlBarrier",
                 "must be an OpConstant");
  // OpConstantNull is a known Relaxed (LLVM's SPIR-V backend emits it so).
  EXPECT_CLEAN(testing::ValidateText(
      Mutate(Kernel("%a = OpAtomicIAdd %uint %counter %workgroup %null %one", kGlsl450),
             "%relaxed = OpConstant %uint 0",
             "%relaxed = OpConstant %uint 0\n%null = OpConstantNull %uint"),
      kVk));
  EXPECT_RULE_AT(module("%v = OpIAdd %uint %one %one\nOpMemoryBarrier %workgroup %v", true),
                 "memory-semantics.id", "OpMemoryBarrier", "constant instruction");
}

// A memory Scope of QueueFamily needs VulkanMemoryModel; Device, under VulkanMemoryModel, needs
// VulkanMemoryModelDeviceScope; both for barriers, atomics and Memory Operands alike.
TEST(MemoryScope, VulkanMemoryModelCapabilities) {
  EXPECT_CLEAN(testing::ValidateText(
      Kernel("%a = OpAtomicIAdd %uint %counter %queue_family %relaxed %one", kVulkanModel), kVk));
  EXPECT_CLEAN(testing::ValidateText(
      Kernel("%a = OpAtomicIAdd %uint %counter %device %relaxed %one", kGlsl450), kVk));
  EXPECT_RULE_AT(
      testing::ValidateText(
          Kernel("%a = OpAtomicIAdd %uint %counter %queue_family %relaxed %one", kGlsl450), kSpv),
      "scope.memory-model", "OpAtomicIAdd", "QueueFamily");
  const auto without_device_scope = [](const std::string& body) {
    return testing::ValidateText(
        Mutate(Kernel(body, kVulkanModel), "OpCapability VulkanMemoryModelDeviceScope", ""), kVk);
  };
  EXPECT_RULE_AT(without_device_scope("OpControlBarrier %workgroup %device %acq_rel_wg"),
                 "scope.memory-model", "OpControlBarrier", "VulkanMemoryModelDeviceScope");
  EXPECT_RULE_AT(without_device_scope("%l = OpLoad %uint %counter "
                                      "MakePointerVisible|NonPrivatePointer %device"),
                 "scope.memory-model", "OpLoad", "VulkanMemoryModelDeviceScope");
  // Device as an execution Scope is no memory Scope.
  EXPECT_FALSE(
      testing::HasRule(without_device_scope("OpControlBarrier %device %workgroup %acq_rel_wg"),
                       "scope.memory-model"));
  // VUID-StandaloneSpirv-None-04638 on the Scope of a Memory Operand.
  EXPECT_RULE_AT(testing::ValidateText(Kernel("%l = OpLoad %uint %counter "
                                              "MakePointerVisible|NonPrivatePointer %cross_device",
                                              kVulkanModel),
                                       kVk),
                 "vulkan.memory-scope", "OpLoad", "CrossDevice");
}

// The availability and visibility Memory Operands of loads, stores and OpCopyMemory.
TEST(MemoryOperands, AvailabilityAndVisibility) {
  const auto check = [](const std::string& body) {
    return testing::ValidateText(Kernel(body, kVulkanModel), kVk);
  };
  EXPECT_CLEAN(
      check("%l = OpLoad %uint %counter MakePointerVisible|NonPrivatePointer %workgroup\n"
            "OpStore %staging %l MakePointerAvailable|NonPrivatePointer %workgroup\n"
            "OpCopyMemory %staging %counter MakePointerAvailable|NonPrivatePointer %workgroup "
            "MakePointerVisible|NonPrivatePointer %workgroup\n"
            "OpCopyMemory %staging %counter "
            "MakePointerAvailable|MakePointerVisible|NonPrivatePointer %workgroup %workgroup"));
  EXPECT_RULE_AT(check("%l = OpLoad %uint %counter MakePointerAvailable|NonPrivatePointer "
                       "%workgroup"),
                 "memory.operands", "OpLoad", "on a load");
  EXPECT_RULE_AT(check("OpStore %staging %one MakePointerVisible|NonPrivatePointer %workgroup"),
                 "memory.operands", "OpStore", "on a store");
  EXPECT_RULE_AT(check("OpCopyMemory %staging %counter MakePointerVisible|NonPrivatePointer "
                       "%workgroup None"),
                 "memory.operands", "OpCopyMemory", "Target");
  EXPECT_RULE_AT(check("OpCopyMemory %staging %counter None "
                       "MakePointerAvailable|NonPrivatePointer %workgroup"),
                 "memory.operands", "OpCopyMemory", "Source");
  EXPECT_RULE_AT(check("OpCopyMemory %staging %counter MakePointerAvailable %workgroup"),
                 "memory.operands", "OpCopyMemory", "NonPrivatePointer");
  EXPECT_RULE_AT(check("OpCopyMemory %staging %counter Aligned 4 Aligned 3"), "memory.operands",
                 "OpCopyMemory", "Aligned 3");
  // Before SPIR-V 1.4, OpCopyMemory has one Memory Operands mask.
  std::string old = Kernel("OpCopyMemory %staging %counter None None", kGlsl450);
  old = Mutate(old, "OpEntryPoint GLCompute %main \"main\" %counter %staging",
               "OpEntryPoint GLCompute %main \"main\"");
  EXPECT_RULE_AT(testing::ValidateText(old, "spv1.3"), "memory.operands", "OpCopyMemory",
                 "SPIR-V 1.4");
  EXPECT_CLEAN(testing::ValidateText(
      Mutate(old, "OpCopyMemory %staging %counter None None", "OpCopyMemory %staging %counter"),
      "spv1.3"));
}

}  // namespace
}  // namespace coopspv::val
