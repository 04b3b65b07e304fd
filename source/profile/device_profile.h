// A device profile: what one Vulkan device reports about the cooperative family, in Vulkan's own
// names: its extensions, feature bits, limits and the property lists of
// vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR, ...FlexibleDimensionsPropertiesNV and
// ...CooperativeVectorPropertiesNV. The validator checks a module against one
// (--device-profile) without the device. docs/device_profile.md describes the JSON form.
#ifndef COOPSPV_SOURCE_PROFILE_DEVICE_PROFILE_H_
#define COOPSPV_SOURCE_PROFILE_DEVICE_PROFILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coopspv::profile {

// VkComponentTypeKHR, with the values Vulkan gives them.
enum class ComponentType : uint32_t {
  kFloat16 = 0,
  kFloat32 = 1,
  kFloat64 = 2,
  kSint8 = 3,
  kSint16 = 4,
  kSint32 = 5,
  kSint64 = 6,
  kUint8 = 7,
  kUint16 = 8,
  kUint32 = 9,
  kUint64 = 10,
  kBFloat16 = 1000141000,
  kSint8Packed = 1000491000,
  kUint8Packed = 1000491001,
  kFloat8E4M3 = 1000491002,
  kFloat8E5M2 = 1000491003,
};
// The profile's name: "float16", "sint8", "bfloat16", "sint8_packed", "float8_e4m3", ...;
// nullptr for a value that is none of the above.
const char* ComponentTypeName(ComponentType type);
std::optional<ComponentType> ParseComponentType(std::string_view name);
bool IsKnownComponentType(uint32_t value);

// VkScopeKHR; the values are SPIR-V's Scope values.
enum class Scope : uint32_t { kDevice = 1, kWorkgroup = 2, kSubgroup = 3, kQueueFamily = 5 };
const char* ScopeName(Scope scope);  // "device", "workgroup", "subgroup", "queue_family".

// VkShaderStageFlagBits: a stage mask is a set of these.
struct StageBit {
  const char* name;  // "vertex", "compute", "raygen", ...
  uint32_t bit;
};
const std::vector<StageBit>& StageBits();

// VkCooperativeMatrixPropertiesKHR.
struct CooperativeMatrixProperties {
  uint32_t MSize = 0, NSize = 0, KSize = 0;
  ComponentType AType{}, BType{}, CType{}, ResultType{};
  bool saturatingAccumulation = false;
  Scope scope = Scope::kSubgroup;
};

// VkCooperativeMatrixFlexibleDimensionsPropertiesNV.
struct FlexibleDimensionsProperties {
  uint32_t MGranularity = 0, NGranularity = 0, KGranularity = 0;
  ComponentType AType{}, BType{}, CType{}, ResultType{};
  bool saturatingAccumulation = false;
  Scope scope = Scope::kSubgroup;
  uint32_t workgroupInvocations = 0;
};

// VkCooperativeVectorPropertiesNV.
struct CooperativeVectorProperties {
  ComponentType inputType{}, inputInterpretation{}, matrixInterpretation{}, biasInterpretation{},
      resultType{};
  bool transpose = false;
};

// The feature bits, named as Vulkan's feature structures name them. Absent: false.
struct Features {
  // VkPhysicalDeviceCooperativeMatrixFeaturesKHR.
  bool cooperativeMatrix = false;
  bool cooperativeMatrixRobustBufferAccess = false;
  // VkPhysicalDeviceCooperativeMatrix2FeaturesNV.
  bool cooperativeMatrixWorkgroupScope = false;
  bool cooperativeMatrixFlexibleDimensions = false;
  bool cooperativeMatrixReductions = false;
  bool cooperativeMatrixConversions = false;
  bool cooperativeMatrixPerElementOperations = false;
  bool cooperativeMatrixTensorAddressing = false;
  bool cooperativeMatrixBlockLoads = false;
  // VkPhysicalDeviceCooperativeVectorFeaturesNV.
  bool cooperativeVector = false;
  bool cooperativeVectorTraining = false;
  // VkPhysicalDeviceShaderBfloat16FeaturesKHR.
  bool shaderBFloat16Type = false;
  bool shaderBFloat16DotProduct = false;
  bool shaderBFloat16CooperativeMatrix = false;
  // VkPhysicalDeviceShaderFloat8FeaturesEXT.
  bool shaderFloat8 = false;
  bool shaderFloat8CooperativeMatrix = false;
  // VkPhysicalDeviceShaderReplicatedCompositesFeaturesEXT.
  bool shaderReplicatedComposites = false;
  // VkPhysicalDeviceShaderLongVectorFeaturesEXT (VK_EXT_shader_long_vector): SPV_EXT_long_vector.
  bool longVector = false;
  // Core (Vulkan 1.0 - 1.3).
  bool shaderFloat64 = false;
  bool shaderInt64 = false;
  bool shaderInt16 = false;
  bool shaderFloat16 = false;
  bool shaderInt8 = false;
  bool storageBuffer16BitAccess = false;
  bool uniformAndStorageBuffer16BitAccess = false;
  bool storagePushConstant16 = false;
  bool storageBuffer8BitAccess = false;
  bool uniformAndStorageBuffer8BitAccess = false;
  bool storagePushConstant8 = false;
  bool vulkanMemoryModel = false;
  bool vulkanMemoryModelDeviceScope = false;
  bool vulkanMemoryModelAvailabilityVisibilityChains = false;
  bool bufferDeviceAddress = false;
  bool scalarBlockLayout = false;
  bool subgroupSizeControl = false;
  bool computeFullSubgroups = false;
  bool shaderIntegerDotProduct = false;
  bool maintenance4 = false;
};

// Limits and per-device properties, in Vulkan's names. Stage masks are VkShaderStageFlags.
struct Properties {
  uint32_t subgroupSize = 0;
  uint32_t minSubgroupSize = 0;
  uint32_t maxSubgroupSize = 0;
  uint32_t subgroupSupportedStages = 0;
  uint32_t maxComputeWorkGroupInvocations = 0;
  uint32_t maxComputeWorkGroupSize[3] = {0, 0, 0};
  uint32_t maxComputeSharedMemorySize = 0;
  uint32_t maxComputeWorkgroupSubgroups = 0;
  // VkPhysicalDeviceCooperativeMatrixPropertiesKHR.
  uint32_t cooperativeMatrixSupportedStages = 0;
  // VkPhysicalDeviceCooperativeMatrixPropertiesNV::cooperativeMatrixSupportedStages; absent
  // (profiles written before it, devices without VK_NV_cooperative_matrix) means unknown, and
  // the NV stage rule does not run.
  std::optional<uint32_t> cooperativeMatrixSupportedStagesNV;
  // VkPhysicalDeviceCooperativeMatrix2PropertiesNV.
  uint32_t cooperativeMatrixWorkgroupScopeMaxWorkgroupSize = 0;
  uint32_t cooperativeMatrixFlexibleDimensionsMaxDimension = 0;
  uint32_t cooperativeMatrixWorkgroupScopeReservedSharedMemory = 0;
  // VkPhysicalDeviceCooperativeVectorPropertiesNV.
  uint32_t cooperativeVectorSupportedStages = 0;
  bool cooperativeVectorTrainingFloat16Accumulation = false;
  bool cooperativeVectorTrainingFloat32Accumulation = false;
  uint32_t maxCooperativeVectorComponents = 0;
};

struct DeviceProfile {
  // Where it came from (informational): VkPhysicalDeviceProperties::deviceName, the driver's
  // name and info, apiVersion as "1.3.255".
  std::string deviceName;
  std::string driver;
  std::string apiVersion;
  std::vector<std::string> extensions;  // Device extensions, sorted.
  Features features;
  Properties properties;
  std::vector<CooperativeMatrixProperties> cooperativeMatrixProperties;
  // vkGetPhysicalDeviceCooperativeMatrixPropertiesNV (VK_NV_cooperative_matrix): DType is kept
  // in ResultType; saturatingAccumulation is always false (the NV structure has none).
  std::vector<CooperativeMatrixProperties> cooperativeMatrixPropertiesNV;
  std::vector<FlexibleDimensionsProperties> cooperativeMatrixFlexibleDimensionsProperties;
  std::vector<CooperativeVectorProperties> cooperativeVectorProperties;

  bool HasExtension(std::string_view name) const;
  // The Vulkan minor version of apiVersion ("1.3.230": 3); 0 when it does not say.
  uint32_t ApiMinor() const;
};

// Reads the JSON form. Strict: an unknown key, a value of the wrong type or out of range, or an
// unknown enumerant name is an error naming its key path ("cooperativeMatrixProperties[3].AType:
// unknown component type \"half\""). Keys left out take the defaults above.
std::optional<DeviceProfile> Parse(std::string_view text, std::string* error);

// The JSON form, which Parse reads back to an equal profile.
std::string Write(const DeviceProfile& profile);

// The profiles compiled into the library ("lavapipe", and "h100" when its file is in the tree).
std::optional<DeviceProfile> BuiltIn(std::string_view name);
std::vector<std::string> BuiltInNames();

// A built-in name, or else JSON text: what the C API and the tools accept.
std::optional<DeviceProfile> FromNameOrText(std::string_view name_or_json, std::string* error);

}  // namespace coopspv::profile

#endif  // COOPSPV_SOURCE_PROFILE_DEVICE_PROFILE_H_
