// A small Vulkan application for VK_LAYER_coopspv's tests: it creates instances (with a
// VK_EXT_debug_utils messenger that prints what it receives), devices with every feature the
// device reports and the cooperative extension where listed, and for each SPIR-V module given a
// shader module and a compute pipeline; optionally from several threads at once.
//
//   layer_client [--messenger] [--enable-layer] [--instances n] [--devices n] [--threads n]
//                [--repeat n] [--specialize id:value]... [--inline] [--proc name]...
//                [--modules-only] [--time] module.spv...
//
// --proc: after creating each device, "PROC <name> found" or "PROC <name> NULL", what
// vkGetDeviceProcAddr answers for the device command.
// --modules-only: shader modules alone, no pipelines (the layer's cost at vkCreateShaderModule,
// without a driver's compilation between two creations).
// --inline: no shader module; each pipeline's stage carries the module's
// VkShaderModuleCreateInfo in its pNext (VK_KHR_maintenance5's way).
// --time: after the runs, "TIME <module> <median microseconds>" of vkCreateShaderModule and
// vkCreateComputePipelines together, over every creation of the module, and
// "TIME_MODULE <module> <median microseconds>" of vkCreateShaderModule alone (where the layer
// validates a module as created: on a driver whose module creation only copies the words, as
// lavapipe's, the difference with and without the layer is the layer's own cost).
//
// Prints "MESSAGE <severity> <pMessageIdName> | <pMessage>" per message and
// "<module>: <function> <VkResult>" per creation. Exit status: 0 when every creation succeeded,
// 1 when one failed, 2 for a usage or setup error.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "source/run/module_interface.h"
#include "source/run/vulkan.h"

namespace {

using coopspv::run::FeatureChain;
using coopspv::run::FeatureStructs;
using coopspv::run::ResultName;
using coopspv::run::VulkanApi;

std::mutex g_print;

VKAPI_ATTR VkBool32 VKAPI_CALL OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  const char* level = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT     ? "error"
                      : severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT ? "warning"
                      : severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT    ? "info"
                                                                                    : "verbose";
  std::lock_guard<std::mutex> lock(g_print);
  std::printf("MESSAGE %s %s | %s\n", level, data->pMessageIdName ? data->pMessageIdName : "",
              data->pMessage ? data->pMessage : "");
  return VK_FALSE;
}

struct Module {
  std::string name;
  std::vector<uint32_t> words;
  coopspv::run::ModuleInterface interface;
};

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "layer_client: %s\n", what.c_str());
  std::exit(2);
}

void Check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) Fail(std::string(what) + " returned " + ResultName(r));
}

struct Device {
  VulkanApi vk;
  VkDevice device = VK_NULL_HANDLE;
};

// --specialize: 32-bit values, in every pipeline.
std::vector<VkSpecializationMapEntry> g_spec_entries;
std::vector<uint32_t> g_spec_data;
bool g_inline = false;
bool g_modules_only = false;
// --time: per module, the microseconds of each creation.
std::mutex g_times_mutex;
std::map<std::string, std::vector<double>> g_times, g_module_times;

// One shader module and compute pipeline for the module; false when a creation failed.
bool CreatePipeline(const Device& d, const Module& m) {
  const auto start = std::chrono::steady_clock::now();
  double creation_us = 0;
  const VulkanApi& vk = d.vk;
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = m.words.size() * 4;
  info.pCode = m.words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  VkResult r = VK_SUCCESS;
  if (!g_inline) {
    r = vk.vkCreateShaderModule(d.device, &info, nullptr, &module);
    creation_us +=
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    {
      std::lock_guard<std::mutex> lock(g_times_mutex);
      g_module_times[m.name].push_back(creation_us);
    }
    std::lock_guard<std::mutex> lock(g_print);
    std::printf("%s: vkCreateShaderModule %s\n", m.name.c_str(), ResultName(r).c_str());
  }
  if (r != VK_SUCCESS) return false;
  if (g_modules_only) {
    vk.vkDestroyShaderModule(d.device, module, nullptr);
    return true;
  }
  uint32_t sets = 0;
  for (const auto& res : m.interface.resources) sets = std::max(sets, res.set + 1);
  std::vector<VkDescriptorSetLayout> layouts(sets);
  for (uint32_t s = 0; s < sets; ++s) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const auto& res : m.interface.resources) {
      if (res.set != s) continue;
      VkDescriptorSetLayoutBinding b{};
      b.binding = res.binding;
      b.descriptorType = res.kind == coopspv::run::ModuleResource::kUniform
                             ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                             : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      b.descriptorCount = 1;
      b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      bindings.push_back(b);
    }
    VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = static_cast<uint32_t>(bindings.size());
    li.pBindings = bindings.data();
    Check(vk.vkCreateDescriptorSetLayout(d.device, &li, nullptr, &layouts[s]),
          "vkCreateDescriptorSetLayout");
  }
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
  VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pli.setLayoutCount = sets;
  pli.pSetLayouts = layouts.data();
  pli.pushConstantRangeCount = m.interface.push_constants ? 1 : 0;
  pli.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  Check(vk.vkCreatePipelineLayout(d.device, &pli, nullptr, &layout), "vkCreatePipelineLayout");
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module;
  if (g_inline) ci.stage.pNext = &info;
  ci.stage.pName = "main";
  const VkSpecializationInfo spec{static_cast<uint32_t>(g_spec_entries.size()),
                                  g_spec_entries.data(), g_spec_data.size() * 4,
                                  g_spec_data.data()};
  if (!g_spec_entries.empty()) ci.stage.pSpecializationInfo = &spec;
  ci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const auto pipeline_start = std::chrono::steady_clock::now();
  r = vk.vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline);
  creation_us +=
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - pipeline_start)
          .count();
  {
    std::lock_guard<std::mutex> lock(g_times_mutex);
    g_times[m.name].push_back(creation_us);
  }
  {
    std::lock_guard<std::mutex> lock(g_print);
    std::printf("%s: vkCreateComputePipelines %s\n", m.name.c_str(), ResultName(r).c_str());
  }
  if (pipeline != VK_NULL_HANDLE) vk.vkDestroyPipeline(d.device, pipeline, nullptr);
  vk.vkDestroyPipelineLayout(d.device, layout, nullptr);
  for (VkDescriptorSetLayout l : layouts) vk.vkDestroyDescriptorSetLayout(d.device, l, nullptr);
  if (module != VK_NULL_HANDLE) vk.vkDestroyShaderModule(d.device, module, nullptr);
  return r == VK_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
  bool messenger = false, enable_layer = false, time = false;
  int instances = 1, devices = 1, threads = 1, repeat = 1;
  std::vector<Module> modules;
  std::vector<std::string> procs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto number = [&](int* out) {
      if (i + 1 >= argc || (*out = std::atoi(argv[++i])) < 1) Fail(a + " needs a count");
    };
    if (a == "--messenger") {
      messenger = true;
    } else if (a == "--time") {
      time = true;
    } else if (a == "--inline") {
      g_inline = true;
    } else if (a == "--modules-only") {
      g_modules_only = true;
    } else if (a == "--enable-layer") {
      enable_layer = true;
    } else if (a == "--instances") {
      number(&instances);
    } else if (a == "--devices") {
      number(&devices);
    } else if (a == "--threads") {
      number(&threads);
    } else if (a == "--repeat") {
      number(&repeat);
    } else if (a == "--proc" && i + 1 < argc) {
      procs.push_back(argv[++i]);
    } else if (a == "--specialize" && i + 1 < argc) {
      unsigned id = 0, value = 0;
      if (std::sscanf(argv[++i], "%u:%u", &id, &value) != 2) Fail("--specialize id:value");
      g_spec_entries.push_back({id, static_cast<uint32_t>(g_spec_data.size() * 4), 4});
      g_spec_data.push_back(value);
    } else {
      std::ifstream in(a, std::ios::binary);
      std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
      if (!in && !in.eof()) Fail("cannot read " + a);
      Module m;
      m.name = a.substr(a.find_last_of('/') + 1);
      m.words.resize(bytes.size() / 4);
      std::memcpy(m.words.data(), bytes.data(), m.words.size() * 4);
      std::string error;
      if (!coopspv::run::ReadModuleInterface(m.words, "main", &m.interface, &error)) Fail(error);
      modules.push_back(std::move(m));
    }
  }
  VulkanApi global;
  std::string error;
  if (!coopspv::run::LoadVulkan(&global, &error)) Fail(error);

  bool ok = true;
  struct Live {
    VulkanApi vk;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    std::vector<Device> devices;
  };
  std::vector<Live> live(instances);
  for (Live& l : live) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "layer_client";
    app.apiVersion = VK_API_VERSION_1_3;
    const char* extension = "VK_EXT_debug_utils";
    const char* layer = "VK_LAYER_coopspv";
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = messenger ? 1 : 0;
    info.ppEnabledExtensionNames = &extension;
    info.enabledLayerCount = enable_layer ? 1 : 0;
    info.ppEnabledLayerNames = &layer;
    l.vk = global;
    Check(global.vkCreateInstance(&info, nullptr, &l.instance), "vkCreateInstance");
    if (!l.vk.LoadInstance(l.instance, &error)) Fail(error);
    if (messenger) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
          l.vk.vkGetInstanceProcAddr(l.instance, "vkCreateDebugUtilsMessengerEXT"));
      if (create == nullptr) Fail("no vkCreateDebugUtilsMessengerEXT");
      VkDebugUtilsMessengerCreateInfoEXT mi{
          VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
      mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
      mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
      mi.pfnUserCallback = OnMessage;
      Check(create(l.instance, &mi, nullptr, &l.messenger), "vkCreateDebugUtilsMessengerEXT");
    }
    uint32_t count = 1;
    VkPhysicalDevice physical;
    const VkResult r = l.vk.vkEnumeratePhysicalDevices(l.instance, &count, &physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) Fail("no physical device");
    // Every feature the device reports, and the extensions of their structures.
    const auto extensions = [&] {
      uint32_t n = 0;
      l.vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &n, nullptr);
      std::vector<VkExtensionProperties> e(n);
      l.vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &n, e.data());
      return e;
    }();
    auto has = [&](const char* name) {
      for (const auto& e : extensions) {
        if (std::strcmp(e.extensionName, name) == 0) return true;
      }
      return false;
    };
    const auto& structs = FeatureStructs();
    std::vector<bool> include(structs.size());
    std::vector<const char*> enabled;
    for (size_t s = 0; s < structs.size(); ++s) {
      include[s] = structs[s].extension == nullptr || has(structs[s].extension);
      if (structs[s].extension != nullptr && include[s]) enabled.push_back(structs[s].extension);
    }
    for (int k = 0; k < devices; ++k) {
      FeatureChain features(include);
      l.vk.vkGetPhysicalDeviceFeatures2(physical, features.head());
      coopspv::run::FeatureRef protected_memory;
      if (coopspv::run::FindFeature("Vulkan11Features.protectedMemory", &protected_memory)) {
        features.Set(protected_memory, false);
      }
      const float priority = 1;
      VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
      queue.queueCount = 1;
      queue.pQueuePriorities = &priority;
      VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
      di.pNext = features.head();
      di.queueCreateInfoCount = 1;
      di.pQueueCreateInfos = &queue;
      di.enabledExtensionCount = static_cast<uint32_t>(enabled.size());
      di.ppEnabledExtensionNames = enabled.data();
      Device d;
      d.vk = l.vk;
      Check(l.vk.vkCreateDevice(physical, &di, nullptr, &d.device), "vkCreateDevice");
      if (!d.vk.LoadDevice(d.device, &error)) Fail(error);
      for (const std::string& name : procs) {
        std::printf("PROC %s %s\n", name.c_str(),
                    l.vk.vkGetDeviceProcAddr(d.device, name.c_str()) ? "found" : "NULL");
      }
      l.devices.push_back(d);
    }
  }
  // Every device, `threads` threads each, creating every module's pipeline `repeat` times.
  std::atomic<bool> all_ok{true};
  std::vector<std::thread> workers;
  for (const Live& l : live) {
    for (const Device& d : l.devices) {
      for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, dp = &d] {
          for (int r = 0; r < repeat; ++r) {
            for (const Module& m : modules) {
              if (!CreatePipeline(*dp, m)) all_ok = false;
            }
          }
        });
      }
    }
  }
  for (std::thread& w : workers) w.join();
  ok = all_ok;
  for (auto& [name, times] : g_times) {
    if (!time || times.empty()) continue;
    std::sort(times.begin(), times.end());
    std::printf("TIME %s %.1f\n", name.c_str(), times[times.size() / 2]);
  }
  for (auto& [name, times] : g_module_times) {
    if (!time || times.empty()) continue;
    std::sort(times.begin(), times.end());
    std::printf("TIME_MODULE %s %.2f\n", name.c_str(), times[times.size() / 2]);
  }
  for (Live& l : live) {
    for (Device& d : l.devices) d.vk.vkDestroyDevice(d.device, nullptr);
    if (l.messenger != VK_NULL_HANDLE) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
          l.vk.vkGetInstanceProcAddr(l.instance, "vkDestroyDebugUtilsMessengerEXT"));
      destroy(l.instance, l.messenger, nullptr);
    }
    l.vk.vkDestroyInstance(l.instance, nullptr);
  }
  return ok ? 0 : 1;
}
