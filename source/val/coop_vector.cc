// SPV_NV_cooperative_vector: the type (opcode 5288, also SPV_EXT_long_vector's
// OpTypeVectorIdEXT), where it may live, load / store, matrix-vector multiply(-add), the
// training instructions, and the arithmetic, conversion, bit, GLSL.std.450 and composite
// instructions the extension allows on cooperative vectors.
#include <string>

#include "source/common/workspace.h"
#include "source/grammar/elementwise.h"
#include "source/val/cooperative.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

using spv::Capability;
using spv::StorageClass;

constexpr int64_t kSignedInt8Packed = 1000491000;
constexpr int64_t kUnsignedInt8Packed = 1000491001;
constexpr int64_t kFloatE4M3 = 1000491002;
constexpr int64_t kFloatE5M2 = 1000491003;
constexpr int64_t kLayoutRowMajor = 0;
constexpr int64_t kLayoutColumnMajor = 1;

bool IsVectorIdType(const ValidationState& state, Id type) {
  return state.DefOp(type) == Op::TypeVectorIdEXT;
}

class CoopVectorRules {
 public:
  explicit CoopVectorRules(ValidationState& state) : state_(state), m_(state.module()) {}
  void Run();

 private:
  void CheckType(InstIndex i);
  void CheckStorage(InstIndex i);
  void CheckLoadStore(InstIndex i, bool load);
  // Pointer to an array of scalars (or vectors when `vectors_ok`) in one of `classes`.
  void CheckArrayPointer(InstIndex i, Id pointer, const char* what, bool vectors_ok,
                         std::initializer_list<StorageClass> classes);
  void CheckInt32(InstIndex i, Id id, const char* rule, const char* what);
  void CheckOffset(InstIndex i, Id id, const char* rule, const char* what);
  // A 32-bit integer constant instruction; returns its (default) value when known.
  std::optional<int64_t> CheckConstantInt32(InstIndex i, Id id, const char* rule, const char* what);
  void CheckInterpretation(InstIndex i, Id id, const char* what);
  std::optional<int64_t> CheckLayout(InstIndex i, Id id, const char* rule);
  void CheckMatrixMul(InstIndex i);
  void CheckOuterProduct(InstIndex i);
  void CheckReduceSum(InstIndex i);
  void CheckElementwise(InstIndex i);
  void CheckConversion(InstIndex i);
  void CheckVectorTimesScalar(InstIndex i);
  void CheckExtInst(InstIndex i);
  void CheckComposite(InstIndex i);

  Id CountOf(Id type) const { return state_.DefWord(type, 3); }
  Id ComponentOf(Id type) const { return state_.DefWord(type, 2); }

  ValidationState& state_;
  const ir::Module& m_;
  bool cooperative_ = false;   // CooperativeVectorNV declared.
  bool long_vectors_ = false;  // LongVectorEXT declared.
};

// What CoopVectorRules::Run checks on an instruction of each opcode.
enum class VectorCheck : uint8_t {
  kNone,
  kType,
  kStorage,
  kLoad,
  kStore,
  kMatrixMul,
  kOuterProduct,
  kReduceSum,
  kVectorTimesScalar,
  kExtInst,
  kComposite,
  kElementwiseOrConversion,
};

VectorCheck VectorCheckOf(Op op) {
  switch (op) {
    case Op::TypeVectorIdEXT:
      return VectorCheck::kType;
    case Op::Variable:
      return VectorCheck::kStorage;
    case Op::CooperativeVectorLoadNV:
      return VectorCheck::kLoad;
    case Op::CooperativeVectorStoreNV:
      return VectorCheck::kStore;
    case Op::CooperativeVectorMatrixMulNV:
    case Op::CooperativeVectorMatrixMulAddNV:
      return VectorCheck::kMatrixMul;
    case Op::CooperativeVectorOuterProductAccumulateNV:
      return VectorCheck::kOuterProduct;
    case Op::CooperativeVectorReduceSumAccumulateNV:
      return VectorCheck::kReduceSum;
    case Op::VectorTimesScalar:
      return VectorCheck::kVectorTimesScalar;
    case Op::ExtInst:
      return VectorCheck::kExtInst;
    case Op::VectorShuffle:
    case Op::CompositeExtract:
    case Op::CompositeInsert:
    case Op::CompositeConstruct:
      return VectorCheck::kComposite;
    default:
      return grammar::IsCoopVectorElementwise(op) || grammar::IsCoopConversion(op)
                 ? VectorCheck::kElementwiseOrConversion
                 : VectorCheck::kNone;
  }
}

void CoopVectorRules::Run() {
  cooperative_ = state_.HasCapability(Capability::CooperativeVectorNV);
  long_vectors_ = state_.HasCapability(Capability::LongVectorEXT);
  if (!cooperative_ && !long_vectors_) return;
  if (cooperative_ && !state_.HasCapability(Capability::VulkanMemoryModel)) {
    for (InstIndex i = 0; i < m_.num_instructions(); ++i) {
      if (m_.opcode(i) == Op::Capability &&
          m_.word(i, 1) == static_cast<uint32_t>(Capability::CooperativeVectorNV)) {
        state_.Report("coop-vector.capability", i,
                      "the CooperativeVectorNV capability requires the VulkanMemoryModel "
                      "capability to be declared as well");
        break;
      }
    }
  }
  for (const InstIndex i : state_.Walked(Walk::kCoopVector)) {
    if (state_.Full()) break;
    const Op op = m_.opcode(i);
    switch (VectorCheckOf(op)) {
      case VectorCheck::kType:
        CheckType(i);
        break;
      case VectorCheck::kStorage:
        if (IsCooperativeVectorStorageRestricted(state_)) CheckStorage(i);
        break;
      case VectorCheck::kLoad:
        CheckLoadStore(i, true);
        break;
      case VectorCheck::kStore:
        CheckLoadStore(i, false);
        break;
      case VectorCheck::kMatrixMul:
        CheckMatrixMul(i);
        break;
      case VectorCheck::kOuterProduct:
        CheckOuterProduct(i);
        break;
      case VectorCheck::kReduceSum:
        CheckReduceSum(i);
        break;
      case VectorCheck::kVectorTimesScalar:
        CheckVectorTimesScalar(i);
        break;
      case VectorCheck::kExtInst:
        CheckExtInst(i);
        break;
      case VectorCheck::kComposite:
        CheckComposite(i);
        break;
      case VectorCheck::kElementwiseOrConversion:
        if (grammar::IsCoopVectorElementwise(op)) CheckElementwise(i);
        if (grammar::IsCoopConversion(op)) CheckConversion(i);
        break;
      case VectorCheck::kNone:
        break;
    }
  }
}

void CoopVectorRules::CheckType(InstIndex i) {
  const Id component = m_.word(i, 2);
  const Id count = m_.word(i, 3);
  // SPV_EXT_long_vector: a long vector's components are any scalar type, Booleans included.
  if (state_.IsType(component) &&
      !(long_vectors_ ? state_.IsScalarType(component) : state_.IsNumericScalarType(component))) {
    state_.Report(
        "coop-vector.type", i,
        state_.Describe(i) + ": Component Type " + state_.Name(component) +
            (long_vectors_ ? " is not a scalar type" : " is not a scalar integer or float type"));
  }
  if (state_.DefOp(count) == Op::Nop) return;
  if (!state_.IsConstantInstruction(count) || !state_.IsInt32(state_.TypeOf(count))) {
    state_.Report("coop-vector.type", i,
                  state_.Describe(i) + ": Component Count " + state_.Name(count) +
                      " must be a constant instruction of 32-bit integer type");
  } else if (const auto v = KnownValue(state_, count); v && *v <= 0) {
    // A spec constant's default may be 0: validity is a property of the specialized module.
    state_.Report("coop-vector.type", i,
                  state_.Describe(i) + ": Component Count is " + ValueText(state_, count) +
                      "; a vector has at least one component");
  }
}

void CoopVectorRules::CheckStorage(InstIndex i) {
  const auto sc = static_cast<StorageClass>(m_.word(i, 3));
  if (sc == StorageClass::Function || sc == StorageClass::Private) return;
  const Id pointee = state_.PointeeType(m_.type_id(i));
  ws::vector<Id> work{pointee};
  for (int budget = 4096; !work.empty() && --budget > 0;) {
    const Id t = work.back();
    work.pop_back();
    const Op op = state_.DefOp(t);
    if (op == Op::TypeVectorIdEXT) {
      state_.Report("coop-vector.storage", i,
                    state_.Describe(i) + ": a variable of " + StorageClassName(sc) +
                        " storage class holds the cooperative vector type " + state_.Name(t) +
                        "; cooperative vectors live only in Function or Private storage");
      return;
    }
    if (op == Op::TypeArray || op == Op::TypeRuntimeArray) {
      work.push_back(state_.DefWord(t, 2));
    } else if (op == Op::TypeStruct) {
      const InstIndex d = m_.Def(t);
      for (size_t k = 2; k < m_.num_words(d); ++k) work.push_back(m_.word(d, k));
    }
  }
}

void CoopVectorRules::CheckArrayPointer(InstIndex i, Id pointer, const char* what, bool vectors_ok,
                                        std::initializer_list<StorageClass> classes) {
  if (state_.DefOp(pointer) == Op::Nop) return;
  const Id type = state_.TypeOf(pointer);
  const auto sc = state_.PointerStorageClass(type);
  if (!sc) {
    state_.Report(
        "coop-vector.memory.pointer", i,
        state_.Describe(i) + ": " + what + " " + state_.Name(pointer) + " is not a pointer");
    return;
  }
  const Id array = state_.PointeeType(type);
  const Op array_op = state_.DefOp(array);
  const Id element = state_.ComponentType(array);
  const bool element_ok =
      state_.IsScalarType(element) || (vectors_ok && state_.DefOp(element) == Op::TypeVector);
  if ((array_op != Op::TypeArray && array_op != Op::TypeRuntimeArray) || !element_ok) {
    state_.Report("coop-vector.memory.pointer", i,
                  state_.Describe(i) + ": " + what + " " + state_.Name(pointer) + " points to " +
                      state_.Name(array) + "; it must point to an array of " +
                      (vectors_ok ? "scalars or vectors" : "scalars"));
  }
  bool allowed = false;
  ws::string names;
  for (StorageClass c : classes) {
    allowed = allowed || *sc == c;
    names += (names.empty() ? "" : ", ") + StorageClassName(c);
  }
  if (!allowed) {
    state_.Report("coop-vector.memory.storage-class", i,
                  state_.Describe(i) + ": " + what + " " + state_.Name(pointer) + " is in " +
                      StorageClassName(*sc) + " storage; it must be one of " + names);
  }
}

void CoopVectorRules::CheckInt32(InstIndex i, Id id, const char* rule, const char* what) {
  if (state_.DefOp(id) == Op::Nop) return;
  if (!state_.IsInt32(state_.TypeOf(id))) {
    state_.Report(
        rule, i,
        state_.Describe(i) + ": " + what + " " + state_.Name(id) + " must be a 32-bit integer");
  }
}

// Offsets: 32-bit integers, or 64-bit ones with SPV_EXT_shader_64bit_indexing ("Offset must be
// a 32- or 64-bit integer").
void CoopVectorRules::CheckOffset(InstIndex i, Id id, const char* rule, const char* what) {
  if (state_.DefOp(id) == Op::Nop) return;
  const Id type = state_.TypeOf(id);
  if (state_.IsInt32(type)) return;
  const bool wide = state_.HasCapability(spv::Capability::Shader64BitIndexingEXT);
  if (wide && state_.IsIntType(type) && state_.DefWord(type, 2) == 64) {
    return;
  }
  state_.Report(rule, i,
                state_.Describe(i) + ": " + what + " " + state_.Name(id) +
                    (wide ? " must be a 32- or 64-bit integer" : " must be a 32-bit integer"));
}

std::optional<int64_t> CoopVectorRules::CheckConstantInt32(InstIndex i, Id id, const char* rule,
                                                           const char* what) {
  if (state_.DefOp(id) == Op::Nop) return std::nullopt;
  if (!state_.IsConstantInstruction(id) || !state_.IsInt32(state_.TypeOf(id))) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": " + what + " " + state_.Name(id) +
                      " must be a constant instruction of 32-bit integer type");
    return std::nullopt;
  }
  return DefaultValue(state_, id);
}

void CoopVectorRules::CheckInterpretation(InstIndex i, Id id, const char* what) {
  const auto v = CheckConstantInt32(i, id, "coop-vector.matmul.interpretation", what);
  if (v && (*v < 0 || *v > 0xFFFFFFFF ||
            !grammar::LookupEnumerant(grammar::OperandKind::kComponentType,
                                      static_cast<uint32_t>(*v)))) {
    state_.Report("coop-vector.matmul.interpretation", i,
                  state_.Describe(i) + ": " + what + " " + ValueText(state_, id) +
                      " is not a Component Type value");
  }
}

std::optional<int64_t> CoopVectorRules::CheckLayout(InstIndex i, Id id, const char* rule) {
  const auto v = CheckConstantInt32(i, id, rule, "MemoryLayout");
  if (v && (*v < 0 || *v > 3)) {
    state_.Report(rule, i,
                  state_.Describe(i) + ": MemoryLayout " + ValueText(state_, id) +
                      " is not a Cooperative Vector Matrix Layout");
    return std::nullopt;
  }
  return v;
}

void CoopVectorRules::CheckLoadStore(InstIndex i, bool load) {
  const size_t base = load ? 3 : 1;
  const Id pointer = m_.word(i, base);
  const Id offset = m_.word(i, base + 1);
  const Id vector_type = load ? m_.type_id(i) : state_.TypeOf(m_.word(i, base + 2));
  if (!IsVectorIdType(state_, vector_type) &&
      (load || state_.DefOp(m_.word(i, base + 2)) != Op::Nop)) {
    state_.Report("coop-vector.memory.vector", i,
                  state_.Describe(i) + ": " + (load ? "Result Type " : "the type of Object ") +
                      state_.Name(vector_type) + " is not a cooperative vector type");
  }
  CheckArrayPointer(i, pointer, "Pointer", true,
                    {StorageClass::CrossWorkgroup, StorageClass::Workgroup,
                     StorageClass::StorageBuffer, StorageClass::PhysicalStorageBuffer});
  CheckOffset(i, offset, "coop-vector.memory.offset", "Offset");
  const size_t mask_word = load ? base + 2 : base + 3;
  if (mask_word >= m_.num_words(i)) return;
  CheckMemoryOperandMask(state_, i, m_.word(i, mask_word), load, "coop-vector.memory.operands");
}

void CoopVectorRules::CheckMatrixMul(InstIndex i) {
  const bool add = m_.opcode(i) == Op::CooperativeVectorMatrixMulAddNV;
  // Word positions: Input 3, InputInterpretation 4, Matrix 5, MatrixOffset 6,
  // MatrixInterpretation 7, [Bias 8, BiasOffset 9, BiasInterpretation 10,] M, K, MemoryLayout,
  // Transpose, [MatrixStride], [Cooperative Matrix Operands].
  const size_t tail = add ? 11 : 8;
  const Id result_type = m_.type_id(i);
  const Id input = m_.word(i, 3);
  const Id input_interp = m_.word(i, 4);
  const Id matrix = m_.word(i, 5);
  const Id m_id = m_.word(i, tail);
  const Id k_id = m_.word(i, tail + 1);
  const Id layout = m_.word(i, tail + 2);
  const Id transpose = m_.word(i, tail + 3);
  const size_t n = m_.num_words(i);

  // Result: a cooperative vector of 32-bit integers or 16/32-bit floats, with M components.
  if (!IsVectorIdType(state_, result_type)) {
    state_.Report("coop-vector.matmul.result", i,
                  state_.Describe(i) + ": Result Type " + state_.Name(result_type) +
                      " is not a cooperative vector type");
  } else {
    const Id component = ComponentOf(result_type);
    const uint32_t width = state_.ScalarWidth(component);
    const bool ok = (state_.IsIntType(component) && width == 32) ||
                    (state_.IsFloatType(component) && (width == 16 || width == 32) &&
                     m_.num_words(m_.Def(component)) == 3);
    if (!ok) {
      state_.Report("coop-vector.matmul.result", i,
                    state_.Describe(i) + ": the result component type " + state_.Name(component) +
                        " must be a 32-bit integer or a 16- or 32-bit float");
    }
  }
  const bool input_is_vector = IsVectorIdType(state_, state_.TypeOf(input));
  if (!input_is_vector && state_.DefOp(input) != Op::Nop) {
    state_.Report(
        "coop-vector.matmul.input", i,
        state_.Describe(i) + ": Input " + state_.Name(input) + " is not a cooperative vector");
  }
  // Constant operands.
  CheckInterpretation(i, input_interp, "InputInterpretation");
  CheckInterpretation(i, m_.word(i, 7), "MatrixInterpretation");
  if (add) CheckInterpretation(i, m_.word(i, 10), "BiasInterpretation");
  const auto m_value = CheckConstantInt32(i, m_id, "coop-vector.matmul.constant", "M");
  const auto k_value = CheckConstantInt32(i, k_id, "coop-vector.matmul.constant", "K");
  const auto layout_value = CheckLayout(i, layout, "coop-vector.matmul.layout");
  if (state_.DefOp(transpose) != Op::Nop &&
      (!state_.IsConstantInstruction(transpose) || !state_.IsBoolType(state_.TypeOf(transpose)))) {
    state_.Report("coop-vector.matmul.transpose", i,
                  state_.Describe(i) + ": Transpose " + state_.Name(transpose) +
                      " must be a Boolean constant instruction");
  } else if (const auto t = DefaultValue(state_, transpose);
             t && *t && layout_value &&
             (*layout_value == kLayoutRowMajor || *layout_value == kLayoutColumnMajor)) {
    state_.Report("coop-vector.matmul.transpose", i,
                  state_.Describe(i) +
                      ": Transpose is not supported with the RowMajorNV and "
                      "ColumnMajorNV layouts");
  }
  // VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10090: a Vulkan implementation reads float8
  // matrices only in the layouts it converts them into (InferencingOptimalNV, TrainingOptimalNV).
  // Checked where both operands are constants (not spec constants a pipeline may change).
  if (state_.options().env.is_vulkan() && state_.DefOp(layout) == Op::Constant &&
      state_.DefOp(m_.word(i, 7)) == Op::Constant && layout_value &&
      (*layout_value == kLayoutRowMajor || *layout_value == kLayoutColumnMajor)) {
    if (const auto mi = DefaultValue(state_, m_.word(i, 7));
        mi && (*mi == kFloatE4M3 || *mi == kFloatE5M2)) {
      state_.Report("vulkan.coop-vector-float8-layout", i,
                    state_.Describe(i) + ": a " +
                        (*mi == kFloatE4M3 ? "FloatE4M3NV" : "FloatE5M2NV") +
                        " MatrixInterpretation needs an InferencingOptimalNV or "
                        "TrainingOptimalNV matrix in Vulkan, not " +
                        (*layout_value == kLayoutRowMajor ? "RowMajorNV" : "ColumnMajorNV"));
    }
  }
  // M components in the result.
  if (m_value && IsVectorIdType(state_, result_type)) {
    if (const auto count = DefaultValue(state_, CountOf(result_type));
        count && *count != *m_value) {
      state_.Report("coop-vector.matmul.result", i,
                    state_.Describe(i) + ": the result has " + ws::to_string(*count) +
                        " components; M is " + ws::to_string(*m_value));
    }
  }
  // K against the input: K components, or enough packed uint32 components for K values.
  if (k_value && input_is_vector) {
    const Id input_type = state_.TypeOf(input);
    const auto count = DefaultValue(state_, CountOf(input_type));
    const auto interp = DefaultValue(state_, input_interp);
    const bool packed = interp && (*interp == kSignedInt8Packed || *interp == kUnsignedInt8Packed);
    if (packed) {
      const Id component = ComponentOf(input_type);
      if (!state_.IsIntType(component) || state_.ScalarWidth(component) != 32 ||
          state_.IsSignedInt(component)) {
        state_.Report("coop-vector.matmul.k", i,
                      state_.Describe(i) +
                          ": a packed InputInterpretation needs 32-bit unsigned "
                          "integer Input components, not " +
                          state_.Name(component));
      } else if (count && *count * 4 < *k_value) {
        state_.Report("coop-vector.matmul.k", i,
                      state_.Describe(i) + ": Input's " + ws::to_string(*count) +
                          " uint32 components hold " + ws::to_string(*count * 4) +
                          " packed 8-bit values; K is " + ws::to_string(*k_value));
      }
    } else if (count && *count != *k_value) {
      state_.Report("coop-vector.matmul.k", i,
                    state_.Describe(i) + ": Input has " + ws::to_string(*count) +
                        " components; K is " + ws::to_string(*k_value));
    }
  }
  // Matrix and Bias: pointers to arrays of scalars in CrossWorkgroup, StorageBuffer or
  // PhysicalStorageBuffer; offsets 32-bit integers.
  const std::initializer_list<StorageClass> classes = {StorageClass::CrossWorkgroup,
                                                       StorageClass::StorageBuffer,
                                                       StorageClass::PhysicalStorageBuffer};
  CheckArrayPointer(i, matrix, "Matrix", false, classes);
  CheckOffset(i, m_.word(i, 6), "coop-vector.matmul.offset", "MatrixOffset");
  if (add) {
    CheckArrayPointer(i, m_.word(i, 8), "Bias", false, classes);
    CheckOffset(i, m_.word(i, 9), "coop-vector.matmul.offset", "BiasOffset");
  }
  // MatrixStride: optional (the extension lists it so), a 32-bit integer where present.
  const size_t stride_word = tail + 4;
  if (stride_word < n) {
    CheckInt32(i, m_.word(i, stride_word), "coop-vector.matmul.stride", "MatrixStride");
  }
  // Signedness operands only where the matching operand is an integer.
  if (stride_word + 1 < n) {
    const uint32_t operands = m_.word(i, stride_word + 1);
    const auto bit = [](spv::CooperativeMatrixOperands o) { return static_cast<uint32_t>(o); };
    if ((operands & bit(spv::CooperativeMatrixOperands::MatrixBSignedComponentsKHR)) &&
        input_is_vector && !state_.IsIntType(ComponentOf(state_.TypeOf(input)))) {
      state_.Report("coop-vector.matmul.operands", i,
                    state_.Describe(i) +
                        ": MatrixBSignedComponentsKHR (signed Input) needs an "
                        "integer Input");
    }
    if ((operands & bit(spv::CooperativeMatrixOperands::MatrixResultSignedComponentsKHR)) &&
        IsVectorIdType(state_, result_type) && !state_.IsIntType(ComponentOf(result_type))) {
      state_.Report("coop-vector.matmul.operands", i,
                    state_.Describe(i) +
                        ": MatrixResultSignedComponentsKHR needs an integer "
                        "Result Type");
    }
  }
}

void CoopVectorRules::CheckOuterProduct(InstIndex i) {
  const Id pointer = m_.word(i, 1);
  const Id offset = m_.word(i, 2);
  const Id a = m_.word(i, 3);
  const Id b = m_.word(i, 4);
  const Id layout = m_.word(i, 5);
  const Id interp = m_.word(i, 6);
  const Id a_type = state_.TypeOf(a), b_type = state_.TypeOf(b);
  const bool a_ok = IsVectorIdType(state_, a_type), b_ok = IsVectorIdType(state_, b_type);
  if ((!a_ok && state_.DefOp(a) != Op::Nop) || (!b_ok && state_.DefOp(b) != Op::Nop)) {
    state_.Report("coop-vector.outer-product", i,
                  state_.Describe(i) + ": A and B must be cooperative vectors");
  } else if (a_ok && b_ok && ComponentOf(a_type) != ComponentOf(b_type)) {
    state_.Report("coop-vector.outer-product", i,
                  state_.Describe(i) + ": A has component type " +
                      state_.Name(ComponentOf(a_type)) + " but B has " +
                      state_.Name(ComponentOf(b_type)));
  }
  CheckArrayPointer(i, pointer, "Pointer", true,
                    {StorageClass::Workgroup, StorageClass::CrossWorkgroup,
                     StorageClass::StorageBuffer, StorageClass::PhysicalStorageBuffer});
  CheckOffset(i, offset, "coop-vector.memory.offset", "Offset");
  CheckLayout(i, layout, "coop-vector.outer-product");
  CheckInt32(i, interp, "coop-vector.outer-product", "MatrixInterpretation");
  if (const auto v = KnownValue(state_, interp);
      v &&
      !grammar::LookupEnumerant(grammar::OperandKind::kComponentType, static_cast<uint32_t>(*v))) {
    state_.Report("coop-vector.outer-product", i,
                  state_.Describe(i) + ": MatrixInterpretation " + ws::to_string(*v) +
                      " is not a Component Type value");
  }
  if (m_.num_words(i) > 7) {
    CheckInt32(i, m_.word(i, 7), "coop-vector.outer-product", "MatrixStride");
  }
}

void CoopVectorRules::CheckReduceSum(InstIndex i) {
  const Id v = m_.word(i, 3);
  if (state_.DefOp(v) != Op::Nop && !IsVectorIdType(state_, state_.TypeOf(v))) {
    state_.Report("coop-vector.reduce-sum", i,
                  state_.Describe(i) + ": V " + state_.Name(v) + " is not a cooperative vector");
  }
  CheckArrayPointer(i, m_.word(i, 1), "Pointer", true,
                    {StorageClass::Workgroup, StorageClass::CrossWorkgroup,
                     StorageClass::StorageBuffer, StorageClass::PhysicalStorageBuffer});
  CheckOffset(i, m_.word(i, 2), "coop-vector.memory.offset", "Offset");
}

void CoopVectorRules::CheckElementwise(InstIndex i) {
  const Id result_type = m_.type_id(i);
  const Op op = m_.opcode(i);
  const bool unary = op == Op::SNegate || op == Op::FNegate || op == Op::Not;
  const size_t operands = unary ? 1 : 2;
  bool involved = IsVectorIdType(state_, result_type);
  for (size_t k = 0; k < operands; ++k) {
    involved = involved || IsVectorIdType(state_, state_.TypeOf(m_.word(i, 3 + k)));
  }
  if (!involved) return;
  const bool shift =
      op == Op::ShiftRightLogical || op == Op::ShiftRightArithmetic || op == Op::ShiftLeftLogical;
  for (size_t k = 0; k < operands; ++k) {
    const Id operand = m_.word(i, 3 + k);
    if (state_.DefOp(operand) == Op::Nop) continue;
    const Id t = state_.TypeOf(operand);
    // A shift's Shift operand may have another integer component type of the same count.
    const bool same_shape = shift && k == 1 && IsVectorIdType(state_, t) &&
                            IsVectorIdType(state_, result_type) &&
                            SameValue(state_, CountOf(t), CountOf(result_type));
    if (t != result_type && !same_shape) {
      state_.Report("coop-vector.arith", i,
                    state_.Describe(i) + ": operand " + state_.Name(operand) + " has type " +
                        state_.Name(t) + "; it must be the Result Type " +
                        state_.Name(result_type));
      return;
    }
  }
  if (!IsVectorIdType(state_, result_type)) return;
  const Id component = ComponentOf(result_type);
  const ws::string name = ValidationState::OpName(op);
  const bool float_op = name[2] == 'F';
  if (float_op ? !state_.IsFloatType(component) : !state_.IsIntType(component)) {
    state_.Report("coop-vector.arith", i,
                  state_.Describe(i) + " needs " + (float_op ? "floating-point" : "integer") +
                      " components; " + state_.Name(result_type) + " has " +
                      state_.Name(component));
  }
}

void CoopVectorRules::CheckConversion(InstIndex i) {
  const Id result_type = m_.type_id(i);
  const Id value = m_.word(i, 3);
  const Id value_type = state_.TypeOf(value);
  const bool r = IsVectorIdType(state_, result_type), v = IsVectorIdType(state_, value_type);
  if (!r && !v) return;
  if (state_.DefOp(value) == Op::Nop) return;
  if (long_vectors_ && (r || state_.DefOp(result_type) == Op::TypeVector) &&
      (v || state_.DefOp(value_type) == Op::TypeVector)) {
    // SPV_EXT_long_vector: OpTypeVector and OpTypeVectorIdEXT are both vector types; a conversion
    // between them keeps the component count (a bitcast the total width).
    const auto rc = state_.VectorCount(result_type), vc = state_.VectorCount(value_type);
    const uint32_t rw = state_.ScalarWidth(ComponentOf(result_type));
    const uint32_t vw = state_.ScalarWidth(ComponentOf(value_type));
    const bool bitcast = m_.opcode(i) == Op::Bitcast;
    if ((!r || !v) && rc && vc &&
        (bitcast ? uint64_t{*rc} * rw != uint64_t{*vc} * vw : *rc != *vc)) {
      state_.Report("coop-vector.convert", i,
                    state_.Describe(i) + ": " + (bitcast ? "total widths" : "component counts") +
                        " differ: " + state_.Name(value_type) + " vs " + state_.Name(result_type));
      return;
    }
    if (!r || !v) return;
  }
  if (!r || !v) {
    state_.Report("coop-vector.convert", i,
                  state_.Describe(i) + ": converts between " + state_.Name(value_type) + " and " +
                      state_.Name(result_type) + "; both must be cooperative vectors");
    return;
  }
  if (!SameValue(state_, CountOf(result_type), CountOf(value_type))) {
    state_.Report("coop-vector.convert", i,
                  state_.Describe(i) +
                      ": component counts differ: " + ValueText(state_, CountOf(value_type)) +
                      " vs " + ValueText(state_, CountOf(result_type)));
  }
  if (m_.opcode(i) == Op::Bitcast &&
      state_.ScalarWidth(ComponentOf(result_type)) != state_.ScalarWidth(ComponentOf(value_type))) {
    state_.Report("coop-vector.convert", i,
                  state_.Describe(i) + ": a bitcast keeps the bits per component: " +
                      state_.Name(ComponentOf(value_type)) + " vs " +
                      state_.Name(ComponentOf(result_type)));
  }
}

void CoopVectorRules::CheckVectorTimesScalar(InstIndex i) {
  const Id vector = m_.word(i, 3);
  const Id scalar = m_.word(i, 4);
  const Id type = state_.TypeOf(vector);
  if (!IsVectorIdType(state_, type)) return;
  const Id component = ComponentOf(type);
  if (!state_.IsFloatType(component)) {
    state_.Report("coop-vector.arith", i,
                  state_.Describe(i) + ": OpVectorTimesScalar needs a floating-point vector");
  }
  if (m_.type_id(i) != type ||
      (state_.DefOp(scalar) != Op::Nop && state_.TypeOf(scalar) != component)) {
    state_.Report("coop-vector.arith", i,
                  state_.Describe(i) +
                      ": Result Type must be the vector's type and Scalar its "
                      "component type " +
                      state_.Name(component));
  }
}

void CoopVectorRules::CheckExtInst(InstIndex i) {
  const ir::Inst inst = m_.inst(i);
  const Id result_type = m_.type_id(i);
  bool involved = IsVectorIdType(state_, result_type);
  for (size_t w = 5; w < inst.words.size(); ++w) {
    involved = involved || IsVectorIdType(state_, state_.TypeOf(inst.words[w]));
  }
  if (!involved || !cooperative_ || IsNonSemanticExtInst(m_, i)) return;  // Debug info, ...
  const int set = inst.ext_inst_set;
  const bool glsl =
      set >= 0 && std::string_view(grammar::GetExtInstSet(set).name) == "GLSL.std.450";
  const uint32_t number = inst.words[4];
  const grammar::ExtInstInfo* ext = set >= 0 ? grammar::LookupExtInst(set, number) : nullptr;
  const std::string_view name = ext ? ext->name : "";
  static constexpr std::string_view kAllowed[] = {
      "FMin",   "UMin",   "SMin",   "NMin", "FMax", "UMax", "SMax", "NMax", "FClamp",
      "UClamp", "SClamp", "NClamp", "Step", "Exp",  "Log",  "Tanh", "Atan", "Fma"};
  bool allowed = false;
  for (std::string_view a : kAllowed) allowed = allowed || (glsl && name == a);
  if (!allowed) {
    state_.Report("coop-vector.ext-inst", i,
                  state_.Describe(i) + ": " + (ext ? ws::string(name) : "this instruction") +
                      " is not one of the GLSL.std.450 instructions allowed on cooperative "
                      "vectors");
    return;
  }
  for (size_t w = 5; w < inst.words.size(); ++w) {
    const Id operand = inst.words[w];
    if (state_.DefOp(operand) != Op::Nop && state_.TypeOf(operand) != result_type) {
      state_.Report("coop-vector.ext-inst", i,
                    state_.Describe(i) + ": operand " + state_.Name(operand) + " has type " +
                        state_.Name(state_.TypeOf(operand)) + "; it must be the Result Type " +
                        state_.Name(result_type));
      return;
    }
  }
  const Id component = IsVectorIdType(state_, result_type) ? ComponentOf(result_type) : 0;
  const bool float_op = name[0] == 'F' || name[0] == 'N' || name == "Step" || name == "Exp" ||
                        name == "Log" || name == "Tanh" || name == "Atan";
  if (component != 0 &&
      (float_op ? !state_.IsFloatType(component) : !state_.IsIntType(component))) {
    state_.Report("coop-vector.ext-inst", i,
                  state_.Describe(i) + ": " + ws::string(name) + " needs " +
                      (float_op ? "floating-point" : "integer") + " components, not " +
                      state_.Name(component));
  }
}

void CoopVectorRules::CheckComposite(InstIndex i) {
  const Op op = m_.opcode(i);
  const size_t n = m_.num_words(i);
  if (op == Op::VectorShuffle) {
    const bool involved = IsVectorIdType(state_, m_.type_id(i)) ||
                          IsVectorIdType(state_, state_.TypeOf(m_.word(i, 3))) ||
                          IsVectorIdType(state_, state_.TypeOf(m_.word(i, 4)));
    if (involved && !long_vectors_) {
      state_.Report("coop-vector.composite", i,
                    state_.Describe(i) +
                        ": OpVectorShuffle is not allowed on cooperative "
                        "vectors");
    }
    return;
  }
  if (op == Op::CompositeConstruct) {
    const Id type = m_.type_id(i);
    // A long vector is constructed as any vector is (composites.cc).
    if (!IsVectorIdType(state_, type) || long_vectors_) return;
    const auto count = KnownValue(state_, CountOf(type));
    for (size_t w = 3; w < n; ++w) {
      const Id c = m_.word(i, w);
      if (state_.DefOp(c) != Op::Nop && state_.TypeOf(c) != ComponentOf(type)) {
        state_.Report("coop-vector.composite", i,
                      state_.Describe(i) + ": constituent " + state_.Name(c) +
                          " must have the component type " + state_.Name(ComponentOf(type)));
        return;
      }
    }
    if (count && static_cast<int64_t>(n - 3) != *count) {
      state_.Report("coop-vector.composite", i,
                    state_.Describe(i) + " has " + ws::to_string(n - 3) +
                        " constituents for a vector of " + ws::to_string(*count));
    }
    return;
  }
  const size_t composite_word = op == Op::CompositeExtract ? 3 : 4;
  const Id type = state_.TypeOf(m_.word(i, composite_word));
  if (!IsVectorIdType(state_, type)) return;
  const size_t indices = n - composite_word - 1;
  if (indices != 1) {
    state_.Report("coop-vector.composite", i,
                  state_.Describe(i) + " uses " + ws::to_string(indices) +
                      " indexes into a cooperative vector; exactly one is allowed");
  }
}

}  // namespace

bool CoopVectorVisits(const ValidationState& state, Op op) {
  // CoopVectorRules::Run checks nothing without these.
  return (state.HasCapability(Capability::CooperativeVectorNV) ||
          state.HasCapability(Capability::LongVectorEXT)) &&
         VectorCheckOf(op) != VectorCheck::kNone;
}

void ValidateCoopVector(ValidationState& state) { CoopVectorRules(state).Run(); }

}  // namespace coopspv::val
