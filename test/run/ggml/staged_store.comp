#version 450
// Reproducer for --lower-coop-matrix (issue 31): ggml's conv2d_f32_cm2 stages its result
// through shared memory, one subgroup storing the matrix (coopMatStore under a SubgroupID test)
// and every invocation copying it out after a barrier. glslang writes the store with
// MakePointerAvailable (shared memory is coherent under the Vulkan memory model); lowered to one
// such store per element, lavapipe lost the subgroup's writes.
#extension GL_KHR_cooperative_matrix : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float16_t in_data[]; };
layout(binding = 1) writeonly buffer Out { float out_data[]; };
shared float16_t staged[64 * 32];
void main() {
  coopmat<float16_t, gl_ScopeSubgroup, 64, 32, gl_MatrixUseAccumulator> m;
  coopMatLoad(m, in_data, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  if (gl_SubgroupID == 0) {
    coopMatStore(m, staged, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
  }
  barrier();
  const uint tid = gl_LocalInvocationID.x;
  for (uint i = 0; i < 16; i++) {
    const uint e = (i * 4 + tid / 32) * 32 + tid % 32;
    out_data[e] = float(staged[e]);
  }
}
