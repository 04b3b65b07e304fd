// Tests of the arithmetic, bit, relational, logical, select and conversion rules
// (source/val/arithmetic.cc), each broken in one line of the core test kernel.
#include "test/val/core_test_util.h"

namespace coopspv::val {
namespace {

using testing::CoreKernelMutation;
using testing::Mutation;

constexpr Mutation kMutations[] = {
    {"ResultTypeIsAFunctionType", "%y = OpFMul %float %x %float_1", "%y = OpFMul %fn %x %float_1",
     "id.kind"},
    {"GlslFMaxIntResult", "%mx = OpExtInst %float %glsl FMax %x %y",
     "%mx = OpExtInst %uint %glsl FMax %x %y", "glsl.operand"},
    {"GlslFMaxIntOperand", "%mx = OpExtInst %float %glsl FMax %x %y",
     "%mx = OpExtInst %float %glsl FMax %x %gx", "glsl.operand"},
    {"GlslUMinFloatOperand", "%umin = OpExtInst %uint %glsl UMin %gx %n",
     "%umin = OpExtInst %uint %glsl UMin %gx %y", "glsl.operand"},
    {"GlslUMinSignedOperandOk", "%umin = OpExtInst %uint %glsl UMin %gx %n",
     "%umin = OpExtInst %uint %glsl UMin %gx %int_1", ""},
    {"IAddFloatResult", "%isum = OpIAdd %int %gx %int_1", "%isum = OpIAdd %float %gx %int_1",
     "arithmetic.operand"},
    {"IAddFloatOperand", "%isum = OpIAdd %int %gx %int_1", "%isum = OpIAdd %int %gx %float_1",
     "arithmetic.operand"},
    {"IAddVectorOperand", "%isum = OpIAdd %int %gx %int_1", "%isum = OpIAdd %v3uint %gx %int_1",
     "arithmetic.operand"},
    {"UDivSignedResult", "%q = OpUDiv %uint %sum %uint_1", "%q = OpUDiv %int %sum %uint_1",
     "arithmetic.operand"},
    {"UDivSignedOperand", "%q = OpUDiv %uint %sum %uint_1", "%q = OpUDiv %uint %sum %int_1",
     "arithmetic.operand"},
    {"FMulIntOperand", "%y = OpFMul %float %x %float_1", "%y = OpFMul %float %x %uint_1",
     "arithmetic.operand"},
    {"FMulIntResult", "%y = OpFMul %float %x %float_1", "%y = OpFMul %uint %x %float_1",
     "arithmetic.operand"},
    {"BitwiseAndFloat", "%and = OpBitwiseAnd %uint %q %n", "%and = OpBitwiseAnd %uint %q %float_1",
     "bitwise.operand"},
    {"BitwiseAndSignedOk", "%and = OpBitwiseAnd %uint %q %n", "%and = OpBitwiseAnd %uint %q %int_1",
     ""},
    {"ShiftByFloat", "%sh = OpShiftLeftLogical %uint %and %int_1",
     "%sh = OpShiftLeftLogical %uint %and %float_1", "bitwise.operand"},
    {"ShiftBoolResult", "%sh = OpShiftLeftLogical %uint %and %int_1",
     "%sh = OpShiftLeftLogical %bool %and %int_1", "bitwise.operand"},
    {"ULessThanIntResult", "%in_range = OpULessThan %bool %gx %n",
     "%in_range = OpULessThan %uint %gx %n", "relational.operand"},
    {"ULessThanFloatOperand", "%in_range = OpULessThan %bool %gx %n",
     "%in_range = OpULessThan %bool %gx %float_1", "relational.operand"},
    {"FOrdLessThanIntOperand", "%cmp = OpFOrdLessThan %bool %f %y",
     "%cmp = OpFOrdLessThan %bool %f %gx", "relational.operand"},
    {"FOrdEqualCount", "%bv = OpFOrdEqual %v2bool %v %v2", "%bv = OpFOrdEqual %bool %v %v2",
     "relational.operand"},
    {"LogicalAndInt", "%both = OpLogicalAnd %bool %cmp %in_range",
     "%both = OpLogicalAnd %bool %cmp %gx", "logical.operand"},
    {"AnyOfScalar", "%any = OpAny %bool %bv", "%any = OpAny %bool %in_range", "logical.operand"},
    {"SelectIntCondition", "%sel = OpSelect %float %both %f %y", "%sel = OpSelect %float %gx %f %y",
     "select.operand"},
    {"SelectObjectType", "%sel = OpSelect %float %both %f %y",
     "%sel = OpSelect %float %both %f %gx", "select.operand"},
    {"ConvertUToFFromFloat", "%f = OpConvertUToF %float %sh", "%f = OpConvertUToF %float %y",
     "conversion.operand"},
    {"ConvertFToUFloatResult", "%u = OpConvertFToU %uint %f", "%u = OpConvertFToU %float %f",
     "conversion.operand"},
    {"UConvertSameWidth", "%u = OpConvertFToU %uint %f", "%u = OpUConvert %uint %gx",
     "conversion.operand"},
    {"SpecConstantOpFloatOperation", "%specop = OpSpecConstantOp %uint IAdd %spec %uint_1",
     "%specop = OpSpecConstantOp %uint FAdd %spec %uint_1", "arithmetic.operand"},
    {"SpecConstantOpBoolResult", "%specop = OpSpecConstantOp %uint IAdd %spec %uint_1",
     "%specop = OpSpecConstantOp %bool IAdd %spec %uint_1", "arithmetic.operand"},
};

INSTANTIATE_TEST_SUITE_P(Arithmetic, CoreKernelMutation, ::testing::ValuesIn(kMutations),
                         testing::MutationName);

// A module of more than 65535 instructions: the walks are filed with wider counts, and the
// instructions past the first 65535 are still checked.
TEST(Arithmetic, InstructionsPastThe65535th) {
  std::string nops;
  for (int i = 0; i < 70000; ++i) nops += "OpNop\n";
  const std::string line = "%y = OpFMul %float %x %float_1";
  const Result valid =
      testing::ValidateText(testing::Mutate(testing::CoreKernel(), line, nops + line), "vulkan1.3");
  EXPECT_CLEAN(valid);
  const Result r = testing::ValidateText(
      testing::Mutate(testing::CoreKernel(), line, nops + "%y = OpFMul %float %x %uint_1"),
      "vulkan1.3");
  EXPECT_TRUE(testing::HasRule(r, "arithmetic.operand")) << testing::Dump(r);
}

// Arithmetic on cooperative matrices: the cooperative rules check the operands, this family the
// kind of component the instruction computes.
TEST(Arithmetic, IntegerOperationOnAFloatMatrix) {
  const std::string text = testing::ReadFile("test/val/data/tiled_matmul_khr.spvasm");
  const std::string mul_add = "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c";
  EXPECT_CLEAN(testing::ValidateText(
      testing::Mutate(text, mul_add, mul_add + "\n%sum = OpFAdd %matC %d %d"), "vulkan1.3"));
  const Result r = testing::ValidateText(
      testing::Mutate(text, mul_add, mul_add + "\n%sum = OpIAdd %matC %d %d"), "vulkan1.3");
  EXPECT_RULE_AT(r, "arithmetic.operand", "OpIAdd", "components");
}

// No GLSL.std.450 instruction takes or makes a cooperative matrix.
TEST(Arithmetic, GlslOnACooperativeMatrix) {
  std::string text = testing::ReadFile("test/val/data/tiled_matmul_khr.spvasm");
  text = testing::Mutate(text, "OpMemoryModel Logical Vulkan",
                         "%glsl = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical Vulkan");
  const std::string mul_add = "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c";
  EXPECT_RULE_AT(testing::ValidateText(testing::Mutate(text, mul_add,
                                                       mul_add + "\n%m = OpExtInst %matC %glsl "
                                                                 "UMax %uint_0 %uint_1"),
                                       "vulkan1.3"),
                 "glsl.operand", "OpExtInst", "is not an integer scalar or vector");
  EXPECT_RULE_AT(
      testing::ValidateText(
          testing::Mutate(text, mul_add, mul_add + "\n%m = OpExtInst %matC %glsl FMax %d %d"),
          "vulkan1.3"),
      "glsl.operand", "OpExtInst", "is not a float scalar or vector");
}

// A comparison takes scalars or vectors, never a cooperative matrix.
TEST(Arithmetic, ComparisonOfACooperativeMatrix) {
  const std::string text = testing::ReadFile("test/val/data/tiled_matmul_khr.spvasm");
  const std::string mul_add = "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c";
  EXPECT_RULE_AT(
      testing::ValidateText(
          testing::Mutate(text, mul_add, mul_add + "\n%e = OpFOrdEqual %bool %d %float_0"),
          "vulkan1.3"),
      "relational.operand", "OpFOrdEqual", "is not a float scalar or vector");
}

}  // namespace
}  // namespace coopspv::val
