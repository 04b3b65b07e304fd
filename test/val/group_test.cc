// Tests of the non-uniform group instruction rules (source/val/group.cc): one instruction at a
// time in a small compute kernel, valid and broken.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

std::string Kernel(const std::string& instruction) {
  return R"(
               OpCapability Shader
               OpCapability GroupNonUniform
               OpCapability GroupNonUniformVote
               OpCapability GroupNonUniformBallot
               OpCapability GroupNonUniformShuffle
               OpCapability GroupNonUniformArithmetic
               OpCapability GroupNonUniformClustered
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
     %v4uint = OpTypeVector %uint 4
      %v4int = OpTypeVector %int 4
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
      %int_1 = OpConstant %int 1
       %true = OpConstantTrue %bool
    %float_1 = OpConstant %float 1
     %ballot = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1
    %sballot = OpConstantComposite %v4int %int_1 %int_1 %int_1 %int_1
     %uint_2 = OpConstant %uint 2
        %ptr = OpTypePointer Function %uint
       %main = OpFunction %void None %fn
          %l = OpLabel
        %var = OpVariable %ptr Function
        %dyn = OpLoad %uint %var
          %x = )" +
         instruction + R"(
               OpReturn
               OpFunctionEnd
)";
}

using Case = testing::InstructionCase;

class GroupCase : public ::testing::TestWithParam<Case> {};

TEST_P(GroupCase, IsReportedWithItsRule) {
  const Case& c = GetParam();
  const Result r = testing::ValidateText(Kernel(c.instruction), c.env);
  testing::ExpectCase(r, c.rule, "OpGroupNonUniform");
}

INSTANTIATE_TEST_SUITE_P(
    Group, GroupCase,
    ::testing::Values(
        Case{"OpGroupNonUniformElect %bool %uint_3", "spv1.3", ""},
        Case{"OpGroupNonUniformElect %uint %uint_3", "spv1.3", "group.operand"},
        Case{"OpGroupNonUniformElect %bool %uint_1", "spv1.3", "group.scope"},
        Case{"OpGroupNonUniformElect %bool %uint_1", "vulkan1.1", "vulkan.non-uniform-scope"},
        Case{"OpGroupNonUniformAll %bool %uint_3 %true", "vulkan1.1", ""},
        Case{"OpGroupNonUniformAll %bool %uint_3 %uint_1", "vulkan1.1", "group.operand"},
        Case{"OpGroupNonUniformAllEqual %bool %uint_3 %float_1", "vulkan1.1", ""},
        Case{"OpGroupNonUniformAllEqual %uint %uint_3 %uint_1", "vulkan1.1", "group.operand"},
        Case{"OpGroupNonUniformBallot %v4uint %uint_3 %true", "vulkan1.1", ""},
        Case{"OpGroupNonUniformBallot %v4int %uint_3 %true", "vulkan1.1", "group.operand"},
        Case{"OpGroupNonUniformInverseBallot %bool %uint_3 %uint_1", "vulkan1.1", "group.operand"},
        Case{"OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %ballot", "vulkan1.1", ""},
        Case{"OpGroupNonUniformBallotBitCount %int %uint_3 Reduce %ballot", "vulkan1.1",
             "group.operand"},
        Case{"OpGroupNonUniformBallotBitCount %uint %uint_3 ClusteredReduce %ballot", "vulkan1.1",
             "group.operation"},
        Case{"OpGroupNonUniformBallotFindLSB %uint %uint_3 %ballot", "vulkan1.1", ""},
        Case{"OpGroupNonUniformBallotBitExtract %bool %uint_3 %ballot %int_1", "vulkan1.1",
             "group.operand"},
        Case{"OpGroupNonUniformBroadcast %float %uint_3 %float_1 %uint_1", "vulkan1.1", ""},
        Case{"OpGroupNonUniformBroadcast %float %uint_3 %float_1 %int_1", "vulkan1.1",
             "group.operand"},
        Case{"OpGroupNonUniformBroadcast %float %uint_3 %float_1 %dyn", "vulkan1.1",
             "group.operand"},
        Case{"OpGroupNonUniformBroadcast %float %uint_3 %float_1 %dyn", "vulkan1.2", ""},
        Case{"OpGroupNonUniformBroadcastFirst %float %uint_3 %uint_1", "vulkan1.1",
             "group.operand"},
        Case{"OpGroupNonUniformShuffle %float %uint_3 %float_1 %dyn", "vulkan1.1", ""},
        Case{"OpGroupNonUniformShuffle %float %uint_3 %uint_1 %dyn", "vulkan1.1", "group.operand"},
        Case{"OpGroupNonUniformShuffleXor %float %uint_3 %float_1 %int_1", "vulkan1.1",
             "group.operand"},
        Case{"OpGroupNonUniformIAdd %uint %uint_3 Reduce %uint_1", "vulkan1.1", ""},
        Case{"OpGroupNonUniformIAdd %float %uint_3 Reduce %float_1", "vulkan1.1", "group.operand"},
        Case{"OpGroupNonUniformFMax %float %uint_3 InclusiveScan %uint_1", "vulkan1.1",
             "group.operand"},
        Case{"OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %uint_1 %uint_4", "vulkan1.1",
             ""},
        Case{"OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %uint_1", "vulkan1.1",
             "group.cluster-size"},
        Case{"OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %uint_1 %dyn", "vulkan1.1",
             "group.cluster-size"},
        Case{"OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %uint_1 %int_1", "vulkan1.1",
             "group.cluster-size"}));

// A ClusterSize that is not a power of 2 makes behavior undefined, not the module invalid.
TEST(Group, ClusterSizeNotAPowerOfTwoIsAWarning) {
  const Result r = testing::ValidateText(
      Kernel("OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %uint_1 %uint_3"), "vulkan1.1");
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(
      testing::RuleAt(r, "group.cluster-size-value", "OpGroupNonUniformIAdd", "not a power of 2"));
}

// SPV_NV_shader_subgroup_partitioned: the Partitioned operations take a Ballot where
// ClusteredReduce takes a ClusterSize.
TEST(Group, PartitionedOperationsTakeABallot) {
  const auto partitioned = [](const std::string& instruction) {
    return testing::Mutate(Kernel(instruction), "OpCapability GroupNonUniformClustered",
                           "OpCapability GroupNonUniformClustered\n"
                           "OpCapability GroupNonUniformPartitionedNV\n"
                           "OpExtension \"SPV_NV_shader_subgroup_partitioned\"");
  };
  EXPECT_CLEAN(testing::ValidateText(
      partitioned("OpGroupNonUniformIAdd %uint %uint_3 PartitionedReduceNV %uint_1 %ballot"),
      "vulkan1.1"));
  // The extensions ask for four 32-bit integers, of either signedness.
  EXPECT_CLEAN(testing::ValidateText(
      partitioned("OpGroupNonUniformIAdd %int %uint_3 PartitionedInclusiveScanNV %int_1 %sballot"),
      "vulkan1.1"));
  const Result r = testing::ValidateText(
      partitioned("OpGroupNonUniformIAdd %uint %uint_3 PartitionedReduceNV %uint_1 %uint_1"),
      "vulkan1.1");
  EXPECT_RULE_AT(r, "group.partition-ballot", "OpGroupNonUniformIAdd",
                 "Ballot %uint_1 has type %uint; it must be a vector of four");
  const Result missing = testing::ValidateText(
      partitioned("OpGroupNonUniformUMax %uint %uint_3 PartitionedExclusiveScanNV %uint_1"),
      "vulkan1.1");
  EXPECT_RULE_AT(missing, "group.partition-ballot", "OpGroupNonUniformUMax", "needs a Ballot");
  testing::ExpectOnly(missing, "group.partition-ballot");
}

// OpGroupNonUniformUMin / UMax work on unsigned integers: their Result Type (and so the Value)
// has Signedness 0; SMin / SMax take either.
TEST(Group, UnsignedMinMaxNeedUnsignedIntegers) {
  EXPECT_CLEAN(testing::ValidateText(Kernel("OpGroupNonUniformUMin %uint %uint_3 Reduce %uint_1"),
                                     "vulkan1.1"));
  EXPECT_CLEAN(testing::ValidateText(Kernel("OpGroupNonUniformSMax %uint %uint_3 Reduce %uint_1"),
                                     "vulkan1.1"));
  for (const char* instruction : {"OpGroupNonUniformUMin %int %uint_3 Reduce %int_1",
                                  "OpGroupNonUniformUMax %v4int %uint_3 InclusiveScan %sballot"}) {
    const Result r = testing::ValidateText(Kernel(instruction), "vulkan1.1");
    EXPECT_RULE_AT(r, "group.operand", "OpGroupNonUniformUM", "whose Signedness is 0");
  }
}

// OpGroupNonUniformQuadSwap's Direction comes from a constant instruction in every version.
TEST(Group, QuadSwapDirectionIsAConstant) {
  const auto quad = [](const std::string& instruction) {
    return testing::Mutate(Kernel(instruction), "OpCapability GroupNonUniformClustered",
                           "OpCapability GroupNonUniformClustered\n"
                           "OpCapability GroupNonUniformQuad");
  };
  EXPECT_CLEAN(testing::ValidateText(
      quad("OpGroupNonUniformQuadSwap %float %uint_3 %float_1 %uint_1"), "vulkan1.2"));
  for (const char* env : {"vulkan1.1", "vulkan1.2", "spv1.5"}) {
    const Result r =
        testing::ValidateText(quad("OpGroupNonUniformQuadSwap %float %uint_3 %float_1 %dyn"), env);
    EXPECT_RULE_AT(r, "group.operand", "OpGroupNonUniformQuadSwap",
                   "must come from a constant instruction");
  }
}

// SPV_KHR_subgroup_rotate: Execution is Workgroup or Subgroup; Vulkan allows Subgroup only
// (VUID-StandaloneSpirv-None-04642).
TEST(Group, RotateScopes) {
  const auto rotate = [](const std::string& instruction) {
    return testing::Mutate(Kernel(instruction), "OpCapability GroupNonUniformClustered",
                           "OpCapability GroupNonUniformClustered\n"
                           "OpCapability GroupNonUniformRotateKHR\n"
                           "OpExtension \"SPV_KHR_subgroup_rotate\"");
  };
  EXPECT_CLEAN(testing::ValidateText(
      rotate("OpGroupNonUniformRotateKHR %float %uint_3 %float_1 %uint_1"), "vulkan1.1"));
  EXPECT_CLEAN(testing::ValidateText(
      rotate("OpGroupNonUniformRotateKHR %float %uint_2 %float_1 %uint_1 %uint_4"), "spv1.3"));
  EXPECT_RULE_AT(
      testing::ValidateText(rotate("OpGroupNonUniformRotateKHR %float %uint_1 %float_1 %uint_1"),
                            "spv1.3"),
      "group.scope", "OpGroupNonUniformRotateKHR", "Workgroup or Subgroup");
  EXPECT_RULE_AT(
      testing::ValidateText(rotate("OpGroupNonUniformRotateKHR %float %uint_2 %float_1 %uint_1"),
                            "vulkan1.1"),
      "vulkan.non-uniform-scope", "OpGroupNonUniformRotateKHR");
}

}  // namespace
}  // namespace coopspv::val
