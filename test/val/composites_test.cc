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

}  // namespace
}  // namespace coopspv::val
