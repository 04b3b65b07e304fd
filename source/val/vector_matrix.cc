// Vector and matrix arithmetic (SPIR-V 3.42.13: OpVectorTimesScalar, OpMatrixTimesScalar,
// OpVectorTimesMatrix, OpMatrixTimesVector, OpMatrixTimesMatrix, OpOuterProduct, OpDot), OpBitcast
// (3.42.11) and OpBitcastExtractEXT (SPV_EXT_ocp_microscaling_types): the shapes of Result Type
// and operands, which relate through component and column counts or bit widths. Cooperative
// matrices and vectors are the cooperative families' (coop-matrix.arith, coop-vector.convert):
// these rules skip them, except for an OpMatrixTimesScalar whose Result Type is a cooperative
// matrix and whose Matrix is not.
#include <string>
#include <utility>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

bool IsCooperative(const ValidationState& state, Id type) {
  return IsCoopMatrixType(state, type) || state.DefOp(type) == Op::TypeVectorIdEXT;
}

class VectorMatrixRules {
 public:
  explicit VectorMatrixRules(ValidationState& state) : state_(state), m_(state.module()) {}
  void Check(InstIndex i);

 private:
  bool IsFloatVector(Id t) const {
    return state_.DefOp(t) == Op::TypeVector && state_.IsFloatType(state_.ComponentType(t));
  }
  bool IsFloatMatrix(Id t) const {
    return state_.DefOp(t) == Op::TypeMatrix && IsFloatVector(state_.ComponentType(t));
  }
  uint32_t Count(Id t) const { return state_.DefWord(t, 3); }  // Components or columns.
  // The number of bits of a numerical scalar or vector (0 for other types).
  uint32_t Bits(Id t) const {
    if (state_.IsNumericScalarType(t)) return state_.ScalarWidth(t);
    if (state_.DefOp(t) == Op::TypeVector && state_.IsNumericScalarType(state_.ComponentType(t))) {
      return Count(t) * state_.ScalarWidth(state_.ComponentType(t));
    }
    return 0;
  }
  void Fail(const char* rule, InstIndex i, const ws::string& what) {
    state_.Report(rule, i, state_.Describe(i) + ": " + what);
  }
  void CheckBitcast(InstIndex i, Id result, Id operand);
  void CheckBitcastExtract(InstIndex i, Id result, Id base, Id offset);
  // The component type and count of a numerical scalar or vector type (OpTypeVectorIdEXT under
  // LongVectorEXT included; a count a spec constant gives is 0); {0, 0} for other types.
  std::pair<Id, uint32_t> NumericalShape(Id t) const {
    if (state_.IsNumericScalarType(t)) return {t, 1};
    if (!state_.IsVectorType(t) || !state_.IsNumericScalarType(state_.ComponentType(t))) {
      return {0, 0};
    }
    return {state_.ComponentType(t), state_.VectorCount(t).value_or(0)};
  }

  ValidationState& state_;
  const ir::Module& m_;
};

void VectorMatrixRules::CheckBitcast(InstIndex i, Id result, Id operand) {
  const Id type = state_.TypeOf(operand);
  // SPV_KHR_untyped_pointers: untyped pointers are pointer types too.
  const bool result_pointer = state_.IsAnyPointerType(result);
  const bool operand_pointer = state_.IsAnyPointerType(type);
  if (!result_pointer && Bits(result) == 0) {
    return Fail("bitcast.operand", i,
                "Result Type " + state_.Name(result) +
                    " is not a pointer nor a scalar or vector of numerical type");
  }
  if (!operand_pointer && Bits(type) == 0) {
    return Fail("bitcast.operand", i,
                "Operand " + state_.Name(operand) + " has type " + state_.Name(type) +
                    ", not a pointer nor a scalar or vector of numerical type");
  }
  // SPIR-V 2.16.1, Logical addressing: no instruction but those listed there produces a
  // logical pointer. Under PhysicalStorageBuffer64 only PhysicalStorageBuffer pointers are
  // physical.
  const spv::AddressingModel model = state_.addressing_model();
  const bool logical = model == spv::AddressingModel::Logical ||
                       model == spv::AddressingModel::PhysicalStorageBuffer64;
  // Neither side is a logical pointer: the result would be produced, the operand taken.
  for (const bool side_result : {true, false}) {
    const Id pointer_type = side_result ? result : type;
    if (!logical || !(side_result ? result_pointer : operand_pointer) ||
        state_.PointerStorageClass(pointer_type) == spv::StorageClass::PhysicalStorageBuffer) {
      continue;
    }
    return Fail(
        "bitcast.operand", i,
        (side_result ? "Result Type " + state_.Name(result) : "Operand " + state_.Name(operand)) +
            " is a logical pointer, which OpBitcast cannot " + (side_result ? "produce" : "take") +
            " (SPIR-V 2.16.1, Logical addressing)");
  }
  if (result_pointer || operand_pointer) {
    // A pointer converts to or from a pointer, an integer scalar or (SPIR-V 1.5) an integer
    // vector.
    const Id other = result_pointer ? type : result;
    const bool int_scalar = state_.IsIntType(other);
    const bool int_vector = state_.DefOp(other) == Op::TypeVector &&
                            state_.IsIntType(state_.ComponentType(other)) &&
                            state_.version() >= SpirvVersion(1, 5);
    if (!state_.IsAnyPointerType(other) && !int_scalar && !int_vector) {
      Fail("bitcast.operand", i,
           state_.Name(other) + " must be a pointer or an integer scalar" +
               (state_.version() >= SpirvVersion(1, 5) ? " or vector" : "") +
               " when the other side of the bitcast is a pointer");
    }
    return;
  }
  if (Bits(result) != Bits(type)) {
    Fail("bitcast.operand", i,
         "Operand " + state_.Name(operand) + " has " + ws::to_string(Bits(type)) +
             " bits, Result Type " + state_.Name(result) + " " + ws::to_string(Bits(result)) +
             "; a bitcast keeps the total width");
  }
}

// SPV_EXT_ocp_microscaling_types OpBitcastExtractEXT: "'Result Type' must be a scalar or
// vector of numerical type with the same number of components as 'Base'. 'Base' must be a scalar
// or vector of numerical type whose components must have a bit width greater than that of 'Result
// Type'. 'Offset' must be a scalar integer type." In Vulkan (VUID-StandaloneSpirv-Result-12468,
// -Base-12469) it extracts FP4 / FP6 floats from integers.
void VectorMatrixRules::CheckBitcastExtract(InstIndex i, Id result, Id base, Id offset) {
  const auto [result_component, result_count] = NumericalShape(result);
  if (result_component == 0) {
    return Fail(
        "bitcast.extract", i,
        "Result Type " + state_.Name(result) + " is not a scalar or vector of numerical type");
  }
  const bool vulkan = state_.options().env.is_vulkan();
  if (vulkan && !(state_.FloatEncodings(result_component) & ValidationState::kSubByteFloat)) {
    return Fail("vulkan.bitcast-extract", i,
                "Result Type " + state_.Name(result) +
                    " is not a Float4E2M1EXT, Float6E2M3EXT or Float6E3M2EXT scalar or vector, "
                    "which a Vulkan environment requires");
  }
  const Id base_type = state_.TypeOf(base);
  const auto [base_component, base_count] = NumericalShape(base_type);
  if (base_component == 0) {
    return Fail("bitcast.extract", i,
                "Base " + state_.Name(base) + " has type " + state_.Name(base_type) +
                    ", not a scalar or vector of numerical type");
  }
  if (vulkan && !state_.IsIntType(base_component)) {
    return Fail("vulkan.bitcast-extract", i,
                "Base " + state_.Name(base) + " has type " + state_.Name(base_type) +
                    ", not an integer scalar or vector, which a Vulkan environment requires");
  }
  if (result_count != base_count && result_count != 0 && base_count != 0) {
    return Fail("bitcast.extract", i,
                "Base " + state_.Name(base) + " has " + ws::to_string(base_count) +
                    " components, Result Type " + state_.Name(result) + " " +
                    ws::to_string(result_count));
  }
  const uint32_t result_width = state_.ScalarWidth(result_component);
  const uint32_t base_width = state_.ScalarWidth(base_component);
  if (base_width <= result_width) {
    return Fail("bitcast.extract", i,
                "Base " + state_.Name(base) + " has components of " + ws::to_string(base_width) +
                    " bits, not more than the Result Type's " + ws::to_string(result_width));
  }
  const Id offset_type = state_.TypeOf(offset);
  if (!state_.IsIntType(offset_type)) {
    Fail("bitcast.extract", i,
         "Offset " + state_.Name(offset) + " has type " + state_.Name(offset_type) +
             ", not a scalar integer type");
  }
}

void VectorMatrixRules::Check(InstIndex i) {
  const Op op = m_.opcode(i);
  const uint32_t n = m_.num_words(i);
  if (n < 4) return;
  const Id result = m_.word(i, 1);
  if (op == Op::BitcastExtractEXT) {
    if (n == 5) CheckBitcastExtract(i, result, m_.word(i, 3), m_.word(i, 4));
    return;
  }
  for (uint32_t w = 3; w < n; ++w) {
    if (IsCooperative(state_, state_.TypeOf(m_.word(i, w)))) return;
  }
  if (IsCooperative(state_, result)) {
    // The cooperative families check the instruction once its Matrix is cooperative too.
    if (op == Op::MatrixTimesScalar) {
      Fail("matrix.operand", i,
           "Matrix " + state_.Name(m_.word(i, 3)) + " has type " +
               state_.Name(state_.TypeOf(m_.word(i, 3))) + ", not the Result Type " +
               state_.Name(result));
    }
    return;
  }
  if (op == Op::Bitcast) return CheckBitcast(i, result, m_.word(i, 3));
  if (n < 5) return;
  const Id a = state_.TypeOf(m_.word(i, 3));
  const Id b = state_.TypeOf(m_.word(i, 4));
  const char* rule = "matrix.operand";
  switch (op) {
    case Op::VectorTimesScalar:
    case Op::MatrixTimesScalar: {
      const bool matrix = op == Op::MatrixTimesScalar;
      if (matrix ? !IsFloatMatrix(result) : !IsFloatVector(result)) {
        return Fail(rule, i,
                    "Result Type " + state_.Name(result) + " is not a " +
                        (matrix ? "matrix" : "vector") + " of floating-point type");
      }
      if (a != result) {
        return Fail(rule, i,
                    ws::string(matrix ? "Matrix" : "Vector") + " has type " + state_.Name(a) +
                        ", not the Result Type " + state_.Name(result));
      }
      Id component = state_.ComponentType(result);
      if (matrix) component = state_.ComponentType(component);
      if (b != component) {
        Fail(rule, i,
             "Scalar has type " + state_.Name(b) + ", not the component type " +
                 state_.Name(component));
      }
      return;
    }
    case Op::VectorTimesMatrix:
    case Op::MatrixTimesVector: {
      const bool vm = op == Op::VectorTimesMatrix;
      const Id vector = vm ? a : b, matrix = vm ? b : a;
      if (!IsFloatVector(result)) {
        return Fail(rule, i, "Result Type " + state_.Name(result) + " is not a float vector");
      }
      if (!IsFloatMatrix(matrix) || !IsFloatVector(vector)) {
        return Fail(rule, i, "the operands are not a float vector and a float matrix");
      }
      const Id column = state_.ComponentType(matrix);
      const Id component = state_.ComponentType(result);
      if (state_.ComponentType(column) != component || state_.ComponentType(vector) != component) {
        return Fail(rule, i, "the component types of the operands and Result Type differ");
      }
      // Vector x Matrix: Vector has one component per row, the result one per column;
      // Matrix x Vector: Vector has one component per column, the result is a column.
      const uint32_t rows = Count(column), columns = Count(matrix);
      if (Count(vector) != (vm ? rows : columns) || Count(result) != (vm ? columns : rows)) {
        return Fail(rule, i,
                    "a " + ws::to_string(rows) + "x" + ws::to_string(columns) +
                        " matrix does not fit Vector " + state_.Name(vector) + " and Result Type " +
                        state_.Name(result));
      }
      return;
    }
    case Op::MatrixTimesMatrix: {
      if (!IsFloatMatrix(result) || !IsFloatMatrix(a) || !IsFloatMatrix(b)) {
        return Fail(rule, i, "Result Type and both operands must be float matrices");
      }
      const Id column = state_.ComponentType(result);
      if (state_.ComponentType(a) != column || Count(b) != Count(result) ||
          state_.ComponentType(state_.ComponentType(b)) != state_.ComponentType(column) ||
          Count(state_.ComponentType(b)) != Count(a)) {
        return Fail(rule, i,
                    "LeftMatrix " + state_.Name(a) + " times RightMatrix " + state_.Name(b) +
                        " is not Result Type " + state_.Name(result));
      }
      return;
    }
    case Op::OuterProduct: {
      if (!IsFloatMatrix(result)) {
        return Fail(rule, i, "Result Type " + state_.Name(result) + " is not a float matrix");
      }
      const Id column = state_.ComponentType(result);
      if (a != column || !IsFloatVector(b) ||
          state_.ComponentType(b) != state_.ComponentType(column) || Count(b) != Count(result)) {
        return Fail(rule, i,
                    "Vector 1 must be the column type " + state_.Name(column) +
                        " and Vector 2 have one component of its type per column");
      }
      return;
    }
    case Op::Dot: {
      if (!state_.IsFloatType(result)) {
        return Fail(rule, i, "Result Type " + state_.Name(result) + " is not a float scalar");
      }
      if (!IsFloatVector(a) || a != b || state_.ComponentType(a) != result) {
        return Fail(rule, i,
                    "Vector 1 and Vector 2 must be the same vector type of Result Type "
                    "components");
      }
      return;
    }
    default:
      return;
  }
}

}  // namespace

bool VectorMatrixVisits(const ValidationState& state, Op op) {
  switch (op) {
    case Op::Bitcast:
    case Op::BitcastExtractEXT:
    case Op::VectorTimesScalar:
    case Op::MatrixTimesScalar:
    case Op::VectorTimesMatrix:
    case Op::MatrixTimesVector:
    case Op::MatrixTimesMatrix:
    case Op::OuterProduct:
    case Op::Dot:
      return true;
    default:
      return false;
  }
}

void ValidateVectorMatrix(ValidationState& state) {
  const ir::Module& m = state.module();
  VectorMatrixRules rules(state);
  // The walk has exactly the opcodes VectorMatrixVisits names.
  for (const InstIndex i : state.Walked(Walk::kVectorMatrix, m.global_end())) {
    if (state.Full()) break;
    rules.Check(i);
  }
}

}  // namespace coopspv::val
