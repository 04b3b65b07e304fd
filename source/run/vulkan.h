// The Vulkan entry points coopspv-run calls, loaded from libvulkan.so.1 at run time, and the
// device feature structures it can enable by name (DEVICE_FEATURE), including the cooperative
// ones newer than Debian's 1.3.239 headers.
#ifndef COOPSPV_SOURCE_RUN_VULKAN_H_
#define COOPSPV_SOURCE_RUN_VULKAN_H_

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace coopspv::run {

#define COOPSPV_VK_GLOBAL(X)    \
  X(vkCreateInstance)           \
  X(vkEnumerateInstanceVersion) \
  X(vkEnumerateInstanceExtensionProperties)

#define COOPSPV_VK_INSTANCE(X)                \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkGetPhysicalDeviceFormatProperties)      \
  X(vkGetPhysicalDeviceImageFormatProperties) \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)

#define COOPSPV_VK_DEVICE(X)       \
  X(vkDestroyDevice)               \
  X(vkGetDeviceQueue)              \
  X(vkDeviceWaitIdle)              \
  X(vkCreateBuffer)                \
  X(vkDestroyBuffer)               \
  X(vkGetBufferMemoryRequirements) \
  X(vkAllocateMemory)              \
  X(vkFreeMemory)                  \
  X(vkBindBufferMemory)            \
  X(vkMapMemory)                   \
  X(vkCreateShaderModule)          \
  X(vkDestroyShaderModule)         \
  X(vkCreateDescriptorSetLayout)   \
  X(vkDestroyDescriptorSetLayout)  \
  X(vkCreatePipelineLayout)        \
  X(vkDestroyPipelineLayout)       \
  X(vkCreateComputePipelines)      \
  X(vkDestroyPipeline)             \
  X(vkCreateDescriptorPool)        \
  X(vkDestroyDescriptorPool)       \
  X(vkAllocateDescriptorSets)      \
  X(vkUpdateDescriptorSets)        \
  X(vkCreateCommandPool)           \
  X(vkDestroyCommandPool)          \
  X(vkAllocateCommandBuffers)      \
  X(vkResetCommandBuffer)          \
  X(vkBeginCommandBuffer)          \
  X(vkEndCommandBuffer)            \
  X(vkCmdBindPipeline)             \
  X(vkCmdBindDescriptorSets)       \
  X(vkCmdPushConstants)            \
  X(vkCmdDispatch)                 \
  X(vkCmdCopyBuffer)               \
  X(vkCmdPipelineBarrier)          \
  X(vkCmdResetQueryPool)           \
  X(vkCmdWriteTimestamp)           \
  X(vkCreateQueryPool)             \
  X(vkDestroyQueryPool)            \
  X(vkGetQueryPoolResults)         \
  X(vkQueueSubmit)                 \
  X(vkCreateFence)                 \
  X(vkDestroyFence)                \
  X(vkResetFences)                 \
  X(vkWaitForFences)               \
  X(vkGetBufferDeviceAddress)      \
  X(vkCreateImage)                 \
  X(vkDestroyImage)                \
  X(vkGetImageMemoryRequirements)  \
  X(vkBindImageMemory)             \
  X(vkCreateImageView)             \
  X(vkDestroyImageView)            \
  X(vkCreateBufferView)            \
  X(vkDestroyBufferView)           \
  X(vkCreateSampler)               \
  X(vkDestroySampler)              \
  X(vkCmdCopyBufferToImage)        \
  X(vkCmdCopyImageToBuffer)

struct VulkanApi {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define COOPSPV_VK_DECLARE(name) PFN_##name name = nullptr;
  COOPSPV_VK_GLOBAL(COOPSPV_VK_DECLARE)
  COOPSPV_VK_INSTANCE(COOPSPV_VK_DECLARE)
  COOPSPV_VK_DEVICE(COOPSPV_VK_DECLARE)
#undef COOPSPV_VK_DECLARE

  bool LoadInstance(VkInstance instance, std::string* error);
  bool LoadDevice(VkDevice device, std::string* error);
};

// Opens libvulkan.so.1 once per process (it stays open: unloading a driver while its threads
// live is not safe) and returns the global entry points; false with dlerror's message.
bool LoadVulkan(VulkanApi* api, std::string* error);

// "VK_ERROR_DEVICE_LOST" ... for messages.
std::string ResultName(VkResult result);

// ---- VK_NV_cooperative_vector's matrix conversion (newer than Debian's headers).

// VkConvertCooperativeVectorMatrixInfoNV; the enums (VkComponentTypeKHR,
// VkCooperativeVectorMatrixLayoutNV) as uint32_t.
struct ConvertCooperativeVectorMatrixInfoNV {
  VkStructureType sType;
  const void* pNext;
  size_t srcSize;
  VkDeviceOrHostAddressConstKHR srcData;
  size_t* pDstSize;
  VkDeviceOrHostAddressKHR dstData;
  uint32_t srcComponentType;
  uint32_t dstComponentType;
  uint32_t numRows;
  uint32_t numColumns;
  uint32_t srcLayout;
  size_t srcStride;
  uint32_t dstLayout;
  size_t dstStride;
};
inline constexpr auto kConvertCooperativeVectorMatrixInfoNV =
    static_cast<VkStructureType>(1000491004);
using PFN_ConvertCooperativeVectorMatrixNV =
    VkResult(VKAPI_PTR*)(VkDevice device, const ConvertCooperativeVectorMatrixInfoNV* info);

// ---- The cooperative property structures and the entries of the property lists (newer than
// Debian's headers; layouts and sType values from the Vulkan registry).

inline constexpr auto kCooperativeMatrixFeaturesKHR = static_cast<VkStructureType>(1000506000);
inline constexpr auto kCooperativeMatrixPropertiesKHR = static_cast<VkStructureType>(1000506001);
inline constexpr auto kPhysicalDeviceCooperativeMatrixPropertiesKHR =
    static_cast<VkStructureType>(1000506002);
inline constexpr auto kCooperativeMatrix2FeaturesNV = static_cast<VkStructureType>(1000593000);
inline constexpr auto kFlexibleDimensionsPropertiesNV = static_cast<VkStructureType>(1000593001);
inline constexpr auto kCooperativeMatrix2PropertiesNV = static_cast<VkStructureType>(1000593002);

// VkPhysicalDeviceCooperativeMatrixFeaturesKHR.
struct CooperativeMatrixFeaturesKHR {
  VkStructureType sType = kCooperativeMatrixFeaturesKHR;
  void* pNext = nullptr;
  VkBool32 cooperativeMatrix = VK_FALSE;
  VkBool32 cooperativeMatrixRobustBufferAccess = VK_FALSE;
};
struct CooperativeMatrixDevicePropertiesKHR {
  VkStructureType sType = kPhysicalDeviceCooperativeMatrixPropertiesKHR;
  void* pNext = nullptr;
  VkShaderStageFlags cooperativeMatrixSupportedStages = 0;
};
// VkPhysicalDeviceCooperativeMatrix2FeaturesNV.
struct CooperativeMatrix2FeaturesNV {
  VkStructureType sType = kCooperativeMatrix2FeaturesNV;
  void* pNext = nullptr;
  VkBool32 cooperativeMatrixWorkgroupScope = VK_FALSE;
  VkBool32 cooperativeMatrixFlexibleDimensions = VK_FALSE;
  VkBool32 cooperativeMatrixReductions = VK_FALSE;
  VkBool32 cooperativeMatrixConversions = VK_FALSE;
  VkBool32 cooperativeMatrixPerElementOperations = VK_FALSE;
  VkBool32 cooperativeMatrixTensorAddressing = VK_FALSE;
  VkBool32 cooperativeMatrixBlockLoads = VK_FALSE;
};
struct CooperativeMatrix2DevicePropertiesNV {
  VkStructureType sType = kCooperativeMatrix2PropertiesNV;
  void* pNext = nullptr;
  uint32_t cooperativeMatrixWorkgroupScopeMaxWorkgroupSize = 0;
  uint32_t cooperativeMatrixFlexibleDimensionsMaxDimension = 0;
  uint32_t cooperativeMatrixWorkgroupScopeReservedSharedMemory = 0;
};
inline constexpr auto kCooperativeVectorFeaturesNV = static_cast<VkStructureType>(1000491000);
inline constexpr auto kCooperativeVectorPropertiesNV = static_cast<VkStructureType>(1000491001);
struct CooperativeVectorDevicePropertiesNV {
  VkStructureType sType = kCooperativeVectorPropertiesNV;
  void* pNext = nullptr;
  VkShaderStageFlags cooperativeVectorSupportedStages = 0;
  VkBool32 cooperativeVectorTrainingFloat16Accumulation = VK_FALSE;
  VkBool32 cooperativeVectorTrainingFloat32Accumulation = VK_FALSE;
  uint32_t maxCooperativeVectorComponents = 0;
};
inline constexpr auto kShaderBfloat16FeaturesKHR = static_cast<VkStructureType>(1000141000);
// VkPhysicalDeviceShaderBfloat16FeaturesKHR.
struct ShaderBfloat16FeaturesKHR {
  VkStructureType sType = kShaderBfloat16FeaturesKHR;
  void* pNext = nullptr;
  VkBool32 shaderBFloat16Type = VK_FALSE;
  VkBool32 shaderBFloat16DotProduct = VK_FALSE;
  VkBool32 shaderBFloat16CooperativeMatrix = VK_FALSE;
};
inline constexpr auto kReplicatedCompositesFeaturesEXT = static_cast<VkStructureType>(1000564000);

// VkPhysicalDeviceCooperativeVectorFeaturesNV.
struct CooperativeVectorFeaturesNV {
  VkStructureType sType = kCooperativeVectorFeaturesNV;
  void* pNext = nullptr;
  VkBool32 cooperativeVector = VK_FALSE;
  VkBool32 cooperativeVectorTraining = VK_FALSE;
};
// VkPhysicalDeviceShaderReplicatedCompositesFeaturesEXT.
struct ReplicatedCompositesFeaturesEXT {
  VkStructureType sType = kReplicatedCompositesFeaturesEXT;
  void* pNext = nullptr;
  VkBool32 shaderReplicatedComposites = VK_FALSE;
};
struct CooperativeMatrixEntryKHR {
  VkStructureType sType = kCooperativeMatrixPropertiesKHR;
  void* pNext = nullptr;
  uint32_t MSize = 0, NSize = 0, KSize = 0;
  uint32_t AType = 0, BType = 0, CType = 0, ResultType = 0;
  VkBool32 saturatingAccumulation = VK_FALSE;
  uint32_t scope = 0;
};
// VkCooperativeMatrixPropertiesNV (VK_NV_cooperative_matrix): no saturatingAccumulation.
struct CooperativeMatrixEntryNV {
  VkStructureType sType = static_cast<VkStructureType>(1000249001);
  void* pNext = nullptr;
  uint32_t MSize = 0, NSize = 0, KSize = 0;
  uint32_t AType = 0, BType = 0, CType = 0, DType = 0;
  uint32_t scope = 0;
};
struct FlexibleDimensionsEntryNV {
  VkStructureType sType = kFlexibleDimensionsPropertiesNV;
  void* pNext = nullptr;
  uint32_t MGranularity = 0, NGranularity = 0, KGranularity = 0;
  uint32_t AType = 0, BType = 0, CType = 0, ResultType = 0;
  VkBool32 saturatingAccumulation = VK_FALSE;
  uint32_t scope = 0;
  uint32_t workgroupInvocations = 0;
};
struct CooperativeVectorEntryNV {
  VkStructureType sType = static_cast<VkStructureType>(1000491002);
  void* pNext = nullptr;
  uint32_t inputType = 0, inputInterpretation = 0, matrixInterpretation = 0, biasInterpretation = 0,
           resultType = 0;
  VkBool32 transpose = VK_FALSE;
};

// ---- Device features by name.

// A feature structure of the pNext chain: sType, pNext, then `fields` VkBool32 members. The
// Vulkan 1.0 features (VkPhysicalDeviceFeatures) are index 0, inside VkPhysicalDeviceFeatures2.
struct FeatureStruct {
  const char* name;       // "Vulkan12Features", "CooperativeMatrixFeaturesKHR", ...
  VkStructureType stype;  // For index 0: VkPhysicalDeviceFeatures2's.
  const char* extension;  // Needed to chain it; nullptr when core (Vulkan 1.3 devices).
  std::vector<std::string_view> fields;
  size_t Size() const { return (16 + 4 * fields.size() + 7) / 8 * 8; }
};
const std::vector<FeatureStruct>& FeatureStructs();

struct FeatureRef {
  size_t structure = 0;  // Index into FeatureStructs().
  size_t field = 0;
  std::string Name() const;  // "Vulkan12Features.shaderFloat16", or "shaderInt64" for 1.0.
};

// A DEVICE_FEATURE name: "shaderInt64", "Vulkan12Features.shaderFloat16", Amber's
// "Float16Int8Features.shaderFloat16", "Storage8BitFeatures...", "SubgroupSizeControl...",
// "CooperativeMatrixFeaturesKHR.cooperativeMatrix", with or without "VkPhysicalDevice".
bool FindFeature(std::string_view name, FeatureRef* ref);

// The DEVICE_PROPERTY names Amber knows: the Boolean float-controls properties of Vulkan 1.2
// ("FloatControlsProperties.shaderDenormPreserveFloat16", ...), each with its field.
struct FloatControlProperty {
  const char* name;
  VkBool32 VkPhysicalDeviceVulkan12Properties::*field;
};
const std::vector<FloatControlProperty>& FloatControlProperties();

// Feature structures as blobs, chained through pNext from `head` (a VkPhysicalDeviceFeatures2).
class FeatureChain {
 public:
  // Chains the structures whose `include` is true.
  explicit FeatureChain(const std::vector<bool>& include);
  FeatureChain(const FeatureChain&) = delete;
  FeatureChain& operator=(const FeatureChain&) = delete;

  VkPhysicalDeviceFeatures2* head() {
    return reinterpret_cast<VkPhysicalDeviceFeatures2*>(blobs_[0].data());
  }
  bool Has(size_t structure) const { return !blobs_[structure].empty(); }
  bool Get(const FeatureRef& ref) const;
  void Set(const FeatureRef& ref, bool value);

 private:
  uint32_t* Field(const FeatureRef& ref) const;
  std::vector<std::vector<uint64_t>> blobs_;  // uint64_t: 8-byte aligned structures.
};

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_VULKAN_H_
