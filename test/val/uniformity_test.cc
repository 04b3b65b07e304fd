// Divergence analysis (source/val/uniformity.cc): cooperative matrix instructions need their
// operands dynamically uniform within the matrix's scope and all invocations of the scope
// instance active. Every test is a small but realistic compute shader with KHR cooperative
// matrices (Subgroup scope unless said): bug patterns must be errors pointing at the offending
// instruction and naming the divergent source, correct patterns must validate clean.
//
// UniformityKnownIssue tests were found by writing this suite: one Function variable reused
// for a divergent and then a uniform loop (fixed: such variables are tracked flow-sensitively),
// and one helper called with divergent and with uniform arguments (fixed: functions called from
// several places are summarized per parameter).
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::ExpectOnly;
using testing::HasRule;
using testing::Mutate;
using testing::ReadFile;
using testing::RuleAt;
using testing::ValidateText;

// Capabilities, entry point and execution mode. Every global the tests can touch is in the
// interface.
constexpr std::string_view kHead = R"(OpCapability Shader
OpCapability Float16
OpCapability StorageBuffer16BitAccess
OpCapability VulkanMemoryModel
OpCapability GroupNonUniform
OpCapability GroupNonUniformBallot
OpCapability GroupNonUniformShuffle
OpCapability GroupNonUniformArithmetic
OpCapability CooperativeMatrixKHR
)";

constexpr std::string_view kEntry = R"(OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %gl_LocalInvocationID %gl_LocalInvocationIndex %gl_GlobalInvocationID %gl_WorkGroupID %gl_NumWorkGroups %gl_SubgroupID %gl_SubgroupInvocationID %bufA %bufB %bufC %bufI %ubo %pc %shA %shU
OpExecutionMode %main LocalSize 64 1 1
)";

constexpr std::string_view kDecorations =
    R"(OpDecorate %gl_LocalInvocationID BuiltIn LocalInvocationId
OpDecorate %gl_LocalInvocationIndex BuiltIn LocalInvocationIndex
OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
OpDecorate %gl_WorkGroupID BuiltIn WorkgroupId
OpDecorate %gl_NumWorkGroups BuiltIn NumWorkgroups
OpDecorate %gl_SubgroupID BuiltIn SubgroupId
OpDecorate %gl_SubgroupInvocationID BuiltIn SubgroupLocalInvocationId
OpDecorate %TILE SpecId 0
OpDecorate %NITER SpecId 1
OpDecorate %_rt_half ArrayStride 2
OpDecorate %_rt_float ArrayStride 4
OpDecorate %_rt_uint ArrayStride 4
OpDecorate %BufH Block
OpMemberDecorate %BufH 0 Offset 0
OpMemberDecorate %BufH 0 NonWritable
OpDecorate %BufF Block
OpMemberDecorate %BufF 0 Offset 0
OpDecorate %BufU Block
OpMemberDecorate %BufU 0 Offset 0
OpDecorate %PC Block
OpMemberDecorate %PC 0 Offset 0
OpMemberDecorate %PC 1 Offset 4
OpMemberDecorate %PC 2 Offset 8
OpMemberDecorate %PC 3 Offset 12
OpDecorate %UBO Block
OpMemberDecorate %UBO 0 Offset 0
OpMemberDecorate %UBO 1 Offset 4
OpDecorate %bufA DescriptorSet 0
OpDecorate %bufA Binding 0
OpDecorate %bufB DescriptorSet 0
OpDecorate %bufB Binding 1
OpDecorate %bufC DescriptorSet 0
OpDecorate %bufC Binding 2
OpDecorate %bufI DescriptorSet 0
OpDecorate %bufI Binding 3
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 4
)";

// Buffers: A and B (fp16, read-only), C (fp32 results), I (uint: counters, indices); a uniform
// buffer {stride, k}; push constants {lda, ldc, n, flag}; shared memory shA (fp16 tile) and shU
// (one uint). %matA/%matB/%matC are 16x16 Subgroup-scope matrices, %wmat* Workgroup-scope ones.
constexpr std::string_view kGlobals = R"(%void = OpTypeVoid
%fnvoid = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%fn_uint_uint = OpTypeFunction %uint %uint
%fn_void_uint = OpTypeFunction %void %uint
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%uint_32 = OpConstant %uint 32
%uint_64 = OpConstant %uint 64
%uint_256 = OpConstant %uint 256
%uint_264 = OpConstant %uint 264
%uint_1024 = OpConstant %uint 1024
%uint_65535 = OpConstant %uint 65535
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%int_3 = OpConstant %int 3
%float_0 = OpConstant %float 0
%float_2 = OpConstant %float 2
%rowMajor = OpConstant %int 0
%colMajor = OpConstant %int 1
%TILE = OpSpecConstant %uint 16
%NITER = OpSpecConstant %uint 4
%_rt_half = OpTypeRuntimeArray %half
%_rt_float = OpTypeRuntimeArray %float
%_rt_uint = OpTypeRuntimeArray %uint
%BufH = OpTypeStruct %_rt_half
%BufF = OpTypeStruct %_rt_float
%BufU = OpTypeStruct %_rt_uint
%PC = OpTypeStruct %uint %uint %uint %uint
%UBO = OpTypeStruct %uint %uint
%_arr_half_1024 = OpTypeArray %half %uint_1024
%_ptr_StorageBuffer_BufH = OpTypePointer StorageBuffer %BufH
%_ptr_StorageBuffer_BufF = OpTypePointer StorageBuffer %BufF
%_ptr_StorageBuffer_BufU = OpTypePointer StorageBuffer %BufU
%_ptr_StorageBuffer_half = OpTypePointer StorageBuffer %half
%_ptr_StorageBuffer_float = OpTypePointer StorageBuffer %float
%_ptr_StorageBuffer_uint = OpTypePointer StorageBuffer %uint
%_ptr_Uniform_UBO = OpTypePointer Uniform %UBO
%_ptr_Uniform_uint = OpTypePointer Uniform %uint
%_ptr_PushConstant_PC = OpTypePointer PushConstant %PC
%_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%_ptr_Input_uint = OpTypePointer Input %uint
%_ptr_Workgroup_arr = OpTypePointer Workgroup %_arr_half_1024
%_ptr_Workgroup_half = OpTypePointer Workgroup %half
%_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
%_ptr_Function_uint = OpTypePointer Function %uint
%_ptr_Function_float = OpTypePointer Function %float
%bufA = OpVariable %_ptr_StorageBuffer_BufH StorageBuffer
%bufB = OpVariable %_ptr_StorageBuffer_BufH StorageBuffer
%bufC = OpVariable %_ptr_StorageBuffer_BufF StorageBuffer
%bufI = OpVariable %_ptr_StorageBuffer_BufU StorageBuffer
%ubo = OpVariable %_ptr_Uniform_UBO Uniform
%pc = OpVariable %_ptr_PushConstant_PC PushConstant
%shA = OpVariable %_ptr_Workgroup_arr Workgroup
%shU = OpVariable %_ptr_Workgroup_uint Workgroup
%gl_LocalInvocationID = OpVariable %_ptr_Input_v3uint Input
%gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
%gl_WorkGroupID = OpVariable %_ptr_Input_v3uint Input
%gl_NumWorkGroups = OpVariable %_ptr_Input_v3uint Input
%gl_SubgroupID = OpVariable %_ptr_Input_uint Input
%gl_SubgroupInvocationID = OpVariable %_ptr_Input_uint Input
%matA = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_0
%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_1
%matC = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2
%_ptr_Function_matC = OpTypePointer Function %matC
%zeroC = OpConstantComposite %matC %float_0
%wmatA = OpTypeCooperativeMatrixKHR %half %uint_2 %uint_16 %uint_16 %uint_0
%wmatB = OpTypeCooperativeMatrixKHR %half %uint_2 %uint_16 %uint_16 %uint_1
%wmatC = OpTypeCooperativeMatrixKHR %float %uint_2 %uint_16 %uint_16 %uint_2
%wzeroC = OpConstantComposite %wmatC %float_0
)";

// OpName for every id the module defines, so that diagnostics print the names used here.
std::string NamesFor(const std::string& text) {
  static const std::regex def(R"(^\s*%([A-Za-z_][A-Za-z0-9_]*)\s*=)");
  std::string names;
  std::set<std::string> seen;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, def) && seen.insert(m[1]).second) {
      names += "OpName %" + m[1].str() + " \"" + m[1].str() + "\"\n";
    }
  }
  return names;
}

// A whole module: the common globals plus `extra_globals` (types and constants a test needs),
// then `functions` (which must define %main). `extra_head` adds capabilities.
std::string Module(const std::string& functions, const std::string& extra_globals = "",
                   const std::string& extra_head = "") {
  const std::string body = std::string(kGlobals) + extra_globals + functions;
  return std::string(kHead) + extra_head + std::string(kEntry) + NamesFor(body) +
         std::string(kDecorations) + body;
}

Result Check(const std::string& module, Options options = {}) {
  options.env = *ParseTargetEnv("vulkan1.3");
  return ValidateText(module, options);
}

bool IsUniformityRule(const Diagnostic& d) {
  return std::string_view(d.rule->id).starts_with("uniformity.");
}

// What the first diagnostic must be: its rule, the start of the instruction it points at, the
// divergent source its message names, and (optionally) the operand it names.
struct Expected {
  std::string_view rule;
  std::string_view instruction;
  std::string_view source;
  std::string_view operand = {};
};

::testing::AssertionResult MatchesDiagnostic(const Diagnostic& d, const Expected& e) {
  if (e.rule != d.rule->id) {
    return ::testing::AssertionFailure() << "rule is " << d.rule->id << ", not " << e.rule;
  }
  const bool error = e.rule != "uniformity.unproven";
  if ((d.severity == Severity::kError) != error) {
    return ::testing::AssertionFailure() << "wrong severity for " << e.rule;
  }
  if (!d.has_instruction || !d.instruction_text.starts_with(e.instruction)) {
    return ::testing::AssertionFailure()
           << "points at '" << d.instruction_text << "', not '" << e.instruction << "...'";
  }
  if (d.message.find(e.source) == std::string::npos) {
    return ::testing::AssertionFailure() << "message does not name " << e.source;
  }
  if (!e.operand.empty() &&
      d.message.find("operand " + std::string(e.operand) + " ") == std::string::npos) {
    return ::testing::AssertionFailure() << "message does not name operand " << e.operand;
  }
  return ::testing::AssertionSuccess();
}

// The first diagnostic is the expected one, only uniformity rules fired (the module is otherwise
// valid), and the module is invalid exactly when the expected rule is an error.
::testing::AssertionResult ReportsFirst(const Result& r, const Expected& e) {
  if (r.diagnostics.empty()) return ::testing::AssertionFailure() << "no diagnostics";
  for (const Diagnostic& d : r.diagnostics) {
    if (!IsUniformityRule(d)) {
      return ::testing::AssertionFailure() << "unrelated diagnostic:\n" << Dump(r);
    }
  }
  ::testing::AssertionResult first = MatchesDiagnostic(r.diagnostics.front(), e);
  if (!first) return first << "\n" << Dump(r);
  if (r.valid != (e.rule == "uniformity.unproven")) {
    return ::testing::AssertionFailure() << "valid is " << r.valid << "\n" << Dump(r);
  }
  return ::testing::AssertionSuccess();
}

// Some diagnostic (not necessarily the first) is the expected one.
::testing::AssertionResult Reports(const Result& r, const Expected& e) {
  for (const Diagnostic& d : r.diagnostics) {
    if (MatchesDiagnostic(d, e)) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no such diagnostic:\n" << Dump(r);
}

bool HasUniformityError(const Result& r) {
  for (const Diagnostic& d : r.diagnostics) {
    if (IsUniformityRule(d) && d.severity == Severity::kError) return true;
  }
  return false;
}

// Snippets used by several programs.
constexpr std::string_view kMainBegin = R"(%main = OpFunction %void None %fnvoid
%entry = OpLabel
)";
constexpr std::string_view kLid =
    R"(%lid_x_p = OpAccessChain %_ptr_Input_uint %gl_LocalInvocationID %uint_0
%lx = OpLoad %uint %lid_x_p
)";
constexpr std::string_view kLda = R"(%lda_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_0
%lda = OpLoad %uint %lda_p
)";
constexpr std::string_view kPointers =
    R"(%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %uint_0
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %uint_0
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
)";

std::string Main(std::string_view body) {
  return std::string(kMainBegin) + std::string(body) + "OpFunctionEnd\n";
}

// ------------------------------------------------------------------------------------------
// The baseline the bug patterns start from: one 16x16x16 multiply, everything uniform.

const std::string& Baseline() {
  static const std::string text = Module(Main(std::string(kLda) + std::string(kPointers) + R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %lda None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %lda None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %lda None
OpReturn
)"));
  return text;
}

TEST(UniformityBaseline, ValidatesClean) { EXPECT_CLEAN(Check(Baseline())); }

// ------------------------------------------------------------------------------------------
// Bug patterns: each must be an error on the right instruction, naming the divergent source.

// coopMatLoad(a, A, 0, gl_LocalInvocationID.x, RowMajor): a per-invocation stride.
TEST(UniformityBug, StrideFromLocalInvocationId) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %lx None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId", "%lx"}));
  // The divergent matrix then poisons what uses it.
  EXPECT_TRUE(Reports(
      r, {"uniformity.operand", "%d = OpCooperativeMatrixMulAddKHR", "LocalInvocationId", "%a"}));
}

// coopMatLoad(a, A, gl_GlobalInvocationID.x * 16, ...): each invocation picks its own tile.
TEST(UniformityBug, PointerOffsetFromGlobalInvocationId) {
  const Result r = Check(Module(Main(R"(
%gid_x_p = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
%gx = OpLoad %uint %gid_x_p
%row = OpIMul %uint %gx %uint_16
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %row
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %uint_0
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "GlobalInvocationId", "%pA"}));
}

// stride = (gl_LocalInvocationID.x & 1) != 0 ? 32 : 16.
TEST(UniformityBug, StrideSelectedOnDivergentCondition) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%odd = OpBitwiseAnd %uint %lx %uint_1
%isodd = OpINotEqual %bool %odd %uint_0
%stride = OpSelect %uint %isodd %uint_32 %uint_16
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationId", "%stride"}));
}

// The layout chosen per invocation with OpSelect: not a constant instruction (its own rule) and
// divergent.
TEST(UniformityBug, LayoutSelectedOnDivergentCondition) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%odd = OpBitwiseAnd %uint %lx %uint_1
%isodd = OpINotEqual %bool %odd %uint_0
%layout = OpSelect %int %isodd %rowMajor %colMajor
%a = OpCooperativeMatrixLoadKHR %matA %pA %layout %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_FALSE(r.valid);
  EXPECT_RULE(r, "coop-matrix.memory.layout");
  EXPECT_TRUE(Reports(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                          "LocalInvocationId", "%layout"}));
}

// if (gl_SubgroupInvocationID < 16) { coopMatLoad(...); ... }: half the subgroup is inactive.
TEST(UniformityBug, LoadUnderSubgroupInvocationIdBranch) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%sgl = OpLoad %uint %gl_SubgroupInvocationID
%low = OpULessThan %bool %sgl %uint_16
OpSelectionMerge %merge None
OpBranchConditional %low %then %merge
%then = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpBranch %merge
%merge = OpLabel
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.control", "%a = OpCooperativeMatrixLoadKHR", "SubgroupLocalInvocationId"}));
  EXPECT_NE(r.diagnostics.front().message.find("divergent control flow"), std::string::npos);
  EXPECT_TRUE(Reports(
      r, {"uniformity.control", "OpCooperativeMatrixStoreKHR %pC", "SubgroupLocalInvocationId"}));
}

// for (uint i = 0; i < gl_LocalInvocationIndex; ++i) acc = coopMatMulAdd(a, b, acc);
TEST(UniformityBug, MulAddInLoopWithDivergentTripCount) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%lidx = OpLoad %uint %gl_LocalInvocationIndex
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %i_next %latch
%acc = OpPhi %matC %zeroC %entry %d %latch
%more = OpULessThan %bool %i %lidx
OpLoopMerge %exit %latch None
OpBranchConditional %more %body %exit
%body = OpLabel
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %acc
OpBranch %latch
%latch = OpLabel
%i_next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
OpCooperativeMatrixStoreKHR %pC %acc %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.control", "%d = OpCooperativeMatrixMulAddKHR", "LocalInvocationIndex"}));
  // The accumulator leaving the loop differs per invocation (different trip counts).
  EXPECT_TRUE(Reports(r, {"uniformity.operand", "OpCooperativeMatrixStoreKHR %pC",
                          "LocalInvocationIndex", "%acc"}));
}

// if (gl_LocalInvocationID.x != 0) return; coopMatStore(...): only invocation 0 stores.
TEST(UniformityBug, StoreAfterDivergentEarlyReturn) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
%notfirst = OpINotEqual %bool %lx %uint_0
OpSelectionMerge %cont None
OpBranchConditional %notfirst %ret %cont
%ret = OpLabel
OpReturn
%cont = OpLabel
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.control", "OpCooperativeMatrixStoreKHR %pC %d", "LocalInvocationId"}));
  EXPECT_EQ(r.num_errors, 1u) << Dump(r);  // The loads and the multiply come before the return.
}

// coopmat<float, ...> bias = coopmat<...>(float(gl_LocalInvocationID.x));
TEST(UniformityBug, ConstructFromDivergentScalar) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%fx = OpConvertUToF %float %lx
%bias = OpCompositeConstruct %matC %fx
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %bias
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%bias = OpCompositeConstruct", "LocalInvocationId", "%fx"}));
}

// d = d * float(gl_LocalInvocationID.x);
TEST(UniformityBug, MatrixTimesDivergentScalar) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
%fx = OpConvertUToF %float %lx
%scaled = OpMatrixTimesScalar %matC %d %fx
OpCooperativeMatrixStoreKHR %pC %scaled %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%scaled = OpMatrixTimesScalar", "LocalInvocationId", "%fx"}));
}

// glslang keeps `uint stride = gl_LocalInvocationID.x * 16;` in a Function variable.
TEST(UniformityBug, StrideThroughFunctionVariable) {
  const Result r = Check(Module(Main(R"(
%stride_v = OpVariable %_ptr_Function_uint Function
)" + std::string(kLid) + std::string(kPointers) +
                                     R"(
%s0 = OpIMul %uint %lx %uint_16
OpStore %stride_v %s0
%stride = OpLoad %uint %stride_v
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationId", "%stride"}));
}

// uint leading_dim(uint x) { return x + 16; }  ... leading_dim(gl_LocalInvocationID.x)
TEST(UniformityBug, StrideFromHelperCalledWithDivergentArgument) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%stride = OpFunctionCall %uint %leading_dim %lx
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)") + R"(%leading_dim = OpFunction %uint None %fn_uint_uint
%x = OpFunctionParameter %uint
%ld_entry = OpLabel
%r = OpIAdd %uint %x %uint_16
OpReturnValue %r
OpFunctionEnd
)"));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationId", "%stride"}));
}

// void tile() { load; mulAdd; store; }  ... if (gl_LocalInvocationID.x < 32) tile();
// With room for one error, the checks stop at the first one they report.
TEST(UniformityBug, StopsWhenTheErrorLimitIsReached) {
  const std::string text = Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %lx None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %lx None
OpReturn
)"));
  EXPECT_EQ(Check(text).num_errors, 2u);
  Options options;
  options.max_errors = 1;
  const Result r = Check(text, options);
  EXPECT_EQ(r.num_errors, 1u);
  EXPECT_TRUE(r.truncated);
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId", "%lx"}));
}

TEST(UniformityBug, CoopOpsInHelperCalledUnderDivergentControl) {
  const Result r = Check(Module(Main(std::string(kLid) + R"(
%firsthalf = OpULessThan %bool %lx %uint_32
OpSelectionMerge %merge None
OpBranchConditional %firsthalf %then %merge
%then = OpLabel
%call = OpFunctionCall %void %tile
OpBranch %merge
%merge = OpLabel
OpReturn
)") + R"(%tile = OpFunction %void None %fnvoid
%t_entry = OpLabel
%tpA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %uint_0
%tpB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %uint_0
%tpC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
%ta = OpCooperativeMatrixLoadKHR %matA %tpA %rowMajor %uint_16 None
%tb = OpCooperativeMatrixLoadKHR %matB %tpB %colMajor %uint_16 None
%td = OpCooperativeMatrixMulAddKHR %matC %ta %tb %zeroC
OpCooperativeMatrixStoreKHR %tpC %td %rowMajor %uint_16 None
OpReturn
OpFunctionEnd
)"));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.control", "%ta = OpCooperativeMatrixLoadKHR", "LocalInvocationId"}));
  EXPECT_TRUE(Reports(
      r, {"uniformity.control", "%td = OpCooperativeMatrixMulAddKHR", "LocalInvocationId"}));
}

// Workgroup-scope matrices: gl_SubgroupID is the same within a subgroup but not across the
// workgroup. The analysis reports it as *unproven* (a warning), not as an error: SubgroupId is
// subgroup-uniform, and only a divergent (per-invocation) level is proven wrong. With more than
// one subgroup per workgroup this is a real bug (see the report); this test pins what the code
// does.
TEST(UniformityBug, WorkgroupScopeStrideFromSubgroupIdIsOnlyUnproven) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%sg = OpLoad %uint %gl_SubgroupID
%stride = OpIAdd %uint %sg %uint_16
%wa = OpCooperativeMatrixLoadKHR %wmatA %pA %rowMajor %stride None
%wb = OpCooperativeMatrixLoadKHR %wmatB %pB %colMajor %uint_16 None
%wd = OpCooperativeMatrixMulAddKHR %wmatC %wa %wb %wzeroC
OpCooperativeMatrixStoreKHR %pC %wd %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.unproven", "%wa = OpCooperativeMatrixLoadKHR", "SubgroupId", "%stride"}));
  EXPECT_NE(r.diagnostics.front().message.find("subgroup-uniform"), std::string::npos);
  EXPECT_NE(r.diagnostics.front().message.find("within the workgroup"), std::string::npos);
}

// The same stride is fine for a Subgroup-scope matrix.
TEST(UniformityClean, SubgroupScopeStrideFromSubgroupId) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kPointers) + R"(
%sg = OpLoad %uint %gl_SubgroupID
%stride = OpIAdd %uint %sg %uint_16
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// Workgroup scope with a per-invocation stride is a proven error.
TEST(UniformityBug, WorkgroupScopeStrideFromLocalInvocationIndex) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%lidx = OpLoad %uint %gl_LocalInvocationIndex
%stride = OpIAdd %uint %lidx %uint_16
%wa = OpCooperativeMatrixLoadKHR %wmatA %pA %rowMajor %stride None
%wb = OpCooperativeMatrixLoadKHR %wmatB %pB %colMajor %uint_16 None
%wd = OpCooperativeMatrixMulAddKHR %wmatC %wa %wb %wzeroC
OpCooperativeMatrixStoreKHR %pC %wd %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%wa = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationIndex", "%stride"}));
  EXPECT_NE(r.diagnostics.front().message.find("within the workgroup"), std::string::npos);
}

// Workgroup-scope ops under `if (gl_SubgroupID == 0)`: only the first subgroup runs them.
// Reported as unproven control flow (a warning), like the operand case above.
TEST(UniformityBug, WorkgroupScopeUnderSubgroupIdBranchIsOnlyUnproven) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%sg = OpLoad %uint %gl_SubgroupID
%first = OpIEqual %bool %sg %uint_0
OpSelectionMerge %merge None
OpBranchConditional %first %then %merge
%then = OpLabel
%wa = OpCooperativeMatrixLoadKHR %wmatA %pA %rowMajor %uint_16 None
%wb = OpCooperativeMatrixLoadKHR %wmatB %pB %colMajor %uint_16 None
%wd = OpCooperativeMatrixMulAddKHR %wmatC %wa %wb %wzeroC
OpCooperativeMatrixStoreKHR %pC %wd %rowMajor %uint_16 None
OpBranch %merge
%merge = OpLabel
OpReturn
)")));
  EXPECT_TRUE(
      ReportsFirst(r, {"uniformity.unproven", "%wa = OpCooperativeMatrixLoadKHR", "SubgroupId"}));
  EXPECT_NE(r.diagnostics.front().message.find("control flow not proven uniform"),
            std::string::npos);
}

// uint stride = gl_LocalInvocationID.x < 8 ? 16 : 32 written as an if/else with an OpPhi.
TEST(UniformityBug, PhiOfDivergentBranchAsStride) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%low = OpULessThan %bool %lx %uint_8
OpSelectionMerge %merge None
OpBranchConditional %low %then %else
%then = OpLabel
OpBranch %merge
%else = OpLabel
OpBranch %merge
%merge = OpLabel
%stride = OpPhi %uint %uint_16 %then %uint_32 %else
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationId", "%stride"}));
}

// uint tile = atomicAdd(counter, 1); coopMatLoad(a, A, tile * 256, ...): every invocation grabs
// its own tile.
TEST(UniformityBug, AtomicResultAsOffset) {
  const Result r = Check(Module(Main(R"(
%ctr = OpAccessChain %_ptr_StorageBuffer_uint %bufI %int_0 %uint_0
%tile = OpAtomicIAdd %uint %ctr %uint_2 %uint_0 %uint_1
%off = OpIMul %uint %tile %uint_256
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %off
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %uint_0
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "OpAtomicIAdd", "%pA"}));
}

// The atomic's result used directly as the stride.
TEST(UniformityBug, AtomicResultAsStride) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%ctr = OpAccessChain %_ptr_StorageBuffer_uint %bufI %int_0 %uint_0
%stride = OpAtomicIAdd %uint %ctr %uint_2 %uint_0 %uint_16
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "OpAtomicIAdd", "%stride"}));
}

// uint i = 0; for (;; ++i) { stride = i * 16; if (i >= gl_LocalInvocationID.x) break; }
// The loop exits at a different iteration in every invocation: %stride is divergent after it.
TEST(UniformityBug, ValueFromLoopWithDivergentExitUsedAfterLoop) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %i_next %latch
OpLoopMerge %exit %latch None
OpBranch %body
%body = OpLabel
%stride = OpIMul %uint %i %uint_16
%found = OpUGreaterThanEqual %bool %i %lx
OpSelectionMerge %cont None
OpBranchConditional %found %brk %cont
%brk = OpLabel
OpBranch %exit
%cont = OpLabel
OpBranch %latch
%latch = OpLabel
%i_next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationId", "%stride"}));
}

// switch (gl_LocalInvocationID.x & 3) { case 0: row-major load...; case 1: col-major...; }
TEST(UniformityBug, DivergentSwitchAroundLoad) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%sel = OpBitwiseAnd %uint %lx %uint_3
OpSelectionMerge %merge None
OpSwitch %sel %default 0 %case0 1 %case1
%case0 = OpLabel
%a0 = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%d0 = OpCooperativeMatrixMulAddKHR %matC %a0 %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d0 %rowMajor %uint_16 None
OpBranch %merge
%case1 = OpLabel
%a1 = OpCooperativeMatrixLoadKHR %matA %pA %colMajor %uint_16 None
%d1 = OpCooperativeMatrixMulAddKHR %matC %a1 %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d1 %rowMajor %uint_16 None
OpBranch %merge
%default = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.control", "%a0 = OpCooperativeMatrixLoadKHR", "LocalInvocationId"}));
  EXPECT_TRUE(
      Reports(r, {"uniformity.control", "%a1 = OpCooperativeMatrixLoadKHR", "LocalInvocationId"}));
}

// stride = subgroupShuffle(per_lane[gl_SubgroupInvocationID], gl_SubgroupInvocationID + 1):
// each lane gets its neighbour's value.
TEST(UniformityBug, ShuffleResultAsStride) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%sgl = OpLoad %uint %gl_SubgroupInvocationID
%pI = OpAccessChain %_ptr_StorageBuffer_uint %bufI %int_0 %sgl
%mine = OpLoad %uint %pI
%next = OpIAdd %uint %sgl %uint_1
%stride = OpGroupNonUniformShuffle %uint %uint_3 %mine %next
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "OpGroupNonUniformShuffle", "%stride"}));
}

// stride = subgroupExclusiveAdd(16): 0, 16, 32, ... per lane.
TEST(UniformityBug, ExclusiveScanAsStride) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%stride = OpGroupNonUniformIAdd %uint %uint_3 ExclusiveScan %uint_16
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "OpGroupNonUniformIAdd", "%stride"}));
}

// for (k = 0; k < NITER; ++k) { if (k == gl_LocalInvocationID.x) break; acc = mulAdd(...); }
// After a divergent break the rest of the loop body runs in only some invocations.
TEST(UniformityBug, MulAddAfterDivergentBreak) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
OpBranch %header
%header = OpLabel
%k = OpPhi %uint %uint_0 %entry %k_next %latch
%acc = OpPhi %matC %zeroC %entry %d %latch
%more = OpULessThan %bool %k %NITER
OpLoopMerge %exit %latch None
OpBranchConditional %more %body %exit
%body = OpLabel
%mine = OpIEqual %bool %k %lx
OpSelectionMerge %cont None
OpBranchConditional %mine %brk %cont
%brk = OpLabel
OpBranch %exit
%cont = OpLabel
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %acc
OpBranch %latch
%latch = OpLabel
%k_next = OpIAdd %uint %k %uint_1
OpBranch %header
%exit = OpLabel
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.control", "%d = OpCooperativeMatrixMulAddKHR", "LocalInvocationId"}));
}

// glslang: uint stride = 16; if (gl_LocalInvocationID.x < 8) stride = 32; a store of a constant
// under divergent control makes the variable divergent.
TEST(UniformityBug, FunctionVariableAssignedUnderDivergentBranch) {
  const Result r = Check(Module(Main(R"(
%stride_v = OpVariable %_ptr_Function_uint Function
)" + std::string(kLid) + std::string(kPointers) +
                                     R"(
OpStore %stride_v %uint_16
%wide = OpULessThan %bool %lx %uint_8
OpSelectionMerge %merge None
OpBranchConditional %wide %then %merge
%then = OpLabel
OpStore %stride_v %uint_32
OpBranch %merge
%merge = OpLabel
%stride = OpLoad %uint %stride_v
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationId", "%stride"}));
}

// ------------------------------------------------------------------------------------------
// Function variables (the unoptimized compiler output keeps every local in one) are tracked
// flow-sensitively: a load sees the stores that reach it.

// The offset variable first holds the workgroup's tile, then the invocation's own element,
// and the load reads the second.
std::string OffsetVariable(std::string_view stores) {
  return Module(Main(R"(%off_v = OpVariable %_ptr_Function_uint Function
)" + std::string(kLid) +
                     R"(%wg_p = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_0
%wg = OpLoad %uint %wg_p
%tile = OpIMul %uint %wg %uint_256
%elem = OpIMul %uint %lx %uint_16
)" + std::string(stores) +
                     R"(%off = OpLoad %uint %off_v
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %off
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %uint_0
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"));
}

TEST(UniformityFlow, LastStoreDivergentIsAnError) {
  const Result r = Check(OffsetVariable("OpStore %off_v %tile\nOpStore %off_v %elem\n"));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId", "%pA"}));
}

TEST(UniformityFlow, LastStoreUniformIsClean) {
  EXPECT_CLEAN(Check(OffsetVariable("OpStore %off_v %elem\nOpStore %off_v %tile\n")));
}

TEST(UniformityFlow, StoreUnderDivergentBranchIsAnError) {
  const Result r = Check(OffsetVariable(R"(OpStore %off_v %tile
%small = OpULessThan %bool %lx %uint_8
OpSelectionMerge %m None
OpBranchConditional %small %t %m
%t = OpLabel
OpStore %off_v %uint_0
OpBranch %m
%m = OpLabel
)"));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId", "%pA"}));
}

TEST(UniformityFlow, StoresOnBothUniformBranchesAreClean) {
  EXPECT_CLEAN(Check(OffsetVariable(R"(OpStore %off_v %elem
%pc_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_0
%flag = OpLoad %uint %pc_p
%big = OpUGreaterThan %bool %flag %uint_8
OpSelectionMerge %m None
OpBranchConditional %big %t %e
%t = OpLabel
OpStore %off_v %tile
OpBranch %m
%e = OpLabel
OpStore %off_v %uint_0
OpBranch %m
%m = OpLabel
)")));
}

// The load runs before the loop's back edge stores the invocation's element into the variable:
// evaluated first while the variable held only uniform data, it must be evaluated again.
std::string OffsetVariableInLoop(std::string_view back_edge_value) {
  return Module(Main(R"(%off_v = OpVariable %_ptr_Function_uint Function
)" + std::string(kLid) +
                     R"(%wg_p = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_0
%wg = OpLoad %uint %wg_p
%tile = OpIMul %uint %wg %uint_256
%elem = OpIMul %uint %lx %uint_16
%pc_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_0
%flag = OpLoad %uint %pc_p
OpStore %off_v %tile
OpBranch %hdr
%hdr = OpLabel
OpLoopMerge %exit %cont None
OpBranch %body
%body = OpLabel
%off = OpLoad %uint %off_v
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %off
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %uint_0
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpBranch %cont
%cont = OpLabel
OpStore %off_v )" + std::string(back_edge_value) +
                     R"(
%more = OpUGreaterThan %bool %flag %uint_8
OpBranchConditional %more %hdr %exit
%exit = OpLabel
OpReturn
)"));
}

TEST(UniformityFlow, DivergentStoreOnBackEdgeReachesEarlierLoad) {
  const Result r = Check(OffsetVariableInLoop("%elem"));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId", "%pA"}));
}

TEST(UniformityFlow, UniformStoreOnBackEdgeIsClean) {
  EXPECT_CLEAN(Check(OffsetVariableInLoop("%tile")));
}

// ------------------------------------------------------------------------------------------
// Correct patterns: no error, no warning.

// for (uint k = 0; k < pc.n; k += 16) acc = mulAdd(A[row * lda + k], B[k], acc);
// uint limit;                                   (Private)
// void set_limit(uint x) { limit = x + 1; }     called twice: summarized per parameter
// uint lane_plus(uint x) { return x + 1; }      called twice, with per-invocation arguments
// main: set_limit(gl_WorkGroupID.x); set_limit(gl_WorkGroupID.y); lane_plus(lx);
//       lane_plus(lx + 1); if (limit < 4) { load; mulAdd; store; }
// limit is uniform. What set_limit stores depends on its parameter; a module-level variable
// outlives the call, so that dependence is resolved where the store is (its worst call site),
// not carried into main, where it read as main's own parameter 0, which is lane_plus's (ggml's
// matmul_id: its _ne1, set by load_row_ids, was divergent after --eliminate-dead removed a
// function between main and lane_plus's counterpart).
TEST(UniformityClean, PrivateVariableStoredByASummarizedHelper) {
  std::string text = Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%wg_p = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_0
%wg_x = OpLoad %uint %wg_p
%wg_q = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_1
%wg_y = OpLoad %uint %wg_q
%s1 = OpFunctionCall %void %set_limit %wg_x
%s2 = OpFunctionCall %void %set_limit %wg_y
%lx1 = OpIAdd %uint %lx %uint_1
%p1 = OpFunctionCall %uint %lane_plus %lx
%p2 = OpFunctionCall %uint %lane_plus %lx1
%lim = OpLoad %uint %limit
%small = OpULessThan %bool %lim %uint_8
OpSelectionMerge %merge None
OpBranchConditional %small %then %merge
%then = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpBranch %merge
%merge = OpLabel
OpReturn
)") + R"(%lane_plus = OpFunction %uint None %fn_uint_uint
%lp_x = OpFunctionParameter %uint
%lp_entry = OpLabel
%lp_r = OpIAdd %uint %lp_x %uint_1
OpReturnValue %lp_r
OpFunctionEnd
%set_limit = OpFunction %void None %fn_void_uint
%sl_x = OpFunctionParameter %uint
%sl_entry = OpLabel
%sl_v = OpIAdd %uint %sl_x %uint_1
OpStore %limit %sl_v
OpReturn
OpFunctionEnd
)",
                            "%_ptr_Private_uint = OpTypePointer Private %uint\n%limit = OpVariable "
                            "%_ptr_Private_uint Private\n");
  text.replace(text.find(" %shU\n"), 6, " %shU %limit\n");
  EXPECT_CLEAN(Check(text));
  // One call with a per-invocation argument: limit differs per invocation.
  text.replace(text.find("%set_limit %wg_y"), 16, "%set_limit %lx");
  EXPECT_TRUE(Reports(
      Check(text), {"uniformity.control", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId"}));
}

TEST(UniformityClean, LoopBoundFromPushConstant) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kLda) + R"(
%n_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_2
%n = OpLoad %uint %n_p
%wg_y_p = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_1
%gy = OpLoad %uint %wg_y_p
%row = OpIMul %uint %gy %uint_16
%rowoff = OpIMul %uint %row %lda
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %rowoff
OpBranch %header
%header = OpLabel
%k = OpPhi %uint %uint_0 %entry %k_next %latch
%acc = OpPhi %matC %zeroC %entry %d %latch
%more = OpULessThan %bool %k %n
OpLoopMerge %exit %latch None
OpBranchConditional %more %body %exit
%body = OpLabel
%offA = OpIAdd %uint %rowoff %k
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %offA
%offB = OpIMul %uint %k %lda
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %offB
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %lda None
%b = OpCooperativeMatrixLoadKHR %matB %pB %rowMajor %lda None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %acc
OpBranch %latch
%latch = OpLabel
%k_next = OpIAdd %uint %k %uint_16
OpBranch %header
%exit = OpLabel
OpCooperativeMatrixStoreKHR %pC %acc %rowMajor %lda None
OpReturn
)"))));
}

// for (uint k = 0; k < NITER; ++k) with NITER a specialization constant.
TEST(UniformityClean, LoopBoundFromSpecConstant) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kPointers) + R"(
OpBranch %header
%header = OpLabel
%k = OpPhi %uint %uint_0 %entry %k_next %latch
%acc = OpPhi %matC %zeroC %entry %d %latch
%more = OpULessThan %bool %k %NITER
OpLoopMerge %exit %latch None
OpBranchConditional %more %body %exit
%body = OpLabel
%off = OpIMul %uint %k %uint_16
%pAk = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %off
%a = OpCooperativeMatrixLoadKHR %matA %pAk %rowMajor %uint_256 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_256 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %acc
OpBranch %latch
%latch = OpLabel
%k_next = OpIAdd %uint %k %uint_1
OpBranch %header
%exit = OpLabel
OpCooperativeMatrixStoreKHR %pC %acc %rowMajor %uint_16 None
OpReturn
)"))));
}

// if (pc.n == 0) return; the whole workgroup leaves together.
TEST(UniformityClean, UniformEarlyReturn) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kPointers) + R"(
%n_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_2
%n = OpLoad %uint %n_p
%empty = OpIEqual %bool %n %uint_0
OpSelectionMerge %cont None
OpBranchConditional %empty %ret %cont
%ret = OpLabel
OpReturn
%cont = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// Tile sizes and strides from specialization constants (and spec-constant operations).
TEST(UniformityClean, SpecConstantTileSizes) {
  EXPECT_CLEAN(Check(Module(Main(R"(
%wg_x_p = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_0
%gx = OpLoad %uint %wg_x_p
%off = OpIMul %uint %gx %TILE
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %off
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %off
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %off
%a = OpCooperativeMatrixLoadKHR %smatA %pA %rowMajor %TILE2 None
%b = OpCooperativeMatrixLoadKHR %smatB %pB %colMajor %TILE2 None
%d = OpCooperativeMatrixMulAddKHR %smatC %a %b %szeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %TILE2 None
OpReturn
)"),
                            R"(%TILE2 = OpSpecConstantOp %uint IMul %TILE %uint_2
%smatA = OpTypeCooperativeMatrixKHR %half %uint_3 %TILE %TILE %uint_0
%smatB = OpTypeCooperativeMatrixKHR %half %uint_3 %TILE %TILE %uint_1
%smatC = OpTypeCooperativeMatrixKHR %float %uint_3 %TILE %TILE %uint_2
%szeroC = OpConstantComposite %smatC %float_0
)")));
}

// The tile a workgroup computes comes from gl_WorkGroupID.
TEST(UniformityClean, AddressesFromWorkgroupId) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kLda) + R"(
%wg_x_p = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_0
%gx = OpLoad %uint %wg_x_p
%wg_y_p = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_1
%gy = OpLoad %uint %wg_y_p
%row = OpIMul %uint %gy %uint_16
%col = OpIMul %uint %gx %uint_16
%offA = OpIMul %uint %row %lda
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %offA
%offB = OpIMul %uint %col %lda
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %offB
%offC = OpIAdd %uint %offA %col
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %offC
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %lda None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %lda None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %lda None
OpReturn
)"))));
}

// stride = subgroupBroadcastFirst(per-lane value): the same in the whole subgroup.
TEST(UniformityClean, BroadcastFirstOfDivergentValueAsStride) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%perlane = OpIMul %uint %lx %uint_16
%stride = OpGroupNonUniformBroadcastFirst %uint %uint_3 %perlane
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// stride = subgroupMax(per-lane value): a reduction is subgroup-uniform.
TEST(UniformityClean, SubgroupReduceAsStride) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%perlane = OpIAdd %uint %lx %uint_16
%stride = OpGroupNonUniformUMax %uint %uint_3 Reduce %perlane
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// stride = subgroupAdd(16) (IAdd Reduce) and offset from subgroupBallotBitCount(ballot(odd)) and
// subgroupBallotFindLSB: all subgroup-uniform.
TEST(UniformityClean, SubgroupIAddReduceAndBallotValues) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kLid) + R"(
%stride = OpGroupNonUniformIAdd %uint %uint_3 Reduce %uint_16
%odd = OpBitwiseAnd %uint %lx %uint_1
%isodd = OpINotEqual %bool %odd %uint_0
%ballot = OpGroupNonUniformBallot %v4uint %uint_3 %isodd
%count = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %ballot
%lsb = OpGroupNonUniformBallotFindLSB %uint %uint_3 %ballot
%offA = OpIMul %uint %count %uint_256
%offB = OpIMul %uint %lsb %uint_256
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %offA
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %offB
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %stride None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %stride None
OpReturn
)"))));
}

// KHR issue 11: elements of a matrix may be read in non-uniform control flow, through an access
// chain into a Function variable or with OpCompositeExtract. No cooperative instruction runs in
// the divergent branch.
TEST(UniformityClean, ElementAccessInDivergentControlFlow) {
  EXPECT_CLEAN(Check(Module(Main(R"(
%acc_v = OpVariable %_ptr_Function_matC Function
)" + std::string(kLid) + std::string(kPointers) +
                                 R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpStore %acc_v %d
%len = OpCooperativeMatrixLengthKHR %uint %matC
%few = OpULessThan %bool %lx %uint_8
OpSelectionMerge %merge None
OpBranchConditional %few %then %merge
%then = OpLabel
%ep = OpAccessChain %_ptr_Function_float %acc_v %uint_0
%e0 = OpLoad %float %ep
%e1 = OpCompositeExtract %float %d 1
%sum = OpFAdd %float %e0 %e1
%outoff = OpIAdd %uint %lx %len
%pOut = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %outoff
OpStore %pOut %sum
OpBranch %merge
%merge = OpLabel
%res = OpLoad %matC %acc_v
OpCooperativeMatrixStoreKHR %pC %res %rowMajor %uint_16 None
OpReturn
)"))));
}

// Each invocation stages part of A into shared memory (per-invocation addresses and values),
// barrier, then a cooperative load from a uniform shared address: the matrix is uniform.
TEST(UniformityClean, SharedMemoryStagingThenCoopLoad) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kPointers) + R"(
%lidx = OpLoad %uint %gl_LocalInvocationIndex
%src = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %lidx
%h = OpLoad %half %src
%dst = OpAccessChain %_ptr_Workgroup_half %shA %lidx
OpStore %dst %h MakePointerAvailable|NonPrivatePointer %uint_2
OpControlBarrier %uint_2 %uint_2 %uint_264
%pS = OpAccessChain %_ptr_Workgroup_half %shA %uint_0
%a = OpCooperativeMatrixLoadKHR %matA %pS %rowMajor %uint_16 MakePointerVisible|NonPrivatePointer %uint_2
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// The staging loop itself has a per-invocation trip count (for (i = lid; i < 256; i += 64)),
// glslang style with the counter in a Function variable; the cooperative load after the loop
// and the barrier is in uniform control flow.
TEST(UniformityClean, DivergentStagingLoopThenCoopLoad) {
  EXPECT_CLEAN(Check(Module(Main(R"(
%i_v = OpVariable %_ptr_Function_uint Function
)" + std::string(kPointers) + R"(
%lidx = OpLoad %uint %gl_LocalInvocationIndex
OpStore %i_v %lidx
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %latch None
OpBranch %cond
%cond = OpLabel
%i = OpLoad %uint %i_v
%more = OpULessThan %bool %i %uint_256
OpBranchConditional %more %body %exit
%body = OpLabel
%i2 = OpLoad %uint %i_v
%src = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %i2
%h = OpLoad %half %src
%dst = OpAccessChain %_ptr_Workgroup_half %shA %i2
OpStore %dst %h MakePointerAvailable|NonPrivatePointer %uint_2
OpBranch %latch
%latch = OpLabel
%i3 = OpLoad %uint %i_v
%i_next = OpIAdd %uint %i3 %uint_64
OpStore %i_v %i_next
OpBranch %header
%exit = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
%pS = OpAccessChain %_ptr_Workgroup_half %shA %uint_0
%a = OpCooperativeMatrixLoadKHR %matA %pS %rowMajor %uint_16 MakePointerVisible|NonPrivatePointer %uint_2
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// glslang: for (uint k = 0; k < pc.n; k += 16) with k and the accumulator in Function
// variables.
TEST(UniformityClean, LoopCounterInFunctionVariable) {
  EXPECT_CLEAN(Check(Module(Main(R"(
%k_v = OpVariable %_ptr_Function_uint Function
%acc_v = OpVariable %_ptr_Function_matC Function
)" + std::string(kPointers) + R"(
OpStore %acc_v %zeroC
OpStore %k_v %uint_0
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %latch None
OpBranch %cond
%cond = OpLabel
%k = OpLoad %uint %k_v
%n_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_2
%n = OpLoad %uint %n_p
%more = OpULessThan %bool %k %n
OpBranchConditional %more %body %exit
%body = OpLabel
%k2 = OpLoad %uint %k_v
%pAk = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %k2
%a = OpCooperativeMatrixLoadKHR %matA %pAk %rowMajor %uint_256 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_256 None
%c = OpLoad %matC %acc_v
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c
OpStore %acc_v %d
OpBranch %latch
%latch = OpLabel
%k3 = OpLoad %uint %k_v
%k_next = OpIAdd %uint %k3 %uint_16
OpStore %k_v %k_next
OpBranch %header
%exit = OpLabel
%res = OpLoad %matC %acc_v
OpCooperativeMatrixStoreKHR %pC %res %rowMajor %uint_16 None
OpReturn
)"))));
}

// void mma(uint ld) { load; mulAdd; store; } called with a push constant.
TEST(UniformityClean, HelperWithUniformArgumentsDoesMulAdd) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kLda) + R"(
%call = OpFunctionCall %void %mma %lda
OpReturn
)") + R"(%mma = OpFunction %void None %fn_void_uint
%ld = OpFunctionParameter %uint
%m_entry = OpLabel
%mpA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %uint_0
%mpB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %uint_0
%mpC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
%ma = OpCooperativeMatrixLoadKHR %matA %mpA %rowMajor %ld None
%mb = OpCooperativeMatrixLoadKHR %matB %mpB %colMajor %ld None
%md = OpCooperativeMatrixMulAddKHR %matC %ma %mb %zeroC
OpCooperativeMatrixStoreKHR %mpC %md %rowMajor %ld None
OpReturn
OpFunctionEnd
)")));
}

// The output row pitch from gl_NumWorkGroups.x * 16.
TEST(UniformityClean, StrideFromNumWorkgroups) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kPointers) + R"(
%nwg_x_p = OpAccessChain %_ptr_Input_uint %gl_NumWorkGroups %uint_0
%nx = OpLoad %uint %nwg_x_p
%pitch = OpIMul %uint %nx %uint_16
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %pitch None
OpReturn
)"))));
}

// if (gl_LocalInvocationID.x == 0) flag = 1; ... the multiply after the merge is reconverged.
TEST(UniformityClean, DivergentBranchReconvergesBeforeCoopOp) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%first = OpIEqual %bool %lx %uint_0
OpSelectionMerge %merge None
OpBranchConditional %first %then %merge
%then = OpLabel
%flag = OpAccessChain %_ptr_StorageBuffer_uint %bufI %int_0 %uint_0
OpStore %flag %uint_1
OpBranch %merge
%merge = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// stride = pc.flag != 0 ? pc.lda : 16.
TEST(UniformityClean, SelectOnUniformCondition) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kLda) + std::string(kPointers) + R"(
%flag_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_3
%flag = OpLoad %uint %flag_p
%transposed = OpINotEqual %bool %flag %uint_0
%stride = OpSelect %uint %transposed %lda %uint_16
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %stride None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// The stride from a uniform buffer nothing writes.
TEST(UniformityClean, StrideFromUniformBuffer) {
  EXPECT_CLEAN(Check(Module(Main(std::string(kPointers) + R"(
%s_p = OpAccessChain %_ptr_Uniform_uint %ubo %int_0
%stride = OpLoad %uint %s_p
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %stride None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %stride None
OpReturn
)"))));
}

// glslang: uint stride; if (pc.flag != 0) stride = pc.lda; else stride = 16;
TEST(UniformityClean, FunctionVariableAssignedUnderUniformBranch) {
  EXPECT_CLEAN(Check(Module(Main(R"(
%stride_v = OpVariable %_ptr_Function_uint Function
)" + std::string(kLda) + std::string(kPointers) +
                                 R"(
%flag_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_3
%flag = OpLoad %uint %flag_p
%transposed = OpINotEqual %bool %flag %uint_0
OpSelectionMerge %merge None
OpBranchConditional %transposed %then %else
%then = OpLabel
OpStore %stride_v %lda
OpBranch %merge
%else = OpLabel
OpStore %stride_v %uint_16
OpBranch %merge
%merge = OpLabel
%stride = OpLoad %uint %stride_v
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %stride None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"))));
}

// for (uint i = 0; i < acc.length(); ++i) acc[i] *= 2.0; (per-element update in uniform control
// flow; each invocation updates the elements it owns).
TEST(UniformityClean, ElementwiseLoopOverMatrixLength) {
  EXPECT_CLEAN(Check(Module(Main(R"(
%acc_v = OpVariable %_ptr_Function_matC Function
%i_v = OpVariable %_ptr_Function_uint Function
)" + std::string(kPointers) + R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpStore %acc_v %d
OpStore %i_v %uint_0
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %latch None
OpBranch %cond
%cond = OpLabel
%i = OpLoad %uint %i_v
%len = OpCooperativeMatrixLengthKHR %uint %matC
%more = OpULessThan %bool %i %len
OpBranchConditional %more %body %exit
%body = OpLabel
%i2 = OpLoad %uint %i_v
%ep = OpAccessChain %_ptr_Function_float %acc_v %i2
%e = OpLoad %float %ep
%e2 = OpFMul %float %e %float_2
OpStore %ep %e2
OpBranch %latch
%latch = OpLabel
%i3 = OpLoad %uint %i_v
%i_next = OpIAdd %uint %i3 %uint_1
OpStore %i_v %i_next
OpBranch %header
%exit = OpLabel
%res = OpLoad %matC %acc_v
OpCooperativeMatrixStoreKHR %pC %res %rowMajor %uint_16 None
OpReturn
)"))));
}

// ------------------------------------------------------------------------------------------
// Data is not proof. Reduced from ggml's flash attention (cm1): `float m = -inf; for (idx ...)
// if (idx + tid < n) m = max(m, mask[idx + tid]); ... if (m <= -inf) continue;` -- the mask
// values are data read at per-invocation addresses, written to a Function variable under
// divergent control. Whether the branch diverges depends on the data; the analysis used to call
// it divergent (an error on every cooperative instruction after it). Unproven is right.
// `float m = 0; if (lid.x < 16) { <then_store> } if (m <= 0) return; <multiply>`.
std::string StoredUnderDivergentBranch(const std::string& then_store) {
  return Module(Main(R"(
%m_v = OpVariable %_ptr_Function_float Function
)" + std::string(kLid) +
                     std::string(kPointers) +
                     R"(
OpStore %m_v %float_0
%inb = OpULessThan %bool %lx %uint_16
OpSelectionMerge %merge None
OpBranchConditional %inb %then %merge
%then = OpLabel
)" + then_store + R"(
OpBranch %merge
%merge = OpLabel
%m = OpLoad %float %m_v
%skip = OpFOrdLessThanEqual %bool %m %float_0
OpSelectionMerge %end None
OpBranchConditional %skip %end %work
%work = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpBranch %end
%end = OpLabel
OpReturn
)"));
}

TEST(UniformityData, DataStoredUnderDivergentControlIsUnproven) {
  const Result r = Check(
      StoredUnderDivergentBranch("%src = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %lx\n"
                                 "%x = OpLoad %float %src\nOpStore %m_v %x"));
  EXPECT_TRUE(r.valid) << Dump(r);
  EXPECT_FALSE(HasUniformityError(r)) << Dump(r);
  EXPECT_TRUE(RuleAt(r, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR",
                     "control flow not proven uniform"));
  // One warning for the one root cause, at its first use, counting the others.
  EXPECT_EQ(r.num_warnings, 1u) << Dump(r);
  EXPECT_TRUE(RuleAt(r, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR",
                     "3 more cooperative operands or instructions depend on the same source"))
      << Dump(r);
}

// The same shape with a constant stored on the divergent path and another before: the values
// are known and differ, so the branch is proven divergent.
TEST(UniformityData, ConstantStoredUnderDivergentControlIsAnError) {
  const Result r = Check(StoredUnderDivergentBranch("OpStore %m_v %float_2"));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.control", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId"}));
}

// A matrix whose elements all hold one value (built from one uniform scalar): reading an element
// is as uniform as the scalar. Reduced from ggml's flash attention (cm2), which branches on
// element 0 of a Row|Column reduction.
TEST(UniformityClean, ElementOfReplicatedMatrixAsStride) {
  const Result r = Check(Module(Main(R"(
%acc_v = OpVariable %_ptr_Function_matC Function
)" + std::string(kLda) + std::string(kPointers) +
                                     R"(
%f = OpConvertUToF %float %lda
%rep = OpCompositeConstruct %matC %f
OpStore %acc_v %rep
%e0 = OpAccessChain %_ptr_Function_float %acc_v %uint_0
%e = OpLoad %float %e0
%stride = OpConvertFToU %uint %e
%x = OpCompositeExtract %float %rep 3
%stride2 = OpConvertFToU %uint %x
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %stride2 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_CLEAN(r);
}

// The same read from a variable that also holds a multiply's result: per invocation again.
TEST(UniformityBug, ElementOfMatrixVariableAlsoHoldingMulAddResult) {
  const Result r = Check(Module(Main(R"(
%acc_v = OpVariable %_ptr_Function_matC Function
)" + std::string(kLda) + std::string(kPointers) +
                                     R"(
%f = OpConvertUToF %float %lda
%rep = OpCompositeConstruct %matC %f
OpStore %acc_v %rep
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %rep
OpStore %acc_v %d
%e0 = OpAccessChain %_ptr_Function_float %acc_v %uint_0
%e = OpLoad %float %e0
%stride = OpConvertFToU %uint %e
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %stride None
OpReturn
)")));
  EXPECT_TRUE(
      ReportsFirst(r, {"uniformity.operand", "OpCooperativeMatrixStoreKHR %pC", "%stride"}));
}

// ------------------------------------------------------------------------------------------
// Workgroup memory read at addresses that are not uniform (issue 33). Loads of one location
// agree; loads of locations that differ per invocation (or per subgroup) read what was stored
// there: per-invocation data makes them divergent, one value in every location uniform, any
// other data unproven. %sh holds 64 uints, one per invocation.

constexpr std::string_view kAvailable = " MakePointerAvailable|NonPrivatePointer %uint_2\n";
constexpr std::string_view kVisible = " MakePointerVisible|NonPrivatePointer %uint_2\n";

// `writes` into %sh, a barrier, then `reads` leaving the offset of A's tile in %off. `w` is "w"
// for Workgroup-scope matrices; `functions` follow main.
std::string SlotModule(const std::string& writes, const std::string& reads,
                       const std::string& w = "", const std::string& functions = "") {
  // The multiply, on Subgroup- or Workgroup-scope matrices.
  std::string multiply = R"(%pO = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %off
%a = OpCooperativeMatrixLoadKHR %WmatA %pO %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %WmatB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %WmatC %a %b %WzeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)";
  for (size_t at; (at = multiply.find("%W")) != std::string::npos;) {
    multiply.replace(at, 2, "%" + w);
  }
  const std::string body = std::string(kLid) + std::string(kLda) + std::string(kPointers) +
                           "%sg = OpLoad %uint %gl_SubgroupID\n"
                           "%lane = OpLoad %uint %gl_SubgroupInvocationID\n" +
                           writes + "OpControlBarrier %uint_2 %uint_2 %uint_264\n" + reads +
                           multiply;
  std::string text = Module(Main(body) + functions, R"(%_arr_uint_64 = OpTypeArray %uint %uint_64
%_ptr_Workgroup_slots = OpTypePointer Workgroup %_arr_uint_64
%sh = OpVariable %_ptr_Workgroup_slots Workgroup
)");
  const std::string interface = "%pc %shA %shU";
  text.insert(text.find(interface) + interface.size(), " %sh");
  return text;
}

// More invocations than any subgroup has (128): subgroup-uniform is then provably not
// workgroup-uniform.
std::string WithLargeWorkgroup(const std::string& text) {
  return Mutate(text, "OpExecutionMode %main LocalSize 64 1 1",
                "OpExecutionMode %main LocalSize 256 1 1");
}

// sh[lid] = <value>; the store's pointer is %mine.
std::string StoreOwnSlot(const std::string& value) {
  return "%mine = OpAccessChain %_ptr_Workgroup_uint %sh %lx\nOpStore %mine " + value +
         std::string(kAvailable);
}

// %off = sh[<index>].
std::string ReadSlot(const std::string& index) {
  return "%back = OpAccessChain %_ptr_Workgroup_uint %sh " + index + "\n%off = OpLoad %uint %back" +
         std::string(kVisible);
}

// The issue's kernel: sh[gl_LocalInvocationID.x] = gl_LocalInvocationID.x * 16; barrier();
// coopMatLoad(a, A, sh[gl_LocalInvocationID.x], ...). Each invocation reads back its own value.
// It was only unproven (a warning): what was stored at the per-invocation addresses was not
// looked at.
TEST(UniformityBug, OffsetReadBackFromOwnWorkgroupSlot) {
  const std::string writes = "%v = OpIMul %uint %lx %uint_16\n" + StoreOwnSlot("%v");
  const Result r = Check(SlotModule(writes, ReadSlot("%lx")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "%off = OpLoad, per-invocation data read back at an address that "
                               "differs per invocation",
                               "%pO"}));
  const Result w = Check(SlotModule(writes, ReadSlot("%lx"), "w"));
  EXPECT_TRUE(ReportsFirst(
      w, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "%off = OpLoad", "%pO"}));
  EXPECT_NE(w.diagnostics.front().message.find("within the workgroup"), std::string::npos);
}

// Another invocation's value (sh[lid ^ 1]) differs per invocation too.
TEST(UniformityBug, OffsetReadFromNeighbourSlot) {
  const Result r = Check(SlotModule("%v = OpIMul %uint %lx %uint_16\n" + StoreOwnSlot("%v"),
                                    "%nb = OpBitwiseXor %uint %lx %uint_1\n" + ReadSlot("%nb")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "%off = OpLoad", "%pO"}));
}

// Every invocation stores the same value into its slot: whichever slot an invocation reads holds
// that value. A constant, or a uniform value computed once (the push constant lda).
TEST(UniformityClean, SameUniformValueInEverySlot) {
  EXPECT_CLEAN(Check(SlotModule(StoreOwnSlot("%uint_16"), ReadSlot("%lx"))));
  EXPECT_CLEAN(Check(SlotModule(StoreOwnSlot("%lda"), ReadSlot("%lx"), "w")));
}

// if (lid < 32) sh[lid] = 16; else sh[lid] = 32: uniform values, but not one value in every
// slot. Whether the reads differ depends on which slots they read: unproven.
TEST(UniformityData, DifferentConstantsInDifferentSlotsAreUnproven) {
  const Result r = Check(SlotModule(std::string(R"(%low = OpULessThan %bool %lx %uint_32
%mine = OpAccessChain %_ptr_Workgroup_uint %sh %lx
OpSelectionMerge %written None
OpBranchConditional %low %w16 %w32
%w16 = OpLabel
OpStore %mine %uint_16)") + std::string(kAvailable) +
                                        R"(OpBranch %written
%w32 = OpLabel
OpStore %mine %uint_32)" + std::string(kAvailable) +
                                        "OpBranch %written\n%written = OpLabel\n",
                                    ReadSlot("%lx")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR",
                               "%off = OpLoad, data read at an address that differs per "
                               "invocation"}));
  ExpectOnly(r, "uniformity.unproven");
}

// for (k = 0; k < 64; ++k) sh[k] = k: one store of a uniform value, but the value differs per
// iteration, so per slot.
TEST(UniformityData, UniformValuesThatDifferPerSlotAreUnproven) {
  const Result r = Check(SlotModule(std::string(R"(OpBranch %head
%head = OpLabel
%k = OpPhi %uint %uint_0 %entry %k1 %latch
OpLoopMerge %done %latch None
OpBranch %body
%body = OpLabel
%slot = OpAccessChain %_ptr_Workgroup_uint %sh %k
OpStore %slot %k)") + std::string(kAvailable) +
                                        R"(OpBranch %latch
%latch = OpLabel
%k1 = OpIAdd %uint %k %uint_1
%more = OpULessThan %bool %k1 %uint_64
OpBranchConditional %more %head %done
%done = OpLabel
)",
                                    ReadSlot("%lx")));
  EXPECT_TRUE(RuleAt(r, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR", "%off = OpLoad"));
  ExpectOnly(r, "uniformity.unproven");
}

// if (gl_LocalInvocationID.x < 16) sh[lid] = lid: the slots written under the guard hold
// per-invocation data.
TEST(UniformityBug, SlotsWrittenUnderGuardReadPerInvocation) {
  const std::string guard = R"(%few = OpULessThan %bool %lx %uint_16
OpSelectionMerge %written None
OpBranchConditional %few %write %written
%write = OpLabel
)";
  const Result r = Check(SlotModule(
      guard + StoreOwnSlot("%lx") + "OpBranch %written\n%written = OpLabel\n", ReadSlot("%lx")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "%off = OpLoad", "%pO"}));
  // One constant under the guard: the invocations past 16 read slots nobody wrote. Unproven.
  const Result c =
      Check(SlotModule(guard + StoreOwnSlot("%uint_16") + "OpBranch %written\n%written = OpLabel\n",
                       ReadSlot("%lx")));
  EXPECT_TRUE(RuleAt(c, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR", "%off = OpLoad"));
  ExpectOnly(c, "uniformity.unproven");
}

// if (gl_SubgroupInvocationID == 0) sh[gl_SubgroupID] = <value>: one slot per subgroup, written
// by its first invocation.
std::string StoreSubgroupSlot(const std::string& value) {
  return R"(%first = OpIEqual %bool %lane %uint_0
%own = OpAccessChain %_ptr_Workgroup_uint %sh %sg
OpSelectionMerge %written None
OpBranchConditional %first %write %written
%write = OpLabel
OpStore %own )" +
         value + std::string(kAvailable) + "OpBranch %written\n%written = OpLabel\n";
}
constexpr std::string_view kSubgroupValue =
    "%sgv = OpGroupNonUniformBroadcastFirst %uint %uint_3 %lx\n";

// Each subgroup reads its own slot, holding a per-subgroup value: the same within the subgroup
// (enough for Subgroup-scope matrices), not across the workgroup (an error for Workgroup scope
// once the workgroup is larger than a subgroup can be, unproven below that).
TEST(UniformityBug, WorkgroupScopeOffsetFromSubgroupSlots) {
  const std::string writes = std::string(kSubgroupValue) + StoreSubgroupSlot("%sgv");
  EXPECT_CLEAN(Check(SlotModule(writes, ReadSlot("%sg"))));
  const Result large = Check(WithLargeWorkgroup(SlotModule(writes, ReadSlot("%sg"), "w")));
  EXPECT_TRUE(ReportsFirst(
      large, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "SubgroupId", "%pO"}));
  EXPECT_NE(large.diagnostics.front().message.find("subgroup-uniform"), std::string::npos);
  const Result small = Check(SlotModule(writes, ReadSlot("%sg"), "w"));
  EXPECT_TRUE(ReportsFirst(
      small, {"uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR", "SubgroupId", "%pO"}));
}

// A subgroup reading another subgroup's slot (sh[(gl_SubgroupID + 1) % 4]) reads one location:
// subgroup-uniform, like its own.
TEST(UniformityBug, OffsetFromAnotherSubgroupSlot) {
  const std::string writes = std::string(kSubgroupValue) + StoreSubgroupSlot("%sgv");
  const std::string reads =
      "%sg1 = OpIAdd %uint %sg %uint_1\n"
      "%next = OpBitwiseAnd %uint %sg1 %uint_3\n" +
      ReadSlot("%next");
  EXPECT_CLEAN(Check(SlotModule(writes, reads)));
  EXPECT_TRUE(
      ReportsFirst(Check(WithLargeWorkgroup(SlotModule(writes, reads, "w"))),
                   {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "SubgroupId", "%pO"}));
}

// Each invocation of a subgroup reading another subgroup's slot (sh[gl_SubgroupInvocationID]):
// the per-subgroup values may differ within the subgroup, or not. Unproven.
TEST(UniformityData, SubgroupSlotsReadPerInvocationAreUnproven) {
  const Result r =
      Check(SlotModule(std::string(kSubgroupValue) + StoreSubgroupSlot("%sgv"), ReadSlot("%lane")));
  EXPECT_TRUE(RuleAt(r, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR", "%off = OpLoad"));
  ExpectOnly(r, "uniformity.unproven");
}

// Every subgroup's slot holds the push constant lda: uniform in the whole workgroup. It was an
// error for Workgroup-scope matrices (the per-subgroup address taken for per-subgroup data).
// Slots written twice (16, then 32) all end up holding 32, but the analysis sees two values
// stored: unproven, not an error.
TEST(UniformityClean, UniformValueInSubgroupSlots) {
  EXPECT_CLEAN(
      Check(WithLargeWorkgroup(SlotModule(StoreSubgroupSlot("%lda"), ReadSlot("%sg"), "w"))));
  const std::string two =
      StoreSubgroupSlot("%uint_16" + std::string(kAvailable) + "OpStore %own %uint_32");
  const Result r = Check(WithLargeWorkgroup(SlotModule(two, ReadSlot("%sg"), "w")));
  EXPECT_TRUE(RuleAt(r, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR",
                     "%off = OpLoad, data read at an address that differs per subgroup"));
  ExpectOnly(r, "uniformity.unproven");
}

// atomicAdd(sh[lid], lid) after sh[lid] = 16: what an atomic leaves in memory is not followed.
// atomicAdd(sh[0], lid) read back at sh[0]: one location, uniform.
TEST(UniformityData, AtomicallyUpdatedSlotsAreUnproven) {
  const Result r = Check(
      SlotModule(StoreOwnSlot("%uint_16") + "%old = OpAtomicIAdd %uint %mine %uint_2 %uint_0 %lx\n",
                 ReadSlot("%lx")));
  EXPECT_TRUE(RuleAt(r, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR", "%off = OpLoad"));
  ExpectOnly(r, "uniformity.unproven");
  EXPECT_CLEAN(
      Check(SlotModule("%slot0 = OpAccessChain %_ptr_Workgroup_uint %sh %uint_0\n"
                       "%old = OpAtomicIAdd %uint %slot0 %uint_2 %uint_0 %lx\n",
                       ReadSlot("%uint_0"))));
}

// uint rd(uint i) { return sh[i]; } called from two places (summarized): what it reads at
// rd(gl_LocalInvocationID.x) is as uniform as the slots' data. A divergent stride for slots of
// per-invocation data, clean for one value in every slot, unproven for other uniform data (both
// used to be errors: the call's argument was taken for the value read).
std::string SlotReader(const std::string& writes) {
  return SlotModule(writes,
                    "%o1 = OpFunctionCall %uint %rd %lx\n%o0 = OpFunctionCall %uint %rd %uint_0\n"
                    "%off = OpIAdd %uint %o1 %o0\n",
                    "",
                    R"(%rd = OpFunction %uint None %fn_uint_uint
%ri = OpFunctionParameter %uint
%rd_entry = OpLabel
%rp = OpAccessChain %_ptr_Workgroup_uint %sh %ri
%rv = OpLoad %uint %rp)" +
                        std::string(kVisible) + "OpReturnValue %rv\nOpFunctionEnd\n");
}

TEST(UniformityBug, HelperReadsPerInvocationSlot) {
  const Result r = Check(SlotReader("%v = OpIMul %uint %lx %uint_16\n" + StoreOwnSlot("%v")));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId", "%pO"}));
}

TEST(UniformityClean, HelperReadsSlotsHoldingOneValue) {
  EXPECT_CLEAN(Check(SlotReader(StoreOwnSlot("%lda"))));
}

TEST(UniformityData, HelperReadsSlotsOfOtherUniformData) {
  const Result r = Check(SlotReader(StoreOwnSlot("%lda") +
                                    "%slot0 = OpAccessChain "
                                    "%_ptr_Workgroup_uint %sh %uint_0\nOpStore %slot0 %uint_16" +
                                    std::string(kAvailable)));
  EXPECT_TRUE(RuleAt(r, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR", "%ri"));
  ExpectOnly(r, "uniformity.unproven");
}

// ------------------------------------------------------------------------------------------
// Suppression and promotion of the uniformity.unproven warning.

// The stride is read from a buffer at a per-invocation index: the values there may or may not
// be equal, so it is not provably uniform (a warning, not an error).
const std::string& Unproven() {
  static const std::string text = Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%slot = OpAccessChain %_ptr_StorageBuffer_uint %bufI %int_0 %lx
%stride = OpLoad %uint %slot
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"));
  return text;
}

TEST(UniformityOptions, UnprovenIsAWarningByDefault) {
  const Result r = Check(Unproven());
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR",
                               "%stride = OpLoad, data read at an address that differs per "
                               "invocation"}));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(r.num_errors, 0u);
  EXPECT_GE(r.num_warnings, 1u);
}

// A value read at a per-invocation address of a buffer nobody writes: unproven, not divergent.
TEST(UniformityData, LoadAtDivergentAddressIsUnproven) {
  const Result r = Check(Unproven());
  EXPECT_TRUE(r.valid) << Dump(r);
  ExpectOnly(r, "uniformity.unproven");
}

TEST(UniformityOptions, SuppressedUnprovenIsDropped) {
  Options options;
  options.suppressed_rules = {"uniformity.unproven"};
  EXPECT_CLEAN(Check(Unproven(), options));
}

TEST(UniformityOptions, UnprovenAsErrorMakesTheModuleInvalid) {
  Options options;
  options.warnings_as_errors = {"uniformity.unproven"};
  const Result r = Check(Unproven(), options);
  EXPECT_FALSE(r.valid);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_STREQ(r.diagnostics.front().rule->id, "uniformity.unproven");
  EXPECT_EQ(r.diagnostics.front().severity, Severity::kError);
  EXPECT_EQ(r.num_warnings, 0u);
  EXPECT_GE(r.num_errors, 1u);
}

// Suppressing the warning leaves errors of the other uniformity rules alone.
TEST(UniformityOptions, SuppressingUnprovenKeepsErrors) {
  Options options;
  options.suppressed_rules = {"uniformity.unproven"};
  const Result r = Check(Mutate(Unproven(), "%stride = OpLoad %uint %slot",
                                "%stride = OpLoad %uint %gl_LocalInvocationIndex"),
                         options);
  EXPECT_FALSE(r.valid);
  EXPECT_RULE(r, "uniformity.operand");
}

// ------------------------------------------------------------------------------------------
// The realistic corpus: no uniformity diagnostic in any module.

struct CorpusEntry {
  std::string file;
  std::string env;
};

std::vector<CorpusEntry> ReadManifest() {
  std::istringstream in(ReadFile("test/data/corpus/MANIFEST.tsv"));
  std::vector<CorpusEntry> entries;
  std::string line;
  std::getline(in, line);  // Header.
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    CorpusEntry e;
    std::string bytes, version;
    std::getline(fields, e.file, '\t');
    std::getline(fields, bytes, '\t');
    std::getline(fields, version, '\t');
    std::getline(fields, e.env, '\t');
    if (!e.file.empty()) entries.push_back(e);
  }
  return entries;
}

TEST(UniformityCorpus, NoUniformityDiagnostics) {
  const auto entries = ReadManifest();
  ASSERT_GE(entries.size(), 29u);
  for (const CorpusEntry& e : entries) {
    SCOPED_TRACE(e.file + " (" + e.env + ")");
    const std::string text = ReadFile("test/data/corpus/" + e.file);
    ASSERT_FALSE(text.empty());
    const Result r = ValidateText(text, e.env);
    for (const Diagnostic& d : r.diagnostics) {
      EXPECT_FALSE(IsUniformityRule(d)) << d.rule->id << ": " << d.message;
    }
  }
}

// The analysis does run on the corpus: the Workgroup-scope shared-memory GEMM with its A tile's
// stride replaced by gl_LocalInvocationIndex is an error.
TEST(UniformityCorpus, DivergentStrideInWorkgroupGemmIsAnError) {
  const std::string text = ReadFile("test/data/corpus/khr_workgroup_shared_bda.spvasm");
  ASSERT_FALSE(text.empty());
  const Result r = ValidateText(Mutate(text,
                                       "%173 = OpCooperativeMatrixLoadKHR %168 %171 %int_0 %172 "
                                       "MakePointerVisible|NonPrivatePointer %uint_2",
                                       "%173 = OpCooperativeMatrixLoadKHR %168 %171 %int_0 %112 "
                                       "MakePointerVisible|NonPrivatePointer %uint_2"),
                                "vulkan1.3");
  // The assembler renumbers the ids, so match the instruction by its shape.
  EXPECT_FALSE(r.valid);
  ASSERT_FALSE(r.diagnostics.empty());
  const Diagnostic& d = r.diagnostics.front();
  EXPECT_STREQ(d.rule->id, "uniformity.operand") << Dump(r);
  EXPECT_EQ(d.severity, Severity::kError);
  EXPECT_NE(d.instruction_text.find("= OpCooperativeMatrixLoadKHR"), std::string::npos) << Dump(r);
  EXPECT_NE(d.instruction_text.find("MakePointerVisible|NonPrivatePointer"), std::string::npos);
  EXPECT_NE(d.message.find("LocalInvocationIndex"), std::string::npos) << Dump(r);
  EXPECT_NE(d.message.find("within the workgroup"), std::string::npos) << Dump(r);
}

// ------------------------------------------------------------------------------------------
// Known false negatives (bugs the analysis misses) and false positives (correct code it
// rejects). Each asserts the right behaviour and is disabled until the analysis handles it.

// FALSE NEGATIVE. uint stride = uint(acc[0]): the components of a cooperative matrix are spread
// over the invocations ("the mapping of components to invocations is implementation-
// dependent"), so element 0 differs per invocation even when the matrix is uniform. The
// analysis gives OpCompositeExtract (and loads through an access chain into a matrix variable)
// the level of the matrix.
TEST(UniformityKnownIssue, MatrixElementAsStride) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
%e = OpCompositeExtract %float %d 0
%stride = OpConvertFToU %uint %e
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %stride None
OpReturn
)")));
  EXPECT_TRUE(HasUniformityError(r)) << Dump(r);
}

// FALSE NEGATIVE. if (subgroupInverseBallot(uvec4(0xFFFF, 0, 0, 0))) { coopMatLoad... }:
// OpGroupNonUniformInverseBallot is true in some lanes only, but the analysis treats every
// OpGroupNonUniform* without a GroupOperation as subgroup-uniform unless it is in its short
// list (Elect, Shuffle*, QuadBroadcast, QuadSwap, BallotBitExtract).
TEST(UniformityKnownIssue, InverseBallotCondition) {
  const Result r = Check(Module(Main(std::string(kPointers) + R"(
%lanes = OpGroupNonUniformInverseBallot %bool %uint_3 %lowmask
OpSelectionMerge %merge None
OpBranchConditional %lanes %then %merge
%then = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpBranch %merge
%merge = OpLabel
OpReturn
)"),
                                "%lowmask = OpConstantComposite %v4uint %uint_65535 %uint_0 "
                                "%uint_0 %uint_0\n"));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.control", "%a = OpCooperativeMatrixLoadKHR",
                               "OpGroupNonUniformInverseBallot"}));
}

// FALSE NEGATIVE. stride = subgroupRotate(per_lane_value_of_lane_0..., 1): like a shuffle, the
// rotated value differs per lane; OpGroupNonUniformRotateKHR is classified subgroup-uniform.
TEST(UniformityKnownIssue, RotateResultAsStride) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
%perlane = OpIAdd %uint %lx %uint_16
%stride = OpGroupNonUniformRotateKHR %uint %uint_3 %perlane %uint_1
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)"),
                                "",
                                "OpCapability GroupNonUniformRotateKHR\n"
                                "OpExtension \"SPV_KHR_subgroup_rotate\"\n"));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "OpGroupNonUniformRotateKHR", "%stride"}));
}

// FALSE NEGATIVE. As ValueFromLoopWithDivergentExitUsedAfterLoop, but the cooperative load's
// stride is computed *after* the loop from the value the loop left (stride = i * 16 + 16, in
// SSA form as spirv-opt produces it). The "defined in a divergent region, used outside it" rule
// only looks at the cooperative instruction's direct operands, so the derived value is uniform.
TEST(UniformityKnownIssue, ValueDerivedAfterLoopWithDivergentExit) {
  const Result r = Check(Module(Main(std::string(kLid) + std::string(kPointers) + R"(
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %i_next %latch
OpLoopMerge %exit %latch None
OpBranch %body
%body = OpLabel
%found = OpUGreaterThanEqual %bool %i %lx
OpSelectionMerge %cont None
OpBranchConditional %found %brk %cont
%brk = OpLabel
OpBranch %exit
%cont = OpLabel
OpBranch %latch
%latch = OpLabel
%i_next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
%scaled = OpIMul %uint %i %uint_16
%stride = OpIAdd %uint %scaled %uint_16
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationId", "%stride"}));
}

// Was a false error. if (gl_LocalInvocationIndex == 0) shared_ld = pc.lda; barrier(); stride =
// shared_ld; -- one invocation writes to shared memory and everyone reads the same location
// after the barrier. Loads of one location of shared memory give every invocation the same
// value (anything else is a data race), so the stride is uniform.
TEST(UniformityClean, SingleWriterSharedBroadcast) {
  const Result r = Check(Module(Main(std::string(kLda) + std::string(kPointers) + R"(
%lidx = OpLoad %uint %gl_LocalInvocationIndex
%first = OpIEqual %bool %lidx %uint_0
OpSelectionMerge %merge None
OpBranchConditional %first %then %merge
%then = OpLabel
OpStore %shU %lda MakePointerAvailable|NonPrivatePointer %uint_2
OpBranch %merge
%merge = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
%stride = OpLoad %uint %shU MakePointerVisible|NonPrivatePointer %uint_2
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %stride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_CLEAN(r);
}

// Was a false error. One Function variable reused: `uint i; for (i = lid; i < 256; i += 64)
// stage(i); barrier(); for (i = 0; i < pc.n; i += 16) mulAdd(...)`. With memory tracked
// flow-insensitively the second loop's counter was "divergent" and its multiply a proven control
// error; the store of 0 now hides the first loop's stores from it.
TEST(UniformityKnownIssue, ReusedLoopCounterVariable) {
  const Result r = Check(Module(Main(R"(
%i_v = OpVariable %_ptr_Function_uint Function
%acc_v = OpVariable %_ptr_Function_matC Function
)" + std::string(kPointers) + R"(
OpStore %acc_v %zeroC
%lidx = OpLoad %uint %gl_LocalInvocationIndex
OpStore %i_v %lidx
OpBranch %h1
%h1 = OpLabel
OpLoopMerge %x1 %l1 None
OpBranch %c1
%c1 = OpLabel
%i = OpLoad %uint %i_v
%more1 = OpULessThan %bool %i %uint_256
OpBranchConditional %more1 %b1 %x1
%b1 = OpLabel
%src = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %i
%h = OpLoad %half %src
%dst = OpAccessChain %_ptr_Workgroup_half %shA %i
OpStore %dst %h MakePointerAvailable|NonPrivatePointer %uint_2
OpBranch %l1
%l1 = OpLabel
%i_next = OpIAdd %uint %i %uint_64
OpStore %i_v %i_next
OpBranch %h1
%x1 = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
OpStore %i_v %uint_0
OpBranch %h2
%h2 = OpLabel
OpLoopMerge %x2 %l2 None
OpBranch %c2
%c2 = OpLabel
%k = OpLoad %uint %i_v
%n_p = OpAccessChain %_ptr_PushConstant_uint %pc %int_2
%n = OpLoad %uint %n_p
%more2 = OpULessThan %bool %k %n
OpBranchConditional %more2 %b2 %x2
%b2 = OpLabel
%pS = OpAccessChain %_ptr_Workgroup_half %shA %k
%a = OpCooperativeMatrixLoadKHR %matA %pS %rowMajor %uint_16 MakePointerVisible|NonPrivatePointer %uint_2
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%c = OpLoad %matC %acc_v
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c
OpStore %acc_v %d
OpBranch %l2
%l2 = OpLabel
%k_next = OpIAdd %uint %k %uint_16
OpStore %i_v %k_next
OpBranch %h2
%x2 = OpLabel
%res = OpLoad %matC %acc_v
OpCooperativeMatrixStoreKHR %pC %res %rowMajor %uint_16 None
OpReturn
)")));
  EXPECT_CLEAN(r);
}

// Was imprecise. uint index(uint row, uint ld) used both for a per-invocation element
// (index(lid, 16)) and for the tile offset (index(gl_WorkGroupID.y * 16, lda)), as ggml's
// a_shmem_index. Functions called from several places are summarized: the result of each call
// depends on what that call passes.
std::string HelperCalledWithDivergentAndUniformArguments() {
  return Module(Main(std::string(kLid) + std::string(kLda) + R"(
%elem = OpFunctionCall %uint %index %lx %uint_16
%pE = OpAccessChain %_ptr_StorageBuffer_uint %bufI %int_0 %elem
OpStore %pE %uint_0
%wg_y_p = OpAccessChain %_ptr_Input_uint %gl_WorkGroupID %uint_1
%gy = OpLoad %uint %wg_y_p
%row = OpIMul %uint %gy %uint_16
%tileoff = OpFunctionCall %uint %index %row %lda
%pA = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 %tileoff
%pB = OpAccessChain %_ptr_StorageBuffer_half %bufB %int_0 %uint_0
%pC = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 %uint_0
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %lda None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
)") + R"(%index = OpFunction %uint None %fn_uint_uint_uint
%irow = OpFunctionParameter %uint
%ild = OpFunctionParameter %uint
%i_entry = OpLabel
%iprod = OpIMul %uint %irow %ild
OpReturnValue %iprod
OpFunctionEnd
)",
                "%fn_uint_uint_uint = OpTypeFunction %uint %uint %uint\n");
}

TEST(UniformityClean, HelperCalledWithDivergentAndUniformArguments) {
  EXPECT_CLEAN(Check(HelperCalledWithDivergentAndUniformArguments()));
}

// The same helper with the per-invocation row at the call whose result is the tile offset: that
// call passes a divergent value, so the load is a proven error, named after the argument's
// source.
TEST(UniformityBug, HelperCalledWithDivergentArgumentForTheTileOffset) {
  const Result r = Check(Mutate(HelperCalledWithDivergentAndUniformArguments(),
                                "%tileoff = OpFunctionCall %uint %index %row %lda",
                                "%tileoff = OpFunctionCall %uint %index %lx %lda"));
  EXPECT_TRUE(ReportsFirst(
      r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationId", "%pA"}));
}

// A helper doing the multiply itself, called from two places with uniform pointers: clean. The
// same helper called once more with a per-invocation stride is an error inside it.
std::string HelperDoingMulAdd(const char* second_stride) {
  return Module(Main(std::string(kLid) + std::string(kLda) + R"(
%r1 = OpFunctionCall %void %tile %lda
%r2 = OpFunctionCall %void %tile )" +
                     std::string(second_stride) +
                     R"(
OpReturn
)") + R"(%tile = OpFunction %void None %fn_void_uint
%tstride = OpFunctionParameter %uint
%t_entry = OpLabel
)" + std::string(kPointers) +
                R"(%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %tstride None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpReturn
OpFunctionEnd
)");
}

TEST(UniformityClean, HelperDoingMulAddCalledTwiceWithUniformStrides) {
  EXPECT_CLEAN(Check(HelperDoingMulAdd("%uint_16")));
}

// The helper called twice with uniform strides, once of them under a branch on the invocation:
// its multiply runs in control flow that is not proven uniform at that call.
TEST(UniformityBug, HelperDoingMulAddCalledUnderDivergentBranch) {
  const Result r =
      Check(Mutate(HelperDoingMulAdd("%uint_16"), "%r2 = OpFunctionCall %void %tile %uint_16",
                   "%low = OpULessThan %bool %lx %uint_16\n"
                   "OpSelectionMerge %after None\n"
                   "OpBranchConditional %low %call %after\n"
                   "%call = OpLabel\n"
                   "%r2 = OpFunctionCall %void %tile %uint_16\n"
                   "OpBranch %after\n"
                   "%after = OpLabel"));
  EXPECT_TRUE(
      RuleAt(r, "uniformity.unproven", "%a = OpCooperativeMatrixLoadKHR", "not proven uniform"))
      << Dump(r);
}

TEST(UniformityBug, HelperDoingMulAddCalledOnceWithDivergentStride) {
  const Result r = Check(HelperDoingMulAdd("%lx"));
  EXPECT_TRUE(ReportsFirst(r, {"uniformity.operand", "%a = OpCooperativeMatrixLoadKHR",
                               "LocalInvocationId", "%tstride"}));
}

// ------------------------------------------------------------------------------------------
// Workgroup votes (source/val/uniformity_votes.h): a per-invocation value x, each subgroup's vote
// on `x <= k` (or its maximum) stored in a Workgroup slot by one invocation, a barrier, then
// m = max(x, every slot) and a branch on `m <= k`: the branch is the same in the whole workgroup
// ("x <= k everywhere"), although m is not. Here x comes from gl_LocalInvocationIndex, so a
// proof that fails leaves a proven divergent branch around the multiply: an error.

// The globals and interface the vote modules add to the common ones.
std::string VoteModule(const std::string& functions, const std::string& extra_head = "",
                       const std::string& extra_modes = "") {
  std::string text = Module(functions, R"(%float_neg = OpConstant %float -1.70141173e+38
%_arr_float_16 = OpTypeArray %float %uint_16
%_ptr_Workgroup_slots = OpTypePointer Workgroup %_arr_float_16
%_ptr_Workgroup_float = OpTypePointer Workgroup %float
%_ptr_Function_bool = OpTypePointer Function %bool
%sem = OpConstant %uint 264
%tmpsh = OpVariable %_ptr_Workgroup_slots Workgroup
%gl_NumSubgroups = OpVariable %_ptr_Input_uint Input
)",
                            "OpCapability GroupNonUniformVote\n" + extra_head);
  text = Mutate(text, "OpMemoryModel Logical Vulkan",
                "%glsl = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical Vulkan");
  text = Mutate(text, "OpExecutionMode %main LocalSize 64 1 1",
                "OpExecutionMode %main LocalSize 64 1 1\n" + extra_modes);
  text = Mutate(text, "OpDecorate %TILE SpecId 0",
                "OpDecorate %gl_NumSubgroups BuiltIn NumSubgroups\nOpDecorate %TILE SpecId 0");
  const std::string interface = "%bufA %bufB %bufC %bufI %ubo %pc %shA %shU";
  const size_t at = text.find(interface);
  EXPECT_NE(at, std::string::npos);
  text.insert(at + interface.size(), " %tmpsh %gl_NumSubgroups");
  return text;
}

// As glslang writes ggml's "skip a block whose mask is all -inf" without optimization: every
// value in a Function variable.
const std::string& VoteBody() {
  static const std::string body = R"(%x_v = OpVariable %_ptr_Function_float Function
%all_v = OpVariable %_ptr_Function_bool Function
%s_v = OpVariable %_ptr_Function_uint Function
)" + std::string(kPointers) + R"(
%lidx = OpLoad %uint %gl_LocalInvocationIndex
%xf = OpConvertUToF %float %lidx
OpStore %x_v %xf
%x = OpLoad %float %x_v
%le = OpFOrdLessThanEqual %bool %x %float_neg
%all = OpGroupNonUniformAll %bool %uint_3 %le
OpStore %all_v %all
OpControlBarrier %uint_2 %uint_2 %uint_264
%lane = OpLoad %uint %gl_SubgroupInvocationID
%first = OpIEqual %bool %lane %uint_0
OpSelectionMerge %voted None
OpBranchConditional %first %write %voted
%write = OpLabel
%sg = OpLoad %uint %gl_SubgroupID
%allv = OpLoad %bool %all_v
%flag = OpSelect %float %allv %float_neg %float_0
%slot_w = OpAccessChain %_ptr_Workgroup_float %tmpsh %sg
OpStore %slot_w %flag MakePointerAvailable|NonPrivatePointer %uint_2
OpBranch %voted
%voted = OpLabel
OpControlBarrier %uint_2 %uint_2 %sem
OpStore %s_v %uint_0
OpBranch %header
%header = OpLabel
OpLoopMerge %after %latch None
OpBranch %test
%test = OpLabel
%s = OpLoad %uint %s_v
%nsg = OpLoad %uint %gl_NumSubgroups
%more = OpULessThan %bool %s %nsg
OpBranchConditional %more %body %after
%body = OpLabel
%m_old = OpLoad %float %x_v
%s_b = OpLoad %uint %s_v
%slot_r = OpAccessChain %_ptr_Workgroup_float %tmpsh %s_b
%other = OpLoad %float %slot_r MakePointerVisible|NonPrivatePointer %uint_2
%m_new = OpExtInst %float %glsl FMax %m_old %other
OpStore %x_v %m_new
OpBranch %latch
%latch = OpLabel
%s_l = OpLoad %uint %s_v
%s_next = OpIAdd %uint %s_l %uint_1
OpStore %s_v %s_next
OpBranch %header
%after = OpLabel
%m = OpLoad %float %x_v
%skip = OpFOrdLessThanEqual %bool %m %float_neg
OpSelectionMerge %done None
OpBranchConditional %skip %done %work
%work = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpBranch %done
%done = OpLabel
OpReturn
)";
  return body;
}

// A vote module whose proof fails: the multiply is under a branch on x (LocalInvocationIndex).
::testing::AssertionResult VoteNotProven(const Result& r) {
  return ReportsFirst(
      r, {"uniformity.control", "%a = OpCooperativeMatrixLoadKHR", "LocalInvocationIndex"});
}

TEST(UniformityClean, WorkgroupVoteThroughSubgroupSlots) {
  EXPECT_CLEAN(Check(VoteModule(Main(VoteBody()))));
}

// The same idiom in SSA form (OpPhi), with the subgroup's maximum as its slot, subgroupElect()
// as the guard and a strict test.
TEST(UniformityClean, WorkgroupMaximumThroughSubgroupSlotsInSsaForm) {
  EXPECT_CLEAN(Check(VoteModule(Main(std::string(kPointers) + R"(
%lidx = OpLoad %uint %gl_LocalInvocationIndex
%x = OpConvertUToF %float %lidx
%red = OpGroupNonUniformFMax %float %uint_3 Reduce %x
%first = OpGroupNonUniformElect %bool %uint_3
OpSelectionMerge %voted None
OpBranchConditional %first %write %voted
%write = OpLabel
%sg = OpLoad %uint %gl_SubgroupID
%slot_w = OpAccessChain %_ptr_Workgroup_float %tmpsh %sg
OpStore %slot_w %red MakePointerAvailable|NonPrivatePointer %uint_2
OpBranch %voted
%voted = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
OpBranch %header
%header = OpLabel
%acc = OpPhi %float %x %voted %acc_next %latch
%s = OpPhi %uint %uint_0 %voted %s_next %latch
%nsg = OpLoad %uint %gl_NumSubgroups
%more = OpULessThan %bool %s %nsg
OpLoopMerge %after %latch None
OpBranchConditional %more %body %after
%body = OpLabel
%slot_r = OpAccessChain %_ptr_Workgroup_float %tmpsh %s
%other = OpLoad %float %slot_r MakePointerVisible|NonPrivatePointer %uint_2
%acc_next = OpExtInst %float %glsl NMax %other %acc
OpBranch %latch
%latch = OpLabel
%s_next = OpIAdd %uint %s %uint_1
OpBranch %header
%after = OpLabel
%small = OpFOrdLessThan %bool %acc %float_2
OpSelectionMerge %done None
OpBranchConditional %small %work %done
%work = OpLabel
%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %uint_16 None
%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %uint_16 None
%d = OpCooperativeMatrixMulAddKHR %matC %a %b %zeroC
OpCooperativeMatrixStoreKHR %pC %d %rowMajor %uint_16 None
OpBranch %done
%done = OpLabel
OpReturn
)"))));
}

// Writes elsewhere keep the proof: Modf into a Function variable, a cooperative-vector
// accumulate into other Workgroup memory.
TEST(UniformityClean, WorkgroupVoteWithOtherWrites) {
  std::string body = Mutate(VoteBody(), "%s_v = OpVariable %_ptr_Function_uint Function",
                            "%s_v = OpVariable %_ptr_Function_uint Function\n"
                            "%whole_v = OpVariable %_ptr_Function_float Function");
  body = Mutate(body, "OpStore %slot_w %flag MakePointerAvailable|NonPrivatePointer %uint_2",
                "OpStore %slot_w %flag MakePointerAvailable|NonPrivatePointer %uint_2\n"
                "%frac = OpExtInst %float %glsl Modf %float_2 %whole_v\n"
                "OpCooperativeVectorReduceSumAccumulateNV %elsewhere %uint_0 %cv_neg");
  std::string text = VoteModule(Main(body),
                                "OpCapability CooperativeVectorNV\n"
                                "OpCapability CooperativeVectorTrainingNV\n"
                                "OpExtension \"SPV_NV_cooperative_vector\"\n");
  text = Mutate(text, "%gl_NumSubgroups = OpVariable %_ptr_Input_uint Input",
                "%gl_NumSubgroups = OpVariable %_ptr_Input_uint Input\n"
                "%elsewhere = OpVariable %_ptr_Workgroup_slots Workgroup\n"
                "%cvec = OpTypeCooperativeVectorNV %float %uint_1\n"
                "%float_big_neg = OpConstant %float -3e+38\n"
                "%cv_neg = OpConstantComposite %cvec %float_big_neg");
  text =
      Mutate(text,
             "OpEntryPoint GLCompute %main \"main\" %gl_LocalInvocationID "
             "%gl_LocalInvocationIndex %gl_GlobalInvocationID %gl_WorkGroupID %gl_NumWorkGroups "
             "%gl_SubgroupID %gl_SubgroupInvocationID %bufA %bufB %bufC %bufI %ubo %pc %shA %shU "
             "%tmpsh %gl_NumSubgroups",
             "OpEntryPoint GLCompute %main \"main\" "
             "%gl_LocalInvocationID %gl_LocalInvocationIndex %gl_GlobalInvocationID "
             "%gl_WorkGroupID %gl_NumWorkGroups %gl_SubgroupID %gl_SubgroupInvocationID %bufA "
             "%bufB %bufC %bufI %ubo %pc %shA %shU %tmpsh %gl_NumSubgroups %elsewhere");
  EXPECT_CLEAN(Check(text));
}

// Each change breaks one step of the proof; the branch is then divergent (x is per invocation).
struct VoteBreak {
  const char* name;
  const char* anchor;
  const char* replacement;
};

class UniformityVoteBroken : public ::testing::TestWithParam<VoteBreak> {};

TEST_P(UniformityVoteBroken, BranchIsDivergent) {
  const VoteBreak& c = GetParam();
  const Result r = Check(VoteModule(Main(Mutate(VoteBody(), c.anchor, c.replacement))));
  EXPECT_TRUE(VoteNotProven(r));
}

INSTANTIATE_TEST_SUITE_P(
    Steps, UniformityVoteBroken,
    ::testing::Values(
        // The loop misses slot 0 (the first subgroup's vote).
        VoteBreak{"LoopStartsAtOne", "OpStore %s_v %uint_0", "OpStore %s_v %uint_1"},
        // Every other slot.
        VoteBreak{"LoopStepsByTwo", "%s_next = OpIAdd %uint %s_l %uint_1",
                  "%s_next = OpIAdd %uint %s_l %uint_2"},
        // No barrier between the slots' stores and their loads.
        VoteBreak{"NoBarrierAfterTheStores", "OpControlBarrier %uint_2 %uint_2 %sem",
                  "OpMemoryBarrier %uint_2 %sem"},
        // A barrier of the subgroup only.
        VoteBreak{"SubgroupBarrierAfterTheStores", "OpControlBarrier %uint_2 %uint_2 %sem",
                  "OpControlBarrier %uint_3 %uint_2 %sem"},
        // The slot is not the subgroup's.
        VoteBreak{"SlotIndexedByLane", "%slot_w = OpAccessChain %_ptr_Workgroup_float %tmpsh %sg",
                  "%slot_w = OpAccessChain %_ptr_Workgroup_float %tmpsh %lane"},
        // The guard does not let invocation 0 of each subgroup through.
        VoteBreak{"GuardOnLaneOne", "%first = OpIEqual %bool %lane %uint_0",
                  "%first = OpIEqual %bool %lane %uint_1"},
        // The branch tests another threshold than the vote.
        VoteBreak{"OtherThreshold", "%skip = OpFOrdLessThanEqual %bool %m %float_neg",
                  "%skip = OpFOrdLessThanEqual %bool %m %float_0"},
        // The slot says the opposite of the vote.
        VoteBreak{"SelectArmsSwapped", "%flag = OpSelect %float %allv %float_neg %float_0",
                  "%flag = OpSelect %float %allv %float_0 %float_neg"},
        // min does not distribute over <=.
        VoteBreak{"FoldedWithMin", "%m_new = OpExtInst %float %glsl FMax %m_old %other",
                  "%m_new = OpExtInst %float %glsl FMin %m_old %other"},
        // The fold starts from another per-invocation value than the voted one.
        VoteBreak{"FoldStartsElsewhere", "OpStore %s_v %uint_0",
                  "%y = OpFAdd %float %xf %float_2\nOpStore %x_v %y\nOpStore %s_v %uint_0"},
        // A slot is written again while the loop reads them.
        VoteBreak{"SlotWrittenInTheLoop", "OpStore %x_v %m_new",
                  "OpStore %x_v %m_new\nOpStore %slot_r %float_0 "
                  "MakePointerAvailable|NonPrivatePointer %uint_2"},
        // The loop can stop before the last slot.
        VoteBreak{"BreakOutOfTheLoop", "OpBranch %latch",
                  "%stop = OpFOrdGreaterThan %bool %other %float_2\n"
                  "OpBranchConditional %stop %after %latch"},
        // Modf stores the whole part of its operand through its pointer: the first invocation
        // overwrites its subgroup's slot with a passing value after storing the vote (program
        // order, no race), every slot passes and the branch is `x <= k` per invocation.
        VoteBreak{"SlotOverwrittenByModf",
                  "OpStore %slot_w %flag MakePointerAvailable|NonPrivatePointer %uint_2",
                  "OpStore %slot_w %flag MakePointerAvailable|NonPrivatePointer %uint_2\n"
                  "%frac = OpExtInst %float %glsl Modf %float_neg %slot_w"}),
    [](const ::testing::TestParamInfo<VoteBreak>& info) { return std::string(info.param.name); });

// The first invocation adds a large negative number to its subgroup's slot after storing the
// vote (an atomic add into Workgroup memory, ordered after its own store): every slot then
// passes, and the branch is `x <= k` per invocation.
TEST(UniformityBug, WorkgroupVoteSlotAccumulatedIntoByCooperativeVector) {
  std::string text = VoteModule(
      Main(Mutate(VoteBody(),
                  "OpStore %slot_w %flag MakePointerAvailable|NonPrivatePointer %uint_2",
                  "OpStore %slot_w %flag MakePointerAvailable|NonPrivatePointer %uint_2\n"
                  "%offset = OpShiftLeftLogical %uint %sg %uint_2\n"
                  "OpCooperativeVectorReduceSumAccumulateNV %tmpsh %offset %cv_neg")),
      "OpCapability CooperativeVectorNV\nOpCapability CooperativeVectorTrainingNV\n"
      "OpExtension \"SPV_NV_cooperative_vector\"\n");
  text = Mutate(text, "%gl_NumSubgroups = OpVariable %_ptr_Input_uint Input",
                "%gl_NumSubgroups = OpVariable %_ptr_Input_uint Input\n"
                "%cvec = OpTypeCooperativeVectorNV %float %uint_1\n"
                "%float_big_neg = OpConstant %float -3e+38\n"
                "%cv_neg = OpConstantComposite %cvec %float_big_neg");
  EXPECT_TRUE(VoteNotProven(Check(text)));
}

// A callback runs where the instruction naming it runs: here the per-element function, for the
// matrix's element (0, 0) (one invocation of each subgroup, ordered after the vote's store by the
// subgroup barrier), stores a passing value into the subgroup's slot. Every slot then passes, and
// the branch is `x <= k` per invocation.
TEST(UniformityBug, WorkgroupVoteSlotWrittenByCallback) {
  const std::string callback = R"(%poke = OpFunction %float None %fn_uuf_f
%prow = OpFunctionParameter %uint
%pcol = OpFunctionParameter %uint
%pel = OpFunctionParameter %float
%poke_l = OpLabel
%prc = OpBitwiseOr %uint %prow %pcol
%corner = OpIEqual %bool %prc %uint_0
OpSelectionMerge %poke_m None
OpBranchConditional %corner %poke_w %poke_m
%poke_w = OpLabel
%psg = OpLoad %uint %gl_SubgroupID
%pslot = OpAccessChain %_ptr_Workgroup_float %tmpsh %psg
OpStore %pslot %float_neg MakePointerAvailable|NonPrivatePointer %uint_2
OpBranch %poke_m
%poke_m = OpLabel
OpReturnValue %pel
OpFunctionEnd
)";
  std::string text =
      VoteModule(Main(Mutate(VoteBody(), "OpControlBarrier %uint_2 %uint_2 %sem",
                             "OpControlBarrier %uint_3 %uint_3 %sem\n"
                             "%pe = OpCooperativeMatrixPerElementOpEXT %matC %zeroC %poke\n"
                             "OpControlBarrier %uint_2 %uint_2 %sem")) +
                     callback,
                 "OpCapability CooperativeMatrixPerElementOperationsEXT\n"
                 "OpExtension \"SPV_NV_cooperative_matrix2\"\n");
  text = Mutate(text, "%gl_NumSubgroups = OpVariable %_ptr_Input_uint Input",
                "%gl_NumSubgroups = OpVariable %_ptr_Input_uint Input\n"
                "%fn_uuf_f = OpTypeFunction %float %uint %uint %float");
  EXPECT_TRUE(VoteNotProven(Check(text)));
}

// Each vote walks its path to the loop, so n votes in one block would cost n * n steps: the
// prover's work for all votes together is capped linearly in the module (here 3000 votes
// before the real one use it up, and the real one is then not proven).
TEST(UniformityBug, WorkgroupVotesShareALinearBudget) {
  std::string votes;
  for (int k = 0; k < 3000; ++k) {
    votes += "%junk" + std::to_string(k) + " = OpGroupNonUniformAll %bool %uint_3 %le\n";
  }
  const std::string body = Mutate(VoteBody(), "%all = OpGroupNonUniformAll %bool %uint_3 %le",
                                  votes + "%all = OpGroupNonUniformAll %bool %uint_3 %le");
  EXPECT_TRUE(VoteNotProven(Check(VoteModule(Main(body)))));
}

// Vulkan lets any instruction flush a denormal operand or result to zero (unless the entry point
// sets the denormal mode), so a test against zero is not a function of the value: with x = -2^-149
// in one invocation and x = -1 in the others, the vote finds `x < 0` everywhere, but that
// invocation's max(x, slots) = -2^-149 may come out of FMax as -0, and `-0 < 0` is false there
// and true elsewhere.
TEST(UniformityBug, WorkgroupVoteAgainstZero) {
  std::string body = Mutate(VoteBody(), "%le = OpFOrdLessThanEqual %bool %x %float_neg",
                            "%le = OpFOrdLessThan %bool %x %float_0");
  body = Mutate(body, "%skip = OpFOrdLessThanEqual %bool %m %float_neg",
                "%skip = OpFOrdLessThan %bool %m %float_0");
  EXPECT_TRUE(VoteNotProven(Check(VoteModule(Main(body)))));
}

// NaN makes max(x, slot) pick either operand, and the idiom can diverge: where the entry point
// preserves NaN for the width, nothing is proven.
TEST(UniformityBug, WorkgroupVoteWithNanPreserved) {
  const Result r = Check(VoteModule(Main(VoteBody()), "OpCapability SignedZeroInfNanPreserve\n",
                                    "OpExecutionMode %main SignedZeroInfNanPreserve 32\n"));
  EXPECT_TRUE(VoteNotProven(r));
}

// RelaxedPrecision lets the fold run at 16-bit precision: an invocation's x just below k (voted
// `x <= k` everywhere) may come out of a relaxed max(x, slots) rounded to above k, and its branch
// differs from the others'. Relaxed integers (the lane id) keep the proof.
TEST(UniformityBug, WorkgroupVoteWithRelaxedPrecision) {
  const std::string text = VoteModule(Main(VoteBody()));
  EXPECT_TRUE(VoteNotProven(Check(Mutate(text, "OpDecorate %gl_NumSubgroups BuiltIn NumSubgroups",
                                         "OpDecorate %gl_NumSubgroups BuiltIn NumSubgroups\n"
                                         "OpDecorate %m_new RelaxedPrecision"))));
  EXPECT_CLEAN(Check(Mutate(text, "OpDecorate %gl_NumSubgroups BuiltIn NumSubgroups",
                            "OpDecorate %gl_NumSubgroups BuiltIn NumSubgroups\n"
                            "OpDecorate %gl_SubgroupInvocationID RelaxedPrecision\n"
                            "OpDecorate %lane RelaxedPrecision")));
}

// Outside Vulkan (here the universal SPIR-V 1.6 environment) NaN is a value like any other, as
// where it is preserved: with a NaN x in one invocation its subgroup votes "no" (the ordered
// test fails), the others fold that slot's 0 and test false, while that invocation's
// max(NaN, ...) may be NaN, and an unordered test of it is true.
TEST(UniformityBug, WorkgroupVoteOutsideVulkan) {
  Options options;
  options.env = *ParseTargetEnv("spv1.6");
  const std::string body = Mutate(VoteBody(), "%skip = OpFOrdLessThanEqual %bool %m %float_neg",
                                  "%skip = OpFUnordLessThanEqual %bool %m %float_neg");
  EXPECT_TRUE(VoteNotProven(ValidateText(VoteModule(Main(body)), options)));
}

}  // namespace
}  // namespace coopspv::val
