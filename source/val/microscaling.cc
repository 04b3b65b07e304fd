// SPV_EXT_ocp_microscaling_types, SPV_KHR_bfloat16, SPV_EXT_float8, 2.16.1 Universal Validation
// Rules: values of the OCP microscaling types (FP4 E2M1, FP6 E2M3 / E3M2, E8M0, MXINT8), of
// bfloat16 and of the float8 types (E4M3, E5M2), and what holds them (cooperative matrices
// included), only go through instructions that create constants, move or convert values, or make
// composites; of the computing ones only OpDot and the cooperative matrix multiply-add take
// bfloat16 values, the multiply-add float8 ones. The types themselves and their storage classes are
// types.cc's (type.float, type.float.storage), the conversions' Vulkan rules arithmetic.cc's, and
// OpBitcastExtractEXT vector_matrix.cc's.
#include <string>

#include "source/common/workspace.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

using grammar::InstructionClass;

// "must only be used with the following instructions": the instruction classes and the
// instructions the three extensions list (ForbiddenEncodings: those of one or two of them).
bool MayUseMicroscaling(Op op) {
  switch (op) {
    case Op::Select:
    case Op::Phi:
    case Op::ReturnValue:
    case Op::LifetimeStart:
    case Op::LifetimeStop:
      return true;
    default:
      break;
  }
  const grammar::InstructionInfo* info = grammar::LookupOpcode(static_cast<uint32_t>(op));
  if (info == nullptr) return true;  // Unknown opcodes are the reader's.
  switch (info->klass) {
    case InstructionClass::kConstantCreation:
    case InstructionClass::kMemory:
    case InstructionClass::kFunction:
    case InstructionClass::kConversion:
    case InstructionClass::kComposite:
    case InstructionClass::kAnnotation:
    case InstructionClass::kDebug:
    case InstructionClass::kMiscellaneous:
    case InstructionClass::kExtension:
    case InstructionClass::kModeSetting:
    case InstructionClass::kTypeDeclaration:  // Types are no values.
      return true;
    default:
      return false;
  }
}

// The encodings (ValidationState::FloatEncodings bits) whose values `op`, one of the
// instructions the walk visits, may not use.
uint8_t ForbiddenEncodings(Op op) {
  constexpr uint8_t all =
      ValidationState::kMicroscalingFloat | ValidationState::kBFloat16 | ValidationState::kFloat8;
  switch (op) {
    case Op::Dot:
      return all & ~ValidationState::kBFloat16;
    case Op::CooperativeMatrixMulAddKHR:
      return ValidationState::kMicroscalingFloat;
    default:
      return all;
  }
}

// `what` names the value: "Result Type %t" or "operand %x (type %t)"; `encodings` what it holds
// that the instruction may not use.
[[gnu::cold, gnu::noinline]] void ReportUse(ValidationState& state, InstIndex i,
                                            const ws::string& what, uint8_t encodings) {
  const char* rule;
  const char* type;
  const char* also;
  if (encodings & ValidationState::kMicroscalingFloat) {
    rule = "microscaling.use", type = "an OCP microscaling type", also = "";
  } else if (encodings & ValidationState::kBFloat16) {
    rule = "bfloat16.use", type = "a bfloat16 float (BFloat16KHR)";
    also = ", OpDot, OpCooperativeMatrixMulAddKHR, OpCooperativeMatrixLengthKHR";
  } else {
    rule = "float8.use", type = "a float8 float (Float8E4M3EXT, Float8E5M2EXT)";
    also = ", OpCooperativeMatrixMulAddKHR";
  }
  state.Report(rule, i,
               state.Describe(i) + ": " + what + " is or holds " + type +
                   ", whose values only constant-creation, memory, function, conversion, "
                   "composite, annotation, debug, miscellaneous, extension and mode-setting "
                   "instructions, OpSelect, OpPhi, OpReturnValue, OpLifetimeStart / Stop" +
                   also + " may use");
}

}  // namespace

bool MicroscalingVisits(const ValidationState& state, Op op) {
  return state.DeclaresEncodedFloats() && !MayUseMicroscaling(op);
}

void ValidateMicroscaling(ValidationState& state) {
  const ir::Module& m = state.module();
  // The walk holds the instructions that may not use some of these values, only where the
  // module declares a capability of the types.
  for (const InstIndex i : state.Walked(Walk::kMicroscaling)) {
    if (state.Full()) break;
    const uint8_t forbidden = ForbiddenEncodings(m.opcode(i));
    const Id result_type = m.type_id(i);
    if (const uint8_t held = state.FloatEncodings(result_type) & forbidden) {
      ReportUse(state, i, "Result Type " + state.Name(result_type), held);
      continue;
    }
    // Most instructions hold no such operand: look at the raw words first, and read the
    // operands (which words are ids) only where one might be.
    const size_t first = (result_type != 0 ? 1 : 0) + (m.result_id(i) != 0 ? 1 : 0);
    bool suspect = false;
    for (uint32_t w = 1 + static_cast<uint32_t>(first); w < m.num_words(i) && !suspect; ++w) {
      suspect = state.FloatEncodings(m.TypeOf(m.word(i, w))) & forbidden;
    }
    if (!suspect) continue;
    const ir::Inst inst = m.inst(i);
    for (size_t k = first; k < inst.operands.size(); ++k) {
      if (!grammar::IsIdKind(inst.operands[k].kind)) continue;
      const Id id = inst.words[inst.operands[k].offset];
      const Id type = m.TypeOf(id);
      if (const uint8_t held = state.FloatEncodings(type) & forbidden) {
        ReportUse(state, i, "operand " + state.Name(id) + " (type " + state.Name(type) + ")", held);
        break;
      }
    }
  }
}

}  // namespace coopspv::val
