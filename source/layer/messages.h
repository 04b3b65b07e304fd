// How VK_LAYER_coopspv tells the application: through the VK_EXT_debug_utils messengers of the
// instance (each with its severity and type filter), and on standard error when the instance has
// none.
#ifndef COOPSPV_SOURCE_LAYER_MESSAGES_H_
#define COOPSPV_SOURCE_LAYER_MESSAGES_H_

#include <vulkan/vulkan_core.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "source/layer/settings.h"

namespace coopspv::layer {

struct Message {
  ReportLevel level = ReportLevel::kError;
  // pMessageIdName: a VUID where the rule enforces one, else the rule id or "coopspv-layer".
  std::string id_name;
  std::string text;
  VkObjectType object_type = VK_OBJECT_TYPE_UNKNOWN;
  uint64_t object = 0;
};

class Messages {
 public:
  // Errors and warnings of one id_name beyond `duplicate_limit` (0: none) are suppressed; the
  // last one reported says so.
  explicit Messages(ReportLevel least, uint32_t duplicate_limit = 0)
      : least_(least), duplicate_limit_(duplicate_limit) {}

  void AddMessenger(VkDebugUtilsMessengerEXT handle,
                    const VkDebugUtilsMessengerCreateInfoEXT& info);
  void RemoveMessenger(VkDebugUtilsMessengerEXT handle);

  // Called without a lock held: a callback may call Vulkan.
  void Report(const Message& message) const;
  // Whether a message of this level and id would be dropped (below the level, or its id at the
  // duplicate limit): the caller need not build it.
  bool Dropped(ReportLevel level, std::string_view id_name) const;

 private:
  struct Messenger {
    VkDebugUtilsMessengerEXT handle;
    VkDebugUtilsMessageSeverityFlagsEXT severities;
    VkDebugUtilsMessageTypeFlagsEXT types;
    PFN_vkDebugUtilsMessengerCallbackEXT callback;
    void* user_data;
  };
  const ReportLevel least_;
  const uint32_t duplicate_limit_;
  mutable std::mutex mutex_;
  std::vector<Messenger> messengers_;
  mutable std::map<std::string, uint32_t, std::less<>> counts_;  // Reports by id_name.
};

}  // namespace coopspv::layer

#endif  // COOPSPV_SOURCE_LAYER_MESSAGES_H_
