// Tests of the SPV_QCOM_cooperative_matrix_conversion rules (source/val/coop_matrix_qcom.cc).
// Each verdict was compared with spirv-val's on the same module (vulkan1.3); where they differ
// the test says why.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

// Arrays %af8 (8 float), %af16, %ah16 (16 half), %au4, %au8, %au16 (uint), %ac32 (32 uchar),
// %ai8 (8 int) and matrices %mAf (MatrixA 16x8 float), %mBf (MatrixB 8x16 float), %mCh
// (accumulator 16x8 half) are defined before `body`.
std::string Module(const std::string& body) {
  return R"(OpCapability Shader
OpCapability Float16
OpCapability Int8
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpCapability CooperativeMatrixConversionQCOM
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_QCOM_cooperative_matrix_conversion"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uchar = OpTypeInt 8 0
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u8 = OpConstant %uint 8
%u16 = OpConstant %uint 16
%u32 = OpConstant %uint 32
%i0 = OpConstant %int 0
%i4 = OpConstant %int 4
%arr_f_8 = OpTypeArray %float %u8
%arr_f_16 = OpTypeArray %float %u16
%arr_f_4 = OpTypeArray %float %u4
%arr_h_16 = OpTypeArray %half %u16
%arr_u_8 = OpTypeArray %uint %u8
%arr_u_4 = OpTypeArray %uint %u4
%arr_u_16 = OpTypeArray %uint %u16
%arr_c_32 = OpTypeArray %uchar %u32
%arr_i_8 = OpTypeArray %int %u8
%A_f = OpTypeCooperativeMatrixKHR %float %u3 %u16 %u8 %u0
%A_h = OpTypeCooperativeMatrixKHR %half %u3 %u16 %u16 %u0
%A_h_bad = OpTypeCooperativeMatrixKHR %half %u3 %u16 %u8 %u0
%A_c = OpTypeCooperativeMatrixKHR %uchar %u3 %u16 %u32 %u0
%B_f = OpTypeCooperativeMatrixKHR %float %u3 %u8 %u16 %u1
%C_h = OpTypeCooperativeMatrixKHR %half %u3 %u16 %u8 %u2
%C_f = OpTypeCooperativeMatrixKHR %float %u3 %u16 %u8 %u2
%C_wg = OpTypeCooperativeMatrixKHR %float %u2 %u16 %u8 %u2
%pf8 = OpTypePointer Function %arr_f_8
%main = OpFunction %void None %fn
%l = OpLabel
%va = OpVariable %pf8 Function
%af8 = OpLoad %arr_f_8 %va
%ah16 = OpUndef %arr_h_16
%au8 = OpUndef %arr_u_8
%au4 = OpUndef %arr_u_4
%au16 = OpUndef %arr_u_16
%ac32 = OpUndef %arr_c_32
%af16 = OpUndef %arr_f_16
%ai8 = OpUndef %arr_i_8
%mAf = OpUndef %A_f
%mCh = OpUndef %C_h
%mBf = OpUndef %B_f
)" + body +
         "\nOpReturn\nOpFunctionEnd\n";
}

Result Validate(const std::string& body) {
  return testing::ValidateText(Module(body), "vulkan1.3");
}

TEST(CoopMatrixQcom, ValidConversions) {
  EXPECT_CLEAN(Validate(R"(
%a0 = OpCompositeConstructCoopMatQCOM %A_f %af8
%a1 = OpCompositeConstructCoopMatQCOM %A_f %au8
%a2 = OpCompositeConstructCoopMatQCOM %A_h %ah16
%a3 = OpCompositeConstructCoopMatQCOM %A_c %ac32
%b0 = OpCompositeConstructCoopMatQCOM %B_f %af8
%b1 = OpCompositeConstructCoopMatQCOM %B_f %au8
%c0 = OpCompositeConstructCoopMatQCOM %C_h %au4
%c1 = OpCompositeConstructCoopMatQCOM %C_f %au8
%c2 = OpCompositeConstructCoopMatQCOM %C_f %af8
%e0 = OpCompositeExtractCoopMatQCOM %arr_f_8 %mAf
%e1 = OpCompositeExtractCoopMatQCOM %arr_u_8 %mAf
%e2 = OpCompositeExtractCoopMatQCOM %arr_u_4 %mCh
%e3 = OpCompositeExtractCoopMatQCOM %arr_f_8 %mBf
%x0 = OpBitCastArrayQCOM %arr_u_8 %af8
%x1 = OpBitCastArrayQCOM %arr_u_8 %ah16
%x2 = OpBitCastArrayQCOM %arr_h_16 %ai8
%s0 = OpExtractSubArrayQCOM %arr_f_4 %af8 %i4
%s1 = OpExtractSubArrayQCOM %arr_f_4 %af8 %u4
%s2 = OpExtractSubArrayQCOM %arr_u_4 %au16 %i4
)"));
}

// OpCompositeConstructCoopMatQCOM / OpCompositeExtractCoopMatQCOM: a Subgroup-scope KHR matrix,
// the components and 256-bit rows / columns its Use allows, an array of one row or column.
TEST(CoopMatrixQcom, ConstructAndExtract) {
  struct Case {
    const char* body;
    const char* rule;
    const char* says;
  } cases[] = {
      {"%x = OpCompositeConstructCoopMatQCOM %arr_f_8 %af8", "coop-matrix-qcom.construct",
       "not an OpTypeCooperativeMatrixKHR"},
      {"%x = OpCompositeConstructCoopMatQCOM %A_f %mAf", "coop-matrix-qcom.construct",
       "not a one-dimensional array"},
      {"%x = OpCompositeConstructCoopMatQCOM %C_wg %af8", "coop-matrix-qcom.construct",
       "Scope is Workgroup"},
      {"%x = OpCompositeConstructCoopMatQCOM %A_f %ai8", "coop-matrix-qcom.construct",
       "neither the matrix's Component Type"},
      {"%x = OpCompositeConstructCoopMatQCOM %A_h_bad %au8", "coop-matrix-qcom.construct",
       "Columns is 8"},
      {"%x = OpCompositeConstructCoopMatQCOM %A_f %af16", "coop-matrix-qcom.construct",
       "has 16 elements"},
      {"%x = OpCompositeConstructCoopMatQCOM %A_f %au16", "coop-matrix-qcom.construct", "takes 8"},
      // A 16-bit float accumulator row of 8 packs into 4 uint32 ("Columns/2"); spirv-val also
      // accepts Columns.
      {"%x = OpCompositeConstructCoopMatQCOM %C_h %au8", "coop-matrix-qcom.construct", "takes 4"},
      {"%x = OpCompositeExtractCoopMatQCOM %A_f %mAf", "coop-matrix-qcom.extract",
       "not a one-dimensional array"},
      {"%x = OpCompositeExtractCoopMatQCOM %arr_f_16 %mAf", "coop-matrix-qcom.extract",
       "has 16 elements"},
      {"%x = OpCompositeExtractCoopMatQCOM %arr_u_8 %mCh", "coop-matrix-qcom.extract", "takes 4"},
  };
  for (const Case& c : cases) {
    const Result r = Validate(c.body);
    EXPECT_RULE_AT(r, c.rule, "CoopMatQCOM", c.says);
    testing::ExpectOnly(r, c.rule);
  }
}

TEST(CoopMatrixQcom, BitCastArray) {
  EXPECT_RULE_AT(Validate("%x = OpBitCastArrayQCOM %arr_u_4 %af8"),
                 "coop-matrix-qcom.bitcast-array", "OpBitCastArrayQCOM", "128 bits");
  EXPECT_RULE_AT(Validate("%x = OpBitCastArrayQCOM %arr_c_32 %af8"),
                 "coop-matrix-qcom.bitcast-array", "OpBitCastArrayQCOM", "Result Type");
  EXPECT_RULE_AT(Validate("%x = OpBitCastArrayQCOM %arr_u_8 %ac32"),
                 "coop-matrix-qcom.bitcast-array", "OpBitCastArrayQCOM", "Source Array");
}

TEST(CoopMatrixQcom, ExtractSubArray) {
  EXPECT_RULE_AT(Validate("%x = OpExtractSubArrayQCOM %arr_u_4 %af8 %i4"),
                 "coop-matrix-qcom.extract-sub-array", "OpExtractSubArrayQCOM", "element type");
  EXPECT_RULE_AT(Validate("%x = OpExtractSubArrayQCOM %arr_c_32 %ac32 %i4"),
                 "coop-matrix-qcom.extract-sub-array", "OpExtractSubArrayQCOM", "Source Array");
  EXPECT_RULE_AT(Validate("%x = OpExtractSubArrayQCOM %arr_f_4 %af8 %mAf"),
                 "coop-matrix-qcom.extract-sub-array", "OpExtractSubArrayQCOM", "Start Index");
  // Past the end: undefined, a warning (spirv-val says nothing); the module stays valid.
  const Result past = Validate("%x = OpExtractSubArrayQCOM %arr_f_4 %af8 %u8");
  EXPECT_TRUE(past.valid);
  EXPECT_TRUE(testing::RuleAt(past, "coop-matrix-qcom.extract-sub-array-range",
                              "OpExtractSubArrayQCOM", "elements 8 to 11"));
}

}  // namespace
}  // namespace coopspv::val
