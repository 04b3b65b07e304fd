// SPV_EXT_ocp_microscaling_types, 2.16.11 Universal Validation Rules: values of the OCP
// microscaling types (FP4 E2M1, FP6 E2M3 / E3M2, E8M0, MXINT8, and what holds them) only go
// through instructions that create constants, move or convert values, or make composites; none
// computes on them. The types themselves and their storage classes are types.cc's
// (type.float, type.float.storage), the conversions' Vulkan rules arithmetic.cc's, and
// OpBitcastExtractEXT vector_matrix.cc's.
#include <string>

#include "source/common/workspace.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

using grammar::InstructionClass;

// "must only be used with the following instructions": the instruction classes and the
// instructions the extension lists.
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

// `what` names the value: "Result Type %t" or "operand %x (type %t)".
[[gnu::cold, gnu::noinline]] void ReportUse(ValidationState& state, InstIndex i,
                                            const ws::string& what) {
  state.Report("microscaling.use", i,
               state.Describe(i) + ": " + what +
                   " is or holds an OCP microscaling type, whose values only constant-creation, "
                   "memory, function, conversion, composite, annotation, debug, miscellaneous, "
                   "extension and mode-setting instructions, OpSelect, OpPhi, OpReturnValue and "
                   "OpLifetimeStart / Stop may use");
}

}  // namespace

bool MicroscalingVisits(const ValidationState& state, Op op) {
  return state.DeclaresMicroscaling() && !MayUseMicroscaling(op);
}

void ValidateMicroscaling(ValidationState& state) {
  const ir::Module& m = state.module();
  // The walk holds the instructions that may not use these values, only where the module
  // declares a capability of the types.
  for (const InstIndex i : state.Walked(Walk::kMicroscaling)) {
    if (state.Full()) break;
    const ir::Inst inst = m.inst(i);
    const Id result_type = m.type_id(i);
    if (state.HoldsMicroscaling(result_type)) {
      ReportUse(state, i, "Result Type " + state.Name(result_type));
      continue;
    }
    const size_t first = (result_type != 0 ? 1 : 0) + (m.result_id(i) != 0 ? 1 : 0);
    for (size_t k = first; k < inst.operands.size(); ++k) {
      if (!grammar::IsIdKind(inst.operands[k].kind)) continue;
      const Id id = inst.words[inst.operands[k].offset];
      const Id type = m.TypeOf(id);
      if (state.HoldsMicroscaling(type)) {
        ReportUse(state, i, "operand " + state.Name(id) + " (type " + state.Name(type) + ")");
        break;
      }
    }
  }
}

}  // namespace coopspv::val
