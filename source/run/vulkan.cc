#include "source/run/vulkan.h"

#include <dlfcn.h>

#include <cstring>
#include <mutex>

namespace coopspv::run {
namespace {

// Structure types newer than Debian's 1.3.239 headers (values from the Vulkan registry).
constexpr auto kShaderFloat8FeaturesEXT = static_cast<VkStructureType>(1000567000);

std::vector<std::string_view> Split(std::string_view names) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < names.size()) {
    size_t end = names.find(' ', start);
    if (end == std::string_view::npos) end = names.size();
    if (end > start) out.push_back(names.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Amber's names for structures that Vulkan 1.1 - 1.3 folded into the VulkanNNFeatures ones.
struct Alias {
  const char* amber;
  const char* structure;
};
constexpr Alias kAliases[] = {
    {"Features", ""},
    {"Storage16BitFeatures", "Vulkan11Features"},
    {"VariablePointerFeatures", "Vulkan11Features"},
    {"VariablePointersFeatures", "Vulkan11Features"},
    {"Float16Int8Features", "Vulkan12Features"},
    {"ShaderFloat16Int8Features", "Vulkan12Features"},
    {"Storage8BitFeatures", "Vulkan12Features"},
    {"8BitStorageFeatures", "Vulkan12Features"},
    {"ShaderSubgroupExtendedTypesFeatures", "Vulkan12Features"},
    {"VulkanMemoryModelFeatures", "Vulkan12Features"},
    {"BufferDeviceAddressFeatures", "Vulkan12Features"},
    {"ScalarBlockLayoutFeatures", "Vulkan12Features"},
    {"SubgroupSizeControl", "Vulkan13Features"},
    {"SubgroupSizeControlFeatures", "Vulkan13Features"},
    {"ShaderIntegerDotProductFeatures", "Vulkan13Features"},
    {"Maintenance4Features", "Vulkan13Features"},
    {"ZeroInitializeWorkgroupMemoryFeatures", "Vulkan13Features"},
};

}  // namespace

bool LoadVulkan(VulkanApi* api, std::string* error) {
  static std::once_flag once;
  static void* library = nullptr;
  static std::string load_error;
  std::call_once(once, [] {
    library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* e = dlerror();
      load_error =
          std::string("cannot load the Vulkan loader libvulkan.so.1: ") + (e ? e : "unknown error");
    }
  });
  if (library == nullptr) {
    *error = load_error;
    return false;
  }
  api->vkGetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
  if (api->vkGetInstanceProcAddr == nullptr) {
    *error = "libvulkan.so.1 has no vkGetInstanceProcAddr";
    return false;
  }
#define COOPSPV_VK_LOAD(name)                                                           \
  api->name = reinterpret_cast<PFN_##name>(api->vkGetInstanceProcAddr(nullptr, #name)); \
  if (api->name == nullptr) {                                                           \
    *error = "the Vulkan loader has no " #name " (Vulkan 1.1 or later is needed)";      \
    return false;                                                                       \
  }
  COOPSPV_VK_GLOBAL(COOPSPV_VK_LOAD)
#undef COOPSPV_VK_LOAD
  return true;
}

bool VulkanApi::LoadInstance(VkInstance instance, std::string* error) {
#define COOPSPV_VK_LOAD(name)                                                  \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name)); \
  if (name == nullptr) {                                                       \
    *error = "the Vulkan instance has no " #name;                              \
    return false;                                                              \
  }
  COOPSPV_VK_INSTANCE(COOPSPV_VK_LOAD)
#undef COOPSPV_VK_LOAD
  return true;
}

bool VulkanApi::LoadDevice(VkDevice device, std::string* error) {
#define COOPSPV_VK_LOAD(name)                                              \
  name = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name)); \
  if (name == nullptr) {                                                   \
    *error = "the Vulkan device has no " #name;                            \
    return false;                                                          \
  }
  COOPSPV_VK_DEVICE(COOPSPV_VK_LOAD)
#undef COOPSPV_VK_LOAD
  return true;
}

std::string ResultName(VkResult result) {
  switch (result) {
    case VK_SUCCESS:
      return "VK_SUCCESS";
    case VK_NOT_READY:
      return "VK_NOT_READY";
    case VK_TIMEOUT:
      return "VK_TIMEOUT";
    case VK_INCOMPLETE:
      return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
      return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS:
      return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_UNKNOWN:
      return "VK_ERROR_UNKNOWN";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
      return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_INVALID_SHADER_NV:
      return "VK_ERROR_INVALID_SHADER_NV";
    case VK_PIPELINE_COMPILE_REQUIRED:
      return "VK_PIPELINE_COMPILE_REQUIRED";
    default:
      return "VkResult " + std::to_string(static_cast<int>(result));
  }
}

const std::vector<FeatureStruct>& FeatureStructs() {
  static const std::vector<FeatureStruct> structs = [] {
    std::vector<FeatureStruct> s = {
        {"", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, nullptr,
         Split("robustBufferAccess fullDrawIndexUint32 imageCubeArray independentBlend "
               "geometryShader tessellationShader sampleRateShading dualSrcBlend logicOp "
               "multiDrawIndirect drawIndirectFirstInstance depthClamp depthBiasClamp "
               "fillModeNonSolid depthBounds wideLines largePoints alphaToOne multiViewport "
               "samplerAnisotropy textureCompressionETC2 textureCompressionASTC_LDR "
               "textureCompressionBC occlusionQueryPrecise pipelineStatisticsQuery "
               "vertexPipelineStoresAndAtomics fragmentStoresAndAtomics "
               "shaderTessellationAndGeometryPointSize shaderImageGatherExtended "
               "shaderStorageImageExtendedFormats shaderStorageImageMultisample "
               "shaderStorageImageReadWithoutFormat shaderStorageImageWriteWithoutFormat "
               "shaderUniformBufferArrayDynamicIndexing shaderSampledImageArrayDynamicIndexing "
               "shaderStorageBufferArrayDynamicIndexing shaderStorageImageArrayDynamicIndexing "
               "shaderClipDistance shaderCullDistance shaderFloat64 shaderInt64 shaderInt16 "
               "shaderResourceResidency shaderResourceMinLod sparseBinding sparseResidencyBuffer "
               "sparseResidencyImage2D sparseResidencyImage3D sparseResidency2Samples "
               "sparseResidency4Samples sparseResidency8Samples sparseResidency16Samples "
               "sparseResidencyAliased variableMultisampleRate inheritedQueries")},
        {"Vulkan11Features", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, nullptr,
         Split("storageBuffer16BitAccess uniformAndStorageBuffer16BitAccess "
               "storagePushConstant16 storageInputOutput16 multiview multiviewGeometryShader "
               "multiviewTessellationShader variablePointersStorageBuffer variablePointers "
               "protectedMemory samplerYcbcrConversion shaderDrawParameters")},
        {"Vulkan12Features", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, nullptr,
         Split("samplerMirrorClampToEdge drawIndirectCount storageBuffer8BitAccess "
               "uniformAndStorageBuffer8BitAccess storagePushConstant8 shaderBufferInt64Atomics "
               "shaderSharedInt64Atomics shaderFloat16 shaderInt8 descriptorIndexing "
               "shaderInputAttachmentArrayDynamicIndexing "
               "shaderUniformTexelBufferArrayDynamicIndexing "
               "shaderStorageTexelBufferArrayDynamicIndexing "
               "shaderUniformBufferArrayNonUniformIndexing "
               "shaderSampledImageArrayNonUniformIndexing "
               "shaderStorageBufferArrayNonUniformIndexing "
               "shaderStorageImageArrayNonUniformIndexing "
               "shaderInputAttachmentArrayNonUniformIndexing "
               "shaderUniformTexelBufferArrayNonUniformIndexing "
               "shaderStorageTexelBufferArrayNonUniformIndexing "
               "descriptorBindingUniformBufferUpdateAfterBind "
               "descriptorBindingSampledImageUpdateAfterBind "
               "descriptorBindingStorageImageUpdateAfterBind "
               "descriptorBindingStorageBufferUpdateAfterBind "
               "descriptorBindingUniformTexelBufferUpdateAfterBind "
               "descriptorBindingStorageTexelBufferUpdateAfterBind "
               "descriptorBindingUpdateUnusedWhilePending descriptorBindingPartiallyBound "
               "descriptorBindingVariableDescriptorCount runtimeDescriptorArray "
               "samplerFilterMinmax scalarBlockLayout imagelessFramebuffer "
               "uniformBufferStandardLayout shaderSubgroupExtendedTypes "
               "separateDepthStencilLayouts hostQueryReset timelineSemaphore bufferDeviceAddress "
               "bufferDeviceAddressCaptureReplay bufferDeviceAddressMultiDevice vulkanMemoryModel "
               "vulkanMemoryModelDeviceScope vulkanMemoryModelAvailabilityVisibilityChains "
               "shaderOutputViewportIndex shaderOutputLayer subgroupBroadcastDynamicId")},
        {"Vulkan13Features", VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, nullptr,
         Split("robustImageAccess inlineUniformBlock "
               "descriptorBindingInlineUniformBlockUpdateAfterBind pipelineCreationCacheControl "
               "privateData shaderDemoteToHelperInvocation shaderTerminateInvocation "
               "subgroupSizeControl computeFullSubgroups synchronization2 "
               "textureCompressionASTC_HDR shaderZeroInitializeWorkgroupMemory dynamicRendering "
               "shaderIntegerDotProduct maintenance4")},
        {"CooperativeMatrixFeaturesKHR", kCooperativeMatrixFeaturesKHR, "VK_KHR_cooperative_matrix",
         Split("cooperativeMatrix cooperativeMatrixRobustBufferAccess")},
        {"CooperativeMatrixFeaturesNV",
         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV,
         "VK_NV_cooperative_matrix",
         Split("cooperativeMatrix cooperativeMatrixRobustBufferAccess")},
        {"CooperativeMatrix2FeaturesNV", kCooperativeMatrix2FeaturesNV, "VK_NV_cooperative_matrix2",
         Split("cooperativeMatrixWorkgroupScope cooperativeMatrixFlexibleDimensions "
               "cooperativeMatrixReductions cooperativeMatrixConversions "
               "cooperativeMatrixPerElementOperations cooperativeMatrixTensorAddressing "
               "cooperativeMatrixBlockLoads")},
        {"CooperativeVectorFeaturesNV", kCooperativeVectorFeaturesNV, "VK_NV_cooperative_vector",
         Split("cooperativeVector cooperativeVectorTraining")},
        {"ShaderBfloat16FeaturesKHR", kShaderBfloat16FeaturesKHR, "VK_KHR_shader_bfloat16",
         Split("shaderBFloat16Type shaderBFloat16DotProduct shaderBFloat16CooperativeMatrix")},
        {"ShaderReplicatedCompositesFeaturesEXT", kReplicatedCompositesFeaturesEXT,
         "VK_EXT_shader_replicated_composites", Split("shaderReplicatedComposites")},
        {"ShaderFloat8FeaturesEXT", kShaderFloat8FeaturesEXT, "VK_EXT_shader_float8",
         Split("shaderFloat8 shaderFloat8CooperativeMatrix")},
    };
    return s;
  }();
  return structs;
}

// The generic layout matches the headers' structures where they have them.
static_assert(sizeof(VkPhysicalDeviceFeatures) == 55 * 4);
static_assert(sizeof(VkPhysicalDeviceVulkan11Features) == (16 + 12 * 4 + 7) / 8 * 8);
static_assert(sizeof(VkPhysicalDeviceVulkan12Features) == (16 + 47 * 4 + 7) / 8 * 8);
static_assert(sizeof(VkPhysicalDeviceVulkan13Features) == (16 + 15 * 4 + 7) / 8 * 8);
static_assert(offsetof(VkPhysicalDeviceFeatures2, features) == 16);

std::string FeatureRef::Name() const {
  const FeatureStruct& s = FeatureStructs()[structure];
  const std::string field_name(s.fields[field]);
  return structure == 0 ? field_name : std::string(s.name) + "." + field_name;
}

const std::vector<FloatControlProperty>& FloatControlProperties() {
  using P = VkPhysicalDeviceVulkan12Properties;
  static const std::vector<FloatControlProperty> properties = {
#define COOPSPV_FLOAT_CONTROL(field) {"FloatControlsProperties." #field, &P::field}
      COOPSPV_FLOAT_CONTROL(shaderSignedZeroInfNanPreserveFloat16),
      COOPSPV_FLOAT_CONTROL(shaderSignedZeroInfNanPreserveFloat32),
      COOPSPV_FLOAT_CONTROL(shaderSignedZeroInfNanPreserveFloat64),
      COOPSPV_FLOAT_CONTROL(shaderDenormPreserveFloat16),
      COOPSPV_FLOAT_CONTROL(shaderDenormPreserveFloat32),
      COOPSPV_FLOAT_CONTROL(shaderDenormPreserveFloat64),
      COOPSPV_FLOAT_CONTROL(shaderDenormFlushToZeroFloat16),
      COOPSPV_FLOAT_CONTROL(shaderDenormFlushToZeroFloat32),
      COOPSPV_FLOAT_CONTROL(shaderDenormFlushToZeroFloat64),
      COOPSPV_FLOAT_CONTROL(shaderRoundingModeRTEFloat16),
      COOPSPV_FLOAT_CONTROL(shaderRoundingModeRTEFloat32),
      COOPSPV_FLOAT_CONTROL(shaderRoundingModeRTEFloat64),
      COOPSPV_FLOAT_CONTROL(shaderRoundingModeRTZFloat16),
      COOPSPV_FLOAT_CONTROL(shaderRoundingModeRTZFloat32),
      COOPSPV_FLOAT_CONTROL(shaderRoundingModeRTZFloat64),
#undef COOPSPV_FLOAT_CONTROL
  };
  return properties;
}

bool FindFeature(std::string_view name, FeatureRef* ref) {
  const auto& structs = FeatureStructs();
  if (name.starts_with("VkPhysicalDevice")) name.remove_prefix(16);
  std::string_view structure, field = name;
  const size_t dot = name.find('.');
  if (dot != std::string_view::npos) {
    structure = name.substr(0, dot);
    field = name.substr(dot + 1);
    for (const Alias& a : kAliases) {
      if (structure == a.amber) structure = a.structure;
    }
  }
  for (size_t s = 0; s < structs.size(); ++s) {
    // A bare name is a Vulkan 1.0 - 1.3 core feature.
    if (dot == std::string_view::npos ? s > 3 : structure != structs[s].name) continue;
    for (size_t f = 0; f < structs[s].fields.size(); ++f) {
      if (structs[s].fields[f] == field) {
        *ref = {s, f};
        return true;
      }
    }
  }
  return false;
}

FeatureChain::FeatureChain(const std::vector<bool>& include) {
  const auto& structs = FeatureStructs();
  blobs_.resize(structs.size());
  void* next = nullptr;
  for (size_t i = structs.size(); i-- > 0;) {
    if (i != 0 && !include[i]) continue;
    blobs_[i].assign(i == 0 ? sizeof(VkPhysicalDeviceFeatures2) / 8 : structs[i].Size() / 8, 0);
    auto* header = reinterpret_cast<VkBaseOutStructure*>(blobs_[i].data());
    header->sType = structs[i].stype;
    header->pNext = static_cast<VkBaseOutStructure*>(next);
    next = header;
  }
}

uint32_t* FeatureChain::Field(const FeatureRef& ref) const {
  auto* base = reinterpret_cast<uint8_t*>(const_cast<uint64_t*>(blobs_[ref.structure].data()));
  return reinterpret_cast<uint32_t*>(base + 16 + 4 * ref.field);
}

bool FeatureChain::Get(const FeatureRef& ref) const {
  return Has(ref.structure) && *Field(ref) != VK_FALSE;
}

void FeatureChain::Set(const FeatureRef& ref, bool value) {
  if (Has(ref.structure)) *Field(ref) = value ? VK_TRUE : VK_FALSE;
}

}  // namespace coopspv::run
