// The instructions a cooperative matrix or vector takes element by element, as the extensions
// list them: one list for the validator, which checks their operands, and the lowering passes,
// which rewrite them per element.
#ifndef COOPSPV_SOURCE_GRAMMAR_ELEMENTWISE_H_
#define COOPSPV_SOURCE_GRAMMAR_ELEMENTWISE_H_

#include "source/grammar/grammar_generated.h"

namespace coopspv::grammar {

// SPV_KHR_cooperative_matrix, "Arithmetic Instructions": the arithmetic opcodes whose operands
// may be cooperative matrices of the Result Type (OpMatrixTimesScalar, which takes a scalar, is
// apart).
constexpr bool IsCoopMatrixArithmetic(spv::Op op) {
  switch (op) {
    case spv::Op::SNegate:
    case spv::Op::FNegate:
    case spv::Op::IAdd:
    case spv::Op::FAdd:
    case spv::Op::ISub:
    case spv::Op::FSub:
    case spv::Op::IMul:
    case spv::Op::FMul:
    case spv::Op::FDiv:
    case spv::Op::SDiv:
    case spv::Op::UDiv:
      return true;
    default:
      return false;
  }
}

// SPV_NV_cooperative_vector: the matrix arithmetic above, and the shifts and bitwise operations.
constexpr bool IsCoopVectorElementwise(spv::Op op) {
  switch (op) {
    case spv::Op::ShiftRightLogical:
    case spv::Op::ShiftRightArithmetic:
    case spv::Op::ShiftLeftLogical:
    case spv::Op::BitwiseOr:
    case spv::Op::BitwiseXor:
    case spv::Op::BitwiseAnd:
    case spv::Op::Not:
      return true;
    default:
      return IsCoopMatrixArithmetic(op);
  }
}

// Both extensions, "Conversion Instructions": the numeric conversions allowed between
// cooperative matrices (or vectors) of the same shape.
constexpr bool IsCoopConversion(spv::Op op) {
  switch (op) {
    case spv::Op::ConvertFToU:
    case spv::Op::ConvertFToS:
    case spv::Op::ConvertSToF:
    case spv::Op::ConvertUToF:
    case spv::Op::UConvert:
    case spv::Op::SConvert:
    case spv::Op::FConvert:
    case spv::Op::Bitcast:
      return true;
    default:
      return false;
  }
}

}  // namespace coopspv::grammar

#endif  // COOPSPV_SOURCE_GRAMMAR_ELEMENTWISE_H_
