// Tests of EXPECT evaluation and buffer comparison (source/run/compare.cc), of the module
// interface reader and of device-feature names, none of which needs a device.
#include "source/run/compare.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "source/run/module_interface.h"
#include "source/run/script.h"
#include "source/run/vulkan.h"

namespace coopspv::run {
namespace {

std::vector<uint8_t> Floats(std::initializer_list<float> values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

// Parses one EXPECT against a buffer declared like `buffer` (a BUFFER line).
Command ParseExpect(const std::string& buffer, const std::string& expect) {
  Script s;
  ParseError e;
  EXPECT_TRUE(ParseScript(buffer + "\nBUFFER other DATA_TYPE float SIZE 4 FILL 0\n" + expect + "\n",
                          ParseOptions(), &s, &e))
      << e.ToString();
  return s.commands.empty() ? Command() : s.commands[0];
}

const DataType kFloat{DataType::kFloat, 32, 1};

TEST(CompareTest, ExpectIndexExact) {
  const Command c = ParseExpect("BUFFER b DATA_TYPE float SIZE 4 FILL 0", "EXPECT b IDX 4 EQ 2 3");
  ExpectReport r;
  EvaluateExpect(c, kFloat, Floats({9, 2, 3, 9}), {}, &r);
  EXPECT_TRUE(r.passed);
  EvaluateExpect(c, kFloat, Floats({2, 2, 3.5f, 9}), {}, &r);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.first_mismatch, 2u);
  EXPECT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.max_abs_error, 0.5);
  EXPECT_EQ(r.max_ulp_error, 1u << 21);  // 3 and 3.5 are 2^21 floats apart.
  EXPECT_EQ(r.message, "b[2] is 3.5, expected 3");
}

// Amber's EQ on floats without TOLERANCE: a value written as an integer compares exactly, any
// other within a relative 1e-8; matrices go column by column, padding skipped.
TEST(CompareTest, AmberDefaultToleranceAndMatrices) {
  const DataType f64{DataType::kFloat, 64, 1};
  std::vector<uint8_t> bytes(16);
  const double got[2] = {-0.36410167913301, 3.0000000001};
  std::memcpy(bytes.data(), got, 16);
  ExpectReport r;
  EvaluateExpect(ParseExpect("BUFFER b DATA_TYPE double SIZE 2 FILL 0",
                             "EXPECT b IDX 0 EQ -0.364101678133011 3.0"),
                 f64, bytes, {}, &r);
  EXPECT_TRUE(r.passed) << r.message;
  EvaluateExpect(ParseExpect("BUFFER b DATA_TYPE double SIZE 2 FILL 0", "EXPECT b IDX 8 EQ 3"), f64,
                 bytes, {}, &r);
  EXPECT_FALSE(r.passed);  // Written as an integer: exact.
  EvaluateExpect(
      ParseExpect("BUFFER b DATA_TYPE double SIZE 2 FILL 0", "EXPECT b IDX 0 EQ -0.3641016 3.0"),
      f64, bytes, {}, &r);
  EXPECT_FALSE(r.passed);  // 1e-7 apart: beyond 1e-8 relative.
  // mat2x3<float>: two columns of three floats, each column padded to four.
  DataType m;
  ASSERT_TRUE(ParseDataType("mat2x3<float>", &m));
  EXPECT_EQ(m.ElementBytes(), 32u);
  EXPECT_EQ(m.Name(), "mat2x3<float>");
  const auto mat = Floats({1, 2, 3, 99, 4, 5, 6, 99});
  EvaluateExpect(
      ParseExpect("BUFFER b DATA_TYPE mat2x3<float> SIZE 1 FILL 0", "EXPECT b IDX 4 EQ 2 3 4 5 6"),
      m, mat, {}, &r);
  EXPECT_TRUE(r.passed) << r.message;
  EvaluateExpect(
      ParseExpect("BUFFER b DATA_TYPE mat2x3<float> SIZE 1 FILL 0", "EXPECT b IDX 16 EQ 4 5 7"), m,
      mat, {}, &r);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.message, "b[0][1][2] is 6, expected 7");
}

TEST(CompareTest, ExpectTolerances) {
  const Command abs = ParseExpect("BUFFER b DATA_TYPE float SIZE 2 FILL 0",
                                  "EXPECT b IDX 0 TOLERANCE 0.1 EQ 1 100");
  ExpectReport r;
  EvaluateExpect(abs, kFloat, Floats({1.05f, 100.09f}), {}, &r);
  EXPECT_TRUE(r.passed);
  EvaluateExpect(abs, kFloat, Floats({1.05f, 100.2f}), {}, &r);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.first_mismatch, 1u);
  const Command pct = ParseExpect("BUFFER b DATA_TYPE float SIZE 2 FILL 0",
                                  "EXPECT b IDX 0 TOLERANCE 0 1% EQ 1 100");
  EvaluateExpect(pct, kFloat, Floats({1, 100.9f}), {}, &r);
  EXPECT_TRUE(r.passed);
  EvaluateExpect(pct, kFloat, Floats({1.0001f, 100.9f}), {}, &r);
  EXPECT_FALSE(r.passed);  // The first tolerance is 0.
  EXPECT_EQ(r.first_mismatch, 0u);
}

TEST(CompareTest, ExpectIntegersAndComparators) {
  const DataType i8{DataType::kSigned, 8, 1};
  const std::vector<uint8_t> bytes = {0xFF, 0x80, 0x7F};  // -1, -128, 127
  ExpectReport r;
  EvaluateExpect(
      ParseExpect("BUFFER b DATA_TYPE int8 SIZE 3 FILL 0", "EXPECT b IDX 0 EQ -1 -128 127"), i8,
      bytes, {}, &r);
  EXPECT_TRUE(r.passed) << r.message;
  EvaluateExpect(ParseExpect("BUFFER b DATA_TYPE int8 SIZE 3 FILL 0", "EXPECT b IDX 0 LT 0 0"), i8,
                 bytes, {}, &r);
  EXPECT_TRUE(r.passed) << r.message;
  EvaluateExpect(ParseExpect("BUFFER b DATA_TYPE int8 SIZE 3 FILL 0", "EXPECT b IDX 1 GT -128 0"),
                 i8, bytes, {}, &r);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.first_mismatch, 1u);
  EXPECT_EQ(r.message, "b[1] is -128, expected -128");
  // 64-bit values beyond a double's precision still compare exactly.
  const DataType u64{DataType::kUnsigned, 64, 1};
  std::vector<uint8_t> big(8);
  const uint64_t v = (uint64_t{1} << 60) + 1;
  std::memcpy(big.data(), &v, 8);
  EvaluateExpect(ParseExpect("BUFFER b DATA_TYPE uint64 SIZE 1 FILL 0",
                             "EXPECT b IDX 0 EQ 1152921504606846976"),
                 u64, big, {}, &r);
  EXPECT_FALSE(r.passed);
}

TEST(CompareTest, ExpectVectors) {
  const DataType v3{DataType::kFloat, 32, 3};
  // Two vec3 elements, each padded to 4 floats; the padding is never compared.
  const auto bytes = Floats({1, 2, 3, 99, 4, 5, 6, 99});
  ExpectReport r;
  EvaluateExpect(
      ParseExpect("BUFFER b DATA_TYPE vec3<float> SIZE 2 FILL 0", "EXPECT b IDX 16 EQ 4 5 7"), v3,
      bytes, {}, &r);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.first_mismatch, 1u);
  EXPECT_EQ(r.message, "b[1].z is 6, expected 7");
}

TEST(CompareTest, EqualAndRmseBuffers) {
  const Command eq =
      ParseExpect("BUFFER b DATA_TYPE float SIZE 4 FILL 0", "EXPECT b EQ_BUFFER other");
  ExpectReport r;
  EvaluateExpect(eq, kFloat, Floats({1, 2, 3, 4}), Floats({1, 2, 3, 4}), &r);
  EXPECT_TRUE(r.passed);
  EvaluateExpect(eq, kFloat, Floats({1, 2, 3, 4}), Floats({1, 2, 3.5f, 4.5f}), &r);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.first_mismatch, 2u);
  EXPECT_EQ(r.mismatches, 2u);
  const Command rmse = ParseExpect("BUFFER b DATA_TYPE float SIZE 4 FILL 0",
                                   "EXPECT b RMSE_BUFFER other TOLERANCE 0.5");
  // Errors 0, 0, 0, 1: RMSE 0.5.
  EvaluateExpect(rmse, kFloat, Floats({1, 2, 3, 4}), Floats({1, 2, 3, 5}), &r);
  EXPECT_TRUE(r.passed);
  EvaluateExpect(rmse, kFloat, Floats({1, 2, 3, 4}), Floats({1, 2, 3, 5.1f}), &r);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("RMSE"), std::string::npos);
}

TEST(CompareTest, CompareBuffers) {
  BufferComparison c;
  CompareBuffers(kFloat, Floats({1, 2, 1000}), Floats({1, 2.0005f, 1000.5f}), 1e-3, &c);
  EXPECT_TRUE(c.equal);  // 0.0005 <= 1e-3; 0.5 <= 1e-3 * 1000.
  CompareBuffers(kFloat, Floats({1, 2, 1000}), Floats({1, 2.01f, 1000}), 1e-3, &c);
  EXPECT_FALSE(c.equal);
  EXPECT_EQ(c.first_mismatch, 1u);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CompareBuffers(kFloat, Floats({nan}), Floats({nan}), 0, &c);
  EXPECT_TRUE(c.equal);
  const DataType u32{DataType::kUnsigned, 32, 1};
  CompareBuffers(u32, Floats({1, 2}), Floats({1, 2.0000002f}), 1.0, &c);
  EXPECT_FALSE(c.equal);  // Integers compare exactly, whatever the tolerance.
  EXPECT_EQ(c.first_mismatch, 1u);
}

TEST(CompareTest, UlpDistance) {
  const DataType f16{DataType::kFloat, 16, 1};
  EXPECT_EQ(UlpDistance(0x3C00, 0x3C01, f16), 1);
  EXPECT_EQ(UlpDistance(0x0001, 0x8001, f16), 2);  // Across zero.
  EXPECT_EQ(UlpDistance(0x0000, 0x8000, f16), 0);  // +0 and -0.
}

TEST(ModuleInterfaceTest, ReadsBindingsAndPushConstants) {
  std::vector<uint32_t> words;
  Problem problem;
  ASSERT_TRUE(Assemble(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %ssbo %ubo %pc
OpEntryPoint GLCompute %other "other"
OpExecutionMode %main LocalSize 64 2 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %ssbo DescriptorSet 1
OpDecorate %ssbo Binding 3
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%S = OpTypeStruct %uint
%p_ssbo = OpTypePointer StorageBuffer %S
%p_ubo = OpTypePointer Uniform %S
%p_pc = OpTypePointer PushConstant %S
%p_ssbo_uint = OpTypePointer StorageBuffer %uint
%p_ubo_uint = OpTypePointer Uniform %uint
%p_pc_uint = OpTypePointer PushConstant %uint
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%ssbo = OpVariable %p_ssbo StorageBuffer
%ubo = OpVariable %p_ubo Uniform
%pc = OpVariable %p_pc PushConstant
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpAccessChain %p_ubo_uint %ubo %int_0
%b = OpAccessChain %p_pc_uint %pc %int_0
%x = OpLoad %uint %a
%y = OpLoad %uint %b
%z = OpIAdd %uint %x %y
%c = OpAccessChain %p_ssbo_uint %ssbo %int_0
OpStore %c %z
OpReturn
OpFunctionEnd
%other = OpFunction %void None %fn
%l2 = OpLabel
OpReturn
OpFunctionEnd
)",
                       AssembleOptions(), &words, &problem))
      << problem.ToString();
  ModuleInterface mi;
  std::string error;
  ASSERT_TRUE(ReadModuleInterface(words, "main", &mi, &error)) << error;
  ASSERT_EQ(mi.resources.size(), 2u);
  EXPECT_EQ(mi.resources[0].kind, ModuleResource::kStorage);
  EXPECT_EQ(mi.resources[0].set, 1u);
  EXPECT_EQ(mi.resources[0].binding, 3u);
  EXPECT_EQ(mi.resources[1].kind, ModuleResource::kUniform);
  EXPECT_TRUE(mi.push_constants);
  EXPECT_EQ(mi.local_size[0], 64u);
  EXPECT_EQ(mi.local_size[1], 2u);
  // SPIR-V 1.6: "other" lists no globals, so it uses none.
  ASSERT_TRUE(ReadModuleInterface(words, "other", &mi, &error)) << error;
  EXPECT_TRUE(mi.resources.empty());
  EXPECT_FALSE(mi.push_constants);
  EXPECT_FALSE(ReadModuleInterface(words, "nope", &mi, &error));
  EXPECT_NE(error.find("no GLCompute entry point named 'nope'"), std::string::npos);
  // Truncated words: an error, not a read past the end.
  words.resize(words.size() - 1);
  words.back() = 0xFFFF0000u | 1;
  EXPECT_FALSE(ReadModuleInterface(words, "main", &mi, &error));
  EXPECT_FALSE(ReadModuleInterface(std::vector<uint32_t>{0x07230203u}, "main", &mi, &error));
}

// vk_cooperative_matrix_perf's shape at SPIR-V 1.3: variables that are declared but never used
// need no binding (four storage blocks share the uniform block's set and binding), a function
// called from the entry point uses what it names, and the WorkgroupSize built-in (specialized)
// sets the workgroup size over LocalSize 1 1 1.
TEST(ModuleInterfaceTest, CountsOnlyWhatTheEntryPointUsesAndSpecializesTheWorkgroupSize) {
  std::vector<uint32_t> words;
  Problem problem;
  AssembleOptions options;
  options.version = 0x00010300u;
  ASSERT_TRUE(Assemble(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 0
OpDecorate %unused DescriptorSet 0
OpDecorate %unused Binding 0
OpDecorate %ssbo DescriptorSet 0
OpDecorate %ssbo Binding 1
OpDecorate %size_x SpecId 18
OpDecorate %wgs BuiltIn WorkgroupSize
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%v3uint = OpTypeVector %uint 3
%size_x = OpSpecConstant %uint 64
%uint_2 = OpConstant %uint 2
%half = OpSpecConstantOp %uint UDiv %size_x %uint_2
%wgs = OpSpecConstantComposite %v3uint %size_x %half %uint_1
%S = OpTypeStruct %uint
%p_ssbo = OpTypePointer StorageBuffer %S
%p_ubo = OpTypePointer Uniform %S
%p_ssbo_uint = OpTypePointer StorageBuffer %uint
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%ubo = OpVariable %p_ubo Uniform
%unused = OpVariable %p_ssbo StorageBuffer
%ssbo = OpVariable %p_ssbo StorageBuffer
%main = OpFunction %void None %fn
%l = OpLabel
%r = OpFunctionCall %void %store
%u = OpCopyObject %p_ubo %ubo
OpReturn
OpFunctionEnd
%store = OpFunction %void None %fn
%l2 = OpLabel
%c = OpAccessChain %p_ssbo_uint %ssbo %int_0
OpStore %c %uint_1
OpReturn
OpFunctionEnd
)",
                       options, &words, &problem))
      << problem.ToString();
  ModuleInterface mi;
  std::string error;
  ASSERT_TRUE(ReadModuleInterface(words, "main", &mi, &error)) << error;
  ASSERT_EQ(mi.resources.size(), 2u);
  EXPECT_EQ(mi.resources[0].kind, ModuleResource::kUniform);
  EXPECT_EQ(mi.resources[0].binding, 0u);
  EXPECT_EQ(mi.resources[1].kind, ModuleResource::kStorage);
  EXPECT_EQ(mi.resources[1].binding, 1u);
  // The built-in's defaults: 64, 64 / 2, 1.
  EXPECT_EQ(mi.local_size[0], 64u);
  EXPECT_EQ(mi.local_size[1], 32u);
  EXPECT_EQ(mi.local_size[2], 1u);
  // Specialized: SpecId 18 = 16 gives 16 x 8 x 1.
  SpecConstant size;
  size.id = 18;
  size.value.bits = 16;
  const SpecConstant spec[] = {size};
  ASSERT_TRUE(ReadModuleInterface(words, "main", &mi, &error, spec)) << error;
  EXPECT_EQ(mi.local_size[0], 16u);
  EXPECT_EQ(mi.local_size[1], 8u);
}

// The pipeline hands over the bytes of a SPECIALIZE value; the constant reads them as its own
// type. A SpecId the module lacks does not affect the pipeline.
TEST(ModuleInterfaceTest, SpecializationDefaultsReadTheBytesAsTheConstantsType) {
  std::vector<uint32_t> words;
  Problem problem;
  ASSERT_TRUE(Assemble(R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %alpha SpecId 3
OpDecorate %offset SpecId 4
OpDecorate %flag SpecId 5
OpDecorate %count SpecId 6
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%alpha = OpSpecConstant %float 1
%offset = OpSpecConstant %int 0
%flag = OpSpecConstantFalse %bool
%count = OpSpecConstant %uint 1
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
)",
                       AssembleOptions(), &words, &problem))
      << problem.ToString();
  auto spec = [](uint32_t id, DataType::Kind kind, uint64_t bits, double value) {
    SpecConstant c;
    c.id = id;
    c.type.kind = kind;
    c.type.bits = 32;
    c.value.bits = bits;
    c.value.value = value;
    return c;
  };
  const SpecConstant as_bits[] = {
      spec(3, DataType::kUnsigned, 0x3FC00000u, 0x3FC00000u),  // 1.5 as float.
      spec(4, DataType::kUnsigned, 0xFFFFFFFEu, 0xFFFFFFFEu),  // -2 as int.
      spec(5, DataType::kUnsigned, 1, 1),                      // VkBool32 true.
      spec(6, DataType::kSigned, 40, 40),
      spec(19, DataType::kUnsigned, 7, 7),  // No such SpecId: left out.
  };
  EXPECT_EQ(SpecializationDefaults(words, as_bits), "3:1.5 4:-2 5:true 6:40");
  const SpecConstant as_float[] = {spec(3, DataType::kFloat, 0x40200000u, 2.5)};
  EXPECT_EQ(SpecializationDefaults(words, as_float), "3:2.5");
  EXPECT_EQ(SpecializationDefaults(words, {}), "");
}

TEST(FeatureTest, NamesResolve) {
  FeatureRef ref;
  ASSERT_TRUE(FindFeature("shaderInt64", &ref));
  EXPECT_EQ(ref.Name(), "shaderInt64");
  ASSERT_TRUE(FindFeature("shaderFloat16", &ref));  // A bare 1.2 name.
  EXPECT_EQ(ref.Name(), "Vulkan12Features.shaderFloat16");
  ASSERT_TRUE(FindFeature("Float16Int8Features.shaderInt8", &ref));
  EXPECT_EQ(ref.Name(), "Vulkan12Features.shaderInt8");
  ASSERT_TRUE(FindFeature("VkPhysicalDeviceStorage16BitFeatures.storageBuffer16BitAccess", &ref));
  EXPECT_EQ(ref.Name(), "Vulkan11Features.storageBuffer16BitAccess");
  ASSERT_TRUE(FindFeature("SubgroupSizeControl.computeFullSubgroups", &ref));
  EXPECT_EQ(ref.Name(), "Vulkan13Features.computeFullSubgroups");
  ASSERT_TRUE(FindFeature("CooperativeMatrix2FeaturesNV.cooperativeMatrixBlockLoads", &ref));
  EXPECT_STREQ(FeatureStructs()[ref.structure].extension, "VK_NV_cooperative_matrix2");
  EXPECT_EQ(FeatureStructs()[ref.structure].Size(), 48u);  // 16 + 7 * 4, 8-byte aligned.
  EXPECT_EQ(static_cast<int>(FeatureStructs()[ref.structure].stype), 1000593000);
  ASSERT_TRUE(FindFeature("CooperativeVectorFeaturesNV.cooperativeVectorTraining", &ref));
  EXPECT_EQ(static_cast<int>(FeatureStructs()[ref.structure].stype), 1000491000);
  EXPECT_FALSE(FindFeature("cooperativeMatrix", &ref));  // Not core: needs its structure.
  EXPECT_FALSE(FindFeature("Vulkan12Features.shaderInt64", &ref));
  EXPECT_FALSE(FindFeature("NoSuchFeatures.x", &ref));

  // A chain sets and reads the field it names, and only that one.
  std::vector<bool> include(FeatureStructs().size(), true);
  FeatureChain chain(include);
  ASSERT_TRUE(
      FindFeature("CooperativeMatrixFeaturesKHR.cooperativeMatrixRobustBufferAccess", &ref));
  chain.Set(ref, true);
  EXPECT_TRUE(chain.Get(ref));
  FeatureRef first = ref;
  first.field = 0;
  EXPECT_FALSE(chain.Get(first));
  // The chain is linked through pNext from the head, in order.
  const VkBaseOutStructure* s = reinterpret_cast<VkBaseOutStructure*>(chain.head());
  size_t count = 0;
  for (; s != nullptr; s = s->pNext) ++count;
  EXPECT_EQ(count, FeatureStructs().size());
}

}  // namespace
}  // namespace coopspv::run
