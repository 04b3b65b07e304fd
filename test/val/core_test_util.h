// The core rule tests (memory, decorations, arithmetic, composites, control flow) mutate one
// line of test/val/data/core_kernel.spvasm, a valid vulkan1.3 compute kernel, and expect the
// mutation's rule among the diagnostics ("" for a mutation that keeps the kernel valid).
#ifndef COOPSPV_TEST_VAL_CORE_TEST_UTIL_H_
#define COOPSPV_TEST_VAL_CORE_TEST_UTIL_H_

#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val::testing {

inline const std::string& CoreKernel() {
  static const std::string text = ReadFile("test/val/data/core_kernel.spvasm");
  return text;
}

class CoreKernelMutation : public ::testing::TestWithParam<Mutation> {};

TEST(CoreKernel, IsValid) {
  ASSERT_FALSE(CoreKernel().empty());
  EXPECT_CLEAN(ValidateText(CoreKernel(), "vulkan1.3"));
}

TEST_P(CoreKernelMutation, IsReportedWithItsRule) {
  const Mutation& m = GetParam();
  const Result r = ValidateText(Mutate(CoreKernel(), m.anchor, m.replacement), "vulkan1.3");
  if (m.rule[0] == '\0') {
    EXPECT_CLEAN(r);
  } else {
    EXPECT_FALSE(r.valid);
    EXPECT_RULE(r, m.rule);
  }
}

inline std::string MutationName(const ::testing::TestParamInfo<Mutation>& info) {
  return info.param.name;
}

}  // namespace coopspv::val::testing

#endif  // COOPSPV_TEST_VAL_CORE_TEST_UTIL_H_
