// What coopspv-run reads of a physical device through entry points already loaded (an
// application's instance, or the next element of a layer's chain, as source/layer/ does): its
// properties, its extensions and its device profile (docs/device_profile.md).
#ifndef COOPSPV_SOURCE_RUN_DEVICE_QUERY_H_
#define COOPSPV_SOURCE_RUN_DEVICE_QUERY_H_

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "source/profile/device_profile.h"
#include "source/run/vulkan.h"

namespace coopspv::run {

// "1.3.230".
std::string ApiVersionString(uint32_t version);

// The physical device's properties coopspv-run uses.
struct DeviceProperties {
  VkPhysicalDeviceProperties2 base{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  VkPhysicalDeviceVulkan11Properties v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
  VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};

  void Query(const VulkanApi& vk, VkPhysicalDevice device) {
    VkPhysicalDeviceProperties p;
    vk.vkGetPhysicalDeviceProperties(device, &p);
    // The 1.1 - 1.3 property structures only for devices that have them.
    base.pNext = nullptr;
    if (p.apiVersion >= VK_API_VERSION_1_3) {
      base.pNext = &v11;
      v11.pNext = &v12;
      v12.pNext = &v13;
      v13.pNext = nullptr;
    }
    vk.vkGetPhysicalDeviceProperties2(device, &base);
  }
  const VkPhysicalDeviceLimits& limits() const { return base.properties.limits; }
};

// The names vkEnumerateDeviceExtensionProperties lists for the device.
std::set<std::string> DeviceExtensions(const VulkanApi& vk, VkPhysicalDevice device);

// The device's profile: its extensions, features, limits and cooperative property lists.
// `notes` gets the property-list entries left out (component types this build has no name for).
void ReadDeviceProfile(const VulkanApi& vk, VkInstance instance, VkPhysicalDevice device,
                       profile::DeviceProfile* out, std::vector<std::string>* notes);

}  // namespace coopspv::run

#endif  // COOPSPV_SOURCE_RUN_DEVICE_QUERY_H_
