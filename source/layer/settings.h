// VK_LAYER_coopspv's settings, read as the Vulkan layer conventions say: `coopspv.<name> = value`
// lines of vk_layer_settings.txt (the file VK_LAYER_SETTINGS_PATH names, or the one in its
// directory, else ./vk_layer_settings.txt), overridden by environment variables
// VK_COOPSPV_<NAME> (upper case). docs/layer.md lists them.
#ifndef COOPSPV_SOURCE_LAYER_SETTINGS_H_
#define COOPSPV_SOURCE_LAYER_SETTINGS_H_

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace coopspv::layer {

enum class ReportLevel : uint8_t { kError, kWarning, kInfo };

struct Settings {
  // Validate every module at vkCreateShaderModule, and again at compute-pipeline creation when
  // specialization constants or a required subgroup size change what the module is.
  bool validate = true;
  // A module with a validation error fails its creation (VK_ERROR_UNKNOWN, or
  // VK_ERROR_INVALID_SHADER_NV where the device enabled VK_NV_glsl_shader).
  bool fail_on_error = false;
  // Where verdicts and emulated modules are kept between runs; empty: in memory only.
  std::string cache_dir;
  // Advertise VK_KHR_cooperative_matrix on a device without it and lower its modules.
  bool emulate = true;
  // The device's own extensions hidden, so that emulation takes their place (coopspv.hide_native:
  // true for all of kHideableExtensions, or a list of their names). Hiding
  // VK_KHR_cooperative_matrix hides VK_NV_cooperative_matrix2 too, which builds on it.
  std::set<std::string, std::less<>> hide_native;
  bool Hides(std::string_view extension) const;
  // The least severe message reported (to the messengers, or standard error without one).
  ReportLevel report_level = ReportLevel::kWarning;
  // How often one message id (a VUID, else the rule or the layer's id) is reported before it is
  // suppressed, as the Khronos validation layer's duplicate_message_limit; 0: no limit.
  uint32_t duplicate_message_limit = 10;
  // At vkDestroyDevice, the time the layer itself spent in the device's vkCreateShaderModule and
  // vkCreateComputePipelines (the driver's calls left out), on standard error: what the layer
  // costs, measured apart from the driver's own time (utils/layer_cost.sh).
  bool self_time = false;
  // Settings that did not read: "coopspv.x: <why>", reported once the instance exists.
  std::vector<std::string> problems;
};

// What coopspv.hide_native can name.
inline constexpr const char* kHideableExtensions[] = {
    "VK_KHR_cooperative_matrix", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix",
    "VK_NV_cooperative_vector"};

// `getenv` and `read_file` are the environment and the file system (tests give their own).
Settings ReadSettings(const std::function<const char*(const char*)>& getenv,
                      const std::function<bool(const std::string&, std::string*)>& read_file);
// From the process's environment and files.
Settings ReadSettings();

}  // namespace coopspv::layer

#endif  // COOPSPV_SOURCE_LAYER_SETTINGS_H_
