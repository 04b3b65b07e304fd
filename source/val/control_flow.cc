// Control flow instructions' operand types (SPIR-V 3.42.17): OpBranchConditional's Condition is
// a Boolean scalar, OpSwitch's Selector an integer scalar whose width its literals follow;
// OpLoopMerge's Merge Block is not its Continue Target; the structured control flow rules.
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/analyses.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// 2.11 Structured Control Flow: a loop construct is entered only through its header. The blocks
// a loop header reaches without passing its merge block (its loop and continue constructs; a
// structured exit leaves only to the merge block, or by a function termination) may have no
// reachable predecessor outside them other than the header.
// True when it reported.
bool CheckLoopEntries(ValidationState& state) {
  const ir::Module& m = state.module();
  const ir::Cfg& cfg = m.cfg();
  const auto blocks = m.blocks();
  const uint32_t n = static_cast<uint32_t>(blocks.size());
  ws::vector<uint32_t> mark(n, ~0u);  // The loop header whose region a block was last put in.
  ws::vector<uint32_t> region, work;
  for (uint32_t h = 0; h < n && !state.Full(); ++h) {
    if (cfg.merge_kind(h) != ir::MergeKind::kLoop || !cfg.Reachable(h)) continue;
    const uint32_t merge = cfg.merge_block(h);
    if (merge >= n) continue;
    region.clear();
    work.assign(1, h);
    mark[h] = h;
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (const uint32_t s : cfg.Successors(b)) {
        if (s >= n || s == merge || mark[s] == h) continue;
        mark[s] = h;
        region.push_back(s);
        work.push_back(s);
      }
    }
    for (const uint32_t b : region) {
      for (const uint32_t p : cfg.Predecessors(b)) {
        if (p >= n || mark[p] == h || !cfg.Reachable(p)) continue;
        state.Report("cfg.structure", blocks[p].end - 1,
                     state.Describe(blocks[p].end - 1) + ": block " +
                         state.Name(m.result_id(blocks[p].label)) + " branches to " +
                         state.Name(m.result_id(blocks[b].label)) + " inside the loop of header " +
                         state.Name(m.result_id(blocks[h].label)) +
                         "; a loop is entered only through its header");
        return true;  // One report: a broken structure makes the rest noise.
      }
    }
  }
  return false;
}

// 2.11 Structured Control Flow: a block is the merge block of at most one header; a back edge
// goes to a loop header, and every loop header whose continue target is reachable has exactly
// one back edge; a header dominates its (reachable) merge block and continue target.
void CheckStructure(ValidationState& state) {
  const ir::Module& m = state.module();
  const ir::Cfg& cfg = m.cfg();
  const auto blocks = m.blocks();
  const uint32_t n = static_cast<uint32_t>(blocks.size());
  ws::vector<uint32_t> merge_of(n, ~0u);  // The header whose merge block each block is.
  ws::vector<uint32_t> back_edges(n, 0);
  const ir::DominatorTree& dom = m.dominators();
  std::pair<uint32_t, uint32_t> undominated{~0u, ~0u};  // The first (header, merge or continue).
  for (uint32_t b = 0; b < n && !state.Full(); ++b) {
    const uint32_t merge = cfg.merge_block(b);
    if (cfg.merge_kind(b) != ir::MergeKind::kNone && undominated.first == ~0u && cfg.Reachable(b)) {
      const uint32_t continue_target = cfg.continue_target(b);  // ~0u for a selection.
      for (const uint32_t target : {merge, continue_target}) {
        if (target < n && cfg.Reachable(target) && !dom.Dominates(b, target)) {
          undominated = {b, target};
          break;
        }
      }
    }
    if (cfg.merge_kind(b) == ir::MergeKind::kLoop && merge < n && merge == cfg.continue_target(b)) {
      state.Report(
          "cfg.loop-merge", blocks[b].end - 2,
          state.Describe(blocks[b].end - 2) + ": Merge Block and Continue Target are both " +
              state.Name(m.result_id(blocks[merge].label)) + "; they must be different blocks");
    }
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
  }
  // Back edges: the edges a depth-first search from each function's entry finds to a block on
  // its stack (in a reducible graph, exactly the edges to a block that dominates the source).
  ws::vector<uint8_t> color(n, 0);                  // 0 unvisited, 1 on the stack, 2 done.
  ws::vector<std::pair<uint32_t, uint32_t>> stack;  // (block, next successor to visit)
  for (const ir::Function& f : m.functions()) {
    if (f.num_blocks == 0 || f.first_block >= n) continue;
    stack.push_back({f.first_block, 0});
    color[f.first_block] = 1;
    while (!stack.empty() && !state.Full()) {
      auto& [b, next] = stack.back();
      const auto successors = cfg.Successors(b);
      if (next == successors.size()) {
        color[b] = 2;
        stack.pop_back();
        continue;
      }
      const uint32_t s = successors[next++];
      if (color[s] == 0) {
        color[s] = 1;
        stack.push_back({s, 0});
      } else if (color[s] == 1) {
        if (cfg.merge_kind(s) != ir::MergeKind::kLoop) {
          state.Report("cfg.structure", blocks[b].end - 1,
                       state.Describe(blocks[b].end - 1) + ": the back edge from " +
                           state.Name(m.result_id(blocks[b].label)) + " goes to " +
                           state.Name(m.result_id(blocks[s].label)) +
                           ", which is not a loop header");
        } else {
          ++back_edges[s];
        }
      }
    }
    stack.clear();
  }
  // A header dominates its merge block and a loop header its continue target, where they are
  // reachable; reported after the loop entries, whose report says more about the same fault.
  if (!CheckLoopEntries(state) && undominated.first < n && !state.Full()) {
    const uint32_t b = undominated.first, target = undominated.second;
    state.Report("cfg.structure", blocks[b].end - 2,
                 state.Describe(blocks[b].end - 2) + ": header " +
                     state.Name(m.result_id(blocks[b].label)) + " does not dominate its " +
                     (target == cfg.merge_block(b) ? "merge block " : "continue target ") +
                     state.Name(m.result_id(blocks[target].label)));
  }
  for (uint32_t b = 0; b < n && !state.Full(); ++b) {
    if (cfg.merge_kind(b) != ir::MergeKind::kLoop || !cfg.Reachable(b)) continue;
    const uint32_t continue_target = cfg.continue_target(b);
    if (back_edges[b] == 1 || continue_target >= n || !cfg.Reachable(continue_target)) continue;
    state.Report("cfg.structure", blocks[b].end - 2,
                 "loop header " + state.Name(m.result_id(blocks[b].label)) + " has " +
                     ws::to_string(back_edges[b]) + " back edges; it must have exactly one");
  }
}

}  // namespace

bool ControlFlowVisits(const ValidationState& state, Op op) {
  return op == Op::BranchConditional || op == Op::Switch;
}

void ValidateControlFlow(ValidationState& state) {
  const ir::Module& m = state.module();
  for (const InstIndex i : state.Walked(Walk::kControlFlow, m.global_end())) {
    if (state.Full()) break;
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
