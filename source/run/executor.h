// Runs a parsed script on a Vulkan device: creates the instance and a device with the features
// and extensions the script names, the buffers, the pipelines, then runs the commands in order.
#ifndef COOPSPV_SOURCE_RUN_EXECUTOR_H_
#define COOPSPV_SOURCE_RUN_EXECUTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "include/coopspv/run.hpp"
#include "source/profile/device_profile.h"
#include "source/run/script.h"

namespace coopspv::run {

struct ExecuteOptions {
  std::string device;  // Index or name substring; empty: the first device.
  uint32_t fence_timeout_ms = 10000;
  uint32_t timing_runs = 0;
  uint32_t warmup_runs = 3;
  std::string variant = "original";  // Copied into the reports.
  // The shaders were lowered with --lower-coop-vector=optimal-as-row-major (0) or
  // optimal-as-column-major (1): CONVERT_MATRIX writes an optimal layout as that one, with a
  // tight stride. -1: as written.
  int optimal_layout_as = -1;
  // Each module, specialized by its pipeline, is validated against the live device's profile
  // (coopspv-val with the device rules) before the driver sees it; an error refuses the run.
  bool validate = true;
};

struct ExecuteResult {
  std::string device_name;
  uint32_t subgroup_size = 0;  // The device's default (Vulkan 1.1 subgroupSize).
  std::vector<ExpectReport> expects;
  std::vector<RunTiming> timings;
  std::vector<std::vector<uint8_t>> buffers;  // Final contents, one per Script::buffers entry.
  bool hung = false;  // A RUN timed out: the device and its objects were left alive.
  // The error is that the device lacks a DEVICE_EXTENSION, DEVICE_FEATURE or DEVICE_PROPERTY the
  // script asks for (the CTS's NotSupported), not a failure.
  bool unsupported = false;
};

// False with a message (exit status 2) for a driver or device problem: no loader, no device, a
// missing feature or extension (by its Vulkan name), a binding the shader does not match, a
// module invalid for the device (ExecuteOptions::validate) or that the driver rejects, a RUN that
// times out. A failed EXPECT is not an error.
bool Execute(const Script& script, const ExecuteOptions& options, ExecuteResult* result,
             std::string* error);

// The cooperative device extensions coopspv-run knows, each with the SPIR-V extensions that
// need it.
struct CooperativeExtension {
  const char* device;
  std::vector<const char*> spirv;
};
const std::vector<CooperativeExtension>& CooperativeExtensions();

// The default subgroup size of the device `which` selects (as --device does).
bool DeviceSubgroupSize(const std::string& which, uint32_t* size, std::string* error);

// Every feature the device `which` selects supports (as DEVICE_FEATURE names; protectedMemory
// left out) and the cooperative extensions it has.
bool SupportedDeviceFeatures(const std::string& which, std::vector<std::string>* features,
                             std::vector<std::string>* extensions, std::string* error);

bool EnumerateDevices(std::vector<VulkanDeviceInfo>* devices, std::string* error);

// The device profile of device `which` (RunOptions::device's form): its extensions, features,
// limits and cooperative property lists. `notes` gets what was left out and why.
bool QueryDeviceProfile(const std::string& which, profile::DeviceProfile* out,
                        std::vector<std::string>* notes, std::string* error);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_EXECUTOR_H_
