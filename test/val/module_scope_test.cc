// Where instructions may stand and what they may name at module scope, beyond the core sections:
// debug information (non-semantic and DebugInfo sets), the untyped-pointer and vendor
// declarations, operands that name types outside type declarations, parameters with line
// information between them, repeated interface ids, and instructions a capability alone enables.
// Each case is a module SPIRV-Tools' validator accepts or rejects as stated (issue 27).
#include <string>
#include <string_view>
#include <vector>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::Replace;
using testing::ExpectOnly;
using testing::ValidateText;

// ---------------------------------------------------------------- debug information
constexpr std::string_view kTwoFunctions = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%none = OpExtInst %void %dbg DebugInfoNone
%helper = OpFunction %void None %fn
%h = OpLabel
OpReturn
OpFunctionEnd
BETWEEN
%main = OpFunction %void None %fn
%entry = OpLabel
%call = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
AFTER
)";

TEST(ModuleScope, NonSemanticInstructionsBetweenAndAfterFunctions) {
  std::string text(kTwoFunctions);
  text = Replace(text, "BETWEEN", "%between = OpExtInst %void %dbg DebugInfoNone");
  text = Replace(text, "AFTER", "%after = OpExtInst %void %dbg DebugInfoNone");
  EXPECT_CLEAN(ValidateText(text));
}

TEST(ModuleScope, SemanticExtendedInstructionsNotBetweenFunctions) {
  std::string text(kTwoFunctions);
  text = Replace(text, "%dbg = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"",
                 "%dbg = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n"
                 "%glsl = OpExtInstImport \"GLSL.std.450\"\n%float = OpTypeFloat 32");
  text = Replace(text, "%void = OpTypeVoid\n", "%void = OpTypeVoid\n%float_2 = OpConstant %float 2\n");
  text = Replace(text, "BETWEEN", "%root = OpExtInst %float %glsl Sqrt %float_2");
  text = Replace(text, "AFTER", "");
  const Result r = ValidateText(text);
  EXPECT_RULE_AT(r, "layout.order", "OpExtInst %float %2 Sqrt", "appears between functions");
}

// OpenCL.DebugInfo.100 instructions are debug instructions: among the declarations, naming
// strings and types, and a later OpFunction (DebugFunction).
TEST(ModuleScope, OpenClDebugInfoAmongTheDeclarationsNamesLaterFunctions) {
  const Result r = ValidateText(R"(
OpCapability Shader
%dbg = OpExtInstImport "OpenCL.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%name = OpString "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%src = OpExtInst %void %dbg DebugSource %file
%cu = OpExtInst %void %dbg DebugCompilationUnit 2 4 %src HLSL
%ty = OpExtInst %void %dbg DebugTypeFunction FlagIsPublic %void
%df = OpExtInst %void %dbg DebugFunction %name %ty %src 1 1 %cu %name FlagIsPublic 1 %main
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// ---------------------------------------------------------------- declarations
TEST(ModuleScope, UntypedVariablesAtModuleScopeNameTheirDataType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability UntypedPointersKHR
OpCapability WorkgroupMemoryExplicitLayoutKHR
OpExtension "SPV_KHR_untyped_pointers"
OpExtension "SPV_KHR_workgroup_memory_explicit_layout"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %var
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %block Block
OpMemberDecorate %block 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%block = OpTypeStruct %uint
%ptr = OpTypeUntypedPointerKHR Workgroup
%var = OpUntypedVariableKHR %ptr Workgroup %block
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)", "spv1.4");
  EXPECT_CLEAN(r);
}

// An operand that names a type outside a type declaration must name one.
TEST(ModuleScope, UntypedVariableDataTypeMustBeAType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability UntypedPointersKHR
OpExtension "SPV_KHR_untyped_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %var
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%ptr = OpTypeUntypedPointerKHR Private
%var = OpUntypedVariableKHR %ptr Private %uint_0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)", "spv1.4");
  EXPECT_RULE_AT(r, "id.kind", "OpUntypedVariableKHR", "must be a type");
}

// ---------------------------------------------------------------- functions
TEST(ModuleScope, LineInformationBetweenParameters) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%fn2 = OpTypeFunction %void %uint %float
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
%helper = OpFunction %void None %fn2
OpLine %file 1 1
%a = OpFunctionParameter %uint
OpNoLine
%b = OpFunctionParameter %float
%h = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%call = OpFunctionCall %void %helper %uint_1 %float_1
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// ---------------------------------------------------------------- entry points
constexpr std::string_view kRepeatedInterface = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %gid
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%pv3 = OpTypePointer Input %v3uint
%gid = OpVariable %pv3 Input
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %v3uint %gid
OpReturn
OpFunctionEnd
)";

TEST(ModuleScope, AnInterfaceIdMayRepeatBeforeSpirv14) {
  EXPECT_CLEAN(ValidateText(kRepeatedInterface, "spv1.3"));
}

TEST(ModuleScope, InterfaceIdsAreUniqueFromSpirv14) {
  const Result r = ValidateText(kRepeatedInterface, "spv1.4");
  EXPECT_RULE_AT(r, "entry-point.interface", "OpEntryPoint GLCompute", "listed twice");
}

// ---------------------------------------------------------------- capabilities
// An instruction the grammar gates by a capability is enabled by it, whatever version or
// extension brought the capability: OpDemoteToHelperInvocation (SPIR-V 1.6) in a 1.5 module
// that declares DemoteToHelperInvocation through SPV_EXT_demote_to_helper_invocation.
TEST(ModuleScope, ACapabilityEnablesItsInstructionInAnEarlierVersion) {
  const std::string text = R"(
OpCapability Shader
OpCapability DemoteToHelperInvocation
OpExtension "SPV_EXT_demote_to_helper_invocation"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpDemoteToHelperInvocation
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(ValidateText(text, "spv1.5"));
  const Result r = ValidateText(Replace(text, "OpCapability DemoteToHelperInvocation\n", ""),
                                "spv1.5");
  EXPECT_RULE_AT(r, "capability.instruction", "OpDemoteToHelperInvocation",
                 "DemoteToHelperInvocation");
}

// OpTerminateInvocation, which Shader enables, still needs its extension before SPIR-V 1.6.
TEST(ModuleScope, TerminateInvocationNeedsItsExtensionBeforeSpirv16) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpTerminateInvocation
OpFunctionEnd
)";
  const Result r = ValidateText(text, "spv1.5");
  EXPECT_RULE_AT(r, "capability.instruction", "OpTerminateInvocation",
                 "SPV_KHR_terminate_invocation");
  EXPECT_CLEAN(ValidateText(
      Replace(text, "OpMemoryModel", "OpExtension \"SPV_KHR_terminate_invocation\"\nOpMemoryModel"),
      "spv1.5"));
}

// gl_PerVertex names ClipDistance and CullDistance whether or not the shader writes them: naming
// them in a BuiltIn decoration needs no capability.
TEST(ModuleScope, NamingClipAndCullDistanceNeedsNoCapability) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %out
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpMemberDecorate %PerVertex 1 BuiltIn PointSize
OpMemberDecorate %PerVertex 2 BuiltIn ClipDistance
OpMemberDecorate %PerVertex 3 BuiltIn CullDistance
OpDecorate %PerVertex Block
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%arr = OpTypeArray %float %uint_1
%PerVertex = OpTypeStruct %v4float %float %arr %arr
%pout = OpTypePointer Output %PerVertex
%out = OpVariable %pout Output
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)", "vulkan1.1");
  EXPECT_CLEAN(r);
}

// ---------------------------------------------------------------- the id bound
// A header may declare any bound up to the limit the caller allows, 0xFFFFFFFF included, in a
// module of a few words: the tables indexed by id follow the ids the module holds, not the bound
// (this module made the validator allocate 16 GiB and abort).
TEST(ModuleScope, AHugeBoundInASmallModule) {
  std::vector<uint32_t> words;
  coopspv::Diagnostic d;
  ASSERT_TRUE(text::Assemble(std::string(testing::kShaderPreamble) + R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)", {}, &words, &d)) << d.ToString();
  words[3] = 0xFFFFFFFFu;
  Options options;
  options.max_id_bound = 0xFFFFFFFFu;
  EXPECT_CLEAN(Validate(words, options));
  options.max_id_bound = 0x3FFFFF;
  const Result r = Validate(words, options);
  EXPECT_TRUE(testing::HasRule(r, "binary.malformed")) << Dump(r);
}

// ---------------------------------------------------------------- extension versions
TEST(ModuleScope, TheVulkanMemoryModelExtensionNeedsSpirv13) {
  const std::string text = R"(
OpCapability Shader
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(ValidateText(text, "spv1.3"));
  const Result r = ValidateText(text, "spv1.2");
  EXPECT_RULE_AT(r, "layout.extension-version", "OpExtension \"SPV_KHR_vulkan_memory_model\"",
                 "requires SPIR-V 1.3");
}

// Node payload arrays (SPV_AMDX_shader_enqueue) are declared once per payload, like structs.
TEST(ModuleScope, NodePayloadArraysMayRepeat) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability ShaderEnqueueAMDX
OpExtension "SPV_AMDX_shader_enqueue"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%payload = OpTypeStruct %uint
%a = OpTypeNodePayloadArrayAMDX %payload
%b = OpTypeNodePayloadArrayAMDX %payload
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)", "spv1.4");
  EXPECT_FALSE(testing::HasRule(r, "type.unique")) << Dump(r);
  EXPECT_FALSE(testing::HasRule(r, "layout.order")) << Dump(r);
}

}  // namespace
}  // namespace coopspv::val
