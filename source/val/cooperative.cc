#include "source/val/cooperative.h"

#include <iterator>
#include <span>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/scalar_eval.h"

namespace coopspv::val {

std::optional<CoopMatrixType> GetCoopMatrixType(const ValidationState& state, Id type) {
  const Op op = state.DefOp(type);
  if (op == Op::TypeCooperativeMatrixKHR) {
    return CoopMatrixType{true,
                          state.DefWord(type, 2),
                          state.DefWord(type, 3),
                          state.DefWord(type, 4),
                          state.DefWord(type, 5),
                          state.DefWord(type, 6)};
  }
  if (op == Op::TypeCooperativeMatrixNV) {
    return CoopMatrixType{false,
                          state.DefWord(type, 2),
                          state.DefWord(type, 3),
                          state.DefWord(type, 4),
                          state.DefWord(type, 5),
                          0};
  }
  return std::nullopt;
}

std::optional<int64_t> KnownValue(const ValidationState& state, Id id) {
  switch (state.DefOp(id)) {
    case Op::Constant:
      return state.IntConstant(id);
    case Op::ConstantTrue:
      return 1;
    case Op::ConstantFalse:
      return 0;
    case Op::ConstantNull:
      return state.IsIntType(state.TypeOf(id)) || state.IsBoolType(state.TypeOf(id))
                 ? std::optional<int64_t>(0)
                 : std::nullopt;
    default:
      return std::nullopt;
  }
}

namespace {

// DefaultValue (`defaults`: spec constants give their defaults) or FoldedValue (they give
// nothing), with `budget` bounding the instructions an OpSpecConstantOp expression may visit
// (hostile nesting, or a DAG that shares operands, stays cheap).
std::optional<int64_t> Evaluate(const ValidationState& state, Id id, bool defaults, int* budget) {
  if (--*budget < 0) return std::nullopt;
  switch (state.DefOp(id)) {
    case Op::SpecConstant:
      return defaults ? state.IntConstantOrSpecDefault(id) : std::nullopt;
    case Op::SpecConstantTrue:
      return defaults ? std::optional<int64_t>(1) : std::nullopt;
    case Op::SpecConstantFalse:
      return defaults ? std::optional<int64_t>(0) : std::nullopt;
    case Op::SpecConstantOp:
      break;
    default:
      return KnownValue(state, id);
  }
  // A scalar integer / Boolean operation on scalar operands, evaluated on their defaults.
  const ir::Module& m = state.module();
  const InstIndex d = m.Def(id);
  const std::optional<ir::Scalar> shape = ir::ScalarShape(m, m.type_id(d));
  if (!shape || m.num_words(d) < 4) return std::nullopt;
  ir::Scalar args[3];
  size_t num_args = 0;
  const ir::Inst inst = m.inst(d);
  for (const auto& operand : inst.operands) {
    if (operand.offset < 4) continue;
    if (!grammar::IsIdKind(operand.kind) || num_args == std::size(args)) return std::nullopt;
    const Id arg = inst.word(operand);
    std::optional<ir::Scalar> value = ir::ScalarShape(m, state.TypeOf(arg));
    if (!value) return std::nullopt;
    const std::optional<int64_t> v = Evaluate(state, arg, defaults, budget);
    if (!v) return std::nullopt;
    value->bits = value->is_bool ? (*v != 0) : ir::MaskTo(static_cast<uint64_t>(*v), value->width);
    args[num_args++] = *value;
  }
  const std::optional<ir::Scalar> r = ir::EvaluateScalarOp(
      static_cast<Op>(m.word(d, 3)), *shape, std::span<const ir::Scalar>(args, num_args));
  if (!r) return std::nullopt;
  return r->is_bool || !r->is_signed ? static_cast<int64_t>(r->bits) : r->Signed();
}

}  // namespace

std::optional<int64_t> DefaultValue(const ValidationState& state, Id id) {
  int budget = 256;
  return Evaluate(state, id, /*defaults=*/true, &budget);
}

std::optional<int64_t> FoldedValue(const ValidationState& state, Id id) {
  int budget = 256;
  return Evaluate(state, id, /*defaults=*/false, &budget);
}

bool SameValue(const ValidationState& state, Id a, Id b) {
  // Iterative structural comparison of spec-constant expressions.
  ws::vector<std::pair<Id, Id>> work{{a, b}};
  int budget = 256;  // Expressions are small; this bounds hostile nesting.
  while (!work.empty()) {
    const auto [x, y] = work.back();
    work.pop_back();
    if (x == y) continue;
    if (--budget < 0) return false;
    const auto vx = KnownValue(state, x), vy = KnownValue(state, y);
    if (vx && vy) {
      if (*vx != *vy) return false;
      continue;
    }
    if (state.DefOp(x) != Op::SpecConstantOp || state.DefOp(y) != Op::SpecConstantOp) return false;
    const ir::Module& m = state.module();
    const InstIndex dx = m.Def(x), dy = m.Def(y);
    if (m.num_words(dx) != m.num_words(dy) || m.type_id(dx) != m.type_id(dy) ||
        m.word(dx, 3) != m.word(dy, 3)) {
      return false;
    }
    const ir::Inst ix = m.inst(dx), iy = m.inst(dy);
    for (size_t k = 0; k < ix.operands.size(); ++k) {
      const auto& op = ix.operands[k];
      if (op.offset < 4) continue;
      if (grammar::IsIdKind(op.kind)) {
        work.emplace_back(ix.word(op), iy.word(iy.operands[k]));
      } else if (ix.word(op) != iy.word(iy.operands[k])) {
        return false;
      }
    }
  }
  return true;
}

bool ProvablyDifferent(const ValidationState& state, Id a, Id b) {
  const auto va = FoldedValue(state, a), vb = FoldedValue(state, b);
  return va && vb && *va != *vb;
}

ws::string ValueText(ValidationState& state, Id id) {
  if (const auto v = KnownValue(state, id)) return ws::to_string(*v);
  ws::string out = state.Name(id);
  if (const auto f = FoldedValue(state, id)) {
    out += " (" + ws::to_string(*f) + ")";
  } else if (const auto d = DefaultValue(state, id)) {
    out += " (default " + ws::to_string(*d) + ")";
  }
  return out;
}

bool IsCooperativeVectorStorageRestricted(const ValidationState& state) {
  return state.HasCapability(spv::Capability::CooperativeVectorNV) &&
         !state.HasCapability(spv::Capability::LongVectorEXT);
}

bool ContainsCooperativeType(const ValidationState& state, Id type) {
  ws::vector<Id> work{type};
  int budget = 4096;
  while (!work.empty() && --budget > 0) {
    const Id t = work.back();
    work.pop_back();
    switch (state.DefOp(t)) {
      case Op::TypeCooperativeMatrixKHR:
      case Op::TypeCooperativeMatrixNV:
        return true;
      case Op::TypeVectorIdEXT:
        if (IsCooperativeVectorStorageRestricted(state)) return true;
        break;
      case Op::TypeArray:
      case Op::TypeRuntimeArray:
        work.push_back(state.DefWord(t, 2));
        break;
      case Op::TypeStruct: {
        const InstIndex d = state.module().Def(t);
        for (size_t k = 2; k < state.module().num_words(d); ++k) {
          work.push_back(state.module().word(d, k));
        }
        break;
      }
      default:
        break;
    }
  }
  return false;
}

CoopOperation CoopOperationOf(Op op) {
  switch (op) {
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixMulAddKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixStoreNV:
    case Op::CooperativeMatrixMulAddNV:
    case Op::CooperativeMatrixLoadTensorNV:
    case Op::CooperativeMatrixStoreTensorNV:
    case Op::CooperativeMatrixReduceEXT:
    case Op::CooperativeMatrixConvertUseEXT:
    case Op::CooperativeMatrixTransposeNV:
    case Op::CooperativeMatrixPerElementOpEXT:
      return CoopOperation::kAlways;
    default:
      break;
  }
  const grammar::InstructionInfo* info = grammar::LookupOpcode(static_cast<uint32_t>(op));
  const bool candidate =
      info && (info->klass == grammar::InstructionClass::kConversion ||
               info->klass == grammar::InstructionClass::kArithmetic ||
               op == Op::CompositeConstruct || op == Op::CompositeConstructReplicateEXT);
  return candidate ? CoopOperation::kIfMatrixTyped : CoopOperation::kNever;
}

bool HasCoopMatrixTyped(const ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  if (IsCoopMatrixType(state, m.type_id(i))) return true;
  for (size_t w = 3; w < m.num_words(i); ++w) {
    if (IsCoopMatrixType(state, state.TypeOf(m.word(i, w)))) return true;
  }
  return false;
}

bool IsCooperativeMatrixOperation(const ValidationState& state, InstIndex i) {
  return CoopOperationHolds(state, i, CoopOperationOf(state.module().opcode(i)));
}

void CheckMemoryOperandMask(ValidationState& state, InstIndex i, uint32_t mask,
                            MemoryAccessRole role, const char* rule, int occurrence) {
  const auto bit = [](spv::MemoryAccess a) { return static_cast<uint32_t>(a); };
  const bool copy =
      state.module().opcode(i) == Op::CopyMemory || state.module().opcode(i) == Op::CopyMemorySized;
  if (role == MemoryAccessRole::kLoad && (mask & bit(spv::MemoryAccess::MakePointerAvailable))) {
    state.Report(rule, i,
                 state.Describe(i) + (copy ? ": MakePointerAvailable is not valid on the Source's "
                                             "(second) Memory Operands"
                                           : ": MakePointerAvailable is not valid on a load"));
  }
  if (role == MemoryAccessRole::kStore && (mask & bit(spv::MemoryAccess::MakePointerVisible))) {
    state.Report(rule, i,
                 state.Describe(i) + (copy ? ": MakePointerVisible is not valid on the Target's "
                                             "(first) Memory Operands"
                                           : ": MakePointerVisible is not valid on a store"));
  }
  if ((mask & (bit(spv::MemoryAccess::MakePointerAvailable) |
               bit(spv::MemoryAccess::MakePointerVisible))) &&
      !(mask & bit(spv::MemoryAccess::NonPrivatePointer))) {
    state.Report(rule, i,
                 state.Describe(i) +
                     ": MakePointerAvailable / MakePointerVisible require "
                     "NonPrivatePointer as well");
  }
  if (mask & bit(spv::MemoryAccess::Aligned)) {
    // The Aligned literal is the mask's first parameter.
    const ir::Inst inst = state.module().inst(i);
    uint32_t alignment = 0;
    int seen = 0;
    for (size_t k = 0; k + 1 < inst.operands.size(); ++k) {
      if (inst.operands[k].kind == grammar::OperandKind::kMemoryAccess && seen++ == occurrence) {
        alignment = inst.word(inst.operands[k + 1]);
        break;
      }
    }
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
      state.Report(
          rule, i,
          state.Describe(i) + ": Aligned " + ws::to_string(alignment) + " is not a power of two");
    }
  }
}

bool EnumerantTakesIds(grammar::OperandKind kind, uint32_t value) {
  const grammar::EnumerantInfo* e = grammar::LookupEnumerant(kind, value);
  if (e == nullptr) return false;
  for (const grammar::OperandInfo& p : grammar::Parameters(*e)) {
    if (grammar::IsIdKind(p.kind)) return true;
  }
  return false;
}

ws::string EnumerantName(grammar::OperandKind kind, uint32_t value) {
  const grammar::EnumerantInfo* e = grammar::LookupEnumerant(kind, value);
  return e ? e->name : ws::to_string(value);
}

ws::string StorageClassName(spv::StorageClass sc) {
  return EnumerantName(grammar::OperandKind::kStorageClass, static_cast<uint32_t>(sc));
}

ws::string ScopeName(int64_t scope) {
  return scope >= 0 && scope <= 0xFFFFFFFF
             ? EnumerantName(grammar::OperandKind::kScope, static_cast<uint32_t>(scope))
             : ws::to_string(scope);
}

}  // namespace coopspv::val
