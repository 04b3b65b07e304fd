// SPV_KHR_cooperative_matrix / SPV_NV_cooperative_matrix rules: a realistic tiled matrix
// multiply validates clean, and one-line mutations of it are each reported with the rule they
// break. Smaller programs cover the NV instructions and the HLSL (DXC) shapes.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Mutate;
using testing::Mutation;
using testing::ReadFile;

const std::string& TiledMatmul() {
  static const std::string text = ReadFile("test/val/data/tiled_matmul_khr.spvasm");
  return text;
}

TEST(CoopMatrixKhr, TiledMatmulValidatesClean) {
  ASSERT_FALSE(TiledMatmul().empty());
  EXPECT_CLEAN(testing::ValidateText(TiledMatmul(), "vulkan1.3"));
}

// The store makes C available at Device scope, which under the Vulkan memory model needs
// VulkanMemoryModelDeviceScope (the kernel declared it only once scope.memory-model existed).
TEST(CoopMatrixKhr, DeviceScopeStoreNeedsDeviceScopeCapability) {
  const std::string text = Mutate(TiledMatmul(), "OpCapability VulkanMemoryModelDeviceScope", "");
  EXPECT_RULE_AT(testing::ValidateText(text, "vulkan1.3"), "scope.memory-model",
                 "OpCooperativeMatrixStoreKHR", "VulkanMemoryModelDeviceScope");
}

constexpr const char* kLoadA = "%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %K None";
constexpr const char* kLoadB = "%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %K Aligned 16";
constexpr const char* kMulAdd = "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c";
constexpr const char* kStore =
    "OpCooperativeMatrixStoreKHR %pC %result %rowMajor %N NonPrivatePointer|MakePointerAvailable "
    "%uint_1";
constexpr const char* kTypeA = "%matA = OpTypeCooperativeMatrixKHR %half %uint_3 %TM %TK %uint_0";
constexpr const char* kTypeB = "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %TN %uint_1";

const Mutation kMutations[] = {
    {"ComponentNotScalar", kTypeA,
     "%matA = OpTypeCooperativeMatrixKHR %v3uint %uint_3 %TM %TK %uint_0",
     "coop-matrix.type.component"},
    {"UseOutOfRange", kTypeB, "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %TN %uint_3",
     "coop-matrix.type.use"},
    // The type's Use is checked only when known; the multiply still checks that B's Use (here
    // a spec constant defaulting to 16) is MatrixBKHR on its default, as the reference does.
    {"UseSpecConstantDefaultInMulAdd", kTypeB,
     "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %TN %TK", "coop-matrix.muladd.use"},
    {"UseNotConstant", kTypeB, "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %TN %wg",
     "coop-matrix.type.use"},
    {"RowsFloat", kTypeA, "%matA = OpTypeCooperativeMatrixKHR %half %uint_3 %float_0 %TK %uint_0",
     "coop-matrix.type.dimension"},
    {"ScopeNotAScope", kTypeA, "%matA = OpTypeCooperativeMatrixKHR %half %TM %TM %TK %uint_0",
     "scope.id"},
    {"NoVulkanMemoryModel", "OpCapability VulkanMemoryModel", "", "coop-matrix.capability"},
    {"WorkgroupVariable", "%zeroC = OpConstantComposite %matC %float_0",
     "%zeroC = OpConstantComposite %matC %float_0\n"
     "%_ptr_Workgroup_matC = OpTypePointer Workgroup %matC\n"
     "%shared = OpVariable %_ptr_Workgroup_matC Workgroup",
     "coop-matrix.storage"},
    {"LoadFromMatrixVariable", kLoadA,
     "%a = OpCooperativeMatrixLoadKHR %matA %acc %rowMajor %K None", "coop-matrix.memory.pointer"},
    {"LoadFromStruct", kLoadA, "%a = OpCooperativeMatrixLoadKHR %matA %pK_p %rowMajor %K None",
     "coop-matrix.memory.pointer"},
    {"LoadFromPushConstant", kLoadA,
     "%a = OpCooperativeMatrixLoadKHR %matA %pK_p %rowMajor %K None",
     "coop-matrix.memory.storage-class"},
    {"LoadIntoNonMatrix", kLoadA, "%a = OpCooperativeMatrixLoadKHR %float %pA %rowMajor %K None",
     "coop-matrix.memory.matrix"},
    {"LayoutInvalid", "%colMajor = OpConstant %int 1", "%colMajor = OpConstant %int 7",
     "coop-matrix.memory.layout"},
    // A spec-constant layout is not checked on its default (256 here): specialization decides.
    {"LayoutSpecExpressionNotCheckedOnDefault", "%colMajor = OpConstant %int 1",
     "%colMajor = OpSpecConstantOp %int IMul %TM %TN", ""},
    {"LayoutSpecExpressionValid", "%colMajor = OpConstant %int 1",
     "%colMajor = OpSpecConstantOp %int SDiv %TM %TN", ""},
    {"LayoutArmWithoutCapability", "%colMajor = OpConstant %int 1",
     "%colMajor = OpConstant %int 4203", "coop-matrix.memory.layout"},
    {"LayoutNotConstant", kLoadB, "%b = OpCooperativeMatrixLoadKHR %matB %pB %k %K Aligned 16",
     "coop-matrix.memory.layout"},
    {"StrideMissing", kLoadA, "%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor",
     "coop-matrix.memory.stride"},
    {"StrideFloat", kLoadA, "%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %float_0 None",
     "coop-matrix.memory.stride"},
    // SPV_KHR_cooperative_matrix, RowMajorKHR: Stride must be greater than 0 for a store.
    {"StoreStrideZero", kStore,
     "OpCooperativeMatrixStoreKHR %pC %result %rowMajor %uint_0 "
     "NonPrivatePointer|MakePointerAvailable %uint_1",
     "coop-matrix.memory.stride-value"},
    {"LoadStrideZeroIsValid", kLoadA,
     "%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %int_0 None", ""},
    {"StoreMakePointerVisible", kStore,
     "OpCooperativeMatrixStoreKHR %pC %result %rowMajor %N NonPrivatePointer|MakePointerVisible "
     "%uint_1",
     "coop-matrix.memory.operands"},
    {"AvailableWithoutNonPrivate", kStore,
     "OpCooperativeMatrixStoreKHR %pC %result %rowMajor %N MakePointerAvailable %uint_1",
     "coop-matrix.memory.operands"},
    {"LoadMakePointerAvailable", kLoadB,
     "%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %K NonPrivatePointer|"
     "MakePointerAvailable %uint_1",
     "coop-matrix.memory.operands"},
    {"AlignedNotPowerOfTwo", kLoadB,
     "%b = OpCooperativeMatrixLoadKHR %matB %pB %colMajor %K Aligned 12",
     "coop-matrix.memory.operands"},
    {"MulAddSwappedUse", kMulAdd, "%d = OpCooperativeMatrixMulAddKHR %matC %b %a %c",
     "coop-matrix.muladd.use"},
    // Different spec constants (defaults 16 and 16, or any): specialization may make them equal.
    {"MulAddSpecDimsNotCompared", kTypeB,
     "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %TK %uint_1", ""},
    {"MulAddDims", kTypeB, "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %uint_2 %uint_1",
     ""},  // %uint_2 against the spec constant %TN: not provably different.
    {"MulAddScope", kTypeA, "%matA = OpTypeCooperativeMatrixKHR %half %uint_2 %TM %TK %uint_0",
     "coop-matrix.muladd.scope"},
    {"MulAddSaturatingFloat", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c SaturatingAccumulationKHR",
     "coop-matrix.muladd.operands"},
    {"MulAddSignedFloat", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c MatrixASignedComponentsKHR",
     "coop-matrix.muladd.operands"},
    {"MulAddNotMatrix", kMulAdd, "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %float_0",
     "coop-matrix.muladd.operand"},
    {"LengthSigned", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n"
     "%len = OpCooperativeMatrixLengthKHR %int %matC",
     "coop-matrix.length"},
    {"LengthOfValue", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n"
     "%len = OpCooperativeMatrixLengthKHR %uint %matA",
     ""},  // Valid: the type of another matrix is still a type.
    {"ArithTypeMismatch", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n%e = OpFAdd %matC %d %a",
     "coop-matrix.arith"},
    {"ArithIntOpOnFloat", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n%e = OpIAdd %matC %d %d",
     "coop-matrix.arith"},
    {"TimesScalarWrongType", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n%e = OpMatrixTimesScalar %matC %d %K",
     "coop-matrix.arith"},
    {"ConvertChangesShape", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n%e = OpFConvert %matA %d",
     "coop-matrix.convert"},
    {"BitcastFloat", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n%e = OpBitcast %matC %d",
     "coop-matrix.convert"},
    {"ExtractTwoIndexes", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n%e = OpCompositeExtract %float %d 0 1",
     "coop-matrix.composite"},
    {"ConstructTwoConstituents", kMulAdd,
     "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c\n"
     "%e = OpCompositeConstruct %matC %float_0 %float_0",
     "coop-matrix.composite"},
    {"ConstantTwoConstituents", "%zeroC = OpConstantComposite %matC %float_0",
     "%zeroC = OpConstantComposite %matC %float_0 %float_0", "constant.composite"},
};

class TiledMatmulMutation : public ::testing::TestWithParam<Mutation> {};

TEST_P(TiledMatmulMutation, IsReportedWithItsRule) {
  const Mutation& m = GetParam();
  const Result r =
      testing::ValidateText(Mutate(TiledMatmul(), m.anchor, m.replacement), "vulkan1.3");
  if (m.rule[0] == '\0') {
    EXPECT_CLEAN(r);
  } else {
    EXPECT_FALSE(r.valid);
    EXPECT_RULE(r, m.rule);
  }
}

INSTANTIATE_TEST_SUITE_P(CoopMatrixKhr, TiledMatmulMutation, ::testing::ValuesIn(kMutations),
                         [](const auto& info) { return std::string(info.param.name); });

// The tiled multiply with TM = TN = 16 and TK = 8 as plain constants: dimensions known before
// specialization.
std::string KnownDimsMatmul() {
  std::string text = TiledMatmul();
  int spec_id = 0;
  for (const char* name : {"TM", "TN", "TK"}) {
    const std::string n = name;
    text = Mutate(text, "OpDecorate %" + n + " SpecId " + std::to_string(spec_id++), "");
    text = Mutate(text, "%" + n + " = OpSpecConstant %uint 16",
                  "%" + n + " = OpConstant %uint " + (n == "TK" ? "8" : "16"));
  }
  return text;
}

TEST(CoopMatrixKhr, KnownDimsValidateClean) {
  EXPECT_CLEAN(testing::ValidateText(KnownDimsMatmul(), "vulkan1.3"));
}

// Known dimensions that differ are an error; the diagnostic names the instruction and both
// sides of the mismatch.
TEST(CoopMatrixKhr, DimensionMessageNamesBothSides) {
  const Result r = testing::ValidateText(
      Mutate(KnownDimsMatmul(), kTypeB,
             "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %TK %uint_1"),
      "vulkan1.3");
  EXPECT_FALSE(r.valid);
  bool seen = false;
  for (const auto& d : r.diagnostics) {
    if (std::string(d.rule->id) != "coop-matrix.muladd.dims") continue;
    seen = true;
    EXPECT_NE(d.message.find(" = OpCooperativeMatrixMulAddKHR: N"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("16 vs 8"), std::string::npos) << d.message;
    EXPECT_NE(d.instruction_text.find("OpCooperativeMatrixMulAddKHR"), std::string::npos);
  }
  EXPECT_TRUE(seen) << testing::Dump(r);
}

// Rows or Columns 0 breaks no clause: a warning, and the module stays valid; a spec constant
// is warned about on its default.
TEST(CoopMatrixKhr, EmptyMatrixIsAWarning) {
  for (const auto& [anchor, replacement] :
       {std::pair<std::string, std::string>{"%TK = OpConstant %uint 8", "%TK = OpConstant %uint 0"},
        {"%TK = OpConstant %uint 8", "%TK = OpConstant %uint 8\n%z = OpConstantNull %uint"}}) {
    std::string text = Mutate(KnownDimsMatmul(), anchor, replacement);
    if (replacement.find("%z") != std::string::npos) {
      text =
          Mutate(text, kTypeA, "%matA = OpTypeCooperativeMatrixKHR %half %uint_3 %TM %z %uint_0");
      text =
          Mutate(text, kTypeB, "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %z %TN %uint_1");
    }
    const Result r = testing::ValidateText(text, "vulkan1.3");
    EXPECT_TRUE(r.valid) << testing::Dump(r);
    EXPECT_TRUE(testing::HasRule(r, "coop-matrix.type.empty")) << testing::Dump(r);
  }
  const Result spec = testing::ValidateText(
      Mutate(TiledMatmul(), "%TM = OpSpecConstant %uint 16", "%TM = OpSpecConstant %uint 0"),
      "vulkan1.3");
  EXPECT_TRUE(spec.valid) << testing::Dump(spec);
  EXPECT_TRUE(testing::HasRule(spec, "coop-matrix.type.empty")) << testing::Dump(spec);
}

// A known Use that names no Cooperative Matrix Use is an error; a Use known to be the wrong one
// for a multiply operand too.
TEST(CoopMatrixKhr, KnownUseIsChecked) {
  EXPECT_RULE(testing::ValidateText(
                  Mutate(KnownDimsMatmul(), kTypeB,
                         "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %TN %uint_3"),
                  "vulkan1.3"),
              "coop-matrix.type.use");
}

// An OpSpecConstantOp of constants only has one value whatever the specialization: Use,
// MemoryLayout and the multiply's dimensions given so are checked like OpConstants.
TEST(CoopMatrixKhr, ConstantFoldedOperandsAreChecked) {
  const std::string text = Mutate(KnownDimsMatmul(), "%TK = OpConstant %uint 8",
                                  "%TK = OpConstant %uint 8\n"
                                  "%use6 = OpSpecConstantOp %uint IAdd %uint_3 %uint_3\n"
                                  "%layout3 = OpSpecConstantOp %int IAdd %int_1 %int_2\n"
                                  "%layout1 = OpSpecConstantOp %int ISub %int_2 %int_1\n"
                                  "%k16 = OpSpecConstantOp %uint IAdd %TK %TK\n"
                                  "%k8 = OpSpecConstantOp %uint ISub %TN %TK");
  EXPECT_RULE(
      testing::ValidateText(
          Mutate(text, kTypeB, "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK %TN %use6"),
          "vulkan1.3"),
      "coop-matrix.type.use");
  EXPECT_RULE_AT(
      testing::ValidateText(
          Mutate(text, kLoadB, "%b = OpCooperativeMatrixLoadKHR %matB %pB %layout3 %K Aligned 16"),
          "vulkan1.3"),
      "coop-matrix.memory.layout", "OpCooperativeMatrixLoadKHR",
      "is not a Cooperative Matrix Layout");
  EXPECT_RULE_AT(
      testing::ValidateText(Mutate(text, kStore,
                                   "OpCooperativeMatrixStoreKHR %pC %result %layout1 %uint_0 "
                                   "NonPrivatePointer|MakePointerAvailable %uint_1"),
                            "vulkan1.3"),
      "coop-matrix.memory.stride-value", "OpCooperativeMatrixStoreKHR", "ColumnMajorKHR");
  EXPECT_RULE_AT(
      testing::ValidateText(
          Mutate(text, kTypeB, "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %k16 %TN %uint_1"),
          "vulkan1.3"),
      "coop-matrix.muladd.dims", "OpCooperativeMatrixMulAddKHR", " (16)");
  EXPECT_CLEAN(testing::ValidateText(
      Mutate(
          Mutate(text, kTypeB, "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %k8 %TN %uint_1"),
          kLoadB, "%b = OpCooperativeMatrixLoadKHR %matB %pB %layout1 %K Aligned 16"),
      "vulkan1.3"));
}

// Equal known values count as the same dimension even when the ids differ; so do identical
// spec-constant expressions.
TEST(CoopMatrixKhr, SameValueThroughConstantsAndExpressions) {
  std::string text = Mutate(TiledMatmul(), "%TK = OpSpecConstant %uint 16",
                            "%TK = OpSpecConstant %uint 16\n"
                            "%TK2 = OpSpecConstantOp %uint IMul %TK %uint_1\n"
                            "%TK3 = OpSpecConstantOp %uint IMul %TK %uint_1");
  text = Mutate(text, kTypeA, "%matA = OpTypeCooperativeMatrixKHR %half %uint_3 %TM %TK2 %uint_0");
  text = Mutate(text, kTypeB, "%matB = OpTypeCooperativeMatrixKHR %half %uint_3 %TK3 %TN %uint_1");
  EXPECT_CLEAN(testing::ValidateText(text, "vulkan1.3"));
}

// SPV_ARM_cooperative_matrix_layouts: the known-dimension multiply with the ARM capability, B
// loaded with `layout` and `stride`. matA is half 16x8 (TM x TK), matB half 8x16 (TK x TN).
Result ArmLoad(const std::string& load) {
  std::string text = Mutate(KnownDimsMatmul(), "OpCapability CooperativeMatrixKHR",
                            "OpCapability CooperativeMatrixKHR\n"
                            "OpCapability CooperativeMatrixLayoutsARM");
  text = Mutate(text, "OpExtension \"SPV_KHR_cooperative_matrix\"",
                "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
                "OpExtension \"SPV_ARM_cooperative_matrix_layouts\"");
  text = Mutate(text, "%colMajor = OpConstant %int 1",
                "%colMajor = OpConstant %int 1\n%rowBlocked = OpConstant %int 4202\n"
                "%colBlocked = OpConstant %int 4203\n%four = OpConstant %uint 4");
  return testing::ValidateText(Mutate(text, kLoadB, load), "vulkan1.3");
}

TEST(CoopMatrixArmLayouts, BlockedLayoutsWithFittingShapesValidate) {
  // RowBlocked, Stride 1 and 2: Rows 8 (a multiple of 4), Columns 16 (of 8 and 16).
  EXPECT_CLEAN(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matB %pB %rowBlocked %uint_1 None"));
  EXPECT_CLEAN(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matB %pB %rowBlocked %uint_2 None"));
  // ColumnBlocked, Stride 2: Rows 8 (a multiple of 4 * 2), Columns 16 (of 16 / 2).
  EXPECT_CLEAN(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matB %pB %colBlocked %uint_2 None"));
}

TEST(CoopMatrixArmLayouts, StrideMustBeAConstantOneTwoOrFour) {
  EXPECT_RULE_AT(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matB %pB %rowBlocked %uint_3 None"),
                 "coop-matrix.memory.arm-blocked", "OpCooperativeMatrixLoadKHR",
                 "Stride is 3; it must be 1, 2 or 4");
  EXPECT_RULE_AT(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matB %pB %colBlocked %K None"),
                 "coop-matrix.memory.arm-blocked", "OpCooperativeMatrixLoadKHR",
                 "must be a constant instruction");
  EXPECT_RULE_AT(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matB %pB %colBlocked"),
                 "coop-matrix.memory.arm-blocked", "OpCooperativeMatrixLoadKHR", "needs a Stride");
}

TEST(CoopMatrixArmLayouts, ShapeMustFitTheBlocks) {
  // RowBlocked, Stride 2: Columns must be a multiple of 16; matA has 8.
  EXPECT_RULE_AT(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matA %pB %rowBlocked %uint_2 None"),
                 "coop-matrix.memory.arm-blocked", "OpCooperativeMatrixLoadKHR",
                 "needs Columns a multiple of 16; Columns is 8");
  // ColumnBlocked, Stride 4: Rows must be a multiple of 16; matB has 8.
  EXPECT_RULE_AT(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matB %pB %colBlocked %four None"),
                 "coop-matrix.memory.arm-blocked", "OpCooperativeMatrixLoadKHR",
                 "needs Rows a multiple of 16; Rows is 8");
  // ColumnBlocked, Stride 1: Rows a multiple of 4, Columns of 8 (16 bytes of half).
  EXPECT_CLEAN(ArmLoad("%b = OpCooperativeMatrixLoadKHR %matB %pB %colBlocked %uint_1 None"));
}

// SPV_KHR_cooperative_matrix, RowMajorKHR and ColumnMajorKHR: "Stride must be greater than 0
// when passed to OpCooperativeMatrixStoreKHR and must be greater than or equal to 0 when passed
// to OpCooperativeMatrixLoadKHR." The tiled multiply with more constants to pass as Stride, and
// `load` / `store` in place of A's load and the store of C.
Result WithStride(const std::string& load, const std::string& store) {
  std::string text = Mutate(TiledMatmul(), "%int_2 = OpConstant %int 2",
                            "%int_2 = OpConstant %int 2\n"
                            "%int_m1 = OpConstant %int -1\n"
                            "%int_16 = OpConstant %int 16\n"
                            "%uint_max = OpConstant %uint 4294967295\n"
                            "%int_null = OpConstantNull %int\n"
                            "%fold_m1 = OpSpecConstantOp %int ISub %int_1 %int_2\n"
                            "%fold_0 = OpSpecConstantOp %int IMul %int_0 %int_2\n"
                            "%spec_0 = OpSpecConstant %uint 0\n"
                            "%spec_m1 = OpSpecConstant %int -1\n"
                            "%spec_fold_m1 = OpSpecConstantOp %int ISub %spec_m1 %int_0\n"
                            "%spec_layout = OpSpecConstant %int 0");
  if (!load.empty()) text = Mutate(text, kLoadA, load);
  if (!store.empty()) text = Mutate(text, kStore, store);
  return testing::ValidateText(text, "vulkan1.3");
}

std::string LoadA(const std::string& layout, const std::string& stride) {
  return "%a = OpCooperativeMatrixLoadKHR %matA %pA " + layout + " " + stride + " None";
}

std::string StoreC(const std::string& layout, const std::string& stride) {
  return "OpCooperativeMatrixStoreKHR %pC %result " + layout + " " + stride +
         " NonPrivatePointer|MakePointerAvailable %uint_1";
}

TEST(CoopMatrixKhrStride, NegativeSignedConstantIsAnErrorForALoad) {
  EXPECT_RULE_AT(WithStride(LoadA("%rowMajor", "%int_m1"), ""), "coop-matrix.memory.stride-value",
                 "OpCooperativeMatrixLoadKHR", "Stride is -1");
  EXPECT_RULE_AT(WithStride(LoadA("%colMajor", "%int_m1"), ""), "coop-matrix.memory.stride-value",
                 "OpCooperativeMatrixLoadKHR", "ColumnMajorKHR");
}

TEST(CoopMatrixKhrStride, ZeroIsFineForALoad) {
  EXPECT_CLEAN(WithStride(LoadA("%rowMajor", "%int_0"), ""));
  EXPECT_CLEAN(WithStride(LoadA("%rowMajor", "%uint_0"), ""));
  EXPECT_CLEAN(WithStride(LoadA("%colMajor", "%int_null"), ""));
}

TEST(CoopMatrixKhrStride, ZeroOrNegativeIsAnErrorForAStore) {
  for (const char* stride : {"%uint_0", "%int_0", "%int_m1", "%int_null"}) {
    for (const char* layout : {"%rowMajor", "%colMajor"}) {
      EXPECT_RULE_AT(WithStride("", StoreC(layout, stride)), "coop-matrix.memory.stride-value",
                     "OpCooperativeMatrixStoreKHR", "greater than 0 for a store");
    }
  }
}

TEST(CoopMatrixKhrStride, PositiveConstantsAreFine) {
  EXPECT_CLEAN(WithStride(LoadA("%rowMajor", "%int_16"), StoreC("%rowMajor", "%int_16")));
  EXPECT_CLEAN(WithStride(LoadA("%colMajor", "%uint_1"), StoreC("%colMajor", "%uint_1")));
  // Signedness 0: the bits are an unsigned count, so 0xFFFFFFFF is 4294967295, not -1.
  EXPECT_CLEAN(WithStride(LoadA("%rowMajor", "%uint_max"), StoreC("%rowMajor", "%uint_max")));
}

// An OpSpecConstantOp of constants only has one value whatever the specialization.
TEST(CoopMatrixKhrStride, ConstantFoldedExpressionsAreChecked) {
  EXPECT_RULE_AT(WithStride(LoadA("%rowMajor", "%fold_m1"), ""), "coop-matrix.memory.stride-value",
                 "OpCooperativeMatrixLoadKHR", "Stride is -1");
  EXPECT_RULE_AT(WithStride("", StoreC("%rowMajor", "%fold_0")), "coop-matrix.memory.stride-value",
                 "OpCooperativeMatrixStoreKHR", "Stride is 0");
  EXPECT_CLEAN(WithStride(LoadA("%rowMajor", "%fold_0"), ""));
}

// Runtime values (the unmodified module passes the push-constant K and N) and spec constants are
// not judged: specialization may give a spec constant any value, whatever its default.
TEST(CoopMatrixKhrStride, RuntimeAndSpecConstantStridesAreAccepted) {
  EXPECT_CLEAN(WithStride("", ""));
  EXPECT_CLEAN(WithStride(LoadA("%rowMajor", "%TK"), StoreC("%rowMajor", "%TK")));
  EXPECT_CLEAN(WithStride(LoadA("%rowMajor", "%spec_m1"), StoreC("%rowMajor", "%spec_0")));
  EXPECT_CLEAN(WithStride(LoadA("%rowMajor", "%spec_fold_m1"), ""));
}

// The clause is RowMajorKHR's and ColumnMajorKHR's: with a layout known only after
// specialization the Stride is not judged.
TEST(CoopMatrixKhrStride, OnlyRowAndColumnMajorBoundTheStride) {
  EXPECT_CLEAN(WithStride("", StoreC("%spec_layout", "%uint_0")));
}

// A store with a spec-constant Scope id is fine once CooperativeMatrixKHR is declared.
TEST(CoopMatrixKhr, SpecConstantScopeIsAllowed) {
  std::string text = Mutate(TiledMatmul(), "%TK = OpSpecConstant %uint 16",
                            "%TK = OpSpecConstant %uint 16\n%scope = OpSpecConstant %uint 3");
  text = Mutate(text, kTypeA, "%matA = OpTypeCooperativeMatrixKHR %half %scope %TM %TK %uint_0");
  const Result r = testing::ValidateText(text, "vulkan1.3");
  EXPECT_FALSE(testing::HasRule(r, "scope.id")) << testing::Dump(r);
}

// The HLSL path: DXC's vk::khr::CooperativeMatrix loads and stores through a Workgroup pointer
// into a groupshared array and through a structured buffer, with NonPrivatePointer and
// MakePointerVisible / MakePointerAvailable at Workgroup and QueueFamily scope.
constexpr const char* kHlslShapes = R"(
               OpCapability Shader
               OpCapability VulkanMemoryModel
               OpCapability CooperativeMatrixKHR
               OpExtension "SPV_KHR_cooperative_matrix"
               OpMemoryModel Logical Vulkan
               OpEntryPoint GLCompute %main "main" %groupshared %buffer
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %_runtimearr_float ArrayStride 4
               OpDecorate %type_RWStructuredBuffer_float Block
               OpMemberDecorate %type_RWStructuredBuffer_float 0 Offset 0
               OpDecorate %buffer DescriptorSet 0
               OpDecorate %buffer Binding 0
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
      %int_0 = OpConstant %int 0
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_5 = OpConstant %uint 5
    %uint_16 = OpConstant %uint 16
   %uint_256 = OpConstant %uint 256
%_arr_float_uint_256 = OpTypeArray %float %uint_256
%_ptr_Workgroup__arr_float_uint_256 = OpTypePointer Workgroup %_arr_float_uint_256
%_ptr_Workgroup_float = OpTypePointer Workgroup %float
%_runtimearr_float = OpTypeRuntimeArray %float
%type_RWStructuredBuffer_float = OpTypeStruct %_runtimearr_float
%_ptr_StorageBuffer_type_RWStructuredBuffer_float = OpTypePointer StorageBuffer %type_RWStructuredBuffer_float
%_ptr_StorageBuffer_float = OpTypePointer StorageBuffer %float
%groupshared = OpVariable %_ptr_Workgroup__arr_float_uint_256 Workgroup
     %buffer = OpVariable %_ptr_StorageBuffer_type_RWStructuredBuffer_float StorageBuffer
        %mat = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_16 %uint_16 %uint_2
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
         %gs = OpAccessChain %_ptr_Workgroup_float %groupshared %uint_0
         %sb = OpAccessChain %_ptr_StorageBuffer_float %buffer %int_0 %uint_0
          %a = OpCooperativeMatrixLoadKHR %mat %sb %uint_0 %uint_16 NonPrivatePointer|MakePointerVisible %uint_5
               OpCooperativeMatrixStoreKHR %gs %a %uint_0 %uint_16 NonPrivatePointer|MakePointerAvailable %uint_2
          %b = OpCooperativeMatrixLoadKHR %mat %gs %uint_0 %uint_16 NonPrivatePointer|MakePointerVisible %uint_2
               OpCooperativeMatrixStoreKHR %sb %b %uint_0 %uint_16 NonPrivatePointer|MakePointerAvailable %uint_5
               OpReturn
               OpFunctionEnd
)";

TEST(CoopMatrixKhr, HlslShapesValidateClean) {
  EXPECT_CLEAN(testing::ValidateText(kHlslShapes, "vulkan1.3"));
}

TEST(CoopMatrixKhr, HlslGroupsharedWithoutArrayIsRejected) {
  // A groupshared scalar (no array) is not a pointer into an array.
  const std::string text = Mutate(
      Mutate(kHlslShapes, "%groupshared = OpVariable %_ptr_Workgroup__arr_float_uint_256 Workgroup",
             "%groupshared = OpVariable %_ptr_Workgroup_float Workgroup"),
      "%gs = OpAccessChain %_ptr_Workgroup_float %groupshared %uint_0",
      "%gs = OpCopyObject %_ptr_Workgroup_float %groupshared");
  const Result r =
      testing::ValidateText(Mutate(text,
                                   "%a = OpCooperativeMatrixLoadKHR %mat %sb %uint_0 %uint_16 "
                                   "NonPrivatePointer|MakePointerVisible %uint_5",
                                   "%a = OpCooperativeMatrixLoadKHR %mat %groupshared %uint_0 "
                                   "%uint_16 NonPrivatePointer|MakePointerVisible %uint_5"),
                            "vulkan1.3");
  EXPECT_RULE(r, "coop-matrix.memory.pointer");
}

// SPV_NV_cooperative_matrix.
constexpr const char* kNvProgram = R"(
               OpCapability Shader
               OpCapability Float16
               OpCapability StorageBuffer16BitAccess
               OpCapability CooperativeMatrixNV
               OpExtension "SPV_NV_cooperative_matrix"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 32 1 1
               OpDecorate %_runtimearr_half ArrayStride 2
               OpDecorate %S Block
               OpMemberDecorate %S 0 Offset 0
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
       %half = OpTypeFloat 16
     %uint_0 = OpConstant %uint 0
     %uint_3 = OpConstant %uint 3
     %uint_8 = OpConstant %uint 8
    %uint_16 = OpConstant %uint 16
      %false = OpConstantFalse %bool
       %true = OpConstantTrue %bool
%_runtimearr_half = OpTypeRuntimeArray %half
          %S = OpTypeStruct %_runtimearr_half
%_ptr_StorageBuffer_S = OpTypePointer StorageBuffer %S
%_ptr_StorageBuffer_half = OpTypePointer StorageBuffer %half
        %buf = OpVariable %_ptr_StorageBuffer_S StorageBuffer
       %matA = OpTypeCooperativeMatrixNV %half %uint_3 %uint_16 %uint_8
       %matB = OpTypeCooperativeMatrixNV %half %uint_3 %uint_8 %uint_16
       %matC = OpTypeCooperativeMatrixNV %half %uint_3 %uint_16 %uint_16
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
          %p = OpAccessChain %_ptr_StorageBuffer_half %buf %uint_0 %uint_0
          %a = OpCooperativeMatrixLoadNV %matA %p %uint_16 %false
          %b = OpCooperativeMatrixLoadNV %matB %p %uint_16 %true
          %c = OpCooperativeMatrixLoadNV %matC %p %uint_16 %false
          %d = OpCooperativeMatrixMulAddNV %matC %a %b %c
        %len = OpCooperativeMatrixLengthNV %uint %matC
               OpCooperativeMatrixStoreNV %p %d %uint_16 %false None
               OpReturn
               OpFunctionEnd
)";

TEST(CoopMatrixNv, ProgramValidatesClean) {
  EXPECT_CLEAN(testing::ValidateText(kNvProgram, "vulkan1.1"));
}

TEST(CoopMatrixNv, ColumnMajorMustBeABoolConstant) {
  const Result r = testing::ValidateText(
      Mutate(kNvProgram, "%a = OpCooperativeMatrixLoadNV %matA %p %uint_16 %false",
             "%a = OpCooperativeMatrixLoadNV %matA %p %uint_16 %uint_0"),
      "vulkan1.1");
  EXPECT_RULE(r, "coop-matrix.nv.column-major");
}

TEST(CoopMatrixNv, MulAddDimensions) {
  const Result r = testing::ValidateText(
      Mutate(kNvProgram, "%matB = OpTypeCooperativeMatrixNV %half %uint_3 %uint_8 %uint_16",
             "%matB = OpTypeCooperativeMatrixNV %half %uint_3 %uint_16 %uint_8"),
      "vulkan1.1");
  EXPECT_RULE(r, "coop-matrix.muladd.dims");
}

TEST(CoopMatrixNv, LengthNeedsAnNvType) {
  const Result r =
      testing::ValidateText(Mutate(kNvProgram, "%len = OpCooperativeMatrixLengthNV %uint %matC",
                                   "%len = OpCooperativeMatrixLengthNV %uint %half"),
                            "vulkan1.1");
  EXPECT_RULE(r, "coop-matrix.length");
}

TEST(CoopMatrixNv, KhrInstructionOnNvMatrixIsRejected) {
  const Result r =
      testing::ValidateText(Mutate(kNvProgram, "%d = OpCooperativeMatrixMulAddNV %matC %a %b %c",
                                   "%d = OpCooperativeMatrixMulAddKHR %matC %a %b %c"),
                            "vulkan1.1");
  EXPECT_FALSE(r.valid);
  EXPECT_RULE(r, "coop-matrix.muladd.operand");
}

// SPV_NV_cooperative_matrix lists negation, addition, subtraction and division for its matrices;
// element-wise multiplication is SPV_KHR_cooperative_matrix's.
TEST(CoopMatrixNv, ArithmeticWithoutElementWiseMultiply) {
  const std::string anchor = "%d = OpCooperativeMatrixMulAddNV %matC %a %b %c";
  EXPECT_CLEAN(testing::ValidateText(
      Mutate(kNvProgram, anchor, anchor + "\n%e = OpFAdd %matC %d %c\n%g = OpFDiv %matC %e %c"),
      "vulkan1.1"));
  const Result r = testing::ValidateText(
      Mutate(kNvProgram, anchor, anchor + "\n%e = OpFMul %matC %d %c"), "vulkan1.1");
  EXPECT_RULE_AT(r, "coop-matrix.arith", "OpFMul", "SPV_NV_cooperative_matrix");
  testing::ExpectOnly(r, "coop-matrix.arith");
}

// SPV_NV_cooperative_matrix gives the Stride no bound (GL_NV_cooperative_matrix passes a uint;
// only Vulkan's alignment applies, device.coop-matrix.load-store-alignment).
TEST(CoopMatrixNv, StrideValueIsNotBounded) {
  EXPECT_CLEAN(testing::ValidateText(
      Mutate(kNvProgram, "OpCooperativeMatrixStoreNV %p %d %uint_16 %false None",
             "OpCooperativeMatrixStoreNV %p %d %uint_0 %false None"),
      "vulkan1.1"));
}

TEST(CoopMatrixNv, StrideMustBeAnInteger) {
  const Result r = testing::ValidateText(
      Mutate(kNvProgram, "%c = OpCooperativeMatrixLoadNV %matC %p %uint_16 %false",
             "%c = OpCooperativeMatrixLoadNV %matC %p %true %false"),
      "vulkan1.1");
  EXPECT_RULE(r, "coop-matrix.memory.stride");
}

}  // namespace
}  // namespace coopspv::val
