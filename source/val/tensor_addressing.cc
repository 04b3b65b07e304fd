// SPV_NV_tensor_addressing and the tensor loads and stores of SPV_NV_cooperative_matrix2, with
// SPV_NV_cooperative_matrix_decode_vector: tensor layout and view types, the instructions that
// build them, OpCooperativeMatrixLoadTensorNV / StoreTensorNV and their decode functions.
#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "source/common/workspace.h"
#include "source/ir/analyses.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

using spv::Capability;
using spv::StorageClass;

class TensorRules {
 public:
  explicit TensorRules(ValidationState& state) : state_(state), m_(state.module()) {}
  void Run();

 private:
  // Dim of a tensor layout or view type when known, else nullopt.
  std::optional<int64_t> DimOf(Id type) const {
    const Op op = state_.DefOp(type);
    if (op != Op::TypeTensorLayoutNV && op != Op::TypeTensorViewNV) return std::nullopt;
    return DefaultValue(state_, state_.DefWord(type, 2));
  }
  bool ConstantInt32(Id id) const {
    return state_.IsConstantInstruction(id) && state_.IsInt32(state_.TypeOf(id));
  }
  void CheckDim(InstIndex i, Id dim, const char* rule);
  void CheckLayoutType(InstIndex i);
  void CheckViewType(InstIndex i);
  void CheckCreate(InstIndex i, Op want);
  void CheckSet(InstIndex i);
  void CheckLoadStore(InstIndex i, bool load);
  void CheckDecodeFunction(InstIndex i, Id function, Id component, std::optional<int64_t> dim,
                           bool vector);
  // Follows a tensor layout value back through Set / Slice instructions (and a Function variable
  // stored once) to its last OpTensorLayoutSetBlockSizeNV, if any.
  InstIndex BlockSizeOf(Id layout) const;
  // The OpStores through pointer `var`, found on first use: (pointer, store) for every OpStore
  // of the module, sorted, instead of the def-use analysis of the whole module.
  std::span<const std::pair<Id, InstIndex>> StoresTo(Id var) const;

  ValidationState& state_;
  const ir::Module& m_;
  mutable ws::vector<std::pair<Id, InstIndex>> stores_;
  mutable bool stores_ready_ = false;
};

void TensorRules::CheckDim(InstIndex i, Id dim, const char* rule) {
  if (state_.DefOp(dim) == Op::Nop) return;
  if (!ConstantInt32(dim)) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": Dim " + state_.Name(dim) +
                      " must be a constant instruction of 32-bit integer type");
  } else if (const auto v = DefaultValue(state_, dim); v && (*v < 1 || *v > 5)) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": Dim is " + ValueText(state_, dim) +
                      "; tensors have 1 to 5 dimensions");
  }
}

void TensorRules::CheckLayoutType(InstIndex i) {
  CheckDim(i, m_.word(i, 2), "tensor.type.dim");
  const Id clamp = m_.word(i, 3);
  if (state_.DefOp(clamp) == Op::Nop) return;
  if (!ConstantInt32(clamp)) {
    state_.Report("tensor.type.clamp-mode", i,
                  state_.Describe(i) + ": ClampMode " + state_.Name(clamp) +
                      " must be a constant instruction of 32-bit integer type");
  } else if (const auto v = DefaultValue(state_, clamp);
             v && (*v < 0 || *v > 0xFFFFFFFF ||
                   !grammar::LookupEnumerant(grammar::OperandKind::kTensorClampMode,
                                             static_cast<uint32_t>(*v)))) {
    state_.Report("tensor.type.clamp-mode", i,
                  state_.Describe(i) + ": ClampMode " + ValueText(state_, clamp) +
                      " is not a Tensor Clamp Mode");
  }
}

void TensorRules::CheckViewType(InstIndex i) {
  const Id dim = m_.word(i, 2);
  CheckDim(i, dim, "tensor.type.dim");
  const Id has_dimensions = m_.word(i, 3);
  if (state_.DefOp(has_dimensions) != Op::Nop &&
      (!state_.IsConstantInstruction(has_dimensions) ||
       !state_.IsBoolType(state_.TypeOf(has_dimensions)))) {
    state_.Report("tensor.type.has-dimensions", i,
                  state_.Describe(i) + ": HasDimensions " + state_.Name(has_dimensions) +
                      " must be a Boolean constant instruction");
  }
  const size_t count = m_.num_words(i) - 4;
  const auto d = DefaultValue(state_, dim);
  if (d && *d >= 1 && *d <= 5 && static_cast<int64_t>(count) != *d) {
    state_.Report("tensor.type.permutation", i,
                  state_.Describe(i) + " has " + ws::to_string(count) +
                      " permutation operands; Dim is " + ws::to_string(*d));
    return;
  }
  ws::vector<bool> seen(count, false);
  for (size_t k = 0; k < count; ++k) {
    const Id p = m_.word(i, 4 + k);
    if (state_.DefOp(p) == Op::Nop) continue;
    if (!ConstantInt32(p)) {
      state_.Report("tensor.type.permutation", i,
                    state_.Describe(i) + ": p" + ws::to_string(k) + " " + state_.Name(p) +
                        " must be a constant instruction of 32-bit integer type");
      return;
    }
    const auto v = DefaultValue(state_, p);
    if (!v) continue;
    if (*v < 0 || *v >= static_cast<int64_t>(count) || seen[*v]) {
      state_.Report("tensor.type.permutation", i,
                    state_.Describe(i) + ": p0 ... p" + ws::to_string(count - 1) +
                        " are not a permutation of 0 .. " + ws::to_string(count - 1));
      return;
    }
    seen[*v] = true;
  }
}

void TensorRules::CheckCreate(InstIndex i, Op want) {
  const Id type = m_.type_id(i);
  if (state_.IsType(type) && state_.DefOp(type) != want) {
    state_.Report("tensor.instruction.result", i,
                  state_.Describe(i) + ": Result Type " + state_.Name(type) + " must be an " +
                      ValidationState::OpName(want));
  }
}

void TensorRules::CheckSet(InstIndex i) {
  const Op op = m_.opcode(i);
  const bool view = op == Op::TensorViewSetDimensionNV || op == Op::TensorViewSetStrideNV ||
                    op == Op::TensorViewSetClipNV;
  const Op want = view ? Op::TypeTensorViewNV : Op::TypeTensorLayoutNV;
  const Id type = m_.type_id(i);
  if (state_.IsType(type) && state_.DefOp(type) != want) {
    state_.Report("tensor.instruction.result", i,
                  state_.Describe(i) + ": Result Type " + state_.Name(type) + " must be an " +
                      ValidationState::OpName(want));
    return;
  }
  const Id object = m_.word(i, 3);
  if (state_.DefOp(object) != Op::Nop && state_.TypeOf(object) != type) {
    state_.Report("tensor.instruction.operand-type", i,
                  state_.Describe(i) + ": the type of " + (view ? "TensorView " : "TensorLayout ") +
                      state_.Name(object) + " must be the Result Type " + state_.Name(type));
  }
  const size_t values = m_.num_words(i) - 4;
  for (size_t k = 0; k < values; ++k) {
    const Id v = m_.word(i, 4 + k);
    if (state_.DefOp(v) != Op::Nop && !state_.IsInt32(state_.TypeOf(v))) {
      state_.Report(
          "tensor.instruction.int32", i,
          state_.Describe(i) + ": operand " + state_.Name(v) + " must be a scalar 32-bit integer");
      return;
    }
  }
  // Operand counts follow the dimension: one per dimension, two for a slice (offset, span).
  if (op == Op::TensorLayoutSetClampValueNV || op == Op::TensorViewSetClipNV) return;
  const auto dim = DimOf(type);
  if (!dim) return;
  const int64_t want_count = op == Op::TensorLayoutSliceNV ? 2 * *dim : *dim;
  if (static_cast<int64_t>(values) != want_count) {
    state_.Report("tensor.instruction.operand-count", i,
                  state_.Describe(i) + " has " + ws::to_string(values) + " operand(s); its " +
                      ws::to_string(*dim) + "-dimensional type needs " + ws::to_string(want_count));
  }
}

std::span<const std::pair<Id, InstIndex>> TensorRules::StoresTo(Id var) const {
  if (!stores_ready_) {
    stores_ready_ = true;
    for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
      if (m_.opcode(i) == Op::Store && m_.num_words(i) > 1) stores_.emplace_back(m_.word(i, 1), i);
    }
    std::sort(stores_.begin(), stores_.end());
  }
  const auto first =
      std::lower_bound(stores_.begin(), stores_.end(), std::pair<Id, InstIndex>(var, 0));
  const auto last = std::upper_bound(first, stores_.end(), std::pair<Id, InstIndex>(var, kNoInst));
  return std::span<const std::pair<Id, InstIndex>>(first, last);
}

InstIndex TensorRules::BlockSizeOf(Id layout) const {
  for (int depth = 0; depth < 64; ++depth) {
    const InstIndex d = m_.Def(layout);
    if (d == kNoInst) return kNoInst;
    switch (m_.opcode(d)) {
      case Op::TensorLayoutSetBlockSizeNV:
        return d;
      case Op::TensorLayoutSetDimensionNV:
      case Op::TensorLayoutSetStrideNV:
      case Op::TensorLayoutSliceNV:
      case Op::TensorLayoutSetClampValueNV:
        layout = m_.word(d, 3);
        continue;
      case Op::Load: {
        // glslang keeps layouts in Function variables, storing after every update. Follow the
        // last store before the load when every store to the variable dominates the load (so
        // no other store can reach it).
        const Id var = m_.word(d, 3);
        if (state_.DefOp(var) != Op::Variable) return kNoInst;
        const uint32_t load_block = m_.BlockOf(d);
        if (load_block == ~0u) return kNoInst;
        const ir::DominatorTree& dom = m_.dominators();
        InstIndex last = kNoInst;
        for (const auto& [pointer, store] : StoresTo(var)) {
          const uint32_t store_block = m_.BlockOf(store);
          if (store_block == load_block && store > d) {
            // A later store in the same block reaches the load only around a loop, and the
            // entry block is in none.
            const ir::Function& fn = m_.functions()[m_.blocks()[load_block].function];
            if (load_block == fn.first_block) continue;
            return kNoInst;
          }
          const bool before = store_block == load_block || dom.Dominates(store_block, load_block);
          if (!before) return kNoInst;
          // The nearest store: the latest of those before the load.
          if (last == kNoInst || store > last) last = store;
        }
        if (last == kNoInst) return kNoInst;
        layout = m_.word(last, 2);
        continue;
      }
      default:
        return kNoInst;
    }
  }
  return kNoInst;
}

void TensorRules::CheckDecodeFunction(InstIndex i, Id function, Id component,
                                      std::optional<int64_t> dim, bool vector) {
  const char* what = vector ? "DecodeVectorFunc" : "DecodeFunc";
  const InstIndex def = m_.Def(function);
  if (def == kNoInst) return;
  if (m_.opcode(def) != Op::Function) {
    state_.Report(
        "tensor.decode.function", i,
        state_.Describe(i) + ": " + what + " " + state_.Name(function) + " is not an OpFunction");
    return;
  }
  const Id fn_type = m_.word(def, 4);
  if (state_.DefOp(fn_type) != Op::TypeFunction) return;
  const InstIndex t = m_.Def(fn_type);
  const Id returns = m_.word(t, 2);
  if (!vector) {
    if (component != 0 && returns != component) {
      state_.Report("tensor.decode.return", i,
                    state_.Describe(i) + ": DecodeFunc " + state_.Name(function) + " returns " +
                        state_.Name(returns) + ", not the matrix component type " +
                        state_.Name(component));
    }
  } else {
    // A vector, or an OpTypeVectorIdEXT whose component count is 2, 4 or 8, or a spec
    // constant whose value specialization gives.
    const Op returns_op = state_.DefOp(returns);
    const bool is_vector = returns_op == Op::TypeVector || returns_op == Op::TypeVectorIdEXT;
    const std::optional<uint32_t> count = state_.VectorCount(returns);
    if (!is_vector || (count && *count != 2 && *count != 4 && *count != 8) ||
        (component != 0 && state_.ComponentType(returns) != component)) {
      state_.Report("tensor.decode-vector.return", i,
                    state_.Describe(i) + ": DecodeVectorFunc " + state_.Name(function) +
                        " returns " + state_.Name(returns) +
                        "; it must return a vector of 2, 4 or 8 of the matrix component type " +
                        state_.Name(component));
    }
  }
  // Parameters: a PhysicalStorageBuffer pointer, then two arrays of 32-bit integers with one
  // element per tensor dimension.
  const size_t params = m_.num_words(t) - 3;
  ws::string problem;
  if (params != 3) {
    problem = "has " + ws::to_string(params) + " parameters, not 3";
  } else {
    const Id pointer = m_.word(t, 3);
    const auto sc = state_.PointerStorageClass(pointer);
    if (!sc || *sc != StorageClass::PhysicalStorageBuffer) {
      problem = "takes " + state_.Name(pointer) +
                " first; it must be a pointer in the PhysicalStorageBuffer storage class";
    }
    for (int k = 0; k < 2 && problem.empty(); ++k) {
      const Id array = m_.word(t, 4 + k);
      const bool ok =
          state_.DefOp(array) == Op::TypeArray && state_.IsInt32(state_.ComponentType(array));
      const auto length = ok ? KnownValue(state_, state_.DefWord(array, 3)) : std::nullopt;
      if (!ok) {
        problem = "parameter " + ws::to_string(2 + k) + " " + state_.Name(array) +
                  " is not an array of 32-bit integers";
      } else if (length && dim && *length != *dim) {
        problem = "parameter " + ws::to_string(2 + k) + " has " + ws::to_string(*length) +
                  " elements but the tensor layout has " + ws::to_string(*dim) + " dimensions";
      }
    }
  }
  if (!problem.empty()) {
    state_.Report("tensor.decode.params", i,
                  state_.Describe(i) + ": " + what + " " + state_.Name(function) + " " + problem);
  }
}

void TensorRules::CheckLoadStore(InstIndex i, bool load) {
  const ir::Inst inst = m_.inst(i);
  const size_t base = load ? 3 : 1;
  const Id pointer = m_.word(i, base);
  const Id object = m_.word(i, base + 1);
  const Id layout = m_.word(i, base + 2);
  const Id matrix_type = load ? m_.type_id(i) : state_.TypeOf(object);
  const auto matrix = GetCoopMatrixType(state_, matrix_type);
  if (!matrix || !matrix->khr) {
    if (load || state_.DefOp(object) != Op::Nop) {
      state_.Report("tensor.memory.matrix", i,
                    state_.Describe(i) + ": " + (load ? "Result Type " : "the type of Object ") +
                        state_.Name(matrix_type) + " is not an OpTypeCooperativeMatrixKHR");
    }
  } else if (load && state_.DefOp(object) != Op::Nop && state_.TypeOf(object) != matrix_type) {
    state_.Report("tensor.memory.matrix", i,
                  state_.Describe(i) + ": Object " + state_.Name(object) +
                      " must have the Result Type " + state_.Name(matrix_type));
  }
  const auto pointer_sc = state_.PointerStorageClass(state_.TypeOf(pointer));
  if (!pointer_sc && state_.DefOp(pointer) != Op::Nop) {
    state_.Report("tensor.memory.pointer", i,
                  state_.Describe(i) + ": Pointer " + state_.Name(pointer) + " is not a pointer");
  }
  const Id layout_type = state_.TypeOf(layout);
  if (state_.DefOp(layout) != Op::Nop && state_.DefOp(layout_type) != Op::TypeTensorLayoutNV) {
    state_.Report("tensor.memory.layout", i,
                  state_.Describe(i) + ": TensorLayout " + state_.Name(layout) +
                      " does not have a tensor layout type");
  }
  const auto layout_dim = DimOf(layout_type);
  // Memory Operand (always present) and Tensor Addressing Operands with their parameters.
  uint32_t memory = 0, addressing = 0;
  ws::vector<Id> addressing_params;
  for (size_t k = 0; k < inst.operands.size(); ++k) {
    const auto& operand = inst.operands[k];
    if (operand.kind == grammar::OperandKind::kMemoryAccess) memory = inst.word(operand);
    if (operand.kind == grammar::OperandKind::kTensorAddressingOperands) {
      addressing = inst.word(operand);
      for (size_t p = k + 1; p < inst.operands.size(); ++p) {
        addressing_params.push_back(inst.word(inst.operands[p]));
      }
      break;
    }
  }
  CheckMemoryOperandMask(state_, i, memory, load, "tensor.memory.operands");
  // The parameters follow in bit order: TensorView, DecodeFunc, DecodeVectorFunc.
  size_t next = 0;
  auto param = [&]() -> Id {
    return next < addressing_params.size() ? addressing_params[next++] : 0;
  };
  const Id view = (addressing & 1) ? param() : 0;
  const Id decode = (addressing & 2) ? param() : 0;
  const Id decode_vector = (addressing & 4) ? param() : 0;
  if (view != 0 && state_.DefOp(view) != Op::Nop) {
    const Id view_type = state_.TypeOf(view);
    if (state_.DefOp(view_type) != Op::TypeTensorViewNV) {
      state_.Report("tensor.memory.view", i,
                    state_.Describe(i) + ": TensorView " + state_.Name(view) +
                        " does not have a tensor view type");
    } else if (const auto view_dim = DimOf(view_type);
               view_dim && layout_dim && *view_dim != *layout_dim) {
      state_.Report("tensor.memory.view", i,
                    state_.Describe(i) + ": the tensor view has " + ws::to_string(*view_dim) +
                        " dimensions but the tensor layout has " + ws::to_string(*layout_dim));
    }
  }
  if (!load) {
    if (addressing & 6) {
      state_.Report("tensor.memory.store-decode", i,
                    state_.Describe(i) +
                        ": DecodeFunc / DecodeVectorFunc are not allowed on a "
                        "store");
    }
    // A store must not use a block size larger than 1 (it would race).
    const InstIndex block = BlockSizeOf(layout);
    if (block != kNoInst) {
      for (size_t w = 4; w < m_.num_words(block); ++w) {
        const auto v = KnownValue(state_, m_.word(block, w));
        if (v && *v > 1) {
          state_.Report("tensor.memory.block-size", i,
                        state_.Describe(i) + ": the tensor layout's block size is " +
                            ws::to_string(*v) + " (set by " + state_.Describe(block) +
                            "); stores need block size 1");
          break;
        }
      }
    }
    return;
  }
  const Id component = matrix ? matrix->component : 0;
  if (decode != 0) {
    if (pointer_sc && *pointer_sc != StorageClass::StorageBuffer &&
        *pointer_sc != StorageClass::PhysicalStorageBuffer) {
      state_.Report("tensor.memory.storage-class", i,
                    state_.Describe(i) +
                        ": with DecodeFunc, Pointer must be in StorageBuffer "
                        "or PhysicalStorageBuffer storage, not " +
                        StorageClassName(*pointer_sc));
    }
    CheckDecodeFunction(i, decode, component, layout_dim, false);
  }
  if (decode_vector != 0) {
    if (decode == 0) {
      state_.Report("tensor.decode-vector.requires-decode", i,
                    state_.Describe(i) +
                        ": DecodeVectorFunc needs DecodeFunc in the same Tensor "
                        "Addressing Operands");
    }
    CheckDecodeFunction(i, decode_vector, component, layout_dim, true);
    // blockSize[LDim - 1] must be a multiple of V where both are known.
    const InstIndex fn = m_.Def(decode_vector);
    const InstIndex block = BlockSizeOf(layout);
    if (fn != kNoInst && m_.opcode(fn) == Op::Function && block != kNoInst) {
      const Id returns = m_.type_id(fn);
      const uint32_t v = state_.DefOp(returns) == Op::TypeVector ? state_.DefWord(returns, 3) : 0;
      const auto last = KnownValue(state_, m_.word(block, m_.num_words(block) - 1));
      if (v != 0 && last && *last % v != 0) {
        state_.Report("tensor.decode-vector.block-size", i,
                      state_.Describe(i) + ": the layout's block size in its last dimension is " +
                          ws::to_string(*last) + ", not a multiple of the " + ws::to_string(v) +
                          " components DecodeVectorFunc returns");
      }
    }
  }
}

// What TensorRules::Run checks on an instruction of each opcode.
enum class TensorCheck : uint8_t {
  kNone,
  kLayoutType,
  kViewType,
  kCreateLayout,
  kCreateView,
  kSet,
  kLoad,
  kStore
};

TensorCheck TensorCheckOf(Op op) {
  switch (op) {
    case Op::TypeTensorLayoutNV:
      return TensorCheck::kLayoutType;
    case Op::TypeTensorViewNV:
      return TensorCheck::kViewType;
    case Op::CreateTensorLayoutNV:
      return TensorCheck::kCreateLayout;
    case Op::CreateTensorViewNV:
      return TensorCheck::kCreateView;
    case Op::TensorLayoutSetDimensionNV:
    case Op::TensorLayoutSetStrideNV:
    case Op::TensorLayoutSliceNV:
    case Op::TensorLayoutSetClampValueNV:
    case Op::TensorLayoutSetBlockSizeNV:
    case Op::TensorViewSetDimensionNV:
    case Op::TensorViewSetStrideNV:
    case Op::TensorViewSetClipNV:
      return TensorCheck::kSet;
    case Op::CooperativeMatrixLoadTensorNV:
      return TensorCheck::kLoad;
    case Op::CooperativeMatrixStoreTensorNV:
      return TensorCheck::kStore;
    default:
      return TensorCheck::kNone;
  }
}

void TensorRules::Run() {
  for (const InstIndex i : state_.Walked(Walk::kTensor)) {
    if (state_.Full()) break;
    switch (TensorCheckOf(m_.opcode(i))) {
      case TensorCheck::kLayoutType:
        CheckLayoutType(i);
        break;
      case TensorCheck::kViewType:
        CheckViewType(i);
        break;
      case TensorCheck::kCreateLayout:
        CheckCreate(i, Op::TypeTensorLayoutNV);
        break;
      case TensorCheck::kCreateView:
        CheckCreate(i, Op::TypeTensorViewNV);
        break;
      case TensorCheck::kSet:
        CheckSet(i);
        break;
      case TensorCheck::kLoad:
        CheckLoadStore(i, true);
        break;
      case TensorCheck::kStore:
        CheckLoadStore(i, false);
        break;
      case TensorCheck::kNone:
        break;
    }
  }
}

// Whether the module declares a tensor addressing capability: the tensor rules apply.
bool TensorRulesApply(const ValidationState& state) {
  return state.HasCapability(Capability::TensorAddressingNV) ||
         state.HasCapability(Capability::CooperativeMatrixTensorAddressingNV);
}

}  // namespace

bool TensorVisits(const ValidationState& state, Op op) {
  return TensorRulesApply(state) && TensorCheckOf(op) != TensorCheck::kNone;
}

void ValidateTensorAddressing(ValidationState& state) {
  if (!TensorRulesApply(state)) return;
  TensorRules(state).Run();
}

}  // namespace coopspv::val
