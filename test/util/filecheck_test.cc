#include "test/util/filecheck.h"

namespace coopspv::testing {
namespace {

constexpr const char* kText = "alpha\nbeta\ngamma\ndelta\n";

TEST(FileCheck, Check) {
  EXPECT_TRUE(FileCheck(kText, "CHECK: alp\nCHECK: gam"));
  EXPECT_FALSE(FileCheck(kText, "CHECK: gam\nCHECK: alp"));  // Order matters.
  EXPECT_FALSE(FileCheck(kText, "CHECK: zeta"));
}

TEST(FileCheck, CheckNext) {
  EXPECT_TRUE(FileCheck(kText, "CHECK: beta\nCHECK-NEXT: gamma"));
  EXPECT_FALSE(FileCheck(kText, "CHECK: alpha\nCHECK-NEXT: gamma"));
  EXPECT_FALSE(FileCheck(kText, "CHECK-NEXT: alpha"));
}

TEST(FileCheck, CheckNot) {
  EXPECT_TRUE(FileCheck(kText, "CHECK: alpha\nCHECK-NOT: delta\nCHECK: gamma"));
  EXPECT_FALSE(FileCheck(kText, "CHECK: alpha\nCHECK-NOT: beta\nCHECK: gamma"));
  EXPECT_FALSE(FileCheck(kText, "CHECK: gamma\nCHECK-NOT: delta"));  // Up to the end.
  EXPECT_TRUE(FileCheck(kText, "CHECK-NOT: epsilon"));
}

TEST(FileCheck, RejectsUnknownDirectives) { EXPECT_FALSE(FileCheck(kText, "CHEK: alpha")); }

}  // namespace
}  // namespace coopspv::testing
