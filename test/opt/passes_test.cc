// Each pass on small modules, checked with FileCheck directives on the disassembly; every
// output is validated by coopspv::Optimize.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "test/util/filecheck.h"
#include "test/util/pass_run.h"

namespace coopspv {
namespace {

using testing::PassRun;

PassRun Optimize(const std::string& assembly, const std::vector<PassRequest>& passes,
                 const std::string& env = "vulkan1.3") {
  return testing::RunPasses(assembly, passes, env);
}

constexpr const char* kPreamble = R"(
OpCapability Shader
OpCapability Int64
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
)";

std::string Module(const std::string& annotations, const std::string& globals,
                   const std::string& body = "") {
  return std::string(kPreamble) + annotations + R"(
%void = OpTypeVoid
%fnvoid = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
)" + globals +
         R"(
%main = OpFunction %void None %fnvoid
%entry = OpLabel
)" + body +
         R"(
OpReturn
OpFunctionEnd
)";
}

// ---- --set-spec-const-default-value

TEST(SetSpecConstDefaultValue, SetsIntegersFloatsAndBooleans) {
  const std::string m = Module(
      "OpName %a \"a\"\nOpName %b \"b\"\nOpName %c \"c\"\nOpName %d \"d\"\n"
      "OpDecorate %a SpecId 0\nOpDecorate %b SpecId 1\nOpDecorate %c SpecId 2\n"
      "OpDecorate %d SpecId 3\n",
      "%a = OpSpecConstant %uint 16\n%b = OpSpecConstant %ulong 1\n"
      "%c = OpSpecConstantTrue %bool\n%d = OpSpecConstant %float 1\n");
  const PassRun r =
      Optimize(m, {{"set-spec-const-default-value", "0:32 1:0x100000000 2:false 3:0.5"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %a = OpSpecConstant %uint 32
    CHECK-NEXT: %b = OpSpecConstant %ulong 4294967296
    CHECK-NEXT: %c = OpSpecConstantFalse %bool
    CHECK-NEXT: %d = OpSpecConstant %float 0.5
  )"));
}

// glslang decorates two constants with the SpecId of local_size_x_id: the LocalSizeId operand
// and the component of gl_WorkGroupSize. Setting only one made a lowered GEMM compute with a
// workgroup size of 1 in its tile arithmetic.
TEST(SetSpecConstDefaultValue, SetsEveryConstantWithTheSpecId) {
  const std::string m =
      Module("OpName %a \"a\"\nOpName %b \"b\"\nOpDecorate %a SpecId 0\nOpDecorate %b SpecId 0\n",
             "%a = OpSpecConstant %uint 1\n%b = OpSpecConstant %uint 1\n");
  const PassRun r = Optimize(m, {{"set-spec-const-default-value", "0:128"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %a = OpSpecConstant %uint 128
    CHECK-NEXT: %b = OpSpecConstant %uint 128
  )"));
}

TEST(SetSpecConstDefaultValue, RejectsUnknownIdsAndBadValues) {
  const std::string m = Module("OpDecorate %a SpecId 0\nOpDecorate %c SpecId 2\n",
                               "%a = OpSpecConstant %uint 16\n%c = OpSpecConstantTrue %bool\n");
  EXPECT_NE(Optimize(m, {{"set-spec-const-default-value", "7:1"}}).error.find("SpecId 7"),
            std::string::npos);
  EXPECT_NE(Optimize(m, {{"set-spec-const-default-value", "0:-1"}}).error.find("negative"),
            std::string::npos);
  EXPECT_NE(Optimize(m, {{"set-spec-const-default-value", "2:1"}}).error.find("true or false"),
            std::string::npos);
  EXPECT_NE(Optimize(m, {{"set-spec-const-default-value", "zero:1"}}).error.find("<spec id>"),
            std::string::npos);
}

// ---- --freeze-spec-const

TEST(FreezeSpecConst, TurnsSpecConstantsIntoConstants) {
  const std::string m = Module(
      "OpName %a \"a\"\nOpName %t \"t\"\nOpName %v \"v\"\nOpName %op \"op\"\n"
      "OpDecorate %a SpecId 0\nOpDecorate %t SpecId 1\n",
      "%v2uint = OpTypeVector %uint 2\n%a = OpSpecConstant %uint 16\n"
      "%t = OpSpecConstantTrue %bool\n%v = OpSpecConstantComposite %v2uint %a %a\n"
      "%op = OpSpecConstantOp %uint IAdd %a %uint_1\n");
  const PassRun r = Optimize(m, {{"freeze-spec-const", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK-NOT: SpecId
    CHECK: %a = OpConstant %uint 16
    CHECK-NEXT: %t = OpConstantTrue %bool
    CHECK-NEXT: %v = OpConstantComposite %v2uint %a %a
    CHECK-NEXT: %op = OpSpecConstantOp %uint IAdd %a %uint_1
  )"));
}

// ---- --fold-spec-const

TEST(FoldSpecConst, FoldsChainsOfIntegerOperations) {
  const std::string m = Module(
      "OpName %m \"m\"\nOpName %half \"half\"\nOpName %big \"big\"\nOpName %neg \"neg\"\n"
      "OpName %div0 \"div0\"\n",
      "%m = OpSpecConstantOp %uint IMul %uint_16 %uint_3\n"
      "%half = OpSpecConstantOp %uint UDiv %m %uint_2\n"
      "%big = OpSpecConstantOp %bool UGreaterThan %half %uint_16\n"
      "%int_m5 = OpConstant %int -5\n%int_2 = OpConstant %int 2\n"
      "%neg = OpSpecConstantOp %int SDiv %int_m5 %int_2\n"
      "%div0 = OpSpecConstantOp %uint UDiv %m %uint_0\n");
  const PassRun r = Optimize(m, {{"fold-spec-const", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %m = OpConstant %uint 48
    CHECK-NEXT: %half = OpConstant %uint 24
    CHECK-NEXT: %big = OpConstantTrue %bool
    CHECK: %neg = OpConstant %int -2
    CHECK-NEXT: %div0 = OpSpecConstantOp %uint UDiv %m %uint_0
  )"));
}

TEST(FoldSpecConst, SelectAndCompositeExtractBecomeTheChosenId) {
  const std::string m = Module("OpName %s \"s\"\nOpName %x \"x\"\nOpName %user \"user\"\n",
                               "%v2uint = OpTypeVector %uint 2\n%true = OpConstantTrue %bool\n"
                               "%vec = OpConstantComposite %v2uint %uint_2 %uint_3\n"
                               "%x = OpSpecConstantOp %uint CompositeExtract %vec 1\n"
                               "%s = OpSpecConstantOp %uint Select %true %x %uint_0\n"
                               "%user = OpSpecConstantOp %uint IAdd %s %uint_1\n");
  const PassRun r = Optimize(m, {{"fold-spec-const", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK-NOT: CompositeExtract
    CHECK-NOT: Select
    CHECK: %user = OpConstant %uint 4
  )"));
}

TEST(FoldSpecConst, MergesMatrixTypesWhoseDimensionsFoldToTheSameValue) {
  // Two spec-constant expressions that both fold to 16 make two matrix types one.
  const std::string m = Module(
      "OpName %r1 \"r1\"\nOpName %r2 \"r2\"\nOpName %m1 \"m1\"\nOpName %m2 \"m2\"\n",
      "%uint_8 = OpConstant %uint 8\n"
      "%r1 = OpSpecConstantOp %uint IMul %uint_8 %uint_2\n"
      "%r2 = OpSpecConstantOp %uint IAdd %uint_8 %uint_8\n"
      "%m1 = OpTypeCooperativeMatrixKHR %float %uint_3 %r1 %uint_16 %uint_2\n"
      "%m2 = OpTypeCooperativeMatrixKHR %float %uint_3 %r2 %uint_16 %uint_2\n"
      "%_ptr_Function_m1 = OpTypePointer Function %m1\n"
      "%_ptr_Function_m2 = OpTypePointer Function %m2\n",
      "%v1 = OpVariable %_ptr_Function_m1 Function\n%v2 = OpVariable %_ptr_Function_m2 Function\n"
      "%l1 = OpLoad %m1 %v1\nOpStore %v1 %l1\n%l2 = OpLoad %m2 %v2\nOpStore %v2 %l2\n");
  const PassRun r = Optimize(m, {{"fold-spec-const", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK-NOT: %r2 =
    CHECK: %m1 = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2
    CHECK-NOT: OpTypeCooperativeMatrixKHR
    CHECK: OpStore
  )"));
}

TEST(FoldSpecConst, LeavesSpecConstantsThatAreNotConstantYet) {
  const std::string m = Module("OpDecorate %s SpecId 0\n",
                               "%s = OpSpecConstant %uint 4\n"
                               "%op = OpSpecConstantOp %uint IAdd %s %uint_1\n");
  const PassRun r = Optimize(m, {{"fold-spec-const", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, "CHECK: OpSpecConstantOp %uint IAdd"));
}

// A frozen spec constant used as an OpSwitch selector merges into an equal constant: the switch
// keeps its selector (and with it the width of its literals). Found on ggml's flash attention.
TEST(FoldSpecConst, MergedSwitchSelectorKeepsItsType) {
  const std::string m = Module("OpDecorate %sel SpecId 0\n", "%sel = OpSpecConstant %uint 3\n",
                               R"(OpSelectionMerge %merge None
OpSwitch %sel %merge 0 %a 3 %b
%a = OpLabel
OpBranch %merge
%b = OpLabel
OpBranch %merge
%merge = OpLabel
)");
  const PassRun r = Optimize(m, {{"freeze-spec-const", ""}, {"fold-spec-const", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %uint_3 = OpConstant %uint 3
    CHECK-NOT: OpConstant %uint 3
    CHECK: OpSwitch %uint_3 %
  )"));
}

// ---- --fold-coop-length

TEST(FoldCoopLength, SubgroupScopeDividesBySubgroupSize) {
  const std::string m =
      Module("OpName %var \"var\"\n",
             "%mat = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2\n"
             "%_ptr_Function_uint = OpTypePointer Function %uint\n",
             "%var = OpVariable %_ptr_Function_uint Function\n"
             "%len = OpCooperativeMatrixLengthKHR %uint %mat\nOpStore %var %len\n");
  const PassRun r = Optimize(m, {{"fold-coop-length", "32"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %uint_8 = OpConstant %uint 8
    CHECK-NOT: OpCooperativeMatrixLengthKHR
    CHECK: OpStore %var %uint_8
  )"));
  // 256 elements over 48 invocations: ceil(256 / 48) = 6.
  const PassRun r48 = Optimize(m, {{"fold-coop-length", "48"}});
  ASSERT_TRUE(r48.ok) << r48.error;
  EXPECT_TRUE(testing::FileCheck(r48.text, "CHECK: OpConstant %uint 6"));
}

// With ",tile", the lengths --lower-coop-matrix=<S>,tile gives (coop_matrix_distribution.h): at
// S = 32 (an 8 x 4 grid) a 16 x 16 MatrixA holds 2 whole rows per invocation, a MatrixB 4 whole
// columns; without, 256 / 32 each.
TEST(FoldCoopLength, TileFollowsTheLoweringsDistributionPerUse) {
  const std::string m =
      Module("OpName %va \"va\"\nOpName %vb \"vb\"\n",
             "%mat_a = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_0\n"
             "%mat_b = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_1\n"
             "%_ptr_Function_uint = OpTypePointer Function %uint\n",
             "%va = OpVariable %_ptr_Function_uint Function\n"
             "%vb = OpVariable %_ptr_Function_uint Function\n"
             "%la = OpCooperativeMatrixLengthKHR %uint %mat_a\nOpStore %va %la\n"
             "%lb = OpCooperativeMatrixLengthKHR %uint %mat_b\nOpStore %vb %lb\n");
  const PassRun r = Optimize(m, {{"fold-coop-length", "32,tile"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpStore %va %uint_32
    CHECK: OpStore %vb %uint_64
  )")) << r.text;
  const PassRun linear = Optimize(m, {{"fold-coop-length", "32"}});
  ASSERT_TRUE(linear.ok) << linear.error;
  EXPECT_TRUE(testing::FileCheck(linear.text, R"(
    CHECK: OpStore %va %uint_8
    CHECK: OpStore %vb %uint_8
  )")) << linear.text;
  EXPECT_NE(Optimize(m, {{"fold-coop-length", "32,square"}}).error.find("'tile' or 'linear'"),
            std::string::npos);
  const PassRun lowered = Optimize(m, {{"lower-coop-matrix", "32,tile"}});
  ASSERT_TRUE(lowered.ok) << lowered.error;
  EXPECT_TRUE(testing::FileCheck(lowered.text, R"(
    CHECK: = OpCopyObject %uint %uint_32
    CHECK: = OpCopyObject %uint %uint_64
  )")) << lowered.text;
}

TEST(FoldCoopLength, WorkgroupScopeUsesTheLocalSize) {
  const std::string m =
      Module("OpName %var \"var\"\n",
             "%mat = OpTypeCooperativeMatrixKHR %float %uint_2 %uint_16 %uint_16 %uint_2\n"
             "%_ptr_Function_uint = OpTypePointer Function %uint\n",
             "%var = OpVariable %_ptr_Function_uint Function\n"
             "%len = OpCooperativeMatrixLengthKHR %uint %mat\nOpStore %var %len\n");
  const PassRun r = Optimize(m, {{"fold-coop-length", "32"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, "CHECK: OpStore %var %uint_4"));  // 256 / 64.
}

// A WorkgroupSize built-in overrides LocalSize (SPIR-V 3.2.2, BuiltIn WorkgroupSize); LocalSizeId
// gives the size by ids; a spec-constant size is not known before specialization.
TEST(FoldCoopLength, WorkgroupScopeTakesTheWorkgroupSizeBuiltInOverLocalSize) {
  std::string m =
      Module("OpName %var \"var\"\nOpDecorate %wgs BuiltIn WorkgroupSize\n",
             "%v3uint = OpTypeVector %uint 3\n%uint_128 = OpConstant %uint 128\n"
             "%wgs = OpConstantComposite %v3uint %uint_128 %uint_1 %uint_1\n"
             "%mat = OpTypeCooperativeMatrixKHR %float %uint_2 %uint_16 %uint_16 %uint_2\n"
             "%_ptr_Function_uint = OpTypePointer Function %uint\n",
             "%var = OpVariable %_ptr_Function_uint Function\n"
             "%len = OpCooperativeMatrixLengthKHR %uint %mat\nOpStore %var %len\n");
  const PassRun r = Optimize(m, {{"fold-coop-length", "32"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, "CHECK: OpStore %var %uint_2"));  // 256 / 128.

  const std::string spec = std::string(m).replace(m.find("%wgs = OpConstantComposite"),
                                                  std::string("%wgs = OpConstantComposite").size(),
                                                  "%wgs = OpSpecConstantComposite");
  std::string specialized = spec;
  specialized.replace(specialized.find("%uint_128 = OpConstant"),
                      std::string("%uint_128 = OpConstant").size(), "%uint_128 = OpSpecConstant");
  specialized.insert(specialized.find("OpDecorate %wgs"), "OpDecorate %uint_128 SpecId 0\n");
  const PassRun unknown = Optimize(specialized, {{"fold-coop-length", "32"}});
  ASSERT_TRUE(unknown.ok) << unknown.error;
  EXPECT_TRUE(testing::FileCheck(unknown.text, "CHECK: OpCooperativeMatrixLengthKHR"));
}

TEST(FoldCoopLength, WorkgroupScopeReadsLocalSizeId) {
  std::string m =
      Module("OpName %var \"var\"\n",
             "%uint_32 = OpConstant %uint 32\n"
             "%mat = OpTypeCooperativeMatrixKHR %float %uint_2 %uint_16 %uint_16 %uint_2\n"
             "%_ptr_Function_uint = OpTypePointer Function %uint\n",
             "%var = OpVariable %_ptr_Function_uint Function\n"
             "%len = OpCooperativeMatrixLengthKHR %uint %mat\nOpStore %var %len\n");
  m.replace(m.find("OpExecutionMode %main LocalSize 64 1 1"),
            std::string("OpExecutionMode %main LocalSize 64 1 1").size(),
            "OpExecutionModeId %main LocalSizeId %uint_32 %uint_2 %uint_1");
  const PassRun r = Optimize(m, {{"fold-coop-length", "32"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, "CHECK: OpStore %var %uint_4"));  // 256 / 64.
}

TEST(FoldCoopLength, SpecConstantDimensionsAreLeftAlone) {
  const std::string m =
      Module("OpDecorate %rows SpecId 0\n",
             "%rows = OpSpecConstant %uint 16\n"
             "%mat = OpTypeCooperativeMatrixKHR %float %uint_3 %rows %uint_16 %uint_2\n"
             "%_ptr_Function_uint = OpTypePointer Function %uint\n",
             "%var = OpVariable %_ptr_Function_uint Function\n"
             "%len = OpCooperativeMatrixLengthKHR %uint %mat\nOpStore %var %len\n");
  const PassRun r = Optimize(m, {{"fold-coop-length", "32"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, "CHECK: OpCooperativeMatrixLengthKHR"));
  EXPECT_NE(Optimize(m, {{"fold-coop-length", "0"}}).error.find("subgroup size"),
            std::string::npos);
}

// ---- --eliminate-dead

TEST(EliminateDead, RemovesUnusedDeclarationsFunctionsAndVariables) {
  const std::string m = Module(
      "OpName %unused_fn \"unused_fn\"\nOpName %dead_var \"dead_var\"\n"
      "OpName %kept \"kept\"\nOpDecorate %dead_global RelaxedPrecision\n",
      "%unused_type = OpTypeVector %float 4\n%unused_const = OpConstant %float 2\n"
      "%_ptr_Private_uint = OpTypePointer Private %uint\n"
      "%dead_global = OpVariable %_ptr_Private_uint Private\n"
      "%kept = OpVariable %_ptr_Private_uint Private\n"
      "%_ptr_Function_uint = OpTypePointer Function %uint\n"
      "%unused_fn = OpFunction %void None %fnvoid\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
      "%dead_var = OpVariable %_ptr_Function_uint Function\nOpStore %kept %uint_1\n");
  // SPIR-V 1.4 and later list every global the entry point uses.
  std::string listed = m;
  const std::string entry = "OpEntryPoint GLCompute %main \"main\"";
  listed.insert(listed.find(entry) + entry.size(), " %kept");
  const PassRun r = Optimize(listed, {{"eliminate-dead", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK-NOT: unused_fn
    CHECK-NOT: dead_var
    CHECK-NOT: RelaxedPrecision
    CHECK-NOT: OpTypeVector
    CHECK-NOT: %float_2
    CHECK: OpName %kept "kept"
    CHECK: %kept = OpVariable %_ptr_Private_uint Private
    CHECK-NOT: OpTypePointer Function
    CHECK: OpStore %kept %uint_1
  )"));
}

// What a BuiltIn or a SpecId decorates has meaning without a use: the WorkgroupSize built-in sets
// the workgroup size over LocalSize, and the pipeline specializes by SpecId.
TEST(EliminateDead, KeepsBuiltInsAndSpecIdsThatNothingUses) {
  const std::string m = Module(
      "OpName %size_x \"size_x\"\nOpName %wgs \"wgs\"\nOpName %tile \"tile\"\n"
      "OpDecorate %size_x SpecId 7\nOpDecorate %wgs BuiltIn WorkgroupSize\n"
      "OpDecorate %tile SpecId 3\n",
      "%v3uint = OpTypeVector %uint 3\n%size_x = OpSpecConstant %uint 64\n"
      "%wgs = OpSpecConstantComposite %v3uint %size_x %uint_1 %uint_1\n"
      "%tile = OpSpecConstant %uint 16\n%unused = OpConstant %uint 77\n");
  const PassRun r = Optimize(m, {{"eliminate-dead", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpDecorate %size_x SpecId 7
    CHECK: OpDecorate %wgs BuiltIn WorkgroupSize
    CHECK: OpDecorate %tile SpecId 3
    CHECK: %size_x = OpSpecConstant %uint 64
    CHECK: %wgs = OpSpecConstantComposite %v3uint %size_x %uint_1 %uint_1
    CHECK: %tile = OpSpecConstant %uint 16
  )")) << r.text;
  EXPECT_EQ(r.text.find("OpConstant %uint 77"), std::string::npos) << r.text;
}

// ---- --compact-ids

TEST(CompactIds, RenumbersDenselyAndIsIdempotent) {
  const std::string m = "; Bound: 1000\n" + Module("", "%unused = OpConstant %uint 77\n");
  const PassRun once = Optimize(m, {{"eliminate-dead", ""}, {"compact-ids", ""}});
  ASSERT_TRUE(once.ok) << once.error;
  std::vector<uint32_t> words;
  Problem p;
  ASSERT_TRUE(Assemble(once.text, {}, &words, &p));
  OptimizerOptions options;
  options.passes = {{"compact-ids", ""}};
  OptimizeResult result;
  ASSERT_TRUE(coopspv::Optimize(words, options, &result, &p)) << p.message;
  EXPECT_EQ(result.words, words);  // Already dense: unchanged.
  EXPECT_EQ(result.passes[0].status, "unchanged");
  EXPECT_LT(words[3], 30u);  // The bound shrank from 1000.
}

// ---- Pass manager and options.

TEST(Optimize, RejectsUnknownPassesAndArguments) {
  std::vector<uint32_t> words;
  Problem p;
  ASSERT_TRUE(Assemble(Module("", ""), {}, &words, &p));
  OptimizeResult result;
  OptimizerOptions options;
  options.passes = {{"no-such-pass", ""}};
  EXPECT_FALSE(coopspv::Optimize(words, options, &result, &p));
  EXPECT_NE(p.message.find("unknown pass"), std::string::npos);
  options.passes = {{"compact-ids", "7"}};
  EXPECT_FALSE(coopspv::Optimize(words, options, &result, &p));
  options.passes = {{"fold-coop-length", ""}};
  EXPECT_FALSE(coopspv::Optimize(words, options, &result, &p));
  EXPECT_NE(p.message.find("needs an argument"), std::string::npos);
}

TEST(Optimize, RefusesAnInvalidInput) {
  std::vector<uint32_t> words;
  Problem p;
  ASSERT_TRUE(Assemble(Module("", "", "%bad = OpIAdd %uint %uint_1 %undefined\n"), {}, &words, &p));
  OptimizeResult result;
  OptimizerOptions options;
  options.passes = {{"compact-ids", ""}};
  EXPECT_FALSE(coopspv::Optimize(words, options, &result, &p));
  EXPECT_NE(p.message.find("input module is invalid"), std::string::npos);
  EXPECT_FALSE(result.validation.valid);
}

// A module valid for the values an application specializes may be invalid for the defaults;
// the failure says that freezing made it so.
TEST(Optimize, InvalidAfterFreezingSaysSo) {
  std::vector<uint32_t> words;
  Problem p;
  ASSERT_TRUE(Assemble(Module("OpDecorate %n SpecId 0\n",
                              "%n = OpSpecConstant %uint 0\n"
                              "%arr = OpTypeArray %uint %n\n"
                              "%_ptr_Function_arr = OpTypePointer Function %arr\n",
                              "%v = OpVariable %_ptr_Function_arr Function\n"),
                       {}, &words, &p))
      << p.ToString();
  OptimizeResult result;
  OptimizerOptions options;
  options.target_env = "vulkan1.3";
  options.passes = {{"freeze-spec-const", ""}, {"fold-spec-const", ""}};
  EXPECT_FALSE(coopspv::Optimize(words, options, &result, &p));
  EXPECT_NE(p.message.find("--freeze-spec-const gave every specialization constant its default"),
            std::string::npos)
      << p.message;
  EXPECT_NE(p.message.find("an array length folds to 0"), std::string::npos) << p.message;
}

}  // namespace
}  // namespace coopspv
