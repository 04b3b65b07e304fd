#!/usr/bin/env python3
"""Writes the --lower-coop-matrix2 run tests of this folder.

Each case is a compute kernel written against SPV_NV_cooperative_matrix2 and
SPV_NV_tensor_addressing (<case>.spvasm) that loads Subgroup-scope matrices through tensor layouts
(OpCooperativeMatrixLoadTensorNV) and stores them through others (OpCooperativeMatrixStoreTensorNV),
and an AmberScript (<case>.amber) that runs <case>.spv (the test writes the kernel there after
--lower-coop-matrix2=8 --lower-coop-matrix=8) and checks every element of the output buffer
against what is computed here, element by element, from the tensor-addressing rules: element
(r, c) of an R x C matrix is element r * C + c of the slice, enumerated row-major over the spans;
its tensor coordinates are offset + index; out of bounds, a load gives the clamp value
(Constant), the nearest edge (ClampToEdge) or wraps (Repeat), and a store writes nothing.

Cases:
- tensor_float: 16 x 16 float accumulators, two subgroups (SubgroupId picks each one's slices),
  layouts kept in Function variables, a padded row stride (SetStride), a signed dimension
  operand, the clamp value 1.5 (Constant mode) where the slice leaves the tensor, and stores that
  partly leave the output tensor (ClampToEdge type: stores still drop those elements).
- matrix2_ops: a 16 x 16 float matrix through OpCooperativeMatrixPerElementOpNV (a function of
  row, column, element and an operand), OpCooperativeMatrixTransposeNV (accumulator into B) and
  OpCooperativeMatrixReduceNV (Row into 16 x 8 with an add, 2x2 with a max, Row|Column).
- tensor_view: a load through a view that swaps the layout's dimensions (the tensor is N x K, the
  matrix K x N) with a clip rectangle (the rectangle maps to the start of the slice; elements
  outside it are Object's), partly out of bounds (Constant clamp value), and a store through a
  clipped view (the rectangle's elements go to the start of the slice, the others nowhere).
- workgroup_matmul: a Workgroup-scope tiled matmul (four subgroups): D (32 x 32 float) = A (32 x 48
  float16) * B (48 x 32 float16), in a loop over three 16-wide K tiles with the accumulator in an
  OpPhi, loaded with OpCooperativeMatrixLoadKHR; D is stored through a tensor layout and, column
  major, with OpCooperativeMatrixStoreKHR (the lowering replicates the matrices in every subgroup;
  the KHR store runs in subgroup 0, the tensor store's element writes are shared among the 32
  invocations through one Workgroup region).
- decode_q4: a 16 x 32 float16 matrix (one subgroup) loaded through DecodeFunc from q4_0-style
  blocks (a float16 scale d and 16 bytes of 4-bit codes q: element i of a block is
  ((q[i % 16] >> (i & 16 ? 4 : 0)) & 15) - 8) * d) in a descriptor buffer; the layout has block
  size 1 x 32 over a 16 x 64 tensor (two blocks a row: packed strides count blocks), sliced to the
  second block of each row; the decode function takes a PhysicalStorageBuffer pointer to a struct
  wrapping the block, as GLSL writes it. The matrix goes out as float through a tensor store.
- tensor_mirrored: an 8 x 16 uint matrix (one subgroup) loaded from a 5 x 7 tensor through a
  RepeatMirrored layout whose slice starts at (-3, -4): coordinate v reads t = v mod (2n - 2)
  when t < n, else 2n - 2 - t (reflected without repeating the edge: what NVIDIA's driver did
  on an H200 for the native script; a sampler's MIRRORED_REPEAT would repeat the edge).
- tensor_uint_clamp: 8 x 16 uint accumulators, one subgroup: a 3-D
  ClampToEdge layout with a negative slice offset, a 2-D Repeat layout with a padded stride, an
  Aligned memory operand, and two stores through one Undefined-mode layout.
- decode_q8_matmul: D (16 x 16 float) = A (16 x 64 float16, decoded through DecodeFunc from ggml's
  block_q8_0 { float16_t d; int8_t qs[32]; } as a buffer reference struct, block size 1 x 32)
  * B (64 x 16 float16), four 16-wide K steps (every other one starts mid-block).
- decode_q8_vector: the same with a DecodeVectorFunc (two quants from one int16, V = 2) too
  (SPV_NV_cooperative_matrix_decode_vector); lavapipe only (the H200 lacks the extension); the
  lowering drops DecodeVectorFunc and the result must still be exact.
- transpose_wide: OpCooperativeMatrixTransposeNV of a 16 x 32 float16 accumulator into a 32 x 16
  Use B matrix, stored and multiplied (S = Q * K^T).
- flash_attn: one 16 x 32 output tile of causal attention over three 16-key tiles, as ggml's
  flash_attn_cm2 computes it (see flash_attn below); tolerance 0.01 (the native H200 and the
  lowered lavapipe results were within 1e-6 of the reference).
- tensor_view_dims: loads through 3-D tensor views with dimensions and strides (permutation
  (1, 0, 2), a stride of 0, packed strides, a clip), the rule measured on an H200.

Cases written in GLSL (<case>.comp, compiled by glslang 16: <case>.spvasm is its output, checked
in; this script writes their AmberScripts):
- decode_bytes: ggml flash-attention style, every buffer a uint8 array: Q (float) and a mask
  (float16) loaded through uint8 Pointers at byte offsets, K decoded from 18-byte 4-bit blocks
  whose raw block pointer is bitcast to another block type, passed to helpers (by value and
  through a variable), kept in a variable, compared and offset as a 64-bit address.
- decode_blocks: ggml matmul style, A decoded from arrays of block structs (18-byte q4_0-like,
  20-byte q4_1-like) through views of other struct types (uint16 / uint32 words), in a K loop.
- workgroup_odd: vk_cooperative_matrix_perf style Workgroup-scope GEMM through buffer references
  (A and B uvec4 arrays loaded as float16), 3 x 16 x 5 in a workgroup of 32: element counts that
  neither the workgroup nor a subgroup divides.

The native scripts of decode_q8_matmul, transpose_wide, flash_attn and tensor_view_dims gave,
as written, the values expected here on an H200 (NVIDIA 580.159.04; tensor_view_dims is how the
view rule was found).

Usage: generate.py [output folder, default: this script's folder]
"""
import math
import os
import re
import struct
import sys

FLOAT_CLAMP = 1.5
FLOAT_CLAMP_BITS = 0x3FC00000


def header(memory_model, caps):
    lines = ["OpCapability Shader", "OpCapability CooperativeMatrixKHR",
             "OpCapability TensorAddressingNV", "OpCapability CooperativeMatrixTensorAddressingNV"]
    lines += ["OpCapability " + c for c in caps]
    lines += ['OpExtension "SPV_KHR_cooperative_matrix"', 'OpExtension "SPV_NV_cooperative_matrix2"',
              'OpExtension "SPV_NV_tensor_addressing"', "OpMemoryModel Logical " + memory_model]
    return lines


def buffers(names, scalar):
    ann, decl = [], []
    for i, n in enumerate(names):
        ann += ["OpDecorate %%buf_%s DescriptorSet 0" % n, "OpDecorate %%buf_%s Binding %d" % (n, i)]
        decl += ["%%buf_%s = OpVariable %%pblk StorageBuffer" % n]
    ann = ["OpDecorate %rt ArrayStride 4", "OpMemberDecorate %blk 0 Offset 0",
           "OpDecorate %blk Block"] + ann
    decl = ["%rt = OpTypeRuntimeArray %" + scalar, "%blk = OpTypeStruct %rt",
            "%pblk = OpTypePointer StorageBuffer %blk",
            "%pel = OpTypePointer StorageBuffer %" + scalar] + decl
    return ann, decl


def constants(values):
    out = []
    for v in sorted(values):
        out.append("%%u_%d = OpConstant %%uint %d" % (v, v))
    return out


def tensor_float():
    """Returns the kernel's lines, its inputs {name: (amber type, values)} and the expected
    contents of its outputs {name: values} (the first input's type, in binding order after the
    inputs)."""
    rows, cols, stride, dim = 16, 16, 24, 20
    out_rows, out_cols = 40, 20
    a = [float((i * 37) % 101 - 50) for i in range(dim * stride)]
    ann, decl = buffers(["a", "d"], "float")
    lines = header("Vulkan", ["VulkanMemoryModel", "GroupNonUniform"])
    lines += ['OpEntryPoint GLCompute %main "main" %buf_a %buf_d %sgid',
              "OpExecutionMode %main LocalSize 16 1 1"]
    lines += ann + ["OpDecorate %sgid BuiltIn SubgroupId"]
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%float = OpTypeFloat 32",
              "%uint = OpTypeInt 32 0", "%int = OpTypeInt 32 1"]
    lines += constants({0, 1, 2, 3, 4, 5, 6, 8, 16, 20, 24, 40})
    lines += ["%i_20 = OpConstant %int 20", "%%clamp = OpConstant %%uint %d" % FLOAT_CLAMP_BITS,
              "%f_0 = OpConstant %float 0", "%pin = OpTypePointer Input %uint",
              "%sgid = OpVariable %pin Input"]
    lines += decl
    lines += ["%mat = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_2",
              "%zero = OpConstantComposite %mat %f_0",
              "%lt_a = OpTypeTensorLayoutNV %u_2 %u_1",
              "%lt_d = OpTypeTensorLayoutNV %u_2 %u_2",
              "%pf_a = OpTypePointer Function %lt_a",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%va = OpVariable %pf_a Function",
              "%g = OpLoad %uint %sgid",
              "%pa = OpAccessChain %pel %buf_a %u_0 %u_0",
              "%pd = OpAccessChain %pel %buf_d %u_0 %u_0",
              "%a0 = OpCreateTensorLayoutNV %lt_a", "OpStore %va %a0",
              "%a1l = OpLoad %lt_a %va",
              "%a1 = OpTensorLayoutSetDimensionNV %lt_a %a1l %u_20 %i_20", "OpStore %va %a1",
              "%a2l = OpLoad %lt_a %va",
              "%a2 = OpTensorLayoutSetStrideNV %lt_a %a2l %u_24 %u_1", "OpStore %va %a2",
              "%a3l = OpLoad %lt_a %va",
              "%a3 = OpTensorLayoutSetClampValueNV %lt_a %a3l %clamp", "OpStore %va %a3",
              "%g4 = OpIMul %uint %g %u_4", "%ra = OpIAdd %uint %u_6 %g4",
              "%g3 = OpIMul %uint %g %u_3", "%ca = OpIAdd %uint %u_5 %g3",
              "%a4l = OpLoad %lt_a %va",
              "%as = OpTensorLayoutSliceNV %lt_a %a4l %ra %u_16 %ca %u_16",
              "%m = OpCooperativeMatrixLoadTensorNV %mat %pa %zero %as None None",
              "%d0 = OpCreateTensorLayoutNV %lt_d",
              "%d1 = OpTensorLayoutSetDimensionNV %lt_d %d0 %u_40 %u_20",
              "%g20 = OpIMul %uint %g %u_20", "%rd = OpIAdd %uint %g20 %u_6",
              "%ds = OpTensorLayoutSliceNV %lt_d %d1 %rd %u_16 %u_8 %u_16",
              "OpCooperativeMatrixStoreTensorNV %pd %m %ds None None",
              "OpReturn", "OpFunctionEnd"]
    d = [-1.0] * (out_rows * out_cols)
    for g in range(2):
        ra, ca, rd, cd = 6 + 4 * g, 5 + 3 * g, 20 * g + 6, 8
        for r in range(rows):
            for c in range(cols):
                y, x = ra + r, ca + c
                v = a[y * stride + x] if y < dim and x < dim else FLOAT_CLAMP
                if rd + r < out_rows and cd + c < out_cols:
                    d[(rd + r) * out_cols + cd + c] = v
    return lines, {"a": ("float", a)}, {"d": d}


def tensor_uint_clamp():
    rows, cols = 8, 16
    dims_a = (2, 10, 12)
    dims_b, stride_b = (5, 7), 9
    a = [(i * 7 + 3) % 1000 for i in range(dims_a[0] * dims_a[1] * dims_a[2])]
    b = [(i * 13 + 1) % 500 for i in range(dims_b[0] * stride_b)]
    ann, decl = buffers(["a", "b", "d"], "uint")
    lines = header("Vulkan", ["VulkanMemoryModel"])
    lines += ['OpEntryPoint GLCompute %main "main" %buf_a %buf_b %buf_d',
              "OpExecutionMode %main LocalSize 8 1 1"]
    lines += ann
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%uint = OpTypeInt 32 0",
              "%int = OpTypeInt 32 1"]
    lines += constants({0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 16})
    lines += ["%i_m3 = OpConstant %int -3", "%u_0x = OpConstant %uint 0"]
    lines += decl
    lines += ["%mat = OpTypeCooperativeMatrixKHR %uint %u_3 %u_8 %u_16 %u_2",
              "%zero = OpConstantComposite %mat %u_0x",
              "%lt_a = OpTypeTensorLayoutNV %u_3 %u_2",
              "%lt_b = OpTypeTensorLayoutNV %u_2 %u_3",
              "%lt_d = OpTypeTensorLayoutNV %u_2 %u_0",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pa = OpAccessChain %pel %buf_a %u_0 %u_0",
              "%pb = OpAccessChain %pel %buf_b %u_0 %u_0",
              "%pd = OpAccessChain %pel %buf_d %u_0 %u_0",
              "%a0 = OpCreateTensorLayoutNV %lt_a",
              "%a1 = OpTensorLayoutSetDimensionNV %lt_a %a0 %u_2 %u_10 %u_12",
              "%as = OpTensorLayoutSliceNV %lt_a %a1 %u_1 %u_1 %u_5 %u_8 %i_m3 %u_16",
              "%ma = OpCooperativeMatrixLoadTensorNV %mat %pa %zero %as Aligned 4 None",
              "%b0 = OpCreateTensorLayoutNV %lt_b",
              "%b1 = OpTensorLayoutSetDimensionNV %lt_b %b0 %u_5 %u_7",
              "%b2 = OpTensorLayoutSetStrideNV %lt_b %b1 %u_9 %u_1",
              "%bs = OpTensorLayoutSliceNV %lt_b %b2 %u_3 %u_8 %u_4 %u_16",
              "%mb = OpCooperativeMatrixLoadTensorNV %mat %pb %zero %bs None None",
              "%d0 = OpCreateTensorLayoutNV %lt_d",
              "%d1 = OpTensorLayoutSetDimensionNV %lt_d %d0 %u_16 %u_16",
              "%ds0 = OpTensorLayoutSliceNV %lt_d %d1 %u_0 %u_8 %u_0 %u_16",
              "OpCooperativeMatrixStoreTensorNV %pd %ma %ds0 None None",
              "%ds1 = OpTensorLayoutSliceNV %lt_d %d1 %u_8 %u_8 %u_0 %u_16",
              "OpCooperativeMatrixStoreTensorNV %pd %mb %ds1 None None",
              "OpReturn", "OpFunctionEnd"]
    d = []
    spans_a, offsets_a = (1, 8, 16), (1, 5, -3)
    for e in range(rows * cols):
        index = (e // (spans_a[1] * spans_a[2]), (e // spans_a[2]) % spans_a[1], e % spans_a[2])
        coord = [min(max(o + i, 0), n - 1) for o, i, n in zip(offsets_a, index, dims_a)]
        d.append(a[(coord[0] * dims_a[1] + coord[1]) * dims_a[2] + coord[2]])
    for r in range(rows):
        for c in range(cols):
            y, x = (3 + r) % dims_b[0], (4 + c) % dims_b[1]
            d.append(b[y * stride_b + x])
    return lines, {"a": ("uint32", a), "b": ("uint32", b)}, {"d": d}


def matrix2_ops():
    n, k = 16, 0.5
    a = [float((i * 29) % 23 - 11) for i in range(n * n)]
    ann, decl = buffers(["a", "t", "row", "quad", "all"], "float")
    lines = header("Vulkan", ["VulkanMemoryModel", "CooperativeMatrixConversionsNV",
                              "CooperativeMatrixPerElementOperationsNV",
                              "CooperativeMatrixReductionsNV"])
    lines += ['OpEntryPoint GLCompute %main "main" %buf_a %buf_t %buf_row %buf_quad %buf_all',
              "OpExecutionMode %main LocalSize 8 1 1"]
    lines += ann
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%float = OpTypeFloat 32",
              "%uint = OpTypeInt 32 0"]
    lines += constants({0, 1, 2, 3, 8, 16})
    lines += ["%f_0 = OpConstant %float 0", "%f_2 = OpConstant %float 2",
              "%%k = OpConstant %%float %s" % k]
    lines += decl
    lines += ["%acc = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_2",
              "%accb = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_1",
              "%acc168 = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_8 %u_2",
              "%acc88 = OpTypeCooperativeMatrixKHR %float %u_3 %u_8 %u_8 %u_2",
              "%zero = OpConstantComposite %acc %f_0",
              "%lt = OpTypeTensorLayoutNV %u_2 %u_1",
              "%elemfn = OpTypeFunction %float %uint %uint %float %float",
              "%combinefn = OpTypeFunction %float %float %float",
              # f(row, col, x, k) = x * k + row - 2 * col
              "%f = OpFunction %float None %elemfn",
              "%f_row = OpFunctionParameter %uint", "%f_col = OpFunctionParameter %uint",
              "%f_x = OpFunctionParameter %float", "%f_k = OpFunctionParameter %float",
              "%f_entry = OpLabel", "%f_xk = OpFMul %float %f_x %f_k",
              "%f_r = OpConvertUToF %float %f_row", "%f_c = OpConvertUToF %float %f_col",
              "%f_c2 = OpFMul %float %f_c %f_2", "%f_s = OpFAdd %float %f_xk %f_r",
              "%f_v = OpFSub %float %f_s %f_c2", "OpReturnValue %f_v", "OpFunctionEnd",
              "%add = OpFunction %float None %combinefn",
              "%add_a = OpFunctionParameter %float", "%add_b = OpFunctionParameter %float",
              "%add_entry = OpLabel", "%add_v = OpFAdd %float %add_a %add_b",
              "OpReturnValue %add_v", "OpFunctionEnd",
              "%max = OpFunction %float None %combinefn",
              "%max_a = OpFunctionParameter %float", "%max_b = OpFunctionParameter %float",
              "%max_entry = OpLabel", "%max_gt = OpFOrdGreaterThan %bool %max_a %max_b",
              "%max_v = OpSelect %float %max_gt %max_a %max_b",
              "OpReturnValue %max_v", "OpFunctionEnd",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pa = OpAccessChain %pel %buf_a %u_0 %u_0",
              "%pt = OpAccessChain %pel %buf_t %u_0 %u_0",
              "%prow = OpAccessChain %pel %buf_row %u_0 %u_0",
              "%pquad = OpAccessChain %pel %buf_quad %u_0 %u_0",
              "%pall = OpAccessChain %pel %buf_all %u_0 %u_0",
              "%l0 = OpCreateTensorLayoutNV %lt",
              "%l16 = OpTensorLayoutSetDimensionNV %lt %l0 %u_16 %u_16",
              "%l168 = OpTensorLayoutSetDimensionNV %lt %l0 %u_16 %u_8",
              "%l88 = OpTensorLayoutSetDimensionNV %lt %l0 %u_8 %u_8",
              "%ma = OpCooperativeMatrixLoadTensorNV %acc %pa %zero %l16 None None",
              "%mp = OpCooperativeMatrixPerElementOpNV %acc %ma %f %k",
              "%mt = OpCooperativeMatrixTransposeNV %accb %mp",
              "OpCooperativeMatrixStoreTensorNV %pt %mt %l16 None None",
              "%mrow = OpCooperativeMatrixReduceNV %acc168 %ma Row %add",
              "OpCooperativeMatrixStoreTensorNV %prow %mrow %l168 None None",
              "%mquad = OpCooperativeMatrixReduceNV %acc88 %ma 2x2 %max",
              "OpCooperativeMatrixStoreTensorNV %pquad %mquad %l88 None None",
              "%mall = OpCooperativeMatrixReduceNV %acc88 %ma Row|Column %add",
              "OpCooperativeMatrixStoreTensorNV %pall %mall %l88 None None",
              "OpReturn", "OpFunctionEnd"]
    # %bool is needed by %max.
    lines.insert(lines.index("%uint = OpTypeInt 32 0") + 1, "%bool = OpTypeBool")
    at = lambda r, c: a[r * n + c]
    p = [[at(r, c) * k + r - 2 * c for c in range(n)] for r in range(n)]
    t = [p[c][r] for r in range(n) for c in range(n)]
    row = [sum(a[r * n:(r + 1) * n]) for r in range(n) for _ in range(8)]
    quad = [max(at(2 * r, 2 * c), at(2 * r, 2 * c + 1), at(2 * r + 1, 2 * c), at(2 * r + 1, 2 * c + 1))
            for r in range(8) for c in range(8)]
    total = [sum(a)] * 64
    expected = {"t": t, "row": row, "quad": quad, "all": total}
    return lines, {"a": ("float", a)}, expected


def tensor_view():
    n = 16
    t_rows, t_cols = 12, 20  # The tensor read through the transposing view: N x K.
    t = [float((i * 17) % 31 - 15) for i in range(t_rows * t_cols)]
    ann, decl = buffers(["t", "d"], "float")
    lines = header("Vulkan", ["VulkanMemoryModel"])
    lines += ['OpEntryPoint GLCompute %main "main" %buf_t %buf_d',
              "OpExecutionMode %main LocalSize 8 1 1"]
    lines += ann
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%float = OpTypeFloat 32",
              "%uint = OpTypeInt 32 0", "%bool = OpTypeBool", "%false = OpConstantFalse %bool"]
    lines += constants({0, 1, 2, 3, 4, 10, 12, 14, 16, 20})
    lines += ["%f_7 = OpConstant %float 7", "%%clamp = OpConstant %%uint %d" % FLOAT_CLAMP_BITS]
    lines += decl
    lines += ["%acc = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_2",
              "%sevens = OpConstantComposite %acc %f_7",
              "%lt = OpTypeTensorLayoutNV %u_2 %u_1",
              "%vt_swap = OpTypeTensorViewNV %u_2 %false %u_1 %u_0",
              "%vt_same = OpTypeTensorViewNV %u_2 %false %u_0 %u_1",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pt = OpAccessChain %pel %buf_t %u_0 %u_0",
              "%pd = OpAccessChain %pel %buf_d %u_0 %u_0",
              "%l0 = OpCreateTensorLayoutNV %lt",
              "%lt1 = OpTensorLayoutSetDimensionNV %lt %l0 %u_12 %u_20",
              "%lt2 = OpTensorLayoutSetClampValueNV %lt %lt1 %clamp",
              "%lts = OpTensorLayoutSliceNV %lt %lt2 %u_0 %u_16 %u_4 %u_16",
              "%v0 = OpCreateTensorViewNV %vt_swap",
              "%v1 = OpTensorViewSetClipNV %vt_swap %v0 %u_2 %u_10 %u_1 %u_14",
              "%m = OpCooperativeMatrixLoadTensorNV %acc %pt %sevens %lts None TensorView %v1",
              "%ld = OpTensorLayoutSetDimensionNV %lt %l0 %u_16 %u_16",
              "%w0 = OpCreateTensorViewNV %vt_same",
              "%w1 = OpTensorViewSetClipNV %vt_same %w0 %u_0 %u_12 %u_4 %u_12",
              "OpCooperativeMatrixStoreTensorNV %pd %m %ld None TensorView %w1",
              "OpReturn", "OpFunctionEnd"]
    # A clip rectangle (rows ro.., columns co.., spans rs, cs with cs at most C - co) is what
    # maps to the slice: element (r, c) in it is element (r - ro) * cs + (c - co) of the slice,
    # enumerated row-major over the view's dimensions (here the layout's, swapped: 16 x 16).
    def clipped(r, c, ro, rs, co, cs):
        cs = min(cs, n - co)
        if not (ro <= r < ro + rs and co <= c < co + cs):
            return None
        return (r - ro) * cs + (c - co)
    m = [[7.0] * n for _ in range(n)]  # Outside the load's clip: Object.
    for r in range(n):
        for c in range(n):
            e = clipped(r, c, 2, 10, 1, 14)
            if e is None:
                continue
            y, x = e % n, 4 + e // n  # View (e // 16, e % 16); it swaps the dimensions.
            m[r][c] = t[y * t_cols + x] if y < t_rows and x < t_cols else FLOAT_CLAMP
    d = [-1.0] * (n * n)
    for r in range(n):
        for c in range(n):
            e = clipped(r, c, 0, 12, 4, 12)
            if e is not None:
                d[e] = m[r][c]  # The output tensor is 16 x 16 and unsliced.
    return lines, {"t": ("float", t)}, {"d": d}


def workgroup_matmul():
    m, n, kk, bk = 32, 32, 48, 16
    a = [float((i * 7) % 9 - 4) for i in range(m * kk)]
    b = [float((i * 5) % 7 - 3) for i in range(kk * n)]
    lines = header("Vulkan", ["VulkanMemoryModel", "Float16", "StorageBuffer16BitAccess"])
    lines += ['OpEntryPoint GLCompute %main "main" %buf_a %buf_b %buf_d %buf_e',
              "OpExecutionMode %main LocalSize 32 1 1"]
    lines += ["OpDecorate %rth ArrayStride 2", "OpMemberDecorate %blkh 0 Offset 0",
              "OpDecorate %blkh Block", "OpDecorate %rt ArrayStride 4",
              "OpMemberDecorate %blk 0 Offset 0", "OpDecorate %blk Block"]
    for i, name in enumerate("abde"):
        lines += ["OpDecorate %%buf_%s DescriptorSet 0" % name,
                  "OpDecorate %%buf_%s Binding %d" % (name, i)]
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%float = OpTypeFloat 32",
              "%half = OpTypeFloat 16", "%uint = OpTypeInt 32 0", "%bool = OpTypeBool"]
    lines += constants({0, 1, 2, 3, 16, 32, 48})
    lines += ["%f_0 = OpConstant %float 0",
              "%rth = OpTypeRuntimeArray %half", "%blkh = OpTypeStruct %rth",
              "%pblkh = OpTypePointer StorageBuffer %blkh",
              "%pelh = OpTypePointer StorageBuffer %half",
              "%rt = OpTypeRuntimeArray %float", "%blk = OpTypeStruct %rt",
              "%pblk = OpTypePointer StorageBuffer %blk",
              "%pel = OpTypePointer StorageBuffer %float",
              "%buf_a = OpVariable %pblkh StorageBuffer",
              "%buf_b = OpVariable %pblkh StorageBuffer",
              "%buf_d = OpVariable %pblk StorageBuffer",
              "%buf_e = OpVariable %pblk StorageBuffer",
              # Workgroup scope (%u_2): A 32 x 16, B 16 x 32, accumulators 32 x 32.
              "%wa = OpTypeCooperativeMatrixKHR %half %u_2 %u_32 %u_16 %u_0",
              "%wb = OpTypeCooperativeMatrixKHR %half %u_2 %u_16 %u_32 %u_1",
              "%wc = OpTypeCooperativeMatrixKHR %float %u_2 %u_32 %u_32 %u_2",
              "%zero = OpConstantComposite %wc %f_0",
              "%lt = OpTypeTensorLayoutNV %u_2 %u_0",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pd = OpAccessChain %pel %buf_d %u_0 %u_0",
              "%pe = OpAccessChain %pel %buf_e %u_0 %u_0",
              "OpBranch %head",
              "%head = OpLabel",
              "%k = OpPhi %uint %u_0 %entry %k_next %cont",
              "%acc = OpPhi %wc %zero %entry %acc_next %cont",
              "%more = OpULessThan %bool %k %u_48",
              "OpLoopMerge %exit %cont None",
              "OpBranchConditional %more %body %exit",
              "%body = OpLabel",
              "%pa = OpAccessChain %pelh %buf_a %u_0 %k",
              "%ta = OpCooperativeMatrixLoadKHR %wa %pa %u_0 %u_48 None",
              "%kb = OpIMul %uint %k %u_32",
              "%pb = OpAccessChain %pelh %buf_b %u_0 %kb",
              "%tb = OpCooperativeMatrixLoadKHR %wb %pb %u_0 %u_32 None",
              "%acc_next = OpCooperativeMatrixMulAddKHR %wc %ta %tb %acc",
              "OpBranch %cont",
              "%cont = OpLabel",
              "%k_next = OpIAdd %uint %k %u_16",
              "OpBranch %head",
              "%exit = OpLabel",
              "%l0 = OpCreateTensorLayoutNV %lt",
              "%l1 = OpTensorLayoutSetDimensionNV %lt %l0 %u_32 %u_32",
              "OpCooperativeMatrixStoreTensorNV %pd %acc %l1 None None",
              "OpCooperativeMatrixStoreKHR %pe %acc %u_1 %u_32 None",
              "OpReturn", "OpFunctionEnd"]
    d = [sum(a[r * kk + x] * b[x * n + c] for x in range(kk)) for r in range(m) for c in range(n)]
    e = [d[r * n + c] for c in range(n) for r in range(m)]  # Column major.
    return lines, {"a": ("float16", a), "b": ("float16", b)}, {"d": d, "e": e}


def decode_q4():
    rows, k, qk = 16, 64, 32
    nblocks = rows * k // qk
    scales = {0: (0.5, 0x3800), 1: (1.0, 0x3C00), 2: (2.0, 0x4000), 3: (0.25, 0x3400)}
    blocks, values = [], []
    for j in range(nblocks):
        d, bits = scales[j % 4]
        q = [(j * 7 + i * 13) % 256 for i in range(16)]
        blocks += [bits & 0xFF, bits >> 8] + q
        values.append((d, q))
    lines = header("Vulkan", ["VulkanMemoryModel", "CooperativeMatrixBlockLoadsNV", "Float16",
                              "Int8", "StorageBuffer16BitAccess", "StorageBuffer8BitAccess",
                              "PhysicalStorageBufferAddresses"])
    lines[lines.index("OpMemoryModel Logical Vulkan")] = "OpMemoryModel PhysicalStorageBuffer64 Vulkan"
    lines += ['OpEntryPoint GLCompute %main "main" %buf_q %buf_d',
              "OpExecutionMode %main LocalSize 8 1 1",
              "OpDecorate %arrq ArrayStride 1",
              "OpMemberDecorate %blockq 0 Offset 0", "OpMemberDecorate %blockq 1 Offset 2",
              "OpMemberDecorate %ref 0 Offset 0", "OpDecorate %ref Block",
              "OpDecorate %rtq ArrayStride 18", "OpMemberDecorate %blkq 0 Offset 0",
              "OpDecorate %blkq Block", "OpDecorate %rt ArrayStride 4",
              "OpMemberDecorate %blk 0 Offset 0", "OpDecorate %blk Block",
              "OpDecorate %buf_q DescriptorSet 0", "OpDecorate %buf_q Binding 0",
              "OpDecorate %buf_d DescriptorSet 0", "OpDecorate %buf_d Binding 1"]
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%float = OpTypeFloat 32",
              "%half = OpTypeFloat 16", "%uint = OpTypeInt 32 0", "%uchar = OpTypeInt 8 0"]
    lines += constants({0, 1, 2, 3, 4, 15, 16, 32, 64})
    lines += ["%h_0 = OpConstant %half 0", "%h_8 = OpConstant %half 8",
              "%arrq = OpTypeArray %uchar %u_16",
              "%blockq = OpTypeStruct %half %arrq", "%ref = OpTypeStruct %blockq",
              "%psb = OpTypePointer PhysicalStorageBuffer %ref",
              "%psb_half = OpTypePointer PhysicalStorageBuffer %half",
              "%psb_uchar = OpTypePointer PhysicalStorageBuffer %uchar",
              "%arr2 = OpTypeArray %uint %u_2",
              "%decfn = OpTypeFunction %half %psb %arr2 %arr2",
              "%rtq = OpTypeRuntimeArray %blockq", "%blkq = OpTypeStruct %rtq",
              "%pblkq = OpTypePointer StorageBuffer %blkq",
              "%pq = OpTypePointer StorageBuffer %blockq",
              "%buf_q = OpVariable %pblkq StorageBuffer",
              "%rt = OpTypeRuntimeArray %float", "%blk = OpTypeStruct %rt",
              "%pblk = OpTypePointer StorageBuffer %blk",
              "%pel = OpTypePointer StorageBuffer %float",
              "%buf_d = OpVariable %pblk StorageBuffer",
              "%mh = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_32 %u_2",
              "%mf = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_32 %u_2",
              "%zero = OpConstantComposite %mh %h_0",
              "%lt = OpTypeTensorLayoutNV %u_2 %u_1",
              "%ltd = OpTypeTensorLayoutNV %u_2 %u_0",
              # dec(block, blockCoord, coordInBlock) = ((q[i % 16] >> (i & 16) / 4) & 15 - 8) * d
              "%dec = OpFunction %half None %decfn",
              "%bp = OpFunctionParameter %psb", "%bc = OpFunctionParameter %arr2",
              "%ib = OpFunctionParameter %arr2", "%dl = OpLabel",
              "%dp = OpAccessChain %psb_half %bp %u_0 %u_0", "%d = OpLoad %half %dp Aligned 2",
              "%i = OpCompositeExtract %uint %ib 1", "%lo = OpBitwiseAnd %uint %i %u_15",
              "%qp = OpAccessChain %psb_uchar %bp %u_0 %u_1 %lo",
              "%q8 = OpLoad %uchar %qp Aligned 1", "%q = OpUConvert %uint %q8",
              "%hi = OpBitwiseAnd %uint %i %u_16", "%sh = OpShiftRightLogical %uint %hi %u_2",
              "%qs = OpShiftRightLogical %uint %q %sh", "%n = OpBitwiseAnd %uint %qs %u_15",
              "%nf = OpConvertUToF %half %n", "%c = OpFSub %half %nf %h_8",
              "%v = OpFMul %half %c %d", "OpReturnValue %v", "OpFunctionEnd",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pb = OpAccessChain %pq %buf_q %u_0 %u_0",
              "%pd = OpAccessChain %pel %buf_d %u_0 %u_0",
              "%l0 = OpCreateTensorLayoutNV %lt",
              "%l1 = OpTensorLayoutSetBlockSizeNV %lt %l0 %u_1 %u_32",
              "%l2 = OpTensorLayoutSetDimensionNV %lt %l1 %u_16 %u_64",
              "%ls = OpTensorLayoutSliceNV %lt %l2 %u_0 %u_16 %u_32 %u_32",
              "%m = OpCooperativeMatrixLoadTensorNV %mh %pb %zero %ls None DecodeFunc %dec",
              "%m32 = OpFConvert %mf %m",
              "%d0 = OpCreateTensorLayoutNV %ltd",
              "%d1 = OpTensorLayoutSetDimensionNV %ltd %d0 %u_16 %u_32",
              "OpCooperativeMatrixStoreTensorNV %pd %m32 %d1 None None",
              "OpReturn", "OpFunctionEnd"]
    out = []
    for r in range(rows):
        for c in range(qk):
            d, q = values[r * (k // qk) + 1]  # The second block of row r.
            code = (q[c % 16] >> (4 if c & 16 else 0)) & 15
            out.append(float((code - 8) * d))
    return lines, {"q": ("uint8", blocks)}, {"d": out}


def tensor_mirrored():
    rows, cols, dims = 8, 16, (5, 7)
    b = [(i * 11 + 5) % 300 for i in range(dims[0] * dims[1])]
    ann, decl = buffers(["b", "d"], "uint")
    lines = header("Vulkan", ["VulkanMemoryModel"])
    lines += ['OpEntryPoint GLCompute %main "main" %buf_b %buf_d',
              "OpExecutionMode %main LocalSize 8 1 1"]
    lines += ann
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%uint = OpTypeInt 32 0",
              "%int = OpTypeInt 32 1"]
    lines += constants({0, 2, 3, 4, 5, 7, 8, 16})
    lines += ["%i_m3 = OpConstant %int -3", "%i_m4 = OpConstant %int -4"]
    lines += decl
    lines += ["%mat = OpTypeCooperativeMatrixKHR %uint %u_3 %u_8 %u_16 %u_2",
              "%zero = OpConstantComposite %mat %u_0",
              "%lt_b = OpTypeTensorLayoutNV %u_2 %u_4",
              "%lt_d = OpTypeTensorLayoutNV %u_2 %u_0",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pb = OpAccessChain %pel %buf_b %u_0 %u_0",
              "%pd = OpAccessChain %pel %buf_d %u_0 %u_0",
              "%b0 = OpCreateTensorLayoutNV %lt_b",
              "%b1 = OpTensorLayoutSetDimensionNV %lt_b %b0 %u_5 %u_7",
              "%bs = OpTensorLayoutSliceNV %lt_b %b1 %i_m3 %u_8 %i_m4 %u_16",
              "%mb = OpCooperativeMatrixLoadTensorNV %mat %pb %zero %bs None None",
              "%d0 = OpCreateTensorLayoutNV %lt_d",
              "%d1 = OpTensorLayoutSetDimensionNV %lt_d %d0 %u_8 %u_16",
              "OpCooperativeMatrixStoreTensorNV %pd %mb %d1 None None",
              "OpReturn", "OpFunctionEnd"]

    def mirror(v, n):  # Reflected, the edge element not repeated (NVIDIA's reading).
        period = 2 * (n - 1)
        if period == 0:
            return 0
        t = v % period
        return t if t < n else period - t
    d = [b[mirror(r - 3, dims[0]) * dims[1] + mirror(c - 4, dims[1])]
         for r in range(rows) for c in range(cols)]
    return lines, {"b": ("uint32", b)}, {"d": d}


def decode_q8(vector):
    """D (16 x 16 float) = A (16 x 64, q8_0 blocks decoded to float16) * B (64 x 16 float16), in
    four 16-wide K steps (a step starts in the middle of a block every other time)."""
    rows, k, n, qk = 16, 64, 16, 32
    nblocks = rows * k // qk
    scales = {0: (0.5, 0x3800), 1: (1.0, 0x3C00), 2: (2.0, 0x4000), 3: (0.25, 0x3400)}
    blocks, a = [], [[0.0] * k for _ in range(rows)]
    for j in range(nblocks):
        d, bits = scales[j % 4]
        q = [(j * 7 + i * 13) % 256 - 128 for i in range(qk)]
        blocks += [bits & 0xFF, bits >> 8] + [v & 0xFF for v in q]
        r, c0 = j // (k // qk), (j % (k // qk)) * qk
        for i in range(qk):
            a[r][c0 + i] = q[i] * d
    b = [float((i * 5) % 7 - 3) for i in range(k * n)]
    caps = ["VulkanMemoryModel", "CooperativeMatrixBlockLoadsNV", "Float16", "Int8",
            "StorageBuffer16BitAccess", "StorageBuffer8BitAccess",
            "PhysicalStorageBufferAddresses"]
    if vector:
        caps += ["Int16", "CooperativeMatrixDecodeVectorNV"]
    lines = header("Vulkan", caps)
    lines[lines.index("OpMemoryModel Logical Vulkan")] = "OpMemoryModel PhysicalStorageBuffer64 Vulkan"
    if vector:
        lines.insert(lines.index('OpExtension "SPV_NV_tensor_addressing"') + 1,
                     'OpExtension "SPV_NV_cooperative_matrix_decode_vector"')
    lines += ['OpEntryPoint GLCompute %main "main" %buf_q %buf_b %buf_d',
              "OpExecutionMode %main LocalSize 8 1 1",
              # ggml's block_q8_0 { float16_t d; int8_t qs[32]; } (34 bytes), as a buffer
              # reference struct (%ref wraps the block) and in the descriptor buffer.
              "OpDecorate %arrq ArrayStride 1",
              "OpMemberDecorate %blockq 0 Offset 0", "OpMemberDecorate %blockq 1 Offset 2",
              "OpMemberDecorate %ref 0 Offset 0", "OpDecorate %ref Block",
              "OpDecorate %rtq ArrayStride 34", "OpMemberDecorate %blkq 0 Offset 0",
              "OpDecorate %blkq Block", "OpDecorate %rth ArrayStride 2",
              "OpMemberDecorate %blkh 0 Offset 0", "OpDecorate %blkh Block",
              "OpDecorate %rt ArrayStride 4",
              "OpMemberDecorate %blk 0 Offset 0", "OpDecorate %blk Block",
              "OpDecorate %buf_q DescriptorSet 0", "OpDecorate %buf_q Binding 0",
              "OpDecorate %buf_b DescriptorSet 0", "OpDecorate %buf_b Binding 1",
              "OpDecorate %buf_d DescriptorSet 0", "OpDecorate %buf_d Binding 2"]
    if vector:
        # The same block seen as { float16_t d; int16_t qs[16]; } for the vector decode.
        lines += ["OpDecorate %arrw ArrayStride 2",
                  "OpMemberDecorate %blockw 0 Offset 0", "OpMemberDecorate %blockw 1 Offset 2",
                  "OpMemberDecorate %refw 0 Offset 0", "OpDecorate %refw Block"]
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%float = OpTypeFloat 32",
              "%half = OpTypeFloat 16", "%uint = OpTypeInt 32 0", "%int = OpTypeInt 32 1",
              "%char = OpTypeInt 8 1"]
    lines += constants({0, 1, 2, 3, 8, 16, 24, 32, 48, 64})
    lines += ["%f_0 = OpConstant %float 0", "%h_0 = OpConstant %half 0",
              "%arrq = OpTypeArray %char %u_32",
              "%blockq = OpTypeStruct %half %arrq", "%ref = OpTypeStruct %blockq",
              "%psb = OpTypePointer PhysicalStorageBuffer %ref",
              "%psb_half = OpTypePointer PhysicalStorageBuffer %half",
              "%psb_char = OpTypePointer PhysicalStorageBuffer %char",
              "%arr2 = OpTypeArray %uint %u_2",
              "%decfn = OpTypeFunction %half %psb %arr2 %arr2",
              "%rtq = OpTypeRuntimeArray %blockq", "%blkq = OpTypeStruct %rtq",
              "%pblkq = OpTypePointer StorageBuffer %blkq",
              "%pq = OpTypePointer StorageBuffer %blockq",
              "%buf_q = OpVariable %pblkq StorageBuffer",
              "%rth = OpTypeRuntimeArray %half", "%blkh = OpTypeStruct %rth",
              "%pblkh = OpTypePointer StorageBuffer %blkh",
              "%pelh = OpTypePointer StorageBuffer %half",
              "%buf_b = OpVariable %pblkh StorageBuffer",
              "%rt = OpTypeRuntimeArray %float", "%blk = OpTypeStruct %rt",
              "%pblk = OpTypePointer StorageBuffer %blk",
              "%pel = OpTypePointer StorageBuffer %float",
              "%buf_d = OpVariable %pblk StorageBuffer",
              "%ma = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_0",
              "%mb = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_1",
              "%mc = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_2",
              "%za = OpConstantComposite %ma %h_0", "%zb = OpConstantComposite %mb %h_0",
              "%zc = OpConstantComposite %mc %f_0",
              "%ltq = OpTypeTensorLayoutNV %u_2 %u_1",
              "%lt = OpTypeTensorLayoutNV %u_2 %u_0"]
    if vector:
        lines += ["%short = OpTypeInt 16 1", "%v2half = OpTypeVector %half 2",
                  "%arrw = OpTypeArray %short %u_16",
                  "%blockw = OpTypeStruct %half %arrw", "%refw = OpTypeStruct %blockw",
                  "%psbw = OpTypePointer PhysicalStorageBuffer %refw",
                  "%psbw_half = OpTypePointer PhysicalStorageBuffer %half",
                  "%psbw_short = OpTypePointer PhysicalStorageBuffer %short",
                  "%decvfn = OpTypeFunction %v2half %psbw %arr2 %arr2"]
    # dec(block, blockCoord, coordInBlock) = float16(qs[coordInBlock[1]]) * d
    lines += ["%dec = OpFunction %half None %decfn",
              "%bp = OpFunctionParameter %psb", "%bc = OpFunctionParameter %arr2",
              "%ib = OpFunctionParameter %arr2", "%dl = OpLabel",
              "%dp = OpAccessChain %psb_half %bp %u_0 %u_0", "%d = OpLoad %half %dp Aligned 2",
              "%i = OpCompositeExtract %uint %ib 1",
              "%qp = OpAccessChain %psb_char %bp %u_0 %u_1 %i",
              "%q8 = OpLoad %char %qp Aligned 1", "%q = OpSConvert %int %q8",
              "%qf = OpConvertSToF %half %q", "%v = OpFMul %half %qf %d",
              "OpReturnValue %v", "OpFunctionEnd"]
    if vector:
        # decv(block, blockCoord, coordInBlock): the two quants of the int16 at
        # coordInBlock[1] / 2 (coordInBlock[1] is even), low byte first, times d.
        lines += ["%decv = OpFunction %v2half None %decvfn",
                  "%wp = OpFunctionParameter %psbw", "%wc = OpFunctionParameter %arr2",
                  "%wi = OpFunctionParameter %arr2", "%wl = OpLabel",
                  "%wdp = OpAccessChain %psbw_half %wp %u_0 %u_0",
                  "%wd = OpLoad %half %wdp Aligned 2",
                  "%wx = OpCompositeExtract %uint %wi 1",
                  "%wh = OpShiftRightLogical %uint %wx %u_1",
                  "%wqp = OpAccessChain %psbw_short %wp %u_0 %u_1 %wh",
                  "%wq16 = OpLoad %short %wqp Aligned 2", "%wq = OpSConvert %int %wq16",
                  "%wlo24 = OpShiftLeftLogical %int %wq %u_24",
                  "%wlo = OpShiftRightArithmetic %int %wlo24 %u_24",
                  "%whi = OpShiftRightArithmetic %int %wq %u_8",
                  "%wlof = OpConvertSToF %half %wlo", "%whif = OpConvertSToF %half %whi",
                  "%wv = OpCompositeConstruct %v2half %wlof %whif",
                  "%wr = OpVectorTimesScalar %v2half %wv %wd",
                  "OpReturnValue %wr", "OpFunctionEnd"]
    decode = "DecodeFunc|DecodeVectorFunc %dec %decv" if vector else "DecodeFunc %dec"
    lines += ["%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pq0 = OpAccessChain %pq %buf_q %u_0 %u_0",
              "%pb = OpAccessChain %pelh %buf_b %u_0 %u_0",
              "%pd = OpAccessChain %pel %buf_d %u_0 %u_0",
              "%a0 = OpCreateTensorLayoutNV %ltq",
              "%a1 = OpTensorLayoutSetBlockSizeNV %ltq %a0 %u_1 %u_32",
              "%a2 = OpTensorLayoutSetDimensionNV %ltq %a1 %u_16 %u_64",
              "%b0 = OpCreateTensorLayoutNV %lt",
              "%b1 = OpTensorLayoutSetDimensionNV %lt %b0 %u_64 %u_16"]
    acc = "%zc"
    for step in range(k // 16):
        kk = "%%u_%d" % (16 * step)
        lines += ["%%as%d = OpTensorLayoutSliceNV %%ltq %%a2 %%u_0 %%u_16 %s %%u_16" % (step, kk),
                  "%%ta%d = OpCooperativeMatrixLoadTensorNV %%ma %%pq0 %%za %%as%d None %s"
                  % (step, step, decode),
                  "%%bs%d = OpTensorLayoutSliceNV %%lt %%b1 %s %%u_16 %%u_0 %%u_16" % (step, kk),
                  "%%tb%d = OpCooperativeMatrixLoadTensorNV %%mb %%pb %%zb %%bs%d None None"
                  % (step, step),
                  "%%c%d = OpCooperativeMatrixMulAddKHR %%mc %%ta%d %%tb%d %s"
                  % (step, step, step, acc)]
        acc = "%%c%d" % step
    lines += ["%d0 = OpCreateTensorLayoutNV %lt",
              "%d1 = OpTensorLayoutSetDimensionNV %lt %d0 %u_16 %u_16",
              "OpCooperativeMatrixStoreTensorNV %%pd %s %%d1 None None" % acc,
              "OpReturn", "OpFunctionEnd"]
    d = [sum(a[r][x] * b[x * n + c] for x in range(k)) for r in range(rows) for c in range(n)]
    return lines, {"q": ("uint8", blocks), "b": ("float16", b)}, {"d": d}


def half_buffers(names, first_binding=0):
    """Descriptor buffers of float16 (%buf_<name>, bindings from first_binding)."""
    ann = ["OpDecorate %rth ArrayStride 2", "OpMemberDecorate %blkh 0 Offset 0",
           "OpDecorate %blkh Block"]
    decl = ["%rth = OpTypeRuntimeArray %half", "%blkh = OpTypeStruct %rth",
            "%pblkh = OpTypePointer StorageBuffer %blkh",
            "%pelh = OpTypePointer StorageBuffer %half"]
    for i, n in enumerate(names):
        ann += ["OpDecorate %%buf_%s DescriptorSet 0" % n,
                "OpDecorate %%buf_%s Binding %d" % (n, first_binding + i)]
        decl.append("%%buf_%s = OpVariable %%pblkh StorageBuffer" % n)
    return ann, decl


def transpose_wide():
    """OpCooperativeMatrixTransposeNV at a non-square shape: K (16 x 32 float16 accumulator)
    becomes K^T (32 x 16, Use B), stored (float16), and multiplies Q (16 x 32, Use A) into
    S = Q * K^T (16 x 16 float), as attention does."""
    m, k = 16, 32
    q = [float((i * 5) % 9 - 4) for i in range(m * k)]
    kk = [float((i * 7) % 11 - 5) for i in range(m * k)]
    ann, decl = half_buffers(["q", "k", "t"])
    lines = header("Vulkan", ["VulkanMemoryModel", "Float16", "StorageBuffer16BitAccess",
                              "CooperativeMatrixConversionsNV"])
    lines += ['OpEntryPoint GLCompute %main "main" %buf_q %buf_k %buf_t %buf_s',
              "OpExecutionMode %main LocalSize 8 1 1"]
    lines += ann + ["OpDecorate %rt ArrayStride 4", "OpMemberDecorate %blk 0 Offset 0",
                    "OpDecorate %blk Block", "OpDecorate %buf_s DescriptorSet 0",
                    "OpDecorate %buf_s Binding 3"]
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%float = OpTypeFloat 32",
              "%half = OpTypeFloat 16", "%uint = OpTypeInt 32 0"]
    lines += constants({0, 1, 2, 3, 16, 32})
    lines += ["%f_0 = OpConstant %float 0", "%h_0 = OpConstant %half 0"] + decl
    lines += ["%rt = OpTypeRuntimeArray %float", "%blk = OpTypeStruct %rt",
              "%pblk = OpTypePointer StorageBuffer %blk",
              "%pel = OpTypePointer StorageBuffer %float",
              "%buf_s = OpVariable %pblk StorageBuffer",
              "%mq = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_32 %u_0",
              "%mk = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_32 %u_2",
              "%mkt = OpTypeCooperativeMatrixKHR %half %u_3 %u_32 %u_16 %u_1",
              "%ms = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_2",
              "%zq = OpConstantComposite %mq %h_0", "%zk = OpConstantComposite %mk %h_0",
              "%zs = OpConstantComposite %ms %f_0",
              "%lt = OpTypeTensorLayoutNV %u_2 %u_0",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pq = OpAccessChain %pelh %buf_q %u_0 %u_0",
              "%pk = OpAccessChain %pelh %buf_k %u_0 %u_0",
              "%pt = OpAccessChain %pelh %buf_t %u_0 %u_0",
              "%ps = OpAccessChain %pel %buf_s %u_0 %u_0",
              "%l0 = OpCreateTensorLayoutNV %lt",
              "%l1632 = OpTensorLayoutSetDimensionNV %lt %l0 %u_16 %u_32",
              "%l3216 = OpTensorLayoutSetDimensionNV %lt %l0 %u_32 %u_16",
              "%l1616 = OpTensorLayoutSetDimensionNV %lt %l0 %u_16 %u_16",
              "%q = OpCooperativeMatrixLoadTensorNV %mq %pq %zq %l1632 None None",
              "%k = OpCooperativeMatrixLoadTensorNV %mk %pk %zk %l1632 None None",
              "%kt = OpCooperativeMatrixTransposeNV %mkt %k",
              "OpCooperativeMatrixStoreTensorNV %pt %kt %l3216 None None",
              "%s = OpCooperativeMatrixMulAddKHR %ms %q %kt %zs",
              "OpCooperativeMatrixStoreTensorNV %ps %s %l1616 None None",
              "OpReturn", "OpFunctionEnd"]
    t = [kk[c * k + r] for r in range(k) for c in range(m)]
    s = [sum(q[r * k + x] * kk[c * k + x] for x in range(k)) for r in range(m) for c in range(m)]
    return lines, {"q": ("float16", q), "k": ("float16", kk)}, {"t": t, "s": s}


def f16(x):
    """x rounded to float16 (to nearest even)."""
    return struct.unpack("<e", struct.pack("<e", x))[0]


def flash_attn():
    """One Br x HSV output tile of attention, the way ggml's flash_attn_cm2 computes it: Q
    (Br x HSK float16, Use A) times K^T (HSK x Bc, Use B, loaded through a transposing tensor
    view from K's rows) for each of the KV tiles, in a loop with O, the row maximum M and the row
    sum L in OpPhi; S is scaled (OpMatrixTimesScalar), masked per element (causal: query position
    q0 + row sees key positions up to it; later ones become -inf, through
    OpCooperativeMatrixPerElementOpNV with the tile's first key position as an operand), its row
    maximum taken (OpCooperativeMatrixReduceNV Row with a max CombineFunc) into M, P = exp(S - M)
    (a per-element op with M as a matrix operand), L = exp(M_old - M) * L + the row sums of P
    (ReduceNV Row, add), O rescaled by exp(M_old - M) smeared to Br x HSV (ReduceNV Row of a
    Br x Bc matrix into Br x HSV), O += P (converted to float16, Use A) * V. At the end O / L
    (L smeared the same way) is stored through a tensor layout with a padded row stride."""
    br, bc, hsk, hsv, tiles, q0, scale = 16, 16, 32, 32, 3, 24, 0.25
    kv = bc * tiles
    out_stride = 40
    q = [((i * 5) % 17 - 8) / 4.0 for i in range(br * hsk)]
    # Later key tiles score higher, so the row maximum grows and O and L are rescaled.
    k = [((i * 7) % 13 - 6) / 4.0 * (1 + i // (bc * hsk)) for i in range(kv * hsk)]
    v = [((i * 3) % 11 - 5) / 2.0 + (i // hsv) % 5 for i in range(kv * hsv)]
    ann, decl = half_buffers(["q", "k", "v"])
    lines = header("Vulkan", ["VulkanMemoryModel", "Float16", "StorageBuffer16BitAccess",
                              "CooperativeMatrixConversionsNV",
                              "CooperativeMatrixPerElementOperationsNV",
                              "CooperativeMatrixReductionsNV"])
    lines.insert(lines.index("OpMemoryModel Logical Vulkan"),
                 '%glsl = OpExtInstImport "GLSL.std.450"')
    lines += ['OpEntryPoint GLCompute %main "main" %buf_q %buf_k %buf_v %buf_o',
              "OpExecutionMode %main LocalSize 8 1 1"]
    lines += ann + ["OpDecorate %rt ArrayStride 4", "OpMemberDecorate %blk 0 Offset 0",
                    "OpDecorate %blk Block", "OpDecorate %buf_o DescriptorSet 0",
                    "OpDecorate %buf_o Binding 3"]
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%float = OpTypeFloat 32",
              "%half = OpTypeFloat 16", "%uint = OpTypeInt 32 0", "%bool = OpTypeBool",
              "%false = OpConstantFalse %bool"]
    lines += constants({0, 1, 2, 3, 16, 24, 32, 40, 48})
    lines += ["%f_0 = OpConstant %float 0", "%h_0 = OpConstant %half 0",
              "%%scale = OpConstant %%float %s" % scale,
              "%f_ninf = OpConstant %float -0x1p+128"] + decl
    lines += ["%rt = OpTypeRuntimeArray %float", "%blk = OpTypeStruct %rt",
              "%pblk = OpTypePointer StorageBuffer %blk",
              "%pel = OpTypePointer StorageBuffer %float",
              "%buf_o = OpVariable %pblk StorageBuffer",
              "%mq = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_32 %u_0",
              "%mkt = OpTypeCooperativeMatrixKHR %half %u_3 %u_32 %u_16 %u_1",
              "%mv = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_32 %u_1",
              "%ms = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_16 %u_2",
              "%mp = OpTypeCooperativeMatrixKHR %half %u_3 %u_16 %u_16 %u_0",
              "%mo = OpTypeCooperativeMatrixKHR %float %u_3 %u_16 %u_32 %u_2",
              "%zq = OpConstantComposite %mq %h_0", "%zkt = OpConstantComposite %mkt %h_0",
              "%zv = OpConstantComposite %mv %h_0", "%zs = OpConstantComposite %ms %f_0",
              "%zo = OpConstantComposite %mo %f_0", "%minf = OpConstantComposite %ms %f_ninf",
              "%lt = OpTypeTensorLayoutNV %u_2 %u_1",
              "%vt = OpTypeTensorViewNV %u_2 %false %u_1 %u_0",
              "%maskfn = OpTypeFunction %float %uint %uint %float %uint",
              "%elemfn = OpTypeFunction %float %uint %uint %float %float",
              "%combinefn = OpTypeFunction %float %float %float",
              # mask(row, col, s, kv0) = kv0 + col > q0 + row ? -inf : s
              "%mask = OpFunction %float None %maskfn",
              "%mk_r = OpFunctionParameter %uint", "%mk_c = OpFunctionParameter %uint",
              "%mk_s = OpFunctionParameter %float", "%mk_kv = OpFunctionParameter %uint",
              "%mk_l = OpLabel", "%mk_key = OpIAdd %uint %mk_kv %mk_c",
              "%mk_qpos = OpIAdd %uint %u_24 %mk_r",
              "%mk_late = OpUGreaterThan %bool %mk_key %mk_qpos",
              "%mk_v = OpSelect %float %mk_late %f_ninf %mk_s",
              "OpReturnValue %mk_v", "OpFunctionEnd",
              # expdiff(row, col, a, b) = exp(a - b)
              "%expdiff = OpFunction %float None %elemfn",
              "%ex_r = OpFunctionParameter %uint", "%ex_c = OpFunctionParameter %uint",
              "%ex_a = OpFunctionParameter %float", "%ex_b = OpFunctionParameter %float",
              "%ex_l = OpLabel", "%ex_d = OpFSub %float %ex_a %ex_b",
              "%ex_v = OpExtInst %float %glsl Exp %ex_d", "OpReturnValue %ex_v", "OpFunctionEnd",
              # emax(row, col, a, b) = max(a, b)
              "%emax = OpFunction %float None %elemfn",
              "%em_r = OpFunctionParameter %uint", "%em_c = OpFunctionParameter %uint",
              "%em_a = OpFunctionParameter %float", "%em_b = OpFunctionParameter %float",
              "%em_l = OpLabel", "%em_v = OpExtInst %float %glsl FMax %em_a %em_b",
              "OpReturnValue %em_v", "OpFunctionEnd",
              "%maxc = OpFunction %float None %combinefn",
              "%mc_a = OpFunctionParameter %float", "%mc_b = OpFunctionParameter %float",
              "%mc_l = OpLabel", "%mc_v = OpExtInst %float %glsl FMax %mc_a %mc_b",
              "OpReturnValue %mc_v", "OpFunctionEnd",
              "%addc = OpFunction %float None %combinefn",
              "%ac_a = OpFunctionParameter %float", "%ac_b = OpFunctionParameter %float",
              "%ac_l = OpLabel", "%ac_v = OpFAdd %float %ac_a %ac_b",
              "OpReturnValue %ac_v", "OpFunctionEnd",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pq = OpAccessChain %pelh %buf_q %u_0 %u_0",
              "%pk = OpAccessChain %pelh %buf_k %u_0 %u_0",
              "%pv = OpAccessChain %pelh %buf_v %u_0 %u_0",
              "%po = OpAccessChain %pel %buf_o %u_0 %u_0",
              "%l0 = OpCreateTensorLayoutNV %lt",
              "%lq = OpTensorLayoutSetDimensionNV %lt %l0 %u_16 %u_32",
              "%lkv = OpTensorLayoutSetDimensionNV %lt %l0 %u_48 %u_32",
              "%tr = OpCreateTensorViewNV %vt",
              "%Q = OpCooperativeMatrixLoadTensorNV %mq %pq %zq %lq None None",
              "OpBranch %head",
              "%head = OpLabel",
              "%j = OpPhi %uint %u_0 %entry %j_next %cont",
              "%O = OpPhi %mo %zo %entry %O_next %cont",
              "%M = OpPhi %ms %minf %entry %M_next %cont",
              "%L = OpPhi %ms %zs %entry %L_next %cont",
              "%more = OpULessThan %bool %j %u_3",
              "OpLoopMerge %exit %cont None",
              "OpBranchConditional %more %body %exit",
              "%body = OpLabel",
              "%kv0 = OpIMul %uint %j %u_16",
              "%lks = OpTensorLayoutSliceNV %lt %lkv %kv0 %u_16 %u_0 %u_32",
              "%KT = OpCooperativeMatrixLoadTensorNV %mkt %pk %zkt %lks None TensorView %tr",
              "%V = OpCooperativeMatrixLoadTensorNV %mv %pv %zv %lks None None",
              "%S0 = OpCooperativeMatrixMulAddKHR %ms %Q %KT %zs",
              "%S1 = OpMatrixTimesScalar %ms %S0 %scale",
              "%S = OpCooperativeMatrixPerElementOpNV %ms %S1 %mask %kv0",
              "%rowmax = OpCooperativeMatrixReduceNV %ms %S Row %maxc",
              "%M_next = OpCooperativeMatrixPerElementOpNV %ms %M %emax %rowmax",
              "%P = OpCooperativeMatrixPerElementOpNV %ms %S %expdiff %M_next",
              "%eM = OpCooperativeMatrixPerElementOpNV %ms %M %expdiff %M_next",
              "%rowsum = OpCooperativeMatrixReduceNV %ms %P Row %addc",
              "%Ls = OpFMul %ms %eM %L",
              "%L_next = OpFAdd %ms %Ls %rowsum",
              "%eMdiag = OpCooperativeMatrixReduceNV %mo %eM Row %maxc",
              "%Os = OpFMul %mo %eMdiag %O",
              "%PA = OpFConvert %mp %P",
              "%O_next = OpCooperativeMatrixMulAddKHR %mo %PA %V %Os",
              "OpBranch %cont",
              "%cont = OpLabel",
              "%j_next = OpIAdd %uint %j %u_1",
              "OpBranch %head",
              "%exit = OpLabel",
              "%Ldiag = OpCooperativeMatrixReduceNV %mo %L Row %maxc",
              "%Of = OpFDiv %mo %O %Ldiag",
              "%lo0 = OpTensorLayoutSetDimensionNV %lt %l0 %u_16 %u_32",
              "%lo1 = OpTensorLayoutSetStrideNV %lt %lo0 %u_40 %u_1",
              "OpCooperativeMatrixStoreTensorNV %po %Of %lo1 None None",
              "OpReturn", "OpFunctionEnd"]
    # The reference: float64 except where the kernel rounds to float16 (P before P * V).
    inf = float("inf")
    o = [[0.0] * hsv for _ in range(br)]
    m = [-inf] * br
    l_sum = [0.0] * br
    for t in range(tiles):
        for r in range(br):
            s = []
            for c in range(bc):
                key = t * bc + c
                dot = sum(q[r * hsk + x] * k[key * hsk + x] for x in range(hsk)) * scale
                s.append(-inf if key > q0 + r else dot)
            m_new = max(m[r], max(s))
            p = [math.exp(x - m_new) for x in s]
            em = math.exp(m[r] - m_new)
            l_sum[r] = em * l_sum[r] + sum(p)
            for x in range(hsv):
                o[r][x] = em * o[r][x] + sum(f16(p[c]) * v[(t * bc + c) * hsv + x]
                                             for c in range(bc))
            m[r] = m_new
    out = [-1.0] * (br * out_stride)
    for r in range(br):
        for x in range(hsv):
            out[r * out_stride + x] = round(o[r][x] / l_sum[r], 6)
    return lines, {"q": ("float16", q), "k": ("float16", k), "v": ("float16", v)}, {"o": out}


def tensor_view_dims():
    """Loads through tensor views WITH dimensions (HasDimensions true) from a 4 x 6 x 10 uint
    tensor sliced to 2 x 4 x 8 at (1, 1, 2). The rule, measured on an H200 (NVIDIA 580.159.04)
    with this kernel: the matrix element's index in the clip rectangle enumerates the view's
    dimensions row-major in the permutation's order (view dimension p[0] outermost, p[D - 1]
    fastest; p = (1, 0, 2) here); those coordinates times the view's strides give the index into
    the slice, enumerated row-major over the spans in the layout's order, modulo the slice's
    elements. OpTensorViewSetDimensionNV also makes the strides packed (16, 8, 1 here). Load 1:
    view dimensions (8, 2, 8), strides (8, 0, 1) (the matrix's 128 elements wrap around the
    slice's 64); load 2: the packed strides and a clip rectangle (rows 1.., 7 of them; columns
    2.., 12 of them; Object 5 elsewhere)."""
    rows, cols = 8, 16
    dims, offsets, spans, perm = (4, 6, 10), (1, 1, 2), (2, 4, 8), (1, 0, 2)
    a = [(i * 7 + 3) % 1000 for i in range(dims[0] * dims[1] * dims[2])]
    ann, decl = buffers(["a", "d"], "uint")
    lines = header("Vulkan", ["VulkanMemoryModel"])
    lines += ['OpEntryPoint GLCompute %main "main" %buf_a %buf_d',
              "OpExecutionMode %main LocalSize 8 1 1"]
    lines += ann
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%uint = OpTypeInt 32 0",
              "%bool = OpTypeBool", "%true = OpConstantTrue %bool"]
    lines += constants({0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 77})
    lines += decl
    lines += ["%mat = OpTypeCooperativeMatrixKHR %uint %u_3 %u_8 %u_16 %u_2",
              "%zero = OpConstantComposite %mat %u_0",
              "%fives = OpConstantComposite %mat %u_5",
              "%lt = OpTypeTensorLayoutNV %u_3 %u_1",
              "%lt_d = OpTypeTensorLayoutNV %u_2 %u_0",
              "%vt = OpTypeTensorViewNV %u_3 %true %u_1 %u_0 %u_2",
              "%main = OpFunction %void None %fn", "%entry = OpLabel",
              "%pa = OpAccessChain %pel %buf_a %u_0 %u_0",
              "%pd = OpAccessChain %pel %buf_d %u_0 %u_0",
              "%a0 = OpCreateTensorLayoutNV %lt",
              "%a1 = OpTensorLayoutSetDimensionNV %lt %a0 %u_4 %u_6 %u_10",
              "%a2 = OpTensorLayoutSetClampValueNV %lt %a1 %u_77",
              "%as = OpTensorLayoutSliceNV %lt %a2 %u_1 %u_2 %u_1 %u_4 %u_2 %u_8",
              "%v0 = OpCreateTensorViewNV %vt",
              "%v1 = OpTensorViewSetDimensionNV %vt %v0 %u_8 %u_2 %u_8",
              "%v2 = OpTensorViewSetStrideNV %vt %v1 %u_8 %u_0 %u_1",
              "%m1 = OpCooperativeMatrixLoadTensorNV %mat %pa %zero %as None TensorView %v2",
              "%w1 = OpTensorViewSetClipNV %vt %v1 %u_1 %u_7 %u_2 %u_12",
              "%m2 = OpCooperativeMatrixLoadTensorNV %mat %pa %fives %as None TensorView %w1",
              "%d0 = OpCreateTensorLayoutNV %lt_d",
              "%d1 = OpTensorLayoutSetDimensionNV %lt_d %d0 %u_16 %u_16",
              "%ds0 = OpTensorLayoutSliceNV %lt_d %d1 %u_0 %u_8 %u_0 %u_16",
              "OpCooperativeMatrixStoreTensorNV %pd %m1 %ds0 None None",
              "%ds1 = OpTensorLayoutSliceNV %lt_d %d1 %u_8 %u_8 %u_0 %u_16",
              "OpCooperativeMatrixStoreTensorNV %pd %m2 %ds1 None None",
              "OpReturn", "OpFunctionEnd"]

    def element(linear):
        # The slice index, row-major over the spans in the layout's order, modulo the slice.
        coord = [0] * 3
        for k in reversed(range(3)):
            coord[k] = offsets[k] + linear % spans[k]
            linear //= spans[k]
        if any(not 0 <= c < n for c, n in zip(coord, dims)):
            return 77
        return a[(coord[0] * dims[1] + coord[1]) * dims[2] + coord[2]]

    def view_index(index, vdims, strides):
        # The clip index enumerates the view's dimensions in the permutation's order (view
        # dimension perm[0] outermost); coordinates times strides give the slice index.
        linear = 0
        for k in reversed(range(3)):
            linear += (index % vdims[perm[k]]) * strides[perm[k]]
            index //= vdims[perm[k]]
        return linear

    vdims = (8, 2, 8)
    packed = (16, 8, 1)
    d = [element(view_index(e, vdims, (8, 0, 1))) for e in range(rows * cols)]
    for r in range(rows):
        for c in range(cols):
            if 1 <= r < 8 and 2 <= c < 14:
                d.append(element(view_index((r - 1) * 12 + (c - 2), vdims, packed)))
            else:
                d.append(5)
    return lines, {"a": ("uint32", a)}, {"d": d}


def half_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def float_bytes(values, fmt):
    return list(b"".join(struct.pack("<" + fmt, v) for v in values))


def nibble_blocks(rows, scales):
    """One 18-byte block a row: a float16 scale and 16 bytes of 4-bit codes; element i is
    (code - 8) * scale, code the low nibble of byte i % 16 below 16, else the high one."""
    blocks, values = [], []
    for r in range(rows):
        d = scales[r % len(scales)]
        q = [(r * 7 + j * 13) % 256 for j in range(16)]
        bits = half_bits(d)
        blocks += [bits & 0xFF, bits >> 8] + q
        values.append([((q[i % 16] >> (4 if i >= 16 else 0)) & 15) - 8 for i in range(32)])
        values[-1] = [v * d for v in values[-1]]
    return blocks, values


def decode_bytes():
    """decode_bytes.comp: O (16 x 16) = Q (16 x 32 float at byte 16) * K^T (16 keys x 32, 4-bit
    blocks at byte 4) + M (16 x 16 float16 at byte 16), every input a uint8 buffer."""
    q = [[((i * 3 + d * 5) % 9 - 4) * 0.25 for d in range(32)] for i in range(16)]
    blocks, k = nibble_blocks(16, [0.5, 1.0, 2.0, 0.25])
    m = [[((i + 2 * j) % 5 - 2) * 0.5 for j in range(16)] for i in range(16)]
    q_bytes = [0] * 16 + float_bytes([v for row in q for v in row], "f")
    k_bytes = [0xEE] * 4 + blocks
    m_bytes = [0x55] * 16 + float_bytes([v for row in m for v in row], "e")
    o = [sum(q[i][d] * k[j][d] for d in range(32)) + m[i][j] for i in range(16) for j in range(16)]
    return {"q": ("uint8", q_bytes), "k": ("uint8", k_bytes), "m": ("uint8", m_bytes)}, {"o": o}


def decode_blocks():
    """decode_blocks.comp: D (16 x 16) = A0 * B + A1 * B, A0 and A1 (16 x 64) decoded from 18- and
    20-byte blocks (two a row) from the buffers' second block on, B (64 x 16) float16."""
    a0_blocks, a1_blocks = [0x11] * 18, [0x22] * 20  # Block 0 is not read.
    a0 = [[0.0] * 64 for _ in range(16)]
    a1 = [[0.0] * 64 for _ in range(16)]
    for r in range(16):
        for h in range(2):
            j = r * 2 + h
            q = [(j * 11 + i * 7 + 3) % 256 for i in range(16)]
            codes = [(q[i % 16] >> (4 if i >= 16 else 0)) & 15 for i in range(32)]
            d0 = [0.5, 1.0, 2.0, 0.25][j % 4]
            bits = half_bits(d0)
            a0_blocks += [bits & 0xFF, bits >> 8] + q
            d1, m1 = [0.25, 0.5][j % 2], [-1.0, 0.5, -2.0][j % 3]
            a1_blocks += float_bytes([d1, m1], "e") + q
            for i in range(32):
                a0[r][32 * h + i] = (codes[i] - 8) * d0
                a1[r][32 * h + i] = codes[i] * d1 + m1
    b = [float((i * 5) % 7 - 3) for i in range(64 * 16)]
    d = [sum((a0[r][x] + a1[r][x]) * b[x * 16 + c] for x in range(64))
         for r in range(16) for c in range(16)]
    return ({"a0": ("uint8", a0_blocks), "a1": ("uint8", a1_blocks), "b": ("float16", b)},
            {"d": d})


def workgroup_odd():
    """workgroup_odd.comp: D (3 x 5 float) = A (3 x 16 float16) * B (16 x 5 float16) + C, every
    matrix behind a device address in the uniform block at binding 0."""
    a = [float((i * 3) % 7 - 3) for i in range(3 * 16)]
    b = [float((i * 5) % 9 - 4) * 0.5 for i in range(16 * 5)]
    c = [float(i % 4) - 1.5 for i in range(15)]
    d = [sum(a[r * 16 + x] * b[x * 5 + n] for x in range(16)) + c[r * 5 + n]
         for r in range(3) for n in range(5)]
    return {"a": ("float16", a), "b": ("float16", b), "c": ("float", c)}, {"d": d}


CASES = {"tensor_float": tensor_float, "tensor_uint_clamp": tensor_uint_clamp,
         "tensor_view": tensor_view, "matrix2_ops": matrix2_ops,
         "workgroup_matmul": workgroup_matmul, "decode_q4": decode_q4,
         "tensor_mirrored": tensor_mirrored,
         "decode_q8_matmul": lambda: decode_q8(False),
         "decode_q8_vector": lambda: decode_q8(True),
         "transpose_wide": transpose_wide, "flash_attn": flash_attn,
         "tensor_view_dims": tensor_view_dims}
# Cases written in GLSL (<case>.comp; <case>.spvasm is glslang 16's output, disassembled, and is
# checked in: glslang is no dependency of the tests). Their functions return the inputs and the
# expected outputs; this script writes their AmberScripts only.
GLSL_CASES = {"decode_bytes": decode_bytes, "decode_blocks": decode_blocks,
              "workgroup_odd": workgroup_odd}
# The outputs' type where it is not the first input's.
OUTPUT_TYPE = {"decode_bytes": "float", "decode_blocks": "float", "workgroup_odd": "float",
               "workgroup_matmul": "float", "decode_q4": "float", "decode_q8_matmul": "float",
               "decode_q8_vector": "float", "flash_attn": "float", "transpose_wide": {"t": "float16", None: "float"}}
# Cases whose buffers the kernel reaches through device addresses (buffer references), in the
# order of the inputs then the outputs, 8 bytes each in a uniform block at binding 0.
ADDRESSED = {"workgroup_odd"}
# The absolute tolerance of the EXPECTs of a case with rounded float results (the others are
# exact: small integers and powers of two).
TOLERANCE = {"flash_attn": 0.01}

# Cases with no native script, and why.
LAVAPIPE_ONLY = {
    "workgroup_odd": "its 3 x 5, 3 x 8 and 8 x 5 Workgroup-scope shapes are not multiples of the "
                     "granularity (16) of any flexible-dimensions entry of the H100 / H200",
    "decode_q8_vector": "DecodeVectorFunc needs VK_NV_cooperative_matrix_decode_vector, which the "
                        "H200 (NVIDIA 580.159.04) lacks; the lowering drops DecodeVectorFunc and "
                        "lavapipe checks the result (decode_q8_matmul is the same load without it)",
}
NATIVE_README = """Generated by test/run/lower_coop_matrix2/generate.py; do not edit.
The kernels of ../ as written, for a GPU with VK_NV_cooperative_matrix2 and subgroups of 32
(utils/gpu_check_matrix2.sh runs them and compares with the lowered ones). Cases without a script
here:
"""


def number(v):
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return str(v)


def data_lines(values):
    return [" ".join(number(v) for v in values[i:i + 16]) for i in range(0, len(values), 16)]


def amber(name, inputs, output, expected, vulkan_memory_model):
    out = ["#!amber", "# Generated by test/run/lower_coop_matrix2/generate.py; do not edit.",
           "# %s: the kernel %s.spvasm after --lower-coop-matrix2=8 --lower-coop-matrix=8 "
           "(the test writes %s.spv)." % (name, name, name), ""]
    if vulkan_memory_model:
        out.append("DEVICE_FEATURE VulkanMemoryModelFeatures.vulkanMemoryModel")
    out += ["", "SET ENGINE_DATA fence_timeout_ms 120000", "",
            "SHADER compute kernel SPIRV-BINARY FILE %s.spv" % name, ""]
    for buf, (dtype, values) in inputs.items():
        out.append("BUFFER %s DATA_TYPE %s DATA" % (buf, dtype))
        out += data_lines(values)
        out.append("END")
    for oname, values in expected.items():
        otype = output.get(oname, output.get(None))
        fill = -1 if otype.startswith("float") else 0
        out.append("BUFFER %s DATA_TYPE %s SIZE %d FILL %s" % (oname, otype, len(values),
                                                                number(fill)))
    if name in ADDRESSED:
        names = list(inputs) + list(expected)
        out.append("BUFFER params DATA_TYPE uint32 SIZE %d FILL 0" % (2 * len(names)))
        out += ["BUFFER_ADDRESS %s INTO params OFFSET %d" % (buf, 8 * i)
                for i, buf in enumerate(names)]
    out += ["", "PIPELINE compute pipeline", "  ATTACH kernel"]
    if name in ADDRESSED:
        out.append("  BIND BUFFER params AS uniform DESCRIPTOR_SET 0 BINDING 0")
    for i, buf in enumerate([] if name in ADDRESSED else list(inputs) + list(expected)):
        out.append("  BIND BUFFER %s AS storage DESCRIPTOR_SET 0 BINDING %d" % (buf, i))
    out += ["END", "", "RUN pipeline 1 1 1"]
    for oname, values in expected.items():
        tolerance = " TOLERANCE %s" % TOLERANCE[name] if name in TOLERANCE else ""
        out.append("EXPECT %s IDX 0%s EQ %s" % (oname, tolerance,
                                                 " ".join(number(v) for v in values)))
    return "\n".join(out) + "\n"


# The workgroup size of each kernel as written (subgroups of 8: lavapipe after the lowering) and
# for native runs (subgroups of 32: the H100 / H200), with the same number of subgroups.
NATIVE_LOCAL_SIZE = {32: 128, 16: 64, 8: 32}
# Cases with Subgroup-scope shapes outside the H100 / H200 KHR list (multiples of 16 from the
# flexible-dimension list instead).
FLEXIBLE_SHAPES = {"transpose_wide", "flash_attn", "decode_bytes", "decode_blocks"}


def native_amber(name, lines, lowered_script):
    """The script that runs the kernel as written on a device with VK_NV_cooperative_matrix2 and
    subgroups of 32 (utils/gpu_check.sh): the kernel inline, its workgroup scaled to keep the
    number of subgroups, and the same buffers and EXPECTs."""
    text = re.sub(r"LocalSize (\d+) 1 1",
                  lambda g: "LocalSize %d 1 1" % NATIVE_LOCAL_SIZE[int(g.group(1))], "\n".join(lines))
    caps = {"PerElementOperations": "PerElementOperations", "Reductions": "Reductions",
            "ConversionsNV": "Conversions"}
    features = ["DEVICE_EXTENSION VK_NV_cooperative_matrix2",
                "DEVICE_EXTENSION VK_KHR_cooperative_matrix",
                "DEVICE_FEATURE CooperativeMatrixFeaturesKHR.cooperativeMatrix",
                "DEVICE_FEATURE CooperativeMatrix2FeaturesNV.cooperativeMatrixTensorAddressing"]
    if re.search(r"OpTypeCooperativeMatrixKHR %\w+ %u(int)?_2 ", text):  # Workgroup scope.
        features += ["DEVICE_FEATURE CooperativeMatrix2FeaturesNV.cooperativeMatrixWorkgroupScope",
                     "DEVICE_FEATURE CooperativeMatrix2FeaturesNV.cooperativeMatrixFlexibleDimensions"]
    elif name in FLEXIBLE_SHAPES:
        features.append(
            "DEVICE_FEATURE CooperativeMatrix2FeaturesNV.cooperativeMatrixFlexibleDimensions")
    if "OpCapability CooperativeMatrixBlockLoadsNV" in text:
        features.append("DEVICE_FEATURE CooperativeMatrix2FeaturesNV.cooperativeMatrixBlockLoads")
    for cap, feature in [("Float16", "Vulkan12Features.shaderFloat16"),
                         ("StorageBuffer16BitAccess", "Storage16BitFeatures.storageBuffer16BitAccess"),
                         ("Int8", "Vulkan12Features.shaderInt8"),
                         ("StorageBuffer8BitAccess", "Vulkan12Features.storageBuffer8BitAccess"),
                         ("PhysicalStorageBufferAddresses", "Vulkan12Features.bufferDeviceAddress"),
                         ("Int64", "shaderInt64")]:
        if "OpCapability %s\n" % cap in text + "\n":
            features.append("DEVICE_FEATURE " + feature)
    for cap, feature in caps.items():
        if "CooperativeMatrix%s" % cap in text:
            features.append("DEVICE_FEATURE CooperativeMatrix2FeaturesNV.cooperativeMatrix"
                            + feature)
    out = []
    for line in lowered_script.splitlines():
        if line.startswith("# %s: the kernel" % name):
            out.append("# %s: the kernel %s.spvasm as written, on a device with "
                       "VK_NV_cooperative_matrix2 and subgroups of 32." % (name, name))
            continue
        if line.startswith("SHADER compute kernel"):
            out += features + ["", "SHADER compute kernel SPIRV-ASM TARGET_ENV spv1.6"]
            out += [l for l in text.splitlines() if not l.startswith(";")]
            out.append("END")
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    here = os.path.dirname(os.path.abspath(__file__))
    for name, make in list(CASES.items()) + list(GLSL_CASES.items()):
        if name in GLSL_CASES:
            inputs, expected = make()
            with open(os.path.join(here, name + ".spvasm")) as f:
                lines = [l.strip() for l in f.read().splitlines()]
        else:
            lines, inputs, expected = make()
            with open(os.path.join(folder, name + ".spvasm"), "w") as f:
                f.write("; Generated by test/run/lower_coop_matrix2/generate.py; do not edit.\n")
                f.write("\n".join(lines) + "\n")
        otype = OUTPUT_TYPE.get(name, next(iter(inputs.values()))[0])
        # The outputs' types ({output: type}, None for the others).
        output = otype if isinstance(otype, dict) else {None: otype}
        vmm = "OpMemoryModel Logical Vulkan" in lines or (
            name in GLSL_CASES and "OpMemoryModel PhysicalStorageBuffer64 Vulkan" in lines)
        script = amber(name, inputs, output, expected, vmm)
        with open(os.path.join(folder, name + ".amber"), "w") as f:
            f.write(script)
        os.makedirs(os.path.join(folder, "native"), exist_ok=True)
        if name in LAVAPIPE_ONLY:
            continue
        with open(os.path.join(folder, "native", name + ".amber"), "w") as f:
            f.write(native_amber(name, lines, script))
    with open(os.path.join(folder, "native", "README"), "w") as f:
        f.write(NATIVE_README + "".join("- %s: %s\n" % kv for kv in LAVAPIPE_ONLY.items()))
    with open(os.path.join(folder, "CASES"), "w") as f:
        f.write("\n".join(list(CASES) + list(GLSL_CASES)) + "\n")


if __name__ == "__main__":
    main()
