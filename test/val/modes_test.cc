// Tests of the execution-mode rules (source/val/modes.cc). Each verdict here was compared with
// spirv-val's on the same module and environment.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::ValidateText;

// One entry point %main of `model` with the `modes` lines (which name %main), `capabilities`
// extra OpCapability / OpExtension lines and `globals` beside %void, %uint and %float.
std::string Module(const std::string& model, const std::string& modes,
                   const std::string& capabilities = "", const std::string& globals = "",
                   const std::string& interface = "") {
  return "OpCapability Shader\n" + capabilities +
         "\nOpMemoryModel Logical GLSL450\n"
         "OpEntryPoint " +
         model + " %main \"main\"" + interface + "\n" + modes +
         "\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
         "%float = OpTypeFloat 32\n" +
         globals +
         "\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
}

constexpr const char* kLocalSize = "OpExecutionMode %main LocalSize 1 1 1";

TEST(ExecutionModes, ValidModes) {
  EXPECT_CLEAN(ValidateText(Module("GLCompute", kLocalSize), "vulkan1.3"));
  EXPECT_CLEAN(ValidateText(
      Module("Geometry",
             "OpExecutionMode %main InputPoints\nOpExecutionMode %main OutputPoints\n"
             "OpExecutionMode %main OutputVertices 1\nOpExecutionMode %main Invocations 1",
             "OpCapability Geometry"),
      "spv1.0"));
  EXPECT_CLEAN(
      ValidateText(Module("Fragment", "OpExecutionMode %main OriginUpperLeft"), "vulkan1.3"));
  // A float-controls mode once per Target Width.
  EXPECT_CLEAN(
      ValidateText(Module("GLCompute",
                          std::string(kLocalSize) + "\nOpExecutionMode %main DenormPreserve 16\n"
                                                    "OpExecutionMode %main DenormPreserve 32",
                          "OpCapability DenormPreserve\nOpExtension \"SPV_KHR_float_controls\""),
                   "spv1.0"));
  // LocalSizeId in Vulkan 1.3; a WorkgroupSize built-in in place of LocalSize.
  EXPECT_CLEAN(
      ValidateText(Module("GLCompute", "OpExecutionModeId %main LocalSizeId %one %one %one", "",
                          "%one = OpConstant %uint 1"),
                   "vulkan1.3"));
  EXPECT_CLEAN(ValidateText(Module("GLCompute", "OpDecorate %size BuiltIn WorkgroupSize", "",
                                   "%v3uint = OpTypeVector %uint 3\n%one = OpConstant %uint 1\n"
                                   "%size = OpConstantComposite %v3uint %one %one %one"),
                            "vulkan1.3"));
}

// SPIR-V 3.6: "Only valid with the Geometry Execution Model", ...
TEST(ExecutionModes, Model) {
  EXPECT_RULE_AT(
      ValidateText(
          Module("GLCompute", std::string(kLocalSize) + "\nOpExecutionMode %main Invocations 3",
                 "OpCapability Geometry"),
          "spv1.0"),
      "execution-mode.model", "Invocations", "Geometry");
  EXPECT_RULE_AT(ValidateText(Module("GLCompute",
                                     std::string(kLocalSize) + "\nOpExecutionMode %main DepthLess"),
                              "spv1.0"),
                 "execution-mode.model", "DepthLess");
  EXPECT_RULE_AT(
      ValidateText(
          Module("GLCompute", std::string(kLocalSize) + "\nOpExecutionMode %main ContractionOff",
                 "OpCapability Kernel"),
          "spv1.0"),
      "execution-mode.model", "ContractionOff");
  EXPECT_RULE_AT(ValidateText(Module("Vertex", kLocalSize), "spv1.0"), "execution-mode.model",
                 "LocalSize");
}

TEST(ExecutionModes, Instruction) {
  EXPECT_RULE_AT(
      ValidateText(
          Module("GLCompute",
                 std::string(kLocalSize) + "\nOpExecutionMode %main FPFastMathDefault %float %0",
                 "OpCapability FloatControls2\nOpExtension \"SPV_KHR_float_controls2\"",
                 "%0 = OpConstant %uint 0"),
          "spv1.2"),
      "execution-mode.instruction", "FPFastMathDefault");
}

TEST(ExecutionModes, Once) {
  EXPECT_RULE_AT(
      ValidateText(Module("GLCompute",
                          std::string(kLocalSize) + "\nOpExecutionMode %main RoundingModeRTE 32\n"
                                                    "OpExecutionMode %main RoundingModeRTE 32",
                          "OpCapability RoundingModeRTE\nOpExtension \"SPV_KHR_float_controls\""),
                   "spv1.0"),
      "execution-mode.once", "RoundingModeRTE");
  EXPECT_RULE(
      ValidateText(Module("GLCompute", std::string(kLocalSize) + "\n" + kLocalSize), "spv1.0"),
      "execution-mode.once");
}

TEST(ExecutionModes, FastMathDefault) {
  const std::string caps = "OpCapability FloatControls2\nOpExtension \"SPV_KHR_float_controls2\"";
  const std::string globals =
      "%none = OpConstant %uint 0\n%fast = OpConstant %uint 16\n%transform = OpConstant %uint "
      "262144\n";
  EXPECT_CLEAN(ValidateText(
      Module("GLCompute",
             std::string(kLocalSize) + "\nOpExecutionModeId %main FPFastMathDefault %float %none",
             caps, globals),
      "spv1.2"));
  EXPECT_RULE_AT(ValidateText(Module("GLCompute",
                                     std::string(kLocalSize) +
                                         "\nOpExecutionModeId %main FPFastMathDefault %uint %none",
                                     caps, globals),
                              "spv1.2"),
                 "execution-mode.fp-fast-math-default", "FPFastMathDefault", "Target Type");
  EXPECT_RULE(ValidateText(Module("GLCompute",
                                  std::string(kLocalSize) +
                                      "\nOpExecutionModeId %main FPFastMathDefault %float %fast",
                                  caps, globals),
                           "spv1.2"),
              "execution-mode.fp-fast-math-default");
  EXPECT_RULE(
      ValidateText(Module("GLCompute",
                          std::string(kLocalSize) +
                              "\nOpExecutionModeId %main FPFastMathDefault %float %transform",
                          caps, globals),
                   "spv1.2"),
      "execution-mode.fp-fast-math-default");
}

// SPV_KHR_float_controls2: no NoContraction in the call tree of an entry point with
// FPFastMathDefault.
TEST(ExecutionModes, FastMathDefaultCallTree) {
  const std::string text =
      "OpCapability Shader\nOpCapability FloatControls2\n"
      "OpExtension \"SPV_KHR_float_controls2\"\nOpMemoryModel Logical GLSL450\n"
      "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"
      "OpExecutionModeId %main FPFastMathDefault %float %none\nOpDecorate %sum NoContraction\n"
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
      "%float = OpTypeFloat 32\n%none = OpConstant %uint 0\n%one = OpConstant %float 1\n"
      "%main = OpFunction %void None %fn\n%entry = OpLabel\n%call = OpFunctionCall %void %f\n"
      "OpReturn\nOpFunctionEnd\n%f = OpFunction %void None %fn\n%fe = OpLabel\n"
      "%sum = OpFAdd %float %one %one\nOpReturn\nOpFunctionEnd\n";
  EXPECT_RULE_AT(ValidateText(text, "spv1.2"), "execution-mode.fp-fast-math-default",
                 "NoContraction");
}

TEST(ExecutionModes, WorkgroupSize) {
  EXPECT_RULE_AT(
      ValidateText(Module("GLCompute", "OpExecutionMode %main LocalSize 1 1 0"), "spv1.0"),
      "execution-mode.workgroup-size", "LocalSize", "(1, 1, 0)");
  EXPECT_RULE(ValidateText(Module("GLCompute", "OpExecutionModeId %main LocalSizeId %one %0 %one",
                                  "", "%one = OpConstant %uint 1\n%0 = OpConstant %uint 0"),
                           "spv1.3"),
              "execution-mode.workgroup-size");
  const std::string quads =
      "OpCapability ComputeDerivativeGroupQuadsKHR\n"
      "OpExtension \"SPV_KHR_compute_shader_derivatives\"";
  EXPECT_CLEAN(ValidateText(Module("GLCompute",
                                   "OpExecutionMode %main LocalSize 2 4 1\n"
                                   "OpExecutionMode %main DerivativeGroupQuadsKHR",
                                   quads),
                            "vulkan1.1"));
  EXPECT_RULE_AT(ValidateText(Module("GLCompute",
                                     "OpExecutionMode %main LocalSize 1 2 1\n"
                                     "OpExecutionMode %main DerivativeGroupQuadsKHR",
                                     quads),
                              "vulkan1.1"),
                 "execution-mode.workgroup-size", "LocalSize", "10151");
  EXPECT_RULE_AT(ValidateText(Module("GLCompute",
                                     "OpExecutionMode %main LocalSize 3 3 2\n"
                                     "OpExecutionMode %main DerivativeGroupLinearKHR",
                                     "OpCapability ComputeDerivativeGroupLinearKHR\n"
                                     "OpExtension \"SPV_KHR_compute_shader_derivatives\""),
                              "vulkan1.1"),
                 "execution-mode.workgroup-size", "LocalSize", "10152");
}

TEST(ExecutionModes, VulkanWorkgroupSize) {
  // VUID-StandaloneSpirv-None-10685; outside Vulkan a compute entry point may go without.
  EXPECT_RULE_AT(ValidateText(Module("GLCompute", ""), "vulkan1.0"),
                 "execution-mode.vulkan-workgroup-size", "OpEntryPoint", "10685");
  EXPECT_CLEAN(ValidateText(Module("GLCompute", ""), "spv1.0"));
  // VUID-RuntimeSpirv-LocalSizeId-06434: maintenance4 is core in Vulkan 1.3.
  EXPECT_RULE_AT(ValidateText(Module("GLCompute", "OpExecutionModeId %main LocalSizeId %1 %1 %1",
                                     "", "%1 = OpConstant %uint 1"),
                              "vulkan1.1"),
                 "execution-mode.vulkan-workgroup-size", "LocalSizeId", "06434");
}

TEST(ExecutionModes, StageModes) {
  EXPECT_RULE_AT(ValidateText(Module("Geometry",
                                     "OpExecutionMode %main InputPoints\n"
                                     "OpExecutionMode %main OutputVertices 1",
                                     "OpCapability Geometry"),
                              "spv1.0"),
                 "execution-mode.stage-modes", "OpEntryPoint", "OutputPoints");
  EXPECT_RULE(ValidateText(Module("Fragment", ""), "spv1.0"), "execution-mode.stage-modes");
  EXPECT_RULE(ValidateText(Module("Fragment",
                                  "OpExecutionMode %main OriginUpperLeft\n"
                                  "OpExecutionMode %main DepthLess\n"
                                  "OpExecutionMode %main DepthGreater"),
                           "spv1.0"),
              "execution-mode.stage-modes");
}

TEST(ExecutionModes, VulkanFragment) {
  EXPECT_RULE_AT(
      ValidateText(Module("Fragment", "OpExecutionMode %main OriginLowerLeft"), "vulkan1.0"),
      "execution-mode.vulkan-fragment", "OriginLowerLeft", "04653");
  EXPECT_CLEAN(ValidateText(Module("Fragment", "OpExecutionMode %main OriginLowerLeft"), "spv1.0"));
}

TEST(ExecutionModes, TileShadingRate) {
  const std::string caps = "OpCapability TileShadingQCOM\nOpExtension \"SPV_QCOM_tile_shading\"";
  EXPECT_RULE_AT(
      ValidateText(Module("GLCompute", "OpExecutionMode %main TileShadingRateQCOM 3 2 1", caps),
                   "vulkan1.4"),
      "execution-mode.tile-shading-rate", "TileShadingRateQCOM");
  EXPECT_RULE_AT(ValidateText(Module("GLCompute",
                                     "OpExecutionMode %main TileShadingRateQCOM 2 2 1\n" +
                                         std::string(kLocalSize),
                                     caps),
                              "vulkan1.4"),
                 "execution-mode.vulkan-workgroup-size", "LocalSize", "10692");
}

}  // namespace
}  // namespace coopspv::val
