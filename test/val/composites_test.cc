// Tests of the composite rules (source/val/composites.cc): OpVectorShuffle,
// OpCompositeExtract and OpCompositeInsert, each broken in one line of the core test kernel.
#include "test/val/core_test_util.h"

namespace coopspv::val {
namespace {

using testing::CoreKernelMutation;
using testing::Mutation;

constexpr Mutation kMutations[] = {
    {"ShuffleUndefinedComponentOk", "%v2 = OpVectorShuffle %v2float %v %v 1 2",
     "%v2 = OpVectorShuffle %v2float %v %v 1 0xFFFFFFFF", ""},
    {"ShuffleScalarResult", "%v2 = OpVectorShuffle %v2float %v %v 1 2",
     "%v2 = OpVectorShuffle %float %v %v 1 2", "composite.type"},
    {"ShuffleComponentCount", "%v2 = OpVectorShuffle %v2float %v %v 1 2",
     "%v2 = OpVectorShuffle %v2float %v %v 1 2 0", "composite.type"},
    {"ShuffleOtherComponentType", "%v2 = OpVectorShuffle %v2float %v %v 1 2",
     "%v2 = OpVectorShuffle %v2float %v %gx 1 2", "composite.type"},
    {"ShuffleComponentOutOfRange", "%v2 = OpVectorShuffle %v2float %v %v 1 2",
     "%v2 = OpVectorShuffle %v2float %v %v 1 4", "composite.index"},
    {"ConstructVectorTooFewComponents", "%v = OpCompositeConstruct %v2float %sel %y",
     "%v = OpCompositeConstruct %v2float %sel", "composite.type"},
    {"ConstructVectorWrongComponent", "%v = OpCompositeConstruct %v2float %sel %y",
     "%v = OpCompositeConstruct %v2float %sel %gx", "composite.type"},
    {"ConstructStructWrongMember", "%pcv = OpCompositeConstruct %PC %gx %y",
     "%pcv = OpCompositeConstruct %PC %y %y", "composite.type"},
    {"ConstructStructMissingMember", "%pcv = OpCompositeConstruct %PC %gx %y",
     "%pcv = OpCompositeConstruct %PC %gx", "composite.type"},
    {"ExtractWrongType", "%e = OpCompositeExtract %float %v2 1",
     "%e = OpCompositeExtract %uint %v2 1", "composite.type"},
    {"ExtractOutOfRange", "%e = OpCompositeExtract %float %v2 1",
     "%e = OpCompositeExtract %float %v2 2", "composite.index"},
    {"ExtractWithoutIndexes", "%e = OpCompositeExtract %float %v2 1",
     "%e = OpCompositeExtract %float %v2", "composite.index"},
    {"ExtractFromScalar", "%e = OpCompositeExtract %float %v2 1",
     "%e = OpCompositeExtract %float %y 0", "composite.index"},
    {"InsertObjectType", "%v3 = OpCompositeInsert %v2float %e %v2 0",
     "%v3 = OpCompositeInsert %v2float %gx %v2 0", "composite.type"},
    {"InsertResultType", "%v3 = OpCompositeInsert %v2float %e %v2 0",
     "%v3 = OpCompositeInsert %v2bool %e %v2 0", "composite.type"},
};

INSTANTIATE_TEST_SUITE_P(Composites, CoreKernelMutation, ::testing::ValuesIn(kMutations),
                         testing::MutationName);

// SPV_EXT_long_vector: the composite instructions take vectors of any count, OpTypeVectorIdEXT
// included ("must be / have a vector type"); a spec-constant count is checked once specialized,
// and OpCompositeConstruct may build a 1-component vector from one scalar.
constexpr const char* kLongVectors = R"(               OpCapability Shader
               OpCapability LongVectorEXT
               OpCapability ReplicatedCompositesEXT
               OpExtension "SPV_EXT_long_vector"
               OpExtension "SPV_EXT_replicated_composites"
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %n SpecId 0
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
          %n = OpSpecConstant %uint 7
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
     %uint_6 = OpConstant %uint 6
    %float_1 = OpConstant %float 1
    %v1float = OpTypeVector %float 1
    %v5float = OpTypeVector %float 5
    %v2float = OpTypeVector %float 2
     %v6flt = OpTypeVectorIdEXT %float %uint_6
     %vnflt = OpTypeVectorIdEXT %float %n
    %v5bool = OpTypeVector %bool 5
       %c5 = OpConstantComposite %v5float %float_1 %float_1 %float_1 %float_1 %float_1
       %c6 = OpConstantCompositeReplicateEXT %v6flt %float_1
       %cn = OpSpecConstantCompositeReplicateEXT %vnflt %float_1
%_ptr_Function_v5float = OpTypePointer Function %v5float
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
         %var = OpVariable %_ptr_Function_v5float Function
          %a = OpCompositeConstruct %v1float %float_1
          %b = OpCompositeConstruct %v5float %a %float_1 %float_1 %float_1 %float_1
          %b2 = OpCompositeConstruct %v5float %float_1 %float_1 %float_1 %float_1 %float_1
          %c = OpVectorShuffle %v6flt %b %c6 0 1 2 3 4 5
          %d = OpVectorShuffle %v2float %cn %cn 0 1
          %e = OpVectorExtractDynamic %float %cn %uint_2
          %f = OpVectorInsertDynamic %vnflt %cn %e %uint_0
          %g = OpCompositeExtract %float %c 5
          %h = OpCompositeInsert %v6flt %g %c 0
          %i = OpDot %float %b %b
          %j = OpFOrdLessThan %v5bool %b %c5
          %k = OpSelect %v5float %j %b %c5
          %l = OpExtInst %v6flt %1 FMax %c %h
          %m = OpExtInst %vnflt %1 Sin %f
          %o = OpVectorTimesScalar %vnflt %m %float_1
          %p = OpFAdd %vnflt %o %cn
          %q = OpCompositeConstructReplicateEXT %vnflt %g
          %r = OpExtInst %float %1 Length %b
          %s = OpAny %bool %j
               OpStore %var %k
               OpReturn
               OpFunctionEnd
)";

TEST(LongVectorComposites, Valid) {
  EXPECT_CLEAN(testing::ValidateText(kLongVectors, "vulkan1.3"));
}

constexpr Mutation kLongVectorMutations[] = {
    {"ShuffleIntoVectorIdCount", "%c = OpVectorShuffle %v6flt %b %c6 0 1 2 3 4 5",
     "%c = OpVectorShuffle %v6flt %b %c6 0 1 2 3 4", "composite.type"},
    {"ShuffleComponentOutOfRange", "%c = OpVectorShuffle %v6flt %b %c6 0 1 2 3 4 5",
     "%c = OpVectorShuffle %v6flt %b %c6 0 1 2 3 4 11", "composite.index"},
    {"ShuffleCountWithSpecSizedOperands", "%d = OpVectorShuffle %v2float %cn %cn 0 1",
     "%d = OpVectorShuffle %v2float %cn %c5 0 1 40", "composite.type"},
    {"ConstructTooFewComponents",
     "%b = OpCompositeConstruct %v5float %a %float_1 %float_1 %float_1 %float_1",
     "%b = OpCompositeConstruct %v5float %a %float_1 %float_1 %float_1", "composite.type"},
    {"ConstructFromALongerVector",
     "%b2 = OpCompositeConstruct %v5float %float_1 %float_1 %float_1 %float_1 %float_1",
     "%b2 = OpCompositeConstruct %v5float %c6", "composite.type"},
    {"ExtractOutOfRange", "%g = OpCompositeExtract %float %c 5",
     "%g = OpCompositeExtract %float %c 6", "composite.index"},
    {"ExtractFromSpecCountIsFine", "%g = OpCompositeExtract %float %c 5",
     "%g = OpCompositeExtract %float %cn 100", ""},
};

class LongVectorMutation : public ::testing::TestWithParam<Mutation> {};

TEST_P(LongVectorMutation, IsReportedWithItsRule) {
  const Mutation& m = GetParam();
  const Result r =
      testing::ValidateText(testing::Mutate(kLongVectors, m.anchor, m.replacement), "vulkan1.3");
  testing::ExpectCase(r, m.rule);
}

INSTANTIATE_TEST_SUITE_P(LongVectors, LongVectorMutation, ::testing::ValuesIn(kLongVectorMutations),
                         testing::MutationName);

}  // namespace
}  // namespace coopspv::val
