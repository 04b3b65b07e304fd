// Evaluation of the scalar integer and Boolean operations that OpSpecConstantOp may name, shared
// by the validator (default values of spec-constant expressions) and --fold-spec-const, and the
// value of a 32-bit OpConstant, which the passes read for sizes, scopes and layouts, and the bytes
// a plain (not explicitly laid out) type occupies, which the validator's Workgroup memory rules and
// --lower-coop-matrix2's Workgroup budget both count.
#ifndef COOPSPV_SOURCE_IR_SCALAR_EVAL_H_
#define COOPSPV_SOURCE_IR_SCALAR_EVAL_H_

#include <algorithm>
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

// The bytes of a value of `type` without an explicit layout: a scalar its width / 8, a Boolean 4
// (it has no size of its own in Vulkan; counted as a 32-bit value), vectors, matrices and arrays
// their element times the count, a struct the sum of its members. Sizes saturate at 2^40 (far above
// any device limit, no overflow). `array_length(id)` gives the value of an OpTypeArray's length id
// (nullopt when unknown). nullopt for other types, unknown or out-of-range lengths, and nesting
// deeper than 64.
template <typename ArrayLength>
std::optional<int64_t> PlainTypeBytes(const Module& m, Id type, const ArrayLength& array_length,
                                      int depth = 0) {
  constexpr int64_t kHuge = int64_t{1} << 40;
  auto times = [](int64_t a, int64_t b) { return b != 0 && a > kHuge / b ? kHuge : a * b; };
  const InstIndex d = m.Def(type);
  if (d == kNoInst || depth > 64) return std::nullopt;
  auto word = [&](uint32_t w) { return w < m.num_words(d) ? m.word(d, w) : 0u; };
  switch (m.opcode(d)) {
    case spv::Op::TypeInt:
    case spv::Op::TypeFloat:
      return word(2) / 8;
    case spv::Op::TypeBool:
      return 4;
    case spv::Op::TypeVector:
    case spv::Op::TypeMatrix: {
      const auto element = PlainTypeBytes(m, word(2), array_length, depth + 1);
      if (!element) return std::nullopt;
      return times(*element, word(3));
    }
    case spv::Op::TypeArray: {
      const auto element = PlainTypeBytes(m, word(2), array_length, depth + 1);
      const std::optional<int64_t> length = array_length(word(3));
      if (!element || !length || *length < 0 || *length > (int64_t{1} << 32)) return std::nullopt;
      return times(*element, *length);
    }
    case spv::Op::TypeStruct: {
      int64_t total = 0;
      for (uint32_t w = 2; w < m.num_words(d); ++w) {
        const auto member = PlainTypeBytes(m, m.word(d, w), array_length, depth + 1);
        if (!member) return std::nullopt;
        total = std::min(kHuge, total + *member);
      }
      return total;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace coopspv::ir

#endif  // COOPSPV_SOURCE_IR_SCALAR_EVAL_H_
