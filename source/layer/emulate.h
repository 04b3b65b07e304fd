// Emulated VK_KHR_cooperative_matrix and VK_NV_cooperative_matrix2: what VK_LAYER_coopspv
// advertises on a device without them (or whose own it hides), and how it tells a module that
// needs the lowering. docs/layer.md says
// what is advertised and why.
#ifndef COOPSPV_SOURCE_LAYER_EMULATE_H_
#define COOPSPV_SOURCE_LAYER_EMULATE_H_

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "source/layer/emulate_coopvec.h"
#include "source/profile/device_profile.h"
#include "source/run/vulkan.h"

namespace coopspv::layer {

inline constexpr const char* kKhrCooperativeMatrix = "VK_KHR_cooperative_matrix";
inline constexpr uint32_t kKhrCooperativeMatrixSpecVersion = 2;
inline constexpr const char* kNvCooperativeMatrix2 = "VK_NV_cooperative_matrix2";
inline constexpr uint32_t kNvCooperativeMatrix2SpecVersion = 1;

// What is emulated on one device.
struct Emulation {
  bool matrices = false;   // VK_KHR_cooperative_matrix.
  bool matrix2 = false;    // VK_NV_cooperative_matrix2 (on KHR matrices, native or emulated).
  VectorEmulation vector;  // VK_NV_cooperative_vector (source/layer/emulate_coopvec.h).
  bool any() const { return matrices || matrix2 || vector.vectors || vector.replicated_composites; }
};

// Why the device cannot have the matrices emulated ("" when it can): the lowering exchanges
// elements with subgroup shuffles in compute shaders, and needs a Vulkan 1.1 device.
std::string WhyNoEmulation(uint32_t api_version, VkShaderStageFlags subgroup_stages,
                           VkSubgroupFeatureFlags subgroup_operations);

// The device without its own VK_KHR_cooperative_matrix or VK_NV_cooperative_matrix2
// (coopspv.hide_native).
void RemoveNativeMatrices(profile::DeviceProfile* profile);
void RemoveNativeMatrix2(profile::DeviceProfile* profile);

// The Subgroup-scope shapes advertised: the NVIDIA ones (which applications are written for)
// whose component types the device has (float16 with shaderFloat16, 8-bit integers with
// shaderInt8); the lowering takes any shape, these keep every row within one subgroup's slots.
std::vector<profile::CooperativeMatrixProperties> EmulatedMatrixShapes(
    const profile::DeviceProfile& device);
// The flexible-dimension granularities advertised with matrix2: the same component types, at
// Subgroup scope (16 x 16) and at Workgroup scope for 32 to 256 invocations, as NVIDIA's.
std::vector<profile::FlexibleDimensionsProperties> EmulatedFlexibleDimensions(
    const profile::DeviceProfile& device);
// VkPhysicalDeviceCooperativeMatrix2PropertiesNV as advertised.
run::CooperativeMatrix2DevicePropertiesNV EmulatedMatrix2Properties(
    const profile::DeviceProfile& device);

// The device as the application sees it.
profile::DeviceProfile Advertised(const profile::DeviceProfile& device, const Emulation& e);

// The feature and property structures of a pNext chain, filled as advertised.
void FillFeatures(void* chain, const Emulation& e);
void FillProperties(void* chain, const Emulation& e, const profile::DeviceProfile& device);

// Whether the module declares the CooperativeMatrixKHR capability (capabilities come first).
bool DeclaresKhrMatrices(std::span<const uint32_t> words);

}  // namespace coopspv::layer

#endif  // COOPSPV_SOURCE_LAYER_EMULATE_H_
