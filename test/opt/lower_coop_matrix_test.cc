// --lower-coop-matrix: per-operation modules checked with FileCheck directives on the
// disassembly, a property sweep over shapes, subgroup sizes, component types, layouts and
// strides, and the failures. Every output is validated (coopspv::Optimize with
// validate_after_each) for the input's target environment; the results are checked by running
// on lavapipe in test/run/lower_coop_matrix/.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "test/util/filecheck.h"
#include "test/util/pass_run.h"

namespace coopspv {
namespace {

using testing::PassRun;

// --lower-coop-matrix=<subgroup_size>, then the passes `more`, each output validated.
PassRun Lower(const std::string& assembly, uint32_t subgroup_size,
              std::vector<PassRequest> more = {}, const std::string& env = "vulkan1.3") {
  std::vector<PassRequest> passes = {{"lower-coop-matrix", std::to_string(subgroup_size)}};
  passes.insert(passes.end(), more.begin(), more.end());
  return testing::RunPasses(assembly, passes, env);
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// --lower-coop-matrix=<S>,tile (coop_matrix_distribution.h).
PassRun LowerTile(const std::string& assembly, uint32_t subgroup_size) {
  return testing::RunPasses(
      assembly, {{"lower-coop-matrix", std::to_string(subgroup_size) + ",tile"}}, "vulkan1.3");
}

// A compute kernel: D = MulAdd(A, B, C) (or what `between` computes from %a %b %c %r into %out)
// with A, B, C loaded from and D stored to storage buffers whose elements are `pointee_*`.
struct Kernel {
  uint32_t m = 16, n = 16, k = 16, subgroup = 32;
  std::string ta = "half", tb = "half", tc = "float", tr = "float";
  // The buffers' element types: a scalar name or "<scalar> <count>" for a vector.
  std::string pa, pb, pc, pd;
  uint32_t layout_a = 0, layout_b = 0, layout_c = 0, layout_d = 0;
  uint32_t stride_a = 0, stride_b = 0, stride_c = 0, stride_d = 0;  // 0: unpadded.
  std::string operands;         // Cooperative Matrix Operands of the multiply-add.
  std::string memory_operands;  // Of every load and store.
  std::string globals;          // More declarations.
  std::string between;          // Replaces the multiply-add; must define %out of %mat_d.
  std::vector<std::string> names = {"main", "a", "b", "c", "out"};  // Get an OpName.
  std::string functions;                                            // After main.
};

uint32_t Bytes(const std::string& scalar) {
  if (scalar == "char" || scalar == "uchar") return 1;
  if (scalar == "short" || scalar == "ushort" || scalar == "half") return 2;
  if (scalar == "long" || scalar == "ulong" || scalar == "double") return 8;
  return 4;
}

std::string KernelText(const Kernel& kn) {
  std::set<uint32_t> values = {0, 1, 2, 3, kn.m, kn.n, kn.k};
  auto c = [&](uint32_t v) {
    values.insert(v);
    return "%u_" + std::to_string(v);
  };
  struct Buffer {
    std::string name, pointee, scalar;
    uint32_t count, stride, layout;
  };
  auto pointee = [](const std::string& p, const std::string& component) {
    return p.empty() ? component : p;
  };
  auto unpadded = [](uint32_t layout, uint32_t rows, uint32_t cols) {
    return layout == 0 ? cols : rows;
  };
  std::vector<Buffer> buffers;
  auto add = [&](const char* name, const std::string& p, uint32_t stride, uint32_t layout,
                 uint32_t rows, uint32_t cols, const std::string& component) {
    Buffer b{name, p, p, 1, stride, layout};
    const size_t space = p.find(' ');
    if (space != std::string::npos) {
      b.scalar = p.substr(0, space);
      b.count = std::stoul(p.substr(space + 1));
      b.pointee = "%v" + std::to_string(b.count) + b.scalar;
    } else {
      b.pointee = "%" + p;
    }
    if (b.stride == 0) {
      // Unpadded, in units of the pointee.
      b.stride = unpadded(layout, rows, cols) * Bytes(component) / (Bytes(b.scalar) * b.count);
      if (b.stride == 0) b.stride = 1;
    }
    buffers.push_back(b);
  };
  add("a", pointee(kn.pa, kn.ta), kn.stride_a, kn.layout_a, kn.m, kn.k, kn.ta);
  add("b", pointee(kn.pb, kn.tb), kn.stride_b, kn.layout_b, kn.k, kn.n, kn.tb);
  add("c", pointee(kn.pc, kn.tc), kn.stride_c, kn.layout_c, kn.m, kn.n, kn.tc);
  add("d", pointee(kn.pd, kn.tr), kn.stride_d, kn.layout_d, kn.m, kn.n, kn.tr);
  for (const Buffer& b : buffers) values.insert(b.stride);

  std::string ann, decl, body;
  std::string debug;
  for (const std::string& name : kn.names) debug += "OpName %" + name + " \"" + name + "\"\n";
  std::set<std::string> vectors;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& b = buffers[i];
    const std::string n = b.name;
    ann += "OpDecorate %rt_" + n + " ArrayStride " + std::to_string(Bytes(b.scalar) * b.count) +
           "\nOpMemberDecorate %blk_" + n + " 0 Offset 0\nOpDecorate %blk_" + n +
           " Block\nOpDecorate %buf_" + n + " DescriptorSet 0\nOpDecorate %buf_" + n + " Binding " +
           std::to_string(i) + "\n";
    if (b.count > 1 && vectors.insert(b.pointee).second) {
      decl += b.pointee + " = OpTypeVector %" + b.scalar + " " + std::to_string(b.count) + "\n";
    }
    decl += "%rt_" + n + " = OpTypeRuntimeArray " + b.pointee + "\n%blk_" + n +
            " = OpTypeStruct %rt_" + n + "\n%pblk_" + n + " = OpTypePointer StorageBuffer %blk_" +
            n + "\n%buf_" + n + " = OpVariable %pblk_" + n + " StorageBuffer\n%pel_" + n +
            " = OpTypePointer StorageBuffer " + b.pointee + "\n";
    body += "%p_" + n + " = OpAccessChain %pel_" + n + " %buf_" + n + " %u_0 %u_0\n";
  }
  const std::string mem = kn.memory_operands.empty() ? "" : " " + kn.memory_operands;
  auto load = [&](const char* v, const char* type, const Buffer& b) {
    return std::string("%") + v + " = OpCooperativeMatrixLoadKHR " + type + " %p_" + b.name + " " +
           c(b.layout) + " " + c(b.stride) + mem + "\n";
  };
  body += load("a", "%mat_a", buffers[0]) + load("b", "%mat_b", buffers[1]) +
          load("c", "%mat_c", buffers[2]);
  if (kn.between.empty()) {
    body += "%out = OpCooperativeMatrixMulAddKHR %mat_d %a %b %c" +
            (kn.operands.empty() ? "" : " " + kn.operands) + "\n";
  } else {
    body += kn.between;
  }
  body += "OpCooperativeMatrixStoreKHR %p_d %out " + c(buffers[3].layout) + " " +
          c(buffers[3].stride) + mem + "\n";
  std::string matrices = "%mat_a = OpTypeCooperativeMatrixKHR %" + kn.ta + " %u_3 " + c(kn.m) +
                         " " + c(kn.k) + " %u_0\n%mat_b = OpTypeCooperativeMatrixKHR %" + kn.tb +
                         " %u_3 " + c(kn.k) + " " + c(kn.n) +
                         " %u_1\n%mat_c = OpTypeCooperativeMatrixKHR %" + kn.tc + " %u_3 " +
                         c(kn.m) + " " + c(kn.n) + " %u_2\n";
  std::string globals = kn.globals, functions = kn.functions;
  if (kn.tr == kn.tc) {
    // The same type: a second declaration would be invalid, so %mat_d names %mat_c.
    for (std::string* text : {&body, &globals, &functions}) {
      for (size_t at; (at = text->find("%mat_d")) != std::string::npos;) {
        text->replace(at, 6, "%mat_c");
      }
    }
  } else {
    matrices += "%mat_d = OpTypeCooperativeMatrixKHR %" + kn.tr + " %u_3 " + c(kn.m) + " " +
                c(kn.n) + " %u_2\n";
  }
  std::string constants;
  for (uint32_t v : values) {
    constants += "%u_" + std::to_string(v) + " = OpConstant %uint " + std::to_string(v) + "\n";
  }
  return R"(OpCapability Shader
OpCapability Float16
OpCapability Float64
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability StorageBuffer8BitAccess
OpCapability StorageBuffer16BitAccess
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf_a %buf_b %buf_c %buf_d
OpExecutionMode %main LocalSize )" +
         std::to_string(kn.subgroup) + " 1 1\n" + debug + ann + R"(%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uchar = OpTypeInt 8 0
%char = OpTypeInt 8 1
%ushort = OpTypeInt 16 0
%short = OpTypeInt 16 1
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%long = OpTypeInt 64 1
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
)" + constants +
         matrices + decl + globals + "%main = OpFunction %void None %fn\n%entry = OpLabel\n" +
         body + "OpReturn\nOpFunctionEnd\n" + functions;
}

bool Contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// ---- Types, constants, lengths, capabilities

TEST(LowerCoopMatrix, MatricesBecomeArraysAndTheExtensionGoes) {
  Kernel kn;
  kn.between =
      "%len = OpCooperativeMatrixLengthKHR %uint %mat_d\n"
      "%one = OpCompositeConstruct %mat_d %float_1\n"
      "OpStore %priv %one\n"
      "%out0 = OpLoad %mat_d %priv\n"
      "%out = OpFAdd %mat_d %out0 %k\n";
  kn.globals =
      "%float_1 = OpConstant %float 1\n"
      "%k = OpConstantComposite %mat_d %float_1\n"
      "%z = OpConstantNull %mat_d\n"
      "%ppriv = OpTypePointer Private %mat_d\n"
      "%priv = OpVariable %ppriv Private %z\n";
  kn.names = {"main", "len", "one", "priv", "out0", "k", "z", "float_1"};
  // SPIR-V 1.4 and later list every global the entry point uses, %priv too.
  std::string text = KernelText(kn);
  text.replace(text.find("%buf_d\n"), 6, "%buf_d %priv");
  const PassRun r = Lower(text, 32);
  ASSERT_TRUE(r.ok) << r.error;
  // 16 x 16 over 32 invocations: 8 slots each.
  EXPECT_EQ(r.text.find("CooperativeMatrix"), std::string::npos) << r.text;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability GroupNonUniform
    CHECK-NOT: OpExtension
    CHECK: OpEntryPoint GLCompute %main "main" %2 %3 %4 %5 %
    CHECK: BuiltIn SubgroupLocalInvocationId
    CHECK: %uint_8 = OpConstant %uint 8
    CHECK: = OpTypeArray %float %uint_8
    CHECK: %k = OpConstantComposite %_arr_float_uint_8 %float_1 %float_1 %float_1 %float_1 %float_1 %float_1 %float_1 %float_1
    CHECK-NEXT: %z = OpConstantNull %_arr_float_uint_8
    CHECK: %len = OpCopyObject %uint %uint_8
    CHECK-NEXT: %one = OpCompositeConstruct %_arr_float_uint_8 %float_1 %float_1 %float_1 %float_1 %float_1 %float_1 %float_1 %float_1
    CHECK-NEXT: OpStore %priv %one
    CHECK-NEXT: %out0 = OpLoad %_arr_float_uint_8 %priv
  )")) << r.text;
}

// ---- Loads and stores

TEST(LowerCoopMatrix, LoadsAndStoresTouchOnlyRealElementsWithTheirMemoryOperands) {
  Kernel kn;
  kn.m = 5, kn.n = 6, kn.subgroup = 8;  // 30 elements over 8 invocations: 4 slots, 6 in the last.
  kn.layout_c = 1, kn.stride_c = 9, kn.stride_d = 7;
  kn.memory_operands = "Aligned|Nontemporal 16";
  kn.between = "%out = OpFNegate %mat_d %c\n";
  const PassRun r = Lower(KernelText(kn), 8);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "CooperativeMatrix")) << r.text;
  // Each invocation: row = e / 6, column = e % 6 of e = slot * 8 + lane (slot 0: e = lane); the
  // padded slot 3 is guarded by lane < 30 % 8.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: = OpLoad %uint %gl_SubgroupInvocationID
    CHECK: = OpUDiv %uint
    CHECK: = OpUMod %uint
    CHECK: Aligned|Nontemporal 4
    CHECK: OpFNegate %float
    CHECK: Aligned|Nontemporal 4
  )")) << r.text;
  EXPECT_FALSE(Contains(r.text, "Aligned|Nontemporal 16")) << r.text;
  EXPECT_TRUE(Contains(r.text, " %uint_6\nOpSelectionMerge")) << r.text;
}

TEST(LowerCoopMatrix, DynamicAnd64BitStridesAndVulkanMemoryOperands) {
  Kernel kn;
  kn.between =
      "%s = OpIAdd %uint %u_16 %u_1\n"
      "%s64 = OpUConvert %ulong %s\n"
      "%c2 = OpCooperativeMatrixLoadKHR %mat_c %p_c %u_1 %s64 "
      "NonPrivatePointer|MakePointerVisible %u_3\n"
      "%out = OpFSub %mat_c %c2 %c\n";
  kn.names = {"main", "s", "s64", "c2", "c", "out"};
  const PassRun r = Lower(KernelText(kn), 16);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "= OpUConvert %uint %s64")) << r.text;
  // MakePointerVisible at Subgroup scope: one acquiring barrier (Acquire | MakeVisible |
  // UniformMemory = 0x4042) before the element loads, which keep NonPrivatePointer.
  EXPECT_FALSE(Contains(r.text, "MakePointerVisible")) << r.text;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpMemoryBarrier %uint_3 %uint_16450
    CHECK: NonPrivatePointer
  )")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%c2 = OpLoad %_arr_float_uint_16")) << r.text;
  // ",tile": 16 x 16 on the 4 x 4 grid of S = 16, a 4 x 4 register tile loaded as straight-line
  // code, through the same 64-bit stride and memory operands (the same one acquiring barrier).
  const PassRun t = LowerTile(KernelText(kn), 16);
  ASSERT_TRUE(t.ok) << t.error;
  EXPECT_TRUE(Contains(t.text, "= OpUConvert %uint %s64")) << t.text;
  EXPECT_FALSE(Contains(t.text, "MakePointerVisible")) << t.text;
  EXPECT_TRUE(testing::FileCheck(t.text, R"(
    CHECK: OpMemoryBarrier %uint_3 %uint_16450
    CHECK: NonPrivatePointer
  )")) << t.text;
  EXPECT_TRUE(Contains(t.text, "%c2 = OpCompositeConstruct %_arr_float_uint_16")) << t.text;
}

TEST(LowerCoopMatrix, PointerAvailabilityAndVisibilityBecomeOneBarrier) {
  // A per-element MakePointerAvailable / MakePointerVisible would make each element available
  // or visible by itself: one Release | MakeAvailable barrier after the element stores (and one
  // Acquire | MakeVisible before the element loads) does the same once. lavapipe lost the writes
  // of the per-element form (test/run/ggml/staged_store).
  Kernel kn;
  kn.between =
      "%c2 = OpCooperativeMatrixLoadKHR %mat_c %p_c %u_0 %u_16 "
      "Aligned|MakePointerVisible|NonPrivatePointer 16 %u_2\n"
      "OpCooperativeMatrixStoreKHR %p_c %c2 %u_0 %u_16 "
      "Aligned|MakePointerAvailable|NonPrivatePointer 16 %u_2\n"
      "%out = OpFSub %mat_c %c2 %c\n";
  kn.names = {"main", "c2", "c", "out"};
  const PassRun r = Lower(KernelText(kn), 8);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "MakePointerVisible")) << r.text;
  EXPECT_FALSE(Contains(r.text, "MakePointerAvailable")) << r.text;
  // Workgroup scope (2); UniformMemory: Acquire | MakeVisible = 0x4042, Release | MakeAvailable
  // = 0x2044. The element load, then the element store, keep Aligned (at most the element's
  // size) and NonPrivatePointer.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpMemoryBarrier %uint_2 %uint_16450
    CHECK-NOT: OpMemoryBarrier
    CHECK: Aligned|NonPrivatePointer 4
    CHECK-NOT: OpMemoryBarrier
    CHECK: Aligned|NonPrivatePointer 4
    CHECK-NOT: OpMemoryBarrier
    CHECK: OpMemoryBarrier %uint_2 %uint_8260
    CHECK-NOT: OpMemoryBarrier
  )")) << r.text;
}

TEST(LowerCoopMatrix, PointeesOfAnotherTypeReinterpretTheMemory) {
  // f16 through uvec4 (split), f32 through u16 pairs (gathered, and scattered on store).
  Kernel kn;
  kn.pa = "uint 4", kn.pb = "half 4", kn.pd = "ushort";
  const PassRun r = Lower(KernelText(kn), 32);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "= OpBitcast %v2half")) << r.text;
  EXPECT_TRUE(Contains(r.text, "= OpVectorExtractDynamic %half")) << r.text;
  EXPECT_TRUE(Contains(r.text, "= OpAccessChain %_ptr_StorageBuffer_half")) << r.text;
  EXPECT_TRUE(Contains(r.text, "= OpBitcast %v2ushort")) << r.text;
  EXPECT_TRUE(Contains(r.text, "= OpCompositeExtract %ushort")) << r.text;
  // ",tile": each invocation's two whole A rows of 16 halves are 4 uvec4 loads, split.
  const PassRun t = LowerTile(KernelText(kn), 32);
  ASSERT_TRUE(t.ok) << t.error;
  EXPECT_EQ(Count(t.text, "= OpLoad %v4uint"), 4u) << t.text;
  EXPECT_EQ(Count(t.text, "= OpBitcast %v2half"), 4u * 4) << t.text;
  // A store of half components through 32-bit words: the invocation holding the first half of
  // a word fetches the second with a shuffle and writes the word.
  Kernel wide;
  wide.tc = wide.tr = "half";
  wide.pd = "uint";
  const PassRun w = Lower(KernelText(wide), 32);
  ASSERT_TRUE(w.ok) << w.error;
  EXPECT_TRUE(testing::FileCheck(w.text, R"(
    CHECK: OpCapability GroupNonUniformShuffle
    CHECK: = OpGroupNonUniformShuffle %half
    CHECK: = OpLogicalAnd %bool
    CHECK: = OpCompositeConstruct %v2half
    CHECK: = OpBitcast %uint
  )")) << w.text;
  // Eight components in one memory scalar and one component over eight (a vector has at most
  // four): int8 A and B through 64-bit words, 64-bit C and D through bytes, via 32-bit halves.
  Kernel eight;
  eight.ta = eight.tb = "char";
  eight.tc = eight.tr = "long";
  eight.k = 32;
  eight.pa = eight.pb = "ulong";
  eight.pc = eight.pd = "uchar";
  eight.operands =
      "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|"
      "MatrixResultSignedComponentsKHR";
  const PassRun e = Lower(KernelText(eight), 16);
  ASSERT_TRUE(e.ok) << e.error;
  EXPECT_TRUE(testing::FileCheck(e.text, R"(
    CHECK: = OpBitcast %v2uint
    CHECK: = OpVectorExtractDynamic %uint
    CHECK: = OpBitcast %v4char
    CHECK: = OpVectorExtractDynamic %char
  )")) << e.text;
  EXPECT_TRUE(Contains(e.text, "= OpCompositeConstruct %v2uint")) << e.text;
  EXPECT_TRUE(Contains(e.text, "= OpBitcast %uchar") || Contains(e.text, "= OpBitcast %v4uchar"))
      << e.text;
  // Columns that are not a multiple of the ratio: the last word would reach past the matrix.
  Kernel odd = wide;
  odd.n = 15;
  const PassRun o = Lower(KernelText(odd), 32);
  EXPECT_FALSE(o.ok);
  EXPECT_TRUE(Contains(o.error, "OpCooperativeMatrixStoreKHR")) << o.error;
  EXPECT_TRUE(Contains(o.error, "columns (15) to be a multiple of 2")) << o.error;
}

// ---- Multiply-add

TEST(LowerCoopMatrix, FloatMulAddShufflesAAndBElements) {
  Kernel kn;  // 16 x 16 x 16, f16 x f16 + f32, 32 invocations: 8 slots.
  const PassRun r = Lower(KernelText(kn), 32);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability GroupNonUniformShuffle
    CHECK: %main = OpFunction
    CHECK: = OpFConvert %float
    CHECK: OpLoopMerge
    CHECK: = OpGroupNonUniformShuffle %float %uint_3
    CHECK: = OpGroupNonUniformShuffle %float %uint_3
    CHECK: = OpFMul %float
    CHECK-NEXT: = OpLoad %float
    CHECK-NEXT: = OpFAdd %float
    CHECK: %out = OpLoad %_arr_float_uint_8
  )")) << r.text;
}

TEST(LowerCoopMatrix, TileFloatMulAddIsLocalToEachInvocation) {
  Kernel kn;  // 16 x 16 x 16, f16 x f16 + f32, ",tile" at 32 invocations: the 8 x 4 grid.
  kn.names = {"main", "a", "b", "c", "out", "len_a", "len_b", "len_c"};
  kn.between =
      "%out = OpCooperativeMatrixMulAddKHR %mat_d %a %b %c\n"
      "%len_a = OpCooperativeMatrixLengthKHR %uint %mat_a\n"
      "%len_b = OpCooperativeMatrixLengthKHR %uint %mat_b\n"
      "%len_c = OpCooperativeMatrixLengthKHR %uint %mat_c\n";
  const PassRun r = LowerTile(KernelText(kn), 32);
  ASSERT_TRUE(r.ok) << r.error;
  // A: 2 whole rows per invocation (32 elements), B: 4 whole columns (64), C: 2 x 4 (8).
  EXPECT_TRUE(Contains(r.text, "%len_a = OpCopyObject %uint %uint_32")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%len_b = OpCopyObject %uint %uint_64")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%len_c = OpCopyObject %uint %uint_8")) << r.text;
  // No exchange: each result slot is its C slot plus 16 products of its own A and B slots.
  EXPECT_FALSE(Contains(r.text, "OpGroupNonUniformShuffle")) << r.text;
  EXPECT_FALSE(Contains(r.text, "OpLoopMerge")) << r.text;
  EXPECT_EQ(Count(r.text, "= OpFMul %float"), 8u * 16) << r.text;
  EXPECT_EQ(Count(r.text, "= OpFAdd %float"), 8u * 16) << r.text;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %main = OpFunction
    CHECK: = OpCompositeExtract %half %a 0
    CHECK-NEXT: = OpFConvert %float
    CHECK: = OpCompositeExtract %float %c 0
    CHECK-NEXT: = OpFMul %float
    CHECK-NEXT: = OpFAdd %float
    CHECK: %out = OpCompositeConstruct %_arr_float_uint_8
  )")) << r.text;
}

// ",tile": shapes the grid does not divide keep the linear distribution; a multiply-add mixing
// it with a grid distribution brings that operand to the linear one (shuffles) and multiplies
// there.
TEST(LowerCoopMatrix, TileFloatMulAddOffTheGridShufflesAAndBElements) {
  Kernel kn;
  kn.n = 6;  // B (16 x 6) and C: linear at S = 32 (6 % 4 != 0); A (16 x 16) on the grid.
  const PassRun r = LowerTile(KernelText(kn), 32);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability GroupNonUniformShuffle
    CHECK: %main = OpFunction
    CHECK: OpLoopMerge
    CHECK: = OpGroupNonUniformShuffle %half %uint_3
    CHECK: = OpFConvert %float
    CHECK: OpLoopMerge
    CHECK: = OpGroupNonUniformShuffle %float %uint_3
    CHECK: = OpGroupNonUniformShuffle %float %uint_3
    CHECK: = OpFMul %float
    CHECK-NEXT: = OpLoad %float
    CHECK-NEXT: = OpFAdd %float
    CHECK: %out = OpLoad %_arr_float_uint_3
  )")) << r.text;
}

// ",tile": a conversion that changes the Use (SPV_EXT_cooperative_matrix_maintenance1) from a
// register-tile accumulator to a MatrixA (whole rows) exchanges the elements with shuffles.
TEST(LowerCoopMatrix, TileConversionBetweenUsesExchangesElements) {
  Kernel kn;
  kn.between =
      "%ca = OpFConvert %mat_a %c\n"
      "%out = OpCooperativeMatrixMulAddKHR %mat_d %ca %b %c\n";
  kn.names = {"main", "ca", "b", "c", "out"};
  std::string text = Replace(KernelText(kn), "OpCapability CooperativeMatrixKHR\n",
                             "OpCapability CooperativeMatrixKHR\n"
                             "OpCapability CooperativeMatrixConversionsEXT\n");
  text = Replace(text, "OpExtension \"SPV_KHR_cooperative_matrix\"\n",
                 "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
                 "OpExtension \"SPV_EXT_cooperative_matrix_maintenance1\"\n");
  const PassRun r = LowerTile(text, 8);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "OpTypeCooperativeMatrix")) << r.text;
  EXPECT_FALSE(Contains(r.text, "= OpCooperativeMatrix")) << r.text;
  // A 16 x 16 MatrixA at S = 8 (a 4 x 2 grid): 4 rows of 16 per invocation, each slot fetched
  // from the accumulator's owner over its 32 slots, then converted.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %main = OpFunction
    CHECK: OpLoopMerge
    CHECK: = OpGroupNonUniformShuffle %float %uint_3
    CHECK: = OpFConvert %half
    CHECK: %ca = OpLoad %_arr_half_uint_64
  )")) << r.text;
}

TEST(LowerCoopMatrix, IntegerMulAddHonoursEverySignednessBitAndSaturates) {
  Kernel kn;
  kn.ta = "char", kn.tb = "uchar", kn.tc = "int", kn.tr = "int";
  kn.operands =
      "MatrixASignedComponentsKHR|MatrixCSignedComponentsKHR|MatrixResultSignedComponentsKHR|"
      "SaturatingAccumulationKHR";
  const PassRun r = Lower(KernelText(kn), 8);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "= OpSConvert %int")) << r.text;   // A sign-extends.
  EXPECT_TRUE(Contains(r.text, "= OpUConvert %uint")) << r.text;  // B zero-extends...
  EXPECT_TRUE(Contains(r.text, "= OpIMul %int")) << r.text;
  EXPECT_TRUE(Contains(r.text, "= OpSLessThan %bool")) << r.text;  // Signed saturation.
  EXPECT_TRUE(Contains(r.text, "%int_n2147483648")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%int_2147483647")) << r.text;

  Kernel u = kn;
  u.ta = "uchar", u.tc = "uint", u.tr = "uint";
  u.operands = "SaturatingAccumulationKHR";
  const PassRun ru = Lower(KernelText(u), 8);
  ASSERT_TRUE(ru.ok) << ru.error;
  EXPECT_FALSE(Contains(ru.text, "OpSConvert")) << ru.text;
  EXPECT_FALSE(Contains(ru.text, "OpSLessThan")) << ru.text;
  EXPECT_TRUE(Contains(ru.text, "%uint_4294967295")) << ru.text;  // Unsigned saturation.

  Kernel wrap = u;
  wrap.operands = "";
  const PassRun rw = Lower(KernelText(wrap), 8);
  ASSERT_TRUE(rw.ok) << rw.error;
  EXPECT_FALSE(Contains(rw.text, "%uint_4294967295")) << rw.text;
}

// ---- Element-wise operations and conversions

TEST(LowerCoopMatrix, ElementwiseArithmeticAndConversionsLoopOverSlots) {
  Kernel kn;
  kn.globals =
      "%mat_h = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_2\n"
      "%mat_i = OpTypeCooperativeMatrixKHR %int %u_3 %u_16 %u_16 %u_2\n"
      "%mat_u = OpTypeCooperativeMatrixKHR %uint %u_3 %u_16 %u_16 %u_2\n"
      "%mat_l = OpTypeCooperativeMatrixKHR %long %u_3 %u_16 %u_16 %u_2\n"
      "%two = OpConstant %float 2\n";
  kn.between =
      "%x1 = OpFNegate %mat_d %c\n"
      "%x2 = OpFAdd %mat_d %x1 %c\n"
      "%x3 = OpFSub %mat_d %x2 %c\n"
      "%x4 = OpFMul %mat_d %x3 %c\n"
      "%x5 = OpFDiv %mat_d %x4 %c\n"
      "%x6 = OpMatrixTimesScalar %mat_d %x5 %two\n"
      "%h = OpFConvert %mat_h %x6\n"
      "%i = OpConvertFToS %mat_i %h\n"
      "%i2 = OpSNegate %mat_i %i\n"
      "%i3 = OpIAdd %mat_i %i2 %i\n"
      "%i4 = OpISub %mat_i %i3 %i\n"
      "%i5 = OpIMul %mat_i %i4 %i\n"
      "%i6 = OpSDiv %mat_i %i5 %i\n"
      "%u = OpBitcast %mat_u %i6\n"
      "%u2 = OpUDiv %mat_u %u %u\n"
      "%l = OpSConvert %mat_l %i6\n"
      "%u3 = OpUConvert %mat_u %l\n"
      "%f1 = OpConvertUToF %mat_d %u3\n"
      "%u4 = OpConvertFToU %mat_u %f1\n"
      "%f2 = OpConvertSToF %mat_d %i\n"
      "%out = OpFAdd %mat_d %f1 %f2\n";
  const PassRun r = Lower(KernelText(kn), 32);
  ASSERT_TRUE(r.ok) << r.error;
  for (const char* op :
       {"OpFNegate %float", "OpFAdd %float", "OpFSub %float", "OpFMul %float", "OpFDiv %float",
        "OpFConvert %half", "OpConvertFToS %int", "OpSNegate %int", "OpIAdd %int", "OpISub %int",
        "OpIMul %int", "OpSDiv %int", "OpBitcast %uint", "OpUDiv %uint", "OpSConvert %long",
        "OpUConvert %uint", "OpConvertUToF %float", "OpConvertFToU %uint",
        "OpConvertSToF %float"}) {
    EXPECT_TRUE(Contains(r.text, "= " + std::string(op))) << op << "\n" << r.text;
  }
  // 8 slots per invocation: loops, not 8 copies.
  EXPECT_TRUE(Contains(r.text, "OpLoopMerge")) << r.text;
  size_t negates = 0;
  for (size_t at = 0; (at = r.text.find("OpFNegate", at)) != std::string::npos; ++at) ++negates;
  EXPECT_EQ(negates, 1u);
}

TEST(LowerCoopMatrix, IntegerDivisionInPaddingSlotsDividesByOne) {
  Kernel kn;
  kn.m = 5, kn.n = 6, kn.tc = kn.tr = "int";
  kn.between = "%out = OpSDiv %mat_d %c %c\n";
  const PassRun r = Lower(KernelText(kn), 8);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: = OpUGreaterThanEqual %bool
    CHECK-NEXT: = OpSelect %int
    CHECK-NEXT: = OpSDiv %int
  )")) << r.text;
}

// ---- Whole matrices: variables, element access, phi, select, calls

TEST(LowerCoopMatrix, WholeMatrixValuesAndElementAccessKeepTheirInstructions) {
  Kernel kn;
  kn.globals =
      "%pfn = OpTypePointer Function %mat_d\n"
      "%pfloat = OpTypePointer Function %float\n"
      "%ftype = OpTypeFunction %mat_d %mat_d\n"
      "%true = OpConstantTrue %bool\n"
      "%undef = OpUndef %mat_d\n";
  kn.between =
      "%var = OpVariable %pfn Function\n"
      "OpStore %var %c\n"
      "%elem = OpAccessChain %pfloat %var %u_2\n"
      "%e = OpLoad %float %elem\n"
      "%x = OpCompositeExtract %float %c 1\n"
      "%sum = OpFAdd %float %e %x\n"
      "%ins = OpCompositeInsert %mat_d %sum %c 3\n"
      "%sel = OpSelect %mat_d %true %ins %undef\n"
      "%called = OpFunctionCall %mat_d %twice %sel\n"
      "OpBranch %next\n"
      "%next = OpLabel\n"
      "%out = OpPhi %mat_d %called %entry\n";
  kn.functions =
      "%twice = OpFunction %mat_d None %ftype\n"
      "%param = OpFunctionParameter %mat_d\n"
      "%fentry = OpLabel\n"
      "%doubled = OpFAdd %mat_d %param %param\n"
      "%copy = OpCopyObject %mat_d %doubled\n"
      "OpReturnValue %copy\n"
      "OpFunctionEnd\n";
  // OpVariable must open the entry block: move it there.
  kn.names = {"main", "c",      "var", "elem",  "x",     "ins",
              "sel",  "called", "out", "twice", "param", "copy"};
  std::string text = KernelText(kn);
  text = Replace(text, "%var = OpVariable %pfn Function\n", "");
  text = Replace(text, "%entry = OpLabel\n", "%entry = OpLabel\n%var = OpVariable %pfn Function\n");
  const PassRun r = Lower(text, 32);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %var = OpVariable %_ptr_Function__arr_float_uint_8 Function
    CHECK: %elem = OpAccessChain %_ptr_Function_float %var %uint_2
    CHECK: %x = OpCompositeExtract %float %c 1
    CHECK: %ins = OpCompositeInsert %_arr_float_uint_8
    CHECK: %sel = OpSelect %_arr_float_uint_8
    CHECK: %called = OpFunctionCall %_arr_float_uint_8 %twice %sel
    CHECK: %out = OpPhi %_arr_float_uint_8 %called
    CHECK: %twice = OpFunction %_arr_float_uint_8
    CHECK-NEXT: %param = OpFunctionParameter %_arr_float_uint_8
    CHECK: OpFAdd %float
    CHECK: %copy = OpCopyObject %_arr_float_uint_8
    CHECK-NEXT: OpReturnValue %copy
  )")) << r.text;
}

TEST(LowerCoopMatrix, SelectBeforeSpirv14ChoosesPerSlot) {
  Kernel kn;
  kn.globals = "%true = OpConstantTrue %bool\n";
  kn.between = "%out = OpSelect %mat_d %true %c %c\n";
  std::vector<uint32_t> words;
  Problem p;
  std::string text = Replace(KernelText(kn), " %buf_a %buf_b %buf_c %buf_d\n", "\n");
  text = Replace(text, "OpExtension \"SPV_KHR_cooperative_matrix\"\n",
                 "OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension "
                 "\"SPV_KHR_vulkan_memory_model\"\nOpExtension \"SPV_KHR_8bit_storage\"\n");
  ASSERT_TRUE(Assemble(text, {0x10300}, &words, &p)) << p.message;
  OptimizerOptions options;
  options.target_env = "vulkan1.1";
  options.passes = {{"lower-coop-matrix", "32"}};
  options.validate_after_each = true;
  OptimizeResult result;
  bool ok = Optimize(words, options, &result, &p);
  for (const auto& d : result.validation.diagnostics) p.message += "\n" + FormatDiagnostic(d);
  ASSERT_TRUE(ok) << p.message;
  std::string out;
  ASSERT_TRUE(Disassemble(result.words, {}, &out, &p));
  EXPECT_TRUE(Contains(out, "OpSelect %float")) << out;
}

// Lowered code needs blocks; in a loop header the OpLoopMerge stays in the header (the target
// of the back edge) and OpPhi instructions name the block the edge now leaves from.
TEST(LowerCoopMatrix, LoopHeadersKeepTheirMergeAndPhisFollowSplitBlocks) {
  Kernel kn;
  kn.globals = "%u_4 = OpConstant %uint 4\n";
  kn.between =
      "OpBranch %header\n"
      "%header = OpLabel\n"
      "%acc = OpPhi %mat_d %c %entry %acc2 %cont\n"
      "%i = OpPhi %uint %u_0 %entry %i2 %cont\n"
      "%acc2 = OpFAdd %mat_d %acc %c\n"
      "%more = OpULessThan %bool %i %u_4\n"
      "OpLoopMerge %merge %cont None\n"
      "OpBranchConditional %more %cont %merge\n"
      "%cont = OpLabel\n"
      "%i2 = OpIAdd %uint %i %u_1\n"
      "OpBranch %header\n"
      "%merge = OpLabel\n"
      "%out = OpPhi %mat_d %acc2 %header\n";
  kn.names = {"main", "header", "acc", "acc2", "merge", "cont", "out"};
  const PassRun r = Lower(KernelText(kn), 32);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %header = OpLabel
    CHECK-NEXT: %acc = OpPhi
    CHECK-NEXT: = OpPhi %uint
    CHECK-NEXT: OpLoopMerge %merge %cont None
    CHECK-NEXT: OpBranch %
    CHECK: OpFAdd %float
    CHECK: %acc2 = OpLoad
    CHECK: %cont %merge
    CHECK: %merge = OpLabel
    CHECK-NEXT: %out = OpPhi %_arr_float_uint_8 %acc2 %
  )")) << r.text;
  EXPECT_FALSE(Contains(r.text, "%acc2 %header")) << r.text;
}

TEST(LowerCoopMatrix, ReplicatedAndSpecConstantCompositesFillEverySlot) {
  Kernel kn;
  kn.m = kn.n = 8;  // 2 slots at S = 32.
  kn.globals =
      "%float_1 = OpConstant %float 1\n"
      "%sf = OpSpecConstant %float 2\n"
      "%rep = OpConstantCompositeReplicateEXT %mat_d %float_1\n"
      "%srep = OpSpecConstantCompositeReplicateEXT %mat_d %sf\n"
      "%spec = OpSpecConstantComposite %mat_d %sf\n";
  kn.between =
      "%x = OpCompositeConstructReplicateEXT %mat_d %float_1\n"
      "%y = OpFAdd %mat_d %x %rep\n"
      "%z = OpFAdd %mat_d %y %srep\n"
      "%out = OpFAdd %mat_d %z %spec\n";
  kn.names = {"main", "float_1", "sf", "rep", "srep", "spec", "x"};
  std::string text = Replace(KernelText(kn), "OpCapability Shader\n",
                             "OpCapability Shader\nOpCapability ReplicatedCompositesEXT\n");
  text = Replace(text, "OpExtension \"SPV_KHR_cooperative_matrix\"\n",
                 "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
                 "OpExtension \"SPV_EXT_replicated_composites\"\n");
  text = Replace(text, "OpName %main", "OpDecorate %sf SpecId 3\nOpName %main");
  // OpDecorate must follow the names: move it after them.
  text = Replace(text, "OpDecorate %sf SpecId 3\n", "");
  text = Replace(text, "OpDecorate %rt_a", "OpDecorate %sf SpecId 3\nOpDecorate %rt_a");
  const PassRun r = Lower(text, 32);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "%rep = OpConstantComposite %_arr_float_uint_2 %float_1 %float_1\n"))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "%srep = OpSpecConstantComposite %_arr_float_uint_2 %sf %sf\n"))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "%spec = OpSpecConstantComposite %_arr_float_uint_2 %sf %sf\n"))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "%x = OpCompositeConstruct %_arr_float_uint_2 %float_1 %float_1\n"))
      << r.text;
}

// PhysicalStorageBuffer: an access chain from a buffer reference moves its last index; a bare
// pointer steps with OpPtrAccessChain, its type given the ArrayStride that needs.
TEST(LowerCoopMatrix, PhysicalStorageBufferPointers) {
  const std::string text = R"(OpCapability Shader
OpCapability Float16
OpCapability Int64
OpCapability StorageBuffer16BitAccess
OpCapability PhysicalStorageBufferAddresses
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel PhysicalStorageBuffer64 Vulkan
OpEntryPoint GLCompute %main "main" %pc
OpExecutionMode %main LocalSize 32 1 1
OpName %main "main"
OpName %bare "bare"
OpDecorate %PC Block
OpMemberDecorate %PC 0 Offset 0
OpMemberDecorate %PC 1 Offset 8
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %rt ArrayStride 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%u_0 = OpConstant %uint 0
%i_0 = OpConstant %int 0
%i_1 = OpConstant %int 1
%u_2 = OpConstant %uint 2
%u_3 = OpConstant %uint 3
%u_16 = OpConstant %uint 16
%rt = OpTypeRuntimeArray %half
%Buf = OpTypeStruct %rt
%pbuf = OpTypePointer PhysicalStorageBuffer %Buf
%phalf = OpTypePointer PhysicalStorageBuffer %half
%PC = OpTypeStruct %pbuf %ulong
%ppc = OpTypePointer PushConstant %PC
%pc = OpVariable %ppc PushConstant
%ppc_buf = OpTypePointer PushConstant %pbuf
%ppc_ulong = OpTypePointer PushConstant %ulong
%mat = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_2
%main = OpFunction %void None %fn
%entry = OpLabel
%bufptr_p = OpAccessChain %ppc_buf %pc %i_0
%bufptr = OpLoad %pbuf %bufptr_p
%first = OpAccessChain %phalf %bufptr %i_0 %u_16
%m = OpCooperativeMatrixLoadKHR %mat %first %u_0 %u_16 Aligned 16
%addr_p = OpAccessChain %ppc_ulong %pc %i_1
%addr = OpLoad %ulong %addr_p
%bare = OpConvertUToPtr %phalf %addr
OpCooperativeMatrixStoreKHR %bare %m %u_0 %u_16 Aligned 2
OpReturn
OpFunctionEnd
)";
  const PassRun r = Lower(text, 32);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(Contains(r.text, "OpDecorate %_ptr_PhysicalStorageBuffer_half ArrayStride 2"))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "= OpPtrAccessChain %_ptr_PhysicalStorageBuffer_half %bare"))
      << r.text;
  EXPECT_TRUE(Contains(r.text, "= OpLoad %half")) << r.text;
  EXPECT_TRUE(Contains(r.text, "Aligned 2")) << r.text;
  EXPECT_FALSE(Contains(r.text, "Aligned 16")) << r.text;
}

// ---- NV

TEST(LowerCoopMatrix, NvMatricesLoadStoreMultiplyAndLength) {
  const std::string text = R"(OpCapability Shader
OpCapability Float16
OpCapability StorageBuffer16BitAccess
OpCapability CooperativeMatrixNV
OpExtension "SPV_NV_cooperative_matrix"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf_h %buf_f
OpExecutionMode %main LocalSize 32 1 1
OpName %main "main"
OpName %len "len"
OpName %r "r"
OpDecorate %rt_h ArrayStride 2
OpMemberDecorate %blk_h 0 Offset 0
OpDecorate %blk_h Block
OpDecorate %buf_h DescriptorSet 0
OpDecorate %buf_h Binding 0
OpDecorate %rt_f ArrayStride 4
OpMemberDecorate %blk_f 0 Offset 0
OpDecorate %blk_f Block
OpDecorate %buf_f DescriptorSet 0
OpDecorate %buf_f Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%u_0 = OpConstant %uint 0
%u_3 = OpConstant %uint 3
%u_8 = OpConstant %uint 8
%u_16 = OpConstant %uint 16
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
%mat_a = OpTypeCooperativeMatrixNV %half %u_3 %u_16 %u_8
%mat_b = OpTypeCooperativeMatrixNV %half %u_3 %u_8 %u_16
%mat_c = OpTypeCooperativeMatrixNV %float %u_3 %u_16 %u_16
%rt_h = OpTypeRuntimeArray %half
%blk_h = OpTypeStruct %rt_h
%pblk_h = OpTypePointer StorageBuffer %blk_h
%buf_h = OpVariable %pblk_h StorageBuffer
%pel_h = OpTypePointer StorageBuffer %half
%rt_f = OpTypeRuntimeArray %float
%blk_f = OpTypeStruct %rt_f
%pblk_f = OpTypePointer StorageBuffer %blk_f
%buf_f = OpVariable %pblk_f StorageBuffer
%pel_f = OpTypePointer StorageBuffer %float
%main = OpFunction %void None %fn
%entry = OpLabel
%ph = OpAccessChain %pel_h %buf_h %u_0 %u_0
%pf = OpAccessChain %pel_f %buf_f %u_0 %u_0
%a = OpCooperativeMatrixLoadNV %mat_a %ph %u_8 %false
%b = OpCooperativeMatrixLoadNV %mat_b %ph %u_8 %true
%c = OpCooperativeMatrixLoadNV %mat_c %pf %u_16 %false None
%r = OpCooperativeMatrixMulAddNV %mat_c %a %b %c
%len = OpCooperativeMatrixLengthNV %uint %mat_c
OpCooperativeMatrixStoreNV %pf %r %u_16 %true
OpReturn
OpFunctionEnd
)";
  const PassRun r = Lower(text, 32);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(Contains(r.text, "CooperativeMatrix")) << r.text;
  EXPECT_FALSE(Contains(r.text, "SPV_NV_cooperative_matrix")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%len = OpCopyObject %uint %uint_8")) << r.text;
  EXPECT_TRUE(Contains(r.text, "OpGroupNonUniformShuffle %float")) << r.text;
  EXPECT_TRUE(Contains(r.text, "%r = OpLoad %_arr_float_uint_8")) << r.text;
}

// ---- What is not lowered

TEST(LowerCoopMatrix, FailsClearlyOnWhatItDoesNotLower) {
  const std::string base = KernelText(Kernel{});
  auto error_of = [](const std::string& text, std::vector<PassRequest> before = {}) {
    std::vector<uint32_t> words;
    Problem p;
    EXPECT_TRUE(Assemble(text, {}, &words, &p)) << p.message;
    OptimizerOptions options;
    options.target_env = "vulkan1.3";
    options.passes = before;
    options.passes.push_back({"lower-coop-matrix", "32"});
    OptimizeResult result;
    if (Optimize(words, options, &result, &p)) return std::string("(lowered)");
    for (const auto& d : result.validation.diagnostics) p.message += "\n" + FormatDiagnostic(d);
    return p.message;
  };
  // Workgroup scope.
  const std::string workgroup =
      Replace(base, "%u_3 = OpConstant %uint 3", "%u_3 = OpConstant %uint 2");
  EXPECT_TRUE(Contains(error_of(workgroup), "OpTypeCooperativeMatrixKHR: only Subgroup-scope"))
      << error_of(workgroup);
  EXPECT_TRUE(Contains(error_of(workgroup), "Workgroup")) << error_of(workgroup);
  // Specialization-constant dimensions: named, and lowered after freezing and folding.
  std::string spec =
      Replace(base, "%u_16 = OpConstant %uint 16", "%u_16 = OpSpecConstant %uint 16");
  spec = Replace(spec, "OpDecorate %rt_a", "OpDecorate %u_16 SpecId 0\nOpDecorate %rt_a");
  EXPECT_TRUE(Contains(error_of(spec), "--freeze-spec-const --fold-spec-const")) << error_of(spec);
  EXPECT_EQ(error_of(spec, {{"freeze-spec-const", ""}, {"fold-spec-const", ""}}), "(lowered)");
  // ARM layouts.
  std::string arm =
      Replace(base, "OpCapability CooperativeMatrixKHR\n",
              "OpCapability CooperativeMatrixKHR\nOpCapability CooperativeMatrixLayoutsARM\n");
  arm = Replace(arm, "OpExtension \"SPV_KHR_cooperative_matrix\"\n",
                "OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension "
                "\"SPV_ARM_cooperative_matrix_layouts\"\n%u_4202 = ");
  arm = Replace(arm, "%u_4202 = ", "");
  arm = Replace(arm, "%u_0 = OpConstant %uint 0\n",
                "%u_0 = OpConstant %uint 0\n%arm = OpConstant %uint 4202\n"
                "%arm_stride = OpConstant %uint 1\n");
  // A blocked layout takes a Stride of 1, 2 or 4 (SPV_ARM_cooperative_matrix_layouts).
  arm = Replace(arm, "%mat_a %p_a %u_0 %u_16", "%mat_a %p_a %arm %arm_stride");
  EXPECT_TRUE(Contains(error_of(arm),
                       "OpCooperativeMatrixLoadKHR: only the RowMajorKHR and ColumnMajorKHR"))
      << error_of(arm);
  // The argument.
  for (const char* bad : {"0", "12", "256", "x", "-8"}) {
    EXPECT_TRUE(Contains(error_of(base, {}), "(lowered)"));
    std::vector<uint32_t> words;
    Problem p;
    ASSERT_TRUE(Assemble(base, {}, &words, &p));
    OptimizerOptions options;
    options.target_env = "vulkan1.3";
    options.passes = {{"lower-coop-matrix", bad}};
    OptimizeResult result;
    EXPECT_FALSE(Optimize(words, options, &result, &p)) << bad;
    EXPECT_TRUE(Contains(p.message, "power of two")) << bad << ": " << p.message;
  }
}

// ---- Properties

// Every shape of {8, 16, 32}^3, every subgroup size of {8, 16, 32, 64}, the component /
// accumulator pairs, both layouts and padded strides: the result lowers, validates and holds
// no cooperative matrix.
TEST(LowerCoopMatrix, EveryShapeSubgroupSizeTypeLayoutAndStrideLowersAndValidates) {
  struct Types {
    const char *a, *b, *c, *r, *operands;
  };
  const Types types[] = {
      {"half", "half", "float", "float", ""},
      {"half", "half", "half", "half", ""},
      {"float", "float", "float", "float", ""},
      {"double", "double", "double", "double", ""},
      {"char", "char", "int", "int",
       "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|"
       "MatrixResultSignedComponentsKHR"},
      {"uchar", "uchar", "uint", "uint", "SaturatingAccumulationKHR"},
      {"short", "short", "short", "short", "MatrixASignedComponentsKHR"},
      {"long", "long", "long", "long", ""},
  };
  const uint32_t dims[] = {8, 16, 32};
  const uint32_t subgroups[] = {8, 16, 32, 64};
  uint32_t n = 0;
  for (uint32_t m : dims) {
    for (uint32_t nn : dims) {
      for (uint32_t k : dims) {
        for (uint32_t s : subgroups) {
          ++n;
          const Types& t = types[n % std::size(types)];
          Kernel kn;
          kn.m = m, kn.n = nn, kn.k = k, kn.subgroup = s;
          kn.ta = t.a, kn.tb = t.b, kn.tc = t.c, kn.tr = t.r, kn.operands = t.operands;
          kn.layout_a = n % 2, kn.layout_b = (n / 2) % 2, kn.layout_c = (n / 4) % 2;
          kn.layout_d = (n / 8) % 2;
          if (n % 3 == 0) {
            kn.stride_a = (kn.layout_a ? m : k) + 3;
            kn.stride_b = (kn.layout_b ? k : nn) + 1;
            kn.stride_d = (kn.layout_d ? m : nn) + 5;
          }
          const PassRun r = Lower(KernelText(kn), s);
          ASSERT_TRUE(r.ok) << m << "x" << nn << "x" << k << " S=" << s << " " << t.a << "/" << t.r
                            << ": " << r.error;
          EXPECT_FALSE(Contains(r.text, "CooperativeMatrix"));
          const PassRun tile = LowerTile(KernelText(kn), s);
          ASSERT_TRUE(tile.ok) << m << "x" << nn << "x" << k << " S=" << s << ",tile " << t.a << "/"
                               << t.r << ": " << tile.error;
          EXPECT_FALSE(Contains(tile.text, "CooperativeMatrix"));
        }
      }
    }
  }
}

// The lowered code has the same size whatever the number of elements per invocation: loops,
// not unrolling.
TEST(LowerCoopMatrix, CodeSizeDoesNotGrowWithTheElementsPerInvocation) {
  Kernel small, large;
  small.m = small.n = small.k = 16;  // 32 slots at S = 8.
  large.m = large.n = large.k = 32;  // 128 slots.
  const PassRun rs = Lower(KernelText(small), 8), rl = Lower(KernelText(large), 8);
  ASSERT_TRUE(rs.ok && rl.ok) << rs.error << rl.error;
  EXPECT_LE(rl.words, rs.words + 16) << rs.words << " vs " << rl.words;
}

// ",tile": past the straight-line limits (256 slots for loads and stores, 8192 multiply-adds),
// the code has the same size whatever the number of elements per invocation: loops.
TEST(LowerCoopMatrix, TileCodeSizeDoesNotGrowPastTheStraightLineLimits) {
  Kernel small, large;
  small.m = small.n = small.k = 64;   // A: 16 x 64 = 1024 slots at S = 8, C: 16 x 32.
  large.m = large.n = large.k = 128;  // A: 4096 slots.
  const PassRun rs = LowerTile(KernelText(small), 8), rl = LowerTile(KernelText(large), 8);
  ASSERT_TRUE(rs.ok && rl.ok) << rs.error << rl.error;
  EXPECT_LE(rl.words, rs.words + 16) << rs.words << " vs " << rl.words;
}

TEST(LowerCoopMatrix, ThePipelineFromSpecConstantsToCompactIds) {
  std::string spec = Replace(KernelText(Kernel{}), "%u_16 = OpConstant %uint 16",
                             "%u_16 = OpSpecConstant %uint 16");
  spec = Replace(spec, "OpDecorate %rt_a", "OpDecorate %u_16 SpecId 0\nOpDecorate %rt_a");
  std::vector<uint32_t> words;
  Problem p;
  ASSERT_TRUE(Assemble(spec, {}, &words, &p));
  OptimizerOptions options;
  options.target_env = "vulkan1.3";
  options.passes = {{"freeze-spec-const", ""},
                    {"fold-spec-const", ""},
                    {"lower-coop-matrix", "8"},
                    {"eliminate-dead", ""},
                    {"compact-ids", ""}};
  options.validate_after_each = true;
  OptimizeResult result;
  ASSERT_TRUE(Optimize(words, options, &result, &p)) << p.message;
  std::string text;
  ASSERT_TRUE(Disassemble(result.words, {}, &text, &p));
  EXPECT_FALSE(Contains(text, "CooperativeMatrix"));
  EXPECT_FALSE(Contains(text, "OpSpecConstant"));
}

}  // namespace
}  // namespace coopspv
