#version 450 core
// The plain kernel of the timing comparison: D = A * B (A, B float16, D float), each workgroup
// of 16 x 16 invocations computes a 64 x 64 tile of D, 4 x 4 elements per invocation, staging
// 64 x 16 tiles of A and 16 x 64 tiles of B in shared memory. Same push constants and bindings
// as examples/tiled_gemm.comp (C is bound but not read).
#extension GL_EXT_shader_explicit_arithmetic_types : enable

layout(local_size_x = 16, local_size_y = 16) in;
layout(push_constant) uniform PC { uint M; uint N; uint K; uint lda; uint ldb; uint ldc; } pc;
layout(set = 0, binding = 0) readonly buffer BA { float16_t a[]; } bufA;
layout(set = 0, binding = 1) readonly buffer BB { float16_t b[]; } bufB;
layout(set = 0, binding = 2) readonly buffer BC { float c[]; } bufC;
layout(set = 0, binding = 3) writeonly buffer BD { float d[]; } bufD;

shared float tileA[64][17];
shared float tileB[16][65];

void main()
{
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint row0 = gl_WorkGroupID.y * 64, col0 = gl_WorkGroupID.x * 64;
    uint t = ty * 16 + tx;
    float acc[4][4];
    for (uint i = 0; i < 4; ++i)
        for (uint j = 0; j < 4; ++j) acc[i][j] = 0.0;
    for (uint k0 = 0; k0 < pc.K; k0 += 16) {
        for (uint e = t; e < 64 * 16; e += 256) {
            uint r = e / 16, k = e % 16;
            tileA[r][k] = float(bufA.a[(row0 + r) * pc.lda + k0 + k]);
            uint kb = e / 64, cb = e % 64;
            tileB[kb][cb] = float(bufB.b[(k0 + kb) * pc.ldb + col0 + cb]);
        }
        barrier();
        for (uint k = 0; k < 16; ++k) {
            float av[4], bv[4];
            for (uint i = 0; i < 4; ++i) av[i] = tileA[ty * 4 + i][k];
            for (uint j = 0; j < 4; ++j) bv[j] = tileB[k][tx * 4 + j];
            for (uint i = 0; i < 4; ++i)
                for (uint j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
        }
        barrier();
    }
    for (uint i = 0; i < 4; ++i)
        for (uint j = 0; j < 4; ++j)
            bufD.d[(row0 + ty * 4 + i) * pc.ldc + col0 + tx * 4 + j] = acc[i][j];
}
