// --lower-coop-vector on small modules, one instruction family at a time, checked with FileCheck
// directives on the disassembly; coopspv::Optimize validates every output for the same target
// environment (vulkan1.3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "test/util/filecheck.h"
#include "test/util/pass_run.h"

namespace coopspv {
namespace {

using testing::PassRun;

PassRun Lower(const std::string& assembly, const std::string& argument = "") {
  return testing::RunPasses(assembly, {{"lower-coop-vector", argument}});
}

// True when one line of `text` holds every part, in order.
bool HasLine(const std::string& text, const std::vector<std::string>& parts) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    size_t at = 0;
    bool all = true;
    for (const std::string& part : parts) {
      at = line.find(part, at);
      if (at == std::string::npos) {
        all = false;
        break;
      }
      at += part.size();
    }
    if (all) return true;
    start = end + 1;
  }
  return false;
}

// Four storage buffers (half, float, uint, uchar runtime arrays) and the usual scalars.
// OpName lines of `globals` go to the debug section, OpVariable lines of `body` to the start of
// the entry block.
std::string Module(const std::string& globals_and_names, const std::string& body_and_variables,
                   const std::string& extra_capabilities = "", const std::string& functions = "") {
  std::string names, globals, variables, body;
  auto split = [](const std::string& text, const std::string& key, std::string* with,
                  std::string* without) {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const std::string line = text.substr(start, end - start) + "\n";
      (line.find(key) != std::string::npos ? with : without)->append(line);
      start = end + 1;
    }
  };
  split(globals_and_names, "OpName", &names, &globals);
  split(body_and_variables, "OpVariable", &variables, &body);
  std::string text = R"(
OpCapability Shader
OpCapability Float16
OpCapability Int8
OpCapability StorageBuffer16BitAccess
OpCapability StorageBuffer8BitAccess
OpCapability VulkanMemoryModel
OpCapability CooperativeVectorNV
OpCapability ReplicatedCompositesEXT
)" + extra_capabilities +
                     R"(
OpExtension "SPV_NV_cooperative_vector"
OpExtension "SPV_EXT_replicated_composites"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %hbuf %fbuf %ubuf %bbuf %wg
OpExecutionMode %main LocalSize 64 1 1
)" + names + R"(
OpDecorate %rt_half ArrayStride 2
OpDecorate %Half Block
OpMemberDecorate %Half 0 Offset 0
OpDecorate %hbuf DescriptorSet 0
OpDecorate %hbuf Binding 0
OpDecorate %rt_float ArrayStride 4
OpDecorate %Float Block
OpMemberDecorate %Float 0 Offset 0
OpDecorate %fbuf DescriptorSet 0
OpDecorate %fbuf Binding 1
OpDecorate %rt_uint ArrayStride 4
OpDecorate %Uint Block
OpMemberDecorate %Uint 0 Offset 0
OpDecorate %ubuf DescriptorSet 0
OpDecorate %ubuf Binding 2
OpDecorate %rt_uchar ArrayStride 1
OpDecorate %Uchar Block
OpMemberDecorate %Uchar 0 Offset 0
OpDecorate %bbuf DescriptorSet 0
OpDecorate %bbuf Binding 3
OpDecorate %spec SpecId 0
%void = OpTypeVoid
%fnvoid = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uchar = OpTypeInt 8 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%false = OpConstantFalse %bool
%true = OpConstantTrue %bool
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_5 = OpConstant %uint 5
%uint_7 = OpConstant %uint 7
%uint_8 = OpConstant %uint 8
%uint_9 = OpConstant %uint 9
%uint_16 = OpConstant %uint 16
%uint_32 = OpConstant %uint 32
%uint_64 = OpConstant %uint 64
%uint_E4M3 = OpConstant %uint 1000491002
%uint_S8P = OpConstant %uint 1000491000
%spec = OpSpecConstant %uint 2
%half_1 = OpConstant %half 1
%float_2 = OpConstant %float 2
%rt_half = OpTypeRuntimeArray %half
%Half = OpTypeStruct %rt_half
%ptr_Half = OpTypePointer StorageBuffer %Half
%hbuf = OpVariable %ptr_Half StorageBuffer
%ptr_rt_half = OpTypePointer StorageBuffer %rt_half
%rt_float = OpTypeRuntimeArray %float
%Float = OpTypeStruct %rt_float
%ptr_Float = OpTypePointer StorageBuffer %Float
%fbuf = OpVariable %ptr_Float StorageBuffer
%ptr_rt_float = OpTypePointer StorageBuffer %rt_float
%rt_uint = OpTypeRuntimeArray %uint
%Uint = OpTypeStruct %rt_uint
%ptr_Uint = OpTypePointer StorageBuffer %Uint
%ubuf = OpVariable %ptr_Uint StorageBuffer
%ptr_rt_uint = OpTypePointer StorageBuffer %rt_uint
%rt_uchar = OpTypeRuntimeArray %uchar
%Uchar = OpTypeStruct %rt_uchar
%ptr_Uchar = OpTypePointer StorageBuffer %Uchar
%bbuf = OpVariable %ptr_Uchar StorageBuffer
%ptr_rt_uchar = OpTypePointer StorageBuffer %rt_uchar
%arr = OpTypeArray %uint %uint_64
%parr = OpTypePointer Workgroup %arr
%wg = OpVariable %parr Workgroup
)" + globals +
                     R"(
%main = OpFunction %void None %fnvoid
%entry = OpLabel
)" + variables + R"(
%H = OpAccessChain %ptr_rt_half %hbuf %uint_0
%F = OpAccessChain %ptr_rt_float %fbuf %uint_0
%U = OpAccessChain %ptr_rt_uint %ubuf %uint_0
%B = OpAccessChain %ptr_rt_uchar %bbuf %uint_0
)" + body +
                     R"(
OpReturn
OpFunctionEnd
)" + functions;
  // Every %name defined here gets an OpName, so that the disassembly shows it.
  std::string auto_names;
  for (size_t at = text.find("\n%"); at != std::string::npos; at = text.find("\n%", at + 1)) {
    const size_t end = text.find(" = ", at);
    if (end == std::string::npos) break;
    const std::string name = text.substr(at + 2, end - at - 2);
    if (name.find_first_of(" \n") != std::string::npos) continue;
    auto_names += "OpName %" + name + " \"" + name + "\"\n";
  }
  const size_t debug = text.find("OpExecutionMode");
  const size_t after = text.find('\n', debug) + 1;
  return text.substr(0, after) + auto_names + text.substr(after);
}

// ---- Types

TEST(LowerCoopVector, TypesBecomeVectorsOrArraysUnderTheSameIds) {
  const PassRun r =
      Lower(Module("OpName %v4 \"v4\"\nOpName %v16 \"v16\"\nOpName %vs \"vs\"\n"
                   "%v4 = OpTypeCooperativeVectorNV %half %uint_4\n"
                   "%v16 = OpTypeCooperativeVectorNV %half %uint_16\n"
                   "%vs = OpTypeCooperativeVectorNV %float %spec\n"
                   "%pv4 = OpTypePointer Function %v4\n%pv16 = OpTypePointer Function %v16\n"
                   "%pvs = OpTypePointer Function %vs\n"
                   "%c4 = OpConstantComposite %v4 %half_1 %half_1 %half_1 %half_1\n"
                   "%r16 = OpConstantCompositeReplicateEXT %v16 %half_1\n"
                   "%rs = OpSpecConstantCompositeReplicateEXT %vs %float_2\n",
                   "%a = OpVariable %pv4 Function %c4\n%b = OpVariable %pv16 Function\n"
                   "%c = OpVariable %pvs Function\nOpStore %b %r16\nOpStore %c %rs\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK-NOT: CooperativeVector
    CHECK: OpExtension "SPV_EXT_replicated_composites"
    CHECK: %v4 = OpTypeVector %half 4
    CHECK: %v16 = OpTypeArray %half %uint_16
    CHECK: %vs = OpTypeArray %float %spec
    CHECK: %c4 = OpConstantComposite %v4 %half_1 %half_1 %half_1 %half_1
    CHECK: %r16 = OpConstantComposite %v16 %half_1 %half_1 %half_1 %half_1 %half_1
    CHECK: %rs = OpSpecConstantCompositeReplicateEXT %vs %float_2
  )")) << r.text;
  EXPECT_EQ(r.text.find("SPV_NV_cooperative_vector"), std::string::npos);
}

TEST(LowerCoopVector, ReplicatedCompositesOfKnownCountsBecomePlain) {
  const PassRun r =
      Lower(Module("%v4 = OpTypeCooperativeVectorNV %half %uint_4\n"
                   "%v16 = OpTypeCooperativeVectorNV %half %uint_16\n"
                   "%pv16 = OpTypePointer Function %v16\n"
                   "%c = OpConstantCompositeReplicateEXT %v4 %half_1\n"
                   "%psb_half = OpTypePointer StorageBuffer %half\n",
                   "%var = OpVariable %pv16 Function\n"
                   "%hp = OpAccessChain %psb_half %H %uint_0\n"
                   "%h = OpLoad %half %hp\n%r = OpCompositeConstructReplicateEXT %v16 %h\n"
                   "OpStore %var %r\nOpCooperativeVectorStoreNV %H %uint_0 %c\n"));
  ASSERT_TRUE(r.ok) << r.error;
  // Nothing replicated is left, so neither is SPV_EXT_replicated_composites.
  EXPECT_EQ(r.text.find("Replicate"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("replicated_composites"), std::string::npos) << r.text;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %c = OpConstantComposite %v4 %half_1 %half_1 %half_1 %half_1
    CHECK: OpLoopMerge
    CHECK: OpStore
    CHECK: %r = OpLoad %v16
  )")) << r.text;
}

TEST(LowerCoopVector, HugeReplicatedConstantsStayReplicated) {
  const PassRun r =
      Lower(Module("%uint_5000 = OpConstant %uint 5000\n"
                   "%big = OpTypeCooperativeVectorNV %half %uint_5000\n"
                   "%c = OpConstantCompositeReplicateEXT %big %half_1\n",
                   "OpCooperativeVectorStoreNV %H %uint_0 %c\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability ReplicatedCompositesEXT
    CHECK: %c = OpConstantCompositeReplicateEXT %big %half_1
    CHECK: OpLoopMerge
  )")) << r.text;
}

TEST(LowerCoopVector, ValuesLiveInParametersResultsPhisSelectsAndComposites) {
  const std::string globals =
      "OpName %v8 \"v8\"\nOpName %twice \"twice\"\n"
      "%v8 = OpTypeCooperativeVectorNV %float %uint_8\n%pv8 = OpTypePointer Function %v8\n"
      "%fn = OpTypeFunction %v8 %v8\n%pf = OpTypePointer Function %float\n"
      "%z = OpConstantNull %v8\n";
  const std::string body = R"(
%var = OpVariable %pv8 Function
%x = OpCompositeConstruct %v8 %float_2 %float_2 %float_2 %float_2 %float_2 %float_2 %float_2 %float_2
%y = OpFunctionCall %v8 %twice %x
OpSelectionMerge %join None
OpBranchConditional %true %then %join
%then = OpLabel
%ins = OpCompositeInsert %v8 %float_2 %y 3
OpBranch %join
%join = OpLabel
%phi = OpPhi %v8 %ins %then %y %entry
%sel = OpSelect %v8 %true %phi %z
%e = OpCompositeExtract %float %sel 2
%dyn = OpVectorExtractDynamic %float %sel %uint_5
%put = OpVectorInsertDynamic %v8 %sel %dyn %uint_1
OpStore %var %put
%p = OpAccessChain %pf %var %uint_7
OpStore %p %e
)";
  const std::string functions = R"(
%twice = OpFunction %v8 None %fn
%arg = OpFunctionParameter %v8
%tl = OpLabel
%sum = OpFAdd %v8 %arg %arg
OpReturnValue %sum
OpFunctionEnd
)";
  const PassRun r = Lower(Module(globals, body, "", functions));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %v8 = OpTypeArray %float %uint_8
    CHECK: OpTypeFunction %v8 %v8
    CHECK: OpFunctionCall %v8 %twice
    CHECK: OpPhi %v8
    CHECK: OpSelect %v8 %true
    CHECK: %dyn = OpLoad %float
    CHECK: %put = OpLoad %v8
    CHECK: %twice = OpFunction %v8
    CHECK: %arg = OpFunctionParameter %v8
    CHECK: OpCompositeExtract %float %arg 0
    CHECK-NEXT: OpFAdd %float
    CHECK: %sum = OpCompositeConstruct %v8
  )")) << r.text;
  EXPECT_EQ(r.text.find("VectorExtractDynamic"), std::string::npos);
  EXPECT_EQ(r.text.find("VectorInsertDynamic"), std::string::npos);
}

// Non-semantic instructions (debug info: glslang -gV's DebugValue of a vector) may name a lowered
// value, at module scope too; they keep naming it, whatever its type became.
TEST(LowerCoopVector, NonSemanticInstructionsKeepNamingTheLoweredValues) {
  std::string text = Module(
      "%v16 = OpTypeCooperativeVectorNV %half %uint_16\n"
      "%info = OpExtInst %void %dbg 1 %v16 %uint_16\n",
      "%a = OpCooperativeVectorLoadNV %v16 %H %uint_0\n"
      "%b = OpFMul %v16 %a %a\n"
      "%seen = OpExtInst %void %dbg 2 %info %b\n"
      "OpCooperativeVectorStoreNV %H %uint_32 %b\n");
  const std::string import = "%glsl = OpExtInstImport \"GLSL.std.450\"\n";
  text.replace(text.find(import), import.size(),
               import + "%dbg = OpExtInstImport \"NonSemantic.coopspv.test\"\n");
  text.insert(text.find("OpExtension"), "OpExtension \"SPV_KHR_non_semantic_info\"\n");
  text.insert(text.find("OpName"), "OpName %dbg \"dbg\"\n");
  const PassRun r = Lower(text);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %info = OpExtInst %void %dbg 1 %v16 %uint_16
    CHECK: %b = OpLoad %v16
    CHECK: %seen = OpExtInst %void %dbg 2 %info %b
  )")) << r.text;
}

TEST(LowerCoopVector, WithLongVectorsTheTypesStayVectors) {
  const PassRun r = Lower(Module(
      "%v16 = OpTypeCooperativeVectorNV %half %uint_16\n"
      "%v8 = OpTypeCooperativeVectorNV %half %uint_8\n",
      "%a = OpCooperativeVectorLoadNV %v16 %H %uint_0\n"
      "%b = OpFAdd %v16 %a %a\n%c = OpExtInst %v16 %glsl FMax %b %a\n"
      "%y = OpCooperativeVectorMatrixMulNV %v8 %c %uint_0 %H %uint_0 %uint_0 %uint_8 %uint_16 "
      "%uint_0 %false %uint_32\n"
      "OpCooperativeVectorStoreNV %H %uint_0 %y\n",
      "OpCapability LongVectorEXT\nOpExtension \"SPV_EXT_long_vector\"\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK-NOT: CooperativeVectorNV
    CHECK: OpCapability LongVectorEXT
    CHECK: %v16 = OpTypeVectorIdEXT %half %uint_16
    CHECK: %b = OpFAdd %v16 %a %a
    CHECK-NEXT: %c = OpExtInst %v16 %glsl FMax %b %a
    CHECK: OpLoopMerge
    CHECK: %y = OpLoad %v8
  )")) << r.text;
}

// SPV_EXT_long_vector for a device without long vectors (lower-long-vectors): OpTypeVector of 1 or
// more than 4 components and OpTypeVectorIdEXT become arrays (2 to 4 components: vectors), their
// arithmetic goes component by component, LongVectorEXT and its extension go.
constexpr const char* kLongVectors = R"(
OpCapability Shader
OpCapability LongVectorEXT
OpExtension "SPV_EXT_long_vector"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %wg
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %n SpecId 0
%void = OpTypeVoid
%fnvoid = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%n = OpSpecConstant %uint 6
%uint_3 = OpConstant %uint 3
%float_1 = OpConstant %float 1
%v8float = OpTypeVector %float 8
%v1float = OpTypeVector %float 1
%v8bool = OpTypeVector %bool 8
%v3float = OpTypeVectorIdEXT %float %uint_3
%vnfloat = OpTypeVectorIdEXT %float %n
%ptr_wg_v8float = OpTypePointer Workgroup %v8float
%ptr_fn_vnfloat = OpTypePointer Function %vnfloat
%wg = OpVariable %ptr_wg_v8float Workgroup
%main = OpFunction %void None %fnvoid
%entry = OpLabel
%fv = OpVariable %ptr_fn_vnfloat Function
%a = OpLoad %v8float %wg
%b = OpFMul %v8float %a %a
%c = OpExtInst %v8float %glsl FMax %b %a
%gt = OpFOrdGreaterThan %v8bool %c %a
%d = OpSelect %v8float %gt %c %a
OpStore %wg %d
%one = OpCompositeConstruct %v1float %float_1
%e = OpCompositeExtract %float %one 0
%three = OpCompositeConstruct %v3float %e %e %e
%f = OpLoad %vnfloat %fv
%g = OpFAdd %vnfloat %f %f
OpStore %fv %g
OpReturn
OpFunctionEnd
)";

TEST(LowerCoopVector, LongVectorsBecomeArraysWithoutLongVectorSupport) {
  const PassRun r = Lower(kLongVectors, "lower-long-vectors");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK-NOT: LongVectorEXT
    CHECK-NOT: SPV_EXT_long_vector
    CHECK: %_arr_float_uint_8 = OpTypeArray %float %uint_8
    CHECK: %_arr_float_uint_1 = OpTypeArray %float %uint_1
    CHECK: %_arr_bool_uint_8 = OpTypeArray %bool %uint_8
    CHECK: %v3float = OpTypeVector %float 3
    CHECK: OpTypeArray %float %4
    CHECK: OpFOrdGreaterThan %bool
    CHECK: OpSelect %float
    CHECK: OpLoopMerge
  )")) << r.text;
  EXPECT_EQ(r.text.find("OpTypeVectorIdEXT"), std::string::npos) << r.text;
  // Without the argument, long vectors stay (the device has them).
  const PassRun kept = Lower(kLongVectors);
  ASSERT_TRUE(kept.ok) << kept.error;
  EXPECT_NE(kept.text.find("OpCapability LongVectorEXT"), std::string::npos);
}

TEST(LowerCoopVector, LongVectorsInExplicitLayoutMemoryAreRefused) {
  std::string text = kLongVectors;
  text.replace(text.find("%ptr_wg_v8float = OpTypePointer Workgroup %v8float"),
               std::string("%ptr_wg_v8float = OpTypePointer Workgroup %v8float").size(),
               "%ptr_wg_v8float = OpTypePointer Workgroup %v8float\n"
               "%S = OpTypeStruct %v8float\n%ptr_sb_S = OpTypePointer StorageBuffer %S");
  const PassRun r = Lower(text, "lower-long-vectors");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("lower-coop-vector.long-vector-memory"), std::string::npos) << r.error;
}

// ---- Load / store

TEST(LowerCoopVector, LoadAndStoreComponentWiseAtTheByteOffset) {
  const PassRun r = Lower(Module("%v4 = OpTypeCooperativeVectorNV %half %uint_4\n",
                                 "%v = OpCooperativeVectorLoadNV %v4 %H %uint_8\n"
                                 "OpCooperativeVectorStoreNV %H %uint_16 %v\n"));
  ASSERT_TRUE(r.ok) << r.error;
  // Byte 8 of a half array is element 4; the store at byte 16 starts at element 8.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpAccessChain %_ptr_StorageBuffer_half %H %uint_4
    CHECK-NEXT: OpLoad %half
    CHECK: OpAccessChain %_ptr_StorageBuffer_half %H %uint_7
    CHECK-NEXT: OpLoad %half
    CHECK-NEXT: %v = OpCompositeConstruct %v4
    CHECK: OpCompositeExtract %half
    CHECK: OpAccessChain %_ptr_StorageBuffer_half %H %uint_8
    CHECK-NEXT: OpStore
    CHECK: OpAccessChain %_ptr_StorageBuffer_half %H %uint_11
    CHECK-NEXT: OpStore
  )")) << r.text;
}

TEST(LowerCoopVector, LoadStoreKeepTheMemoryOperands) {
  const PassRun ok = Lower(
      Module("%v16 = OpTypeCooperativeVectorNV %float %uint_16\n",
             "%v = OpCooperativeVectorLoadNV %v16 %F %uint_0 MakePointerVisible|NonPrivatePointer "
             "%uint_2\n"
             "OpCooperativeVectorStoreNV %wg %uint_4 %v MakePointerAvailable|NonPrivatePointer "
             "%uint_2\n"));
  ASSERT_TRUE(ok.ok) << ok.error;
  // 16 components: a loop; float components stored into a uint array are bitcast.
  EXPECT_TRUE(testing::FileCheck(ok.text, R"(
    CHECK: OpLoopMerge
    CHECK: OpLoad %float
    CHECK: OpLoopMerge
    CHECK: OpBitcast %uint
    CHECK-NEXT: OpAccessChain %_ptr_Workgroup_uint %wg
    CHECK-NEXT: OpStore
  )")) << ok.text;
  EXPECT_NE(ok.text.find("OpLoad %float %"), std::string::npos);
  EXPECT_NE(ok.text.find("MakePointerVisible|NonPrivatePointer %uint_2"), std::string::npos);
  EXPECT_NE(ok.text.find("MakePointerAvailable|NonPrivatePointer %uint_2"), std::string::npos);
}

TEST(LowerCoopVector, LoadReinterpretsWiderArrayElements) {
  // Halves read out of a uint array: the word, shifted by the byte within it, truncated.
  const PassRun r = Lower(Module("%v2 = OpTypeCooperativeVectorNV %half %uint_2\n",
                                 "%v = OpCooperativeVectorLoadNV %v2 %U %uint_4\n"
                                 "OpCooperativeVectorStoreNV %H %uint_0 %v\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpAccessChain %_ptr_StorageBuffer_uint %U %uint_1
    CHECK-NEXT: OpLoad %uint
    CHECK-NEXT: OpUConvert %ushort
    CHECK-NEXT: OpBitcast %half
    CHECK: OpAccessChain %_ptr_StorageBuffer_uint %U %uint_1
    CHECK-NEXT: OpLoad %uint
    CHECK-NEXT: OpShiftRightLogical %uint
    CHECK-NEXT: OpUConvert %ushort
    CHECK-NEXT: OpBitcast %half
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpShiftRightLogical %uint", "%uint_16"})) << r.text;
}

TEST(LowerCoopVector, StorePacksNarrowComponentsIntoWiderElements) {
  const PassRun r = Lower(Module("%v4 = OpTypeCooperativeVectorNV %half %uint_4\n",
                                 "%v = OpCooperativeVectorLoadNV %v4 %H %uint_0\n"
                                 "OpCooperativeVectorStoreNV %U %uint_8 %v\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpBitcast %ushort
    CHECK: OpUConvert %uint
    CHECK: OpShiftLeftLogical %uint
    CHECK-NEXT: OpBitwiseOr %uint
    CHECK: OpStore
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpShiftLeftLogical %uint", "%uint_16"})) << r.text;
  EXPECT_NE(r.text.find("OpAccessChain %_ptr_StorageBuffer_uint %U"), std::string::npos);
}

TEST(LowerCoopVector, LoadCombinesNarrowerArrayElements) {
  // A float32 vector read from a byte array: four bytes, little-endian.
  const PassRun r = Lower(Module("%v2 = OpTypeCooperativeVectorNV %float %uint_2\n",
                                 "%v = OpCooperativeVectorLoadNV %v2 %B %uint_0\n"
                                 "OpCooperativeVectorStoreNV %F %uint_0 %v\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpLoad %uchar
    CHECK-NEXT: OpUConvert %uint
    CHECK: OpShiftLeftLogical %uint
    CHECK-NEXT: OpBitwiseOr %uint
    CHECK: OpBitcast %float
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpShiftLeftLogical %uint", "%uint_24"})) << r.text;
}

// ---- Element-wise instructions

TEST(LowerCoopVector, ElementwiseOnShortArraysIsStraightLine) {
  const PassRun r = Lower(Module(
      "%v8 = OpTypeCooperativeVectorNV %float %uint_8\n"
      "%h8 = OpTypeCooperativeVectorNV %half %uint_8\n"
      "%u8 = OpTypeCooperativeVectorNV %uint %uint_8\n",
      "%a = OpCooperativeVectorLoadNV %v8 %F %uint_0\n"
      "%b = OpFMul %v8 %a %a\n%c = OpVectorTimesScalar %v8 %b %float_2\n"
      "%d = OpExtInst %v8 %glsl FMax %c %a\n%e = OpFNegate %v8 %d\n"
      "%h = OpFConvert %h8 %e\n%u = OpBitcast %u8 %e\n"
      "OpCooperativeVectorStoreNV %H %uint_0 %h\nOpCooperativeVectorStoreNV %U %uint_0 %u\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text.find("OpLoopMerge"), std::string::npos);
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpFMul %float
    CHECK: OpFMul %float
    CHECK: %b = OpCompositeConstruct %v8
    CHECK: OpExtInst %float %glsl FMax
    CHECK: OpFNegate %float
    CHECK: OpFConvert %half
    CHECK: OpBitcast %uint
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpFMul %float", "%float_2"})) << r.text;
}

TEST(LowerCoopVector, ElementwiseOnLongOrSpecSizedArraysLoops) {
  const PassRun r =
      Lower(Module("%v32 = OpTypeCooperativeVectorNV %half %uint_32\n"
                   "%vs = OpTypeCooperativeVectorNV %uint %spec\n"
                   "%one = OpConstantCompositeReplicateEXT %v32 %half_1\n",
                   "%a = OpCooperativeVectorLoadNV %v32 %H %uint_0\n"
                   "%b = OpFAdd %v32 %a %one\n%c = OpExtInst %v32 %glsl Exp %b\n"
                   "OpCooperativeVectorStoreNV %H %uint_0 %c\n"
                   "%x = OpCooperativeVectorLoadNV %vs %U %uint_0\n"
                   "%y = OpShiftLeftLogical %vs %x %x\n%z = OpNot %vs %y\n"
                   "OpCooperativeVectorStoreNV %U %uint_0 %z\n"));
  ASSERT_TRUE(r.ok) << r.error;
  // The replicated constant is its scalar at every index: no variable for it.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpLoopMerge
    CHECK: OpFAdd %half
    CHECK: OpLoopMerge
    CHECK: OpExtInst %half %glsl Exp
    CHECK: OpShiftLeftLogical %uint
    CHECK: OpNot %uint
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpFAdd %half", "%half_1"})) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpULessThan %bool", "%spec"})) << r.text;
}

TEST(LowerCoopVector, ShortVectorsKeepTheirElementwiseInstructions) {
  const PassRun r = Lower(Module("%v4 = OpTypeCooperativeVectorNV %half %uint_4\n",
                                 "%a = OpCooperativeVectorLoadNV %v4 %H %uint_0\n"
                                 "%b = OpFAdd %v4 %a %a\n%c = OpExtInst %v4 %glsl FClamp %b %a %a\n"
                                 "%d = OpVectorTimesScalar %v4 %c %half_1\n"
                                 "OpCooperativeVectorStoreNV %H %uint_0 %d\n"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %v4 = OpTypeVector %half 4
    CHECK: %b = OpFAdd %v4 %a %a
    CHECK-NEXT: %c = OpExtInst %v4 %glsl FClamp %b %a %a
    CHECK-NEXT: %d = OpVectorTimesScalar %v4 %c %half_1
  )")) << r.text;
}

// ---- Matrix-vector multiply

TEST(LowerCoopVector, MatrixMulAddFloat16RowMajorLoopsOverMAndK) {
  const PassRun r = Lower(Module(
      "%in = OpTypeCooperativeVectorNV %half %uint_16\n"
      "%out = OpTypeCooperativeVectorNV %half %uint_8\n",
      "%x = OpCooperativeVectorLoadNV %in %H %uint_0\n"
      "%y = OpCooperativeVectorMatrixMulAddNV %out %x %uint_0 %H %uint_64 %uint_0 %H %uint_32 "
      "%uint_0 %uint_8 %uint_16 %uint_0 %false %uint_32\n"
      "OpCooperativeVectorStoreNV %H %uint_0 %y\n"));
  ASSERT_TRUE(r.ok) << r.error;
  // Input converted once into float32; bias element m at byte 32 + 2m; matrix element (m, k)
  // at byte 64 + m * 32 + 2k; float32 accumulation, rounded to half at the end.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpLoopMerge
    CHECK: OpFConvert %float
    CHECK: OpLoopMerge
    CHECK: OpLoad %half
    CHECK: OpFConvert %float
    CHECK: OpLoopMerge
    CHECK: OpLoad %half
    CHECK: OpFMul %float
    CHECK: OpFAdd %float
    CHECK: OpFConvert %half
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpIMul %uint", "%uint_2"})) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpIMul %uint", "%uint_32"})) << r.text;
  EXPECT_EQ(r.text.find("CooperativeVector"), std::string::npos);
}

TEST(LowerCoopVector, MatrixMulColumnMajorWithSpecConstantTranspose) {
  const std::string globals =
      "%in = OpTypeCooperativeVectorNV %float %uint_4\n"
      "%out = OpTypeCooperativeVectorNV %float %uint_3\n"
      "%t = OpSpecConstantFalse %bool\n";
  const PassRun r = Lower(Module(globals,
                                 "%x = OpCooperativeVectorLoadNV %in %F %uint_0\n"
                                 "%y = OpCooperativeVectorMatrixMulNV %out %x %uint_1 %F %uint_0 "
                                 "%uint_1 %uint_3 %uint_4 %uint_1 %t %uint_16\n"
                                 "OpCooperativeVectorStoreNV %F %uint_0 %y\n"));
  ASSERT_TRUE(r.ok) << r.error;
  // A spec-constant Transpose is read at run time.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpSelect %uint %t
    CHECK: OpSelect %uint %t
    CHECK: OpFMul %float
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpIMul %uint", "%uint_16"})) << r.text;
}

TEST(LowerCoopVector, MatrixMulAddPackedInt8WithInt32Bias) {
  const PassRun r = Lower(Module(
      "%in = OpTypeCooperativeVectorNV %uint %uint_4\n"
      "%out = OpTypeCooperativeVectorNV %int %uint_8\n",
      "%x = OpCooperativeVectorLoadNV %in %U %uint_0\n"
      "%y = OpCooperativeVectorMatrixMulAddNV %out %x %uint_S8P %B %uint_0 %uint_3 %U %uint_64 "
      "%uint_5 %uint_8 %uint_16 %uint_0 %false %uint_16 MatrixResultSignedComponentsKHR\n"
      "OpCooperativeVectorStoreNV %U %uint_0 %y\n"));
  ASSERT_TRUE(r.ok) << r.error;
  // Byte k % 4 of component k / 4, sign-extended; int8 matrix bytes sign-extended; the int32
  // bias read as is; 32-bit wrapping multiply-add.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpBitFieldSExtract %uint
    CHECK-NEXT: OpBitcast %int
    CHECK: OpLoad %uint
    CHECK-NEXT: OpBitcast %int
    CHECK: OpLoad %uchar
    CHECK-NEXT: OpSConvert %int
    CHECK: OpIMul %int
    CHECK-NEXT: OpLoad %int
    CHECK-NEXT: OpIAdd %int
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpBitwiseAnd %uint", "%uint_3"})) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpBitFieldSExtract %uint", "%uint_8"})) << r.text;
}

TEST(LowerCoopVector, MatrixMulFloatE4M3DecodesInSoftware) {
  const PassRun r = Lower(
      Module("%in = OpTypeCooperativeVectorNV %half %uint_16\n",
             "%x = OpCooperativeVectorLoadNV %in %H %uint_0\n"
             "%y = OpCooperativeVectorMatrixMulNV %in %x %uint_E4M3 %B %uint_0 %uint_E4M3 %uint_16 "
             "%uint_16 %uint_2 %false\n"
             "OpCooperativeVectorStoreNV %H %uint_0 %y\n"),
      // Vulkan has float8 matrices only in optimal layouts: this one is held row-major.
      "optimal-as-row-major");
  ASSERT_TRUE(r.ok) << r.error;
  // The input is rounded to E4M3 (encode, then decode); matrix bytes are decoded; the helpers
  // are functions of uint -> uint at the end of the module.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpFConvert %float
    CHECK-NEXT: OpBitcast %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK-NEXT: OpBitcast %float
    CHECK: OpLoad %uchar
    CHECK-NEXT: OpUConvert %uint
    CHECK-NEXT: OpFunctionCall %uint
    CHECK: OpFunctionEnd
    CHECK: OpFunction %uint None
    CHECK: OpFunctionParameter %uint
    CHECK: OpFunctionEnd
    CHECK: OpFunction %uint None
    CHECK: FindUMsb
  )")) << r.text;
}

TEST(LowerCoopVector, IntegerInputsSaturateToTheInterpretation) {
  const PassRun r = Lower(Module(
      "%in = OpTypeCooperativeVectorNV %int %uint_16\n"
      "%uin = OpTypeCooperativeVectorNV %uint %uint_16\n"
      "%fin = OpTypeCooperativeVectorNV %float %uint_16\n"
      "%out = OpTypeCooperativeVectorNV %int %uint_8\n",
      "%x = OpCooperativeVectorLoadNV %in %U %uint_0\n"
      "%y = OpCooperativeVectorMatrixMulNV %out %x %uint_3 %B %uint_0 %uint_3 %uint_8 %uint_16 "
      "%uint_0 %false %uint_16 MatrixBSignedComponentsKHR|MatrixResultSignedComponentsKHR\n"
      "%ux = OpCooperativeVectorLoadNV %uin %U %uint_0\n"
      "%uy = OpCooperativeVectorMatrixMulNV %out %ux %uint_7 %B %uint_0 %uint_7 %uint_8 %uint_16 "
      "%uint_0 %false %uint_16\n"
      "%fx = OpCooperativeVectorLoadNV %fin %F %uint_0\n"
      "%fy = OpCooperativeVectorMatrixMulNV %out %fx %uint_3 %B %uint_0 %uint_3 %uint_8 %uint_16 "
      "%uint_0 %false %uint_16\n"
      "%s = OpIAdd %out %y %uy\n%t = OpIAdd %out %s %fy\n"
      "OpCooperativeVectorStoreNV %U %uint_0 %t\n"));
  ASSERT_TRUE(r.ok) << r.error;
  // Signed input to SignedInt8: clamp to [-128, 127]; unsigned input to UnsignedInt8: at most
  // 255; float input: round to nearest even, clamp, convert.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: SClamp
    CHECK: UMin
    CHECK: RoundEven
    CHECK-NEXT: FClamp
    CHECK-NEXT: OpConvertFToS %int
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"SClamp", "%uint_4294967168 %uint_127"})) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"UMin", "%uint_255"})) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"FClamp", "%float_n128 %float_127"})) << r.text;
}

TEST(LowerCoopVector, OptimalLayoutsFailAndSaySoWhatToDo) {
  const std::string globals =
      "%in = OpTypeCooperativeVectorNV %half %uint_16\n"
      "%out = OpTypeCooperativeVectorNV %half %uint_8\n"
      "%layout = OpSpecConstant %uint 0\n";
  auto with_layout = [&](const std::string& layout) {
    return Module(globals,
                  "%x = OpCooperativeVectorLoadNV %in %H %uint_0\n"
                  "%y = OpCooperativeVectorMatrixMulNV %out %x %uint_0 %H %uint_0 "
                  "%uint_0 %uint_8 %uint_16 " +
                      layout +
                      " %false %uint_32\n"
                      "OpCooperativeVectorStoreNV %H %uint_0 %y\n");
  };
  const PassRun inferencing = Lower(with_layout("%uint_2"));
  EXPECT_FALSE(inferencing.ok);
  EXPECT_NE(inferencing.error.find("lower-coop-vector.optimal-layout"), std::string::npos);
  EXPECT_NE(inferencing.error.find("InferencingOptimalNV"), std::string::npos);
  EXPECT_NE(inferencing.error.find("RowMajorNV or ColumnMajorNV"), std::string::npos)
      << inferencing.error;
  const PassRun training = Lower(with_layout("%uint_3"));
  EXPECT_NE(training.error.find("TrainingOptimalNV"), std::string::npos) << training.error;
  const PassRun spec = Lower(with_layout("%layout"));
  EXPECT_NE(spec.error.find("specialization constant"), std::string::npos) << spec.error;
  EXPECT_TRUE(Lower(with_layout("%uint_0")).ok);
}

TEST(LowerCoopVector, OptimalLayoutsReadAsTightRowOrColumnMajorWhenAsked) {
  const std::string globals =
      "%in = OpTypeCooperativeVectorNV %half %uint_16\n"
      "%out = OpTypeCooperativeVectorNV %half %uint_8\n";
  // M = 8, K = 16, float16; the instruction's MatrixStride (7) is ignored for optimal layouts.
  auto with = [&](const std::string& layout, const std::string& transpose) {
    return Module(globals,
                  "%x = OpCooperativeVectorLoadNV %in %H %uint_0\n"
                  "%y = OpCooperativeVectorMatrixMulNV %out %x %uint_0 %H %uint_0 "
                  "%uint_0 %uint_8 %uint_16 " +
                      layout + " " + transpose +
                      " %uint_7\n"
                      "OpCooperativeVectorStoreNV %H %uint_0 %y\n");
  };
  // Row-major M x K: a row is K * 2 = 32 bytes.
  const PassRun rows = Lower(with("%uint_2", "%false"), "optimal-as-row-major");
  ASSERT_TRUE(rows.ok) << rows.error;
  EXPECT_TRUE(HasLine(rows.text, {"OpIMul %uint", "%uint_32"})) << rows.text;
  EXPECT_FALSE(HasLine(rows.text, {"OpIMul %uint", "%uint_7"})) << rows.text;
  EXPECT_EQ(rows.text.find("CooperativeVector"), std::string::npos);
  // Column-major M x K: a column is M * 2 = 16 bytes; TrainingOptimalNV alike.
  const PassRun cols = Lower(with("%uint_3", "%false"), "optimal-as-column-major");
  ASSERT_TRUE(cols.ok) << cols.error;
  EXPECT_TRUE(HasLine(cols.text, {"OpIMul %uint", "%uint_16"})) << cols.text;
  EXPECT_FALSE(HasLine(cols.text, {"OpIMul %uint", "%uint_32"})) << cols.text;
  // Transpose: the stored matrix is K x M, a row-major row M * 2 = 16 bytes.
  const PassRun transposed = Lower(with("%uint_2", "%true"), "optimal-as-row-major");
  ASSERT_TRUE(transposed.ok) << transposed.error;
  EXPECT_TRUE(HasLine(transposed.text, {"OpIMul %uint", "%uint_16"})) << transposed.text;
  EXPECT_FALSE(HasLine(transposed.text, {"OpIMul %uint", "%uint_32"})) << transposed.text;
  // The option changes nothing for RowMajorNV / ColumnMajorNV matrices: their stride stays.
  const PassRun plain = Lower(with("%uint_0", "%false"), "optimal-as-column-major");
  ASSERT_TRUE(plain.ok) << plain.error;
  EXPECT_TRUE(HasLine(plain.text, {"OpIMul %uint", "%uint_7"})) << plain.text;
  // Both at once is an error; so is anything else.
  const PassRun both = Lower(with("%uint_2", "%false"), "optimal-as-row-major,optimal-as-column-major");
  EXPECT_FALSE(both.ok);
  EXPECT_NE(both.error.find("exclude each other"), std::string::npos) << both.error;
  const PassRun unknown = Lower(with("%uint_2", "%false"), "optimal-as-blocked");
  EXPECT_FALSE(unknown.ok);
  EXPECT_NE(unknown.error.find("optimal-as-row-major"), std::string::npos) << unknown.error;
}

TEST(LowerCoopVector, OptimalOuterProductMatrixReadAsTightLayout) {
  // A (8 components) times B (16) accumulated into a TrainingOptimalNV float16 matrix, read as
  // column-major 8 x 16: a column is 8 * 2 = 16 bytes (row-major: a row is 16 * 2 = 32).
  const std::string m = Module(
      "%a = OpTypeCooperativeVectorNV %half %uint_8\n"
      "%b = OpTypeCooperativeVectorNV %half %uint_16\n",
      "%x = OpCooperativeVectorLoadNV %a %H %uint_0\n"
      "%y = OpCooperativeVectorLoadNV %b %H %uint_32\n"
      "OpCooperativeVectorOuterProductAccumulateNV %H %uint_64 %x %y %uint_3 %uint_0\n",
      "OpCapability CooperativeVectorTrainingNV\n");
  const PassRun refused = Lower(m, "atomic-float16-add");
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("lower-coop-vector.optimal-layout"), std::string::npos)
      << refused.error;
  const PassRun cols = Lower(m, "atomic-float16-add,optimal-as-column-major");
  ASSERT_TRUE(cols.ok) << cols.error;
  EXPECT_TRUE(HasLine(cols.text, {"OpIMul %uint", "%uint_16"})) << cols.text;
  EXPECT_TRUE(HasLine(cols.text, {"OpAtomicFAddEXT %half"})) << cols.text;
  const PassRun rows = Lower(m, "optimal-as-row-major,atomic-float16-add");
  ASSERT_TRUE(rows.ok) << rows.error;
  EXPECT_TRUE(HasLine(rows.text, {"OpIMul %uint", "%uint_32"})) << rows.text;
}

// ---- Training instructions

TEST(LowerCoopVector, OuterProductNeedsTheAtomicFloatAddOfItsType) {
  const std::string m = Module(
      "%a = OpTypeCooperativeVectorNV %half %uint_8\n"
      "%b = OpTypeCooperativeVectorNV %half %uint_16\n",
      "%x = OpCooperativeVectorLoadNV %a %H %uint_0\n"
      "%y = OpCooperativeVectorLoadNV %b %H %uint_32\n"
      "OpCooperativeVectorOuterProductAccumulateNV %H %uint_64 %x %y %uint_0 %uint_0 %uint_32\n",
      "OpCapability CooperativeVectorTrainingNV\n");
  const PassRun refused = Lower(m);
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("lower-coop-vector.atomic-float-add"), std::string::npos);
  EXPECT_NE(refused.error.find("--lower-coop-vector=atomic-float16-add"), std::string::npos)
      << refused.error;
  const PassRun r = Lower(m, "atomic-float16-add");
  ASSERT_TRUE(r.ok) << r.error;
  // Element (m, n) of the row-major matrix at byte 64 + m * 32 + 2n, a relaxed Device-scope add.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability AtomicFloat16AddEXT
    CHECK-NEXT: OpCapability VulkanMemoryModelDeviceScope
    CHECK-NEXT: OpExtension "SPV_EXT_shader_atomic_float_add"
    CHECK-NEXT: OpExtension "SPV_EXT_shader_atomic_float16_add"
    CHECK: OpLoopMerge
    CHECK: OpLoopMerge
    CHECK: OpFMul %half
    CHECK: OpAtomicFAddEXT %half
  )")) << r.text;
  EXPECT_TRUE(HasLine(r.text, {"OpAtomicFAddEXT %half", "%uint_1 %uint_0"})) << r.text;
  EXPECT_EQ(r.text.find("CooperativeVectorTrainingNV"), std::string::npos);
}

TEST(LowerCoopVector, OuterProductIntoFloat32AndReduceSum) {
  const PassRun r =
      Lower(Module("%a = OpTypeCooperativeVectorNV %half %uint_8\n"
                   "%i = OpTypeCooperativeVectorNV %int %uint_8\n",
                   "%x = OpCooperativeVectorLoadNV %a %H %uint_0\n"
                   "OpCooperativeVectorOuterProductAccumulateNV %F %uint_0 %x %x %uint_1 %uint_1 "
                   "%uint_32\n"
                   "OpCooperativeVectorReduceSumAccumulateNV %H %uint_0 %x\n"
                   "%n = OpCooperativeVectorLoadNV %i %U %uint_0\n"
                   "OpCooperativeVectorReduceSumAccumulateNV %U %uint_0 %n\n",
                   "OpCapability CooperativeVectorTrainingNV\n"),
            "atomic-float16-add,atomic-float32-add");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability AtomicFloat32AddEXT
    CHECK: OpExtension "SPV_EXT_shader_atomic_float_add"
    CHECK: OpFConvert %float
    CHECK: OpFMul %float
    CHECK: OpAtomicFAddEXT %float
    CHECK: OpAtomicFAddEXT %half
    CHECK: OpBitcast %uint
    CHECK: OpAtomicIAdd %uint
  )")) << r.text;
  // The integer sum needs no feature.
  const PassRun ints = Lower(Module("%i = OpTypeCooperativeVectorNV %int %uint_8\n",
                                    "%n = OpCooperativeVectorLoadNV %i %U %uint_0\n"
                                    "OpCooperativeVectorReduceSumAccumulateNV %U %uint_0 %n\n",
                                    "OpCapability CooperativeVectorTrainingNV\n"));
  ASSERT_TRUE(ints.ok) << ints.error;
  EXPECT_NE(ints.text.find("OpAtomicIAdd %uint"), std::string::npos);
}

TEST(LowerCoopVector, AccumulateIntoAnotherElementTypeFails) {
  const PassRun r = Lower(Module("%a = OpTypeCooperativeVectorNV %half %uint_8\n",
                                 "%x = OpCooperativeVectorLoadNV %a %H %uint_0\n"
                                 "OpCooperativeVectorReduceSumAccumulateNV %U %uint_0 %x\n",
                                 "OpCapability CooperativeVectorTrainingNV\n"),
                          "atomic-float16-add");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("lower-coop-vector.accumulate-type"), std::string::npos) << r.error;
}

TEST(LowerCoopVector, RejectsUnknownFeaturesAndLeavesOtherModulesAlone) {
  const PassRun bad = Lower(Module("", ""), "atomic-float8-add");
  EXPECT_NE(bad.error.find("unknown target feature"), std::string::npos) << bad.error;
  const PassRun none = Lower(Module("", ""));
  ASSERT_TRUE(none.ok) << none.error;
}

}  // namespace
}  // namespace coopspv
