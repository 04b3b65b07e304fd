// Analyses over an ir::Module, built on first use (Module::def_use(), cfg(), dominators(),
// post_dominators(), types()). All are flat arrays built in linear time, except dominators,
// which use the Cooper-Harvey-Kennedy iteration over reverse postorder (near-linear on real
// control flow) and then number the tree so Dominates() is O(1).
#ifndef COOPSPV_SOURCE_IR_ANALYSES_H_
#define COOPSPV_SOURCE_IR_ANALYSES_H_

#include <cstdint>
#include <span>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/module.h"

namespace coopspv::ir {

struct Use {
  InstIndex inst;
  uint16_t operand;  // Index into the instruction's parsed operands.
};

// Every use of every id (result ids excluded), grouped by id.
class DefUse {
 public:
  COOPSPV_WS_NEW_DELETE
  explicit DefUse(const Module& module);
  std::span<const Use> Uses(Id id) const {
    if (static_cast<size_t>(id) + 1 >= offsets_.size()) return {};  // No wrap at 0xFFFFFFFF.
    return std::span<const Use>(uses_).subspan(offsets_[id], offsets_[id + 1] - offsets_[id]);
  }
  size_t NumUses(Id id) const { return Uses(id).size(); }

 private:
  ws::vector<uint32_t> offsets_;  // bound + 1 entries.
  ws::vector<Use> uses_;
};

enum class MergeKind : uint8_t { kNone, kSelection, kLoop };

// Control flow between the blocks of every function. Edges name block indexes
// (Module::blocks()); a branch to something that is not a label of the same function is left
// out and listed in bad_targets().
class Cfg {
 public:
  COOPSPV_WS_NEW_DELETE
  explicit Cfg(const Module& module);

  std::span<const uint32_t> Successors(uint32_t block) const {
    return Slice(succ_offsets_, succ_, block);
  }
  std::span<const uint32_t> Predecessors(uint32_t block) const {
    return Slice(pred_offsets_, pred_, block);
  }
  // Blocks of a function in reverse postorder from its entry; unreachable blocks are absent.
  std::span<const uint32_t> ReversePostorder(uint32_t function) const {
    return Slice(rpo_offsets_, rpo_, function);
  }
  bool Reachable(uint32_t block) const { return reachable_[block]; }
  MergeKind merge_kind(uint32_t block) const { return merges_[block].kind; }
  // The merge block and, for loops, the continue target (block indexes, ~0u if none or bad).
  uint32_t merge_block(uint32_t block) const { return merges_[block].merge; }
  uint32_t continue_target(uint32_t block) const { return merges_[block].continue_target; }
  // (instruction, operand index) of branch targets that are not labels of the same function.
  const ws::vector<std::pair<InstIndex, uint16_t>>& bad_targets() const { return bad_targets_; }

 private:
  static std::span<const uint32_t> Slice(const ws::vector<uint32_t>& offsets,
                                         const ws::vector<uint32_t>& items, uint32_t i) {
    return std::span<const uint32_t>(items).subspan(offsets[i], offsets[i + 1] - offsets[i]);
  }
  struct Merge {
    MergeKind kind = MergeKind::kNone;
    uint32_t merge = ~0u;
    uint32_t continue_target = ~0u;
  };

  ws::vector<uint32_t> succ_offsets_, succ_;
  ws::vector<uint32_t> pred_offsets_, pred_;
  ws::vector<uint32_t> rpo_offsets_, rpo_;
  ws::vector<bool> reachable_;
  ws::vector<Merge> merges_;
  ws::vector<std::pair<InstIndex, uint16_t>> bad_targets_;
};

// The (post-)dominator tree of every function's blocks. Post-dominance uses a virtual exit that
// every block without successors branches to; blocks that cannot reach it (infinite loops) and
// unreachable blocks have no immediate (post-)dominator.
class DominatorTree {
 public:
  COOPSPV_WS_NEW_DELETE
  DominatorTree(const Module& module, const Cfg& cfg, bool post);

  static constexpr uint32_t kNone = ~0u;
  // The immediate dominator block, kNone for roots (entry / exit blocks) and unreached blocks.
  uint32_t Idom(uint32_t block) const { return idom_[block]; }
  bool InTree(uint32_t block) const { return in_[block] != kNone; }
  // True when a (post-)dominates b; a block dominates itself. False if either is not in the tree.
  bool Dominates(uint32_t a, uint32_t b) const {
    if (in_[a] == kNone || in_[b] == kNone) return false;
    return in_[a] <= in_[b] && out_[b] <= out_[a];
  }

 private:
  ws::vector<uint32_t> idom_;
  ws::vector<uint32_t> in_, out_;  // DFS interval numbering of the tree.
};

// Types and constants interned by their definition: equal declarations are found in O(1).
class TypeTable {
 public:
  COOPSPV_WS_NEW_DELETE
  explicit TypeTable(const Module& module);
  // The first id whose declaration (opcode and operands after the result id) equals that of
  // `id`; `id` itself when it is the first, 0 when `id` is not a type or a non-specialization
  // constant (spec constants are never merged).
  Id Canonical(Id id) const { return id < canonical_.size() ? canonical_[id] : 0; }
  // The id declared with this opcode and these words (everything after the result id, the
  // result type first for constants), or 0.
  Id Find(spv::Op op, std::span<const uint32_t> words) const;

 private:
  uint64_t Hash(spv::Op op, std::span<const uint32_t> words) const;
  bool Equal(Id candidate, spv::Op op, std::span<const uint32_t> words) const;
  // The same, with the key in two pieces: `type` (0 for a type declaration) and the rest.
  bool Equal(Id candidate, spv::Op op, Id type, std::span<const uint32_t> rest) const;

  const Module& module_;
  ws::vector<Id> canonical_;
  ws::vector<Id> slots_;  // Open addressing, power-of-two size.
};

}  // namespace coopspv::ir

#endif  // COOPSPV_SOURCE_IR_ANALYSES_H_
