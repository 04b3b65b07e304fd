#include "source/layer/messages.h"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace coopspv::layer {

void Messages::AddMessenger(VkDebugUtilsMessengerEXT handle,
                            const VkDebugUtilsMessengerCreateInfoEXT& info) {
  std::lock_guard<std::mutex> lock(mutex_);
  messengers_.push_back(
      {handle, info.messageSeverity, info.messageType, info.pfnUserCallback, info.pUserData});
}

void Messages::RemoveMessenger(VkDebugUtilsMessengerEXT handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(messengers_, [&](const Messenger& m) { return m.handle == handle; });
}

bool Messages::Dropped(ReportLevel level, std::string_view id_name) const {
  if (level > least_) return true;
  if (duplicate_limit_ == 0 || level == ReportLevel::kInfo) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = counts_.find(id_name);
  return it != counts_.end() && it->second >= duplicate_limit_;
}

void Messages::Report(const Message& original) const {
  if (original.level > least_) return;
  const Message* m = &original;
  Message last;  // The last one reported of its id, saying so.
  std::vector<Messenger> messengers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (duplicate_limit_ != 0 && original.level != ReportLevel::kInfo) {
      auto it = counts_.find(original.id_name);
      if (it == counts_.end()) it = counts_.emplace(original.id_name, 0).first;
      if (it->second >= duplicate_limit_) return;
      if (++it->second == duplicate_limit_) {
        last = original;
        last.text += " (" + original.id_name + " has been reported " +
                     std::to_string(duplicate_limit_) +
                     " times, the duplicate_message_limit: its further messages are suppressed)";
        m = &last;
      }
    }
    messengers = messengers_;
  }
  const Message& message = *m;
  if (messengers.empty()) {
    static const char* const kLevels[] = {"error", "warning", "info"};
    std::fprintf(stderr, "VK_LAYER_coopspv %s: %s\n", kLevels[static_cast<int>(message.level)],
                 message.text.c_str());
    return;
  }
  const VkDebugUtilsMessageSeverityFlagBitsEXT severity =
      message.level == ReportLevel::kError     ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
      : message.level == ReportLevel::kWarning ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT
                                               : VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
  // Diagnostics of the module are validation messages; what the layer does is general.
  const VkDebugUtilsMessageTypeFlagsEXT type = message.level == ReportLevel::kInfo
                                                   ? VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT
                                                   : VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  VkDebugUtilsObjectNameInfoEXT object{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  object.objectType = message.object_type;
  object.objectHandle = message.object;
  VkDebugUtilsMessengerCallbackDataEXT data{
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
  data.pMessageIdName = message.id_name.c_str();
  data.messageIdNumber = static_cast<int32_t>(std::hash<std::string>()(message.id_name));
  data.pMessage = message.text.c_str();
  data.objectCount = message.object != 0 ? 1 : 0;
  data.pObjects = message.object != 0 ? &object : nullptr;
  for (const Messenger& m : messengers) {
    if ((m.severities & severity) && (m.types & type) && m.callback != nullptr) {
      m.callback(severity, type, &data, m.user_data);
    }
  }
}

}  // namespace coopspv::layer
