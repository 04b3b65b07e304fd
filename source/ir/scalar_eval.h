// Evaluation of the scalar integer and Boolean operations that OpSpecConstantOp may name, shared
// by the validator (default values of spec-constant expressions) and --fold-spec-const, and the
// value of a 32-bit OpConstant, which the passes read for sizes, scopes and layouts.
#ifndef COOPSPV_SOURCE_IR_SCALAR_EVAL_H_
#define COOPSPV_SOURCE_IR_SCALAR_EVAL_H_

#include <cstdint>
#include <optional>
#include <span>

#include "source/grammar/grammar.h"
#include "source/ir/module.h"

namespace coopspv::ir {

// An integer of `width` bits (two's complement in the low bits of `bits`) or a Boolean (0 / 1).
struct Scalar {
  bool is_bool = false;
  bool is_signed = false;
  uint32_t width = 32;
  uint64_t bits = 0;

  int64_t Signed() const {
    if (width >= 64) return static_cast<int64_t>(bits);
    const int shift = 64 - static_cast<int>(width);
    return static_cast<int64_t>(bits << shift) >> shift;
  }
};

inline uint64_t MaskTo(uint64_t v, uint32_t width) {
  return width >= 64 ? v : v & ((1ull << width) - 1);
}

// The value word of an OpConstant of a 32-bit scalar; nullopt for any other id (undefined,
// another opcode, a 64-bit constant).
std::optional<uint32_t> ConstantValue(const Module& m, Id id);

// The shape (bits 0) of an OpTypeInt of 1 to 64 bits or of OpTypeBool; nullopt for other ids.
std::optional<Scalar> ScalarShape(const Module& m, Id type);

// The result of `op` on `args`, with the type of `shape` (its bits are ignored). nullopt for an
// operation that is not a scalar integer / Boolean one, the wrong number of arguments, or an
// undefined result (division by zero, signed overflow of division, shifts by the width or more).
std::optional<Scalar> EvaluateScalarOp(spv::Op op, const Scalar& shape,
                                       std::span<const Scalar> args);

}  // namespace coopspv::ir

#endif  // COOPSPV_SOURCE_IR_SCALAR_EVAL_H_
