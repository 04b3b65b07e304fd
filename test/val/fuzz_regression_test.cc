// The validator against hostile input (test/fuzz/validator_fuzz, utils/fuzz.sh): limits that
// must be reported with a diagnostic, and shapes whose size must not turn into recursion depth
// or superlinear work. Findings in source/val are DISABLED_ here until fixed (see each test).
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::HasRule;
using testing::kShaderPreamble;
using testing::ValidateText;

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Arrays nested far beyond the limit: one type.nesting error per chain (not one per level), and
// no recursion: depth is computed bottom-up.
TEST(ValHostileInput, DeepTypeNestingIsReportedWithoutRecursion) {
  constexpr int kDepth = 20000;
  std::string text(kShaderPreamble);
  text +=
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
      "%uint_1 = OpConstant %uint 1\n%a0 = OpTypeArray %uint %uint_1\n";
  for (int i = 1; i < kDepth; ++i) {
    text += "%a" + std::to_string(i) + " = OpTypeArray %a" + std::to_string(i - 1) + " %uint_1\n";
  }
  text += "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
  Options options;
  options.max_errors = 0;
  const auto start = std::chrono::steady_clock::now();
  const Result r = ValidateText(text, options);
  EXPECT_LT(SecondsSince(start), 20.0);
  EXPECT_TRUE(HasRule(r, "type.nesting")) << Dump(r);
  EXPECT_LT(r.num_errors, 200u) << "one report per chain, not per level";
}

// A struct with more members than the limit is refused, whatever the limit.
TEST(ValHostileInput, StructMemberLimit) {
  std::string text(kShaderPreamble);
  text +=
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%s = "
      "OpTypeStruct";
  for (int i = 0; i < 20; ++i) text += " %uint";
  text += "\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
  Options options;
  options.max_struct_members = 19;
  EXPECT_TRUE(HasRule(ValidateText(text, options), "type.struct"));
  options.max_struct_members = 20;
  EXPECT_FALSE(HasRule(ValidateText(text, options), "type.struct"));
}

// Options::max_control_flow_nesting_depth (SPIR-V 2.17: 1023 nested structured control-flow
// constructs): function.nesting-depth.
TEST(ValHostileInput, ControlFlowNestingDepthLimit) {
  constexpr int kDepth = 1100;
  std::string text(kShaderPreamble);
  text +=
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n"
      "%true = OpConstantTrue %bool\n%main = OpFunction %void None %fn\n";
  for (int i = 0; i < kDepth; ++i) {
    const std::string n = std::to_string(i);
    const std::string next = i + 1 < kDepth ? "%h" + std::to_string(i + 1) : "%m" + n;
    text += "%h" + n + " = OpLabel\nOpSelectionMerge %m" + n + " None\nOpBranchConditional %true " +
            next + " %m" + n + "\n";
  }
  for (int i = kDepth - 1; i >= 0; --i) {
    text += "%m" + std::to_string(i) + " = OpLabel\n" +
            (i > 0 ? "OpBranch %m" + std::to_string(i - 1) + "\n" : "OpReturn\n");
  }
  text += "OpFunctionEnd\n";
  const Result r = ValidateText(text);
  EXPECT_FALSE(r.valid) << "1100 nested selection constructs exceed the limit of 1023";
  EXPECT_TRUE(HasRule(r, "function.nesting-depth")) << Dump(r);
  Options options;
  options.max_control_flow_nesting_depth = 2000;
  EXPECT_TRUE(ValidateText(text, options).valid) << Dump(ValidateText(text, options));
}

// Options::max_access_chain_indexes (SPIR-V 2.17: 255 indexes): pointer.access-chain-indexes.
TEST(ValHostileInput, AccessChainIndexLimit) {
  constexpr int kIndexes = 256;
  std::string text(kShaderPreamble);
  text +=
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
      "%uint_0 = OpConstant %uint 0\n%uint_1 = OpConstant %uint 1\n%t0 = OpTypeArray %uint "
      "%uint_1\n";
  for (int i = 1; i < kIndexes; ++i) {
    text += "%t" + std::to_string(i) + " = OpTypeArray %t" + std::to_string(i - 1) + " %uint_1\n";
  }
  const std::string top = "%t" + std::to_string(kIndexes - 1);
  text += "%ptr = OpTypePointer Function " + top + "\n%ptr_uint = OpTypePointer Function %uint\n";
  text +=
      "%main = OpFunction %void None %fn\n%entry = OpLabel\n%v = OpVariable %ptr Function\n"
      "%p = OpAccessChain %ptr_uint %v";
  for (int i = 0; i < kIndexes; ++i) text += " %uint_0";
  text += "\nOpReturn\nOpFunctionEnd\n";
  Options options;
  options.max_type_nesting_depth = 1000;
  const Result r = ValidateText(text, options);
  EXPECT_FALSE(r.valid) << "256 access chain indexes exceed the limit of 255";
  EXPECT_TRUE(HasRule(r, "pointer.access-chain-indexes")) << Dump(r);
  options.max_access_chain_indexes = 256;
  EXPECT_TRUE(ValidateText(text, options).valid) << Dump(ValidateText(text, options));
}

}  // namespace
}  // namespace coopspv::val
