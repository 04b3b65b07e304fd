// Dot products beyond OpDot: the integer dot products of SPV_KHR_integer_dot_product (core in
// SPIR-V 1.6: OpSDot, OpUDot, OpSUDot and their AccSat forms) and the mixed-precision float dot
// products of SPV_VALVE_mixed_float_dot_product (OpFDot2MixAcc32VALVE, OpFDot2MixAcc16VALVE,
// OpFDot4MixAcc32VALVE): the types of Result Type, Vector 1, Vector 2 and Accumulator, and the
// capability each kind of input needs. ValidateArithmetic dispatches here.
#include <string>

#include "source/common/workspace.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

using spv::Capability;

// What the instruction's operand types are, read once.
struct DotOperands {
  Id result_type = 0;
  Id vector1 = 0, vector2 = 0;  // The operand ids.
  Id type1 = 0, type2 = 0;      // Their types.
  Id accumulator = 0;           // 0 when the instruction has none.
  bool packed_format = false;   // Packed Vector Format present.
};

class DotRules {
 public:
  DotRules(ValidationState& state, InstIndex i) : state_(state), i_(i) {}

  void Integer(Op op, const DotOperands& d);
  void MixedFloat(Op op, const DotOperands& d);

 private:
  void Fail(const char* rule, const ws::string& what) {
    state_.Report(rule, i_, state_.Describe(i_) + ": " + what);
  }
  ws::string Operand(const char* name, Id id, Id type) {
    return ws::string(name) + " " + state_.Name(id) + " (type " + state_.Name(type) + ")";
  }
  bool Accumulator(const char* rule, const DotOperands& d) {
    if (d.accumulator == 0) return true;
    const Id type = state_.TypeOf(d.accumulator);
    if (type == d.result_type) return true;
    Fail(rule, "Accumulator " + state_.Name(d.accumulator) + " has type " + state_.Name(type) +
                   "; it must have the Result Type " + state_.Name(d.result_type));
    return false;
  }

  ValidationState& state_;
  InstIndex i_;
};

// SPV_KHR_integer_dot_product; SPIR-V 3.42.13 (OpSDot ...).
void DotRules::Integer(Op op, const DotOperands& d) {
  constexpr const char* kOperand = "dot.integer.operand";
  const bool unsigned_dot = op == Op::UDot || op == Op::UDotAccSat;
  const bool mixed = op == Op::SUDot || op == Op::SUDotAccSat;
  const Id r = d.result_type;
  if (!state_.IsIntType(r) || (unsigned_dot && state_.IsSignedInt(r))) {
    Fail(kOperand, "Result Type " + state_.Name(r) + " must be an integer scalar" +
                       (unsigned_dot ? " whose Signedness is 0" : ""));
    return;
  }
  if (!Accumulator(kOperand, d)) return;
  const uint32_t result_width = state_.ScalarWidth(r);
  const bool scalar1 = state_.IsIntType(d.type1), scalar2 = state_.IsIntType(d.type2);
  if (scalar1 || scalar2) {
    // Packed: two 32-bit integers, each four 8-bit components.
    if (!scalar1 || !scalar2 || !state_.IsInt32(d.type1) || !state_.IsInt32(d.type2)) {
      Fail(kOperand, Operand("Vector 1", d.vector1, d.type1) + " and " +
                         Operand("Vector 2", d.vector2, d.type2) +
                         " must both be 32-bit integers (packed) or both integer vectors");
      return;
    }
    if (!d.packed_format) {
      Fail(kOperand,
           "Vector 1 and Vector 2 are 32-bit integer scalars; the Packed Vector Format that "
           "says how they pack a vector must be given");
      return;
    }
    if (result_width < 8) {
      Fail(kOperand, "Result Type " + state_.Name(r) +
                         " must be at least as wide as the packed components (8 bits)");
      return;
    }
    if (!state_.HasCapability(Capability::DotProductInput4x8BitPacked)) {
      Fail("dot.integer.capability",
           "32-bit integer inputs packing four 8-bit components need the "
           "DotProductInput4x8BitPacked capability");
    }
    return;
  }
  const Id c1 = state_.IsVectorType(d.type1) ? state_.ComponentType(d.type1) : 0;
  const Id c2 = state_.IsVectorType(d.type2) ? state_.ComponentType(d.type2) : 0;
  if (!state_.IsIntType(c1) || !state_.IsIntType(c2)) {
    Fail(kOperand, Operand(state_.IsIntType(c1) ? "Vector 2" : "Vector 1",
                           state_.IsIntType(c1) ? d.vector2 : d.vector1,
                           state_.IsIntType(c1) ? d.type2 : d.type1) +
                       " must be an integer vector or a 32-bit integer");
    return;
  }
  const std::optional<uint32_t> n1 = state_.VectorCount(d.type1);
  const std::optional<uint32_t> n2 = state_.VectorCount(d.type2);
  const uint32_t width = state_.ScalarWidth(c1);
  if ((n1 && n2 && *n1 != *n2) || width != state_.ScalarWidth(c2)) {
    Fail(kOperand, Operand("Vector 1", d.vector1, d.type1) + " and " +
                       Operand("Vector 2", d.vector2, d.type2) +
                       " must have the same component count and component width");
    return;
  }
  if ((unsigned_dot && state_.IsSignedInt(c1)) ||
      ((unsigned_dot || mixed) && state_.IsSignedInt(c2))) {
    const bool first = unsigned_dot && state_.IsSignedInt(c1);
    Fail(kOperand, Operand(first ? "Vector 1" : "Vector 2", first ? d.vector1 : d.vector2,
                           first ? d.type1 : d.type2) +
                       " must have integer components whose Signedness is 0");
    return;
  }
  if (result_width < width) {
    Fail(kOperand, "Result Type " + state_.Name(r) + " (" + ws::to_string(result_width) +
                       " bits) must be at least as wide as the vectors' components (" +
                       ws::to_string(width) + " bits)");
    return;
  }
  // DotProductInputAll enables vectors of any integer type, DotProductInput4x8Bit those of four
  // 8-bit components.
  if (!state_.HasCapability(Capability::DotProductInputAll) &&
      !(n1 && *n1 == 4 && width == 8 && state_.HasCapability(Capability::DotProductInput4x8Bit))) {
    Fail("dot.integer.capability",
         "integer vector inputs need the DotProductInputAll capability (or, for vectors of four "
         "8-bit components, DotProductInput4x8Bit)");
  }
}

// SPV_VALVE_mixed_float_dot_product.
void DotRules::MixedFloat(Op op, const DotOperands& d) {
  constexpr const char* kOperand = "dot.mixed-float.operand";
  const bool four = op == Op::FDot4MixAcc32VALVE;
  const bool acc16 = op == Op::FDot2MixAcc16VALVE;
  const uint32_t count = four ? 4 : 2;
  const uint32_t input_width = four ? 8 : 16;
  const Id c1 = state_.IsVectorType(d.type1) ? state_.ComponentType(d.type1) : 0;
  const Id c2 = state_.IsVectorType(d.type2) ? state_.ComponentType(d.type2) : 0;
  const std::optional<uint32_t> n1 = state_.VectorCount(d.type1);
  const std::optional<uint32_t> n2 = state_.VectorCount(d.type2);
  const auto input_ok = [&](Id c, const std::optional<uint32_t>& n) {
    return state_.IsFloatType(c) && state_.ScalarWidth(c) == input_width && (!n || *n == count);
  };
  if (!input_ok(c1, n1) || !input_ok(c2, n2)) {
    const bool first = !input_ok(c1, n1);
    Fail(kOperand, Operand(first ? "Vector 1" : "Vector 2", first ? d.vector1 : d.vector2,
                           first ? d.type1 : d.type2) +
                       " must be a vector of " + ws::to_string(count) + " " +
                       ws::to_string(input_width) + "-bit floats");
    return;
  }
  // A float's encoding: its OpTypeFloat's third operand, 0 for IEEE 754.
  const auto encoding = [&](Id c) {
    return state_.module().num_words(state_.module().Def(c)) > 3 ? state_.DefWord(c, 3) + 1 : 0;
  };
  const uint32_t e1 = encoding(c1);
  if (four) {
    const auto float8 = [&](uint32_t e) {
      return e == static_cast<uint32_t>(spv::FPEncoding::Float8E4M3EXT) + 1 ||
             e == static_cast<uint32_t>(spv::FPEncoding::Float8E5M2EXT) + 1;
    };
    if (!float8(e1) || !float8(encoding(c2))) {
      const bool first = !float8(e1);
      Fail(kOperand, Operand(first ? "Vector 1" : "Vector 2", first ? d.vector1 : d.vector2,
                             first ? d.type1 : d.type2) +
                         " must have Float8E4M3EXT or Float8E5M2EXT float components");
      return;
    }
  }
  if (!four && (d.type1 != d.type2 || e1 != encoding(c2))) {
    Fail(kOperand, Operand("Vector 1", d.vector1, d.type1) + " and " +
                       Operand("Vector 2", d.vector2, d.type2) + " must have the same type");
    return;
  }
  const bool bfloat16 = e1 == static_cast<uint32_t>(spv::FPEncoding::BFloat16KHR) + 1;
  if (!four && e1 != 0 && !bfloat16) {
    Fail(kOperand, Operand("Vector 1", d.vector1, d.type1) +
                       " must have IEEE 754 or BFloat16KHR float components");
    return;
  }
  // OpFDot2MixAcc16VALVE accumulates in the inputs' component type; the others in a 32-bit
  // IEEE 754 float.
  const Id r = d.result_type;
  const bool result_ok =
      acc16 ? r == c1 || (state_.IsFloatType(r) && state_.ScalarWidth(r) == 16 && encoding(r) == e1)
            : state_.IsFloatType(r) && state_.ScalarWidth(r) == 32 && encoding(r) == 0;
  if (!result_ok) {
    Fail(kOperand, "Result Type " + state_.Name(r) + " must be " +
                       (acc16 ? "a float scalar of the vectors' component type"
                              : "a 32-bit IEEE 754 float scalar"));
    return;
  }
  if (!Accumulator(kOperand, d)) return;
  if (four) return;  // Its one capability is the instruction's (capability.instruction).
  const Capability needed = bfloat16 ? Capability::DotProductBFloat16AccVALVE
                            : acc16  ? Capability::DotProductFloat16AccFloat16VALVE
                                     : Capability::DotProductFloat16AccFloat32VALVE;
  if (!state_.HasCapability(needed)) {
    Fail("dot.mixed-float.capability", ws::string(bfloat16 ? "bfloat16" : "IEEE 754 16-bit") +
                                           " inputs need the " +
                                           (bfloat16 ? "DotProductBFloat16AccVALVE"
                                            : acc16  ? "DotProductFloat16AccFloat16VALVE"
                                                     : "DotProductFloat16AccFloat32VALVE") +
                                           " capability");
  }
}

}  // namespace

void CheckDotProduct(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const Op op = m.opcode(i);
  const uint32_t n = m.num_words(i);
  const bool integer =
      op != Op::FDot2MixAcc32VALVE && op != Op::FDot2MixAcc16VALVE && op != Op::FDot4MixAcc32VALVE;
  const bool accumulates =
      !integer || op == Op::SDotAccSat || op == Op::UDotAccSat || op == Op::SUDotAccSat;
  if (n < (accumulates ? 6u : 5u)) return;  // binary.malformed.
  DotOperands d;
  d.result_type = m.word(i, 1);
  d.vector1 = m.word(i, 3);
  d.vector2 = m.word(i, 4);
  d.type1 = state.TypeOf(d.vector1);
  d.type2 = state.TypeOf(d.vector2);
  if (accumulates) d.accumulator = m.word(i, 5);
  d.packed_format = n > (accumulates ? 6u : 5u);
  DotRules rules(state, i);
  if (integer) {
    rules.Integer(op, d);
  } else {
    rules.MixedFloat(op, d);
  }
}

}  // namespace coopspv::val
