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

// A type other than OpTypeFunction: what a Result Type must name.
bool IsDataType(Op op) { return ir::IsTypeDeclaration(op) && op != Op::TypeFunction; }

bool Satisfies(const ir::Module& m, InstIndex def, Want want) {
  const Op op = m.opcode(def);
  switch (want) {
    case Want::kAny:
      return true;
    case Want::kType:
      return ir::IsTypeDeclaration(op);
    case Want::kDataType:
      return IsDataType(op);
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

// The opcodes whose operands SpecialWant treats specially (its switch below): for every
// other opcode the defaults from the operand kinds apply.
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
    Op::UntypedVariableKHR,
    Op::UntypedAccessChainKHR,
    Op::UntypedInBoundsAccessChainKHR,
    Op::UntypedPtrAccessChainKHR,
    Op::UntypedInBoundsPtrAccessChainKHR,
    Op::UntypedPrefetchKHR,
    Op::UntypedArrayLengthKHR,
    Op::UntypedImageTexelPointerEXT,
    Op::UntypedVariableLengthArrayINTEL,
    Op::AbortKHR,
    Op::ConstantSizeOfEXT,
    Op::AsmINTEL,
    Op::IsNodePayloadValidAMDX,
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
    Op::ExtInstWithForwardRefsKHR,
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

// Whether an OpExtInst of this set index takes anything after its instruction number: unknown,
// non-semantic and debug-info sets (debug info names strings, types, ...).
bool ExtInstTakesAnything(int32_t set) {
  return set < 0 ||
         std::string_view(grammar::GetExtInstSet(set).name).substr(0, 12) == "NonSemantic." ||
         ir::IsDebugInfoSet(set);
}

// What id operand k (neither Result Type nor Result) of an instruction with special wants must
// name (kAny for operands other rules check with better messages); `other` is what it names
// when no case applies.
[[gnu::noinline]] Want SpecialWant(const binary::ParsedModule::Instruction& rec,
                                   const binary::ParsedOperand* operands,
                                   const uint32_t* inst_words, uint32_t k, Want other) {
  const grammar::OperandKind kind = operands[k].kind;
  switch (static_cast<Op>(rec.opcode)) {
    case Op::MemberName:
    case Op::MemberDecorate:
    case Op::MemberDecorateString:
      return k == 0 ? Want::kType : other;
    case Op::GroupDecorate:
    case Op::GroupMemberDecorate:
      return k == 0 ? Want::kGroup : other;
    case Op::Line:
      return k == 0 ? Want::kString : other;
    case Op::Source:
      return Want::kString;  // Only id operands come here.
    // Operands that name a type outside type declarations.
    case Op::UntypedVariableKHR:  // Data Type.
      return k == 3 ? Want::kType : other;
    case Op::UntypedAccessChainKHR:  // Base Type.
    case Op::UntypedInBoundsAccessChainKHR:
    case Op::UntypedPtrAccessChainKHR:
    case Op::UntypedInBoundsPtrAccessChainKHR:
    case Op::UntypedArrayLengthKHR:  // Structure.
    case Op::UntypedImageTexelPointerEXT:  // ImageType.
    case Op::UntypedVariableLengthArrayINTEL:  // Element Type.
    case Op::ConstantSizeOfEXT:  // Type.
    case Op::AsmINTEL:  // Asm type.
    case Op::IsNodePayloadValidAMDX:  // Payload Type.
      return k == 2 ? Want::kType : other;
    case Op::UntypedPrefetchKHR:  // Pointer Type.
    case Op::AbortKHR:  // Message Type.
      return k == 0 ? Want::kType : other;
    case Op::ExecutionModeId:
      // FPFastMathDefault's Target Type (SPV_KHR_float_controls2).
      if (k == 2 && rec.num_words > 2 &&
          inst_words[2] == static_cast<uint32_t>(spv::ExecutionMode::FPFastMathDefault)) {
        return Want::kType;
      }
      return k >= 2 ? Want::kValue : other;
    case Op::DecorateId:
      // SPV_AMDX_shader_enqueue's NodeSharesPayloadLimitsWithAMDX names a payload type.
      if (k == 2 && rec.num_words > 2 &&
          inst_words[2] ==
              static_cast<uint32_t>(spv::Decoration::NodeSharesPayloadLimitsWithAMDX)) {
        return Want::kType;
      }
      return k >= 2 ? Want::kValue : other;
    case Op::TypeCooperativeMatrixKHR:
    case Op::TypeCooperativeMatrixNV:
    case Op::TypeTensorARM:
      return k >= 2 ? Want::kValue : other;
    case Op::TypeArray:
    case Op::TypeVectorIdEXT:
      return k == 2 ? Want::kValue : other;
    case Op::TypeTensorLayoutNV:
    case Op::TypeTensorViewNV:
      return k >= 1 ? Want::kValue : other;
    case Op::TypeForwardPointer:
      return k == 0 ? Want::kAny : other;
    case Op::Branch:
    case Op::SelectionMerge:
      return k == 0 ? Want::kLabel : other;
    case Op::BranchConditional:
      return k == 1 || k == 2 ? Want::kLabel : other;
    case Op::Switch:
      return k >= 1 && kind == grammar::OperandKind::kIdRef ? Want::kLabel : other;
    case Op::LoopMerge:
      return k <= 1 ? Want::kLabel : other;
    case Op::Phi:
      return k >= 3 && k % 2 == 1 ? Want::kLabel : other;
    case Op::Function:
      return k == 3 ? Want::kType : other;
    case Op::FunctionCall:
      return k == 2 ? Want::kFunction : other;
    case Op::ExtInst:
    case Op::ExtInstWithForwardRefsKHR:
      if (k == 2) return Want::kExtInstImport;
      return k >= 4 && ExtInstTakesAnything(rec.ext_inst_set) ? Want::kAny : other;
    case Op::CooperativeMatrixLengthKHR:
    case Op::CooperativeMatrixLengthNV:
      return k == 2 ? Want::kType : other;
    case Op::SpecConstantOp: {
      if (k != 3 || rec.num_words <= 3) return other;
      const Op operation = static_cast<Op>(inst_words[3]);
      return operation == Op::CooperativeMatrixLengthKHR ||
                     operation == Op::CooperativeMatrixLengthNV
                 ? Want::kType
                 : other;
    }
    case Op::CooperativeMatrixPerElementOpEXT:
      return k == 3 ? Want::kFunction : other;
    case Op::CooperativeMatrixReduceEXT:
      return k == 4 ? Want::kFunction : other;
    case Op::CooperativeMatrixLoadTensorNV:
    case Op::CooperativeMatrixStoreTensorNV: {
      // TensorAddressingOperands parameters follow the mask in bit order: TensorView is a
      // value, DecodeFunc and DecodeVectorFunc are functions.
      Want want = other;
      for (uint32_t j = 0; j < k; ++j) {
        if (operands[j].kind != grammar::OperandKind::kTensorAddressingOperands) continue;
        const uint32_t mask = inst_words[operands[j].offset];
        uint32_t p = j + 1;
        if ((mask & 1) && p++ == k) want = Want::kValue;
        if ((mask & 2) && p++ == k) want = Want::kFunction;
        if ((mask & 4) && p++ == k) want = Want::kFunction;
      }
      return want;
    }
    case Op::EnqueueKernel:
    case Op::GetKernelNDrangeSubGroupCount:
    case Op::GetKernelNDrangeMaxSubGroupSize:
    case Op::GetKernelWorkGroupSize:
    case Op::GetKernelPreferredWorkGroupSizeMultiple:
    case Op::GetKernelLocalSizeForSubgroupCount:
    case Op::GetKernelMaxNumSubgroups:
      return k >= 2 ? Want::kAny : other;
    default:
      return other;
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

// SPV_KHR_relaxed_extended_instruction: OpExtInstWithForwardRefsKHR is the one extended
// instruction that may name later definitions; it is for non-semantic sets, and only where it
// does name one.
[[gnu::cold, gnu::noinline]] bool CheckExtInstWithForwardRefs(ValidationState& state, InstIndex i) {
  const ir::Module& m = state.module();
  const InstIndex set = m.num_words(i) > 3 ? m.Def(m.word(i, 3)) : kNoInst;
  if (set == kNoInst || m.opcode(set) != Op::ExtInstImport) return true;  // id.kind's.
  const std::string_view name = binary::DecodeString(m.inst(set).words.subspan(2));
  if (name.substr(0, 12) != "NonSemantic.") {
    return state.Report("id.ext-inst-forward-refs", i,
                        state.Describe(i) + ": the set " + state.Name(m.word(i, 3)) + " (\"" +
                            std::string(name) +
                            "\") is not a non-semantic extended instruction set");
  }
  for (uint32_t w = 5; w < m.num_words(i); ++w) {
    const InstIndex def = m.Def(m.word(i, w));
    if (def != kNoInst && def >= i) return true;
  }
  return state.Report("id.ext-inst-forward-refs", i,
                      state.Describe(i) +
                          " names no id defined after it: without a forward reference it must be "
                          "OpExtInst");
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
  Id good_type = 0;  // The last Result Type found good, and its definition.
  InstIndex good_type_def = 0;
  // The parsed records are read directly: this loop visits every operand of the module.
  const binary::ParsedModule& parsed = m.parsed();
  const binary::ParsedModule::Instruction* const records = parsed.instructions.data();
  const binary::ParsedOperand* const all_operands = parsed.operands.data();
  const uint32_t* const words = m.words().data();
  const InstIndex num_instructions = static_cast<InstIndex>(m.num_instructions());
  // Per opcode, worked out on its first instruction (0: not seen yet): what its id operands
  // other than the Result Type must name, and flags.
  constexpr uint8_t kWantMask = 0x0f, kSpecial = 0x10, kForwardRule = 0x20, kMarker = 0x40,
                    kKnown = 0x80;
  ws::vector<uint8_t> opcode_facts(grammar::kMaxOpcode + 1, 0);
  uint8_t forward_rule = kForwardRule;  // 0 inside a function.
  auto facts_of = [](Op op) -> uint8_t {
    const ir::OpcodeTraits& traits = ir::TraitsOf(op);
    uint8_t f =
        kKnown | static_cast<uint8_t>(IdOperandWant(traits.section, traits.is_type_declaration));
    if (HasSpecialWants(op)) f |= kSpecial;
    // Outside functions, module-level instructions may not name later definitions; only
    // OpExtInstWithForwardRefsKHR may (SPV_KHR_relaxed_extended_instruction).
    if (traits.section >= ir::Section::kGlobal && op != Op::ExtInstWithForwardRefsKHR &&
        op != Op::Line) {
      f |= kForwardRule;
    }
    if (op == Op::Function || op == Op::FunctionEnd || op == Op::TypeForwardPointer) f |= kMarker;
    return f;
  };
  // No test of state.Full() per instruction: only this loop's reports can fill the list, and it
  // returns when one does.
  for (InstIndex i = 0; i < num_instructions; ++i) {
    const binary::ParsedModule::Instruction& rec = records[i];
    const Op op = static_cast<Op>(rec.opcode);
    uint8_t unlisted = 0;
    uint8_t& facts = rec.opcode <= grammar::kMaxOpcode ? opcode_facts[rec.opcode] : unlisted;
    if (facts == 0) facts = facts_of(op);
    const uint8_t f = facts;
    if (f & kMarker) {
      if (op == Op::Function) forward_rule = 0;
      if (op == Op::FunctionEnd) forward_rule = kForwardRule;
      if (op == Op::TypeForwardPointer) forward_pointer[words[rec.offset + 1]] = true;
    }
    // The DebugInfo sets' instructions are debug instructions, which may name later ids (a
    // DebugFunction its OpFunction); the non-semantic sets need OpExtInstWithForwardRefsKHR.
    const bool check_forward =
        (f & forward_rule) && !(op == Op::ExtInst && ir::IsDebugInfoSet(rec.ext_inst_set));
    // Checks operand k, naming `id`, against what it must name.
    auto check = [&](uint32_t k, Id id, Want want) __attribute__((always_inline)) {
      const InstIndex def = m.Def(id);
      if (def == kNoInst) return ReportUndefined(state, i, k, id);
      if (check_forward && def >= i && !(op == Op::TypeForwardPointer && k == 0) &&
          !forward_pointer[id]) {
        return ReportForward(state, i, k, id);
      }
      if (want == Want::kAny) return true;
      // The common wants first, from the definition's record.
      const binary::ParsedModule::Instruction& def_rec = records[def];
      const Op def_op = static_cast<Op>(def_rec.opcode);
      bool ok;
      if (want == Want::kValue) {
        // SPV_AMDX_shader_enqueue's string constants have no Result Type.
        ok = (def_rec.type_id != 0 && def_op != Op::Function) ||
             def_op == Op::ConstantStringAMDX || def_op == Op::SpecConstantStringAMDX;
      } else if (want == Want::kDataType) {
        ok = IsDataType(def_op);
      } else {
        ok = Satisfies(m, def, want);
      }
      return ok || ReportKind(state, i, k, id, want, def);
    };
    // The Result Type and the Result come first when present (the reader keeps them in the
    // record): the Result Type must name a data type, the Result needs no check here.
    // Neighbours often share their Result Type: one found good is not looked at again unless a
    // forward reference could now be involved.
    uint32_t k = 0;
    if (rec.type_id != 0) {
      if (rec.type_id != good_type || (check_forward && good_type_def >= i)) {
        if (!check(0, rec.type_id, Want::kDataType)) return;
        const InstIndex def = m.Def(rec.type_id);
        if (def != kNoInst && IsDataType(static_cast<Op>(records[def].opcode))) {
          good_type = rec.type_id;
          good_type_def = def;
        }
      }
      k = 1;
    }
    if (rec.result_id != 0) ++k;
    const uint32_t num_operands = rec.operand_count;
    if (k >= num_operands) continue;
    // What the other id operands must name, once per instruction.
    const Want id_want = static_cast<Want>(f & kWantMask);
    const bool special = f & kSpecial;
    const binary::ParsedOperand* const operands = all_operands + rec.operand_begin;
    const uint32_t* const inst_words = words + rec.offset;
    if (special) {
      if (op == Op::ExtInstWithForwardRefsKHR && !CheckExtInstWithForwardRefs(state, i)) return;
      for (; k < num_operands; ++k) {
        const binary::ParsedOperand& operand = operands[k];
        if (!grammar::IsIdKind(operand.kind)) continue;
        const Want want = SpecialWant(rec, operands, inst_words, k, id_want);
        if (!check(k, inst_words[operand.offset], want)) return;
      }
      continue;
    }
    for (; k < num_operands; ++k) {
      const binary::ParsedOperand& operand = operands[k];
      if (grammar::IsIdKind(operand.kind) && !check(k, inst_words[operand.offset], id_want)) {
        return;
      }
    }
  }
}

}  // namespace coopspv::val
