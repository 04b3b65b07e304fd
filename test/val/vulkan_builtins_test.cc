// Tests of the Vulkan rules on compute built-ins (source/val/vulkan_builtins.cc) and of the
// BuiltIn decoration's target (decoration.target, source/val/decorations.cc). Each verdict here
// was compared with spirv-val's on the same module and environment.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

// A compute shader whose one interface variable %v is a built-in: `capabilities` extra
// OpCapability / OpExtension lines, `decorations` the decorations, `globals` the types and
// %v, `body` the code of %main. %uint, %int, %float, %v2uint, %v3uint and %v4uint are declared.
std::string Module(const std::string& capabilities, const std::string& decorations,
                   const std::string& globals, const std::string& body = "",
                   const std::string& model = "GLCompute",
                   const std::string& mode = "OpExecutionMode %main LocalSize 1 1 1") {
  return "OpCapability Shader\n" + capabilities +
         "\nOpMemoryModel Logical GLSL450\n"
         "OpEntryPoint " +
         model + " %main \"main\" %v\n" + mode + "\n" + decorations +
         "\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n"
         "%int = OpTypeInt 32 1\n%float = OpTypeFloat 32\n%v2uint = OpTypeVector %uint 2\n"
         "%v3uint = OpTypeVector %uint 3\n%v4uint = OpTypeVector %uint 4\n" +
         globals + "\n%main = OpFunction %void None %fn\n%entry = OpLabel\n" + body +
         "\nOpReturn\nOpFunctionEnd\n";
}

std::string Input(const std::string& type) {
  return "%p = OpTypePointer Input " + type + "\n%v = OpVariable %p Input";
}

constexpr const char* kBallot = "OpCapability GroupNonUniformBallot";
constexpr const char* kSm =
    "OpCapability ShaderSMBuiltinsNV\nOpExtension \"SPV_NV_shader_sm_builtins\"";
constexpr const char* kArm = "OpCapability CoreBuiltinsARM\nOpExtension \"SPV_ARM_core_builtins\"";

TEST(VulkanBuiltIns, ValidDeclarations) {
  EXPECT_CLEAN(testing::ValidateText(
      Module("", "OpDecorate %v BuiltIn LocalInvocationId", Input("%v3uint"), ""), "vulkan1.3"));
  // Signed components are 32-bit integers too.
  EXPECT_CLEAN(testing::ValidateText(Module("", "OpDecorate %v BuiltIn GlobalInvocationId",
                                            "%v3int = OpTypeVector %int 3\n" + Input("%v3int")),
                                     "vulkan1.3"));
  EXPECT_CLEAN(testing::ValidateText(
      Module(kBallot, "OpDecorate %v BuiltIn SubgroupGtMask", Input("%v4uint")), "vulkan1.3"));
  EXPECT_CLEAN(testing::ValidateText(Module(kSm, "OpDecorate %v BuiltIn SMIDNV", Input("%uint")),
                                     "vulkan1.3"));
  EXPECT_CLEAN(testing::ValidateText(
      Module(kArm, "OpDecorate %v BuiltIn CoreMaxIDARM", Input("%uint")), "vulkan1.3"));
  // A structure member of Input storage.
  EXPECT_CLEAN(testing::ValidateText(
      Module("", "OpMemberDecorate %S 0 BuiltIn LocalInvocationId\nOpDecorate %S Block",
             "%S = OpTypeStruct %v3uint\n" + Input("%S")),
      "vulkan1.3"));
}

// VUID-<BuiltIn>-<BuiltIn>-*: "declared as a three-component vector of 32-bit integer values",
// "a four-component vector", "a scalar 32-bit integer value".
TEST(VulkanBuiltIns, Type) {
  struct Case {
    const char* capabilities;
    const char* built_in;
    const char* type;
    const char* vuid;
  } cases[] = {
      {"", "LocalInvocationId", "%v2uint", "VUID-LocalInvocationId-LocalInvocationId-04283"},
      {"", "WorkgroupId", "%uint", "VUID-WorkgroupId-WorkgroupId-04424"},
      {"", "LocalInvocationIndex", "%float",
       "VUID-LocalInvocationIndex-LocalInvocationIndex-04286"},
      {kBallot, "SubgroupEqMask", "%v3uint", "VUID-SubgroupEqMask-SubgroupEqMask-04371"},
      {kBallot, "SubgroupLtMask", "%uint", "VUID-SubgroupLtMask-SubgroupLtMask-04379"},
      {kSm, "SMIDNV", "%float", "VUID-SMIDNV-SMIDNV-04366"},
      {kSm, "WarpsPerSMNV", "%v2uint", "VUID-WarpsPerSMNV-WarpsPerSMNV-04419"},
      {kArm, "CoreIDARM", "%v2uint", "VUID-CoreIDARM-CoreIDARM-07600"},
      {kArm, "WarpMaxIDARM", "%int", ""},  // Signed is fine.
      {"OpCapability DeviceGroup\nOpExtension \"SPV_KHR_device_group\"", "DeviceIndex", "%v2uint",
       "VUID-DeviceIndex-DeviceIndex-04206"},
  };
  for (const Case& c : cases) {
    const std::string text =
        Module(c.capabilities, std::string("OpDecorate %v BuiltIn ") + c.built_in, Input(c.type));
    const Result r = testing::ValidateText(text, "vulkan1.3");
    if (*c.vuid == 0) {
      EXPECT_CLEAN(r);
      continue;
    }
    EXPECT_RULE_AT(r, "vulkan.builtin-type", c.built_in, c.vuid);
    testing::ExpectOnly(r, "vulkan.builtin-type");
    // Outside Vulkan the rule does not apply.
    EXPECT_FALSE(testing::HasRule(testing::ValidateText(text, "spv1.6"), "vulkan.builtin-type"));
  }
  // A structure member's type.
  const Result member = testing::ValidateText(
      Module("", "OpMemberDecorate %S 1 BuiltIn NumWorkgroups\nOpDecorate %S Block",
             "%S = OpTypeStruct %v3uint %v4uint\n" + Input("%S")),
      "vulkan1.3");
  EXPECT_RULE_AT(member, "vulkan.builtin-type", "NumWorkgroups", "member 1");
}

// VUID-<BuiltIn>-<BuiltIn>-*: "must be declared using the Input Storage Class", whether the
// entry point uses the variable or not.
TEST(VulkanBuiltIns, StorageClass) {
  const std::string private_id = Module("", "OpDecorate %v BuiltIn LocalInvocationId",
                                        "%p = OpTypePointer Private %v3uint\n"
                                        "%v = OpVariable %p Private");
  EXPECT_RULE_AT(testing::ValidateText(private_id, "vulkan1.3"), "vulkan.builtin-storage-class",
                 "OpVariable", "VUID-LocalInvocationId-LocalInvocationId-04282");
  const std::string output_sm = Module(kSm, "OpDecorate %v BuiltIn SMCountNV",
                                       "%p = OpTypePointer Output %uint\n"
                                       "%v = OpVariable %p Output");
  EXPECT_RULE_AT(testing::ValidateText(output_sm, "vulkan1.3"), "vulkan.builtin-storage-class",
                 "OpVariable", "VUID-SMCountNV-SMCountNV-04363");
  // A member: every pointer to the structure, also through an array, is an Input pointer.
  const std::string member =
      Module("", "OpMemberDecorate %S 0 BuiltIn GlobalInvocationId\nOpDecorate %S Block",
             "%S = OpTypeStruct %v3uint\n%u2 = OpConstant %uint 2\n%A = OpTypeArray %S %u2\n"
             "%pa = OpTypePointer Private %A\n" +
                 Input("%S"));
  EXPECT_RULE_AT(testing::ValidateText(member, "vulkan1.3"), "vulkan.builtin-storage-class",
                 "OpTypePointer Private", "member 0");
  EXPECT_FALSE(testing::HasRule(testing::ValidateText(private_id, "spv1.6"),
                                "vulkan.builtin-storage-class"));
}

// VUID-<BuiltIn>-<BuiltIn>-*: "used only within the GLCompute, MeshEXT, TaskEXT, MeshNV, or
// TaskNV Execution Model": a use in a graphics entry point's call tree, not a declaration.
TEST(VulkanBuiltIns, ExecutionModel) {
  const std::string vertex = Module("", "OpDecorate %v BuiltIn LocalInvocationIndex",
                                    Input("%uint"), "%x = OpLoad %uint %v", "Vertex", "");
  EXPECT_RULE_AT(testing::ValidateText(vertex, "vulkan1.3"), "vulkan.builtin-execution-model",
                 "OpLoad", "VUID-LocalInvocationIndex-LocalInvocationIndex-04284");
  // Listed but not used: no use to report.
  EXPECT_CLEAN(testing::ValidateText(
      Module("", "OpDecorate %v BuiltIn LocalInvocationIndex", Input("%uint"), "", "Vertex", ""),
      "vulkan1.3"));
  // SubgroupSize is not a compute-only built-in.
  EXPECT_CLEAN(testing::ValidateText(
      Module("OpCapability GroupNonUniform", "OpDecorate %v BuiltIn SubgroupSize", Input("%uint"),
             "%x = OpLoad %uint %v", "Vertex", ""),
      "vulkan1.3"));
  // A function called by both a compute and a vertex entry point; the WorkgroupSize constant
  // reached through a spec-constant operation from a fragment shader's callee.
  const std::string shared = R"(
OpCapability Shader
OpCapability GroupNonUniform
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %v
OpEntryPoint Vertex %vs "vs" %v
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %v BuiltIn SubgroupId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%p = OpTypePointer Input %uint
%v = OpVariable %p Input
%main = OpFunction %void None %fn
%l0 = OpLabel
%c0 = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%vs = OpFunction %void None %fn
%l1 = OpLabel
%c1 = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%l2 = OpLabel
%x = OpLoad %uint %v
OpReturn
OpFunctionEnd
)";
  const Result r = testing::ValidateText(shared, "vulkan1.3");
  EXPECT_RULE_AT(r, "vulkan.builtin-execution-model", "OpLoad", "Vertex");
  testing::ExpectOnly(r, "vulkan.builtin-execution-model");
  EXPECT_CLEAN(testing::ValidateText(
      testing::Mutate(shared, "%c1 = OpFunctionCall %void %helper", ""), "vulkan1.3"));
  const std::string fragment = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %o
OpExecutionMode %main OriginUpperLeft
OpDecorate %wgs BuiltIn WorkgroupSize
OpDecorate %o Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%u1 = OpConstant %uint 1
%wgs = OpSpecConstantComposite %v3uint %u1 %u1 %u1
%twice = OpSpecConstantOp %v3uint IAdd %wgs %wgs
%po = OpTypePointer Output %v3uint
%o = OpVariable %po Output
%main = OpFunction %void None %fn
%l0 = OpLabel
%c0 = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%l1 = OpLabel
OpStore %o %twice
OpReturn
OpFunctionEnd
)";
  EXPECT_RULE_AT(testing::ValidateText(fragment, "vulkan1.3"), "vulkan.builtin-execution-model",
                 "OpStore", "VUID-WorkgroupSize-WorkgroupSize-04425");
  EXPECT_CLEAN(testing::ValidateText(fragment, "spv1.6"));
}

// The built-ins of the other stages, e.g. VUID-FragCoord-FragCoord-04210 ("used only within the
// Fragment Execution Model"), VUID-ViewIndex-ViewIndex-04401 ("not used within GLCompute").
TEST(VulkanBuiltIns, OtherStagesExecutionModel) {
  const std::string v4float = "%v4float = OpTypeVector %float 4\n";
  EXPECT_RULE_AT(
      testing::ValidateText(Module("", "OpDecorate %v BuiltIn FragCoord",
                                   v4float + Input("%v4float"), "%x = OpLoad %v4float %v"),
                            "vulkan1.0"),
      "vulkan.builtin-execution-model", "OpLoad", "VUID-FragCoord-FragCoord-04210");
  EXPECT_CLEAN(testing::ValidateText(
      Module("", "OpDecorate %v BuiltIn FragCoord", v4float + Input("%v4float"),
             "%x = OpLoad %v4float %v", "Fragment", "OpExecutionMode %main OriginUpperLeft"),
      "vulkan1.0"));
  // A member of an Output block.
  EXPECT_RULE_AT(
      testing::ValidateText(
          Module("", "OpMemberDecorate %S 0 BuiltIn Position\nOpDecorate %S Block",
                 v4float + "%S = OpTypeStruct %v4float\n%p = OpTypePointer Output %S\n"
                           "%v = OpVariable %p Output\n%pm = OpTypePointer Output %v4float\n"
                           "%zero = OpConstant %int 0",
                 "%m = OpAccessChain %pm %v %zero"),
          "vulkan1.0"),
      "vulkan.builtin-execution-model", "OpAccessChain", "VUID-Position-Position-04318");
  EXPECT_RULE_AT(
      testing::ValidateText(Module("OpCapability MultiView", "OpDecorate %v BuiltIn ViewIndex",
                                   Input("%uint"), "%x = OpLoad %uint %v"),
                            "vulkan1.1"),
      "vulkan.builtin-execution-model", "OpLoad", "VUID-ViewIndex-ViewIndex-04401");
  EXPECT_CLEAN(testing::ValidateText(Module("", "OpDecorate %v BuiltIn FragCoord",
                                            v4float + Input("%v4float"), "%x = OpLoad %v4float %v"),
                                     "spv1.0"));
}

// VUID-StandaloneSpirv-None-04644: no Output storage in GLCompute; -04645: Workgroup storage
// only in the models with workgroups (vulkan.storage-class-model, source/val/vulkan.cc).
TEST(VulkanBuiltIns, StorageClassModel) {
  const std::string output =
      "%p = OpTypePointer Output %uint\n%v = OpVariable %p Output\n%u0 = OpConstant %uint 0";
  EXPECT_RULE_AT(testing::ValidateText(
                     Module("", "OpDecorate %v Location 0", output, "OpStore %v %u0"), "vulkan1.0"),
                 "vulkan.storage-class-model", "OpStore", "VUID-StandaloneSpirv-None-04644");
  EXPECT_CLEAN(testing::ValidateText(
      Module("", "OpDecorate %v Location 0", output, "OpStore %v %u0", "Vertex", ""), "vulkan1.0"));
  const std::string shared =
      "%p = OpTypePointer Workgroup %uint\n%v = OpVariable %p Workgroup\n%u0 = OpConstant %uint 0";
  EXPECT_CLEAN(testing::ValidateText(Module("", "", shared, "OpStore %v %u0"), "vulkan1.3"));
  EXPECT_RULE_AT(testing::ValidateText(Module("", "", shared, "OpStore %v %u0", "Fragment",
                                              "OpExecutionMode %main OriginUpperLeft"),
                                       "vulkan1.0"),
                 "vulkan.storage-class-model", "OpStore", "VUID-StandaloneSpirv-None-04645");
}

// Vulkan declares the subgroup built-ins as variables ("the variable decorated with ...").
TEST(VulkanBuiltIns, SubgroupBuiltInsAreNotMembers) {
  for (const char* built_in : {"SubgroupId", "SubgroupSize", "SubgroupLeMask"}) {
    const std::string type = std::string(built_in) == "SubgroupLeMask" ? "%v4uint" : "%uint";
    const std::string text = Module(
        kBallot, std::string("OpMemberDecorate %S 0 BuiltIn ") + built_in + "\nOpDecorate %S Block",
        "%S = OpTypeStruct " + type + "\n" + Input("%S"));
    EXPECT_RULE_AT(testing::ValidateText(text, "vulkan1.3"), "vulkan.builtin-member", built_in,
                   "member 0");
    EXPECT_CLEAN(testing::ValidateText(text, "spv1.6"));
  }
}

// SPIR-V 3.20 BuiltIn, VUID-WorkgroupSize-WorkgroupSize-04426: WorkgroupSize decorates a
// constant in a shader; every other built-in decorates a variable.
TEST(VulkanBuiltIns, DecorationTarget) {
  // Constants are no interface variables: %main lists none.
  const auto no_interface = [](const std::string& text) {
    return testing::Mutate(text, "OpEntryPoint GLCompute %main \"main\" %v",
                           "OpEntryPoint GLCompute %main \"main\"");
  };
  const std::string constant =
      "%u1 = OpConstant %uint 1\n%v = OpConstantComposite %v3uint %u1 %u1 %u1";
  const std::string wgs = no_interface(Module("", "OpDecorate %v BuiltIn WorkgroupSize", constant));
  EXPECT_CLEAN(testing::ValidateText(wgs, "vulkan1.3"));
  const std::string variable = Module("", "OpDecorate %v BuiltIn WorkgroupSize", Input("%v3uint"));
  for (const char* env : {"vulkan1.3", "spv1.6"}) {
    EXPECT_RULE_AT(testing::ValidateText(variable, env), "decoration.target", "WorkgroupSize",
                   "constant");
  }
  const std::string constant_id =
      no_interface(Module("", "OpDecorate %v BuiltIn LocalInvocationId", constant));
  EXPECT_RULE_AT(testing::ValidateText(constant_id, "spv1.6"), "decoration.target",
                 "LocalInvocationId", "a variable");
  // WorkgroupSize of the wrong type, as a constant.
  const std::string wgs2 =
      no_interface(Module("", "OpDecorate %v BuiltIn WorkgroupSize",
                          "%u1 = OpConstant %uint 1\n%v = OpConstantComposite %v2uint %u1 %u1"));
  EXPECT_RULE_AT(testing::ValidateText(wgs2, "vulkan1.3"), "vulkan.builtin-type", "WorkgroupSize",
                 "VUID-WorkgroupSize-WorkgroupSize-04427");
}

}  // namespace
}  // namespace coopspv::val
