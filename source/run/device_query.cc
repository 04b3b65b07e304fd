#include "source/run/device_query.h"

#include <algorithm>
#include <initializer_list>

namespace coopspv::run {

std::string ApiVersionString(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
         "." + std::to_string(VK_API_VERSION_PATCH(v));
}

namespace {

// vkGetPhysicalDevice*PropertiesNV/KHR(physicalDevice, pPropertyCount, pProperties): the list
// the driver reports; empty when the instance has no such command.
template <typename Entry>
std::vector<Entry> QueryList(const VulkanApi& vk, VkInstance instance, VkPhysicalDevice device,
                             const char* command) {
  using Fn = VkResult (*)(VkPhysicalDevice, uint32_t*, Entry*);
  const auto fn = reinterpret_cast<Fn>(vk.vkGetInstanceProcAddr(instance, command));
  if (fn == nullptr) return {};
  uint32_t count = 0;
  if (fn(device, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<Entry> entries(count);
  if (fn(device, &count, entries.data()) < 0) return {};
  entries.resize(std::min<size_t>(count, entries.size()));
  return entries;
}

bool KnownTypes(std::initializer_list<uint32_t> types) {
  for (uint32_t t : types) {
    if (!profile::IsKnownComponentType(t)) return false;
  }
  return true;
}

profile::Scope ToScope(uint32_t scope) { return static_cast<profile::Scope>(scope); }
profile::ComponentType ToType(uint32_t type) { return static_cast<profile::ComponentType>(type); }
bool KnownScope(uint32_t scope) { return scope == 1 || scope == 2 || scope == 3 || scope == 5; }

}  // namespace

std::set<std::string> DeviceExtensions(const VulkanApi& vk, VkPhysicalDevice device) {
  uint32_t count = 0;
  vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> props(count);
  vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, props.data());
  std::set<std::string> out;
  for (uint32_t i = 0; i < count && i < props.size(); ++i) out.insert(props[i].extensionName);
  return out;
}

void ReadDeviceProfile(const VulkanApi& vk, VkInstance vk_instance, VkPhysicalDevice device,
                       profile::DeviceProfile* out, std::vector<std::string>* notes) {
  DeviceProperties props;
  props.Query(vk, device);
  const VkPhysicalDeviceProperties& p = props.base.properties;
  const bool v13 = p.apiVersion >= VK_API_VERSION_1_3;
  profile::DeviceProfile& d = *out;
  d.deviceName = p.deviceName;
  d.apiVersion = ApiVersionString(p.apiVersion);
  if (v13) d.driver = std::string(props.v12.driverName) + " " + props.v12.driverInfo;
  const std::set<std::string> extensions = DeviceExtensions(vk, device);
  d.extensions.assign(extensions.begin(), extensions.end());
  auto has = [&](const char* e) { return extensions.count(e) != 0; };

  // Features: every structure the device has (its extension, or Vulkan 1.3 for the core ones).
  const auto& structs = FeatureStructs();
  std::vector<bool> include(structs.size());
  for (size_t s = 1; s < structs.size(); ++s) {
    include[s] = structs[s].extension ? has(structs[s].extension) : v13;
  }
  FeatureChain chain(include);
  vk.vkGetPhysicalDeviceFeatures2(device, chain.head());
  auto feature = [&](const char* name) {
    FeatureRef ref;
    return FindFeature(name, &ref) && chain.Get(ref);
  };
  profile::Features& f = d.features;
  f.cooperativeMatrix = feature("CooperativeMatrixFeaturesKHR.cooperativeMatrix");
  f.cooperativeMatrixRobustBufferAccess =
      feature("CooperativeMatrixFeaturesKHR.cooperativeMatrixRobustBufferAccess");
  const char* const matrix2[] = {"cooperativeMatrixWorkgroupScope",
                                 "cooperativeMatrixFlexibleDimensions",
                                 "cooperativeMatrixReductions",
                                 "cooperativeMatrixConversions",
                                 "cooperativeMatrixPerElementOperations",
                                 "cooperativeMatrixTensorAddressing",
                                 "cooperativeMatrixBlockLoads"};
  bool* const matrix2_fields[] = {&f.cooperativeMatrixWorkgroupScope,
                                  &f.cooperativeMatrixFlexibleDimensions,
                                  &f.cooperativeMatrixReductions,
                                  &f.cooperativeMatrixConversions,
                                  &f.cooperativeMatrixPerElementOperations,
                                  &f.cooperativeMatrixTensorAddressing,
                                  &f.cooperativeMatrixBlockLoads};
  for (size_t k = 0; k < 7; ++k) {
    *matrix2_fields[k] =
        feature(("CooperativeMatrix2FeaturesNV." + std::string(matrix2[k])).c_str());
  }
  f.cooperativeVector = feature("CooperativeVectorFeaturesNV.cooperativeVector");
  f.cooperativeVectorTraining = feature("CooperativeVectorFeaturesNV.cooperativeVectorTraining");
  f.shaderBFloat16Type = feature("ShaderBfloat16FeaturesKHR.shaderBFloat16Type");
  f.shaderBFloat16DotProduct = feature("ShaderBfloat16FeaturesKHR.shaderBFloat16DotProduct");
  f.shaderBFloat16CooperativeMatrix =
      feature("ShaderBfloat16FeaturesKHR.shaderBFloat16CooperativeMatrix");
  f.shaderFloat8 = feature("ShaderFloat8FeaturesEXT.shaderFloat8");
  f.shaderFloat8CooperativeMatrix =
      feature("ShaderFloat8FeaturesEXT.shaderFloat8CooperativeMatrix");
  f.shaderReplicatedComposites =
      feature("ShaderReplicatedCompositesFeaturesEXT.shaderReplicatedComposites");
  f.shaderFloat64 = feature("shaderFloat64");
  f.shaderInt64 = feature("shaderInt64");
  f.shaderInt16 = feature("shaderInt16");
  f.shaderFloat16 = feature("Vulkan12Features.shaderFloat16");
  f.shaderInt8 = feature("Vulkan12Features.shaderInt8");
  f.storageBuffer16BitAccess = feature("Vulkan11Features.storageBuffer16BitAccess");
  f.uniformAndStorageBuffer16BitAccess =
      feature("Vulkan11Features.uniformAndStorageBuffer16BitAccess");
  f.storagePushConstant16 = feature("Vulkan11Features.storagePushConstant16");
  f.storageBuffer8BitAccess = feature("Vulkan12Features.storageBuffer8BitAccess");
  f.uniformAndStorageBuffer8BitAccess =
      feature("Vulkan12Features.uniformAndStorageBuffer8BitAccess");
  f.storagePushConstant8 = feature("Vulkan12Features.storagePushConstant8");
  f.vulkanMemoryModel = feature("Vulkan12Features.vulkanMemoryModel");
  f.vulkanMemoryModelDeviceScope = feature("Vulkan12Features.vulkanMemoryModelDeviceScope");
  f.vulkanMemoryModelAvailabilityVisibilityChains =
      feature("Vulkan12Features.vulkanMemoryModelAvailabilityVisibilityChains");
  f.bufferDeviceAddress = feature("Vulkan12Features.bufferDeviceAddress");
  f.scalarBlockLayout = feature("Vulkan12Features.scalarBlockLayout");
  f.subgroupSizeControl = feature("Vulkan13Features.subgroupSizeControl");
  f.computeFullSubgroups = feature("Vulkan13Features.computeFullSubgroups");
  f.shaderIntegerDotProduct = feature("Vulkan13Features.shaderIntegerDotProduct");
  f.maintenance4 = feature("Vulkan13Features.maintenance4");

  // Limits and the cooperative property structures.
  profile::Properties& q = d.properties;
  const VkPhysicalDeviceLimits& limits = p.limits;
  if (v13) {
    q.subgroupSize = props.v11.subgroupSize;
    q.subgroupSupportedStages = props.v11.subgroupSupportedStages;
    q.minSubgroupSize = props.v13.minSubgroupSize;
    q.maxSubgroupSize = props.v13.maxSubgroupSize;
    q.maxComputeWorkgroupSubgroups = props.v13.maxComputeWorkgroupSubgroups;
  }
  q.maxComputeWorkGroupInvocations = limits.maxComputeWorkGroupInvocations;
  for (int k = 0; k < 3; ++k) q.maxComputeWorkGroupSize[k] = limits.maxComputeWorkGroupSize[k];
  q.maxComputeSharedMemorySize = limits.maxComputeSharedMemorySize;
  CooperativeMatrixDevicePropertiesKHR matrix;
  CooperativeMatrix2DevicePropertiesNV matrix2_props;
  CooperativeVectorDevicePropertiesNV vector;
  VkPhysicalDeviceCooperativeMatrixPropertiesNV matrix_nv{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_PROPERTIES_NV};
  VkPhysicalDeviceProperties2 base{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  if (has("VK_NV_cooperative_matrix")) {
    matrix_nv.pNext = base.pNext;
    base.pNext = &matrix_nv;
  }
  if (has("VK_KHR_cooperative_matrix")) {
    matrix.pNext = base.pNext;
    base.pNext = &matrix;
  }
  if (has("VK_NV_cooperative_matrix2")) {
    matrix2_props.pNext = base.pNext;
    base.pNext = &matrix2_props;
  }
  if (has("VK_NV_cooperative_vector")) {
    vector.pNext = base.pNext;
    base.pNext = &vector;
  }
  vk.vkGetPhysicalDeviceProperties2(device, &base);
  q.cooperativeMatrixSupportedStages = matrix.cooperativeMatrixSupportedStages;
  if (has("VK_NV_cooperative_matrix")) {
    q.cooperativeMatrixSupportedStagesNV = matrix_nv.cooperativeMatrixSupportedStages;
  }
  q.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize =
      matrix2_props.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
  q.cooperativeMatrixFlexibleDimensionsMaxDimension =
      matrix2_props.cooperativeMatrixFlexibleDimensionsMaxDimension;
  q.cooperativeMatrixWorkgroupScopeReservedSharedMemory =
      matrix2_props.cooperativeMatrixWorkgroupScopeReservedSharedMemory;
  q.cooperativeVectorSupportedStages = vector.cooperativeVectorSupportedStages;
  q.cooperativeVectorTrainingFloat16Accumulation =
      vector.cooperativeVectorTrainingFloat16Accumulation != VK_FALSE;
  q.cooperativeVectorTrainingFloat32Accumulation =
      vector.cooperativeVectorTrainingFloat32Accumulation != VK_FALSE;
  q.maxCooperativeVectorComponents = vector.maxCooperativeVectorComponents;

  // The property lists. Entries with a component type or scope this build has no name for are
  // left out, with a note.
  auto copy = [&](const char* extension, const char* command, const char* list, auto entry,
                  auto known, auto convert, auto* out) {
    if (!has(extension)) return;
    const auto entries = QueryList<decltype(entry)>(vk, vk_instance, device, command);
    for (size_t i = 0; i < entries.size(); ++i) {
      if (known(entries[i])) {
        out->push_back(convert(entries[i]));
      } else {
        notes->push_back(std::string(list) + " entry " + std::to_string(i) +
                         " has a component type or scope this build does not know; left out");
      }
    }
  };
  auto known_matrix = [](const auto& e) {
    return KnownTypes({e.AType, e.BType, e.CType, e.ResultType}) && KnownScope(e.scope);
  };
  copy(
      "VK_KHR_cooperative_matrix", "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR",
      "cooperativeMatrixProperties", CooperativeMatrixEntryKHR{}, known_matrix,
      [](const CooperativeMatrixEntryKHR& e) {
        return profile::CooperativeMatrixProperties{e.MSize,
                                                    e.NSize,
                                                    e.KSize,
                                                    ToType(e.AType),
                                                    ToType(e.BType),
                                                    ToType(e.CType),
                                                    ToType(e.ResultType),
                                                    e.saturatingAccumulation != VK_FALSE,
                                                    ToScope(e.scope)};
      },
      &d.cooperativeMatrixProperties);
  copy(
      "VK_NV_cooperative_matrix", "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV",
      "cooperativeMatrixPropertiesNV", CooperativeMatrixEntryNV{},
      [](const CooperativeMatrixEntryNV& e) {
        return KnownTypes({e.AType, e.BType, e.CType, e.DType}) && KnownScope(e.scope);
      },
      [](const CooperativeMatrixEntryNV& e) {
        return profile::CooperativeMatrixProperties{
            e.MSize,         e.NSize,         e.KSize, ToType(e.AType), ToType(e.BType),
            ToType(e.CType), ToType(e.DType), false,   ToScope(e.scope)};
      },
      &d.cooperativeMatrixPropertiesNV);
  copy(
      "VK_NV_cooperative_matrix2",
      "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV",
      "cooperativeMatrixFlexibleDimensionsProperties", FlexibleDimensionsEntryNV{}, known_matrix,
      [](const FlexibleDimensionsEntryNV& e) {
        return profile::FlexibleDimensionsProperties{
            e.MGranularity,       e.NGranularity,
            e.KGranularity,       ToType(e.AType),
            ToType(e.BType),      ToType(e.CType),
            ToType(e.ResultType), e.saturatingAccumulation != VK_FALSE,
            ToScope(e.scope),     e.workgroupInvocations};
      },
      &d.cooperativeMatrixFlexibleDimensionsProperties);
  copy(
      "VK_NV_cooperative_vector", "vkGetPhysicalDeviceCooperativeVectorPropertiesNV",
      "cooperativeVectorProperties", CooperativeVectorEntryNV{},
      [](const CooperativeVectorEntryNV& e) {
        return KnownTypes({e.inputType, e.inputInterpretation, e.matrixInterpretation,
                           e.biasInterpretation, e.resultType});
      },
      [](const CooperativeVectorEntryNV& e) {
        return profile::CooperativeVectorProperties{ToType(e.inputType),
                                                    ToType(e.inputInterpretation),
                                                    ToType(e.matrixInterpretation),
                                                    ToType(e.biasInterpretation),
                                                    ToType(e.resultType),
                                                    e.transpose != VK_FALSE};
      },
      &d.cooperativeVectorProperties);
}

}  // namespace coopspv::run
