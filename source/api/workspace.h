// The validation workspace behind the public ValidationWorkspace, for the C and C++ API.
#ifndef COOPSPV_SOURCE_API_WORKSPACE_H_
#define COOPSPV_SOURCE_API_WORKSPACE_H_

#include <cstdint>
#include <memory>
#include <span>

#include "include/coopspv/coopspv.hpp"
#include "source/profile/device_profile.h"
#include "source/val/validator.h"

namespace coopspv {

struct ValidationWorkspace::Impl {
  val::Workspace workspace;
  // The options of the last call, assigned over so that their rule lists keep their storage.
  val::Options options;
};

// Validates with the workspace: its result (valid until the workspace's next validation), or
// nullptr with `problem` for a bad option.
const val::Result* ValidateInWorkspace(std::span<const uint32_t> words,
                                       const ValidatorOptions& options,
                                       ValidationWorkspace& workspace, Problem* problem);

// A device profile handle of a profile already in memory (VK_LAYER_coopspv builds its device's
// from the live device): what LoadDeviceProfile gives for its JSON, without writing and parsing.
std::shared_ptr<const DeviceProfileHandle> MakeDeviceProfileHandle(profile::DeviceProfile profile);

}  // namespace coopspv

#endif  // COOPSPV_SOURCE_API_WORKSPACE_H_
