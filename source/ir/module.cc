#include "source/ir/module.h"

#include <algorithm>
#include <array>

#include "source/common/workspace.h"
#include "source/ir/analyses.h"

namespace coopspv::ir {

using spv::Op;

namespace {

constexpr bool TerminatorOp(Op op) {
  switch (op) {
    case Op::Branch:
    case Op::BranchConditional:
    case Op::Switch:
    case Op::Return:
    case Op::ReturnValue:
    case Op::Kill:
    case Op::Unreachable:
    case Op::TerminateInvocation:
    case Op::IgnoreIntersectionKHR:
    case Op::TerminateRayKHR:
    case Op::EmitMeshTasksEXT:
    case Op::AbortKHR:
      return true;
    default:
      return false;
  }
}

constexpr bool SpecConstantOp(Op op) {
  switch (op) {
    case Op::SpecConstantTrue:
    case Op::SpecConstantFalse:
    case Op::SpecConstant:
    case Op::SpecConstantComposite:
    case Op::SpecConstantOp:
    case Op::SpecConstantCompositeReplicateEXT:
      return true;
    default:
      return false;
  }
}

constexpr bool ConstantOp(Op op) {
  switch (op) {
    case Op::ConstantTrue:
    case Op::ConstantFalse:
    case Op::Constant:
    case Op::ConstantComposite:
    case Op::ConstantSampler:
    case Op::ConstantNull:
    case Op::ConstantCompositeReplicateEXT:
      return true;
    default:
      return SpecConstantOp(op);
  }
}

// Type declarations the grammar files under another class (vendor ones).
constexpr bool OtherTypeDeclaration(Op op) {
  return op == Op::TypeNodePayloadArrayAMDX || op == Op::TypeTaskSequenceALTERA;
}

constexpr Section ComputeSection(Op op, grammar::InstructionClass klass) {
  if (OtherTypeDeclaration(op)) return Section::kGlobal;
  switch (op) {
    case Op::Capability:
    case Op::ConditionalCapabilityINTEL:
      return Section::kCapability;
    case Op::Extension:
    case Op::ConditionalExtensionINTEL:
      return Section::kExtension;
    case Op::ExtInstImport:
      return Section::kExtInstImport;
    case Op::MemoryModel:
    // SPV_NV_bindless_texture: right after the memory model, before the entry points.
    case Op::SamplerImageAddressingModeNV:
      return Section::kMemoryModel;
    case Op::EntryPoint:
    case Op::ConditionalEntryPointINTEL:
      return Section::kEntryPoint;
    case Op::ExecutionMode:
    case Op::ExecutionModeId:
      return Section::kExecutionMode;
    case Op::String:
    case Op::Source:
    case Op::SourceContinued:
    case Op::SourceExtension:
      return Section::kDebugString;
    case Op::Name:
    case Op::MemberName:
      return Section::kDebugName;
    case Op::ModuleProcessed:
      return Section::kDebugModuleProcessed;
    case Op::Variable:
    case Op::UntypedVariableKHR:
    case Op::Undef:
    case Op::PoisonKHR:
    case Op::Line:
    case Op::NoLine:
    case Op::TypeForwardPointer:
    // Vendor constants the grammar files under another class.
    case Op::ConstantStringAMDX:
    case Op::SpecConstantStringAMDX:
    case Op::ConstantFunctionPointerINTEL:
    case Op::AsmTargetINTEL:
    case Op::AsmINTEL:
      return Section::kGlobal;
    case Op::AliasDomainDeclINTEL:
    case Op::AliasScopeDeclINTEL:
    case Op::AliasScopeListDeclINTEL:
      return Section::kAnnotation;
    default:
      break;
  }
  switch (klass) {
    case grammar::InstructionClass::kAnnotation:
      return Section::kAnnotation;
    case grammar::InstructionClass::kTypeDeclaration:
    case grammar::InstructionClass::kConstantCreation:
      return Section::kGlobal;
    default:
      return ConstantOp(op) ? Section::kGlobal : Section::kFunction;
  }
}

// The traits of every opcode, computed at compile time from the grammar's per-instruction facts:
// start-up neither builds nor clears anything.
constexpr auto kTraitsTable = [] {
  std::array<OpcodeTraits, grammar::kMaxOpcode + 1> table{};
  for (const grammar::OpcodeFact& fact : grammar::kOpcodeFacts) {
    const Op op = static_cast<Op>(fact.opcode);
    OpcodeTraits& t = table[fact.opcode];
    t.section = ComputeSection(op, fact.klass);
    t.is_terminator = TerminatorOp(op);
    t.is_type_declaration =
        (fact.klass == grammar::InstructionClass::kTypeDeclaration || OtherTypeDeclaration(op)) &&
        op != Op::TypeForwardPointer;
    t.is_constant = ConstantOp(op);
    t.is_spec_constant = SpecConstantOp(op);
    t.has_scope_or_semantics = fact.has_scope_or_semantics;
  }
  return table;
}();

}  // namespace

namespace internal {
const OpcodeTraits* const kOpcodeTraits = kTraitsTable.data();
}  // namespace internal

Module::~Module() = default;

std::unique_ptr<Module> Module::Read(std::span<const uint32_t> words, Diagnostic* diagnostic,
                                     const binary::ReaderOptions& options) {
  std::unique_ptr<Module> module(new Module());
  if (!binary::ParseModule(words, &module->parsed_, diagnostic, options)) return nullptr;
  module->Index();
  return module;
}

std::unique_ptr<Module> Module::ReadInPlace(std::span<const uint32_t> words, Diagnostic* diagnostic,
                                            const binary::ReaderOptions& options) {
  std::unique_ptr<Module> module(new Module());
  if (!binary::ParseModuleInPlace(words, &module->parsed_, diagnostic, options)) return nullptr;
  module->Index();
  return module;
}

void Module::Index() {
  const size_t n = parsed_.instructions.size();
  num_instructions_ = n;
  words_ = parsed_.data().data();
  bound_ = binary::IdLimit(parsed_);
  defs_.assign(bound(), kNoInst);
  global_end_ = static_cast<InstIndex>(n);
  // Every entry is written below: sizing the array does not clear it (BlockSlot).
  block_of_.resize(n);
  const binary::ParsedModule::Instruction* const records = parsed_.instructions.data();
  BlockSlot* const block_of = block_of_.data();
  // Leniently index functions and blocks: the validator reports what is out of place.
  uint32_t current_function = ~0u;
  uint32_t current_block = ~0u;
  // A block ends at its terminator, or where the next block, function or function end begins.
  const auto close_block = [&](InstIndex end) {
    if (current_block != ~0u) blocks_[current_block].end = end;
    current_block = ~0u;
  };
  for (InstIndex i = 0; i < n; ++i) {
    const auto& rec = records[i];
    if (rec.result_id != 0) {
      InstIndex& def = defs_[rec.result_id];
      if (def == kNoInst) {
        def = i;
      } else {
        duplicate_defs_.emplace_back(rec.result_id, i);
      }
    }
    const Op op = static_cast<Op>(rec.opcode);
    // OpFunction, OpFunctionParameter and OpFunctionEnd are 54, 55 and 56.
    static_assert(
        static_cast<uint32_t>(Op::FunctionParameter) == static_cast<uint32_t>(Op::Function) + 1 &&
        static_cast<uint32_t>(Op::FunctionEnd) == static_cast<uint32_t>(Op::Function) + 2);
    if (rec.opcode - static_cast<uint32_t>(Op::Function) < 3u || op == Op::Label) {
      switch (op) {
        case Op::Function:
          if (functions_.empty()) global_end_ = i;
          close_block(i);
          // A function missing its OpFunctionEnd still owns the blocks read before this one.
          if (current_function != ~0u) {
            Function& previous = functions_[current_function];
            previous.num_blocks = static_cast<uint32_t>(blocks_.size()) - previous.first_block;
          }
          current_function = static_cast<uint32_t>(functions_.size());
          functions_.push_back({i, kNoInst, static_cast<uint32_t>(blocks_.size()), 0, i + 1, 0});
          break;
        case Op::FunctionParameter:
          if (current_function != ~0u && current_block == ~0u) {
            Function& f = functions_[current_function];
            if (i != f.first_param + f.num_params) f.params_contiguous = false;
            ++f.num_params;
          }
          break;
        case Op::FunctionEnd:
          close_block(i);
          if (current_function != ~0u) {
            Function& f = functions_[current_function];
            f.end = i;
            f.num_blocks = static_cast<uint32_t>(blocks_.size()) - f.first_block;
          }
          current_function = ~0u;
          break;
        default:  // OpLabel.
          if (current_function != ~0u) {
            close_block(i);
            current_block = static_cast<uint32_t>(blocks_.size());
            blocks_.push_back({i, i + 1, current_function});
          }
          break;
      }
    }
    block_of[i].block = current_block;
    if (current_block != ~0u && IsTerminator(op)) close_block(i + 1);
  }
  close_block(static_cast<InstIndex>(n));
  // A function without OpFunctionEnd still owns the blocks read after it.
  if (current_function != ~0u) {
    Function& f = functions_[current_function];
    f.num_blocks = static_cast<uint32_t>(blocks_.size()) - f.first_block;
  }
}

uint32_t Module::BlockOfLabel(Id label) const {
  const InstIndex d = Def(label);
  if (d == kNoInst || opcode(d) != Op::Label) return ~0u;
  return block_of_[d].block;
}

uint32_t Module::FunctionOf(InstIndex i) const {
  // Functions are sorted by their OpFunction index.
  auto it = std::upper_bound(functions_.begin(), functions_.end(), i,
                             [](InstIndex x, const Function& f) { return x < f.def; });
  if (it == functions_.begin()) return ~0u;
  --it;
  if (it->end != kNoInst && i > it->end) return ~0u;
  return static_cast<uint32_t>(it - functions_.begin());
}

uint32_t Module::FunctionById(Id id) const {
  const InstIndex d = Def(id);
  if (d == kNoInst || opcode(d) != Op::Function) return ~0u;
  return FunctionOf(d);
}

const DefUse& Module::def_use() const {
  if (!def_use_) def_use_ = std::make_unique<DefUse>(*this);
  return *def_use_;
}

const Cfg& Module::cfg() const {
  if (!cfg_) cfg_ = std::make_unique<Cfg>(*this);
  return *cfg_;
}

const DominatorTree& Module::dominators() const {
  if (!dominators_) dominators_ = std::make_unique<DominatorTree>(*this, cfg(), false);
  return *dominators_;
}

const DominatorTree& Module::post_dominators() const {
  if (!post_dominators_) post_dominators_ = std::make_unique<DominatorTree>(*this, cfg(), true);
  return *post_dominators_;
}

const TypeTable& Module::types() const {
  if (!types_) types_ = std::make_unique<TypeTable>(*this);
  return *types_;
}

void Module::SetWord(InstIndex i, size_t n, uint32_t value) {
  if (parsed_.words.empty()) {  // Borrowed: take a copy before writing.
    parsed_.words.assign(parsed_.borrowed.begin(), parsed_.borrowed.end());
    parsed_.borrowed = {};
    words_ = parsed_.words.data();
  }
  parsed_.words[parsed_.instructions[i].offset + n] = value;
}

void Module::SetOpcode(InstIndex i, spv::Op op) {
  const uint32_t first = word(i, 0);
  SetWord(i, 0, (first & 0xFFFF0000u) | static_cast<uint32_t>(op));
  parsed_.instructions[i].opcode = static_cast<uint16_t>(op);
}

void Module::Invalidate(uint32_t preserved) const {
  if (!(preserved & kAnalysisDefUse)) def_use_.reset();
  if (!(preserved & kAnalysisCfg)) cfg_.reset();
  if (!(preserved & kAnalysisDominators) || !(preserved & kAnalysisCfg)) {
    dominators_.reset();
    post_dominators_.reset();
  }
  if (!(preserved & kAnalysisTypes)) types_.reset();
}

InstIndex Module::ParamByWalking(const Function& f, uint32_t p) const {
  for (InstIndex i = f.first_param;; ++i) {
    if (opcode(i) == Op::FunctionParameter && p-- == 0) return i;
  }
}

bool IsNonSemanticExtInst(const Module& m, InstIndex i) {
  if (m.opcode(i) != Op::ExtInst && m.opcode(i) != Op::ExtInstWithForwardRefsKHR) return false;
  const InstIndex set = m.Def(m.word(i, 3));
  if (set == kNoInst || m.opcode(set) != Op::ExtInstImport) return false;
  const std::string_view name = binary::DecodeString(m.inst(set).words.subspan(2));
  return name.substr(0, 12) == "NonSemantic.";
}

bool IsDebugInfoSet(int32_t set) {
  if (set < 0) return false;
  const std::string_view name = grammar::GetExtInstSet(set).name;
  return name == "DebugInfo" || name == "OpenCL.DebugInfo.100";
}

}  // namespace coopspv::ir
