// Tests of the id rules (source/val/ids.cc): each id defined once, every used id defined, each
// operand naming the kind of definition its instruction needs, and no forward references
// outside functions except where SPIR-V allows them.
#include <string>
#include <string_view>
#include <vector>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::Dump;
using testing::ExpectOnly;
using testing::RuleAt;
using testing::RuleIds;
using testing::ValidateText;

// A shader with names, decorations of ids defined later, a call to a function defined later,
// a loop and a GLSL.std.450 instruction: every kind of id reference in its place.
constexpr std::string_view kEveryKindOfReference = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
OpExecutionMode %main LocalSize 64 1 1
OpName %main "main"
OpName %length_of "length_of"
OpName %Params "Params"
OpMemberName %Params 0 "scale"
OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
OpDecorate %Params Block
OpMemberDecorate %Params 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%fn_length = OpTypeFunction %float %v2float
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
%Params = OpTypeStruct %float
%bool = OpTypeBool
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%float_3 = OpConstant %float 3
%float_4 = OpConstant %float 4
%v = OpConstantComposite %v2float %float_3 %float_4
%main = OpFunction %void None %fn
%entry = OpLabel
%gid = OpLoad %v3uint %gl_GlobalInvocationID
%x = OpCompositeExtract %uint %gid 0
%len = OpFunctionCall %float %length_of %v
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %body
%more = OpULessThan %bool %i %uint_4
OpLoopMerge %exit %body None
OpBranchConditional %more %body %exit
%body = OpLabel
%next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
OpReturn
OpFunctionEnd
%length_of = OpFunction %float None %fn_length
%p = OpFunctionParameter %v2float
%le = OpLabel
%l = OpExtInst %float %glsl Length %p
OpReturnValue %l
OpFunctionEnd
)";

TEST(Ids, EveryKindOfReferenceIsValid) { EXPECT_CLEAN(ValidateText(kEveryKindOfReference)); }

// ---------------------------------------------------------------- id.duplicate

TEST(IdDuplicate, TwoConstantsDefineOneId) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%limit = OpConstant %uint 16
%limit = OpConstant %uint 32
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.duplicate", "OpConstant %uint 32", "already defines");
  EXPECT_FALSE(RuleAt(r, "id.duplicate", "OpConstant %uint 16"));
  EXPECT_EQ(RuleIds(r), std::vector<std::string>{"id.duplicate"}) << Dump(r);
}

TEST(IdDuplicate, ValueInAFunctionRedefinesALabel) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%entry = OpIAdd %uint %uint_1 %uint_1
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.duplicate", "OpIAdd %uint %uint_1 %uint_1", "");
  for (const Diagnostic& d : r.diagnostics) {
    if (std::string_view(d.rule->id) == "id.duplicate") {
      EXPECT_EQ(d.opcode, static_cast<uint32_t>(spv::Op::IAdd));
      EXPECT_NE(d.result_id, 0u);
    }
  }
}

// BUG (undefined behaviour): CoopMatrixRules::CheckType (source/val/coop_matrix.cc) looks the
// type up by its result id; when that id was already defined by an earlier instruction (here an
// OpConstant), GetCoopMatrixType() returns nullopt and `type->component` / `type->khr` read an
// empty std::optional. Under `bazel test --config=asan` UBSan aborts: "coop_matrix.cc:195:14:
// runtime error: load of value 128, which is not a valid value for type 'bool'". In the default
// build the test passes by chance, so it stays disabled until the rule checks the optional.
TEST(IdDuplicate, CooperativeMatrixTypeRedefinesAConstant) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpCapability Float16
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 32 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%uint = OpTypeInt 32 0
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%uint_2 = OpConstant %uint 2
%acc = OpConstant %uint 7
%acc = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_2
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.duplicate", "OpTypeCooperativeMatrixKHR", "already defines");
}

// ---------------------------------------------------------------- id.undefined

TEST(IdUndefined, UndefinedOperandInAFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%sum = OpIAdd %uint %uint_1 %missing
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.undefined", "OpIAdd %uint %uint_1", "is not defined");
  ExpectOnly(r, "id.undefined");
}

TEST(IdUndefined, UndefinedDecorationTarget) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %missing Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.undefined", "OpDecorate", "is not defined");
  ASSERT_EQ(RuleIds(r), std::vector<std::string>{"id.undefined"}) << Dump(r);
  EXPECT_EQ(r.diagnostics[0].opcode, static_cast<uint32_t>(spv::Op::Decorate));
}

TEST(IdUndefined, UndefinedResultTypeOfAVariable) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %counter "counter"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%counter = OpVariable %_ptr_Private_uint Private
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.undefined", "%counter = OpVariable", "is not defined");
}

TEST(IdUndefined, UndefinedBranchTarget) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %nowhere
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.undefined", "OpBranch", "is not defined");
  // The branch rules leave undefined targets to the id rules.
  ExpectOnly(r, "id.undefined");
}

// ---------------------------------------------------------------- id.kind

TEST(IdKind, TypeWhereAValueIsRequired) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%sum = OpIAdd %uint %uint %uint_1
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpIAdd %uint %uint %uint_1", "must be a value");
  ExpectOnly(r, "id.kind");
}

TEST(IdKind, ValueWhereATypeIsRequired) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%v2 = OpTypeVector %uint_1 2
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpTypeVector %uint_1 2", "must be a type");
  ExpectOnly(r, "id.kind");
}

TEST(IdKind, LoadResultTypeIsNotAType) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %_ptr_Function_uint Function
%y = OpLoad %uint_1 %x
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpLoad %uint_1", "must be a type");
}

TEST(IdKind, BranchToANonLabel) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %uint_1
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpBranch %uint_1", "must be an OpLabel");
}

TEST(IdKind, CallOfANonFunction) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %_ptr_Function_uint Function
%r = OpFunctionCall %void %x
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpFunctionCall %void", "must be an OpFunction");
}

TEST(IdKind, ExtInstSetIsNotAnImport) {
  // 31 is GLSL.std.450 Sqrt; the set operand names a constant instead of %glsl.
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%root = OpExtInst %float %float_2 31 %float_2
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpExtInst %float", "must be an OpExtInstImport");
}

TEST(IdKind, ExtInstOfAnImportIsValid) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%root = OpExtInst %float %glsl Sqrt %float_2
OpReturn
OpFunctionEnd
)");
  EXPECT_CLEAN(r);
}

TEST(IdKind, FunctionTypeOperandIsAValue) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %uint_1
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpFunction %void None %uint_1", "must be a type");
}

TEST(IdKind, MemberDecorationOfAVariable) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %counter "counter"
OpMemberDecorate %counter 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Private_uint = OpTypePointer Private %uint
%counter = OpVariable %_ptr_Private_uint Private
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpMemberDecorate %counter 0 Offset 0", "must be a type");
}

TEST(IdKind, PhiParentIsNotALabel) {
  const Result r = ValidateText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_2 = OpConstant %float 2
%_ptr_Function_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %next
%next = OpLabel
%x = OpPhi %uint %uint_1 %uint_1
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.kind", "OpPhi %uint %uint_1 %uint_1", "must be an OpLabel");
}

// BUG: ids.cc gives every operand of an OpExtInst of a known set Want::kValue, but the operands
// of NonSemantic.Shader.DebugInfo.100 instructions are OpStrings and debug-info results (which
// have result type void, so they pass) — DebugSource's File and Text operands are reported as
// id.kind errors: "operand ''Operand 1', + 'Operand 2', + ...' %file must be a value ..., not
// %file = OpString". spirv-val accepts this module.
TEST(IdKind, NonSemanticDebugInfoTakesStrings) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "shader.comp"
%source = OpString "void main() {}"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%src = OpExtInst %void %dbg DebugSource %file %source
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_FALSE(testing::HasRule(r, "id.kind")) << Dump(r);
}

// ---------------------------------------------------------------- id.forward-reference

TEST(IdForwardReference, ConstantOfATypeDeclaredLater) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%true = OpConstantTrue %bool
%bool = OpTypeBool
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.forward-reference", "OpConstantTrue %bool", "used before its definition");
  ExpectOnly(r, "id.forward-reference");
}

TEST(IdForwardReference, CompositeOfAConstantDeclaredLater) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%uint_1 = OpConstant %uint 1
%pair = OpConstantComposite %v2uint %uint_1 %uint_2
%uint_2 = OpConstant %uint 2
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.forward-reference", "OpConstantComposite %v2uint", "%uint_2");
}

TEST(IdForwardReference, StructMemberDeclaredLater) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %Outer "Outer"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%Outer = OpTypeStruct %float %Inner
%Inner = OpTypeStruct %float
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.forward-reference", "%Outer = OpTypeStruct", "before its definition");
}

// A linked list in physical storage buffer memory: the node struct refers to a pointer to
// itself, which OpTypeForwardPointer declares ahead.
constexpr std::string_view kLinkedList = R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main" %pc
OpExecutionMode %main LocalSize 1 1 1
OpName %Node "Node"
OpMemberName %Node 0 "next"
OpMemberName %Node 1 "value"
OpMemberDecorate %Node 0 Offset 0
OpMemberDecorate %Node 1 Offset 8
OpDecorate %PushConstants Block
OpMemberDecorate %PushConstants 0 Offset 0
OpTypeForwardPointer %_ptr_PhysicalStorageBuffer_Node PhysicalStorageBuffer
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%Node = OpTypeStruct %_ptr_PhysicalStorageBuffer_Node %uint
%_ptr_PhysicalStorageBuffer_Node = OpTypePointer PhysicalStorageBuffer %Node
%PushConstants = OpTypeStruct %_ptr_PhysicalStorageBuffer_Node
%_ptr_PushConstant_PushConstants = OpTypePointer PushConstant %PushConstants
%pc = OpVariable %_ptr_PushConstant_PushConstants PushConstant
%_ptr_PushConstant_Node_ptr = OpTypePointer PushConstant %_ptr_PhysicalStorageBuffer_Node
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%uint_7 = OpConstant %uint 7
%main = OpFunction %void None %fn
%entry = OpLabel
%head_address = OpAccessChain %_ptr_PushConstant_Node_ptr %pc %int_0
%head = OpLoad %_ptr_PhysicalStorageBuffer_Node %head_address
%value = OpAccessChain %_ptr_PhysicalStorageBuffer_uint %head %int_1
OpStore %value %uint_7 Aligned 4
OpReturn
OpFunctionEnd
)";

TEST(IdForwardReference, ForwardPointerLetsAStructReferToALaterPointer) {
  EXPECT_CLEAN(ValidateText(kLinkedList));
}

TEST(IdForwardReference, WithoutTheForwardPointerTheReferenceIsAnError) {
  std::string text(kLinkedList);
  const std::string line =
      "OpTypeForwardPointer %_ptr_PhysicalStorageBuffer_Node PhysicalStorageBuffer\n";
  text.erase(text.find(line), line.size());
  const Result r = ValidateText(text);
  EXPECT_RULE_AT(r, "id.forward-reference", "%Node = OpTypeStruct",
                 "%_ptr_PhysicalStorageBuffer_Node is used before its definition");
}

TEST(IdForwardReference, VariableInitializerDeclaredLater) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %counter "counter"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%_ptr_Private_uint = OpTypePointer Private %uint
%counter = OpVariable %_ptr_Private_uint Private %uint_0
%uint_0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.forward-reference", "%counter = OpVariable", "%uint_0");
}

// ---------------------------------------------------------------- id.ext-inst-forward-refs
// Debug info of a pointer to a type declared after it (glslang -gVS writes these for buffer
// references): only OpExtInstWithForwardRefsKHR may name the later DebugTypeBasic.
constexpr std::string_view kDebugPointerAhead = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
OpExtension "SPV_KHR_relaxed_extended_instruction"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%name = OpString "uint"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_32 = OpConstant %uint 32
%uint_6 = OpConstant %uint 6
%uint_0 = OpConstant %uint 0
%ptr = OPCODE %void %dbg DebugTypePointer %basic %uint_6 %uint_0
%basic = OpExtInst %void %dbg DebugTypeBasic %name %uint_32 %uint_6 %uint_0
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

std::string WithOpcode(std::string_view text, std::string_view opcode) {
  std::string out(text);
  out.replace(out.find("OPCODE"), 6, opcode);
  return out;
}

TEST(IdExtInstForwardRefs, NamesALaterDebugType) {
  EXPECT_CLEAN(ValidateText(WithOpcode(kDebugPointerAhead, "OpExtInstWithForwardRefsKHR")));
}

TEST(IdExtInstForwardRefs, OpExtInstMayNotNameALaterDefinition) {
  const Result r = ValidateText(WithOpcode(kDebugPointerAhead, "OpExtInst"));
  EXPECT_RULE_AT(r, "id.forward-reference", "OpExtInst %void %1 DebugTypePointer",
                 "is used before its definition");
  ExpectOnly(r, "id.forward-reference");
}

TEST(IdExtInstForwardRefs, WithoutAForwardReferenceItMustBeOpExtInst) {
  std::string text = WithOpcode(kDebugPointerAhead, "OpExtInstWithForwardRefsKHR");
  text.replace(text.find("DebugTypePointer %basic"), 23, "DebugTypePointer %name ");
  const Result r = ValidateText(text);
  EXPECT_RULE_AT(r, "id.ext-inst-forward-refs", "OpExtInstWithForwardRefsKHR %void",
                 "names no id defined after it");
}

TEST(IdExtInstForwardRefs, OnlyForNonSemanticSets) {
  const Result r = ValidateText(R"(
OpCapability Shader
OpExtension "SPV_KHR_relaxed_extended_instruction"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%float_2 = OpConstant %float 2
%main = OpFunction %void None %fn
%entry = OpLabel
%root = OpExtInstWithForwardRefsKHR %float %glsl Sqrt %float_2
OpReturn
OpFunctionEnd
)");
  EXPECT_RULE_AT(r, "id.ext-inst-forward-refs", "OpExtInstWithForwardRefsKHR %float %1 Sqrt",
                 "(\"GLSL.std.450\") is not a non-semantic extended instruction set");
}

}  // namespace
}  // namespace coopspv::val
