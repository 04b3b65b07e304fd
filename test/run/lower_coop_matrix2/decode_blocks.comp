// A --lower-coop-matrix2 run test kernel of test/run/lower_coop_matrix2 (decode_blocks.spvasm is
// its glslang 16 output: glslang -V --target-env vulkan1.3 decode_blocks.comp, disassembled),
// written in the style of ggml's quantized matmul: D (16 x 16 float) = A0 * B + A1 * B, B
// (64 x 16 float16) plain, A0 and A1 (16 x 64) decoded from arrays of block structs in
// descriptor buffers, one block of 32 elements after another along each row (two a row), from
// the second block of the buffer on. DecodeFunc's pointer type is not the buffer's block type:
// - A0's blocks are { float16_t d; uint8_t q[16]; } (18 bytes), decoded through a view of them
//   as { float16_t d; uint16_t q[8]; }: element i is (code(i) - 8) * d, code(i) the low nibble of
//   byte i % 16 below 16, else the high one;
// - A1's blocks are { float16_t d; float16_t m; uint8_t q[16]; } (20 bytes), decoded through a
//   view as { f16vec2 dm; uint32_t q[4]; }: element i is code(i) * d + m.
// The K loop takes 32 columns a step (one block of each row).
#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_buffer_reference : enable

layout(local_size_x = 8) in;

struct Q4Block {
  float16_t d;
  uint8_t q[16];
};
struct Q4MinBlock {
  float16_t d;
  float16_t m;
  uint8_t q[16];
};
struct Q4BlockWords {
  float16_t d;
  uint16_t q[8];
};
struct Q4MinBlockWords {
  f16vec2 dm;
  uint32_t q[4];
};

layout(binding = 0) readonly buffer A0 { Q4Block a0[]; };
layout(binding = 1) readonly buffer A1 { Q4MinBlock a1[]; };
layout(binding = 2) readonly buffer B { float16_t b[]; };
layout(binding = 3) writeonly buffer D { float d[]; };

layout(buffer_reference, std430, buffer_reference_align = 2) buffer Q4Ref {
  Q4BlockWords blk;
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Q4MinRef {
  Q4MinBlockWords blk;
};

float16_t decodeQ4(const in Q4Ref ref, const in uint blockCoords[2], const in uint coordInBlock[2]) {
  const uint i = coordInBlock[1];
  const uint word = uint(ref.blk.q[(i & 15u) >> 1]);
  const uint code = (word >> (8u * (i & 1u) + ((i & 16u) >> 2))) & 15u;
  return (float16_t(code) - float16_t(8.0)) * ref.blk.d;
}

float16_t decodeQ4Min(const in Q4MinRef ref, const in uint blockCoords[2], const in uint coordInBlock[2]) {
  const uint i = coordInBlock[1];
  const uint word = ref.blk.q[(i & 15u) >> 2];
  const uint code = (word >> (8u * (i & 3u) + ((i & 16u) >> 2))) & 15u;
  const f16vec2 dm = ref.blk.dm;
  return float16_t(code) * dm.x + dm.y;
}

void main() {
  const uint first_block = 1;

  tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> layoutA =
      createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
  layoutA = setTensorLayoutBlockSizeNV(layoutA, 1, 32);
  layoutA = setTensorLayoutDimensionNV(layoutA, 16, 64);
  tensorLayoutNV<2> layoutB = createTensorLayoutNV(2);
  layoutB = setTensorLayoutDimensionNV(layoutB, 64, 16);

  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
      coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  for (uint k = 0; k < 64; k += 32) {
    coopmat<float16_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> m0, m1;
    coopMatLoadTensorNV(m0, a0, first_block, sliceTensorLayoutNV(layoutA, 0, 16, k, 32), decodeQ4);
    coopMatLoadTensorNV(m1, a1, first_block, sliceTensorLayoutNV(layoutA, 0, 16, k, 32), decodeQ4Min);
    coopmat<float16_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> mb;
    coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(layoutB, k, 32, 0, 16));
    acc = coopMatMulAdd(m0, mb, acc);
    acc = coopMatMulAdd(m1, mb, acc);
  }

  tensorLayoutNV<2> layoutD = createTensorLayoutNV(2);
  layoutD = setTensorLayoutDimensionNV(layoutD, 16, 16);
  coopMatStoreTensorNV(acc, d, 0, sliceTensorLayoutNV(layoutD, 0, 16, 0, 16));
}
