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

// pointer.variable-matrix-column: with VariablePointers, a variable pointer must not point to a
// matrix column or a component of one, wherever it comes from.
std::string VariablePointerMatrix(const std::string& globals, const std::string& body,
                                  const std::string& functions = "") {
  return R"(
OpCapability Shader
OpCapability VariablePointers
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%cond = OpUndef %bool
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%float = OpTypeFloat 32
%vec = OpTypeVector %float 2
%mat = OpTypeMatrix %vec 2
%arr = OpTypeArray %mat %uint_2
%s = OpTypeStruct %arr %float
%ptr_s = OpTypePointer Workgroup %s
%ptr_vec = OpTypePointer Workgroup %vec
%ptr_float = OpTypePointer Workgroup %float
%null_vec = OpConstantNull %ptr_vec
%null_float = OpConstantNull %ptr_float
%var = OpVariable %ptr_s Workgroup
)" + globals + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
)" + body + R"(
OpReturn
OpFunctionEnd
)" + functions;
}

Result ValidateVariablePointerMatrix(const std::string& text) {
  return testing::ValidateText(text, "spv1.3");
}

TEST(VariablePointerMatrix, SelectOfAColumnIsAnError) {
  const Result r = ValidateVariablePointerMatrix(VariablePointerMatrix(
      "", "%col = OpAccessChain %ptr_vec %var %uint_0 %uint_1 %uint_0\n"
          "%vp = OpSelect %ptr_vec %cond %col %null_vec"));
  EXPECT_RULE(r, "pointer.variable-matrix-column");
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].instruction_text.find("OpAccessChain"), std::string::npos);
}

TEST(VariablePointerMatrix, PhiOfAComponentThroughACopyIsAnError) {
  EXPECT_RULE(ValidateVariablePointerMatrix(VariablePointerMatrix(
                  "", "%c = OpAccessChain %ptr_float %var %uint_0 %uint_1 %uint_0 %uint_1\n"
                      "%copy = OpCopyObject %ptr_float %c\n"
                      "OpBranch %next\n%next = OpLabel\n"
                      "%vp = OpPhi %ptr_float %copy %entry")),
              "pointer.variable-matrix-column");
}

TEST(VariablePointerMatrix, ChainFromAVariablePointerIntoAMatrixIsAnError) {
  EXPECT_RULE(ValidateVariablePointerMatrix(VariablePointerMatrix(
                  "%null_s = OpConstantNull %ptr_s",
                  "%vp = OpSelect %ptr_s %cond %var %null_s\n"
                  "%col = OpAccessChain %ptr_vec %vp %uint_0 %uint_0 %uint_1")),
              "pointer.variable-matrix-column");
}

TEST(VariablePointerMatrix, ArgumentAndStoredPointersAreTraced) {
  // A column passed to a function that selects on it.
  EXPECT_RULE(ValidateVariablePointerMatrix(VariablePointerMatrix(
                  "%fn_p = OpTypeFunction %void %ptr_vec",
                  "%col = OpAccessChain %ptr_vec %var %uint_0 %uint_0 %uint_1\n"
                  "%call = OpFunctionCall %void %f %col",
                  R"(
%f = OpFunction %void None %fn_p
%p = OpFunctionParameter %ptr_vec
%fe = OpLabel
%vp = OpSelect %ptr_vec %cond %p %null_vec
OpReturn
OpFunctionEnd
)")),
              "pointer.variable-matrix-column");
  // A column stored in a Function variable and loaded back.
  EXPECT_RULE(ValidateVariablePointerMatrix(VariablePointerMatrix(
                  "%ptr_fn_ptr = OpTypePointer Function %ptr_vec",
                  "%holder = OpVariable %ptr_fn_ptr Function\n"
                  "%col = OpAccessChain %ptr_vec %var %uint_0 %uint_0 %uint_1\n"
                  "OpStore %holder %col\n"
                  "%vp = OpLoad %ptr_vec %holder")),
              "pointer.variable-matrix-column");
}

TEST(VariablePointerMatrix, PointersOutsideMatricesAreFine) {
  // The struct's float member, selected: no matrix on the way.
  EXPECT_FALSE(testing::HasRule(
      ValidateVariablePointerMatrix(VariablePointerMatrix(
          "", "%m = OpAccessChain %ptr_float %var %uint_1\n"
              "%vp = OpSelect %ptr_float %cond %m %null_float")),
      "pointer.variable-matrix-column"));
  // A column reached without any variable pointer.
  EXPECT_FALSE(testing::HasRule(
      ValidateVariablePointerMatrix(VariablePointerMatrix(
          "", "%col = OpAccessChain %ptr_vec %var %uint_0 %uint_1 %uint_0\n"
              "%v = OpLoad %vec %col")),
      "pointer.variable-matrix-column"));
}

TEST(VariablePointerMatrix, UntypedChainsWalkTheirBaseType) {
  const std::string text = R"(
OpCapability Shader
OpCapability VariablePointers
OpCapability UntypedPointersKHR
OpExtension "SPV_KHR_untyped_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%cond = OpUndef %bool
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%float = OpTypeFloat 32
%vec = OpTypeVector %float 2
%mat = OpTypeMatrix %vec 2
%ptr = OpTypeUntypedPointerKHR Workgroup
%null = OpConstantNull %ptr
%var = OpUntypedVariableKHR %ptr Workgroup %mat
%main = OpFunction %void None %fn
%entry = OpLabel
%col = OpUntypedAccessChainKHR %ptr %mat %var %uint_0
%vp = OpSelect %ptr %cond %col %null
OpReturn
OpFunctionEnd
)";
  EXPECT_RULE(ValidateVariablePointerMatrix(text), "pointer.variable-matrix-column");
}

}  // namespace
}  // namespace coopspv::val
