#include "source/common/target_env.h"

namespace coopspv {

std::string TargetEnv::Name() const {
  const std::string spv = "spv1." + std::to_string((spirv_version >> 8) & 0xFF);
  if (api == Api::kUniversal) return spv;
  const std::string vulkan = "vulkan1." + std::to_string(api_minor);
  // Vulkan 1.1 with the SPIR-V 1.4 extension is spelled with both.
  if (api_minor == 1 && spirv_version == SpirvVersion(1, 4)) return vulkan + spv;
  return vulkan;
}

std::optional<TargetEnv> ParseTargetEnv(std::string_view name) {
  // "<prefix>1.<digit>" with the digit at most max_minor: the digit, else -1.
  const auto minor_of = [name](std::string_view prefix, int max_minor) {
    if (name.size() != prefix.size() + 3 || !name.starts_with(prefix) ||
        name.substr(prefix.size(), 2) != "1.") {
      return -1;
    }
    const int minor = name.back() - '0';
    return minor >= 0 && minor <= max_minor ? minor : -1;
  };
  TargetEnv env;
  if (const int minor = minor_of("spv", 6); minor >= 0) {
    env.spirv_version = SpirvVersion(1, static_cast<uint32_t>(minor));
    return env;
  }
  // Vulkan 1.0 consumes SPIR-V 1.0, 1.1 up to 1.3, 1.2 up to 1.5, 1.3 and 1.4 up to 1.6.
  static constexpr uint32_t kVulkanSpirvMinor[] = {0, 3, 5, 6, 6};
  env.api = TargetEnv::Api::kVulkan;
  if (const int minor = minor_of("vulkan", 4); minor >= 0) {
    env.api_minor = static_cast<uint32_t>(minor);
    env.spirv_version = SpirvVersion(1, kVulkanSpirvMinor[minor]);
    return env;
  }
  if (name == "vulkan1.1spv1.4") {
    env.api_minor = 1;
    env.spirv_version = SpirvVersion(1, 4);
    return env;
  }
  return std::nullopt;
}

const char* AllTargetEnvNames() {
  return "spv1.0, spv1.1, spv1.2, spv1.3, spv1.4, spv1.5, spv1.6, vulkan1.0, vulkan1.1, "
         "vulkan1.1spv1.4, vulkan1.2, vulkan1.3, vulkan1.4";
}

}  // namespace coopspv
