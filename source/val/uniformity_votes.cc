// Workgroup votes (see uniformity_votes.h for the idiom and what the proof assumes).
//
// From each subgroup vote or reduction, the proof walks forward along the one path the whole
// workgroup takes: the vote, a guard that lets one invocation per subgroup through to the store
// of the subgroup's slot, a Workgroup barrier, then a loop over every subgroup's slot folding them
// into an accumulator that started from the voted value. The comparisons right after the loop
// that test the accumulator against the voted threshold are the results.
#include "source/val/uniformity_votes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

#include "source/common/float.h"
#include "source/grammar/grammar.h"
#include "source/ir/analyses.h"

namespace coopspv::val {
namespace {

using spv::BuiltIn;
using spv::StorageClass;

// GLSL.std.450 instruction numbers.
constexpr uint32_t kGlslFMin = 37, kGlslFMax = 40, kGlslNMin = 79, kGlslNMax = 80;
// Memory operand and memory semantics bits.
constexpr uint32_t kNonPrivatePointer = 0x20;
constexpr uint32_t kOrdering = 0x2 | 0x4 | 0x8 | 0x10;  // Acquire, Release, AcquireRelease, SeqCst.
constexpr uint32_t kWorkgroupMemory = 0x100;
// Bounds that keep a proof's work small whatever the module.
constexpr int kMaxDepth = 200;    // Nested reads of one value.
constexpr int kBudget = 1 << 14;  // Reads per vote.
// Steps (reads, instructions and blocks looked at) for all votes together: linear in the module
// however many votes share one path (each vote walks its path to the loop).
constexpr int64_t kWorkBase = 1 << 16, kWorkPerInstruction = 16;
constexpr int kMaxChainBlocks = 64;  // Blocks from the vote to the loop.
constexpr size_t kMaxLoopBlocks = 512;

// A value the proof reasons about: an id, or a phi the proof made for a Function variable at a
// block with several predecessors. 0 is "not known".
using Val = uint64_t;
constexpr Val SsaVal(Id id) { return Val{id} << 1; }
constexpr Val NodeVal(size_t node) { return (Val{node} << 1) | 1; }
constexpr bool IsNode(Val v) { return (v & 1) != 0; }

// A test of a float against a constant, as x < k, x <= k (below) or x > k, x >= k.
struct Threshold {
  bool below = false;
  bool strict = false;
  double k = 0;
  Val x = 0;
  uint32_t width = 0;
  bool Holds(double v) const {
    return below ? (strict ? v < k : v <= k) : (strict ? v > k : v >= k);
  }
  bool SameTest(const Threshold& o) const {
    return below == o.below && strict == o.strict && k == o.k;
  }
  // Whether the test says the same of a denormal and of the zero that any instruction may flush
  // it to (Vulkan allows that unless the entry point sets the denormal mode): k is not 0 nor a
  // denormal itself.
  bool FlushProof() const {
    const int min_exponent = width == 16 ? -14 : width == 32 ? -126 : -1022;
    return std::fabs(k) >= std::ldexp(1.0, min_exponent);
  }
};

class Prover {
 public:
  Prover(const ValidationState& state, const VoteInputs& in)
      : state_(state), m_(state.module()), cfg_(m_.cfg()), in_(in) {
    for (InstIndex i = 0; i < m_.global_end(); ++i) {
      switch (m_.opcode(i)) {
        case Op::ExecutionMode:
          if (m_.num_words(i) >= 4 &&
              m_.word(i, 2) ==
                  static_cast<uint32_t>(spv::ExecutionMode::SignedZeroInfNanPreserve)) {
            const uint32_t width = m_.word(i, 3);
            if (width < 128) nan_preserved_ |= uint64_t{1} << (width / 2);
          }
          break;
        case Op::ExecutionModeId:
          nan_preserved_ = ~uint64_t{0};  // Modes with id operands (float_controls2): not read.
          break;
        case Op::Decorate:
        case Op::MemberDecorate: {
          // RelaxedPrecision on anything but integers: a float test or max may then run at 16-bit
          // precision, and round x to the other side of k in one use but not another.
          const uint32_t w = m_.opcode(i) == Op::Decorate ? 2 : 3;
          if (m_.num_words(i) > w &&
              m_.word(i, w) == static_cast<uint32_t>(spv::Decoration::RelaxedPrecision)) {
            Id type = state_.TypeOf(m_.word(i, 1));
            if (m_.opcode(i) == Op::MemberDecorate) {
              type = state_.DefWord(m_.word(i, 1), 2 + m_.word(i, 2));
            }
            if (!IntegerData(type)) relaxed_ = true;
          }
          break;
        }
        default:
          break;
      }
    }
    // Outside Vulkan nothing lets the proof assume operands are not NaN.
    if (state_.HasExtension("SPV_KHR_float_controls2") || !state_.options().env.is_vulkan()) {
      nan_preserved_ = ~uint64_t{0};
    }
    vulkan_memory_model_ = state_.memory_model() == spv::MemoryModel::Vulkan;
    work_ = kWorkBase + kWorkPerInstruction * static_cast<int64_t>(m_.num_instructions());
  }

  void Prove(InstIndex vote, ws::vector<InstIndex>& out);

 private:
  // Whether a value of the type is integers only (through pointers, arrays, vectors, matrices).
  bool IntegerData(Id type) const {
    for (int depth = 0; depth < 16; ++depth) {
      switch (state_.DefOp(type)) {
        case Op::TypeInt:
          return true;
        case Op::TypePointer:
          type = state_.DefWord(type, 3);
          continue;
        case Op::TypeArray:
        case Op::TypeRuntimeArray:
        case Op::TypeVector:
        case Op::TypeMatrix:
          type = state_.DefWord(type, 2);
          continue;
        default:
          return false;
      }
    }
    return false;
  }
  struct Node {
    Id var;
    uint32_t block;
    Val forward = 0;                           // The one value the phi turned out to be.
    bool unknown = false;                      // A predecessor's value is not known.
    ws::vector<std::pair<uint32_t, Val>> ops;  // (predecessor block, value).
  };

  const ir::Block& BlockAt(uint32_t b) const { return m_.blocks()[b]; }
  // The reachable predecessors of block b, each once.
  void Predecessors(uint32_t b, ws::vector<uint32_t>& preds) const {
    preds.clear();
    for (const uint32_t p : cfg_.Predecessors(b)) {
      if (cfg_.Reachable(p) && std::find(preds.begin(), preds.end(), p) == preds.end()) {
        preds.push_back(p);
      }
    }
  }
  Val Canon(Val v) const {
    for (int hops = 0; hops < 64 && IsNode(v); ++hops) {
      const Node& n = nodes_[v >> 1];
      if (n.unknown) return 0;
      if (n.forward == 0) return v;
      v = n.forward;
    }
    return IsNode(v) ? 0 : v;
  }
  Val Resolve(Id id, int depth = 0);
  Val ReadBefore(Id var, uint32_t block, InstIndex end, int depth);
  Val ReadEntry(Id var, uint32_t block, int depth);
  // The instruction defining a resolved id value, kNoInst for a phi node or an unknown value.
  InstIndex DefOf(Val v) const { return v == 0 || IsNode(v) ? kNoInst : m_.Def(Id(v >> 1)); }
  // Whether v (resolved) is a phi at `header` with one operand from `pre` and one from `latch`.
  bool HeaderPhi(Val v, uint32_t header, uint32_t pre, uint32_t latch, Val* from_pre,
                 Val* from_latch);
  std::optional<double> FloatConstant(Id id) const;
  std::optional<Threshold> ThresholdOf(InstIndex d);
  // Whether v is a load of a variable decorated with the built-in b.
  bool IsBuiltInLoad(Val v, BuiltIn b) const {
    const InstIndex d = DefOf(v);
    if (d == kNoInst || m_.opcode(d) != Op::Load) return false;
    const Id var = m_.word(d, 3);
    return var < in_.builtin.size() && in_.builtin[var] == static_cast<uint32_t>(b) + 1;
  }
  bool IsSubgroupScope(Id id) const {
    return state_.IntConstant(id) == static_cast<int64_t>(spv::Scope::Subgroup);
  }
  // Adds to `out` the pointers an instruction writes through, and 0 where it may write memory
  // the proof cannot name (a call, a callback).
  void WrittenPointers(InstIndex i, ws::vector<Id>& out) const;
  Id RootOf(Id pointer) const;
  // The memory operands of a load or store (their word), 0 if none.
  uint32_t MemoryOperands(InstIndex i, uint32_t word) const {
    return m_.num_words(i) > word ? m_.word(i, word) : 0;
  }
  bool NonPrivate(InstIndex i, uint32_t word) const {
    return !vulkan_memory_model_ || (MemoryOperands(i, word) & kNonPrivatePointer) != 0;
  }
  // A Workgroup-scope control barrier that orders Workgroup memory.
  bool WorkgroupBarrier(InstIndex i) const {
    if (m_.num_words(i) < 4) return false;
    const auto exec = state_.IntConstant(m_.word(i, 1));
    const auto sem = state_.IntConstant(m_.word(i, 3));
    return exec == static_cast<int64_t>(spv::Scope::Workgroup) && sem &&
           (*sem & kWorkgroupMemory) != 0 && (*sem & kOrdering) != 0;
  }
  // A store of the slot of the invocation's subgroup: through an access chain with one index,
  // SubgroupId, into a Workgroup variable (*slot).
  bool SlotPointer(Id pointer, Id* slot, Val* index);

  const ValidationState& state_;
  const ir::Module& m_;
  const ir::Cfg& cfg_;
  const VoteInputs& in_;
  // The grammar's index of GLSL.std.450, which the reader gives each OpExtInst of that set.
  const int32_t glsl_ = grammar::LookupExtInstSet("GLSL.std.450");
  uint64_t nan_preserved_ = 0;  // Bit width/2: SignedZeroInfNanPreserve declared for the width.
  bool vulkan_memory_model_ = false;
  bool relaxed_ = false;  // RelaxedPrecision on something not integer: nothing is proven.
  ws::vector<Node> nodes_;
  ws::unordered_map<uint64_t, Val> entry_;  // (variable, block) -> its value at the block entry.
  int budget_ = 0;
  int64_t work_ = 0;
  ws::vector<uint32_t> preds_;
};

Val Prover::Resolve(Id id, int depth) {
  if (depth > kMaxDepth || --budget_ < 0 || --work_ < 0) return 0;
  const InstIndex d = m_.Def(id);
  if (d == kNoInst) return 0;
  switch (m_.opcode(d)) {
    case Op::CopyObject:
      return Resolve(m_.word(d, 3), depth + 1);
    case Op::Load: {
      const Id pointer = m_.word(d, 3);
      const uint32_t b = m_.BlockOf(d);
      if (pointer < in_.whole_variable.size() && in_.whole_variable[pointer] == 1 && b != ~0u) {
        return ReadBefore(pointer, b, d, depth + 1);
      }
      return SsaVal(id);
    }
    default:
      return SsaVal(id);
  }
}

// The value of `var` just before instruction `end` of `block`: the last store before it in the
// block, else the value at the block's entry.
Val Prover::ReadBefore(Id var, uint32_t block, InstIndex end, int depth) {
  const InstIndex begin = BlockAt(block).label + 1;
  const auto stores = in_.whole_stores;
  const auto lo = std::lower_bound(stores.begin(), stores.end(), begin);
  auto it = std::lower_bound(lo, stores.end(), end);
  while (it != lo) {
    --it;
    if (m_.word(*it, 1) == var) return Resolve(m_.word(*it, 2), depth + 1);
  }
  return ReadEntry(var, block, depth + 1);
}

// The value of `var` at the entry of `block`: its predecessor's at its end, or a phi of them.
Val Prover::ReadEntry(Id var, uint32_t block, int depth) {
  if (depth > kMaxDepth || --budget_ < 0 || --work_ < 0) return 0;
  const uint64_t key = (uint64_t{var} << 32) | block;
  if (const auto it = entry_.find(key); it != entry_.end()) return Canon(it->second);
  Predecessors(block, preds_);
  if (preds_.empty()) {
    entry_[key] = 0;  // The function's entry: the initializer or an undefined value.
    return 0;
  }
  if (preds_.size() == 1) {
    // Every cycle of reachable blocks enters through a block with two predecessors or more,
    // where a phi is made before its operands are read: following single predecessors ends.
    const uint32_t pred = preds_[0];
    const Val v = ReadBefore(var, pred, BlockAt(pred).end, depth + 1);
    entry_[key] = v;
    return v;
  }
  const size_t n = nodes_.size();
  nodes_.push_back(Node{var, block, 0, false, {}});
  entry_[key] = NodeVal(n);
  ws::vector<uint32_t> preds(preds_.begin(), preds_.end());
  ws::vector<std::pair<uint32_t, Val>> ops;
  ops.reserve(preds.size());
  for (const uint32_t p : preds) {
    const Val v = ReadBefore(var, p, BlockAt(p).end, depth + 1);
    if (Canon(v) == 0) {
      nodes_[n].unknown = true;
      entry_[key] = 0;
      return 0;
    }
    ops.emplace_back(p, v);
  }
  // A phi whose operands are all one value (or itself) is that value.
  Val same = 0;
  bool trivial = true;
  for (const auto& [p, v] : ops) {
    const Val c = Canon(v);
    if (c == NodeVal(n)) continue;
    if (same == 0) {
      same = c;
    } else if (c != same) {
      trivial = false;
      break;
    }
  }
  nodes_[n].ops = std::move(ops);
  if (trivial && same != 0) {
    nodes_[n].forward = same;
    entry_[key] = same;
    return same;
  }
  return NodeVal(n);
}

bool Prover::HeaderPhi(Val v, uint32_t header, uint32_t pre, uint32_t latch, Val* from_pre,
                       Val* from_latch) {
  v = Canon(v);
  *from_pre = *from_latch = 0;
  auto take = [&](uint32_t pred, Val value) {
    if (pred == pre && *from_pre == 0) {
      *from_pre = Canon(value);
    } else if (pred == latch && *from_latch == 0) {
      *from_latch = Canon(value);
    } else {
      return false;
    }
    return true;
  };
  if (IsNode(v)) {
    const Node& node = nodes_[v >> 1];
    if (node.block != header) return false;
    for (const auto& [p, value] : node.ops) {
      if (!take(p, value)) return false;
    }
  } else {
    const InstIndex d = DefOf(v);
    if (d == kNoInst || m_.opcode(d) != Op::Phi || m_.BlockOf(d) != header) return false;
    for (uint32_t w = 3; w + 1 < m_.num_words(d); w += 2) {
      if (!take(m_.BlockOfLabel(m_.word(d, w + 1)), Resolve(m_.word(d, w)))) return false;
    }
  }
  return *from_pre != 0 && *from_latch != 0;
}

std::optional<double> Prover::FloatConstant(Id id) const {
  const InstIndex d = m_.Def(id);
  if (d == kNoInst || m_.opcode(d) != Op::Constant) return std::nullopt;
  const InstIndex t = m_.Def(m_.type_id(d));
  // Plain IEEE floats only (no encoding operand: not bfloat16 or the float8 types).
  if (t == kNoInst || m_.opcode(t) != Op::TypeFloat || m_.num_words(t) != 3) return std::nullopt;
  const uint32_t width = m_.word(t, 2);
  if ((width != 16 && width != 32 && width != 64) || m_.num_words(d) < 3 + (width + 31) / 32) {
    return std::nullopt;
  }
  const uint64_t bits = m_.word(d, 3) | (width == 64 ? uint64_t{m_.word(d, 4)} << 32 : uint64_t{0});
  const double v = IeeeFloatValue(bits, width);
  if (std::isnan(v)) return std::nullopt;
  return v;
}

std::optional<Threshold> Prover::ThresholdOf(InstIndex d) {
  Threshold t;
  switch (m_.opcode(d)) {
    case Op::FOrdLessThan:
    case Op::FUnordLessThan:
      t.below = t.strict = true;
      break;
    case Op::FOrdLessThanEqual:
    case Op::FUnordLessThanEqual:
      t.below = true;
      break;
    case Op::FOrdGreaterThan:
    case Op::FUnordGreaterThan:
      t.strict = true;
      break;
    case Op::FOrdGreaterThanEqual:
    case Op::FUnordGreaterThanEqual:
      break;
    default:
      return std::nullopt;
  }
  if (m_.num_words(d) < 5) return std::nullopt;
  Id x = m_.word(d, 3);
  std::optional<double> k = FloatConstant(m_.word(d, 4));
  if (!k) {
    // k OP x: the same test with the sides swapped.
    k = FloatConstant(x);
    if (!k) return std::nullopt;
    x = m_.word(d, 4);
    t.below = !t.below;
  }
  const InstIndex type = m_.Def(state_.TypeOf(x));
  if (type == kNoInst || m_.opcode(type) != Op::TypeFloat || m_.num_words(type) != 3) {
    return std::nullopt;
  }
  t.k = *k;
  t.width = m_.word(type, 2);
  t.x = Canon(Resolve(x));
  if (t.x == 0) return std::nullopt;
  return t;
}

Id Prover::RootOf(Id pointer) const {
  const Id base = PointerBase(m_, pointer);
  return base != 0 && m_.DefOpcode(base) == Op::Variable ? base : 0;
}

void Prover::WrittenPointers(InstIndex i, ws::vector<Id>& out) const {
  const Op op = m_.opcode(i);
  const uint32_t n = m_.num_words(i);
  switch (op) {
    case Op::Store:
    case Op::CopyMemory:
    case Op::CopyMemorySized:
    case Op::AtomicStore:
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixStoreNV:
    case Op::CooperativeMatrixStoreTensorNV:
    case Op::CooperativeVectorStoreNV:
    case Op::CooperativeVectorOuterProductAccumulateNV:  // Atomic adds into the array.
    case Op::CooperativeVectorReduceSumAccumulateNV:
      if (n > 1) out.push_back(m_.word(i, 1));
      return;
    case Op::FunctionCall:
    case Op::CooperativeMatrixPerElementOpEXT:  // They call functions (callbacks).
    case Op::CooperativeMatrixReduceEXT:
      out.push_back(0);
      return;
    case Op::CooperativeMatrixLoadTensorNV:
      // A DecodeFunc or DecodeVectorFunc among its operands.
      for (uint32_t w = 4; w < n; ++w) {
        if (m_.FunctionById(m_.word(i, w)) != ~0u) {
          out.push_back(0);
          return;
        }
      }
      return;
    case Op::ExtInst:
      // Extended instructions with a pointer operand may write through it (GLSL.std.450 Modf and
      // Frexp do).
      for (uint32_t w = 5; w < n; ++w) {
        const InstIndex type = m_.Def(state_.TypeOf(m_.word(i, w)));
        if (type != kNoInst && m_.opcode(type) == Op::TypePointer) {
          out.push_back(m_.word(i, w));
        }
      }
      return;
    default:
      break;
  }
  const grammar::InstructionInfo* info = grammar::LookupOpcode(static_cast<uint32_t>(op));
  if (info != nullptr && std::string_view(info->name).starts_with("OpAtomic")) {
    out.push_back(n > 3 ? m_.word(i, 3) : 0);
  }
}

bool Prover::SlotPointer(Id pointer, Id* slot, Val* index) {
  const InstIndex chain = m_.Def(pointer);
  if (chain == kNoInst ||
      (m_.opcode(chain) != Op::AccessChain && m_.opcode(chain) != Op::InBoundsAccessChain) ||
      m_.num_words(chain) != 5) {
    return false;
  }
  const Id base = m_.word(chain, 3);
  const InstIndex var = m_.Def(base);
  if (var == kNoInst || m_.opcode(var) != Op::Variable ||
      static_cast<StorageClass>(m_.word(var, 3)) != StorageClass::Workgroup) {
    return false;
  }
  *slot = base;
  *index = Canon(Resolve(m_.word(chain, 4)));
  return *index != 0;
}

void Prover::Prove(InstIndex vote, ws::vector<InstIndex>& out) {
  if (relaxed_) return;
  budget_ = kBudget;
  const Op vote_op = m_.opcode(vote);
  if (m_.num_words(vote) < 5 || !IsSubgroupScope(m_.word(vote, 3))) return;
  // What is voted: a threshold test of x (subgroupAll), or x itself (a max / min reduction).
  Threshold vote_test;
  bool reduce = false, reduce_max = false;
  Val x = 0;
  if (vote_op == Op::GroupNonUniformAll) {
    const Val q = Canon(Resolve(m_.word(vote, 4)));
    const InstIndex q_def = DefOf(q);
    if (q_def == kNoInst) return;
    const std::optional<Threshold> t = ThresholdOf(q_def);
    if (!t) return;
    vote_test = *t;
    x = t->x;
  } else {
    if (m_.num_words(vote) < 6 ||
        m_.word(vote, 4) != static_cast<uint32_t>(spv::GroupOperation::Reduce)) {
      return;
    }
    reduce = true;
    reduce_max = vote_op == Op::GroupNonUniformFMax;
    x = Canon(Resolve(m_.word(vote, 5)));
    if (x == 0) return;
  }
  const Val vote_value = SsaVal(m_.result_id(vote));

  // The path from the vote to the loop: straight blocks (each the only successor of the one
  // before, which is its only predecessor), but for one selection whose condition lets the first
  // invocation of each subgroup store the subgroup's slot, then a Workgroup barrier.
  ws::vector<Id> written_roots;  // Shared memory written on the path and in the loop (0: unknown).
  ws::vector<Id> pointers;
  auto note_write = [&](InstIndex i) {
    pointers.clear();
    WrittenPointers(i, pointers);
    for (const Id pointer : pointers) {
      const Id root = pointer == 0 ? 0 : RootOf(pointer);
      const InstIndex def = root ? m_.Def(root) : kNoInst;
      if (def != kNoInst && static_cast<StorageClass>(m_.word(def, 3)) == StorageClass::Function) {
        continue;
      }
      written_roots.push_back(root);
    }
  };
  uint32_t b = m_.BlockOf(vote);
  InstIndex i = vote + 1;
  uint32_t guard_block = ~0u, guard_merge = ~0u;
  InstIndex slot_store = kNoInst;
  Id slot = 0;
  Val slot_value = 0;
  bool barrier = false;
  uint32_t header = ~0u, pre = ~0u;
  for (int steps = 0; header == ~0u; ++steps) {
    if (steps > kMaxChainBlocks || b == ~0u) return;
    const ir::Block& block = BlockAt(b);
    for (; i + 1 < block.end; ++i) {
      if (--work_ < 0) return;
      const Op op = m_.opcode(i);
      if (op == Op::ControlBarrier) {
        if (slot_store != kNoInst && b != guard_block && WorkgroupBarrier(i)) barrier = true;
        continue;
      }
      if (op == Op::Store && b == guard_block && slot_store == kNoInst) {
        Val index = 0;
        if (SlotPointer(m_.word(i, 1), &slot, &index)) {
          if (!IsBuiltInLoad(index, BuiltIn::SubgroupId) || !NonPrivate(i, 3)) return;
          slot_store = i;
          slot_value = Canon(Resolve(m_.word(i, 2)));
          continue;
        }
      }
      note_write(i);
    }
    const InstIndex term = block.end - 1;
    const Op term_op = m_.opcode(term);
    uint32_t next = ~0u;
    if (term_op == Op::Branch) {
      next = m_.BlockOfLabel(m_.word(term, 1));
      if (next == ~0u) return;
      if (b == guard_block) {
        if (next != guard_merge) return;
      } else if (cfg_.merge_kind(next) == ir::MergeKind::kLoop) {
        header = next;
        pre = b;
        break;
      } else {
        Predecessors(next, preds_);
        if (preds_.size() != 1 || preds_[0] != b) return;
      }
    } else if (term_op == Op::BranchConditional && guard_block == ~0u && slot_store == kNoInst) {
      // The guard: `if (SubgroupLocalInvocationId == 0)` or `if (subgroupElect())`, no else.
      if (cfg_.merge_kind(b) != ir::MergeKind::kSelection) return;
      const uint32_t merge = cfg_.merge_block(b);
      const uint32_t then_block = m_.BlockOfLabel(m_.word(term, 2));
      if (merge == ~0u || then_block == ~0u || then_block == merge ||
          m_.BlockOfLabel(m_.word(term, 3)) != merge) {
        return;
      }
      Predecessors(then_block, preds_);
      if (preds_.size() != 1 || preds_[0] != b) return;
      Predecessors(merge, preds_);
      if (preds_.size() != 2) return;
      const InstIndex cond = DefOf(Canon(Resolve(m_.word(term, 1))));
      if (cond == kNoInst) return;
      bool first_invocation = false;
      if (m_.opcode(cond) == Op::GroupNonUniformElect) {
        first_invocation = m_.num_words(cond) >= 4 && IsSubgroupScope(m_.word(cond, 3));
      } else if (m_.opcode(cond) == Op::IEqual && m_.num_words(cond) >= 5) {
        for (int side = 0; side < 2; ++side) {
          const Id lane = m_.word(cond, 3 + side), zero = m_.word(cond, 4 - side);
          if (state_.IntConstant(zero) == 0 &&
              IsBuiltInLoad(Canon(Resolve(lane)), BuiltIn::SubgroupLocalInvocationId)) {
            first_invocation = true;
          }
        }
      }
      if (!first_invocation) return;
      guard_block = then_block;
      guard_merge = merge;
      next = then_block;
    } else {
      return;
    }
    b = next;
    i = BlockAt(b).label + 1;
  }
  if (slot_store == kNoInst || !barrier) return;
  // What a subgroup's slot holds: the vote (a reduction), or vote ? a : b with a passing the test
  // and b failing it (checked against the comparison below).
  std::optional<double> pass, fail;
  if (reduce) {
    if (slot_value != vote_value) return;
  } else {
    const InstIndex select = DefOf(slot_value);
    if (select == kNoInst || m_.opcode(select) != Op::Select || m_.num_words(select) != 6 ||
        Canon(Resolve(m_.word(select, 3))) != vote_value) {
      return;
    }
    pass = FloatConstant(m_.word(select, 4));
    fail = FloatConstant(m_.word(select, 5));
    if (!pass || !fail) return;
  }

  // The loop: a header with two predecessors (the path above and the latch), its exit test
  // `s < NumSubgroups` in the header or the header's only successor, an induction variable from 0
  // by 1, and no other way out (every block that reaches the latch branches only inside).
  Predecessors(header, preds_);
  if (preds_.size() != 2) return;
  const uint32_t latch = preds_[0] == pre ? preds_[1] : preds_[0];
  const uint32_t merge = cfg_.merge_block(header);
  if (merge == ~0u || latch == pre) return;
  ws::vector<uint32_t> loop{header};
  ws::vector<uint32_t> work{latch};
  while (!work.empty()) {
    const uint32_t x_block = work.back();
    work.pop_back();
    // Each step costs a search of the blocks found so far.
    work_ -= static_cast<int64_t>(loop.size()) + 1;
    if (work_ < 0) return;
    if (std::find(loop.begin(), loop.end(), x_block) != loop.end()) continue;
    if (loop.size() >= kMaxLoopBlocks) return;
    loop.push_back(x_block);
    Predecessors(x_block, preds_);
    if (preds_.empty()) return;  // Not a loop the header dominates.
    for (const uint32_t p : preds_) work.push_back(p);
  }
  uint32_t exit_block = header;
  if (m_.opcode(BlockAt(header).end - 1) == Op::Branch) {
    exit_block = m_.BlockOfLabel(m_.word(BlockAt(header).end - 1, 1));
  }
  const InstIndex exit_term = exit_block == ~0u ? kNoInst : BlockAt(exit_block).end - 1;
  if (exit_term == kNoInst || m_.opcode(exit_term) != Op::BranchConditional ||
      std::find(loop.begin(), loop.end(), exit_block) == loop.end() ||
      m_.BlockOfLabel(m_.word(exit_term, 3)) != merge) {
    return;
  }
  for (const uint32_t lb : loop) {
    const ir::Block& block = BlockAt(lb);
    work_ -= static_cast<int64_t>(block.end - block.label);
    if (work_ < 0) return;
    for (InstIndex j = block.label + 1; j + 1 < block.end; ++j) note_write(j);
    const Op op = m_.opcode(block.end - 1);
    if (op != Op::Branch && op != Op::BranchConditional && op != Op::Switch) return;
    for (const uint32_t s : cfg_.Successors(lb)) {
      work_ -= static_cast<int64_t>(loop.size());
      if (work_ < 0) return;
      if (std::find(loop.begin(), loop.end(), s) != loop.end()) continue;
      if (lb == exit_block && s == merge) continue;
      return;  // Another exit.
    }
  }
  for (const Id root : written_roots) {
    if (root == 0 || root == slot) return;
  }
  // The exit test and the induction variable.
  const InstIndex test = DefOf(Canon(Resolve(m_.word(exit_term, 1))));
  if (test == kNoInst || (m_.opcode(test) != Op::ULessThan && m_.opcode(test) != Op::SLessThan) ||
      !IsBuiltInLoad(Canon(Resolve(m_.word(test, 4))), BuiltIn::NumSubgroups)) {
    return;
  }
  const Val s = Canon(Resolve(m_.word(test, 3)));
  Val s_start = 0, s_next = 0;
  if (!HeaderPhi(s, header, pre, latch, &s_start, &s_next)) return;
  const InstIndex start_def = DefOf(s_start), add = DefOf(s_next);
  if (start_def == kNoInst || state_.IntConstant(m_.result_id(start_def)) != 0 || add == kNoInst ||
      m_.opcode(add) != Op::IAdd) {
    return;
  }
  bool steps_by_one = false;
  for (int side = 0; side < 2; ++side) {
    if (state_.IntConstant(m_.word(add, 3 + side)) == 1 &&
        Canon(Resolve(m_.word(add, 4 - side))) == s) {
      steps_by_one = true;
    }
  }
  if (!steps_by_one) return;

  // The comparisons after the loop: acc OP k, acc a phi at the header that starts from x and
  // takes max(acc, slot[s]) (min for >, >=) on each iteration.
  Predecessors(merge, preds_);
  if (preds_.size() != 1 || preds_[0] != exit_block) return;
  const ir::Block& after = BlockAt(merge);
  for (InstIndex j = after.label + 1; j < after.end; ++j) {
    if (--work_ < 0) return;
    const std::optional<Threshold> t = ThresholdOf(j);
    if (!t) continue;
    if (t->width >= 128 || (nan_preserved_ & (uint64_t{1} << (t->width / 2))) != 0 ||
        !t->FlushProof()) {
      continue;
    }
    if (reduce ? reduce_max != t->below
               : !(t->SameTest(vote_test) && t->Holds(*pass) && !t->Holds(*fail))) {
      continue;
    }
    Val start = 0, step = 0;
    if (!HeaderPhi(t->x, header, pre, latch, &start, &step) || start != x) continue;
    const InstIndex fold = DefOf(step);
    if (fold == kNoInst || m_.opcode(fold) != Op::ExtInst || m_.num_words(fold) != 7 || glsl_ < 0 ||
        m_.parsed().instructions[fold].ext_inst_set != glsl_) {
      continue;
    }
    const uint32_t inst = m_.word(fold, 4);
    if (t->below ? inst != kGlslFMax && inst != kGlslNMax
                 : inst != kGlslFMin && inst != kGlslNMin) {
      continue;
    }
    bool reads_slots = false;
    for (int side = 0; side < 2; ++side) {
      if (Canon(Resolve(m_.word(fold, 5 + side))) != t->x) continue;
      const InstIndex load = DefOf(Canon(Resolve(m_.word(fold, 6 - side))));
      if (load == kNoInst || m_.opcode(load) != Op::Load || !NonPrivate(load, 4) ||
          std::find(loop.begin(), loop.end(), m_.BlockOf(load)) == loop.end()) {
        continue;
      }
      Id base = 0;
      Val index = 0;
      if (SlotPointer(m_.word(load, 3), &base, &index) && base == slot && index == s) {
        reads_slots = true;
      }
    }
    if (reads_slots) out.push_back(j);
  }
}

}  // namespace

Id PointerBase(const ir::Module& m, Id pointer) {
  for (int depth = 0; depth < 256; ++depth) {
    const InstIndex d = m.Def(pointer);
    if (d == kNoInst) return 0;
    switch (m.opcode(d)) {
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
      case Op::PtrAccessChain:
      case Op::InBoundsPtrAccessChain:
      case Op::CopyObject:
        pointer = m.word(d, 3);
        continue;
      default:
        return pointer;
    }
  }
  return 0;
}

ws::vector<InstIndex> ProveWorkgroupVotes(const ValidationState& state, const VoteInputs& in) {
  ws::vector<InstIndex> proven;
  if (in.votes.empty()) return proven;
  Prover prover(state, in);
  for (const InstIndex vote : in.votes) prover.Prove(vote, proven);
  std::sort(proven.begin(), proven.end());
  proven.erase(std::unique(proven.begin(), proven.end()), proven.end());
  return proven;
}

}  // namespace coopspv::val
