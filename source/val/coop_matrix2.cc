// SPV_NV_cooperative_matrix2 and SPV_EXT_cooperative_matrix_maintenance1 beyond tensor
// addressing: reductions, per-element operations, transpose, Use conversions, coordinates,
// Workgroup-scope matrices, and the ban on tangled instructions in the functions the
// implementation calls back (DecodeFunc, DecodeVectorFunc, Func, CombineFunc) and everything
// they call.
#include <algorithm>
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

using spv::Capability;

constexpr int64_t kUseA = 0, kUseB = 1, kUseAccumulator = 2;

// Whether the module declares a capability of the instructions Run checks and of those naming
// callbacks (checked as such elsewhere): a module declaring none has none of them.
bool Matrix2Declared(const ValidationState& state) {
  return state.HasCapability(Capability::CooperativeMatrixReductionsEXT) ||
         state.HasCapability(Capability::CooperativeMatrixPerElementOperationsEXT) ||
         state.HasCapability(Capability::CooperativeMatrixConversionsNV) ||
         state.HasCapability(Capability::CooperativeMatrixConversionsEXT) ||
         state.HasCapability(Capability::CooperativeMatrixGetCoordinateEXT) ||
         state.HasCapability(Capability::CooperativeMatrixTensorAddressingNV);
}

class Matrix2Rules {
 public:
  explicit Matrix2Rules(ValidationState& state) : state_(state), m_(state.module()) {}
  void Run();

 private:
  void CheckReduce(InstIndex i);
  void CheckPerElement(InstIndex i);
  void CheckTranspose(InstIndex i);
  void CheckConvertUse(InstIndex i);
  void CheckGetCoordinate(InstIndex i);
  void CheckWorkgroupSize();
  void CheckCallbacks();
  bool IsTangled(InstIndex i);
  // The function type's (return, parameters) of a function id, or false.
  bool Signature(Id function, Id* returns, ws::vector<Id>* params) const;
  // a == 2 * b for dimension operands, when provable: known values, or b = a UDiv 2 /
  // ShiftRightLogical 1.
  bool ProvablyNotHalf(Id a, Id b) const;

  ValidationState& state_;
  const ir::Module& m_;
  // IsTangled's opcode part (TangledByOpcode), worked out on an opcode's first instruction:
  // 1 + the CoopOperation, 0 while not yet known. Indexed by opcode up to grammar::kMaxOpcode.
  ws::vector<uint8_t> tangled_by_opcode_;
};

bool Matrix2Rules::Signature(Id function, Id* returns, ws::vector<Id>* params) const {
  const InstIndex d = m_.Def(function);
  if (d == kNoInst || m_.opcode(d) != Op::Function) return false;
  const Id type = m_.word(d, 4);
  if (state_.DefOp(type) != Op::TypeFunction) return false;
  const InstIndex t = m_.Def(type);
  *returns = m_.word(t, 2);
  params->clear();
  for (size_t w = 3; w < m_.num_words(t); ++w) params->push_back(m_.word(t, w));
  return true;
}

bool Matrix2Rules::ProvablyNotHalf(Id full, Id half) const {
  const auto f = KnownValue(state_, full), h = KnownValue(state_, half);
  if (f && h) return *f != 2 * *h;
  return false;  // Spec constants: accept (the corpus halves them with OpSpecConstantOp).
}

void Matrix2Rules::CheckReduce(InstIndex i) {
  const Id result_type = m_.type_id(i);
  const Id matrix = m_.word(i, 3);
  const uint32_t mask = m_.word(i, 4);
  const Id combine = m_.word(i, 5);
  const auto r = GetCoopMatrixType(state_, result_type);
  const auto a = GetCoopMatrixType(state_, state_.TypeOf(matrix));
  if (!r || !r->khr || !a || !a->khr) {
    if (state_.DefOp(matrix) == Op::Nop) return;
    state_.Report(
        "coop-matrix2.reduce.types", i,
        state_.Describe(i) + ": Result Type and Matrix must be OpTypeCooperativeMatrixKHR");
    return;
  }
  if (r->component != a->component) {
    state_.Report("coop-matrix2.reduce.types", i,
                  state_.Describe(i) + ": Matrix has component type " + state_.Name(a->component) +
                      ", Result Type " + state_.Name(r->component));
  }
  const auto ru = DefaultValue(state_, r->use), au = DefaultValue(state_, a->use);
  if ((ru && *ru != kUseAccumulator) || (au && *au != kUseAccumulator) ||
      ProvablyDifferent(state_, r->scope, a->scope)) {
    state_.Report("coop-matrix2.reduce.use-scope", i,
                  state_.Describe(i) +
                      ": Matrix and Result Type must both have Use "
                      "MatrixAccumulatorKHR and the same Scope");
  }
  constexpr uint32_t kRow = 1, kColumn = 2, k2x2 = 4;
  if (mask == 0 || (mask & ~7u) || ((mask & k2x2) && (mask & (kRow | kColumn)))) {
    state_.Report("coop-matrix2.reduce.mask", i,
                  state_.Describe(i) + ": Reduce must be Row, Column, Row|Column or 2x2");
  } else if (mask == k2x2) {
    if (ProvablyNotHalf(a->rows, r->rows) || ProvablyNotHalf(a->columns, r->columns)) {
      state_.Report("coop-matrix2.reduce.dims", i,
                    state_.Describe(i) +
                        ": a 2x2 reduction's result is half the matrix in each "
                        "dimension: " +
                        ValueText(state_, a->rows) + "x" + ValueText(state_, a->columns) + " -> " +
                        ValueText(state_, r->rows) + "x" + ValueText(state_, r->columns));
    }
  } else if (mask == kRow && ProvablyDifferent(state_, r->rows, a->rows)) {
    state_.Report("coop-matrix2.reduce.dims", i,
                  state_.Describe(i) + ": a Row reduction keeps the rows: " +
                      ValueText(state_, a->rows) + " vs " + ValueText(state_, r->rows));
  } else if (mask == kColumn && ProvablyDifferent(state_, r->columns, a->columns)) {
    state_.Report("coop-matrix2.reduce.dims", i,
                  state_.Describe(i) + ": a Column reduction keeps the columns: " +
                      ValueText(state_, a->columns) + " vs " + ValueText(state_, r->columns));
  }
  Id returns = 0;
  ws::vector<Id> params;
  if (state_.DefOp(combine) == Op::Nop) return;
  if (!Signature(combine, &returns, &params) || params.size() != 2 || returns != a->component ||
      params[0] != a->component || params[1] != a->component) {
    state_.Report("coop-matrix2.reduce.combine-func", i,
                  state_.Describe(i) + ": CombineFunc " + state_.Name(combine) +
                      " must be a function of two " + state_.Name(a->component) +
                      " parameters returning " + state_.Name(a->component));
  }
}

void Matrix2Rules::CheckPerElement(InstIndex i) {
  const Id result_type = m_.type_id(i);
  const Id matrix = m_.word(i, 3);
  const Id func = m_.word(i, 4);
  const auto t = GetCoopMatrixType(state_, state_.TypeOf(matrix));
  if (!t || !t->khr) {
    if (state_.DefOp(matrix) != Op::Nop) {
      state_.Report("coop-matrix2.per-element.matrix", i,
                    state_.Describe(i) + ": Matrix " + state_.Name(matrix) +
                        " is not an OpTypeCooperativeMatrixKHR value");
    }
    return;
  }
  if (result_type != state_.TypeOf(matrix)) {
    state_.Report("coop-matrix2.per-element.matrix", i,
                  state_.Describe(i) + ": Result Type must be the type of Matrix, " +
                      state_.Name(state_.TypeOf(matrix)));
  }
  Id returns = 0;
  ws::vector<Id> params;
  if (state_.DefOp(func) == Op::Nop) return;
  if (!Signature(func, &returns, &params) || params.size() < 3 || returns != t->component ||
      !state_.IsInt32(params[0]) || !state_.IsInt32(params[1]) || params[2] != t->component) {
    state_.Report("coop-matrix2.per-element.func", i,
                  state_.Describe(i) + ": Func " + state_.Name(func) +
                      " must return the component type " + state_.Name(t->component) +
                      " and take (32-bit row, 32-bit column, element of that type, ...)");
    return;
  }
  const size_t extra = m_.num_words(i) - 5;
  if (extra != params.size() - 3) {
    state_.Report("coop-matrix2.per-element.operands", i,
                  state_.Describe(i) + " passes " + ws::to_string(extra) +
                      " extra operand(s); Func takes " + ws::to_string(params.size() - 3));
    return;
  }
  for (size_t k = 0; k < extra; ++k) {
    const Id operand = m_.word(i, 5 + k);
    if (state_.DefOp(operand) == Op::Nop) continue;
    const Id type = state_.TypeOf(operand);
    const Id param = params[3 + k];
    // A matrix operand passes its element: it must have Matrix's type, its component the
    // parameter's type.
    const bool ok = IsCoopMatrixType(state_, type)
                        ? type == state_.TypeOf(matrix) && t->component == param
                        : type == param;
    if (!ok) {
      state_.Report("coop-matrix2.per-element.operands", i,
                    state_.Describe(i) + ": operand " + state_.Name(operand) + " of type " +
                        state_.Name(type) + " does not match Func's parameter " +
                        state_.Name(param));
    }
  }
}

void Matrix2Rules::CheckTranspose(InstIndex i) {
  const auto r = GetCoopMatrixType(state_, m_.type_id(i));
  const Id matrix = m_.word(i, 3);
  const auto a = GetCoopMatrixType(state_, state_.TypeOf(matrix));
  if (!r || !r->khr || !a || !a->khr) {
    if (state_.DefOp(matrix) != Op::Nop) {
      state_.Report("coop-matrix2.transpose", i,
                    state_.Describe(i) +
                        ": Result Type and Matrix must be "
                        "OpTypeCooperativeMatrixKHR");
    }
    return;
  }
  const auto ru = DefaultValue(state_, r->use), au = DefaultValue(state_, a->use);
  if (ProvablyDifferent(state_, r->scope, a->scope) ||
      ProvablyDifferent(state_, r->rows, a->columns) ||
      ProvablyDifferent(state_, r->columns, a->rows)) {
    state_.Report("coop-matrix2.transpose", i,
                  state_.Describe(i) +
                      ": Matrix must have Result Type's Scope with Rows and "
                      "Columns swapped: " +
                      ValueText(state_, a->rows) + "x" + ValueText(state_, a->columns) + " -> " +
                      ValueText(state_, r->rows) + "x" + ValueText(state_, r->columns));
  } else if ((ru && *ru != kUseB) || (au && *au != kUseAccumulator)) {
    state_.Report("coop-matrix2.transpose", i,
                  state_.Describe(i) + ": transposes a MatrixAccumulatorKHR into a MatrixBKHR");
  }
}

void Matrix2Rules::CheckConvertUse(InstIndex i) {
  const auto r = GetCoopMatrixType(state_, m_.type_id(i));
  const Id matrix = m_.word(i, 3);
  const auto a = GetCoopMatrixType(state_, state_.TypeOf(matrix));
  if (!r || !r->khr || !a || !a->khr) {
    if (state_.DefOp(matrix) != Op::Nop) {
      state_.Report("coop-matrix2.convert-use", i,
                    state_.Describe(i) +
                        ": Result Type and Matrix must be "
                        "OpTypeCooperativeMatrixKHR");
    }
    return;
  }
  // EXT (maintenance1) rules are a superset of the NV rules; with both capabilities, either
  // reading is accepted. Integer components that differ only in signedness are the same
  // component under either capability: the conversion moves bits, not values.
  const bool ext = state_.HasCapability(Capability::CooperativeMatrixConversionsEXT);
  const bool same_component = r->component == a->component;
  const bool signedness_only = state_.IsIntType(r->component) && state_.IsIntType(a->component) &&
                               state_.ScalarWidth(r->component) == state_.ScalarWidth(a->component);
  if (!same_component && !signedness_only) {
    state_.Report("coop-matrix2.convert-use", i,
                  state_.Describe(i) + ": the component types " + state_.Name(a->component) +
                      " and " + state_.Name(r->component) + " must be the same");
  }
  // SPV_EXT_cooperative_matrix_maintenance1: decorated CooperativeMatrixTransposeEXT, the
  // conversion transposes (Rows and Columns swap).
  const auto shape_differs = [&](bool transposed) {
    return ProvablyDifferent(state_, r->scope, a->scope) ||
           ProvablyDifferent(state_, r->rows, transposed ? a->columns : a->rows) ||
           ProvablyDifferent(state_, r->columns, transposed ? a->rows : a->columns);
  };
  if (shape_differs(false) &&
      (!ext || !HasDecoration(state_, m_.result_id(i),
                              spv::Decoration::CooperativeMatrixTransposeEXT) ||
       shape_differs(true))) {
    state_.Report("coop-matrix2.convert-use", i,
                  state_.Describe(i) +
                      ": Matrix must have Result Type's Scope, Rows and "
                      "Columns");
  }
  const auto ru = DefaultValue(state_, r->use), au = DefaultValue(state_, a->use);
  if (ru && au) {
    const bool acc_to_ab = *au == kUseAccumulator && (*ru == kUseA || *ru == kUseB);
    const bool ab_to_acc = (*au == kUseA || *au == kUseB) && *ru == kUseAccumulator;
    if (!acc_to_ab && !(ext && ab_to_acc)) {
      state_.Report("coop-matrix2.convert-use", i,
                    state_.Describe(i) + ": converts Use " + ws::to_string(*au) + " to " +
                        ws::to_string(*ru) + "; an accumulator becomes an A or B matrix" +
                        (ext ? " (or, with CooperativeMatrixConversionsEXT, the reverse)" : ""));
    }
  }
}

void Matrix2Rules::CheckGetCoordinate(InstIndex i) {
  const Id type = m_.type_id(i);
  const Id matrix = m_.word(i, 3);
  const Id index = m_.word(i, 4);
  const bool vec2 = state_.DefOp(type) == Op::TypeVector && state_.DefWord(type, 3) == 2 &&
                    state_.IsInt32(state_.ComponentType(type));
  const auto t = GetCoopMatrixType(state_, state_.TypeOf(matrix));
  if (!vec2 || (state_.DefOp(matrix) != Op::Nop && (!t || !t->khr)) ||
      (state_.DefOp(index) != Op::Nop && !state_.IsInt32(state_.TypeOf(index)))) {
    state_.Report("coop-matrix2.get-coordinate", i,
                  state_.Describe(i) +
                      ": the result is a vector of two 32-bit integers, Matrix "
                      "a cooperative matrix and Index a 32-bit integer");
  }
}

void Matrix2Rules::CheckWorkgroupSize() {
  // SPV_NV_cooperative_matrix2 2.16.1: with a Workgroup-scope matrix type "the workgroup size
  // must have already been specified in the module, including any constant instructions used by
  // LocalSizeId": LocalSize / LocalSizeId on every entry point (or a WorkgroupSize built-in),
  // LocalSizeId's constants defined before the type.
  ws::vector<InstIndex> workgroup_types;
  for (const InstIndex i : state_.Walked(Walk::kCoopMatrix2)) {
    if (m_.opcode(i) != Op::TypeCooperativeMatrixKHR) continue;
    const auto scope = DefaultValue(state_, m_.word(i, 3));
    if (scope && *scope == static_cast<int64_t>(spv::Scope::Workgroup)) {
      workgroup_types.push_back(i);
    }
  }
  if (workgroup_types.empty()) return;
  const InstIndex first = workgroup_types.front();
  ws::vector<Id> entry_points, sized;
  ws::vector<InstIndex> local_size_ids;
  bool builtin_size = false;
  for (const InstIndex i : state_.Walked(Walk::kCoopMatrix2)) {
    const Op op = m_.opcode(i);
    if (op == Op::EntryPoint) entry_points.push_back(m_.word(i, 2));
    if ((op == Op::ExecutionMode || op == Op::ExecutionModeId) &&
        (m_.word(i, 2) == static_cast<uint32_t>(spv::ExecutionMode::LocalSize) ||
         m_.word(i, 2) == static_cast<uint32_t>(spv::ExecutionMode::LocalSizeId))) {
      sized.push_back(m_.word(i, 1));
      if (m_.word(i, 2) == static_cast<uint32_t>(spv::ExecutionMode::LocalSizeId)) {
        local_size_ids.push_back(i);
      }
    }
    if (op == Op::Decorate && m_.num_words(i) >= 4 &&
        m_.word(i, 2) == static_cast<uint32_t>(spv::Decoration::BuiltIn) &&
        m_.word(i, 3) == static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)) {
      builtin_size = true;
    }
  }
  if (builtin_size) return;
  for (Id ep : entry_points) {
    if (std::find(sized.begin(), sized.end(), ep) == sized.end()) {
      state_.Report("coop-matrix2.workgroup-size", first,
                    state_.Describe(first) + " has Workgroup scope but entry point " +
                        state_.Name(ep) +
                        " does not specify its workgroup size (LocalSize or "
                        "LocalSizeId)");
      return;
    }
  }
  for (const InstIndex type : workgroup_types) {
    for (const InstIndex mode : local_size_ids) {
      for (uint32_t w = 3; w < m_.num_words(mode) && w < 6; ++w) {
        const InstIndex def = m_.Def(m_.word(mode, w));
        if (def == kNoInst || def < type) continue;
        state_.Report("coop-matrix2.workgroup-size", type,
                      state_.Describe(type) + " has Workgroup scope but LocalSizeId's " +
                          state_.Name(m_.word(mode, w)) + " is defined after it");
        return;
      }
    }
  }
}

// Whether instructions of `op` are tangled whatever their operands (kAlways), never (kNever),
// or when their result or an operand is a cooperative matrix (kIfMatrixTyped).
CoopOperation TangledByOpcode(Op op) {
  switch (op) {
    case Op::ControlBarrier:
    case Op::GroupReserveReadPipePackets:
    case Op::GroupReserveWritePipePackets:
    case Op::GroupCommitReadPipe:
    case Op::GroupCommitWritePipe:
    case Op::ImageSampleImplicitLod:
    case Op::ImageSampleDrefImplicitLod:
    case Op::ImageSampleProjImplicitLod:
    case Op::ImageSampleProjDrefImplicitLod:
    case Op::ImageSparseSampleImplicitLod:
    case Op::ImageSparseSampleDrefImplicitLod:
    case Op::ImageQueryLod:
      return CoopOperation::kAlways;
    default:
      break;
  }
  const grammar::InstructionInfo* info = grammar::LookupOpcode(static_cast<uint32_t>(op));
  if (info && (info->klass == grammar::InstructionClass::kGroup ||
               info->klass == grammar::InstructionClass::kNonUniform ||
               info->klass == grammar::InstructionClass::kDerivative)) {
    return CoopOperation::kAlways;
  }
  return CoopOperationOf(op);
}

bool Matrix2Rules::IsTangled(InstIndex i) {
  // Callback bodies repeat a few opcodes: each one's part is worked out once.
  const uint32_t op = static_cast<uint32_t>(m_.opcode(i));
  if (op > grammar::kMaxOpcode) return false;  // Not in the grammar: no class, no operation.
  if (tangled_by_opcode_.empty()) tangled_by_opcode_.assign(grammar::kMaxOpcode + 1, 0);
  uint8_t& known = tangled_by_opcode_[op];
  if (known == 0) known = 1 + static_cast<uint8_t>(TangledByOpcode(static_cast<Op>(op)));
  return CoopOperationHolds(state_, i, static_cast<CoopOperation>(known - 1));
}

void Matrix2Rules::CheckCallbacks() {
  // Callbacks and the instruction naming each.
  struct Callback {
    Id function;
    InstIndex user;
    const char* role;
  };
  ws::vector<Callback> callbacks;
  for (const InstIndex i : state_.Walked(Walk::kCoopMatrix2)) {
    const Op op = m_.opcode(i);
    if (op == Op::CooperativeMatrixReduceEXT) {
      callbacks.push_back({m_.word(i, 5), i, "CombineFunc"});
    } else if (op == Op::CooperativeMatrixPerElementOpEXT) {
      callbacks.push_back({m_.word(i, 4), i, "Func"});
    } else if (op == Op::CooperativeMatrixLoadTensorNV) {
      const ir::Inst inst = m_.inst(i);
      for (size_t k = 0; k < inst.operands.size(); ++k) {
        if (inst.operands[k].kind != grammar::OperandKind::kTensorAddressingOperands) continue;
        const uint32_t mask = inst.word(inst.operands[k]);
        size_t p = k + 1 + ((mask & 1) ? 1 : 0);
        if ((mask & 2) && p < inst.operands.size()) {
          callbacks.push_back({inst.word(inst.operands[p++]), i, "DecodeFunc"});
        }
        if ((mask & 4) && p < inst.operands.size()) {
          callbacks.push_back({inst.word(inst.operands[p]), i, "DecodeVectorFunc"});
        }
      }
    }
  }
  // Walk each callback's static call graph with a worklist; report the first tangled
  // instruction of each function once, under the first callback that reaches it. A function
  // walked for an earlier callback is not walked again: its callees were walked with it, and
  // what it holds was reported then.
  ws::vector<bool> reported(m_.functions().size(), false);
  ws::vector<bool> seen(m_.functions().size(), false);
  ws::vector<uint32_t> work;
  for (const Callback& cb : callbacks) {
    const uint32_t root = m_.FunctionById(cb.function);
    if (root == ~0u || seen[root]) continue;
    work.clear();
    work.push_back(root);
    seen[root] = true;
    while (!work.empty() && !state_.Full()) {
      const uint32_t f = work.back();
      work.pop_back();
      const ir::Function& fn = m_.functions()[f];
      if (fn.end == kNoInst) continue;
      for (InstIndex k = fn.def; k < fn.end; ++k) {
        if (m_.opcode(k) == Op::FunctionCall) {
          const uint32_t callee = m_.FunctionById(m_.word(k, 3));
          if (callee != ~0u && !seen[callee]) {
            seen[callee] = true;
            work.push_back(callee);
          }
        } else if (!reported[f] && IsTangled(k)) {
          reported[f] = true;
          state_.Report("coop-matrix2.func.tangled", k,
                        state_.Describe(k) + " is a tangled instruction in " +
                            state_.Name(m_.result_id(fn.def)) + ", which runs as the " + cb.role +
                            " of " + state_.Describe(cb.user) +
                            "; callbacks and what they call may not communicate between "
                            "invocations");
        }
      }
    }
  }
}

void Matrix2Rules::Run() {
  const bool matrix2 = Matrix2Declared(state_);
  for (const InstIndex i : state_.Walked(Walk::kCoopMatrix2)) {
    if (!matrix2 || state_.Full()) break;
    switch (m_.opcode(i)) {
      case Op::CooperativeMatrixReduceEXT:
        CheckReduce(i);
        break;
      case Op::CooperativeMatrixPerElementOpEXT:
        CheckPerElement(i);
        break;
      case Op::CooperativeMatrixTransposeNV:
        CheckTranspose(i);
        break;
      case Op::CooperativeMatrixConvertUseEXT:
        CheckConvertUse(i);
        break;
      case Op::CooperativeMatrixGetCoordinateEXT:
        CheckGetCoordinate(i);
        break;
      default:
        break;
    }
  }
  if (state_.Full()) return;
  CheckWorkgroupSize();
  if (matrix2) CheckCallbacks();
}

}  // namespace

bool CoopMatrix2Visits(const ValidationState& state, Op op) {
  if (!state.HasCapability(Capability::CooperativeMatrixKHR) && !Matrix2Declared(state)) {
    return false;
  }
  switch (op) {
    // What CheckWorkgroupSize looks at.
    case Op::TypeCooperativeMatrixKHR:
    case Op::EntryPoint:
    case Op::ExecutionMode:
    case Op::ExecutionModeId:
    case Op::Decorate:
      return true;
    // What Run checks, and the instructions naming the callbacks of CheckCallbacks.
    case Op::CooperativeMatrixReduceEXT:
    case Op::CooperativeMatrixPerElementOpEXT:
    case Op::CooperativeMatrixTransposeNV:
    case Op::CooperativeMatrixConvertUseEXT:
    case Op::CooperativeMatrixGetCoordinateEXT:
    case Op::CooperativeMatrixLoadTensorNV:
      return Matrix2Declared(state);
    default:
      return false;
  }
}

void ValidateCoopMatrix2(ValidationState& state) {
  // The instructions' own capabilities may come without CooperativeMatrixKHR (a module whose
  // OpCooperativeMatrixGetCoordinateEXT names no matrix at all).
  if (!state.HasCapability(Capability::CooperativeMatrixKHR) && !Matrix2Declared(state)) return;
  Matrix2Rules(state).Run();
}

}  // namespace coopspv::val
