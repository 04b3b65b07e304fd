#version 450 core
// Decodes one OCP MX block per invocation: 32 elements (FP4 E2M1, FP6 E2M3 / E3M2 or MXINT8)
// sharing one E8M0 scale, read as packed bytes from a storage buffer, written as float32.
#extension GL_EXT_float_e2m1 : require
#extension GL_EXT_float_e2m3 : require
#extension GL_EXT_float_e3m2 : require
#extension GL_EXT_float_ue8m0 : require
#extension GL_EXT_float_mxint8 : require
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_long_vector : enable

layout(local_size_x = 32) in;
layout(constant_id = 0) const uint kFormat = 0;
layout(constant_id = 1) const floatue8m0_t kDefaultScale = floatue8m0_t(1.0);

layout(std430, binding = 0) readonly buffer Scales { floatue8m0_t scale[]; };
layout(std430, binding = 1) readonly buffer Fp4 { uint8_t fp4_pairs[]; };
layout(std430, binding = 2) readonly buffer Fp6 { uint8_t fp6_bytes[]; };
layout(std430, binding = 3) readonly buffer Int8 { floatmxint8_t mx[]; };
layout(std430, binding = 4) writeonly buffer Out { float result[]; };

shared floatue8m0_t block_scale;

const floate2m1_t kFp4Max = floate2m1_t(6.0);
const fe3m2vec2 kFp6Pair = fe3m2vec2(0.25, 28.0);

float Fp4Pair(uint i, floate2m1_t limit) {
    fe2m1vec2 pair = unpackFloat2xfe2m1EXT(fp4_pairs[i / 2]);
    floate2m1_t v = (i & 1u) == 0u ? pair.x : pair.y;
    return min(float(v), float(limit));
}

void main() {
    uint block = gl_WorkGroupID.x;
    uint i = gl_LocalInvocationID.x;
    if (i == 0u) block_scale = scale.length() > block ? scale[block] : kDefaultScale;
    barrier();
    float s = float(block_scale);
    float value;
    if (kFormat == 0u) {
        value = Fp4Pair(block * 32u + i, kFp4Max);
    } else if (kFormat == 1u) {
        // One element per byte, in its six high bits.
        floate2m3_t e = bitcastExtractfe2m3EXT(fp6_bytes[block * 32u + i], 2u);
        value = float(e);
    } else if (kFormat == 2u) {
        // Two elements per pair of bytes, in the low six bits of each.
        u8vec2 bytes = u8vec2(fp6_bytes[block * 32u + (i & ~1u)], fp6_bytes[block * 32u + (i | 1u)]);
        fe3m2vec2 pair = bitcastExtractfe3m2EXT(bytes, 0u);
        value = float((i & 1u) == 0u ? pair.x : pair.y) * float(kFp6Pair.x) * 4.0;
    } else {
        fmxint8vec4 q = fmxint8vec4(mx[block * 32u + i], floatmxint8_t(0.5), floatmxint8_t(-2.0),
                                    floatmxint8_t(0.0));
        value = float(q.x) + float(q.w);
    }
    result[block * 32u + i] = value * s;
}
