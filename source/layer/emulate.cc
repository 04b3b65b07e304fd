#include "source/layer/emulate.h"

#include <algorithm>

#include "source/run/vulkan.h"

namespace coopspv::layer {
namespace {

using profile::ComponentType;

// SPIR-V: CooperativeMatrixKHR.
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

void RemoveNativeMatrix2(profile::DeviceProfile* p) {
  std::erase(p->extensions, kNvCooperativeMatrix2);
  profile::Features& f = p->features;
  f.cooperativeMatrixWorkgroupScope = f.cooperativeMatrixFlexibleDimensions =
      f.cooperativeMatrixReductions = f.cooperativeMatrixConversions =
          f.cooperativeMatrixPerElementOperations = f.cooperativeMatrixTensorAddressing =
              f.cooperativeMatrixBlockLoads = false;
  p->properties.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize = 0;
  p->properties.cooperativeMatrixFlexibleDimensionsMaxDimension = 0;
  p->properties.cooperativeMatrixWorkgroupScopeReservedSharedMemory = 0;
  p->cooperativeMatrixFlexibleDimensionsProperties.clear();
}

namespace {

// The A / B and C / Result component types emulated: float16 with float16 or float32
// accumulators, 8-bit integers with 32-bit ones; each with its K (or K granularity).
struct TypeSet {
  ComponentType ab, c;
  uint32_t k;
};

std::vector<TypeSet> EmulatedTypes(const profile::DeviceProfile& device) {
  std::vector<TypeSet> out;
  if (device.features.shaderFloat16) {
    out.push_back({ComponentType::kFloat16, ComponentType::kFloat16, 16});
    out.push_back({ComponentType::kFloat16, ComponentType::kFloat32, 16});
  }
  if (device.features.shaderInt8) {
    out.push_back({ComponentType::kUint8, ComponentType::kUint32, 32});
    out.push_back({ComponentType::kSint8, ComponentType::kSint32, 32});
  }
  return out;
}

}  // namespace

std::vector<profile::CooperativeMatrixProperties> EmulatedMatrixShapes(
    const profile::DeviceProfile& device) {
  std::vector<profile::CooperativeMatrixProperties> out;
  for (const TypeSet& t : EmulatedTypes(device)) {
    // NVIDIA's: 16x16xK and 16x8xK; float16 also 16x8x8.
    std::vector<std::pair<uint32_t, uint32_t>> nk = {{16, t.k}, {8, t.k}};
    if (t.k == 16) nk.push_back({8, 8});
    for (const auto& [n, k] : nk) {
      out.push_back({16, n, k, t.ab, t.ab, t.c, t.c, false, profile::Scope::kSubgroup});
    }
  }
  return out;
}

std::vector<profile::FlexibleDimensionsProperties> EmulatedFlexibleDimensions(
    const profile::DeviceProfile& device) {
  struct Granularity {
    profile::Scope scope;
    uint32_t m, n, invocations;
  };
  const Granularity granularities[] = {{profile::Scope::kSubgroup, 16, 16, 0},
                                       {profile::Scope::kWorkgroup, 16, 16, 32},
                                       {profile::Scope::kWorkgroup, 16, 16, 64},
                                       {profile::Scope::kWorkgroup, 32, 16, 128},
                                       {profile::Scope::kWorkgroup, 32, 32, 256}};
  std::vector<profile::FlexibleDimensionsProperties> out;
  for (const Granularity& g : granularities) {
    if (g.invocations > device.properties.maxComputeWorkGroupInvocations) continue;
    for (const TypeSet& t : EmulatedTypes(device)) {
      out.push_back({g.m, g.n, t.k, t.ab, t.ab, t.c, t.c, false, g.scope, g.invocations});
    }
  }
  return out;
}

run::CooperativeMatrix2DevicePropertiesNV EmulatedMatrix2Properties(
    const profile::DeviceProfile& device) {
  run::CooperativeMatrix2DevicePropertiesNV p;
  p.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize =
      std::min(256u, device.properties.maxComputeWorkGroupInvocations);
  p.cooperativeMatrixFlexibleDimensionsMaxDimension = 1024;
  // The lowering keeps Workgroup-scope matrices in Workgroup memory: a quarter of it is kept
  // from the application (the H100 keeps 8 KiB of 48).
  p.cooperativeMatrixWorkgroupScopeReservedSharedMemory =
      std::min(8192u, device.properties.maxComputeSharedMemorySize / 4);
  return p;
}

profile::DeviceProfile Advertised(const profile::DeviceProfile& device, const Emulation& e) {
  profile::DeviceProfile p = device;
  auto add_extension = [&](const char* name) {
    if (!p.HasExtension(name)) {
      p.extensions.push_back(name);
      std::sort(p.extensions.begin(), p.extensions.end());
    }
  };
  if (e.matrices) {
    add_extension(kKhrCooperativeMatrix);
    p.features.cooperativeMatrix = true;
    p.features.cooperativeMatrixRobustBufferAccess = false;
    p.properties.cooperativeMatrixSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    p.cooperativeMatrixProperties = EmulatedMatrixShapes(device);
  }
  if (e.matrix2) {
    add_extension(kNvCooperativeMatrix2);
    profile::Features& f = p.features;
    f.cooperativeMatrixWorkgroupScope = f.cooperativeMatrixFlexibleDimensions =
        f.cooperativeMatrixReductions = f.cooperativeMatrixConversions =
            f.cooperativeMatrixPerElementOperations = f.cooperativeMatrixTensorAddressing =
                f.cooperativeMatrixBlockLoads = true;
    const run::CooperativeMatrix2DevicePropertiesNV m2 = EmulatedMatrix2Properties(device);
    p.properties.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize =
        m2.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
    p.properties.cooperativeMatrixFlexibleDimensionsMaxDimension =
        m2.cooperativeMatrixFlexibleDimensionsMaxDimension;
    p.properties.cooperativeMatrixWorkgroupScopeReservedSharedMemory =
        m2.cooperativeMatrixWorkgroupScopeReservedSharedMemory;
    p.cooperativeMatrixFlexibleDimensionsProperties = EmulatedFlexibleDimensions(device);
  }
  AdvertiseVectors(e.vector, device, &p);
  return p;
}

void FillFeatures(void* chain, const Emulation& e) {
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (e.matrices && s->sType == run::kCooperativeMatrixFeaturesKHR) {
      auto* f = reinterpret_cast<run::CooperativeMatrixFeaturesKHR*>(s);
      f->cooperativeMatrix = VK_TRUE;
      f->cooperativeMatrixRobustBufferAccess = VK_FALSE;
    } else if (e.matrix2 && s->sType == run::kCooperativeMatrix2FeaturesNV) {
      auto* f = reinterpret_cast<run::CooperativeMatrix2FeaturesNV*>(s);
      f->cooperativeMatrixWorkgroupScope = f->cooperativeMatrixFlexibleDimensions =
          f->cooperativeMatrixReductions = f->cooperativeMatrixConversions =
              f->cooperativeMatrixPerElementOperations = f->cooperativeMatrixTensorAddressing =
                  f->cooperativeMatrixBlockLoads = VK_TRUE;
    }
  }
  FillVectorFeatures(chain, e.vector);
}

void FillProperties(void* chain, const Emulation& e, const profile::DeviceProfile& device) {
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (e.matrices && s->sType == run::kPhysicalDeviceCooperativeMatrixPropertiesKHR) {
      reinterpret_cast<run::CooperativeMatrixDevicePropertiesKHR*>(s)
          ->cooperativeMatrixSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    } else if (e.matrix2 && s->sType == run::kCooperativeMatrix2PropertiesNV) {
      auto* p = reinterpret_cast<run::CooperativeMatrix2DevicePropertiesNV*>(s);
      run::CooperativeMatrix2DevicePropertiesNV m2 = EmulatedMatrix2Properties(device);
      m2.pNext = p->pNext;
      *p = m2;
    }
  }
  FillVectorProperties(chain, e.vector);
}

bool DeclaresKhrMatrices(std::span<const uint32_t> words) {
  return DeclaresCapability(words, kCooperativeMatrixKHR);
}

}  // namespace coopspv::layer
