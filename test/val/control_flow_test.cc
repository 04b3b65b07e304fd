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

}  // namespace
}  // namespace coopspv::val
