// Tests of the memory rules (source/val/memory.cc): loads, stores, copies, access chains and
// variables, each broken in one line of the core test kernel.
#include <string>

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

// SPV_KHR_untyped_pointers: through an untyped pointer the load's Result Type, the store's
// Object and the atomic's Result Type say what is accessed; a Function variable needs its Data
// Type.
std::string UntypedKernel(const std::string& body) {
  return R"(
OpCapability Shader
OpCapability UntypedPointersKHR
OpExtension "SPV_KHR_untyped_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
%uptr_fn = OpTypeUntypedPointerKHR Function
%ptr_fn_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
)" + body +
         R"(
OpReturn
OpFunctionEnd
)";
}

TEST(Memory, UntypedPointersLoadAndStoreAnyType) {
  EXPECT_CLEAN(testing::ValidateText(UntypedKernel(R"(
%var = OpUntypedVariableKHR %uptr_fn Function %uint
%typed = OpVariable %ptr_fn_uint Function
OpStore %var %float_1
%f = OpLoad %float %var
%u = OpLoad %uint %var
OpCopyMemory %typed %var
OpCopyMemory %var %typed
)"),
                                     "vulkan1.3"));
  EXPECT_RULE_AT(testing::ValidateText(
                     UntypedKernel("%var = OpUntypedVariableKHR %uptr_fn Function"), "vulkan1.3"),
                 "memory.variable", "OpUntypedVariableKHR", "no Data Type");
  EXPECT_RULE_AT(testing::ValidateText(UntypedKernel(R"(
%var = OpUntypedVariableKHR %uptr_fn Function %uint
%other = OpUntypedVariableKHR %uptr_fn Function %uint
OpCopyMemory %var %other
)"),
                                       "vulkan1.3"),
                 "memory.copy", "OpCopyMemory", "both untyped");
  EXPECT_RULE_AT(testing::ValidateText(
                     UntypedKernel("%var = OpUntypedVariableKHR %uptr_fn Function %uint %float_1"),
                     "vulkan1.3"),
                 "memory.variable", "OpUntypedVariableKHR", "Initializer");
}

// SPV_KHR_untyped_pointers: an untyped access chain walks its Base Type, which is a non-pointer
// type, and results in an untyped pointer of Base's storage class.
TEST(Memory, UntypedAccessChainsWalkTheirBaseType) {
  std::string text =
      testing::Mutate(UntypedKernel(""), "%float_1 = OpConstant %float 1",
                      "%float_1 = OpConstant %float 1\n%uint_2 = OpConstant %uint 2\n"
                      "%arr_t = OpTypeArray %uint %uint_2");
  text = testing::Mutate(text, "%entry = OpLabel",
                         "%entry = OpLabel\n%var = OpUntypedVariableKHR %uptr_fn Function %arr_t\n"
                         "%elem = OpUntypedAccessChainKHR %uptr_fn %arr_t %var %uint_1\n"
                         "OpStore %elem %uint_1");
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  EXPECT_RULE_AT(
      testing::ValidateText(
          testing::Mutate(text, "%elem = OpUntypedAccessChainKHR %uptr_fn %arr_t %var %uint_1",
                          "%elem = OpUntypedAccessChainKHR %ptr_fn_uint %arr_t %var %uint_1"),
          "vulkan1.3"),
      "memory.access-chain", "OpUntypedAccessChainKHR", "OpTypeUntypedPointerKHR");
  EXPECT_RULE_AT(
      testing::ValidateText(
          testing::Mutate(text, "%elem = OpUntypedAccessChainKHR %uptr_fn %arr_t %var %uint_1",
                          "%elem = OpUntypedAccessChainKHR %uptr_fn %uptr_fn %var %uint_1"),
          "vulkan1.3"),
      "memory.access-chain", "OpUntypedAccessChainKHR", "non-pointer type");
  EXPECT_RULE_AT(
      testing::ValidateText(
          testing::Mutate(text, "%elem = OpUntypedAccessChainKHR %uptr_fn %arr_t %var %uint_1",
                          "%elem = OpUntypedAccessChainKHR %uptr_fn %arr_t %var %uint_1 %uint_0"),
          "vulkan1.3"),
      "memory.access-chain", "OpUntypedAccessChainKHR", "not a composite");
}

// SPIR-V OpLoad: Result Type has a fixed size. SPIR-V 2.16.1: no negative signed constant
// index in OpAccessChain.
TEST(Memory, LoadOfRuntimeArrayAndNegativeIndex) {
  std::string text = testing::Mutate(testing::CoreKernel(), "%x = OpLoad %float %elem",
                                     "%x = OpLoad %float %elem\n%whole = OpLoad %Buf %buf");
  EXPECT_RULE_AT(testing::ValidateText(text, "vulkan1.3"), "memory.load", "OpLoad",
                 "runtime array");
  text = testing::Mutate(testing::CoreKernel(), "%uint_5 = OpConstant %uint 5",
                         "%uint_5 = OpConstant %uint 5\n%int_m1 = OpConstant %int -1");
  text = testing::Mutate(text, "%elem = OpAccessChain %ptr_sb_float %buf %uint_0 %gx",
                         "%elem = OpAccessChain %ptr_sb_float %buf %uint_0 %int_m1");
  EXPECT_RULE_AT(testing::ValidateText(text, "vulkan1.3"), "memory.access-chain", "OpAccessChain",
                 "negative");
}

// Vulkan: no store of an image object (VUID-06924), none into a Uniform Block (VUID-06925), and
// Uniform / StorageBuffer variables are structs or arrays of them (VUID-06807).
TEST(Memory, VulkanStores) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %ubo
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %UBO Block
OpMemberDecorate %UBO 0 Offset 0
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%UBO = OpTypeStruct %uint
%ptr_u_UBO = OpTypePointer Uniform %UBO
%ptr_u_uint = OpTypePointer Uniform %uint
%ubo = OpVariable %ptr_u_UBO Uniform
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%ptr_fn_img = OpTypePointer Function %img
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptr_fn_img Function
%field = OpAccessChain %ptr_u_uint %ubo %uint_0
%v = OpLoad %uint %field
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  EXPECT_RULE_AT(
      testing::ValidateText(
          testing::Mutate(text, "%v = OpLoad %uint %field", "OpStore %field %uint_0"), "vulkan1.3"),
      "vulkan.store-uniform-block", "OpStore");
  EXPECT_RULE_AT(
      testing::ValidateText(testing::Mutate(text, "%v = OpLoad %uint %field",
                                            "%i = OpLoad %img %local\nOpStore %local %i"),
                            "vulkan1.3"),
      "vulkan.store-opaque", "OpStore");
  EXPECT_RULE_AT(
      testing::ValidateText(testing::Mutate(text, "%ubo = OpVariable %ptr_u_UBO Uniform",
                                            "%ubo = OpVariable %ptr_u_UBO Uniform\n"
                                            "%ptr_u_float = OpTypePointer Uniform %float\n"
                                            "%bad = OpVariable %ptr_u_float Uniform"),
                            "vulkan1.3"),
      "vulkan.buffer-variable-type", "OpVariable", "Uniform variable");
}

// OpArrayLength: a 32-bit unsigned result, the last member of the structure, a runtime array.
TEST(MemoryArrayLength, ResultTypeAndLastRuntimeArrayMember) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rt ArrayStride 4
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%rt = OpTypeRuntimeArray %uint
%S = OpTypeStruct %uint %rt
%ptr = OpTypePointer StorageBuffer %S
%buf = OpVariable %ptr StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%n = OpArrayLength RESULT %buf MEMBER
OpReturn
OpFunctionEnd
)";
  auto with = [&](const char* result, const char* member) {
    std::string t = text;
    t.replace(t.find("RESULT"), 6, result);
    t.replace(t.find("MEMBER"), 6, member);
    return testing::ValidateText(t, "vulkan1.3");
  };
  EXPECT_CLEAN(with("%uint", "1"));
  EXPECT_RULE_AT(with("%int", "1"), "memory.array-length", "OpArrayLength", "unsigned");
  EXPECT_RULE_AT(with("%uint", "0"), "memory.array-length", "OpArrayLength", "last member");
}

}  // namespace
}  // namespace coopspv::val
