// Non-uniform group instructions (SPIR-V 3.42.24, OpGroupNonUniform*, and
// OpGroupNonUniformRotateKHR): the types of Result Type and each operand, the Group Operation
// and ClusterSize of reductions, and the Execution Scope (Subgroup; in the Vulkan environment
// vulkan.cc reports it).
#include <string>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// What an operand or Result Type must be.
enum class Want : uint8_t {
  kBool,            // A Boolean scalar.
  kValue,           // A scalar or vector of integer, floating-point or Boolean type.
  kInt,             // A scalar or vector of integer type.
  kUnsignedInt,     // A scalar or vector of integer type whose Signedness is 0.
  kFloat,           // A scalar or vector of floating-point type.
  kLogical,         // A scalar or vector of Boolean type.
  kUnsignedScalar,  // A scalar of integer type whose Signedness is 0.
  kIntScalar,       // A scalar of integer type.
  kBallot,          // A vector of four 32-bit integers whose Signedness is 0.
  kPartition,       // A vector of four 32-bit integers of either signedness.
};

const char* WantText(Want w) {
  switch (w) {
    case Want::kBool:
      return "a Boolean scalar";
    case Want::kValue:
      return "a scalar or vector of integer, floating-point or Boolean type";
    case Want::kInt:
      return "a scalar or vector of integer type";
    case Want::kUnsignedInt:
      return "a scalar or vector of integer type whose Signedness is 0";
    case Want::kFloat:
      return "a scalar or vector of floating-point type";
    case Want::kLogical:
      return "a scalar or vector of Boolean type";
    case Want::kUnsignedScalar:
      return "an integer scalar whose Signedness is 0";
    case Want::kIntScalar:
      return "an integer scalar";
    case Want::kBallot:
      return "a vector of four 32-bit integers whose Signedness is 0";
    case Want::kPartition:
      return "a vector of four 32-bit integers";
  }
  return "";
}

bool Satisfies(const ValidationState& state, Id type, Want w) {
  const bool vector = state.IsVectorType(type);
  const Id scalar = vector ? state.ComponentType(type) : type;
  switch (w) {
    case Want::kBool:
      return state.IsBoolType(type);
    case Want::kValue:
      return state.IsScalarType(scalar);
    case Want::kInt:
      return state.IsIntType(scalar);
    case Want::kUnsignedInt:
      return state.IsIntType(scalar) && !state.IsSignedInt(scalar);
    case Want::kFloat:
      return state.IsFloatType(scalar);
    case Want::kLogical:
      return state.IsBoolType(scalar);
    case Want::kUnsignedScalar:
      return state.IsIntType(type) && !state.IsSignedInt(type);
    case Want::kIntScalar:
      return state.IsIntType(type);
    case Want::kBallot:
      return state.DefOp(type) == Op::TypeVector && state.DefWord(type, 3) == 4 &&
             state.IsInt32(scalar) && !state.IsSignedInt(scalar);
    case Want::kPartition:
      return state.DefOp(type) == Op::TypeVector && state.DefWord(type, 3) == 4 &&
             state.IsInt32(scalar);
  }
  return true;
}

// The shape of one instruction: Result Type, and the operands after the Execution Scope (word 3).
struct Shape {
  Want result;
  bool group_operation = false;  // Word 4 is a Group Operation, then the Value.
  Want value = Want::kValue;     // The first operand (Value or Predicate).
  bool value_is_result = false;  // The Value's type is the Result Type.
  bool has_second = false;       // Id, Index, Mask, Delta or Direction.
  Want second = Want::kUnsignedScalar;
  bool cluster = false;  // An optional ClusterSize follows.
  bool no_value = false;
};

bool ShapeOf(Op op, Shape* s) {
  switch (op) {
    case Op::GroupNonUniformElect:
      *s = {Want::kBool};
      s->no_value = true;
      return true;
    case Op::GroupNonUniformAll:
    case Op::GroupNonUniformAny:
      *s = {Want::kBool, false, Want::kBool};
      return true;
    case Op::GroupNonUniformAllEqual:
      *s = {Want::kBool, false, Want::kValue};
      return true;
    case Op::GroupNonUniformBroadcast:
    case Op::GroupNonUniformQuadBroadcast:
      *s = {Want::kValue, false, Want::kValue, true, true, Want::kUnsignedScalar};
      return true;
    case Op::GroupNonUniformBroadcastFirst:
      *s = {Want::kValue, false, Want::kValue, true};
      return true;
    case Op::GroupNonUniformBallot:
      *s = {Want::kBallot, false, Want::kBool};
      return true;
    case Op::GroupNonUniformInverseBallot:
      *s = {Want::kBool, false, Want::kBallot};
      return true;
    case Op::GroupNonUniformBallotBitExtract:
      *s = {Want::kBool, false, Want::kBallot, false, true, Want::kUnsignedScalar};
      return true;
    case Op::GroupNonUniformBallotBitCount:
      *s = {Want::kUnsignedScalar, true, Want::kBallot};
      return true;
    case Op::GroupNonUniformBallotFindLSB:
    case Op::GroupNonUniformBallotFindMSB:
      *s = {Want::kUnsignedScalar, false, Want::kBallot};
      return true;
    case Op::GroupNonUniformShuffle:
    case Op::GroupNonUniformShuffleXor:
    case Op::GroupNonUniformShuffleUp:
    case Op::GroupNonUniformShuffleDown:
    case Op::GroupNonUniformQuadSwap:
      *s = {Want::kValue, false, Want::kValue, true, true, Want::kUnsignedScalar};
      return true;
    case Op::GroupNonUniformRotateKHR:
      *s = {Want::kValue, false, Want::kValue, true, true, Want::kUnsignedScalar, true};
      return true;
    case Op::GroupNonUniformUMin:
    case Op::GroupNonUniformUMax:
      *s = {Want::kUnsignedInt, true, Want::kUnsignedInt, true, false, Want::kUnsignedScalar, true};
      return true;
    case Op::GroupNonUniformIAdd:
    case Op::GroupNonUniformIMul:
    case Op::GroupNonUniformSMin:
    case Op::GroupNonUniformSMax:
    case Op::GroupNonUniformBitwiseAnd:
    case Op::GroupNonUniformBitwiseOr:
    case Op::GroupNonUniformBitwiseXor:
      *s = {Want::kInt, true, Want::kInt, true, false, Want::kUnsignedScalar, true};
      return true;
    case Op::GroupNonUniformFAdd:
    case Op::GroupNonUniformFMul:
    case Op::GroupNonUniformFMin:
    case Op::GroupNonUniformFMax:
      *s = {Want::kFloat, true, Want::kFloat, true, false, Want::kUnsignedScalar, true};
      return true;
    case Op::GroupNonUniformLogicalAnd:
    case Op::GroupNonUniformLogicalOr:
    case Op::GroupNonUniformLogicalXor:
      *s = {Want::kLogical, true, Want::kLogical, true, false, Want::kUnsignedScalar, true};
      return true;
    default:
      return false;
  }
}

class GroupRules {
 public:
  explicit GroupRules(ValidationState& state) : state_(state), m_(state.module()) {}
  void Check(InstIndex i, const Shape& s);

 private:
  void Type(InstIndex i, const char* what, Id id, Want w) {
    const Id type = id == 0 ? 0 : state_.TypeOf(id);
    if (type != 0 && !Satisfies(state_, type, w)) {
      state_.Report("group.operand", i,
                    state_.Describe(i) + ": " + what + " " + state_.Name(id) + " has type " +
                        state_.Name(type) + "; it must be " + WantText(w));
    }
  }

  ValidationState& state_;
  const ir::Module& m_;
};

void GroupRules::Check(InstIndex i, const Shape& s) {
  const uint32_t n = m_.num_words(i);
  if (n < 4) return;  // binary.malformed.
  const Id result_type = m_.word(i, 1);
  if (!Satisfies(state_, result_type, s.result)) {
    state_.Report("group.operand", i,
                  state_.Describe(i) + ": Result Type " + state_.Name(result_type) + " must be " +
                      WantText(s.result));
  }
  // SPIR-V 3.42.24: Execution must be Subgroup; SPV_KHR_subgroup_rotate: Workgroup or Subgroup
  // for OpGroupNonUniformRotateKHR (vulkan.non-uniform-scope in Vulkan).
  const std::optional<int64_t> scope =
      state_.options().env.is_vulkan() ? std::nullopt : KnownValue(state_, m_.word(i, 3));
  const bool rotate = m_.opcode(i) == Op::GroupNonUniformRotateKHR;
  if (scope && *scope != static_cast<int64_t>(spv::Scope::Subgroup) &&
      !(rotate && *scope == static_cast<int64_t>(spv::Scope::Workgroup))) {
    state_.Report("group.scope", i,
                  state_.Describe(i) + ": Execution Scope is " + ScopeName(*scope) +
                      (rotate ? "; it must be Workgroup or Subgroup" : "; it must be Subgroup"));
  }
  if (s.no_value) return;
  uint32_t w = 4;
  uint32_t group_operation = ~0u;
  if (s.group_operation) {
    if (n <= w) return;
    group_operation = m_.word(i, w++);
    const bool scan = group_operation <= 2;  // Reduce, InclusiveScan, ExclusiveScan.
    const bool clustered = group_operation == 3 && s.cluster;
    const bool partitioned = group_operation >= 6 && group_operation <= 8 && s.cluster;
    if (!scan && !clustered && !partitioned) {
      state_.Report("group.operation", i,
                    state_.Describe(i) + ": Group Operation " + ws::to_string(group_operation) +
                        " is not " +
                        (s.cluster ? "Reduce, InclusiveScan, ExclusiveScan, ClusteredReduce or a "
                                     "Partitioned one"
                                   : "Reduce, InclusiveScan or ExclusiveScan"));
    }
  }
  if (n <= w) return;
  const Id value = m_.word(i, w++);
  const Id value_type = state_.TypeOf(value);
  if (s.value_is_result && value_type != 0 && value_type != result_type &&
      Satisfies(state_, result_type, s.result)) {
    state_.Report("group.operand", i,
                  state_.Describe(i) + ": Value " + state_.Name(value) + " has type " +
                      state_.Name(value_type) + ", not the Result Type " +
                      state_.Name(result_type));
  } else {
    Type(i, s.value == Want::kBool && !s.value_is_result ? "Predicate" : "Value", value, s.value);
  }
  if (s.has_second && n > w) {
    const Id second = m_.word(i, w++);
    Type(i, "operand", second, s.second);
    // Before SPIR-V 1.5 the Id of OpGroupNonUniformBroadcast and the Index of
    // OpGroupNonUniformQuadBroadcast come from constant instructions; the Direction of
    // OpGroupNonUniformQuadSwap always does.
    const Op op = m_.opcode(i);
    const bool quad_swap = op == Op::GroupNonUniformQuadSwap;
    if ((quad_swap ||
         ((op == Op::GroupNonUniformBroadcast || op == Op::GroupNonUniformQuadBroadcast) &&
          state_.version() < SpirvVersion(1, 5))) &&
        !state_.IsConstantInstruction(second) && state_.DefOp(second) != Op::Nop) {
      state_.Report("group.operand", i,
                    state_.Describe(i) + ": " + (quad_swap ? "Direction " : "") +
                        state_.Name(second) + " must come from a constant instruction" +
                        (quad_swap ? "" : " before SPIR-V 1.5"));
    }
  }
  if (!s.cluster) return;
  // SPV_NV / SPV_EXT_shader_subgroup_partitioned: the Partitioned operations take a Ballot, not
  // a ClusterSize; it must be present, a vector of four 32-bit integers.
  if (group_operation >= 6 && group_operation <= 8) {
    if (n <= w) {
      state_.Report("group.partition-ballot", i,
                    state_.Describe(i) + ": a Partitioned Group Operation needs a Ballot operand");
      return;
    }
    const Id ballot = m_.word(i, w);
    const Id type = state_.TypeOf(ballot);
    if (type != 0 && !Satisfies(state_, type, Want::kPartition)) {
      state_.Report("group.partition-ballot", i,
                    state_.Describe(i) + ": Ballot " + state_.Name(ballot) + " has type " +
                        state_.Name(type) + "; it must be " + WantText(Want::kPartition));
    }
    return;
  }
  if (n <= w) {
    if (s.group_operation && group_operation == 3) {
      state_.Report("group.cluster-size", i,
                    state_.Describe(i) +
                        ": the ClusteredReduce Group Operation needs a "
                        "ClusterSize operand");
    }
    return;
  }
  const Id cluster = m_.word(i, w);
  if (!state_.IsConstantInstruction(cluster) ||
      !Satisfies(state_, state_.TypeOf(cluster), Want::kUnsignedScalar)) {
    state_.Report("group.cluster-size", i,
                  state_.Describe(i) + ": ClusterSize " + state_.Name(cluster) +
                      " must be a constant instruction of integer scalar type with Signedness 0");
    return;
  }
  const std::optional<int64_t> size = KnownValue(state_, cluster);
  if (size && (*size < 1 || (*size & (*size - 1)) != 0)) {
    state_.Report("group.cluster-size-value", i,
                  state_.Describe(i) + ": ClusterSize " + ws::to_string(*size) +
                      " is not a power of 2; behavior is undefined");
  }
}

}  // namespace

bool GroupsVisits(const ValidationState& state, Op op) {
  if (!state.HasCapability(spv::Capability::GroupNonUniform)) return false;  // As ValidateGroups.
  Shape s;
  return ShapeOf(op, &s);
}

void ValidateGroups(ValidationState& state) {
  if (!state.HasCapability(spv::Capability::GroupNonUniform)) return;
  const ir::Module& m = state.module();
  GroupRules rules(state);
  for (const InstIndex i : state.Walked(Walk::kGroups, m.global_end())) {
    if (state.Full()) break;
    Shape s;
    if (ShapeOf(m.opcode(i), &s)) rules.Check(i, s);
  }
}

}  // namespace coopspv::val
