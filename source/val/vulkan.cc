// Rules of the Vulkan environment (VUID-StandaloneSpirv-*) on the instructions the core families
// check (built-in and resource decorations, execution and memory Scopes, cooperative matrix
// scopes and pointers); they apply only when the target environment is a Vulkan one.
#include <algorithm>
#include <string>
#include <vector>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {
namespace {

// The storage classes Vulkan allows only in some execution models.
struct StorageModels {
  spv::StorageClass storage_class;
  uint32_t models;
  const char* vuid;
};
constexpr uint32_t kRayHit = kIntersection | kAnyHit | kClosestHit;
constexpr StorageModels kStorageModels[] = {
    {spv::StorageClass::Output,
     kAllModels & ~(kGLCompute | kRayGeneration | kRayHit | kMiss | kCallable),
     "VUID-StandaloneSpirv-None-04644"},
    {spv::StorageClass::Workgroup, kWorkgroupModels, "VUID-StandaloneSpirv-None-04645"},
    {spv::StorageClass::CallableDataKHR, kRayGeneration | kClosestHit | kCallable | kMiss,
     "VUID-StandaloneSpirv-CallableDataKHR-04704"},
    {spv::StorageClass::IncomingCallableDataKHR, kCallable,
     "VUID-StandaloneSpirv-IncomingCallableDataKHR-04705"},
    {spv::StorageClass::RayPayloadKHR, kRayGeneration | kClosestHit | kMiss,
     "VUID-StandaloneSpirv-RayPayloadKHR-04698"},
    {spv::StorageClass::HitAttributeKHR, kRayHit, "VUID-StandaloneSpirv-HitAttributeKHR-04701"},
    {spv::StorageClass::IncomingRayPayloadKHR, kAnyHit | kClosestHit | kMiss,
     "VUID-StandaloneSpirv-IncomingRayPayloadKHR-04699"},
    {spv::StorageClass::ShaderRecordBufferKHR, kRayGeneration | kRayHit | kMiss | kCallable,
     "VUID-StandaloneSpirv-ShaderRecordBufferKHR-07119"},
};
const StorageModels* StorageModelsOf(uint32_t sc) {
  for (const StorageModels& r : kStorageModels) {
    if (static_cast<uint32_t>(r.storage_class) == sc) return &r;
  }
  return nullptr;
}

// VUID-StandaloneSpirv-PushConstant-06675, VUID-StandaloneSpirv-Uniform-06676: a StorageBuffer
// or PushConstant variable's structure (through arrays) is a Block, a Uniform one's a Block or
// BufferBlock. An OpUntypedVariableKHR's is its Data Type.
void CheckBlockVariable(ValidationState& state, InstIndex i, const ws::unordered_set<Id>& blocks,
                        const ws::unordered_set<Id>& buffer_blocks) {
  const ir::Module& m = state.module();
  const auto sc = static_cast<spv::StorageClass>(m.word(i, 3));
  if (sc != spv::StorageClass::StorageBuffer && sc != spv::StorageClass::Uniform &&
      sc != spv::StorageClass::PushConstant) {
    return;
  }
  const bool untyped = m.opcode(i) == Op::UntypedVariableKHR;
  if (untyped && m.num_words(i) < 5) return;  // No Data Type: the memory rules'.
  Id type = untyped ? m.word(i, 4) : state.PointeeType(m.type_id(i));
  while (state.DefOp(type) == Op::TypeArray || state.DefOp(type) == Op::TypeRuntimeArray) {
    type = state.DefWord(type, 2);
  }
  if (state.DefOp(type) != Op::TypeStruct) return;  // Other rules' (memory, types).
  const bool uniform = sc == spv::StorageClass::Uniform;
  if (blocks.count(type) || (uniform && buffer_blocks.count(type))) return;
  state.Report("vulkan.block-decoration", i,
               state.Describe(i) + ": " + StorageClassName(sc) + " variable of " +
                   state.Name(type) + ", which is not decorated " +
                   (uniform ? "Block or BufferBlock (VUID-StandaloneSpirv-Uniform-06676)"
                            : "Block (VUID-StandaloneSpirv-PushConstant-06675)"));
}

// Decorations: the storage class of resource variables (VUID-StandaloneSpirv-DescriptorSet-06491).
// The same pass over the declarations lists the cooperative matrix types, in order, for
// ValidateVulkan's Scope rule, and the BuiltIn decorations for CheckVulkanBuiltIns.
void CheckDecorations(ValidationState& state, ws::vector<InstIndex>* matrix_types,
                      ws::vector<InstIndex>* builtins, ws::vector<ModelRestriction>* restricted) {
  const ir::Module& m = state.module();
  constexpr auto kBuiltIn = static_cast<uint32_t>(spv::Decoration::BuiltIn);
  ws::unordered_set<Id> blocks, buffer_blocks;
  uint32_t entry_models = 0;  // The models of the entry points, which precede the variables.
  for (InstIndex i = 0; i < m.global_end() && !state.Full(); ++i) {
    const Op op = m.opcode(i);
    if (op == Op::EntryPoint && m.num_words(i) >= 2) {
      entry_models |= ModelBit(m.word(i, 1));
      continue;
    }
    if (op == Op::TypeCooperativeMatrixKHR || op == Op::TypeCooperativeMatrixNV) {
      matrix_types->push_back(i);
      continue;
    }
    if (op == Op::UntypedVariableKHR && m.num_words(i) >= 4) {
      CheckBlockVariable(state, i, blocks, buffer_blocks);
      continue;
    }
    if (op == Op::Variable && m.num_words(i) >= 4) {
      CheckBlockVariable(state, i, blocks, buffer_blocks);
      const StorageModels* r = StorageModelsOf(m.word(i, 3));
      if (r != nullptr && (entry_models & ~r->models) != 0) {
        restricted->push_back({m.result_id(i), r->models, 0, m.word(i, 3), 0, r->vuid});
      }
      continue;
    }
    if (op == Op::MemberDecorate && m.num_words(i) >= 5 && m.word(i, 3) == kBuiltIn) {
      builtins->push_back(i);
      continue;
    }
    if (op != Op::Decorate || m.num_words(i) < 3) continue;
    if (m.word(i, 2) == kBuiltIn) {
      if (m.num_words(i) >= 4) builtins->push_back(i);
      continue;
    }
    const Id target = m.word(i, 1);
    const auto decoration = static_cast<spv::Decoration>(m.word(i, 2));
    const Op target_op = state.DefOp(target);
    if (decoration == spv::Decoration::Block || decoration == spv::Decoration::BufferBlock) {
      (decoration == spv::Decoration::Block ? blocks : buffer_blocks).insert(target);
    }
    // VUID-StandaloneSpirv-GLSLShared-04669.
    if (decoration == spv::Decoration::GLSLShared || decoration == spv::Decoration::GLSLPacked) {
      state.Report("vulkan.glsl-layout", i,
                   state.Describe(i) + ": " +
                       EnumerantName(grammar::OperandKind::kDecoration, m.word(i, 2)) +
                       " is not used in a Vulkan environment");
      continue;
    }
    // VUID-StandaloneSpirv-FPRoundingMode-04675.
    if (decoration == spv::Decoration::FPRoundingMode && m.num_words(i) >= 4 &&
        m.word(i, 3) != static_cast<uint32_t>(spv::FPRoundingMode::RTE) &&
        m.word(i, 3) != static_cast<uint32_t>(spv::FPRoundingMode::RTZ)) {
      state.Report("vulkan.fp-rounding-mode", i,
                   state.Describe(i) + ": rounding mode " +
                       EnumerantName(grammar::OperandKind::kFPRoundingMode, m.word(i, 3)) +
                       "; Vulkan allows RTE and RTZ");
      continue;
    }
    if ((decoration == spv::Decoration::DescriptorSet || decoration == spv::Decoration::Binding) &&
        target_op == Op::Variable) {
      const std::optional<spv::StorageClass> sc = state.PointerStorageClass(state.TypeOf(target));
      if (sc && *sc != spv::StorageClass::StorageBuffer && *sc != spv::StorageClass::Uniform &&
          *sc != spv::StorageClass::UniformConstant) {
        state.Report("vulkan.resource-storage-class", i,
                     state.Describe(i) + ": " + state.Name(target) + " is in " +
                         StorageClassName(*sc) +
                         " storage; descriptor-bound variables are StorageBuffer, Uniform or "
                         "UniformConstant");
      }
    }
  }
}

}  // namespace

// The words of an instruction's execution and memory Scope operands (0: none).
struct ScopeWords {
  uint32_t execution = 0;
  uint32_t memory = 0;
};
ScopeWords ScopeWordsOf(Op op) {
  const auto v = static_cast<uint32_t>(op);
  // The split barriers (SPV_EXT_split_barrier) scope like OpControlBarrier
  // (VUID-StandaloneSpirv-OpControlBarrierArriveEXT-13553).
  if (op == Op::ControlBarrier || op == Op::ControlBarrierArriveEXT ||
      op == Op::ControlBarrierWaitEXT) {
    return {1, 2};
  }
  if (op == Op::MemoryBarrier) return {0, 1};
  if (op == Op::AtomicStore) return {0, 2};
  if (v >= static_cast<uint32_t>(Op::AtomicLoad) && v <= static_cast<uint32_t>(Op::AtomicXor)) {
    return {0, 4};
  }
  if (v >= static_cast<uint32_t>(Op::GroupNonUniformElect) &&
      v <= static_cast<uint32_t>(Op::GroupNonUniformQuadSwap)) {
    return {3, 0};
  }
  if (op == Op::GroupNonUniformRotateKHR) return {3, 0};
  return {};
}

// VUID-StandaloneSpirv-None-04636: an execution Scope is Workgroup or Subgroup; 04642: that of
// a non-uniform group operation is Subgroup; 04638: a memory Scope is not CrossDevice. Only
// values known before specialization are checked.
void CheckScopes(ValidationState& state, InstIndex i, Op op) {
  const ScopeWords words = ScopeWordsOf(op);
  if (words.execution == 0 && words.memory == 0) return;
  const ir::Module& m = state.module();
  const uint32_t n = m.num_words(i);
  if (words.execution != 0 && words.execution < n) {
    const Id id = m.word(i, words.execution);
    const std::optional<int64_t> scope = KnownValue(state, id);
    const bool non_uniform = op != Op::ControlBarrier && op != Op::ControlBarrierArriveEXT &&
                             op != Op::ControlBarrierWaitEXT;
    if (scope && non_uniform && *scope != static_cast<int64_t>(spv::Scope::Subgroup)) {
      state.Report("vulkan.non-uniform-scope", i,
                   state.Describe(i) + ": Execution Scope is " + ScopeName(*scope) +
                       "; Vulkan allows only Subgroup for non-uniform group operations");
    } else if (scope && *scope != static_cast<int64_t>(spv::Scope::Workgroup) &&
               *scope != static_cast<int64_t>(spv::Scope::Subgroup)) {
      state.Report("vulkan.execution-scope", i,
                   state.Describe(i) + ": Execution Scope is " + ScopeName(*scope) +
                       "; Vulkan allows only Workgroup and Subgroup");
    }
  }
  if (words.memory != 0 && words.memory < n) {
    const std::optional<int64_t> scope = KnownValue(state, m.word(i, words.memory));
    if (scope && *scope == static_cast<int64_t>(spv::Scope::CrossDevice)) {
      state.Report("vulkan.memory-scope", i,
                   state.Describe(i) +
                       ": Memory Scope is CrossDevice, which Vulkan does not "
                       "allow");
    } else if (scope && *scope == static_cast<int64_t>(spv::Scope::Subgroup) &&
               state.options().env.api_minor == 0 &&
               !state.HasCapability(spv::Capability::SubgroupBallotKHR) &&
               !state.HasCapability(spv::Capability::SubgroupVoteKHR)) {
      // VUID-StandaloneSpirv-SubgroupVoteKHR-07951: Vulkan 1.0 has Subgroup memory scope only
      // with SPV_KHR_shader_ballot or SPV_KHR_subgroup_vote.
      state.Report("vulkan.memory-scope", i,
                   state.Describe(i) +
                       ": Memory Scope is Subgroup, which Vulkan 1.0 allows only with the "
                       "SubgroupBallotKHR or SubgroupVoteKHR capability");
    }
  }
}

namespace {

// Out of line and cold: building the message would otherwise make every load and store pay
// for saving the registers it needs.
[[gnu::cold, gnu::noinline]] void ReportUnaligned(ValidationState& state, InstIndex i, Id pointer) {
  state.Report("vulkan.physical-storage-buffer-aligned", i,
               state.Describe(i) + ": Pointer " + state.Name(pointer) +
                   " is in PhysicalStorageBuffer storage; the access needs the Aligned memory "
                   "operand");
}

// The size in bytes of the largest scalar (or pointer) a type holds: what an Aligned operand
// must cover (VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314); 0 when unknown.
uint32_t LargestScalarBytes(const ValidationState& state, Id type, int depth = 0) {
  if (depth > 64) return 0;
  switch (state.DefOp(type)) {
    case Op::TypeInt:
    case Op::TypeFloat:
      return (state.DefWord(type, 2) + 7) / 8;
    case Op::TypeBool:
      return 1;
    case Op::TypePointer:
    case Op::TypeUntypedPointerKHR:
      return 8;  // PhysicalStorageBuffer64: 64-bit addresses.
    case Op::TypeVector:
    case Op::TypeVectorIdEXT:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return LargestScalarBytes(state, state.DefWord(type, 2), depth + 1);
    case Op::TypeStruct: {
      const ir::Module& m = state.module();
      const InstIndex def = m.Def(type);
      uint32_t largest = 0;
      for (uint32_t w = 2; w < m.num_words(def); ++w) {
        largest = std::max(largest, LargestScalarBytes(state, m.word(def, w), depth + 1));
      }
      return largest;
    }
    default:
      return 0;
  }
}

}  // namespace

// VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708: loads and stores through a
// PhysicalStorageBuffer pointer carry the Aligned memory operand.
void CheckPhysicalAligned(ValidationState& state, InstIndex i, Op op) {
  uint32_t pointer_word = 0, mask_word = 0;
  switch (op) {
    case Op::Load:
      pointer_word = 3, mask_word = 4;
      break;
    case Op::Store:
      pointer_word = 1, mask_word = 3;
      break;
    case Op::CooperativeVectorLoadNV:
      pointer_word = 3, mask_word = 5;
      break;
    case Op::CooperativeVectorStoreNV:
      pointer_word = 1, mask_word = 4;
      break;
    default:
      return;
  }
  const ir::Module& m = state.module();
  const uint32_t n = m.num_words(i);
  if (n <= pointer_word) return;
  const Id pointer = m.word(i, pointer_word);
  const std::optional<spv::StorageClass> sc = state.PointerStorageClass(state.TypeOf(pointer));
  if (sc != spv::StorageClass::PhysicalStorageBuffer) return;
  const uint32_t mask = n > mask_word ? m.word(i, mask_word) : 0;
  if ((mask & static_cast<uint32_t>(spv::MemoryAccess::Aligned)) == 0) {
    ReportUnaligned(state, i, pointer);
    return;
  }
  // VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314: the alignment covers the largest scalar
  // the access moves. (Aligned is the lowest mask bit with a literal, so it comes first.)
  if (op != Op::Load && op != Op::Store) return;
  if (n <= mask_word + 1) return;
  const uint32_t aligned = m.word(i, mask_word + 1);
  const Id accessed = op == Op::Load ? m.type_id(i) : state.TypeOf(m.word(i, 2));
  const uint32_t largest = LargestScalarBytes(state, accessed);
  if (largest != 0 && aligned < largest) {
    state.Report("vulkan.physical-storage-buffer-aligned", i,
                 state.Describe(i) + ": Aligned " + ws::to_string(aligned) +
                     " is less than the " + ws::to_string(largest) +
                     " bytes of the largest scalar the access moves (VUID-StandaloneSpirv-"
                     "PhysicalStorageBuffer64-06314)");
  }
}

namespace {

// Only PhysicalStorageBuffer64 modules have PhysicalStorageBuffer pointers.
bool Physical(const ValidationState& state) {
  return state.addressing_model() == spv::AddressingModel::PhysicalStorageBuffer64;
}

}  // namespace

// The bit-field instructions whose Base VUID-RuntimeSpirv-None-10824 restricts.
bool IsBitFieldOp(Op op) {
  return op == Op::BitFieldInsert || op == Op::BitFieldSExtract || op == Op::BitFieldUExtract ||
         op == Op::BitReverse || op == Op::BitCount;
}

bool VulkanVisits(const ValidationState& state, Op op) {
  if (!state.options().env.is_vulkan()) return false;
  if (IsBitFieldOp(op)) return !state.options().allow_vulkan_32_bit_bitwise;
  const ScopeWords words = ScopeWordsOf(op);
  return words.execution != 0 || words.memory != 0 ||
         (Physical(state) &&
          (op == Op::Load || op == Op::Store || op == Op::CooperativeVectorLoadNV ||
           op == Op::CooperativeVectorStoreNV)) ||
         op == Op::CooperativeMatrixLoadTensorNV || op == Op::CooperativeMatrixStoreTensorNV;
}

void ValidateVulkan(ValidationState& state) {
  if (!state.options().env.is_vulkan()) return;
  ws::vector<InstIndex> matrix_types, builtins;
  ws::vector<ModelRestriction> restricted;  // Variables of storage classes of some models.
  CheckDecorations(state, &matrix_types, &builtins, &restricted);
  if (!builtins.empty()) CheckVulkanBuiltIns(state, builtins);
  if (!restricted.empty()) CheckModelRestrictions(state, restricted);
  const ir::Module& m = state.module();
  // VUID-StandaloneSpirv-Pointer-08973: cooperative matrices are loaded from and stored to
  // Workgroup, StorageBuffer or PhysicalStorageBuffer memory; the tensor loads and stores too
  // (the KHR ones: coop-matrix.memory.storage-class).
  const bool physical = Physical(state);
  for (const InstIndex i : state.Walked(Walk::kVulkan, m.global_end())) {
    if (state.Full()) break;
    const Op op = m.opcode(i);
    // Loads and stores, most of the walk in a PhysicalStorageBuffer64 module, have no Scope
    // operand and are no tensor operation: the Aligned rule is all they need.
    if (physical && (op == Op::Load || op == Op::Store || op == Op::CooperativeVectorLoadNV ||
                     op == Op::CooperativeVectorStoreNV)) {
      CheckPhysicalAligned(state, i, op);
      continue;
    }
    if (IsBitFieldOp(op)) {
      // VUID-RuntimeSpirv-None-10824: without maintenance9, bit-field instructions work on 32-bit
      // integers (spirv-val's --allow-vulkan-32-bit-bitwise, here too, lifts it).
      const Id base_type = m.num_words(i) > 3 ? state.TypeOf(m.word(i, 3)) : 0;
      const Id scalar = state.DefOp(base_type) == Op::TypeVector ||
                                state.DefOp(base_type) == Op::TypeVectorIdEXT
                            ? state.ComponentType(base_type)
                            : base_type;
      if (state.IsIntType(scalar) && state.DefWord(scalar, 2) != 32) {
        state.Report("vulkan.bitwise-32bit", i,
                     state.Describe(i) + ": Base has " + ws::to_string(state.DefWord(scalar, 2)) +
                         "-bit components; Vulkan needs 32-bit ones unless the device has "
                         "maintenance9 (--allow-vulkan-32-bit-bitwise)");
      }
      continue;
    }
    CheckScopes(state, i, op);
    const uint32_t word = op == Op::CooperativeMatrixLoadTensorNV    ? 3
                          : op == Op::CooperativeMatrixStoreTensorNV ? 1
                                                                     : 0;
    if (word == 0 || m.num_words(i) <= word) continue;
    const Id pointer = m.word(i, word);
    const std::optional<spv::StorageClass> sc = state.PointerStorageClass(state.TypeOf(pointer));
    if (!sc || *sc == spv::StorageClass::Workgroup || *sc == spv::StorageClass::StorageBuffer ||
        *sc == spv::StorageClass::PhysicalStorageBuffer) {
      continue;
    }
    state.Report("vulkan.coop-matrix-pointer", i,
                 state.Describe(i) + ": Pointer " + state.Name(pointer) + " is in " +
                     StorageClassName(*sc) +
                     " storage; Vulkan allows Workgroup, StorageBuffer and "
                     "PhysicalStorageBuffer");
  }
  for (const InstIndex i : matrix_types) {
    if (state.Full()) break;
    if (m.num_words(i) < 4) continue;
    // VUID-StandaloneSpirv-Scope-12243: a cooperative matrix's Scope is Subgroup or Workgroup.
    const std::optional<int64_t> scope = KnownValue(state, m.word(i, 3));
    if (scope && *scope != static_cast<int64_t>(spv::Scope::Subgroup) &&
        *scope != static_cast<int64_t>(spv::Scope::Workgroup)) {
      state.Report("vulkan.coop-matrix-scope", i,
                   state.Describe(i) + ": Scope is " + ScopeName(*scope) +
                       "; Vulkan allows only Subgroup and Workgroup");
    }
  }
}

}  // namespace coopspv::val
