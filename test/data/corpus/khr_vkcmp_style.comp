#version 450
#extension GL_KHR_cooperative_matrix : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
#extension GL_KHR_shader_subgroup_basic : enable
// C = A * B for four 16x16 tiles, A and B float16, C float, in vk_cooperative_matrix_perf's way:
// the workgroup size is a spec constant (at SPIR-V 1.3 a WorkgroupSize built-in, with LocalSize
// 1 1 1 beside it), the matrices are reached through device addresses in a uniform block, and
// block variables that are never used share its set and binding.
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint TILES = 4;
layout(buffer_reference, std430, buffer_reference_align = 2) buffer MatrixH { float16_t x[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer MatrixF { float x[]; };
layout(set = 0, binding = 0) uniform Params { MatrixH a; MatrixH b; MatrixF c; } params;
layout(set = 0, binding = 0) buffer InputA { float16_t x[]; } inputA;
layout(set = 0, binding = 0) buffer Output { float x[]; } outputO;
void main() {
  for (uint t = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID; t < TILES;
       t += gl_NumWorkGroups.x * gl_NumSubgroups) {
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> b;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> c =
        coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    coopMatLoad(a, params.a.x, t * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b, params.b.x, t * 256, 16, gl_CooperativeMatrixLayoutColumnMajor);
    c = coopMatMulAdd(a, b, c);
    coopMatStore(c, params.c.x, t * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
  }
}
