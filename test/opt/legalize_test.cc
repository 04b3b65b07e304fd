// --strip-decode-vector, --coop-matrix-nv-to-khr and the --legalize-for-device driver: corpus
// modules and small modules checked with FileCheck directives on the disassembly; every output is
// validated after each pass. test/run/legalize/ runs the converted modules on lavapipe.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "include/coopspv/coopspv.hpp"
#include "source/common/target_env.h"
#include "source/opt/legalize_for_device.h"
#include "source/opt/pass_manager.h"
#include "source/opt/passes.h"
#include "source/text/assembler.h"
#include "source/text/disassembler.h"
#include "test/bench/corpus.h"
#include "test/util/filecheck.h"
#include "test/util/pass_run.h"

namespace coopspv {
namespace {

using testing::PassRun;

std::string Corpus(const std::string& name) {
  std::ifstream in("test/data/corpus/" + name + ".spvasm");
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// ---- --strip-decode-vector

TEST(StripDecodeVector, CorpusModuleKeepsDecodeFuncAndDropsTheVectorFunctions) {
  const PassRun r = testing::RunPasses(Corpus("cm2_decode_vector"), {{"strip-decode-vector", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK-NOT: OpCapability CooperativeMatrixDecodeVectorNV
    CHECK: OpCapability CooperativeMatrixKHR
    CHECK-NOT: SPV_NV_cooperative_matrix_decode_vector
    CHECK: OpExtension "SPV_NV_tensor_addressing"
    CHECK: OpName %decodeQ8_1_u1_2__u1_2__ "decodeQ8(1;u1[2];u1[2];"
    CHECK-NOT: decodeQ8x
    CHECK: = OpCooperativeMatrixLoadTensorNV %88 %137 %142 %141 None DecodeFunc %decodeQ8_1_u1_2__u1_2__
    CHECK: = OpCooperativeMatrixLoadTensorNV %88 %144 %149 %148 None DecodeFunc %decodeQ8_1_u1_2__u1_2__
    CHECK: = OpCooperativeMatrixLoadTensorNV %92 %151 %156 %155 None None
    CHECK: %decodeQ8_1_u1_2__u1_2__ = OpFunction
    CHECK-NOT: OpFunction 
  )")) << r.text;
  EXPECT_EQ(r.text.find("DecodeVectorFunc"), std::string::npos);
  EXPECT_EQ(r.text.find("bl_0"), std::string::npos);  // The removed functions' parameter names.
}

TEST(StripDecodeVector, ModulesWithoutDecodeVectorsAreUnchanged) {
  OptimizeResult result;
  std::vector<uint32_t> words;
  Problem problem;
  ASSERT_TRUE(Assemble(Corpus("cm2_decode_q4"), {}, &words, &problem)) << problem.message;
  OptimizerOptions options;
  options.target_env = "vulkan1.3";
  options.passes = {{"strip-decode-vector", ""}};
  ASSERT_TRUE(Optimize(words, options, &result, &problem)) << problem.message;
  EXPECT_EQ(result.words, words);
  ASSERT_EQ(result.passes.size(), 1u);
  EXPECT_EQ(result.passes[0].status, "unchanged");
}

// ---- --strip-nonsemantic, and --legalize-for-device for a device without debug info support
// Debug info that names a later type: OpExtInstWithForwardRefsKHR, which lavapipe (Mesa 22.3,
// no VK_KHR_shader_relaxed_extended_instruction) cannot take.
constexpr const char* kDebugInfoKernel = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
OpExtension "SPV_KHR_relaxed_extended_instruction"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%name = OpString "uint"
OpName %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_32 = OpConstant %uint 32
%uint_6 = OpConstant %uint 6
%uint_0 = OpConstant %uint 0
%ptr = OpExtInstWithForwardRefsKHR %void %dbg DebugTypePointer %basic %uint_6 %uint_0
%basic = OpExtInst %void %dbg DebugTypeBasic %name %uint_32 %uint_6 %uint_0
%main = OpFunction %void None %fn
%entry = OpLabel
%scope = OpExtInst %void %dbg DebugNoScope
OpReturn
OpFunctionEnd
)";

TEST(StripNonSemantic, RemovesDebugInfoItsImportAndExtensions) {
  for (const char* pass : {"strip-nonsemantic", "legalize-for-device"}) {
    SCOPED_TRACE(pass);
    const PassRun r = testing::RunPasses(
        kDebugInfoKernel,
        {{pass, std::string(pass) == "legalize-for-device" ? "lavapipe" : ""}});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.text.find("NonSemantic"), std::string::npos) << r.text;
    EXPECT_EQ(r.text.find("OpExtInst"), std::string::npos) << r.text;
    EXPECT_EQ(r.text.find("SPV_KHR_relaxed_extended_instruction"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("OpName %main \"main\""), std::string::npos) << r.text;
  }
}

// ---- --coop-matrix-nv-to-khr

TEST(CoopMatrixNvToKhr, CorpusModuleInfersUsesLayoutsAndSignedness) {
  for (const char* name :
       {"nv_coopmat1_legacy", "nv_coopmat1_legacy_vulkan1_1", "nv_coopmat1_legacy_vulkan1_2"}) {
    const std::string env = std::string(name).ends_with("1_1")   ? "vulkan1.1"
                            : std::string(name).ends_with("1_2") ? "vulkan1.2"
                                                                 : "vulkan1.3";
    const PassRun r = testing::RunPasses(Corpus(name), {{"coop-matrix-nv-to-khr", ""}}, env);
    ASSERT_TRUE(r.ok) << name << ": " << r.error;
    // The variants number their ids differently: every unnamed id reads %_.
    const std::string text = std::regex_replace(r.text, std::regex("%[0-9]+"), "%_");
    EXPECT_TRUE(testing::FileCheck(text, R"(
      CHECK: OpCapability CooperativeMatrixKHR
      CHECK: OpExtension "SPV_KHR_cooperative_matrix"
      CHECK: %_ = OpTypeCooperativeMatrixKHR %half %uint_3 %lM %lK %uint_0
      CHECK: %_ = OpTypeCooperativeMatrixKHR %half %uint_3 %lK %lN %uint_1
      CHECK: %_ = OpTypeCooperativeMatrixKHR %float %uint_3 %lM %lN %uint_2
      CHECK: %_ = OpSpecConstantOp %uint CooperativeMatrixLengthKHR %_
      CHECK: %_ = OpTypeCooperativeMatrixKHR %int %uint_3 %uint_16 %uint_8 %uint_2
      CHECK: %_ = OpTypeCooperativeMatrixKHR %char %uint_3 %uint_16 %uint_32 %uint_0
      CHECK: %_ = OpTypeCooperativeMatrixKHR %char %uint_3 %uint_32 %uint_8 %uint_1
      CHECK: %_ = OpCooperativeMatrixLoadKHR %_ %_ %uint_0 %lK None
      CHECK: %_ = OpCooperativeMatrixLoadKHR %_ %_ %uint_1 %lK None
      CHECK: %_ = OpCooperativeMatrixLoadKHR %_ %_ %uint_0 %lN None
      CHECK-NOT: SignedComponents
      CHECK: %_ = OpCooperativeMatrixMulAddKHR %_ %_ %_ %_
      CHECK-NOT: SignedComponents
      CHECK: OpCooperativeMatrixStoreKHR %_ %_ %uint_0 %lN None
      CHECK: %_ = OpCooperativeMatrixLoadKHR %_ %_ %uint_0 %uint_32 None
      CHECK: %_ = OpCooperativeMatrixLoadKHR %_ %_ %uint_0 %uint_8 None
      CHECK: %_ = OpCooperativeMatrixMulAddKHR %_ %_ %_ %_ MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|MatrixResultSignedComponentsKHR
      CHECK: OpCooperativeMatrixStoreKHR %_ %_ %uint_1 %uint_8 None
    )")) << name
         << "\n"
         << r.text;
    EXPECT_EQ(r.text.find("CooperativeMatrixNV"), std::string::npos) << r.text;
    EXPECT_EQ(r.text.find("SPV_NV"), std::string::npos) << r.text;
  }
}

// A kernel whose 16x16 half type %m serves as A (%va) and B (%vb); `body` uses them.
std::string SquareKernel(const std::string& memory_model, const std::string& body,
                         const std::string& more = "") {
  return std::string(R"(
OpCapability Shader
OpCapability Float16
OpCapability CooperativeMatrixNV
)") + (memory_model == "Vulkan" ? "OpCapability VulkanMemoryModel\n" : "") +
         R"(OpExtension "SPV_NV_cooperative_matrix"
OpMemoryModel Logical )" +
         memory_model + R"(
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %rt ArrayStride 2
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
)" + more +
         R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%half = OpTypeFloat 16
%half_1 = OpConstant %half 1
%rt = OpTypeRuntimeArray %half
%S = OpTypeStruct %rt
%pS = OpTypePointer StorageBuffer %S
%buf = OpVariable %pS StorageBuffer
%ph = OpTypePointer StorageBuffer %half
%m = OpTypeCooperativeMatrixNV %half %uint_3 %uint_16 %uint_16
%pm = OpTypePointer Function %m
%ones = OpConstantComposite %m %half_1
%main = OpFunction %void None %fn
%entry = OpLabel
%va = OpVariable %pm Function
%vb = OpVariable %pm Function
%p = OpAccessChain %ph %buf %uint_0 %uint_0
)" + body +
         R"(
OpReturn
OpFunctionEnd
)";
}

TEST(CoopMatrixNvToKhr, ATypeUsedAsAAndBIsSplitPerUseWithItsPointersAndConstants) {
  const std::string body = R"(
%la = OpCooperativeMatrixLoadNV %m %p %uint_16 %false
OpStore %va %la
%lb = OpCooperativeMatrixLoadNV %m %p %uint_16 %true
OpStore %vb %lb
%a = OpLoad %m %va
%b = OpLoad %m %vb
%r = OpCooperativeMatrixMulAddNV %m %a %b %ones
%r2 = OpCooperativeMatrixMulAddNV %m %ones %b %r
OpCooperativeMatrixStoreNV %p %r2 %uint_16 %false
)";
  const PassRun r =
      testing::RunPasses(SquareKernel("Vulkan", body), {{"coop-matrix-nv-to-khr", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  // %m (%18) keeps the accumulator; A (%32) and B (%34) are new, with their pointer types; the
  // constant %ones (%20) is copied for its use as A (%38).
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %18 = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_2
    CHECK-NEXT: %32 = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_0
    CHECK-NEXT: %34 = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_1
    CHECK-NEXT: %_ptr_Function_18 = OpTypePointer Function %18
    CHECK-NEXT: %_ptr_Function_32 = OpTypePointer Function %32
    CHECK-NEXT: %_ptr_Function_34 = OpTypePointer Function %34
    CHECK-NEXT: %20 = OpConstantComposite %18 %half_0x1p_0
    CHECK-NEXT: %38 = OpConstantComposite %32 %half_0x1p_0
    CHECK: %22 = OpVariable %_ptr_Function_32 Function
    CHECK-NEXT: %23 = OpVariable %_ptr_Function_34 Function
    CHECK: %25 = OpCooperativeMatrixLoadKHR %32 %24 %uint_0 %uint_16
    CHECK: %26 = OpCooperativeMatrixLoadKHR %34 %24 %uint_1 %uint_16
    CHECK: %27 = OpLoad %32 %22
    CHECK-NEXT: %28 = OpLoad %34 %23
    CHECK-NEXT: %29 = OpCooperativeMatrixMulAddKHR %18 %27 %28 %20
    CHECK-NEXT: %30 = OpCooperativeMatrixMulAddKHR %18 %38 %28 %29
    CHECK-NEXT: OpCooperativeMatrixStoreKHR %24 %30 %uint_0 %uint_16
  )")) << r.text;
}

TEST(CoopMatrixNvToKhr, OneValueAsAAndBIsCopiedThroughWorkgroupMemory) {
  // %la is A and B of one multiply-add: it stays A, and B gets a copy stored to this subgroup's
  // slice of a Workgroup scratch and loaded back as B, between subgroup barriers.
  const std::string body = R"(
%la = OpCooperativeMatrixLoadNV %m %p %uint_16 %false
%r = OpCooperativeMatrixMulAddNV %m %la %la %ones
OpCooperativeMatrixStoreNV %p %r %uint_16 %false
)";
  // 4 = the smallest subgroup size: 32 invocations, 8 slices of 512 bytes (32 uvec4).
  const PassRun r =
      testing::RunPasses(SquareKernel("Vulkan", body), {{"coop-matrix-nv-to-khr", "4"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability GroupNonUniform
    CHECK: OpEntryPoint GLCompute %1 "main" %2 %gl_SubgroupID %43
    CHECK: OpDecorate %gl_SubgroupID BuiltIn SubgroupId
    CHECK: %_arr_v4uint_uint_256 = OpTypeArray %v4uint %uint_256
    CHECK: %28 = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_0
    CHECK-NEXT: %30 = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_1
    CHECK: %43 = OpVariable %_ptr_Workgroup__arr_v4uint_uint_256 Workgroup
    CHECK: %25 = OpCooperativeMatrixLoadKHR %28 %24 %uint_0 %uint_16
    CHECK-NEXT: %45 = OpLoad %uint %gl_SubgroupID
    CHECK-NEXT: %46 = OpIMul %uint %45 %uint_32
    CHECK-NEXT: %47 = OpAccessChain %_ptr_Workgroup_v4uint %43 %46
    CHECK-NEXT: OpControlBarrier %uint_3 %uint_3 %uint_24840
    CHECK-NEXT: OpCooperativeMatrixStoreKHR %47 %25 %uint_0 %uint_2
    CHECK-NEXT: OpControlBarrier %uint_3 %uint_3 %uint_24840
    CHECK-NEXT: %48 = OpCooperativeMatrixLoadKHR %30 %47 %uint_0 %uint_2
    CHECK-NEXT: %26 = OpCooperativeMatrixMulAddKHR %18 %25 %48 %20
  )")) << r.text;
}

TEST(CoopMatrixNvToKhr, AMultiplyAddResultUsedAsAIsCopied) {
  // %r is an accumulator (a result) and A of the second multiply-add.
  const std::string body = R"(
%la = OpCooperativeMatrixLoadNV %m %p %uint_16 %false
%lb = OpCooperativeMatrixLoadNV %m %p %uint_16 %true
%r = OpCooperativeMatrixMulAddNV %m %la %lb %ones
%r2 = OpCooperativeMatrixMulAddNV %m %r %lb %r
OpCooperativeMatrixStoreNV %p %r2 %uint_16 %false
)";
  const PassRun r =
      testing::RunPasses(SquareKernel("Vulkan", body), {{"coop-matrix-nv-to-khr", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  // Without the argument, one slice per invocation: 32 x 32 uvec4.
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: %_arr_v4uint_uint_1024 = OpTypeArray %v4uint %uint_1024
    CHECK: %27 = OpCooperativeMatrixMulAddKHR %18 %25 %26 %20
    CHECK: OpControlBarrier %uint_3 %uint_3 %uint_24840
    CHECK-NEXT: OpCooperativeMatrixStoreKHR %49 %27 %uint_0 %uint_2
    CHECK-NEXT: OpControlBarrier %uint_3 %uint_3 %uint_24840
    CHECK-NEXT: %50 = OpCooperativeMatrixLoadKHR %30 %49 %uint_0 %uint_2
    CHECK-NEXT: %28 = OpCooperativeMatrixMulAddKHR %18 %50 %26 %27
  )")) << r.text;
}

TEST(CoopMatrixNvToKhr, CopiesNeedALiteralWorkgroupSizeAndAValidArgument) {
  const std::string body = R"(
%la = OpCooperativeMatrixLoadNV %m %p %uint_16 %false
%r = OpCooperativeMatrixMulAddNV %m %la %la %ones
OpCooperativeMatrixStoreNV %p %r %uint_16 %false
)";
  std::string text = SquareKernel("Vulkan", body);
  text.replace(text.find("OpExecutionMode %main LocalSize 32 1 1"),
               std::string("OpExecutionMode %main LocalSize 32 1 1").size(),
               "OpExecutionModeId %main LocalSizeId %uint_16 %uint_3 %uint_3");
  PassRun r = testing::RunPasses(text, {{"coop-matrix-nv-to-khr", ""}});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("literal LocalSize"), std::string::npos) << r.error;
  r = testing::RunPasses(SquareKernel("Vulkan", body), {{"coop-matrix-nv-to-khr", "0"}});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("smallest subgroup size"), std::string::npos) << r.error;
}

TEST(CoopMatrixNvToKhr, Glsl450ModulesMoveToTheVulkanMemoryModel) {
  const std::string body = R"(
%la = OpCooperativeMatrixLoadNV %m %p %uint_16 %false
OpCooperativeMatrixStoreNV %p %la %uint_16 %true
)";
  const PassRun r =
      testing::RunPasses(SquareKernel("GLSL450", body), {{"coop-matrix-nv-to-khr", ""}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, R"(
    CHECK: OpCapability CooperativeMatrixKHR
    CHECK-NEXT: OpCapability VulkanMemoryModel
    CHECK: OpMemoryModel Logical Vulkan
    CHECK: = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_2
    CHECK: OpCooperativeMatrixStoreKHR %24 %25 %uint_1 %uint_16
  )")) << r.text;
  const PassRun coherent = testing::RunPasses(
      SquareKernel("GLSL450", body, "OpDecorate %buf Coherent\n"), {{"coop-matrix-nv-to-khr", ""}});
  ASSERT_FALSE(coherent.ok);
  EXPECT_NE(coherent.error.find("upgrade the module's memory model first"), std::string::npos)
      << coherent.error;
}

// ---- Every corpus module legalized for the built-in lavapipe profile.

TEST(LegalizeForLavapipe, EveryCorpusModuleValidatesForLavapipeOrIsRefusedNamingWhy) {
  // What --legalize-for-device=lavapipe cannot fix, by module-name prefix, and what it says.
  const std::pair<const char*, const char*> refused[] = {
      // (Every SPV_NV_cooperative_matrix2 module legalizes: cm2_decode_q4 and cm2_softmax_reduce,
      // whose whole matrices would need 72 and 42 KiB of lavapipe's 32, in row bands.)
      // Optimal matrix layouts are the driver's own: the application must store another layout
      // (coopspv-run --lower does, with its conversion step).
      {"coopvec_fp8_matmul", "InferencingOptimalNV is opaque"},
      {"coopvec_int8_packed", "InferencingOptimalNV is opaque"},
      {"coopvec_mlp_f16", "InferencingOptimalNV is opaque"},
      {"coopvec_training", "TrainingOptimalNV is opaque"},
      // The ARM blocked layouts are not lowered.
      {"khr_arm_layouts", "only the RowMajorKHR and ColumnMajorKHR layouts are lowered"},
  };
  std::shared_ptr<const DeviceProfileHandle> lavapipe;
  Problem problem;
  ASSERT_TRUE(LoadDeviceProfile("lavapipe", &lavapipe, &problem)) << problem.message;
  const auto modules = bench::ReadCorpus("test/data/corpus");
  ASSERT_GE(modules.size(), 29u);
  int legalized = 0;
  for (const auto& m : modules) {
    const std::string name = m.file.substr(0, m.file.size() - 7);  // Less ".spvasm".
    SCOPED_TRACE(name + " (" + m.env + ")");
    OptimizerOptions options;
    options.target_env = m.env;
    options.passes = {
        {"freeze-spec-const", ""}, {"fold-spec-const", ""}, {"legalize-for-device", "lavapipe"}};
    options.validate_after_each = true;
    OptimizeResult out;
    const bool ok = Optimize(m.words, options, &out, &problem);
    const char* why = nullptr;
    for (const auto& [prefix, message] : refused) {
      if (name.rfind(prefix, 0) == 0) why = message;
    }
    if (why != nullptr) {
      EXPECT_FALSE(ok);
      EXPECT_NE(problem.message.find(why), std::string::npos) << problem.message;
      continue;
    }
    ASSERT_TRUE(ok) << problem.message;
    ++legalized;
    std::string text;
    DisassembleOptions dis;
    ASSERT_TRUE(Disassemble(out.words, dis, &text, &problem)) << problem.message;
    EXPECT_EQ(text.find("CooperativeMatrix"), std::string::npos) << text;
    EXPECT_EQ(text.find("CooperativeVector"), std::string::npos) << text;
    // Nor bfloat16 / float8 scalars (lavapipe lacks both): --lower-small-floats ran.
    EXPECT_EQ(text.find("BFloat16"), std::string::npos) << text;
    EXPECT_EQ(text.find("Float8"), std::string::npos) << text;
    ValidatorOptions validator;
    validator.target_env = m.env;
    validator.device_profile = lavapipe;
    ValidationResult result;
    ASSERT_TRUE(Validate(out.words, validator, &result, &problem)) << problem.message;
    EXPECT_TRUE(result.valid);
    for (const auto& d : result.diagnostics) ADD_FAILURE() << FormatDiagnostic(d);
  }
  // khr_arith_funcs, khr_gemm_specdims, khr_int8_saturating, nv_coopmat1_legacy (each in 3
  // environments), coopvec_loadstore_math, khr_bf16_fp8, khr_vkcmp_style and, in row bands,
  // cm2_decode_q4 and cm2_softmax_reduce.
  EXPECT_EQ(legalized, 21);
}

// ---- --legalize-for-device

struct Legalized {
  bool ok = false;
  std::string text, error;
  std::vector<opt::PassTiming> timings;
};

// `frozen`: the specialization constants are frozen to their defaults and folded first.
Legalized Legalize(const std::string& assembly, const opt::LegalizeTarget& target,
                   bool frozen = false) {
  Legalized out;
  std::vector<uint32_t> words;
  Diagnostic d;
  if (!text::Assemble(assembly, {}, &words, &d)) {
    ADD_FAILURE() << d.ToString();
    return out;
  }
  auto module = ir::Module::Read(words, &d);
  opt::PassManager manager;
  if (frozen) {
    std::string error;
    manager.Add(opt::CreateFreezeSpecConstPass("", &error));
    manager.Add(opt::CreateFoldSpecConstPass("", &error));
  }
  manager.Add(opt::CreateLegalizeForDevicePass(target));
  opt::PassManagerOptions options;
  options.validate_after_each = true;
  options.validator.env = *ParseTargetEnv("vulkan1.3");
  out.ok = manager.Run(&module, options, &out.timings, &out.error);
  if (out.ok) {
    text::DisassembleOptions dis;
    dis.header = false;
    dis.indent = false;
    EXPECT_TRUE(text::Disassemble(module->words(), dis, &out.text, &d)) << d.ToString();
  }
  return out;
}

std::vector<std::string> Names(const std::vector<opt::PassTiming>& timings) {
  std::vector<std::string> names;
  for (const auto& t : timings) names.push_back(t.pass);
  return names;
}

TEST(LegalizeForDevice, NvModuleOnAKhrDeviceIsConverted) {
  opt::LegalizeTarget khr;
  khr.has_khr_coop_matrix = true;
  const Legalized r = Legalize(Corpus("nv_coopmat1_legacy"), khr);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(Names(r.timings),
            (std::vector<std::string>{"legalize-for-device",
                                      "legalize-for-device/coop-matrix-nv-to-khr"}));
  EXPECT_EQ(r.timings[1].status, opt::PassStatus::kChanged);
  EXPECT_GT(r.timings[1].instructions_after, 0u);
  EXPECT_EQ(r.timings[0].instructions_after, r.timings[1].instructions_after);
  EXPECT_TRUE(testing::FileCheck(r.text,
                                 "CHECK: OpCapability CooperativeMatrixKHR\n"
                                 "CHECK-NOT: CooperativeMatrixNV"));
}

TEST(LegalizeForDevice, UseCopiesTakeTheSmallestSubgroupSize) {
  // One value as A and B on a KHR-only device: the scratch has a slice per subgroup of the
  // smallest size (minSubgroupSize, else subgroupSize): 32 invocations / 16 = 2 slices of 32
  // uvec4, and 32 / 32 = 1.
  const std::string kernel = SquareKernel("Vulkan",
                                          "%la = OpCooperativeMatrixLoadNV %m %p %uint_16 %false\n"
                                          "%r = OpCooperativeMatrixMulAddNV %m %la %la %ones\n"
                                          "OpCooperativeMatrixStoreNV %p %r %uint_16 %false\n");
  opt::LegalizeTarget khr;
  khr.has_khr_coop_matrix = true;
  khr.subgroup_size = 32;
  khr.min_subgroup_size = 16;
  Legalized r = Legalize(kernel, khr);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, "CHECK: OpTypeArray %v4uint %uint_64")) << r.text;
  khr.min_subgroup_size = 0;
  r = Legalize(kernel, khr);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(testing::FileCheck(r.text, "CHECK: OpTypeArray %v4uint %uint_32")) << r.text;
}

TEST(LegalizeForDevice, NvDeviceKeepsNvAndDeviceWithoutMatricesLowers) {
  opt::LegalizeTarget nv;
  nv.has_nv_coop_matrix = true;
  const Legalized kept =
      Legalize(SquareKernel("GLSL450",
                            "%l = OpCooperativeMatrixLoadNV %m %p %uint_16 %false\n"
                            "OpCooperativeMatrixStoreNV %p %l %uint_16 %false\n"),
               nv);
  ASSERT_TRUE(kept.ok) << kept.error;
  EXPECT_EQ(Names(kept.timings), (std::vector<std::string>{"legalize-for-device"}));
  EXPECT_EQ(kept.timings[0].status, opt::PassStatus::kUnchanged);

  opt::LegalizeTarget none;
  none.subgroup_size = 8;
  const Legalized lowered =
      Legalize(SquareKernel("Vulkan",
                            "%l = OpCooperativeMatrixLoadNV %m %p %uint_16 %false\n"
                            "OpCooperativeMatrixStoreNV %p %l %uint_16 %false\n"),
               none);
  ASSERT_TRUE(lowered.ok) << lowered.error;
  EXPECT_EQ(
      Names(lowered.timings),
      (std::vector<std::string>{"legalize-for-device", "legalize-for-device/lower-coop-matrix"}));
  EXPECT_EQ(lowered.text.find("Cooperative"), std::string::npos) << lowered.text;

  none.subgroup_size = 0;
  const Legalized no_size = Legalize(Corpus("nv_coopmat1_legacy"), none);
  ASSERT_FALSE(no_size.ok);
  EXPECT_NE(no_size.error.find("needs the device's subgroup size"), std::string::npos)
      << no_size.error;
}

TEST(LegalizeForDevice, DecodeVectorsAreStrippedAndMatrix2IsNamedWhenAbsent) {
  opt::LegalizeTarget matrix2;
  matrix2.has_khr_coop_matrix = matrix2.has_matrix2 = true;
  const Legalized r = Legalize(Corpus("cm2_decode_vector"), matrix2);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(
      Names(r.timings),
      (std::vector<std::string>{"legalize-for-device", "legalize-for-device/strip-decode-vector"}));
  EXPECT_LT(r.timings[1].instructions_after, r.timings[1].instructions_before);
  EXPECT_EQ(r.text.find("DecodeVector"), std::string::npos);

  matrix2.has_decode_vector = true;
  const Legalized kept = Legalize(Corpus("cm2_decode_vector"), matrix2);
  ASSERT_TRUE(kept.ok) << kept.error;
  EXPECT_NE(kept.text.find("DecodeVectorFunc"), std::string::npos);

  opt::LegalizeTarget khr;
  khr.has_khr_coop_matrix = true;
  const Legalized refused = Legalize(Corpus("cm2_decode_vector"), khr);
  ASSERT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("--lower-coop-matrix2 needs the device's subgroup size"),
            std::string::npos)
      << refused.error;

  // With a subgroup size, matrix2 is lowered onto Subgroup-scope KHR matrices.
  khr.subgroup_size = 32;
  const Legalized lowered = Legalize(Corpus("cm2_decode_vector"), khr, /*frozen=*/true);
  ASSERT_TRUE(lowered.ok) << lowered.error;
  EXPECT_EQ(Names(lowered.timings),
            (std::vector<std::string>{"freeze-spec-const", "fold-spec-const", "legalize-for-device",
                                      "legalize-for-device/strip-decode-vector",
                                      "legalize-for-device/lower-coop-matrix2"}));
  for (const char* gone : {"TensorAddressing", "DecodeVector", "SPV_NV_cooperative_matrix2"}) {
    EXPECT_EQ(lowered.text.find(gone), std::string::npos) << gone << "\n" << lowered.text;
  }
  EXPECT_NE(lowered.text.find("OpCooperativeMatrixLoadKHR"), std::string::npos) << lowered.text;
}

TEST(LegalizeForDevice, CoopVectorsAreLoweredWhenAbsent) {
  opt::LegalizeTarget target;
  target.has_khr_coop_matrix = true;
  const Legalized r = Legalize(Corpus("coopvec_loadstore_math"), target);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(Names(r.timings), (std::vector<std::string>{"legalize-for-device",
                                                        "legalize-for-device/lower-coop-vector"}));
  EXPECT_EQ(r.text.find("CooperativeVector"), std::string::npos);
  target.has_coop_vector = true;
  EXPECT_EQ(Legalize(Corpus("coopvec_loadstore_math"), target).timings.size(), 1u);
  // What the lowering cannot do comes back through the driver.
  target.has_coop_vector = false;
  const Legalized spec = Legalize(Corpus("coopvec_mlp_f16"), target);
  ASSERT_FALSE(spec.ok);
  EXPECT_NE(spec.error.find("--legalize-for-device failed: --lower-coop-vector failed: "
                            "lower-coop-vector.layout"),
            std::string::npos)
      << spec.error;
}

TEST(LegalizeForDevice, TheFlagReadsBuiltInAndFileProfiles) {
  opt::LegalizeTarget h100, lavapipe;
  std::string error;
  ASSERT_TRUE(opt::LegalizeTargetFromProfile("h100", &h100, &error)) << error;
  EXPECT_TRUE(h100.has_khr_coop_matrix && h100.has_nv_coop_matrix && h100.has_coop_vector &&
              h100.has_matrix2);
  EXPECT_FALSE(h100.has_decode_vector);  // The H100's driver lacks it (its profile says so).
  EXPECT_EQ(h100.subgroup_size, 32u);
  ASSERT_TRUE(opt::LegalizeTargetFromProfile("test/data/profiles/lavapipe.json", &lavapipe, &error))
      << error;
  EXPECT_FALSE(lavapipe.has_khr_coop_matrix || lavapipe.has_nv_coop_matrix ||
               lavapipe.has_coop_vector || lavapipe.has_matrix2 || lavapipe.has_decode_vector);
  EXPECT_EQ(lavapipe.subgroup_size, 8u);
  EXPECT_FALSE(opt::LegalizeTargetFromProfile("no-such-device", &lavapipe, &error));
  EXPECT_NE(error.find("not a built-in profile (h100, lavapipe)"), std::string::npos) << error;
  // The JSON text itself (what VK_LAYER_coopspv hands over for the live device).
  opt::LegalizeTarget text;
  ASSERT_TRUE(
      opt::LegalizeTargetFromProfile(profile::Write(*profile::BuiltIn("lavapipe")), &text, &error))
      << error;
  EXPECT_FALSE(text.has_khr_coop_matrix);
  EXPECT_EQ(text.subgroup_size, 8u);
  EXPECT_FALSE(opt::LegalizeTargetFromProfile(" {\"format\": 1}", &text, &error));
  EXPECT_NE(error.find("cannot read the device profile '(JSON text)'"), std::string::npos) << error;
  // Through the flag: the legacy NV module becomes KHR for the H100 and plain code for
  // lavapipe.
  PassRun r = testing::RunPasses(Corpus("nv_coopmat1_legacy"), {{"legalize-for-device", "h100"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(r.text.find("CooperativeMatrixNV"), std::string::npos) << r.text;
  r = testing::RunPasses(
      Corpus("nv_coopmat1_legacy"),
      {{"freeze-spec-const", ""}, {"fold-spec-const", ""}, {"legalize-for-device", "lavapipe"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text.find("CooperativeMatrix"), std::string::npos) << r.text;
  // Float8 matrices on the H100, which lists no float8 shape: plain code (the bfloat16 ones they
  // meet too), and the small floats lowered as the device lacks shaderFloat8.
  r = testing::RunPasses(Corpus("khr_bf16_fp8"), {{"legalize-for-device", "h100"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text.find("CooperativeMatrix"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("Float8EXT"), std::string::npos) << r.text;
  // What no sub-pass changes and the device refuses: float16 matrices on an H100 without
  // shaderFloat16 fail the driver, naming the device rule.
  profile::DeviceProfile no_half = *profile::BuiltIn("h100");
  no_half.features.shaderFloat16 = false;
  r = testing::RunPasses(Corpus("khr_bf16_fp8"),
                         {{"legalize-for-device", profile::Write(no_half)}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("the device still cannot take the module: device.capability: the "
                         "capability Float16 needs the feature shaderFloat16"),
            std::string::npos)
      << r.error;
}

}  // namespace
}  // namespace coopspv
