// Id rules: each id defined once, every used id defined, each operand naming the kind of
// definition its instruction needs, and no forward references outside functions except where
// SPIR-V allows them.
#include <array>
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/state.h"

namespace coopspv::val {
namespace {

// What an id operand must name.
enum class Want : uint8_t {
  kAny,
  kType,
  kDataType,  // A type other than OpTypeFunction: a Result Type.
  kValue,
  kLabel,
  kFunction,
  kExtInstImport,
  kString,
  kGroup
};

const char* WantText(Want w) {
  switch (w) {
    case Want::kType:
      return "a type";
    case Want::kDataType:
      return "a type other than OpTypeFunction";
    case Want::kValue:
      return "a value (an instruction with a result type)";
    case Want::kLabel:
      return "an OpLabel";
    case Want::kFunction:
      return "an OpFunction";
    case Want::kExtInstImport:
      return "an OpExtInstImport";
    case Want::kString:
      return "an OpString";
    case Want::kGroup:
      return "an OpDecorationGroup";
    case Want::kAny:
      break;
  }
  return "anything";
}

bool Satisfies(const ir::Module& m, InstIndex def, Want want) {
  const Op op = m.opcode(def);
  switch (want) {
    case Want::kAny:
      return true;
    case Want::kType:
      return ir::IsTypeDeclaration(op);
    case Want::kDataType:
      return ir::IsTypeDeclaration(op) && op != Op::TypeFunction;
    case Want::kValue:
      return m.type_id(def) != 0 && op != Op::Function;
    case Want::kLabel:
      return op == Op::Label;
    case Want::kFunction:
      return op == Op::Function;
    case Want::kExtInstImport:
      return op == Op::ExtInstImport;
    case Want::kString:
      return op == Op::String;
    case Want::kGroup:
      return op == Op::DecorationGroup;
  }
  return true;
}

// The opcodes whose operands OperandWants treats specially (its switch below): for every
// other opcode the defaults from the operand kinds apply, computed without building the list.
// The id rule tests fail if an opcode with a case below is missing here.
constexpr Op kSpecialWantOps[] = {
    Op::MemberName,
    Op::MemberDecorate,
    Op::MemberDecorateString,
    Op::GroupDecorate,
    Op::GroupMemberDecorate,
    Op::Line,
    Op::Source,
    Op::ExecutionModeId,
    Op::DecorateId,
    Op::TypeArray,
    Op::TypeCooperativeMatrixKHR,
    Op::TypeCooperativeMatrixNV,
    Op::TypeVectorIdEXT,
    Op::TypeTensorLayoutNV,
    Op::TypeTensorViewNV,
    Op::TypeTensorARM,
    Op::TypeForwardPointer,
    Op::Branch,
    Op::BranchConditional,
    Op::Switch,
    Op::SelectionMerge,
    Op::LoopMerge,
    Op::Phi,
    Op::Function,
    Op::FunctionCall,
    Op::ExtInst,
    Op::CooperativeMatrixLengthKHR,
    Op::CooperativeMatrixLengthNV,
    Op::SpecConstantOp,
    Op::CooperativeMatrixPerElementOpEXT,
    Op::CooperativeMatrixReduceEXT,
    Op::CooperativeMatrixLoadTensorNV,
    Op::CooperativeMatrixStoreTensorNV,
    Op::EnqueueKernel,
    Op::GetKernelNDrangeSubGroupCount,
    Op::GetKernelNDrangeMaxSubGroupSize,
    Op::GetKernelWorkGroupSize,
    Op::GetKernelPreferredWorkGroupSizeMultiple,
    Op::GetKernelLocalSizeForSubgroupCount,
    Op::GetKernelMaxNumSubgroups,
};

constexpr auto kHasSpecialWants = [] {
  std::array<bool, grammar::kMaxOpcode + 1> t{};
  for (Op o : kSpecialWantOps) t[static_cast<uint32_t>(o)] = true;
  return t;
}();

bool HasSpecialWants(Op op) {
  const auto v = static_cast<uint32_t>(op);
  return v < kHasSpecialWants.size() && kHasSpecialWants[v];
}

// What an id operand other than Result Type and Result must name when its instruction (of
// `section`, a type declaration or not) has no special case.
Want IdOperandWant(ir::Section section, bool is_type) {
  if (section < ir::Section::kGlobal) return Want::kAny;  // Debug, annotation, entry points.
  return is_type ? Want::kType : Want::kValue;
}

// What an operand of this kind must name when its instruction has no special case.
Want DefaultWant(grammar::OperandKind kind, ir::Section section, bool is_type) {
  if (kind == grammar::OperandKind::kIdResultType) return Want::kDataType;
  if (kind == grammar::OperandKind::kIdResult || !grammar::IsIdKind(kind)) return Want::kAny;
  return IdOperandWant(section, is_type);
}

// Fills `wants` with what each parsed operand of the instruction (its record, operands and
// words) must name (kAny for non-id operands and for operands other rules check with better
// messages).
[[gnu::noinline]] void OperandWants(const binary::ParsedModule::Instruction& rec,
                                    const binary::ParsedOperand* operands,
                                    const uint32_t* inst_words, ws::vector<Want>* wants) {
  const Op op = static_cast<Op>(rec.opcode);
  const size_t n = rec.operand_count;
  wants->resize(n);
  // Defaults from the operand kinds and the instruction's section.
  const ir::Section section = ir::SectionOf(op);
  const bool is_type = ir::IsTypeDeclaration(op);
  for (size_t k = 0; k < n; ++k) {
    (*wants)[k] = DefaultWant(operands[k].kind, section, is_type);
  }
  auto set = [&](size_t k, Want w) {
    if (k < n) (*wants)[k] = w;
  };
  auto set_from = [&](size_t k, Want w) {
    for (; k < n; ++k) (*wants)[k] = w;
  };
  switch (op) {
    // Section-level instructions with specific targets.
    case Op::MemberName:
    case Op::MemberDecorate:
    case Op::MemberDecorateString:
      set(0, Want::kType);
      break;
    case Op::GroupDecorate:
    case Op::GroupMemberDecorate:
      set(0, Want::kGroup);
      break;
    case Op::Line:
      set(0, Want::kString);
      break;
    case Op::Source:
      for (size_t k = 0; k < n; ++k) {
        if (grammar::IsIdKind(operands[k].kind)) set(k, Want::kString);
      }
      break;
    case Op::ExecutionModeId:
      set_from(2, Want::kValue);
      break;
    case Op::DecorateId:
      set_from(2, Want::kValue);
      break;
    // Types whose operands include values (constants).
    case Op::TypeArray:
      set(2, Want::kValue);
      break;
    case Op::TypeCooperativeMatrixKHR:
      set_from(2, Want::kValue);
      break;
    case Op::TypeCooperativeMatrixNV:
      set_from(2, Want::kValue);
      break;
    case Op::TypeVectorIdEXT:
      set(2, Want::kValue);
      break;
    case Op::TypeTensorLayoutNV:
    case Op::TypeTensorViewNV:
      set_from(1, Want::kValue);
      break;
    case Op::TypeTensorARM:
      set_from(2, Want::kValue);
      break;
    case Op::TypeForwardPointer:
      set(0, Want::kAny);  // Declared here, defined later by OpTypePointer.
      break;
    // Control flow.
    case Op::Branch:
      set(0, Want::kLabel);
      break;
    case Op::BranchConditional:
      set(1, Want::kLabel);
      set(2, Want::kLabel);
      break;
    case Op::Switch:
      for (size_t k = 1; k < n; ++k) {
        if (operands[k].kind == grammar::OperandKind::kIdRef) set(k, Want::kLabel);
      }
      break;
    case Op::SelectionMerge:
      set(0, Want::kLabel);
      break;
    case Op::LoopMerge:
      set(0, Want::kLabel);
      set(1, Want::kLabel);
      break;
    case Op::Phi:
      for (size_t k = 3; k < n; k += 2) set(k, Want::kLabel);
      break;
    // Functions.
    case Op::Function:
      set(3, Want::kType);
      break;
    case Op::FunctionCall:
      set(2, Want::kFunction);
      break;
    case Op::ExtInst:
      set(2, Want::kExtInstImport);
      // Unknown and non-semantic sets (debug info names strings, types, ...): anything goes.
      if (rec.ext_inst_set < 0 ||
          std::string_view(grammar::GetExtInstSet(rec.ext_inst_set).name).substr(0, 12) ==
              "NonSemantic.") {
        set_from(4, Want::kAny);
      }
      break;
    // Instructions of the cooperative family that take types or functions.
    case Op::CooperativeMatrixLengthKHR:
    case Op::CooperativeMatrixLengthNV:
      set(2, Want::kType);
      break;
    case Op::SpecConstantOp: {
      const Op operation = static_cast<Op>(rec.num_words > 3 ? inst_words[3] : 0);
      if (operation == Op::CooperativeMatrixLengthKHR ||
          operation == Op::CooperativeMatrixLengthNV) {
        set(3, Want::kType);
      }
      break;
    }
    case Op::CooperativeMatrixPerElementOpEXT:
      set(3, Want::kFunction);
      break;
    case Op::CooperativeMatrixReduceEXT:
      set(4, Want::kFunction);
      break;
    case Op::CooperativeMatrixLoadTensorNV:
    case Op::CooperativeMatrixStoreTensorNV: {
      // TensorAddressingOperands parameters follow the mask in bit order: TensorView is a
      // value, DecodeFunc and DecodeVectorFunc are functions.
      for (size_t k = 0; k < n; ++k) {
        if (operands[k].kind != grammar::OperandKind::kTensorAddressingOperands) continue;
        const uint32_t mask = inst_words[operands[k].offset];
        size_t p = k + 1;
        if (mask & 1) set(p++, Want::kValue);
        if (mask & 2) set(p++, Want::kFunction);
        if (mask & 4) set(p++, Want::kFunction);
      }
      break;
    }
    case Op::EnqueueKernel:
    case Op::GetKernelNDrangeSubGroupCount:
    case Op::GetKernelNDrangeMaxSubGroupSize:
    case Op::GetKernelWorkGroupSize:
    case Op::GetKernelPreferredWorkGroupSizeMultiple:
    case Op::GetKernelLocalSizeForSubgroupCount:
    case Op::GetKernelMaxNumSubgroups:
      set_from(2, Want::kAny);
      break;
    default:
      break;
  }
}

ws::string OperandLabel(const ir::Inst& inst, size_t k) {
  const grammar::OperandInfo* info = nullptr;
  const auto ops = grammar::Operands(*inst.info);
  if (k < ops.size() && ops[k].kind == inst.operands[k].kind) info = &ops[k];
  if (info && info->name[0]) return ws::string("'") + info->name + "'";
  return ws::to_string(k + 1);
}

// The reports of the id loop, out of line so that the loop keeps its state in registers.
[[gnu::cold, gnu::noinline]] bool ReportUndefined(ValidationState& state, InstIndex i, size_t k,
                                                  Id id) {
  return state.Report("id.undefined", i,
                      state.Describe(i) + ": operand " + OperandLabel(state.module().inst(i), k) +
                          " " + state.Name(id) + " is not defined");
}

[[gnu::cold, gnu::noinline]] bool ReportForward(ValidationState& state, InstIndex i, size_t k,
                                                Id id) {
  return state.Report("id.forward-reference", i,
                      state.Describe(i) + ": operand " + OperandLabel(state.module().inst(i), k) +
                          " " + state.Name(id) + " is used before its definition");
}

[[gnu::cold, gnu::noinline]] bool ReportKind(ValidationState& state, InstIndex i, size_t k, Id id,
                                             Want want, InstIndex def) {
  return state.Report("id.kind", i,
                      state.Describe(i) + ": operand " + OperandLabel(state.module().inst(i), k) +
                          " " + state.Name(id) + " must be " + WantText(want) + ", not " +
                          state.Describe(def));
}

[[gnu::cold, gnu::noinline]] bool ReportDuplicates(ValidationState& state) {
  for (const auto& [id, inst] : state.module().duplicate_defs()) {
    if (!state.Report("id.duplicate", inst,
                      state.Describe(inst) + " defines " + state.Name(id) +
                          ", which an earlier instruction already defines")) {
      return false;
    }
  }
  return true;
}

}  // namespace

void ValidateIds(ValidationState& state) {
  const ir::Module& m = state.module();
  if (!m.duplicate_defs().empty() && !ReportDuplicates(state)) return;
  // Pointer types declared ahead by OpTypeForwardPointer may be named before their definition.
  ws::vector<bool> forward_pointer(m.bound(), false);
  ws::vector<Want> wants;
  bool in_function = false;
  // The parsed records are read directly: this loop visits every operand of the module.
  const binary::ParsedModule& parsed = m.parsed();
  const binary::ParsedModule::Instruction* const records = parsed.instructions.data();
  const binary::ParsedOperand* const all_operands = parsed.operands.data();
  const uint32_t* const words = m.words().data();
  const InstIndex num_instructions = static_cast<InstIndex>(m.num_instructions());
  // No test of state.Full() per instruction: only this loop's reports can fill the list, and it
  // returns when one does.
  for (InstIndex i = 0; i < num_instructions; ++i) {
    const binary::ParsedModule::Instruction& rec = records[i];
    const Op op = static_cast<Op>(rec.opcode);
    if (op == Op::Function) in_function = true;
    const ir::OpcodeTraits& traits = ir::TraitsOf(op);
    const ir::Section section = traits.section;
    const bool global = section >= ir::Section::kGlobal && !in_function;
    if (op == Op::FunctionEnd) in_function = false;
    const bool check_forward = global && op != Op::ExtInst && op != Op::Line;
    const uint32_t* const inst_words = words + rec.offset;
    if (op == Op::TypeForwardPointer) forward_pointer[inst_words[1]] = true;
    const bool special = HasSpecialWants(op);
    // What the id operands other than the Result Type must name, once per instruction.
    const Want id_want = IdOperandWant(section, traits.is_type_declaration);
    const binary::ParsedOperand* const operands = all_operands + rec.operand_begin;
    if (special) OperandWants(rec, operands, inst_words, &wants);
    const uint32_t num_operands = rec.operand_count;
    for (uint32_t k = 0; k < num_operands; ++k) {
      const binary::ParsedOperand& operand = operands[k];
      const grammar::OperandKind kind = operand.kind;
      if (!grammar::IsIdKind(kind) || kind == grammar::OperandKind::kIdResult) continue;
      const Id id = inst_words[operand.offset];
      const InstIndex def = m.Def(id);
      if (def == kNoInst) {
        if (!ReportUndefined(state, i, k, id)) return;
        continue;
      }
      if (check_forward && def >= i && !(op == Op::TypeForwardPointer && k == 0) &&
          !forward_pointer[id]) {
        if (!ReportForward(state, i, k, id)) return;
        continue;
      }
      const Want want = special                                       ? wants[k]
                        : kind == grammar::OperandKind::kIdResultType ? Want::kDataType
                                                                      : id_want;
      if (want == Want::kAny) continue;
      // The common wants first, from the definition's record.
      const binary::ParsedModule::Instruction& def_rec = records[def];
      const Op def_op = static_cast<Op>(def_rec.opcode);
      bool ok;
      if (want == Want::kValue) {
        ok = def_rec.type_id != 0 && def_op != Op::Function;
      } else if (want == Want::kDataType) {
        ok = ir::IsTypeDeclaration(def_op) && def_op != Op::TypeFunction;
      } else {
        ok = Satisfies(m, def, want);
      }
      if (!ok) {
        if (!ReportKind(state, i, k, id, want, def)) return;
      }
    }
  }
}

}  // namespace coopspv::val
