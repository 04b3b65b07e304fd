// Tests of the layout rules (source/val/layout.cc): the header version against the target
// environment, the logical layout, the memory model, entry points, extensions and execution
// modes.
#include <string>
#include <string_view>
#include <vector>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::RuleAt;
using testing::RuleIds;
using testing::ValidateText;

// Passes when some diagnostic of `rule` is about the module as a whole and its message contains
// `text`.
::testing::AssertionResult ModuleRuleSays(const Result& r, std::string_view rule,
                                          std::string_view text) {
  for (const Diagnostic& d : r.diagnostics) {
    if (rule == d.rule->id && !d.has_instruction && d.message.find(text) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure()
         << "no module-level " << rule << " diagnostic saying '" << text << "'; got:\n"
         << Dump(r);
}

Options Env(std::string_view env) {
  Options options;
  options.env = *ParseTargetEnv(env);
  return options;
}

// Assembles `text` with header version `version` (whatever the environment).
std::vector<uint32_t> AssembleAt(std::string_view text, uint32_t version) {
  std::vector<uint32_t> words;
  coopspv::Diagnostic d;
  text::AssembleOptions options;
  options.version = version;
  EXPECT_TRUE(text::Assemble(text, options, &words, &d)) << d.ToString();
  return words;
}

// A complete compute shader that stores the invocation id into a storage buffer: valid up to
// SPIR-V 1.3.
constexpr std::string_view kComputeShader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
OpExecutionMode %main LocalSize 64 1 1
OpName %main "main"
OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
OpDecorate %_runtimearr_uint ArrayStride 4
OpDecorate %Buf BufferBlock
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
%_runtimearr_uint = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %_runtimearr_uint
%_ptr_Uniform_Buf = OpTypePointer Uniform %Buf
%buf = OpVariable %_ptr_Uniform_Buf Uniform
%_ptr_Uniform_uint = OpTypePointer Uniform %uint
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%main = OpFunction %void None %fn
%entry = OpLabel
%gid = OpLoad %v3uint %gl_GlobalInvocationID
%x = OpCompositeExtract %uint %gid 0
%slot = OpAccessChain %_ptr_Uniform_uint %buf %int_0 %x
OpStore %slot %x
OpReturn
OpFunctionEnd
)";

// A compute shader whose interface lists a Private variable: valid from SPIR-V 1.4 on.
constexpr std::string_view kPrivateInterface = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID %counter
OpExecutionMode %main LocalSize 1 1 1
OpName %counter "counter"
OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
%_ptr_Private_uint = OpTypePointer Private %uint
%counter = OpVariable %_ptr_Private_uint Private
%main = OpFunction %void None %fn
%entry = OpLabel
%gid = OpLoad %v3uint %gl_GlobalInvocationID
%x = OpCompositeExtract %uint %gid 0
OpStore %counter %x
OpReturn
OpFunctionEnd
)";

// ---------------------------------------------------------------- layout.version

TEST(LayoutVersion, ComputeShaderIsValidInEveryEnvironmentOfItsVersion) {
  // ValidateText assembles for the environment's highest SPIR-V version. (From SPIR-V 1.4 on,
  // the storage buffer would have to be listed in the interface as well.)
  for (const char* env : {"spv1.0", "spv1.1", "spv1.2", "spv1.3", "vulkan1.0", "vulkan1.1"}) {
    SCOPED_TRACE(env);
    EXPECT_CLEAN(ValidateText(kComputeShader, env));
  }
}

TEST(LayoutVersion, Spirv13ModuleIsValidForVulkan11) {
  const auto words = AssembleAt(kComputeShader, SpirvVersion(1, 3));
  EXPECT_CLEAN(Validate(words, Env("vulkan1.1")));
}

TEST(LayoutVersion, OlderModuleIsValidForNewerEnvironment) {
  const auto words = AssembleAt(kComputeShader, SpirvVersion(1, 0));
  EXPECT_CLEAN(Validate(words, Env("vulkan1.3")));
}

TEST(LayoutVersion, Spirv16ModuleIsTooNewForVulkan12) {
  const auto words = AssembleAt(kComputeShader, SpirvVersion(1, 6));
  const Result r = Validate(words, Env("vulkan1.2"));
  EXPECT_FALSE(r.valid);
  EXPECT_RULE(r, "layout.version");
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "1.6"));
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "vulkan1.2"));
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "at most SPIR-V 1.5"));
}

TEST(LayoutVersion, Spirv14ModuleIsTooNewForVulkan11) {
  const auto words = AssembleAt(kPrivateInterface, SpirvVersion(1, 4));
  const Result r = Validate(words, Env("vulkan1.1"));
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "at most SPIR-V 1.3"));
  // vulkan1.1spv1.4 takes it.
  EXPECT_CLEAN(Validate(words, Env("vulkan1.1spv1.4")));
}

// BUG: the message names the environment with TargetEnv::Name() (source/common/target_env.cc),
// which drops the "spv1.4" of "vulkan1.1spv1.4": it says "target environment vulkan1.1 allows at
// most SPIR-V 1.4", but vulkan1.1 allows only 1.3.
TEST(LayoutVersion, MessageNamesTheEnvironmentAsGiven) {
  const auto words = AssembleAt(kPrivateInterface, SpirvVersion(1, 5));
  const Result r = Validate(words, Env("vulkan1.1spv1.4"));
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "vulkan1.1spv1.4"));
}

TEST(LayoutVersion, HeaderVersion20IsNotASpirvVersion) {
  auto words = AssembleAt(kComputeShader, SpirvVersion(1, 6));
  ASSERT_GT(words.size(), 5u);
  words[1] = 0x00020000;
  const Result r = Validate(words, Env("spv1.6"));
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"layout.version"}) << Dump(r);
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "0x00020000"));
}

TEST(LayoutVersion, HeaderVersion17IsNotASpirvVersion) {
  auto words = AssembleAt(kComputeShader, SpirvVersion(1, 6));
  words[1] = 0x00010700;
  const Result r = Validate(words, Env("spv1.6"));
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "is not a SPIR-V version"));
}

TEST(LayoutVersion, HeaderVersionWithReservedBytesSetIsNotASpirvVersion) {
  auto words = AssembleAt(kComputeShader, SpirvVersion(1, 3));
  words[1] = 0x00010301;  // The low byte is reserved (0).
  Result r = Validate(words, Env("spv1.6"));
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "0x00010301"));
  words[1] = 0x01010300;  // So is the high byte.
  r = Validate(words, Env("spv1.6"));
  EXPECT_TRUE(ModuleRuleSays(r, "layout.version", "0x01010300"));
}

// ---------------------------------------------------------------- layout.order

TEST(LayoutOrder, DebugLineInformationInTypesAndFunctionsIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "shader.comp"
OpSource GLSL 450 %file
OpName %main "main"
OpName %total "total"
OpLine %file 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
OpNoLine
%uint_1 = OpConstant %uint 1
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
OpLine %file 3 1
%entry = OpLabel
OpLine %file 4 3
%total = OpVariable %_ptr_Function_uint Function
OpLine %file 5 3
OpStore %total %uint_1
OpNoLine
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(LayoutOrder, NonSemanticInstructionsAmongGlobalsAreInTheirSection) {
  // Debug information of the NonSemantic.Shader.DebugInfo.100 set, as glslang -gVS emits it:
  // its OpExtInst instructions may sit among the types.
  const Result r = ValidateText(R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "shader.comp"
%source = OpString "void main() {}"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%src = OpExtInst %void %dbg DebugSource %file %source
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_FALSE(testing::HasRule(r, "layout.order")) << Dump(r);
  EXPECT_FALSE(testing::HasRule(r, "id.forward-reference")) << Dump(r);
}

TEST(LayoutOrder, CapabilityAfterMemoryModel) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpCapability Int64
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "layout.order", "OpCapability Int64");
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"layout.order"}) << Dump(r);
}

TEST(LayoutOrder, ExtensionAfterExtInstImport) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "layout.order", "OpExtension \"SPV_KHR_storage_buffer_storage_class\"");
}

TEST(LayoutOrder, ExecutionModeBeforeEntryPoint) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpExecutionMode %main LocalSize 1 1 1
OpEntryPoint GLCompute %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "layout.order", "OpEntryPoint GLCompute");
}

TEST(LayoutOrder, NameAfterDecorate) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpName %gid "gid"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gid = OpVariable %_ptr_Input_v3uint Input
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  // (The disassembler names %gid after its BuiltIn decoration, which comes first.)
  EXPECT_RULE_AT(r, "layout.order", "\"gid\"");
  for (const Diagnostic& d : r.diagnostics) {
    if (std::string_view(d.rule->id) == "layout.order") {
      EXPECT_EQ(d.opcode, static_cast<uint32_t>(spv::Op::Name));
      EXPECT_NE(d.message.find("annotations"), std::string::npos) << d.message;
    }
  }
}

TEST(LayoutOrder, TypeDeclaredInsideAFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
%float = OpTypeFloat 32
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "layout.order", "OpTypeFloat 32");
  EXPECT_NE(Dump(r).find("may not appear inside a function"), std::string::npos) << Dump(r);
}

TEST(LayoutOrder, ConstantDeclaredInsideAFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %_ptr_Function_uint Function
%uint_7 = OpConstant %uint 7
OpStore %x %uint_7
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "layout.order", "OpConstant %uint 7");
}

TEST(LayoutOrder, ArithmeticAtModuleScope) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%two = OpIAdd %uint %uint_1 %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "layout.order", "OpIAdd %uint %uint_1 %uint_1");
  EXPECT_NE(Dump(r).find("may only appear inside a function"), std::string::npos) << Dump(r);
}

TEST(LayoutOrder, TypeAfterTheFunctions) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
%float = OpTypeFloat 32
)");
  EXPECT_RULE_AT(r, "layout.order", "OpTypeFloat 32");
  EXPECT_NE(Dump(r).find("must come before functions"), std::string::npos) << Dump(r);
}

TEST(LayoutOrder, InstructionBetweenFunctions) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%helper = OpFunction %void None %fn
%h_entry = OpLabel
OpReturn
OpFunctionEnd
%stray = OpIAdd %uint %uint_1 %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "layout.order", "OpIAdd");
  EXPECT_NE(Dump(r).find("appears between functions"), std::string::npos) << Dump(r);
}

// BUG: SPIR-V 2.4 makes the types section "the first section to allow use of OpLine and
// OpNoLine", so the function sections after it allow them too; spirv-val accepts OpLine between
// two functions. layout.cc reports "OpLine appears between functions".
TEST(LayoutOrder, DebugLineBetweenFunctionsIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "shader.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%helper = OpFunction %void None %fn
%h_entry = OpLabel
OpReturn
OpFunctionEnd
OpLine %file 8 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// BUG: SPIR-V 2.4 makes the types section the first to allow OpLine, so an OpLine among the
// debug instructions is out of place (spirv-val: "Name is in an invalid layout section" for the
// OpName after it). layout.cc skips OpLine / OpNoLine before the types section without checking
// or advancing the current section, so this module is accepted.
TEST(LayoutOrder, DebugLineBeforeTheTypesSection) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "shader.comp"
OpLine %file 1 1
OpName %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_FALSE(r.valid) << "OpLine before OpName was accepted";
  EXPECT_RULE(r, "layout.order");
}

// ---------------------------------------------------------------- layout.memory-model

TEST(LayoutMemoryModel, NoMemoryModel) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_FALSE(r.valid);
  EXPECT_RULE(r, "layout.memory-model");
  EXPECT_TRUE(ModuleRuleSays(r, "layout.memory-model", "no OpMemoryModel"));
}

TEST(LayoutMemoryModel, TwoMemoryModels) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"layout.memory-model"}) << Dump(r);
  EXPECT_TRUE(ModuleRuleSays(r, "layout.memory-model", "2 OpMemoryModel"));
}

TEST(LayoutMemoryModel, VulkanMemoryModelIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability VulkanMemoryModel
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// ---------------------------------------------------------------- layout.entry-point

TEST(LayoutEntryPoint, NoEntryPointWithoutLinkage) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"layout.entry-point"}) << Dump(r);
  EXPECT_TRUE(ModuleRuleSays(r, "layout.entry-point", "no OpEntryPoint"));
}

TEST(LayoutEntryPoint, LibraryWithLinkageNeedsNoEntryPoint) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpName %add_one "add_one"
OpDecorate %add_one LinkageAttributes "add_one" Export
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%fn = OpTypeFunction %uint %uint
%add_one = OpFunction %uint None %fn
%x = OpFunctionParameter %uint
%entry = OpLabel
%r = OpIAdd %uint %x %uint_1
OpReturnValue %r
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// ---------------------------------------------------------------- layout.extension-unknown

TEST(LayoutExtensionUnknown, KnownExtensionIsClean) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)",
                                "spv1.0");
  EXPECT_CLEAN(r);
}

TEST(LayoutExtensionUnknown, UnknownExtensionIsAWarning) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpExtension "SPV_ACME_imaginary_feature"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_TRUE(r.valid) << Dump(r);
  EXPECT_EQ(r.num_errors, 0u);
  EXPECT_EQ(r.num_warnings, 1u);
  ASSERT_EQ(RuleIds(r), std::vector<std::string>{"layout.extension-unknown"}) << Dump(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.severity, Severity::kWarning);
  EXPECT_EQ(d.opcode, static_cast<uint32_t>(spv::Op::Extension));
  EXPECT_NE(d.instruction_text.find("SPV_ACME_imaginary_feature"), std::string::npos);
  EXPECT_NE(d.message.find("SPV_ACME_imaginary_feature"), std::string::npos);
}

// BUG: "SPV_KHR_non_semantic_info" is a Khronos extension (glslang declares it for every module
// with -gV debug information; spirv-val accepts this module), but no grammar entry names it, so
// grammar::IsKnownExtension() is false and layout.cc warns layout.extension-unknown.
TEST(LayoutExtensionUnknown, NonSemanticInfoIsAKnownExtension) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// ---------------------------------------------------------------- entry-point.function

TEST(EntryPointFunction, KernelEntryPointMayTakeParameters) {
  const Result r = ValidateText(R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %scale "scale"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %uint
%scale = OpFunction %void None %fn
%data = OpFunctionParameter %_ptr_CrossWorkgroup_uint
%factor = OpFunctionParameter %uint
%entry = OpLabel
%x = OpLoad %uint %data Aligned 4
%y = OpIMul %uint %x %factor
OpStore %data %y Aligned 4
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(EntryPointFunction, EntryPointNamesAVariable) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %counter "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Private_uint = OpTypePointer Private %uint
%counter = OpVariable %_ptr_Private_uint Private
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "entry-point.function", "OpEntryPoint GLCompute");
  EXPECT_NE(Dump(r).find("is not an OpFunction"), std::string::npos) << Dump(r);
}

TEST(EntryPointFunction, ShaderEntryPointTakesParameters) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void %uint
%main = OpFunction %void None %fn
%n = OpFunctionParameter %uint
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "entry-point.function", "OpEntryPoint GLCompute");
  EXPECT_NE(Dump(r).find("takes parameters"), std::string::npos) << Dump(r);
}

TEST(EntryPointFunction, EntryPointReturnsAValue) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%fn = OpTypeFunction %uint
%main = OpFunction %uint None %fn
%entry = OpLabel
OpReturnValue %uint_0
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "entry-point.function", "OpEntryPoint GLCompute");
  EXPECT_NE(Dump(r).find("does not return void"), std::string::npos) << Dump(r);
}

TEST(EntryPointFunction, KernelEntryPointReturnsAValue) {
  const Result r = ValidateText(R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %k "k"
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %uint %uint
%k = OpFunction %uint None %fn
%x = OpFunctionParameter %uint
%entry = OpLabel
OpReturnValue %x
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "entry-point.function", "OpEntryPoint Kernel");
}

// ---------------------------------------------------------------- entry-point.interface

TEST(EntryPointInterface, InputVariableInSpirv13IsValid) {
  // kComputeShader lists only its Input variable, which every version allows.
  EXPECT_CLEAN(ValidateText(kComputeShader, "vulkan1.1"));
}

TEST(EntryPointInterface, PrivateVariableInSpirv14IsValid) {
  EXPECT_CLEAN(ValidateText(kPrivateInterface, "spv1.4"));
  EXPECT_CLEAN(ValidateText(kPrivateInterface, "vulkan1.3"));
}

TEST(EntryPointInterface, PrivateVariableInSpirv13) {
  const Result r = ValidateText(kPrivateInterface, "vulkan1.1");
  EXPECT_RULE_AT(r, "entry-point.interface", "OpEntryPoint GLCompute");
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"entry-point.interface"}) << Dump(r);
  EXPECT_NE(Dump(r).find("%counter"), std::string::npos) << Dump(r);
  EXPECT_NE(Dump(r).find("Input or Output"), std::string::npos) << Dump(r);
}

TEST(EntryPointInterface, InterfaceIsAConstant) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %uint_1
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "entry-point.interface", "OpEntryPoint GLCompute");
  EXPECT_NE(Dump(r).find("%uint_1 of entry point \"main\" is not a module-scope OpVariable"),
            std::string::npos)
      << Dump(r);
}

TEST(EntryPointInterface, InterfaceIsAFunctionVariable) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %local
OpExecutionMode %main LocalSize 1 1 1
OpName %local "local"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %_ptr_Function_uint Function
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "entry-point.interface", "\"main\" %local");
  EXPECT_NE(Dump(r).find("not a module-scope OpVariable"), std::string::npos) << Dump(r);
}

TEST(EntryPointInterface, InterfaceListedTwice) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID %gl_GlobalInvocationID
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "entry-point.interface", "OpEntryPoint GLCompute");
  EXPECT_NE(Dump(r).find("listed twice"), std::string::npos) << Dump(r);
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"entry-point.interface"}) << Dump(r);
}

// ---------------------------------------------------------------- entry-point.duplicate

TEST(EntryPointDuplicate, SameNameForDifferentExecutionModelsIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %cs "main"
OpEntryPoint Fragment %fs "main"
OpExecutionMode %cs LocalSize 8 8 1
OpExecutionMode %fs OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%cs = OpFunction %void None %fn
%cs_entry = OpLabel
OpReturn
OpFunctionEnd
%fs = OpFunction %void None %fn
%fs_entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(EntryPointDuplicate, OneFunctionUnderTwoNamesIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpEntryPoint GLCompute %main "main_alias"
OpExecutionMode %main LocalSize 8 8 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(EntryPointDuplicate, SameNameAndExecutionModel) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %first "main"
OpEntryPoint GLCompute %second "main"
OpExecutionMode %first LocalSize 1 1 1
OpExecutionMode %second LocalSize 1 1 1
OpName %first "first"
OpName %second "second"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%first = OpFunction %void None %fn
%first_entry = OpLabel
OpReturn
OpFunctionEnd
%second = OpFunction %void None %fn
%second_entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "entry-point.duplicate", "OpEntryPoint GLCompute %second \"main\"");
  EXPECT_FALSE(RuleAt(r, "entry-point.duplicate", "%first"));
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"entry-point.duplicate"}) << Dump(r);
}

// ---------------------------------------------------------------- execution-mode.target

TEST(ExecutionModeTarget, ExecutionModeIdOnTheEntryPointIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionModeId %main LocalSizeId %uint_64 %uint_1 %uint_1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_64 = OpConstant %uint 64
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(ExecutionModeTarget, ExecutionModeOnAHelperFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpExecutionMode %helper LocalSize 8 1 1
OpName %helper "helper"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%helper = OpFunction %void None %fn
%h_entry = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "execution-mode.target", "OpExecutionMode %helper LocalSize 8 1 1");
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"execution-mode.target"}) << Dump(r);
}

TEST(ExecutionModeTarget, ExecutionModeIdOnAConstant) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionModeId %uint_1 LocalSizeId %uint_1 %uint_1 %uint_1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "execution-mode.target", "OpExecutionModeId %uint_1 LocalSizeId");
}

}  // namespace
}  // namespace coopspv::val
