// Tests of the integer dot products (SPV_KHR_integer_dot_product) and the mixed-precision float
// dot products (SPV_VALVE_mixed_float_dot_product) of source/val/dot_product.cc: one instruction
// at a time in a small compute kernel, valid and broken.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

// `capabilities` are declared beside Shader; `instruction` is the one under test, %x.
std::string Kernel(const std::string& capabilities, const std::string& instruction) {
  return R"(OpCapability Shader
OpCapability Int8
OpCapability Int64
OpCapability Float16
OpCapability BFloat16TypeKHR
OpCapability Float8EXT
)" + capabilities +
         R"(OpExtension "SPV_KHR_integer_dot_product"
OpExtension "SPV_KHR_bfloat16"
OpExtension "SPV_EXT_float8"
OpExtension "SPV_VALVE_mixed_float_dot_product"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uchar = OpTypeInt 8 0
%char = OpTypeInt 8 1
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%bf = OpTypeFloat 16 BFloat16KHR
%e4 = OpTypeFloat 8 Float8E4M3EXT
%e5 = OpTypeFloat 8 Float8E5M2EXT
%v4uchar = OpTypeVector %uchar 4
%v4char = OpTypeVector %char 4
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%v2ulong = OpTypeVector %ulong 2
%v2half = OpTypeVector %half 2
%v3half = OpTypeVector %half 3
%v2float = OpTypeVector %float 2
%v2bf = OpTypeVector %bf 2
%v4e4 = OpTypeVector %e4 4
%v4e5 = OpTypeVector %e5 4
%main = OpFunction %void None %fn
%l = OpLabel
%u = OpUndef %uint
%i = OpUndef %int
%ul = OpUndef %ulong
%vuc = OpUndef %v4uchar
%vc = OpUndef %v4char
%vu2 = OpUndef %v2uint
%vu3 = OpUndef %v3uint
%vl2 = OpUndef %v2ulong
%h = OpUndef %half
%f = OpUndef %float
%b = OpUndef %bf
%vh = OpUndef %v2half
%vh3 = OpUndef %v3half
%vf = OpUndef %v2float
%vb = OpUndef %v2bf
%v8 = OpUndef %v4e4
%v85 = OpUndef %v4e5
%x = )" + instruction +
         R"(
OpReturn
OpFunctionEnd
)";
}

constexpr const char* kAll =
    "OpCapability DotProduct\nOpCapability DotProductInputAll\n"
    "OpCapability DotProductInput4x8BitPacked\n";

struct Case {
  const char* capabilities;
  const char* instruction;
  const char* rule;  // "" when valid.
};

class DotProductCase : public ::testing::TestWithParam<Case> {};

TEST_P(DotProductCase, IsReportedWithItsRule) {
  const Case& c = GetParam();
  const Result r = testing::ValidateText(Kernel(c.capabilities, c.instruction), "vulkan1.3");
  const std::string instruction = c.instruction;
  testing::ExpectCase(r, c.rule, instruction.substr(0, instruction.find(' ')).c_str());
  if (c.rule[0] != '\0') testing::ExpectOnly(r, c.rule);
}

INSTANTIATE_TEST_SUITE_P(
    Integer, DotProductCase,
    ::testing::Values(
        Case{kAll, "OpSDot %int %u %u PackedVectorFormat4x8Bit", ""},
        Case{kAll, "OpUDot %uint %vuc %vuc", ""}, Case{kAll, "OpSUDot %int %vc %vuc", ""},
        Case{kAll, "OpSDotAccSat %int %vu2 %vu2 %i", ""}, Case{kAll, "OpUDot %ulong %vl2 %vl2", ""},
        Case{"OpCapability DotProduct\nOpCapability DotProductInput4x8Bit\n", "OpSDot %int %vc %vc",
             ""},
        Case{kAll, "OpUDot %int %vuc %vuc", "dot.integer.operand"},
        Case{kAll, "OpSDot %v2uint %vu2 %vu2", "dot.integer.operand"},
        Case{kAll, "OpSDot %int %vu2 %vu3", "dot.integer.operand"},
        Case{kAll, "OpSDot %int %vf %vf", "dot.integer.operand"},
        Case{kAll, "OpSDot %int %u %vu2", "dot.integer.operand"},
        Case{kAll, "OpSDot %int %ul %ul PackedVectorFormat4x8Bit", "dot.integer.operand"},
        Case{kAll, "OpSDot %int %u %u", "dot.integer.operand"},
        Case{kAll, "OpSDot %int %vl2 %vl2", "dot.integer.operand"},
        Case{kAll, "OpUDot %uint %vc %vc", "dot.integer.operand"},
        Case{kAll, "OpSUDot %int %vc %vc", "dot.integer.operand"},
        Case{kAll, "OpUDotAccSat %uint %vuc %vuc %i", "dot.integer.operand"},
        Case{"OpCapability DotProduct\nOpCapability DotProductInputAll\n",
             "OpSDot %int %u %u PackedVectorFormat4x8Bit", "dot.integer.capability"},
        Case{"OpCapability DotProduct\nOpCapability DotProductInput4x8Bit\n",
             "OpSDot %int %vu2 %vu2", "dot.integer.capability"},
        Case{"OpCapability DotProduct\nOpCapability DotProductInput4x8BitPacked\n",
             "OpUDot %uint %vuc %vuc", "dot.integer.capability"}));

constexpr const char* kHalf32 = "OpCapability DotProductFloat16AccFloat32VALVE\n";
constexpr const char* kHalf16 = "OpCapability DotProductFloat16AccFloat16VALVE\n";
constexpr const char* kBFloat = "OpCapability DotProductBFloat16AccVALVE\n";
constexpr const char* kFloat8 = "OpCapability DotProductFloat8AccFloat32VALVE\n";

INSTANTIATE_TEST_SUITE_P(
    MixedFloat, DotProductCase,
    ::testing::Values(
        Case{kHalf32, "OpFDot2MixAcc32VALVE %float %vh %vh %f", ""},
        Case{kHalf16, "OpFDot2MixAcc16VALVE %half %vh %vh %h", ""},
        Case{kBFloat, "OpFDot2MixAcc32VALVE %float %vb %vb %f", ""},
        Case{kBFloat, "OpFDot2MixAcc16VALVE %bf %vb %vb %b", ""},
        Case{kFloat8, "OpFDot4MixAcc32VALVE %float %v8 %v85 %f", ""},
        Case{kHalf32, "OpFDot2MixAcc32VALVE %half %vh %vh %h", "dot.mixed-float.operand"},
        Case{kHalf32, "OpFDot2MixAcc32VALVE %float %vh3 %vh3 %f", "dot.mixed-float.operand"},
        Case{kHalf32, "OpFDot2MixAcc32VALVE %float %vf %vf %f", "dot.mixed-float.operand"},
        Case{kHalf32, "OpFDot2MixAcc32VALVE %float %h %h %f", "dot.mixed-float.operand"},
        Case{kHalf16, "OpFDot2MixAcc16VALVE %half %vh %vh %f", "dot.mixed-float.operand"},
        Case{kHalf16, "OpFDot2MixAcc16VALVE %float %vh %vh %f", "dot.mixed-float.operand"},
        Case{kBFloat, "OpFDot2MixAcc32VALVE %float %vh %vb %f", "dot.mixed-float.operand"},
        Case{kFloat8, "OpFDot4MixAcc32VALVE %float %vuc %v8 %f", "dot.mixed-float.operand"},
        Case{kFloat8, "OpFDot4MixAcc32VALVE %float %v8 %v8 %h", "dot.mixed-float.operand"},
        Case{kBFloat, "OpFDot2MixAcc32VALVE %float %vh %vh %f", "dot.mixed-float.capability"},
        Case{kHalf16, "OpFDot2MixAcc16VALVE %bf %vb %vb %b", "dot.mixed-float.capability"}));

}  // namespace
}  // namespace coopspv::val
