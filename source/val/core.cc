#include "source/val/core.h"

namespace coopspv::val {

void ValidateCore(ValidationState& state) {
  void (*const families[])(ValidationState&) = {
      ValidateDecorations,          ValidateMemory,       ValidateArithmetic,
      ValidateVectorMatrix,         ValidateMicroscaling, ValidateComposites,
      ValidateControlFlow,          ValidateBlockLayout,  ValidateGroups,
      ValidateEntryPointInterfaces, ValidateVulkan,       ValidateExecutionModes,
      ValidateRayQueries,           ValidateTensorsArm,
  };
  for (auto family : families) {
    if (state.Full()) return;
    family(state);
  }
}

}  // namespace coopspv::val
