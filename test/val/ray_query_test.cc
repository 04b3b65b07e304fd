// Tests of the ray query rules (source/val/ray_query.cc): a compute kernel that initializes a
// query and reads it, one line changed per case.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Mutate;
using testing::ValidateText;

const std::string& Kernel() {
  static const std::string text = R"(
OpCapability Shader
OpCapability RayQueryKHR
OpExtension "SPV_KHR_ray_query"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %as
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %as DescriptorSet 0
OpDecorate %as Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%mat4x3 = OpTypeMatrix %v3float 4
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_255 = OpConstant %uint 255
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%origin = OpConstantComposite %v3float %float_0 %float_0 %float_0
%query_t = OpTypeRayQueryKHR
%accel_t = OpTypeAccelerationStructureKHR
%ptr_query = OpTypePointer Function %query_t
%ptr_accel = OpTypePointer UniformConstant %accel_t
%as = OpVariable %ptr_accel UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%q = OpVariable %ptr_query Function
%accel = OpLoad %accel_t %as
OpRayQueryInitializeKHR %q %accel %uint_0 %uint_255 %origin %float_0 %origin %float_1
%more = OpRayQueryProceedKHR %bool %q
%kind = OpRayQueryGetIntersectionTypeKHR %uint %q %uint_1
%t = OpRayQueryGetIntersectionTKHR %float %q %uint_1
%bary = OpRayQueryGetIntersectionBarycentricsKHR %v2float %q %uint_1
%o2w = OpRayQueryGetIntersectionObjectToWorldKHR %mat4x3 %q %uint_1
OpRayQueryGenerateIntersectionKHR %q %float_1
OpRayQueryTerminateKHR %q
OpReturn
OpFunctionEnd
)";
  return text;
}

TEST(RayQuery, KernelIsValid) { EXPECT_CLEAN(ValidateText(Kernel(), "vulkan1.3")); }

struct Case {
  const char* anchor;
  const char* replacement;
  const char* rule;
};

TEST(RayQuery, EachBrokenOperandIsReported) {
  const Case cases[] = {
      {"%more = OpRayQueryProceedKHR %bool %q", "%more = OpRayQueryProceedKHR %bool %accel",
       "ray-query.object"},
      {"%more = OpRayQueryProceedKHR %bool %q", "%more = OpRayQueryProceedKHR %uint %q",
       "ray-query.result-type"},
      {"%kind = OpRayQueryGetIntersectionTypeKHR %uint %q %uint_1",
       "%kind = OpRayQueryGetIntersectionTypeKHR %uint %q %float_1", "ray-query.intersection"},
      {"%t = OpRayQueryGetIntersectionTKHR %float %q %uint_1",
       "%t = OpRayQueryGetIntersectionTKHR %uint %q %uint_1", "ray-query.result-type"},
      {"%bary = OpRayQueryGetIntersectionBarycentricsKHR %v2float %q %uint_1",
       "%bary = OpRayQueryGetIntersectionBarycentricsKHR %v3float %q %uint_1",
       "ray-query.result-type"},
      {"%o2w = OpRayQueryGetIntersectionObjectToWorldKHR %mat4x3 %q %uint_1",
       "%o2w = OpRayQueryGetIntersectionObjectToWorldKHR %v3float %q %uint_1",
       "ray-query.result-type"},
      {"OpRayQueryInitializeKHR %q %accel %uint_0 %uint_255 %origin %float_0 %origin %float_1",
       "OpRayQueryInitializeKHR %q %accel %float_0 %uint_255 %origin %float_0 %origin %float_1",
       "ray-query.operand"},
      {"OpRayQueryInitializeKHR %q %accel %uint_0 %uint_255 %origin %float_0 %origin %float_1",
       "OpRayQueryInitializeKHR %q %accel %uint_0 %uint_255 %float_0 %float_0 %origin %float_1",
       "ray-query.operand"},
      {"OpRayQueryGenerateIntersectionKHR %q %float_1",
       "OpRayQueryGenerateIntersectionKHR %q %uint_1", "ray-query.operand"},
  };
  for (const Case& c : cases) {
    const Result r = ValidateText(Mutate(Kernel(), c.anchor, c.replacement), "vulkan1.3");
    EXPECT_RULE(r, c.rule);
  }
}

}  // namespace
}  // namespace coopspv::val
