#include "source/layer/settings.h"

#include <sys/stat.h>

#include <algorithm>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

namespace coopspv::layer {
namespace {

constexpr std::string_view kPrefix = "coopspv.";

std::string Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ParseBool(const std::string& value, bool* out) {
  const std::string v = Lower(value);
  if (v == "true" || v == "1" || v == "on") {
    *out = true;
  } else if (v == "false" || v == "0" || v == "off") {
    *out = false;
  } else {
    return false;
  }
  return true;
}

// The settings file: VK_LAYER_SETTINGS_PATH (a file, or a directory holding
// vk_layer_settings.txt), else the working directory's vk_layer_settings.txt.
std::map<std::string, std::string> ReadFile(
    const std::function<const char*(const char*)>& getenv,
    const std::function<bool(const std::string&, std::string*)>& read_file) {
  std::map<std::string, std::string> values;
  std::string path = "vk_layer_settings.txt";
  if (const char* p = getenv("VK_LAYER_SETTINGS_PATH"); p != nullptr && *p != '\0') {
    path = p;
    struct stat st;
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) path += "/vk_layer_settings.txt";
  }
  std::string text;
  if (!read_file(path, &text)) return values;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = Trim(std::string_view(line).substr(0, eq));
    if (key.starts_with(kPrefix)) {
      values[key.substr(kPrefix.size())] = Trim(std::string_view(line).substr(eq + 1));
    }
  }
  return values;
}

}  // namespace

bool Settings::Hides(std::string_view extension) const {
  if (hide_native.contains(extension)) return true;
  return extension == "VK_NV_cooperative_matrix2" && hide_native.contains("VK_KHR_cooperative_matrix");
}

Settings ReadSettings(const std::function<const char*(const char*)>& getenv,
                      const std::function<bool(const std::string&, std::string*)>& read_file) {
  Settings s;
  std::map<std::string, std::string> values = ReadFile(getenv, read_file);
  // The environment wins over the file.
  for (const char* name :
       {"validate", "fail_on_error", "cache_dir", "emulate", "hide_native", "report_level",
        "duplicate_message_limit", "self_time"}) {
    std::string var = "VK_COOPSPV_";
    for (const char* c = name; *c; ++c) {
      var += static_cast<char>(std::toupper(static_cast<unsigned char>(*c)));
    }
    if (const char* v = getenv(var.c_str()); v != nullptr) values[name] = Trim(v);
  }
  for (const auto& [name, value] : values) {
    auto flag = [&](bool* field) {
      if (!ParseBool(value, field)) {
        s.problems.push_back("coopspv." + name + ": '" + value +
                             "' is not a Boolean (true / false, 1 / 0, on / off)");
      }
    };
    if (name == "validate") {
      flag(&s.validate);
    } else if (name == "fail_on_error") {
      flag(&s.fail_on_error);
    } else if (name == "emulate") {
      flag(&s.emulate);
    } else if (name == "self_time") {
      flag(&s.self_time);
    } else if (name == "hide_native") {
      bool all = false;
      if (ParseBool(value, &all)) {
        if (all) s.hide_native.insert(std::begin(kHideableExtensions), std::end(kHideableExtensions));
        continue;
      }
      // A list of extension names, separated by commas or spaces.
      std::string list = value;
      std::replace(list.begin(), list.end(), ',', ' ');
      std::istringstream names(list);
      for (std::string e; names >> e;) {
        if (std::find_if(std::begin(kHideableExtensions), std::end(kHideableExtensions),
                         [&](const char* h) { return e == h; }) == std::end(kHideableExtensions)) {
          s.problems.push_back("coopspv.hide_native: '" + e +
                               "' is neither a Boolean nor one of VK_KHR_cooperative_matrix, "
                               "VK_NV_cooperative_matrix2, VK_NV_cooperative_matrix, "
                               "VK_NV_cooperative_vector");
        } else {
          s.hide_native.insert(e);
        }
      }
    } else if (name == "cache_dir") {
      s.cache_dir = value;
    } else if (name == "duplicate_message_limit") {
      uint64_t limit = 0;
      bool digits = !value.empty() && value.size() <= 9;
      for (char c : value) {
        if (c < '0' || c > '9') digits = false;
        if (digits) limit = limit * 10 + static_cast<uint64_t>(c - '0');
      }
      if (digits) {
        s.duplicate_message_limit = static_cast<uint32_t>(limit);
      } else {
        s.problems.push_back("coopspv.duplicate_message_limit: '" + value +
                             "' is not a count (0: no limit)");
      }
    } else if (name == "report_level") {
      const std::string v = Lower(value);
      if (v == "error") {
        s.report_level = ReportLevel::kError;
      } else if (v == "warning") {
        s.report_level = ReportLevel::kWarning;
      } else if (v == "info") {
        s.report_level = ReportLevel::kInfo;
      } else {
        s.problems.push_back("coopspv.report_level: '" + value +
                             "' is none of error, warning, info");
      }
    } else {
      s.problems.push_back("coopspv." + name + ": no such setting");
    }
  }
  return s;
}

Settings ReadSettings() {
  return ReadSettings([](const char* name) { return std::getenv(name); },
                      [](const std::string& path, std::string* text) {
                        std::ifstream in(path, std::ios::binary);
                        if (!in) return false;
                        std::ostringstream s;
                        s << in.rdbuf();
                        *text = s.str();
                        return true;
                      });
}

}  // namespace coopspv::layer
