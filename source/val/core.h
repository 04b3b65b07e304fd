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

// Execution models as bits of a set: ModelBit(model) for an OpEntryPoint's Execution Model, 0 for
// an unknown one.
enum ModelSet : uint32_t {
  kVertex = 1u << 0,
  kTessellationControl = 1u << 1,
  kTessellationEvaluation = 1u << 2,
  kGeometry = 1u << 3,
  kFragment = 1u << 4,
  kGLCompute = 1u << 5,
  kKernel = 1u << 6,
  kTaskNV = 1u << 7,
  kMeshNV = 1u << 8,
  kRayGeneration = 1u << 9,
  kIntersection = 1u << 10,
  kAnyHit = 1u << 11,
  kClosestHit = 1u << 12,
  kMiss = 1u << 13,
  kCallable = 1u << 14,
  kTaskEXT = 1u << 15,
  kMeshEXT = 1u << 16,
  kTessellation = kTessellationControl | kTessellationEvaluation,
  kMesh = kMeshNV | kMeshEXT,
  // The models with workgroups (LocalSize, the compute built-ins).
  kWorkgroupModels = kGLCompute | kTaskNV | kMeshNV | kTaskEXT | kMeshEXT,
  kAllModels = (1u << 17) - 1,
};
uint32_t ModelBit(uint32_t model);
// "GLCompute", "Vertex or Fragment", ... for the models of `set`.
ws::string ModelSetText(uint32_t set);

void ValidateExecutionModes(ValidationState& state);  // modes.cc

// An object (variable, constant or structure type) that a built-in (storage_class ~0u; the
// clause VUID-<BuiltIn>-<BuiltIn>-<vuid_number>) or a storage class (the clause `vuid`)
// restricts to the call trees of entry points of `models`.
struct ModelRestriction {
  Id object;
  uint32_t models;
  uint32_t built_in;
  uint32_t storage_class;
  uint16_t vuid_number;
  const char* vuid;
};
// Reports each use of a restricted object in the call tree of an entry point of another model
// (vulkan_builtins.cc; rules vulkan.builtin-execution-model, vulkan.storage-class-model).
void CheckModelRestrictions(ValidationState& state, std::span<const ModelRestriction> uses);

// Per-instruction checks that a family's dispatch calls: the atomic instruction at `i`
// (atomics.cc, from ValidateMemory).
void CheckAtomic(ValidationState& state, InstIndex i);
// The integer and mixed-precision float dot products (dot_product.cc, from ValidateArithmetic).
constexpr bool IsDotProduct(Op op) {
  switch (op) {
    case Op::SDot:
    case Op::UDot:
    case Op::SUDot:
    case Op::SDotAccSat:
    case Op::UDotAccSat:
    case Op::SUDotAccSat:
    case Op::FDot2MixAcc32VALVE:
    case Op::FDot2MixAcc16VALVE:
    case Op::FDot4MixAcc32VALVE:
      return true;
    default:
      return false;
  }
}
void CheckDotProduct(ValidationState& state, InstIndex i);
// The Vulkan rules on the built-ins that OpDecorate / OpMemberDecorate `decorations` (BuiltIn
// decorations, with their operands) declare (vulkan_builtins.cc, from ValidateVulkan).
void CheckVulkanBuiltIns(ValidationState& state, std::span<const InstIndex> decorations);

}  // namespace coopspv::val

#endif  // COOPSPV_SOURCE_VAL_CORE_H_
