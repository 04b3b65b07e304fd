// coopspv run: runs compute tests written in AmberScript (docs/run.md lists the subset) on a
// Vulkan device. The Vulkan loader (libvulkan.so.1) is opened at run time; nothing here links it.
#ifndef COOPSPV_INCLUDE_COOPSPV_RUN_HPP_
#define COOPSPV_INCLUDE_COOPSPV_RUN_HPP_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "include/coopspv/coopspv.hpp"

namespace coopspv {

inline constexpr const char* kDeviceSubgroupSize = "<device subgroup size>";

struct RunOptions {
  // A device index as --list-devices prints it, or a substring of its name (case-insensitive);
  // empty: the first device.
  std::string device;
  // Where SPIRV-BINARY FILE paths start from; empty: the current directory.
  std::string script_directory;
  // A RUN that has not finished after this long is an error (the script's
  // SET ENGINE_DATA fence_timeout_ms wins).
  uint32_t fence_timeout_ms = 10000;
  // Timestamp queries around every RUN: `warmup_runs` untimed dispatches, then `timing_runs`
  // timed ones (0: no timing). Buffers are restored before the RUN proper.
  uint32_t timing_runs = 0;
  uint32_t warmup_runs = 3;
  // When not empty, the script runs twice: with its shaders as written, then with each shader
  // optimized by these passes; every buffer a pipeline binds as storage is compared. A pass
  // argument equal to kDeviceSubgroupSize becomes the device's subgroup size (as --lower gives
  // --lower-coop-matrix).
  std::vector<PassRequest> passes;
  // With `passes`: skip the run as written; run only the optimized shaders, with the device
  // requirements (DEVICE_EXTENSION, and DEVICE_FEATURE of the extension's structure) of the
  // cooperative extensions that no optimized module declares any more dropped. This is how a
  // lowered module runs on a driver without the extensions (lavapipe); the report's buffers and
  // expects are the optimized run's.
  bool passes_only = false;
  std::string target_env = "vulkan1.3";  // For the passes' validation.
  // Floats compare within max(tolerance, tolerance * |value|); integers exactly.
  double tolerance = 1e-3;
  // Hand the driver modules that coopspv-val finds invalid for it (driver bug hunting). By
  // default every module, as written and after the passes, specialized by its pipeline, is
  // validated against the live device's profile first, and an error refuses the run (an error
  // report naming the rule and its clause or VUID).
  bool skip_validation = false;
};

struct ExpectReport {
  uint32_t line = 0;
  std::string command;  // The EXPECT line as written.
  std::string variant;  // "original", or "passes" for the second run of RunOptions::passes.
  bool passed = false;
  std::optional<uint64_t> first_mismatch;  // Element index.
  uint64_t mismatches = 0;                 // Components that failed.
  double max_abs_error = 0;
  double max_ulp_error = 0;  // Floats: units in the last place of the buffer's type.
  std::string message;       // Why it failed.
};

struct RunTiming {
  uint32_t line = 0;
  std::string pipeline;
  std::string variant;
  uint32_t runs = 0;
  double median_us = 0;
  double min_us = 0;
  double max_us = 0;
};

// One buffer after the run as written and after the run with the passes.
struct BufferComparison {
  std::string buffer;
  bool equal = false;
  std::optional<uint64_t> first_mismatch;  // Element index.
  uint64_t mismatches = 0;
  double max_abs_error = 0;
  double max_ulp_error = 0;
};

// A buffer's contents after the run as written.
struct FinalBuffer {
  std::string name;
  std::string data_type;  // As the script declares it: "float16", "vec4<int32>", "R8G8B8A8_UNORM"
  bool written = false;   // Some pipeline binds it as storage (a buffer, image or texel buffer).
  // An image's shape as its declaration says it after the format ("DIM_2D WIDTH 16 HEIGHT 16");
  // empty for a buffer that is no image.
  std::string image;
  std::vector<uint8_t> bytes;
};

struct RunReport {
  // The exit code. kUnsupported: the device lacks an extension, feature or property the script
  // asks for (the CTS's NotSupported); 77 is what automake and meson read as "skipped".
  enum Status { kPassed = 0, kFailed = 1, kError = 2, kUnsupported = 77 } status = kError;
  std::string error;  // For kError and kUnsupported: what went wrong, with the script line.
  bool hung = false;  // A RUN timed out; the device was left as it was.
  std::string device_name;
  std::vector<ExpectReport> expects;
  std::vector<RunTiming> timings;
  std::vector<BufferComparison> comparisons;
  std::vector<std::string> passes_applied;  // The pass flags of RunOptions::passes.
  std::vector<FinalBuffer> buffers;         // Every buffer after the run as written.
};

// Parses and runs `script`. Never throws; every failure is in the report.
RunReport RunAmberScript(std::string_view script, const RunOptions& options);

// Checks `script` without a device: parse errors as RunReport::kError, else kPassed.
RunReport CheckAmberScript(std::string_view script, const RunOptions& options);

// Whether the driver accepts `module` (SPIR-V words): creates a device with every feature it
// supports and every cooperative extension it has, a buffer for every storage / uniform buffer
// the entry point declares (and push constants), and a compute pipeline. kPassed when the
// pipeline was created; kError with the driver's answer otherwise. No dispatch.
RunReport CreatePipelineForModule(const std::vector<uint32_t>& module,
                                  const std::string& entry_point, const RunOptions& options);

// The report as one JSON object.
std::string FormatRunJson(const RunReport& report);

// The buffers that the shaders may have written (bound as storage), as AmberScript BUFFER
// declarations (IMAGE for images) named <name>_result with every value written exactly: golden
// data to paste into a script and compare with EQ_BUFFER or RMSE_BUFFER.
std::string FormatBuffersAsAmber(const RunReport& report);

struct VulkanDeviceInfo {
  uint32_t index = 0;
  std::string name;
  std::string type;         // "discrete", "integrated", "cpu", "virtual", "other".
  std::string api_version;  // "1.3.230"
  std::string driver;       // driverName and driverInfo.
  uint32_t subgroup_size = 0;
  uint32_t min_subgroup_size = 0;
  uint32_t max_subgroup_size = 0;
  std::vector<std::string> cooperative_extensions;  // The cooperative family it has.
};
bool ListVulkanDevices(std::vector<VulkanDeviceInfo>* devices, std::string* error);

// The device profile (docs/device_profile.md) of a Vulkan device, as JSON: its extensions,
// features, limits and cooperative property lists. `device` as RunOptions::device. `notes`
// gets the property-list entries left out (component types this build has no name for).
bool QueryDeviceProfileJson(const std::string& device, std::string* json,
                            std::vector<std::string>* notes, std::string* error);

}  // namespace coopspv

#endif  // COOPSPV_INCLUDE_COOPSPV_RUN_HPP_
