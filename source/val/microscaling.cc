// SPV_EXT_ocp_microscaling_types, SPV_KHR_bfloat16, SPV_EXT_float8, 2.16.1 Universal Validation
// Rules: values of the OCP microscaling types (FP4 E2M1, FP6 E2M3 / E3M2, E8M0, MXINT8), of
// bfloat16 and of the float8 types (E4M3, E5M2), and what holds them (cooperative matrices
// included), only go through instructions that create constants, move or convert values, or make
// composites; of the computing ones only OpDot and the cooperative matrix multiply-add take
// bfloat16 values, the multiply-add float8 ones; SPV_VALVE_mixed_float_dot_product's dot products
// take bfloat16 (OpFDot2MixAcc*) or float8 (OpFDot4MixAcc32VALVE) vectors. The types themselves and
// their storage classes are types.cc's (type.float, type.float.storage), the conversions' Vulkan
// rules arithmetic.cc's, and OpBitcastExtractEXT vector_matrix.cc's. SPV_KHR_16bit_storage,
// SPV_KHR_8bit_storage: likewise values of 8- and 16-bit types that a Shader module declares
// through a storage capability alone (without Int8, Int16 or Float16) only go through loads,
// stores, OpCopyObject and width-only conversions.
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

// Whether `op`, an instruction of a function, may use values of 8- and 16-bit types that only a
// storage capability declares: the storage extensions allow loads, stores, OpCopyObject and
// width-only conversions; what holds no value of such a type (variables, copies through
// pointers, OpArrayLength, OpUndef, the function's structure, line information) is let through.
// Non-semantic OpExtInst is let through by the caller.
bool MayUseStorageOnlyWidth(Op op) {
  switch (op) {
    case Op::Load:
    case Op::Store:
    case Op::CopyObject:
    case Op::FConvert:
    case Op::SConvert:
    case Op::UConvert:
    case Op::Variable:
    case Op::CopyMemory:
    case Op::CopyMemorySized:
    case Op::ArrayLength:
    case Op::Undef:
    case Op::Nop:
    case Op::Function:
    case Op::FunctionParameter:
    case Op::FunctionEnd:
    case Op::Label:
    case Op::Line:
    case Op::NoLine:
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
    // SPV_VALVE_mixed_float_dot_product: bfloat16 inputs (and accumulator), float8 inputs.
    case Op::FDot2MixAcc32VALVE:
    case Op::FDot2MixAcc16VALVE:
      return all & ~ValidationState::kBFloat16;
    case Op::FDot4MixAcc32VALVE:
      return all & ~ValidationState::kFloat8;
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
  if (encodings == ValidationState::kStorageOnlyWidth) {
    state.Report("small-type.use", i,
                 state.Describe(i) + ": " + what +
                     " is or holds an 8- or 16-bit type that only a storage capability declares "
                     "(no Int8, Int16 or Float16), whose values only OpStore, OpCopyObject and "
                     "width-only conversions (OpFConvert, OpSConvert, OpUConvert) may use");
    return;
  }
  if (encodings & ValidationState::kMicroscalingFloat) {
    rule = "microscaling.use", type = "an OCP microscaling type", also = "";
  } else if (encodings & ValidationState::kBFloat16) {
    rule = "bfloat16.use", type = "a bfloat16 float (BFloat16KHR)";
    also =
        ", OpDot, OpCooperativeMatrixMulAddKHR, OpCooperativeMatrixLengthKHR, "
        "OpFDot2MixAcc32VALVE, OpFDot2MixAcc16VALVE";
  } else {
    rule = "float8.use", type = "a float8 float (Float8E4M3EXT, Float8E5M2EXT)";
    also = ", OpCooperativeMatrixMulAddKHR, OpFDot4MixAcc32VALVE";
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

namespace {

// small-type.use, apart from the walk, in one pass over the functions. Values of these types are
// few (loads and conversions): each is marked where it is defined, and the operands of the
// instructions that may not use them are looked up in the marks. In a function a value is used
// after its definition (blocks follow their dominators), except in OpPhi, judged by its Result
// Type, which is its values' type; instructions before the first marked value are passed by.
void CheckStorageOnlyWidths(ValidationState& state) {
  const ir::Module& m = state.module();
  const binary::ParsedModule::Instruction* const records = m.parsed().instructions.data();
  ws::vector<uint8_t> marked(m.bound(), 0);
  // Plain pointers: the marks' byte stores would otherwise reload every vector's bounds.
  const uint8_t* const encodings = state.FloatEncodingsById().data();
  const size_t num_types = state.FloatEncodingsById().size();
  uint8_t* const marks = marked.data();
  const size_t bound = marked.size();
  const auto holds = [=](Id type) {
    return type < num_types && (encodings[type] & ValidationState::kStorageOnlyWidth) != 0;
  };
  const auto mark = [=](InstIndex i) {
    const binary::ParsedModule::Instruction& rec = records[i];
    if (rec.type_id == 0 || !holds(rec.type_id) || rec.result_id >= bound) return false;
    marks[rec.result_id] = 1;
    return true;
  };
  const auto allowed = [&](InstIndex i) {
    const Op op = static_cast<Op>(records[i].opcode);
    return MayUseStorageOnlyWidth(op) || (op == Op::ExtInst && IsNonSemanticExtInst(m, i));
  };
  bool any = false;  // Whether a value is marked yet: before that no instruction is looked at.
  for (InstIndex i = 0; i < m.global_end(); ++i) any = mark(i) || any;
  const uint32_t* const words = m.words().data();
  for (const ir::Function& fn : m.functions()) {
    if (fn.end == kNoInst) continue;
    for (InstIndex i = fn.def; i < fn.end; ++i) {
      const binary::ParsedModule::Instruction& rec = records[i];
      if (mark(i)) {
        any = true;
        if (!allowed(i)) {
          ReportUse(state, i, "Result Type " + state.Name(rec.type_id),
                    ValidationState::kStorageOnlyWidth);
          if (state.Full()) return;
        }
        continue;
      }
      if (!any || MayUseStorageOnlyWidth(static_cast<Op>(rec.opcode))) continue;
      // The raw words first (a literal may look like a marked id); the operands only where one
      // might be.
      const uint32_t* const w = words + rec.offset;
      bool suspect = false;
      for (uint32_t k = 1; k < rec.num_words && !suspect; ++k) {
        suspect = w[k] < bound && marks[w[k]];
      }
      if (!suspect || allowed(i)) continue;
      const ir::Inst inst = m.inst(i);
      const size_t first = (rec.type_id != 0 ? 1 : 0) + (rec.result_id != 0 ? 1 : 0);
      for (size_t k = first; k < inst.operands.size(); ++k) {
        if (!grammar::IsIdKind(inst.operands[k].kind)) continue;
        const Id id = inst.words[inst.operands[k].offset];
        if (id < bound && marks[id]) {
          ReportUse(state, i,
                    "operand " + state.Name(id) + " (type " + state.Name(m.TypeOf(id)) + ")",
                    ValidationState::kStorageOnlyWidth);
          if (state.Full()) return;
          break;
        }
      }
    }
  }
}

}  // namespace

void ValidateMicroscaling(ValidationState& state) {
  const ir::Module& m = state.module();
  if (state.DeclaresStorageOnlyWidths()) CheckStorageOnlyWidths(state);
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
