// --lower-coop-matrix2: per-instruction modules checked with FileCheck directives on the
// disassembly, and the failures (each names the instruction). Every output is validated
// (coopspv::Optimize with validate_after_each) for the input's target environment; the results
// are checked by running on lavapipe in test/run/lower_coop_matrix2/.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "source/ir/module.h"
#include "source/opt/tile_coop_matrix.h"
#include "test/util/filecheck.h"
#include "test/util/pass_run.h"

namespace coopspv {
namespace {

// The lines of a text, without their newlines.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

using testing::PassRun;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

PassRun Lower(const std::string& assembly, uint32_t subgroup_size = 8,
              std::vector<PassRequest> more = {}) {
  std::vector<PassRequest> passes = {{"lower-coop-matrix2", std::to_string(subgroup_size)}};
  passes.insert(passes.end(), more.begin(), more.end());
  return testing::RunPasses(assembly, passes, "vulkan1.3");
}

// A kernel with a float buffer %buf (element pointer %p), R x C = `rows` x `cols` Subgroup
// accumulators %mat (component `component`), a 2-D tensor layout type %lt with clamp mode
// `mode`, and `body` in main's first block.
struct Kernel {
  std::string component = "float";
  uint32_t rows = 16, cols = 16;
  std::string mode = "%u_1";
  std::string globals;
  std::string body;
  std::string blocks;  // After the first block (which `body` must end).
  std::string entry_extra;
  std::string capabilities;
  std::string annotations;
  uint32_t local_size = 16;
  // Get an OpName (the disassembly then shows them).
  std::vector<std::string> names = {"main", "lt", "l0", "l1", "p", "m", "mat", "clamp", "entry"};
};

std::string Text(const Kernel& k) {
  const bool half = k.component == "half";
  std::string debug;
  for (const std::string& n : k.names) debug += "OpName %" + n + " \"" + n + "\"\n";
  return std::string(
             "OpCapability Shader\n"
             "OpCapability CooperativeMatrixKHR\n"
             "OpCapability TensorAddressingNV\n"
             "OpCapability CooperativeMatrixTensorAddressingNV\n"
             "OpCapability VulkanMemoryModel\n") +
         (half ? "OpCapability Float16\nOpCapability StorageBuffer16BitAccess\n" : "") +
         k.capabilities +
         "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
         "OpExtension \"SPV_NV_cooperative_matrix2\"\n"
         "OpExtension \"SPV_NV_tensor_addressing\"\n"
         "OpMemoryModel Logical Vulkan\n"
         "OpEntryPoint GLCompute %main \"main\" %buf" +
         k.entry_extra +
         "\n"
         "OpExecutionMode %main LocalSize " +
         std::to_string(k.local_size) + " 1 1\n" + debug + "OpDecorate %rt ArrayStride " +
         (half ? "2" : "4") +
         "\n"
         "OpMemberDecorate %blk 0 Offset 0\n"
         "OpDecorate %blk Block\n"
         "OpDecorate %buf DescriptorSet 0\n"
         "OpDecorate %buf Binding 0\n" +
         k.annotations +
         "%void = OpTypeVoid\n"
         "%fn = OpTypeFunction %void\n"
         "%float = OpTypeFloat 32\n" +
         (half ? "%half = OpTypeFloat 16\n" : "") +
         "%uint = OpTypeInt 32 0\n"
         "%int = OpTypeInt 32 1\n"
         "%bool = OpTypeBool\n"
         "%u_0 = OpConstant %uint 0\n"
         "%u_1 = OpConstant %uint 1\n"
         "%u_2 = OpConstant %uint 2\n"
         "%u_3 = OpConstant %uint 3\n"
         "%u_4 = OpConstant %uint 4\n"
         "%u_8 = OpConstant %uint 8\n"
         "%u_16 = OpConstant %uint 16\n"
         "%u_20 = OpConstant %uint 20\n"
         "%u_rows = OpConstant %uint " +
         std::to_string(k.rows) +
         "\n"
         "%u_cols = OpConstant %uint " +
         std::to_string(k.cols) +
         "\n"
         "%i_20 = OpConstant %int 20\n"
         "%clamp = OpConstant %uint 1069547520\n"
         "%rt = OpTypeRuntimeArray %" +
         k.component +
         "\n"
         "%blk = OpTypeStruct %rt\n"
         "%pblk = OpTypePointer StorageBuffer %blk\n"
         "%pel = OpTypePointer StorageBuffer %" +
         k.component +
         "\n"
         "%buf = OpVariable %pblk StorageBuffer\n"
         "%mat = OpTypeCooperativeMatrixKHR %" +
         k.component +
         " %u_3 %u_rows %u_cols %u_2\n"
         "%mnull = OpConstantNull %mat\n"
         "%lt = OpTypeTensorLayoutNV %u_2 " +
         k.mode + "\n" + k.globals +
         "%main = OpFunction %void None %fn\n"
         "%entry = OpLabel\n"
         "%p = OpAccessChain %pel %buf %u_0 %u_0\n"
         "%l0 = OpCreateTensorLayoutNV %lt\n"
         "%l1 = OpTensorLayoutSetDimensionNV %lt %l0 %u_20 %i_20\n" +
         k.body + k.blocks + "OpFunctionEnd\n";
}

// A load through a slice and a store through another.
const char* kLoadStore =
    "%ls = OpTensorLayoutSliceNV %lt %l1 %u_4 %u_16 %u_8 %u_16\n"
    "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %ls None None\n"
    "OpCooperativeMatrixStoreTensorNV %p %m %l1 None None\n"
    "OpReturn\n";

// ---- Tensor layouts

TEST(LowerCoopMatrix2, LayoutsBecomeStructsOfTheirFieldsAndTheExtensionsGo) {
  Kernel k;
  k.body =
      "%l2 = OpTensorLayoutSetStrideNV %lt %l1 %u_20 %u_1\n"
      "%l3 = OpTensorLayoutSetClampValueNV %lt %l2 %clamp\n"
      "%l4 = OpTensorLayoutSliceNV %lt %l3 %u_4 %u_16 %u_8 %u_16\n"
      "%l5 = OpTensorLayoutSliceNV %lt %l4 %u_1 %u_16 %u_2 %u_16\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %l5 None None\n"
      "OpReturn\n";
  k.names.insert(k.names.end(), {"l2", "l3", "l4", "l5"});
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "Tensor")) << r.text;
  EXPECT_FALSE(Contains(r.text, "matrix2")) << r.text;
  // Dim 2: dimensions, strides, offsets, spans (2 each), clamp value, block sizes (2).
  // SetDimension: dimensions, packed strides (stride 0 = 1 * dimension 1), offsets 0, spans =
  // dimensions; SetStride, SetClampValue: their members; a slice adds to the offsets (2*2 + k)
  // and replaces the spans (3*2 + k).
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability CooperativeMatrixKHR
    CHECK: OpCapability GroupNonUniform
    CHECK-NOT: OpCapability
    CHECK: OpExtension "SPV_KHR_cooperative_matrix"
    CHECK-NOT: OpExtension
    CHECK: BuiltIn SubgroupLocalInvocationId
    CHECK: BuiltIn SubgroupId
    CHECK: %lt = OpTypeStruct %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint %uint
    CHECK: OpConstantComposite %lt %uint_0 %uint_0 %uint_0 %uint_0 %uint_0 %uint_0 %uint_0 %uint_0 %uint_0 %uint_1 %uint_1
    CHECK: %l0 = OpCopyObject %lt
    CHECK: OpBitcast %uint %int_20
    CHECK: OpCompositeInsert %lt %uint_20 %l0 0
    CHECK: %l1 = OpCompositeInsert %lt
    CHECK: l2 = OpCompositeInsert %lt %uint_1 %
    CHECK: OpCompositeExtract %uint %l3 4
    CHECK: OpCompositeExtract %uint %l3 5
    CHECK: l4 = OpCompositeInsert %lt %uint_16 %
    CHECK: OpCompositeExtract %uint %l4 4
    CHECK: OpCompositeExtract %uint %l4 5
    CHECK: l5 = OpCompositeInsert %lt %uint_16 %
  )")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%l2 = OpCompositeInsert %lt %uint_1 %")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%l3 = OpCompositeInsert %lt %clamp %l2 8")) << r.text;
  EXPECT_TRUE(Contains(r.text, "OpCompositeInsert %lt %uint_20 %l1 2")) << r.text;
  EXPECT_TRUE(Contains(r.text, "OpIMul %uint %uint_1 %")) << r.text;           // Packed stride.
  EXPECT_EQ(Count(r.text, "OpCompositeInsert %lt %uint_16 %"), 4u) << r.text;  // Spans.
  // The second slice's span of dimension 1 is member 3 * 2 + 1.
  EXPECT_TRUE(
      std::regex_search(r.text, std::regex("%l5 = OpCompositeInsert %lt %uint_16 %[0-9]+ 7\n")))
      << r.text;
}

TEST(LowerCoopMatrix2, LayoutsKeepTheirMeaningThroughVariablesAndPhi) {
  Kernel k;
  k.globals = "%pf = OpTypePointer Function %lt\n";
  k.body =
      "%v = OpVariable %pf Function\n"
      "OpStore %v %l1\n"
      "OpSelectionMerge %join None\n"
      "OpBranchConditional %true %then %join\n"
      "%then = OpLabel\n"
      "%lv = OpLoad %lt %v\n"
      "%sl = OpTensorLayoutSliceNV %lt %lv %u_4 %u_16 %u_8 %u_16\n"
      "OpBranch %join\n"
      "%join = OpLabel\n"
      "%ph = OpPhi %lt %l1 %entry %sl %then\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %ph None None\n"
      "OpReturn\n";
  k.globals += "%true = OpConstantTrue %bool\n";
  k.names.insert(k.names.end(), {"pf", "v", "lv", "sl", "ph", "then", "join"});
  // %v must be the first instruction of the block: move it there.
  std::string text = Text(k);
  const std::string var = "%v = OpVariable %pf Function\n";
  text.erase(text.find(var), var.size());
  text.insert(text.find("%entry = OpLabel\n") + 17, var);
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %pf = OpTypePointer Function %lt
    CHECK: %v = OpVariable %pf Function
    CHECK: %lv = OpLoad %lt %v
    CHECK: %ph = OpPhi %lt %l1 %entry %sl %then
    CHECK: OpCompositeExtract %uint %ph
    CHECK: OpCooperativeMatrixLoadKHR %mat
  )")) << r.text;
}

// ---- Loads

TEST(LowerCoopMatrix2, ConstantModeLoadsElementsThroughTheRegionWithTheClampValue) {
  Kernel k;
  k.body =
      "%l2 = OpTensorLayoutSetClampValueNV %lt %l1 %clamp\n"
      "%ls = OpTensorLayoutSliceNV %lt %l2 %u_4 %u_16 %u_8 %u_16\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %ls Aligned|Volatile 16 None\n"
      "OpReturn\n";
  k.names.insert(k.names.end(), {"ls", "buf"});
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  // 256 elements over 8 invocations: 32 loads each; 2 subgroups of 256 floats.
  // One element per iteration of a loop of 32 (256 elements over 8 invocations).
  EXPECT_EQ(Count(r.text, "OpLoopMerge"), 1u) << r.text;
  EXPECT_TRUE(Contains(r.text, "%uint_32\nOpBranchConditional")) << r.text;
  EXPECT_EQ(Count(r.text, "OpLoad %float"), 1u) << r.text;
  EXPECT_EQ(Count(r.text, "Volatile"), 1u) << r.text;
  EXPECT_FALSE(Contains(r.text, "Aligned")) << r.text;
  EXPECT_EQ(Count(r.text, "OpSelect %float"), 1u) << r.text;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %_arr_float_uint_512 = OpTypeArray %float %uint_512
    CHECK: OpVariable %_ptr_Workgroup__arr_float_uint_512 Workgroup
    CHECK: OpLoad %uint %gl_SubgroupInvocationID
    CHECK: OpLoad %uint %gl_SubgroupID
    CHECK: OpIMul %uint
    CHECK: OpCompositeExtract %uint %ls 8
    CHECK: OpBitcast %float
    CHECK: OpCompositeExtract %uint %ls 7
    CHECK: OpUMod %uint
    CHECK: OpUDiv %uint
    CHECK: OpULessThan %bool
    CHECK: OpLogicalAnd %bool
    CHECK: OpAccessChain %_ptr_StorageBuffer_float %buf %uint_0
    CHECK: Volatile
    CHECK: OpSelect %float
    CHECK: OpAccessChain %_ptr_Workgroup_float
    CHECK: NonPrivatePointer
    CHECK: OpControlBarrier %uint_3 %uint_3 %uint_24840
    CHECK: %m = OpCooperativeMatrixLoadKHR %mat %
    CHECK-NEXT: OpControlBarrier %uint_3 %uint_3 %uint_24840
    CHECK-NEXT: OpReturn
  )")) << r.text;
  EXPECT_TRUE(Contains(r.text, " %uint_0 %uint_16 NonPrivatePointer\n")) << r.text;
  EXPECT_EQ(Count(r.text, "OpControlBarrier"), 2u) << r.text;
}

TEST(LowerCoopMatrix2, ClampToEdgeAndRepeatRemapCoordinatesInsteadOfSelecting) {
  Kernel edge;
  edge.mode = "%u_2";
  edge.body =
      "%ls = OpTensorLayoutSliceNV %lt %l1 %u_4 %u_16 %u_8 %u_16\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %ls None None\n"
      "OpReturn\n";
  const PassRun e = Lower(Text(edge));
  ASSERT_TRUE(e.ok) << e.error;
  EXPECT_FALSE(Contains(e.text, "OpSelect %float")) << e.text;
  EXPECT_EQ(Count(e.text, "OpSLessThan %bool"), 2u) << e.text;  // Per coordinate.
  EXPECT_EQ(Count(e.text, "OpSGreaterThan %bool"), 2u) << e.text;

  Kernel repeat = edge;
  repeat.mode = "%u_3";
  const PassRun r = Lower(Text(repeat));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "OpSelect %float")) << r.text;
  // c mod n through OpUMod of c or ~c (non-negative), reflected where c is negative.
  EXPECT_EQ(Count(r.text, "OpUMod %uint"), 3u) << r.text;  // And the slice enumeration.
  EXPECT_FALSE(Contains(r.text, "OpSRem")) << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpSLessThan %bool (%[0-9]+) %uint_0\n(%[0-9]+) = OpNot "
                         "%uint \\2\n(%[0-9]+) = OpSelect %uint \\1 \\3 \\2\n(%[0-9]+) = "
                         "OpUMod %uint \\4 (%[0-9]+)\n(%[0-9]+) = OpISub %uint \\6 %uint_1\n("
                         "%[0-9]+) = OpISub %uint \\7 \\5\n%[0-9]+ = OpSelect %uint \\1 "
                         "\\8 \\5\n")))
      << r.text;
}

TEST(LowerCoopMatrix2, RepeatMirroredReflectsWithoutRepeatingTheEdge) {
  Kernel k;
  k.mode = "%u_4";
  k.body =
      "%ls = OpTensorLayoutSliceNV %lt %l1 %u_4 %u_16 %u_8 %u_16\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %ls None None\n"
      "OpReturn\n";
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  // Per coordinate c of dimension n, with p = 2 (n - 1) (1 where that is 0): t = c mod p;
  // t < n ? t : p - t (as NVIDIA's driver reads RepeatMirrored).
  EXPECT_EQ(Count(r.text, "OpUMod %uint"), 3u) << r.text;  // And the slice enumeration.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpISub %uint (%[0-9]+) %uint_1\n(%[0-9]+) = OpIMul %uint \\1 "
                         "%uint_2\n(%[0-9]+) = OpIEqual %bool \\3 %uint_0\n(%[0-9]+) = OpSelect "
                         "%uint \\4 %uint_1 \\3\n(?:[^\n]*\n){3}%[0-9]+ = OpUMod %uint %[0-9]+ "
                         "\\5\n(?:[^\n]*\n){2}(%[0-9]+) = OpSelect[^\n]*\n(%[0-9]+) = OpISub "
                         "%uint \\3 \\6\n(%[0-9]+) = OpULessThan %bool \\6 \\2\n%[0-9]+ = "
                         "OpSelect %uint \\8 \\6 \\7\n")))
      << r.text;
  EXPECT_FALSE(Contains(r.text, "OpSelect %float")) << r.text;
}

TEST(LowerCoopMatrix2, HalfClampValuesAreTheLowBitsOfTheValue) {
  Kernel k;
  k.component = "half";
  k.body =
      "%l2 = OpTensorLayoutSetClampValueNV %lt %l1 %clamp\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %l2 None None\n"
      "OpReturn\n";
  k.names.push_back("l2");
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %v2half = OpTypeVector %half 2
    CHECK: OpTypeArray %half %uint_512
    CHECK: OpCompositeExtract %uint %l2 8
    CHECK-NEXT: OpBitcast %v2half
    CHECK-NEXT: OpCompositeExtract %half
  )")) << r.text;
  EXPECT_TRUE(Contains(r.text, "OpTypeVector %half 2")) << r.text;
  EXPECT_EQ(Count(r.text, "OpSelect %half"), 1u) << r.text;
}

TEST(LowerCoopMatrix2, ThreeDimensionalSlicesEnumerateRowMajorOverTheSpans) {
  Kernel k;
  k.globals = "%lt3 = OpTypeTensorLayoutNV %u_3 %u_1\n";
  k.body =
      "%t0 = OpCreateTensorLayoutNV %lt3\n"
      "%t1 = OpTensorLayoutSetDimensionNV %lt3 %t0 %u_2 %u_20 %u_20\n"
      "%t2 = OpTensorLayoutSliceNV %lt3 %t1 %u_1 %u_1 %u_0 %u_16 %u_4 %u_16\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %t2 None None\n"
      "OpReturn\n";
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text,
                       "OpTypeStruct %uint %uint %uint %uint %uint %uint %uint %uint "
                       "%uint %uint %uint %uint %uint %uint %uint %uint"))
      << r.text;
  // Per element: two divisions (spans of dimensions 2 and 1), three bounds checks.
  EXPECT_EQ(Count(r.text, "OpUDiv %uint"), 2u) << r.text;
  EXPECT_EQ(Count(r.text, "OpULessThan %bool"), 4u) << r.text;  // And the loop's test.
  // SetDimension's packed strides: 1 * 20 and 20 * 20.
  EXPECT_EQ(Count(r.text, "OpIMul %uint %uint_1 %uint_20"), 1u) << r.text;
  EXPECT_TRUE(std::regex_search(r.text, std::regex("OpIMul %uint %[0-9]+ %uint_20\n"))) << r.text;
}

// ---- Stores

TEST(LowerCoopMatrix2, StoresWriteInBoundsElementsInSelectionsAndPhiFollowTheSplitBlock) {
  Kernel k;
  k.globals = "%true = OpConstantTrue %bool\n";
  k.rows = 8;
  k.body =
      "%ls = OpTensorLayoutSliceNV %lt %l1 %u_4 %u_8 %u_8 %u_16\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %ls None None\n"
      "OpSelectionMerge %join None\n"
      "OpBranchConditional %true %then %join\n"
      "%then = OpLabel\n"
      "OpCooperativeMatrixStoreTensorNV %p %m %ls MakePointerAvailable|NonPrivatePointer "
      "%u_2 None\n"
      "OpBranch %join\n"
      "%join = OpLabel\n"
      "%x = OpPhi %uint %u_0 %entry %u_1 %then\n"
      "OpReturn\n";
  k.names.insert(k.names.end(), {"then", "join", "x"});
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  // 128 elements over 8 invocations: a loop of 16 guarded writes with the memory operands.
  EXPECT_EQ(Count(r.text, "OpSelectionMerge"), 2u) << r.text;  // The input's and one guard.
  EXPECT_EQ(Count(r.text, "OpLoopMerge"), 2u) << r.text;       // The load's and the store's.
  EXPECT_EQ(Count(r.text, "MakePointerAvailable|NonPrivatePointer %uint_2"), 1u) << r.text;
  EXPECT_FALSE(Contains(r.text, "%x = OpPhi %uint %uint_0 %entry %uint_1 %then")) << r.text;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %then = OpLabel
    CHECK: OpCooperativeMatrixStoreKHR %
    CHECK-NEXT: OpControlBarrier
    CHECK: OpLoad %float
    CHECK: OpSelectionMerge
    CHECK-NEXT: OpBranchConditional
    CHECK-NEXT: OpLabel
    CHECK-NEXT: OpStore %
    CHECK-NEXT: OpBranch
    CHECK-NEXT: OpLabel
    CHECK: OpControlBarrier
    CHECK-NEXT: OpBranch %join
    CHECK: %x = OpPhi %uint %uint_0 %
  )")) << r.text;
  // Both parents were split (the load's loop, the store's): the edges leave from the last pieces.
  EXPECT_FALSE(Contains(r.text, "%x = OpPhi %uint %uint_0 %entry ")) << r.text;
  EXPECT_TRUE(Contains(r.text, " %m %uint_0 %uint_16 NonPrivatePointer\n")) << r.text;
  EXPECT_EQ(Count(r.text, "OpControlBarrier"), 4u) << r.text;
}

TEST(LowerCoopMatrix2, TheModulesSubgroupBuiltinsAreReusedAndTheRegionsFollowTheWorkgroup) {
  Kernel k;
  k.capabilities = "OpCapability GroupNonUniform\n";
  k.entry_extra = " %sgid %lane";
  k.annotations =
      "OpDecorate %sgid BuiltIn SubgroupId\nOpDecorate %lane BuiltIn SubgroupLocalInvocationId\n";
  k.globals =
      "%pin = OpTypePointer Input %uint\n%sgid = OpVariable %pin Input\n"
      "%lane = OpVariable %pin Input\n";
  k.local_size = 64;
  k.body = kLoadStore;
  const PassRun r = Lower(Text(k), 16, {{"lower-coop-matrix", "16"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(Count(r.text, "BuiltIn SubgroupId"), 1u) << r.text;
  EXPECT_EQ(Count(r.text, "BuiltIn SubgroupLocalInvocationId"), 1u) << r.text;
  EXPECT_EQ(Count(r.text, "OpCapability GroupNonUniform\n"), 1u) << r.text;
  // 64 invocations in subgroups of 16: 4 regions of 256 floats.
  EXPECT_TRUE(Contains(r.text, "OpTypeArray %float %uint_1024")) << r.text;
  EXPECT_FALSE(Contains(r.text, "CooperativeMatrix")) << r.text;
}

TEST(LowerCoopMatrix2, ViewsPermuteDimensionsAndClipLoadsToObjectAndStoresToNothing) {
  Kernel k;
  k.globals =
      "%false = OpConstantFalse %bool\n"
      "%vt = OpTypeTensorViewNV %u_2 %false %u_1 %u_0\n";
  k.body =
      "%v0 = OpCreateTensorViewNV %vt\n"
      "%v1 = OpTensorViewSetClipNV %vt %v0 %u_1 %u_8 %i_20 %u_4\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %l1 None TensorView %v1\n"
      "OpCooperativeMatrixStoreTensorNV %p %m %l1 None TensorView %v1\n"
      "OpReturn\n";
  k.names.insert(k.names.end(), {"vt", "v0", "v1", "mnull"});
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "TensorView")) << r.text;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %vt = OpTypeStruct %uint %uint %uint %uint
    CHECK: OpConstantComposite %vt %uint_0 %uint_4294967295 %uint_0 %uint_4294967295
    CHECK: %v0 = OpCopyObject %vt
    CHECK: OpCompositeInsert %vt %uint_1 %v0 0
    CHECK: OpBitcast %uint %int_20
    CHECK: %v1 = OpCompositeInsert %vt %uint_4 %
    CHECK: OpCooperativeMatrixStoreKHR %
    CHECK: OpLoopMerge
    CHECK: OpCompositeExtract %uint %v1 0
    CHECK: OpCompositeExtract %uint %v1 1
    CHECK: OpISub %uint
    CHECK: OpSelect %float
    CHECK: OpCooperativeMatrixLoadKHR
  )")) << r.text;
  // The load starts from Object (stored into the region before the loop).
  EXPECT_TRUE(Contains(r.text, " %mnull %uint_0 %uint_16 NonPrivatePointer\n")) << r.text;
  // Permuted: view dimension 1 (the fastest) is layout dimension 0, whose span divides first.
  EXPECT_TRUE(std::regex_search(r.text, std::regex("(%[0-9]+) = OpCompositeExtract %uint %l1 6\n"
                                                   "%[0-9]+ = OpUMod %uint %[0-9]+ \\1\n")))
      << r.text;
  // Clip tests: 2 in the load, 2 in the store.
  EXPECT_EQ(Count(r.text, "OpCompositeExtract %uint %v1 3"), 2u) << r.text;
}

// ---- Transposes, Use conversions, per-element operations, reductions

// %m (16 x 16 float accumulator, from a tensor) and `body` after it, with the functions %add
// (a + b) and %scale (row, column, x, k: x * k).
Kernel MatrixKernel(const std::string& body, const std::string& globals) {
  Kernel k;
  k.capabilities =
      "OpCapability CooperativeMatrixConversionsNV\n"
      "OpCapability CooperativeMatrixPerElementOperationsNV\n"
      "OpCapability CooperativeMatrixReductionsNV\n";
  k.globals =
      "%matb = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_1\n"
      "%mata = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_0\n"
      "%mat8 = OpTypeCooperativeMatrixKHR %float %u_3 %u_8 %u_8 %u_2\n"
      "%mat16x8 = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_8 %u_2\n"
      "%combinefn = OpTypeFunction %float %float %float\n"
      "%elemfn = OpTypeFunction %float %uint %uint %float %float\n" +
      globals;
  k.body = "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %l1 None None\n" + body +
           "OpReturn\nOpFunctionEnd\n"
           "%add = OpFunction %float None %combinefn\n"
           "%add_a = OpFunctionParameter %float\n%add_b = OpFunctionParameter %float\n"
           "%add_l = OpLabel\n%add_v = OpFAdd %float %add_a %add_b\nOpReturnValue %add_v\n"
           "OpFunctionEnd\n"
           "%scale = OpFunction %float None %elemfn\n"
           "%sc_r = OpFunctionParameter %uint\n%sc_c = OpFunctionParameter %uint\n"
           "%sc_x = OpFunctionParameter %float\n%sc_k = OpFunctionParameter %float\n"
           "%sc_l = OpLabel\n%sc_v = OpFMul %float %sc_x %sc_k\nOpReturnValue %sc_v\n";
  k.names.insert(k.names.end(), {"t", "add", "scale"});
  return k;
}

TEST(LowerCoopMatrix2, ViewDimensionsAndStridesFollowTheClipInTheViewStruct) {
  Kernel k;
  k.globals =
      "%true = OpConstantTrue %bool\n"
      "%vt = OpTypeTensorViewNV %u_3 %true %u_0 %u_1 %u_2\n";
  k.body =
      "%v0 = OpCreateTensorViewNV %vt\n"
      "%v1 = OpTensorViewSetDimensionNV %vt %v0 %u_1 %u_16 %u_8\n"
      "%v2 = OpTensorViewSetStrideNV %vt %v1 %u_20 %u_8 %u_1\n"
      "%v3 = OpTensorViewSetClipNV %vt %v2 %u_0 %u_4 %u_0 %u_8\n" +
      std::string(kLoadStore);
  k.names.insert(k.names.end(), {"vt", "v1", "v2", "v3"});
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  // Clip (4), dimensions (3), strides (3): 10 members.
  EXPECT_TRUE(std::regex_search(r.text, std::regex("%vt = OpTypeStruct( %uint){10}\n"))) << r.text;
  EXPECT_TRUE(std::regex_search(r.text, std::regex("OpCompositeInsert %vt %uint_8 %[0-9]+ 6\n")))
      << r.text;
  // Setting the dimensions makes the strides packed: 1, 8, 16 * 8 (members 9, 8, 7).
  EXPECT_TRUE(std::regex_search(r.text, std::regex("OpCompositeInsert %vt %uint_1 %[0-9]+ 9\n")))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "OpIMul %uint %uint_1 %uint_8")) << r.text;
  EXPECT_TRUE(
      std::regex_search(r.text, std::regex("%v1 = OpCompositeInsert %vt %[0-9]+ %[0-9]+ 7\n")))
      << r.text;
  EXPECT_TRUE(
      std::regex_search(r.text, std::regex("%v2 = OpCompositeInsert %vt %uint_1 %[0-9]+ 9\n")))
      << r.text;
  EXPECT_TRUE(
      std::regex_search(r.text, std::regex("%v3 = OpCompositeInsert %vt %uint_8 %[0-9]+ 3\n")))
      << r.text;
  EXPECT_FALSE(Contains(r.text, "TensorView")) << r.text;
}

TEST(LowerCoopMatrix2, TransposeStoresRowMajorAndLoadsColumnMajor) {
  const PassRun r = Lower(Text(MatrixKernel("%t = OpCooperativeMatrixTransposeNV %matb %m\n", "")));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "TransposeNV")) << r.text;
  EXPECT_TRUE(Contains(r.text, " %m %uint_0 %uint_16 NonPrivatePointer\nOpControlBarrier"))
      << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("OpControlBarrier[^\n]*\n%[0-9]+ = OpAccessChain[^\n]*\n%t = "
                         "OpCooperativeMatrixLoadKHR %[0-9a-z_]+ %[0-9]+ %uint_1 %uint_16 "
                         "NonPrivatePointer\nOpControlBarrier")))
      << r.text;
}

TEST(LowerCoopMatrix2, UseConversionsStoreAndLoadRowMajor) {
  const PassRun r =
      Lower(Text(MatrixKernel("%t = OpCooperativeMatrixConvertUseEXT %mata %m\n", "")));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "ConvertUse")) << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("%t = OpCooperativeMatrixLoadKHR %[0-9a-z_]+ %[0-9]+ %uint_0 %uint_16 "
                         "NonPrivatePointer\n")))
      << r.text;
}

TEST(LowerCoopMatrix2, PerElementOperationsCallFuncWithRowColumnElementAndOperands) {
  const PassRun r = Lower(Text(MatrixKernel(
      "%t = OpCooperativeMatrixPerElementOpNV %mat %m %scale %k\n", "%k = OpConstant %float 2\n")));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "PerElement")) << r.text;
  // In the slot loop: element e = lane + 8j, row e / 16, column e % 16, the element, %k.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpUDiv %uint (%[0-9]+) %uint_16\n(%[0-9]+) = OpUMod %uint "
                         "\\2 %uint_16\n%[0-9]+ = OpIAdd[^\n]*\n%[0-9]+ = OpAccessChain[^\n]*\n"
                         "(%[0-9]+) = OpLoad %float [^\n]*\n%[0-9]+ = OpFunctionCall %float "
                         "%scale \\1 \\3 \\4 %float_2\n")))
      << r.text;
  EXPECT_EQ(Count(r.text, "OpFunctionCall"), 1u) << r.text;
  EXPECT_EQ(Count(r.text, "OpLoopMerge"), 2u) << r.text;  // The load's, the operation's.
  EXPECT_TRUE(Contains(r.text, "%t = OpCooperativeMatrixLoadKHR %mat ")) << r.text;
}

TEST(LowerCoopMatrix2, ReductionsFoldRowsColumnsBlocksAndEverythingWithCombineFunc) {
  struct Case {
    const char* reduce;
    const char* type;
    size_t loops;  // Beside the tensor load's.
  };
  for (const Case& c : {Case{"Row", "%mat16x8", 2}, Case{"Column", "%mat", 2},
                        Case{"Row|Column", "%mat8", 1}, Case{"2x2", "%mat8", 1}}) {
    const PassRun r = Lower(Text(MatrixKernel(
        std::string("%t = OpCooperativeMatrixReduceNV ") + c.type + " %m " + c.reduce + " %add\n",
        "")));
    ASSERT_TRUE(r.ok) << c.reduce << ": " << r.error;
    EXPECT_FALSE(Contains(r.text, "Reduce")) << r.text;
    EXPECT_EQ(Count(r.text, "OpLoopMerge"), 1 + c.loops) << c.reduce << "\n" << r.text;
    // 2x2 combines 4 elements in 3 calls; the others call once, in a fold loop.
    EXPECT_EQ(Count(r.text, "OpFunctionCall %float %add"), std::string(c.reduce) == "2x2" ? 3u : 1u)
        << c.reduce << "\n"
        << r.text;
    if (std::string(c.reduce) == "Row|Column") {
      // One value for every element: the fold's result, replicated (no result slots).
      EXPECT_TRUE(std::regex_search(
          r.text, std::regex("OpControlBarrier .*\n%t = OpCompositeConstruct %[0-9]+ %[0-9]+\n")))
          << r.text;
      continue;
    }
    // The results follow the 256 input elements in the region.
    EXPECT_TRUE(Contains(r.text, "OpIAdd %uint %") && Contains(r.text, " %uint_256\n")) << r.text;
    // One value a row (column), spread by a column-major (row-major) load with Stride 0.
    const std::string reduce = c.reduce;
    if (reduce == "Row" || reduce == "Column") {
      EXPECT_TRUE(std::regex_search(
          r.text, std::regex(std::string("%t = OpCooperativeMatrixLoadKHR %[0-9a-z_]+ %[0-9]+ ") +
                             "%uint_" + (reduce == "Row" ? "1" : "0") + " %uint_0 ")))
          << r.text;
    }
  }
}

// ---- Workgroup scope

// A Workgroup-scope 16 x 16 accumulator in a workgroup of 2 subgroups of 8: loaded through a
// slice, reduced Row | Column, scaled element by element, stored through the slice. Each
// subgroup owns 8 rows (band_coop_matrix2.cc, "Owned rows"): its slice starts at row
// SubgroupId * 8, the per-element operation's rows too (a wrapper adds them), and the reduction
// of its band is folded with the other subgroup's through a Workgroup array of 2 x 8 floats
// (SubgroupId * 8 + the lane), between two Workgroup barriers, in subgroup order.
TEST(LowerCoopMatrix2, OwnedRowsFoldRowAndColumnReductionsAcrossTheSubgroups) {
  Kernel k = MatrixKernel(
      "%ls = OpTensorLayoutSliceNV %lt %l1 %u_0 %u_16 %u_0 %u_16\n"
      "%wm = OpCooperativeMatrixLoadTensorNV %w %p %wnull %ls None None\n"
      "%wt = OpCooperativeMatrixReduceNV %w %wm Row|Column %add\n"
      "%ws = OpCooperativeMatrixPerElementOpNV %w %wt %scale %k\n"
      "OpCooperativeMatrixStoreTensorNV %p %ws %ls None None\n",
      "%w = OpTypeCooperativeMatrixKHR %float %u_2 %u_16 %u_16 %u_2\n"
      "%wnull = OpConstantNull %w\n%k = OpConstant %float 2\n");
  k.names.push_back("w");
  k.names.erase(std::find(k.names.begin(), k.names.end(), "t"));
  k.names.push_back("wt");
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "%w = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_16 "
                               "%uint_2\n"))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "BuiltIn SubgroupId")) << r.text;
  EXPECT_TRUE(Contains(r.text, "_arr_float_uint_16 Workgroup")) << r.text;
  // The band's value at SubgroupId * 8 + lane, a barrier, subgroup 0's and subgroup 1's values
  // folded by %add, a barrier, splat.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpIMul %uint %[0-9]+ %uint_8\n(%[0-9]+) = OpIAdd %uint \\1 "
                         "%[0-9]+\n%[0-9]+ = OpAccessChain %[0-9A-Za-z_]+ %[0-9]+ \\2\n"
                         "OpStore[^\n]*\nOpControlBarrier %uint_2 %uint_2 %[0-9a-z_]+\n"
                         "(%[0-9]+) = OpAccessChain %[0-9A-Za-z_]+ %[0-9]+ %uint_0\n(%[0-9]+) = "
                         "OpLoad %float \\3[^\n]*\n(%[0-9]+) = OpAccessChain %[0-9A-Za-z_]+ "
                         "%[0-9]+ %uint_8\n(%[0-9]+) = OpLoad %float \\5[^\n]*\n(%[0-9]+) = "
                         "OpFunctionCall %float %add \\4 \\6\nOpControlBarrier %uint_2 %uint_2 "
                         "%[0-9a-z_]+\n%wt = OpCompositeConstruct %w \\7\n")))
      << r.text;
  // Lowered to plain code, it validates (RunPasses validates every pass's output).
  const PassRun plain = Lower(Text(k), 8, {{"lower-coop-matrix", "8"}});
  ASSERT_TRUE(plain.ok) << plain.error;
  EXPECT_FALSE(Contains(plain.text, "CooperativeMatrix")) << plain.text;
}

// ---- Workgroup scope

// Workgroup-scope A (16 x 8), B (8 x 16) and accumulator (16 x 16): loads, a multiply-add, a
// tensor store and a KHR store.
Kernel WorkgroupKernel() {
  Kernel k;
  k.globals =
      "%wa = OpTypeCooperativeMatrixKHR %float %u_2 %u_16 %u_8 %u_0\n"
      "%wb = OpTypeCooperativeMatrixKHR %float %u_2 %u_8 %u_16 %u_1\n"
      "%wc = OpTypeCooperativeMatrixKHR %float %u_2 %u_16 %u_16 %u_2\n";
  k.body =
      "%a = OpCooperativeMatrixLoadKHR %wa %p %u_0 %u_8 None\n"
      "%b = OpCooperativeMatrixLoadKHR %wb %p %u_0 %u_16 None\n"
      "%m = OpCooperativeMatrixLoadTensorNV %wc %p %mnull_w %l1 None None\n"
      "%d = OpCooperativeMatrixMulAddKHR %wc %a %b %m\n"
      "OpCooperativeMatrixStoreTensorNV %p %d %l1 None None\n"
      "OpCooperativeMatrixStoreKHR %p %d %u_0 %u_16 None\n"
      "OpReturn\n";
  k.globals += "%mnull_w = OpConstantNull %wc\n";
  k.local_size = 32;
  k.names.insert(k.names.end(), {"wa", "wb", "wc", "a", "b", "d"});
  return k;
}

// A workgroup of 24 does not divide the 256 elements: every subgroup lowers the tensor store by
// itself, in its own region, and subgroup 0 writes.
TEST(LowerCoopMatrix2, WorkgroupMatricesAreReplicatedPerSubgroupAndSubgroupZeroStores) {
  Kernel k = WorkgroupKernel();
  k.local_size = 24;
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  // Same shapes and Uses at Subgroup scope (3); no Workgroup-scope matrix left.
  for (const char* type : {"%wa = OpTypeCooperativeMatrixKHR %float %uint_3(_[0-9]+)? %uint_16 "
                           "%uint_8 %uint_0\n",
                           "%wb = OpTypeCooperativeMatrixKHR %float %uint_3(_[0-9]+)? %uint_8 "
                           "%uint_16 %uint_1\n"}) {
    EXPECT_TRUE(std::regex_search(r.text, std::regex(type))) << type << "\n" << r.text;
  }
  EXPECT_FALSE(Contains(r.text, "%float %uint_2 %uint")) << r.text;
  // %wc is now the same type as %mat (16 x 16 Subgroup accumulators): one declaration is left.
  EXPECT_FALSE(Contains(r.text, "%wc = ")) << r.text;
  // Loads and the multiply-add are kept, run by every subgroup.
  EXPECT_TRUE(Contains(r.text, "%a = OpCooperativeMatrixLoadKHR %wa %p %uint_0 %uint_8")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%d = OpCooperativeMatrixMulAddKHR %mat %a %b %m\n")) << r.text;
  // The KHR store runs in subgroup 0 only.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpLoad %uint %[0-9A-Za-z_]+\n(%[0-9]+) = OpIEqual %bool \\1 "
                         "%uint_0\nOpSelectionMerge (%[0-9]+) None\nOpBranchConditional \\2 "
                         "(%[0-9]+) \\3\n\\4 = OpLabel\nOpCooperativeMatrixStoreKHR %p %d "
                         "%uint_0 %uint_16 None\nOpBranch \\3\n\\3 = OpLabel\n")))
      << r.text;
  // The tensor store writes an element when it is in bounds and the subgroup is subgroup 0.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpIEqual %bool %[0-9]+ %uint_0\n(%[0-9]+) = OpLogicalAnd "
                         "%bool %[0-9]+ \\1\nOpSelectionMerge %[0-9]+ None\nOpBranchConditional "
                         "\\2 ")))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "OpDecorate %") && Contains(r.text, "BuiltIn SubgroupId")) << r.text;
}

// A workgroup of 32 divides the 256 elements: the tensor load and store share one region of the
// workgroup (256 floats, not 4 x 256) and their element loops (8 elements an invocation, by
// LocalInvocationIndex), with Workgroup-scope barriers; subgroup 0 writes the matrix there, and
// every invocation writes its in-bounds elements to the tensor.
TEST(LowerCoopMatrix2, WorkgroupMatricesShareTheRegionAndTheElementLoopsOfTheWorkgroup) {
  const PassRun r = Lower(Text(WorkgroupKernel()));
  ASSERT_TRUE(r.ok) << r.error;
  // One region of the workgroup: the multiply-add's A (16 x 8) and C (16 x 16), 384 floats, not
  // four times as many.
  EXPECT_TRUE(Contains(r.text, "OpVariable %_ptr_Workgroup__arr_float_uint_384 Workgroup"))
      << r.text;
  EXPECT_FALSE(Contains(r.text, "_arr_float_uint_1536")) << r.text;
  // The multiply-add is split by rows among the four subgroups: subgroup g loads rows 4g .. 4g+3
  // of A (at g * 32) and of C (at 128 + g * 64), multiplies them by the whole B and stores them
  // back where its C rows were; every subgroup then loads the whole result.
  EXPECT_TRUE(std::regex_search(
      r.text,
      std::regex(
          "(%[0-9]+) = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_4 %uint_8 %uint_0\n")))
      << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text,
      std::regex(
          "(%[0-9]+) = OpIMul %uint %[0-9]+ %uint_32\n%[0-9]+ = OpAccessChain "
          "%_ptr_Workgroup_float %[0-9]+ \\1\n(%[0-9]+) = OpCooperativeMatrixLoadKHR "
          "%[0-9]+ %[0-9]+ %uint_0 %uint_8 NonPrivatePointer\n(%[0-9]+) = OpIMul %uint %[0-9]+ "
          "%uint_64\n(%[0-9]+) = OpIAdd %uint \\3 %uint_128\n(%[0-9]+) = OpAccessChain "
          "%_ptr_Workgroup_float %[0-9]+ \\4\n(%[0-9]+) = OpCooperativeMatrixLoadKHR "
          "%[0-9]+ \\5 %uint_0 %uint_16 NonPrivatePointer\n(%[0-9]+) = "
          "OpCooperativeMatrixMulAddKHR %[0-9]+ \\2 %b \\6\nOpCooperativeMatrixStoreKHR \\5 "
          "\\7 %uint_0 %uint_16 NonPrivatePointer\nOpControlBarrier %uint_2 %uint_2 ")))
      << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("%d = OpCooperativeMatrixLoadKHR %mat %[0-9]+ %uint_0 %uint_16 ")))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "BuiltIn LocalInvocationIndex")) << r.text;
  EXPECT_FALSE(Contains(r.text, "BuiltIn SubgroupLocalInvocationId")) << r.text;
  // Element e = index + j * 32, j below 8.
  EXPECT_TRUE(std::regex_search(r.text, std::regex("OpIMul %uint %[0-9]+ %uint_32\n"))) << r.text;
  EXPECT_TRUE(std::regex_search(r.text, std::regex("OpULessThan %bool %[0-9]+ %uint_8\n")))
      << r.text;
  // Barriers at Workgroup scope (2) only.
  EXPECT_TRUE(Contains(r.text, "OpControlBarrier %uint_2 %uint_2 ")) << r.text;
  EXPECT_FALSE(std::regex_search(r.text, std::regex("OpControlBarrier %uint_3(_[0-9]+)? ")))
      << r.text;
  // The tensor store's matrix goes to the region from subgroup 0 only; the element writes are not
  // restricted to a subgroup.
  EXPECT_TRUE(std::regex_search(
      r.text,
      std::regex("(%[0-9]+) = OpIEqual %bool %[0-9]+ %uint_0\nOpSelectionMerge (%[0-9]+) None\n"
                 "OpBranchConditional \\1 (%[0-9]+) \\2\n\\3 = OpLabel\n"
                 "OpCooperativeMatrixStoreKHR %[0-9]+ %d %uint_0 %uint_16 NonPrivatePointer\n")))
      << r.text;
  EXPECT_FALSE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpIEqual %bool %[0-9]+ %uint_0\n%[0-9]+ = OpLogicalAnd "
                         "%bool %[0-9]+ \\1\n")))
      << r.text;
}

// Another entry point with another workgroup size: nothing is shared (a region per subgroup,
// for the 64 invocations of the larger workgroup: 8 x 256 floats).
TEST(LowerCoopMatrix2, WorkgroupsOfSeveralSizesKeepPerSubgroupRegions) {
  std::string text = Text(WorkgroupKernel());
  const std::string mode = "OpExecutionMode %main LocalSize 32 1 1\n";
  text.insert(text.find(mode) + mode.size(), "OpExecutionMode %other LocalSize 64 1 1\n");
  text.insert(text.find(mode), "OpEntryPoint GLCompute %other \"other\"\n");
  text += "%other = OpFunction %void None %fn\n%oe = OpLabel\nOpReturn\nOpFunctionEnd\n";
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "LocalInvocationIndex")) << r.text;
  EXPECT_TRUE(Contains(r.text, "OpVariable %_ptr_Workgroup__arr_float_uint_2048 Workgroup"))
      << r.text;
}

// ---- Shared memory of a device profile

std::string FileText(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The h100 profile with another maxComputeSharedMemorySize, written to a file: its path.
std::string H100WithSharedMemory(uint32_t bytes) {
  std::string json = FileText("test/data/profiles/h100.json");
  const std::string from = "\"maxComputeSharedMemorySize\": 49152";
  const size_t at = json.find(from);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos) {
    json.replace(at, from.size(), "\"maxComputeSharedMemorySize\": " + std::to_string(bytes));
  }
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(dir ? dir : "/tmp") + "/h100_shared_" + std::to_string(bytes) + ".json";
  std::ofstream(path) << json;
  return path;
}

PassRun LowerFor(const std::string& assembly, const std::string& argument) {
  return testing::RunPasses(assembly, {{"lower-coop-matrix2", argument}}, "vulkan1.3");
}

PassRun LowerDecodeQ4(const std::string& argument) {
  return testing::RunPasses(
      FileText("test/data/corpus/cm2_decode_q4.spvasm"),
      {{"freeze-spec-const", ""}, {"fold-spec-const", ""}, {"lower-coop-matrix2", argument}});
}

// cm2_decode_q4 (128 x 128 tiles, 8 subgroups of 32): each subgroup owns 16 rows of A, of the
// half accumulator and of the float result (band_coop_matrix2.cc, "Owned rows"), its own regions
// holding its rows (8 x 512 halves of A, 8 x 2048 floats of the result) in the arrays that B's
// shared load uses too (4096 halves): 73728 bytes.
TEST(LowerCoopMatrix2, SubgroupsOwnTheirRowsWhereTheyFit) {
  const PassRun r = LowerDecodeQ4("32," + H100WithSharedMemory(73728));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "BuiltIn SubgroupId")) << r.text;
  EXPECT_TRUE(Contains(r.text, "_arr_half_uint_4096 Workgroup")) << r.text;
  EXPECT_TRUE(Contains(r.text, "_arr_float_uint_16384 Workgroup")) << r.text;
  EXPECT_EQ(Count(r.text, "= OpTypeArray %half"), 1u) << r.text;  // One array of halves.
  // Subgroup g's slice starts at row 16 g.
  EXPECT_TRUE(std::regex_search(r.text, std::regex("= OpIMul %uint %[0-9]+ %uint_16\n"))) << r.text;
}

// COOPSPV_OWN_ROWS=0 keeps the matrices whole, for comparisons: every subgroup multiplies the
// whole 128 x 128 tiles (replicated: 73728 bytes fit), eight times the tile multiply-adds of a
// subgroup owning 16 rows.
TEST(LowerCoopMatrix2, OwnedRowsCanBeTurnedOff) {
  const PassRun owned = LowerDecodeQ4("32," + H100WithSharedMemory(73728));
  setenv("COOPSPV_OWN_ROWS", "0", 1);
  const PassRun whole = LowerDecodeQ4("32," + H100WithSharedMemory(73728));
  unsetenv("COOPSPV_OWN_ROWS");
  ASSERT_TRUE(owned.ok && whole.ok) << owned.error << whole.error;
  EXPECT_EQ(Count(whole.text, "OpCooperativeMatrixMulAddKHR"),
            8 * Count(owned.text, "OpCooperativeMatrixMulAddKHR"));
}

// With less room the owned instructions whose regions need the most run in rounds:
// in round r the subgroups g with g % rounds = r, each in region g / rounds, a Workgroup barrier
// after each round; 2 rounds halve the regions of the instruction (73727 bytes: the tensor
// store's 8 x 2048 floats are 4 x 2048), 4 quarter them. The multiply-adds stay each subgroup's
// own.
TEST(LowerCoopMatrix2, OwnedRowsGoInRoundsWhereTheyDoNotFit) {
  const PassRun owned = LowerDecodeQ4("32," + H100WithSharedMemory(73728));
  ASSERT_TRUE(owned.ok) << owned.error;
  EXPECT_FALSE(Contains(owned.text, "OpUMod %uint %gl_SubgroupID")) << owned.text;
  for (const auto& [limit, rounds, floats] :
       {std::tuple{73727u, 2u, 8192u}, {49152u, 2u, 8192u}, {40959u, 4u, 4096u}}) {
    const PassRun r = LowerDecodeQ4("32," + H100WithSharedMemory(limit));
    ASSERT_TRUE(r.ok) << limit << ": " << r.error;
    EXPECT_TRUE(Contains(r.text, "_arr_float_uint_" + std::to_string(floats) + " Workgroup"))
        << limit << ": " << r.text;
    // Round r: g % rounds == r, the region at (g / rounds) * T.
    const std::string k = "%uint_" + std::to_string(rounds);
    EXPECT_TRUE(std::regex_search(r.text, std::regex("= OpUMod %uint %[0-9]+ " + k + "\n"))) << limit;
    EXPECT_TRUE(std::regex_search(r.text, std::regex("= OpUDiv %uint %[0-9]+ " + k + "\n"))) << limit;
    EXPECT_EQ(Count(r.text, "OpCooperativeMatrixMulAddKHR"),
              Count(owned.text, "OpCooperativeMatrixMulAddKHR"))
        << limit;
    EXPECT_GT(Count(r.text, "OpControlBarrier %uint_2 %uint_2"),
              Count(owned.text, "OpControlBarrier %uint_2 %uint_2"))
        << limit;
    // Only the float result's tensor store (8 x 2048 floats) goes in rounds; A's loads (8 x 512
    // halves) keep a region each subgroup.
    const std::regex round_test("= OpUMod %uint %[0-9]+ " + k + "\n%[0-9]+ = OpIEqual %bool");
    EXPECT_EQ(std::distance(std::sregex_iterator(r.text.begin(), r.text.end(), round_test),
                            std::sregex_iterator()),
              1)
        << limit;
  }
}

// The lowering with a shared memory limit and no tiling (what --legalize-for-device runs for a
// device without KHR matrices), its output validated.
PassRun LowerWithin(const std::string& assembly, uint32_t limit) {
  PassRun run;
  std::vector<uint32_t> words;
  Problem problem;
  if (!Assemble(assembly, {}, &words, &problem)) {
    ADD_FAILURE() << problem.message;
    return run;
  }
  Diagnostic d;
  auto module = ir::Module::Read(words, &d);
  if (!module) {
    ADD_FAILURE() << d.ToString();
    return run;
  }
  opt::PassResult r = opt::CreateLowerCoopMatrix2DevicePass(8, std::nullopt, limit)->Run(*module);
  if (r.status == opt::PassStatus::kFailed) {
    run.error = r.error;
    return run;
  }
  EXPECT_NE(r.rebuilt, nullptr);
  if (!r.rebuilt) return run;
  const std::vector<uint32_t> out(r.rebuilt->words().begin(), r.rebuilt->words().end());
  ValidatorOptions validator;
  validator.target_env = "vulkan1.3";
  ValidationResult result;
  EXPECT_TRUE(Validate(out, validator, &result, &problem)) << problem.message;
  EXPECT_TRUE(result.valid);
  for (const auto& diagnostic : result.diagnostics) ADD_FAILURE() << FormatDiagnostic(diagnostic);
  DisassembleOptions dis;
  dis.header = false;
  dis.indent = false;
  EXPECT_TRUE(Disassemble(out, dis, &run.text, &problem)) << problem.message;
  run.ok = true;
  return run;
}

// WorkgroupKernel and a second, smaller multiply-add (8 x 8 times 8 x 16). Split by rows, the
// first needs 384 floats (A 16 x 8 and C 16 x 16), the second 192 (A 8 x 8, C 8 x 16); the
// tensor load and store need 256 each.
std::string TwoMultiplyAdds() {
  Kernel k = WorkgroupKernel();
  k.globals +=
      "%wa2 = OpTypeCooperativeMatrixKHR %float %u_2 %u_8 %u_8 %u_0\n"
      "%wc2 = OpTypeCooperativeMatrixKHR %float %u_2 %u_8 %u_16 %u_2\n";
  const std::string store = "OpCooperativeMatrixStoreTensorNV";
  k.body.insert(k.body.find(store),
                "%a2 = OpCooperativeMatrixLoadKHR %wa2 %p %u_0 %u_8 None\n"
                "%c2 = OpCooperativeMatrixLoadKHR %wc2 %p %u_0 %u_16 None\n"
                "%d2 = OpCooperativeMatrixMulAddKHR %wc2 %a2 %b %c2\n"
                "OpCooperativeMatrixStoreKHR %p %d2 %u_0 %u_16 None\n");
  k.names.insert(k.names.end(), {"d2"});
  return Text(k);
}

TEST(LowerCoopMatrix2, OnlyTheMultiplyAddsWhoseRegionsDoNotFitStayReplicated) {
  // 1536 bytes: both split.
  const PassRun both = LowerWithin(TwoMultiplyAdds(), 1536);
  ASSERT_TRUE(both.ok) << both.error;
  EXPECT_TRUE(Contains(both.text, "_arr_float_uint_384 Workgroup")) << both.text;
  EXPECT_FALSE(Contains(both.text, "= OpCooperativeMatrixMulAddKHR %mat %a %b %m\n")) << both.text;
  EXPECT_TRUE(Contains(both.text, "%d2 = OpCooperativeMatrixLoadKHR")) << both.text;
  // Below: the first is replicated (it needs the most), the second still split (2 rows of A a
  // subgroup), in 256 floats.
  for (uint32_t limit : {1535u, 1024u}) {
    const PassRun r = LowerWithin(TwoMultiplyAdds(), limit);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(Contains(r.text, "_arr_float_uint_256 Workgroup")) << r.text;
    EXPECT_TRUE(Contains(r.text, "%d = OpCooperativeMatrixMulAddKHR %mat %a %b %m\n")) << r.text;
    EXPECT_TRUE(Contains(r.text, "%d2 = OpCooperativeMatrixLoadKHR")) << r.text;
    EXPECT_TRUE(std::regex_search(
        r.text, std::regex("OpTypeCooperativeMatrixKHR %float %uint_3 %uint_2 %uint_8 %uint_0\n")))
        << r.text;
  }
  // Below the tensor load's 1024 bytes: nothing helps.
  const PassRun none = LowerWithin(TwoMultiplyAdds(), 1023);
  ASSERT_FALSE(none.ok);
  EXPECT_TRUE(Contains(none.error, "even with every multiply-add replicated")) << none.error;
  EXPECT_TRUE(Contains(none.error, "= OpCooperativeMatrixLoadTensorNV: its")) << none.error;
}

TEST(LowerCoopMatrix2, WhatDoesNotFitEvenReplicatedFailsNamingTheLargestNeed) {
  const PassRun r = LowerFor(Text(WorkgroupKernel()), "8," + H100WithSharedMemory(1023));
  ASSERT_FALSE(r.ok);
  // WorkgroupKernel's tensor load and store need 256 floats each (1024 bytes), in the one shared
  // region; the first of them is named.
  EXPECT_TRUE(Contains(r.error, "= OpCooperativeMatrixLoadTensorNV: its")) << r.error;
  EXPECT_TRUE(Contains(r.error, "its Workgroup regions need 1024 bytes")) << r.error;
  EXPECT_TRUE(Contains(r.error, "needs 1024 bytes of Workgroup memory (0 of them its own"))
      << r.error;
  EXPECT_TRUE(Contains(r.error, "maxComputeSharedMemorySize 1023")) << r.error;
}

TEST(LowerCoopMatrix2, TheModulesOwnWorkgroupVariablesCountToo) {
  Kernel k = WorkgroupKernel();
  // 64 bytes of the module's own, in the entry point's interface: 1024 + 64 is above 1087.
  k.globals +=
      "%arr16 = OpTypeArray %float %u_16\n"
      "%pw = OpTypePointer Workgroup %arr16\n"
      "%own = OpVariable %pw Workgroup\n";
  k.entry_extra = " %own";
  // Without tiling: the H100 lists no float32 operands (below).
  const PassRun fits = LowerWithin(Text(k), 1088);
  ASSERT_TRUE(fits.ok) << fits.error;
  const PassRun r = LowerWithin(Text(k), 1087);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "needs 1088 bytes of Workgroup memory (64 of them its own"))
      << r.error;
}

// Multiply-adds and matrices the device lists in no form, not even as tiles, become plain code
// (the device would refuse them), with every matrix an instruction relates to them; the others
// stay the device's tiles. With the profile's shapes or the default ones; without a profile
// nothing is tiled and nothing lowered.
bool Plain(const PassRun& r) {
  return !Contains(r.text, "OpTypeCooperativeMatrixKHR") &&
         !Contains(r.text, "OpCapability CooperativeMatrixKHR") &&
         !Contains(r.text, "SPV_KHR_cooperative_matrix");
}

TEST(LowerCoopMatrix2, MatricesTheDeviceListsInNoFormBecomePlainCode) {
  // Workgroup float32 operands become Subgroup float32 ones: no H100 entry multiplies float32,
  // and every matrix of the kernel meets that multiply-add.
  for (const std::string& argument : {std::string("8,h100"), std::string("8,")}) {
    const PassRun r = LowerFor(Text(WorkgroupKernel()), argument);
    ASSERT_TRUE(r.ok) << argument << ": " << r.error;
    // The multiply-add and its float32 operands are plain code; the float32 accumulator that
    // only the tensor load and store use is listed and stays.
    EXPECT_FALSE(Contains(r.text, "OpCooperativeMatrixMulAddKHR")) << argument << "\n" << r.text;
    EXPECT_EQ(Count(r.text, "OpTypeCooperativeMatrixKHR"), 1u) << argument << "\n" << r.text;
    EXPECT_TRUE(Contains(r.text, "OpGroupNonUniformShuffle")) << r.text;
  }
  const PassRun untiled = LowerFor(Text(WorkgroupKernel()), "8");
  ASSERT_TRUE(untiled.ok) << untiled.error;
  EXPECT_TRUE(Contains(untiled.text, "OpTypeCooperativeMatrixKHR %float")) << untiled.text;
  // The kernel's own Subgroup matrices too: an 8 x 16 uint32 accumulator (16 x 8 is listed).
  Kernel k;
  k.component = "uint";
  k.rows = 8;
  k.body = kLoadStore;
  const PassRun u = LowerFor(Text(k), "8,h100");
  ASSERT_TRUE(u.ok) << u.error;
  EXPECT_TRUE(Plain(u)) << u.text;
  k.rows = 16;
  k.cols = 8;
  const PassRun listed = LowerFor(Text(k), "8,h100");
  ASSERT_TRUE(listed.ok) << listed.error;
  EXPECT_TRUE(Contains(listed.text, "OpTypeCooperativeMatrixKHR %uint")) << listed.text;
}

// A multiply-add whose types the device lists one by one but not together becomes plain code
// too, with the matrices it meets.
TEST(LowerCoopMatrix2, MultiplyAddsOfTypesListedApartButNotTogetherBecomePlainCode) {
  Kernel k;
  k.component = "half";
  k.globals =
      "%ha = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_0\n"
      "%hb = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_1\n"
      "%fc = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_2\n";
  auto text = [&](const std::string& result) {
    k.body =
        "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %l1 None None\n"
        "%a = OpCooperativeMatrixLoadKHR %ha %p %u_0 %u_16 None\n"
        "%b = OpCooperativeMatrixLoadKHR %hb %p %u_0 %u_16 None\n" +
        result +
        "OpCooperativeMatrixStoreTensorNV %p %d %l1 None None\n"
        "OpReturn\n";
    return Text(k);
  };
  // float16 x float16 + float16 -> float32: each type is listed, the combination is not.
  const PassRun r = LowerFor(text("%f = OpCooperativeMatrixMulAddKHR %fc %a %b %m\n"
                                  "%d = OpFConvert %mat %f\n"),
                             "8,h100");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Plain(r)) << r.text;
  const PassRun listed =
      LowerFor(text("%d = OpCooperativeMatrixMulAddKHR %mat %a %b %m\n"), "8,h100");
  ASSERT_TRUE(listed.ok) << listed.error;
  EXPECT_TRUE(Contains(listed.text, "OpCooperativeMatrixMulAddKHR")) << listed.text;
}

// Only what meets an unlisted matrix goes: a listed multiply-add beside an unlisted uint32
// accumulator that shares no instruction with it stays a cooperative matrix multiply-add.
TEST(LowerCoopMatrix2, ListedMatricesBesideUnlistedOnesStay) {
  Kernel k;
  k.component = "half";
  k.globals =
      "%ha = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_0\n"
      "%hb = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_1\n"
      "%uacc = OpTypeCooperativeMatrixKHR %uint %u_3 %u_8 %u_16 %u_2\n"
      "%u_5 = OpConstant %uint 5\n"
      "%usplat = OpConstantComposite %uacc %u_5\n";
  k.body =
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %l1 None None\n"
      "%a = OpCooperativeMatrixLoadKHR %ha %p %u_0 %u_16 None\n"
      "%b = OpCooperativeMatrixLoadKHR %hb %p %u_0 %u_16 None\n"
      "%d = OpCooperativeMatrixMulAddKHR %mat %a %b %m\n"
      "%un = OpCooperativeMatrixLengthKHR %uint %uacc\n"
      "%u2 = OpIAdd %uacc %usplat %usplat\n"
      "%u0 = OpCompositeExtract %uint %u2 0\n"
      "%h0 = OpConvertUToF %half %u0\n"
      "%pp = OpAccessChain %pel %buf %u_0 %un\n"
      "OpStore %pp %h0\n"
      "OpCooperativeMatrixStoreTensorNV %p %d %l1 None None\n"
      "OpReturn\n";
  const PassRun r = LowerFor(Text(k), "8,h100");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "OpCooperativeMatrixMulAddKHR")) << r.text;
  EXPECT_TRUE(Contains(r.text, "OpCapability CooperativeMatrixKHR")) << r.text;
  EXPECT_FALSE(Contains(r.text, "OpTypeCooperativeMatrixKHR %uint")) << r.text;
  EXPECT_FALSE(Contains(r.text, "OpCooperativeMatrixLengthKHR")) << r.text;
  // 8 x 16 over a subgroup of 8: 16 elements per invocation.
  EXPECT_TRUE(Contains(r.text, "OpTypeArray %uint %uint_16")) << r.text;
}

// cm2_decode_q4's 128 x 128 float result went whole through the region of its tensor store: 64
// KiB, above the H100's 48 KiB whatever the multiply-adds do (issue #18). Its 8 subgroups own 16
// rows each, in 2 rounds: 4 regions of 16 x 128 floats (32 KiB) and B's shared 8 KiB of halves.
TEST(LowerCoopMatrix2, DecodeQ4FitsTheH100InRounds) {
  const PassRun r = LowerDecodeQ4("32,h100");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "_arr_half_uint_4096 Workgroup")) << r.text;
  EXPECT_TRUE(Contains(r.text, "_arr_float_uint_8192 Workgroup")) << r.text;
  EXPECT_FALSE(Contains(r.text, "_arr_float_uint_16384")) << r.text;
  // Below what even one subgroup's rows need, the matrices stay whole, in row bands; below what
  // a band of the smallest listed M (16 rows) needs, it is refused, saying so.
  const PassRun tight = LowerDecodeQ4("32," + H100WithSharedMemory(4096));
  ASSERT_FALSE(tight.ok);
  EXPECT_TRUE(Contains(tight.error, "(in row bands of 16)")) << tight.error;
  EXPECT_TRUE(Contains(tight.error, "maxComputeSharedMemorySize 4096")) << tight.error;
  // Without a profile there is no limit: the subgroups own their rows (73728 bytes, no bands).
  const PassRun unlimited = LowerDecodeQ4("32");
  ASSERT_TRUE(unlimited.ok) << unlimited.error;
  EXPECT_TRUE(Contains(unlimited.text, "_arr_float_uint_16384 Workgroup")) << unlimited.text;
  EXPECT_TRUE(Contains(unlimited.text, "BuiltIn SubgroupId")) << unlimited.text;
}

TEST(LowerCoopMatrix2, WorkgroupMatricesLowerFurtherWithoutCooperativeMatrices) {
  const PassRun r = Lower(Text(WorkgroupKernel()), 8, {{"lower-coop-matrix", "8"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "CooperativeMatrix")) << r.text;
}

TEST(LowerCoopMatrix2, PerElementMatrixOperandsPassTheirElementAtTheSamePlace) {
  const PassRun r =
      Lower(Text(MatrixKernel("%t = OpCooperativeMatrixPerElementOpNV %mat %m %scale %m\n", "")));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "PerElement")) << r.text;
  // The operand is stored 256 elements into the region; element e of it is passed.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpIAdd %uint %[0-9]+ %uint_256\n%[0-9]+ = OpAccessChain "
                         "[^\n]*\nOpCooperativeMatrixStoreKHR %[0-9]+ %m %uint_0 %uint_16 ")))
      << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpLoad %float [^\n]*\n(%[0-9]+) = OpIAdd %uint (%[0-9]+) "
                         "%uint_256\n%[0-9]+ = OpIAdd[^\n]*\n%[0-9]+ = OpAccessChain[^\n]*\n"
                         "(%[0-9]+) = OpLoad %float [^\n]*\n%[0-9]+ = OpFunctionCall %float "
                         "%scale %[0-9]+ %[0-9]+ \\1 \\4\n")))
      << r.text;
}

TEST(LowerCoopMatrix2, ConversionsThatChangeTheUseConvertElementsBetweenTheRegions) {
  Kernel k = MatrixKernel("%t = OpFConvert %ha %m\n",
                          "%half = OpTypeFloat 16\n"
                          "%ha = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_0\n");
  k.capabilities += "OpCapability Float16\n";
  k.names.push_back("ha");
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  // No half matrix at the operand's Use (Accumulator): a device may list none (bfloat16).
  EXPECT_FALSE(std::regex_search(
      r.text, std::regex("OpTypeCooperativeMatrixKHR %half %uint_3(_[0-9]+)? %uint_16 %uint_16 "
                         "%uint_2\n")))
      << r.text;
  // The float operand stored row-major, a barrier, each element converted by the scalar
  // conversion into the half region, a barrier, and the result loaded from there as A.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("OpCooperativeMatrixStoreKHR %[0-9]+ %m %uint_0 %uint_16 [^\n]*\n"
                         "OpControlBarrier [^\n]*\n")))
      << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpLoad %float [^\n]*\n(%[0-9]+) = OpFConvert %half \\1\n"
                         "(%[0-9]+ = [^\n]*\n)*OpStore %[0-9]+ \\2 ")))
      << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("OpControlBarrier [^\n]*\n(%[0-9]+ = [^\n]*\n)*%t = "
                         "OpCooperativeMatrixLoadKHR %ha [^\n]*\nOpControlBarrier")))
      << r.text;
  EXPECT_EQ(Count(r.text, "OpFConvert"), 1u) << r.text;
}

// ggml's bfloat16 flash attention converts its float32 accumulator P to a bfloat16 A (and here
// to a B too): lowered for the H100, whose list has bfloat16 only as A and B, the output keeps
// no bfloat16 accumulator and passes the device's shapes.
TEST(LowerCoopMatrix2, BFloat16UseConversionsNeedNoBFloat16Accumulator) {
  Kernel k;
  k.capabilities =
      "OpCapability BFloat16TypeKHR\n"
      "OpCapability BFloat16CooperativeMatrixKHR\n"
      "OpCapability CooperativeMatrixConversionsNV\n"
      "OpExtension \"SPV_KHR_bfloat16\"\n";
  k.globals =
      "%bf16 = OpTypeFloat 16 BFloat16KHR\n"
      "%bfa = OpTypeCooperativeMatrixKHR %bf16 %u_3 %u_16 %u_16 %u_0\n"
      "%bfb = OpTypeCooperativeMatrixKHR %bf16 %u_3 %u_16 %u_16 %u_1\n";
  k.body =
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %l1 None None\n"
      "%a = OpFConvert %bfa %m\n"
      "%b = OpFConvert %bfb %m\n"
      "%d = OpCooperativeMatrixMulAddKHR %mat %a %b %m\n"
      "OpCooperativeMatrixStoreTensorNV %p %d %l1 None None\n"
      "OpReturn\n";
  k.names.insert(k.names.end(), {"bfa", "bfb", "a", "b", "d"});
  const PassRun r = LowerFor(Text(k), "8,h100");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(std::regex_search(
      r.text, std::regex("OpTypeCooperativeMatrixKHR %bfloat16 %uint_3(_[0-9]+)? %uint_16 %uint_16 "
                         "%uint_2\n")))
      << r.text;
  EXPECT_EQ(Count(r.text, "OpFConvert %bfloat16 "), 2u) << r.text;
  EXPECT_TRUE(Contains(r.text, "%a = OpCooperativeMatrixLoadKHR %bfa ")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%b = OpCooperativeMatrixLoadKHR %bfb ")) << r.text;
}

// ---- Block sizes and DecodeFunc

// A 2-D layout %ltb (clamp mode Undefined) with block size 1 x 4 over a 16 x 20 float tensor,
// loaded through DecodeFunc %dec (or %decw, whose block pointer is a PhysicalStorageBuffer pointer
// to a struct wrapping the block, as GLSL writes it), with DecodeVectorFunc %decv too (never
// called).
std::string DecodeText(const std::string& func, const std::string& operands) {
  Kernel k;
  k.capabilities =
      "OpCapability PhysicalStorageBufferAddresses\n"
      "OpCapability CooperativeMatrixBlockLoadsNV\n"
      "OpCapability CooperativeMatrixDecodeVectorNV\n";
  k.annotations = "OpMemberDecorate %wrap 0 Offset 0\n";
  k.globals =
      "%ltb = OpTypeTensorLayoutNV %u_2 %u_0\n"
      "%psb = OpTypePointer PhysicalStorageBuffer %float\n"
      "%wrap = OpTypeStruct %float\n"
      "%psbw = OpTypePointer PhysicalStorageBuffer %wrap\n"
      "%arr2 = OpTypeArray %uint %u_2\n"
      "%decfn = OpTypeFunction %float %psb %arr2 %arr2\n"
      "%decwfn = OpTypeFunction %float %psbw %arr2 %arr2\n"
      "%v2float = OpTypeVector %float 2\n"
      "%decvfn = OpTypeFunction %v2float %psb %arr2 %arr2\n"
      "%f_2 = OpConstant %float 2\n";
  k.body =
      "%b0 = OpCreateTensorLayoutNV %ltb\n"
      "%b1 = OpTensorLayoutSetBlockSizeNV %ltb %b0 %u_1 %u_4\n"
      "%b2 = OpTensorLayoutSetDimensionNV %ltb %b1 %u_16 %u_20\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %b2 None " +
      operands + " " + func + (operands.find("Vector") != std::string::npos ? " %decv" : "") +
      "\n"
      "OpReturn\nOpFunctionEnd\n"
      "%dec = OpFunction %float None %decfn\n"
      "%dp = OpFunctionParameter %psb\n%db = OpFunctionParameter %arr2\n"
      "%di = OpFunctionParameter %arr2\n%dl = OpLabel\n"
      "%dv = OpLoad %float %dp Aligned 4\n%dx = OpFMul %float %dv %f_2\nOpReturnValue %dx\n"
      "OpFunctionEnd\n"
      "%decw = OpFunction %float None %decwfn\n"
      "%wp = OpFunctionParameter %psbw\n%wb = OpFunctionParameter %arr2\n"
      "%wi = OpFunctionParameter %arr2\n%wl = OpLabel\n"
      "%wc = OpAccessChain %psb %wp %u_0\n%wv = OpLoad %float %wc Aligned 4\n"
      "%wk = OpCompositeExtract %uint %wi 1\n%wf = OpConvertUToF %float %wk\n"
      "%wx = OpFAdd %float %wv %wf\nOpReturnValue %wx\nOpFunctionEnd\n"
      "%decv = OpFunction %v2float None %decvfn\n"
      "%vp = OpFunctionParameter %psb\n%vb = OpFunctionParameter %arr2\n"
      "%vi = OpFunctionParameter %arr2\n%vl = OpLabel\n"
      "%vv = OpLoad %float %vp Aligned 4\n%vx = OpCompositeConstruct %v2float %vv %vv\n"
      "OpReturnValue %vx\n";
  k.names.insert(k.names.end(), {"ltb", "b1", "b2", "dec", "decw", "dp", "wp", "wc"});
  std::string text = Text(k);
  text.replace(text.find("OpMemoryModel Logical"), 21, "OpMemoryModel PhysicalStorageBuffer64");
  text.insert(text.find("OpMemoryModel"),
              "OpExtension \"SPV_NV_cooperative_matrix_decode_vector\"\n");
  return text;
}

TEST(LowerCoopMatrix2, BlockSizesAreLayoutMembersAndPackedStridesCountBlocks) {
  const PassRun r = Lower(DecodeText("%dec", "DecodeFunc"));
  ASSERT_TRUE(r.ok) << r.error;
  // Dim 2: the block sizes are members 9 and 10.
  EXPECT_TRUE(Contains(r.text, "%b1 = OpCompositeInsert %ltb %uint_4 %") &&
              Contains(r.text, " 10\n"))
      << r.text;
  // stride[0] = ceil(20 / block size[1]) = (20 + b - 1) / b.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpCompositeExtract %uint %b1 10\n(%[0-9]+) = OpISub %uint "
                         "\\1 %uint_1\n(%[0-9]+) = OpIAdd %uint %uint_20 \\2\n(%[0-9]+) = OpUDiv "
                         "%uint \\3 \\1\n%[0-9]+ = OpIMul %uint %uint_1 \\4\n")))
      << r.text;
}

TEST(LowerCoopMatrix2, DecodeFuncIsCalledPerElementOnACloneTakingTheBlocksByteOffset) {
  for (const char* operands : {"DecodeFunc", "DecodeFunc|DecodeVectorFunc"}) {
    const PassRun r = Lower(DecodeText("%dec", operands));
    ASSERT_TRUE(r.ok) << operands << ": " << r.error;
    EXPECT_FALSE(Contains(r.text, "Decode")) << r.text;
    EXPECT_FALSE(Contains(r.text, "BlockLoads")) << r.text;
    // Block coordinates c / size, coordinates in the block c % size, the block index from the
    // strides times the block's 4 bytes added to Pointer's byte offset (0), the arrays built,
    // the clone called.
    EXPECT_EQ(Count(r.text, "OpUDiv %uint"), 1u + 2u + 1u) << r.text;  // Span, blocks, stride.
    EXPECT_TRUE(std::regex_search(
        r.text,
        std::regex("(%[0-9]+) = OpIMul %uint %[0-9]+ %uint_4\n(%[0-9]+) = OpIAdd %uint %uint_0 "
                   "\\1\n(%[0-9]+) = OpCompositeConstruct %_arr_uint_uint_2 %[0-9]+ %[0-9]+\n"
                   "(%[0-9]+) = OpCompositeConstruct %_arr_uint_uint_2 %[0-9]+ %[0-9]+\n%[0-9]+ = "
                   "OpFunctionCall %float %[0-9]+ \\2 \\3 \\4\n")))
        << r.text;
    // The clone: a byte-offset parameter; the load through the block pointer reads the float
    // at that offset through an alias of Pointer's binding (an array of floats).
    std::smatch clone;
    ASSERT_TRUE(std::regex_search(
        r.text, clone,
        std::regex("(%[0-9]+) = OpFunctionParameter %uint\n%[0-9]+ = OpFunctionParameter "
                   "%_arr_uint_uint_2\n%[0-9]+ = OpFunctionParameter %_arr_uint_uint_2\n"
                   "%[0-9]+ = OpLabel\n(%[0-9]+) = OpShiftRightLogical %uint \\1 %uint_2\n"
                   "(%[0-9]+) = OpAccessChain %_ptr_StorageBuffer_float (%[0-9]+) %uint_0 \\2\n"
                   "%[0-9]+ = OpLoad %float \\3\n")))
        << r.text;
    const std::string alias = clone[4];
    EXPECT_TRUE(Contains(r.text, "OpDecorate " + alias + " DescriptorSet 0\n") &&
                Contains(r.text, "OpDecorate " + alias + " Binding 0\n"))
        << r.text;
    EXPECT_TRUE(std::regex_search(r.text, std::regex("OpEntryPoint GLCompute %main .* " + alias)))
        << r.text;
    // The original function stays (for any other caller), with its pointer parameter.
    EXPECT_TRUE(Contains(r.text, "%dp = OpFunctionParameter %_ptr_PhysicalStorageBuffer_float"))
        << r.text;
  }
}

TEST(LowerCoopMatrix2, DecodeFuncsAccessChainsStepByTheBlocksOffsets) {
  const PassRun r = Lower(DecodeText("%decw", "DecodeFunc"));
  ASSERT_TRUE(r.ok) << r.error;
  // The wrapper's member 0 is at Offset 0: the chain is the block's own offset.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpFunctionParameter %uint\n(.*\n){3}(%[0-9]+) = "
                         "OpCopyObject %uint \\1\n(%[0-9]+) = OpShiftRightLogical %uint \\3 "
                         "%uint_2\n%[0-9]+ = OpAccessChain %_ptr_StorageBuffer_float %[0-9]+ "
                         "%uint_0 \\4\n")))
      << r.text;
}

// A DecodeFunc whose block pointer goes everywhere a GLSL buffer reference can: bitcast to another
// block type and kept in a Function variable, passed to a helper by value and through a Function
// variable, stepped with OpPtrAccessChain, offset as a 64-bit integer and compared.
std::string BlockPointerShapesText(const std::string& extra_body = "") {
  Kernel k;
  k.capabilities =
      "OpCapability PhysicalStorageBufferAddresses\n"
      "OpCapability CooperativeMatrixBlockLoadsNV\n"
      "OpCapability Int64\n";
  k.annotations =
      "OpMemberDecorate %wrap 0 Offset 0\n"
      "OpMemberDecorate %pair 0 Offset 0\nOpMemberDecorate %pair 1 Offset 4\n"
      "OpDecorate %psbpair ArrayStride 8\n";
  k.globals =
      "%ltb = OpTypeTensorLayoutNV %u_2 %u_0\n"
      "%ulong = OpTypeInt 64 0\n%ulong_4 = OpConstant %ulong 4\n"
      "%psb = OpTypePointer PhysicalStorageBuffer %float\n"
      "%wrap = OpTypeStruct %float\n"
      "%psbw = OpTypePointer PhysicalStorageBuffer %wrap\n"
      "%pair = OpTypeStruct %float %float\n"
      "%psbpair = OpTypePointer PhysicalStorageBuffer %pair\n"
      "%fpsb = OpTypePointer Function %psbpair\n"
      "%arr2 = OpTypeArray %uint %u_2\n"
      "%decfn = OpTypeFunction %float %psbw %arr2 %arr2\n"
      "%helpfn = OpTypeFunction %float %psbpair\n"
      "%help2fn = OpTypeFunction %float %fpsb\n";
  k.body =
      "%b0 = OpCreateTensorLayoutNV %ltb\n"
      "%b1 = OpTensorLayoutSetBlockSizeNV %ltb %b0 %u_1 %u_4\n"
      "%b2 = OpTensorLayoutSetDimensionNV %ltb %b1 %u_16 %u_20\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %b2 None DecodeFunc %dec\n"
      "OpReturn\nOpFunctionEnd\n"
      "%dec = OpFunction %float None %decfn\n"
      "%dp = OpFunctionParameter %psbw\n%db = OpFunctionParameter %arr2\n"
      "%di = OpFunctionParameter %arr2\n%dl = OpLabel\n"
      "%var = OpVariable %fpsb Function\n"
      "%cast = OpBitcast %psbpair %dp\nOpStore %var %cast\n"
      "%kept = OpLoad %psbpair %var\n"
      "%h1 = OpFunctionCall %float %help %kept\n"
      "%h2 = OpFunctionCall %float %help2 %var\n"
      "%next = OpPtrAccessChain %psbpair %kept %u_1\n"
      "%addr = OpConvertPtrToU %ulong %kept\n%addr4 = OpIAdd %ulong %addr %ulong_4\n"
      "%second = OpConvertUToPtr %psb %addr4\n%sv = OpLoad %float %second Aligned 4\n"
      "%same = OpPtrEqual %bool %kept %next\n" +
      extra_body +
      "%nv = OpAccessChain %psb %next %u_1\n%nx = OpLoad %float %nv Aligned 4\n"
      "%s1 = OpFAdd %float %h1 %h2\n%s2 = OpFAdd %float %s1 %sv\n%s3 = OpFAdd %float %s2 %nx\n"
      "%r = OpSelect %float %same %sv %s3\nOpReturnValue %r\nOpFunctionEnd\n"
      "%help = OpFunction %float None %helpfn\n%hp = OpFunctionParameter %psbpair\n"
      "%hl = OpLabel\n%hc = OpAccessChain %psb %hp %u_1\n%hv = OpLoad %float %hc Aligned 4\n"
      "OpReturnValue %hv\nOpFunctionEnd\n"
      "%help2 = OpFunction %float None %help2fn\n%hq = OpFunctionParameter %fpsb\n"
      "%hl2 = OpLabel\n%hr = OpLoad %psbpair %hq\n%hd = OpAccessChain %psb %hr %u_0\n"
      "%hw = OpLoad %float %hd Aligned 4\nOpReturnValue %hw\n";
  k.names.insert(k.names.end(), {"dec", "help", "help2", "hp", "hq"});
  std::string text = Text(k);
  text.replace(text.find("OpMemoryModel Logical"), 21, "OpMemoryModel PhysicalStorageBuffer64");
  return text;
}

TEST(LowerCoopMatrix2, BlockPointersPassedOnStoredBitcastOffsetAndComparedBecomeByteOffsets) {
  const PassRun r = Lower(BlockPointerShapesText());
  ASSERT_TRUE(r.ok) << r.error;
  // The decode function and both helpers are cloned; the originals stay.
  EXPECT_TRUE(Contains(r.text, "%hp = OpFunctionParameter %_ptr_PhysicalStorageBuffer"));
  EXPECT_EQ(Count(r.text, " = OpFunctionParameter %uint\n"), 2u) << r.text;  // dec, help.
  EXPECT_EQ(Count(r.text, " = OpFunctionParameter %_ptr_Function_uint\n"), 1u) << r.text;
  EXPECT_EQ(Count(r.text, " = OpVariable %_ptr_Function_uint Function\n"), 1u) << r.text;
  // OpPtrAccessChain steps by the pointer type's ArrayStride (8), the member by its Offset (4).
  EXPECT_TRUE(std::regex_search(r.text, std::regex("OpIMul %uint %uint_1 %uint_8\n")) ||
              Contains(r.text, "%uint_8\n"))
      << r.text;
  // The 64-bit address is 2^32 + offset, and back its low 32 bits.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpUConvert %ulong %[0-9]+\n(%[0-9]+) = OpIAdd %ulong \\1 "
                         "%ulong_4294967296\n")))
      << r.text;
  EXPECT_TRUE(std::regex_search(r.text, std::regex("= OpUConvert %uint %[0-9]+\n"))) << r.text;
  // Pointer comparisons compare offsets.
  EXPECT_TRUE(std::regex_search(r.text, std::regex("= OpIEqual %bool %[0-9]+ %[0-9]+\n")))
      << r.text;
  // Every load through the block pointer reads the buffer's alias.
  EXPECT_EQ(Count(r.text, "OpLoad %float %") - Count(r.text, "Aligned 4"),
            Count(r.text, "OpShiftRightLogical %uint %"))
      << r.text;
  // No clone keeps a PhysicalStorageBuffer pointer: the only ones left are the originals'.
  const size_t clones = r.text.find("OpFunctionParameter %uint\n");
  ASSERT_NE(clones, std::string::npos);
  EXPECT_EQ(r.text.find("PhysicalStorageBuffer", r.text.rfind("OpFunctionEnd", clones)),
            std::string::npos)
      << r.text;
}

TEST(LowerCoopMatrix2, BlockPointerDifferencesCountPointees) {
  std::string text = BlockPointerShapesText("%pd = OpPtrDiff %int %next %kept\n");
  text.insert(text.find("OpCapability Int64"), "OpCapability VariablePointers\n");
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  // (next - kept) / 8, the pair's size, signed.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpISub %uint %[0-9]+ %[0-9]+\n(%[0-9]+) = OpBitcast %int "
                         "\\1\n(%[0-9]+) = OpSDiv %int \\2 %int_8\n")))
      << r.text;
}

TEST(LowerCoopMatrix2, BlockPointersWrittenToOrReadFromMemoryFail) {
  const std::string stored = BlockPointerShapesText();
  // A Private variable holding a block pointer (not a Function one).
  std::string text = stored;
  text.insert(text.find("%arr2 = OpTypeArray"),
              "%ppsb = OpTypePointer Private %psbpair\n%gv = OpVariable %ppsb Private\n");
  const std::string store = "OpStore %var %cast\n";
  text.replace(text.find(store), store.size(), store + "OpStore %gv %cast\n");
  PassRun r = Lower(text);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "DecodeFunc writes its block pointer to memory")) << r.error;
  text.replace(text.find("%kept = OpLoad %psbpair %var"), 28, "%kept = OpLoad %psbpair %gv ");
  text.replace(text.find("OpStore %gv %cast\n"), 18, "");
  r = Lower(text);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error, "DecodeFunc reads a block pointer from memory")) << r.error;
}

// Pointer to bytes, the matrix of floats: element e is the float at byte 4 * e from Pointer, read
// and written through an alias of the binding typed as floats.
TEST(LowerCoopMatrix2, PointersToAnotherTypeReadAndWriteThroughAliasesOfTheirBinding) {
  Kernel k;
  k.capabilities = "OpCapability StorageBuffer8BitAccess\n";
  k.entry_extra = " %bytes";
  k.annotations =
      "OpDecorate %rtb ArrayStride 1\nOpMemberDecorate %blkb 0 Offset 0\n"
      "OpDecorate %blkb Block\nOpDecorate %bytes DescriptorSet 0\nOpDecorate %bytes Binding 3\n"
      "OpDecorate %bytes Restrict\n";
  k.globals =
      "%uchar = OpTypeInt 8 0\n%rtb = OpTypeRuntimeArray %uchar\n%blkb = OpTypeStruct %rtb\n"
      "%pblkb = OpTypePointer StorageBuffer %blkb\n%pbyte = OpTypePointer StorageBuffer %uchar\n"
      "%bytes = OpVariable %pblkb StorageBuffer\n";
  k.body =
      "%pb = OpAccessChain %pbyte %bytes %u_0 %u_8\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %pb %mnull %l1 None None\n"
      "OpCooperativeMatrixStoreTensorNV %pb %m %l1 None None\n"
      "OpReturn\n";
  k.names.push_back("bytes");
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  std::smatch alias;
  ASSERT_TRUE(std::regex_search(r.text, alias,
                                std::regex("OpDecorate (%[0-9]+) DescriptorSet 0\nOpDecorate \\1 "
                                           "Binding 3\n")))
      << r.text;
  const std::string a = alias[1];
  // Pointer's byte offset (8) plus 4 bytes an element, a float index into the alias.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpIMul %uint %[0-9]+ %uint_4\n(%[0-9]+) = OpIAdd %uint "
                         "%uint_8 \\1\n(%[0-9]+) = OpShiftRightLogical %uint \\2 %uint_2\n"
                         "%[0-9]+ = OpAccessChain %_ptr_StorageBuffer_float " +
                         a + " %uint_0 \\3\n")))
      << r.text;
  EXPECT_EQ(Count(r.text, "OpAccessChain %_ptr_StorageBuffer_float " + a), 2u) << r.text;
  EXPECT_TRUE(std::regex_search(r.text, std::regex("OpEntryPoint GLCompute %main .* " + a)))
      << r.text;
  // The original is no longer Restrict (its alias reaches the same memory).
  EXPECT_FALSE(Contains(r.text, "Restrict")) << r.text;
}

// A PhysicalStorageBuffer Pointer to vec4 with float components: bitcast to a pointer to float
// with ArrayStride 4, stepped with OpPtrAccessChain, every access Aligned 4.
TEST(LowerCoopMatrix2, PhysicalPointersToAnotherTypeStepWithPtrAccessChain) {
  Kernel k;
  k.capabilities = "OpCapability PhysicalStorageBufferAddresses\n";
  k.entry_extra = " %pc";
  k.annotations =
      "OpDecorate %rtv ArrayStride 16\nOpMemberDecorate %refv 0 Offset 0\n"
      "OpDecorate %refv Block\nOpMemberDecorate %pcs 0 Offset 0\nOpDecorate %pcs Block\n";
  k.globals =
      "%v4float = OpTypeVector %float 4\n%rtv = OpTypeRuntimeArray %v4float\n"
      "%refv = OpTypeStruct %rtv\n%psbref = OpTypePointer PhysicalStorageBuffer %refv\n"
      "%psbv4 = OpTypePointer PhysicalStorageBuffer %v4float\n"
      "%pcs = OpTypeStruct %psbref\n%ppcs = OpTypePointer PushConstant %pcs\n"
      "%ppcref = OpTypePointer PushConstant %psbref\n%pc = OpVariable %ppcs PushConstant\n";
  k.body =
      "%refp = OpAccessChain %ppcref %pc %u_0\n"
      "%ref = OpLoad %psbref %refp\n%pv = OpAccessChain %psbv4 %ref %u_0 %u_1\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %pv %mnull %l1 None None\n"
      "OpCooperativeMatrixStoreTensorNV %pv %m %l1 None None\n"
      "OpReturn\n";
  std::string text = Text(k);
  text.replace(text.find("OpMemoryModel Logical"), 21, "OpMemoryModel PhysicalStorageBuffer64");
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  // The pointer type with ArrayStride 4 to a PhysicalStorageBuffer float (line by line: a regex
  // over the whole text recurses once a line, which overflows the stack under ASan).
  const std::vector<std::string> lines = Lines(r.text);
  std::string type;
  for (const std::string& line : lines) {
    std::smatch m;
    if (!std::regex_match(line, m, std::regex("OpDecorate (%[0-9a-zA-Z_]+) ArrayStride 4"))) {
      continue;
    }
    if (std::find(lines.begin(), lines.end(),
                  m[1].str() + " = OpTypePointer PhysicalStorageBuffer %float") != lines.end()) {
      type = m[1];
    }
  }
  ASSERT_FALSE(type.empty()) << r.text;
  EXPECT_EQ(Count(r.text, "OpBitcast " + type + " %"), 2u) << r.text;  // Load, store.
  EXPECT_EQ(Count(r.text, "OpPtrAccessChain " + type + " %"), 2u) << r.text;
  EXPECT_EQ(Count(r.text, "Aligned 4"), 2u) << r.text;
}

// With a PhysicalStorageBuffer Pointer, DecodeFunc is called as it is, with Pointer stepped over
// the block index (ArrayStride: the block's 4 bytes) and bitcast to its parameter type.
TEST(LowerCoopMatrix2, DecodeFuncsOfPhysicalPointersTakeThePointerStepped) {
  std::string text = DecodeText("%decw", "DecodeFunc");
  const std::string load = "%m = OpCooperativeMatrixLoadTensorNV %mat %p ";
  text.replace(text.find(load), load.size(),
               "%ppp = OpAccessChain %ppcpsb %pc %u_0\n%pp = OpLoad %psb %ppp\n"
               "%m = OpCooperativeMatrixLoadTensorNV %mat %pp ");
  text.insert(text.find("%arr2 = OpTypeArray"),
              "%pcs = OpTypeStruct %psb\n%ppcs = OpTypePointer PushConstant %pcs\n"
              "%ppcpsb = OpTypePointer PushConstant %psb\n%pc = OpVariable %ppcs PushConstant\n");
  text.insert(text.find("OpMemberDecorate %wrap"),
              "OpMemberDecorate %pcs 0 Offset 0\nOpDecorate %pcs Block\n");
  text.replace(text.find("\"main\" %buf"), 11, "\"main\" %buf %pc");
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  // A bitcast %a to a pointer type %t, later %b = OpPtrAccessChain %t %a, then %c = a bitcast of
  // %b to the block's pointer type, and within two lines the call of %decw with %c (line by
  // line: see PhysicalPointersToAnotherTypeStepWithPtrAccessChain).
  const std::vector<std::string> lines = Lines(r.text);
  std::map<std::string, std::string> bitcast_type;  // Result -> pointer type.
  bool found = false;
  for (size_t i = 0; i + 1 < lines.size() && !found; ++i) {
    std::smatch m;
    if (std::regex_match(lines[i], m,
                         std::regex("(%[0-9]+) = OpBitcast (%[0-9a-zA-Z_]+) %[0-9]+"))) {
      bitcast_type[m[1]] = m[2];
      continue;
    }
    if (!std::regex_match(lines[i], m,
                          std::regex("(%[0-9]+) = OpPtrAccessChain (%[0-9a-zA-Z_]+) (%[0-9]+) "
                                     "%[0-9]+")) ||
        bitcast_type[m[3]] != m[2].str()) {
      continue;
    }
    const std::string stepped = m[1];
    std::smatch c;
    if (!std::regex_match(lines[i + 1], c,
                          std::regex("(%[0-9]+) = OpBitcast "
                                     "%_ptr_PhysicalStorageBuffer__struct_[0-9]+ (%[0-9]+)")) ||
        c[2].str() != stepped) {
      continue;
    }
    for (size_t k = i + 2; k <= i + 4 && k < lines.size(); ++k) {
      if (lines[k].find("OpFunctionCall %float %decw " + c[1].str() + " ") != std::string::npos) {
        found = true;
      }
    }
  }
  EXPECT_TRUE(found) << r.text;
  EXPECT_EQ(Count(r.text, "= OpFunction "), 4u) << r.text;  // main and the three decoders.
}

TEST(LowerCoopMatrix2, MaintenanceOneNamesAreLoweredAndTheirExtensionGoes) {
  const std::string text =
      "OpCapability Shader\n"
      "OpCapability CooperativeMatrixKHR\n"
      "OpCapability VulkanMemoryModel\n"
      "OpCapability CooperativeMatrixConversionsEXT\n"
      "OpCapability CooperativeMatrixReductionsEXT\n"
      "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
      "OpExtension \"SPV_EXT_cooperative_matrix_maintenance1\"\n"
      "OpMemoryModel Logical Vulkan\n"
      "OpEntryPoint GLCompute %main \"main\" %buf\n"
      "OpExecutionMode %main LocalSize 8 1 1\n"
      "OpDecorate %rt ArrayStride 4\nOpMemberDecorate %blk 0 Offset 0\nOpDecorate %blk Block\n"
      "OpDecorate %buf DescriptorSet 0\nOpDecorate %buf Binding 0\n"
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n"
      "%uint = OpTypeInt 32 0\n%u_0 = OpConstant %uint 0\n%u_1 = OpConstant %uint 1\n"
      "%u_2 = OpConstant %uint 2\n%u_3 = OpConstant %uint 3\n%u_8 = OpConstant %uint 8\n"
      "%rt = OpTypeRuntimeArray %float\n%blk = OpTypeStruct %rt\n"
      "%pblk = OpTypePointer StorageBuffer %blk\n%pel = OpTypePointer StorageBuffer %float\n"
      "%buf = OpVariable %pblk StorageBuffer\n"
      "%acc = OpTypeCooperativeMatrixKHR %float %u_3 %u_8 %u_8 %u_2\n"
      "%mata = OpTypeCooperativeMatrixKHR %float %u_3 %u_8 %u_8 %u_0\n"
      "%combinefn = OpTypeFunction %float %float %float\n"
      "%main = OpFunction %void None %fn\n%e = OpLabel\n"
      "%p = OpAccessChain %pel %buf %u_0 %u_0\n"
      "%m = OpCooperativeMatrixLoadKHR %acc %p %u_0 %u_8\n"
      "%r = OpCooperativeMatrixReduceEXT %acc %m Row %add\n"
      "%a = OpCooperativeMatrixConvertUseEXT %mata %r\n"
      "OpCooperativeMatrixStoreKHR %p %a %u_0 %u_8\n"
      "OpReturn\nOpFunctionEnd\n"
      "%add = OpFunction %float None %combinefn\n"
      "%x = OpFunctionParameter %float\n%y = OpFunctionParameter %float\n"
      "%al = OpLabel\n%s = OpFAdd %float %x %y\nOpReturnValue %s\nOpFunctionEnd\n";
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "maintenance1")) << r.text;
  EXPECT_FALSE(Contains(r.text, "EXT")) << r.text;
  EXPECT_EQ(Count(r.text, "OpCooperativeMatrixLoadKHR"), 3u) << r.text;  // Own, Reduce, Use.
}

TEST(LowerCoopMatrix2, ModulesWithoutMatrix2AreUnchanged) {
  const std::string text =
      "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
      "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"
      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
      "%main = OpFunction %void None %fn\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n";
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "GroupNonUniform")) << r.text;
}

// ---- What is not lowered yet: each fails naming the instruction.

struct Unlowered {
  const char* what;
  Kernel kernel;
  const char* expected;  // In the message.
};

TEST(LowerCoopMatrix2, EverythingElseFailsNamingTheInstruction) {
  std::vector<Unlowered> cases;
  auto add = [&](const char* what, const char* expected, auto edit) {
    Kernel k;
    k.body = kLoadStore;
    edit(k);
    cases.push_back({what, k, expected});
  };
  add("view dimensions without HasDimensions",
      "OpTensorViewSetDimensionNV: the tensor view type has no dimensions", [](Kernel& k) {
        k.globals =
            "%false = OpConstantFalse %bool\n"
            "%vt = OpTypeTensorViewNV %u_2 %false %u_0 %u_1\n";
        k.body =
            "%v0 = OpCreateTensorViewNV %vt\n"
            "%v1 = OpTensorViewSetDimensionNV %vt %v0 %u_16 %u_16\n" +
            k.body;
      });
  add("spec constant clamp mode", "OpTypeTensorLayoutNV: a clamp mode given by a specialization",
      [](Kernel& k) {
        k.mode = "%sm";
        k.annotations = "OpDecorate %sm SpecId 0\n";
        k.globals = "%sm = OpSpecConstant %uint 1\n";  // Moved before %lt below.
      });
  for (const Unlowered& c : cases) {
    std::string text = Text(c.kernel);
    if (c.kernel.mode == "%sm") {
      text.erase(text.find("%sm = OpSpecConstant %uint 1\n"), 29);
      text.insert(text.find("%clamp = "), "%sm = OpSpecConstant %uint 1\n");
    }
    const PassRun r = Lower(text);
    EXPECT_FALSE(r.ok) << c.what << "\n" << r.text;
    EXPECT_TRUE(Contains(r.error, c.expected)) << c.what << ": " << r.error;
  }
}

// A 4 x 3 matrix in subgroups of 8: two slots, the second one for lanes 0 .. 3 only.
TEST(LowerCoopMatrix2, ElementCountsNotAMultipleOfTheSubgroupSizeSkipThePastTheEndSlots) {
  Kernel k;
  k.rows = 4;
  k.cols = 3;
  k.body = kLoadStore;
  const PassRun r = Lower(Text(k));
  ASSERT_TRUE(r.ok) << r.error;
  // Load and store: a loop of 2 slots, each element e guarded by e < 12.
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("OpULessThan %bool %[0-9]+ %uint_2\nOpBranchConditional")))
      << r.text;
  EXPECT_TRUE(std::regex_search(
      r.text, std::regex("(%[0-9]+) = OpULessThan %bool %[0-9]+ %uint_12\nOpSelectionMerge "
                         "(%[0-9]+) None\nOpBranchConditional \\1 %[0-9]+ \\2\n")))
      << r.text;
  EXPECT_EQ(Count(r.text, "%uint_12\nOpSelectionMerge"), 2u) << r.text;
}

TEST(LowerCoopMatrix2, LoopHeadersFailNamingTheInstruction) {
  Kernel loop;
  loop.body = "OpBranch %head\n";
  loop.blocks =
      "%head = OpLabel\n"
      "%m = OpCooperativeMatrixLoadTensorNV %mat %p %mnull %l1 None None\n"
      "OpCooperativeMatrixStoreTensorNV %p %m %l1 None None\n"
      "OpLoopMerge %exit %head None\n"
      "OpBranchConditional %true %exit %head\n"
      "%exit = OpLabel\n"
      "OpReturn\n";
  loop.globals = "%true = OpConstantTrue %bool\n";
  const PassRun r = Lower(Text(loop));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Contains(r.error,
                       "OpCooperativeMatrixLoadTensorNV: not lowered yet in a loop "
                       "header block"))
      << r.error;
}

TEST(LowerCoopMatrix2, RejectsBadSubgroupSizes) {
  for (const char* bad : {"0", "12", "256", "-8", "x"}) {
    std::vector<uint32_t> words;
    Problem problem;
    OptimizerOptions options;
    options.passes = {{"lower-coop-matrix2", bad}};
    OptimizeResult result;
    Kernel k;
    k.body = kLoadStore;
    ASSERT_TRUE(Assemble(Text(k), {}, &words, &problem)) << problem.ToString();
    EXPECT_FALSE(Optimize(words, options, &result, &problem)) << bad;
    EXPECT_TRUE(Contains(problem.message, "power of two")) << bad << ": " << problem.message;
  }
}

}  // namespace
}  // namespace coopspv
