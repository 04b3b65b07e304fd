#include "source/layer/emulate.h"

#include <algorithm>

#include "source/run/vulkan.h"

namespace coopspv::layer {
namespace {

using profile::ComponentType;

// SPIR-V: OpCapability CooperativeMatrixKHR.
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kCooperativeMatrixKHR = 6022;

}  // namespace

std::string WhyNoEmulation(uint32_t api_version, VkShaderStageFlags subgroup_stages,
                           VkSubgroupFeatureFlags subgroup_operations) {
  if (api_version < VK_API_VERSION_1_1) return "the device is older than Vulkan 1.1";
  if (!(subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT)) {
    return "the device has no subgroup operations in compute shaders";
  }
  if (!(subgroup_operations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT)) {
    return "the device has no subgroup shuffles (VK_SUBGROUP_FEATURE_SHUFFLE_BIT)";
  }
  return "";
}

void RemoveNativeMatrices(profile::DeviceProfile* p) {
  std::erase(p->extensions, kKhrCooperativeMatrix);
  p->features.cooperativeMatrix = false;
  p->features.cooperativeMatrixRobustBufferAccess = false;
  p->properties.cooperativeMatrixSupportedStages = 0;
  p->cooperativeMatrixProperties.clear();
}

std::vector<profile::CooperativeMatrixProperties> EmulatedMatrixShapes(
    const profile::DeviceProfile& device) {
  struct Shape {
    uint32_t m, n, k;
  };
  std::vector<profile::CooperativeMatrixProperties> out;
  auto add = [&](std::initializer_list<Shape> shapes, ComponentType ab, ComponentType c) {
    for (const Shape& s : shapes) {
      out.push_back({s.m, s.n, s.k, ab, ab, c, c, false, profile::Scope::kSubgroup});
    }
  };
  if (device.features.shaderFloat16) {
    for (ComponentType c : {ComponentType::kFloat16, ComponentType::kFloat32}) {
      add({{16, 16, 16}, {16, 8, 16}, {16, 8, 8}}, ComponentType::kFloat16, c);
    }
  }
  if (device.features.shaderInt8) {
    add({{16, 16, 32}, {16, 8, 32}}, ComponentType::kUint8, ComponentType::kUint32);
    add({{16, 16, 32}, {16, 8, 32}}, ComponentType::kSint8, ComponentType::kSint32);
  }
  return out;
}

profile::DeviceProfile Advertised(const profile::DeviceProfile& device) {
  profile::DeviceProfile p = device;
  if (!p.HasExtension(kKhrCooperativeMatrix)) {
    p.extensions.push_back(kKhrCooperativeMatrix);
    std::sort(p.extensions.begin(), p.extensions.end());
  }
  p.features.cooperativeMatrix = true;
  p.features.cooperativeMatrixRobustBufferAccess = false;
  p.properties.cooperativeMatrixSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
  p.cooperativeMatrixProperties = EmulatedMatrixShapes(device);
  return p;
}

void FillFeatures(void* chain) {
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType == run::kCooperativeMatrixFeaturesKHR) {
      auto* f = reinterpret_cast<run::CooperativeMatrixFeaturesKHR*>(s);
      f->cooperativeMatrix = VK_TRUE;
      f->cooperativeMatrixRobustBufferAccess = VK_FALSE;
    }
  }
}

void FillProperties(void* chain) {
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType == run::kPhysicalDeviceCooperativeMatrixPropertiesKHR) {
      reinterpret_cast<run::CooperativeMatrixDevicePropertiesKHR*>(s)
          ->cooperativeMatrixSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    }
  }
}

bool DeclaresKhrMatrices(std::span<const uint32_t> words) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || opcode != kOpCapability) return false;
    if (count >= 2 && i + 1 < words.size() && words[i + 1] == kCooperativeMatrixKHR) return true;
    i += count;
  }
  return false;
}

}  // namespace coopspv::layer
