// Memory Semantics operands (SPIR-V 3.25) of barriers and atomics, with the rules of the Vulkan
// memory model on them (VUID-StandaloneSpirv-MemorySemantics-*, -UnequalMemorySemantics-*), and
// the memory Scope rules of the Vulkan memory model. ValidateScopes (scope.cc) walks the
// instructions with Scope or Memory Semantics operands and hands each one here.
//
// Only values known before specialization are checked: an OpConstant (or OpConstantNull). The
// Vulkan rules apply in a Vulkan environment and in any module that declares the Vulkan memory
// model (OpMemoryModel ... Vulkan), whose semantics the Vulkan specification defines.
#include "source/val/memory_semantics.h"

#include <string>

#include "source/common/workspace.h"
#include "source/val/cooperative.h"

namespace coopspv::val {
namespace {

constexpr uint32_t Bit(spv::MemorySemantics s) { return static_cast<uint32_t>(s); }

constexpr uint32_t kAcquire = Bit(spv::MemorySemantics::Acquire);
constexpr uint32_t kRelease = Bit(spv::MemorySemantics::Release);
constexpr uint32_t kAcquireRelease = Bit(spv::MemorySemantics::AcquireRelease);
constexpr uint32_t kSequentiallyConsistent = Bit(spv::MemorySemantics::SequentiallyConsistent);
constexpr uint32_t kOrders = kAcquire | kRelease | kAcquireRelease | kSequentiallyConsistent;
constexpr uint32_t kUniformMemory = Bit(spv::MemorySemantics::UniformMemory);
constexpr uint32_t kOutputMemory = Bit(spv::MemorySemantics::OutputMemory);
constexpr uint32_t kMakeAvailable = Bit(spv::MemorySemantics::MakeAvailable);
constexpr uint32_t kMakeVisible = Bit(spv::MemorySemantics::MakeVisible);
constexpr uint32_t kVolatile = Bit(spv::MemorySemantics::Volatile);
// The storage classes Vulkan's memory model orders (VUID-StandaloneSpirv-MemorySemantics-10870).
constexpr uint32_t kVulkanStorage = kUniformMemory | Bit(spv::MemorySemantics::WorkgroupMemory) |
                                    Bit(spv::MemorySemantics::ImageMemory) | kOutputMemory;

bool IsBarrier(Op op) {
  return op == Op::ControlBarrier || op == Op::MemoryBarrier || op == Op::MemoryNamedBarrier ||
         op == Op::ControlBarrierArriveEXT || op == Op::ControlBarrierWaitEXT;
}

bool IsCompareExchange(Op op) {
  return op == Op::AtomicCompareExchange || op == Op::AtomicCompareExchangeWeak;
}

// The semantics and its value as messages show them: "%acq_rel (264)".
ws::string Shown(ValidationState& state, Id id, uint32_t value) {
  return state.Name(id) + " (" + ws::to_string(value) + ")";
}

// The rules on one known Memory Semantics value. `unequal`: the Unequal operand of a
// compare-exchange, whose Equal operand is `equal` (nullopt when not known).
void CheckValue(ValidationState& state, InstIndex i, Op op, Id id, uint32_t value,
                std::optional<int64_t> memory_scope, bool unequal, std::optional<uint32_t> equal) {
  const uint32_t order = value & kOrders;
  const bool vulkan =
      state.options().env.is_vulkan() || state.memory_model() == spv::MemoryModel::Vulkan;
  // SPIR-V 3.25 Memory Semantics: each bit's enabling capability (the grammar's; an id operand,
  // so capability.operand does not see it).
  const bool vmm = state.HasCapability(spv::Capability::VulkanMemoryModel);
  const auto needs = [&](const char* name, const char* capability) {
    state.Report("memory-semantics.capability", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) + " sets " +
                     name + ", which needs the " + capability + " capability");
  };
  if ((value & kUniformMemory) && !state.HasCapability(spv::Capability::Shader)) {
    needs("UniformMemory", "Shader");
  }
  if (!vmm) {
    if (value & kOutputMemory) needs("OutputMemory", "VulkanMemoryModel");
    if (value & kMakeAvailable) needs("MakeAvailable", "VulkanMemoryModel");
    if (value & kMakeVisible) needs("MakeVisible", "VulkanMemoryModel");
    if (value & kVolatile) needs("Volatile", "VulkanMemoryModel");
  }
  // SPIR-V 3.25: at most one of Acquire, Release, AcquireRelease, SequentiallyConsistent.
  if ((order & (order - 1)) != 0) {
    state.Report("memory-semantics.order", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " sets more than one of Acquire, Release, AcquireRelease and "
                     "SequentiallyConsistent");
    return;  // The order-dependent rules below would repeat the same fault.
  }
  // SPIR-V 3.25 (MakeAvailable, MakeVisible): an availability operation is part of a release,
  // a visibility operation part of an acquire.
  if ((value & kMakeAvailable) && !(order & (kRelease | kAcquireRelease))) {
    state.Report("memory-semantics.make-available", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " sets MakeAvailable without Release or AcquireRelease");
  }
  if ((value & kMakeVisible) && !(order & (kAcquire | kAcquireRelease))) {
    state.Report("memory-semantics.make-visible", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " sets MakeVisible without Acquire or AcquireRelease");
  }
  // Volatile qualifies an atomic access; a barrier accesses no memory.
  if ((value & kVolatile) && IsBarrier(op)) {
    state.Report("memory-semantics.volatile", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " sets Volatile on a barrier");
  }
  // An atomic load cannot release, an atomic store cannot acquire.
  if (op == Op::AtomicLoad && (order & (kRelease | kAcquireRelease))) {
    state.Report("memory-semantics.load-store-order", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " is a Release or AcquireRelease order, which an atomic load cannot have");
  } else if ((op == Op::AtomicStore || op == Op::AtomicFlagClear) &&
             (order & (kAcquire | kAcquireRelease))) {
    state.Report("memory-semantics.load-store-order", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " is an Acquire or AcquireRelease order, which an atomic store cannot have");
  }
  // SPIR-V OpAtomicCompareExchange: Unequal is neither Release nor AcquireRelease, and no
  // stronger an order than Equal.
  if (unequal) {
    if (order & (kRelease | kAcquireRelease)) {
      state.Report("memory-semantics.compare-exchange", i,
                   state.Describe(i) + ": Unequal Memory Semantics " + Shown(state, id, value) +
                       " is a Release or AcquireRelease order");
    } else if (equal &&
               (((order & kSequentiallyConsistent) && !(*equal & kSequentiallyConsistent)) ||
                ((order & kAcquire) && !(*equal & kOrders)))) {
      state.Report("memory-semantics.compare-exchange", i,
                   state.Describe(i) + ": Unequal Memory Semantics " + Shown(state, id, value) +
                       " orders more strongly than Equal (" + ws::to_string(*equal) + ")");
    }
  }
  if (!vulkan) return;
  if (order & kSequentiallyConsistent) {
    state.Report("vulkan.sequentially-consistent", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " is SequentiallyConsistent, which the Vulkan memory model does not have");
  }
  if (op == Op::MemoryBarrier && order == 0) {
    state.Report("vulkan.memory-barrier-relaxed", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " is Relaxed; a memory barrier needs Acquire, Release or AcquireRelease");
  } else if ((order & ~kSequentiallyConsistent) != 0 && (value & kVulkanStorage) == 0) {
    state.Report("vulkan.memory-semantics-storage", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " orders memory but names no UniformMemory, WorkgroupMemory, "
                     "ImageMemory or OutputMemory storage");
  } else if (order == 0 && (value & kVulkanStorage) != 0) {
    state.Report("vulkan.memory-semantics-relaxed", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " names UniformMemory, WorkgroupMemory, ImageMemory or OutputMemory "
                     "storage but is Relaxed");
  }
  // SPV_EXT_split_barrier: the arrive half releases, the wait half acquires.
  const uint32_t acquire_release = order & (kAcquire | kRelease | kAcquireRelease);
  if ((op == Op::ControlBarrierArriveEXT && acquire_release != 0 && acquire_release != kRelease) ||
      (op == Op::ControlBarrierWaitEXT && acquire_release != 0 && acquire_release != kAcquire)) {
    state.Report("vulkan.split-barrier-order", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     (op == Op::ControlBarrierArriveEXT ? " orders other than Release"
                                                        : " orders other than Acquire"));
  }
  if (order != 0 && memory_scope == static_cast<int64_t>(spv::Scope::Invocation)) {
    state.Report("vulkan.invocation-scope-order", i,
                 state.Describe(i) + ": Memory Semantics " + Shown(state, id, value) +
                     " is not Relaxed, at Invocation memory Scope");
  }
  if (unequal && equal) {
    const char* what = nullptr;
    if (value & ~*equal & kVulkanStorage) {
      what = "names a storage class Equal does not";
    } else if (value & ~*equal & kMakeVisible) {
      what = "sets MakeVisible and Equal does not";
    } else if ((value ^ *equal) & kVolatile) {
      what = (value & kVolatile) ? "sets Volatile and Equal does not"
                                 : "does not set Volatile and Equal does";
    }
    if (what) {
      state.Report("vulkan.compare-exchange-semantics", i,
                   state.Describe(i) + ": Unequal Memory Semantics " + Shown(state, id, value) +
                       " " + what + " (" + ws::to_string(*equal) + ")");
    }
  }
}

bool CheckSemanticsId(ValidationState& state, InstIndex i, Id id) {
  if (state.DefOp(id) == Op::Nop) return false;  // The id rules report undefined ids.
  if (!state.IsConstantInstruction(id) || !state.IsInt32(state.TypeOf(id))) {
    state.Report("memory-semantics.id", i,
                 state.Describe(i) + ": Memory Semantics " + state.Name(id) +
                     " must be a constant instruction of 32-bit integer type");
    return false;
  }
  // SPIR-V 2.16.2: an OpConstant in shaders (OpConstantNull, a known 0, as the reference
  // validator accepts and compilers emit for Relaxed); SPV_NV_cooperative_matrix relaxes that to
  // any constant instruction, spec constants included.
  const Op def = state.DefOp(id);
  if (def != Op::Constant && def != Op::ConstantNull &&
      state.HasCapability(spv::Capability::Shader) &&
      !state.HasCapability(spv::Capability::CooperativeMatrixNV)) {
    state.Report("memory-semantics.id", i,
                 state.Describe(i) + ": Memory Semantics " + state.Name(id) +
                     " must be an OpConstant in a shader (any constant instruction once "
                     "CooperativeMatrixNV is declared)");
    return false;
  }
  return true;
}

}  // namespace

void CheckMemorySemantics(ValidationState& state, InstIndex i, const SemanticsOperands& operands) {
  const Op op = state.module().opcode(i);
  const std::optional<int64_t> memory_scope =
      operands.memory_scope ? KnownValue(state, operands.memory_scope) : std::nullopt;
  std::optional<uint32_t> equal;
  for (int k = 0; k < operands.count; ++k) {
    const Id id = operands.ids[k];
    if (!CheckSemanticsId(state, i, id)) continue;
    const std::optional<int64_t> value = KnownValue(state, id);
    const bool unequal = k == 1 && IsCompareExchange(op);
    if (value) {
      CheckValue(state, i, op, id, static_cast<uint32_t>(*value), memory_scope, unequal, equal);
    }
    if (k == 0 && value) equal = static_cast<uint32_t>(*value);
  }
}

void CheckMemoryScope(ValidationState& state, InstIndex i, Id id, bool memory_access) {
  const std::optional<int64_t> scope = KnownValue(state, id);
  if (!scope) return;
  // VUID-StandaloneSpirv-None-04638 (barriers and atomics: vulkan.cc).
  if (memory_access && *scope == static_cast<int64_t>(spv::Scope::CrossDevice) &&
      state.options().env.is_vulkan()) {
    state.Report("vulkan.memory-scope", i,
                 state.Describe(i) + ": memory Scope " + state.Name(id) +
                     " is CrossDevice, which Vulkan does not allow");
  }
  // SPIR-V 3.27 Scope: QueueFamily is enabled by VulkanMemoryModel. SPV_KHR_vulkan_memory_model:
  // with the VulkanMemoryModel capability, Device scope needs VulkanMemoryModelDeviceScope.
  const bool vmm = state.HasCapability(spv::Capability::VulkanMemoryModel);
  const char* needs = nullptr;
  if (*scope == static_cast<int64_t>(spv::Scope::QueueFamily) && !vmm) {
    needs = "is QueueFamily, which needs the VulkanMemoryModel capability";
  } else if (*scope == static_cast<int64_t>(spv::Scope::Device) && vmm &&
             !state.HasCapability(spv::Capability::VulkanMemoryModelDeviceScope)) {
    needs =
        "is Device under the VulkanMemoryModel capability, which needs "
        "VulkanMemoryModelDeviceScope as well";
  }
  if (needs) {
    state.Report("scope.memory-model", i,
                 state.Describe(i) + ": memory Scope " + state.Name(id) + " " + needs);
  }
}

}  // namespace coopspv::val
