// The rule families of the core instruction set (SPIR-V 3.42 and 2.16): memory (atomics
// included), decorations, arithmetic, composites, control flow and the Vulkan environment's
// rules. Validate() runs them all through ValidateCore, after the id, type and function rules
// they rely on.
#ifndef COOPSPV_SOURCE_VAL_CORE_H_
#define COOPSPV_SOURCE_VAL_CORE_H_

#include <span>

#include "source/val/state.h"

namespace coopspv::val {

void ValidateArithmetic(ValidationState& state);
void ValidateBlockLayout(ValidationState& state);
void ValidateComposites(ValidationState& state);
void ValidateControlFlow(ValidationState& state);
void ValidateDecorations(ValidationState& state);
void ValidateEntryPointInterfaces(ValidationState& state);
void ValidateGroups(ValidationState& state);
void ValidateMemory(ValidationState& state);
void ValidateRayQueries(ValidationState& state);
void ValidateTensorsArm(ValidationState& state);
void ValidateMicroscaling(ValidationState& state);
void ValidateVectorMatrix(ValidationState& state);
void ValidateVulkan(ValidationState& state);

// Per-instruction checks that a family's dispatch calls: the atomic instruction at `i`
// (atomics.cc, from ValidateMemory).
void CheckAtomic(ValidationState& state, InstIndex i);
// The Vulkan rules on the built-ins that OpDecorate / OpMemberDecorate `decorations` (BuiltIn
// decorations, with their operands) declare (vulkan_builtins.cc, from ValidateVulkan).
void CheckVulkanBuiltIns(ValidationState& state, std::span<const InstIndex> decorations);

}  // namespace coopspv::val

#endif  // COOPSPV_SOURCE_VAL_CORE_H_
