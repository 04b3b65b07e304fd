// Tests of the decoration rules (source/val/decorations.cc): targets, member decorations and
// names, decorations applied twice, each broken in one line of the core test kernel.
#include "test/val/core_test_util.h"

namespace coopspv::val {
namespace {

using testing::CoreKernelMutation;
using testing::Mutation;

constexpr Mutation kMutations[] = {
    {"BlockOnArray", "OpDecorate %Buf Block", "OpDecorate %rta Block", "decoration.target"},
    {"ArrayStrideOnStruct", "OpDecorate %rta ArrayStride 4", "OpDecorate %PC ArrayStride 4",
     "decoration.target"},
    {"ArrayStrideOnPointerOk", "OpDecorate %rta ArrayStride 4",
     "OpDecorate %rta ArrayStride 4\nOpDecorate %ptr_sb_float ArrayStride 4", ""},
    {"BindingOnType", "OpDecorate %buf Binding 0", "OpDecorate %Buf Binding 0",
     "decoration.target"},
    {"DescriptorSetOnConstant", "OpDecorate %buf DescriptorSet 0",
     "OpDecorate %uint_0 DescriptorSet 0", "decoration.target"},
    {"SpecIdOnConstant", "OpDecorate %spec SpecId 0", "OpDecorate %uint_1 SpecId 0",
     "decoration.target"},
    {"NonWritableOnFunctionVariableOk", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %tmp NonWritable", ""},
    {"NonReadableOnFunctionVariable", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %tmp NonReadable", "decoration.access-qualifier"},
    {"NonWritableOnInput", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %gid NonWritable", "decoration.access-qualifier"},
    {"NonWritableOnType", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %PC NonWritable", "decoration.target"},
    {"BuiltInOnType", "OpDecorate %gid BuiltIn GlobalInvocationId",
     "OpDecorate %v3uint BuiltIn GlobalInvocationId", "decoration.target"},
    {"MemberDecorateOnVector", "OpMemberDecorate %PC 1 Offset 4",
     "OpMemberDecorate %v3uint 1 Offset 4", "decoration.member"},
    {"MemberDecorateOutOfRange", "OpMemberDecorate %PC 1 Offset 4",
     "OpMemberDecorate %PC 2 Offset 4", "decoration.member"},
    {"MemberNameOutOfRange", "OpMemberName %PC 0 \"n\"", "OpMemberName %PC 5 \"n\"",
     "decoration.member"},
    {"OffsetTwice", "OpMemberDecorate %PC 1 Offset 4",
     "OpMemberDecorate %PC 1 Offset 4\nOpMemberDecorate %PC 1 Offset 8", "decoration.duplicate"},
    {"RestrictOnType", "OpDecorate %PC Block", "OpDecorate %PC Block\nOpDecorate %PC Restrict",
     "decoration.target"},
    {"RelaxedPrecisionOnType", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %float RelaxedPrecision", "decoration.target"},
    {"NonWritableTwice", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %pc NonWritable\nOpDecorate %pc NonWritable",
     "decoration.duplicate"},
    {"BindingTwice", "OpDecorate %buf Binding 0",
     "OpDecorate %buf Binding 0\nOpDecorate %buf Binding 1", "decoration.duplicate"},
    // Uniform marks a value; NoSignedWrap / NoUnsignedWrap a wrapping integer instruction.
    {"UniformOnValueOk", "OpDecorate %PC Block", "OpDecorate %PC Block\nOpDecorate %sum Uniform",
     ""},
    {"UniformOnType", "OpDecorate %PC Block", "OpDecorate %PC Block\nOpDecorate %uint Uniform",
     "decoration.target"},
    {"NoSignedWrapOnIAddOk", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %sum NoSignedWrap", ""},
    {"NoUnsignedWrapOnUDiv", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %q NoUnsignedWrap", "decoration.target"},
    {"NoSignedWrapOnFMul", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %y NoSignedWrap", "decoration.target"},
    // OpDecorateId only for decorations with id operands.
    {"UniformWithDecorateId", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorateId %sum Uniform", "decoration.instruction"},
    {"AliasedAndRestrict", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %buf Aliased\nOpDecorate %buf Restrict",
     "decoration.conflict"},
    {"NoContractionAndFPFastMathMode", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %y NoContraction\nOpDecorate %y FPFastMathMode NotNaN",
     "decoration.conflict"},
    {"FPFastMathModeTransformAlone", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %y FPFastMathMode AllowTransform",
     "decoration.fp-fast-math-mode"},
    // A shader's FPRoundingMode decorates an OpFConvert stored to 16-bit floats.
    {"FPRoundingModeOnFMul", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %y FPRoundingMode RTE", "decoration.fp-rounding-mode"},
    {"LinkageOnEntryPoint", "OpDecorate %PC Block",
     "OpDecorate %PC Block\nOpDecorate %main LinkageAttributes \"m\" Export",
     "decoration.linkage-entry-point"},
    // Vulkan: no GLSLShared / GLSLPacked; a StorageBuffer variable holds a Block.
    {"GLSLSharedInVulkan", "OpDecorate %Buf Block",
     "OpDecorate %Buf Block\nOpDecorate %Buf GLSLShared", "vulkan.glsl-layout"},
    {"StorageBufferWithoutBlock", "OpDecorate %Buf Block", "", "vulkan.block-decoration"},
};

INSTANTIATE_TEST_SUITE_P(Decorations, CoreKernelMutation, ::testing::ValuesIn(kMutations),
                         testing::MutationName);

}  // namespace
}  // namespace coopspv::val
