// Tests of the function rules (source/val/function.cc): the form of functions and blocks,
// function types, calls, returns, variables, merge instructions and branch targets.
#include <string>
#include <string_view>
#include <vector>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::ExpectOnly;
using testing::RuleAt;
using testing::RuleIds;
using testing::ValidateText;

// A shader with helper functions, calls, an if/else, a switch and a loop: every structure the
// function rules look at, in valid form.
constexpr std::string_view kStructuredShader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_LocalInvocationIndex
OpExecutionMode %main LocalSize 64 1 1
%file = OpString "shader.comp"
OpName %main "main"
OpName %clamp_add "clamp_add"
OpName %accumulate "accumulate"
OpDecorate %gl_LocalInvocationIndex BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%_ptr_Input_uint = OpTypePointer Input %uint
%gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input
%_ptr_Function_uint = OpTypePointer Function %uint
%fn_clamp_add = OpTypeFunction %uint %uint %uint
%fn_accumulate = OpTypeFunction %void %_ptr_Function_uint %uint
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%uint_100 = OpConstant %uint 100
%clamp_add = OpFunction %uint None %fn_clamp_add
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%ca_entry = OpLabel
%sum = OpIAdd %uint %a %b
%big = OpUGreaterThan %bool %sum %uint_100
%clamped = OpSelect %uint %big %uint_100 %sum
OpReturnValue %clamped
OpFunctionEnd
%accumulate = OpFunction %void None %fn_accumulate
%total = OpFunctionParameter %_ptr_Function_uint
%value = OpFunctionParameter %uint
%acc_entry = OpLabel
%old = OpLoad %uint %total
%new = OpFunctionCall %uint %clamp_add %old %value
OpStore %total %new
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpLine %file 10 3
%total_var = OpVariable %_ptr_Function_uint Function
OpLine %file 11 3
%i_var = OpVariable %_ptr_Function_uint Function
OpNoLine
%index = OpLoad %uint %gl_LocalInvocationIndex
OpStore %total_var %uint_0
%odd_bit = OpBitwiseAnd %uint %index %uint_1
%odd = OpIEqual %bool %odd_bit %uint_1
OpSelectionMerge %if_merge None
OpBranchConditional %odd %then %else
%then = OpLabel
%r1 = OpFunctionCall %void %accumulate %total_var %uint_1
OpBranch %if_merge
%else = OpLabel
%r2 = OpFunctionCall %void %accumulate %total_var %uint_2
OpBranch %if_merge
%if_merge = OpLabel
%lane = OpUMod %uint %index %uint_4
OpSelectionMerge %switch_merge None
OpSwitch %lane %default 0 %case0 1 %case1
%case0 = OpLabel
OpBranch %switch_merge
%case1 = OpLabel
OpBranch %switch_merge
%default = OpLabel
OpBranch %switch_merge
%switch_merge = OpLabel
OpStore %i_var %uint_0
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %continue None
OpBranch %body
%body = OpLabel
%i = OpLoad %uint %i_var
%more = OpULessThan %bool %i %uint_4
OpBranchConditional %more %work %exit
%work = OpLabel
%r3 = OpFunctionCall %void %accumulate %total_var %i
OpBranch %continue
%continue = OpLabel
%next = OpIAdd %uint %i %uint_1
OpStore %i_var %next
OpBranch %header
%exit = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(Function, StructuredShaderIsValid) { EXPECT_CLEAN(ValidateText(kStructuredShader)); }

// ---------------------------------------------------------------- function.structure

TEST(FunctionStructure, ImportedFunctionDeclarationHasNoBody) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %external_hash LinkageAttributes "external_hash" Import
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%fn_hash = OpTypeFunction %uint %uint
%uint_5 = OpConstant %uint 5
%external_hash = OpFunction %uint None %fn_hash
%key = OpFunctionParameter %uint
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%h = OpFunctionCall %uint %external_hash %uint_5
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(FunctionStructure, MissingFunctionEnd) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
)");
  EXPECT_RULE_AT(r, "function.structure", "%main = OpFunction %void None", "has no OpFunctionEnd");
  ExpectOnly(r, "function.structure");
}

TEST(FunctionStructure, BlockWithoutTerminatorBeforeTheNextLabel) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %second "second"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %uint %uint_1 %uint_1
%second = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.structure", "%second = OpLabel",
                 "starts a new block before the previous one ended with a terminator");
}

TEST(FunctionStructure, LastBlockWithoutTerminator) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %uint %uint_1 %uint_1
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.structure", "OpFunctionEnd",
                 "the last block of the function has no terminator");
  ExpectOnly(r, "function.structure");
}

TEST(FunctionStructure, InstructionAfterTheTerminator) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %dead "dead"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
%dead = OpIAdd %uint %uint_1 %uint_1
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.structure", "%dead = OpIAdd", "follows a block terminator");
  ExpectOnly(r, "function.structure");
}

// Only instructions the walk skips sit between the terminator and the next label here: each is
// reported, the OpLine among them is not, and the body that starts with an OpLine before a
// non-label instruction is reported once.
TEST(FunctionStructure, EveryInstructionBetweenBlocksIsReported) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "f.comp"
OpName %a "a"
OpName %b "b"
OpName %c "c"
OpName %d "d"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%helper = OpFunction %void None %fn
OpLine %file 1 1
%c = OpIAdd %uint %uint_1 %uint_1
%d = OpIAdd %uint %uint_1 %uint_1
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %next
%a = OpIAdd %uint %uint_1 %uint_1
OpLine %file 2 1
%b = OpIAdd %uint %uint_1 %uint_1
%next = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.structure", "%a = OpIAdd", "follows a block terminator");
  EXPECT_RULE_AT(r, "function.structure", "%b = OpIAdd", "follows a block terminator");
  EXPECT_RULE_AT(r, "function.structure", "%c = OpIAdd", "must be preceded by an OpLabel");
  EXPECT_FALSE(RuleAt(r, "function.structure", "%d = OpIAdd"));
  EXPECT_FALSE(RuleAt(r, "function.structure", "OpLine"));
  ExpectOnly(r, "function.structure");
}

TEST(FunctionStructure, ParameterAfterTheFirstLabel) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %late "late"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%fn_uint = OpTypeFunction %void %uint
%helper = OpFunction %void None %fn_uint
%h_entry = OpLabel
%late = OpFunctionParameter %uint
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.structure", "%late = OpFunctionParameter %uint",
                 "OpFunctionParameter after the function's first block");
}

TEST(FunctionStructure, BodyDoesNotStartWithALabel) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.structure", "OpReturn", "must be preceded by an OpLabel");
  ExpectOnly(r, "function.structure");
}

TEST(FunctionStructure, LabelOutsideAFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %stray "stray"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
%stray = OpLabel
)");
  EXPECT_RULE_AT(r, "function.structure", "%stray = OpLabel", "appears outside a function");
}

// BUG (gap): a function without blocks is a declaration, which SPIR-V only allows for imported
// functions (LinkageAttributes Import); spirv-val: "Function declaration (id 1) must have a
// LinkageAttributes decoration with the Import Linkage type." Here even the entry point has no
// body, and no rule of function.cc or layout.cc reports it.
TEST(FunctionStructure, EntryPointFunctionWithoutABody) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
OpFunctionEnd
)");
  EXPECT_FALSE(r.valid) << "an entry point without a body was accepted";
}

// ---------------------------------------------------------------- function.type

TEST(FunctionType, MatchingFunctionTypesAreValid) { EXPECT_CLEAN(ValidateText(kStructuredShader)); }

TEST(FunctionType, ReturnTypeDiffersFromTheFunctionType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %twice "twice"
OpName %fn_uint_uint "fn_uint_uint"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%fn_uint_uint = OpTypeFunction %uint %uint
%twice = OpFunction %float None %fn_uint_uint
%x = OpFunctionParameter %uint
%t_entry = OpLabel
%f = OpConvertUToF %float %x
%y = OpFAdd %float %f %f
OpReturnValue %y
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.type", "%twice = OpFunction %float None %fn_uint_uint",
                 "Result Type %float differs from the return type %uint");
  ExpectOnly(r, "function.type");
}

TEST(FunctionType, FewerParametersThanTheFunctionType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %add "add"
OpName %fn_add "fn_add"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%fn_add = OpTypeFunction %uint %uint %uint
%add = OpFunction %uint None %fn_add
%x = OpFunctionParameter %uint
%a_entry = OpLabel
OpReturnValue %x
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.type", "%add = OpFunction",
                 "has 1 OpFunctionParameter(s); its type %fn_add has 2");
  ExpectOnly(r, "function.type");
}

TEST(FunctionType, ParameterTypeDiffersFromTheFunctionType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %scale "scale"
OpName %factor "factor"
OpName %fn_scale "fn_scale"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%fn_scale = OpTypeFunction %float %float %float
%scale = OpFunction %float None %fn_scale
%x = OpFunctionParameter %float
%factor = OpFunctionParameter %uint
%s_entry = OpLabel
OpReturnValue %x
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.type", "%factor = OpFunctionParameter %uint",
                 "parameter 1 has type %uint but %fn_scale says %float");
  ExpectOnly(r, "function.type");
}

// BUG: function.cc (CheckFunctionTypes) skips an OpFunction whose Function Type is not an
// OpTypeFunction ("The id rules report it"), but ids.cc only asks for *a type* there, so a
// helper declared with a non-function type such as %uint passes every rule. spirv-val: "OpFunction
// Function Type <id> '4[%uint]' is not a function type."
TEST(FunctionType, FunctionTypeOperandIsNotAFunctionType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %helper "helper"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%helper = OpFunction %void None %uint
%h_entry = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_FALSE(r.valid) << "a function whose type is %uint was accepted";
  EXPECT_TRUE(RuleAt(r, "function.type", "%helper = OpFunction %void None %uint") ||
              RuleAt(r, "id.kind", "%helper = OpFunction %void None %uint"));
}

// ---------------------------------------------------------------- function.call

TEST(FunctionCall, MatchingCallIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %lerp "lerp"
OpName %result "result"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%fn_lerp = OpTypeFunction %float %float %float %float
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%float_0_5 = OpConstant %float 0.5
%lerp = OpFunction %float None %fn_lerp
%a = OpFunctionParameter %float
%b = OpFunctionParameter %float
%t = OpFunctionParameter %float
%l_entry = OpLabel
%d = OpFSub %float %b %a
%s = OpFMul %float %d %t
%r = OpFAdd %float %a %s
OpReturnValue %r
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%result = OpFunctionCall %float %lerp %float_0 %float_1 %float_0_5
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(FunctionCall, TooFewArguments) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %lerp "lerp"
OpName %result "result"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%fn_lerp = OpTypeFunction %float %float %float %float
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%lerp = OpFunction %float None %fn_lerp
%a = OpFunctionParameter %float
%b = OpFunctionParameter %float
%t = OpFunctionParameter %float
%l_entry = OpLabel
%d = OpFSub %float %b %a
%s = OpFMul %float %d %t
%r = OpFAdd %float %a %s
OpReturnValue %r
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%result = OpFunctionCall %float %lerp %float_0 %float_1
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.call", "%result = OpFunctionCall %float %lerp",
                 "passes 2 argument(s) to %lerp, which takes 3");
  ExpectOnly(r, "function.call");
}

TEST(FunctionCall, ArgumentOfTheWrongType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %lerp "lerp"
OpName %result "result"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%fn_lerp = OpTypeFunction %float %float %float %float
%uint_1 = OpConstant %uint 1
%float_0 = OpConstant %float 0
%float_0_5 = OpConstant %float 0.5
%lerp = OpFunction %float None %fn_lerp
%a = OpFunctionParameter %float
%b = OpFunctionParameter %float
%t = OpFunctionParameter %float
%l_entry = OpLabel
%d = OpFSub %float %b %a
%s = OpFMul %float %d %t
%r = OpFAdd %float %a %s
OpReturnValue %r
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%result = OpFunctionCall %float %lerp %float_0 %uint_1 %float_0_5
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.call", "%result = OpFunctionCall",
                 "argument 1 %uint_1 has type %uint, the parameter %float");
  ExpectOnly(r, "function.call");
}

TEST(FunctionCall, ResultTypeDiffersFromTheReturnType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %lerp "lerp"
OpName %result "result"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%fn_lerp = OpTypeFunction %float %float %float %float
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%float_0_5 = OpConstant %float 0.5
%lerp = OpFunction %float None %fn_lerp
%a = OpFunctionParameter %float
%b = OpFunctionParameter %float
%t = OpFunctionParameter %float
%l_entry = OpLabel
%d = OpFSub %float %b %a
%s = OpFMul %float %d %t
%r = OpFAdd %float %a %s
OpReturnValue %r
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%result = OpFunctionCall %uint %lerp %float_0 %float_1 %float_0_5
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.call", "%result = OpFunctionCall %uint %lerp",
                 "Result Type %uint is not the return type %float of %lerp");
  ExpectOnly(r, "function.call");
}

TEST(FunctionCall, MoreArgumentsThanTheLimit) {
  constexpr std::string_view kText = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %sum3 "sum3"
OpName %result "result"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%fn_sum3 = OpTypeFunction %uint %uint %uint %uint
%uint_1 = OpConstant %uint 1
%sum3 = OpFunction %uint None %fn_sum3
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%c = OpFunctionParameter %uint
%s_entry = OpLabel
%ab = OpIAdd %uint %a %b
%abc = OpIAdd %uint %ab %c
OpReturnValue %abc
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%result = OpFunctionCall %uint %sum3 %uint_1 %uint_1 %uint_1
OpReturn
OpFunctionEnd
)";
  Options options;
  options.max_function_args = 3;
  EXPECT_CLEAN(ValidateText(kText, options));
  options.max_function_args = 2;
  const Result r = ValidateText(kText, options);
  EXPECT_RULE_AT(r, "function.call", "%result = OpFunctionCall",
                 "passes 3 arguments; the limit is 2");
}

// ---------------------------------------------------------------- function.return

TEST(FunctionReturn, ReturnsMatchingTheirFunctionsAreValid) {
  EXPECT_CLEAN(ValidateText(kStructuredShader));
}

TEST(FunctionReturn, ReturnWithoutValueInANonVoidFunction) {
  constexpr std::string_view kText = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%fn_uint = OpTypeFunction %uint
%get = OpFunction %uint None %fn_uint
%g_entry = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  const Result r = ValidateText(kText);
  EXPECT_RULE_AT(r, "function.return", "OpReturn", "OpReturn in a function returning %uint");
  ASSERT_EQ(RuleIds(r), std::vector<std::string>{"function.return"}) << Dump(r);
  // It is the helper's OpReturn, not main's: the first of the two.
  std::vector<uint32_t> words;
  coopspv::Diagnostic d;
  ASSERT_TRUE(text::Assemble(kText, {}, &words, &d));
  std::vector<uint32_t> returns;
  for (size_t w = 5; w < words.size(); w += words[w] >> 16) {
    if ((words[w] & 0xFFFF) == static_cast<uint32_t>(spv::Op::Return)) returns.push_back(w);
  }
  ASSERT_EQ(returns.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].word_offset, returns[0]);
}

TEST(FunctionReturn, ReturnValueInAVoidFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturnValue %uint_0
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.return", "OpReturnValue %uint_0",
                 "OpReturnValue in a function returning void");
  ExpectOnly(r, "function.return");
}

TEST(FunctionReturn, ReturnValueOfTheWrongType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%fn_float = OpTypeFunction %float
%uint_3 = OpConstant %uint 3
%get = OpFunction %float None %fn_float
%g_entry = OpLabel
OpReturnValue %uint_3
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.return", "OpReturnValue %uint_3",
                 "%uint_3 has type %uint, the function returns %float");
  ExpectOnly(r, "function.return");
}

// ---------------------------------------------------------------- function.variable

TEST(FunctionVariable, VariablesAtTheTopOfTheFirstBlockAreValid) {
  // kStructuredShader has OpLine between its two Function variables.
  EXPECT_CLEAN(ValidateText(kStructuredShader));
}

TEST(FunctionVariable, VariableAfterAnotherInstruction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %late "late"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%early = OpVariable %_ptr_Function_uint Function
OpStore %early %uint_1
%late = OpVariable %_ptr_Function_uint Function
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.variable", "%late = OpVariable",
                 "Function-storage variables must come first in the function's first block");
  ExpectOnly(r, "function.variable");
}

TEST(FunctionVariable, VariableInTheSecondBlock) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %late "late"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %next
%next = OpLabel
%late = OpVariable %_ptr_Function_uint Function
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.variable", "%late = OpVariable", "must come first");
  ExpectOnly(r, "function.variable");
}

TEST(FunctionVariable, ModuleScopeVariableOfFunctionStorage) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %global "global"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
%global = OpVariable %_ptr_Function_uint Function
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.variable", "%global = OpVariable",
                 "a module-scope variable cannot have Function storage class");
  ExpectOnly(r, "function.variable");
}

TEST(FunctionVariable, StorageClassDiffersFromThePointerType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %x "x"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Private_uint = OpTypePointer Private %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %_ptr_Private_uint Function
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.variable", "%x = OpVariable %_ptr_Private_uint Function",
                 "its Storage Class differs from that of its pointer type %_ptr_Private_uint");
  ExpectOnly(r, "function.variable");
}

TEST(FunctionVariable, ResultTypeIsNotAPointer) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %x "x"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %uint Function
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.variable", "%x = OpVariable %uint Function",
                 "Result Type %uint is not a pointer type");
}

TEST(FunctionVariable, PrivateVariableInsideAFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %x "x"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Private_uint = OpTypePointer Private %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %_ptr_Private_uint Private
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "function.variable", "%x = OpVariable %_ptr_Private_uint Private",
                 "a variable inside a function must have Function storage class");
}

// ---------------------------------------------------------------- block.merge

TEST(BlockMerge, SelectionSwitchAndLoopMergesAreValid) {
  EXPECT_CLEAN(ValidateText(kStructuredShader));
}

TEST(BlockMerge, SelectionMergeFollowedByBranch) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "block.merge", "OpSelectionMerge",
                 "must be immediately followed by OpBranchConditional or OpSwitch");
  ExpectOnly(r, "block.merge");
}

TEST(BlockMerge, SelectionMergeNotImmediatelyBeforeTheBranch) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
%c = OpIEqual %bool %uint_1 %uint_1
OpBranchConditional %c %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "block.merge", "OpSelectionMerge", "must be immediately followed");
}

TEST(BlockMerge, LoopMergeFollowedBySwitch) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %continue None
OpSwitch %uint_0 %continue
%continue = OpLabel
OpBranch %header
%exit = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "block.merge", "OpLoopMerge",
                 "must be immediately followed by OpBranch or OpBranchConditional");
  ExpectOnly(r, "block.merge");
}

// ---------------------------------------------------------------- cfg.branch-target

TEST(CfgBranchTarget, BranchesWithinTheFunctionAreValid) {
  EXPECT_CLEAN(ValidateText(kStructuredShader));
}

constexpr std::string_view kCrossFunctionBranch = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %elsewhere "elsewhere"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%helper = OpFunction %void None %fn
%h_entry = OpLabel
OpBranch %elsewhere
%elsewhere = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %elsewhere
OpFunctionEnd
)";

TEST(CfgBranchTarget, OnlyTheBranchFromAnotherFunctionIsReported) {
  // The helper's own branch to %elsewhere is fine; only main's is reported.
  const Result r = ValidateText(kCrossFunctionBranch);
  ASSERT_EQ(RuleIds(r), std::vector<std::string>{"cfg.branch-target"}) << Dump(r);
  EXPECT_FALSE(r.valid);
}

TEST(CfgBranchTarget, BranchToALabelOfAnotherFunction) {
  const Result r = ValidateText(kCrossFunctionBranch);
  EXPECT_RULE_AT(r, "cfg.branch-target", "OpBranch %elsewhere",
                 "target %elsewhere is not a block of the same function");
  // The report is about main's branch, the second one in the module.
  const Diagnostic& d = r.diagnostics.at(0);
  EXPECT_EQ(d.opcode, static_cast<uint32_t>(spv::Op::Branch));
  std::vector<uint32_t> words;
  coopspv::Diagnostic ad;
  ASSERT_TRUE(text::Assemble(kCrossFunctionBranch, {}, &words, &ad));
  // The last instructions are: OpLabel (2 words), OpBranch (2 words), OpFunctionEnd (1 word).
  EXPECT_EQ(d.word_offset, words.size() - 3);
}

TEST(CfgBranchTarget, ConditionalBranchToAnotherFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %elsewhere "elsewhere"
OpName %merge "merge"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%helper = OpFunction %void None %fn
%elsewhere = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %merge %elsewhere
%merge = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "cfg.branch-target", "OpBranchConditional %true %merge %elsewhere",
                 "target %elsewhere");
  ExpectOnly(r, "cfg.branch-target");
}

TEST(CfgBranchTarget, MergeBlockInAnotherFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %elsewhere "elsewhere"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%helper = OpFunction %void None %fn
%elsewhere = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %elsewhere None
OpBranchConditional %true %then %done
%then = OpLabel
OpBranch %done
%done = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "cfg.branch-target", "OpSelectionMerge %elsewhere None", "target %elsewhere");
  ExpectOnly(r, "cfg.branch-target");
}

TEST(CfgBranchTarget, SwitchCaseInAnotherFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %elsewhere "elsewhere"
OpName %merge "merge"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%helper = OpFunction %void None %fn
%elsewhere = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %uint_1 %merge 1 %elsewhere
%merge = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "cfg.branch-target", "OpSwitch %uint_1 %merge 1 %elsewhere",
                 "target %elsewhere");
}

// SPIR-V 2.16.1, Logical addressing: pointer results of functions need variable pointers.
TEST(FunctionPointerReturn, OnlyStorageBufferOrWorkgroupWithVariablePointers) {
  const std::string text = R"(
OpCapability Shader
CAPABILITY
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ptr = OpTypePointer Workgroup %uint
%var = OpVariable %ptr Workgroup
%fnp = OpTypeFunction %ptr
%get = OpFunction %ptr None %fnp
%g = OpLabel
OpReturnValue %var
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpFunctionCall %ptr %get
OpReturn
OpFunctionEnd
)";
  auto with = [&](const char* capability) {
    std::string t = text;
    t.replace(t.find("CAPABILITY"), 10, capability);
    return testing::ValidateText(t);
  };
  EXPECT_CLEAN(with("OpCapability VariablePointers"));
  EXPECT_RULE_AT(with("OpCapability VariablePointersStorageBuffer"), "function.pointer-return",
                 "OpFunction", "Workgroup");
}

}  // namespace
}  // namespace coopspv::val
