// VK_LAYER_coopspv's settings: vk_layer_settings.txt and VK_COOPSPV_* variables.
#include "source/layer/settings.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace coopspv::layer {
namespace {

struct Fake {
  std::map<std::string, std::string> env, files;
  Settings Read() const {
    return ReadSettings(
        [&](const char* name) -> const char* {
          auto it = env.find(name);
          return it == env.end() ? nullptr : it->second.c_str();
        },
        [&](const std::string& path, std::string* text) {
          auto it = files.find(path);
          if (it == files.end()) return false;
          *text = it->second;
          return true;
        });
  }
};

TEST(Settings, Defaults) {
  const Settings s = Fake().Read();
  EXPECT_TRUE(s.validate);
  EXPECT_FALSE(s.fail_on_error);
  EXPECT_TRUE(s.emulate);
  EXPECT_FALSE(s.hide_native);
  EXPECT_EQ(s.cache_dir, "");
  EXPECT_EQ(s.report_level, ReportLevel::kWarning);
  EXPECT_TRUE(s.problems.empty());
}

TEST(Settings, FileThenEnvironment) {
  Fake f;
  f.files["vk_layer_settings.txt"] =
      "# comment\n"
      "coopspv.fail_on_error = true  # trailing comment\n"
      "coopspv.cache_dir = /tmp/a b\n"
      "khronos_validation.enables = x\n"
      "coopspv.emulate=off\n";
  Settings s = f.Read();
  EXPECT_TRUE(s.fail_on_error);
  EXPECT_EQ(s.cache_dir, "/tmp/a b");
  EXPECT_FALSE(s.emulate);
  EXPECT_TRUE(s.problems.empty());
  f.env["VK_COOPSPV_FAIL_ON_ERROR"] = "0";
  f.env["VK_COOPSPV_REPORT_LEVEL"] = "INFO";
  s = f.Read();
  EXPECT_FALSE(s.fail_on_error);
  EXPECT_EQ(s.report_level, ReportLevel::kInfo);
}

TEST(Settings, SettingsPath) {
  Fake f;
  f.files["/etc/mine.txt"] = "coopspv.hide_native = 1\n";
  f.files["vk_layer_settings.txt"] = "coopspv.validate = false\n";
  f.env["VK_LAYER_SETTINGS_PATH"] = "/etc/mine.txt";
  const Settings s = f.Read();
  EXPECT_TRUE(s.hide_native);
  EXPECT_TRUE(s.validate);  // The working directory's file is not read.
}

TEST(Settings, ProblemsAreNamed) {
  Fake f;
  f.files["vk_layer_settings.txt"] = "coopspv.colour = blue\n";
  f.env["VK_COOPSPV_VALIDATE"] = "maybe";
  f.env["VK_COOPSPV_REPORT_LEVEL"] = "loud";
  const Settings s = f.Read();
  EXPECT_TRUE(s.validate);
  ASSERT_EQ(s.problems.size(), 3u);
  EXPECT_EQ(s.problems[0], "coopspv.colour: no such setting");
  EXPECT_EQ(s.problems[1], "coopspv.report_level: 'loud' is none of error, warning, info");
  EXPECT_EQ(s.problems[2],
            "coopspv.validate: 'maybe' is not a Boolean (true / false, 1 / 0, on / off)");
}

}  // namespace
}  // namespace coopspv::layer
