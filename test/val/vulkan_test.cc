// Tests of the Vulkan environment rules (source/val/vulkan.cc).
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

// VUID-StandaloneSpirv-Scope-12243: a cooperative matrix's Scope is Subgroup or Workgroup.
TEST(Vulkan, CoopMatrixScopeIsSubgroupOrWorkgroup) {
  const std::string text = testing::ReadFile("test/val/data/tiled_matmul_khr.spvasm");
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const std::string device =
      testing::Mutate(text, "%uint_3 = OpConstant %uint 3", "%uint_3 = OpConstant %uint 1");
  const Result r = testing::ValidateText(device, "vulkan1.3");
  EXPECT_RULE_AT(r, "vulkan.coop-matrix-scope", "OpTypeCooperativeMatrixKHR", "Device");
  // Outside Vulkan the rule does not apply.
  EXPECT_FALSE(
      testing::HasRule(testing::ValidateText(device, "spv1.6"), "vulkan.coop-matrix-scope"));
}

}  // namespace
}  // namespace coopspv::val
