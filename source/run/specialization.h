// A pipeline's specialization constants as the defaults of a module's spec constants, so that a
// pass or the validator sees the module the pipeline runs.
#ifndef COOPSPV_SOURCE_RUN_SPECIALIZATION_H_
#define COOPSPV_SOURCE_RUN_SPECIALIZATION_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "source/run/script.h"

namespace coopspv::run {

// A pipeline's SPECIALIZE values as --set-spec-const-default-value reads them ("id:value ..."),
// each value written for its constant's type in `words` (a Boolean spec constant's value is a
// VkBool32); a SpecId the module does not have is left out (it does not affect the pipeline);
// empty when there are none.
std::string SpecializationDefaults(std::span<const uint32_t> words,
                                   std::span<const SpecConstant> spec);

// The module the pipeline runs, for the validator's device rules: the pipeline's values as its
// spec constants' defaults and, with `freeze`, frozen and folded (so that the rules see the
// dimensions and scopes they give; when freezing fails, the module with the defaults alone).
// Empty when there are no values or the passes refuse the module (judge it as written).
std::vector<uint32_t> Specialized(std::span<const uint32_t> words,
                                  std::span<const SpecConstant> spec, const std::string& target_env,
                                  bool freeze);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_SPECIALIZATION_H_
