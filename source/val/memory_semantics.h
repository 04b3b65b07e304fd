// The Memory Semantics rules (memory_semantics.cc): what ValidateScopes (scope.cc) calls for
// each instruction with Memory Semantics operands, and for each memory Scope.
#ifndef COOPSPV_SOURCE_VAL_MEMORY_SEMANTICS_H_
#define COOPSPV_SOURCE_VAL_MEMORY_SEMANTICS_H_

#include "source/val/state.h"

namespace coopspv::val {

// An instruction's Memory Semantics operands, in order (OpAtomicCompareExchange: Equal, then
// Unequal), and the memory Scope they go with (0: none).
struct SemanticsOperands {
  Id ids[2] = {0, 0};
  int count = 0;
  Id memory_scope = 0;
};

// Every rule on the Memory Semantics operands of instruction i.
void CheckMemorySemantics(ValidationState& state, InstIndex i, const SemanticsOperands& operands);
// The Vulkan memory model's rules on a memory Scope (scope.memory-model); `memory_access`: the
// Scope of a Memory Operand (MakePointerAvailable / MakePointerVisible), which vulkan.cc's Scope
// rules do not see.
void CheckMemoryScope(ValidationState& state, InstIndex i, Id id, bool memory_access);

}  // namespace coopspv::val

#endif  // COOPSPV_SOURCE_VAL_MEMORY_SEMANTICS_H_
