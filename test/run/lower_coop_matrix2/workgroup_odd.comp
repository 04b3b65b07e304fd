// A --lower-coop-matrix2 run test kernel of test/run/lower_coop_matrix2 (workgroup_odd.spvasm is
// its glslang 16 output: glslang -V --target-env vulkan1.3 workgroup_odd.comp, disassembled),
// written in the style of vk_cooperative_matrix_perf's Workgroup-scope GEMM: every matrix behind
// a buffer reference from a uniform block, A and B stored as uvec4 arrays but loaded as float16
// through tensor layouts. D (3 x 5 float) = A (3 x 16) * B (16 x 5) + C, in two 8-wide K steps,
// by a workgroup of 32 invocations: the tiles (3 x 8, 8 x 5, 3 x 5) hold element counts that
// neither the workgroup nor a subgroup of 8 divides.
#version 450
#pragma use_vulkan_memory_model
#extension GL_EXT_scalar_block_layout : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable

layout(local_size_x = 32) in;

const uint TILE_M = 3;
const uint TILE_N = 5;
const uint TILE_K = 8;
const uint K = 16;

layout(buffer_reference) buffer WordsA { uvec4 x[]; };
layout(buffer_reference) buffer WordsB { uvec4 x[]; };
layout(buffer_reference) buffer FloatsC { float x[]; };
layout(buffer_reference) buffer FloatsD { float x[]; };
layout(set = 0, binding = 0, std430) uniform Params {
  WordsA a;
  WordsB b;
  FloatsC c;
  FloatsD d;
} params;

void main() {
  tensorLayoutNV<2> layoutA = createTensorLayoutNV(2);
  tensorLayoutNV<2> layoutB = createTensorLayoutNV(2);
  tensorLayoutNV<2> layoutC = createTensorLayoutNV(2);
  layoutA = setTensorLayoutDimensionNV(layoutA, TILE_M, K);
  layoutB = setTensorLayoutDimensionNV(layoutB, K, TILE_N);
  layoutC = setTensorLayoutDimensionNV(layoutC, TILE_M, TILE_N);

  coopmat<float, gl_ScopeWorkgroup, TILE_M, TILE_N, gl_MatrixUseAccumulator> result;
  coopMatLoadTensorNV(result, params.c.x, 0, sliceTensorLayoutNV(layoutC, 0, TILE_M, 0, TILE_N));
  for (uint k = 0; k < K; k += TILE_K) {
    coopmat<float16_t, gl_ScopeWorkgroup, TILE_M, TILE_K, gl_MatrixUseA> matA;
    coopMatLoadTensorNV(matA, params.a.x, 0, sliceTensorLayoutNV(layoutA, 0, TILE_M, k, TILE_K));
    coopmat<float16_t, gl_ScopeWorkgroup, TILE_K, TILE_N, gl_MatrixUseB> matB;
    coopMatLoadTensorNV(matB, params.b.x, 0, sliceTensorLayoutNV(layoutB, k, TILE_K, 0, TILE_N));
    result = coopMatMulAdd(matA, matB, result);
  }
  coopMatStoreTensorNV(result, params.d.x, 0, sliceTensorLayoutNV(layoutC, 0, TILE_M, 0, TILE_N));
}
