// Tests of the extended instruction sets' import and operand rules (source/val/ext_inst.cc).
// Each verdict was compared with spirv-val's on the same module.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::RuleAt;
using testing::ValidateText;

// A GLCompute module importing NonSemantic.ClspvReflection.<version>; `reflection` follows the
// function. Defined: %main ("main"), strings %s_main, %s_other, %s_attr, %uint 0 / 4 (%u0, %u4),
// %i0 (int 0), %spec (a uint spec constant), %f0 (float 0), %wg (a Workgroup uint variable).
std::string Clspv(const std::string& reflection, const std::string& version = "5",
                  const std::string& extension = "OpExtension \"SPV_KHR_non_semantic_info\"\n") {
  return "OpCapability Shader\n" + extension +
         "%ext = OpExtInstImport \"NonSemantic.ClspvReflection." + version + R"("
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%s_main = OpString "main"
%s_other = OpString "other"
%s_attr = OpString ""
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%u0 = OpConstant %uint 0
%u4 = OpConstant %uint 4
%i0 = OpConstant %int 0
%f0 = OpConstant %float 0
%spec = OpSpecConstant %uint 1
%pwg = OpTypePointer Workgroup %uint
%wg = OpVariable %pwg Workgroup
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
%k = OpExtInst %void %ext Kernel %main %s_main
%info = OpExtInst %void %ext ArgumentInfo %s_other
)" + reflection;
}

TEST(ClspvReflection, ValidReflection) {
  EXPECT_CLEAN(
      ValidateText(Clspv(R"(%a0 = OpExtInst %void %ext ArgumentStorageBuffer %k %u0 %u0 %u0 %info
%a1 = OpExtInst %void %ext ArgumentPodPushConstant %k %u0 %u0 %u4
%a2 = OpExtInst %void %ext SpecConstantWorkgroupSize %u0 %u0 %u0
%a3 = OpExtInst %void %ext ConstantDataStorageBuffer %u0 %u0 %s_other
%a4 = OpExtInst %void %ext PrintfInfo %u0 %s_other %u4 %u4
%k5 = OpExtInst %void %ext Kernel %main %s_main %u0 %u0 %s_attr
)"),
                   "vulkan1.1"));
  // Version 7 has WorkgroupVariableSize; SPIR-V 1.6 needs no extension for NonSemantic sets.
  EXPECT_CLEAN(ValidateText(
      Clspv("%v = OpExtInst %void %ext WorkgroupVariableSize %wg %u4\n", "7", ""), "vulkan1.3"));
}

TEST(ClspvReflection, Uint32ConstantOperands) {
  for (const char* bad : {"%i0", "%f0", "%spec", "%s_main"}) {
    const auto r =
        ValidateText(Clspv(std::string("%a = OpExtInst %void %ext ArgumentStorageBuffer %k %u0 ") +
                           bad + " %u0\n"),
                     "vulkan1.1");
    EXPECT_TRUE(RuleAt(r, "clspv.operand", "ArgumentStorageBuffer",
                       "is not a 32-bit unsigned integer OpConstant"));
  }
  EXPECT_TRUE(
      RuleAt(ValidateText(Clspv("%a = OpExtInst %void %ext PrintfInfo %u0 %s_other %u4 %i0\n"),
                          "vulkan1.1"),
             "clspv.operand", "PrintfInfo", "ArgumentSizes %int_0 is not"));
}

TEST(ClspvReflection, StringAndInstructionOperands) {
  EXPECT_TRUE(
      RuleAt(ValidateText(Clspv("%a = OpExtInst %void %ext ConstantDataUniform %u0 %u0 %u0\n"),
                          "vulkan1.1"),
             "clspv.operand", "ConstantDataUniform", "Data %uint_0 is not an OpString"));
  EXPECT_TRUE(
      RuleAt(ValidateText(Clspv("%a = OpExtInst %void %ext ArgumentUniform %info %u0 %u0 %u0\n"),
                          "vulkan1.1"),
             "clspv.operand", "ArgumentUniform", "is not a Kernel instruction of the same import"));
  EXPECT_TRUE(
      RuleAt(ValidateText(Clspv("%a = OpExtInst %void %ext ArgumentUniform %k %u0 %u0 %u0 %k\n"),
                          "vulkan1.1"),
             "clspv.operand", "ArgumentUniform", "is not an ArgumentInfo instruction"));
  EXPECT_TRUE(
      RuleAt(ValidateText(Clspv("%v = OpExtInst %void %ext WorkgroupVariableSize %u0 %u4\n", "7"),
                          "vulkan1.1"),
             "clspv.operand", "WorkgroupVariableSize", "Workgroup storage class"));
  EXPECT_TRUE(RuleAt(
      ValidateText(Clspv("%a = OpExtInst %uint %ext SpecConstantWorkDim %u0\n"), "vulkan1.1"),
      "clspv.operand", "SpecConstantWorkDim", "is not OpTypeVoid"));
}

TEST(ClspvReflection, Kernel) {
  EXPECT_TRUE(
      RuleAt(ValidateText(Clspv("%a = OpExtInst %void %ext Kernel %main %s_other\n"), "vulkan1.1"),
             "clspv.operand", "Kernel", "is the name of no entry point"));
  EXPECT_TRUE(
      RuleAt(ValidateText(Clspv("%a = OpExtInst %void %ext Kernel %u0 %s_main\n"), "vulkan1.1"),
             "clspv.operand", "Kernel", "is not an OpFunction"));
  EXPECT_TRUE(RuleAt(
      ValidateText(Clspv("%a = OpExtInst %void %ext Kernel %main %s_main %spec\n"), "vulkan1.1"),
      "clspv.operand", "Kernel", "NumArguments %"));
  EXPECT_TRUE(
      RuleAt(ValidateText(Clspv("%a = OpExtInst %void %ext Kernel %main %s_main %u0 %u0 %u0\n"),
                          "vulkan1.1"),
             "clspv.operand", "Kernel", "Attributes %uint_0 is not an OpString"));
  EXPECT_TRUE(RuleAt(
      ValidateText(Clspv("%a = OpExtInst %void %ext Kernel %main %s_main %u0\n", "4"), "vulkan1.1"),
      "clspv.operand", "Kernel", "missing before version 5"));
}

// A GLCompute module with NonSemantic.Shader.DebugInfo.<version> debug information; `debug`
// follows the types. Defined: %dbg_src (DebugSource), %dbg_float (DebugTypeBasic float),
// %dbg_fn (DebugTypeFunction), %u1 .. %u16 (uint), %i16 (int), %spec16 (a uint spec constant).
std::string DebugInfo(const std::string& debug, const std::string& version = "101") {
  return R"(OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%ext = OpExtInstImport "NonSemantic.Shader.DebugInfo.)" +
         version + R"("
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%s_float = OpString "float"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%u1 = OpConstant %uint 1
%u3 = OpConstant %uint 3
%u16 = OpConstant %uint 16
%u32 = OpConstant %uint 32
%i16 = OpConstant %int 16
%spec16 = OpSpecConstant %uint 16
%fn = OpTypeFunction %void
%dbg_src = OpExtInst %void %ext DebugSource %file
%dbg_float = OpExtInst %void %ext DebugTypeBasic %s_float %u32 %u3 %u1
%dbg_fn = OpExtInst %void %ext DebugTypeFunction %u1 %void
)" + debug +
         R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
}

TEST(DebugInfo, CooperativeTypes) {
  EXPECT_CLEAN(ValidateText(
      DebugInfo("%m = OpExtInst %void %ext DebugTypeCooperativeMatrixKHR %dbg_float %u3 %spec16 "
                "%u16 %u1\n%v = OpExtInst %void %ext DebugTypeVectorIdEXT %dbg_float %spec16"),
      "vulkan1.3"));
  // glslang -gVS names int spec constants for the dimensions, which the set does not allow.
  EXPECT_TRUE(RuleAt(
      ValidateText(DebugInfo("%m = OpExtInst %void %ext DebugTypeCooperativeMatrixKHR %dbg_float "
                             "%u3 %i16 %u16 %u1"),
                   "vulkan1.3"),
      "debug-info.operand", "DebugTypeCooperativeMatrixKHR",
      "Rows %int_16 is not a 32-bit unsigned integer constant or specialization constant"));
  EXPECT_TRUE(
      RuleAt(ValidateText(DebugInfo("%v = OpExtInst %void %ext DebugTypeVectorIdEXT %dbg_fn %u16"),
                          "vulkan1.3"),
             "debug-info.operand", "DebugTypeVectorIdEXT", "is not a DebugTypeBasic"));
  EXPECT_TRUE(
      RuleAt(ValidateText(
                 DebugInfo("%v = OpExtInst %void %ext DebugTypeVectorIdEXT %dbg_float %u16", "100"),
                 "vulkan1.3"),
             "ext-inst.set-version", "DebugTypeVectorIdEXT", "from version 101"));
}

// DebugTypeVector describes 1 to 4 components; a longer vector is DebugTypeVectorIdEXT's
// (glslang 16 -gV writes DebugTypeVector for long vectors, which the reference rejects too).
TEST(DebugInfo, VectorComponentCount) {
  EXPECT_CLEAN(ValidateText(DebugInfo("%v = OpExtInst %void %ext DebugTypeVector %dbg_float %u3")));
  EXPECT_TRUE(RuleAt(
      ValidateText(DebugInfo("%v = OpExtInst %void %ext DebugTypeVector %dbg_float %u16")),
      "debug-info.operand", "DebugTypeVector", "Component Count 16 is not from 1 to 4"));
}

TEST(DebugInfo, Operands) {
  EXPECT_TRUE(
      RuleAt(ValidateText(DebugInfo("%b = OpExtInst %void %ext DebugTypeBasic %u1 %u32 %u3 %u1"),
                          "vulkan1.3"),
             "debug-info.operand", "DebugTypeBasic", "Name %uint_1 is not an OpString"));
  EXPECT_TRUE(RuleAt(
      ValidateText(DebugInfo("%b = OpExtInst %void %ext DebugTypeBasic %s_float %u32 %i16 %u1"),
                   "vulkan1.3"),
      "debug-info.operand", "DebugTypeBasic", "Encoding %int_16 is not a 32-bit unsigned"));
  EXPECT_TRUE(
      RuleAt(ValidateText(DebugInfo("%p = OpExtInst %void %ext DebugTypePointer %u1 %u1 %u1"),
                          "vulkan1.3"),
             "debug-info.operand", "DebugTypePointer", "is not a debug type instruction"));
  EXPECT_TRUE(RuleAt(
      ValidateText(
          DebugInfo("%cu = OpExtInst %void %ext DebugCompilationUnit %u1 %u1 %dbg_float %u1"),
          "vulkan1.3"),
      "debug-info.operand", "DebugCompilationUnit", "is not a DebugSource"));
  EXPECT_TRUE(
      RuleAt(ValidateText(DebugInfo("%s = OpExtInst %uint %ext DebugSource %file"), "vulkan1.3"),
             "debug-info.operand", "DebugSource", "is not OpTypeVoid"));
}

TEST(ExtInst, SetVersion) {
  const auto r = ValidateText(
      Clspv("%a = OpExtInst %void %ext SpecConstantSubgroupMaxSize %u4\n", "1"), "vulkan1.1");
  EXPECT_TRUE(RuleAt(r, "ext-inst.set-version", "SpecConstantSubgroupMaxSize", "from version 2"));
  EXPECT_CLEAN(ValidateText(
      Clspv("%a = OpExtInst %void %ext SpecConstantSubgroupMaxSize %u4\n", "2"), "vulkan1.1"));
}

TEST(ExtInst, ImportVersion) {
  for (const char* version : {"", "0", "8", "1a"}) {
    EXPECT_TRUE(RuleAt(ValidateText(Clspv("", version), "vulkan1.1"), "ext-inst.import-version",
                       "OpExtInstImport"))
        << version;
  }
  const std::string debug_info = R"(OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%ext = OpExtInstImport "NonSemantic.Shader.DebugInfo.99"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_TRUE(RuleAt(ValidateText(debug_info, "vulkan1.1"), "ext-inst.import-version",
                     "OpExtInstImport", "has no version 99 (versions 100 and later)"));
  EXPECT_CLEAN(ValidateText(
      testing::Mutate(debug_info, "%ext = OpExtInstImport \"NonSemantic.Shader.DebugInfo.99\"",
                      "%ext = OpExtInstImport \"NonSemantic.Shader.DebugInfo.101\""),
      "vulkan1.1"));
}

TEST(ExtInst, NonSemanticExtension) {
  EXPECT_TRUE(RuleAt(ValidateText(Clspv("", "5", ""), "vulkan1.1"),
                     "ext-inst.non-semantic-extension", "OpExtInstImport"));
}

}  // namespace
}  // namespace coopspv::val
