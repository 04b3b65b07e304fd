#version 450 core
// The plain twin of examples/tiled_gemm.comp for lavapipe timings: D = A * B + 0 * C with the same
// push constants and bindings, written without cooperative matrices the way one writes a GEMM for
// a CPU or GPU without them: 128 invocations per workgroup compute a 32 x 64 block of D, each a
// 4 x 4 register tile, reading A and B straight from the buffers (no shared memory).
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_control_flow_attributes : enable

layout(local_size_x = 128) in;
layout(push_constant) uniform PC { uint M; uint N; uint K; uint lda; uint ldb; uint ldc; } pc;
layout(set = 0, binding = 0) readonly buffer BA { float16_t a[]; } bufA;
layout(set = 0, binding = 1) readonly buffer BB { float16_t b[]; } bufB;
layout(set = 0, binding = 2) readonly buffer BC { float c[]; } bufC;
layout(set = 0, binding = 3) writeonly buffer BD { float d[]; } bufD;

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint tilesN = pc.N / 64;
    uint row0 = (gl_WorkGroupID.x / tilesN) * 32 + (t / 16) * 4;
    uint col0 = (gl_WorkGroupID.x % tilesN) * 64 + (t % 16) * 4;
    if (row0 >= pc.M) return;
    float acc[4][4];
    [[unroll]] for (uint i = 0; i < 4; ++i)
        [[unroll]] for (uint j = 0; j < 4; ++j) acc[i][j] = 0.0;
    for (uint k = 0; k < pc.K; ++k) {
        float av[4], bv[4];
        [[unroll]] for (uint i = 0; i < 4; ++i) av[i] = float(bufA.a[(row0 + i) * pc.lda + k]);
        [[unroll]] for (uint j = 0; j < 4; ++j) bv[j] = float(bufB.b[k * pc.ldb + col0 + j]);
        [[unroll]] for (uint i = 0; i < 4; ++i)
            [[unroll]] for (uint j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
    }
    [[unroll]] for (uint i = 0; i < 4; ++i)
        [[unroll]] for (uint j = 0; j < 4; ++j)
            bufD.d[(row0 + i) * pc.ldc + col0 + j] = acc[i][j];
}
