// A --lower-coop-matrix2 run test kernel of test/run/lower_coop_matrix2 (decode_bytes.spvasm is
// its glslang 16 output: glslang -V --target-env vulkan1.3 decode_bytes.comp, disassembled),
// written in the style of ggml's flash attention: every buffer holds bytes. Q (16 x 32 float) and
// a mask M (16 x 16 float16) are loaded through uint8 Pointers at byte offsets (multiples of 16:
// NVIDIA's driver read a mask at byte 2 from byte 0, as if the Pointer of a load without
// DecodeFunc were 16-byte aligned; the decoded blocks below start at any byte); K (16 keys x 32)
// is decoded from 18-byte blocks (a float16 scale and 16 bytes of 4-bit codes, element i of a
// block (code(i) - 8) * scale, code(i) the low nibble of byte i % 16 below 16, else the high one)
// that start at byte 4 of a uint8 buffer, loaded transposed through a view. DecodeFunc takes a
// raw block (uint8_t[18]) and hands it, bitcast to another block type, to a decoder picked by a
// switch; the decoder keeps the pointer in a variable, compares it, passes it to helpers, reads
// even codes through a uint16 view and odd ones through a byte pointer made by adding an offset to
// the block's address. O = Q * K^T + M (16 x 16 float) is stored to a float buffer.
#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_buffer_reference : enable

layout(local_size_x = 8) in;

layout(constant_id = 0) const uint KType = 4;  // 4: 4-bit blocks (the only one with data here).

layout(buffer_reference, std430, buffer_reference_align = 1) buffer RawBlock {
  uint8_t bytes[18];
};
struct Nibbles {
  float16_t scale;
  uint16_t pairs[8];  // Bytes 2i and 2i + 1 of the codes.
};
layout(buffer_reference, std430, buffer_reference_align = 2) buffer NibbleBlock {
  Nibbles b;
};
layout(buffer_reference, std430, buffer_reference_align = 1) buffer OneByte {
  uint8_t value;
};

layout(binding = 0) readonly buffer QBytes { uint8_t q_bytes[]; };
layout(binding = 1) readonly buffer KBytes { uint8_t k_bytes[]; };
layout(binding = 2) readonly buffer MBytes { uint8_t m_bytes[]; };
layout(binding = 3) writeonly buffer Out { float o[]; };

float16_t blockScale(const NibbleBlock blk) { return blk.b.scale; }

uint codeAt(const NibbleBlock blk, const uint i) {
  const uint nibble = (i >> 4) & 1u;  // Elements 16.. take the high nibbles.
  uint byte;
  if ((i & 1u) == 0u) {
    byte = uint(blk.b.pairs[(i & 15u) >> 1]) & 0xFFu;
  } else {
    OneByte at = OneByte(uint64_t(blk) + 2ul + uint64_t(i & 15u));
    byte = uint(at.value);
  }
  return (byte >> (4u * nibble)) & 15u;
}

float16_t decodeNibbles(const NibbleBlock blk, const uint blockCoords[2], const uint coordInBlock[2]) {
  NibbleBlock kept = blk;
  if (uint64_t(kept) != uint64_t(blk)) {
    return float16_t(-1000.0);  // Never: the copy is the same pointer.
  }
  const int code = int(codeAt(kept, coordInBlock[1]));
  return float16_t(code - 8) * blockScale(kept);
}

float16_t decodeK(const RawBlock raw, const uint blockCoords[2], const uint coordInBlock[2]) {
  switch (KType) {
    case 4: return decodeNibbles(NibbleBlock(raw), blockCoords, coordInBlock);
    default: return float16_t(0.0);
  }
}

void main() {
  const uint q_offset = 16;  // Bytes.
  const uint k_offset = 4;
  const uint m_offset = 16;

  tensorLayoutNV<2> layoutQ = createTensorLayoutNV(2);
  layoutQ = setTensorLayoutDimensionNV(layoutQ, 16, 32);
  coopmat<float, gl_ScopeSubgroup, 16, 32, gl_MatrixUseAccumulator> Q;
  coopMatLoadTensorNV(Q, q_bytes, q_offset, sliceTensorLayoutNV(layoutQ, 0, 16, 0, 32));
  coopmat<float16_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> Qh =
      coopmat<float16_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA>(Q);

  tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> layoutK =
      createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
  layoutK = setTensorLayoutBlockSizeNV(layoutK, 1, 32);
  layoutK = setTensorLayoutDimensionNV(layoutK, 16, 32);
  tensorViewNV<2, false, 1, 0> transposed = createTensorViewNV(2, false, 1, 0);
  coopmat<float16_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> Kt;
  coopMatLoadTensorNV(Kt, k_bytes, k_offset, sliceTensorLayoutNV(layoutK, 0, 16, 0, 32),
                      transposed, decodeK);

  tensorLayoutNV<2> layoutM = createTensorLayoutNV(2);
  layoutM = setTensorLayoutDimensionNV(layoutM, 16, 16);
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> M;
  coopMatLoadTensorNV(M, m_bytes, m_offset, sliceTensorLayoutNV(layoutM, 0, 16, 0, 16));

  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> S =
      coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(M);
  S = coopMatMulAdd(Qh, Kt, S);

  tensorLayoutNV<2> layoutO = createTensorLayoutNV(2);
  layoutO = setTensorLayoutDimensionNV(layoutO, 16, 16);
  coopMatStoreTensorNV(S, o, 0, sliceTensorLayoutNV(layoutO, 0, 16, 0, 16));
}
