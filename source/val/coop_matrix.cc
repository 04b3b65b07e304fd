// SPV_KHR_cooperative_matrix and SPV_NV_cooperative_matrix: types, where they may live, the
// capability they need, load / store, multiply-add, length, conversions, arithmetic and
// composite access.
#include <string>

#include "source/common/workspace.h"
#include "source/grammar/elementwise.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

using spv::Capability;

// Whether the module declares a cooperative matrix capability: the matrix rules apply.
bool AnyCoopMatrix(const ValidationState& state) {
  return state.HasCapability(Capability::CooperativeMatrixKHR) ||
         state.HasCapability(Capability::CooperativeMatrixNV);
}

using spv::StorageClass;

constexpr int64_t kUseMatrixA = 0;
constexpr int64_t kUseMatrixB = 1;
constexpr int64_t kUseAccumulator = 2;
constexpr int64_t kRowBlockedArm = 4202;     // RowBlockedInterleavedARM
constexpr int64_t kColumnBlockedArm = 4203;  // ColumnBlockedInterleavedARM

const char* UseName(int64_t use) {
  switch (use) {
    case kUseMatrixA:
      return "MatrixAKHR";
    case kUseMatrixB:
      return "MatrixBKHR";
    case kUseAccumulator:
      return "MatrixAccumulatorKHR";
    default:
      return "an invalid Use";
  }
}

class CoopMatrixRules {
 public:
  explicit CoopMatrixRules(ValidationState& state) : state_(state), m_(state.module()) {}

  void Run();

 private:
  void CheckType(InstIndex i);
  void CheckStorage(InstIndex i);
  void CheckKhrLoadStore(InstIndex i, bool load);
  void CheckNvLoadStore(InstIndex i, bool load);
  void CheckPointer(InstIndex i, Id pointer, const char* rule);
  void CheckMemoryOperands(InstIndex i, size_t mask_word, bool load);
  void CheckStrideValue(InstIndex i, bool load, int64_t layout, Id stride);
  void CheckArmBlockedLayout(InstIndex i, int64_t layout, Id matrix_type, Id stride);
  void CheckMulAdd(InstIndex i);
  void CheckLength(InstIndex i);
  void CheckConversion(InstIndex i);
  // Whether arithmetic instruction `i` has a cooperative matrix Result Type or operand: inline,
  // as most arithmetic has none.
  [[gnu::always_inline]] bool ArithmeticInvolves(InstIndex i) const {
    const Op op = m_.opcode(i);
    const size_t operands = op == Op::SNegate || op == Op::FNegate ? 1 : 2;
    if (IsCoopMatrixType(state_, m_.type_id(i))) return true;
    for (size_t k = 0; k < operands; ++k) {
      if (IsCoopMatrixType(state_, state_.TypeOf(m_.word(i, 3 + k)))) return true;
    }
    return false;
  }
  // Checks arithmetic instruction `i` for which ArithmeticInvolves holds.
  void CheckArithmetic(InstIndex i);
  void CheckMatrixTimesScalar(InstIndex i);
  void CheckComposite(InstIndex i);
  void CheckAccessChain(InstIndex i);

  // Reports a problem with `what` (a dimension, scope or use) unless a and b are provably equal.
  bool Same(InstIndex i, const char* rule, Id a, Id b, const char* what);

  ValidationState& state_;
  const ir::Module& m_;
};

void CoopMatrixRules::Run() {
  if (state_.HasCapability(Capability::CooperativeMatrixKHR) &&
      !state_.HasCapability(Capability::VulkanMemoryModel)) {
    for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
      if (m_.opcode(i) == Op::Capability &&
          m_.word(i, 1) == static_cast<uint32_t>(Capability::CooperativeMatrixKHR)) {
        state_.Report("coop-matrix.capability", i,
                      "the CooperativeMatrixKHR capability requires the VulkanMemoryModel "
                      "capability to be declared as well");
        break;
      }
    }
  }
  if (!AnyCoopMatrix(state_)) return;
  for (const InstIndex i : state_.Walked(Walk::kCoopMatrix)) {
    if (state_.Full()) break;
    switch (m_.opcode(i)) {
      case Op::TypeCooperativeMatrixKHR:
      case Op::TypeCooperativeMatrixNV:
        CheckType(i);
        break;
      case Op::Variable:
        CheckStorage(i);
        break;
      case Op::CooperativeMatrixLoadKHR:
        CheckKhrLoadStore(i, true);
        break;
      case Op::CooperativeMatrixStoreKHR:
        CheckKhrLoadStore(i, false);
        break;
      case Op::CooperativeMatrixLoadNV:
        CheckNvLoadStore(i, true);
        break;
      case Op::CooperativeMatrixStoreNV:
        CheckNvLoadStore(i, false);
        break;
      case Op::CooperativeMatrixMulAddKHR:
      case Op::CooperativeMatrixMulAddNV:
        CheckMulAdd(i);
        break;
      case Op::CooperativeMatrixLengthKHR:
      case Op::CooperativeMatrixLengthNV:
        CheckLength(i);
        break;
      case Op::MatrixTimesScalar:
        CheckMatrixTimesScalar(i);
        break;
      case Op::CompositeConstruct:
      case Op::CompositeExtract:
      case Op::CompositeInsert:
        CheckComposite(i);
        break;
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
        CheckAccessChain(i);
        break;
      default:
        if (grammar::IsCoopConversion(m_.opcode(i))) CheckConversion(i);
        if (grammar::IsCoopMatrixArithmetic(m_.opcode(i)) && ArithmeticInvolves(i)) {
          CheckArithmetic(i);
        }
        break;
    }
  }
}

bool CoopMatrixRules::Same(InstIndex i, const char* rule, Id a, Id b, const char* what) {
  // Validity is a property of the specialized module: a spec constant may be specialized to any
  // value, so only two values no specialization changes that differ are an error.
  if (!ProvablyDifferent(state_, a, b)) return true;
  state_.Report(rule, i,
                state_.Describe(i) + ": " + what + " differ: " + ValueText(state_, a) + " vs " +
                    ValueText(state_, b));
  return false;
}

void CoopMatrixRules::CheckType(InstIndex i) {
  const Id id = m_.result_id(i);
  const auto type = GetCoopMatrixType(state_, id);
  if (!type) return;  // The id is defined twice; the id rules report it.
  const Id component = type->component;
  if (state_.IsType(component) && !state_.IsNumericScalarType(component)) {
    state_.Report("coop-matrix.type.component", i,
                  state_.Describe(i) + ": Component Type " + state_.Name(component) +
                      " is not a scalar integer or float type");
  } else if (state_.IsFloatType(component) && m_.num_words(m_.Def(component)) > 3) {
    const auto encoding = static_cast<spv::FPEncoding>(state_.DefWord(component, 3));
    if (encoding == spv::FPEncoding::BFloat16KHR &&
        !state_.HasCapability(Capability::BFloat16CooperativeMatrixKHR)) {
      state_.Report("coop-matrix.type.component", i,
                    state_.Describe(i) +
                        ": a bfloat16 Component Type needs the "
                        "BFloat16CooperativeMatrixKHR capability");
    } else if ((encoding == spv::FPEncoding::Float8E4M3EXT ||
                encoding == spv::FPEncoding::Float8E5M2EXT) &&
               !state_.HasCapability(Capability::Float8CooperativeMatrixEXT)) {
      state_.Report("coop-matrix.type.component", i,
                    state_.Describe(i) +
                        ": a float8 Component Type needs the "
                        "Float8CooperativeMatrixEXT capability");
    }
  }
  // Rows and Columns (Scope is checked with every Scope operand, by the scope rules).
  const Id dims[2] = {type->rows, type->columns};
  const char* names[2] = {"Rows", "Columns"};
  for (int d = 0; d < 2; ++d) {
    const Id dim = dims[d];
    if (state_.DefOp(dim) == Op::Nop) continue;  // Undefined: the id rules report it.
    if (!state_.IsConstantInstruction(dim) || !state_.IsInt32(state_.TypeOf(dim))) {
      state_.Report("coop-matrix.type.dimension", i,
                    state_.Describe(i) + ": " + names[d] + " " + state_.Name(dim) +
                        " must be a constant instruction of 32-bit integer type");
    } else if (const auto v = DefaultValue(state_, dim); v && *v <= 0) {
      // No clause requires Rows / Columns >= 1 (the client API lists the supported sizes), so
      // an empty matrix is only a warning.
      state_.Report("coop-matrix.type.empty", i,
                    state_.Describe(i) + ": " + names[d] + " is " + ValueText(state_, dim) +
                        "; a matrix with no rows or columns holds nothing");
    }
  }
  if (!type->khr) return;
  const Id use = type->use;
  if (state_.DefOp(use) == Op::Nop) return;
  if (!state_.IsConstantInstruction(use) || !state_.IsInt32(state_.TypeOf(use))) {
    state_.Report("coop-matrix.type.use", i,
                  state_.Describe(i) + ": Use " + state_.Name(use) +
                      " must be a constant instruction of 32-bit integer type");
  } else if (const auto v = FoldedValue(state_, use); v && (*v < 0 || *v > 2)) {
    // A spec constant's default is not its specialized value: only a Use no specialization
    // changes is checked.
    state_.Report("coop-matrix.type.use", i,
                  state_.Describe(i) + ": Use is " + ValueText(state_, use) +
                      ", not a Cooperative Matrix Use (0 MatrixAKHR, 1 MatrixBKHR, 2 "
                      "MatrixAccumulatorKHR)");
  }
}

void CoopMatrixRules::CheckStorage(InstIndex i) {
  const auto sc = static_cast<StorageClass>(m_.word(i, 3));
  if (sc == StorageClass::Function || sc == StorageClass::Private) return;
  const Id pointee = state_.PointeeType(m_.type_id(i));
  if (pointee == 0) return;
  // Only matrices here; cooperative vectors have their own rule.
  ws::vector<Id> work{pointee};
  for (int budget = 4096; !work.empty() && --budget > 0;) {
    const Id t = work.back();
    work.pop_back();
    if (IsCoopMatrixType(state_, t)) {
      state_.Report("coop-matrix.storage", i,
                    state_.Describe(i) + ": a variable of " + StorageClassName(sc) +
                        " storage class holds the cooperative matrix type " + state_.Name(t) +
                        "; cooperative matrices live only in Function or Private storage");
      return;
    }
    const Op op = state_.DefOp(t);
    if (op == Op::TypeArray || op == Op::TypeRuntimeArray) {
      work.push_back(state_.DefWord(t, 2));
    } else if (op == Op::TypeStruct) {
      const InstIndex d = m_.Def(t);
      for (size_t k = 2; k < m_.num_words(d); ++k) work.push_back(m_.word(d, k));
    }
  }
}

void CoopMatrixRules::CheckPointer(InstIndex i, Id pointer, const char* rule) {
  const Id type = state_.TypeOf(pointer);
  if (state_.DefOp(pointer) == Op::Nop) return;
  const auto sc = state_.PointerStorageClass(type);
  if (!sc) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": Pointer " + state_.Name(pointer) + " is not a pointer");
    return;
  }
  const Id pointee = state_.PointeeType(type);
  // SPV_KHR_untyped_pointers: an untyped pointer has no pointee to check.
  if (state_.DefOp(type) == Op::TypePointer && !state_.IsScalarType(pointee) &&
      state_.DefOp(pointee) != Op::TypeVector) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": Pointer " + state_.Name(pointer) + " points to " +
                      state_.Name(pointee) + "; it must point to a scalar or vector type");
  }
  const bool kernel = state_.HasCapability(Capability::Kernel);
  const bool allowed =
      *sc == StorageClass::Workgroup || *sc == StorageClass::StorageBuffer ||
      *sc == StorageClass::PhysicalStorageBuffer ||
      (kernel && (*sc == StorageClass::CrossWorkgroup || *sc == StorageClass::Generic));
  if (!allowed) {
    state_.Report("coop-matrix.memory.storage-class", i,
                  state_.Describe(i) + ": Pointer " + state_.Name(pointer) + " is in " +
                      StorageClassName(*sc) +
                      " storage; cooperative matrices load from and store to Workgroup, "
                      "StorageBuffer or PhysicalStorageBuffer memory");
  }
  // With Shader declared, the pointer points into an array: a lone variable does not.
  if (!state_.HasCapability(Capability::Shader)) return;
  Id p = pointer;
  for (int depth = 0; depth < 64; ++depth) {
    const Op op = state_.DefOp(p);
    if (op == Op::Variable) {
      state_.Report(rule, i,
                    state_.Describe(i) + ": Pointer " + state_.Name(pointer) +
                        " points to a whole variable, not into an array");
      return;
    }
    if (op != Op::AccessChain && op != Op::InBoundsAccessChain) return;  // Unknown: accept.
    const InstIndex d = m_.Def(p);
    const size_t indices = m_.num_words(d) - 4;
    const Id base = m_.word(d, 3);
    if (indices == 0) {
      p = base;
      continue;
    }
    // The type the last index selects from must be an array.
    Id t = state_.PointeeType(state_.TypeOf(base));
    for (size_t k = 0; k + 1 < indices && t != 0; ++k) {
      const Op top = state_.DefOp(t);
      if (top == Op::TypeStruct) {
        const auto member = KnownValue(state_, m_.word(d, 4 + k));
        t = member && *member >= 0 ? state_.DefWord(t, 2 + static_cast<size_t>(*member)) : 0;
      } else {
        t = state_.ComponentType(t);
      }
    }
    const Op container = state_.DefOp(t);
    if (t != 0 && container != Op::TypeArray && container != Op::TypeRuntimeArray) {
      state_.Report(rule, i,
                    state_.Describe(i) + ": Pointer " + state_.Name(pointer) + " selects from " +
                        state_.Name(t) + ", not from an array");
    }
    return;
  }
}

void CoopMatrixRules::CheckMemoryOperands(InstIndex i, size_t mask_word, bool load) {
  if (mask_word >= m_.num_words(i)) return;
  CheckMemoryOperandMask(state_, i, m_.word(i, mask_word), load, "coop-matrix.memory.operands");
}

void CoopMatrixRules::CheckKhrLoadStore(InstIndex i, bool load) {
  const size_t base = load ? 3 : 1;  // Word of Pointer.
  const size_t n = m_.num_words(i);
  const Id pointer = m_.word(i, base);
  const Id matrix_type = load ? m_.type_id(i) : state_.TypeOf(m_.word(i, base + 1));
  const Id layout = m_.word(i, load ? base + 1 : base + 2);
  const size_t stride_word = load ? base + 2 : base + 3;
  const bool has_stride = stride_word < n;
  const Id stride = has_stride ? m_.word(i, stride_word) : 0;

  if (state_.DefOp(matrix_type) != Op::TypeCooperativeMatrixKHR &&
      (load || state_.DefOp(m_.word(i, base + 1)) != Op::Nop)) {
    state_.Report("coop-matrix.memory.matrix", i,
                  state_.Describe(i) + ": " + (load ? "Result Type " : "the type of Object ") +
                      state_.Name(matrix_type) + " is not an OpTypeCooperativeMatrixKHR");
  }
  CheckPointer(i, pointer, "coop-matrix.memory.pointer");

  // MemoryLayout: a 32-bit integer constant instruction naming a Cooperative Matrix Layout.
  std::optional<int64_t> layout_value;
  if (state_.DefOp(layout) != Op::Nop) {
    if (!state_.IsConstantInstruction(layout) || !state_.IsIntType(state_.TypeOf(layout)) ||
        state_.ScalarWidth(state_.TypeOf(layout)) != 32) {
      state_.Report("coop-matrix.memory.layout", i,
                    state_.Describe(i) + ": MemoryLayout " + state_.Name(layout) +
                        " must be a constant instruction of 32-bit integer type");
    } else if ((layout_value = FoldedValue(state_, layout))) {
      // A spec constant's default is not its specialized value: only a layout no specialization
      // changes is checked.
      const int64_t v = *layout_value;
      const bool arm = v == kRowBlockedArm || v == kColumnBlockedArm;
      if (v != 0 && v != 1 && !arm) {
        state_.Report("coop-matrix.memory.layout", i,
                      state_.Describe(i) + ": MemoryLayout " + ValueText(state_, layout) +
                          " is not a Cooperative Matrix Layout");
      } else if (arm && !state_.HasCapability(Capability::CooperativeMatrixLayoutsARM)) {
        state_.Report("coop-matrix.memory.layout", i,
                      state_.Describe(i) + ": MemoryLayout " + ValueText(state_, layout) +
                          " (an ARM blocked layout) needs the CooperativeMatrixLayoutsARM "
                          "capability");
      }
    }
  }

  // Stride: required by RowMajorKHR / ColumnMajorKHR; a scalar integer.
  const bool row_or_column_major = layout_value && (*layout_value == 0 || *layout_value == 1);
  if (!has_stride) {
    if (row_or_column_major) {
      state_.Report("coop-matrix.memory.stride", i,
                    state_.Describe(i) + ": " +
                        (*layout_value == 0 ? "RowMajorKHR" : "ColumnMajorKHR") +
                        " needs a Stride operand");
    }
  } else if (state_.DefOp(stride) != Op::Nop) {
    if (!state_.IsIntType(state_.TypeOf(stride))) {
      state_.Report("coop-matrix.memory.stride", i,
                    state_.Describe(i) + ": Stride " + state_.Name(stride) +
                        " must be a scalar integer (a Memory Operand may only follow a Stride)");
    } else if (row_or_column_major) {
      CheckStrideValue(i, load, *layout_value, stride);
    }
  }
  if (layout_value && (*layout_value == kRowBlockedArm || *layout_value == kColumnBlockedArm)) {
    CheckArmBlockedLayout(i, *layout_value, matrix_type, stride);
  }
  CheckMemoryOperands(i, stride_word + 1, load);
}

// SPV_KHR_cooperative_matrix, RowMajorKHR / ColumnMajorKHR: "Stride must be greater than 0 when
// passed to OpCooperativeMatrixStoreKHR and must be greater than or equal to 0 when passed to
// OpCooperativeMatrixLoadKHR." Judged only on a value no specialization can change (an
// OpConstant, OpConstantNull, or an OpSpecConstantOp of those): a spec constant's default is not
// its specialized value. A Signedness-1 Stride is a signed count (a 32-bit 0xFFFFFFFF is -1).
// Signedness 0 is "unsigned, or no signedness semantics" (SPIR-V OpTypeInt) and the extension
// gives Stride no sign of its own, so a Signedness-0 Stride is read as unsigned: never negative,
// only 0 breaks the store's bound (reading it signed would reject large valid strides).
void CoopMatrixRules::CheckStrideValue(InstIndex i, bool load, int64_t layout, Id stride) {
  const auto v = FoldedValue(state_, stride);
  if (!v) return;
  const bool negative = state_.IsSignedInt(state_.TypeOf(stride)) && *v < 0;
  if (load ? !negative : !negative && *v != 0) return;
  state_.Report("coop-matrix.memory.stride-value", i,
                state_.Describe(i) + ": Stride is " + ws::to_string(*v) + "; " +
                    (layout == 0 ? "RowMajorKHR" : "ColumnMajorKHR") + " needs a Stride " +
                    (load ? "of at least 0 for a load" : "greater than 0 for a store"));
}

// SPV_ARM_cooperative_matrix_layouts (2.16.1): a blocked layout needs a constant Stride of 1, 2
// or 4, and a matrix whose blocked dimension is a multiple of 4 and whose other dimension is a
// multiple of the 16-byte block's element count. For RowBlockedInterleavedARM the extension
// scales the column multiple by Stride; for ColumnBlockedInterleavedARM the Stride scales the
// row multiple (Rows a multiple of 4 * Stride, Columns of 16 / sizeof(Component Type)).
void CoopMatrixRules::CheckArmBlockedLayout(InstIndex i, int64_t layout, Id matrix_type,
                                            Id stride) {
  const ws::string head =
      state_.Describe(i) + ": MemoryLayout " +
      (layout == kRowBlockedArm ? "RowBlockedInterleavedARM" : "ColumnBlockedInterleavedARM");
  if (stride == 0 || state_.DefOp(stride) == Op::Nop) {
    if (stride == 0) state_.Report("coop-matrix.memory.arm-blocked", i, head + " needs a Stride");
    return;
  }
  if (!state_.IsConstantInstruction(stride)) {
    state_.Report("coop-matrix.memory.arm-blocked", i,
                  head + ": Stride " + state_.Name(stride) + " must be a constant instruction");
    return;
  }
  const auto s = KnownValue(state_, stride);
  if (!s) return;  // A spec constant: its specialized value is not known.
  if (*s != 1 && *s != 2 && *s != 4) {
    state_.Report("coop-matrix.memory.arm-blocked", i,
                  head + ": Stride is " + ws::to_string(*s) + "; it must be 1, 2 or 4");
    return;
  }
  const auto type = GetCoopMatrixType(state_, matrix_type);
  if (!type || !state_.IsType(type->component)) return;
  const uint32_t width = state_.ScalarWidth(type->component);
  if (width < 8 || width > 128) return;
  const int64_t block = 16 / (width / 8);  // Elements in 16 bytes.
  const bool row = layout == kRowBlockedArm;
  const int64_t rows_multiple = row ? 4 : 4 * *s;
  const int64_t columns_multiple = row ? block * *s : block;
  const auto rows = KnownValue(state_, type->rows), columns = KnownValue(state_, type->columns);
  if (rows && *rows % rows_multiple != 0) {
    state_.Report("coop-matrix.memory.arm-blocked", i,
                  head + " with Stride " + ws::to_string(*s) + " needs Rows a multiple of " +
                      ws::to_string(rows_multiple) + "; Rows is " + ws::to_string(*rows));
  } else if (columns && *columns % columns_multiple != 0) {
    state_.Report("coop-matrix.memory.arm-blocked", i,
                  head + " with Stride " + ws::to_string(*s) + " needs Columns a multiple of " +
                      ws::to_string(columns_multiple) + "; Columns is " + ws::to_string(*columns));
  }
}

void CoopMatrixRules::CheckNvLoadStore(InstIndex i, bool load) {
  const size_t base = load ? 3 : 1;
  const Id pointer = m_.word(i, base);
  const Id matrix_type = load ? m_.type_id(i) : state_.TypeOf(m_.word(i, base + 1));
  const Id stride = m_.word(i, load ? base + 1 : base + 2);
  const Id column_major = m_.word(i, load ? base + 2 : base + 3);
  if (state_.DefOp(matrix_type) != Op::TypeCooperativeMatrixNV &&
      (load || state_.DefOp(m_.word(i, base + 1)) != Op::Nop)) {
    state_.Report("coop-matrix.memory.matrix", i,
                  state_.Describe(i) + ": " + (load ? "Result Type " : "the type of Object ") +
                      state_.Name(matrix_type) + " is not an OpTypeCooperativeMatrixNV");
  }
  CheckPointer(i, pointer, "coop-matrix.memory.pointer");
  // SPV_NV_cooperative_matrix bounds no Stride value (Vulkan's alignment is a device rule).
  if (state_.DefOp(stride) != Op::Nop && !state_.IsIntType(state_.TypeOf(stride))) {
    state_.Report(
        "coop-matrix.memory.stride", i,
        state_.Describe(i) + ": Stride " + state_.Name(stride) + " must be a scalar integer");
  }
  if (state_.DefOp(column_major) != Op::Nop && (!state_.IsConstantInstruction(column_major) ||
                                                !state_.IsBoolType(state_.TypeOf(column_major)))) {
    state_.Report("coop-matrix.nv.column-major", i,
                  state_.Describe(i) + ": Column Major " + state_.Name(column_major) +
                      " must be a Boolean constant instruction");
  }
  CheckMemoryOperands(i, load ? base + 3 : base + 4, load);
}

void CoopMatrixRules::CheckMulAdd(InstIndex i) {
  const bool khr = m_.opcode(i) == Op::CooperativeMatrixMulAddKHR;
  const Id ids[4] = {m_.type_id(i), state_.TypeOf(m_.word(i, 3)), state_.TypeOf(m_.word(i, 4)),
                     state_.TypeOf(m_.word(i, 5))};
  const char* names[4] = {"Result Type", "A", "B", "C"};
  std::optional<CoopMatrixType> t[4];
  bool ok = true;
  for (int k = 0; k < 4; ++k) {
    if (k > 0 && state_.DefOp(m_.word(i, 2 + k)) == Op::Nop) return;
    t[k] = GetCoopMatrixType(state_, ids[k]);
    if (!t[k] || t[k]->khr != khr) {
      state_.Report("coop-matrix.muladd.operand", i,
                    state_.Describe(i) + ": " + names[k] + " (" + state_.Name(ids[k]) +
                        ") is not an " +
                        (khr ? "OpTypeCooperativeMatrixKHR" : "OpTypeCooperativeMatrixNV"));
      ok = false;
    }
  }
  if (!ok) return;
  const auto& [result, a, b, c] = t;
  if (khr) {
    const int64_t expected[4] = {kUseAccumulator, kUseMatrixA, kUseMatrixB, kUseAccumulator};
    for (int k = 0; k < 4; ++k) {
      const auto use = DefaultValue(state_, t[k]->use);
      if (use && *use != expected[k]) {
        state_.Report("coop-matrix.muladd.use", i,
                      state_.Describe(i) + ": " + names[k] + " has Use " + UseName(*use) +
                          "; it must be " + UseName(expected[k]));
      }
    }
  }
  // An MxNxK multiply: Result and C are MxN, A is MxK, B is KxN.
  Same(i, "coop-matrix.muladd.dims", result->rows, a->rows, "M (Result Type rows, A rows)") &&
      Same(i, "coop-matrix.muladd.dims", result->rows, c->rows, "M (Result Type rows, C rows)");
  Same(i, "coop-matrix.muladd.dims", result->columns, b->columns,
       "N (Result Type columns, B columns)") &&
      Same(i, "coop-matrix.muladd.dims", result->columns, c->columns,
           "N (Result Type columns, C columns)");
  Same(i, "coop-matrix.muladd.dims", a->columns, b->rows, "K (A columns, B rows)");
  Same(i, "coop-matrix.muladd.scope", result->scope, a->scope, "scopes of Result Type and A") &&
      Same(i, "coop-matrix.muladd.scope", result->scope, b->scope, "scopes of Result Type and B") &&
      Same(i, "coop-matrix.muladd.scope", result->scope, c->scope, "scopes of Result Type and C");
  if (!khr || m_.num_words(i) < 7) return;
  const uint32_t operands = m_.word(i, 6);
  const auto bit = [](spv::CooperativeMatrixOperands o) { return static_cast<uint32_t>(o); };
  const struct {
    uint32_t bit;
    int matrix;
    const char* name;
  } signed_bits[] = {
      {bit(spv::CooperativeMatrixOperands::MatrixASignedComponentsKHR), 1,
       "MatrixASignedComponentsKHR"},
      {bit(spv::CooperativeMatrixOperands::MatrixBSignedComponentsKHR), 2,
       "MatrixBSignedComponentsKHR"},
      {bit(spv::CooperativeMatrixOperands::MatrixCSignedComponentsKHR), 3,
       "MatrixCSignedComponentsKHR"},
      {bit(spv::CooperativeMatrixOperands::MatrixResultSignedComponentsKHR), 0,
       "MatrixResultSignedComponentsKHR"},
  };
  for (const auto& s : signed_bits) {
    if ((operands & s.bit) && !state_.IsIntType(t[s.matrix]->component)) {
      state_.Report("coop-matrix.muladd.operands", i,
                    state_.Describe(i) + ": " + s.name + " is set but " + names[s.matrix] +
                        " has the non-integer component type " +
                        state_.Name(t[s.matrix]->component));
    }
  }
  if ((operands & bit(spv::CooperativeMatrixOperands::SaturatingAccumulationKHR)) &&
      !state_.IsIntType(result->component)) {
    state_.Report("coop-matrix.muladd.operands", i,
                  state_.Describe(i) +
                      ": SaturatingAccumulationKHR needs an integer Result Type "
                      "component, not " +
                      state_.Name(result->component));
  }
}

void CoopMatrixRules::CheckLength(InstIndex i) {
  const bool khr = m_.opcode(i) == Op::CooperativeMatrixLengthKHR;
  const Id result_type = m_.type_id(i);
  if (state_.IsType(result_type) &&
      (!state_.IsIntType(result_type) || state_.DefWord(result_type, 2) != 32 ||
       state_.DefWord(result_type, 3) != 0)) {
    state_.Report("coop-matrix.length", i,
                  state_.Describe(i) + ": Result Type " + state_.Name(result_type) +
                      " must be a 32-bit unsigned integer (OpTypeInt 32 0)");
  }
  const Id type = m_.word(i, 3);
  const Op want = khr ? Op::TypeCooperativeMatrixKHR : Op::TypeCooperativeMatrixNV;
  if (state_.DefOp(type) != Op::Nop && state_.DefOp(type) != want) {
    state_.Report("coop-matrix.length", i,
                  state_.Describe(i) + ": Type " + state_.Name(type) + " must be an " +
                      ValidationState::OpName(want) + " type (the type, not a value)");
  }
}

void CoopMatrixRules::CheckConversion(InstIndex i) {
  const Id result_type = m_.type_id(i);
  const Id value = m_.word(i, 3);
  const Id value_type = state_.TypeOf(value);
  const auto r = GetCoopMatrixType(state_, result_type);
  const auto v = GetCoopMatrixType(state_, value_type);
  if (!r && !v) return;
  if (!r || !v || r->khr != v->khr) {
    if (state_.DefOp(value) == Op::Nop) return;
    state_.Report("coop-matrix.convert", i,
                  state_.Describe(i) + ": converts between " + state_.Name(value_type) + " and " +
                      state_.Name(result_type) +
                      "; both must be cooperative matrices of the same kind");
    return;
  }
  Same(i, "coop-matrix.convert", r->scope, v->scope, "scopes of Result Type and the operand");
  Same(i, "coop-matrix.convert", r->rows, v->rows, "rows of Result Type and the operand");
  Same(i, "coop-matrix.convert", r->columns, v->columns, "columns of Result Type and the operand");
  if (r->khr && !SameValue(state_, r->use, v->use)) {
    // SPV_NV_cooperative_matrix2 (CooperativeMatrixConversionsNV) lets a conversion turn an
    // accumulator into an A or B matrix.
    const auto from = DefaultValue(state_, v->use), to = DefaultValue(state_, r->use);
    const bool accumulator_to_ab =
        state_.HasCapability(Capability::CooperativeMatrixConversionsNV) && from && to &&
        *from == kUseAccumulator && (*to == kUseMatrixA || *to == kUseMatrixB);
    if (!accumulator_to_ab) {
      Same(i, "coop-matrix.convert", r->use, v->use, "Use of Result Type and the operand");
    }
  }
  const bool from_float = state_.IsFloatType(v->component);
  const bool to_float = state_.IsFloatType(r->component);
  const bool from_int = state_.IsIntType(v->component);
  const bool to_int = state_.IsIntType(r->component);
  bool ok = true;
  switch (m_.opcode(i)) {
    case Op::ConvertFToU:
    case Op::ConvertFToS:
      ok = from_float && to_int;
      break;
    case Op::ConvertSToF:
    case Op::ConvertUToF:
      ok = from_int && to_float;
      break;
    case Op::UConvert:
    case Op::SConvert:
      ok = from_int && to_int;
      break;
    case Op::FConvert:
      ok = from_float && to_float;
      break;
    case Op::Bitcast:
      // Only between integer component types of the same width.
      ok = from_int && to_int &&
           state_.ScalarWidth(v->component) == state_.ScalarWidth(r->component);
      break;
    default:
      break;
  }
  if (!ok) {
    state_.Report(
        "coop-matrix.convert", i,
        state_.Describe(i) + " cannot convert components of " + state_.Name(v->component) + " to " +
            state_.Name(r->component) +
            (m_.opcode(i) == Op::Bitcast ? " (bitcasts need integer components of the same width)"
                                         : ""));
  }
}

void CoopMatrixRules::CheckArithmetic(InstIndex i) {
  const Id result_type = m_.type_id(i);
  const Op op = m_.opcode(i);
  const bool unary = op == Op::SNegate || op == Op::FNegate;
  const size_t operands = unary ? 1 : 2;
  for (size_t k = 0; k < operands; ++k) {
    const Id operand = m_.word(i, 3 + k);
    if (state_.DefOp(operand) == Op::Nop) continue;
    if (state_.TypeOf(operand) != result_type) {
      state_.Report("coop-matrix.arith", i,
                    state_.Describe(i) + ": operand " + state_.Name(operand) + " has type " +
                        state_.Name(state_.TypeOf(operand)) + "; it must be the Result Type " +
                        state_.Name(result_type));
      return;
    }
  }
  const auto t = GetCoopMatrixType(state_, result_type);
  if (!t) return;
  // SPV_NV_cooperative_matrix allows negation, addition, subtraction and division; the
  // element-wise OpIMul / OpFMul are SPV_KHR_cooperative_matrix's.
  if (!t->khr && (op == Op::IMul || op == Op::FMul)) {
    state_.Report("coop-matrix.arith", i,
                  state_.Describe(i) + " does not take SPV_NV_cooperative_matrix matrices (" +
                      state_.Name(result_type) + "); only KHR matrices multiply element-wise");
    return;
  }
  const ws::string name = ValidationState::OpName(op);
  const bool float_op = name[2] == 'F';
  if (float_op ? !state_.IsFloatType(t->component) : !state_.IsIntType(t->component)) {
    state_.Report("coop-matrix.arith", i,
                  state_.Describe(i) + " needs " + (float_op ? "floating-point" : "integer") +
                      " components; " + state_.Name(result_type) + " has " +
                      state_.Name(t->component));
  }
}

void CoopMatrixRules::CheckMatrixTimesScalar(InstIndex i) {
  const Id matrix = m_.word(i, 3);
  const Id scalar = m_.word(i, 4);
  const auto t = GetCoopMatrixType(state_, state_.TypeOf(matrix));
  if (!t) return;
  if (m_.type_id(i) != state_.TypeOf(matrix)) {
    state_.Report("coop-matrix.arith", i,
                  state_.Describe(i) + ": Result Type " + state_.Name(m_.type_id(i)) +
                      " must be the type of Matrix, " + state_.Name(state_.TypeOf(matrix)));
  }
  if (state_.DefOp(scalar) != Op::Nop && state_.TypeOf(scalar) != t->component) {
    state_.Report("coop-matrix.arith", i,
                  state_.Describe(i) + ": Scalar " + state_.Name(scalar) + " has type " +
                      state_.Name(state_.TypeOf(scalar)) + "; it must be the component type " +
                      state_.Name(t->component));
  }
}

void CoopMatrixRules::CheckComposite(InstIndex i) {
  const Op op = m_.opcode(i);
  const size_t n = m_.num_words(i);
  if (op == Op::CompositeConstruct) {
    const auto t = GetCoopMatrixType(state_, m_.type_id(i));
    if (!t) return;
    if (n != 4) {
      state_.Report("coop-matrix.composite", i,
                    state_.Describe(i) + " has " + ws::to_string(n - 3) +
                        " constituents; a cooperative matrix is constructed from exactly one");
    } else if (state_.DefOp(m_.word(i, 3)) != Op::Nop &&
               state_.TypeOf(m_.word(i, 3)) != t->component) {
      state_.Report("coop-matrix.composite", i,
                    state_.Describe(i) + ": the constituent " + state_.Name(m_.word(i, 3)) +
                        " must have the component type " + state_.Name(t->component));
    }
    return;
  }
  const size_t composite_word = op == Op::CompositeExtract ? 3 : 4;
  const auto t = GetCoopMatrixType(state_, state_.TypeOf(m_.word(i, composite_word)));
  if (!t) return;
  const size_t indices = n - composite_word - 1;
  if (indices != 1) {
    state_.Report("coop-matrix.composite", i,
                  state_.Describe(i) + " uses " + ws::to_string(indices) +
                      " indexes into a cooperative matrix; exactly one is allowed");
    return;
  }
  const Id element_type = op == Op::CompositeExtract ? m_.type_id(i) : state_.TypeOf(m_.word(i, 3));
  if (element_type != t->component) {
    state_.Report("coop-matrix.composite", i,
                  state_.Describe(i) + ": the element type " + state_.Name(element_type) +
                      " must be the component type " + state_.Name(t->component));
  }
}

void CoopMatrixRules::CheckAccessChain(InstIndex i) {
  const Id base = m_.word(i, 3);
  Id t = state_.PointeeType(state_.TypeOf(base));
  const size_t n = m_.num_words(i);
  for (size_t k = 4; k < n && t != 0; ++k) {
    if (IsCoopMatrixType(state_, t)) {
      if (n - k != 1) {
        state_.Report("coop-matrix.composite", i,
                      state_.Describe(i) + " uses " + ws::to_string(n - k) +
                          " indexes into the cooperative matrix " + state_.Name(t) +
                          "; exactly one is allowed");
      }
      return;
    }
    if (state_.DefOp(t) == Op::TypeStruct) {
      const auto member = KnownValue(state_, m_.word(i, k));
      t = member && *member >= 0 ? state_.DefWord(t, 2 + static_cast<size_t>(*member)) : 0;
    } else {
      t = state_.ComponentType(t);
    }
  }
}

}  // namespace

bool CoopMatrixVisits(const ValidationState& state, Op op) {
  if (!AnyCoopMatrix(state)) return false;
  switch (op) {
    case Op::TypeCooperativeMatrixKHR:
    case Op::TypeCooperativeMatrixNV:
    case Op::Variable:
    case Op::CooperativeMatrixLoadKHR:
    case Op::CooperativeMatrixStoreKHR:
    case Op::CooperativeMatrixLoadNV:
    case Op::CooperativeMatrixStoreNV:
    case Op::CooperativeMatrixMulAddKHR:
    case Op::CooperativeMatrixMulAddNV:
    case Op::CooperativeMatrixLengthKHR:
    case Op::CooperativeMatrixLengthNV:
    case Op::MatrixTimesScalar:
    case Op::CompositeConstruct:
    case Op::CompositeExtract:
    case Op::CompositeInsert:
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
      return true;
    default:
      return grammar::IsCoopConversion(op) || grammar::IsCoopMatrixArithmetic(op);
  }
}

void ValidateCoopMatrix(ValidationState& state) { CoopMatrixRules(state).Run(); }

}  // namespace coopspv::val
