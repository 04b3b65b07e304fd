// VK_LAYER_coopspv: the Khronos loader's layer interface (vkNegotiateLoaderLayerInterfaceVersion,
// vkGetInstanceProcAddr, vkGetDeviceProcAddr, vk_layerGetPhysicalDeviceProcAddr), the dispatch
// tables of the next element of the chain per instance and per device, and the calls the layer
// intercepts:
// - physical-device queries (extensions, features, properties, the cooperative matrix shapes),
//   which advertise VK_KHR_cooperative_matrix where it is emulated (source/layer/emulate.h);
// - vkCreateDevice, which takes the emulated extension and its feature structure out of what
//   the driver sees;
// - vkCreateShaderModule and vkCreateComputePipelines, which validate each module for the live
//   device and, where emulated, hand the driver the module legalized for it
//   (source/layer/shaders.h);
// - VK_EXT_debug_utils messengers, which receive the reports (source/layer/messages.h).
// Every failure inside the layer is reported and the call then falls through to the driver, or
// fails with a Vulkan error: an exception never leaves it.
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "source/api/workspace.h"
#include "source/layer/cache.h"
#include "source/layer/emulate.h"
#include "source/layer/messages.h"
#include "source/layer/settings.h"
#include "source/layer/shaders.h"
#include "source/profile/device_profile.h"
#include "source/run/device_query.h"
#include "source/run/vulkan.h"

namespace coopspv::layer {
namespace {

constexpr const char* kLayerName = "VK_LAYER_coopspv";
// VkPipelineShaderStageRequiredSubgroupSizeCreateInfo, VkPhysicalDeviceSubgroupSizeControlFeatures.
constexpr auto kRequiredSubgroupSizeInfo =
    VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;

// Handles of dispatchable objects start with the loader's dispatch table pointer, shared by an
// instance and its physical devices, and by a device and its queues and command buffers.
void* Key(const void* handle) { return *static_cast<void* const*>(handle); }

std::string VersionString(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v));
}

// A device profile the layer validates or legalizes for, built once: its JSON text, the hash of
// the text (for the cache keys) and, for validation, the profile loaded.
struct DeviceTarget {
  std::string json;
  CacheKey key;
  std::shared_ptr<const DeviceProfileHandle> handle;
};

// What the layer knows of one physical device, built at the first query that needs it.
struct PhysicalDevice {
  std::once_flag once;
  bool ready = false;           // False when the device's profile could not be read.
  profile::DeviceProfile real;  // The driver's, without the matrices coopspv.hide_native hides.
  Emulation emulation;
  uint32_t api_version = 0;
  uint32_t subgroup_size = 0, min_subgroup_size = 0, max_subgroup_size = 0;
  bool required_size_in_compute = false;  // requiredSubgroupSizeStages has compute.
  bool has_subgroup_size_control = false;
  // Per subgroup size (0: the device's default), the device as the application sees it (for
  // validation) and as it is (for legalization).
  std::mutex mutex;
  std::map<std::pair<bool, uint32_t>, std::shared_ptr<const DeviceTarget>> targets;
  std::string problem;  // Why `ready` is false.
};

constexpr char kMatrixPropertiesName[] = "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR";
constexpr char kFlexibleDimensionsName[] =
    "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV";
constexpr char kMatrixPropertiesNvName[] = "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV";
constexpr char kVectorPropertiesName[] = "vkGetPhysicalDeviceCooperativeVectorPropertiesNV";
// The physical-device commands the layer intercepts (PhysicalDeviceFunction).
constexpr const char* kInterceptedPhysicalDeviceCommands[] = {
    kMatrixPropertiesName, kFlexibleDimensionsName, kMatrixPropertiesNvName,
    kVectorPropertiesName};

struct Instance {
  VkInstance handle = VK_NULL_HANDLE;
  run::VulkanApi vk;  // The next element of the chain.
  PFN_GetPhysicalDeviceProcAddr next_gpdpa = nullptr;
  // The next element's physical-device commands that the layer itself intercepts, looked up
  // while vkCreateInstance runs. Looked up later, the loader's terminator answers with the
  // instance's dispatch table, whose entry for a command the layer intercepts is the layer's own
  // (a query from inside the layer then comes back to it: a deadlock in Physical()'s call_once,
  // an endless recursion in a pass-through).
  std::map<std::string, PFN_vkVoidFunction, std::less<>> next_physical;
  PFN_vkGetPhysicalDeviceFeatures2 features2_khr = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 properties2_khr = nullptr;
  PFN_vkCreateDebugUtilsMessengerEXT create_messenger = nullptr;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger = nullptr;
  uint32_t api_version = VK_API_VERSION_1_0;  // The application's.
  Settings settings;
  Cache* cache = nullptr;  // Cache::ForDirectory(settings.cache_dir).
  std::unique_ptr<Messages> messages;
  std::mutex mutex;
  std::map<VkPhysicalDevice, std::unique_ptr<PhysicalDevice>> physical;

  void Report(ReportLevel level, std::string id_name, std::string text,
              VkObjectType type = VK_OBJECT_TYPE_UNKNOWN, uint64_t object = 0) const {
    messages->Report({level, std::move(id_name), std::move(text), type, object});
  }
  PhysicalDevice* Physical(VkPhysicalDevice device);
};

// A diagnostic as reported: its level, message id (the VUID where the rule enforces one, else
// the rule id) and line.
struct ReportLine {
  ReportLevel level;
  std::string id, line;
};
// A verdict's lines, each marked once its id reached the duplicate limit (it stays there: later
// creations skip it without asking).
struct ReportLines {
  std::vector<ReportLine> lines;
  std::unique_ptr<std::atomic<bool>[]> dropped;
};

// What the layer reads of a module's words, once: shared by every module of a device created
// from the same words (Device::CodeOf).
struct ModuleCode {
  std::vector<uint32_t> words;
  CacheKey key;  // ModuleKey(words).
  // Its matrices (or bfloat16) need the emulation: NeedsMatrixEmulation.
  bool khr_matrices = false;
  bool coop_vectors = false;           // DeclaresCoopVectors.
  bool replicated_composites = false;  // ReplicatedCompositesEXT.
  // Where its matrices need the emulation: IdenticalInvocations, the size of a workgroup whose
  // invocations all do the same work (0: not such a module), read at the module's first
  // emulated pipeline.
  std::once_flag identical_once;
  uint32_t identical_invocations = 0;
  uint32_t IdenticalInvocationsOnce() {
    std::call_once(identical_once, [&] { identical_invocations = IdenticalInvocations(words); });
    return identical_invocations;
  }
  std::mutex mutex;
  // The verdict of the module as created (no specialization, the device's subgroup size), once
  // known, and its diagnostics as reported.
  std::shared_ptr<const Verdict> created_verdict;
  std::shared_ptr<const ReportLines> created_lines;
};

// A module the application created: its code, and the diagnostics already reported for it.
struct Module {
  std::shared_ptr<ModuleCode> code;
  std::mutex mutex;
  std::set<std::string> reported;
};

// The layer's own time in a creation (coopspv.self_time): from the entry to the driver's call and
// from its return to the exit, each interval less what the clock's reads cost.
class SelfTimer {
 public:
  struct Totals {
    std::mutex mutex;
    std::vector<uint64_t> samples;  // Nanoseconds per call (the first million calls).
    // "<calls> calls, <total> us in all, first <first> us, median <median> us".
    std::string Summary() {
      std::lock_guard<std::mutex> lock(mutex);
      uint64_t total = 0;
      for (uint64_t t : samples) total += t;
      std::vector<uint64_t> sorted = samples;
      std::sort(sorted.begin(), sorted.end());
      const double median =
          sorted.empty() ? 0.0
          : sorted.size() % 2 ? static_cast<double>(sorted[sorted.size() / 2])
                              : (static_cast<double>(sorted[sorted.size() / 2 - 1]) +
                                 static_cast<double>(sorted[sorted.size() / 2])) / 2.0;
      char text[200];
      std::snprintf(text, sizeof(text), "%zu calls, %.3f us in all, first %.3f us, median %.3f us",
                    sorted.size(), static_cast<double>(total) / 1000.0,
                    samples.empty() ? 0.0 : static_cast<double>(samples[0]) / 1000.0,
                    median / 1000.0);
      return text;
    }
  };
  SelfTimer(bool on, Totals* totals) : totals_(on ? totals : nullptr) {
    if (totals_ != nullptr) ClockCost();  // Calibrated before the first interval starts.
    Resume();
  }
  ~SelfTimer() {
    if (totals_ == nullptr) return;
    Pause();
    std::lock_guard<std::mutex> lock(totals_->mutex);
    if (totals_->samples.size() < (1u << 20)) totals_->samples.push_back(spent_);
  }
  void Pause() {
    if (totals_ == nullptr) return;
    const int64_t interval = (Clock::now() - start_).count() - ClockCost();
    spent_ += static_cast<uint64_t>(std::max<int64_t>(interval, 0));
  }
  void Resume() {
    if (totals_ != nullptr) start_ = Clock::now();
  }

 private:
  using Clock = std::chrono::steady_clock;
  // What an empty interval measures (the clock's own cost, tens of nanoseconds in a virtual
  // machine): the median of 999 back-to-back reads, subtracted from each interval.
  static int64_t ClockCost() {
    static const int64_t cost = [] {
      std::vector<int64_t> d(999);
      for (int64_t& x : d) {
        const Clock::time_point a = Clock::now();
        x = (Clock::now() - a).count();
      }
      std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
      return d[d.size() / 2];
    }();
    return cost;
  }
  Totals* totals_;
  Clock::time_point start_;
  uint64_t spent_ = 0;
};

struct Device {
  VkDevice handle = VK_NULL_HANDLE;
  SelfTimer::Totals module_time, pipeline_time;  // coopspv.self_time.
  Instance* instance = nullptr;
  PhysicalDevice* physical = nullptr;
  PFN_vkGetDeviceProcAddr next_gdpa = nullptr;
  PFN_vkDestroyDevice destroy = nullptr;
  PFN_vkCreateShaderModule create_module = nullptr;
  PFN_vkDestroyShaderModule destroy_module = nullptr;
  PFN_vkCreateComputePipelines create_pipelines = nullptr;
  ValidationSetup setup;  // Without the profile: per subgroup size, from the physical device.
  VkResult invalid_result = VK_ERROR_UNKNOWN;
  bool size_control_enabled = false;
  bool vectors_enabled = false;  // The application enabled the emulated VK_NV_cooperative_vector.
  std::mutex mutex;
  std::unordered_map<VkShaderModule, std::shared_ptr<Module>> modules;

  // The code of `bytes` of SPIR-V: the one read for the same words before, when the device still
  // keeps it (an application creating a module from the same words again, as ggml does for each
  // pipeline of a shader, costs a comparison of the words instead of a copy, a hash and scans).
  std::shared_ptr<ModuleCode> CodeOf(const uint32_t* words, size_t bytes) {
    const size_t count = bytes / 4;
    {
      std::lock_guard<std::mutex> lock(code_mutex);
      auto [first, last] = recent_code.equal_range(count);
      for (auto it = first; it != last; ++it) {
        if (std::memcmp(it->second->words.data(), words, count * 4) == 0) return it->second;
      }
    }
    auto code = std::make_shared<ModuleCode>();
    code->words.assign(words, words + count);
    code->key = ModuleKey(code->words);
    code->khr_matrices = NeedsMatrixEmulation(code->words, physical->emulation);
    code->coop_vectors = DeclaresCoopVectors(code->words);
    code->replicated_composites = DeclaresCapability(code->words, kReplicatedCompositesEXT);
    std::lock_guard<std::mutex> lock(code_mutex);
    recent_code.emplace(count, code);
    recent_order.push_back(code);
    recent_words += count;
    // The most recent modules, up to 64 MiB of words.
    while (recent_words > (size_t{16} << 20) && recent_order.size() > 1) {
      const std::shared_ptr<ModuleCode> old = recent_order.front();
      recent_order.pop_front();
      recent_words -= old->words.size();
      auto [from, to] = recent_code.equal_range(old->words.size());
      for (auto it = from; it != to; ++it) {
        if (it->second == old) {
          recent_code.erase(it);
          break;
        }
      }
    }
    return code;
  }
  std::mutex code_mutex;
  std::unordered_multimap<size_t, std::shared_ptr<ModuleCode>> recent_code;  // By word count.
  std::deque<std::shared_ptr<ModuleCode>> recent_order;                    // Oldest first.
  size_t recent_words = 0;

  std::shared_ptr<Module> FindModule(VkShaderModule m) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = modules.find(m);
    return it == modules.end() ? nullptr : it->second;
  }
};

// The loader unloads the layer when the last instance that uses it is destroyed, and these go
// with it.
std::shared_mutex g_mutex;
std::unordered_map<void*, std::unique_ptr<Instance>> g_instances;
std::unordered_map<void*, std::unique_ptr<Device>> g_devices;

Instance* FindInstance(const void* handle) {
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  auto it = g_instances.find(Key(handle));
  return it == g_instances.end() ? nullptr : it->second.get();
}

Device* FindDevice(const void* handle) {
  std::shared_lock<std::shared_mutex> lock(g_mutex);
  auto it = g_devices.find(Key(handle));
  return it == g_devices.end() ? nullptr : it->second.get();
}

// In a catch block: what was thrown, for the report.
std::string WhatFailed() {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an unknown exception";
  }
}

template <typename T>
const T* FindInChain(const void* chain, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType == type) return reinterpret_cast<const T*>(s);
  }
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL NextProcAddr(VkInstance instance, const char* name);

PhysicalDevice* Instance::Physical(VkPhysicalDevice device) {
  PhysicalDevice* p;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = physical[device];
    if (!slot) slot = std::make_unique<PhysicalDevice>();
    p = slot.get();
  }
  std::call_once(p->once, [&] {
    try {
      std::vector<std::string> notes;
      run::VulkanApi next = vk;
      next.vkGetInstanceProcAddr = NextProcAddr;
      run::ReadDeviceProfile(next, handle, device, &p->real, &notes);
      VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
      VkPhysicalDeviceSubgroupProperties subgroup{
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
      VkPhysicalDeviceSubgroupSizeControlProperties size_control{
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
      VkPhysicalDeviceProperties basic;
      vk.vkGetPhysicalDeviceProperties(device, &basic);
      p->api_version = basic.apiVersion;
      const bool v13 = basic.apiVersion >= VK_API_VERSION_1_3;
      props.pNext = &subgroup;
      if (v13) subgroup.pNext = &size_control;
      vk.vkGetPhysicalDeviceProperties2(device, &props);
      p->subgroup_size = subgroup.subgroupSize;
      p->min_subgroup_size = v13 ? size_control.minSubgroupSize : subgroup.subgroupSize;
      p->max_subgroup_size = v13 ? size_control.maxSubgroupSize : subgroup.subgroupSize;
      p->required_size_in_compute =
          v13 && (size_control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
      p->has_subgroup_size_control = v13 && p->real.features.subgroupSizeControl;
      // Matrix2 builds on KHR matrices: native ones, or emulated ones.
      const bool native = p->real.HasExtension(kKhrCooperativeMatrix);
      const bool native2 = p->real.HasExtension(kNvCooperativeMatrix2);
      const bool native_nv = p->real.HasExtension(kNvCooperativeMatrix);
      const std::string why =
          WhyNoEmulation(basic.apiVersion, subgroup.supportedStages, subgroup.supportedOperations);
      const bool hide_khr = settings.Hides(kKhrCooperativeMatrix);
      const bool hide2 = settings.Hides(kNvCooperativeMatrix2);
      const bool hide_nv = settings.Hides(kNvCooperativeMatrix);
      if (settings.emulate &&
          (!native || !native2 || !native_nv || hide_khr || hide2 || hide_nv)) {
        if (why.empty()) {
          p->emulation.matrices = !native || hide_khr;
          p->emulation.matrix2 = !native2 || hide2;
          p->emulation.matrices_nv = !native_nv || hide_nv;
          if (native && p->emulation.matrices) RemoveNativeMatrices(&p->real);
          if (native2 && p->emulation.matrix2) RemoveNativeMatrix2(&p->real);
          if (native_nv && p->emulation.matrices_nv) RemoveNativeMatricesNV(&p->real);
          // bfloat16 goes with the lowered matrices: --lower-small-floats keeps its bits in
          // 16-bit integers.
          p->emulation.bfloat16 = p->emulation.matrices && !p->real.features.shaderBFloat16Type &&
                                  p->real.features.shaderInt16;
        } else {
          Report(ReportLevel::kWarning, "coopspv-layer",
                 std::string("cooperative matrices are not emulated on ") + basic.deviceName +
                     ": " + why);
        }
      }
      // Cooperative vectors belong to one invocation: the lowering needs nothing of the device.
      if (settings.emulate &&
          (!p->real.HasExtension(kNvCooperativeVector) || settings.Hides(kNvCooperativeVector))) {
        VectorEmulation& v = p->emulation.vector;
        v.vectors = true;
        v.atomics = ReadAtomicFloatAdds(vk, device, p->real);
        v.replicated_composites = !p->real.HasExtension(kExtReplicatedComposites);
        RemoveNativeVectors(&p->real);
      }
      p->ready = true;
    } catch (...) {
      p->problem = WhatFailed();
    }
  });
  return p;
}

// The profile the application's modules are checked against (`seen`: the device as
// advertised), or the one they are legalized for (the device as it is), for a subgroup size.
std::shared_ptr<const DeviceTarget> Target(PhysicalDevice& p, bool seen, uint32_t subgroup_size) {
  std::lock_guard<std::mutex> lock(p.mutex);
  std::shared_ptr<const DeviceTarget>& slot = p.targets[{seen, subgroup_size}];
  if (slot != nullptr) return slot;
  profile::DeviceProfile profile = seen ? Advertised(p.real, p.emulation) : p.real;
  if (subgroup_size != 0) profile.properties.subgroupSize = subgroup_size;
  auto t = std::make_shared<DeviceTarget>();
  t->json = profile::Write(profile);
  Hasher h;
  h.Add(t->json);
  t->key = h.Finish();
  // The validator's profile is the one written (not parsed back: a millisecond at the first
  // module of each device).
  if (seen) t->handle = MakeDeviceProfileHandle(std::move(profile));
  return slot = std::move(t);
}

// ---- Instance.

VkLayerInstanceCreateInfo* InstanceLink(const VkInstanceCreateInfo* info) {
  for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO) {
      auto* l = reinterpret_cast<VkLayerInstanceCreateInfo*>(const_cast<VkBaseInStructure*>(s));
      if (l->function == VK_LAYER_LINK_INFO) return l;
    }
  }
  return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info,
                                              const VkAllocationCallbacks* allocator,
                                              VkInstance* out) {
  VkLayerInstanceCreateInfo* link = InstanceLink(info);
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_GetPhysicalDeviceProcAddr next_gpdpa =
      link->u.pLayerInfo->pfnNextGetPhysicalDeviceProcAddr;
  const auto create =
      reinterpret_cast<PFN_vkCreateInstance>(next_gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const VkResult result = create(info, allocator, out);
  if (result != VK_SUCCESS) return result;
  try {
    auto d = std::make_unique<Instance>();
    d->handle = *out;
    d->vk.vkGetInstanceProcAddr = next_gipa;
#define COOPSPV_LAYER_LOAD(name) d->vk.name = reinterpret_cast<PFN_##name>(next_gipa(*out, #name));
    COOPSPV_VK_INSTANCE(COOPSPV_LAYER_LOAD)
#undef COOPSPV_LAYER_LOAD
    d->next_gpdpa = next_gpdpa;
    for (const char* name : kInterceptedPhysicalDeviceCommands) {
      PFN_vkVoidFunction f = next_gpdpa != nullptr ? next_gpdpa(*out, name) : nullptr;
      d->next_physical[name] = f != nullptr ? f : next_gipa(*out, name);
    }
    d->features2_khr = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(
        next_gipa(*out, "vkGetPhysicalDeviceFeatures2KHR"));
    d->properties2_khr = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(
        next_gipa(*out, "vkGetPhysicalDeviceProperties2KHR"));
    d->create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        next_gipa(*out, "vkCreateDebugUtilsMessengerEXT"));
    d->destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        next_gipa(*out, "vkDestroyDebugUtilsMessengerEXT"));
    if (info->pApplicationInfo != nullptr && info->pApplicationInfo->apiVersion != 0) {
      d->api_version = info->pApplicationInfo->apiVersion;
    }
    d->settings = ReadSettings();
    d->cache = &Cache::ForDirectory(d->settings.cache_dir);
    d->messages =
        std::make_unique<Messages>(d->settings.report_level, d->settings.duplicate_message_limit);
    for (const std::string& problem : d->settings.problems) {
      d->Report(ReportLevel::kWarning, "coopspv-layer-settings", "ignored: " + problem);
    }
    // Without Vulkan 1.1's queries the layer only passes calls on.
    if (d->vk.vkGetPhysicalDeviceProperties2 == nullptr ||
        d->vk.vkGetPhysicalDeviceFeatures2 == nullptr) {
      d->settings.validate = false;
      d->settings.emulate = false;
    }
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    g_instances[Key(*out)] = std::move(d);
  } catch (...) {
    // Out of memory: the instance works without the layer's own calls (every lookup misses).
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance,
                                           const VkAllocationCallbacks* allocator) {
  if (instance == VK_NULL_HANDLE) return;
  std::unique_ptr<Instance> d;
  {
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    auto it = g_instances.find(Key(instance));
    if (it == g_instances.end()) return;
    d = std::move(it->second);
    g_instances.erase(it);
  }
  if (d->vk.vkDestroyInstance != nullptr) d->vk.vkDestroyInstance(instance, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL
CreateDebugUtilsMessenger(VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT* info,
                          const VkAllocationCallbacks* allocator, VkDebugUtilsMessengerEXT* out) {
  Instance* d = FindInstance(instance);
  if (d == nullptr || d->create_messenger == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  const VkResult result = d->create_messenger(instance, info, allocator, out);
  if (result == VK_SUCCESS) {
    try {
      d->messages->AddMessenger(*out, *info);
    } catch (...) {
    }
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessenger(VkInstance instance,
                                                      VkDebugUtilsMessengerEXT messenger,
                                                      const VkAllocationCallbacks* allocator) {
  Instance* d = FindInstance(instance);
  if (d == nullptr || d->destroy_messenger == nullptr) return;
  d->messages->RemoveMessenger(messenger);
  d->destroy_messenger(instance, messenger, allocator);
}

// ---- Physical devices: what is advertised.

// Fills the caller's array the Vulkan way: the count alone, or up to *count and VK_INCOMPLETE.
template <typename T>
VkResult FillArray(const std::vector<T>& items, uint32_t* count, T* out) {
  if (out == nullptr) {
    *count = static_cast<uint32_t>(items.size());
    return VK_SUCCESS;
  }
  const uint32_t n = std::min<uint32_t>(*count, static_cast<uint32_t>(items.size()));
  std::copy(items.begin(), items.begin() + n, out);
  *count = n;
  return n < items.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

// What is emulated on the device; nullptr when nothing is.
const PhysicalDevice* Emulates(Instance* d, VkPhysicalDevice device) {
  if (d == nullptr || !d->settings.emulate) return nullptr;
  PhysicalDevice* p = d->Physical(device);
  return p->ready && p->emulation.any() ? p : nullptr;
}

VkExtensionProperties Extension(const char* name, uint32_t spec_version) {
  VkExtensionProperties e{};
  std::strncpy(e.extensionName, name, VK_MAX_EXTENSION_NAME_SIZE - 1);
  e.specVersion = spec_version;
  return e;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice device,
                                                                  const char* layer,
                                                                  uint32_t* count,
                                                                  VkExtensionProperties* out) {
  Instance* d = FindInstance(device);
  const bool ours = layer != nullptr && std::strcmp(layer, kLayerName) == 0;
  if (d == nullptr) {
    if (ours) *count = 0;
    return ours ? VK_SUCCESS : VK_ERROR_INITIALIZATION_FAILED;
  }
  try {
    std::vector<VkExtensionProperties> list, emulated;
    const PhysicalDevice* p = Emulates(d, device);
    if (p != nullptr && p->emulation.matrices) {
      emulated.push_back(Extension(kKhrCooperativeMatrix, kKhrCooperativeMatrixSpecVersion));
    }
    if (p != nullptr && p->emulation.matrix2) {
      emulated.push_back(Extension(kNvCooperativeMatrix2, kNvCooperativeMatrix2SpecVersion));
    }
    if (p != nullptr && p->emulation.matrices_nv) {
      emulated.push_back(Extension(kNvCooperativeMatrix, kNvCooperativeMatrixSpecVersion));
    }
    if (p != nullptr && p->emulation.bfloat16) {
      emulated.push_back(Extension(kKhrShaderBfloat16, kKhrShaderBfloat16SpecVersion));
    }
    if (p != nullptr && p->emulation.vector.vectors) {
      emulated.push_back(Extension(kNvCooperativeVector, kNvCooperativeVectorSpecVersion));
    }
    if (p != nullptr && p->emulation.vector.replicated_composites) {
      emulated.push_back(Extension(kExtReplicatedComposites, kExtReplicatedCompositesSpecVersion));
    }
    if (ours) return FillArray(emulated, count, out);
    if (layer != nullptr || emulated.empty()) {
      return d->vk.vkEnumerateDeviceExtensionProperties(device, layer, count, out);
    }
    uint32_t n = 0;
    VkResult r = d->vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &n, nullptr);
    if (r < 0) return r;
    list.resize(n);
    r = d->vk.vkEnumerateDeviceExtensionProperties(device, nullptr, &n, list.data());
    if (r < 0) return r;
    list.resize(n);
    for (const VkExtensionProperties& e : emulated) {
      if (std::none_of(list.begin(), list.end(), [&](const VkExtensionProperties& l) {
            return std::strcmp(l.extensionName, e.extensionName) == 0;
          })) {
        list.push_back(e);
      }
    }
    return FillArray(list, count, out);
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
}

template <bool kKhr>
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice device,
                                                      VkPhysicalDeviceFeatures2* features) {
  Instance* d = FindInstance(device);
  if (d == nullptr) return;
  const auto next = kKhr ? d->features2_khr : d->vk.vkGetPhysicalDeviceFeatures2;
  if (next != nullptr) next(device, features);
  try {
    if (const PhysicalDevice* p = Emulates(d, device)) FillFeatures(features->pNext, p->emulation);
  } catch (...) {
  }
}

template <bool kKhr>
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice device,
                                                        VkPhysicalDeviceProperties2* properties) {
  Instance* d = FindInstance(device);
  if (d == nullptr) return;
  const auto next = kKhr ? d->properties2_khr : d->vk.vkGetPhysicalDeviceProperties2;
  if (next != nullptr) next(device, properties);
  try {
    if (const PhysicalDevice* p = Emulates(d, device)) {
      FillProperties(properties->pNext, p->emulation, p->real);
    }
  } catch (...) {
  }
}

// The next element's physical-device command of that name, or nullptr.
PFN_vkVoidFunction NextPhysicalDeviceFunction(const Instance& d, const char* name) {
  if (auto it = d.next_physical.find(std::string_view(name)); it != d.next_physical.end()) {
    return it->second;
  }
  PFN_vkVoidFunction f = d.next_gpdpa ? d.next_gpdpa(d.handle, name) : nullptr;
  return f != nullptr ? f : d.vk.vkGetInstanceProcAddr(d.handle, name);
}

// vkGetInstanceProcAddr for the layer's own device queries (run::ReadDeviceProfile): the next
// element's commands, never the layer's (see Instance::next_physical).
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL NextProcAddr(VkInstance instance, const char* name) {
  const Instance* d = FindInstance(instance);
  return d == nullptr ? nullptr : NextPhysicalDeviceFunction(*d, name);
}

// Fills the caller's entries, which keep their sType and pNext.
template <typename Entry>
VkResult FillEntries(const std::vector<Entry>& list, uint32_t* count, Entry* out) {
  if (out == nullptr) return FillArray(list, count, out);
  const uint32_t n = std::min<uint32_t>(*count, static_cast<uint32_t>(list.size()));
  for (uint32_t i = 0; i < n; ++i) {
    void* next = out[i].pNext;
    out[i] = list[i];
    out[i].pNext = next;
  }
  *count = n;
  return n < list.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

// An emulated list entry in Vulkan's structure.
template <typename Entry, typename Properties>
Entry ToEntry(const Properties& m) {
  Entry e;
  if constexpr (std::is_same_v<Entry, run::CooperativeMatrixEntryNV>) {
    e.MSize = m.MSize;
    e.NSize = m.NSize;
    e.KSize = m.KSize;
    e.AType = static_cast<uint32_t>(m.AType);
    e.BType = static_cast<uint32_t>(m.BType);
    e.CType = static_cast<uint32_t>(m.CType);
    e.DType = static_cast<uint32_t>(m.ResultType);
    e.scope = static_cast<uint32_t>(m.scope);
    return e;
  } else if constexpr (std::is_same_v<Entry, run::CooperativeMatrixEntryKHR>) {
    e.MSize = m.MSize;
    e.NSize = m.NSize;
    e.KSize = m.KSize;
  } else {
    e.MGranularity = m.MGranularity;
    e.NGranularity = m.NGranularity;
    e.KGranularity = m.KGranularity;
    e.workgroupInvocations = m.workgroupInvocations;
  }
  if constexpr (!std::is_same_v<Entry, run::CooperativeMatrixEntryNV>) {
    e.AType = static_cast<uint32_t>(m.AType);
    e.BType = static_cast<uint32_t>(m.BType);
    e.CType = static_cast<uint32_t>(m.CType);
    e.ResultType = static_cast<uint32_t>(m.ResultType);
    e.saturatingAccumulation = m.saturatingAccumulation ? VK_TRUE : VK_FALSE;
    e.scope = static_cast<uint32_t>(m.scope);
  }
  return e;
}

template <typename Entry>
Entry ToEntry(const profile::CooperativeVectorProperties& m) {
  Entry e;
  e.inputType = static_cast<uint32_t>(m.inputType);
  e.inputInterpretation = static_cast<uint32_t>(m.inputInterpretation);
  e.matrixInterpretation = static_cast<uint32_t>(m.matrixInterpretation);
  e.biasInterpretation = static_cast<uint32_t>(m.biasInterpretation);
  e.resultType = static_cast<uint32_t>(m.resultType);
  e.transpose = m.transpose ? VK_TRUE : VK_FALSE;
  return e;
}


std::vector<profile::CooperativeMatrixProperties> KhrList(const profile::DeviceProfile& d,
                                                          const Emulation& e) {
  return EmulatedMatrixShapes(d, e);
}
std::vector<profile::CooperativeMatrixProperties> NvList(const profile::DeviceProfile& d,
                                                         const Emulation&) {
  return EmulatedMatrixShapesNV(d);
}
std::vector<profile::FlexibleDimensionsProperties> FlexibleList(const profile::DeviceProfile& d,
                                                                const Emulation& e) {
  return EmulatedFlexibleDimensions(d, e);
}

// vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR,
// vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV and
// vkGetPhysicalDeviceCooperativeVectorPropertiesNV: the emulated list where the extension is
// emulated (kEmulated of the Emulation), else the driver's.
template <typename Entry, auto kEmulated, const char* kName, auto kList>
VKAPI_ATTR VkResult VKAPI_CALL GetPropertyList(VkPhysicalDevice device, uint32_t* count,
                                               Entry* out) {
  Instance* d = FindInstance(device);
  if (d == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  try {
    const PhysicalDevice* p = Emulates(d, device);
    if (p == nullptr || !std::invoke(kEmulated, p->emulation)) {
      using Fn = VkResult(VKAPI_PTR*)(VkPhysicalDevice, uint32_t*, Entry*);
      const auto next = reinterpret_cast<Fn>(NextPhysicalDeviceFunction(*d, kName));
      if (next == nullptr) {
        *count = 0;
        return VK_SUCCESS;
      }
      return next(device, count, out);
    }
    std::vector<Entry> list;
    for (const auto& m : kList(p->real, p->emulation)) list.push_back(ToEntry<Entry>(m));
    return FillEntries(list, count, out);
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
}

const auto GetMatrixProperties =
    GetPropertyList<run::CooperativeMatrixEntryKHR, &Emulation::matrices, kMatrixPropertiesName,
                    KhrList>;
const auto GetMatrixPropertiesNV =
    GetPropertyList<run::CooperativeMatrixEntryNV, &Emulation::matrices_nv,
                    kMatrixPropertiesNvName, NvList>;
const auto GetFlexibleDimensionsProperties =
    GetPropertyList<run::FlexibleDimensionsEntryNV, &Emulation::matrix2, kFlexibleDimensionsName,
                    FlexibleList>;
bool EmulatesVectors(const Emulation& e) { return e.vector.vectors; }
std::vector<profile::CooperativeVectorProperties> VectorList(const profile::DeviceProfile& d,
                                                             const Emulation&) {
  return EmulatedVectorProperties(d);
}
const auto GetVectorProperties = GetPropertyList<run::CooperativeVectorEntryNV, EmulatesVectors,
                                                 kVectorPropertiesName, VectorList>;

// ---- Device.

VkLayerDeviceCreateInfo* DeviceLink(const VkDeviceCreateInfo* info) {
  for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO) {
      auto* l = reinterpret_cast<VkLayerDeviceCreateInfo*>(const_cast<VkBaseInStructure*>(s));
      if (l->function == VK_LAYER_LINK_INFO) return l;
    }
  }
  return nullptr;
}

// Changes to the application's pNext chain for the call down, undone when it returns.
class ChainEdits {
 public:
  ~ChainEdits() { Undo(); }
  void Undo() {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) (*it)();
    undo_.clear();
  }
  // Takes every structure of `type` out of the chain that starts after `head`.
  void Unlink(VkBaseOutStructure* head, VkStructureType type) {
    for (VkBaseOutStructure* s = head; s->pNext != nullptr;) {
      VkBaseOutStructure* next = s->pNext;
      if (next->sType == type) {
        undo_.push_back([s, next] { s->pNext = next; });
        s->pNext = next->pNext;
      } else {
        s = next;
      }
    }
  }
  // Sets a VkBool32 of an application structure.
  void Enable(VkBool32* field) {
    if (*field) return;
    undo_.push_back([field] { *field = VK_FALSE; });
    *field = VK_TRUE;
  }

 private:
  std::vector<std::function<void()>> undo_;
};

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical,
                                            const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* out) {
  Instance* inst = FindInstance(physical);
  VkLayerDeviceCreateInfo* link = DeviceLink(info);
  if (inst == nullptr || link == nullptr || link->u.pLayerInfo == nullptr) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  const PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  const auto create =
      reinterpret_cast<PFN_vkCreateDevice>(next_gipa(inst->handle, "vkCreateDevice"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;

  VkDeviceCreateInfo copy = *info;
  std::vector<const char*> extensions;
  VkPhysicalDeviceSubgroupSizeControlFeatures size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  ChainEdits edits;
  PhysicalDevice* p = nullptr;
  bool size_control_enabled = false, vectors_enabled = false;
  try {
    if (inst->settings.validate || inst->settings.emulate) p = inst->Physical(physical);
    for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
      extensions.push_back(info->ppEnabledExtensionNames[i]);
    }
    // The driver does not have the emulated extensions (or must not use its own): it never
    // sees them.
    const Emulation emulation = p != nullptr && p->ready ? p->emulation : Emulation();
    auto strip = [&](const char* name, VkStructureType features) {
      std::erase_if(extensions, [&](const char* e) { return std::strcmp(e, name) == 0; });
      edits.Unlink(reinterpret_cast<VkBaseOutStructure*>(&copy), features);
    };
    if (emulation.matrices) strip(kKhrCooperativeMatrix, run::kCooperativeMatrixFeaturesKHR);
    if (emulation.matrix2) strip(kNvCooperativeMatrix2, run::kCooperativeMatrix2FeaturesNV);
    if (emulation.matrices_nv) strip(kNvCooperativeMatrix, kCooperativeMatrixFeaturesNV);
    if (emulation.bfloat16) strip(kKhrShaderBfloat16, kShaderBfloat16FeaturesKHR);
    if (emulation.vector.vectors) {
      vectors_enabled = std::any_of(extensions.begin(), extensions.end(), [](const char* e) {
        return std::strcmp(e, kNvCooperativeVector) == 0;
      });
      const auto* features =
          FindInChain<CooperativeVectorFeaturesNV>(info->pNext, kCooperativeVectorFeaturesNV);
      const bool training = vectors_enabled && features != nullptr &&
                            features->cooperativeVectorTraining && emulation.vector.training();
      strip(kNvCooperativeVector, kCooperativeVectorFeaturesNV);
      // The lowered training instructions add floats atomically (buffer memory, Device scope).
      if (training) {
        auto add_extension = [&](const char* name) {
          if (std::none_of(extensions.begin(), extensions.end(),
                           [&](const char* e) { return std::strcmp(e, name) == 0; })) {
            extensions.push_back(name);
          }
        };
        auto chain = [&](auto* ours, VkStructureType type) {
          using T = std::remove_pointer_t<decltype(ours)>;
          if (auto* own = const_cast<T*>(FindInChain<T>(copy.pNext, type))) return own;
          ours->pNext = const_cast<void*>(copy.pNext);
          copy.pNext = ours;
          return ours;
        };
        const AtomicFloatAdds& a = emulation.vector.atomics;
        if (a.float32 || a.float64) {
          add_extension(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
          auto* f = chain(&atomic_float,
                          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
          if (a.float32) edits.Enable(&f->shaderBufferFloat32AtomicAdd);
          if (a.float64) edits.Enable(&f->shaderBufferFloat64AtomicAdd);
        }
        if (a.float16) {
          add_extension(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
          edits.Enable(&chain(&atomic_float2,
                              VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT)
                            ->shaderBufferFloat16AtomicAdd);
        }
        auto* v12 = const_cast<VkPhysicalDeviceVulkan12Features*>(
            FindInChain<VkPhysicalDeviceVulkan12Features>(
                copy.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES));
        if (v12 != nullptr && v12->vulkanMemoryModel &&
            p->real.features.vulkanMemoryModelDeviceScope) {
          edits.Enable(&v12->vulkanMemoryModelDeviceScope);
        }
      }
    }
    if (emulation.vector.replicated_composites) {
      strip(kExtReplicatedComposites, kReplicatedCompositesFeaturesEXT);
    }
    copy.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    copy.ppEnabledExtensionNames = extensions.data();
    // The lowering runs with one subgroup size: on a device whose size varies, the layer asks
    // for it (a required subgroup size), which needs subgroupSizeControl.
    auto* v13 =
        const_cast<VkPhysicalDeviceVulkan13Features*>(FindInChain<VkPhysicalDeviceVulkan13Features>(
            copy.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES));
    auto* own = const_cast<VkPhysicalDeviceSubgroupSizeControlFeatures*>(
        FindInChain<VkPhysicalDeviceSubgroupSizeControlFeatures>(
            copy.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES));
    if ((emulation.matrices || emulation.matrix2 || emulation.matrices_nv) &&
        p->min_subgroup_size != p->max_subgroup_size &&
        p->has_subgroup_size_control) {
      if (v13 != nullptr) {
        edits.Enable(&v13->subgroupSizeControl);
      } else if (own != nullptr) {
        edits.Enable(&own->subgroupSizeControl);
      } else {
        size_control.subgroupSizeControl = VK_TRUE;
        size_control.pNext = const_cast<void*>(copy.pNext);
        copy.pNext = &size_control;
      }
      size_control_enabled = true;
    } else {
      size_control_enabled = (v13 && v13->subgroupSizeControl) || (own && own->subgroupSizeControl);
    }
  } catch (...) {
    edits.Undo();  // Out of memory: the driver gets what the application asked for.
    copy = *info;
    p = nullptr;
  }
  const VkResult result = create(physical, &copy, allocator, out);
  if (result != VK_SUCCESS) return result;

  try {
    auto d = std::make_unique<Device>();
    d->handle = *out;
    d->instance = inst;
    d->physical = p != nullptr && p->ready ? p : nullptr;
    d->next_gdpa = next_gdpa;
    d->destroy = reinterpret_cast<PFN_vkDestroyDevice>(next_gdpa(*out, "vkDestroyDevice"));
    d->create_module =
        reinterpret_cast<PFN_vkCreateShaderModule>(next_gdpa(*out, "vkCreateShaderModule"));
    d->destroy_module =
        reinterpret_cast<PFN_vkDestroyShaderModule>(next_gdpa(*out, "vkDestroyShaderModule"));
    d->create_pipelines =
        reinterpret_cast<PFN_vkCreateComputePipelines>(next_gdpa(*out, "vkCreateComputePipelines"));
    d->size_control_enabled = size_control_enabled;
    d->vectors_enabled = vectors_enabled;
    for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
      if (std::strcmp(info->ppEnabledExtensionNames[i], "VK_NV_glsl_shader") == 0) {
        d->invalid_result = VK_ERROR_INVALID_SHADER_NV;
      }
    }
    // Validation as coopspv-run does it: the environment of the Vulkan version both the device
    // and the application have, the block layouts the application enabled.
    if (d->physical != nullptr) {
      const uint32_t version = std::min(inst->api_version, d->physical->api_version);
      d->setup.target_env =
          "vulkan" + VersionString(std::min(version, VK_MAKE_API_VERSION(0, 1, 4, 0)));
    }
    if (auto* v12 = FindInChain<VkPhysicalDeviceVulkan12Features>(
            info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
      d->setup.scalar_block_layout = v12->scalarBlockLayout;
      d->setup.uniform_buffer_standard_layout = v12->uniformBufferStandardLayout;
    }
    if (auto* s = FindInChain<VkPhysicalDeviceScalarBlockLayoutFeatures>(
            info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES)) {
      d->setup.scalar_block_layout |= s->scalarBlockLayout != VK_FALSE;
    }
    if (auto* u = FindInChain<VkPhysicalDeviceUniformBufferStandardLayoutFeatures>(
            info->pNext,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES)) {
      d->setup.uniform_buffer_standard_layout |= u->uniformBufferStandardLayout != VK_FALSE;
    }
    if (auto* w = FindInChain<VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR>(
            info->pNext,
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR)) {
      d->setup.workgroup_scalar_block_layout =
          w->workgroupMemoryExplicitLayoutScalarBlockLayout != VK_FALSE;
    }
    if (d->physical == nullptr && p != nullptr) {
      inst->Report(ReportLevel::kWarning, "coopspv-layer",
                   "the device's profile could not be read (" + p->problem +
                       "): modules are neither validated nor emulated");
    }
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    g_devices[Key(*out)] = std::move(d);
  } catch (...) {
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  if (device == VK_NULL_HANDLE) return;
  std::unique_ptr<Device> d;
  {
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    auto it = g_devices.find(Key(device));
    if (it == g_devices.end()) return;
    d = std::move(it->second);
    g_devices.erase(it);
  }
  if (d->instance->settings.self_time) {
    std::fprintf(stderr,
                 "VK_LAYER_coopspv self time: vkCreateShaderModule %s; vkCreateComputePipelines "
                 "%s\n",
                 d->module_time.Summary().c_str(), d->pipeline_time.Summary().c_str());
  }
  if (d->destroy != nullptr) d->destroy(device, allocator);
}

// ---- Shader modules and pipelines.

// A verdict's diagnostics as reported (formatted once per verdict kept with a module's code).
std::shared_ptr<const ReportLines> LinesOf(const Verdict& v) {
  auto r = std::make_shared<ReportLines>();
  r->dropped = std::make_unique<std::atomic<bool>[]>(v.diagnostics.size());
  for (const ValidationDiagnostic& diag : v.diagnostics) {
    const bool vuid = diag.clause.starts_with("VUID-");
    r->lines.push_back({diag.is_error ? ReportLevel::kError : ReportLevel::kWarning,
                        vuid ? diag.clause.substr(0, diag.clause.find(';')) : diag.rule_id,
                        DiagnosticLine(diag)});
  }
  return r;
}

// Reports the lines that were not reported for the module before (and would not be dropped).
void ReportVerdict(const Device& d, Module& m, const ReportLines& lines, const char* where,
                   VkObjectType type, uint64_t object) {
  for (size_t k = 0; k < lines.lines.size(); ++k) {
    const ReportLine& l = lines.lines[k];
    if (lines.dropped[k].load(std::memory_order_relaxed)) continue;
    if (d.instance->messages->Dropped(l.level, l.id)) {
      lines.dropped[k].store(true, std::memory_order_relaxed);
      continue;
    }
    {
      std::lock_guard<std::mutex> lock(m.mutex);
      if (!m.reported.insert(l.line).second) continue;
    }
    d.instance->Report(l.level, l.id, std::string(where) + ": " + l.line, type, object);
  }
}

// Validates the module (specialized by `spec`, for `subgroup_size`, 0: the device's default),
// reports what is new, and says whether the creation must fail.
bool Check(Device& d, Module& m, std::span<const run::SpecConstant> spec, uint32_t subgroup_size,
           const char* where, VkObjectType type, uint64_t object) {
  // The module as created, once validated for the device, keeps its verdict (its code is the
  // device's: nothing else in the key changes).
  const bool as_created = spec.empty() && subgroup_size == 0;
  std::shared_ptr<const Verdict> verdict;
  std::shared_ptr<const ReportLines> lines;
  if (as_created) {
    std::lock_guard<std::mutex> lock(m.code->mutex);
    verdict = m.code->created_verdict;
    lines = m.code->created_lines;
  }
  Source source = Source::kMemory;
  if (verdict == nullptr) {
    std::string error;
    ValidationSetup setup = d.setup;
    const std::shared_ptr<const DeviceTarget> target = Target(*d.physical, true, subgroup_size);
    setup.profile = target->handle;
    setup.profile_key = target->key;
    auto computed = std::make_shared<Verdict>();
    if (!ValidateModule(m.code->words, m.code->key, spec, setup, *d.instance->cache,
                        computed.get(), &error)) {
      d.instance->Report(ReportLevel::kError, "coopspv-layer",
                         std::string(where) + ": the module could not be validated: " + error,
                         type, object);
      return false;
    }
    source = computed->source;
    verdict = computed;
    lines = LinesOf(*verdict);
    if (as_created) {
      std::lock_guard<std::mutex> lock(m.code->mutex);
      m.code->created_verdict = verdict;
      m.code->created_lines = lines;
    }
  }
  static const char* const kSources[] = {"validated", "verdict from the memory cache",
                                         "verdict from the cache directory"};
  if (d.instance->settings.report_level >= ReportLevel::kInfo) {
    d.instance->Report(ReportLevel::kInfo, "coopspv-layer-validation",
                       std::string(where) + ": " + kSources[static_cast<int>(source)] + ": " +
                           (verdict->valid ? "valid" : "invalid") + ", " +
                           std::to_string(verdict->diagnostics.size()) + " diagnostic(s)",
                       type, object);
  }
  ReportVerdict(d, m, *lines, where, type, object);
  return !verdict->valid && d.instance->settings.fail_on_error;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device,
                                                  const VkShaderModuleCreateInfo* info,
                                                  const VkAllocationCallbacks* allocator,
                                                  VkShaderModule* out) {
  Device* d = FindDevice(device);
  if (d == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  SelfTimer timer(d->instance->settings.self_time, &d->module_time);
  std::shared_ptr<Module> m;
  try {
    const Settings& s = d->instance->settings;
    if (d->physical != nullptr && (s.validate || s.emulate) && info->pCode != nullptr) {
      m = std::make_shared<Module>();
      m->code = d->CodeOf(info->pCode, info->codeSize);
      if (s.validate && Check(*d, *m, {}, 0, "vkCreateShaderModule", VK_OBJECT_TYPE_DEVICE,
                              reinterpret_cast<uint64_t>(device))) {
        *out = VK_NULL_HANDLE;
        return d->invalid_result;
      }
    }
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  } catch (...) {
    // The module goes to the driver unchecked, and is not emulated.
    d->instance->Report(
        ReportLevel::kError, "coopspv-layer",
        "vkCreateShaderModule: " + WhatFailed() + "; the module is passed on as it is");
    m = nullptr;
  }
  timer.Pause();
  const VkResult result = d->create_module(device, info, allocator, out);
  timer.Resume();
  if (result == VK_SUCCESS && m != nullptr) {
    try {
      std::lock_guard<std::mutex> lock(d->mutex);
      d->modules[*out] = std::move(m);
    } catch (...) {
    }
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule module,
                                               const VkAllocationCallbacks* allocator) {
  Device* d = FindDevice(device);
  if (d == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(d->mutex);
    d->modules.erase(module);
  }
  d->destroy_module(device, module, allocator);
}

// Whether the driver must get the module legalized: it uses what is emulated.
bool NeedsEmulation(const Emulation& e, const Module& m) {
  const ModuleCode& c = *m.code;
  return ((e.matrices || e.matrix2 || e.matrices_nv || e.bfloat16) && c.khr_matrices) ||
         (e.vector.vectors && c.coop_vectors) ||
         (e.vector.replicated_composites && c.replicated_composites);
}

constexpr const char* kLegalized[] = {"legalized", "legalized module from the memory cache",
                                      "legalized module from the cache directory"};

// One pipeline's stage as the driver gets it: the legalized module (created here, destroyed
// after the call) and the required subgroup size the lowering assumed.
struct StageRewrite {
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo size{kRequiredSubgroupSizeInfo};
};

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache,
                                                      uint32_t count,
                                                      const VkComputePipelineCreateInfo* infos,
                                                      const VkAllocationCallbacks* allocator,
                                                      VkPipeline* out) {
  Device* d = FindDevice(device);
  if (d == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  SelfTimer timer(d->instance->settings.self_time, &d->pipeline_time);
  std::vector<VkComputePipelineCreateInfo> copies;
  std::vector<std::unique_ptr<StageRewrite>> rewrites;
  auto destroy_rewrites = [&] {
    for (const auto& r : rewrites) {
      if (r->module != VK_NULL_HANDLE) d->destroy_module(device, r->module, nullptr);
    }
  };
  bool failed = false, emulated = false;
  ChainEdits edits;
  try {
    const Settings& s = d->instance->settings;
    if (d->physical != nullptr && (s.validate || s.emulate)) {
      copies.assign(infos, infos + count);
    }
    for (uint32_t i = 0; i < copies.size(); ++i) {
      VkPipelineShaderStageCreateInfo& stage = copies[i].stage;
      std::shared_ptr<Module> m = d->FindModule(stage.module);
      // A module given in the stage's pNext (VK_KHR_maintenance5) is checked here as created.
      const auto* inline_module =
          stage.module == VK_NULL_HANDLE
              ? FindInChain<VkShaderModuleCreateInfo>(stage.pNext,
                                                      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)
              : nullptr;
      if (inline_module != nullptr && inline_module->pCode != nullptr) {
        m = std::make_shared<Module>();
        m->code = d->CodeOf(inline_module->pCode, inline_module->codeSize);
        if (s.validate && Check(*d, *m, {}, 0, "vkCreateComputePipelines", VK_OBJECT_TYPE_DEVICE,
                                reinterpret_cast<uint64_t>(device))) {
          failed = true;
          break;
        }
      }
      if (m == nullptr) continue;
      const bool emulate = s.emulate && NeedsEmulation(d->physical->emulation, *m);
      emulated |= emulate;
      const std::vector<run::SpecConstant> spec = SpecConstantsOf(stage.pSpecializationInfo);
      const auto* required = FindInChain<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
          stage.pNext, kRequiredSubgroupSizeInfo);
      const uint32_t required_size = required != nullptr ? required->requiredSubgroupSize : 0;
      const uint64_t object = reinterpret_cast<uint64_t>(stage.module);
      // The module as created was validated; specialization or a subgroup size may change it.
      if (s.validate && (!spec.empty() || required_size != 0) &&
          Check(*d, *m, spec, required_size, "vkCreateComputePipelines",
                VK_OBJECT_TYPE_SHADER_MODULE, object)) {
        failed = true;
        break;
      }
      if (!emulate) continue;
      // The driver gets the legalized module instead of the one in pNext.
      if (inline_module != nullptr) {
        edits.Unlink(reinterpret_cast<VkBaseOutStructure*>(&stage),
                     VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
      }
      // The lowering's subgroup size: the pipeline's required one, else the device's only one,
      // else the device's default, which the layer then requires.
      const PhysicalDevice& p = *d->physical;
      auto r = std::make_unique<StageRewrite>();
      uint32_t size = required_size;
      if (size == 0) {
        size = p.subgroup_size;
        // Only the matrices' lowering depends on it (cooperative vectors are per invocation).
        const bool lower_matrices =
            (p.emulation.matrices || p.emulation.matrix2 || p.emulation.matrices_nv) &&
            m->code->khr_matrices;
        if (lower_matrices && p.min_subgroup_size != p.max_subgroup_size) {
          if (!d->size_control_enabled || !p.required_size_in_compute) {
            d->instance->Report(ReportLevel::kWarning, "coopspv-layer-emulation",
                                "vkCreateComputePipelines: the device's subgroup size varies and "
                                "cannot be fixed (no subgroupSizeControl for compute): the "
                                "lowering assumes " +
                                    std::to_string(size),
                                VK_OBJECT_TYPE_SHADER_MODULE, object);
          } else {
            r->size.pNext = const_cast<void*>(stage.pNext);
            r->size.requiredSubgroupSize = size;
            stage.pNext = &r->size;
            stage.flags &= ~VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT;
          }
        }
      }
      std::shared_ptr<const std::vector<uint32_t>> legal;
      Source source = Source::kComputed;
      std::string error;
      const std::shared_ptr<const DeviceTarget> target = Target(*d->physical, false, size);
      const VectorEmulation& vector = d->physical->emulation.vector;
      const bool lower_vectors = vector.vectors && m->code->coop_vectors;
      // Written for a subgroup of 32, a workgroup of identical invocations has, on a device of
      // smaller subgroups, several subgroups storing the same matrices; one computes them.
      const uint32_t identical = m->code->khr_matrices ? m->code->IdenticalInvocationsOnce() : 0;
      const uint32_t one_subgroup = identical > size ? size : 0;
      if (!LegalizeModule(m->code->words, m->code->key, spec, d->setup.target_env, target->json,
                          target->key, one_subgroup, *d->instance->cache, &legal, &source, &error,
                          lower_vectors ? LowerCoopVectorArgument(vector) : "")) {
        d->instance->Report(ReportLevel::kError, "coopspv-layer-emulation",
                            std::string("vkCreateComputePipelines: the cooperative ") +
                                (m->code->khr_matrices ? "matrices" : "vectors") +
                                " of this module cannot be emulated (subgroup size " +
                                std::to_string(size) + "): " + error,
                            VK_OBJECT_TYPE_SHADER_MODULE, object);
        failed = true;
        break;
      }
      if (s.report_level >= ReportLevel::kInfo) {
        d->instance->Report(ReportLevel::kInfo, "coopspv-layer-emulation",
                            std::string("vkCreateComputePipelines: ") +
                                kLegalized[static_cast<int>(source)] + " for subgroup size " +
                                std::to_string(size) +
                                (one_subgroup != 0
                                     ? ", its workgroup of " + std::to_string(identical) +
                                           " identical invocations narrowed to one subgroup"
                                     : ""),
                            VK_OBJECT_TYPE_SHADER_MODULE, object);
      }
      VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      module_info.codeSize = legal->size() * 4;
      module_info.pCode = legal->data();
      const VkResult result = d->create_module(device, &module_info, nullptr, &r->module);
      if (result != VK_SUCCESS) {
        rewrites.push_back(std::move(r));
        destroy_rewrites();
        return result;
      }
      stage.module = r->module;
      rewrites.push_back(std::move(r));
    }
  } catch (...) {
    // Without the legalized module the driver cannot take an emulated one: the call fails. Any
    // other goes to the driver as the application gave it.
    d->instance->Report(ReportLevel::kError, "coopspv-layer",
                        "vkCreateComputePipelines: " + WhatFailed());
    if (!emulated) {
      edits.Undo();
      destroy_rewrites();
      timer.Pause();
      const VkResult result = d->create_pipelines(device, cache, count, infos, allocator, out);
      timer.Resume();
      return result;
    }
    failed = true;
  }
  if (failed) {
    destroy_rewrites();
    for (uint32_t i = 0; i < count; ++i) out[i] = VK_NULL_HANDLE;
    return d->invalid_result;
  }
  timer.Pause();
  const VkResult result = d->create_pipelines(
      device, cache, count, copies.empty() ? infos : copies.data(), allocator, out);
  timer.Resume();
  destroy_rewrites();
  return result;
}

// ---- Cooperative vector matrices.

constexpr char kConvertMatrixName[] = "vkConvertCooperativeVectorMatrixNV";
constexpr char kCmdConvertMatrixName[] = "vkCmdConvertCooperativeVectorMatrixNV";

// vkConvertCooperativeVectorMatrixNV: on the host where the vectors are emulated (into the
// layout the lowering reads), else the driver's.
VKAPI_ATTR VkResult VKAPI_CALL ConvertCooperativeVectorMatrix(
    VkDevice device, const run::ConvertCooperativeVectorMatrixInfoNV* info) {
  Device* d = FindDevice(device);
  if (d == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (d->physical == nullptr || !d->physical->emulation.vector.vectors) {
    const auto next = reinterpret_cast<run::PFN_ConvertCooperativeVectorMatrixNV>(
        d->next_gdpa(device, kConvertMatrixName));
    return next != nullptr ? next(device, info) : VK_ERROR_EXTENSION_NOT_PRESENT;
  }
  std::string error;
  VkResult result;
  try {
    result = info != nullptr ? ConvertMatrixOnHost(*info, &error) : VK_ERROR_UNKNOWN;
    if (info == nullptr) error = "pInfo is NULL";
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  } catch (...) {
    error = WhatFailed();
    result = VK_ERROR_UNKNOWN;
  }
  if (!error.empty()) {
    d->instance->Report(ReportLevel::kError, "coopspv-layer",
                        std::string(kConvertMatrixName) + ": " + error, VK_OBJECT_TYPE_DEVICE,
                        reinterpret_cast<uint64_t>(device));
  }
  return result;
}

// The device's cooperative vector commands where the vectors are emulated: the host conversion
// where the application enabled them; no vkCmdConvertCooperativeVectorMatrixNV (not emulated:
// a device-side conversion would need a compute dispatch of the layer's own). nullopt: as the
// driver has them.
std::optional<PFN_vkVoidFunction> VectorDeviceFunction(const Device& d, const char* name) {
  if (d.physical == nullptr || !d.physical->emulation.vector.vectors) return std::nullopt;
  if (std::strcmp(name, kConvertMatrixName) == 0) {
    return d.vectors_enabled ? reinterpret_cast<PFN_vkVoidFunction>(ConvertCooperativeVectorMatrix)
                             : nullptr;
  }
  if (std::strcmp(name, kCmdConvertMatrixName) == 0) return nullptr;
  return std::nullopt;
}

// ---- Entry points.

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name);

#define COOPSPV_LAYER_FUNCTION(name, function) \
  { name, reinterpret_cast<PFN_vkVoidFunction>(function) }

PFN_vkVoidFunction DeviceFunction(const char* name) {
  static const std::map<std::string, PFN_vkVoidFunction, std::less<>> functions = {
      COOPSPV_LAYER_FUNCTION("vkGetDeviceProcAddr", GetDeviceProcAddr),
      COOPSPV_LAYER_FUNCTION("vkDestroyDevice", DestroyDevice),
      COOPSPV_LAYER_FUNCTION("vkCreateShaderModule", CreateShaderModule),
      COOPSPV_LAYER_FUNCTION("vkDestroyShaderModule", DestroyShaderModule),
      COOPSPV_LAYER_FUNCTION("vkCreateComputePipelines", CreateComputePipelines),
  };
  auto it = functions.find(std::string_view(name));
  return it == functions.end() ? nullptr : it->second;
}

// Physical-device functions the loader may not know (it asks vk_layerGetPhysicalDeviceProcAddr).
PFN_vkVoidFunction PhysicalDeviceFunction(const char* name) {
  if (std::strcmp(name, kMatrixPropertiesName) == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(GetMatrixProperties);
  }
  if (std::strcmp(name, kFlexibleDimensionsName) == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(GetFlexibleDimensionsProperties);
  }
  if (std::strcmp(name, kMatrixPropertiesNvName) == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(GetMatrixPropertiesNV);
  }
  if (std::strcmp(name, kVectorPropertiesName) == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(GetVectorProperties);
  }
  return nullptr;
}

PFN_vkVoidFunction InstanceFunction(const char* name) {
  static const std::map<std::string, PFN_vkVoidFunction, std::less<>> functions = {
      COOPSPV_LAYER_FUNCTION("vkGetInstanceProcAddr", GetInstanceProcAddr),
      COOPSPV_LAYER_FUNCTION("vkCreateInstance", CreateInstance),
      COOPSPV_LAYER_FUNCTION("vkDestroyInstance", DestroyInstance),
      COOPSPV_LAYER_FUNCTION("vkCreateDevice", CreateDevice),
      COOPSPV_LAYER_FUNCTION("vkEnumerateDeviceExtensionProperties",
                             EnumerateDeviceExtensionProperties),
      COOPSPV_LAYER_FUNCTION("vkGetPhysicalDeviceFeatures2", GetPhysicalDeviceFeatures2<false>),
      COOPSPV_LAYER_FUNCTION("vkGetPhysicalDeviceFeatures2KHR", GetPhysicalDeviceFeatures2<true>),
      COOPSPV_LAYER_FUNCTION("vkGetPhysicalDeviceProperties2", GetPhysicalDeviceProperties2<false>),
      COOPSPV_LAYER_FUNCTION("vkGetPhysicalDeviceProperties2KHR",
                             GetPhysicalDeviceProperties2<true>),
      COOPSPV_LAYER_FUNCTION("vkCreateDebugUtilsMessengerEXT", CreateDebugUtilsMessenger),
      COOPSPV_LAYER_FUNCTION("vkDestroyDebugUtilsMessengerEXT", DestroyDebugUtilsMessenger),
  };
  auto it = functions.find(std::string_view(name));
  return it == functions.end() ? nullptr : it->second;
}

#undef COOPSPV_LAYER_FUNCTION

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance,
                                                             const char* name) {
  if (name == nullptr) return nullptr;
  if (PFN_vkVoidFunction f = InstanceFunction(name)) return f;
  if (PFN_vkVoidFunction f = PhysicalDeviceFunction(name)) return f;
  if (PFN_vkVoidFunction f = DeviceFunction(name)) return f;
  if (instance == VK_NULL_HANDLE) return nullptr;
  Instance* d = FindInstance(instance);
  return d == nullptr ? nullptr : d->vk.vkGetInstanceProcAddr(instance, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (name == nullptr || device == VK_NULL_HANDLE) return nullptr;
  Device* d = FindDevice(device);
  if (d == nullptr) return nullptr;
  if (PFN_vkVoidFunction f = DeviceFunction(name)) return f;
  if (const std::optional<PFN_vkVoidFunction> f = VectorDeviceFunction(*d, name)) return *f;
  return d->next_gdpa(device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetPhysicalDeviceProcAddr(VkInstance instance,
                                                                   const char* name) {
  if (name == nullptr) return nullptr;
  if (PFN_vkVoidFunction f = PhysicalDeviceFunction(name)) return f;
  Instance* d = instance != VK_NULL_HANDLE ? FindInstance(instance) : nullptr;
  return d == nullptr || d->next_gpdpa == nullptr ? nullptr : d->next_gpdpa(instance, name);
}

}  // namespace
}  // namespace coopspv::layer

// The loader's entry points; the version script exports these and nothing else.
extern "C" {

VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (version == nullptr || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  // Version 2: the loader asks vk_layerGetPhysicalDeviceProcAddr for physical-device functions
  // it does not know (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR is newer than it).
  if (version->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = coopspv::layer::GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = coopspv::layer::GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = coopspv::layer::GetPhysicalDeviceProcAddr;
  return VK_SUCCESS;
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                               const char* name) {
  return coopspv::layer::GetInstanceProcAddr(instance, name);
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                             const char* name) {
  return coopspv::layer::GetDeviceProcAddr(device, name);
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_layerGetPhysicalDeviceProcAddr(VkInstance instance, const char* name) {
  return coopspv::layer::GetPhysicalDeviceProcAddr(instance, name);
}

}  // extern "C"
