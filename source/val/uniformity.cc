// Divergence analysis for cooperative matrix instructions.
//
// SPV_KHR_cooperative_matrix (and the NV and matrix2 instructions) require every operand to be
// dynamically uniform within the scope instance of the matrix, and all invocations of that
// scope instance to be active or none. This file proves it, or says why it cannot.
//
// Every value gets a level on the lattice
//   kUniform (same in the whole workgroup) < kSubgroup (same within each subgroup)
//   < kUnknown (not proven either way) < kDivergent (derived from a per-invocation source),
// and every block a control level: the level of the branch conditions it is control dependent
// on, up to their reconvergence points (immediate post-dominators), or of the call sites of
// its function. Sources: LocalInvocationId, LocalInvocationIndex, GlobalInvocationId,
// SubgroupLocalInvocationId and other per-invocation inputs, atomics, scans and shuffles are
// divergent; SubgroupId and subgroup reductions are subgroup-uniform; constants, spec
// constants, push constants, WorkgroupId, NumWorkgroups and other workgroup-wide inputs are
// uniform. Memory is tracked per root variable: Function and Private variables hold the join of
// what is stored into them (and of the control level of the stores; flow-sensitively for
// variables only loaded and stored whole). Memory the invocations share (buffers, Workgroup)
// gives the same value to every invocation that loads one location together: anything else
// would need a data race. Loads at an address that differs per invocation (or per subgroup) read
// different locations (SharedLoad): they agree only where every location provably holds one value
// (every write of the Workgroup variable stores the same uniform value, computed once per
// invocation); they are divergent where the data stored there is per invocation (sh[lid] = lid
// read back at sh[lid]), and unproven otherwise: equal data at different places is common and the
// validator cannot see it. Only computation on per-invocation sources proves divergence; data
// chosen by divergent control is unproven too (JoinControl). Values join their operands; OpPhi
// also takes the level of divergent branches that reconverge at its block; a function called
// from one place gets its caller's levels, one called from several is summarized (what its
// values depend on among its parameters and its call-site control, resolved per call). Reading an
// element of a matrix is divergent unless all its elements hold one value (PrepareReplicated).
// Values defined in a divergent region and used outside it (a loop with a divergent trip count) are
// divergent at the use. One relation between values is proven apart (uniformity_votes.h): a
// threshold test of a per-invocation value folded with every subgroup's vote on that test, read
// back from Workgroup memory, is uniform; such comparisons are pinned uniform before the solve.
//
// The analysis is a worklist solver (Solve): each instruction is evaluated once, then again only
// when a level it reads (an operand's, its control's, a memory root's, a call's) was raised.
// Levels only grow, so it terminates; the work is linear in the module's size times the few
// raises each value can take.
#include <algorithm>
#include <array>
#include <bit>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/analyses.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"
#include "source/val/uniformity_votes.h"

namespace coopspv::val {
namespace {

using spv::BuiltIn;
using spv::StorageClass;

enum Level : uint8_t { kUniform = 0, kSubgroup = 1, kUnknown = 2, kDivergent = 3 };

const char* LevelText(Level l) {
  switch (l) {
    case kUniform:
      return "uniform";
    case kSubgroup:
      return "subgroup-uniform";
    case kUnknown:
      return "not provably uniform";
    case kDivergent:
      return "divergent";
  }
  return "?";
}

Level BuiltInLevel(BuiltIn b) {
  switch (b) {
    case BuiltIn::LocalInvocationId:
    case BuiltIn::LocalInvocationIndex:
    case BuiltIn::GlobalInvocationId:
    case BuiltIn::SubgroupLocalInvocationId:
    case BuiltIn::SubgroupEqMask:
    case BuiltIn::SubgroupGeMask:
    case BuiltIn::SubgroupGtMask:
    case BuiltIn::SubgroupLeMask:
    case BuiltIn::SubgroupLtMask:
    case BuiltIn::FragCoord:
    case BuiltIn::VertexIndex:
    case BuiltIn::InstanceIndex:
    case BuiltIn::PrimitiveId:
    case BuiltIn::SampleId:
    case BuiltIn::HelperInvocation:
      return kDivergent;
    case BuiltIn::SubgroupId:
      return kSubgroup;
    case BuiltIn::WorkgroupId:
    case BuiltIn::NumWorkgroups:
    case BuiltIn::WorkgroupSize:
    case BuiltIn::NumSubgroups:
    case BuiltIn::SubgroupSize:
      return kUniform;
    default:
      return kDivergent;  // Per-invocation unless known otherwise.
  }
}

// How an opcode's result level is computed, beyond joining its operands.
enum class OpClass : uint8_t { kJoin, kAtomic, kGroupUniform, kGroupDivergent, kGroupArithmetic };

// The facts of an opcode, in a byte: its OpClass (low bits), and kMaybeCooperative where
// IsCooperativeMatrixOperation can hold for it (a cooperative matrix instruction, or a
// conversion, arithmetic or composite construction that may take or make a matrix), so that
// Check asks only about those. Computed at compile time for every opcode (kFactsTable).
constexpr uint8_t kMaybeCooperative = 0x80;
// Opcodes whose result is only the join of their operands (kJoin and none of the cases
// EvaluateInstruction treats apart): Solve evaluates them in line.
constexpr uint8_t kPlainJoin = 0x40;
// An OpCooperativeMatrix* opcode: Check asks IsCooperativeMatrixOperation whatever its types.
constexpr uint8_t kCoopMatrixName = 0x20;
// Opcodes EvaluateInstruction computes from their operands, their block's control level and its
// merges alone (stores, OpPhi, OpReturnValue, cooperative loads, ...): like plain joins, they raise
// nothing until one of those was raised, so the first sweep leaves them to the worklist.
constexpr uint8_t kQuietUntilRaised = 0x08;
constexpr uint8_t kOpClassMask = 0x07;
// Opcodes EvaluateInstruction computes from their block's control level or merges (stores,
// OpPhi, OpFunctionCall, OpReturnValue): where those were raised, the others of the block are
// left alone (the rest reads only values, memory and the regions of the blocks defining its
// operands, raised apart).
constexpr uint8_t kReadsControl = 0x10;

constexpr uint8_t OpFacts(const grammar::OpcodeFact& info) {
  const std::string_view name = info.name;
  const auto op = static_cast<Op>(info.opcode);
  const bool coop_matrix_name = name.starts_with("OpCooperativeMatrix");
  const bool maybe_cooperative =
      coop_matrix_name || info.klass == grammar::InstructionClass::kConversion ||
      info.klass == grammar::InstructionClass::kArithmetic || op == Op::CompositeConstruct ||
      op == Op::CompositeConstructReplicateEXT;
  OpClass c = OpClass::kJoin;
  if (name.starts_with("OpAtomic")) {
    c = OpClass::kAtomic;
  } else if (name.starts_with("OpGroupNonUniform")) {
    // Arithmetic with a GroupOperation: Reduce is uniform, scans are not. Of the rest, only
    // the votes, broadcasts and ballot queries give every invocation the same value.
    c = OpClass::kGroupDivergent;
    if (info.has_group_operation) c = OpClass::kGroupArithmetic;
    switch (op) {
      case Op::GroupNonUniformAll:
      case Op::GroupNonUniformAny:
      case Op::GroupNonUniformAllEqual:
      case Op::GroupNonUniformBroadcast:
      case Op::GroupNonUniformBroadcastFirst:
      case Op::GroupNonUniformBallot:
      case Op::GroupNonUniformBallotFindLSB:
      case Op::GroupNonUniformBallotFindMSB:
        c = OpClass::kGroupUniform;
        break;
      default:
        break;
    }
  }
  bool plain = c == OpClass::kJoin;
  // The opcodes EvaluateInstruction treats apart: not plain joins; those reading only their
  // operands, control and merges are quiet until raised; those reading the control or merges.
  bool quiet = false, reads_control = false;
  switch (op) {
    case Op::Store:
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixStoreNV:
    case Op::CooperativeMatrixStoreTensorNV:
    case Op::CooperativeVectorStoreNV:
    case Op::Phi:
    case Op::ReturnValue:
      plain = false;
      quiet = c == OpClass::kJoin;
      reads_control = true;
      break;
    case Op::FunctionCall:
      plain = false;
      reads_control = true;
      break;
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixLoadTensorNV:
    case Op::CompositeInsert:
    case Op::Variable:
    case Op::FunctionParameter:
      plain = false;
      quiet = c == OpClass::kJoin;
      break;
    case Op::CompositeExtract:
    case Op::Load:
    case Op::CooperativeVectorLoadNV:
      plain = false;
      break;
    default:
      break;
  }
  return static_cast<uint8_t>(static_cast<uint8_t>(c) | (quiet ? kQuietUntilRaised : 0) |
                              (maybe_cooperative ? kMaybeCooperative : 0) |
                              (coop_matrix_name ? kCoopMatrixName : 0) | (plain ? kPlainJoin : 0) |
                              (reads_control ? kReadsControl : 0));
}

// The facts of every opcode (0 for numbers the grammar does not define).
constexpr auto kFactsTable = [] {
  std::array<uint8_t, grammar::kMaxOpcode + 1> table{};
  for (const grammar::OpcodeFact& fact : grammar::kOpcodeFacts) table[fact.opcode] = OpFacts(fact);
  return table;
}();

uint8_t Facts(Op op) {
  const auto v = static_cast<uint32_t>(op);
  return v < kFactsTable.size() ? kFactsTable[v] : 0;
}

// Memory the invocations share (buffers, Workgroup, push constants, ...).
bool SharedStorage(StorageClass sc) {
  switch (sc) {
    case StorageClass::Uniform:
    case StorageClass::UniformConstant:
    case StorageClass::PushConstant:
    case StorageClass::StorageBuffer:
    case StorageClass::Workgroup:
    case StorageClass::PhysicalStorageBuffer:
      return true;
    default:
      return false;
  }
}

class Uniformity {
 public:
  explicit Uniformity(ValidationState& state) : state_(state), m_(state.module()), cfg_(m_.cfg()) {}

  void Run();

 private:
  // A level and the instruction that made it non-uniform, packed in 32 bits, and the parameters
  // of a summarized function (bit p: parameter p, or the memory it points to) the value also
  // depends on: what they are is known per call site (Effective).
  struct Source {
    // reason_bits holds the instruction + 1, 0 for none: a uniform Source is all zero bits, so
    // that tables of them are filled like memory.
    static constexpr uint32_t kNoReason = (1u << 30) - 1;
    Source() : level(kUniform), reason_bits(0) {}
    Source(Level l, InstIndex r, uint32_t d = 0)
        : level(l), reason_bits(r >= kNoReason ? 0 : r + 1), deps(d) {}
    InstIndex reason() const { return reason_bits == 0 ? kNoInst : reason_bits - 1; }
    Level level : 2;
    uint32_t reason_bits : 30;
    uint32_t deps = 0;
  };
  static_assert(sizeof(Source) == 8);
  static constexpr uint32_t kMaxSummarizedParams = 30;
  static constexpr uint32_t kCallControlBit = 1u << 31;  // The control level of the call site.
  // With parameter bits: they choose an address into shared memory not proven to hold
  // per-invocation data (SharedLoad), so what a call passes proves nothing of the value read
  // there: a per-invocation argument makes it unproven, a per-subgroup one subgroup-uniform but
  // unproven across the workgroup (Capped).
  static constexpr uint32_t kAddressBit = 1u << 30;

  // Sets `table` to `n` uniform Sources.
  static void ZeroFill(ws::vector<Source>& table, size_t n) {
    table.clear();
    table.resize(n);
  }
  void Prepare();
  void PrepareReachingStores();
  void PrepareReplicated();
  // Files instruction `i` in the lists PrepareReplicated reads (called by Prepare for each).
  [[gnu::always_inline]] inline void NoteReplicated(InstIndex i, Op op);
  // Instructions with a matrix result, stores, access chains (their base is checked once
  // variables are known) and Function variables holding a matrix, in order.
  ws::vector<InstIndex> rep_matrices_, rep_stores_, rep_chains_, rep_variables_;
  // Marks what reads table[index] for evaluation again (Solve).
  void Raised(const ws::vector<Source>& table, size_t index);
  void MarkUsers(Id id) {
    for (uint32_t k = first_use_[id]; k != kNoUse; k = operands_[k].next_use) {
      const InstIndex i = operands_[k].inst;
      inst_dirty_[i - body_begin_] = 1;
      dirty_[m_.BlockOf(i)] = 1;
    }
    if (is_condition_[id]) levels_dirty_ = true;
  }
  void MarkInstructions(std::span<const uint32_t> insts) {
    for (const InstIndex i : insts) {
      inst_dirty_[i - body_begin_] = 1;
      dirty_[m_.BlockOf(i)] = 1;
    }
  }
  // The control level or merges of block b were raised: its instructions that read them
  // (kReadsControl) are to evaluate.
  void MarkBlock(uint32_t b) { dirty_[b] = all_dirty_[b] = 1; }
  void BlockRaised(uint32_t b);
  void Solve();
  bool Raise(ws::vector<Source>& table, size_t index, Source s) {
    if (!Lift(table, index, s)) return false;
    Raised(table, index);
    return true;
  }
  // Raise without marking what reads table[index]: the caller does.
  static bool Lift(ws::vector<Source>& table, size_t index, Source s) {
    Source& t = table[index];
    const bool higher = s.level > t.level;
    if (!higher && (s.deps & ~t.deps) == 0) return false;
    if (higher) {
      t.level = s.level;
      t.reason_bits = s.reason_bits;
    }
    t.deps |= s.deps;
    return true;
  }
  bool Raise(ws::vector<Source>& table, size_t index, Level level, InstIndex reason) {
    return Raise(table, index, Source(level, reason));
  }
  static Source Join(Source a, Source b) {
    Source r = b.level > a.level ? b : a;
    r.deps = a.deps | b.deps;
    return r;
  }
  // What a call passes for a dependence bit of a Source with kAddressBit: `s` as an address into
  // shared memory, which proves no value read there different per invocation (or per subgroup
  // across the workgroup). `why` (a parameter or the function) names the reason, never proven.
  static Source Capped(Source s, InstIndex why) {
    if (s.deps != 0) s.deps |= kAddressBit;
    if (s.level == kUniform) return s;
    return Source(s.level > kUnknown ? kUnknown : static_cast<Level>(s.level), why, s.deps);
  }
  // The parameter (or the function, for kCallControlBit) that dependence bit `p` of `f` stands for.
  InstIndex DependenceDef(uint32_t f, uint32_t p) const {
    const ir::Function& fn = m_.functions()[f];
    return (1u << p) == kCallControlBit ? fn.def : m_.Param(fn, p);
  }
  // The level a value of function `f` has at its worst call site: its own level joined with what
  // the call sites pass for the parameters it depends on. No deps left.
  Source Effective(Source s, uint32_t f) const {
    if (s.deps & kAddressBit) return EffectiveCapped(s, f);
    Source r(s.level, s.reason());
    for (uint32_t deps = s.deps; deps != 0; deps &= deps - 1) {
      const uint32_t p = std::countr_zero(deps);
      const Source& a =
          (1u << p) == kCallControlBit ? entries_[f] : param_effective_[param_base_[f] + p];
      if (a.level > r.level) r = Source(a.level, a.reason());
    }
    return r;
  }
  // Effective for a Source with kAddressBit, each call site's level Capped.
  [[gnu::noinline]] Source EffectiveCapped(Source s, uint32_t f) const {
    Source r(s.level, s.reason());
    for (uint32_t deps = s.deps & ~kAddressBit; deps != 0; deps &= deps - 1) {
      const uint32_t p = std::countr_zero(deps);
      const Source a =
          Capped((1u << p) == kCallControlBit ? entries_[f] : param_effective_[param_base_[f] + p],
                 DependenceDef(f, p));
      if (a.level > r.level) r = Source(a.level, a.reason());
    }
    return r;
  }
  // The level call `i` (in control `control`, passing `num_args` arguments) gets from function
  // `f`: the callee's own level, and what this call passes for the parameters it depends on.
  Source Returned(InstIndex i, uint32_t f, uint32_t num_args, Source control) const {
    const Source& ret = returns_[f];
    Source r(ret.level, ret.reason());
    for (uint32_t deps = ret.deps & ~kAddressBit; deps != 0; deps &= deps - 1) {
      const uint32_t p = std::countr_zero(deps);
      if ((1u << p) != kCallControlBit && p >= num_args) continue;
      const Source a = (1u << p) == kCallControlBit ? control : Argument(i, f, p);
      r = Join(r, (ret.deps & kAddressBit) ? Capped(a, DependenceDef(f, p)) : a);
    }
    return r;
  }
  // What a call site passes for parameter `p` of `callee`: the argument's value, or the contents
  // of the memory a pointer argument points to.
  Source Argument(InstIndex call, uint32_t callee, uint32_t p) const {
    const Id arg = m_.word(call, 4 + p);
    const Id param = m_.result_id(m_.Param(m_.functions()[callee], p));
    if (state_.IsPointerType(state_.TypeOf(param))) return ContentsOf(RootOf(arg));
    return ValueOf(arg);
  }
  // A value chosen by control flow (a store in a branch, an OpPhi after one): divergent control
  // proves that invocations hold different values only when the values themselves are known;
  // unproven data written on one path may equal what the other path holds.
  Source JoinControl(Source value, Source control) const {
    if (value.level == kUnknown && control.level == kDivergent) {
      value.deps |= control.deps;
      return value;
    }
    return Join(value, control);
  }
  Source ValueOf(Id id) const { return id < values_.size() ? values_[id] : Source{}; }
  // The variable (or pointer parameter) a pointer is derived from, 0 if unknown.
  Id RootOf(Id pointer) const;
  Source ContentsOf(Id root) const;
  // Whether ContentsOf(root) starts uniform and changes only through Raise (memory the
  // invocations share, Function and Private variables; not Input variables nor parameters,
  // which Prepare sets): a load of it raises nothing until something it reads was raised.
  bool QuietRoot(Id root) const;
  // The memory a root pointer (RootOf) designates, as its loads and stores are evaluated.
  enum class Memory : uint8_t {
    kUnknown,  // No root (0 or undefined).
    kPrivate,  // Function and Private variables, pointer parameters.
    // Workgroup variables: contents_ hold the level of the data stored there (not of where),
    // contents_control_ the control it is stored under.
    kWorkgroup,
    // Buffers, push constants, pointers loaded or computed at run time: they hold what the host
    // and other workgroups wrote too, so what is stored here is not followed.
    kShared,
    kOther,  // Input and the other storage classes.
  };
  Memory MemoryOf(Id root) const {
    const InstIndex d = root ? m_.Def(root) : kNoInst;
    if (d == kNoInst) return Memory::kUnknown;
    const Op op = m_.opcode(d);
    if (op == Op::FunctionParameter) return Memory::kPrivate;
    if (op != Op::Variable) return Memory::kShared;
    const auto sc = static_cast<StorageClass>(m_.word(d, 3));
    if (sc == StorageClass::Workgroup) return Memory::kWorkgroup;
    if (sc == StorageClass::Function || sc == StorageClass::Private) return Memory::kPrivate;
    return SharedStorage(sc) ? Memory::kShared : Memory::kOther;
  }
  // The helpers of loads and stores of shared memory below are rarely run and kept out of line
  // (noinline), so that the hot evaluation keeps the inlining this file's budget allows it.
  // The data store `i` (of opcode `op`, in `block`) writes to Workgroup memory.
  [[gnu::noinline]] Source StoredData(InstIndex i, Op op, uint32_t block) const;
  // What writes a Workgroup variable, from the uses of it and of the pointers derived from it
  // (found once, when a load at an address that is not uniform first needs it): the one value
  // every OpStore writes (0 for none, kManyValues for several, or where cooperative stores or an
  // initializer write too), and the first writer whose data the analysis does not follow (an
  // atomic, a pointer passed on or copied into), kNoInst if none.
  struct SharedWrites {
    Id root;
    Id value = 0;
    InstIndex opaque = kNoInst;
  };
  static constexpr Id kManyValues = ~0u;
  ws::vector<SharedWrites> shared_writes_;  // Those found, a few: a module has few variables.
  [[gnu::noinline]] const SharedWrites& WritesOf(Id root);
  // Whether every location of Workgroup variable `root` that a load at `address` may read holds
  // the same value.
  [[gnu::noinline]] bool OneValue(Id root, const SharedWrites& writes, const Source& address);
  // Whether block b is on a cycle of the CFG (its values may differ per iteration); found on
  // demand, 0 unknown, 1 no, 2 yes.
  ws::vector<uint8_t> in_cycle_;
  [[gnu::noinline]] bool InCycle(uint32_t b);
  // The level of load `i` of `memory` (kWorkgroup or kShared) `root` at `address` (its pointer's
  // level), an address that is not uniform.
  [[gnu::noinline]] Source SharedLoad(InstIndex i, Id root, Memory memory, Source address);
  // Whether `pointer` is an access chain into a cooperative matrix (its element).
  bool MatrixElementPointer(Id pointer) const {
    const InstIndex chain = m_.Def(pointer);
    return chain != kNoInst &&
           (m_.opcode(chain) == Op::AccessChain || m_.opcode(chain) == Op::InBoundsAccessChain) &&
           IsCoopMatrixType(state_, state_.PointeeType(state_.TypeOf(m_.word(chain, 3))));
  }
  bool ComputeBlockLevels();
  // Instruction `i` of block `block`.
  bool EvaluateInstruction(InstIndex i, uint32_t block);
  void Check();
  // Records a use that depends on `s`, not proven either way; Check() reports each cause once.
  void Unproven(const Source& s, InstIndex i, Id operand, const char* scope_name);
  void CheckCooperative(InstIndex i, uint32_t block);
  [[gnu::cold]] ws::string Why(const Source& s);

  ValidationState& state_;
  const ir::Module& m_;
  const ir::Cfg& cfg_;
  const ir::DominatorTree* pdom_ = nullptr;  // Built when a branch first needs it.

  // The value operands of every instruction of the function bodies (ids defined by anything but
  // a label, a function or a type), gathered once: the sweeps and the checks read them many
  // times.
  struct ValueOperand {
    // Left uninitialized, so that sizing the array before writing it in place is free.
    ValueOperand() {}  // NOLINT
    Id id;
    uint32_t offset;     // Word offset in the instruction.
    uint32_t def_block;  // The block defining the id, ~0u for a global.
    InstIndex inst;      // The instruction.
    uint32_t next_use;   // The previous operand naming the same id in a block, kNoUse if none.
  };
  static constexpr uint32_t kNoUse = ~0u;
  ws::vector<uint32_t> first_use_;  // Per id: its last use in a block (a list through next_use).
  std::span<const ValueOperand> OperandsOf(InstIndex i) const {
    const size_t k = i - body_begin_;
    return {operands_.data() + operand_begin_[k], operands_.data() + operand_begin_[k + 1]};
  }
  // The value operands of the instructions of block b after its label, in order.
  std::span<const ValueOperand> BlockOperands(uint32_t b) const {
    const ir::Block& block = m_.blocks()[b];
    return {operands_.data() + operand_begin_[block.label + 1 - body_begin_],
            operands_.data() + operand_begin_[block.end - body_begin_]};
  }
  // The join of the operands from word `from_word` on, used in `block`.
  Source JoinOperands(std::span<const ValueOperand> operands, uint32_t block,
                      size_t from_word) const {
    Source s;
    for (const ValueOperand& operand : operands) {
      if (operand.offset < from_word) continue;
      s = Join(s, values_[operand.id]);
      // A value defined in a divergent region (e.g. a loop with a divergent exit) and used
      // outside it differs per invocation at the use.
      const uint32_t def_block = operand.def_block;
      if (def_block != ~0u && region_of_[def_block] != ~0u &&
          region_of_[def_block] != region_of_[block]) {
        s = Join(s, blocks_[def_block]);
      }
    }
    return s;
  }
  InstIndex body_begin_ = 0;
  ws::vector<uint32_t> operand_begin_;  // Per instruction from body_begin_, and one past.
  ws::vector<ValueOperand> operands_;

  ws::vector<Source> values_;            // Per id.
  ws::vector<Source> contents_;          // Per root variable / pointer parameter id: stored values.
  ws::vector<Source> contents_control_;  // Per root: control level of the stores.
  ws::vector<Source> blocks_;            // Control level per block.
  ws::vector<Source> merges_;   // Per block: level of divergent branches reconverging here.
  ws::vector<Source> walked_;   // Per branch block: the condition its region was last raised to
                                // (reason_bits 1 once set), so that unchanged ones are skipped.
  ws::vector<Source> entries_;  // Per function: control level of its call sites.
  ws::vector<Source> returns_;  // Per function: join of returned values.
  // Functions called from several places are summarized: their first kMaxSummarizedParams
  // parameters are uniform inside, with a dependence bit each, and param_effective_ (from
  // param_base_[f]) holds the join over the call sites of what each call passes.
  ws::vector<bool> summarized_;
  ws::vector<uint32_t> param_base_;
  ws::vector<Source> param_effective_;
  ws::vector<uint32_t> region_of_;  // Per block: the branch block whose divergent region it is
                                    // in (innermost seen), ~0u if none.
  ws::vector<bool> is_entry_point_;
  // Function variables used only by whole-variable OpLoad / OpStore are tracked flow-sensitively:
  // a load sees the stores that reach it along the CFG, not every store to the variable.
  ws::vector<InstIndex> store_insts_;  // Stores to tracked variables (slot = index).
  ws::vector<Source> stored_;          // Per slot: level of the value stored there.
  ws::vector<Source> stored_control_;  // Per slot: control level of the store.
  // Loads of tracked variables, by instruction: [begin, end) in reaching_ are the slots of the
  // stores that reach it, found for all the loads of a variable once something not uniform was
  // stored into it (FindReachingStores): until then every load of it reads uniform data, whatever
  // the stores that reach it. A load whose walk ran over budget sees every store (contents_).
  // Sweeps visit instructions in order, so cursors find loads and stores without hashing.
  static constexpr uint32_t kPending = ~0u, kEveryStore = ~0u - 1;  // Values of begin.
  struct TrackedLoad {
    InstIndex inst;
    Id var;
    uint32_t begin, end;
  };
  ws::vector<TrackedLoad> loads_;
  ws::vector<uint8_t> tracked_;  // Per id: 1 for a tracked variable, 2 for one no longer tracked.
  bool any_tracked_ = false;
  size_t next_load_ = 0, next_store_ = 0;
  ws::vector<uint32_t> reaching_;
  // The loads and stores of each tracked variable in program order, as lists: per variable id its
  // first, per load (store) the next one of its variable, ~0u at the end.
  ws::vector<uint32_t> first_load_, first_store_, next_load_of_, next_store_of_;
  // FindReachingStores' scratch, per block, kept across variables.
  ws::vector<Id> owner_;
  ws::vector<uint32_t> last_slot_, stamp_, work_;
  uint32_t walk_ = 0;
  void FindReachingStores(Id var);
  ws::vector<uint32_t> call_sites_;  // Per function: how many OpFunctionCall name it.
  // Per id: a cooperative matrix value, or a Function variable holding one, whose elements all
  // hold the same value.
  ws::vector<uint8_t> replicated_;
  // Per id: defined with a cooperative matrix type (by any of its definitions).
  ws::vector<uint8_t> matrix_value_;
  // Whether IsCooperativeMatrixOperation may hold for `i`, cheaply: an OpCooperativeMatrix*
  // instruction, or a candidate (kMaybeCooperative) whose result type or operand is a matrix.
  bool MaybeCooperativeOperation(InstIndex i) {
    const uint8_t facts = inst_facts_[i - body_begin_];
    if (!(facts & kMaybeCooperative)) return false;
    if ((facts & kCoopMatrixName) || IsCoopMatrixType(state_, m_.type_id(i))) return true;
    for (size_t w = 3; w < m_.num_words(i); ++w) {
      const uint32_t word = m_.word(i, w);
      if (word < matrix_value_.size() && matrix_value_[word]) return true;
    }
    return false;
  }
  ws::vector<uint8_t> builtin_;  // Per id: BuiltIn value + 1 of a decorated variable.
  // Subgroup votes and reductions, and the comparisons uniform_votes.h proves from them: their
  // result stays uniform whatever their operands.
  ws::vector<InstIndex> votes_, pinned_;
  void PinWorkgroupVotes();
  // The solver's worklist: blocks whose instructions read something raised since they were last
  // evaluated, and whether the block levels need computing again. What reads what, by block:
  struct Csr {  // Key -> blocks, in one array.
    ws::vector<uint32_t> begin, items;
    std::span<const uint32_t> Of(size_t key) const {
      return key + 1 < begin.size()
                 ? std::span<const uint32_t>(items.data() + begin[key], begin[key + 1] - begin[key])
                 : std::span<const uint32_t>();
    }
  };
  Csr root_users_;                    // Per root: the loads and calls that read its contents.
  Csr call_blocks_;                   // Per function: its call sites.
  ws::vector<uint32_t> param_owner_;  // Per param_effective_ entry: its function.
  ws::vector<uint8_t> is_condition_;  // Per id: a branch or switch condition.
  ws::vector<uint8_t> dirty_;         // Per block: something in it to evaluate.
  ws::vector<uint8_t> all_dirty_;     // Per block: all of its instructions to evaluate.
  ws::vector<uint8_t> inst_dirty_;    // Per instruction from body_begin_.
  ws::vector<uint8_t> inst_facts_;    // Per instruction from body_begin_: Facts of its opcode.
  bool levels_dirty_ = true;
  struct UnprovenCause {
    InstIndex reason;
    Level level;
    InstIndex first;  // The first instruction that depends on it.
    Id operand;       // Its operand that does, 0 for control flow.
    const char* scope_name;
    uint32_t uses;
  };
  ws::vector<UnprovenCause> unproven_;  // One per root cause, in order of first use.
  ws::unordered_map<uint64_t, size_t> unproven_index_;  // Root cause -> index in unproven_.
  uint64_t workgroup_invocations_ = 0;  // The largest LocalSize of the module's entry points.
};

void Uniformity::Prepare() {
  const uint32_t bound = m_.bound();
  ZeroFill(values_, bound);
  is_condition_.assign(bound, 0);
  ZeroFill(contents_, bound);
  ZeroFill(contents_control_, bound);
  builtin_.assign(bound, 0);
  const size_t nb = m_.blocks().size();
  ZeroFill(blocks_, nb);
  ZeroFill(merges_, nb);
  ZeroFill(walked_, nb);
  region_of_.assign(nb, ~0u);
  ZeroFill(entries_, m_.functions().size());
  ZeroFill(returns_, m_.functions().size());
  is_entry_point_.assign(m_.functions().size(), false);
  call_sites_.assign(m_.functions().size(), 0);
  const InstIndex n = m_.num_instructions();
  body_begin_ = m_.functions().empty() ? n : m_.functions()[0].def;
  operand_begin_.resize(n - body_begin_ + 1);
  inst_facts_.resize(n - body_begin_);
  // Per id: the block defining it (~0u for a global), kNotValue for labels, functions, types
  // and undefined ids.
  constexpr uint32_t kNotValue = ~0u - 1;
  ws::vector<uint32_t> value_block(bound, kNotValue);
  for (Id id = 1; id < bound; ++id) {
    const InstIndex def = m_.Def(id);
    if (def == kNoInst) continue;
    const Op def_op = m_.opcode(def);
    if (def_op == Op::Label || def_op == Op::Function || ir::IsTypeDeclaration(def_op)) continue;
    value_block[id] = m_.BlockOf(def);
  }
  const binary::ParsedModule& parsed = m_.parsed();
  const std::span<const uint32_t> words = parsed.data();
  // Written in place, at most one per parsed operand, then cut to size.
  operands_.resize(parsed.operands.size());
  ValueOperand* const out = operands_.data();
  uint32_t written = 0;  // Operands written so far: the next one's index.
  // Who reads what, for the solver's worklist: the uses of each id (first_use_), the loads and
  // calls reading each root's contents, the call sites of each function.
  first_use_.assign(bound, kNoUse);
  struct Pair {
    uint32_t key, inst;
  };
  ws::vector<Pair> root_pairs, call_pairs;
  // The built-ins, workgroup sizes, conditions, call sites and entry points, from the
  // instructions of both loops below.
  ws::vector<InstIndex> inputs;  // Input variables, read once the built-ins are known.
  // One switch per instruction (a jump table), in both loops.
  auto note = [&](InstIndex i, Op op, bool in_block) __attribute__((always_inline)) {
    switch (op) {
      case Op::Variable:
        if (static_cast<StorageClass>(m_.word(i, 3)) == StorageClass::Input) inputs.push_back(i);
        break;
      case Op::Decorate:
        if (m_.num_words(i) >= 4 &&
            m_.word(i, 2) == static_cast<uint32_t>(spv::Decoration::BuiltIn)) {
          builtin_[m_.word(i, 1)] =
              static_cast<uint8_t>(std::min<uint32_t>(m_.word(i, 3), 254) + 1);
        }
        break;
      case Op::ExecutionMode:
        if (m_.num_words(i) >= 6 &&
            m_.word(i, 2) == static_cast<uint32_t>(spv::ExecutionMode::LocalSize)) {
          workgroup_invocations_ = std::max<uint64_t>(
              workgroup_invocations_, uint64_t{m_.word(i, 3)} * m_.word(i, 4) * m_.word(i, 5));
        }
        break;
      case Op::BranchConditional:
      case Op::Switch:
        is_condition_[m_.word(i, 1)] = 1;
        break;
      case Op::GroupNonUniformAll:
      case Op::GroupNonUniformFMax:
      case Op::GroupNonUniformFMin:
        if (in_block) votes_.push_back(i);
        break;
      case Op::EntryPoint: {
        const uint32_t f = m_.FunctionById(m_.word(i, 2));
        if (f != ~0u) is_entry_point_[f] = true;
        break;
      }
      case Op::FunctionCall: {
        const uint32_t f = m_.FunctionById(m_.word(i, 3));
        if (f != ~0u) ++call_sites_[f];
        if (!in_block) break;
        for (size_t w = 4; w < m_.num_words(i); ++w) {
          const Id root = RootOf(m_.word(i, w));
          if (root != 0 && root < bound) root_pairs.push_back({root, i});
        }
        if (f != ~0u) call_pairs.push_back({f, i});
        break;
      }
      case Op::Load:
      case Op::CooperativeVectorLoadNV:
        if (in_block && m_.num_words(i) > 3) {
          const Id root = RootOf(m_.word(i, 3));
          if (root != 0 && root < bound) root_pairs.push_back({root, i});
          // Like a plain join, such a load raises nothing until something it reads was raised
          // (unless it reads a matrix element).
          if (op == Op::Load && QuietRoot(root) && !MatrixElementPointer(m_.word(i, 3))) {
            inst_facts_[i - body_begin_] |= kQuietUntilRaised;
          }
        }
        break;
      default:
        break;
    }
  };
  root_pairs.reserve(n - body_begin_);
  // Function variables, as PrepareReachingStores tracks them: 1 for one (they open their
  // function's first block), 2 once used otherwise than as the pointer of a whole OpLoad /
  // OpStore, marked in the loop below with the loads and stores of those still 1 then.
  tracked_.assign(bound, 0);
  for (const ir::Function& fn : m_.functions()) {
    if (fn.num_blocks == 0) continue;
    const ir::Block& entry = m_.blocks()[fn.first_block];
    for (InstIndex i = entry.label + 1; i < entry.end && m_.opcode(i) == Op::Variable; ++i) {
      if (m_.num_words(i) >= 4 &&
          static_cast<StorageClass>(m_.word(i, 3)) == StorageClass::Function) {
        tracked_[m_.result_id(i)] = 1;
        any_tracked_ = true;
      }
    }
  }
  for (InstIndex i = 0; i < body_begin_; ++i) {
    const Op op = m_.opcode(i);
    note(i, op, false);
    NoteReplicated(i, op);
  }
  for (InstIndex i = body_begin_; i < n; ++i) {
    operand_begin_[i - body_begin_] = written;
    const bool in_block = m_.BlockOf(i) != ~0u;
    const Op op = m_.opcode(i);
    inst_facts_[i - body_begin_] = Facts(op);
    note(i, op, in_block);
    NoteReplicated(i, op);
    // Whether the operands of the instruction mark the tracked variables they name: not those of
    // a whole load of one.
    bool marks = true;
    if (any_tracked_) {
      if (op == Op::Load && m_.num_words(i) >= 4 && tracked_[m_.word(i, 3)]) {
        loads_.push_back({i, m_.word(i, 3), kPending, 0});
        marks = false;
      } else if (op == Op::Store && m_.num_words(i) >= 3 && tracked_[m_.word(i, 1)]) {
        store_insts_.push_back(i);
      }
    }
    const auto& raw = parsed.instructions[i];
    const binary::ParsedOperand* ops = parsed.operands.data() + raw.operand_begin;
    // The result type and the result, when present, are the first operands (the grammar puts
    // them there and the reader keeps them): the value operands follow.
    const uint32_t skip = (raw.type_id != 0) + (raw.result_id != 0);
    for (uint32_t k = skip; k < raw.operand_count; ++k) {
      const binary::ParsedOperand& operand = ops[k];
      static_assert(static_cast<int>(grammar::OperandKind::kIdResultType) == 0 &&
                    static_cast<int>(grammar::OperandKind::kIdResult) == 1);
      if (static_cast<uint32_t>(operand.kind) - 2u >= grammar::kNumIdKinds - 2u) continue;
      const Id id = words[raw.offset + operand.offset];
      if (id >= bound || value_block[id] == kNotValue) continue;
      if (tracked_[id] != 0 && marks && !(op == Op::Store && operand.offset == 1)) tracked_[id] = 2;
      uint32_t next_use = kNoUse;
      if (in_block) {
        next_use = first_use_[id];
        first_use_[id] = written;
      }
      // Field by field: five plain stores (a braced record is packed in vector registers first).
      ValueOperand& value = out[written++];
      value.id = id;
      value.offset = operand.offset;
      value.def_block = value_block[id];
      value.inst = i;
      value.next_use = next_use;
    }
  }
  operand_begin_[n - body_begin_] = written;
  operands_.resize(written);
  auto build = [](Csr& csr, size_t keys, const ws::vector<Pair>& pairs) {
    csr.begin.assign(keys + 1, 0);
    for (const Pair& p : pairs) ++csr.begin[p.key + 1];
    for (size_t k = 0; k < keys; ++k) csr.begin[k + 1] += csr.begin[k];
    csr.items.resize(pairs.size());
    for (const Pair& p : pairs) csr.items[csr.begin[p.key]++] = p.inst;
    // Each begin[key] moved to the end of its list, where begin[key + 1] was: shift back.
    for (size_t k = keys; k > 0; --k) csr.begin[k] = csr.begin[k - 1];
    csr.begin[0] = 0;
  };
  build(root_users_, bound, root_pairs);
  build(call_blocks_, m_.functions().size(), call_pairs);
  // Functions called from several places, their parameters uniform with a dependence bit each.
  summarized_.assign(m_.functions().size(), false);
  param_base_.assign(m_.functions().size(), 0);
  uint32_t params = 0;
  for (uint32_t f = 0; f < m_.functions().size(); ++f) {
    const ir::Function& fn = m_.functions()[f];
    param_base_[f] = params;
    params += std::min<uint32_t>(fn.num_params, kMaxSummarizedParams);
    if (is_entry_point_[f] || call_sites_[f] < 2) continue;
    summarized_[f] = true;
    for (uint32_t p = 0; p < fn.num_params && p < kMaxSummarizedParams; ++p) {
      const InstIndex param_def = m_.Param(fn, p);
      const Id param = m_.result_id(param_def);
      values_[param] = Source(kUniform, param_def, 1u << p);
      if (state_.IsPointerType(m_.type_id(param_def))) {
        contents_[param] = Source(kUniform, param_def, 1u << p);
      }
    }
  }
  ZeroFill(param_effective_, params);
  param_owner_.assign(params, 0);
  for (uint32_t f = 0; f < m_.functions().size(); ++f) {
    const uint32_t end = f + 1 < m_.functions().size() ? param_base_[f + 1] : params;
    for (uint32_t k = param_base_[f]; k < end; ++k) param_owner_[k] = f;
  }
  // Input variables: builtins by kind, anything else per invocation.
  for (const InstIndex i : inputs) {
    const Id var = m_.result_id(i);
    const Level l =
        builtin_[var] ? BuiltInLevel(static_cast<BuiltIn>(builtin_[var] - 1)) : kDivergent;
    contents_[var] = {l, i};
  }
}

Id Uniformity::RootOf(Id pointer) const {
  // Loaded or converted pointers: the pointer value itself is the root.
  return PointerBase(m_, pointer);
}

bool Uniformity::QuietRoot(Id root) const {
  if (root == 0) return false;
  const InstIndex d = m_.Def(root);
  if (d == kNoInst || m_.opcode(d) == Op::FunctionParameter) return false;
  if (m_.opcode(d) != Op::Variable) return true;
  const auto sc = static_cast<StorageClass>(m_.word(d, 3));
  return sc == StorageClass::Function || sc == StorageClass::Private || SharedStorage(sc);
}

Uniformity::Source Uniformity::StoredData(InstIndex i, Op op, uint32_t block) const {
  const std::span<const ValueOperand> operands = OperandsOf(i);
  switch (op) {
    case Op::Store:
      return JoinOperands(operands, block, 2);
    case Op::CooperativeVectorStoreNV:
      return JoinOperands(operands, block, 3);
    default: {
      // A cooperative matrix store writes each element to its own location: data that differs
      // per location unless every element holds one value.
      const Id matrix = m_.word(i, 2);
      if (matrix >= replicated_.size() || !replicated_[matrix]) return Source(kDivergent, i);
      return JoinOperands(operands, block, 2);
    }
  }
}

const Uniformity::SharedWrites& Uniformity::WritesOf(Id root) {
  for (const SharedWrites& found : shared_writes_) {
    if (found.root == root) return found;
  }
  SharedWrites writes{root};
  ws::vector<Id> work(1, root);
  while (!work.empty()) {
    const Id pointer = work.back();
    work.pop_back();
    for (uint32_t k = first_use_[pointer]; k != kNoUse; k = operands_[k].next_use) {
      const ValueOperand& use = operands_[k];
      const InstIndex i = use.inst;
      const Op op = m_.opcode(i);
      switch (op) {
        case Op::AccessChain:
        case Op::InBoundsAccessChain:
        case Op::PtrAccessChain:
        case Op::InBoundsPtrAccessChain:
        case Op::CopyObject:
          if (use.offset == 3) work.push_back(m_.result_id(i));
          continue;
        case Op::Load:
        case Op::AtomicLoad:
        case Op::CooperativeMatrixLoadKHR:
        case Op::CooperativeMatrixLoadNV:
        case Op::CooperativeMatrixLoadTensorNV:
        case Op::CooperativeVectorLoadNV:
          continue;
        case Op::Store:
          if (use.offset != 1) break;  // The pointer itself stored: written through elsewhere.
          if (writes.value == 0) writes.value = m_.word(i, 2);
          if (writes.value != m_.word(i, 2)) writes.value = kManyValues;
          continue;
        case Op::CooperativeMatrixStoreKHR:
        case Op::CooperativeMatrixStoreNV:
        case Op::CooperativeMatrixStoreTensorNV:
        case Op::CooperativeVectorStoreNV:
          // Their data is followed as a level (StoredData), not as one value.
          writes.value = kManyValues;
          continue;
        default:
          break;
      }
      writes.value = kManyValues;
      if (writes.opaque == kNoInst) writes.opaque = i;
    }
  }
  // An initializer writes every location first: one value only if nothing else writes and all
  // its elements are equal.
  const InstIndex def = m_.Def(root);
  if (m_.num_words(def) > 4) {
    const Id init = m_.word(def, 4);
    writes.value =
        writes.value == 0 && m_.opcode(m_.Def(init)) == Op::ConstantNull ? init : kManyValues;
  }
  shared_writes_.push_back(writes);
  return shared_writes_.back();
}

bool Uniformity::InCycle(uint32_t b) {
  if (in_cycle_.empty()) in_cycle_.resize(m_.blocks().size());
  if (in_cycle_[b] == 0) {
    ws::vector<uint8_t> seen(m_.blocks().size(), 0);
    const auto successors = cfg_.Successors(b);
    ws::vector<uint32_t> work(successors.begin(), successors.end());
    in_cycle_[b] = 1;
    while (!work.empty()) {
      const uint32_t x = work.back();
      work.pop_back();
      if (x == b) {
        in_cycle_[b] = 2;
        break;
      }
      if (seen[x]) continue;
      seen[x] = 1;
      for (const uint32_t s : cfg_.Successors(x)) work.push_back(s);
    }
  }
  return in_cycle_[b] == 2;
}

bool Uniformity::OneValue(Id root, const SharedWrites& writes, const Source& address) {
  if (writes.opaque != kNoInst || writes.value == 0 || writes.value == kManyValues) return false;
  const Source& data = contents_[root];
  if (data.level != kUniform || data.deps != 0) return false;
  // Stores under divergent control may leave locations that invocations reading at addresses of
  // their own find unwritten. Per-subgroup slots written by one invocation of each subgroup (the
  // usual guard) are read by the subgroups whose addresses they are.
  const Source& under = contents_control_[root];
  if ((address.level > kSubgroup || address.deps != 0) &&
      (under.level != kUniform || under.deps != 0)) {
    return false;
  }
  // The value is the same wherever it is stored: a constant, or a uniform value computed once
  // per invocation (outside the loops of an entry point that nothing calls).
  const InstIndex def = m_.Def(writes.value);
  if (def == kNoInst) return false;
  if (def < body_begin_) return true;
  const uint32_t b = m_.BlockOf(def);
  if (b == ~0u) return false;  // A parameter.
  const uint32_t f = m_.blocks()[b].function;
  return is_entry_point_[f] && call_sites_[f] == 0 && !InCycle(b);
}

Uniformity::Source Uniformity::SharedLoad(InstIndex i, Id root, Memory memory, Source address) {
  // Different locations: what the stores wrote there decides, in Workgroup memory. Buffers hold
  // what the host and other workgroups wrote too, never proven.
  Source data(kUnknown, i);
  if (memory == Memory::kWorkgroup) {
    data = contents_[root];
    // Per-invocation data stays so whatever else writes there.
    if (data.level != kDivergent) {
      const SharedWrites& writes = WritesOf(root);
      if (OneValue(root, writes, address)) return {};
      if (writes.opaque != kNoInst) data = Join(data, Source(kUnknown, writes.opaque));
    }
  }
  Source r;
  switch (address.level) {
    case kUniform:
      break;
    case kSubgroup:
      // One location per subgroup, the same value within it. Across subgroups the values differ
      // where the data is per subgroup or per invocation; otherwise that is not proven (the load
      // as the reason, which CheckCooperative takes as no proof).
      r = data.level == kSubgroup || data.level == kDivergent ? Source(kSubgroup, address.reason())
                                                              : Source(kSubgroup, i);
      break;
    case kUnknown:
      r = Source(kUnknown, address.reason());
      break;
    case kDivergent:
      // Per-invocation data read at per-invocation addresses (sh[lid] = lid; ... = sh[lid]).
      r = Source(data.level == kDivergent ? kDivergent : kUnknown, i);
      break;
  }
  // An address chosen by the call sites (a summarized function's parameters): what they pass
  // decides, as it would here, only where the data is per invocation.
  if (address.deps != 0) r.deps = address.deps | (data.level == kDivergent ? 0 : kAddressBit);
  return r;
}

Uniformity::Source Uniformity::ContentsOf(Id root) const {
  if (root == 0) return {kUnknown, kNoInst};
  const InstIndex d = m_.Def(root);
  if (d == kNoInst) return {kUnknown, kNoInst};
  if (m_.opcode(d) == Op::FunctionParameter) {
    return JoinControl(contents_[root], contents_control_[root]);
  }
  // A pointer loaded or computed at run time points to PhysicalStorageBuffer memory, shared
  // like the storage classes below.
  if (m_.opcode(d) != Op::Variable) return {};
  const auto sc = static_cast<StorageClass>(m_.word(d, 3));
  if (sc == StorageClass::Function || sc == StorageClass::Private || sc == StorageClass::Input) {
    return JoinControl(contents_[root], contents_control_[root]);
  }
  // Memory shared by the invocations: a non-atomic load of one location gives every invocation
  // that executes it together the same value, whoever wrote it, because a write that some of
  // them could see and others not would be a data race (undefined behaviour in the Vulkan memory
  // model). Only the address can make the result differ (SharedLoad).
  if (SharedStorage(sc)) return {};
  return {kUnknown, d};
}

bool Uniformity::ComputeBlockLevels() {
  bool changed = false;
  const auto functions = m_.functions();
  for (uint32_t f = 0; f < functions.size(); ++f) {
    const ir::Function& fn = functions[f];
    const Source entry = is_entry_point_[f] ? Source{}
                         : summarized_[f]   ? Source(kUniform, fn.def, kCallControlBit)
                                            : entries_[f];
    for (uint32_t b = fn.first_block; b < fn.first_block + fn.num_blocks; ++b) {
      changed = Raise(blocks_, b, entry) || changed;
    }
    // Divergent branches make their regions divergent, up to the reconvergence point.
    ws::vector<uint32_t> work;
    ws::vector<uint32_t> seen_stamp(fn.num_blocks, ~0u);
    for (uint32_t b = fn.first_block; b < fn.first_block + fn.num_blocks; ++b) {
      const InstIndex last = m_.blocks()[b].end - 1;
      const Op op = m_.opcode(last);
      if (op != Op::BranchConditional && op != Op::Switch) continue;
      Source cond = ValueOf(m_.word(last, 1));
      cond = Join(cond, blocks_[b]);
      if (cond.level == kUniform && cond.deps == 0) continue;
      // Walked already with this level: raising the region again would change nothing.
      Source& walked = walked_[b];
      if (walked.level == cond.level && walked.deps == cond.deps && walked.reason_bits != 0) {
        continue;
      }
      walked = cond;
      walked.reason_bits = 1;  // Marks the entry as set.
      if (pdom_ == nullptr) pdom_ = &m_.post_dominators();
      const uint32_t stop = pdom_->Idom(b);
      if (stop != ir::DominatorTree::kNone) {
        changed = Raise(merges_, stop, cond) || changed;
      }
      work.clear();
      for (uint32_t s : cfg_.Successors(b)) work.push_back(s);
      while (!work.empty()) {
        const uint32_t x = work.back();
        work.pop_back();
        if (x == stop || seen_stamp[x - fn.first_block] == b) continue;
        seen_stamp[x - fn.first_block] = b;
        changed = Raise(blocks_, x, cond) || changed;
        if (region_of_[x] == ~0u) {
          region_of_[x] = b;
          BlockRaised(x);
        }
        for (uint32_t s : cfg_.Successors(x)) work.push_back(s);
      }
    }
  }
  return changed;
}

bool Uniformity::EvaluateInstruction(InstIndex i, uint32_t block) {
  // Every opcode treated apart here is left out of kPlainJoin (OpFacts), which Solve
  // evaluates in line without calling this.
  const Op op = m_.opcode(i);
  const Id result = m_.result_id(i);
  const Source control = blocks_[block];
  const std::span<const ValueOperand> operands = OperandsOf(i);
  auto join_operands = [&](size_t from_word) { return JoinOperands(operands, block, from_word); };
  // The elements of a cooperative matrix are spread over the invocations: reading one (by
  // OpCompositeExtract, or a load through an access chain into the matrix) gives each
  // invocation its own value, unless every element holds the same value (a replicated matrix):
  // then the read is as uniform as the matrix.
  if (op == Op::CompositeExtract && IsCoopMatrixType(state_, state_.TypeOf(m_.word(i, 3)))) {
    const Id matrix = m_.word(i, 3);
    if (!replicated_[matrix]) return Raise(values_, result, kDivergent, i);
    const Source s = ValueOf(matrix);
    return Raise(values_, result, s);
  }
  if (op == Op::Load) {
    const InstIndex chain = m_.Def(m_.word(i, 3));
    if (chain != kNoInst &&
        (m_.opcode(chain) == Op::AccessChain || m_.opcode(chain) == Op::InBoundsAccessChain) &&
        IsCoopMatrixType(state_, state_.PointeeType(state_.TypeOf(m_.word(chain, 3))))) {
      const Id base = m_.word(chain, 3);
      if (!replicated_[base]) return Raise(values_, result, kDivergent, i);
      const Source s = ContentsOf(RootOf(base));
      return Raise(values_, result, s);
    }
  }
  // Each invocation owns the elements it holds: writing one (OpCompositeInsert, or a store
  // through an access chain into a matrix) keeps the matrix as uniform as it was (KHR issue 11).
  auto writes_matrix_element = [&]() {
    if (op != Op::Store) return false;
    const InstIndex chain = m_.Def(m_.word(i, 1));
    return chain != kNoInst &&
           (m_.opcode(chain) == Op::AccessChain || m_.opcode(chain) == Op::InBoundsAccessChain) &&
           IsCoopMatrixType(state_, state_.PointeeType(state_.TypeOf(m_.word(chain, 3))));
  };
  if (writes_matrix_element()) return false;
  if (op == Op::CompositeInsert && IsCoopMatrixType(state_, result ? m_.type_id(i) : 0)) {
    const Source s = ValueOf(m_.word(i, 4));
    return Raise(values_, result, s);
  }
  switch (op) {
    case Op::Load:
    case Op::CooperativeVectorLoadNV: {
      while (next_load_ < loads_.size() && loads_[next_load_].inst < i) ++next_load_;
      if (next_load_ < loads_.size() && loads_[next_load_].inst == i) {
        TrackedLoad& load = loads_[next_load_];
        Source value = join_operands(3), stored_under;
        if (load.begin == kPending) {
          const Source& c = contents_[load.var];
          const Source& cc = contents_control_[load.var];
          // Only uniform data stored so far, at a uniform address: whichever stores reach the
          // load, it reads uniform data.
          if (value.level == kUniform && value.deps == 0 && c.level == kUniform && c.deps == 0 &&
              cc.level == kUniform && cc.deps == 0) {
            return false;
          }
          FindReachingStores(load.var);
        }
        if (load.begin != kEveryStore) {
          for (uint32_t k = load.begin; k < load.end; ++k) {
            value = Join(value, stored_[reaching_[k]]);
            stored_under = Join(stored_under, stored_control_[reaching_[k]]);
          }
          const Source s = JoinControl(value, stored_under);
          return Raise(values_, result, s);
        }
      }
      const Id root = RootOf(m_.word(i, 3));
      Source address = join_operands(3);
      const Memory memory = MemoryOf(root);
      if (memory == Memory::kWorkgroup || memory == Memory::kShared) {
        // One location for the whole workgroup: every invocation that loads it together reads
        // the same value, whoever wrote it (ContentsOf).
        if (address.level == kUniform && address.deps == 0) return false;
        return Raise(values_, result, SharedLoad(i, root, memory, address));
      }
      // Reading different locations is no proof of reading different values: a pointer that
      // differs per invocation makes the result unproven, not divergent (the data decides).
      if (address.level > kUnknown) address = Source(kUnknown, i, address.deps);
      const Source s = Join(address, ContentsOf(root));
      return Raise(values_, result, s);
    }
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixLoadTensorNV: {
      // A cooperative load forms one matrix from the memory at its (uniform) operands, whatever
      // individual invocations wrote there: the result is as uniform as the operands.
      const Source s = join_operands(3);
      return Raise(values_, result, s);
    }
    case Op::Store:
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixStoreNV:
    case Op::CooperativeMatrixStoreTensorNV:
    case Op::CooperativeVectorStoreNV: {
      const Id root = RootOf(m_.word(i, 1));
      // Private memory assigned under divergent control differs per invocation. Of memory the
      // invocations share, only loads of Workgroup memory at an address that is not uniform read
      // what was stored (SharedLoad): the data alone (not where it goes) as the worst call site
      // of this function passes it, and the control it is stored under.
      const Memory memory = MemoryOf(root);
      if (memory == Memory::kShared) return false;
      Source stored, under;
      const uint32_t fn = m_.blocks()[block].function;
      if (memory == Memory::kWorkgroup) {
        stored = StoredData(i, op, block);
        under = control;
        if (stored.deps != 0) stored = Effective(stored, fn);
        if (under.deps != 0) under = Effective(under, fn);
      } else {
        stored = join_operands(1);
        if (memory == Memory::kPrivate || memory == Memory::kUnknown) under = control;
        // A module-level variable outlives the function: its contents cannot depend on this
        // function's parameters or call sites (a load in another function would read those bits
        // as its own), so they are resolved here, at the worst call site.
        const InstIndex root_def = root ? m_.Def(root) : kNoInst;
        if (root_def != kNoInst && m_.opcode(root_def) == Op::Variable &&
            static_cast<StorageClass>(m_.word(root_def, 3)) != StorageClass::Function) {
          if (stored.deps != 0) stored = Effective(stored, fn);
          if (under.deps != 0) under = Effective(under, fn);
        }
      }
      const InstIndex stored_reason = stored.reason() == kNoInst ? i : stored.reason();
      const InstIndex under_reason = under.reason() == kNoInst ? i : under.reason();
      // Both pairs of tables are read by the loads of the root (Raised), marked once.
      bool slot_raised = false, root_raised = false;
      while (next_store_ < store_insts_.size() && store_insts_[next_store_] < i) ++next_store_;
      if (next_store_ < store_insts_.size() && store_insts_[next_store_] == i) {
        slot_raised = Lift(stored_, next_store_, Source(stored.level, stored_reason, stored.deps));
        slot_raised =
            Lift(stored_control_, next_store_, Source(under.level, under_reason, under.deps)) ||
            slot_raised;
      }
      if (root != 0) {
        root_raised = Lift(contents_, root, Source(stored.level, stored_reason, stored.deps));
        root_raised =
            Lift(contents_control_, root, Source(under.level, under_reason, under.deps)) ||
            root_raised;
      }
      const Id pointer = m_.word(i, 1);
      if (slot_raised) MarkInstructions(root_users_.Of(pointer));
      if (root_raised && !(slot_raised && root == pointer)) MarkInstructions(root_users_.Of(root));
      return slot_raised || root_raised;
    }
    case Op::Phi: {
      const Source s = JoinControl(join_operands(3), merges_[block]);
      return Raise(values_, result, s);
    }
    case Op::FunctionCall: {
      const uint32_t f = m_.FunctionById(m_.word(i, 3));
      if (f == ~0u) return false;
      const ir::Function& fn = m_.functions()[f];
      const uint32_t caller = m_.blocks()[block].function;
      bool changed = false;
      // The control level of the call sites joins into the body. A function called from several
      // places gets the join of them, which proves nothing about any one call: its body names
      // the OpFunction as the reason, and what depends on it is unproven, not an error.
      const bool shared = call_sites_[f] > 1;
      const Source entry = Effective(control, caller);
      changed = Raise(entries_, f,
                      Source(entry.level, shared                      ? fn.def
                                          : entry.reason() == kNoInst ? i
                                                                      : entry.reason())) ||
                changed;
      const uint32_t num_args =
          std::min<uint32_t>(fn.num_params, static_cast<uint32_t>(m_.num_words(i)) - 4);
      for (uint32_t p = 0; p < num_args; ++p) {
        // What this call passes, seen from its worst call site when the caller is summarized.
        const Source a = Effective(Argument(i, f, p), caller);
        if (summarized_[f] && p < kMaxSummarizedParams) {
          changed = Raise(param_effective_, param_base_[f] + p, a) || changed;
          continue;
        }
        const InstIndex param_def = m_.Param(fn, p);
        const Id param = m_.result_id(param_def);
        const Source v = Effective(ValueOf(m_.word(i, 4 + p)), caller);
        changed = Raise(values_, param, v.level, shared ? param_def : v.reason()) || changed;
        if (state_.IsPointerType(m_.type_id(param_def))) {
          changed = Raise(contents_, param, a.level, shared ? param_def : a.reason()) || changed;
        }
      }
      if (result != 0) {
        changed = Raise(values_, result, Returned(i, f, num_args, control)) || changed;
      }
      return changed;
    }
    case Op::ReturnValue: {
      const uint32_t f = m_.blocks()[block].function;
      const Source s = Join(ValueOf(m_.word(i, 1)), control);
      return Raise(returns_, f, Source(s.level, s.reason() == kNoInst ? i : s.reason(), s.deps));
    }
    default:
      break;
  }
  if (result == 0) return false;
  // Atomics differ per invocation; subgroup reductions and broadcasts are subgroup-uniform,
  // scans, shuffles and elections differ per invocation.
  switch (static_cast<OpClass>(Facts(op) & kOpClassMask)) {
    case OpClass::kAtomic:
    case OpClass::kGroupDivergent:
      return Raise(values_, result, kDivergent, i);
    case OpClass::kGroupArithmetic: {
      const ir::Inst inst = m_.inst(i);
      for (const auto& operand : inst.operands) {
        if (operand.kind == grammar::OperandKind::kGroupOperation &&
            inst.word(operand) != static_cast<uint32_t>(spv::GroupOperation::Reduce)) {
          return Raise(values_, result, kDivergent, i);
        }
      }
      return Raise(values_, result, kSubgroup, i);
    }
    case OpClass::kGroupUniform:
      return Raise(values_, result, kSubgroup, i);
    case OpClass::kJoin:
      break;
  }
  if (op == Op::Variable || op == Op::FunctionParameter) return false;
  if (!pinned_.empty() && std::binary_search(pinned_.begin(), pinned_.end(), i)) return false;
  const Source s = join_operands(1);
  return Raise(values_, result, s);
}

void Uniformity::Raised(const ws::vector<Source>& table, size_t index) {
  if (&table == &values_) {
    MarkUsers(static_cast<Id>(index));
  } else if (&table == &contents_ || &table == &contents_control_) {
    MarkInstructions(root_users_.Of(index));
  } else if (&table == &stored_ || &table == &stored_control_) {
    // The loads of the variable: a superset of those the store reaches (the others re-evaluate to
    // what they hold).
    MarkInstructions(root_users_.Of(m_.word(store_insts_[index], 1)));
  } else if (&table == &blocks_) {
    BlockRaised(static_cast<uint32_t>(index));
  } else if (&table == &merges_) {
    MarkBlock(static_cast<uint32_t>(index));
  } else if (&table == &returns_) {
    MarkInstructions(call_blocks_.Of(index));
  } else if (&table == &entries_ || &table == &param_effective_) {
    // Read through Effective() by the whole function, and by its block levels.
    const ir::Function& fn = m_.functions()[&table == &entries_ ? index : param_owner_[index]];
    for (uint32_t b = fn.first_block; b < fn.first_block + fn.num_blocks; ++b) MarkBlock(b);
    levels_dirty_ = true;
  }
}

// A block's control level (or region) changed: its instructions, the branches that join it into
// their condition, and the uses of its values outside a divergent region read it.
void Uniformity::BlockRaised(uint32_t b) {
  MarkBlock(b);
  levels_dirty_ = true;
  // Uses read the level of the block defining a value only when it is in a divergent region
  // (it enters one through BlockRaised too) and they are not in the same one (JoinOperands).
  // A block's region is set once: uses in the same region now stay in it.
  const uint32_t region = region_of_[b];
  if (region == ~0u) return;
  const ir::Block& block = m_.blocks()[b];
  for (InstIndex i = block.label + 1; i < block.end; ++i) {
    const Id r = m_.result_id(i);
    if (r == 0) continue;
    for (uint32_t k = first_use_[r]; k != kNoUse; k = operands_[k].next_use) {
      const InstIndex user = operands_[k].inst;
      const uint32_t user_block = m_.BlockOf(user);
      if (region_of_[user_block] == region) continue;
      inst_dirty_[user - body_begin_] = 1;
      dirty_[user_block] = 1;
    }
  }
}

// A worklist over blocks: every block is evaluated once, in order, then again only when
// something it reads was raised (Raised), and then only its instructions that read it (a raised
// control level or merge reaches those that read them: kReadsControl). Plain joins are evaluated
// only once an operand was raised: most values of a kernel stay uniform, and their joins are never
// computed. A raise reaches later blocks in the same pass and earlier ones (loops, calls, memory)
// in the next; levels only grow, so it terminates. Global instructions (types, constants, spec
// constants, variables) are uniform and stay so: only the bodies of functions are evaluated.
void Uniformity::Solve() {
  const auto blocks = m_.blocks();
  dirty_.assign(blocks.size(), 1);
  // The first sweep visits every block, evaluating what may raise something from nothing raised.
  all_dirty_.assign(blocks.size(), 0);
  bool first = true;
  inst_dirty_.assign(m_.num_instructions() - body_begin_, 0);
  levels_dirty_ = true;
  // The levels Prepare gave without Raise (the parameters of summarized functions) reach their
  // users like raised ones.
  for (uint32_t f = 0; f < m_.functions().size(); ++f) {
    if (!summarized_[f]) continue;
    const ir::Function& fn = m_.functions()[f];
    for (uint32_t p = 0; p < fn.num_params && p < kMaxSummarizedParams; ++p) {
      MarkUsers(m_.result_id(m_.Param(fn, p)));
    }
  }
  for (;;) {
    if (levels_dirty_) {
      levels_dirty_ = false;
      ComputeBlockLevels();
    }
    bool any = false;
    next_load_ = next_store_ = 0;
    for (uint32_t b = 0; b < blocks.size(); ++b) {
      if (!dirty_[b]) continue;
      dirty_[b] = 0;
      any = true;
      // Only what read something raised since it was evaluated: the others would raise nothing.
      const bool all = all_dirty_[b];
      all_dirty_[b] = 0;
      for (InstIndex i = blocks[b].label + 1; i < blocks[b].end; ++i) {
        uint8_t& dirty = inst_dirty_[i - body_begin_];
        const uint8_t facts = inst_facts_[i - body_begin_];
        if (facts & kPlainJoin) {
          // A plain join reads only its operands (and the levels of their blocks, raised through
          // MarkUsers too): until one was raised, it would raise nothing, even the first time.
          if (!dirty) continue;
          dirty = 0;
          if (const Id result = m_.result_id(i)) {
            Raise(values_, result, JoinOperands(OperandsOf(i), b, 1));
          }
          continue;
        }
        if (!dirty && !(all && (facts & kReadsControl)) &&
            !(first && !(facts & kQuietUntilRaised))) {
          continue;
        }
        dirty = 0;
        EvaluateInstruction(i, b);
      }
    }
    first = false;
    if (!any && !levels_dirty_) return;
  }
}

ws::string Uniformity::Why(const Source& s) {
  if (s.reason() == kNoInst) return "";
  const InstIndex r = s.reason();
  const Op op = m_.opcode(r);
  if (op == Op::Variable) {
    const Id var = m_.result_id(r);
    if (builtin_[var]) {
      const grammar::EnumerantInfo* e = grammar::LookupEnumerant(
          grammar::OperandKind::kBuiltIn, static_cast<uint32_t>(builtin_[var] - 1));
      return ws::string(" (it depends on the ") + (e ? e->name : "?") + " built-in " +
             state_.Name(var) + ")";
    }
    return " (it depends on memory of " + state_.Name(var) + ")";
  }
  if (op == Op::Load || op == Op::CooperativeVectorLoadNV) {
    // What made the load not uniform (SharedLoad), unless it reads an element of a matrix.
    const char* what =
        s.level == kUnknown    ? ", data read at an address that differs per invocation)"
        : s.level == kSubgroup ? ", data read at an address that differs per subgroup, not proven "
                                 "the same in every subgroup's location)"
        : !MatrixElementPointer(m_.word(r, 3))
            ? ", per-invocation data read back at an address that differs per invocation)"
            : ")";
    return " (it depends on " + state_.Describe(r) + what;
  }
  if (op == Op::FunctionParameter) {
    return " (it depends on parameter " + state_.Name(m_.result_id(r)) +
           " of a function called from several places, not all proven uniform)";
  }
  if (op == Op::Function) {
    return " (" + state_.Name(m_.result_id(r)) +
           " is called from several places, not all in proven uniform control flow)";
  }
  return " (it depends on " + state_.Describe(r) + ")";
}

void Uniformity::CheckCooperative(InstIndex i, uint32_t block) {
  // The matrix type that gives the scope: the result's or the first matrix operand's.
  const ir::Inst inst = m_.inst(i);
  std::optional<CoopMatrixType> type = GetCoopMatrixType(state_, inst.type_id);
  for (size_t w = 1; !type && w < inst.words.size(); ++w) {
    type = GetCoopMatrixType(state_, state_.TypeOf(inst.words[w]));
  }
  if (!type) return;
  const auto scope = DefaultValue(state_, type->scope);
  const Level required =
      scope && *scope == static_cast<int64_t>(spv::Scope::Workgroup) ? kUniform : kSubgroup;
  const char* scope_name = required == kUniform ? "workgroup" : "subgroup";
  // Subgroup-uniform is provably not workgroup-uniform once a workgroup is larger than any
  // subgroup can be (128 invocations).
  // Nor is a level that a function shared by several call sites got from them.
  auto proven_divergent = [&](const Source& s) {
    if (s.reason() != kNoInst) {
      const Op op = m_.opcode(s.reason());
      if (op == Op::FunctionParameter || op == Op::Function) return false;
      // Shared memory read at per-subgroup addresses, its data not known to differ (SharedLoad).
      if (s.level == kSubgroup && (op == Op::Load || op == Op::CooperativeVectorLoadNV)) {
        return false;
      }
    }
    return s.level == kDivergent ||
           (s.level == kSubgroup && required == kUniform && workgroup_invocations_ > 128);
  };
  const uint32_t function = m_.blocks()[block].function;
  const Source control = Effective(blocks_[block], function);
  if (control.level > required) {
    if (proven_divergent(control)) {
      state_.Report("uniformity.control", i,
                    state_.Describe(i) + " runs in divergent control flow" + Why(control) +
                        "; all invocations of its " + scope_name + " must execute it together");
    } else {
      Unproven(control, i, 0, scope_name);
    }
  }
  const uint32_t region = region_of_[block];
  for (const ValueOperand& operand : OperandsOf(i)) {
    const Id id = operand.id;
    Source s = values_[id];
    // Defined in a divergent region and used outside it: divergent at the use.
    const uint32_t def_block = operand.def_block;
    if (def_block != ~0u && region_of_[def_block] != ~0u && region_of_[def_block] != region) {
      s = Join(s, blocks_[def_block]);
    }
    s = Effective(s, function);
    if (s.level <= required) continue;
    if (!proven_divergent(s)) {
      Unproven(s, i, id, scope_name);
      continue;
    }
    if (!state_.Report("uniformity.operand", i,
                       state_.Describe(i) + ": operand " + state_.Name(id) + " is " +
                           LevelText(s.level) + Why(s) + "; it must be dynamically uniform " +
                           "within the " + scope_name)) {
      return;
    }
  }
}

void Uniformity::Unproven(const Source& s, InstIndex i, Id operand, const char* scope_name) {
  const uint64_t key = (uint64_t{s.reason()} << 2) | s.level;
  auto [it, inserted] = unproven_index_.emplace(key, unproven_.size());
  if (!inserted) {
    ++unproven_[it->second].uses;
    return;
  }
  unproven_.push_back({s.reason(), s.level, i, operand, scope_name, 1});
}

void Uniformity::Check() {
  const auto blocks = m_.blocks();
  for (uint32_t b = 0; b < blocks.size() && !state_.Full(); ++b) {
    if (!cfg_.Reachable(b)) continue;
    const InstIndex end = blocks[b].end;
    for (InstIndex i = blocks[b].label + 1; i < end; ++i) {
      if (MaybeCooperativeOperation(i) && IsCooperativeMatrixOperation(state_, i)) {
        CheckCooperative(i, b);
        if (state_.Full()) break;  // Only the checks report, filling the list.
      }
    }
  }
  // What cannot be proven either way is reported once per root cause, at its first use.
  for (const UnprovenCause& cause : unproven_) {
    const Source s(cause.level, cause.reason);
    ws::string message = state_.Describe(cause.first);
    if (cause.operand == 0) {
      message += " runs in control flow not proven uniform" + Why(s) + "; all invocations of its " +
                 cause.scope_name + " must execute it together";
    } else {
      message += ": operand " + state_.Name(cause.operand) + " is " + LevelText(s.level) + Why(s) +
                 "; it must be dynamically uniform within the " + cause.scope_name;
    }
    if (cause.uses > 1) {
      message += " (" + ws::to_string(cause.uses - 1) +
                 " more cooperative operands or instructions depend on the same source)";
    }
    if (!state_.Report("uniformity.unproven", cause.first, std::move(message))) return;
  }
}

void Uniformity::PrepareReachingStores() {
  // Prepare found the Function variables (tracked_), and their loads and stores.
  if (!any_tracked_) return;
  const ws::vector<uint8_t>& state = tracked_;
  // The loads and stores (in program order: their slots) of the variables still tracked.
  std::erase_if(loads_, [&](const TrackedLoad& load) { return state[load.var] != 1; });
  std::erase_if(store_insts_, [&](InstIndex i) { return state[m_.word(i, 1)] != 1; });
  ZeroFill(stored_, store_insts_.size());
  ZeroFill(stored_control_, store_insts_.size());
  if (loads_.empty()) return;
  // Each variable's loads and stores as lists in program order, linked from the last backwards.
  first_load_.assign(m_.bound(), ~0u);
  first_store_.assign(m_.bound(), ~0u);
  next_load_of_.resize(loads_.size());
  next_store_of_.resize(store_insts_.size());
  for (size_t k = loads_.size(); k-- > 0;) {
    next_load_of_[k] = first_load_[loads_[k].var];
    first_load_[loads_[k].var] = static_cast<uint32_t>(k);
  }
  for (size_t k = store_insts_.size(); k-- > 0;) {
    const Id var = m_.word(store_insts_[k], 1);
    next_store_of_[k] = first_store_[var];
    first_store_[var] = static_cast<uint32_t>(k);
  }
}

// The stores that reach each load of `var`, found once the variable holds something not uniform.
void Uniformity::FindReachingStores(Id var) {
  const auto blocks = m_.blocks();
  if (owner_.empty()) {
    owner_.assign(blocks.size(), 0);
    last_slot_.assign(blocks.size(), 0);
    stamp_.assign(blocks.size(), ~0u);
  }
  // Per block: the slot of the variable's last store there (valid where owner_[b] is var).
  uint32_t var_stores = 0, only_slot = 0;
  for (uint32_t k = first_store_[var]; k != ~0u; k = next_store_of_[k]) {
    const uint32_t b = m_.BlockOf(store_insts_[k]);
    owner_[b] = var;
    last_slot_[b] = k;
    only_slot = k;
    ++var_stores;
  }
  for (uint32_t l = first_load_[var]; l != ~0u; l = next_load_of_[l]) {
    TrackedLoad& load = loads_[l];
    const uint32_t begin = static_cast<uint32_t>(reaching_.size());
    if (var_stores <= 1) {
      // Stored once (or never): whichever path reaches the load, that store is all there is.
      if (var_stores == 1) reaching_.push_back(only_slot);
      load.begin = begin;
      load.end = static_cast<uint32_t>(reaching_.size());
      continue;
    }
    // The nearest store before the load in its block, else the last store on each path
    // backwards through the predecessors (paths without one see the initializer, a constant,
    // or an undefined value: nothing to join).
    const uint32_t load_block = m_.BlockOf(load.inst);
    InstIndex nearest = kNoInst;
    for (InstIndex j = load.inst; j-- > blocks[load_block].label + 1;) {
      if (m_.opcode(j) == Op::Store && m_.word(j, 1) == var) {
        nearest = j;
        break;
      }
    }
    bool complete = true;
    if (nearest != kNoInst) {
      reaching_.push_back(static_cast<uint32_t>(
          std::lower_bound(store_insts_.begin(), store_insts_.end(), nearest) -
          store_insts_.begin()));
    } else {
      ++walk_;
      const auto preds = cfg_.Predecessors(load_block);
      work_.assign(preds.begin(), preds.end());
      // Blocks visited per load; past it the load sees every store, as memory does. Reaching sets
      // are usually found within a few blocks; a variable reused across many loops is not, and
      // the budget keeps that linear.
      int budget = 32;
      while (!work_.empty()) {
        const uint32_t x = work_.back();
        work_.pop_back();
        if (stamp_[x] == walk_) continue;
        stamp_[x] = walk_;
        if (--budget < 0) {
          complete = false;
          break;
        }
        if (owner_[x] == var) {
          reaching_.push_back(last_slot_[x]);
          continue;
        }
        for (uint32_t p : cfg_.Predecessors(x)) work_.push_back(p);
      }
    }
    if (complete) {
      load.begin = begin;
      load.end = static_cast<uint32_t>(reaching_.size());
    } else {
      reaching_.resize(begin);
      load.begin = kEveryStore;
    }
  }
}

// Which matrices hold one value in every element: whole-matrix reductions (Row|Column), matrices
// built from one scalar, null and replicated constants, and what element-wise operations,
// copies, selections and Function variables make of only such matrices. Optimistic for
// Function variables (every whole store must be replicated, nothing else may write them),
// iterated until no variable changes; values in a loop that come back through an OpPhi from a
// later block are taken as not replicated.
void Uniformity::NoteReplicated(InstIndex i, Op op) {
  switch (op) {
    case Op::Variable:
      if (IsCoopMatrixType(state_, state_.PointeeType(m_.type_id(i))) && m_.num_words(i) == 4 &&
          static_cast<StorageClass>(m_.word(i, 3)) == StorageClass::Function) {
        rep_variables_.push_back(i);
      }
      return;
    case Op::Store:
      rep_stores_.push_back(i);
      return;
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
      if (m_.num_words(i) > 3) rep_chains_.push_back(i);
      break;
    default:
      break;
  }
  const Id type = m_.type_id(i);
  if (type != 0 && m_.result_id(i) != 0 && IsCoopMatrixType(state_, type)) {
    rep_matrices_.push_back(i);
  }
}

void Uniformity::PrepareReplicated() {
  // Prepare's pass over the module found the matrix results, the Function variables holding a
  // matrix, the whole stores into them and the access chains that may point into them
  // (NoteReplicated).
  ws::vector<InstIndex>& matrices = rep_matrices_;
  ws::vector<InstIndex>& stores = rep_stores_;
  ws::vector<InstIndex>& chains = rep_chains_;
  ws::vector<InstIndex>& variables = rep_variables_;
  replicated_.assign(m_.bound(), 0);
  matrix_value_.assign(m_.bound(), 0);
  for (const InstIndex i : matrices) matrix_value_[m_.result_id(i)] = 1;
  if (matrices.empty()) return;
  if (!variables.empty()) {
    ws::vector<uint8_t> variable(m_.bound(), 0);
    for (const InstIndex i : variables) variable[m_.result_id(i)] = 1;
    std::erase_if(stores, [&](InstIndex st) { return !variable[m_.word(st, 1)]; });
    // A variable used otherwise than by whole loads and stores, and access chains into it used
    // otherwise than by loads, may be written element by element: not tracked.
    // Per id: itself for a tracked variable, its variable for an access chain into one, else 0;
    // one flat pass over the value operands of the function bodies.
    ws::vector<Id> base(m_.bound(), 0);
    for (const InstIndex i : variables) base[m_.result_id(i)] = m_.result_id(i);
    for (const InstIndex i : chains) {
      if (variable[m_.word(i, 3)]) base[m_.result_id(i)] = m_.word(i, 3);
    }
    for (const ValueOperand& operand : operands_) {
      const Id id = operand.id;
      const Id var = base[id];
      if (var == 0) continue;
      const Op op = m_.opcode(operand.inst);
      if (var == id) {
        const bool allowed =
            (op == Op::Load && operand.offset == 3) || (op == Op::Store && operand.offset == 1) ||
            ((op == Op::AccessChain || op == Op::InBoundsAccessChain) && operand.offset == 3);
        if (!allowed) variable[id] = 0;
      } else if (!(op == Op::Load && operand.offset == 3)) {
        variable[var] = 0;
      }
    }
    for (const InstIndex i : variables) replicated_[m_.result_id(i)] = variable[m_.result_id(i)];
  } else {
    stores.clear();
  }
  auto evaluate = [&]() {
    for (const InstIndex i : matrices) {
      const Op op = m_.opcode(i);
      bool r = false;
      switch (op) {
        case Op::CooperativeMatrixReduceEXT:
          r = m_.num_words(i) > 4 && (m_.word(i, 4) & 3u) == 3u;
          break;
        case Op::ConstantNull:
        case Op::Undef:
        case Op::ConstantCompositeReplicateEXT:
        case Op::SpecConstantCompositeReplicateEXT:
        case Op::CompositeConstructReplicateEXT:
          r = true;
          break;
        case Op::CompositeConstruct:
        case Op::ConstantComposite:
        case Op::SpecConstantComposite:
          r = m_.num_words(i) == 4;
          break;
        case Op::Load:
          r = replicated_[m_.word(i, 3)];
          break;
        case Op::Phi:
          r = true;
          for (size_t w = 3; w < m_.num_words(i); w += 2) r = r && replicated_[m_.word(i, w)];
          break;
        case Op::CopyObject:
        case Op::Select:
        case Op::FConvert:
        case Op::SConvert:
        case Op::UConvert:
        case Op::ConvertFToS:
        case Op::ConvertFToU:
        case Op::ConvertSToF:
        case Op::ConvertUToF:
        case Op::Bitcast:
        case Op::FNegate:
        case Op::SNegate:
        case Op::FAdd:
        case Op::IAdd:
        case Op::FSub:
        case Op::ISub:
        case Op::FMul:
        case Op::IMul:
        case Op::FDiv:
        case Op::SDiv:
        case Op::UDiv:
        case Op::MatrixTimesScalar:
        case Op::CooperativeMatrixConvertUseEXT:
        case Op::CooperativeMatrixTransposeNV:
          r = i >= body_begin_;
          for (const ValueOperand& operand : r ? OperandsOf(i) : std::span<const ValueOperand>{}) {
            if (IsCoopMatrixType(state_, state_.TypeOf(operand.id))) {
              r = r && replicated_[operand.id];
            }
          }
          break;
        default:
          break;
      }
      replicated_[m_.result_id(i)] = r;
    }
  };
  for (int round = 0;; ++round) {
    evaluate();
    bool changed = false;
    for (const InstIndex st : stores) {
      const Id var = m_.word(st, 1);
      if (replicated_[var] && !replicated_[m_.word(st, 2)]) {
        replicated_[var] = 0;
        changed = true;
      }
    }
    if (!changed) return;
    if (round == 8) break;
  }
  // Not settled in a few rounds: trust no variable.
  for (const InstIndex i : variables) replicated_[m_.result_id(i)] = 0;
  evaluate();
}

void Uniformity::PinWorkgroupVotes() {
  if (votes_.empty()) return;
  pinned_ = ProveWorkgroupVotes(state_, {builtin_, tracked_, store_insts_, votes_});
  // Evaluated apart (EvaluateInstruction), where they stay uniform.
  for (const InstIndex i : pinned_) {
    uint8_t& facts = inst_facts_[i - body_begin_];
    facts = static_cast<uint8_t>((facts & ~kPlainJoin) | kQuietUntilRaised);
  }
}

void Uniformity::Run() {
  Prepare();
  PrepareReachingStores();
  PinWorkgroupVotes();
  PrepareReplicated();
  Solve();
  Check();
}

}  // namespace

void ValidateUniformity(ValidationState& state) {
  if (!state.structure_ok) return;
  if (!state.HasCapability(spv::Capability::CooperativeMatrixKHR) &&
      !state.HasCapability(spv::Capability::CooperativeMatrixNV)) {
    return;
  }
  Uniformity(state).Run();
}

}  // namespace coopspv::val
