// Tests of the control-flow operand rules (source/val/control_flow.cc), each broken in one
// line of the core test kernel.
#include "test/val/core_test_util.h"

namespace coopspv::val {
namespace {

using testing::CoreKernelMutation;
using testing::Mutation;

constexpr Mutation kMutations[] = {
    {"ConditionNotBool", "OpBranchConditional %in_range %body %merge",
     "OpBranchConditional %gx %body %merge", "cfg.condition"},
    {"BackEdgeToBlockThatIsNotALoopHeader", "OpBranch %merge", "OpBranch %entry", "cfg.structure"},
    {"SwitchOnUintOk", "OpBranchConditional %in_range %body %merge", "OpSwitch %gx %merge 0 %body",
     ""},
    {"SwitchOnFloat", "OpBranchConditional %in_range %body %merge", "OpSwitch %float_1 %merge",
     "cfg.condition"},
};

INSTANTIATE_TEST_SUITE_P(ControlFlow, CoreKernelMutation, ::testing::ValuesIn(kMutations),
                         testing::MutationName);

// A selection, then a loop: header, body, continue target, merge.
constexpr const char* kLoop = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %true = OpConstantTrue %bool
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpSelectionMerge %pre None
               OpBranchConditional %true %pre %side
       %side = OpLabel
               OpBranch %pre
        %pre = OpLabel
               OpBranch %header
     %header = OpLabel
               OpLoopMerge %exit %cont None
               OpBranchConditional %true %body %exit
       %body = OpLabel
               OpBranch %cont
       %cont = OpLabel
               OpBranch %header
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)";

TEST(ControlFlow, LoopValidatesClean) { EXPECT_CLEAN(testing::ValidateText(kLoop, "vulkan1.3")); }

// 2.11: a loop is entered only through its header; %side jumps into the body.
TEST(ControlFlow, BranchIntoLoopBodyIsRejected) {
  EXPECT_RULE_AT(
      testing::ValidateText(testing::Mutate(kLoop, "OpBranch %pre", "OpBranch %body"), "vulkan1.3"),
      "cfg.structure", "OpBranch", "a loop is entered only through its header");
  // Into the continue target as well.
  EXPECT_RULE_AT(
      testing::ValidateText(testing::Mutate(kLoop, "OpBranch %pre", "OpBranch %cont"), "vulkan1.3"),
      "cfg.structure", "OpBranch", "a loop is entered only through its header");
}

// 2.11 / OpLoopMerge: the Merge Block is not the Continue Target.
TEST(ControlFlow, LoopMergeIsNotTheContinueTarget) {
  EXPECT_RULE_AT(testing::ValidateText(testing::Mutate(kLoop, "OpLoopMerge %exit %cont None",
                                                       "OpLoopMerge %cont %cont None"),
                                       "spv1.5"),
                 "cfg.loop-merge", "OpLoopMerge", "Continue Target are both");
}

// 2.11: a header dominates its merge block and a loop header its continue target.
TEST(ControlFlow, HeaderDominatesMergeAndContinue) {
  // A merge block reached before the header.
  EXPECT_RULE_AT(testing::ValidateText(testing::Mutate(kLoop, "OpLoopMerge %exit %cont None",
                                                       "OpLoopMerge %side %cont None"),
                                       "vulkan1.3"),
                 "cfg.structure", "OpLoopMerge", "does not dominate its merge block");
  // A continue target outside the loop, reached before its header.
  EXPECT_RULE_AT(testing::ValidateText(testing::Mutate(kLoop, "OpLoopMerge %exit %cont None",
                                                       "OpLoopMerge %exit %side None"),
                                       "vulkan1.3"),
                 "cfg.structure", "OpLoopMerge", "does not dominate its continue target");
}

}  // namespace
}  // namespace coopspv::val
