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
  EXPECT_TRUE(s.hide_native.empty());
  EXPECT_EQ(s.cache_dir, "");
  EXPECT_EQ(s.report_level, ReportLevel::kWarning);
  EXPECT_EQ(s.duplicate_message_limit, 10u);  // As the Khronos validation layer's.
  EXPECT_TRUE(s.problems.empty());
}

TEST(Settings, FileThenEnvironment) {
  Fake f;
  f.files["vk_layer_settings.txt"] =
      "# comment\n"
      "coopspv.fail_on_error = true  # trailing comment\n"
      "coopspv.cache_dir = /tmp/a b\n"
      "khronos_validation.enables = x\n"
      "coopspv.emulate=off\n"
      "coopspv.duplicate_message_limit = 3\n";
  Settings s = f.Read();
  EXPECT_EQ(s.duplicate_message_limit, 3u);
  EXPECT_TRUE(s.fail_on_error);
  EXPECT_EQ(s.cache_dir, "/tmp/a b");
  EXPECT_FALSE(s.emulate);
  EXPECT_TRUE(s.problems.empty());
  f.env["VK_COOPSPV_FAIL_ON_ERROR"] = "0";
  f.env["VK_COOPSPV_REPORT_LEVEL"] = "INFO";
  f.env["VK_COOPSPV_DUPLICATE_MESSAGE_LIMIT"] = "0";
  s = f.Read();
  EXPECT_EQ(s.duplicate_message_limit, 0u);  // No limit.
  EXPECT_FALSE(s.fail_on_error);
  EXPECT_EQ(s.report_level, ReportLevel::kInfo);
}

TEST(Settings, SettingsPath) {
  Fake f;
  f.files["/etc/mine.txt"] = "coopspv.hide_native = 1\n";
  f.files["vk_layer_settings.txt"] = "coopspv.validate = false\n";
  f.env["VK_LAYER_SETTINGS_PATH"] = "/etc/mine.txt";
  const Settings s = f.Read();
  EXPECT_EQ(s.hide_native.size(), 4u);
  EXPECT_TRUE(s.Hides("VK_NV_cooperative_vector"));
  EXPECT_TRUE(s.validate);  // The working directory's file is not read.
}

TEST(Settings, HideNativeNamesExtensions) {
  Fake f;
  // Matrix2 alone: its modules lowered onto the device's own KHR matrices.
  f.env["VK_COOPSPV_HIDE_NATIVE"] = "VK_NV_cooperative_matrix2";
  Settings s = f.Read();
  EXPECT_TRUE(s.Hides("VK_NV_cooperative_matrix2"));
  EXPECT_FALSE(s.Hides("VK_KHR_cooperative_matrix"));
  EXPECT_FALSE(s.Hides("VK_NV_cooperative_vector"));
  EXPECT_TRUE(s.problems.empty());
  // KHR hides matrix2 too, which builds on it; commas or spaces separate the names.
  f.env["VK_COOPSPV_HIDE_NATIVE"] = "VK_KHR_cooperative_matrix, VK_NV_cooperative_vector";
  s = f.Read();
  EXPECT_TRUE(s.Hides("VK_KHR_cooperative_matrix"));
  EXPECT_TRUE(s.Hides("VK_NV_cooperative_matrix2"));
  EXPECT_TRUE(s.Hides("VK_NV_cooperative_vector"));
  EXPECT_FALSE(s.Hides("VK_NV_cooperative_matrix"));
  f.env["VK_COOPSPV_HIDE_NATIVE"] = "off";
  EXPECT_TRUE(f.Read().hide_native.empty());
  f.env["VK_COOPSPV_HIDE_NATIVE"] = "VK_NV_cooperative_matrix2,matrix3";
  s = f.Read();
  EXPECT_TRUE(s.Hides("VK_NV_cooperative_matrix2"));
  ASSERT_EQ(s.problems.size(), 1u);
  EXPECT_NE(s.problems[0].find("'matrix3'"), std::string::npos) << s.problems[0];
}

TEST(Settings, ProblemsAreNamed) {
  Fake f;
  f.files["vk_layer_settings.txt"] = "coopspv.colour = blue\n";
  f.env["VK_COOPSPV_VALIDATE"] = "maybe";
  f.env["VK_COOPSPV_REPORT_LEVEL"] = "loud";
  f.env["VK_COOPSPV_DUPLICATE_MESSAGE_LIMIT"] = "-1";
  const Settings s = f.Read();
  EXPECT_TRUE(s.validate);
  EXPECT_EQ(s.duplicate_message_limit, 10u);
  ASSERT_EQ(s.problems.size(), 4u);
  EXPECT_EQ(s.problems[0], "coopspv.colour: no such setting");
  EXPECT_EQ(s.problems[1], "coopspv.duplicate_message_limit: '-1' is not a count (0: no limit)");
  EXPECT_EQ(s.problems[2], "coopspv.report_level: 'loud' is none of error, warning, info");
  EXPECT_EQ(s.problems[3],
            "coopspv.validate: 'maybe' is not a Boolean (true / false, 1 / 0, on / off)");
}

}  // namespace
}  // namespace coopspv::layer
