// Tests of the SPV_ARM_tensors rules (source/val/tensor_arm.cc): a kernel that reads, writes and
// queries a rank-2 tensor, one line changed per case.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Mutate;
using testing::ValidateText;

const std::string& Kernel() {
  static const std::string text = R"(
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability TensorsARM
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %t
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %t DescriptorSet 0
OpDecorate %t Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%float_0 = OpConstant %float 0
%coords_t = OpTypeArray %uint %uint_2
%coords = OpConstantComposite %coords_t %uint_0 %uint_1
%shape = OpConstantComposite %coords_t %uint_4 %uint_4
%pair = OpTypeArray %float %uint_2
%tensor = OpTypeTensorARM %float %uint_2
%shaped = OpTypeTensorARM %float %uint_2 %shape
%ptr = OpTypePointer UniformConstant %tensor
%t = OpVariable %ptr UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpLoad %tensor %t
%x = OpTensorReadARM %float %v %coords OutOfBoundsValueARM %float_0
%xs = OpTensorReadARM %pair %v %coords
OpTensorWriteARM %v %coords %x
%n = OpTensorQuerySizeARM %uint %v %uint_1
OpReturn
OpFunctionEnd
)";
  return text;
}

TEST(TensorArm, KernelIsValid) { EXPECT_CLEAN(ValidateText(Kernel(), "vulkan1.3")); }

struct Case {
  const char* anchor;
  const char* replacement;
  const char* rule;
};

TEST(TensorArm, EachBrokenOperandIsReported) {
  const Case cases[] = {
      {"%tensor = OpTypeTensorARM %float %uint_2", "%tensor = OpTypeTensorARM %void %uint_2",
       "tensor-arm.type"},
      {"%tensor = OpTypeTensorARM %float %uint_2", "%tensor = OpTypeTensorARM %float %uint_0",
       "tensor-arm.type"},
      {"%tensor = OpTypeTensorARM %float %uint_2", "%tensor = OpTypeTensorARM %float %float_0",
       "tensor-arm.type"},
      {"%shape = OpConstantComposite %coords_t %uint_4 %uint_4",
       "%shape = OpConstantComposite %coords_t %uint_4 %uint_0", "tensor-arm.type"},
      {"%shaped = OpTypeTensorARM %float %uint_2 %shape",
       "%shaped = OpTypeTensorARM %float %uint_1 %shape", "tensor-arm.type"},
      {"%x = OpTensorReadARM %float %v %coords OutOfBoundsValueARM %float_0",
       "%x = OpTensorReadARM %float %v %coords OutOfBoundsValueARM %uint_0", "tensor-arm.operands"},
      {"%xs = OpTensorReadARM %pair %v %coords", "%xs = OpTensorReadARM %uint %v %coords",
       "tensor-arm.access"},
      {"%xs = OpTensorReadARM %pair %v %coords", "%xs = OpTensorReadARM %pair %v %uint_0",
       "tensor-arm.access"},
      {"%xs = OpTensorReadARM %pair %v %coords",
       "%xs = OpTensorReadARM %pair %v %coords MakeElementVisibleARM %uint_2",
       "tensor-arm.operands"},
      {"OpTensorWriteARM %v %coords %x", "OpTensorWriteARM %v %coords %x OutOfBoundsValueARM %x",
       "tensor-arm.operands"},
      {"OpTensorWriteARM %v %coords %x", "OpTensorWriteARM %v %coords %uint_0",
       "tensor-arm.access"},
      {"%n = OpTensorQuerySizeARM %uint %v %uint_1", "%n = OpTensorQuerySizeARM %uint %v %uint_2",
       "tensor-arm.query-size"},
      {"%n = OpTensorQuerySizeARM %uint %v %uint_1", "%n = OpTensorQuerySizeARM %float %v %uint_1",
       "tensor-arm.query-size"},
  };
  for (const Case& c : cases) {
    const Result r = ValidateText(Mutate(Kernel(), c.anchor, c.replacement), "vulkan1.3");
    SCOPED_TRACE(c.replacement);
    EXPECT_RULE(r, c.rule);
  }
}

}  // namespace
}  // namespace coopspv::val
