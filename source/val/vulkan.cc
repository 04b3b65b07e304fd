// Rules of the Vulkan environment (VUID-StandaloneSpirv-*) on the instructions the core families
// check; they apply only when the target environment is a Vulkan one.
#include <string>

#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {

void ValidateVulkan(ValidationState& state) {
  if (!state.options().env.is_vulkan()) return;
  const ir::Module& m = state.module();
  // VUID-StandaloneSpirv-Pointer-08973: cooperative matrices are loaded from and stored to
  // Workgroup, StorageBuffer or PhysicalStorageBuffer memory; the tensor loads and stores too
  // (the KHR ones: coop-matrix.memory.storage-class).
  for (InstIndex i = m.global_end(); i < m.num_instructions() && !state.Full(); ++i) {
    const Op op = m.opcode(i);
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
  for (InstIndex i = 0; i < m.global_end() && !state.Full(); ++i) {
    const Op op = m.opcode(i);
    if ((op != Op::TypeCooperativeMatrixKHR && op != Op::TypeCooperativeMatrixNV) ||
        m.num_words(i) < 4) {
      continue;
    }
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
