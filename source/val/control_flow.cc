// Control flow instructions' operand types (SPIR-V 3.42.17): OpBranchConditional's Condition is
// a Boolean scalar, OpSwitch's Selector an integer scalar whose width its literals follow.
#include <string>
#include <vector>

#include "source/ir/analyses.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// 2.11 Structured Control Flow: a block is the merge block of at most one header; a back edge
// (to a block that dominates its source) goes to a loop header, and every loop header whose
// continue target is reachable has exactly one back edge.
void CheckStructure(ValidationState& state) {
  const ir::Module& m = state.module();
  const ir::Cfg& cfg = m.cfg();
  const ir::DominatorTree& dom = m.dominators();
  const auto blocks = m.blocks();
  const uint32_t n = static_cast<uint32_t>(blocks.size());
  std::vector<uint32_t> merge_of(n, ~0u);  // The header whose merge block each block is.
  std::vector<uint32_t> back_edges(n, 0);
  for (uint32_t b = 0; b < n && !state.Full(); ++b) {
    const uint32_t merge = cfg.merge_block(b);
    if (cfg.merge_kind(b) != ir::MergeKind::kNone && merge < n) {
      if (merge_of[merge] != ~0u) {
        state.Report("cfg.structure", blocks[b].end - 2,
                     state.Describe(blocks[b].end - 2) + ": " +
                         state.Name(m.result_id(blocks[merge].label)) +
                         " is already the merge block of " +
                         state.Name(m.result_id(blocks[merge_of[merge]].label)));
      } else {
        merge_of[merge] = b;
      }
    }
    if (!cfg.Reachable(b)) continue;
    for (uint32_t s : cfg.Successors(b)) {
      if (!dom.Dominates(s, b)) continue;
      if (cfg.merge_kind(s) != ir::MergeKind::kLoop) {
        state.Report("cfg.structure", blocks[b].end - 1,
                     state.Describe(blocks[b].end - 1) + ": the back edge from " +
                         state.Name(m.result_id(blocks[b].label)) + " goes to " +
                         state.Name(m.result_id(blocks[s].label)) + ", which is not a loop header");
      } else {
        ++back_edges[s];
      }
    }
  }
  for (uint32_t b = 0; b < n && !state.Full(); ++b) {
    if (cfg.merge_kind(b) != ir::MergeKind::kLoop || !cfg.Reachable(b)) continue;
    const uint32_t continue_target = cfg.continue_target(b);
    if (back_edges[b] == 1 || continue_target >= n || !cfg.Reachable(continue_target)) continue;
    state.Report("cfg.structure", blocks[b].end - 2,
                 "loop header " + state.Name(m.result_id(blocks[b].label)) + " has " +
                     std::to_string(back_edges[b]) + " back edges; it must have exactly one");
  }
}

}  // namespace

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
  if (state.structure_ok && !state.Full()) CheckStructure(state);
}

}  // namespace coopspv::val
