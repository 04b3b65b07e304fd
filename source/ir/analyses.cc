#include "source/ir/analyses.h"

#include <algorithm>

#include "source/common/workspace.h"

namespace coopspv::ir {

using spv::Op;

// ---------------------------------------------------------------------------------------------
// DefUse: count uses per id, prefix-sum into offsets, then fill: two linear passes over the flat
// instruction and operand records.

DefUse::DefUse(const Module& module) {
  const binary::ParsedModule& parsed = module.parsed();
  const uint32_t* const words = parsed.data().data();
  const binary::ParsedOperand* const operands = parsed.operands.data();
  const size_t n = module.num_instructions();
  auto is_use = [](grammar::OperandKind kind) {
    return grammar::IsIdKind(kind) && kind != grammar::OperandKind::kIdResult;
  };
  const uint32_t bound = module.bound();
  offsets_.assign(bound + 1, 0);
  for (InstIndex i = 0; i < n; ++i) {
    const auto& rec = parsed.instructions[i];
    const uint32_t* const inst_words = words + rec.offset;
    const binary::ParsedOperand* op = operands + rec.operand_begin;
    for (const binary::ParsedOperand* const end = op + rec.operand_count; op != end; ++op) {
      if (is_use(op->kind)) ++offsets_[inst_words[op->offset]];
    }
  }
  // Each id's offset becomes the end of its uses; the fill, walking instructions last to first,
  // counts it down to the start and keeps every id's uses in instruction order.
  uint32_t total = 0;
  for (uint32_t id = 0; id <= bound; ++id) {
    total += offsets_[id];
    offsets_[id] = total;
  }
  uses_.resize(total);
  for (InstIndex i = static_cast<InstIndex>(n); i-- > 0;) {
    const auto& rec = parsed.instructions[i];
    const uint32_t* const inst_words = words + rec.offset;
    const binary::ParsedOperand* const first = operands + rec.operand_begin;
    for (uint32_t k = rec.operand_count; k-- > 0;) {
      const binary::ParsedOperand& op = first[k];
      if (is_use(op.kind)) uses_[--offsets_[inst_words[op.offset]]] = {i, static_cast<uint16_t>(k)};
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Cfg.

namespace {

// A frame of an explicit-stack DFS: the node and the edges it has left to follow. Stacks are
// sized up front to the function's block count (no block is on one twice).
struct DfsFrame {
  const uint32_t* next;
  const uint32_t* end;
  uint32_t node;
};

DfsFrame FrameOf(std::span<const uint32_t> edges, uint32_t node) {
  return {edges.data(), edges.data() + edges.size(), node};
}

}  // namespace

Cfg::Cfg(const Module& module) {
  const auto blocks = module.blocks();
  const size_t n = blocks.size();
  merges_.assign(n, Merge{});
  reachable_.assign(n, false);
  // Successors are written in block order straight into their CSR list; predecessors are
  // counted from it afterwards.
  succ_offsets_.resize(n + 1);
  succ_offsets_[0] = 0;
  succ_.reserve(n * 2);
  ws::vector<uint32_t> last_from(n, ~0u);  // The last block that got an edge to each block.
  for (uint32_t b = 0; b < n; ++b) {
    const Block& block = blocks[b];
    const InstIndex last = block.end - 1;
    // Both helpers are forced inline: as calls they cost more than their bodies.
    auto target = [&](InstIndex i, uint16_t operand) __attribute__((always_inline)) {
      const Inst inst = module.inst(i);
      const uint32_t to = module.BlockOfLabel(inst.word(inst.operands[operand]));
      if (to == ~0u || blocks[to].function != block.function) {
        bad_targets_.emplace_back(i, operand);
        return ~0u;
      }
      return to;
    };
    auto add_edge = [&](InstIndex i, uint16_t operand) __attribute__((always_inline)) {
      const uint32_t to = target(i, operand);
      if (to == ~0u) return;
      // One edge per distinct successor: `last_from` marks the successors this block has.
      if (last_from[to] == b) return;
      last_from[to] = b;
      succ_.push_back(to);
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
    succ_offsets_[b + 1] = static_cast<uint32_t>(succ_.size());
  }
  // CSR predecessor lists: count, prefix-sum, then fill walking the successor lists.
  pred_offsets_.assign(n + 1, 0);
  for (uint32_t to : succ_) ++pred_offsets_[to + 1];
  for (size_t i = 0; i < n; ++i) pred_offsets_[i + 1] += pred_offsets_[i];
  pred_.resize(succ_.size());
  {
    ws::vector<uint32_t> fill(pred_offsets_.begin(), pred_offsets_.end() - 1);
    for (uint32_t from = 0; from < n; ++from) {
      for (uint32_t k = succ_offsets_[from]; k < succ_offsets_[from + 1]; ++k) {
        pred_[fill[succ_[k]]++] = from;
      }
    }
  }
  // Reverse postorder per function, by an explicit-stack DFS (no recursion on input sizes).
  const auto functions = module.functions();
  rpo_offsets_.assign(functions.size() + 1, 0);
  // Each function's postorder is written into its slice of rpo_, then reversed in place.
  rpo_.resize(n);
  uint32_t size = 0;
  ws::vector<DfsFrame> stack;
  for (uint32_t f = 0; f < functions.size(); ++f) {
    rpo_offsets_[f] = size;
    if (functions[f].num_blocks != 0) {
      stack.resize(functions[f].num_blocks);
      size_t depth = 0;
      const uint32_t entry = functions[f].first_block;
      reachable_[entry] = true;
      stack[depth++] = FrameOf(Successors(entry), entry);
      while (depth != 0) {
        DfsFrame& top = stack[depth - 1];
        if (top.next != top.end) {
          const uint32_t s = *top.next++;
          if (!reachable_[s]) {
            reachable_[s] = true;
            stack[depth++] = FrameOf(Successors(s), s);
          }
        } else {
          rpo_[size++] = top.node;
          --depth;
        }
      }
      std::reverse(rpo_.begin() + rpo_offsets_[f], rpo_.begin() + size);
    }
    rpo_offsets_[f + 1] = size;
  }
  rpo_.resize(size);
}

// ---------------------------------------------------------------------------------------------
// DominatorTree.

DominatorTree::DominatorTree(const Module& module, const Cfg& cfg, bool post) {
  const size_t n = module.blocks().size();
  idom_.assign(n, kNone);
  in_.assign(n, kNone);
  out_.assign(n, kNone);
  // Lengauer-Tarjan with path compression (O(E log V) whatever the shape of the CFG; iterating
  // to a fixed point, as Cooper-Harvey-Kennedy does, is quadratic on long chains with wide
  // joins). Per function, on DFS preorder numbers 1..count from a virtual root (number 1) whose
  // edges go to the roots: the entry block, or for post-dominance every reachable block without
  // successors. Number 0 means "not reached". Everything is iterative: no recursion depth
  // follows the input.
  ws::vector<uint32_t> dfn(n, 0);  // Preorder number of each block of the current function.
  ws::vector<uint32_t> vertex;     // Block of each preorder number (kNone for the root).
  ws::vector<uint32_t> parent, semi, label, ancestor, dom, bucket_head, bucket_next;
  ws::vector<uint32_t> roots, path;
  ws::vector<DfsFrame> stack;
  uint32_t counter = 0;
  // Follows the ancestor links of v to the root of its forest tree, compressing the path; returns
  // the vertex of least semi-dominator on it.
  auto eval = [&](uint32_t v) {
    if (ancestor[v] == 0) return v;
    size_t depth = 0;  // `path` is sized to the function: no vertex is on it twice.
    uint32_t x = v;
    while (ancestor[ancestor[x]] != 0) {
      path[depth++] = x;
      x = ancestor[x];
    }
    for (size_t i = depth; i-- > 0;) {
      const uint32_t y = path[i], a = ancestor[y];
      if (semi[label[a]] < semi[label[y]]) label[y] = label[a];
      ancestor[y] = ancestor[a];
    }
    return label[v];
  };
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
    // DFS preorder from the virtual root over `forward` edges.
    // Edges stay inside the function, so at most `count` blocks are numbered.
    vertex.resize(count + 2);
    parent.resize(count + 2);
    stack.resize(count);
    vertex[1] = kNone;
    uint32_t last = 1;  // Numbers 1..last.
    for (uint32_t root : roots) {
      if (dfn[root] != 0) continue;
      dfn[root] = ++last;
      vertex[last] = root;
      parent[last] = 1;
      size_t depth = 0;
      stack[depth++] = FrameOf(forward(root), last);
      while (depth != 0) {
        DfsFrame& top = stack[depth - 1];
        if (top.next != top.end) {
          const uint32_t s = *top.next++;
          // Unreachable blocks are in neither tree, also when they branch into reachable code
          // (successors of reachable blocks are reachable).
          if (dfn[s] == 0 && (!post || cfg.Reachable(s))) {
            dfn[s] = ++last;
            vertex[last] = s;
            parent[last] = top.node;
            stack[depth++] = FrameOf(forward(s), last);
          }
        } else {
          --depth;
        }
      }
    }
    semi.resize(last + 1);
    label.resize(last + 1);
    for (uint32_t i = 0; i <= last; ++i) semi[i] = label[i] = i;
    ancestor.assign(last + 1, 0);
    path.resize(last + 1);
    dom.assign(last + 1, 0);
    bucket_head.assign(last + 1, 0);
    bucket_next.assign(last + 1, 0);
    for (uint32_t i = last; i >= 2; --i) {
      const uint32_t b = vertex[i];
      // Semi-dominator: the least over the (reached) predecessors in the searched graph; the
      // virtual root is the predecessor of the roots.
      if (parent[i] == 1) semi[i] = 1;
      for (uint32_t p : backward(b)) {
        const uint32_t j = dfn[p];
        if (j == 0) continue;
        const uint32_t u = eval(j);
        if (semi[u] < semi[i]) semi[i] = semi[u];
      }
      bucket_next[i] = bucket_head[semi[i]];
      bucket_head[semi[i]] = i;
      const uint32_t p = parent[i];
      ancestor[i] = p;  // Link.
      for (uint32_t w = bucket_head[p]; w != 0; w = bucket_next[w]) {
        const uint32_t u = eval(w);
        dom[w] = semi[u] < semi[w] ? u : p;
      }
      bucket_head[p] = 0;
    }
    for (uint32_t i = 2; i <= last; ++i) {
      if (dom[i] != semi[i]) dom[i] = dom[dom[i]];
    }
    // Record immediate dominators (the virtual root is not a block) and number the tree in a
    // preorder of its own. A dominator is a DFS ancestor, so preorder numbers order every node
    // after its dominator: one backward pass sums subtree sizes, one forward pass gives each
    // child the next free range of its dominator's interval. `out` is the last number inside.
    // `semi` and `label` are reused as subtree size and next free number.
    ws::vector<uint32_t>& size = semi;
    ws::vector<uint32_t>& next = label;
    for (uint32_t i = 1; i <= last; ++i) size[i] = 1;
    for (uint32_t i = last; i >= 2; --i) size[dom[i]] += size[i];
    next[1] = counter;
    for (uint32_t i = 2; i <= last; ++i) {
      const uint32_t d = dom[i], b = vertex[i];
      if (d != 1) idom_[b] = vertex[d];
      const uint32_t start = next[d];
      next[d] = start + size[i];
      in_[b] = start;
      out_[b] = start + size[i] - 1;
      next[i] = start + 1;
    }
    counter += size[1] - 1;
    for (uint32_t i = 2; i <= last; ++i) dfn[vertex[i]] = 0;
  }
}

// ---------------------------------------------------------------------------------------------
// TypeTable.

namespace {

// FNV-1a over `words`, on from `h`: a key hashed in pieces hashes as it does whole.
uint64_t Mix(uint64_t h, std::span<const uint32_t> words) {
  for (uint32_t w : words) {
    h ^= w;
    h *= 1099511628211ull;
  }
  return h;
}

uint64_t Seed(Op op) { return 1469598103934665603ull ^ static_cast<uint32_t>(op); }

bool Interned(Op op) { return (IsTypeDeclaration(op) || IsConstant(op)) && !IsSpecConstant(op); }

}  // namespace

// A key is the words identifying a type or constant: for types everything after the result id;
// for constants the result type and everything after the result id.
uint64_t TypeTable::Hash(Op op, std::span<const uint32_t> words) const {
  return Mix(Seed(op), words);
}

bool TypeTable::Equal(Id candidate, Op op, std::span<const uint32_t> words) const {
  // The key starts with the result type when the candidate's opcode has one.
  if (module_.type_id(module_.Def(candidate)) == 0) return Equal(candidate, op, 0, words);
  return !words.empty() && Equal(candidate, op, words[0], words.subspan(1));
}

bool TypeTable::Equal(Id candidate, Op op, Id type, std::span<const uint32_t> rest) const {
  const InstIndex d = module_.Def(candidate);
  if (module_.opcode(d) != op) return false;
  const Inst inst = module_.inst(d);
  if (inst.type_id != type) return false;
  const auto own = inst.words.subspan(type != 0 ? 3 : 2);
  return std::equal(own.begin(), own.end(), rest.begin(), rest.end());
}

TypeTable::TypeTable(const Module& module) : module_(module) {
  canonical_.assign(module.bound(), 0);
  // At most half full with every declaration before the first function interned: no count.
  size_t size = 16;
  while (size < size_t{module.global_end()} * 2) size *= 2;
  slots_.assign(size, 0);
  for (InstIndex i = 0; i < module.global_end(); ++i) {
    const Op op = module.opcode(i);
    const Id id = module.result_id(i);
    if (!Interned(op) || id == 0 || module.Def(id) != i) continue;
    // Structs and opaque types are distinct even with equal operands (decorations may differ):
    // they are their own canonical ids.
    if (op == Op::TypeStruct || op == Op::TypeOpaque) {
      canonical_[id] = id;
      continue;
    }
    // The key read in place, in two pieces: the result type (constants), the words after the
    // result id.
    const Inst inst = module.inst(i);
    const Id type = inst.type_id;
    const auto rest = inst.words.subspan(type != 0 ? 3 : 2);
    size_t pos = Mix(type != 0 ? Mix(Seed(op), {&type, 1}) : Seed(op), rest) & (slots_.size() - 1);
    while (slots_[pos] != 0 && !Equal(slots_[pos], op, type, rest)) {
      pos = (pos + 1) & (slots_.size() - 1);
    }
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
