// SPV_NV_cooperative_matrix2, SPV_NV_tensor_addressing and decode-vector rules: a flash-attention
// tile loop (row reduce, per-element exp, convert-use) and the corpus's Q8_0 block-quantized
// load (DecodeFunc plus V = 4 and V = 2 DecodeVectorFunc) validate clean, and one-line mutations
// of them are each reported with the rule they break.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Mutate;
using testing::Mutation;

const std::string& FlashAttention() {
  static const std::string text = testing::ReadFile("test/val/data/flash_attention_cm2.spvasm");
  return text;
}

const std::string& DecodeVector() {
  static const std::string text = testing::ReadFile("test/data/corpus/cm2_decode_vector.spvasm");
  return text;
}

TEST(CoopMatrix2, FlashAttentionValidatesClean) {
  ASSERT_FALSE(FlashAttention().empty());
  EXPECT_CLEAN(testing::ValidateText(FlashAttention(), "vulkan1.3"));
}

TEST(CoopMatrix2, BlockQuantizedDecodeVectorLoadValidatesClean) {
  ASSERT_FALSE(DecodeVector().empty());
  EXPECT_CLEAN(testing::ValidateText(DecodeVector(), "vulkan1.3"));
}

constexpr const char* kRowMax = "%rowmax = OpCooperativeMatrixReduceEXT %mS %S Row %maxf";
constexpr const char* kExp = "%P = OpCooperativeMatrixPerElementOpEXT %mS %S %expSub %rowmax";
constexpr const char* kConvertUse = "%Pa = OpCooperativeMatrixConvertUseEXT %mQ %Pacc";
constexpr const char* kAdd = "%ar = OpFAdd %float %aa %ab";

const Mutation kFlashAttentionMutations[] = {
    {"ReduceMaskRowAnd2x2", kRowMax, "%rowmax = OpCooperativeMatrixReduceEXT %mS %S Row|2x2 %maxf",
     "coop-matrix2.reduce.mask"},
    {"Reduce2x2KeepsSize", kRowMax, "%rowmax = OpCooperativeMatrixReduceEXT %mS %S 2x2 %maxf",
     "coop-matrix2.reduce.dims"},
    {"ReduceChangesComponent", kRowMax,
     "%rowmax = OpCooperativeMatrixReduceEXT %mPacc %S Row %maxf", "coop-matrix2.reduce.types"},
    {"ReduceOfAnAMatrix", kRowMax, "%rowmax = OpCooperativeMatrixReduceEXT %mQ %q Row %maxf",
     "coop-matrix2.reduce.use-scope"},
    {"CombineFuncWithFourParameters", kRowMax,
     "%rowmax = OpCooperativeMatrixReduceEXT %mS %S Row %expSub",
     "coop-matrix2.reduce.combine-func"},
    {"PerElementFuncWithTwoParameters", kExp,
     "%P = OpCooperativeMatrixPerElementOpEXT %mS %S %maxf %rowmax",
     "coop-matrix2.per-element.func"},
    {"PerElementMissingOperand", kExp, "%P = OpCooperativeMatrixPerElementOpEXT %mS %S %expSub",
     "coop-matrix2.per-element.operands"},
    {"PerElementOperandOfOtherType", kExp,
     "%P = OpCooperativeMatrixPerElementOpEXT %mS %S %expSub %tiles",
     "coop-matrix2.per-element.operands"},
    {"PerElementResultType", kExp,
     "%P = OpCooperativeMatrixPerElementOpEXT %mPacc %S %expSub %rowmax",
     "coop-matrix2.per-element.matrix"},
    {"ConvertUseFromB", kConvertUse, "%Pa = OpCooperativeMatrixConvertUseEXT %mQ %kT",
     "coop-matrix2.convert-use"},
    {"ConvertUseChangesComponent", kConvertUse, "%Pa = OpCooperativeMatrixConvertUseEXT %mQ %P",
     "coop-matrix2.convert-use"},
    {"TransposeOfAnAMatrix", kConvertUse,
     "%Pa = OpCooperativeMatrixConvertUseEXT %mQ %Pacc\n%qT = OpCooperativeMatrixTransposeNV %mK "
     "%q",
     "coop-matrix2.transpose"},
    {"TransposeOfAnAccumulator", kConvertUse,
     "%Pa = OpCooperativeMatrixConvertUseEXT %mQ %Pacc\n%PT = OpCooperativeMatrixTransposeNV %mK "
     "%Pacc",
     ""},  // Accumulator 16x16 -> B 16x16: valid.
    {"BarrierInCombineFunc", kAdd,
     "OpControlBarrier %uint_2 %uint_2 %uint_0\n%ar = OpFAdd %float %aa %ab",
     "coop-matrix2.func.tangled"},
    {"BarrierInFunctionACallbackCalls", "%mr = OpExtInst %float %glsl FMax %ma %mb",
     "%mr = OpFunctionCall %float %addf %ma %mb", ""},  // Calling a clean helper is fine.
    {"MatrixOpInPerElementFunc", "%diff = OpFSub %float %s %m",
     "%diff = OpFSub %float %s %m\n%bad = OpCooperativeMatrixLengthKHR %uint %mS", ""},
    // Subgroup scope needs no workgroup size, but Vulkan asks every GLCompute entry point for
    // one (VUID-StandaloneSpirv-None-10685).
    {"WorkgroupScopeWithoutLocalSize", "OpExecutionMode %main LocalSize 32 1 1", "",
     "execution-mode.vulkan-workgroup-size"},
};

const Mutation kDecodeVectorMutations[] = {
    {"DecodeVectorWithoutDecode",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %163 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8_1_u1_2__u1_2__ %decodeQ8x4_1_u1_2__u1_2__",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %163 None DecodeVectorFunc "
     "%decodeQ8x4_1_u1_2__u1_2__",
     "tensor.decode-vector.requires-decode"},
    {"ScalarFunctionAsDecodeVector",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %163 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8_1_u1_2__u1_2__ %decodeQ8x4_1_u1_2__u1_2__",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %163 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8_1_u1_2__u1_2__ %decodeQ8_1_u1_2__u1_2__",
     "tensor.decode-vector.return"},
    {"VectorFunctionAsDecode",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %163 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8_1_u1_2__u1_2__ %decodeQ8x4_1_u1_2__u1_2__",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %163 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8x4_1_u1_2__u1_2__ %decodeQ8x4_1_u1_2__u1_2__",
     "tensor.decode.return"},
    {"BlockSizeNotAMultipleOfV", "%91 = OpTensorLayoutSetBlockSizeNV %86 %90 %uint_1 %uint_32",
     "%91 = OpTensorLayoutSetBlockSizeNV %86 %90 %uint_1 %uint_1",
     "tensor.decode-vector.block-size"},
    {"StoreWithDecodeFunc", "OpCooperativeMatrixStoreTensorNV %208 %203 %212 None None",
     "OpCooperativeMatrixStoreTensorNV %208 %203 %212 None DecodeFunc %decodeQ8_1_u1_2__u1_2__",
     "tensor.memory.store-decode"},
    {"LayoutDimSix", "%86 = OpTypeTensorLayoutNV %uint_2 %uint_1",
     "%86 = OpTypeTensorLayoutNV %BM %uint_1", "tensor.type.dim"},
    {"ClampModeInvalid", "%86 = OpTypeTensorLayoutNV %uint_2 %uint_1",
     "%86 = OpTypeTensorLayoutNV %uint_2 %uint_32", "tensor.type.clamp-mode"},
    {"SetDimensionCount", "%101 = OpTensorLayoutSetDimensionNV %86 %92 %98 %100",
     "%101 = OpTensorLayoutSetDimensionNV %86 %92 %98", "tensor.instruction.operand-count"},
    {"SetDimensionFloat", "%101 = OpTensorLayoutSetDimensionNV %86 %92 %98 %100",
     "%101 = OpTensorLayoutSetDimensionNV %86 %92 %98 %half_0x0p_0", "tensor.instruction.int32"},
    {"SetDimensionOtherLayout", "%101 = OpTensorLayoutSetDimensionNV %86 %92 %98 %100",
     "%101 = OpTensorLayoutSetDimensionNV %103 %92 %98 %100", "tensor.instruction.operand-type"},
    {"LoadTensorLayoutNotALayout",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %163 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8_1_u1_2__u1_2__ %decodeQ8x4_1_u1_2__u1_2__",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %161 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8_1_u1_2__u1_2__ %decodeQ8x4_1_u1_2__u1_2__",
     "tensor.memory.layout"},
    {"LoadTensorObjectOfOtherType",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %164 %163 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8_1_u1_2__u1_2__ %decodeQ8x4_1_u1_2__u1_2__",
     "%165 = OpCooperativeMatrixLoadTensorNV %149 %159 %131 %163 None DecodeFunc|DecodeVectorFunc "
     "%decodeQ8_1_u1_2__u1_2__ %decodeQ8x4_1_u1_2__u1_2__",
     "tensor.memory.matrix"},
    {"LoadTensorMakePointerAvailable",
     "%188 = OpCooperativeMatrixLoadTensorNV %174 %182 %187 %186 None None",
     "%188 = OpCooperativeMatrixLoadTensorNV %174 %182 %187 %186 "
     "NonPrivatePointer|MakePointerAvailable %uint_2 None",
     "tensor.memory.operands"},
};

class FlashAttentionMutation : public ::testing::TestWithParam<Mutation> {};
class DecodeVectorMutation : public ::testing::TestWithParam<Mutation> {};

void ExpectMutation(const std::string& base, const Mutation& m) {
  const Result r = testing::ValidateText(Mutate(base, m.anchor, m.replacement), "vulkan1.3");
  if (m.rule[0] == '\0') {
    EXPECT_CLEAN(r);
  } else {
    EXPECT_FALSE(r.valid);
    EXPECT_RULE(r, m.rule);
  }
}

TEST_P(FlashAttentionMutation, IsReportedWithItsRule) {
  ExpectMutation(FlashAttention(), GetParam());
}
TEST_P(DecodeVectorMutation, IsReportedWithItsRule) { ExpectMutation(DecodeVector(), GetParam()); }

INSTANTIATE_TEST_SUITE_P(CoopMatrix2, FlashAttentionMutation,
                         ::testing::ValuesIn(kFlashAttentionMutations),
                         [](const auto& info) { return std::string(info.param.name); });
INSTANTIATE_TEST_SUITE_P(CoopMatrix2, DecodeVectorMutation,
                         ::testing::ValuesIn(kDecodeVectorMutations),
                         [](const auto& info) { return std::string(info.param.name); });

// Callbacks: a tangled instruction in a function a callback calls is found through the call
// graph, and the diagnostic names the callback's role.
TEST(CoopMatrix2, TangledInstructionReachedThroughACall) {
  std::string text =
      Mutate(FlashAttention(), kAdd,
             "OpControlBarrier %uint_2 %uint_2 %uint_0\n%ar = OpFAdd %float %aa %ab");
  text = Mutate(text, "%mr = OpExtInst %float %glsl FMax %ma %mb",
                "%mr = OpFunctionCall %float %addf %ma %mb");
  const Result r = testing::ValidateText(text, "vulkan1.3");
  ASSERT_TRUE(testing::HasRule(r, "coop-matrix2.func.tangled")) << testing::Dump(r);
  bool named = false;
  for (const auto& d : r.diagnostics) {
    if (std::string(d.rule->id) == "coop-matrix2.func.tangled") {
      named = named || d.message.find("CombineFunc") != std::string::npos;
      EXPECT_NE(d.instruction_text.find("OpControlBarrier"), std::string::npos);
    }
  }
  EXPECT_TRUE(named) << testing::Dump(r);
}

TEST(CoopMatrix2, CooperativeMatrixArithmeticIsTangledInACallback) {
  const std::string text = Mutate(FlashAttention(), "%diff = OpFSub %float %s %m",
                                  "%diff = OpFSub %float %s %m\n%z = OpFNegate %mS %zeroS");
  EXPECT_RULE(testing::ValidateText(text, "vulkan1.3"), "coop-matrix2.func.tangled");
}

TEST(CoopMatrix2, WorkgroupScopeNeedsTheWorkgroupSize) {
  std::string text = FlashAttention();
  for (const char* type :
       {"%mQ = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_0",
        "%mK = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_1",
        "%mS = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2",
        "%mPacc = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_2"}) {
    std::string workgroup = type;
    workgroup.replace(workgroup.find("%uint_3"), 7, "%uint_2");
    text = Mutate(text, type, workgroup);
  }
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const Result r = testing::ValidateText(Mutate(text, "OpExecutionMode %main LocalSize 32 1 1", ""),
                                         "vulkan1.3");
  EXPECT_RULE(r, "coop-matrix2.workgroup-size");
}

TEST(CoopMatrix2, GetCoordinate) {
  std::string text = Mutate(FlashAttention(), "OpCapability CooperativeMatrixConversionsNV",
                            "OpCapability CooperativeMatrixConversionsNV\n"
                            "OpCapability CooperativeMatrixGetCoordinateEXT\n"
                            "OpExtension \"SPV_EXT_cooperative_matrix_maintenance1\"");
  text = Mutate(text, "%v3uint = OpTypeVector %uint 3",
                "%v3uint = OpTypeVector %uint 3\n%v2uint = OpTypeVector %uint 2");
  const std::string good = Mutate(text, kConvertUse,
                                  "%Pa = OpCooperativeMatrixConvertUseEXT %mQ %Pacc\n"
                                  "%rc = OpCooperativeMatrixGetCoordinateEXT %v2uint %P %uint_0");
  EXPECT_CLEAN(testing::ValidateText(good, "vulkan1.3"));
  const std::string bad = Mutate(text, kConvertUse,
                                 "%Pa = OpCooperativeMatrixConvertUseEXT %mQ %Pacc\n"
                                 "%rc = OpCooperativeMatrixGetCoordinateEXT %v3uint %P %uint_0");
  EXPECT_RULE(testing::ValidateText(bad, "vulkan1.3"), "coop-matrix2.get-coordinate");
}

// A view with a different dimension count than the layout; a valid 2D view first.
TEST(CoopMatrix2, TensorViewDimensionsMatchTheLayout) {
  const std::string layouts = testing::ReadFile("test/data/corpus/cm2_tensor_layouts.spvasm");
  ASSERT_FALSE(layouts.empty());
  EXPECT_CLEAN(testing::ValidateText(layouts, "vulkan1.3"));
  const std::string bad = Mutate(layouts, "%93 = OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_0",
                                 "%93 = OpTypeTensorViewNV %uint_2 %false %uint_1 %uint_1");
  EXPECT_RULE(testing::ValidateText(bad, "vulkan1.3"), "tensor.type.permutation");
}

// SPV_NV_cooperative_matrix2 2.16.1: a Workgroup-scope matrix type comes after the constants
// LocalSizeId names ("the workgroup size must have already been specified in the module").
TEST(CoopMatrix2, WorkgroupScopeAfterLocalSizeIdConstants) {
  const std::string after = R"(OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_NV_cooperative_matrix2"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionModeId %main LocalSizeId %x %u1 %u1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u16 = OpConstant %uint 16
%M = OpTypeCooperativeMatrixKHR %float %u2 %u16 %u16 %u2
%x = OpSpecConstant %uint 128
%main = OpFunction %void None %fn
%l = OpLabel
%m = OpUndef %M
OpReturn
OpFunctionEnd
)";
  EXPECT_RULE_AT(testing::ValidateText(after, "vulkan1.3"), "coop-matrix2.workgroup-size",
                 "OpTypeCooperativeMatrixKHR", "defined after it");
  const std::string before = testing::Mutate(
      testing::Mutate(after, "%x = OpSpecConstant %uint 128", ""), "%u16 = OpConstant %uint 16",
      "%u16 = OpConstant %uint 16\n%x = OpSpecConstant %uint 128");
  EXPECT_CLEAN(testing::ValidateText(before, "vulkan1.3"));
}

// OpCooperativeMatrixConvertUseEXT between integer components of one width and another
// signedness is valid, with CooperativeMatrixConversionsNV as with the EXT capability.
TEST(CoopMatrix2, ConvertUseChangesSignedness) {
  const std::string text = R"(OpCapability Shader
OpCapability Int64
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpCapability CooperativeMatrixGetCoordinateEXT
OpCapability CooperativeMatrixConversionsNV
OpExtension "SPV_NV_cooperative_matrix2"
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_EXT_cooperative_matrix_maintenance1"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 64 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%u0 = OpConstant %uint 0
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u16 = OpConstant %uint 16
%C_f = OpTypeCooperativeMatrixKHR %float %u3 %u16 %u16 %u2
%C_u = OpTypeCooperativeMatrixKHR %uint %u3 %u16 %u16 %u2
%A_i = OpTypeCooperativeMatrixKHR %int %u3 %u16 %u16 %u0
%A_u = OpTypeCooperativeMatrixKHR %uint %u3 %u16 %u16 %u0
%main = OpFunction %void None %fn
%l = OpLabel
%c = OpUndef %C_f
%cu = OpUndef %C_u
%f = OpUndef %float
%l64 = OpUndef %ulong
%x = OpCooperativeMatrixConvertUseEXT %A_i %cu
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const std::string wider = testing::Mutate(text, "%cu = OpUndef %C_u", "%cu = OpUndef %C_l");
  const std::string with_type =
      testing::Mutate(wider, "%C_u = OpTypeCooperativeMatrixKHR %uint %u3 %u16 %u16 %u2",
                      "%C_u = OpTypeCooperativeMatrixKHR %uint %u3 %u16 %u16 %u2\n"
                      "%C_l = OpTypeCooperativeMatrixKHR %ulong %u3 %u16 %u16 %u2");
  EXPECT_RULE_AT(testing::ValidateText(with_type, "vulkan1.3"), "coop-matrix2.convert-use",
                 "OpCooperativeMatrixConvertUseEXT", "must be the same");
}

}  // namespace
}  // namespace coopspv::val
