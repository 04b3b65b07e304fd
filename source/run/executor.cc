#include "source/run/executor.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <set>

#include "include/coopspv/coopspv.hpp"
#include "source/common/float.h"
#include "source/profile/device_profile.h"
#include "source/run/compare.h"
#include "source/run/device_query.h"
#include "source/run/format.h"
#include "source/run/module_interface.h"
#include "source/run/vulkan.h"

namespace coopspv::run {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class Instance {
 public:
  ~Instance() {
    if (instance_ != VK_NULL_HANDLE && !leak_) vk.vkDestroyInstance(instance_, nullptr);
  }
  // `extensions`: INSTANCE_EXTENSION lines; one the loader lacks sets `*unsupported`.
  bool Create(std::string* error, const std::vector<Requirement>& extensions = {},
              bool* unsupported = nullptr) {
    if (!LoadVulkan(&vk, error)) return false;
    uint32_t version = 0;
    vk.vkEnumerateInstanceVersion(&version);
    if (version < VK_API_VERSION_1_1) {
      *error =
          "the Vulkan loader is version " + ApiVersionString(version) + "; 1.1 or later needed";
      return false;
    }
    std::vector<const char*> names;
    if (!extensions.empty()) {
      uint32_t count = 0;
      vk.vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
      std::vector<VkExtensionProperties> available(count);
      vk.vkEnumerateInstanceExtensionProperties(nullptr, &count, available.data());
      available.resize(std::min<size_t>(count, available.size()));
      for (const Requirement& e : extensions) {
        if (std::none_of(available.begin(), available.end(), [&](const VkExtensionProperties& p) {
              return e.name == p.extensionName;
            })) {
          *error =
              At(e.line) + "the Vulkan loader does not support the instance extension " + e.name;
          if (unsupported) *unsupported = true;
          return false;
        }
        names.push_back(e.name.c_str());
      }
    }
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "coopspv-run";
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = static_cast<uint32_t>(names.size());
    info.ppEnabledExtensionNames = names.data();
    const VkResult r = vk.vkCreateInstance(&info, nullptr, &instance_);
    if (r != VK_SUCCESS) {
      instance_ = VK_NULL_HANDLE;
      *error = "vkCreateInstance failed: " + ResultName(r) +
               (r == VK_ERROR_INCOMPATIBLE_DRIVER ? " (no Vulkan driver found)" : "");
      return false;
    }
    if (!vk.LoadInstance(instance_, error)) return false;
    uint32_t count = 0;
    vk.vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    devices_.resize(count);
    vk.vkEnumeratePhysicalDevices(instance_, &count, devices_.data());
    devices_.resize(count);
    if (devices_.empty()) {
      *error = "no Vulkan device found (is a driver installed? VK_DRIVER_FILES selects one)";
      return false;
    }
    return true;
  }

  // --device: an index, or a case-insensitive substring of the name.
  bool Select(const std::string& which, VkPhysicalDevice* device, std::string* error) {
    std::vector<std::string> names;
    for (VkPhysicalDevice d : devices_) {
      VkPhysicalDeviceProperties p;
      vk.vkGetPhysicalDeviceProperties(d, &p);
      names.push_back(p.deviceName);
    }
    auto list = [&] {
      std::string s;
      for (size_t i = 0; i < names.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(i) + ": " + names[i];
      }
      return s;
    };
    if (which.empty()) {
      *device = devices_[0];
      return true;
    }
    if (std::all_of(which.begin(), which.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        which.size() < 6) {
      const size_t index = std::stoul(which);
      if (index >= devices_.size()) {
        *error = "no Vulkan device " + which + " (devices: " + list() + ")";
        return false;
      }
      *device = devices_[index];
      return true;
    }
    for (size_t i = 0; i < names.size(); ++i) {
      if (Lower(names[i]).find(Lower(which)) != std::string::npos) {
        *device = devices_[i];
        return true;
      }
    }
    *error = "no Vulkan device named like '" + which + "' (devices: " + list() + ")";
    return false;
  }

  std::set<std::string> Extensions(VkPhysicalDevice device) const {
    return DeviceExtensions(vk, device);
  }

  void Leak() { leak_ = true; }
  const std::vector<VkPhysicalDevice>& devices() const { return devices_; }
  VkInstance handle() const { return instance_; }

  VulkanApi vk;

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  std::vector<VkPhysicalDevice> devices_;
  bool leak_ = false;
};

// A script buffer lives twice: in device-local memory, where the shaders use it, and in a
// host-visible staging copy (host-cached where the device has such memory), which the host
// fills, reads for EXPECT and push constants, and exchanges with the device copy by transfer
// commands around a RUN. A shader never reads host memory across the bus, and the host never
// reads uncached device memory: both would make timings and large buffers slow by orders of
// magnitude on a discrete GPU.
//
// A buffer a pipeline binds as an image lives in a VkImage too (or only, when nothing binds it as
// a buffer): uploads copy the staging bytes into it texel by texel, downloads copy its texels
// back, and between them it stays in VK_IMAGE_LAYOUT_GENERAL, the layout its descriptors name
// (as Amber's). A multisampled image is never copied, as in Amber: its texels start undefined and
// EXPECT reads the script's data.
struct DeviceBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;  // Device-local; none for a buffer bound only as an image.
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkBuffer staging = VK_NULL_HANDLE;  // Host-visible.
  VkDeviceMemory staging_memory = VK_NULL_HANDLE;
  uint8_t* mapped = nullptr;  // The staging copy.
  VkDeviceSize size = 0;      // What the script declared; the allocations may be larger.
  VkDeviceSize allocated = 0;

  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory image_memory = VK_NULL_HANDLE;
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageAspectFlags aspect = 0;
  uint32_t copy_level = 0;  // The first mip level the bytes go to, and the one read back.
  std::vector<std::pair<uint32_t, VkImageView>> views;  // By BASE_MIP_LEVEL.
  VkBufferView texel_view = VK_NULL_HANDLE;             // For texel buffer descriptors.
};

struct DevicePipeline {
  VkShaderModule module = VK_NULL_HANDLE;
  std::vector<VkDescriptorSetLayout> set_layouts;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets;
  // The dynamic offsets vkCmdBindDescriptorSets takes: by set, then by binding number, then by
  // array element (as Amber orders them).
  std::vector<uint32_t> dynamic_offsets;
  int push_constant_buffer = -1;
  uint32_t push_constant_size = 0;
};

VkDescriptorType DescriptorType(BufferBinding::Kind kind) {
  switch (kind) {
    case BufferBinding::kStorage:
      return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    case BufferBinding::kUniform:
      return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    case BufferBinding::kStorageDynamic:
      return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
    case BufferBinding::kUniformDynamic:
      return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
    case BufferBinding::kStorageImage:
      return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case BufferBinding::kSampledImage:
      return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    case BufferBinding::kCombinedImageSampler:
      return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case BufferBinding::kUniformTexelBuffer:
      return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    case BufferBinding::kStorageTexelBuffer:
      return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    case BufferBinding::kSampler:
      return VK_DESCRIPTOR_TYPE_SAMPLER;
    case BufferBinding::kPushConstant:
      break;
  }
  return VK_DESCRIPTOR_TYPE_MAX_ENUM;
}

class Executor {
 public:
  Executor(const Script& script, const ExecuteOptions& options, ExecuteResult* result)
      : script_(script), options_(options), result_(result), vk(instance_.vk) {}

  ~Executor() {
    if (device_ == VK_NULL_HANDLE) return;
    if (result_->hung) {
      // The device still runs the RUN that timed out: destroying what it uses is undefined.
      instance_.Leak();
      return;
    }
    vk.vkDeviceWaitIdle(device_);
    for (auto& p : pipelines_) {
      if (p.pipeline) vk.vkDestroyPipeline(device_, p.pipeline, nullptr);
      if (p.layout) vk.vkDestroyPipelineLayout(device_, p.layout, nullptr);
      for (auto l : p.set_layouts) vk.vkDestroyDescriptorSetLayout(device_, l, nullptr);
      if (p.module) vk.vkDestroyShaderModule(device_, p.module, nullptr);
    }
    if (descriptor_pool_) vk.vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
    if (command_pool_) vk.vkDestroyCommandPool(device_, command_pool_, nullptr);
    if (fence_) vk.vkDestroyFence(device_, fence_, nullptr);
    if (query_pool_) vk.vkDestroyQueryPool(device_, query_pool_, nullptr);
    for (VkSampler sampler : samplers_) {
      if (sampler) vk.vkDestroySampler(device_, sampler, nullptr);
    }
    for (auto& b : buffers_) {
      for (const auto& [level, view] : b.views) vk.vkDestroyImageView(device_, view, nullptr);
      if (b.texel_view) vk.vkDestroyBufferView(device_, b.texel_view, nullptr);
      if (b.image) vk.vkDestroyImage(device_, b.image, nullptr);
      if (b.image_memory) vk.vkFreeMemory(device_, b.image_memory, nullptr);
      if (b.buffer) vk.vkDestroyBuffer(device_, b.buffer, nullptr);
      if (b.memory) vk.vkFreeMemory(device_, b.memory, nullptr);
      if (b.staging) vk.vkDestroyBuffer(device_, b.staging, nullptr);
      if (b.staging_memory) vk.vkFreeMemory(device_, b.staging_memory, nullptr);
    }
    vk.vkDestroyDevice(device_, nullptr);
  }

  bool Run(std::string* error) {
    if (!instance_.Create(error, script_.instance_extensions, &result_->unsupported) ||
        !CreateDevice(error) || !CreateBuffers(error) || !CreatePipelines(error) ||
        !CreateCommandObjects(error)) {
      return false;
    }
    for (const Command& c : script_.commands) {
      if (c.kind == Command::kRun) {
        if (!RunCommand(c, error)) return false;
      } else if (c.kind == Command::kConvertMatrix) {
        if (!ConvertMatrix(c, error)) return false;
      } else {
        Expect(c);
      }
    }
    for (size_t i = 0; i < buffers_.size(); ++i) {
      result_->buffers.emplace_back(buffers_[i].mapped, buffers_[i].mapped + buffers_[i].size);
    }
    return true;
  }

 private:
  bool Check(VkResult r, const std::string& what, std::string* error) {
    if (r == VK_SUCCESS) return true;
    *error = what + " failed: " + ResultName(r);
    return false;
  }

  bool CreateDevice(std::string* error) {
    if (!instance_.Select(options_.device, &physical_, error)) return false;
    props_.Query(vk, physical_);
    result_->device_name = props_.base.properties.deviceName;
    result_->subgroup_size = props_.v11.subgroupSize;
    const std::string& name = result_->device_name;
    if (props_.base.properties.apiVersion < VK_API_VERSION_1_3) {
      *error = name + " supports Vulkan " + ApiVersionString(props_.base.properties.apiVersion) +
               "; coopspv-run needs a Vulkan 1.3 device";
      return false;
    }
    const std::set<std::string> available = instance_.Extensions(physical_);
    const auto& structs = FeatureStructs();
    std::vector<bool> chainable(structs.size());
    for (size_t s = 0; s < structs.size(); ++s) {
      chainable[s] = structs[s].extension == nullptr || available.count(structs[s].extension);
    }
    FeatureChain supported(chainable);
    vk.vkGetPhysicalDeviceFeatures2(physical_, supported.head());

    std::vector<std::pair<FeatureRef, uint32_t>> wanted;  // With the line that asks.
    for (const Requirement& f : script_.features) {
      FeatureRef ref;
      if (!FindFeature(f.name, &ref)) {
        *error = At(f.line) + "unknown DEVICE_FEATURE '" + f.name + "' (see docs/run.md)";
        return false;
      }
      wanted.push_back({ref, f.line});
    }
    if (!script_.addresses.empty()) {
      FeatureRef ref;
      FindFeature("Vulkan12Features.bufferDeviceAddress", &ref);
      wanted.push_back({ref, script_.addresses.front().line});
    }
    for (const Sampler& s : script_.samplers) {
      // A sampler with mirrored_clamp_to_edge needs the feature (Vulkan 1.2), which Amber's
      // DEVICE_FEATURE names cannot ask for.
      if (std::find(std::begin(s.address_mode), std::end(s.address_mode),
                    VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE) != std::end(s.address_mode)) {
        FeatureRef ref;
        FindFeature("Vulkan12Features.samplerMirrorClampToEdge", &ref);
        wanted.push_back({ref, s.line});
      }
    }
    for (const Pipeline& p : script_.pipelines) {
      FeatureRef ref;
      if (p.subgroup_size != Pipeline::SubgroupSize::kAny || p.varying_size) {
        FindFeature("Vulkan13Features.subgroupSizeControl", &ref);
        wanted.push_back({ref, p.line});
      }
      if (p.fully_populated) {
        FindFeature("Vulkan13Features.computeFullSubgroups", &ref);
        wanted.push_back({ref, p.line});
      }
    }
    std::vector<std::string> extensions;
    auto add_extension = [&](const std::string& e, uint32_t line) {
      if (!available.count(e)) {
        *error = At(line) + name + " does not support the device extension " + e;
        result_->unsupported = true;
        return false;
      }
      if (std::find(extensions.begin(), extensions.end(), e) == extensions.end()) {
        extensions.push_back(e);
      }
      return true;
    };
    for (const Requirement& e : script_.extensions) {
      if (!add_extension(e.name, e.line)) return false;
    }
    std::vector<bool> chained(structs.size());
    for (size_t s = 0; s <= 3; ++s) chained[s] = true;
    for (const auto& [ref, line] : wanted) {
      const FeatureStruct& s = structs[ref.structure];
      if (s.extension != nullptr && !add_extension(s.extension, line)) {
        *error += " (needed for the feature " + ref.Name() + ")";
        return false;
      }
      if (!supported.Get(ref)) {
        *error = At(line) + name + " does not support the device feature " + ref.Name();
        result_->unsupported = true;
        return false;
      }
      chained[ref.structure] = true;
    }
    for (const Requirement& r : script_.properties) {
      for (const FloatControlProperty& p : FloatControlProperties()) {
        if (r.name == p.name && props_.v12.*p.field == VK_FALSE) {
          *error = At(r.line) + name + " does not have the device property " + r.name;
          result_->unsupported = true;
          return false;
        }
      }
    }
    FeatureChain enabled(chained);
    for (const auto& [ref, line] : wanted) {
      enabled.Set(ref, true);
      enabled_features_.insert(ref.Name());
    }

    uint32_t count = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vk.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, families.data());
    families.resize(count);
    queue_family_ = UINT32_MAX;
    for (uint32_t i = 0; i < families.size(); ++i) {
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        queue_family_ = i;
        timestamp_bits_ = families[i].timestampValidBits;
        break;
      }
    }
    if (queue_family_ == UINT32_MAX) {
      *error = name + " has no compute queue";
      return false;
    }
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = queue_family_;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    std::vector<const char*> extension_names;
    for (const auto& e : extensions) extension_names.push_back(e.c_str());
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = enabled.head();
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = static_cast<uint32_t>(extension_names.size());
    info.ppEnabledExtensionNames = extension_names.data();
    const VkResult r = vk.vkCreateDevice(physical_, &info, nullptr, &device_);
    if (r != VK_SUCCESS) {
      device_ = VK_NULL_HANDLE;
      *error = "vkCreateDevice on " + name + " failed: " + ResultName(r);
      return false;
    }
    if (!vk.LoadDevice(device_, error)) return false;
    vk.vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
    if (std::find(extensions.begin(), extensions.end(), "VK_NV_cooperative_vector") !=
        extensions.end()) {
      convert_matrix_ = reinterpret_cast<PFN_ConvertCooperativeVectorMatrixNV>(
          vk.vkGetDeviceProcAddr(device_, "vkConvertCooperativeVectorMatrixNV"));
    }
    return true;
  }

  // The first memory type (in the order of `prefer`) that `req` allows, has every flag asked for
  // and a heap large enough; -1 when none.
  int MemoryType(const VkMemoryRequirements& req,
                 std::initializer_list<VkMemoryPropertyFlags> prefer) const {
    for (VkMemoryPropertyFlags want : prefer) {
      for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        if ((req.memoryTypeBits & (1u << i)) &&
            (memory_.memoryTypes[i].propertyFlags & want) == want &&
            memory_.memoryHeaps[memory_.memoryTypes[i].heapIndex].size >= req.size) {
          return static_cast<int>(i);
        }
      }
    }
    return -1;
  }

  // A buffer and its memory, of MemoryType's choice; mapped when the type is host-visible.
  bool AllocateBuffer(const Buffer& b, VkDeviceSize size, VkBufferUsageFlags usage,
                      std::initializer_list<VkMemoryPropertyFlags> prefer, const char* role,
                      VkBuffer* buffer, VkDeviceMemory* memory, uint8_t** mapped,
                      std::string* error) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (!Check(vk.vkCreateBuffer(device_, &info, nullptr, buffer),
               At(b.line) + "vkCreateBuffer for the " + role + " of '" + b.name + "'", error)) {
      *buffer = VK_NULL_HANDLE;
      return false;
    }
    VkMemoryRequirements req;
    vk.vkGetBufferMemoryRequirements(device_, *buffer, &req);
    const int type = MemoryType(req, prefer);
    if (type < 0) {
      *error = At(b.line) + "no memory type for the " + role + " of buffer '" + b.name + "'";
      return false;
    }
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    if (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) alloc.pNext = &flags;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = static_cast<uint32_t>(type);
    if (!Check(vk.vkAllocateMemory(device_, &alloc, nullptr, memory),
               At(b.line) + "allocating " + std::to_string(req.size) + " bytes for the " + role +
                   " of '" + b.name + "'",
               error)) {
      *memory = VK_NULL_HANDLE;
      return false;
    }
    if (!Check(vk.vkBindBufferMemory(device_, *buffer, *memory, 0), "vkBindBufferMemory", error)) {
      return false;
    }
    if (mapped != nullptr) {
      void* host = nullptr;
      if (!Check(vk.vkMapMemory(device_, *memory, 0, VK_WHOLE_SIZE, 0, &host), "vkMapMemory",
                 error)) {
        return false;
      }
      *mapped = static_cast<uint8_t*>(host);
    }
    return true;
  }

  bool CreateBuffers(std::string* error) {
    vk.vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
    const VkMemoryPropertyFlags host =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (const Buffer& b : script_.buffers) {
      DeviceBuffer& d = buffers_.emplace_back();
      d.size = b.bytes.size();
      d.allocated = (d.size + 15) / 16 * 16;
      // Device addresses for the buffers a BUFFER_ADDRESS line names.
      const bool addressed =
          std::any_of(script_.addresses.begin(), script_.addresses.end(),
                      [&](const BufferAddress& a) { return a.buffer == b.name; });
      // How the pipelines bind it: as an image (with which usage, from which mip level on), as a
      // texel buffer, as anything else.
      VkImageUsageFlags image_usage = 0;
      VkBufferUsageFlags texel_usage = 0;
      bool as_buffer = false;
      uint32_t line = b.line;
      d.copy_level = b.image.mip_levels;
      for (const Pipeline& p : script_.pipelines) {
        for (const BufferBinding& binding : p.bindings) {
          for (const BufferBinding::Element& e : binding.elements) {
            if (e.name != b.name || binding.kind == BufferBinding::kSampler) continue;
            if (binding.IsImage()) {
              image_usage |= binding.kind == BufferBinding::kStorageImage
                                 ? VK_IMAGE_USAGE_STORAGE_BIT
                                 : VK_IMAGE_USAGE_SAMPLED_BIT;
              d.copy_level = std::min(d.copy_level, binding.base_mip_level);
              line = binding.line;
            } else {
              as_buffer = true;
              if (binding.kind == BufferBinding::kUniformTexelBuffer) {
                texel_usage |= VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
              } else if (binding.kind == BufferBinding::kStorageTexelBuffer) {
                texel_usage |= VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
              }
            }
          }
        }
      }
      if (image_usage == 0) d.copy_level = 0;
      if ((image_usage == 0 || as_buffer || addressed) &&
          !AllocateBuffer(b, d.allocated,
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                              texel_usage |
                              (addressed ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0),
                          {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0}, "device copy", &d.buffer,
                          &d.memory, nullptr, error)) {
        return false;
      }
      if (texel_usage != 0 && !CreateTexelView(b, texel_usage, &d, error)) return false;
      if (image_usage != 0 && !CreateImage(b, image_usage, line, &d, error)) return false;
      if (!AllocateBuffer(b, d.allocated,
                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          {host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, host}, "staging copy",
                          &d.staging, &d.staging_memory, &d.mapped, error)) {
        return false;
      }
      std::memset(d.mapped, 0, d.allocated);
      std::memcpy(d.mapped, b.bytes.data(), b.bytes.size());
    }
    for (const BufferAddress& a : script_.addresses) {
      VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
      info.buffer = buffers_[BufferIndex(a.buffer)].buffer;
      const VkDeviceAddress value = vk.vkGetBufferDeviceAddress(device_, &info);
      uint8_t* target = buffers_[BufferIndex(a.target)].mapped + a.offset;
      for (int i = 0; i < 8; ++i) target[i] = static_cast<uint8_t>(value >> (8 * i));
    }
    device_stale_ = true;
    return true;
  }

  // The format of `b`'s images and texel buffers, by name.
  static std::string FormatName(const Buffer& b) {
    const auto format = ImageFormatOf(b.type);
    const ImageFormat* f = format ? FindImageFormat(*format) : nullptr;
    return f ? std::string(f->name) : b.type.Name();
  }

  // The view of a buffer bound as a texel buffer: the whole texels of its declared size.
  bool CreateTexelView(const Buffer& b, VkBufferUsageFlags usage, DeviceBuffer* d,
                       std::string* error) {
    const VkFormat format = static_cast<VkFormat>(*ImageFormatOf(b.type));
    VkFormatProperties props;
    vk.vkGetPhysicalDeviceFormatProperties(physical_, format, &props);
    const VkFormatFeatureFlags want = ((usage & VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT)
                                           ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT
                                           : 0) |
                                      ((usage & VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT)
                                           ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT
                                           : 0);
    if ((props.bufferFeatures & want) != want) {
      *error = At(b.line) + result_->device_name + " does not support " + FormatName(b) +
               " texel buffers for " +
               ((want & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) ? "storage" : "uniform") +
               " (VkFormatProperties::bufferFeatures)";
      result_->unsupported = true;
      return false;
    }
    const uint32_t texel = b.type.ElementBytes();
    VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = d->buffer;
    info.format = format;
    info.range = d->size / texel * texel;
    return Check(vk.vkCreateBufferView(device_, &info, nullptr, &d->texel_view),
                 At(b.line) + "vkCreateBufferView of '" + b.name + "'", error);
  }

  // The image of a buffer bound as an image: a 1D, 2D or 3D optimal-tiling image of its format,
  // mip levels and samples, asked of the device first (a combination it lacks is unsupported,
  // as the CTS reports it).
  bool CreateImage(const Buffer& b, VkImageUsageFlags usage, uint32_t line, DeviceBuffer* d,
                   std::string* error) {
    const ImageShape& shape = b.image;
    const VkFormat format = static_cast<VkFormat>(*ImageFormatOf(b.type));
    const ImageFormat* f = FindImageFormat(static_cast<uint32_t>(format));
    usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    const VkImageType type = shape.dimensions == 1   ? VK_IMAGE_TYPE_1D
                             : shape.dimensions == 3 ? VK_IMAGE_TYPE_3D
                                                     : VK_IMAGE_TYPE_2D;
    const std::string what =
        FormatName(b) + " " + std::to_string(shape.dimensions) + "D images for " +
        ((usage & VK_IMAGE_USAGE_STORAGE_BIT) && (usage & VK_IMAGE_USAGE_SAMPLED_BIT)
             ? "storage and sampling"
         : (usage & VK_IMAGE_USAGE_STORAGE_BIT) ? "storage"
                                                : "sampling");
    VkImageFormatProperties props{};
    const VkResult r = vk.vkGetPhysicalDeviceImageFormatProperties(
        physical_, format, type, VK_IMAGE_TILING_OPTIMAL, usage, 0, &props);
    std::string lacks;
    if (r == VK_ERROR_FORMAT_NOT_SUPPORTED) {
      lacks = what;
    } else if (r != VK_SUCCESS) {
      return Check(r, At(line) + "vkGetPhysicalDeviceImageFormatProperties", error);
    } else if (!(props.sampleCounts & shape.samples)) {
      std::string counts;
      for (uint32_t n = 1; n <= 64; n *= 2) {
        if (props.sampleCounts & n) counts += (counts.empty() ? "" : ", ") + std::to_string(n);
      }
      lacks = what + " with SAMPLES " + std::to_string(shape.samples) + " (only " + counts + ")";
    } else if (shape.width > props.maxExtent.width || shape.height > props.maxExtent.height ||
               shape.depth > props.maxExtent.depth || shape.mip_levels > props.maxMipLevels) {
      lacks = what + " of " + shape.Declaration() + " (at most " +
              std::to_string(props.maxExtent.width) + "x" + std::to_string(props.maxExtent.height) +
              "x" + std::to_string(props.maxExtent.depth) + ", " +
              std::to_string(props.maxMipLevels) + " mip levels)";
    }
    if (!lacks.empty()) {
      *error = At(line) + result_->device_name + " does not support " + lacks +
               " (vkGetPhysicalDeviceImageFormatProperties)";
      result_->unsupported = true;
      return false;
    }
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = type;
    info.format = format;
    info.extent = {shape.width, shape.height, shape.depth};
    info.mipLevels = shape.mip_levels;
    info.arrayLayers = 1;
    info.samples = static_cast<VkSampleCountFlagBits>(shape.samples);
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (!Check(vk.vkCreateImage(device_, &info, nullptr, &d->image),
               At(b.line) + "vkCreateImage of '" + b.name + "'", error)) {
      d->image = VK_NULL_HANDLE;
      return false;
    }
    VkMemoryRequirements req;
    vk.vkGetImageMemoryRequirements(device_, d->image, &req);
    const int memory_type = MemoryType(req, {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0});
    if (memory_type < 0) {
      *error = At(b.line) + "no memory type for the image of '" + b.name + "'";
      return false;
    }
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = static_cast<uint32_t>(memory_type);
    if (!Check(vk.vkAllocateMemory(device_, &alloc, nullptr, &d->image_memory),
               At(b.line) + "allocating " + std::to_string(req.size) + " bytes for the image of '" +
                   b.name + "'",
               error)) {
      d->image_memory = VK_NULL_HANDLE;
      return false;
    }
    d->aspect = f->HasDepth()     ? VK_IMAGE_ASPECT_DEPTH_BIT
                : f->HasStencil() ? VK_IMAGE_ASPECT_STENCIL_BIT
                                  : VK_IMAGE_ASPECT_COLOR_BIT;
    return Check(vk.vkBindImageMemory(device_, d->image, d->image_memory, 0), "vkBindImageMemory",
                 error);
  }

  // The view of buffer `index`'s image from mip level `base` on (every level from there).
  bool ImageView(int index, uint32_t base, uint32_t line, VkImageView* view, std::string* error) {
    DeviceBuffer& d = buffers_[index];
    for (const auto& [level, v] : d.views) {
      if (level == base) {
        *view = v;
        return true;
      }
    }
    const Buffer& b = script_.buffers[index];
    VkImageViewCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = d.image;
    info.viewType = b.image.dimensions == 1   ? VK_IMAGE_VIEW_TYPE_1D
                    : b.image.dimensions == 3 ? VK_IMAGE_VIEW_TYPE_3D
                                              : VK_IMAGE_VIEW_TYPE_2D;
    info.format = static_cast<VkFormat>(*ImageFormatOf(b.type));
    info.components = {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                       VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY};
    info.subresourceRange = {d.aspect, base, VK_REMAINING_MIP_LEVELS, 0, 1};
    if (!Check(vk.vkCreateImageView(device_, &info, nullptr, view),
               At(line) + "vkCreateImageView of '" + b.name + "'", error)) {
      return false;
    }
    d.views.push_back({base, *view});
    return true;
  }

  // The VkSampler of SAMPLER `name`, made on first use.
  bool SamplerHandle(const std::string& name, VkSampler* out, std::string* error) {
    samplers_.resize(script_.samplers.size(), VK_NULL_HANDLE);
    for (size_t i = 0; i < script_.samplers.size(); ++i) {
      const Sampler& s = script_.samplers[i];
      if (s.name != name) continue;
      if (samplers_[i] == VK_NULL_HANDLE) {
        VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        info.magFilter = static_cast<VkFilter>(s.mag_filter);
        info.minFilter = static_cast<VkFilter>(s.min_filter);
        info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        info.addressModeU = static_cast<VkSamplerAddressMode>(s.address_mode[0]);
        info.addressModeV = static_cast<VkSamplerAddressMode>(s.address_mode[1]);
        info.addressModeW = static_cast<VkSamplerAddressMode>(s.address_mode[2]);
        info.borderColor = static_cast<VkBorderColor>(s.border_color);
        info.minLod = s.min_lod;
        info.maxLod = s.max_lod;
        info.unnormalizedCoordinates = s.normalized_coordinates ? VK_FALSE : VK_TRUE;
        info.compareEnable = s.compare ? VK_TRUE : VK_FALSE;
        info.compareOp = static_cast<VkCompareOp>(s.compare_op);
        if (!Check(vk.vkCreateSampler(device_, &info, nullptr, &samplers_[i]),
                   At(s.line) + "vkCreateSampler of '" + s.name + "'", error)) {
          samplers_[i] = VK_NULL_HANDLE;
          return false;
        }
      }
      *out = samplers_[i];
      return true;
    }
    *error = "no sampler '" + name + "'";
    return false;
  }

  // CONVERT_MATRIX: between the staging copies (what the last RUN left, or the script's data),
  // by the driver when the device has VK_NV_cooperative_vector enabled, else in software for
  // row- and column-major layouts (component types: the same, or between float types). With
  // ExecuteOptions::optimal_layout_as (the shaders were lowered reading optimal layouts as row- or
  // column-major) an optimal layout is that layout with a tight stride.
  bool ConvertMatrix(const Command& c, std::string* error) {
    MatrixConversion m = c.conversion;
    auto as_major = [&](MatrixConversion::Layout* layout, uint64_t* stride) {
      if (options_.optimal_layout_as < 0 || !MatrixConversion::IsOptimal(*layout)) return;
      *layout = options_.optimal_layout_as == 1 ? MatrixConversion::kColumnMajor
                                                : MatrixConversion::kRowMajor;
      *stride = 0;
    };
    as_major(&m.source_layout, &m.source_stride);
    as_major(&m.destination_layout, &m.destination_stride);
    const uint32_t src_bytes = m.source_bytes, dst_bytes = m.destination_bytes;
    const uint64_t src_extent = m.Extent(m.source_layout, src_bytes, &m.source_stride);
    const uint64_t dst_extent = m.Extent(m.destination_layout, dst_bytes, &m.destination_stride);
    DeviceBuffer& src = buffers_[BufferIndex(m.source)];
    DeviceBuffer& dst = buffers_[BufferIndex(m.destination)];
    const std::string what =
        At(c.line) + "CONVERT_MATRIX " + m.source + " (" + MatrixLayoutName(m.source_layout) +
        ", " + ComponentTypeName(m.source_type) + ") to " + m.destination + " (" +
        MatrixLayoutName(m.destination_layout) + ", " + ComponentTypeName(m.destination_type) + ")";
    if (m.source_offset + src_extent > src.size || m.destination_offset + dst_extent > dst.size) {
      *error = what + ": the matrices need " + std::to_string(m.source_offset + src_extent) +
               " and " + std::to_string(m.destination_offset + dst_extent) +
               " bytes; the buffers have " + std::to_string(src.size) + " and " +
               std::to_string(dst.size);
      return false;
    }
    if (convert_matrix_ != nullptr) {
      ConvertCooperativeVectorMatrixInfoNV info{};
      info.sType = kConvertCooperativeVectorMatrixInfoNV;
      info.srcSize = src.size - m.source_offset;
      info.srcData.hostAddress = src.mapped + m.source_offset;
      size_t dst_size = 0;
      info.pDstSize = &dst_size;
      info.dstData.hostAddress = nullptr;  // First the size it needs.
      info.srcComponentType = m.source_type;
      info.dstComponentType = m.destination_type;
      info.numRows = m.rows;
      info.numColumns = m.columns;
      info.srcLayout = m.source_layout;
      info.srcStride = m.source_stride;
      info.dstLayout = m.destination_layout;
      info.dstStride = m.destination_stride;
      VkResult r = convert_matrix_(device_, &info);
      if (!Check(r, what + ": vkConvertCooperativeVectorMatrixNV (size query)", error)) {
        return false;
      }
      if (m.destination_offset + dst_size > dst.size) {
        *error = what + ": the driver needs " + std::to_string(dst_size) + " bytes at offset " +
                 std::to_string(m.destination_offset) + "; '" + m.destination + "' has " +
                 std::to_string(dst.size);
        return false;
      }
      info.dstData.hostAddress = dst.mapped + m.destination_offset;
      r = convert_matrix_(device_, &info);
      if (!Check(r, what + ": vkConvertCooperativeVectorMatrixNV", error)) return false;
      device_stale_ = true;
      return true;
    }
    if (MatrixConversion::IsOptimal(m.source_layout) ||
        MatrixConversion::IsOptimal(m.destination_layout)) {
      *error = what + " needs vkConvertCooperativeVectorMatrixNV: VK_NV_cooperative_vector is " +
               "not enabled on " + result_->device_name +
               " (DEVICE_EXTENSION VK_NV_cooperative_vector, where the device has it); a " +
               "lowered module reads optimal layouts as row- or column-major with " +
               "--lower-coop-vector=optimal-as-row-major or optimal-as-column-major";
      return false;
    }
    // Float types convert by value (round to nearest even); a value out of the destination's
    // range is an error, not saturated. Integers convert only to themselves.
    const auto src_format = SoftwareFloatFormat(m.source_type);
    const auto dst_format = SoftwareFloatFormat(m.destination_type);
    if (m.source_type != m.destination_type && !(src_format && dst_format)) {
      *error = what + ": without VK_NV_cooperative_vector coopspv-run converts component types " +
               "only between float16, float32, float_e4m3 and float_e5m2";
      return false;
    }
    // Element (r, c) of a row-major matrix is at r * stride + c * bytes; column-major swaps.
    auto at = [](MatrixConversion::Layout layout, uint64_t stride, uint32_t bytes, uint32_t r,
                 uint32_t col) {
      return layout == MatrixConversion::kRowMajor ? r * stride + uint64_t{col} * bytes
                                                   : col * stride + uint64_t{r} * bytes;
    };
    const std::vector<uint8_t> from(src.mapped + m.source_offset, src.mapped + src.size);
    for (uint32_t r = 0; r < m.rows; ++r) {
      for (uint32_t col = 0; col < m.columns; ++col) {
        uint8_t* out = dst.mapped + m.destination_offset +
                       at(m.destination_layout, m.destination_stride, dst_bytes, r, col);
        const uint8_t* in = from.data() + at(m.source_layout, m.source_stride, src_bytes, r, col);
        if (m.source_type == m.destination_type) {
          std::memcpy(out, in, src_bytes);
          continue;
        }
        uint64_t bits = 0;
        for (uint32_t i = 0; i < src_bytes; ++i) bits |= uint64_t{in[i]} << (8 * i);
        std::string message;
        uint64_t converted = 0;
        if (!ParseFloat(FormatHexFloat(bits, *src_format), *dst_format, &converted, &message)) {
          *error = what + ": element (" + std::to_string(r) + ", " + std::to_string(col) + ") " +
                   FormatFloat(bits, *src_format) + " does not convert: " + message;
          return false;
        }
        for (uint32_t i = 0; i < dst_bytes; ++i)
          out[i] = static_cast<uint8_t>(converted >> (8 * i));
      }
    }
    device_stale_ = true;
    return true;
  }

  int BufferIndex(const std::string& name) const {
    for (size_t i = 0; i < script_.buffers.size(); ++i) {
      if (script_.buffers[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }

  // The limits a buffer descriptor must keep (Vulkan's VkWriteDescriptorSet and
  // vkCmdBindDescriptorSets rules): its offset and dynamic offset aligned for its kind, its range
  // within the device's.
  bool CheckBufferDescriptor(const BufferBinding& b, const BufferBinding::Element& e,
                             std::string* error) {
    const VkPhysicalDeviceLimits& limits = props_.limits();
    const bool uniform =
        b.kind == BufferBinding::kUniform || b.kind == BufferBinding::kUniformDynamic;
    const VkDeviceSize align =
        uniform ? limits.minUniformBufferOffsetAlignment : limits.minStorageBufferOffsetAlignment;
    const char* align_name =
        uniform ? "minUniformBufferOffsetAlignment" : "minStorageBufferOffsetAlignment";
    const VkDeviceSize size = buffers_[BufferIndex(e.name)].size;
    const uint64_t dynamic = b.IsDynamic() ? e.dynamic_offset : 0;
    const uint64_t range = e.range == kWholeSize ? size - e.offset - dynamic : e.range;
    const uint32_t max_range =
        uniform ? limits.maxUniformBufferRange : limits.maxStorageBufferRange;
    auto misaligned = [&](const char* what, uint64_t offset) {
      *error = At(b.line) + what + " " + std::to_string(offset) + " of '" + e.name +
               "' is not a multiple of the device's " + align_name + " (" + std::to_string(align) +
               ")";
      return false;
    };
    if (align != 0 && e.offset % align != 0) return misaligned("DESCRIPTOR_OFFSET", e.offset);
    if (align != 0 && dynamic % align != 0) return misaligned("OFFSET", dynamic);
    if (range > max_range) {
      *error = At(b.line) + "buffer '" + e.name + "' (" + std::to_string(range) +
               " bytes bound) is larger than the device's range for " +
               BufferBinding::KindName(b.kind) + " buffers (" + std::to_string(max_range) + ")";
      return false;
    }
    return true;
  }

  bool CreatePipelines(std::string* error) {
    const VkPhysicalDeviceLimits& limits = props_.limits();
    std::vector<VkDescriptorPoolSize> pool_sizes;
    auto pool = [&](VkDescriptorType type, uint32_t count) {
      for (auto& s : pool_sizes) {
        if (s.type == type) {
          s.descriptorCount += count;
          return;
        }
      }
      pool_sizes.push_back({type, count});
    };
    uint32_t max_sets = 0;
    for (const Pipeline& p : script_.pipelines) {
      DevicePipeline& d = pipelines_.emplace_back();
      const Shader& shader = *script_.FindShader(p.shader);
      ModuleInterface mi;
      if (!CheckPipelineInterface(script_, p, &mi, error)) return false;
      uint32_t set_count = 0;
      for (const auto& b : p.bindings) {
        if (b.kind == BufferBinding::kPushConstant) {
          d.push_constant_buffer = BufferIndex(b.buffer());
          d.push_constant_size =
              static_cast<uint32_t>((buffers_[d.push_constant_buffer].size + 3) / 4 * 4);
          if (d.push_constant_size > limits.maxPushConstantsSize) {
            *error = At(b.line) + "push_constant buffer '" + b.buffer() + "' has " +
                     std::to_string(d.push_constant_size) + " bytes; the device allows " +
                     std::to_string(limits.maxPushConstantsSize);
            return false;
          }
          continue;
        }
        set_count = std::max(set_count, b.set + 1);
        if (!b.IsBlock()) continue;
        for (const BufferBinding::Element& e : b.elements) {
          if (!CheckBufferDescriptor(b, e, error)) return false;
        }
      }
      for (uint32_t s = 0; s < set_count; ++s) {
        std::vector<VkDescriptorSetLayoutBinding> bindings;
        std::vector<const BufferBinding*> dynamic;
        for (const auto& b : p.bindings) {
          if (b.kind == BufferBinding::kPushConstant || b.set != s) continue;
          VkDescriptorSetLayoutBinding lb{};
          lb.binding = b.binding;
          lb.descriptorType = DescriptorType(b.kind);
          lb.descriptorCount = static_cast<uint32_t>(b.elements.size());
          lb.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
          bindings.push_back(lb);
          pool(lb.descriptorType, lb.descriptorCount);
          if (b.IsDynamic()) dynamic.push_back(&b);
        }
        // vkCmdBindDescriptorSets reads dynamic offsets by binding number, then array element.
        std::sort(
            dynamic.begin(), dynamic.end(),
            [](const BufferBinding* a, const BufferBinding* b) { return a->binding < b->binding; });
        for (const BufferBinding* b : dynamic) {
          for (const auto& e : b->elements) d.dynamic_offsets.push_back(e.dynamic_offset);
        }
        VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        info.bindingCount = static_cast<uint32_t>(bindings.size());
        info.pBindings = bindings.data();
        VkDescriptorSetLayout layout = VK_NULL_HANDLE;
        if (!Check(vk.vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout),
                   At(p.line) + "vkCreateDescriptorSetLayout", error)) {
          return false;
        }
        d.set_layouts.push_back(layout);
      }
      max_sets += set_count;
      VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, d.push_constant_size};
      VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      layout_info.setLayoutCount = set_count;
      layout_info.pSetLayouts = d.set_layouts.data();
      layout_info.pushConstantRangeCount = d.push_constant_size ? 1 : 0;
      layout_info.pPushConstantRanges = &range;
      if (!Check(vk.vkCreatePipelineLayout(device_, &layout_info, nullptr, &d.layout),
                 At(p.line) + "vkCreatePipelineLayout", error)) {
        d.layout = VK_NULL_HANDLE;
        return false;
      }
      if (options_.validate && !ValidateForDevice(p, shader, error)) return false;
      VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      module_info.codeSize = shader.words.size() * 4;
      module_info.pCode = shader.words.data();
      VkResult r = vk.vkCreateShaderModule(device_, &module_info, nullptr, &d.module);
      if (r != VK_SUCCESS) {
        d.module = VK_NULL_HANDLE;
        *error = At(shader.line) + "the driver rejected shader '" + shader.name +
                 "': vkCreateShaderModule returned " + ResultName(r);
        return false;
      }
      if (!CreatePipeline(p, shader, mi, &d, error)) return false;
    }
    if (max_sets == 0) return true;
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = max_sets;
    pool_info.poolSizeCount = static_cast<uint32_t>(pool_sizes.size());
    pool_info.pPoolSizes = pool_sizes.data();
    if (!Check(vk.vkCreateDescriptorPool(device_, &pool_info, nullptr, &descriptor_pool_),
               "vkCreateDescriptorPool", error)) {
      descriptor_pool_ = VK_NULL_HANDLE;
      return false;
    }
    for (size_t i = 0; i < pipelines_.size(); ++i) {
      DevicePipeline& d = pipelines_[i];
      if (d.set_layouts.empty()) continue;
      VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      alloc.descriptorPool = descriptor_pool_;
      alloc.descriptorSetCount = static_cast<uint32_t>(d.set_layouts.size());
      alloc.pSetLayouts = d.set_layouts.data();
      d.sets.resize(d.set_layouts.size());
      if (!Check(vk.vkAllocateDescriptorSets(device_, &alloc, d.sets.data()),
                 "vkAllocateDescriptorSets", error)) {
        return false;
      }
      if (!WriteDescriptors(script_.pipelines[i], d, error)) return false;
    }
    return true;
  }

  // Writes a pipeline's descriptors: buffers from DESCRIPTOR_OFFSET with DESCRIPTOR_RANGE, or to
  // the end of the buffer less the dynamic offset (Amber's range for VK_WHOLE_SIZE), image views
  // in VK_IMAGE_LAYOUT_GENERAL, samplers, texel buffer views.
  bool WriteDescriptors(const Pipeline& p, const DevicePipeline& d, std::string* error) {
    // One array of infos per write: their addresses stay put while more are added.
    std::vector<std::vector<VkDescriptorBufferInfo>> buffer_infos;
    std::vector<std::vector<VkDescriptorImageInfo>> image_infos;
    std::vector<std::vector<VkBufferView>> texel_views;
    std::vector<VkWriteDescriptorSet> writes;
    for (const auto& b : p.bindings) {
      if (b.kind == BufferBinding::kPushConstant) continue;
      VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w.dstSet = d.sets[b.set];
      w.dstBinding = b.binding;
      w.descriptorCount = static_cast<uint32_t>(b.elements.size());
      w.descriptorType = DescriptorType(b.kind);
      if (b.IsBlock()) {
        auto& infos = buffer_infos.emplace_back();
        for (const auto& e : b.elements) {
          const DeviceBuffer& buffer = buffers_[BufferIndex(e.name)];
          const uint64_t dynamic = b.IsDynamic() ? e.dynamic_offset : 0;
          infos.push_back({buffer.buffer, e.offset,
                           e.range == kWholeSize ? buffer.size - e.offset - dynamic : e.range});
        }
        w.pBufferInfo = infos.data();
      } else if (b.IsTexelBuffer()) {
        auto& views = texel_views.emplace_back();
        for (const auto& e : b.elements) views.push_back(buffers_[BufferIndex(e.name)].texel_view);
        w.pTexelBufferView = views.data();
      } else {
        auto& infos = image_infos.emplace_back();
        VkSampler sampler = VK_NULL_HANDLE;
        if (!b.sampler.empty() && !SamplerHandle(b.sampler, &sampler, error)) return false;
        for (const auto& e : b.elements) {
          VkDescriptorImageInfo info{sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL};
          if (b.kind == BufferBinding::kSampler) {
            if (!SamplerHandle(e.name, &info.sampler, error)) return false;
            info.imageLayout = VK_IMAGE_LAYOUT_UNDEFINED;
          } else if (!ImageView(BufferIndex(e.name), b.base_mip_level, b.line, &info.imageView,
                                error)) {
            return false;
          }
          infos.push_back(info);
        }
        w.pImageInfo = infos.data();
      }
      writes.push_back(w);
    }
    vk.vkUpdateDescriptorSets(device_, static_cast<uint32_t>(writes.size()), writes.data(), 0,
                              nullptr);
    return true;
  }

  // A driver handed a module that breaks its rules may reject it, compute something else or
  // crash (the H100's driver does, given a cooperative shape it does not list): the module,
  // specialized as the pipeline specializes it, is validated with the live device's profile
  // first, in the environment of the device's Vulkan version and with the block layouts the
  // script enables.
  bool ValidateForDevice(const Pipeline& p, const Shader& shader, std::string* error) {
    Problem problem;
    if (!device_profile_) {
      profile::DeviceProfile profile;
      std::vector<std::string> notes;
      ReadDeviceProfile(instance_.vk, instance_.handle(), physical_, &profile, &notes);
      if (!LoadDeviceProfile(profile::Write(profile), &device_profile_, &problem)) {
        *error =
            "the profile of " + result_->device_name + " does not read back: " + problem.message;
        return false;
      }
    }
    const uint32_t minor = std::min(VK_API_VERSION_MINOR(props_.base.properties.apiVersion), 4u);
    const std::string env = "vulkan1." + std::to_string(minor);
    const std::vector<uint32_t> specialized =
        Specialized(shader.words, p.spec_constants, env, /*freeze=*/false);
    ValidatorOptions options;
    options.target_env = env;
    options.device_profile = device_profile_;
    options.max_errors = 5;
    auto enabled = [&](const char* name) { return enabled_features_.count(name) != 0; };
    options.scalar_block_layout = enabled("Vulkan12Features.scalarBlockLayout");
    options.uniform_buffer_standard_layout =
        enabled("Vulkan12Features.uniformBufferStandardLayout");
    options.workgroup_scalar_block_layout = enabled(
        "WorkgroupMemoryExplicitLayoutFeaturesKHR.workgroupMemoryExplicitLayoutScalarBlockLayout");
    ValidationResult result;
    if (!Validate(specialized.empty() ? shader.words : specialized, options, &result, &problem)) {
      *error =
          At(shader.line) + "shader '" + shader.name + "' cannot be validated: " + problem.message;
      return false;
    }
    if (result.valid) return true;
    *error = At(p.line) + "PIPELINE '" + p.name + "': shader '" + shader.name +
             "' is not valid for " + result_->device_name + " (" + env +
             "), so it is not handed to the driver (--skip-validation hands it over anyway):";
    for (const ValidationDiagnostic& d : result.diagnostics) {
      if (!d.is_error) continue;
      std::string text = FormatDiagnostic(d);
      while (!text.empty() && text.back() == '\n') text.pop_back();
      for (size_t at = 0; (at = text.find('\n', at)) != std::string::npos; ++at) {
        text.replace(at, 1, "\n    ");
      }
      *error += "\n  " + text;
    }
    return false;
  }

  bool CreatePipeline(const Pipeline& p, const Shader& shader, const ModuleInterface& mi,
                      DevicePipeline* d, std::string* error) {
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint8_t> data;
    for (const SpecConstant& s : p.spec_constants) {
      const uint32_t size = s.type.bits / 8;
      entries.push_back({s.id, static_cast<uint32_t>(data.size()), size});
      for (uint32_t i = 0; i < size; ++i)
        data.push_back(static_cast<uint8_t>(s.value.bits >> (8 * i)));
    }
    VkSpecializationInfo spec{static_cast<uint32_t>(entries.size()), entries.data(), data.size(),
                              data.data()};
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = d->module;
    info.stage.pName = p.entry_point.c_str();
    info.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
    info.layout = d->layout;
    const auto& v13 = props_.v13;
    uint32_t size = 0;
    switch (p.subgroup_size) {
      case Pipeline::SubgroupSize::kExact:
        size = p.required_subgroup_size;
        break;
      case Pipeline::SubgroupSize::kMin:
        size = v13.minSubgroupSize;
        break;
      case Pipeline::SubgroupSize::kMax:
        size = v13.maxSubgroupSize;
        break;
      default:
        break;
    }
    if (size != 0) {
      if (size < v13.minSubgroupSize || size > v13.maxSubgroupSize ||
          !(v13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
        *error = At(p.line) + "SUBGROUP REQUIRED_SIZE " + std::to_string(size) + ": " +
                 result_->device_name + " supports compute subgroup sizes " +
                 std::to_string(v13.minSubgroupSize) + " to " +
                 std::to_string(v13.maxSubgroupSize) +
                 ((v13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)
                      ? ""
                      : " (and requires none for compute)");
        return false;
      }
      subgroup.requiredSubgroupSize = size;
      info.stage.pNext = &subgroup;
    }
    if (p.fully_populated) {
      // VUID-VkPipelineShaderStageCreateInfo-flags-02759: the X size must be a multiple of the
      // subgroup size (the largest it could be, without a required size).
      const uint32_t multiple = size ? size : v13.maxSubgroupSize;
      if (mi.local_size[0] != 0 && multiple != 0 && mi.local_size[0] % multiple != 0) {
        *error = At(p.line) + "FULLY_POPULATED needs the local size X (" +
                 std::to_string(mi.local_size[0]) + ") to be a multiple of " +
                 std::to_string(multiple);
        return false;
      }
      info.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
    if (p.varying_size) {
      info.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT;
    }
    const VkResult r =
        vk.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &d->pipeline);
    if (r != VK_SUCCESS) {
      d->pipeline = VK_NULL_HANDLE;
      *error = At(p.line) + "the driver rejected shader '" + shader.name + "' in PIPELINE '" +
               p.name + "': vkCreateComputePipelines returned " + ResultName(r);
      return false;
    }
    return true;
  }

  bool CreateCommandObjects(std::string* error) {
    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = queue_family_;
    if (!Check(vk.vkCreateCommandPool(device_, &pool, nullptr, &command_pool_),
               "vkCreateCommandPool", error)) {
      command_pool_ = VK_NULL_HANDLE;
      return false;
    }
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = command_pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    if (!Check(vk.vkAllocateCommandBuffers(device_, &alloc, &command_buffer_),
               "vkAllocateCommandBuffers", error)) {
      return false;
    }
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (!Check(vk.vkCreateFence(device_, &fence, nullptr, &fence_), "vkCreateFence", error)) {
      fence_ = VK_NULL_HANDLE;
      return false;
    }
    if (options_.timing_runs > 0) {
      if (timestamp_bits_ == 0 || props_.limits().timestampPeriod <= 0) {
        *error = "--timing: the compute queue of " + result_->device_name + " has no timestamps";
        return false;
      }
      VkQueryPoolCreateInfo query{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      query.queryType = VK_QUERY_TYPE_TIMESTAMP;
      query.queryCount = 2;
      if (!Check(vk.vkCreateQueryPool(device_, &query, nullptr, &query_pool_), "vkCreateQueryPool",
                 error)) {
        query_pool_ = VK_NULL_HANDLE;
        return false;
      }
    }
    return true;
  }

  void Barrier(VkPipelineStageFlags src_stage, VkAccessFlags src, VkPipelineStageFlags dst_stage,
               VkAccessFlags dst) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = src;
    barrier.dstAccessMask = dst;
    vk.vkCmdPipelineBarrier(command_buffer_, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0,
                            nullptr);
  }

  // Records commands with `record` into the command buffer, submits them on their own and waits
  // with the fence timeout. `line` is the script line the work belongs to.
  template <typename Record>
  bool Submit(uint32_t line, Record record, std::string* error) {
    vk.vkResetCommandBuffer(command_buffer_, 0);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (!Check(vk.vkBeginCommandBuffer(command_buffer_, &begin), "vkBeginCommandBuffer", error)) {
      return false;
    }
    record();
    if (!Check(vk.vkEndCommandBuffer(command_buffer_), "vkEndCommandBuffer", error)) return false;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &command_buffer_;
    vk.vkResetFences(device_, 1, &fence_);
    VkResult r = vk.vkQueueSubmit(queue_, 1, &submit, fence_);
    if (!Check(r, At(line) + "vkQueueSubmit", error)) return false;
    const uint32_t timeout_ms =
        script_.fence_timeout_ms ? script_.fence_timeout_ms : options_.fence_timeout_ms;
    r = vk.vkWaitForFences(device_, 1, &fence_, VK_TRUE, uint64_t{timeout_ms} * 1000000);
    if (r == VK_TIMEOUT) {
      result_->hung = true;
      *error = At(line) + "RUN did not finish within " + std::to_string(timeout_ms) +
               " ms (the fence timeout: --timeout-ms or SET ENGINE_DATA fence_timeout_ms)";
      return false;
    }
    return Check(r, At(line) + "RUN (vkWaitForFences)", error);
  }

  // Moves image `b` into `layout`; the accesses before and after as the stages say.
  void ImageBarrier(DeviceBuffer& b, VkImageLayout layout, VkPipelineStageFlags src_stage,
                    VkAccessFlags src, VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.srcAccessMask = src;
    barrier.dstAccessMask = dst;
    barrier.oldLayout = b.layout;
    barrier.newLayout = layout;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = b.image;
    barrier.subresourceRange = {b.aspect, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
    vk.vkCmdPipelineBarrier(command_buffer_, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1,
                            &barrier);
    b.layout = layout;
  }

  // The copy of mip level `level` of buffer `index`'s image from or to the start of its bytes.
  VkBufferImageCopy ImageRegion(size_t index, const DeviceBuffer& b, uint32_t level) const {
    const ImageShape& shape = script_.buffers[index].image;
    VkBufferImageCopy region{};
    region.imageSubresource = {b.aspect, level, 0, 1};
    region.imageExtent = {std::max(1u, shape.width >> level), std::max(1u, shape.height >> level),
                          std::max(1u, shape.depth >> level)};
    return region;
  }

  // Copies every buffer from its staging copy to its device copy (`upload`) or back. An image's
  // bytes go to every mip level from its lowest BASE_MIP_LEVEL on, each from the start of the
  // bytes (as Amber uploads them); that first level comes back. A buffer that is an image and a
  // buffer too comes back from what `pipeline` (the RUN before the download) binds, and both
  // device copies are uploaded again before the next RUN.
  bool Transfer(uint32_t line, bool upload, std::string* error, int pipeline = -1) {
    bool both = false;
    const bool ok = Submit(
        line,
        [&] {
          // Host writes and earlier shader work before the copies; the copies before what
          // follows (shaders after an upload, host reads after a download).
          Barrier(VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
          for (size_t i = 0; i < buffers_.size(); ++i) {
            DeviceBuffer& b = buffers_[i];
            const uint32_t samples = script_.buffers[i].image.samples;
            bool image = b.image != VK_NULL_HANDLE;
            both |= image && b.buffer != VK_NULL_HANDLE;
            if (image && b.buffer != VK_NULL_HANDLE && !upload) {
              image = pipeline >= 0 && BindsAsImage(script_.pipelines[pipeline], i);
            }
            if (b.buffer != VK_NULL_HANDLE && (upload || !image)) {
              const VkBufferCopy region{0, 0, b.allocated};
              vk.vkCmdCopyBuffer(command_buffer_, upload ? b.staging : b.buffer,
                                 upload ? b.buffer : b.staging, 1, &region);
            }
            if (!image) continue;
            const VkPipelineStageFlags shaders = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
            const VkAccessFlags shader_access =
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
            if (samples > 1) {  // Never copied (Amber's way): only made usable.
              if (b.layout == VK_IMAGE_LAYOUT_UNDEFINED) {
                ImageBarrier(b, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                             shaders, shader_access);
              }
              continue;
            }
            if (upload) {
              ImageBarrier(b, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           shaders | VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
              std::vector<VkBufferImageCopy> regions;
              for (uint32_t level = b.copy_level; level < script_.buffers[i].image.mip_levels;
                   ++level) {
                regions.push_back(ImageRegion(i, b, level));
              }
              vk.vkCmdCopyBufferToImage(command_buffer_, b.staging, b.image,
                                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                        static_cast<uint32_t>(regions.size()), regions.data());
              ImageBarrier(b, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_ACCESS_TRANSFER_WRITE_BIT, shaders, shader_access);
            } else {
              ImageBarrier(b, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           shaders | VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
              const VkBufferImageCopy region = ImageRegion(i, b, b.copy_level);
              vk.vkCmdCopyImageToBuffer(command_buffer_, b.image,
                                        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.staging, 1,
                                        &region);
              ImageBarrier(b, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, shaders,
                           shader_access);
            }
          }
          Barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  upload ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT : VK_PIPELINE_STAGE_HOST_BIT,
                  upload ? VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT
                         : VK_ACCESS_HOST_READ_BIT);
        },
        error);
    // The device copy that was not read back is stale.
    if (ok && both && !upload) device_stale_ = true;
    return ok;
  }

  bool BindsAsImage(const Pipeline& p, size_t index) const {
    for (const BufferBinding& b : p.bindings) {
      if (!b.IsImage()) continue;
      for (const auto& e : b.elements) {
        if (e.name == script_.buffers[index].name) return true;
      }
    }
    return false;
  }

  // One dispatch in its own submission; `microseconds` gets its GPU time when `timed`.
  bool Dispatch(const Command& c, size_t pipeline, bool timed, double* microseconds,
                std::string* error) {
    const DevicePipeline& d = pipelines_[pipeline];
    const bool ok = Submit(
        c.line,
        [&] {
          // Earlier RUNs' writes and uploads visible to this one.
          Barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
          vk.vkCmdBindPipeline(command_buffer_, VK_PIPELINE_BIND_POINT_COMPUTE, d.pipeline);
          if (!d.sets.empty()) {
            vk.vkCmdBindDescriptorSets(command_buffer_, VK_PIPELINE_BIND_POINT_COMPUTE, d.layout, 0,
                                       static_cast<uint32_t>(d.sets.size()), d.sets.data(),
                                       static_cast<uint32_t>(d.dynamic_offsets.size()),
                                       d.dynamic_offsets.data());
          }
          if (d.push_constant_buffer >= 0) {
            std::vector<uint8_t> bytes(d.push_constant_size, 0);
            const DeviceBuffer& b = buffers_[d.push_constant_buffer];
            std::memcpy(bytes.data(), b.mapped, b.size);
            vk.vkCmdPushConstants(command_buffer_, d.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                  d.push_constant_size, bytes.data());
          }
          if (timed) {
            vk.vkCmdResetQueryPool(command_buffer_, query_pool_, 0, 2);
            vk.vkCmdWriteTimestamp(command_buffer_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, query_pool_,
                                   0);
          }
          vk.vkCmdDispatch(command_buffer_, c.groups[0], c.groups[1], c.groups[2]);
          if (timed) {
            vk.vkCmdWriteTimestamp(command_buffer_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                                   query_pool_, 1);
          }
        },
        error);
    if (!ok) return false;
    if (timed) {
      uint64_t stamps[2] = {0, 0};
      const VkResult r = vk.vkGetQueryPoolResults(
          device_, query_pool_, 0, 2, sizeof(stamps), stamps, sizeof(uint64_t),
          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
      if (!Check(r, "vkGetQueryPoolResults", error)) return false;
      const uint64_t mask =
          timestamp_bits_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << timestamp_bits_) - 1;
      const uint64_t ticks = ((stamps[1] & mask) - (stamps[0] & mask)) & mask;
      *microseconds = static_cast<double>(ticks) * props_.limits().timestampPeriod / 1000.0;
    }
    return true;
  }

  bool RunCommand(const Command& c, std::string* error) {
    size_t index = 0;
    while (script_.pipelines[index].name != c.pipeline) ++index;
    const auto& max = props_.limits().maxComputeWorkGroupCount;
    for (int k = 0; k < 3; ++k) {
      if (c.groups[k] > max[k]) {
        *error = At(c.line) + "RUN: " + std::to_string(c.groups[k]) + " workgroups in " + "XYZ"[k] +
                 " is above the device's maximum " + std::to_string(max[k]);
        return false;
      }
    }
    // The device copies hold what the staging copies hold before the RUN proper.
    if (device_stale_ && !Transfer(c.line, true, error)) return false;
    device_stale_ = false;
    if (options_.timing_runs > 0) {
      // Warm-up and timed dispatches first; then the device copies go back to what the
      // staging copies still hold, so that the RUN proper sees what the script wrote.
      double unused = 0;
      for (uint32_t i = 0; i < options_.warmup_runs; ++i) {
        if (!Dispatch(c, index, false, &unused, error)) return false;
      }
      std::vector<double> times;
      for (uint32_t i = 0; i < options_.timing_runs; ++i) {
        double us = 0;
        if (!Dispatch(c, index, true, &us, error)) return false;
        times.push_back(us);
      }
      std::sort(times.begin(), times.end());
      RunTiming t;
      t.line = c.line;
      t.pipeline = c.pipeline;
      t.variant = options_.variant;
      t.runs = static_cast<uint32_t>(times.size());
      const size_t n = times.size();
      t.median_us = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
      t.min_us = times.front();
      t.max_us = times.back();
      result_->timings.push_back(t);
      if (!Transfer(c.line, true, error)) return false;
    }
    double unused = 0;
    // The staging copies hold the results for EXPECT, push constants and later uploads.
    return Dispatch(c, index, false, &unused, error) &&
           Transfer(c.line, false, error, static_cast<int>(index));
  }

  void Expect(const Command& c) {
    ExpectReport report;
    report.line = c.line;
    report.command = c.text;
    report.variant = options_.variant;
    const int index = BufferIndex(c.buffer);
    const DeviceBuffer& b = buffers_[index];
    std::span<const uint8_t> other;
    if (!c.other.empty()) {
      const DeviceBuffer& o = buffers_[BufferIndex(c.other)];
      other = {o.mapped, o.size};
    }
    if (c.kind == Command::kExpectProbe) {
      EvaluateProbe(c, script_.buffers[index].type, script_.buffers[index].image.width,
                    {b.mapped, b.size}, &report);
    } else {
      EvaluateExpect(c, script_.buffers[index].type, {b.mapped, b.size}, other, &report);
    }
    result_->expects.push_back(std::move(report));
  }

  const Script& script_;
  const ExecuteOptions& options_;
  ExecuteResult* result_;
  Instance instance_;
  VulkanApi& vk;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  DeviceProperties props_;
  std::set<std::string> enabled_features_;  // FeatureRef::Name() of each enabled feature.
  std::shared_ptr<const DeviceProfileHandle> device_profile_;  // Built on first need.
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  uint32_t timestamp_bits_ = 0;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::vector<DeviceBuffer> buffers_;
  std::vector<VkSampler> samplers_;  // By Script::samplers; made on first use.
  std::vector<DevicePipeline> pipelines_;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkQueryPool query_pool_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};
  bool device_stale_ = true;  // The device copies do not yet hold the staging copies' bytes.
  // vkConvertCooperativeVectorMatrixNV, when VK_NV_cooperative_vector is enabled.
  PFN_ConvertCooperativeVectorMatrixNV convert_matrix_ = nullptr;
};

}  // namespace

const std::vector<CooperativeExtension>& CooperativeExtensions() {
  static const std::vector<CooperativeExtension> list = {
      {"VK_KHR_cooperative_matrix", {"SPV_KHR_cooperative_matrix"}},
      {"VK_NV_cooperative_matrix", {"SPV_NV_cooperative_matrix"}},
      {"VK_NV_cooperative_matrix2", {"SPV_NV_cooperative_matrix2", "SPV_NV_tensor_addressing"}},
      {"VK_NV_cooperative_vector", {"SPV_NV_cooperative_vector"}},
      {"VK_KHR_shader_bfloat16", {"SPV_KHR_bfloat16"}},
      {"VK_EXT_shader_replicated_composites", {"SPV_EXT_replicated_composites"}},
      {"VK_EXT_shader_float8", {"SPV_EXT_float8"}},
  };
  return list;
}

bool DeviceSubgroupSize(const std::string& which, uint32_t* size, std::string* error) {
  Instance instance;
  if (!instance.Create(error)) return false;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  if (!instance.Select(which, &physical, error)) return false;
  DeviceProperties props;
  props.Query(instance.vk, physical);
  *size = props.v11.subgroupSize;
  return true;
}

bool Execute(const Script& script, const ExecuteOptions& options, ExecuteResult* result,
             std::string* error) {
  Executor executor(script, options, result);
  return executor.Run(error);
}

bool SupportedDeviceFeatures(const std::string& which, std::vector<std::string>* features,
                             std::vector<std::string>* extensions, std::string* error) {
  Instance instance;
  if (!instance.Create(error)) return false;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  if (!instance.Select(which, &physical, error)) return false;
  const std::set<std::string> available = instance.Extensions(physical);
  const auto& structs = FeatureStructs();
  std::vector<bool> chainable(structs.size());
  for (size_t s = 0; s < structs.size(); ++s) {
    chainable[s] = structs[s].extension == nullptr || available.count(structs[s].extension);
  }
  FeatureChain supported(chainable);
  instance.vk.vkGetPhysicalDeviceFeatures2(physical, supported.head());
  for (size_t s = 0; s < structs.size(); ++s) {
    if (!chainable[s]) continue;
    for (size_t f = 0; f < structs[s].fields.size(); ++f) {
      // Protected memory needs a protected queue, which coopspv-run does not create.
      if (structs[s].fields[f] == "protectedMemory") continue;
      const FeatureRef ref{s, f};
      if (supported.Get(ref)) features->push_back(ref.Name());
    }
  }
  for (const CooperativeExtension& e : CooperativeExtensions()) {
    if (available.count(e.device)) extensions->push_back(e.device);
  }
  return true;
}

bool EnumerateDevices(std::vector<VulkanDeviceInfo>* devices, std::string* error) {
  Instance instance;
  if (!instance.Create(error)) return false;
  const VulkanApi& vk = instance.vk;
  for (size_t i = 0; i < instance.devices().size(); ++i) {
    VkPhysicalDevice d = instance.devices()[i];
    DeviceProperties props;
    props.Query(vk, d);
    const auto& p = props.base.properties;
    VulkanDeviceInfo info;
    info.index = static_cast<uint32_t>(i);
    info.name = p.deviceName;
    info.type = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU     ? "discrete"
                : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? "integrated"
                : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU            ? "cpu"
                : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU    ? "virtual"
                                                                         : "other";
    info.api_version = ApiVersionString(p.apiVersion);
    if (p.apiVersion >= VK_API_VERSION_1_3) {
      info.driver = std::string(props.v12.driverName) + " " + props.v12.driverInfo;
      info.subgroup_size = props.v11.subgroupSize;
      info.min_subgroup_size = props.v13.minSubgroupSize;
      info.max_subgroup_size = props.v13.maxSubgroupSize;
    }
    const auto extensions = instance.Extensions(d);
    for (const CooperativeExtension& e : CooperativeExtensions()) {
      if (extensions.count(e.device)) info.cooperative_extensions.push_back(e.device);
    }
    devices->push_back(std::move(info));
  }
  return true;
}

bool QueryDeviceProfile(const std::string& which, profile::DeviceProfile* out,
                        std::vector<std::string>* notes, std::string* error) {
  Instance instance;
  if (!instance.Create(error)) return false;
  VkPhysicalDevice device;
  if (!instance.Select(which, &device, error)) return false;
  ReadDeviceProfile(instance.vk, instance.handle(), device, out, notes);
  return true;
}

}  // namespace coopspv::run
