// pointer.logical-operand: under Logical addressing, pointers feed only the instructions SPIR-V
// lists; --relax-logical-pointer and VariablePointers lift the rule.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

std::string Shader(const std::string& capabilities, const std::string& body) {
  return R"(
OpCapability Shader
)" + capabilities +
         R"(
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%ptr = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpVariable %ptr Function
%b = OpVariable %ptr Function
)" + body +
         R"(
OpReturn
OpFunctionEnd
)";
}

constexpr const char* kSelectPointer = "%p = OpSelect %ptr %true %a %b\nOpStore %p %uint_1";

TEST(LogicalPointers, LoadsStoresAndCopiesAreFine) {
  EXPECT_CLEAN(testing::ValidateText(
      Shader("", "OpStore %a %uint_1\n%c = OpCopyObject %ptr %a\n%v = OpLoad %uint %c"),
      "vulkan1.3"));
}

TEST(LogicalPointers, SelectOfPointersIsAnError) {
  const Result r = testing::ValidateText(Shader("", kSelectPointer), "vulkan1.3");
  EXPECT_RULE(r, "pointer.logical-operand");
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].instruction_text.find("OpSelect"), std::string::npos);
}

TEST(LogicalPointers, RelaxFlagLiftsTheRule) {
  Options options;
  options.env = *ParseTargetEnv("vulkan1.3");
  options.relax_logical_pointer = true;
  EXPECT_FALSE(testing::HasRule(testing::ValidateText(Shader("", kSelectPointer), options),
                                "pointer.logical-operand"));
  options.relax_logical_pointer = false;
  options.before_hlsl_legalization = true;
  EXPECT_FALSE(testing::HasRule(testing::ValidateText(Shader("", kSelectPointer), options),
                                "pointer.logical-operand"));
}

TEST(LogicalPointers, VariablePointersLiftTheRule) {
  EXPECT_FALSE(testing::HasRule(
      testing::ValidateText(Shader("OpCapability VariablePointers", kSelectPointer), "vulkan1.3"),
      "pointer.logical-operand"));
}

// SPV_KHR_ray_query: every ray query instruction takes its RayQuery as a pointer.
TEST(LogicalPointers, RayQueryInstructionsTakeTheirQueryPointer) {
  const std::string text = R"(
OpCapability Shader
OpCapability RayQueryKHR
OpExtension "SPV_KHR_ray_query"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%query = OpTypeRayQueryKHR
%ptr = OpTypePointer Function %query
%main = OpFunction %void None %fn
%entry = OpLabel
%q = OpVariable %ptr Function
%more = OpRayQueryProceedKHR %bool %q
OpRayQueryTerminateKHR %q
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
}

}  // namespace
}  // namespace coopspv::val
