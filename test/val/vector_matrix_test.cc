// Tests of the vector / matrix arithmetic and OpBitcast rules (source/val/vector_matrix.cc) and of
// the SPIR-V 1.4 entry point interface (source/val/interface.cc).
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

std::string Kernel(const std::string& instruction) {
  return R"(
               OpCapability Shader
               OpCapability Int16
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %ushort = OpTypeInt 16 0
      %float = OpTypeFloat 32
         %v2 = OpTypeVector %float 2
         %v3 = OpTypeVector %float 3
      %v2u16 = OpTypeVector %ushort 2
       %m2x2 = OpTypeMatrix %v2 2
       %m2x3 = OpTypeMatrix %v2 3
       %m3x2 = OpTypeMatrix %v3 2
         %pf = OpTypePointer Function %float
     %uint_1 = OpConstant %uint 1
    %float_1 = OpConstant %float 1
       %vec2 = OpConstantComposite %v2 %float_1 %float_1
       %vec3 = OpConstantComposite %v3 %float_1 %float_1 %float_1
        %mat = OpConstantComposite %m2x2 %vec2 %vec2
      %mat23 = OpConstantComposite %m2x3 %vec2 %vec2 %vec2
       %main = OpFunction %void None %fn
          %l = OpLabel
          %x = )" +
         instruction + R"(
               OpReturn
               OpFunctionEnd
)";
}

using Case = testing::InstructionCase;

class VectorMatrixCase : public ::testing::TestWithParam<Case> {};

TEST_P(VectorMatrixCase, IsReportedWithItsRule) {
  const Case& c = GetParam();
  const Result r = testing::ValidateText(Kernel(c.instruction), c.env);
  testing::ExpectCase(r, c.rule);
}

INSTANTIATE_TEST_SUITE_P(
    VectorMatrix, VectorMatrixCase,
    ::testing::Values(
        Case{"OpVectorTimesScalar %v2 %vec2 %float_1", "vulkan1.3", ""},
        Case{"OpVectorTimesScalar %v2 %float_1 %float_1", "vulkan1.3", "matrix.operand"},
        Case{"OpVectorTimesScalar %v2 %vec2 %uint_1", "vulkan1.3", "matrix.operand"},
        Case{"OpMatrixTimesScalar %m2x2 %mat %float_1", "vulkan1.3", ""},
        Case{"OpMatrixTimesScalar %m2x2 %float_1 %float_1", "vulkan1.3", "matrix.operand"},
        Case{"OpMatrixTimesScalar %v2 %vec2 %float_1", "vulkan1.3", "matrix.operand"},
        Case{"OpMatrixTimesVector %v2 %mat23 %vec3", "vulkan1.3", ""},
        Case{"OpMatrixTimesVector %v2 %mat23 %vec2", "vulkan1.3", "matrix.operand"},
        Case{"OpVectorTimesMatrix %v3 %vec2 %mat23", "vulkan1.3", ""},
        Case{"OpVectorTimesMatrix %v2 %vec2 %mat23", "vulkan1.3", "matrix.operand"},
        Case{"OpMatrixTimesMatrix %m2x2 %mat %mat", "vulkan1.3", ""},
        Case{"OpMatrixTimesMatrix %m2x3 %mat %mat", "vulkan1.3", "matrix.operand"},
        Case{"OpOuterProduct %m2x3 %vec2 %vec3", "vulkan1.3", ""},
        Case{"OpOuterProduct %m2x3 %vec3 %vec2", "vulkan1.3", "matrix.operand"},
        Case{"OpDot %float %vec2 %vec2", "vulkan1.3", ""},
        Case{"OpDot %float %vec2 %vec3", "vulkan1.3", "matrix.operand"},
        Case{"OpBitcast %uint %float_1", "vulkan1.3", ""},
        Case{"OpBitcast %v2u16 %float_1", "vulkan1.3", ""},
        Case{"OpBitcast %v2 %uint_1", "vulkan1.3", "bitcast.operand"},
        Case{"OpBitcast %ushort %uint_1", "vulkan1.3", "bitcast.operand"},
        Case{"OpBitcast %m2x2 %vec2", "vulkan1.3", "bitcast.operand"},
        Case{"OpBitcast %pf %uint_1", "vulkan1.3", "bitcast.operand"},
        Case{"OpVariable %pf Function\n%y = OpBitcast %uint %x", "vulkan1.3", "bitcast.operand"}));

// A cooperative Result Type with a Matrix that is not cooperative (the cooperative family checks
// only instructions on cooperative matrices).
TEST(VectorMatrix, CooperativeResultOfAnOrdinaryMatrix) {
  const std::string text = testing::ReadFile("test/val/data/tiled_matmul_khr.spvasm");
  ASSERT_FALSE(text.empty());
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const std::string bad =
      testing::Mutate(text, "%exit = OpLabel",
                      "%exit = OpLabel\n%bad = OpMatrixTimesScalar %matC %float_0 %float_0");
  EXPECT_RULE_AT(testing::ValidateText(bad, "vulkan1.3"), "matrix.operand", "OpMatrixTimesScalar",
                 "not the Result Type");
}

// From SPIR-V 1.4 the interface lists every global variable the call tree uses, also through a
// called function.
TEST(EntryPointInterface, ListsEveryGlobalOfTheCallTree) {
  const std::string text = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %wg
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %ptr_wg = OpTypePointer Workgroup %uint
     %ptr_pr = OpTypePointer Private %uint
         %wg = OpVariable %ptr_wg Workgroup
         %pr = OpVariable %ptr_pr Private
       %main = OpFunction %void None %fn
          %l = OpLabel
               OpStore %wg %uint_1
          %c = OpFunctionCall %void %helper
               OpReturn
               OpFunctionEnd
     %helper = OpFunction %void None %fn
         %l2 = OpLabel
               OpStore %pr %uint_1
               OpReturn
               OpFunctionEnd
)";
  EXPECT_RULE_AT(testing::ValidateText(text, "vulkan1.2"), "entry-point.interface-complete",
                 "OpStore", "not listed");
  EXPECT_CLEAN(
      testing::ValidateText(testing::Mutate(text, "OpEntryPoint GLCompute %main \"main\" %wg",
                                            "OpEntryPoint GLCompute %main \"main\" %wg %pr"),
                            "vulkan1.2"));
  // Before 1.4 only Input and Output variables are listed.
  EXPECT_CLEAN(
      testing::ValidateText(testing::Mutate(text, "OpEntryPoint GLCompute %main \"main\" %wg",
                                            "OpEntryPoint GLCompute %main \"main\""),
                            "vulkan1.1"));
  // Before 1.4 too, for the Input and Output variables.
  const std::string input = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
         %v3 = OpTypeVector %uint 3
        %pin = OpTypePointer Input %v3
        %gid = OpVariable %pin Input
       %main = OpFunction %void None %fn
          %l = OpLabel
          %x = OpLoad %v3 %gid
               OpReturn
               OpFunctionEnd
)";
  EXPECT_RULE_AT(testing::ValidateText(input, "vulkan1.1"), "entry-point.interface-complete",
                 "OpLoad", "not listed");
  EXPECT_CLEAN(testing::ValidateText(testing::Mutate(input, "OpEntryPoint GLCompute %main \"main\"",
                                                     "OpEntryPoint GLCompute %main \"main\" %gid"),
                                     "vulkan1.1"));
}

// VUID-StandaloneSpirv-OpEntryPoint-09658: a BuiltIn is used once by an entry point's Input
// interface (Vulkan environments).
TEST(EntryPointInterface, BuiltInUsedOnce) {
  const std::string text = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %gid2
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid2 BuiltIn GlobalInvocationId
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
         %v3 = OpTypeVector %uint 3
        %pin = OpTypePointer Input %v3
        %gid = OpVariable %pin Input
       %gid2 = OpVariable %pin Input
       %main = OpFunction %void None %fn
          %l = OpLabel
          %x = OpLoad %v3 %gid
          %y = OpLoad %v3 %gid2
               OpReturn
               OpFunctionEnd
)";
  EXPECT_RULE_AT(testing::ValidateText(text, "vulkan1.3"), "entry-point.builtin-once",
                 "OpEntryPoint", "both use BuiltIn GlobalInvocationId in the Input interface");
  // A Vulkan rule: other environments accept it; two different built-ins are fine.
  EXPECT_CLEAN(testing::ValidateText(text, "spv1.6"));
  EXPECT_CLEAN(
      testing::ValidateText(testing::Mutate(text, "OpDecorate %gid2 BuiltIn GlobalInvocationId",
                                            "OpDecorate %gid2 BuiltIn WorkgroupId"),
                            "vulkan1.3"));
}

}  // namespace
}  // namespace coopspv::val
