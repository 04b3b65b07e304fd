// Rules of the Vulkan environment (VUID-StandaloneSpirv-*) on the instructions the core families
// check; they apply only when the target environment is a Vulkan one.
#include <string>

#include "source/val/cooperative.h"
#include "source/val/core.h"

namespace coopspv::val {

void ValidateVulkan(ValidationState& state) {
  if (!state.options().env.is_vulkan()) return;
  const ir::Module& m = state.module();
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
