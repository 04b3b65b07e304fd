// Arithmetic, bit, relational and logical instructions and conversions (SPIR-V 3.42.11 to
// 3.42.15): the scalar or vector types their Result Type and operands must have, and how those
// relate (same component count, same width). OpSpecConstantOp gets the same checks for the
// operation it names. Instructions on cooperative matrices and vectors are the cooperative
// families' (coop-matrix.arith, coop-vector.arith, .convert): these rules skip them.
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

enum class Kind : uint8_t {
  kNone,
  kIntArith,       // IAdd ...: int result, int operands of its count and width.
  kUnsignedArith,  // UDiv, UMod: unsigned int result, operands of the Result Type.
  kFloatArith,     // FAdd ...: float result, operands of the Result Type.
  kBitwise,        // BitwiseAnd ..., Not: as kIntArith.
  kShift,          // Base as kIntArith; Shift an int of the same count.
  kIntCompare,     // IEqual ...: bool result; int operands of its count, of one width.
  kFloatCompare,   // FOrdEqual ...: bool result; float operands of one type, of its count.
  kFloatTest,      // IsNan, IsInf: bool result; a float operand of its count.
  kLogical,        // LogicalAnd ...: bool result, operands of the Result Type.
  kAnyAll,         // Any, All: bool scalar result, a bool vector operand.
  kSelect,
  kFloatToInt,  // ConvertFToU, ConvertFToS.
  kIntToFloat,  // ConvertSToF, ConvertUToF.
  kUConvert,
  kSConvert,
  kFConvert,
};

Kind KindOf(Op op) {
  switch (op) {
    case Op::IAdd:
    case Op::ISub:
    case Op::IMul:
    case Op::SDiv:
    case Op::SRem:
    case Op::SMod:
    case Op::SNegate:
      return Kind::kIntArith;
    case Op::UDiv:
    case Op::UMod:
      return Kind::kUnsignedArith;
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FDiv:
    case Op::FRem:
    case Op::FMod:
    case Op::FNegate:
      return Kind::kFloatArith;
    case Op::BitwiseAnd:
    case Op::BitwiseOr:
    case Op::BitwiseXor:
    case Op::Not:
      return Kind::kBitwise;
    case Op::ShiftLeftLogical:
    case Op::ShiftRightLogical:
    case Op::ShiftRightArithmetic:
      return Kind::kShift;
    case Op::IEqual:
    case Op::INotEqual:
    case Op::UGreaterThan:
    case Op::SGreaterThan:
    case Op::UGreaterThanEqual:
    case Op::SGreaterThanEqual:
    case Op::ULessThan:
    case Op::SLessThan:
    case Op::ULessThanEqual:
    case Op::SLessThanEqual:
      return Kind::kIntCompare;
    case Op::FOrdEqual:
    case Op::FUnordEqual:
    case Op::FOrdNotEqual:
    case Op::FUnordNotEqual:
    case Op::FOrdLessThan:
    case Op::FUnordLessThan:
    case Op::FOrdGreaterThan:
    case Op::FUnordGreaterThan:
    case Op::FOrdLessThanEqual:
    case Op::FUnordLessThanEqual:
    case Op::FOrdGreaterThanEqual:
    case Op::FUnordGreaterThanEqual:
      return Kind::kFloatCompare;
    case Op::IsNan:
    case Op::IsInf:
      return Kind::kFloatTest;
    case Op::LogicalEqual:
    case Op::LogicalNotEqual:
    case Op::LogicalOr:
    case Op::LogicalAnd:
    case Op::LogicalNot:
      return Kind::kLogical;
    case Op::Any:
    case Op::All:
      return Kind::kAnyAll;
    case Op::Select:
      return Kind::kSelect;
    case Op::ConvertFToU:
    case Op::ConvertFToS:
      return Kind::kFloatToInt;
    case Op::ConvertSToF:
    case Op::ConvertUToF:
      return Kind::kIntToFloat;
    case Op::UConvert:
      return Kind::kUConvert;
    case Op::SConvert:
      return Kind::kSConvert;
    case Op::FConvert:
      return Kind::kFConvert;
    default:
      return Kind::kNone;
  }
}

const char* RuleOf(Kind k) {
  switch (k) {
    case Kind::kIntArith:
    case Kind::kUnsignedArith:
    case Kind::kFloatArith:
      return "arithmetic.operand";
    case Kind::kBitwise:
    case Kind::kShift:
      return "bitwise.operand";
    case Kind::kIntCompare:
    case Kind::kFloatCompare:
    case Kind::kFloatTest:
      return "relational.operand";
    case Kind::kLogical:
    case Kind::kAnyAll:
      return "logical.operand";
    case Kind::kSelect:
      return "select.operand";
    default:
      return "conversion.operand";
  }
}

// A scalar or vector type: what it is made of. 8 bytes, one per id in a table built once.
struct Shape {
  Op scalar = Op::Nop;  // TypeInt, TypeFloat, TypeBool; Nop when not a scalar or vector.
  uint16_t width = 0;
  uint8_t is_signed = false;
  uint8_t encoded = false;   // A float with a Floating Point Encoding (bfloat16, float8).
  uint32_t count = 0;        // 1 for scalars; 0 for other types.
  bool cooperative = false;  // A cooperative matrix or vector (scalar stays Nop).
};

// The shape of every scalar, vector and cooperative type of the module, by id: built in one
// pass over the declarations (a vector's component is declared before it), so the checks cost
// one lookup per operand.
class Shapes {
 public:
  explicit Shapes(const ir::Module& m) : shapes_(m.bound()) {
    for (InstIndex i = 0; i < m.global_end(); ++i) {
      const Op op = m.opcode(i);
      const Id id = m.result_id(i);
      if (id == 0 || id >= shapes_.size()) continue;
      Shape& s = shapes_[id];
      switch (op) {
        case Op::TypeInt:
        case Op::TypeFloat:
        case Op::TypeBool:
          s.scalar = op;
          s.count = 1;
          s.width = op == Op::TypeBool || m.num_words(i) < 3 ? 0 : m.word(i, 2) & 0xFFFF;
          s.is_signed = op == Op::TypeInt && m.num_words(i) > 3 && m.word(i, 3) != 0;
          s.encoded = op == Op::TypeFloat && m.num_words(i) > 3;
          break;
        case Op::TypeVector:
          if (m.num_words(i) < 4) break;
          s = (*this)[m.word(i, 2)];
          s.count = s.scalar == Op::Nop ? 0 : m.word(i, 3);
          if (s.count == 0) s = Shape{};
          break;
        case Op::TypeCooperativeMatrixKHR:
        case Op::TypeCooperativeMatrixNV:
        case Op::TypeVectorIdEXT:
          s.cooperative = true;
          break;
        default:
          break;
      }
    }
  }
  const Shape& operator[](Id type) const { return type < shapes_.size() ? shapes_[type] : none_; }

 private:
  ws::vector<Shape> shapes_;
  Shape none_;
};

const char* ScalarText(Op scalar) {
  return scalar == Op::TypeInt ? "an integer" : scalar == Op::TypeFloat ? "a float" : "a Boolean";
}

class Checker {
 public:
  Checker(ValidationState& state, const Shapes& shapes, InstIndex i, Kind kind)
      : state_(state), shapes_(shapes), i_(i), kind_(kind) {}
  Checker(ValidationState& state, const Shapes& shapes, InstIndex i, const char* rule)
      : state_(state), shapes_(shapes), i_(i), rule_(rule) {}

  // Result Type must be a scalar or vector of `scalar`; false after a report. The checks are
  // inline; the reports (which build text) are not.
  [[gnu::always_inline]] bool Result(Id type, Op scalar, bool is_unsigned = false) {
    const Shape& s = shapes_[type];
    if (s.scalar == scalar && !(is_unsigned && s.is_signed)) return true;
    return ResultFails(type, scalar, is_unsigned);
  }
  // Operand `id` of type `t` must be a scalar or vector of `scalar` with `count` components (0:
  // any) and `width` bits (0: any).
  [[gnu::always_inline]] bool Operand(Id id, Id t, Op scalar, uint32_t count, uint32_t width) {
    const Shape& s = shapes_[t];
    if (s.scalar == scalar && (count == 0 || s.count == count) &&
        (width == 0 || s.width == width)) {
      return true;
    }
    return OperandFails(id, t, scalar, count, width);
  }
  // Operand `id` of type `t` must have type `type`.
  [[gnu::always_inline]] bool SameType(Id id, Id t, Id type, const char* what) {
    if (t == type) return true;
    return SameTypeFails(id, type, what);
  }
  [[gnu::noinline]] bool ResultFails(Id type, Op scalar, bool is_unsigned) {
    return Fail("Result Type " + state_.Name(type) + " is not " + ScalarText(scalar) +
                (is_unsigned ? " (unsigned)" : "") + " scalar or vector");
  }
  [[gnu::noinline]] bool OperandFails(Id id, Id t, Op scalar, uint32_t count, uint32_t width) {
    const Shape s = shapes_[t];
    if (s.scalar != scalar) {
      return Fail("operand " + state_.Name(id) + " is not " + ScalarText(scalar) +
                  " scalar or vector");
    }
    if (count != 0 && s.count != count) {
      return Fail("operand " + state_.Name(id) + " has " + ws::to_string(s.count) +
                  " components; " + ws::to_string(count) + " expected");
    }
    if (width != 0 && s.width != width) {
      return Fail("operand " + state_.Name(id) + " is " + ws::to_string(s.width) + " bits wide; " +
                  ws::to_string(width) + " expected");
    }
    return true;
  }
  [[gnu::noinline]] bool SameTypeFails(Id id, Id type, const char* what) {
    return Fail("operand " + state_.Name(id) + " has type " + state_.Name(state_.TypeOf(id)) +
                ", not " + what + " " + state_.Name(type));
  }
  bool Fail(const ws::string& why) {
    state_.Report(rule_ != nullptr ? rule_ : RuleOf(kind_), i_, state_.Describe(i_) + ": " + why);
    return false;
  }

 private:
  ValidationState& state_;
  const Shapes& shapes_;
  InstIndex i_;
  Kind kind_ = Kind::kNone;  // Names the rule when rule_ is null (looked up on a report only).
  const char* rule_ = nullptr;
};

// Checks the operation `op` with Result Type `type` and operand ids `args` of instruction `i`.
// `kind` is KindOf(op).
[[gnu::always_inline]] inline void Check(ValidationState& state, const Shapes& shapes, InstIndex i,
                                         Op op, Kind kind, Id type,
                                         std::span<const uint32_t> args) {
  if (kind == Kind::kNone || !state.IsType(type)) return;
  if (shapes[type].cooperative && kind != Kind::kSelect) {
    // The cooperative families check the operands; the kind of component the instruction
    // computes is checked here.
    const Op want =
        kind == Kind::kFloatArith || kind == Kind::kIntToFloat || kind == Kind::kFConvert
            ? Op::TypeFloat
        : kind == Kind::kIntArith || kind == Kind::kUnsignedArith || kind == Kind::kBitwise ||
                kind == Kind::kShift || kind == Kind::kFloatToInt || kind == Kind::kUConvert ||
                kind == Kind::kSConvert
            ? Op::TypeInt
            : Op::TypeBool;
    const Id component = state.ComponentType(type);
    if (state.DefOp(component) != want && state.IsType(component)) {
      Checker(state, shapes, i, kind)
          .Fail("Result Type " + state.Name(type) + " has components of type " +
                state.Name(component) + ", not " + ScalarText(want) + " type");
    }
    return;
  }
  if (shapes[type].cooperative) return;
  const ir::Module& m = state.module();
  // A comparison of a scalar or vector result takes no cooperative matrix (none is a scalar or
  // vector); other operands of cooperative type are the cooperative families'.
  const bool compare = kind == Kind::kIntCompare || kind == Kind::kFloatCompare;
  const size_t want_args = op == Op::SNegate || op == Op::FNegate || op == Op::Not ||
                                   op == Op::LogicalNot || kind == Kind::kFloatTest ||
                                   kind == Kind::kAnyAll || kind >= Kind::kFloatToInt
                               ? 1
                           : kind == Kind::kSelect ? 3
                                                   : 2;
  if (args.size() != want_args) return;  // The grammar's operand count: the reader's.
  // The operands' types, fetched once (at most 3 operands, by the count above).
  Id types[3] = {0, 0, 0};
  for (size_t k = 0; k < args.size(); ++k) {
    const InstIndex d = m.Def(args[k]);
    if (d == kNoInst || m.opcode(d) == Op::Function || m.type_id(d) == 0) return;  // id rules.
    const Id t = m.type_id(d);
    if (shapes[t].cooperative && !(compare && IsCoopMatrixType(state, t))) return;
    types[k] = t;
  }
  Checker c(state, shapes, i, kind);
  const Shape r = shapes[type];
  switch (kind) {
    case Kind::kIntArith:
    case Kind::kBitwise:
      if (!c.Result(type, Op::TypeInt)) return;
      for (size_t k = 0; k < args.size(); ++k) {
        if (!c.Operand(args[k], types[k], Op::TypeInt, r.count, r.width)) return;
      }
      return;
    case Kind::kUnsignedArith:
      if (!c.Result(type, Op::TypeInt, true)) return;
      for (size_t k = 0; k < args.size(); ++k) {
        if (!c.SameType(args[k], types[k], type, "the Result Type")) return;
      }
      return;
    case Kind::kFloatArith:
      if (!c.Result(type, Op::TypeFloat)) return;
      for (size_t k = 0; k < args.size(); ++k) {
        if (!c.SameType(args[k], types[k], type, "the Result Type")) return;
      }
      return;
    case Kind::kShift:
      if (!c.Result(type, Op::TypeInt)) return;
      if (!c.Operand(args[0], types[0], Op::TypeInt, r.count, r.width)) return;
      c.Operand(args[1], types[1], Op::TypeInt, r.count, 0);
      return;
    case Kind::kIntCompare:
      if (!c.Result(type, Op::TypeBool)) return;
      if (!c.Operand(args[0], types[0], Op::TypeInt, r.count, 0)) return;
      c.Operand(args[1], types[1], Op::TypeInt, r.count, shapes[types[0]].width);
      return;
    case Kind::kFloatCompare:
      if (!c.Result(type, Op::TypeBool)) return;
      if (!c.Operand(args[0], types[0], Op::TypeFloat, r.count, 0)) return;
      c.SameType(args[1], types[1], types[0], "the type of the first operand,");
      return;
    case Kind::kFloatTest:
      if (!c.Result(type, Op::TypeBool)) return;
      c.Operand(args[0], types[0], Op::TypeFloat, r.count, 0);
      return;
    case Kind::kLogical:
      if (!c.Result(type, Op::TypeBool)) return;
      for (size_t k = 0; k < args.size(); ++k) {
        if (!c.SameType(args[k], types[k], type, "the Result Type")) return;
      }
      return;
    case Kind::kAnyAll:
      if (state.DefOp(type) != Op::TypeBool) {
        c.Fail("Result Type " + state.Name(type) + " is not a Boolean scalar");
        return;
      }
      if (state.DefOp(types[0]) != Op::TypeVector) {
        c.Fail("Vector " + state.Name(args[0]) + " is not a Boolean vector");
        return;
      }
      c.Operand(args[0], types[0], Op::TypeBool, 0, 0);
      return;
    case Kind::kSelect: {
      const Shape cond = shapes[types[0]];
      if (cond.scalar != Op::TypeBool) {
        c.Fail("Condition " + state.Name(args[0]) + " is not a Boolean scalar or vector");
        return;
      }
      if (cond.count != 1 && cond.count != r.count) {
        c.Fail("the vector Condition " + state.Name(args[0]) +
               " does not have the Result Type's component count");
        return;
      }
      if (cond.count != 1 && state.DefOp(type) != Op::TypeVector) {
        c.Fail("a vector Condition needs a vector Result Type");
        return;
      }
      if (!c.SameType(args[1], types[1], type, "the Result Type")) return;
      c.SameType(args[2], types[2], type, "the Result Type");
      return;
    }
    case Kind::kFloatToInt:
      if (!c.Result(type, Op::TypeInt, op == Op::ConvertFToU)) return;
      c.Operand(args[0], types[0], Op::TypeFloat, r.count, 0);
      return;
    case Kind::kIntToFloat:
      if (!c.Result(type, Op::TypeFloat)) return;
      c.Operand(args[0], types[0], Op::TypeInt, r.count, 0);
      return;
    case Kind::kUConvert:
    case Kind::kSConvert:
    case Kind::kFConvert: {
      const Op scalar = kind == Kind::kFConvert ? Op::TypeFloat : Op::TypeInt;
      if (!c.Result(type, scalar, kind == Kind::kUConvert)) return;
      if (!c.Operand(args[0], types[0], scalar, r.count, 0)) return;
      const Shape a = shapes[types[0]];
      // Between floats of one width, only a change of Floating Point Encoding converts.
      const auto component = [&](Id t) { return r.count == 1 ? t : state.ComponentType(t); };
      if (a.width == r.width &&
          ((!a.encoded && !r.encoded) || component(types[0]) == component(type))) {
        c.Fail("operand " + state.Name(args[0]) + " has the Result Type's width; a conversion " +
               "changes it" + (a.encoded ? " or the Floating Point Encoding" : ""));
      }
      return;
    }
    case Kind::kNone:
      return;
  }
}

// GLSL.std.450 instructions whose Result Type and operands are all float scalars or vectors of
// one type (kFloat), or integer scalars or vectors of one component count and width (kInt).
enum class GlslKind : uint8_t { kNone, kFloat, kInt };

GlslKind GlslKindOf(uint32_t number) {
  switch (number) {
    case 1:   // Round
    case 2:   // RoundEven
    case 3:   // Trunc
    case 4:   // FAbs
    case 6:   // FSign
    case 8:   // Floor
    case 9:   // Ceil
    case 10:  // Fract
    case 11:  // Radians
    case 12:  // Degrees
    case 13:
    case 14:
    case 15:
    case 16:
    case 17:
    case 18:  // Sin Cos Tan Asin Acos Atan
    case 19:
    case 20:
    case 21:
    case 22:
    case 23:
    case 24:  // Sinh ... Atanh
    case 25:  // Atan2
    case 26:  // Pow
    case 27:  // Exp
    case 28:  // Log
    case 29:  // Exp2
    case 30:  // Log2
    case 31:  // Sqrt
    case 32:  // InverseSqrt
    case 37:  // FMin
    case 40:  // FMax
    case 43:  // FClamp
    case 46:  // FMix
    case 48:  // Step
    case 49:  // SmoothStep
    case 50:  // Fma
    case 79:  // NMin
    case 80:  // NMax
    case 81:  // NClamp
      return GlslKind::kFloat;
    case 5:   // SAbs
    case 7:   // SSign
    case 38:  // UMin
    case 39:  // SMin
    case 41:  // UMax
    case 42:  // SMax
    case 44:  // UClamp
    case 45:  // SClamp
      return GlslKind::kInt;
    default:
      return GlslKind::kNone;
  }
}

void CheckGlsl(ValidationState& state, const Shapes& shapes, InstIndex i) {
  const ir::Module& m = state.module();
  const GlslKind kind = GlslKindOf(m.word(i, 4));
  const Id type = m.word(i, 1);
  // Cooperative vectors are coop-vector.ext-inst's; a cooperative matrix is no scalar or vector
  // here (no GLSL.std.450 instruction takes one).
  const auto coop_vector = [&](Id t) {
    return shapes[t].cooperative && !IsCoopMatrixType(state, t);
  };
  if (kind == GlslKind::kNone || !state.IsType(type) || coop_vector(type)) return;
  for (uint32_t w = 5; w < m.num_words(i); ++w) {
    const InstIndex d = m.Def(m.word(i, w));
    if (d == kNoInst || m.opcode(d) == Op::Function || m.type_id(d) == 0) return;  // id rules.
    if (coop_vector(m.type_id(d))) return;  // coop-vector.ext-inst.
  }
  Checker c(state, shapes, i, "glsl.operand");
  const Shape r = shapes[type];
  if (kind == GlslKind::kFloat) {
    if (!c.Result(type, Op::TypeFloat, false)) return;
    for (uint32_t w = 5; w < m.num_words(i); ++w) {
      const Id a = m.word(i, w);
      if (!c.SameType(a, state.TypeOf(a), type, "the Result Type")) return;
    }
    return;
  }
  if (!c.Result(type, Op::TypeInt, false)) return;
  for (uint32_t w = 5; w < m.num_words(i); ++w) {
    const Id a = m.word(i, w);
    if (!c.Operand(a, state.TypeOf(a), Op::TypeInt, r.count, r.width)) return;
  }
}

// VUID-StandaloneSpirv-OpConvertFToU-12465, -OpFConvert-12466, -OpFConvert-12467: in a Vulkan
// environment no conversion produces OCP microscaling values and only OpFConvert takes them, to
// an IEEE 754, E4M3, E5M2 or bfloat16 float (every float that is not one of them is an OCP
// microscaling type, so 12466 also enforces 12467). `op` is the conversion, `operand` its value.
void CheckVulkanMicroscaling(ValidationState& state, InstIndex i, Op op, Id type, Id operand) {
  const Kind kind = KindOf(op);
  if (kind != Kind::kFConvert && kind != Kind::kFloatToInt && kind != Kind::kIntToFloat) return;
  if (state.HoldsMicroscaling(type)) {
    state.Report("vulkan.microscaling-convert", i,
                 state.Describe(i) + ": Result Type " + state.Name(type) +
                     " is or holds an OCP microscaling type, which no " + state.OpName(op) +
                     " produces in a Vulkan environment");
    return;
  }
  const Id from = state.TypeOf(operand);
  if (kind != Kind::kFConvert && state.HoldsMicroscaling(from)) {
    state.Report("vulkan.microscaling-convert", i,
                 state.Describe(i) + ": operand " + state.Name(operand) + " has type " +
                     state.Name(from) + ", an OCP microscaling type, which " + state.OpName(op) +
                     " does not take in a Vulkan environment (OpFConvert does)");
  }
}

}  // namespace

bool ArithmeticVisits(const ValidationState& state, Op op) {
  return op == Op::SpecConstantOp || op == Op::ExtInst || KindOf(op) != Kind::kNone ||
         IsDotProduct(op);
}

void ValidateArithmetic(ValidationState& state) {
  const ir::Module& m = state.module();
  const Shapes shapes(m);
  // The id of the GLSL.std.450 import, if any.
  Id glsl = 0;
  for (InstIndex i = 0; i < m.global_end(); ++i) {
    if (m.opcode(i) == Op::ExtInstImport && m.num_words(i) > 2 &&
        binary::DecodeString(m.words().subspan(m.word_offset(i) + 2, m.num_words(i) - 2)) ==
            "GLSL.std.450") {
      glsl = m.result_id(i);
    }
  }
  const bool vulkan_microscaling = state.options().env.is_vulkan() && state.DeclaresMicroscaling();
  for (const InstIndex i : state.Walked(Walk::kArithmetic)) {
    if (state.Full()) break;
    const Op op = m.opcode(i);
    const uint32_t n = m.num_words(i);
    if (op == Op::SpecConstantOp) {
      if (n < 4) continue;
      const Op operation = static_cast<Op>(m.word(i, 3));
      if (vulkan_microscaling && n == 5) {
        CheckVulkanMicroscaling(state, i, operation, m.word(i, 1), m.word(i, 4));
      }
      // Operands that are not constants are constant.spec-op's to report.
      bool constants = true;
      for (uint32_t w = 4; w < n; ++w)
        constants = constants && state.IsConstantInstruction(m.word(i, w));
      if (!constants) continue;
      // OpSelect's and the others' operands follow the opcode word.
      Check(state, shapes, i, operation, KindOf(operation), m.word(i, 1),
            m.words().subspan(m.word_offset(i) + 4, n - 4));
    } else if (op == Op::ExtInst) {
      if (n >= 5 && glsl != 0 && m.word(i, 3) == glsl) CheckGlsl(state, shapes, i);
    } else if (const Kind kind = KindOf(op); n >= 3 && kind != Kind::kNone) {
      Check(state, shapes, i, op, kind, m.word(i, 1),
            m.words().subspan(m.word_offset(i) + 3, n - 3));
      if (vulkan_microscaling && n == 4) {
        CheckVulkanMicroscaling(state, i, op, m.word(i, 1), m.word(i, 3));
      }
    } else if (IsDotProduct(op)) {
      CheckDotProduct(state, i);
    }
  }
}

}  // namespace coopspv::val
