#include "source/val/state.h"

#include <algorithm>
#include <bit>
#include <type_traits>

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
  // Direct calls, in the order of enum Walk.
  static_assert(kNumWalks == 16);
  const auto bit = [](bool visits, Walk w) { return uint32_t{visits} << static_cast<uint32_t>(w); };
  return bit(MemoryVisits(state, op), Walk::kMemory) |
         bit(CompositesVisits(state, op), Walk::kComposites) |
         bit(VectorMatrixVisits(state, op), Walk::kVectorMatrix) |
         bit(ControlFlowVisits(state, op), Walk::kControlFlow) |
         bit(VulkanVisits(state, op), Walk::kVulkan) | bit(ScopesVisits(state, op), Walk::kScopes) |
         bit(GroupsVisits(state, op), Walk::kGroups) |
         bit(AccessChainsVisits(state, op), Walk::kAccessChains) |
         bit(ArithmeticVisits(state, op), Walk::kArithmetic) |
         bit(CoopMatrixVisits(state, op), Walk::kCoopMatrix) |
         bit(CoopVectorVisits(state, op), Walk::kCoopVector) |
         bit(TensorVisits(state, op), Walk::kTensor) |
         bit(CoopMatrix2Visits(state, op), Walk::kCoopMatrix2) |
         bit(FunctionsVisits(state, op), Walk::kFunctions) |
         bit(StructureVisits(state, op), Walk::kStructure) |
         bit(MicroscalingVisits(state, op), Walk::kMicroscaling);
}

// The walks of the opcodes a module uses, each worked out on its first instruction: directly
// indexed below kLow (the core opcodes), hashed above (extension opcodes, few per module).
class WalkMasks {
 public:
  explicit WalkMasks(const ValidationState& state) : state_(state) {}

  uint32_t Of(uint32_t op) {
    if (op < kLow) {
      if (low_[op] == 0)
        low_[op] = static_cast<Mask>(WalksOf(state_, static_cast<Op>(op)) | kKnown);
      return low_[op];
    }
    for (uint32_t probe = 0, h = (op ^ (op >> 6)) % kHigh; probe < kHigh;
         ++probe, h = (h + 1) % kHigh) {
      if (high_[h].op == op) return high_[h].mask;
      if (high_[h].op == 0) {
        high_[h] = {op, static_cast<Mask>(WalksOf(state_, static_cast<Op>(op)) | kKnown)};
        return high_[h].mask;
      }
    }
    return WalksOf(state_, static_cast<Op>(op));  // More extension opcodes than slots.
  }

 private:
  // 16 bits while the walks fit (a smaller table to clear), 32 past that.
  using Mask = std::conditional_t<(kNumWalks <= 15), uint16_t, uint32_t>;
  static_assert(kNumWalks < sizeof(Mask) * 8);
  static constexpr uint32_t kLow = 512;
  static constexpr uint32_t kHigh = 64;
  // Set on every mask kept, so that 0 is "not yet".
  static constexpr uint32_t kKnown = 1u << (sizeof(Mask) * 8 - 1);
  struct High {
    uint32_t op;  // 0: a free slot (opcode 0 is below kLow).
    Mask mask;
  };
  const ValidationState& state_;
  Mask low_[kLow] = {};
  High high_[kHigh] = {};
};

}  // namespace

void ValidationState::FileWalks() {
  walks_ready_ = true;
  const binary::ParsedModule::Instruction* const instructions =
      module_.parsed().instructions.data();
  const InstIndex n = module_.num_instructions();
  // Walk w's instructions go to [w * n, w * n + walk_size_[w]): room for every instruction in
  // each walk, so that one pass files them (the room no walk takes is never touched).
  walk_stride_ = n;
  walked_.reset(static_cast<InstIndex*>(
      ws::Allocate(std::max<size_t>(1, size_t{n} * kNumWalks * sizeof(InstIndex)))));
  InstIndex* next[kNumWalks];
  for (size_t w = 0; w < kNumWalks; ++w) next[w] = walked_.get() + w * n;
  WalkMasks masks(*this);
  for (InstIndex i = 0; i < n; ++i) {
    for (uint32_t mask = masks.Of(instructions[i].opcode) & ((1u << kNumWalks) - 1); mask != 0;
         mask &= mask - 1) {
      *next[std::countr_zero(mask)]++ = i;
    }
  }
  for (size_t w = 0; w < kNumWalks; ++w) {
    walk_size_[w] = static_cast<InstIndex>(next[w] - (walked_.get() + w * n));
  }
}

std::span<const InstIndex> ValidationState::Walked(Walk w, InstIndex begin) {
  if (!walks_ready_) FileWalks();
  const size_t k = static_cast<size_t>(w);
  const InstIndex* const first = walked_.get() + k * walk_stride_;
  const InstIndex* const last = first + walk_size_[k];
  return std::span<const InstIndex>(begin == 0 ? first : std::lower_bound(first, last, begin),
                                    last);
}

void ValidationState::CollectCapabilities() {
  const auto all = grammar::Enumerants(grammar::OperandKind::kCapability);
  const uint32_t size = all.empty() ? 1 : all.back().value + 1;
  capabilities_.assign(size, false);
  ws::vector<uint32_t> worklist;
  // The 8- and 16-bit types declared (see DeclaresStorageOnlyWidths).
  bool int8 = false, int16 = false, float16 = false;
  for (InstIndex i = 0; i < module_.global_end(); ++i) {
    const Op op = module_.opcode(i);
    if (op == Op::TypeInt && module_.num_words(i) > 2) {
      int8 = int8 || module_.word(i, 2) == 8;
      int16 = int16 || module_.word(i, 2) == 16;
    } else if (op == Op::TypeFloat && module_.num_words(i) == 3) {
      float16 = float16 || module_.word(i, 2) == 16;
    } else if (op == Op::Capability) {
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
  declares_microscaling_ = HasCapability(spv::Capability::Float4EXT) ||
                           HasCapability(spv::Capability::Float6EXT) ||
                           HasCapability(spv::Capability::Float8UnsignedE8M0EXT) ||
                           HasCapability(spv::Capability::MXInt8EXT);
  declares_encoded_floats_ = declares_microscaling_ ||
                             HasCapability(spv::Capability::BFloat16TypeKHR) ||
                             HasCapability(spv::Capability::Float8EXT);
  using spv::Capability;
  const bool storage16 = HasCapability(Capability::StorageBuffer16BitAccess) ||
                         HasCapability(Capability::UniformAndStorageBuffer16BitAccess) ||
                         HasCapability(Capability::StoragePushConstant16) ||
                         HasCapability(Capability::StorageInputOutput16);
  const bool storage8 = HasCapability(Capability::StorageBuffer8BitAccess) ||
                        HasCapability(Capability::UniformAndStorageBuffer8BitAccess) ||
                        HasCapability(Capability::StoragePushConstant8);
  declares_storage_only_widths_ =
      HasCapability(Capability::Shader) &&
      ((storage16 && int16 && !HasCapability(Capability::Int16)) ||
       (storage16 && float16 && !HasCapability(Capability::Float16)) ||
       (storage8 && int8 && !HasCapability(Capability::Int8)));
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
    d.instruction_text =
        text::InstructionText(module_.inst(inst), Names(), cooperative_vector_spelling());
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
  if (!names_) names_.emplace(module_.parsed(), naming_end_);
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
  const grammar::InstructionInfo* info =
      grammar::LookupOpcode(static_cast<uint32_t>(module_.opcode(inst)));
  if (info == nullptr) return out + OpName(module_.opcode(inst));
  return out + text::OpcodeSpelling(*info, cooperative_vector_spelling());
}

uint32_t ValidationState::ScalarWidth(Id type) const {
  return IsIntType(type) || IsFloatType(type) ? DefWord(type, 2) : 0;
}

std::optional<spv::StorageClass> ValidationState::PointerStorageClass(Id type) const {
  if (!IsAnyPointerType(type)) return std::nullopt;
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
