// Emulated VK_NV_cooperative_vector (with VK_EXT_shader_replicated_composites, which its modules
// use for vector constants): what VK_LAYER_coopspv advertises on a device without it (or whose
// own it hides), how the lowering is asked to read the optimal matrix layouts, and
// vkConvertCooperativeVectorMatrixNV on the host into those layouts. docs/layer.md says what is
// advertised and why.
#ifndef COOPSPV_SOURCE_LAYER_EMULATE_COOPVEC_H_
#define COOPSPV_SOURCE_LAYER_EMULATE_COOPVEC_H_

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "source/profile/device_profile.h"
#include "source/run/vulkan.h"

namespace coopspv::layer {

inline constexpr const char* kNvCooperativeVector = "VK_NV_cooperative_vector";
inline constexpr uint32_t kNvCooperativeVectorSpecVersion = 4;
inline constexpr const char* kExtReplicatedComposites = "VK_EXT_shader_replicated_composites";
inline constexpr uint32_t kExtReplicatedCompositesSpecVersion = 1;
// The structures, newer than Debian's headers, are declared in source/run/vulkan.h.
using run::CooperativeVectorFeaturesNV;
using run::kCooperativeVectorFeaturesNV;
using run::kCooperativeVectorPropertiesNV;
using run::kReplicatedCompositesFeaturesEXT;
using run::ReplicatedCompositesFeaturesEXT;

// The float atomic adds on buffer memory the device has (VK_EXT_shader_atomic_float and
// VK_EXT_shader_atomic_float2): the lowering of the training instructions adds atomically.
struct AtomicFloatAdds {
  bool float16 = false, float32 = false, float64 = false;
};
AtomicFloatAdds ReadAtomicFloatAdds(const run::VulkanApi& vk, VkPhysicalDevice device,
                                    const profile::DeviceProfile& real);

// What of cooperative vectors is emulated on one device.
struct VectorEmulation {
  bool vectors = false;                // VK_NV_cooperative_vector.
  bool replicated_composites = false;  // VK_EXT_shader_replicated_composites, with it.
  AtomicFloatAdds atomics;             // Training, where the device adds floats atomically.
  bool training() const { return atomics.float16 || atomics.float32; }
};

// The device without its own VK_NV_cooperative_vector (coopspv.hide_native).
void RemoveNativeVectors(profile::DeviceProfile* profile);

// The combinations advertised (vkGetPhysicalDeviceCooperativeVectorPropertiesNV): NVIDIA's
// (which applications are written for) whose types the device has, float16 ones with
// shaderFloat16, 8-bit integer ones with shaderInt8, all with transpose (the lowering reads a
// transposed matrix as easily), and float32 throughout.
std::vector<profile::CooperativeVectorProperties> EmulatedVectorProperties(
    const profile::DeviceProfile& device);
// VkPhysicalDeviceCooperativeVectorPropertiesNV as advertised.
run::CooperativeVectorDevicePropertiesNV EmulatedVectorDeviceProperties(const VectorEmulation& e);

// The device profile as the application sees it, with the emulated vectors.
void AdvertiseVectors(const VectorEmulation& e, const profile::DeviceProfile& device,
                      profile::DeviceProfile* advertised);
// The feature and property structures of a pNext chain, filled as advertised.
void FillVectorFeatures(void* chain, const VectorEmulation& e);
void FillVectorProperties(void* chain, const VectorEmulation& e);

// The argument of the --lower-coop-vector the layer runs before --legalize-for-device: the
// optimal layouts read as row-major with a tight stride (the layout
// vkConvertCooperativeVectorMatrixNV writes them in here), and the atomic float adds the device
// has for the training instructions.
std::string LowerCoopVectorArgument(const VectorEmulation& e);

// Whether the module declares the capability (capabilities come first).
bool DeclaresCapability(std::span<const uint32_t> words, uint32_t capability);
// CooperativeVectorNV or CooperativeVectorTrainingNV.
bool DeclaresCoopVectors(std::span<const uint32_t> words);
inline constexpr uint32_t kReplicatedCompositesEXT = 6024;

// vkConvertCooperativeVectorMatrixNV on host memory: the size query (dstData NULL: *pDstSize is
// the size needed), VK_INCOMPLETE when *pDstSize is too small (nothing written), else the
// conversion, with InferencingOptimal and TrainingOptimal read and written as row-major with a
// tight stride. Component types: the same on both sides, or any two of float16, float32,
// float64, E4M3 and E5M2 (round to nearest even; E4M3 / E5M2 saturate as the lowering's
// conversions do). VK_ERROR_UNKNOWN with `error` for what breaks the command's valid usage.
VkResult ConvertMatrixOnHost(const run::ConvertCooperativeVectorMatrixInfoNV& info,
                             std::string* error);

}  // namespace coopspv::layer

#endif  // COOPSPV_SOURCE_LAYER_EMULATE_COOPVEC_H_
