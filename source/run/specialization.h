// A pipeline's specialization constants as the defaults of a module's spec constants, so that a
// pass or the validator sees the module the pipeline runs.
#ifndef COOPSPV_SOURCE_RUN_SPECIALIZATION_H_
#define COOPSPV_SOURCE_RUN_SPECIALIZATION_H_

#include <cstdint>
#include <span>
#include <string>

#include "source/run/script.h"

namespace coopspv::run {

// A pipeline's SPECIALIZE values as --set-spec-const-default-value reads them ("id:value ..."),
// each value written for its constant's type in `words` (a Boolean spec constant's value is a
// VkBool32); a SpecId the module does not have is left out (it does not affect the pipeline);
// empty when there are none.
std::string SpecializationDefaults(std::span<const uint32_t> words,
                                   std::span<const SpecConstant> spec);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_SPECIALIZATION_H_
