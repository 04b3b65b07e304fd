// Tests of the block layout rules (source/val/block_layout.cc): one buffer block whose
// decorations each test changes, validated in the environments whose defaults differ.
#include <string>

#include "test/val/val_test_util.h"

namespace coopspv::val {
namespace {

using testing::HasRule;
using testing::Mutate;
using testing::ValidateText;

// A Block with a float, a vec3, a float[4] and a column-major mat2, in `sc` storage; std430
// offsets (valid for every storage class but Uniform Block, which needs extended alignment).
std::string Block(const std::string& sc) {
  std::string text = R"(
               OpCapability Shader
               OpExtension "SPV_KHR_storage_buffer_storage_class"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %S 0 Offset 0
               OpMemberDecorate %S 1 Offset 16
               OpMemberDecorate %S 2 Offset 28
               OpMemberDecorate %S 3 Offset 48
               OpMemberDecorate %S 3 ColMajor
               OpMemberDecorate %S 3 MatrixStride 8
               OpDecorate %S Block
               OpDecorate %v DescriptorSet 0
               OpDecorate %v Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %uint_4 = OpConstant %uint 4
         %v3 = OpTypeVector %float 3
         %v2 = OpTypeVector %float 2
         %m2 = OpTypeMatrix %v2 2
        %arr = OpTypeArray %float %uint_4
          %S = OpTypeStruct %float %v3 %arr %m2
          %p = OpTypePointer SC %S
          %v = OpVariable %p SC
       %main = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
)";
  for (size_t at; (at = text.find("SC")) != std::string::npos;) text.replace(at, 2, sc);
  if (sc == "PushConstant") {
    text = testing::Mutate(text, "OpDecorate %v DescriptorSet 0", "");
    text = testing::Mutate(text, "OpDecorate %v Binding 0", "");
  }
  return text;
}

TEST(BlockLayout, Std430BlockIsValid) {
  for (const char* env : {"vulkan1.0", "vulkan1.1", "vulkan1.3", "spv1.6"}) {
    SCOPED_TRACE(env);
    EXPECT_CLEAN(ValidateText(Block("StorageBuffer"), env));
  }
  EXPECT_CLEAN(ValidateText(Block("Uniform"), "spv1.6"));  // Alignment is Vulkan's rule.
}

TEST(BlockLayout, MissingOffsetStrideOrMatrixStride) {
  const std::string text = Block("StorageBuffer");
  for (const char* env : {"vulkan1.3", "spv1.6"}) {
    EXPECT_RULE_AT(ValidateText(Mutate(text, "OpMemberDecorate %S 2 Offset 28", ""), env),
                   "block-layout.explicit", "OpTypeStruct", "member 2 of %_struct_3 has no Offset");
    EXPECT_RULE_AT(ValidateText(Mutate(text, "OpDecorate %arr ArrayStride 4", ""), env),
                   "block-layout.explicit", "OpTypeArray", "no ArrayStride");
    EXPECT_RULE_AT(ValidateText(Mutate(text, "OpMemberDecorate %S 3 MatrixStride 8", ""), env),
                   "block-layout.explicit", "OpTypeStruct", "without a MatrixStride");
  }
}

// Uniform Block: extended alignment (arrays and matrices to 16), unless
// --uniform-buffer-standard-layout; BufferBlock keeps base alignment.
TEST(BlockLayout, UniformBlockUsesExtendedAlignment) {
  const std::string text = Block("Uniform");
  const Result r = ValidateText(text, "vulkan1.3");
  EXPECT_RULE_AT(r, "block-layout.array-stride", "OpTypeArray", "extended (std140) alignment 16");
  EXPECT_RULE_AT(r, "block-layout.matrix-stride", "OpTypeStruct", "MatrixStride 8");
  EXPECT_RULE_AT(r, "block-layout.offset", "OpTypeStruct", "member 2 of %_struct_3 at Offset 28");
  Options standard;
  standard.env = *ParseTargetEnv("vulkan1.3");
  standard.uniform_buffer_standard_layout = true;
  EXPECT_CLEAN(ValidateText(text, standard));
  EXPECT_CLEAN(
      ValidateText(Mutate(text, "OpDecorate %S Block", "OpDecorate %S BufferBlock"), "vulkan1.3"));
  std::string std140 =
      Mutate(text, "OpDecorate %arr ArrayStride 4", "OpDecorate %arr ArrayStride 16");
  std140 = Mutate(std140, "OpMemberDecorate %S 2 Offset 28", "OpMemberDecorate %S 2 Offset 32");
  std140 = Mutate(std140, "OpMemberDecorate %S 3 Offset 48", "OpMemberDecorate %S 3 Offset 96");
  std140 = Mutate(std140, "OpMemberDecorate %S 3 MatrixStride 8",
                  "OpMemberDecorate %S 3 MatrixStride 16");
  EXPECT_CLEAN(ValidateText(std140, "vulkan1.0"));
  // The padding after an array, up to its alignment, is not free for the next member.
  EXPECT_RULE_AT(ValidateText(Mutate(std140, "OpMemberDecorate %S 3 Offset 96",
                                     "OpMemberDecorate %S 3 Offset 80"),
                              "vulkan1.0"),
                 "block-layout.overlap", "OpTypeStruct", "which end at 96");
}

// Relaxed block layout (the default from vulkan1.1; --relax-block-layout before): a vector is
// aligned to its component and does not straddle a 16-byte boundary.
TEST(BlockLayout, RelaxedVectorPlacement) {
  const std::string text = Mutate(Block("StorageBuffer"), "OpMemberDecorate %S 1 Offset 16",
                                  "OpMemberDecorate %S 1 Offset 4");
  EXPECT_CLEAN(ValidateText(text, "vulkan1.1"));
  EXPECT_RULE_AT(ValidateText(text, "vulkan1.0"), "block-layout.offset", "OpTypeStruct",
                 "base (std430) alignment 16");
  Options relaxed;
  relaxed.env = *ParseTargetEnv("vulkan1.0");
  relaxed.relax_block_layout = true;
  EXPECT_CLEAN(ValidateText(text, relaxed));
  const std::string straddle = Mutate(Block("StorageBuffer"), "OpMemberDecorate %S 1 Offset 16",
                                      "OpMemberDecorate %S 1 Offset 8");
  EXPECT_RULE_AT(ValidateText(straddle, "vulkan1.1"), "block-layout.offset", "OpTypeStruct",
                 "straddle");
  const std::string odd = Mutate(Block("StorageBuffer"), "OpMemberDecorate %S 1 Offset 16",
                                 "OpMemberDecorate %S 1 Offset 6");
  EXPECT_RULE_AT(ValidateText(odd, "vulkan1.1"), "block-layout.offset", "OpTypeStruct",
                 "component size 4");
}

TEST(BlockLayout, OverlapAndStrides) {
  const std::string text = Block("StorageBuffer");
  EXPECT_RULE_AT(ValidateText(Mutate(text, "OpMemberDecorate %S 2 Offset 28",
                                     "OpMemberDecorate %S 2 Offset 24"),
                              "vulkan1.3"),
                 "block-layout.overlap", "OpTypeStruct", "member 2 of %_struct_3 at Offset 24");
  EXPECT_RULE_AT(
      ValidateText(Mutate(text, "OpDecorate %arr ArrayStride 4", "OpDecorate %arr ArrayStride 2"),
                   "vulkan1.3"),
      "block-layout.array-stride", "OpTypeArray", "smaller than its element");
  EXPECT_RULE_AT(ValidateText(Mutate(text, "OpMemberDecorate %S 3 MatrixStride 8",
                                     "OpMemberDecorate %S 3 MatrixStride 12"),
                              "vulkan1.3"),
                 "block-layout.matrix-stride", "OpTypeStruct", "MatrixStride 12");
  EXPECT_RULE_AT(ValidateText(Mutate(text, "OpMemberDecorate %S 3 Offset 48",
                                     "OpMemberDecorate %S 3 Offset 44"),
                              "vulkan1.3"),
                 "block-layout.offset", "OpTypeStruct", "alignment 8");
  // The same in PushConstant storage; scalar layout allows the packed offset; --skip-block-layout
  // checks nothing.
  const std::string packed = Mutate(Block("PushConstant"), "OpMemberDecorate %S 3 Offset 48",
                                    "OpMemberDecorate %S 3 Offset 44");
  EXPECT_RULE(ValidateText(packed, "vulkan1.3"), "block-layout.offset");
  Options scalar;
  scalar.env = *ParseTargetEnv("vulkan1.3");
  scalar.scalar_block_layout = true;
  EXPECT_CLEAN(ValidateText(packed, scalar));
  Options skip;
  skip.env = *ParseTargetEnv("vulkan1.3");
  skip.skip_block_layout = true;
  EXPECT_CLEAN(ValidateText(Mutate(packed, "OpMemberDecorate %S 2 Offset 28", ""), skip));
}

// An array of itself (an id used before its definition) in a block ends in a diagnostic, not a
// hang (found by mutating coopvec_int8_packed).
TEST(BlockLayout, SelfReferencingArrayTerminates) {
  const std::string text = Mutate(Block("StorageBuffer"), "%arr = OpTypeArray %float %uint_4",
                                  "%arr = OpTypeRuntimeArray %arr");
  EXPECT_RULE(ValidateText(text, "vulkan1.3"), "id.forward-reference");
}

// Booleans are not stored in externally visible storage classes (SPIR-V 2.16.2).
TEST(BlockLayout, NoBooleanInABuffer) {
  std::string text = Mutate(Block("StorageBuffer"), "%S = OpTypeStruct %float %v3 %arr %m2",
                            "%bool = OpTypeBool\n%S = OpTypeStruct %bool %v3 %arr %m2");
  EXPECT_RULE_AT(ValidateText(text, "spv1.6"), "block-layout.bool", "OpVariable", "Boolean");
  const std::string private_bool =
      Mutate(Block("StorageBuffer"), "%v = OpVariable %p StorageBuffer",
             "%v = OpVariable %p StorageBuffer\n%bool = OpTypeBool\n"
             "%pb = OpTypePointer Private %bool\n%b = OpVariable %pb Private");
  EXPECT_CLEAN(ValidateText(private_bool, "vulkan1.3"));
}

// A Block is not nested in another Block (at any depth, through arrays).
TEST(BlockLayout, NoBlockInsideABlock) {
  const std::string nested =
      Mutate(Mutate(Block("StorageBuffer"), "%S = OpTypeStruct %float %v3 %arr %m2",
                    "%In = OpTypeStruct %float\n%inarr = OpTypeArray %In %uint_4\n"
                    "%S = OpTypeStruct %float %v3 %arr %m2 %inarr"),
             "OpDecorate %S Block",
             "OpDecorate %S Block\nOpDecorate %In Block\n"
             "OpMemberDecorate %In 0 Offset 0\nOpDecorate %inarr ArrayStride 16\n"
             "OpMemberDecorate %S 4 Offset 64");
  EXPECT_RULE_AT(ValidateText(nested, "vulkan1.3"), "block-layout.nested-block", "OpVariable",
                 "is not nested in another Block");
  EXPECT_CLEAN(ValidateText(Mutate(nested, "OpDecorate %In Block", ""), "vulkan1.3"));
}

// SPV_EXT_long_vector, as glslang lays long vectors out and spirv-val checks them: one component
// aligns as a scalar, three or more as four components.
TEST(BlockLayout, LongVectors) {
  const std::string text = R"(
OpCapability Shader
OpCapability LongVectorEXT
OpExtension "SPV_EXT_long_vector"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr5 ArrayStride 32
OpDecorate %arr1 ArrayStride 4
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 64
OpMemberDecorate %S 2 Offset 92
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_2 = OpConstant %uint 2
%uint_7 = OpConstant %uint 7
%v5uint = OpTypeVector %uint 5
%v7uint = OpTypeVectorIdEXT %uint %uint_7
%v1uint = OpTypeVector %uint 1
%arr5 = OpTypeArray %v5uint %uint_2
%arr1 = OpTypeArray %v1uint %uint_2
%S = OpTypeStruct %arr5 %v7uint %arr1
%ptr = OpTypePointer StorageBuffer %S
%buf = OpVariable %ptr StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(ValidateText(text, "vulkan1.3"));
  // A tight 20-byte stride is scalar layout only.
  const std::string tight =
      Mutate(text, "OpDecorate %arr5 ArrayStride 32", "OpDecorate %arr5 ArrayStride 20");
  EXPECT_RULE_AT(ValidateText(tight, "vulkan1.3"), "block-layout.array-stride", "OpTypeArray",
                 "ArrayStride 20 is not a multiple of its base (std430) alignment 16");
  Options scalar;
  scalar.env = *ParseTargetEnv("vulkan1.3");
  scalar.scalar_block_layout = true;
  EXPECT_CLEAN(ValidateText(
      Mutate(tight, "OpMemberDecorate %S 1 Offset 64", "OpMemberDecorate %S 1 Offset 40"), scalar));
}

// SPV_KHR_untyped_pointers: the data type an untyped variable, access chain, load or store names
// is laid out by its storage class's rules, Block or not (Vulkan, as spirv-val checks it).
std::string Untyped(const std::string& sc, const std::string& use) {
  std::string text = R"(
OpCapability Shader
OpCapability VariablePointers
OpCapability UntypedPointersKHR
OpCapability WorkgroupMemoryExplicitLayoutKHR
OpExtension "SPV_KHR_untyped_pointers"
OpExtension "SPV_KHR_variable_pointers"
OpExtension "SPV_KHR_workgroup_memory_explicit_layout"
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %var
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %B Block
OpMemberDecorate %B 0 Offset 0
OpMemberDecorate %B 1 Offset 16
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 16
OpDecorate %arr ArrayStride 16
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_4 = OpConstant %uint 4
%v4uint = OpTypeVector %uint 4
%arr = OpTypeArray %v4uint %uint_4
%B = OpTypeStruct %uint %v4uint
%S = OpTypeStruct %uint %v4uint
%nullS = OpConstantNull %S
%nullarr = OpConstantNull %arr
%ptr = OpTypeUntypedPointerKHR SC
%var = OpUntypedVariableKHR %ptr SC %B
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
USE
OpReturn
OpFunctionEnd
)";
  for (size_t at; (at = text.find("SC")) != std::string::npos;) text.replace(at, 2, sc);
  text = Mutate(text, "USE", use);
  if (sc == "StorageBuffer" || sc == "Uniform") {
    text = Mutate(text, "OpDecorate %B Block",
                  "OpDecorate %B Block\nOpDecorate %var DescriptorSet 0\nOpDecorate %var Binding 0");
  }
  return text;
}

TEST(BlockLayout, UntypedPointerDataTypes) {
  const char* uses[] = {
      "%ac = OpUntypedAccessChainKHR %ptr %S %var %uint_0",
      "%ac = OpUntypedInBoundsAccessChainKHR %ptr %S %var %uint_0",
      "%ld = OpLoad %S %var",
      "OpStore %var %nullS",
  };
  for (const char* sc : {"StorageBuffer", "Uniform", "PushConstant", "Workgroup"}) {
    for (const char* use : uses) {
      // Uniform and PushConstant storage is not written.
      if (std::string(use).starts_with("OpStore") && std::string(sc) != "StorageBuffer" &&
          std::string(sc) != "Workgroup") {
        continue;
      }
      SCOPED_TRACE(std::string(sc) + ": " + use);
      const std::string text = Untyped(sc, use);
      EXPECT_CLEAN(ValidateText(text, "vulkan1.3"));
      const std::string bad =
          Mutate(text, "OpMemberDecorate %S 1 Offset 16", "OpMemberDecorate %S 1 Offset 2");
      EXPECT_RULE_AT(ValidateText(bad, "vulkan1.3"), "block-layout.offset", "OpTypeStruct",
                     "reached through untyped pointer by");
      EXPECT_RULE_AT(ValidateText(Mutate(text, "OpMemberDecorate %S 0 Offset 0", ""), "vulkan1.3"),
                     "block-layout.explicit", "OpTypeStruct", "member 0 of %_struct_");
      // Alignment is Vulkan's rule, as for typed variables; spirv-val checks untyped pointers'
      // layout only there.
      EXPECT_CLEAN(ValidateText(bad, "spv1.6"));
    }
  }
}

TEST(BlockLayout, UntypedPointerArrays) {
  const std::string text = Untyped("StorageBuffer", "%ld = OpLoad %arr %var");
  EXPECT_CLEAN(ValidateText(text, "vulkan1.3"));
  EXPECT_RULE_AT(
      ValidateText(Mutate(text, "OpDecorate %arr ArrayStride 16", "OpDecorate %arr ArrayStride 4"),
                   "vulkan1.3"),
      "block-layout.array-stride", "OpTypeArray", "ArrayStride 4");
  EXPECT_RULE_AT(
      ValidateText(Mutate(text, "OpDecorate %arr ArrayStride 16", "OpDecorate %arr ArrayStride 20"),
                   "vulkan1.3"),
      "block-layout.array-stride", "OpTypeArray", "not a multiple of its base (std430) alignment 16");
  EXPECT_RULE_AT(ValidateText(Mutate(text, "OpDecorate %arr ArrayStride 16", ""), "vulkan1.3"),
                 "block-layout.explicit", "OpTypeArray", "no ArrayStride");
  // A store through the pointer names the array.
  const std::string store = Untyped("Workgroup", "OpStore %var %nullarr");
  EXPECT_CLEAN(ValidateText(store, "vulkan1.3"));
  EXPECT_RULE_AT(
      ValidateText(Mutate(store, "OpDecorate %arr ArrayStride 16", "OpDecorate %arr ArrayStride 8"),
                   "vulkan1.3"),
      "block-layout.array-stride", "OpTypeArray", "reached through untyped pointer by OpStore");
  // Uniform (not BufferBlock): extended alignment.
  const std::string uniform = Untyped("Uniform", "%ld = OpLoad %arr %var");
  EXPECT_CLEAN(ValidateText(uniform, "vulkan1.3"));
  const std::string scalar_arr =
      Mutate(Mutate(uniform, "%arr = OpTypeArray %v4uint %uint_4", "%arr = OpTypeArray %uint %uint_4"),
             "OpDecorate %arr ArrayStride 16", "OpDecorate %arr ArrayStride 4");
  EXPECT_RULE_AT(ValidateText(scalar_arr, "vulkan1.3"), "block-layout.array-stride", "OpTypeArray",
                 "extended (std140) alignment 16");
  Options standard;
  standard.env = *ParseTargetEnv("vulkan1.3");
  standard.uniform_buffer_standard_layout = true;
  EXPECT_CLEAN(ValidateText(scalar_arr, standard));
  Options skip;
  skip.env = *ParseTargetEnv("vulkan1.3");
  skip.skip_block_layout = true;
  EXPECT_CLEAN(ValidateText(scalar_arr, skip));
}

// Vulkan: a matrix member names its majorness (RowMajor or ColMajor).
TEST(BlockLayout, MatrixMajorness) {
  const std::string text = Mutate(Block("StorageBuffer"), "OpMemberDecorate %S 3 ColMajor", "");
  EXPECT_RULE_AT(ValidateText(text, "vulkan1.3"), "block-layout.explicit", "OpTypeStruct",
                 "member 3 of %_struct_3 is a matrix without a RowMajor or ColMajor decoration");
  EXPECT_CLEAN(ValidateText(text, "spv1.6"));
  EXPECT_CLEAN(ValidateText(Mutate(Block("StorageBuffer"), "OpMemberDecorate %S 3 ColMajor",
                                   "OpMemberDecorate %S 3 RowMajor"),
                            "vulkan1.3"));
}

// Relaxed block layout: a vector of a structure nested at an offset lands where the structure
// does; it does not straddle a 16-byte boundary there (directly or through an array).
TEST(BlockLayout, NestedVectorStraddle) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorate %In 0 Offset 0
OpMemberDecorate %In 1 Offset 4
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 16
OpDecorate %arr ArrayStride 16
OpDecorate %v DescriptorSet 0
OpDecorate %v Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_2 = OpConstant %uint 2
%v2 = OpTypeVector %float 2
%In = OpTypeStruct %float %v2
%arr = OpTypeArray %In %uint_2
%S = OpTypeStruct %v2 %arr
%p = OpTypePointer StorageBuffer %S
%v = OpVariable %p StorageBuffer
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(ValidateText(text, "vulkan1.1"));
  // The second element lands at 24: its vector at 28 crosses 32.
  EXPECT_RULE_AT(
      ValidateText(Mutate(text, "OpDecorate %arr ArrayStride 16", "OpDecorate %arr ArrayStride 24"),
                   "vulkan1.1"),
      "block-layout.offset", "OpTypeStruct", "lands at 12 modulo 16");
  // The array at 8: the first element's vector at 12.
  const std::string at8 = Mutate(text, "OpMemberDecorate %S 1 Offset 16", "OpMemberDecorate %S 1 Offset 8");
  EXPECT_RULE_AT(ValidateText(at8, "vulkan1.1"), "block-layout.offset", "OpTypeStruct",
                 "member 1 of %_struct_");
  Options scalar;
  scalar.env = *ParseTargetEnv("vulkan1.1");
  scalar.scalar_block_layout = true;
  EXPECT_CLEAN(ValidateText(at8, scalar));
}

// A shader's untyped Workgroup variable holds a Block structure (in Vulkan every one; elsewhere
// those an entry point lists).
TEST(BlockLayout, UntypedWorkgroupVariableIsABlock) {
  const std::string text = Untyped("Workgroup", "");
  EXPECT_CLEAN(ValidateText(text, "vulkan1.3"));
  const std::string plain = Mutate(text, "OpDecorate %B Block", "");
  for (const char* env : {"vulkan1.3", "spv1.4"}) {
    EXPECT_RULE_AT(ValidateText(plain, env), "block-layout.explicit", "OpUntypedVariableKHR",
                   "must be a Block structure");
  }
  EXPECT_CLEAN(ValidateText(Mutate(plain, "OpEntryPoint GLCompute %main \"main\" %var",
                                   "OpEntryPoint GLCompute %main \"main\""),
                            "spv1.4"));
  EXPECT_RULE_AT(ValidateText(Mutate(text, "%var = OpUntypedVariableKHR %ptr Workgroup %B",
                                     "%var = OpUntypedVariableKHR %ptr Workgroup %arr"),
                              "vulkan1.3"),
                 "block-layout.explicit", "OpUntypedVariableKHR", "must be a Block structure");
}

// A PhysicalStorageBuffer pointer an instruction produces: its pointee is laid out, Block or not.
TEST(BlockLayout, PhysicalStorageBufferPointee) {
  const std::string text = R"(
OpCapability Shader
OpCapability Int64
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 16
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%ulong = OpTypeInt 64 0
%ulong_0 = OpConstant %ulong 0
%v4 = OpTypeVector %float 4
%S = OpTypeStruct %float %v4
%p = OpTypePointer PhysicalStorageBuffer %S
%main = OpFunction %void None %fn
%l = OpLabel
%ptr = OpConvertUToPtr %p %ulong_0
OpReturn
OpFunctionEnd
)";
  EXPECT_CLEAN(ValidateText(text, "vulkan1.3"));
  const std::string bad =
      Mutate(text, "OpMemberDecorate %S 1 Offset 16", "OpMemberDecorate %S 1 Offset 4");
  EXPECT_RULE_AT(ValidateText(bad, "vulkan1.3"), "block-layout.offset", "OpTypeStruct",
                 "reached through pointer by %11 = OpConvertUToPtr");
  EXPECT_RULE_AT(ValidateText(Mutate(text, "OpMemberDecorate %S 0 Offset 0", ""), "vulkan1.3"),
                 "block-layout.explicit", "OpTypeStruct", "has no Offset");
  // Only an instruction's result is checked; alignment is Vulkan's.
  EXPECT_CLEAN(ValidateText(Mutate(bad, "%ptr = OpConvertUToPtr %p %ulong_0", ""), "vulkan1.3"));
  EXPECT_CLEAN(ValidateText(bad, "spv1.6"));
}

}  // namespace
}  // namespace coopspv::val
