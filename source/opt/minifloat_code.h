// Software decode and encode of the small floating-point formats a cooperative vector matrix may
// hold (IEEE half, float8 E4M3 and E5M2), written once against an operation set so that
// --lower-coop-vector emits exactly these steps as SPIR-V (helper functions of 32-bit integer
// operations) and its test evaluates the same steps in C++ against source/common/float.
//
// The operation set `O` provides, on 32-bit unsigned values (wrapping) and Booleans:
//   Value Const(uint32_t); And, Or, Shl, Shr, Add, Sub (Value, Value);
//   Bool ULess(Value, Value), Equal(Value, Value), LogicalOr(Bool, Bool), LogicalAnd(Bool, Bool);
//   Value Select(Bool, Value if_true, Value if_false);
//   Value FindUMsb(Value)  (GLSL.std.450 FindUMsb: the highest set bit, ~0u for zero).
// Shift amounts of 32 or more only reach lanes that a Select discards.
#ifndef COOPSPV_SOURCE_OPT_MINIFLOAT_CODE_H_
#define COOPSPV_SOURCE_OPT_MINIFLOAT_CODE_H_

#include <array>
#include <cstdint>
#include <map>

#include "source/common/float.h"
#include "source/grammar/grammar.h"

namespace coopspv::opt::minifloat {

// The largest finite encoding of a format (sign clear).
constexpr uint32_t MaxFinite(FloatFormat f) {
  const uint32_t m = f.mantissa_bits, e = f.exponent_bits;
  // E4M3 has no infinities: only all-ones is NaN, so all-ones minus one is the largest.
  return f.finite_only ? (1u << (e + m)) - 2 : ((((1u << e) - 2) << m) | ((1u << m) - 1));
}
constexpr uint32_t Infinity(FloatFormat f) {
  return ((1u << f.exponent_bits) - 1) << f.mantissa_bits;
}
constexpr uint32_t QuietNaN(FloatFormat f) {
  return f.finite_only ? (1u << (f.exponent_bits + f.mantissa_bits)) - 1
                       : Infinity(f) | (1u << (f.mantissa_bits - 1));
}

// True when the decode (or encode) of format `f` below calls FindUMsb: only a decode of a format
// with a narrower exponent than float32 has subnormals that are normal float32 values.
constexpr bool UsesFindUMsb(FloatFormat f, bool encode) { return !encode && f.exponent_bits != 8; }

// Bits of format `f` (in the low bits of x) -> the bits of the float32 of the same value
// (exact: every value of these formats is a float32). NaNs become a quiet NaN of the same sign.
template <class O>
typename O::Value DecodeToFloat32Bits(O& o, typename O::Value x, FloatFormat f) {
  const uint32_t m_bits = f.mantissa_bits, e_bits = f.exponent_bits;
  const uint32_t bias = f.bias();
  auto sign = o.Shl(o.And(o.Shr(x, o.Const(e_bits + m_bits)), o.Const(1)), o.Const(31));
  auto e = o.And(o.Shr(x, o.Const(m_bits)), o.Const((1u << e_bits) - 1));
  auto m = o.And(x, o.Const((1u << m_bits) - 1));
  // Normal: rebias the exponent, widen the fraction.
  auto normal =
      o.Or(o.Shl(o.Add(e, o.Const(127 - bias)), o.Const(23)), o.Shl(m, o.Const(23 - m_bits)));
  // Subnormal: m * 2^(1 - bias - M) = 1.f * 2^(p + 1 - bias - M) with p the top bit of m.
  // A format with float32's exponent range (bfloat16): its subnormals are float32 subnormals.
  typename O::Value subnormal;
  if (!UsesFindUMsb(f, /*encode=*/false)) {
    subnormal = o.Shl(m, o.Const(23 - m_bits));
  } else {
    auto p = o.FindUMsb(m);
    subnormal = o.Or(o.Shl(o.Add(p, o.Const(128 - bias - m_bits)), o.Const(23)),
                     o.And(o.Shl(m, o.Sub(o.Const(23), p)), o.Const(0x7FFFFF)));
  }
  auto zero_e = o.Equal(e, o.Const(0));
  auto magnitude =
      o.Select(zero_e, o.Select(o.Equal(m, o.Const(0)), o.Const(0), subnormal), normal);
  const uint32_t e_max = (1u << e_bits) - 1;
  if (f.finite_only) {
    auto nan = o.Equal(o.And(x, o.Const((1u << (e_bits + m_bits)) - 1)), o.Const(QuietNaN(f)));
    magnitude = o.Select(nan, o.Const(0x7FC00000), magnitude);
  } else {
    auto special = o.Equal(e, o.Const(e_max));
    auto inf_or_nan = o.Select(o.Equal(m, o.Const(0)), o.Const(0x7F800000), o.Const(0x7FC00000));
    magnitude = o.Select(special, inf_or_nan, magnitude);
  }
  return o.Or(sign, magnitude);
}

// Float32 bits -> the bits of format `f`, rounded to nearest even. Values beyond the largest
// finite one become it when `saturate` (and always for E4M3, which has no infinity), else
// infinity; NaN stays NaN.
template <class O>
typename O::Value EncodeFromFloat32Bits(O& o, typename O::Value x, FloatFormat f, bool saturate) {
  const uint32_t m_bits = f.mantissa_bits, e_bits = f.exponent_bits;
  const uint32_t bias = f.bias();
  auto sign = o.Shl(o.Shr(x, o.Const(31)), o.Const(e_bits + m_bits));
  auto a = o.And(x, o.Const(0x7FFFFFFF));
  auto e32 = o.Shr(a, o.Const(23));
  auto mant = o.Or(o.And(a, o.Const(0x7FFFFF)), o.Const(0x800000));
  if (e_bits == 8) {
    // bfloat16 keeps float32 subnormals: read them as exponent 1 without the implicit bit. (The
    // narrower formats round every float32 subnormal to zero either way.)
    auto zero_e = o.Equal(e32, o.Const(0));
    mant = o.Select(zero_e, o.And(a, o.Const(0x7FFFFF)), mant);
    e32 = o.Select(zero_e, o.Const(1), e32);
  }
  // eb = target biased exponent + 127: normal in the target when eb >= 128.
  auto eb = o.Add(e32, o.Const(bias));
  auto subnormal = o.ULess(eb, o.Const(128));
  auto extra = o.Select(subnormal, o.Sub(o.Const(128), eb), o.Const(0));
  // Past 25 bits every significand rounds to zero; cap the shift there.
  auto shift = o.Add(extra, o.Const(23 - m_bits));
  shift = o.Select(o.ULess(shift, o.Const(25)), shift, o.Const(25));
  auto q = o.Shr(mant, shift);
  auto rem = o.And(mant, o.Sub(o.Shl(o.Const(1), shift), o.Const(1)));
  auto half = o.Shl(o.Const(1), o.Sub(shift, o.Const(1)));
  auto up =
      o.LogicalOr(o.ULess(half, rem),
                  o.LogicalAnd(o.Equal(rem, half), o.Equal(o.And(q, o.Const(1)), o.Const(1))));
  auto rounded = o.Add(q, o.Select(up, o.Const(1), o.Const(0)));
  // Normal: (te - 1) << M plus the significand with its implicit bit; a rounding carry moves
  // into the exponent by itself.
  auto bits = o.Add(
      o.Select(subnormal, o.Const(0), o.Shl(o.Sub(eb, o.Const(128)), o.Const(m_bits))), rounded);
  const bool saturating = saturate || f.finite_only;
  auto overflow = o.ULess(o.Const(MaxFinite(f)), bits);
  bits = o.Select(overflow, o.Const(saturating ? MaxFinite(f) : Infinity(f)), bits);
  auto nan = o.ULess(o.Const(0x7F800000), a);
  bits = o.Select(nan, o.Const(QuietNaN(f)), bits);
  return o.Or(sign, bits);
}

// The operation set that emits SPIR-V, for a pass whose emitter `E` provides
// Emit(spv::Op, type, {operands}) -> result id, U32(value) (a uint32 constant), UInt(32), Bool()
// and Glsl() (the GLSL.std.450 import, asked for only by the helpers that call FindUMsb).
template <class E>
struct SpirvOps {
  using Value = uint32_t;
  using Bool = uint32_t;
  static constexpr uint32_t kGlslFindUMsb = 75;
  E& e;
  Value Bin(spv::Op op, Value a, Value b) { return e.Emit(op, e.UInt(32), {a, b}); }
  Value Const(uint32_t v) { return e.U32(v); }
  Value And(Value a, Value b) { return Bin(spv::Op::BitwiseAnd, a, b); }
  Value Or(Value a, Value b) { return Bin(spv::Op::BitwiseOr, a, b); }
  Value Shl(Value a, Value b) { return Bin(spv::Op::ShiftLeftLogical, a, b); }
  Value Shr(Value a, Value b) { return Bin(spv::Op::ShiftRightLogical, a, b); }
  Value Add(Value a, Value b) { return Bin(spv::Op::IAdd, a, b); }
  Value Sub(Value a, Value b) { return Bin(spv::Op::ISub, a, b); }
  Bool ULess(Value a, Value b) { return e.Emit(spv::Op::ULessThan, e.Bool(), {a, b}); }
  Bool Equal(Value a, Value b) { return e.Emit(spv::Op::IEqual, e.Bool(), {a, b}); }
  Bool LogicalOr(Bool a, Bool b) { return e.Emit(spv::Op::LogicalOr, e.Bool(), {a, b}); }
  Bool LogicalAnd(Bool a, Bool b) { return e.Emit(spv::Op::LogicalAnd, e.Bool(), {a, b}); }
  Value Select(Bool c, Value a, Value b) { return e.Emit(spv::Op::Select, e.UInt(32), {c, a, b}); }
  Value FindUMsb(Value a) {
    return e.Emit(spv::Op::ExtInst, e.UInt(32), {e.Glsl(), kGlslFindUMsb, a});
  }
};

// The helper functions (uint32 -> uint32 bits) of DecodeToFloat32Bits / EncodeFromFloat32Bits a
// pass emits, one per format, direction and saturation, through an emitter as SpirvOps wants
// that appends at the end of the module while `at_end` is set; `fn_type` is
// OpTypeFunction %uint %uint.
class Helpers {
 public:
  template <class E>
  uint32_t Get(E& e, bool& at_end, uint32_t fn_type, FloatFormat f, bool encode, bool saturate) {
    const std::array<uint32_t, 4> key = {static_cast<uint32_t>(f.exponent_bits),
                                         static_cast<uint32_t>(f.mantissa_bits), encode, saturate};
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    // The import, if this helper needs it, is declared before the function's ids.
    if (UsesFindUMsb(f, encode)) e.Glsl();
    const bool was_at_end = at_end;
    at_end = true;
    const uint32_t u32 = e.UInt(32);
    const uint32_t fn = e.Emit(spv::Op::Function, u32, {0, fn_type});
    const uint32_t param = e.Emit(spv::Op::FunctionParameter, u32, {});
    e.Emit(spv::Op::Label, 0, {});
    SpirvOps<E> ops{e};
    const uint32_t result = encode ? EncodeFromFloat32Bits(ops, param, f, saturate)
                                   : DecodeToFloat32Bits(ops, param, f);
    e.Emit(spv::Op::ReturnValue, 0, {result});
    e.Emit(spv::Op::FunctionEnd, 0, {});
    at_end = was_at_end;
    ids_.emplace(key, fn);
    return fn;
  }

 private:
  std::map<std::array<uint32_t, 4>, uint32_t> ids_;
};

}  // namespace coopspv::opt::minifloat

#endif  // COOPSPV_SOURCE_OPT_MINIFLOAT_CODE_H_
