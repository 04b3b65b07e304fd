#include "source/ir/analyses.h"

#include <algorithm>

namespace coopspv::ir {

using spv::Op;

// ---------------------------------------------------------------------------------------------
// DefUse: count uses per id, prefix-sum into offsets, then fill: two linear passes.

DefUse::DefUse(const Module& module) {
  const uint32_t bound = module.bound();
  offsets_.assign(bound + 1, 0);
  for (InstIndex i = 0; i < module.num_instructions(); ++i) {
    const Inst inst = module.inst(i);
    for (const auto& op : inst.operands) {
      if (!grammar::IsIdKind(op.kind) || op.kind == grammar::OperandKind::kIdResult) continue;
      ++offsets_[inst.word(op)];
    }
  }
  uint32_t total = 0;
  for (uint32_t id = 0; id <= bound; ++id) {
    const uint32_t count = offsets_[id];
    offsets_[id] = total;
    total += count;
  }
  uses_.resize(total);
  std::vector<uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
  for (InstIndex i = 0; i < module.num_instructions(); ++i) {
    const Inst inst = module.inst(i);
    for (uint16_t k = 0; k < inst.operands.size(); ++k) {
      const auto& op = inst.operands[k];
      if (!grammar::IsIdKind(op.kind) || op.kind == grammar::OperandKind::kIdResult) continue;
      uses_[fill[inst.word(op)]++] = {i, k};
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Cfg.

Cfg::Cfg(const Module& module) {
  const auto blocks = module.blocks();
  const size_t n = blocks.size();
  merges_.assign(n, Merge{});
  reachable_.assign(n, false);
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // (from, to)
  edges.reserve(n * 2);
  for (uint32_t b = 0; b < n; ++b) {
    const Block& block = blocks[b];
    const InstIndex last = block.end - 1;
    auto target = [&](InstIndex i, uint16_t operand) -> uint32_t {
      const Inst inst = module.inst(i);
      const uint32_t to = module.BlockOfLabel(inst.word(inst.operands[operand]));
      if (to == ~0u || blocks[to].function != block.function) {
        bad_targets_.emplace_back(i, operand);
        return ~0u;
      }
      return to;
    };
    auto add_edge = [&](InstIndex i, uint16_t operand) {
      const uint32_t to = target(i, operand);
      if (to == ~0u) return;
      // One edge per distinct successor.
      for (size_t e = edges.size(); e-- > 0 && edges[e].first == b;) {
        if (edges[e].second == to) return;
      }
      edges.emplace_back(b, to);
    };
    const Op op = module.opcode(last);
    if (op == Op::Branch) {
      add_edge(last, 0);
    } else if (op == Op::BranchConditional) {
      add_edge(last, 1);
      add_edge(last, 2);
    } else if (op == Op::Switch) {
      const Inst inst = module.inst(last);
      for (uint16_t k = 1; k < inst.operands.size(); ++k) {
        if (inst.operands[k].kind == grammar::OperandKind::kIdRef) add_edge(last, k);
      }
    }
    // A merge instruction sits right before the terminator.
    if (last > block.label + 1) {
      const Op merge_op = module.opcode(last - 1);
      if (merge_op == Op::SelectionMerge || merge_op == Op::LoopMerge) {
        Merge& m = merges_[b];
        m.kind = merge_op == Op::LoopMerge ? MergeKind::kLoop : MergeKind::kSelection;
        m.merge = target(last - 1, 0);
        if (merge_op == Op::LoopMerge) m.continue_target = target(last - 1, 1);
      }
    }
  }
  // CSR successor and predecessor lists.
  succ_offsets_.assign(n + 1, 0);
  pred_offsets_.assign(n + 1, 0);
  for (const auto& [from, to] : edges) {
    ++succ_offsets_[from + 1];
    ++pred_offsets_[to + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    succ_offsets_[i + 1] += succ_offsets_[i];
    pred_offsets_[i + 1] += pred_offsets_[i];
  }
  succ_.resize(edges.size());
  pred_.resize(edges.size());
  {
    std::vector<uint32_t> sf(succ_offsets_.begin(), succ_offsets_.end() - 1);
    std::vector<uint32_t> pf(pred_offsets_.begin(), pred_offsets_.end() - 1);
    for (const auto& [from, to] : edges) {
      succ_[sf[from]++] = to;
      pred_[pf[to]++] = from;
    }
  }
  // Reverse postorder per function, by an explicit-stack DFS (no recursion on input sizes).
  const auto functions = module.functions();
  rpo_offsets_.assign(functions.size() + 1, 0);
  rpo_.reserve(n);
  std::vector<uint32_t> postorder;
  std::vector<std::pair<uint32_t, uint32_t>> stack;  // (block, next successor index)
  std::vector<bool> visited(n, false);
  for (uint32_t f = 0; f < functions.size(); ++f) {
    rpo_offsets_[f] = static_cast<uint32_t>(rpo_.size());
    if (functions[f].num_blocks != 0) {
      postorder.clear();
      const uint32_t entry = functions[f].first_block;
      visited[entry] = true;
      stack.emplace_back(entry, 0);
      while (!stack.empty()) {
        auto& [block, next] = stack.back();
        const auto succs = Successors(block);
        if (next < succs.size()) {
          const uint32_t s = succs[next++];
          if (!visited[s]) {
            visited[s] = true;
            stack.emplace_back(s, 0);
          }
        } else {
          postorder.push_back(block);
          stack.pop_back();
        }
      }
      for (size_t i = postorder.size(); i-- > 0;) {
        rpo_.push_back(postorder[i]);
        reachable_[postorder[i]] = true;
      }
    }
    rpo_offsets_[f + 1] = static_cast<uint32_t>(rpo_.size());
  }
  rpo_offsets_[functions.size()] = static_cast<uint32_t>(rpo_.size());
}

// ---------------------------------------------------------------------------------------------
// DominatorTree.

DominatorTree::DominatorTree(const Module& module, const Cfg& cfg, bool post) {
  const size_t n = module.blocks().size();
  idom_.assign(n, kNone);
  in_.assign(n, kNone);
  out_.assign(n, kNone);
  // Work per function on local node numbers; node `count` is the virtual exit for post-dominance.
  std::vector<uint32_t> order;  // Nodes in reverse postorder of the (reversed) graph.
  std::vector<uint32_t> rpo_num(n, kNone);
  std::vector<uint32_t> doms;
  std::vector<uint32_t> postorder;
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  std::vector<uint32_t> roots;
  uint32_t counter = 0;
  for (uint32_t f = 0; f < module.functions().size(); ++f) {
    const Function& fn = module.functions()[f];
    if (fn.num_blocks == 0) continue;
    const uint32_t first = fn.first_block;
    const uint32_t count = fn.num_blocks;
    auto forward = [&](uint32_t b) { return post ? cfg.Predecessors(b) : cfg.Successors(b); };
    auto backward = [&](uint32_t b) { return post ? cfg.Successors(b) : cfg.Predecessors(b); };
    roots.clear();
    if (post) {
      for (uint32_t b = first; b < first + count; ++b) {
        if (cfg.Reachable(b) && cfg.Successors(b).empty()) roots.push_back(b);
      }
    } else {
      roots.push_back(first);
    }
    // DFS from the (virtual) root over `forward` edges.
    postorder.clear();
    std::vector<bool> seen(count, false);
    for (uint32_t root : roots) {
      if (seen[root - first]) continue;
      seen[root - first] = true;
      stack.emplace_back(root, 0);
      while (!stack.empty()) {
        auto& [b, next] = stack.back();
        const auto succs = forward(b);
        if (next < succs.size()) {
          const uint32_t s = succs[next++];
          if (!seen[s - first]) {
            seen[s - first] = true;
            stack.emplace_back(s, 0);
          }
        } else {
          postorder.push_back(b);
          stack.pop_back();
        }
      }
    }
    // Postorder numbers: the virtual root is the largest.
    const uint32_t virtual_root = static_cast<uint32_t>(postorder.size());
    for (uint32_t i = 0; i < postorder.size(); ++i) rpo_num[postorder[i]] = i;
    doms.assign(postorder.size() + 1, kNone);
    doms[virtual_root] = virtual_root;
    std::vector<bool> is_root(postorder.size(), false);
    for (uint32_t root : roots) {
      doms[rpo_num[root]] = virtual_root;
      is_root[rpo_num[root]] = true;
    }
    auto intersect = [&](uint32_t a, uint32_t b) {
      while (a != b) {
        while (a < b) a = doms[a];
        while (b < a) b = doms[b];
      }
      return a;
    };
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t i = postorder.size(); i-- > 0;) {
        const uint32_t b = postorder[i];
        if (is_root[i]) continue;
        uint32_t new_idom = kNone;
        for (uint32_t p : backward(b)) {
          const uint32_t pn = rpo_num[p];
          if (pn == kNone || doms[pn] == kNone) continue;
          new_idom = new_idom == kNone ? pn : intersect(pn, new_idom);
        }
        if (new_idom != kNone && doms[i] != new_idom) {
          doms[i] = new_idom;
          changed = true;
        }
      }
    }
    // Record immediate dominators (the virtual root is not a block) and children lists.
    std::vector<std::vector<uint32_t>> children(postorder.size() + 1);
    for (uint32_t i = 0; i < postorder.size(); ++i) {
      if (doms[i] == kNone) continue;
      children[doms[i]].push_back(i);
      if (doms[i] != virtual_root) idom_[postorder[i]] = postorder[doms[i]];
    }
    // Interval numbering by an explicit-stack DFS over the tree from the virtual root.
    std::vector<std::pair<uint32_t, uint32_t>> tree_stack;
    tree_stack.emplace_back(virtual_root, 0);
    while (!tree_stack.empty()) {
      auto& [node, next] = tree_stack.back();
      if (next == 0 && node != virtual_root) in_[postorder[node]] = counter++;
      if (next < children[node].size()) {
        const uint32_t child = children[node][next++];
        tree_stack.emplace_back(child, 0);
      } else {
        if (node != virtual_root) out_[postorder[node]] = counter++;
        tree_stack.pop_back();
      }
    }
    for (uint32_t b : postorder) rpo_num[b] = kNone;
  }
}

// ---------------------------------------------------------------------------------------------
// TypeTable.

uint64_t TypeTable::Hash(Op op, std::span<const uint32_t> words) const {
  uint64_t h = 1469598103934665603ull ^ static_cast<uint32_t>(op);
  for (uint32_t w : words) {
    h ^= w;
    h *= 1099511628211ull;
  }
  return h;
}

namespace {

// The words identifying a type or constant: for types everything after the result id; for
// constants the result type and everything after the result id.
void KeyOf(const Inst& inst, std::vector<uint32_t>* key) {
  key->clear();
  if (inst.type_id != 0) {
    key->push_back(inst.type_id);
    key->insert(key->end(), inst.words.begin() + 3, inst.words.end());
  } else {
    key->insert(key->end(), inst.words.begin() + 2, inst.words.end());
  }
}

bool Interned(Op op) { return (IsTypeDeclaration(op) || IsConstant(op)) && !IsSpecConstant(op); }

}  // namespace

bool TypeTable::Equal(Id candidate, Op op, std::span<const uint32_t> words) const {
  const InstIndex d = module_.Def(candidate);
  if (module_.opcode(d) != op) return false;
  const Inst inst = module_.inst(d);
  if (inst.type_id != 0) {
    if (words.empty() || words[0] != inst.type_id) return false;
    const auto rest = inst.words.subspan(3);
    return std::equal(rest.begin(), rest.end(), words.begin() + 1, words.end());
  }
  const auto rest = inst.words.subspan(2);
  return std::equal(rest.begin(), rest.end(), words.begin(), words.end());
}

TypeTable::TypeTable(const Module& module) : module_(module) {
  canonical_.assign(module.bound(), 0);
  size_t count = 0;
  for (InstIndex i = 0; i < module.num_instructions(); ++i) {
    if (Interned(module.opcode(i)) && module.result_id(i) != 0) ++count;
  }
  size_t size = 16;
  while (size < count * 2) size *= 2;
  slots_.assign(size, 0);
  std::vector<uint32_t> key;
  for (InstIndex i = 0; i < module.num_instructions(); ++i) {
    const Op op = module.opcode(i);
    const Id id = module.result_id(i);
    if (!Interned(op) || id == 0 || module.Def(id) != i) continue;
    // Structs are distinct types even with equal members (decorations may differ), and so are
    // opaque and forward-declared pointer types: they are their own canonical ids.
    const Inst inst = module.inst(i);
    KeyOf(inst, &key);
    if (op == Op::TypeStruct || op == Op::TypeOpaque) {
      canonical_[id] = id;
      continue;
    }
    size_t pos = Hash(op, key) & (slots_.size() - 1);
    while (slots_[pos] != 0 && !Equal(slots_[pos], op, key)) pos = (pos + 1) & (slots_.size() - 1);
    if (slots_[pos] == 0) slots_[pos] = id;
    canonical_[id] = slots_[pos];
  }
}

Id TypeTable::Find(Op op, std::span<const uint32_t> words) const {
  size_t pos = Hash(op, words) & (slots_.size() - 1);
  while (slots_[pos] != 0) {
    if (Equal(slots_[pos], op, words)) return slots_[pos];
    pos = (pos + 1) & (slots_.size() - 1);
  }
  return 0;
}

}  // namespace coopspv::ir
