#include "source/common/target_env.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace coopspv {
namespace {

TEST(TargetEnv, EveryListedNameParsesAndPrintsBack) {
  std::istringstream names(AllTargetEnvNames());
  std::string name;
  int count = 0;
  while (std::getline(names, name, ',')) {
    if (name.starts_with(' ')) name.erase(0, 1);
    const auto env = ParseTargetEnv(name);
    ASSERT_TRUE(env.has_value()) << name;
    EXPECT_EQ(env->Name(), name);
    ++count;
  }
  EXPECT_EQ(count, 13);
}

TEST(TargetEnv, VersionsEachEnvironmentAllows) {
  EXPECT_EQ(ParseTargetEnv("spv1.0")->spirv_version, SpirvVersion(1, 0));
  EXPECT_EQ(ParseTargetEnv("spv1.6")->spirv_version, SpirvVersion(1, 6));
  EXPECT_FALSE(ParseTargetEnv("spv1.6")->is_vulkan());
  const auto v11 = ParseTargetEnv("vulkan1.1");
  EXPECT_TRUE(v11->is_vulkan());
  EXPECT_EQ(v11->api_minor, 1u);
  EXPECT_EQ(v11->spirv_version, SpirvVersion(1, 3));
  EXPECT_EQ(ParseTargetEnv("vulkan1.2")->spirv_version, SpirvVersion(1, 5));
  EXPECT_EQ(ParseTargetEnv("vulkan1.4")->spirv_version, SpirvVersion(1, 6));
  const auto v11spv14 = ParseTargetEnv("vulkan1.1spv1.4");
  EXPECT_EQ(v11spv14->api_minor, 1u);
  EXPECT_EQ(v11spv14->spirv_version, SpirvVersion(1, 4));
}

TEST(TargetEnv, NearMissesAreRejected) {
  for (const char* name : {"", "spv", "spv1.", "spv1.7", "spv1.10", "spv2.0", "spv1,0", "spv1.x",
                           "Spv1.0", "vulkan1.5", "vulkan1.", "vulkan1.3 ", " vulkan1.3",
                           "vulkan1.33", "vulkan2.0", "vulkan1.2spv1.4", "vulkan1.1spv1.5",
                           "opengl4.5", "spv1.0vulkan"}) {
    EXPECT_FALSE(ParseTargetEnv(name).has_value()) << '"' << name << '"';
  }
}

}  // namespace
}  // namespace coopspv
