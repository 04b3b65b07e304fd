#include "test/bench/module_generator.h"

#include <algorithm>

namespace coopspv::bench {

std::string GenerateModuleText(size_t blocks) {
  std::string s;
  s.reserve(blocks * 2200 + 8192);
  s += R"(; SPIR-V
; Version: 1.6
; Generator: Khronos Glslang Reference Front End; 11
; Bound: 1
; Schema: 0
               OpCapability Shader
               OpCapability Float16
               OpCapability StorageBuffer16BitAccess
               OpCapability VulkanMemoryModel
               OpCapability CooperativeMatrixKHR
               OpExtension "SPV_KHR_cooperative_matrix"
          %glsl = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical Vulkan
               OpEntryPoint GLCompute %main "main" %gid %bufA %bufC
               OpExecutionMode %main LocalSize 32 1 1
               OpName %main "main"
               OpName %gid "gl_WorkGroupID"
               OpDecorate %gid BuiltIn WorkgroupId
               OpDecorate %_runtimearr_half ArrayStride 2
               OpDecorate %_runtimearr_float ArrayStride 4
               OpDecorate %BufA Block
               OpMemberDecorate %BufA 0 Offset 0
               OpDecorate %BufC Block
               OpMemberDecorate %BufC 0 Offset 0
               OpDecorate %bufA DescriptorSet 0
               OpDecorate %bufA Binding 0
               OpDecorate %bufC DescriptorSet 0
               OpDecorate %bufC Binding 1
               OpDecorate %M SpecId 0
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
       %half = OpTypeFloat 16
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
    %uint_16 = OpConstant %uint 16
    %uint_64 = OpConstant %uint 64
      %int_0 = OpConstant %int 0
    %float_1 = OpConstant %float 1
  %float_0_5 = OpConstant %float 0.5
          %M = OpSpecConstant %uint 16
%_runtimearr_half = OpTypeRuntimeArray %half
%_runtimearr_float = OpTypeRuntimeArray %float
       %BufA = OpTypeStruct %_runtimearr_half
       %BufC = OpTypeStruct %_runtimearr_float
%_ptr_StorageBuffer_BufA = OpTypePointer StorageBuffer %BufA
%_ptr_StorageBuffer_BufC = OpTypePointer StorageBuffer %BufC
%_ptr_StorageBuffer_half = OpTypePointer StorageBuffer %half
%_ptr_StorageBuffer_float = OpTypePointer StorageBuffer %float
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%_ptr_Input_uint = OpTypePointer Input %uint
%_ptr_Function_uint = OpTypePointer Function %uint
       %bufA = OpVariable %_ptr_StorageBuffer_BufA StorageBuffer
       %bufC = OpVariable %_ptr_StorageBuffer_BufC StorageBuffer
        %gid = OpVariable %_ptr_Input_v3uint Input
       %matA = OpTypeCooperativeMatrixKHR %half %uint_3 %M %uint_16 %uint_0
       %matB = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %M %uint_1
       %matC = OpTypeCooperativeMatrixKHR %float %uint_3 %M %M %uint_2
)";
  const size_t per_function = 200;
  const size_t functions = (blocks + per_function - 1) / per_function;
  for (size_t f = 0; f < functions; ++f) {
    const std::string F = "f" + std::to_string(f) + "_";
    s += "%" + F + "fn = OpFunction %void None %fnvoid\n";
    s += "%" + F + "entry = OpLabel\n";
    s += "%" + F + "i = OpVariable %_ptr_Function_uint Function\n";
    s += "OpStore %" + F + "i %uint_0\n";
    s += "%" + F + "gp = OpAccessChain %_ptr_Input_uint %gid %uint_0\n";
    s += "%" + F + "g = OpLoad %uint %" + F + "gp\n";
    s += "OpBranch %" + F + "b0\n";
    const size_t n = std::min(per_function, blocks - f * per_function);
    for (size_t b = 0; b < n; ++b) {
      const std::string P = "%" + F + std::to_string(b) + "_";
      const std::string next = "%" + F + "b" + std::to_string(b + 1);
      s += "%" + F + "b" + std::to_string(b) + " = OpLabel\n";
      s += P + "iv = OpLoad %uint %" + F + "i\n";
      s += P + "cond = OpULessThan %bool " + P + "iv %uint_64\n";
      s += "OpLoopMerge " + next + " " + P + "cont None\n";
      s += "OpBranchConditional " + P + "cond " + P + "body " + next + "\n";
      s += P + "body = OpLabel\n";
      s += P + "off = OpIMul %uint " + P + "iv %uint_16\n";
      s += P + "idx = OpIAdd %uint " + P + "off %" + F + "g\n";
      s += P + "pa = OpAccessChain %_ptr_StorageBuffer_half %bufA %int_0 " + P + "idx\n";
      s += P + "a = OpCooperativeMatrixLoadKHR %matA " + P + "pa %uint_0 %uint_16 None\n";
      s += P + "b = OpCooperativeMatrixLoadKHR %matB " + P + "pa %uint_1 %uint_16\n";
      s += P + "pc = OpAccessChain %_ptr_StorageBuffer_float %bufC %int_0 " + P + "idx\n";
      s += P + "c = OpCooperativeMatrixLoadKHR %matC " + P +
           "pc %uint_0 %uint_16 "
           "MakePointerVisible|NonPrivatePointer %uint_2\n";
      s += P + "d = OpCooperativeMatrixMulAddKHR %matC " + P + "a " + P + "b " + P + "c\n";
      s += P + "e = OpMatrixTimesScalar %matC " + P + "d %float_0_5\n";
      s += "OpCooperativeMatrixStoreKHR " + P + "pc " + P +
           "e %uint_0 %uint_16 "
           "MakePointerAvailable|NonPrivatePointer %uint_2\n";
      s += P + "x = OpLoad %float " + P + "pc Aligned 4\n";
      s += P + "y = OpExtInst %float %glsl FMax " + P + "x %float_1\n";
      s += P + "z = OpFMul %float " + P + "y %float_0_5\n";
      s += P + "w = OpFAdd %float " + P + "z " + P + "x\n";
      s += P + "cmp = OpUGreaterThan %bool " + P + "iv %uint_16\n";
      s += "OpSelectionMerge " + P + "merge None\n";
      s += "OpBranchConditional " + P + "cmp " + P + "then " + P + "merge\n";
      s += P + "then = OpLabel\n";
      s += "OpStore " + P + "pc " + P + "w Aligned 4\n";
      s += "OpBranch " + P + "merge\n";
      s += P + "merge = OpLabel\n";
      s += P + "sel = OpPhi %float " + P + "w " + P + "then " + P + "x " + P + "body\n";
      s += P + "bits = OpBitcast %uint " + P + "sel\n";
      s += P + "sh = OpShiftRightLogical %uint " + P + "bits %uint_16\n";
      s += P + "and = OpBitwiseAnd %uint " + P + "sh %uint_3\n";
      s += P + "cv = OpConvertUToF %float " + P + "and\n";
      s += P + "len = OpCooperativeMatrixLengthKHR %uint %matC\n";
      s += P + "sum = OpIAdd %uint " + P + "len " + P + "and\n";
      s += P + "cvs = OpConvertUToF %float " + P + "sum\n";
      s += "OpStore " + P + "pc " + P + "cvs Aligned 4\n";
      s += "OpBranch " + P + "cont\n";
      s += P + "cont = OpLabel\n";
      s += P + "inc = OpIAdd %uint " + P + "iv %uint_1\n";
      s += "OpStore %" + F + "i " + P + "inc\n";
      s += "OpBranch %" + F + "b" + std::to_string(b) + "\n";
    }
    s += "%" + F + "b" + std::to_string(n) + " = OpLabel\n";
    s += "OpReturn\nOpFunctionEnd\n";
  }
  s += "%main = OpFunction %void None %fnvoid\n%main_entry = OpLabel\n";
  for (size_t f = 0; f < functions; ++f) {
    s += "%call" + std::to_string(f) + " = OpFunctionCall %void %f" + std::to_string(f) + "_fn\n";
  }
  s += "OpReturn\nOpFunctionEnd\n";
  return s;
}

}  // namespace coopspv::bench
