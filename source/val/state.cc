#include "source/val/state.h"

#include <algorithm>
#include <bit>

#include "source/common/workspace.h"
#include "source/text/disassembler.h"

namespace coopspv::val {

ValidationState::ValidationState(const ir::Module& module, const Options& options, Result* result)
    : module_(module), options_(options), result_(result) {
  for (const std::string& id : options.suppressed_rules) suppressed_.insert(id);
  for (const std::string& id : options.warnings_as_errors) {
    if (id == "*") {
      all_warnings_as_errors_ = true;
    } else {
      warnings_as_errors_.insert(id);
    }
  }
  CollectCapabilities();
}

namespace {

// The walks (bit w for Walk w) that visit instructions of `op`.
uint32_t WalksOf(const ValidationState& state, Op op) {
  bool (*const visits[kNumWalks])(const ValidationState&, Op) = {
      MemoryVisits,     CompositesVisits, VectorMatrixVisits, ControlFlowVisits,
      VulkanVisits,     ScopesVisits,     GroupsVisits,       AccessChainsVisits,
      ArithmeticVisits, CoopMatrixVisits, CoopVectorVisits,   TensorVisits,
  };
  uint32_t mask = 0;
  for (size_t w = 0; w < kNumWalks; ++w) {
    if (visits[w](state, op)) mask |= 1u << w;
  }
  return mask;
}

}  // namespace

// Files the first n instructions under their walks, in module order: walk w's are
// walked[walk_begin[w], walk_begin[w + 1]). `Count` counts the instructions of one opcode and then
// holds its walks: 16 bits when n allows, so that the table by opcode (zeroed on every run) is
// half as large.
template <typename Count>
void File(const ValidationState& state,
          std::span<const binary::ParsedModule::Instruction> instructions,
          ws::vector<InstIndex>* walked, uint32_t* walk_begin) {
  static_assert(kNumWalks < 16);
  const InstIndex n = static_cast<InstIndex>(instructions.size());
  // How many instructions of each opcode there are, so that the walks of an opcode are worked
  // out once, on the opcodes the module uses (few).
  ws::vector<Count> count_of(grammar::kMaxOpcode + 1, 0);
  ws::vector<uint16_t> used;
  uint32_t count[kNumWalks] = {};
  for (InstIndex i = 0; i < n; ++i) {
    const uint32_t op = instructions[i].opcode;
    if (op > grammar::kMaxOpcode) {
      for (uint32_t mask = WalksOf(state, static_cast<Op>(op)); mask != 0; mask &= mask - 1) {
        ++count[std::countr_zero(mask)];
      }
    } else if (count_of[op]++ == 0) {
      used.push_back(static_cast<uint16_t>(op));
    }
  }
  // The walks of each used opcode (reusing count_of: the counts are summed first).
  for (const uint16_t op : used) {
    const uint32_t mask = WalksOf(state, static_cast<Op>(op));
    for (uint32_t m = mask; m != 0; m &= m - 1) count[std::countr_zero(m)] += count_of[op];
    count_of[op] = static_cast<Count>(mask);
  }
  for (size_t w = 0; w < kNumWalks; ++w) walk_begin[w + 1] = walk_begin[w] + count[w];
  // File the instructions, in module order.
  walked->resize(walk_begin[kNumWalks]);
  uint32_t next[kNumWalks];
  std::copy(walk_begin, walk_begin + kNumWalks, next);
  for (InstIndex i = 0; i < n; ++i) {
    const uint32_t op = instructions[i].opcode;
    uint32_t mask = op > grammar::kMaxOpcode ? WalksOf(state, static_cast<Op>(op)) : count_of[op];
    for (; mask != 0; mask &= mask - 1) (*walked)[next[std::countr_zero(mask)]++] = i;
  }
}

void ValidationState::FileWalks() {
  walks_ready_ = true;
  const std::span<const binary::ParsedModule::Instruction> instructions(
      module_.parsed().instructions.data(), module_.num_instructions());
  if (instructions.size() <= 0xFFFF) {
    File<uint16_t>(*this, instructions, &walked_, walk_begin_);
  } else {
    File<uint32_t>(*this, instructions, &walked_, walk_begin_);
  }
}

std::span<const InstIndex> ValidationState::Walked(Walk w, InstIndex begin) {
  if (!walks_ready_) FileWalks();
  const size_t k = static_cast<size_t>(w);
  const InstIndex* const first = walked_.data() + walk_begin_[k];
  const InstIndex* const last = walked_.data() + walk_begin_[k + 1];
  return std::span<const InstIndex>(begin == 0 ? first : std::lower_bound(first, last, begin),
                                    last);
}

void ValidationState::CollectCapabilities() {
  const auto all = grammar::Enumerants(grammar::OperandKind::kCapability);
  const uint32_t size = all.empty() ? 1 : all.back().value + 1;
  capabilities_.assign(size, false);
  ws::vector<uint32_t> worklist;
  for (InstIndex i = 0; i < module_.global_end(); ++i) {
    const Op op = module_.opcode(i);
    if (op == Op::Capability) {
      worklist.push_back(module_.word(i, 1));
    } else if (op == Op::Extension) {
      const ir::Inst inst = module_.inst(i);
      extensions_.emplace_back(binary::DecodeString(inst.words.subspan(1)));
    } else if (op == Op::MemoryModel && !has_memory_model_) {
      has_memory_model_ = true;
      addressing_model_ = static_cast<spv::AddressingModel>(module_.word(i, 1));
      memory_model_ = static_cast<spv::MemoryModel>(module_.word(i, 2));
    }
  }
  std::sort(extensions_.begin(), extensions_.end());  // For HasExtension's binary search.
  // Implicitly declared capabilities: those each declared capability depends on.
  while (!worklist.empty()) {
    const uint32_t c = worklist.back();
    worklist.pop_back();
    if (c >= capabilities_.size() || capabilities_[c]) continue;
    capabilities_[c] = true;
    if (const grammar::EnumerantInfo* e =
            grammar::LookupEnumerant(grammar::OperandKind::kCapability, c)) {
      for (uint32_t implied : grammar::Capabilities(*e)) worklist.push_back(implied);
    }
  }
}

bool ValidationState::HasExtension(std::string_view name) const {
  const auto it = std::lower_bound(extensions_.begin(), extensions_.end(), name,
                                   [](const ws::string& e, std::string_view n) { return e < n; });
  return it != extensions_.end() && *it == name;
}

bool ValidationState::Report(const char* rule_id, InstIndex inst, ws::string message) {
  if (full_) return false;
  const Rule* rule = FindRule(rule_id);
  if (rule == nullptr) std::abort();  // A rule id missing from the registry is a coding error.
  if (suppressed_.count(rule->id)) return true;
  Diagnostic d;
  d.rule = rule;
  d.severity = rule->severity;
  if (d.severity == Severity::kWarning &&
      (all_warnings_as_errors_ || warnings_as_errors_.count(rule->id))) {
    d.severity = Severity::kError;
  }
  d.message = std::move(message);
  if (inst != kNoInst) {
    d.has_instruction = true;
    d.word_offset = module_.word_offset(inst);
    d.result_id = module_.result_id(inst);
    d.opcode = static_cast<uint32_t>(module_.opcode(inst));
    d.instruction_text = text::InstructionText(module_.inst(inst), Names());
  }
  if (d.severity == Severity::kError) {
    ++result_->num_errors;
    result_->valid = false;
  } else {
    ++result_->num_warnings;
  }
  result_->diagnostics.push_back(std::move(d));
  if (options_.max_errors != 0 && result_->num_errors >= options_.max_errors) {
    full_ = true;
    result_->truncated = true;
    return false;
  }
  return true;
}

text::LazyFriendlyNames& ValidationState::Names() {
  if (!names_) names_.emplace(module_.parsed());
  return *names_;
}

ws::string ValidationState::Name(Id id) {
  const ws::string& name = Names().Get(id);
  return "%" + (!name.empty() ? name : ws::to_string(id));
}

ws::string ValidationState::OpName(Op op) {
  const grammar::InstructionInfo* info = grammar::LookupOpcode(static_cast<uint32_t>(op));
  return info ? info->name : "Op<" + ws::to_string(static_cast<uint32_t>(op)) + ">";
}

ws::string ValidationState::Describe(InstIndex inst) {
  const Id result = module_.result_id(inst);
  ws::string out = result ? Name(result) + " = " : "";
  return out + OpName(module_.opcode(inst));
}

uint32_t ValidationState::ScalarWidth(Id type) const {
  return IsIntType(type) || IsFloatType(type) ? DefWord(type, 2) : 0;
}

std::optional<spv::StorageClass> ValidationState::PointerStorageClass(Id type) const {
  if (!IsPointerType(type)) return std::nullopt;
  return static_cast<spv::StorageClass>(DefWord(type, 2));
}

Id ValidationState::PointeeType(Id type) const {
  return IsPointerType(type) ? DefWord(type, 3) : 0;
}

Id ValidationState::ComponentType(Id type) const {
  switch (DefOp(type)) {
    case Op::TypeVector:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
    case Op::TypeVectorIdEXT:
    case Op::TypeCooperativeMatrixKHR:
    case Op::TypeCooperativeMatrixNV:
      return DefWord(type, 2);
    default:
      return 0;
  }
}

std::optional<int64_t> ValidationState::IntConstant(Id id) const {
  if (DefOp(id) != Op::Constant) return std::nullopt;
  const Id type = TypeOf(id);
  if (!IsIntType(type)) return std::nullopt;
  const uint32_t width = DefWord(type, 2);
  const InstIndex d = module_.Def(id);
  uint64_t bits = module_.word(d, 3);
  if (width > 32 && module_.num_words(d) > 4)
    bits |= static_cast<uint64_t>(module_.word(d, 4)) << 32;
  if (width == 0 || width > 64) return std::nullopt;
  if (IsSignedInt(type)) {
    const int shift = 64 - static_cast<int>(width);
    return static_cast<int64_t>(bits << shift) >> shift;
  }
  if (width < 64) bits &= (1ull << width) - 1;
  return static_cast<int64_t>(bits);
}

std::optional<int64_t> ValidationState::IntConstantOrSpecDefault(Id id) const {
  if (DefOp(id) == Op::SpecConstant) {
    const Id type = TypeOf(id);
    if (!IsIntType(type)) return std::nullopt;
    const InstIndex d = module_.Def(id);
    int64_t v = module_.word(d, 3);
    if (IsSignedInt(type) && DefWord(type, 2) <= 32) v = static_cast<int32_t>(v);
    return v;
  }
  return IntConstant(id);
}

}  // namespace coopspv::val
