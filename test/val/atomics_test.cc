// Atomic, barrier and group-operation rules (source/val/atomics.cc, the Memory Semantics rule of
// scope.cc, the Vulkan Scope rules of vulkan.cc): the core test kernel with a Workgroup counter,
// one instruction added to its body.
#include <string>

#include "test/val/core_test_util.h"

namespace coopspv::val {
namespace {

using testing::CoreKernel;
using testing::Mutate;

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CoreKernelMutation);

// The core kernel with a 32-bit and a 64-bit Workgroup counter, Scope and Memory Semantics
// constants, and `body` after %sum.
std::string WithCounter(const std::string& body) {
  std::string text = Mutate(CoreKernel(), "OpCapability Shader",
                            "OpCapability Shader\nOpCapability Int64\n"
                            "OpCapability GroupNonUniform");
  text = Mutate(text, "OpEntryPoint GLCompute %main \"main\" %gid %buf %pc",
                "OpEntryPoint GLCompute %main \"main\" %gid %buf %pc %counter %counter64");
  text = Mutate(text, "%ptr_fn_ptr = OpTypePointer Function %ptr_fn_float",
                "%ptr_fn_ptr = OpTypePointer Function %ptr_fn_float\n"
                "%ulong = OpTypeInt 64 0\n"
                "%ulong_1 = OpConstant %ulong 1\n"
                "%wg = OpConstant %uint 2\n"
                "%sg = OpConstant %uint 3\n"
                "%acq_rel = OpConstant %uint 264\n"      // AcquireRelease | WorkgroupMemory
                "%acq_wg = OpConstant %uint 258\n"       // Acquire | WorkgroupMemory
                "%rel_wg = OpConstant %uint 260\n"       // Release | WorkgroupMemory
                "%acq_and_rel = OpConstant %uint 262\n"  // Acquire | Release | WorkgroupMemory
                "%ptr_wg_uint = OpTypePointer Workgroup %uint\n"
                "%ptr_wg_ulong = OpTypePointer Workgroup %ulong\n"
                "%ptr_fn_uint = OpTypePointer Function %uint\n"
                "%counter = OpVariable %ptr_wg_uint Workgroup\n"
                "%counter64 = OpVariable %ptr_wg_ulong Workgroup");
  return Mutate(text, "%sum = OpIAdd %uint %gx %uint_1",
                "%sum = OpIAdd %uint %gx %uint_1\n" + body);
}

Result Check(const std::string& body) {
  return testing::ValidateText(WithCounter(body), "vulkan1.3");
}

TEST(Atomics, WellFormedAtomicsAndBarriersValidate) {
  EXPECT_CLEAN(
      Check("%old = OpAtomicIAdd %uint %counter %wg %acq_rel %uint_1\n"
            "%cur = OpAtomicLoad %uint %counter %wg %acq_wg\n"
            "OpAtomicStore %counter %wg %rel_wg %cur\n"
            "%was = OpAtomicCompareExchange %uint %counter %wg %acq_rel %acq_wg %uint_5 %old\n"
            "%inc = OpAtomicIIncrement %uint %counter %wg %acq_rel\n"
            "OpControlBarrier %wg %wg %acq_rel\n"
            "OpMemoryBarrier %uint_1 %acq_rel\n"
            "%el = OpGroupNonUniformElect %bool %sg"));
}

TEST(Atomics, ResultAndOperandTypesAreChecked) {
  // An integer atomic with a float Result Type.
  EXPECT_RULE(Check("%old = OpAtomicIAdd %float %counter %wg %acq_rel %float_1"), "atomic.type");
  // Pointer points to a uint, the Result Type is int.
  EXPECT_RULE(Check("%old = OpAtomicIAdd %int %counter %wg %acq_rel %int_1"), "atomic.type");
  // Value is not of the Result Type.
  EXPECT_RULE(Check("%old = OpAtomicIAdd %uint %counter %wg %acq_rel %int_1"), "atomic.type");
  // A store's Value is not of the pointee type.
  EXPECT_RULE(Check("OpAtomicStore %counter %wg %acq_rel %float_1"), "atomic.type");
  // Comparator is not of the Result Type.
  EXPECT_RULE(Check("%was = OpAtomicCompareExchange %uint %counter %wg %acq_rel %acq_rel "
                    "%uint_5 %int_1"),
              "atomic.type");
  // Pointer is no pointer.
  EXPECT_RULE(Check("%old = OpAtomicIAdd %uint %gx %wg %acq_rel %uint_1"), "atomic.type");
}

TEST(Atomics, VulkanAtomicsAre32BitWithoutInt64Atomics) {
  EXPECT_RULE(Check("%old = OpAtomicIAdd %ulong %counter64 %wg %acq_rel %ulong_1"),
              "vulkan.atomic-width");
  std::string text = WithCounter("%old = OpAtomicIAdd %ulong %counter64 %wg %acq_rel %ulong_1");
  text = Mutate(text, "OpCapability Int64", "OpCapability Int64\nOpCapability Int64Atomics");
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
}

TEST(Atomics, MemorySemanticsSetAtMostOneOrdering) {
  EXPECT_RULE(Check("OpMemoryBarrier %wg %acq_and_rel"), "memory-semantics.order");
  EXPECT_RULE(Check("%cur = OpAtomicLoad %uint %counter %wg %acq_and_rel"),
              "memory-semantics.order");
}

TEST(Atomics, VulkanScopes) {
  // Execution Scope Device on a barrier.
  EXPECT_RULE(Check("OpControlBarrier %uint_1 %wg %acq_rel"), "vulkan.execution-scope");
  // Memory Scope CrossDevice (0).
  EXPECT_RULE(Check("OpMemoryBarrier %uint_0 %acq_rel"), "vulkan.memory-scope");
  EXPECT_RULE(Check("%old = OpAtomicIAdd %uint %counter %uint_0 %acq_rel %uint_1"),
              "vulkan.memory-scope");
  // A non-uniform group operation at Workgroup scope.
  EXPECT_RULE(Check("%el = OpGroupNonUniformElect %bool %wg"), "vulkan.non-uniform-scope");
  // Outside Vulkan these are the client API's business.
  const Result universal =
      testing::ValidateText(WithCounter("OpControlBarrier %uint_1 %wg %acq_rel"), "universal1.6");
  EXPECT_FALSE(testing::HasRule(universal, "vulkan.execution-scope")) << testing::Dump(universal);
}

// Atomics access memory of some storage classes only: never Private, PushConstant or (in shaders)
// Function; in Vulkan (VUID-StandaloneSpirv-None-04686) not AtomicCounter either.
TEST(Atomics, StorageClasses) {
  EXPECT_RULE_AT(Check("%old = OpAtomicIAdd %uint %n_ptr %wg %acq_rel %uint_1"),
                 "atomic.storage-class", "OpAtomicIAdd", "PushConstant");
  EXPECT_RULE_AT(Check("%tmpu = OpVariable %ptr_fn_uint Function\n"
                       "%old = OpAtomicIAdd %uint %tmpu %wg %acq_rel %uint_1"),
                 "atomic.storage-class", "OpAtomicIAdd", "Function storage");
  std::string text = WithCounter("%old = OpAtomicIAdd %uint %ac %wg %acq_rel %uint_1");
  text = Mutate(text, "OpCapability Int64", "OpCapability Int64\nOpCapability AtomicStorage");
  text = Mutate(text, "%counter = OpVariable %ptr_wg_uint Workgroup",
                "%counter = OpVariable %ptr_wg_uint Workgroup\n"
                "%ptr_ac_uint = OpTypePointer AtomicCounter %uint\n"
                "%ac = OpVariable %ptr_ac_uint AtomicCounter");
  EXPECT_RULE_AT(testing::ValidateText(text, "vulkan1.3"), "vulkan.atomic-storage-class",
                 "OpAtomicIAdd", "AtomicCounter");
  EXPECT_FALSE(
      testing::HasRule(testing::ValidateText(text, "spv1.6"), "vulkan.atomic-storage-class"));
  EXPECT_FALSE(testing::HasRule(testing::ValidateText(text, "spv1.6"), "atomic.storage-class"));
}

// VUID-StandaloneSpirv-MemorySemantics-10870: an ordering names a storage class.
TEST(Atomics, OrderingWithoutStorageClass) {
  const auto with_release = [](const std::string& body, const char* env) {
    return testing::ValidateText(Mutate(WithCounter(body), "%wg = OpConstant %uint 2",
                                        "%wg = OpConstant %uint 2\n%rel = OpConstant %uint 4"),
                                 env);
  };
  EXPECT_RULE_AT(with_release("OpControlBarrier %wg %wg %rel", "vulkan1.3"),
                 "vulkan.memory-semantics-storage", "OpControlBarrier", "names no UniformMemory");
  EXPECT_RULE(with_release("%old = OpAtomicIAdd %uint %counter %wg %rel %uint_1", "vulkan1.3"),
              "vulkan.memory-semantics-storage");
  // Relaxed (0) needs none; outside Vulkan the rule does not apply.
  EXPECT_CLEAN(with_release("OpControlBarrier %wg %wg %uint_0", "vulkan1.3"));
  EXPECT_FALSE(testing::HasRule(with_release("OpControlBarrier %wg %wg %rel", "spv1.6"),
                                "vulkan.memory-semantics-storage"));
}

// SPV_NV_shader_atomic_fp16_vector: with AtomicFloat16VectorNV, exchanges and the float atomics
// take vectors of two or four 16-bit floats; AtomicFloat16AddEXT's own extension enables
// OpAtomicFAddEXT.
std::string WithHalfCounter(const std::string& capability, const std::string& type,
                            const std::string& body) {
  std::string text = WithCounter(body);
  text =
      Mutate(text, "OpCapability Int64", "OpCapability Int64\nOpCapability Float16\n" + capability);
  const std::string entry =
      "OpEntryPoint GLCompute %main \"main\" %gid %buf %pc %counter %counter64";
  text = Mutate(text, entry, entry + " %hcounter");
  text = Mutate(text, "%glsl = OpExtInstImport \"GLSL.std.450\"",
                std::string(capability == "OpCapability AtomicFloat16VectorNV"
                                ? "OpExtension \"SPV_NV_shader_atomic_fp16_vector\"\n"
                                : "OpExtension \"SPV_EXT_shader_atomic_float16_add\"\n") +
                    "%glsl = OpExtInstImport \"GLSL.std.450\"");
  text = Mutate(text, "%counter64 = OpVariable %ptr_wg_ulong Workgroup",
                "%counter64 = OpVariable %ptr_wg_ulong Workgroup\n"
                "%half = OpTypeFloat 16\n%v2half = OpTypeVector %half 2\n"
                "%v3half = OpTypeVector %half 3\n"
                "%half_1 = OpConstant %half 1\n" +
                    (type == "%half" ? std::string()
                                     : "%h = OpConstantComposite " + type +
                                           (type == "%v2half" ? " %half_1 %half_1"
                                                              : " %half_1 %half_1 %half_1")) +
                    "\n%ptr_wg_h = OpTypePointer Workgroup " + type +
                    "\n%hcounter = OpVariable %ptr_wg_h Workgroup");
  return text;
}

TEST(Atomics, HalfVectors) {
  const std::string add = "%r = OpAtomicFAddEXT %v2half %hcounter %wg %uint_0 %h";
  EXPECT_CLEAN(testing::ValidateText(
      WithHalfCounter("OpCapability AtomicFloat16VectorNV", "%v2half", add), "vulkan1.3"));
  EXPECT_CLEAN(testing::ValidateText(
      WithHalfCounter("OpCapability AtomicFloat16AddEXT", "%half",
                      "%r = OpAtomicFAddEXT %half %hcounter %wg %uint_0 %half_1"),
      "vulkan1.3"));
  EXPECT_RULE_AT(testing::ValidateText(
                     WithHalfCounter("OpCapability AtomicFloat16VectorNV", "%v3half",
                                     "%r = OpAtomicFMinEXT %v3half %hcounter %wg %uint_0 %h"),
                     "vulkan1.3"),
                 "atomic.type", "OpAtomicFMinEXT", "two or four 16-bit floats");
}

}  // namespace
}  // namespace coopspv::val
