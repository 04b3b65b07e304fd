// --tile-coop-matrix: per-instruction modules with matrices the H100 profile does not list
// (32 x 32 and the like); each output is validated (for vulkan1.3, after each pass) and then
// against the h100 device profile, and its matrix shapes must all be listed ones. The results
// are checked by running on lavapipe in test/run/tile_coop_matrix/.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "test/util/pass_run.h"

namespace coopspv {
namespace {

using testing::PassRun;

// A compute kernel with buffers %p_h (half), %p_f (float), %p_c (char) and %p_i (int), each an
// access chain to element 0, the matrix types below, and `body` in main.
std::string Module(const std::string& body, const std::string& globals = "",
                   const std::string& functions = "", const std::string& variables = "") {
  return R"(OpCapability Shader
OpCapability Float16
OpCapability Int8
OpCapability StorageBuffer8BitAccess
OpCapability StorageBuffer16BitAccess
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf_h %buf_f %buf_c %buf_i
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %rt_h ArrayStride 2
OpDecorate %rt_f ArrayStride 4
OpDecorate %rt_c ArrayStride 1
OpDecorate %rt_i ArrayStride 4
OpMemberDecorate %blk_h 0 Offset 0
OpMemberDecorate %blk_f 0 Offset 0
OpMemberDecorate %blk_c 0 Offset 0
OpMemberDecorate %blk_i 0 Offset 0
OpDecorate %blk_h Block
OpDecorate %blk_f Block
OpDecorate %blk_c Block
OpDecorate %blk_i Block
OpDecorate %buf_h DescriptorSet 0
OpDecorate %buf_h Binding 0
OpDecorate %buf_f DescriptorSet 0
OpDecorate %buf_f Binding 1
OpDecorate %buf_c DescriptorSet 0
OpDecorate %buf_c Binding 2
OpDecorate %buf_i DescriptorSet 0
OpDecorate %buf_i Binding 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%char = OpTypeInt 8 1
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%u_0 = OpConstant %uint 0
%u_1 = OpConstant %uint 1
%u_2 = OpConstant %uint 2
%u_3 = OpConstant %uint 3
%u_8 = OpConstant %uint 8
%u_16 = OpConstant %uint 16
%u_32 = OpConstant %uint 32
%u_64 = OpConstant %uint 64
%f_2 = OpConstant %float 2
%h_1 = OpConstant %half 1
%true = OpConstantTrue %bool
%a32 = OpTypeCooperativeMatrixKHR %half %u_3 %u_32 %u_32 %u_0
%b32 = OpTypeCooperativeMatrixKHR %half %u_3 %u_32 %u_32 %u_1
%c32 = OpTypeCooperativeMatrixKHR %float %u_3 %u_32 %u_32 %u_2
%h32 = OpTypeCooperativeMatrixKHR %half %u_3 %u_32 %u_32 %u_2
%ia = OpTypeCooperativeMatrixKHR %char %u_3 %u_32 %u_64 %u_0
%ib = OpTypeCooperativeMatrixKHR %char %u_3 %u_64 %u_32 %u_1
%ic = OpTypeCooperativeMatrixKHR %int %u_3 %u_32 %u_32 %u_2
%rt_h = OpTypeRuntimeArray %half
%rt_f = OpTypeRuntimeArray %float
%rt_c = OpTypeRuntimeArray %char
%rt_i = OpTypeRuntimeArray %int
%blk_h = OpTypeStruct %rt_h
%blk_f = OpTypeStruct %rt_f
%blk_c = OpTypeStruct %rt_c
%blk_i = OpTypeStruct %rt_i
%pb_h = OpTypePointer StorageBuffer %blk_h
%pb_f = OpTypePointer StorageBuffer %blk_f
%pb_c = OpTypePointer StorageBuffer %blk_c
%pb_i = OpTypePointer StorageBuffer %blk_i
%pe_h = OpTypePointer StorageBuffer %half
%pe_f = OpTypePointer StorageBuffer %float
%pe_c = OpTypePointer StorageBuffer %char
%pe_i = OpTypePointer StorageBuffer %int
%buf_h = OpVariable %pb_h StorageBuffer
%buf_f = OpVariable %pb_f StorageBuffer
%buf_c = OpVariable %pb_c StorageBuffer
%buf_i = OpVariable %pb_i StorageBuffer
)" + globals +
         R"(%main = OpFunction %void None %fn
%entry = OpLabel
)" + variables +
         R"(%p_h = OpAccessChain %pe_h %buf_h %u_0 %u_0
%p_f = OpAccessChain %pe_f %buf_f %u_0 %u_0
%p_c = OpAccessChain %pe_c %buf_c %u_0 %u_0
%p_i = OpAccessChain %pe_i %buf_i %u_0 %u_0
)" + body +
         "OpReturn\nOpFunctionEnd\n" + functions;
}

// The float multiply-add body: %d = A * B + C, 32 x 32 x 32, A row-major, B column-major.
const char kMulAdd[] =
    "%a = OpCooperativeMatrixLoadKHR %a32 %p_h %u_0 %u_32\n"
    "%b = OpCooperativeMatrixLoadKHR %b32 %p_h %u_1 %u_32\n"
    "%c = OpCooperativeMatrixLoadKHR %c32 %p_f %u_0 %u_32\n"
    "%d = OpCooperativeMatrixMulAddKHR %c32 %a %b %c\n";

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string H100Json() {
  std::ifstream in("test/data/profiles/h100.json");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The h100 profile without cooperativeMatrixFlexibleDimensions: only its fixed
// VkCooperativeMatrixPropertiesKHR list, what a driver with VK_KHR_cooperative_matrix alone
// accepts (with flexible dimensions, the profile would also take any multiple of 16).
std::shared_ptr<const DeviceProfileHandle> FixedShapesOnly() {
  const std::string json = Replaced(H100Json(), "\"cooperativeMatrixFlexibleDimensions\": true",
                                    "\"cooperativeMatrixFlexibleDimensions\": false");
  std::shared_ptr<const DeviceProfileHandle> profile;
  Problem problem;
  EXPECT_TRUE(LoadDeviceProfile(json, &profile, &problem)) << problem.message;
  return profile;
}

// The device-rule errors of `text` (assembly) under FixedShapesOnly().
std::string DeviceErrors(const std::string& text) {
  Problem problem;
  std::vector<uint32_t> words;
  EXPECT_TRUE(Assemble(text, {}, &words, &problem)) << problem.message;
  ValidatorOptions options;
  options.target_env = "vulkan1.3";
  options.device_profile = FixedShapesOnly();
  ValidationResult result;
  EXPECT_TRUE(Validate(words, options, &result, &problem)) << problem.message;
  std::string errors;
  for (const auto& d : result.diagnostics) {
    if (d.is_error) errors += d.rule_id + ": " + d.message + "\n";
  }
  return errors;
}

// Every matrix type of Module() tiled: the float 32 x 32 ones in 16 x 16, the 8-bit 32 x 64
// (MatrixA) in 16 x 32 and 64 x 32 (MatrixB) in 32 x 16 (unused types are tiled too).
const std::set<std::string> kTiled = {"16x16", "16x32", "32x16"};

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

// The matrix shapes of the output, as "<rows>x<columns>" (the size constants are %uint_<v>).
std::set<std::string> Shapes(const std::string& text) {
  std::set<std::string> out;
  const std::regex type("OpTypeCooperativeMatrixKHR %\\w+ %\\w+ %uint_(\\d+) %uint_(\\d+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), type); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[1].str() + "x" + (*it)[2].str());
  }
  return out;
}

// --tile-coop-matrix=<argument> on `assembly`, validated after the pass; then the output must
// pass the device rules of the h100 profile's fixed shapes.
PassRun Tile(const std::string& assembly, const std::string& argument = "h100") {
  PassRun run = testing::RunPasses(assembly, {{"tile-coop-matrix", argument}});
  if (!run.ok) return run;
  EXPECT_EQ(DeviceErrors(run.text), "") << run.text;
  return run;
}

TEST(TileCoopMatrix, TheUntiledModuleFailsTheDeviceRules) {
  // What the pass is for: 32 x 32 matrices are not in the fixed list.
  PassRun run = testing::RunPasses(
      Module(std::string(kMulAdd) + "OpCooperativeMatrixStoreKHR %p_f %d %u_0 %u_32\n"),
      {{"compact-ids", ""}});
  ASSERT_TRUE(run.ok) << run.error;
  const std::string errors = DeviceErrors(run.text);
  EXPECT_NE(errors.find("device.coop-matrix.type"), std::string::npos) << errors;
  EXPECT_NE(errors.find("device.coop-matrix.muladd"), std::string::npos) << errors;
}

TEST(TileCoopMatrix, MulAddBecomesATileProduct) {
  PassRun run =
      Tile(Module(std::string(kMulAdd) + "OpCooperativeMatrixStoreKHR %p_f %d %u_0 %u_32\n"));
  ASSERT_TRUE(run.ok) << run.error;
  // The largest entry that divides 32 x 32 x 32: 16x16x16, 2 x 2 tiles of each, 8 tile products.
  EXPECT_EQ(Shapes(run.text), kTiled);
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixMulAddKHR"), 8u) << run.text;
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixLoadKHR"), 12u) << run.text;
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixStoreKHR"), 4u) << run.text;
  // Tile (1, 1) of the row-major A starts 16 * 32 + 16 elements on; of the column-major B,
  // 16 * 32 + 16 too; tile (0, 1) of A starts 16 on, of B 16 * 32 on.
  EXPECT_NE(run.text.find("OpTypeArray"), std::string::npos);
  EXPECT_NE(run.text.find("OpIMul %uint %uint_32 %uint_16"), std::string::npos) << run.text;
}

TEST(TileCoopMatrix, MemoryOperandsStayAndAlignmentDropsToTheElement) {
  PassRun run =
      Tile(Module("%c = OpCooperativeMatrixLoadKHR %c32 %p_f %u_0 %u_32 Aligned|Nontemporal 16\n"
                  "OpCooperativeMatrixStoreKHR %p_f %c %u_1 %u_32 Aligned 16\n"));
  ASSERT_TRUE(run.ok) << run.error;
  // The first tile starts at the pointer (16 holds), the three others anywhere a float is.
  EXPECT_EQ(Count(run.text, "Aligned|Nontemporal 16"), 1u) << run.text;
  EXPECT_EQ(Count(run.text, "Aligned|Nontemporal 4"), 3u) << run.text;
  EXPECT_EQ(Count(run.text, "Aligned 16"), 1u) << run.text;
  EXPECT_EQ(Count(run.text, "Aligned 4"), 3u) << run.text;
}

TEST(TileCoopMatrix, DefaultShapesAreTheH100Ones) {
  PassRun run =
      Tile(Module(std::string(kMulAdd) + "OpCooperativeMatrixStoreKHR %p_f %d %u_0 %u_32\n"), "");
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Shapes(run.text), kTiled);
}

TEST(TileCoopMatrix, NonSquareTakesTheLargestEntryThatDivides) {
  // 16 x 64 times 64 x 8: only 16x8x16 and 16x8x8 divide N = 8; 16x8x16 is larger.
  PassRun run =
      Tile(Module("%a = OpCooperativeMatrixLoadKHR %a2 %p_h %u_0 %u_64\n"
                  "%b = OpCooperativeMatrixLoadKHR %b2 %p_h %u_0 %u_8\n"
                  "%c = OpCooperativeMatrixLoadKHR %c2 %p_f %u_0 %u_8\n"
                  "%d = OpCooperativeMatrixMulAddKHR %c2 %a %b %c\n"
                  "OpCooperativeMatrixStoreKHR %p_f %d %u_1 %u_16\n",
                  "%a2 = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_64 %u_0\n"
                  "%b2 = OpTypeCooperativeMatrixKHR %half %u_3 %u_64 %u_8 %u_1\n"
                  "%c2 = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_8 %u_2\n"));
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Shapes(run.text), (std::set<std::string>{"16x16", "16x32", "16x8", "32x16"}));
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixMulAddKHR"), 4u) << run.text;
  // The accumulator 16 x 8 is listed: it stays one matrix (its store is not split).
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixStoreKHR"), 1u) << run.text;
}

TEST(TileCoopMatrix, FloatArithmeticTileByTile) {
  PassRun run =
      Tile(Module(std::string(kMulAdd) + "%e = OpFAdd %c32 %d %c\n"
                                         "%f = OpFSub %c32 %e %d\n"
                                         "%g = OpFMul %c32 %f %e\n"
                                         "%h = OpFDiv %c32 %g %f\n"
                                         "%i = OpFNegate %c32 %h\n"
                                         "%j = OpMatrixTimesScalar %c32 %i %f_2\n"
                                         "OpCooperativeMatrixStoreKHR %p_f %j %u_1 %u_32\n"));
  ASSERT_TRUE(run.ok) << run.error;
  for (const char* op :
       {"OpFAdd", "OpFSub", "OpFMul", "OpFDiv", "OpFNegate", "OpMatrixTimesScalar"}) {
    EXPECT_EQ(Count(run.text, op), 4u) << op << "\n" << run.text;
  }
}

TEST(TileCoopMatrix, ConversionsGiveBothTypesTheSameTiles) {
  PassRun run =
      Tile(Module(std::string(kMulAdd) + "%e = OpFConvert %h32 %d\n"
                                         "OpCooperativeMatrixStoreKHR %p_h %e %u_0 %u_32\n"));
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Count(run.text, "OpFConvert"), 4u) << run.text;
  EXPECT_EQ(Shapes(run.text), kTiled);
}

TEST(TileCoopMatrix, IntegerMulAddAndArithmetic) {
  // 32 x 64 times 64 x 32 signed 8-bit into 32-bit: 16x16x32, 2 x 2 x 2 tile products.
  PassRun run = Tile(Module(
      "%a = OpCooperativeMatrixLoadKHR %ia %p_c %u_0 %u_64\n"
      "%b = OpCooperativeMatrixLoadKHR %ib %p_c %u_0 %u_32\n"
      "%c = OpCooperativeMatrixLoadKHR %ic %p_i %u_0 %u_32\n"
      "%d = OpCooperativeMatrixMulAddKHR %ic %a %b %c MatrixASignedComponentsKHR|"
      "MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|MatrixResultSignedComponentsKHR\n"
      "%e = OpIAdd %ic %d %c\n"
      "%f = OpISub %ic %e %d\n"
      "%g = OpIMul %ic %f %e\n"
      "%h = OpSDiv %ic %g %f\n"
      "%i = OpUDiv %ic %h %f\n"
      "%j = OpSNegate %ic %i\n"
      "OpCooperativeMatrixStoreKHR %p_i %j %u_0 %u_32\n"));
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Shapes(run.text), (std::set<std::string>{"16x16", "16x32", "32x16"}));
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixMulAddKHR"), 8u) << run.text;
  EXPECT_EQ(Count(run.text, "MatrixASignedComponentsKHR"), 8u) << run.text;
  for (const char* op : {"OpIAdd %", "OpISub", "OpIMul %", "OpSDiv", "OpUDiv", "OpSNegate"}) {
    EXPECT_GE(Count(run.text, op), 4u) << op;
  }
}

TEST(TileCoopMatrix, SplatsConstantsAndValuesThatKeepTheirInstructions) {
  // A splat construct and constant, a null constant, OpUndef, OpSelect, OpCopyObject, OpPhi, a
  // Function variable, and a function taking and returning the type.
  PassRun run =
      Tile(Module("%a = OpCooperativeMatrixLoadKHR %a32 %p_h %u_0 %u_32\n"
                  "%b = OpCooperativeMatrixLoadKHR %b32 %p_h %u_1 %u_32\n"
                  "%two = OpCompositeConstruct %c32 %f_2\n"
                  "%d = OpCooperativeMatrixMulAddKHR %c32 %a %b %two\n"
                  "%s = OpSelect %c32 %true %d %k\n"
                  "%u = OpSelect %c32 %true %s %n\n"
                  "%w = OpSelect %c32 %true %u %x\n"
                  "%y = OpCopyObject %c32 %w\n"
                  "OpStore %v %y\n"
                  "%z = OpLoad %c32 %v\n"
                  "%r = OpFunctionCall %c32 %twice %z\n"
                  "OpBranch %next\n"
                  "%next = OpLabel\n"
                  "%q = OpPhi %c32 %r %entry\n"
                  "OpCooperativeMatrixStoreKHR %p_f %q %u_0 %u_32\n",
                  "%pf_c32 = OpTypePointer Function %c32\n"
                  "%fc = OpTypeFunction %c32 %c32\n"
                  "%k = OpConstantComposite %c32 %f_2\n"
                  "%n = OpConstantNull %c32\n"
                  "%x = OpUndef %c32\n",
                  "%twice = OpFunction %c32 None %fc\n"
                  "%m = OpFunctionParameter %c32\n"
                  "%l = OpLabel\n"
                  "%t = OpFAdd %c32 %m %m\n"
                  "OpReturnValue %t\n"
                  "OpFunctionEnd\n",
                  "%v = OpVariable %pf_c32 Function\n"));
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Shapes(run.text), kTiled);
  // The splat construct: one tile construct, then the array of 4.
  EXPECT_NE(run.text.find("OpCompositeConstruct %_arr_"), std::string::npos) << run.text;
  EXPECT_NE(run.text.find("OpConstantComposite %_arr_"), std::string::npos) << run.text;
  EXPECT_NE(run.text.find("OpPhi %_arr_"), std::string::npos) << run.text;
  EXPECT_NE(run.text.find("OpFunctionParameter %_arr_"), std::string::npos) << run.text;
}

TEST(TileCoopMatrix, LengthIsTheTileLengthTimesTheTiles) {
  PassRun run =
      Tile(Module("%len = OpCooperativeMatrixLengthKHR %uint %c32\n"
                  "%pl = OpAccessChain %pe_i %buf_i %u_0 %len\n"
                  "%li = OpBitcast %int %len\n"
                  "OpStore %pl %li\n"));
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_TRUE(
      std::regex_search(run.text, std::regex("(%\\w+) = OpCooperativeMatrixLengthKHR %uint %\\w+\n"
                                             "%\\w+ = OpIMul %uint \\1 %uint_4")))
      << run.text;
}

TEST(TileCoopMatrix, ListedShapesAreLeftAlone) {
  PassRun run =
      testing::RunPasses(Module("%a = OpCooperativeMatrixLoadKHR %a16 %p_h %u_0 %u_16\n"
                                "OpCooperativeMatrixStoreKHR %p_h %a %u_0 %u_16\n",
                                "%a16 = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_0\n"),
                         {{"tile-coop-matrix", "h100"}});
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixLoadKHR"), 1u) << run.text;
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixStoreKHR"), 1u) << run.text;
}

TEST(TileCoopMatrix, AShapeNoEntryDividesStays) {
  // 8 rows: every H100 entry has M = 16. The type stays (the device rules report it).
  PassRun run =
      testing::RunPasses(Module("%a = OpCooperativeMatrixLoadKHR %a8 %p_h %u_0 %u_32\n"
                                "OpCooperativeMatrixStoreKHR %p_h %a %u_0 %u_32\n",
                                "%a8 = OpTypeCooperativeMatrixKHR %half %u_3 %u_8 %u_32 %u_0\n"),
                         {{"tile-coop-matrix", "h100"}});
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Shapes(run.text), (std::set<std::string>{"16x16", "16x32", "32x16", "8x32"}));
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixLoadKHR"), 1u) << run.text;
  EXPECT_NE(DeviceErrors(run.text).find("8x32 float16 MatrixA"), std::string::npos);
}

TEST(TileCoopMatrix, AMulAddNoShapeFitsKeepsItsTypes) {
  // 8 x 32 times 32 x 32: no listed M divides 8, so the multiply-add and its B stay whole
  // (B alone would take 16 x 16 tiles); the device rules then name them.
  PassRun run =
      testing::RunPasses(Module("%a = OpCooperativeMatrixLoadKHR %a8 %p_h %u_0 %u_32\n"
                                "%b = OpCooperativeMatrixLoadKHR %b32 %p_h %u_1 %u_32\n"
                                "%c = OpCooperativeMatrixLoadKHR %c8 %p_f %u_0 %u_32\n"
                                "%d = OpCooperativeMatrixMulAddKHR %c8 %a %b %c\n"
                                "OpCooperativeMatrixStoreKHR %p_f %d %u_0 %u_32\n",
                                "%a8 = OpTypeCooperativeMatrixKHR %half %u_3 %u_8 %u_32 %u_0\n"
                                "%c8 = OpTypeCooperativeMatrixKHR %float %u_3 %u_8 %u_32 %u_2\n"),
                         {{"tile-coop-matrix", "h100"}});
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixMulAddKHR"), 1u) << run.text;
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixLoadKHR"), 3u) << run.text;
  EXPECT_NE(DeviceErrors(run.text).find("device.coop-matrix.muladd"), std::string::npos);
}

TEST(TileCoopMatrix, AConversionOfATypeThatStaysKeepsTheOtherWhole) {
  // bfloat16 x bfloat16 + float16 has no H100 entry: the float16 accumulator stays 32 x 32, and
  // so does the float matrix converted from it (alone it would take 16 x 16 tiles); ggml's
  // matmul_bf16_f16acc converts its accumulator so.
  std::string text = Module(
      "%a = OpCooperativeMatrixLoadKHR %bfa %p_h %u_0 %u_32\n"
      "%b = OpCooperativeMatrixLoadKHR %bfb %p_h %u_1 %u_32\n"
      "%c = OpCooperativeMatrixLoadKHR %h32 %p_h %u_0 %u_32\n"
      "%d = OpCooperativeMatrixMulAddKHR %h32 %a %b %c\n"
      "%e = OpFConvert %c32 %d\n"
      "OpCooperativeMatrixStoreKHR %p_f %e %u_0 %u_32\n",
      "%bf16 = OpTypeFloat 16 BFloat16KHR\n"
      "%bfa = OpTypeCooperativeMatrixKHR %bf16 %u_3 %u_32 %u_32 %u_0\n"
      "%bfb = OpTypeCooperativeMatrixKHR %bf16 %u_3 %u_32 %u_32 %u_1\n");
  text = Replaced(text, "OpCapability CooperativeMatrixKHR\n",
                  "OpCapability CooperativeMatrixKHR\nOpCapability BFloat16TypeKHR\n"
                  "OpCapability BFloat16CooperativeMatrixKHR\n");
  text = Replaced(text, "OpExtension \"SPV_KHR_cooperative_matrix\"\n",
                  "OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension \"SPV_KHR_bfloat16\"\n");
  PassRun run = testing::RunPasses(text, {{"tile-coop-matrix", "h100"}});
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Count(run.text, "OpFConvert"), 1u) << run.text;
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixStoreKHR"), 1u) << run.text;
  EXPECT_NE(DeviceErrors(run.text).find("device.coop-matrix.muladd"), std::string::npos);
}

TEST(TileCoopMatrix, ElementAccessGoesThroughAVariable) {
  // Element 3 of the 32 x 32 matrix: element 3 % L of tile 3 / L, L the tile's length, read and
  // written through a Function variable of the array of tiles; an access chain into a variable
  // of the type gets the same two indices.
  PassRun run = Tile(Module(std::string(kMulAdd) + "%e = OpCompositeExtract %float %d 3\n"
                                                   "%g = OpCompositeInsert %c32 %e %d 5\n"
                                                   "OpStore %v %g\n"
                                                   "%pv = OpAccessChain %pf_float %v %u_8\n"
                                                   "%x = OpLoad %float %pv\n"
                                                   "OpStore %p_f %x\n",
                            "%pf_c32 = OpTypePointer Function %c32\n"
                            "%pf_float = OpTypePointer Function %float\n",
                            "", "%v = OpVariable %pf_c32 Function\n"));
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Count(run.text, "OpCompositeExtract %float"), 0u) << run.text;
  EXPECT_EQ(Count(run.text, "OpCompositeInsert"), 0u) << run.text;
  EXPECT_EQ(Count(run.text, "OpUDiv"), 3u) << run.text;
  EXPECT_EQ(Count(run.text, "OpUMod"), 3u) << run.text;
  EXPECT_TRUE(std::regex_search(
      run.text, std::regex("OpAccessChain %_ptr_Function_float %\\w+ %\\w+ %\\w+\n")))
      << run.text;
}

TEST(TileCoopMatrix, SignedElementIndicesSplitInUnsignedIntegers) {
  // GLSL's m[0] indexes with an int: the tile and the element in it are computed in uint32, and
  // the tile's OpCooperativeMatrixLengthKHR is a uint32 (ggml's flash attention reads element 0
  // of a row-and-column reduction so).
  PassRun run = Tile(Module(std::string(kMulAdd) + "OpStore %v %d\n"
                                                   "%pv = OpAccessChain %pf_float %v %i_0\n"
                                                   "%x = OpLoad %float %pv\n"
                                                   "OpStore %p_f %x\n",
                            "%pf_c32 = OpTypePointer Function %c32\n"
                            "%pf_float = OpTypePointer Function %float\n"
                            "%i_0 = OpConstant %int 0\n",
                            "", "%v = OpVariable %pf_c32 Function\n"));
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_TRUE(std::regex_search(
      run.text, std::regex("(%\\w+) = OpBitcast %uint %int_0\n(%\\w+) = "
                           "OpCooperativeMatrixLengthKHR %uint %\\w+\n%\\w+ = OpUDiv %uint \\1 "
                           "\\2\n%\\w+ = OpUMod %uint \\1 \\2\n")))
      << run.text;
}

TEST(TileCoopMatrix, AnIndexThroughATiledMatrixInAStructFails) {
  PassRun run =
      testing::RunPasses(Module(std::string(kMulAdd) + "%s = OpCompositeConstruct %st %d\n"
                                                       "%e = OpCompositeExtract %float %s 0 3\n"
                                                       "OpStore %p_f %e\n",
                                "%st = OpTypeStruct %c32\n"),
                         {{"tile-coop-matrix", "h100"}});
  ASSERT_FALSE(run.ok);
  EXPECT_NE(run.error.find("OpCompositeExtract"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("inside an aggregate"), std::string::npos) << run.error;
}

TEST(TileCoopMatrix, APointerThatIsNoAccessChainFails) {
  PassRun run = testing::RunPasses(Module("%vp = OpCopyObject %pe_h %p_h\n"
                                          "%a = OpCooperativeMatrixLoadKHR %a32 %vp %u_0 %u_32\n"
                                          "OpCooperativeMatrixStoreKHR %p_h %a %u_0 %u_32\n"),
                                   {{"tile-coop-matrix", "h100"}});
  ASSERT_FALSE(run.ok);
  EXPECT_NE(run.error.find("not an access chain"), std::string::npos) << run.error;
}

TEST(TileCoopMatrix, LegalizeForAKhrOnlyDeviceTilesWhatItDoesNotList) {
  // The H100 without VK_NV_cooperative_matrix2: --legalize-for-device tiles the 32 x 32
  // matrices (and checks the result against the profile's device rules).
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/khr_only.json";
  {
    std::ofstream out(path);
    out << Replaced(Replaced(H100Json(), "\"VK_NV_cooperative_matrix2\",", ""),
                    "\"cooperativeMatrixFlexibleDimensions\": true",
                    "\"cooperativeMatrixFlexibleDimensions\": false");
  }
  PassRun run = testing::RunPasses(
      Module(std::string(kMulAdd) + "OpCooperativeMatrixStoreKHR %p_f %d %u_0 %u_32\n"),
      {{"legalize-for-device", path}});
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(Shapes(run.text), kTiled);
  EXPECT_EQ(Count(run.text, "OpCooperativeMatrixMulAddKHR"), 8u) << run.text;
  EXPECT_EQ(DeviceErrors(run.text), "");
}

TEST(TileCoopMatrix, BadProfileIsAnError) {
  std::vector<uint32_t> words;
  Problem problem;
  ASSERT_TRUE(Assemble(Module(kMulAdd), {}, &words, &problem)) << problem.message;
  OptimizerOptions options;
  options.target_env = "vulkan1.3";
  options.passes = {{"tile-coop-matrix", "/no/such/profile.json"}};
  OptimizeResult result;
  EXPECT_FALSE(Optimize(words, options, &result, &problem));
  EXPECT_NE(problem.message.find("no such file"), std::string::npos) << problem.message;
}

}  // namespace
}  // namespace coopspv
