#include "source/ir/scalar_eval.h"

#include <limits>

namespace coopspv::ir {

using spv::Op;

std::optional<uint32_t> ConstantValue(const Module& m, Id id) {
  const InstIndex d = m.Def(id);
  if (d == kNoInst || m.opcode(d) != Op::Constant || m.num_words(d) != 4) return std::nullopt;
  return m.word(d, 3);
}

std::optional<Scalar> ScalarShape(const Module& m, Id type) {
  const InstIndex d = m.Def(type);
  if (d == kNoInst) return std::nullopt;
  Scalar s;
  if (m.opcode(d) == Op::TypeBool) {
    s.is_bool = true;
    s.width = 1;
    return s;
  }
  if (m.opcode(d) != Op::TypeInt || m.num_words(d) < 4) return std::nullopt;
  s.width = m.word(d, 2);
  s.is_signed = m.word(d, 3) != 0;
  if (s.width == 0 || s.width > 64) return std::nullopt;
  return s;
}

std::optional<Scalar> EvaluateScalarOp(Op op, const Scalar& shape, std::span<const Scalar> args) {
  Scalar r = shape;
  const uint32_t w = r.width;
  auto unary = [&] { return args.size() == 1; };
  auto binary = [&] { return args.size() == 2; };
  switch (op) {
    case Op::UConvert:
      if (!unary()) return std::nullopt;
      r.bits = MaskTo(args[0].bits, w);
      break;
    case Op::SConvert:
      if (!unary()) return std::nullopt;
      r.bits = MaskTo(static_cast<uint64_t>(args[0].Signed()), w);
      break;
    case Op::SNegate:
      if (!unary()) return std::nullopt;
      r.bits = MaskTo(0 - args[0].bits, w);
      break;
    case Op::Not:
      if (!unary()) return std::nullopt;
      r.bits = MaskTo(~args[0].bits, w);
      break;
    case Op::IAdd:
      if (!binary()) return std::nullopt;
      r.bits = MaskTo(args[0].bits + args[1].bits, w);
      break;
    case Op::ISub:
      if (!binary()) return std::nullopt;
      r.bits = MaskTo(args[0].bits - args[1].bits, w);
      break;
    case Op::IMul:
      if (!binary()) return std::nullopt;
      r.bits = MaskTo(args[0].bits * args[1].bits, w);
      break;
    case Op::UDiv:
    case Op::UMod:
      if (!binary() || args[1].bits == 0) return std::nullopt;  // Undefined: leave it.
      r.bits = op == Op::UDiv ? args[0].bits / args[1].bits : args[0].bits % args[1].bits;
      break;
    case Op::SDiv:
    case Op::SRem:
    case Op::SMod: {
      if (!binary()) return std::nullopt;
      const int64_t a = args[0].Signed(), d = args[1].Signed();
      if (d == 0 || (d == -1 && a == std::numeric_limits<int64_t>::min())) return std::nullopt;
      int64_t q = 0;
      if (op == Op::SDiv) {
        q = a / d;
      } else if (op == Op::SRem) {
        q = a % d;  // Sign of the dividend.
      } else {
        q = a % d;  // SMod: sign of the divisor.
        if (q != 0 && ((q < 0) != (d < 0))) q += d;
      }
      r.bits = MaskTo(static_cast<uint64_t>(q), w);
      break;
    }
    case Op::ShiftRightLogical:
    case Op::ShiftRightArithmetic:
    case Op::ShiftLeftLogical: {
      if (!binary() || args[1].bits >= w) return std::nullopt;  // Undefined shift amounts.
      const uint64_t s = args[1].bits;
      if (op == Op::ShiftLeftLogical) {
        r.bits = MaskTo(args[0].bits << s, w);
      } else if (op == Op::ShiftRightLogical) {
        r.bits = MaskTo(args[0].bits, w) >> s;
      } else {
        r.bits = MaskTo(static_cast<uint64_t>(args[0].Signed() >> s), w);
      }
      break;
    }
    case Op::BitwiseOr:
      if (!binary()) return std::nullopt;
      r.bits = args[0].bits | args[1].bits;
      break;
    case Op::BitwiseXor:
      if (!binary()) return std::nullopt;
      r.bits = args[0].bits ^ args[1].bits;
      break;
    case Op::BitwiseAnd:
      if (!binary()) return std::nullopt;
      r.bits = args[0].bits & args[1].bits;
      break;
    case Op::IEqual:
    case Op::INotEqual:
    case Op::ULessThan:
    case Op::SLessThan:
    case Op::UGreaterThan:
    case Op::SGreaterThan:
    case Op::ULessThanEqual:
    case Op::SLessThanEqual:
    case Op::UGreaterThanEqual:
    case Op::SGreaterThanEqual: {
      if (!binary() || !r.is_bool) return std::nullopt;
      const uint64_t a = args[0].bits, c = args[1].bits;
      const int64_t sa = args[0].Signed(), sc = args[1].Signed();
      bool x = false;
      switch (op) {
        case Op::IEqual:
          x = a == c;
          break;
        case Op::INotEqual:
          x = a != c;
          break;
        case Op::ULessThan:
          x = a < c;
          break;
        case Op::SLessThan:
          x = sa < sc;
          break;
        case Op::UGreaterThan:
          x = a > c;
          break;
        case Op::SGreaterThan:
          x = sa > sc;
          break;
        case Op::ULessThanEqual:
          x = a <= c;
          break;
        case Op::SLessThanEqual:
          x = sa <= sc;
          break;
        case Op::UGreaterThanEqual:
          x = a >= c;
          break;
        default:
          x = sa >= sc;
          break;
      }
      r.bits = x;
      break;
    }
    case Op::LogicalOr:
    case Op::LogicalAnd:
    case Op::LogicalEqual:
    case Op::LogicalNotEqual:
      if (!binary() || !r.is_bool) return std::nullopt;
      r.bits = op == Op::LogicalOr      ? (args[0].bits | args[1].bits)
               : op == Op::LogicalAnd   ? (args[0].bits & args[1].bits)
               : op == Op::LogicalEqual ? (args[0].bits == args[1].bits)
                                        : (args[0].bits != args[1].bits);
      break;
    case Op::LogicalNot:
      if (!unary() || !r.is_bool) return std::nullopt;
      r.bits = !args[0].bits;
      break;
    default:
      return std::nullopt;
  }
  return r;
}

}  // namespace coopspv::ir
