// Tests of the SSA rules (source/val/ssa.cc): every use of an id defined in a function is
// dominated by its definition, and OpPhi takes its values from the ends of its block's
// predecessors.
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

// ---------------------------------------------------------------- valid SSA

TEST(Ssa, LoopWithPhisIsValid) {
  // for (uint i = 0, sum = 0; i < n; ++i) sum += i;  with the loop state in OpPhis and a
  // separate continue block.
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_LocalInvocationIndex
OpExecutionMode %main LocalSize 64 1 1
OpName %sum_of "sum_of"
OpName %i "i"
OpName %sum "sum"
OpDecorate %gl_LocalInvocationIndex BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%fn_sum = OpTypeFunction %uint %uint
%_ptr_Input_uint = OpTypePointer Input %uint
%gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%sum_of = OpFunction %uint None %fn_sum
%n = OpFunctionParameter %uint
%entry = OpLabel
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %i_next %continue
%sum = OpPhi %uint %uint_0 %entry %sum_next %continue
%more = OpULessThan %bool %i %n
OpLoopMerge %exit %continue None
OpBranchConditional %more %body %exit
%body = OpLabel
%sum_next = OpIAdd %uint %sum %i
OpBranch %continue
%continue = OpLabel
%i_next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
OpReturnValue %sum
OpFunctionEnd
%main = OpFunction %void None %fn
%main_entry = OpLabel
%index = OpLoad %uint %gl_LocalInvocationIndex
%total = OpFunctionCall %uint %sum_of %index
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(Ssa, SingleBlockLoopWithPhiIsValid) {
  // The loop header is its own continue target: the phi's back-edge value is defined in the
  // phi's own block, which dominates its own end.
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_10 = OpConstant %uint 10
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %header
%next = OpIAdd %uint %i %uint_1
%done = OpUGreaterThanEqual %bool %next %uint_10
OpLoopMerge %exit %header None
OpBranchConditional %done %exit %header
%exit = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

// An if/else diamond that merges a value computed on each side with an OpPhi.
constexpr std::string_view kDiamond = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_LocalInvocationIndex
OpExecutionMode %main LocalSize 64 1 1
OpName %entry "entry"
OpName %then "then"
OpName %else "else"
OpName %merge "merge"
OpName %then_value "then_value"
OpName %else_value "else_value"
OpName %merged "merged"
OpDecorate %gl_LocalInvocationIndex BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%_ptr_Input_uint = OpTypePointer Input %uint
%gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input
%uint_1 = OpConstant %uint 1
%uint_32 = OpConstant %uint 32
%main = OpFunction %void None %fn
%entry = OpLabel
%index = OpLoad %uint %gl_LocalInvocationIndex
%low = OpULessThan %bool %index %uint_32
OpSelectionMerge %merge None
OpBranchConditional %low %then %else
%then = OpLabel
%then_value = OpIAdd %uint %index %uint_1
OpBranch %merge
%else = OpLabel
%else_value = OpISub %uint %index %uint_1
OpBranch %merge
%merge = OpLabel
%merged = OpPhi %uint %then_value %then %else_value %else
%twice = OpIAdd %uint %merged %merged
OpReturn
OpFunctionEnd
)";

TEST(Ssa, DiamondWithPhiIsValid) { EXPECT_CLEAN(ValidateText(kDiamond)); }

std::string Replace(std::string_view text, std::string_view from, std::string_view to) {
  std::string out(text);
  const size_t at = out.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) out.replace(at, from.size(), to);
  return out;
}

// ---------------------------------------------------------------- ssa.dominance

TEST(SsaDominance, UseBeforeDefinitionInTheSameBlock) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %early "early"
OpName %late "late"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%early = OpIAdd %uint %late %uint_1
%late = OpIAdd %uint %uint_1 %uint_1
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "ssa.dominance", "%early = OpIAdd %uint %late %uint_1",
                 "uses %late, whose definition does not dominate this use");
  ExpectOnly(r, "ssa.dominance");
}

TEST(SsaDominance, UseInASiblingBranch) {
  // The else side uses the value the then side computed.
  const Result r = ValidateText(Replace(kDiamond, "%else_value = OpISub %uint %index %uint_1",
                                        "%else_value = OpISub %uint %then_value %uint_1"));
  EXPECT_RULE_AT(r, "ssa.dominance", "%else_value = OpISub %uint %then_value",
                 "uses %then_value, whose definition does not dominate this use");
  ExpectOnly(r, "ssa.dominance");
}

TEST(SsaDominance, UseAfterTheMergeOfAValueFromOneSide) {
  const Result r = ValidateText(Replace(kDiamond, "%twice = OpIAdd %uint %merged %merged",
                                        "%twice = OpIAdd %uint %merged %then_value"));
  EXPECT_RULE_AT(r, "ssa.dominance", "OpIAdd %uint %merged %then_value",
                 "uses %then_value, whose definition does not dominate this use");
}

TEST(SsaDominance, UseOfAnotherFunctionsValue) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %helper_value "helper_value"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%helper = OpFunction %void None %fn
%h_entry = OpLabel
%helper_value = OpIAdd %uint %uint_1 %uint_1
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIMul %uint %helper_value %uint_1
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "ssa.dominance", "OpIMul %uint %helper_value %uint_1",
                 "uses %helper_value, which is defined in another function");
  ExpectOnly(r, "ssa.dominance");
}

TEST(SsaDominance, UseOfAnotherFunctionsParameter) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %param "param"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%fn_uint = OpTypeFunction %void %uint
%uint_1 = OpConstant %uint 1
%helper = OpFunction %void None %fn_uint
%param = OpFunctionParameter %uint
%h_entry = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %uint %param %uint_1
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "ssa.dominance", "OpIAdd %uint %param %uint_1",
                 "which is defined in another function");
}

// ---------------------------------------------------------------- ssa.phi

TEST(SsaPhi, PhiAfterAnotherInstruction) {
  const Result r = ValidateText(Replace(kDiamond, R"(%merge = OpLabel
%merged = OpPhi %uint %then_value %then %else_value %else
%twice = OpIAdd %uint %merged %merged)",
                                        R"(%merge = OpLabel
%one_more = OpIAdd %uint %uint_1 %uint_1
%merged = OpPhi %uint %then_value %then %else_value %else
%twice = OpIAdd %uint %merged %merged)"));
  EXPECT_RULE_AT(r, "ssa.phi", "%merged = OpPhi",
                 "must come before every other instruction of its block");
  ExpectOnly(r, "ssa.phi");
}

TEST(SsaPhi, FewerPairsThanPredecessors) {
  const Result r =
      ValidateText(Replace(kDiamond, "%merged = OpPhi %uint %then_value %then %else_value %else",
                           "%merged = OpPhi %uint %then_value %then"));
  EXPECT_RULE_AT(r, "ssa.phi", "%merged = OpPhi %uint %then_value %then",
                 "has 1 (value, parent) pairs; its block has 2 predecessor(s)");
  ExpectOnly(r, "ssa.phi");
}

TEST(SsaPhi, ValueWithoutItsParent) {
  // The assembler refuses an OpPhi with an odd operand count, so drop the last word (the parent
  // %else) from the binary. The reader reads (value, parent) pairs, so the module is malformed
  // before ssa.cc could report "an operand without its parent block".
  std::vector<uint32_t> words;
  coopspv::Diagnostic d;
  ASSERT_TRUE(text::Assemble(kDiamond, {}, &words, &d)) << d.ToString();
  size_t phi = 0;
  for (size_t w = 5; w < words.size(); w += words[w] >> 16) {
    if ((words[w] & 0xFFFF) == static_cast<uint32_t>(spv::Op::Phi)) phi = w;
  }
  ASSERT_NE(phi, 0u);
  const uint32_t count = words[phi] >> 16;
  ASSERT_EQ(count, 7u);  // OpPhi, type, result, 2 pairs.
  words.erase(words.begin() + phi + count - 1);
  words[phi] = ((count - 1) << 16) | static_cast<uint32_t>(spv::Op::Phi);
  const Result r = Validate(words, Options{});
  EXPECT_FALSE(r.valid);
  ASSERT_EQ(RuleIds(r), std::vector<std::string>{"binary.malformed"}) << Dump(r);
  EXPECT_EQ(r.diagnostics[0].word_offset, phi) << Dump(r);
}

TEST(SsaPhi, ParentIsNotAPredecessor) {
  // %entry is no predecessor of %merge: both of its branches go through %then or %else.
  const Result r =
      ValidateText(Replace(kDiamond, "%merged = OpPhi %uint %then_value %then %else_value %else",
                           "%merged = OpPhi %uint %then_value %then %index %entry"));
  EXPECT_RULE_AT(r, "ssa.phi", "%merged = OpPhi %uint %then_value %then",
                 "parent %entry is not a predecessor of its block");
  ExpectOnly(r, "ssa.phi");
}

// BUG: CheckPhi (source/val/ssa.cc) compares only the number of pairs with the number of
// predecessors and checks each parent is some predecessor, so a phi that names %then twice and
// %else never passes. spirv-val: "OpPhi references incoming basic block <id> multiple times."
TEST(SsaPhi, OnePredecessorTwiceAndAnotherNever) {
  const Result r =
      ValidateText(Replace(kDiamond, "%merged = OpPhi %uint %then_value %then %else_value %else",
                           "%merged = OpPhi %uint %then_value %then %then_value %then"));
  EXPECT_RULE_AT(r, "ssa.phi", "%merged = OpPhi", "");
}

TEST(SsaPhi, ValueOfTheWrongType) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %merged "merged"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%true = OpConstantTrue %bool
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%merged = OpPhi %uint %uint_1 %entry %float_1 %then
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "ssa.phi", "%merged = OpPhi %uint",
                 "value %float_1 has type %float, not the result type %uint");
  ExpectOnly(r, "ssa.phi");
}

TEST(SsaPhi, ValueDoesNotDominateTheEndOfItsParent) {
  // The values are swapped: each comes from the other side of the diamond.
  const Result r =
      ValidateText(Replace(kDiamond, "%merged = OpPhi %uint %then_value %then %else_value %else",
                           "%merged = OpPhi %uint %else_value %then %then_value %else"));
  EXPECT_RULE_AT(r, "ssa.phi", "%merged = OpPhi",
                 "value %else_value does not dominate the end of its parent");
  EXPECT_RULE_AT(r, "ssa.phi", "%merged = OpPhi",
                 "value %then_value does not dominate the end of its parent");
  ExpectOnly(r, "ssa.phi");
}

TEST(SsaPhi, ValueFromAnotherFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %helper_value "helper_value"
OpName %merged "merged"
OpName %entry "entry"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%helper = OpFunction %void None %fn
%h_entry = OpLabel
%helper_value = OpIAdd %uint %uint_1 %uint_1
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %next
%next = OpLabel
%merged = OpPhi %uint %helper_value %entry
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "ssa.dominance", "%merged = OpPhi %uint %helper_value %entry",
                 "which is defined in another function");
}

}  // namespace
}  // namespace coopspv::val
