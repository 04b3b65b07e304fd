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
inline constexpr const char* kNvCooperativeMatrix = "VK_NV_cooperative_matrix";
inline constexpr uint32_t kNvCooperativeMatrixSpecVersion = 1;
inline constexpr const char* kKhrShaderBfloat16 = "VK_KHR_shader_bfloat16";
inline constexpr uint32_t kKhrShaderBfloat16SpecVersion = 1;

// VK_NV_cooperative_matrix's structures are in Debian's headers; VK_KHR_shader_bfloat16's is
// declared with the other newer ones in source/run/vulkan.h.
using run::kShaderBfloat16FeaturesKHR;
using run::ShaderBfloat16FeaturesKHR;
inline constexpr auto kCooperativeMatrixFeaturesNV =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV;
inline constexpr auto kCooperativeMatrixDevicePropertiesNV =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_PROPERTIES_NV;

// What is emulated on one device.
struct Emulation {
  bool matrices = false;   // VK_KHR_cooperative_matrix.
  bool matrix2 = false;    // VK_NV_cooperative_matrix2 (on KHR matrices, native or emulated).
  VectorEmulation vector;  // VK_NV_cooperative_vector (source/layer/emulate_coopvec.h).
  bool matrices_nv = false;  // VK_NV_cooperative_matrix (lowered with the KHR ones).
  // VK_KHR_shader_bfloat16, with emulated KHR matrices on a device without shaderBFloat16Type:
  // --legalize-for-device's --lower-small-floats computes bfloat16 in float32.
  bool bfloat16 = false;
  bool any() const {
    return matrices || matrix2 || matrices_nv || vector.vectors || vector.replicated_composites;
  }
};

// Why the device cannot have the matrices emulated ("" when it can): the lowering exchanges
// elements with subgroup shuffles in compute shaders, and needs a Vulkan 1.1 device.
std::string WhyNoEmulation(uint32_t api_version, VkShaderStageFlags subgroup_stages,
                           VkSubgroupFeatureFlags subgroup_operations);

// The device without its own VK_KHR_cooperative_matrix or VK_NV_cooperative_matrix2
// (coopspv.hide_native).
void RemoveNativeMatrices(profile::DeviceProfile* profile);
void RemoveNativeMatrix2(profile::DeviceProfile* profile);
void RemoveNativeMatricesNV(profile::DeviceProfile* profile);

// The Subgroup-scope shapes advertised: the NVIDIA ones (which applications are written for)
// whose component types the device has (float16 with shaderFloat16, 8-bit integers with
// shaderInt8, bfloat16 where `e.bfloat16` or the device has shaderBFloat16Type); the lowering
// takes any shape, these keep every row within one subgroup's slots. The 8-bit integer ones
// also with saturating accumulation, which the lowering does.
std::vector<profile::CooperativeMatrixProperties> EmulatedMatrixShapes(
    const profile::DeviceProfile& device, const Emulation& e);
// VK_NV_cooperative_matrix's list: the same shapes of float16 and 8-bit integers (the NV
// structure has neither bfloat16 nor saturating accumulation).
std::vector<profile::CooperativeMatrixProperties> EmulatedMatrixShapesNV(
    const profile::DeviceProfile& device);
// The flexible-dimension granularities advertised with matrix2: the same component types, at
// Subgroup scope (16 x 16) and at Workgroup scope for 32 to 256 invocations, as NVIDIA's.
std::vector<profile::FlexibleDimensionsProperties> EmulatedFlexibleDimensions(
    const profile::DeviceProfile& device, const Emulation& e);
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
// The invocations of the module's workgroup (its LocalSize) when every one of them does the same
// work, else 0: a single GLCompute entry point with a literal LocalSize that reads no built-in
// but WorkgroupId and NumWorkgroups (nothing tells its invocations apart), declares no group or
// subgroup capability, has no atomic instruction and no Workgroup-scope matrix. Its subgroups
// then all perform the same cooperative loads, arithmetic and stores: written for one subgroup
// of 32 (NVIDIA's), such a module on a device of smaller subgroups has several subgroups
// storing to the same places, and where a store follows a load of the same memory (C = A * B +
// C) they race. One subgroup computes what all of them do.
uint32_t IdenticalInvocations(std::span<const uint32_t> words);
// The module with its LocalSize set to `x` x 1 x 1 (for a module IdenticalInvocations accepts).
std::vector<uint32_t> WithLocalSize(std::span<const uint32_t> words, uint32_t x);

// Whether the module needs the emulation `e` at pipeline creation: it declares the capability
// of an emulated extension (CooperativeMatrixKHR, CooperativeMatrixNV, BFloat16TypeKHR).
bool NeedsMatrixEmulation(std::span<const uint32_t> words, const Emulation& e);

}  // namespace coopspv::layer

#endif  // COOPSPV_SOURCE_LAYER_EMULATE_H_
