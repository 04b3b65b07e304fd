// Control flow instructions' operand types (SPIR-V 3.42.17): OpBranchConditional's Condition is
// a Boolean scalar, OpSwitch's Selector an integer scalar whose width its literals follow.
#include <string>

#include "source/val/core.h"

namespace coopspv::val {

void ValidateControlFlow(ValidationState& state) {
  const ir::Module& m = state.module();
  for (InstIndex i = m.global_end(); i < m.num_instructions() && !state.Full(); ++i) {
    const Op op = m.opcode(i);
    if ((op != Op::BranchConditional && op != Op::Switch) || m.num_words(i) < 2) continue;
    const Id value = m.word(i, 1);
    const Op def = state.DefOp(value);
    const Id type = state.TypeOf(value);
    if (def == Op::Nop || def == Op::Function || type == 0) continue;  // The id rules.
    if (op == Op::BranchConditional && !state.IsBoolType(type)) {
      state.Report("cfg.condition", i,
                   state.Describe(i) + ": Condition " + state.Name(value) + " has type " +
                       state.Name(type) + "; it must be a Boolean scalar");
    } else if (op == Op::Switch && !state.IsIntType(type)) {
      state.Report("cfg.condition", i,
                   state.Describe(i) + ": Selector " + state.Name(value) + " has type " +
                       state.Name(type) + "; it must be an integer scalar");
    }
  }
}

}  // namespace coopspv::val
