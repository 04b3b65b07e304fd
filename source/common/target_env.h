// Target environments, spelled as spirv-val and spirv-as spell them, and the SPIR-V version
// each allows.
#ifndef COOPSPV_SOURCE_COMMON_TARGET_ENV_H_
#define COOPSPV_SOURCE_COMMON_TARGET_ENV_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace coopspv {

struct TargetEnv {
  enum class Api : uint8_t { kUniversal, kVulkan };
  Api api = Api::kUniversal;
  uint32_t api_minor = 0;      // Vulkan 1.x.
  uint32_t spirv_version = 0;  // Highest SPIR-V version allowed: 0x00MMmm00.

  bool is_vulkan() const { return api == Api::kVulkan; }
  std::string Name() const;
};

// "spv1.0" ... "spv1.6", "vulkan1.0" ... "vulkan1.4", "vulkan1.1spv1.4". Nullopt if unknown.
std::optional<TargetEnv> ParseTargetEnv(std::string_view name);

// The list of accepted spellings, for --help texts.
const char* AllTargetEnvNames();

inline constexpr uint32_t SpirvVersion(uint32_t major, uint32_t minor) {
  return (major << 16) | (minor << 8);
}

}  // namespace coopspv

#endif  // COOPSPV_SOURCE_COMMON_TARGET_ENV_H_
