// Tests of the memory rules (source/val/memory.cc): loads, stores, copies, access chains and
// variables, each broken in one line of the core test kernel.
#include "test/val/core_test_util.h"

namespace coopspv::val {
namespace {

using testing::CoreKernelMutation;
using testing::Mutation;

constexpr Mutation kMutations[] = {
    {"LoadResultNotPointee", "%x = OpLoad %float %elem", "%x = OpLoad %uint %elem", "memory.load"},
    {"LoadFromNonPointer", "%x = OpLoad %float %elem", "%x = OpLoad %float %float_1",
     "memory.load"},
    {"StoreObjectNotPointee", "OpStore %tmp %e", "OpStore %tmp %gx", "memory.store"},
    {"StoreThroughNonPointer", "OpStore %tmp %e", "OpStore %e %e", "memory.store"},
    {"StoreToPushConstant", "OpStore %tmp %e", "OpStore %n_ptr %gx", "memory.store"},
    {"StoreToInput", "OpStore %tmp %e", "OpStore %gx_ptr %gx", "memory.store"},
    {"CopyObjectOk", "%x = OpLoad %float %elem",
     "%x = OpLoad %float %elem\n%c = OpCopyObject %float %x", ""},
    {"CopyObjectOtherType", "%x = OpLoad %float %elem",
     "%x = OpLoad %float %elem\n%c = OpCopyObject %uint %x", "memory.copy"},
    {"CopyMemoryOk", "OpStore %tmp %e", "OpCopyMemory %tmp %elem", ""},
    {"CopyMemoryOtherPointee", "OpStore %tmp %e", "OpCopyMemory %tmp %gx_ptr", "memory.copy"},
    {"AccessChainResultNotPointer", "%elem = OpAccessChain %ptr_sb_float %buf %uint_0 %gx",
     "%elem = OpAccessChain %float %buf %uint_0 %gx", "memory.access-chain"},
    {"AccessChainStorageClass", "%elem = OpAccessChain %ptr_sb_float %buf %uint_0 %gx",
     "%elem = OpAccessChain %ptr_fn_float %buf %uint_0 %gx", "memory.access-chain"},
    {"AccessChainBaseNotPointer", "%gx_ptr = OpAccessChain %ptr_in_uint %gid %uint_0",
     "%gx_ptr = OpAccessChain %ptr_in_uint %uint_0 %uint_0", "memory.access-chain"},
    {"AccessChainSelectsOtherType", "%n_ptr = OpAccessChain %ptr_pc_uint %pc %uint_0",
     "%n_ptr = OpAccessChain %ptr_pc_uint %pc %uint_1", "memory.access-chain"},
    {"AccessChainStructIndexNotConstant", "%n_ptr = OpAccessChain %ptr_pc_uint %pc %uint_0",
     "%n_ptr = OpAccessChain %ptr_pc_uint %pc %spec", "memory.access-chain"},
    {"AccessChainStructIndexOutOfRange", "%n_ptr = OpAccessChain %ptr_pc_uint %pc %uint_0",
     "%n_ptr = OpAccessChain %ptr_pc_uint %pc %uint_5", "memory.access-chain"},
    {"AccessChainFloatIndex", "%elem = OpAccessChain %ptr_sb_float %buf %uint_0 %gx",
     "%elem = OpAccessChain %ptr_sb_float %buf %uint_0 %float_1", "memory.access-chain"},
    {"AccessChainIndexesPastScalar", "%gx_ptr = OpAccessChain %ptr_in_uint %gid %uint_0",
     "%gx_ptr = OpAccessChain %ptr_in_uint %gid %uint_0 %uint_0", "memory.access-chain"},
    {"StoreAlignedOk", "OpStore %tmp %e", "OpStore %tmp %e Aligned 4", ""},
    {"StoreAlignedNotPowerOfTwo", "OpStore %tmp %e", "OpStore %tmp %e Aligned 3",
     "memory.operands"},
    {"VariableInitializerType", "%tmp = OpVariable %ptr_fn_float Function %float_1",
     "%tmp = OpVariable %ptr_fn_float Function %uint_1", "memory.variable"},
    {"VariableHoldsFunctionPointer", "%vec = OpVariable %ptr_fn_v2 Function",
     "%vec = OpVariable %ptr_fn_v2 Function\n%pp = OpVariable %ptr_fn_ptr Function",
     "memory.variable"},
};

INSTANTIATE_TEST_SUITE_P(Memory, CoreKernelMutation, ::testing::ValuesIn(kMutations),
                         testing::MutationName);

// Logical addressing: a variable holds no pointer, even inside an array of structures, but
// StorageBuffer pointers with VariablePointersStorageBuffer.
TEST(Memory, VariableHoldsPointersInAggregates) {
  std::string text = testing::Mutate(
      testing::CoreKernel(), "%ptr_fn_ptr = OpTypePointer Function %ptr_fn_float",
      "%ptr_fn_ptr = OpTypePointer Function %ptr_fn_float\n"
      "%Holder = OpTypeStruct %uint %ptr_sb_float\n%arr_h = OpTypeArray %Holder %uint_5\n"
      "%ptr_fn_h = OpTypePointer Function %arr_h");
  text =
      testing::Mutate(text, "%vec = OpVariable %ptr_fn_v2 Function",
                      "%vec = OpVariable %ptr_fn_v2 Function\n%h = OpVariable %ptr_fn_h Function");
  EXPECT_RULE_AT(testing::ValidateText(text, "vulkan1.3"), "memory.variable", "OpVariable",
                 "(%_ptr_StorageBuffer_float) into StorageBuffer");
  EXPECT_CLEAN(testing::ValidateText(
      testing::Mutate(text, "OpCapability Shader",
                      "OpCapability Shader\nOpCapability VariablePointersStorageBuffer"),
      "vulkan1.3"));
  // A Function pointer is never allowed.
  EXPECT_RULE(
      testing::ValidateText(testing::Mutate(text, "%Holder = OpTypeStruct %uint %ptr_sb_float",
                                            "%Holder = OpTypeStruct %uint %ptr_fn_float"),
                            "vulkan1.3"),
      "memory.variable");
}

}  // namespace
}  // namespace coopspv::val
