// SPV_NV_cooperative_vector rules: a realistic two-layer MLP with a training step validates
// clean, and one-line mutations of it are each reported with the rule they break.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Mutate;
using testing::Mutation;

const std::string& Mlp() {
  static const std::string text = testing::ReadFile("test/val/data/mlp_coopvec.spvasm");
  return text;
}

TEST(CoopVector, MlpValidatesClean) {
  ASSERT_FALSE(Mlp().empty());
  EXPECT_CLEAN(testing::ValidateText(Mlp(), "vulkan1.3"));
}

constexpr const char* kLayer1 =
    "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %fp16 %pW %offB1 %fp16 "
    "%uint_32 %uint_16 %rowMajor %false %uint_32";
constexpr const char* kLayer2 =
    "%out = OpCooperativeVectorMatrixMulAddNV %vOut %h %fp16 %pW %offW2 %fp16 %pW %offB2 %fp16 "
    "%uint_8 %uint_32 %inferOpt %false";
constexpr const char* kLoad = "%x = OpCooperativeVectorLoadNV %vIn %pIn %inOff None";
constexpr const char* kStore = "OpCooperativeVectorStoreNV %pOut %outOff %out None";
constexpr const char* kOuter =
    "OpCooperativeVectorOuterProductAccumulateNV %pGrad %uint_0 %h %x %trainOpt %fp16";
constexpr const char* kReduce = "OpCooperativeVectorReduceSumAccumulateNV %pGrad %offB1 %h";
constexpr const char* kRelu = "%h = OpExtInst %vHidden %glsl FMax %h0 %hiddenZero";
constexpr const char* kOffset = "%inOff = OpIMul %uint %idx %uint_32";

const Mutation kMutations[] = {
    {"ComponentNotScalar", "%vIn = OpTypeVectorIdEXT %half %uint_16",
     "%vIn = OpTypeVectorIdEXT %v3uint %uint_16", "coop-vector.type"},
    {"CountZero", "%uint_0 = OpConstant %uint 0",
     "%uint_0 = OpConstant %uint 0\n%vBad = OpTypeVectorIdEXT %half %uint_0", "coop-vector.type"},
    {"CountNotConstant", "%vIn = OpTypeVectorIdEXT %half %uint_16",
     "%vIn = OpTypeVectorIdEXT %half %gid", "coop-vector.type"},
    {"NoVulkanMemoryModel", "OpCapability VulkanMemoryModel", "", "coop-vector.capability"},
    {"PrivateIsFine", "%hiddenZero = OpConstantCompositeReplicateEXT %vHidden %half_0",
     "%hiddenZero = OpConstantCompositeReplicateEXT %vHidden %half_0\n"
     "%_ptr_Private_vIn = OpTypePointer Private %vIn\n%keep = OpVariable %_ptr_Private_vIn Private",
     ""},
    {"WorkgroupVariable", "%hiddenZero = OpConstantCompositeReplicateEXT %vHidden %half_0",
     "%hiddenZero = OpConstantCompositeReplicateEXT %vHidden %half_0\n"
     "%_ptr_Workgroup_vIn = OpTypePointer Workgroup %vIn\n"
     "%shared = OpVariable %_ptr_Workgroup_vIn Workgroup",
     "coop-vector.storage"},
    {"LoadIntoScalar", kLoad, "%x = OpCooperativeVectorLoadNV %half %pIn %inOff None",
     "coop-vector.memory.vector"},
    {"LoadFromStructPointer", kLoad, "%x = OpCooperativeVectorLoadNV %vIn %inputs %inOff None",
     "coop-vector.memory.pointer"},
    {"LoadFromInputStorage", kLoad, "%x = OpCooperativeVectorLoadNV %vIn %gid %inOff None",
     "coop-vector.memory.storage-class"},
    {"OffsetNot32Bit", kOffset,
     "%inOff = OpIMul %uint %idx %uint_32\n%badOff = OpFNegate %half %half_0",
     ""},  // An unused value: still valid.
    {"LoadOffsetFloat", kLoad, "%x = OpCooperativeVectorLoadNV %vIn %pIn %half_0 None",
     "coop-vector.memory.offset"},
    {"LoadMakePointerAvailable", kLoad,
     "%x = OpCooperativeVectorLoadNV %vIn %pIn %inOff NonPrivatePointer|MakePointerAvailable "
     "%uint_4",
     "coop-vector.memory.operands"},
    {"StoreWithoutNonPrivate", kStore,
     "OpCooperativeVectorStoreNV %pOut %outOff %out MakePointerAvailable %uint_4",
     "coop-vector.memory.operands"},
    {"StoreScalar", kStore, "OpCooperativeVectorStoreNV %pOut %outOff %half_0 None",
     "coop-vector.memory.vector"},
    {"ResultHalfIntVector", kLayer2,
     "%out = OpCooperativeVectorMatrixMulAddNV %vHidden %h %fp16 %pW %offW2 %fp16 %pW %offB2 %fp16 "
     "%uint_8 %uint_32 %inferOpt %false",
     "coop-vector.matmul.result"},
    {"InputNotVector", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %half_0 %fp16 %pW %offW1 %fp16 %pW %offB1 "
     "%fp16 %uint_32 %uint_16 %rowMajor %false %uint_32",
     "coop-vector.matmul.input"},
    {"KMismatch", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %fp16 %pW %offB1 %fp16 "
     "%uint_32 %uint_8 %rowMajor %false %uint_32",
     "coop-vector.matmul.k"},
    {"PackedNeedsUint", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %packedS8 %pW %offW1 %fp16 %pW %offB1 "
     "%fp16 %uint_32 %uint_16 %rowMajor %false %uint_32",
     "coop-vector.matmul.k"},
    {"MNotConstant", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %fp16 %pW %offB1 %fp16 "
     "%idx %uint_16 %rowMajor %false %uint_32",
     "coop-vector.matmul.constant"},
    {"MMismatch", kLayer2,
     "%out = OpCooperativeVectorMatrixMulAddNV %vOut %h %fp16 %pW %offW2 %fp16 %pW %offB2 %fp16 "
     "%uint_16 %uint_32 %inferOpt %false",
     "coop-vector.matmul.result"},
    {"InterpretationInvalid", kLayer2,
     "%out = OpCooperativeVectorMatrixMulAddNV %vOut %h %fp16 %pW %offW2 %uint_64 %pW %offB2 "
     "%fp16 %uint_8 %uint_32 %inferOpt %false",
     "coop-vector.matmul.interpretation"},
    {"LayoutInvalid", kLayer2,
     "%out = OpCooperativeVectorMatrixMulAddNV %vOut %h %fp16 %pW %offW2 %fp16 %pW %offB2 %fp16 "
     "%uint_8 %uint_32 %uint_8 %false",
     "coop-vector.matmul.layout"},
    {"TransposeRowMajor", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %fp16 %pW %offB1 %fp16 "
     "%uint_32 %uint_16 %rowMajor %true %uint_32",
     "coop-vector.matmul.transpose"},
    {"TransposeNotBool", kLayer2,
     "%out = OpCooperativeVectorMatrixMulAddNV %vOut %h %fp16 %pW %offW2 %fp16 %pW %offB2 %fp16 "
     "%uint_8 %uint_32 %inferOpt %uint_0",
     "coop-vector.matmul.transpose"},
    // MatrixStride is an optional operand (SPV_NV_cooperative_vector lists it so) even with the
    // row- and column-major layouts; where present, a 32-bit integer.
    {"RowMajorWithoutStrideIsValid", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %fp16 %pW %offB1 %fp16 "
     "%uint_32 %uint_16 %rowMajor %false",
     ""},
    {"FloatStride", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %fp16 %pW %offB1 %fp16 "
     "%uint_32 %uint_16 %rowMajor %false %half_0",
     "coop-vector.matmul.stride"},
    {"MatrixInWorkgroup", "%grads = OpVariable %_ptr_StorageBuffer_Halfs StorageBuffer",
     "%grads = OpVariable %_ptr_StorageBuffer_Halfs StorageBuffer\n"
     "%_ptr_Workgroup__arr = OpTypePointer Workgroup %arr64\n"
     "%wgW = OpVariable %_ptr_Workgroup__arr Workgroup",
     ""},  // Declared only; used in the next mutation.
    {"BiasOffsetFloat", kLayer2,
     "%out = OpCooperativeVectorMatrixMulAddNV %vOut %h %fp16 %pW %offW2 %fp16 %pW %half_0 %fp16 "
     "%uint_8 %uint_32 %inferOpt %false",
     "coop-vector.matmul.offset"},
    {"SignedInputOnFloat", kLayer2,
     "%out = OpCooperativeVectorMatrixMulAddNV %vOut %h %fp16 %pW %offW2 %fp16 %pW %offB2 %fp16 "
     "%uint_8 %uint_32 %inferOpt %false %uint_64 MatrixBSignedComponentsKHR",
     "coop-vector.matmul.operands"},
    {"Float8RowMajorMatrix", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %e4m3 %pW %offB1 %fp16 "
     "%uint_32 %uint_16 %rowMajor %false %uint_32",
     "vulkan.coop-vector-float8-layout"},
    {"Float8ColumnMajorMatrix", kLayer1,
     "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %e5m2 %pW %offB1 %fp16 "
     "%uint_32 %uint_16 %colMajor %false %uint_32",
     "vulkan.coop-vector-float8-layout"},
    {"Float8OptimalMatrixIsFine", kLayer2,
     "%out = OpCooperativeVectorMatrixMulAddNV %vOut %h %fp16 %pW %offW2 %e4m3 %pW %offB2 %fp16 "
     "%uint_8 %uint_32 %inferOpt %false",
     ""},
    {"OuterProductMixedTypes", kOuter,
     "OpCooperativeVectorOuterProductAccumulateNV %pGrad %uint_0 %h %out %trainOpt %fp16",
     "coop-vector.outer-product"},
    {"OuterProductBadLayout", kOuter,
     "OpCooperativeVectorOuterProductAccumulateNV %pGrad %uint_0 %h %x %uint_8 %fp16",
     "coop-vector.outer-product"},
    {"ReduceSumScalar", kReduce, "OpCooperativeVectorReduceSumAccumulateNV %pGrad %offB1 %half_0",
     "coop-vector.reduce-sum"},
    {"ReduceSumWithoutTraining", "OpCapability CooperativeVectorTrainingNV", "",
     "capability.instruction"},
    {"ReluOnOtherType", kRelu, "%h = OpExtInst %vHidden %glsl FMax %h0 %x", "coop-vector.ext-inst"},
    {"SinNotAllowed", kRelu, "%h = OpExtInst %vHidden %glsl Sin %h0", "coop-vector.ext-inst"},
    {"IntMaxOnFloat", kRelu, "%h = OpExtInst %vHidden %glsl UMax %h0 %hiddenZero",
     "coop-vector.ext-inst"},
    {"AddMismatch", kRelu, "%h = OpFAdd %vHidden %h0 %x", "coop-vector.arith"},
    {"IntOpOnFloat", kRelu, "%h = OpIAdd %vHidden %h0 %h0", "coop-vector.arith"},
    {"BitOpOnFloat", kRelu, "%h = OpBitwiseAnd %vHidden %h0 %h0", "coop-vector.arith"},
    {"TimesScalarOk", kRelu, "%h = OpVectorTimesScalar %vHidden %h0 %half_0", ""},
    {"TimesScalarWrongScalar", kRelu, "%h = OpVectorTimesScalar %vHidden %h0 %uint_4",
     "coop-vector.arith"},
    {"ConvertCountMismatch", kRelu, "%h = OpFConvert %vHidden %out", "coop-vector.convert"},
    {"ShuffleNotAllowed", kRelu, "%h = OpVectorShuffle %vHidden %h0 %h0 0 1",
     "coop-vector.composite"},
    {"ExtractTwoIndexes", kRelu,
     "%h = OpFMul %vHidden %h0 %h0\n%e = OpCompositeExtract %half %h 0 1", "coop-vector.composite"},
};

class MlpMutation : public ::testing::TestWithParam<Mutation> {};

TEST_P(MlpMutation, IsReportedWithItsRule) {
  const Mutation& m = GetParam();
  std::string text = Mlp();
  // Helpers some mutations use.
  text = Mutate(text, "%false = OpConstantFalse %bool",
                "%false = OpConstantFalse %bool\n%true = OpConstantTrue %bool\n"
                "%packedS8 = OpConstant %uint 1000491000\n"
                "%e4m3 = OpConstant %uint 1000491002\n%e5m2 = OpConstant %uint 1000491003\n"
                "%colMajor = OpConstant %uint 1\n"
                "%arr64 = OpTypeArray %half %uint_64");
  const Result r = testing::ValidateText(Mutate(text, m.anchor, m.replacement), "vulkan1.3");
  if (m.rule[0] == '\0') {
    EXPECT_CLEAN(r);
  } else {
    EXPECT_FALSE(r.valid);
    EXPECT_RULE(r, m.rule);
  }
}

INSTANTIATE_TEST_SUITE_P(CoopVector, MlpMutation, ::testing::ValuesIn(kMutations),
                         [](const auto& info) { return std::string(info.param.name); });

// VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10090 is Vulkan's: outside a Vulkan
// environment a row-major float8 matrix is fine; a spec-constant layout is not judged.
TEST(CoopVector, Float8RowMajorMatrixIsOnlyAVulkanError) {
  std::string text = Mutate(Mlp(), "%false = OpConstantFalse %bool",
                            "%false = OpConstantFalse %bool\n%e4m3 = OpConstant %uint 1000491002\n"
                            "%specLayout = OpSpecConstant %uint 0");
  const std::string row_major = Mutate(
      text, kLayer1,
      "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %e4m3 %pW %offB1 %fp16 "
      "%uint_32 %uint_16 %rowMajor %false %uint_32");
  EXPECT_RULE(testing::ValidateText(row_major, "vulkan1.3"), "vulkan.coop-vector-float8-layout");
  EXPECT_FALSE(testing::HasRule(testing::ValidateText(row_major, "spv1.6"),
                                "vulkan.coop-vector-float8-layout"));
  const std::string spec = Mutate(
      text, kLayer1,
      "%h0 = OpCooperativeVectorMatrixMulAddNV %vHidden %x %fp16 %pW %offW1 %e4m3 %pW %offB1 %fp16 "
      "%uint_32 %uint_16 %specLayout %false %uint_32");
  EXPECT_CLEAN(testing::ValidateText(spec, "vulkan1.3"));
}

// Opcode 5288 under either name, and a long vector is not a cooperative vector.
TEST(CoopVector, EitherSpellingOfOpcode5288) {
  const std::string text = Mutate(Mlp(), "%vIn = OpTypeVectorIdEXT %half %uint_16",
                                  "%vIn = OpTypeCooperativeVectorNV %half %uint_16");
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
}

constexpr const char* kLongVector = R"(
               OpCapability Shader
               OpCapability LongVectorEXT
               OpExtension "SPV_EXT_long_vector"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %uint_5 = OpConstant %uint 5
        %v5f = OpTypeVectorIdEXT %float %uint_5
%_ptr_Workgroup_v5f = OpTypePointer Workgroup %v5f
     %shared = OpVariable %_ptr_Workgroup_v5f Workgroup
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
          %v = OpLoad %v5f %shared
          %s = OpVectorShuffle %v5f %v %v 0 1 2 3 4
               OpStore %shared %s
               OpReturn
               OpFunctionEnd
)";

TEST(CoopVector, LongVectorsMayLiveInWorkgroupAndShuffle) {
  const Result r = testing::ValidateText(kLongVector, "spv1.6");
  EXPECT_FALSE(testing::HasRule(r, "coop-vector.storage")) << testing::Dump(r);
  EXPECT_FALSE(testing::HasRule(r, "coop-vector.composite")) << testing::Dump(r);
}

// SPV_EXT_long_vector: Boolean components, a spec-constant count (its default may be 0: validity is
// decided after specialization), and conversions between OpTypeVector and OpTypeVectorIdEXT.
constexpr const char* kLongVectorConversions = R"(
               OpCapability Shader
               OpCapability LongVectorEXT
               OpExtension "SPV_EXT_long_vector"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %n SpecId 0
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
          %n = OpSpecConstant %uint 0
    %uint_20 = OpConstant %uint 20
   %v20float = OpTypeVector %float 20
    %v20uint = OpTypeVector %uint 20
   %vid20flt = OpTypeVectorIdEXT %float %uint_20
      %vnflt = OpTypeVectorIdEXT %float %n
     %vnbool = OpTypeVectorIdEXT %bool %n
%_ptr_Function_v20float = OpTypePointer Function %v20float
%_ptr_Function_vnflt = OpTypePointer Function %vnflt
%_ptr_Function_vnbool = OpTypePointer Function %vnbool
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
         %vf = OpVariable %_ptr_Function_v20float Function
         %vn = OpVariable %_ptr_Function_vnflt Function
         %vb = OpVariable %_ptr_Function_vnbool Function
          %a = OpLoad %v20float %vf
          %b = OpBitcast %vid20flt %a
          %c = OpBitcast %v20float %b
          %d = OpBitcast %v20uint %b
          %e = OpLoad %vnflt %vn
          %f = OpFOrdLessThan %vnbool %e %e
               OpStore %vb %f
               OpReturn
               OpFunctionEnd
)";

TEST(CoopVector, LongVectorConversionsBoolsAndSpecCounts) {
  EXPECT_CLEAN(testing::ValidateText(kLongVectorConversions, "vulkan1.3"));
}

TEST(CoopVector, LongVectorBitcastKeepsTheTotalWidth) {
  const std::string text = Mutate(kLongVectorConversions, "%b = OpBitcast %vid20flt %a",
                                  "%b = OpBitcast %vid20flt %a\n%bad = OpBitcast %vnflt %a");
  // %vnflt's count is a spec constant: not known, so not compared.
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
  const std::string bad = Mutate(kLongVectorConversions, "%uint_20 = OpConstant %uint 20",
                                 "%uint_20 = OpConstant %uint 20\n%uint_10 = OpConstant %uint 10");
  const Result r =
      testing::ValidateText(Mutate(Mutate(bad, "%vid20flt = OpTypeVectorIdEXT %float %uint_20",
                                          "%vid20flt = OpTypeVectorIdEXT %float %uint_20\n"
                                          "%vid10flt = OpTypeVectorIdEXT %float %uint_10"),
                                   "%d = OpBitcast %v20uint %b", "%d = OpBitcast %vid10flt %a"),
                            "vulkan1.3");
  EXPECT_TRUE(testing::RuleAt(r, "coop-vector.convert", "OpBitcast", "total widths differ"))
      << testing::Dump(r);
}

TEST(CoopVector, BoolComponentsOnlyForLongVectors) {
  const std::string text =
      Mutate(Mlp(), "%vIn = OpTypeVectorIdEXT %half %uint_16",
             "%vIn = OpTypeVectorIdEXT %half %uint_16\n"
             "%bool_ = OpTypeBool\n%vBool = OpTypeVectorIdEXT %bool_ %uint_16");
  const Result r = testing::ValidateText(text, "vulkan1.3");
  EXPECT_TRUE(testing::RuleAt(r, "coop-vector.type", "OpTypeCooperativeVectorNV %bool",
                              "is not a scalar integer or float type"))
      << testing::Dump(r);
}

TEST(CoopVector, MessagesSpellOpcode5288AsTheModuleMeansIt) {
  // A CooperativeVectorNV module: OpTypeCooperativeVectorNV; a long-vector module:
  // OpTypeVectorIdEXT.
  const std::string coop = Mutate(Mlp(), "%vIn = OpTypeVectorIdEXT %half %uint_16",
                                  "%vIn = OpTypeVectorIdEXT %half %uint_16\n"
                                  "%vBad = OpTypeVectorIdEXT %half %uint_0");
  EXPECT_TRUE(testing::RuleAt(testing::ValidateText(coop, "vulkan1.3"), "coop-vector.type",
                              "OpTypeCooperativeVectorNV %half %uint_0",
                              "OpTypeCooperativeVectorNV: Component Count is 0"));
}

}  // namespace
}  // namespace coopspv::val
