#!/usr/bin/env python3
"""Writes the AmberScript tests of test/run/coopvec/ for SPV_NV_cooperative_vector.

Each test is a GLSL compute shader using GL_NV_cooperative_vector (compiled here by glslang and
shown as assembly by coopspv-dis; neither is needed to run the tests), inputs drawn from a seeded
random generator, and expected values computed here in Python, independently of the pass:

  coopvec_mlp_f16.amber     two float16 layers (32 -> 32 -> 16, row-major, bias, ReLU)
  coopvec_int8.amber        packed int8 input (SignedInt8PackedNV) with an int32 bias, and an
                            int8 vector against a column-major int8 matrix; int32 results
  coopvec_e4m3.amber        float16 input converted to E4M3 (round to nearest even, saturating),
                            an E4M3 matrix and a float16 bias; float16 result
  coopvec_float_conversions.amber  float16 input converted to E5M2 against an E5M2 matrix, and
                            float32 input converted to float16 (Float16 interpretation)
  coopvec_saturate.amber    int32 and float32 inputs interpreted as SignedInt8 / UnsignedInt8:
                            the saturating conversions of the extension
  coopvec_training.amber    a training step in float32: y = W a + b, g = y - t, then
                            OuterProductAccumulate(g, a) into dW and ReduceSumAccumulate(g) into db
                            (values on a 1/8 grid, so every sum is exact in any order)
  coopvec_training_f16.amber  float16 gradients accumulated in float16 (column-major) and
                            float32 (row-major), and a float16 ReduceSumAccumulate

The scripts are written for a device with VK_NV_cooperative_vector (the DEVICE_EXTENSION /
DEVICE_FEATURE lines naming it). test/run/coopvec/run_lowered.sh turns each into the lowered
script (the shader through `coopspv-opt --lower-coop-vector=<features>`, the lines naming
cooperative vectors dropped) and runs it, e.g. on lavapipe. The `# lower:` line of a script gives
the pass's features.

Usage: test/run/coopvec/generate.py [--glslang PATH] [--dis PATH]
"""
import argparse
import os
import random
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

HEADER = """#version 460 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
"""


# ---- Numbers

def f16(x):
    """The float16 nearest to x (round to nearest even), as a Python float."""
    return struct.unpack('<e', struct.pack('<e', x))[0]


def e4m3_value(code):
    s = -1.0 if code & 0x80 else 1.0
    e = (code >> 3) & 0xF
    m = code & 7
    if e == 15 and m == 7:
        return float('nan')
    if e == 0:
        return s * m / 8.0 * 2.0 ** -6
    return s * (1 + m / 8.0) * 2.0 ** (e - 7)


def e5m2_value(code):
    s = -1.0 if code & 0x80 else 1.0
    e = (code >> 2) & 0x1F
    m = code & 3
    if e == 31:
        return float('nan') if m else s * float('inf')
    if e == 0:
        return s * m / 4.0 * 2.0 ** -14
    return s * (1 + m / 4.0) * 2.0 ** (e - 15)


def quantizer(table, limit):
    """Rounding to the nearest finite value of a table of (value, code), ties to the even code,
    saturating at +-limit."""
    def quantize(x):
        if x >= limit:
            return limit
        if x <= -limit:
            return -limit
        best = None
        for value, code in table:
            d = abs(value - x)
            if best is None or d < best[0] or (d == best[0] and code % 2 == 0 and best[2] % 2 == 1):
                best = (d, value, code)
        return best[1] if best[1] != 0 else 0.0
    return quantize


E5M2_FINITE = sorted(
    (e5m2_value(c), c) for c in range(256) if abs(e5m2_value(c)) != float('inf')
    and e5m2_value(c) == e5m2_value(c))
e5m2_quantize = quantizer(E5M2_FINITE, 57344.0)

E4M3_FINITE = sorted(
    (e4m3_value(c), c) for c in range(256) if e4m3_value(c) == e4m3_value(c))


def e4m3_quantize(x):
    """x rounded to E4M3: nearest, ties to the even encoding, saturating at +-448."""
    if x >= 448:
        return 448.0
    if x <= -448:
        return -448.0
    best = None
    for value, code in E4M3_FINITE:
        d = abs(value - x)
        if best is None or d < best[0] or (d == best[0] and code % 2 == 0 and best[2] % 2 == 1):
            best = (d, value, code)
    return best[1] if best[1] != 0 else 0.0


def e4m3_encode(x):
    """The E4M3 code of an exactly representable value."""
    for value, code in E4M3_FINITE:
        if value == x and (x != 0 or code == 0):
            return code
    raise ValueError(x)


def round_half_even(x):
    f = int(x // 1)
    r = x - f
    if r > 0.5 or (r == 0.5 and f % 2 == 1):
        f += 1
    return f


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def fmt(values):
    out = []
    for v in values:
        if isinstance(v, float):
            out.append(repr(v) if v != int(v) else str(int(v)))
        else:
            out.append(str(v))
    return out


def lines(values, per_line=16, indent='  '):
    items = fmt(values)
    return '\n'.join(indent + ' '.join(items[i:i + per_line]) for i in range(0, len(items), per_line))


# ---- Tools

def compile_shader(glsl, glslang, dis):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'shader.comp')
        spv = os.path.join(tmp, 'shader.spv')
        with open(src, 'w') as f:
            f.write(glsl)
        subprocess.run([glslang, '-V', '--target-env', 'vulkan1.3', src, '-o', spv], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return subprocess.run([dis, spv], check=True, stdout=subprocess.PIPE,
                              text=True).stdout


# Scripts whose native run would mean nothing: their matrices are optimal-layout ones held
# row-major for the lowering (a native run needs them written by vkConvertCooperativeVectorMatrixNV:
# a CONVERT_MATRIX line, which these scripts, run lowered by run_lowered.sh, do not have; the
# native scripts of test/run/native/ do), or they break a rule of the Vulkan environment (vkspec, Runtime
# SPIR-V validation). utils/gpu_check_coopvec.sh does not compare native with lowered for them;
# the lowered module is still checked against the values computed here. (The H100 ran the
# row-major E4M3 form, which -10090 forbids, and computed -25.19 for -6.54.)
NATIVE_INVALID = {
    'coopvec_optimal_f16.amber':
        'its matrices are stored row-major with a tight stride for '
        '--lower-coop-vector=optimal-as-row-major; a native run needs them converted into the '
        'optimal layout (vkConvertCooperativeVectorMatrixNV, CONVERT_MATRIX), which this script does not do',
    'coopvec_e4m3.amber':
        'its E4M3 matrix is InferencingOptimalNV, as Vulkan requires of float8 matrices '
        '(VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10090), and the buffer holds it '
        'row-major for --lower-coop-vector=optimal-as-row-major; natively it needs '
        'vkConvertCooperativeVectorMatrixNV (CONVERT_MATRIX), which this script does not do',
    'coopvec_float_conversions.amber':
        'its E5M2 matrix is InferencingOptimalNV (VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-'
        '10090) held row-major for optimal-as-row-major (natively: vkConvertCooperativeVectorMatrixNV, '
        'not done here); and a float32 input with a Float16 interpretation needs a '
        'VkCooperativeVectorPropertiesNV entry the H100 does not list (-10089)',
    'coopvec_training.amber':
        'VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10093: the outer-product '
        'matrix must be TrainingOptimalNV, not RowMajorNV; and a Float32 one needs '
        'cooperativeVectorTrainingFloat32Accumulation, which the H100 lacks',
    'coopvec_training_f16.amber':
        'VUID-RuntimeSpirv-OpCooperativeVectorOuterProductAccumulateNV-10093: the outer-product '
        'matrix must be TrainingOptimalNV, not RowMajorNV',
}


def write_script(name, description, glsl, lower, native, body, args):
    asm = compile_shader(glsl, args.glslang, args.dis)
    comment = '\n'.join('# ' + l if l else '#' for l in glsl.rstrip().split('\n'))
    invalid = f"# native: invalid: {NATIVE_INVALID[name]}\n" if name in NATIVE_INVALID else ""
    text = f"""# {description}
# Generated by test/run/coopvec/generate.py (seeded inputs, expected values computed there).
# lower: {lower}
{invalid}# Kernel (glslang -V --target-env vulkan1.3, shown by coopspv-dis):
{comment}

{native}
SHADER compute kernel SPIRV-ASM
{asm.rstrip()}
END

{body.strip()}
"""
    with open(os.path.join(HERE, name), 'w') as f:
        f.write(text)


NATIVE = """DEVICE_EXTENSION VK_NV_cooperative_vector
DEVICE_FEATURE CooperativeVectorFeaturesNV.cooperativeVector"""
STORAGE16 = """DEVICE_FEATURE Vulkan12Features.shaderFloat16
DEVICE_FEATURE Vulkan11Features.storageBuffer16BitAccess"""
STORAGE8 = """DEVICE_FEATURE Vulkan12Features.shaderInt8
DEVICE_FEATURE Vulkan12Features.storageBuffer8BitAccess"""
VMM = "DEVICE_FEATURE Vulkan12Features.vulkanMemoryModel"


def mlp_glsl(comment, n_in, hid, n_out, local_size):
    """Two float16 layers (ReLU between), row-major weights then biases in one buffer.
    Returns the shader and the byte offsets (W1, b1, W2, b2)."""
    w1_off, b1_off = 0, hid * n_in * 2
    w2_off = b1_off + hid * 2
    b2_off = w2_off + n_out * hid * 2
    glsl = HEADER + f"""// {comment}
layout(local_size_x = {local_size}) in;
layout(set = 0, binding = 0) readonly buffer Weights {{ float16_t w[]; }} weights;
layout(set = 0, binding = 1) readonly buffer Inputs {{ float16_t x[]; }} inputs;
layout(set = 0, binding = 2) writeonly buffer Outputs {{ float16_t y[]; }} outputs;
void main() {{
  uint id = gl_GlobalInvocationID.x;
  coopvecNV<float16_t, {n_in}> x;
  coopVecLoadNV(x, inputs.x, id * {n_in * 2});
  coopvecNV<float16_t, {hid}> h;
  coopVecMatMulAddNV(h, x, gl_ComponentTypeFloat16NV, weights.w, {w1_off}, gl_ComponentTypeFloat16NV,
                     weights.w, {b1_off}, gl_ComponentTypeFloat16NV, {hid}, {n_in},
                     gl_CooperativeVectorMatrixLayoutRowMajorNV, false, {n_in * 2});
  h = max(h, coopvecNV<float16_t, {hid}>(0.0));
  coopvecNV<float16_t, {n_out}> y;
  coopVecMatMulAddNV(y, h, gl_ComponentTypeFloat16NV, weights.w, {w2_off}, gl_ComponentTypeFloat16NV,
                     weights.w, {b2_off}, gl_ComponentTypeFloat16NV, {n_out}, {hid},
                     gl_CooperativeVectorMatrixLayoutRowMajorNV, false, {hid * 2});
  coopVecStoreNV(y, outputs.y, id * {n_out * 2});
}}
"""
    return glsl


def amber_body(pipeline, groups, buffers, expects):
    """The buffers (bound in order at DESCRIPTOR_SET 0 BINDING 0, 1, ...), the pipeline, one RUN
    and the EXPECTs. A buffer is (name, data type, values, values per line) with its data, or
    (name, data type, text) with a SIZE ... clause (and comment lines before it, if any); an
    expectation is (buffer, TOLERANCE or None, values, comment or None)."""
    out = []
    for b in buffers:
        if isinstance(b[2], str):
            *comments, clause = b[2].split('\n')
            out += comments + [f'BUFFER {b[0]} DATA_TYPE {b[1]} {clause}']
        else:
            out += [f'BUFFER {b[0]} DATA_TYPE {b[1]} DATA', lines(b[2], b[3]), 'END']
    out += ['', f'PIPELINE compute {pipeline}', '  ATTACH kernel']
    out += [f'  BIND BUFFER {b[0]} AS storage DESCRIPTOR_SET 0 BINDING {i}'
            for i, b in enumerate(buffers)]
    out += ['END', '', f'RUN {pipeline} {groups} 1 1']
    for name, tolerance, values, comment in expects:
        if comment:
            out.append('# ' + comment)
        tol = f' TOLERANCE {tolerance}' if tolerance else ''
        out.append(f"EXPECT {name} IDX 0{tol} EQ {' '.join(fmt(values))}")
    return '\n'.join(out) + '\n'


# ---- The tests

def mlp_f16(args):
    rng = random.Random(16)
    n_in, hid, n_out, inv = 32, 32, 16, 64
    w1 = [f16(rng.uniform(-0.25, 0.25)) for _ in range(hid * n_in)]
    b1 = [f16(rng.uniform(-0.5, 0.5)) for _ in range(hid)]
    w2 = [f16(rng.uniform(-0.25, 0.25)) for _ in range(n_out * hid)]
    b2 = [f16(rng.uniform(-0.5, 0.5)) for _ in range(n_out)]
    x = [f16(rng.uniform(-1, 1)) for _ in range(inv * n_in)]
    y = []
    for i in range(inv):
        xi = x[i * n_in:(i + 1) * n_in]
        h = [max(0.0, f16(b1[r] + sum(w1[r * n_in + k] * xi[k] for k in range(n_in))))
             for r in range(hid)]
        y += [f16(b2[r] + sum(w2[r * hid + k] * h[k] for k in range(hid))) for r in range(n_out)]
    glsl = mlp_glsl('Two float16 layers, row-major weights and biases in one buffer.', n_in, hid,
                    n_out, 32)
    body = amber_body(
        'mlp', inv // 32,
        [('weights', 'float16', w1 + b1 + w2 + b2, 16), ('inputs', 'float16', x, 16),
         ('outputs', 'float16', f'SIZE {inv * n_out} FILL 0')],
        [('outputs', '0.02', y, 'float16 results: within 0.02 (an ulp or two at these magnitudes, '
          'for any summation order).')])
    write_script('coopvec_mlp_f16.amber',
                 'MLP inference in float16: 32 -> 32 (ReLU) -> 16, row-major weights, biases.',
                 glsl, '--lower-coop-vector', '\n'.join([NATIVE, STORAGE16, VMM]), body, args)


def int8(args):
    rng = random.Random(8)
    m, k, inv = 16, 32, 32
    mat_rm = [rng.randint(-128, 127) for _ in range(m * k)]  # Row-major, stride k.
    mat_cm = [rng.randint(-128, 127) for _ in range(m * k)]  # Column-major, stride m.
    bias = [rng.randint(-100000, 100000) for _ in range(m)]
    xq = [rng.randint(-128, 127) for _ in range(inv * k)]
    x8 = [rng.randint(-128, 127) for _ in range(inv * k)]
    packed = []
    for i in range(inv * k // 4):
        word = 0
        for b in range(4):
            word |= (xq[i * 4 + b] & 0xFF) << (8 * b)
        packed.append(word)
    out = []
    for i in range(inv):
        xi = xq[i * k:(i + 1) * k]
        yi = x8[i * k:(i + 1) * k]
        r1 = [bias[r] + sum(mat_rm[r * k + c] * xi[c] for c in range(k)) for r in range(m)]
        r2 = [sum(mat_cm[c * m + r] * yi[c] for c in range(k)) for r in range(m)]
        out += r1 + r2
    glsl = HEADER + f"""// Packed int8 input with an int32 bias (row-major), and an int8 vector against a
// column-major int8 matrix; int32 results.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer Packed {{ uint p[]; }} packed;
layout(set = 0, binding = 1) readonly buffer X8 {{ int8_t x[]; }} x8;
layout(set = 0, binding = 2) readonly buffer Mat {{ int8_t m[]; }} mat;
layout(set = 0, binding = 3) readonly buffer Bias {{ int b[]; }} bias;
layout(set = 0, binding = 4) writeonly buffer Out {{ int o[]; }} outp;
void main() {{
  uint id = gl_GlobalInvocationID.x;
  coopvecNV<uint32_t, {k // 4}> xp;
  coopVecLoadNV(xp, packed.p, id * {k});
  coopvecNV<int32_t, {m}> r1;
  coopVecMatMulAddNV(r1, xp, gl_ComponentTypeSignedInt8PackedNV, mat.m, 0, gl_ComponentTypeSignedInt8NV,
                     bias.b, 0, gl_ComponentTypeSignedInt32NV, {m}, {k},
                     gl_CooperativeVectorMatrixLayoutRowMajorNV, false, {k});
  coopvecNV<int8_t, {k}> y;
  coopVecLoadNV(y, x8.x, id * {k});
  coopvecNV<int32_t, {m}> r2;
  coopVecMatMulNV(r2, y, gl_ComponentTypeSignedInt8NV, mat.m, {m * k}, gl_ComponentTypeSignedInt8NV,
                  {m}, {k}, gl_CooperativeVectorMatrixLayoutColumnMajorNV, false, {m});
  coopVecStoreNV(r1, outp.o, id * {2 * m * 4});
  coopVecStoreNV(r2, outp.o, id * {2 * m * 4} + {m * 4});
}}
"""
    body = amber_body(
        'int8', inv // 32,
        [('packed', 'uint32', packed, 8), ('x8', 'int8', x8, 16),
         ('mat', 'int8', mat_rm + mat_cm, 16), ('bias', 'int32', bias, 16),
         ('out', 'int32', f'SIZE {inv * 2 * m} FILL 0')],
        [('out', None, out, None)])
    write_script('coopvec_int8.amber',
                 'int8 matrix-vector products: packed int8 input + int32 bias, column-major int8.',
                 glsl, '--lower-coop-vector', '\n'.join([NATIVE, STORAGE8, VMM]), body, args)


def e4m3(args):
    rng = random.Random(43)
    m, k, inv = 16, 32, 32
    codes = []
    while len(codes) < m * k:
        c = rng.randrange(256)
        if (c & 0x7F) != 0x7F and abs(e4m3_value(c)) <= 2:  # No NaN; moderate weights.
            codes.append(c)
    w = [e4m3_value(c) for c in codes]
    bias = [f16(rng.uniform(-1, 1)) for _ in range(m)]
    # Inputs: mostly ordinary values, some exact ties between two E4M3 values, a few beyond 448.
    x = []
    for _ in range(inv * k):
        roll = rng.random()
        if roll < 0.1:
            a = rng.choice(E4M3_FINITE[100:-100])[0]
            nxt = [v for v, _ in E4M3_FINITE if v > a][0]
            x.append(f16((a + nxt) / 2))
        elif roll < 0.13:
            x.append(f16(rng.choice([-1, 1]) * rng.uniform(460, 2000)))
        else:
            x.append(f16(rng.uniform(-4, 4)))
    y = []
    for i in range(inv):
        q = [e4m3_quantize(v) for v in x[i * k:(i + 1) * k]]
        y += [f16(bias[r] + sum(w[r * k + c] * q[c] for c in range(k))) for r in range(m)]
    glsl = HEADER + f"""// float16 input converted to E4M3, an E4M3 matrix, a float16 bias. Vulkan reads float8
// matrices only in an optimal layout (VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10090):
// lowered with optimal-as-row-major, the buffer holds it row-major, K bytes a row.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In {{ float16_t x[]; }} inp;
layout(set = 0, binding = 1) readonly buffer Mat {{ uint8_t m[]; }} mat;
layout(set = 0, binding = 2) readonly buffer Bias {{ float16_t b[]; }} bias;
layout(set = 0, binding = 3) writeonly buffer Out {{ float16_t y[]; }} outp;
void main() {{
  uint id = gl_GlobalInvocationID.x;
  coopvecNV<float16_t, {k}> x;
  coopVecLoadNV(x, inp.x, id * {k * 2});
  coopvecNV<float16_t, {m}> y;
  coopVecMatMulAddNV(y, x, gl_ComponentTypeFloatE4M3NV, mat.m, 0, gl_ComponentTypeFloatE4M3NV,
                     bias.b, 0, gl_ComponentTypeFloat16NV, {m}, {k},
                     gl_CooperativeVectorMatrixLayoutInferencingOptimalNV, false, 0);
  coopVecStoreNV(y, outp.y, id * {m * 2});
}}
"""
    body = amber_body(
        'fp8', inv // 32,
        [('inp', 'float16', x, 16), ('mat', 'uint8', codes, 16), ('bias', 'float16', bias, 16),
         ('outp', 'float16', f'SIZE {inv * m} FILL 0')],
        [('outp', '0.5%', y, 'float16 results of sums up to a few thousand: within 0.5%.')])
    write_script('coopvec_e4m3.amber',
                 'E4M3: float16 input rounded to E4M3 (nearest even, saturating), E4M3 matrix.',
                 glsl, '--lower-coop-vector=optimal-as-row-major', '\n'.join([NATIVE, STORAGE16, STORAGE8, VMM]), body,
                 args)


def saturate(args):
    rng = random.Random(127)
    m, k, inv = 8, 16, 32
    mat = [rng.randint(-128, 127) for _ in range(m * k)]
    xi = [rng.choice([rng.randint(-1000, 1000), rng.randint(-128, 127)]) for _ in range(inv * k)]
    xf = [rng.choice([rng.uniform(-300, 300), round_half_even(rng.uniform(-5, 5) * 2) / 2])
          for _ in range(inv * k)]
    xf = [struct.unpack('<f', struct.pack('<f', v))[0] for v in xf]
    out = []
    for i in range(inv):
        a = [clamp(v, -128, 127) for v in xi[i * k:(i + 1) * k]]
        b = [clamp(round_half_even(v), 0, 255) for v in xf[i * k:(i + 1) * k]]
        out += [sum(mat[r * k + c] * a[c] for c in range(k)) for r in range(m)]
        out += [sum(mat[r * k + c] * b[c] for c in range(k)) for r in range(m)]
    glsl = HEADER + f"""// Saturating input conversions: int32 -> SignedInt8, float32 -> UnsignedInt8.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer XI {{ int x[]; }} xi;
layout(set = 0, binding = 1) readonly buffer XF {{ float x[]; }} xf;
layout(set = 0, binding = 2) readonly buffer Mat {{ int8_t m[]; }} mat;
layout(set = 0, binding = 3) writeonly buffer Out {{ int o[]; }} outp;
void main() {{
  uint id = gl_GlobalInvocationID.x;
  coopvecNV<int32_t, {k}> a;
  coopVecLoadNV(a, xi.x, id * {k * 4});
  coopvecNV<float, {k}> b;
  coopVecLoadNV(b, xf.x, id * {k * 4});
  coopvecNV<int32_t, {m}> r1;
  coopVecMatMulNV(r1, a, gl_ComponentTypeSignedInt8NV, mat.m, 0, gl_ComponentTypeSignedInt8NV,
                  {m}, {k}, gl_CooperativeVectorMatrixLayoutRowMajorNV, false, {k});
  coopvecNV<int32_t, {m}> r2;
  coopVecMatMulNV(r2, b, gl_ComponentTypeUnsignedInt8NV, mat.m, 0, gl_ComponentTypeSignedInt8NV,
                  {m}, {k}, gl_CooperativeVectorMatrixLayoutRowMajorNV, false, {k});
  coopVecStoreNV(r1, outp.o, id * {2 * m * 4});
  coopVecStoreNV(r2, outp.o, id * {2 * m * 4} + {m * 4});
}}
"""
    body = amber_body(
        'sat', inv // 32,
        [('xi', 'int32', xi, 16), ('xf', 'float', xf, 8), ('mat', 'int8', mat, 16),
         ('out', 'int32', f'SIZE {inv * 2 * m} FILL 0')],
        [('out', None, out, None)])
    write_script('coopvec_saturate.amber',
                 'Saturating input conversions to SignedInt8 / UnsignedInt8 (int32 and float32 '
                 'inputs).',
                 glsl, '--lower-coop-vector', '\n'.join([NATIVE, STORAGE8, VMM]), body, args)


def float_conversions(args):
    rng = random.Random(52)
    m, k, inv = 8, 16, 32
    codes = []
    while len(codes) < m * k:
        c = rng.randrange(256)
        if abs(e5m2_value(c)) <= 4:  # Finite, moderate weights.
            codes.append(c)
    w8 = [e5m2_value(c) for c in codes]
    w16 = [f16(rng.uniform(-1, 1)) for _ in range(m * k)]
    bias = [f16(rng.uniform(-1, 1)) for _ in range(m)]
    x16 = [f16(rng.uniform(-100, 100)) for _ in range(inv * k)]
    # float32 inputs, some exactly halfway between two float16 values.
    x32 = []
    for _ in range(inv * k):
        v = f16(rng.uniform(-8, 8))
        if rng.random() < 0.2:
            ulp = abs(f16(v * (1 + 2 ** -10)) - v) or 2 ** -24
            v = v + ulp / 2
        x32.append(struct.unpack('<f', struct.pack('<f', v + rng.choice([0, 1e-4])))[0])
    y1, y2 = [], []
    for i in range(inv):
        q = [e5m2_quantize(v) for v in x16[i * k:(i + 1) * k]]
        y1 += [f16(bias[r] + sum(w8[r * k + c] * q[c] for c in range(k))) for r in range(m)]
        h = [f16(v) for v in x32[i * k:(i + 1) * k]]
        y2 += [struct.unpack('<f', struct.pack('<f', sum(w16[r * k + c] * h[c] for c in range(k))))[0]
               for r in range(m)]
    glsl = HEADER + f"""// E5M2: float16 input rounded to E5M2, an E5M2 matrix, a float16 bias. float32 input
// rounded to float16 (Float16 interpretation) against a float16 matrix, float32 result.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer X16 {{ float16_t x[]; }} x16;
layout(set = 0, binding = 1) readonly buffer X32 {{ float x[]; }} x32;
layout(set = 0, binding = 2) readonly buffer Mat8 {{ uint8_t m[]; }} mat8;
layout(set = 0, binding = 3) readonly buffer Mat16 {{ float16_t m[]; }} mat16;
layout(set = 0, binding = 4) writeonly buffer Y1 {{ float16_t y[]; }} y1;
layout(set = 0, binding = 5) writeonly buffer Y2 {{ float y[]; }} y2;
void main() {{
  uint id = gl_GlobalInvocationID.x;
  coopvecNV<float16_t, {k}> a;
  coopVecLoadNV(a, x16.x, id * {k * 2});
  coopvecNV<float16_t, {m}> r1;
  coopVecMatMulAddNV(r1, a, gl_ComponentTypeFloatE5M2NV, mat8.m, 0, gl_ComponentTypeFloatE5M2NV,
                     mat16.m, {m * k * 2}, gl_ComponentTypeFloat16NV, {m}, {k},
                     gl_CooperativeVectorMatrixLayoutInferencingOptimalNV, false, 0);
  coopvecNV<float, {k}> b;
  coopVecLoadNV(b, x32.x, id * {k * 4});
  coopvecNV<float, {m}> r2;
  coopVecMatMulNV(r2, b, gl_ComponentTypeFloat16NV, mat16.m, 0, gl_ComponentTypeFloat16NV,
                  {m}, {k}, gl_CooperativeVectorMatrixLayoutRowMajorNV, false, {k * 2});
  coopVecStoreNV(r1, y1.y, id * {m * 2});
  coopVecStoreNV(r2, y2.y, id * {m * 4});
}}
"""
    body = amber_body(
        'conv', inv // 32,
        [('x16', 'float16', x16, 16), ('x32', 'float', x32, 8), ('mat8', 'uint8', codes, 16),
         ('mat16', 'float16', w16 + bias, 16), ('y1', 'float16', f'SIZE {inv * m} FILL 0'),
         ('y2', 'float', f'SIZE {inv * m} FILL 0')],
        [('y1', '0.5%', y1, None), ('y2', '0.001', y2, None)])
    write_script('coopvec_float_conversions.amber',
                 'E5M2 (input rounded to E5M2) and float32 input rounded to float16.',
                 glsl, '--lower-coop-vector=optimal-as-row-major', '\n'.join([NATIVE, STORAGE16, STORAGE8, VMM]), body,
                 args)


def training(args):
    rng = random.Random(2024)
    n_in, n_out, inv = 16, 8, 64
    grid = lambda lo, hi: rng.randint(lo * 8, hi * 8) / 8.0
    w = [grid(-1, 1) for _ in range(n_out * n_in)]
    b = [grid(-1, 1) for _ in range(n_out)]
    a = [grid(-1, 1) for _ in range(inv * n_in)]
    t = [grid(-2, 2) for _ in range(inv * n_out)]
    ys, dw, db = [], [0.0] * (n_out * n_in), [0.0] * n_out
    for i in range(inv):
        ai = a[i * n_in:(i + 1) * n_in]
        y = [b[r] + sum(w[r * n_in + c] * ai[c] for c in range(n_in)) for r in range(n_out)]
        g = [y[r] - t[i * n_out + r] for r in range(n_out)]
        ys += y
        for r in range(n_out):
            db[r] += g[r]
            for c in range(n_in):
                dw[r * n_in + c] += g[r] * ai[c]
    glsl = HEADER + f"""// A training step in float32: y = W a + b, g = y - t; dW += g a^T, db += g.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Act {{ float a[]; }} act;
layout(set = 0, binding = 1) readonly buffer Target {{ float t[]; }} tgt;
layout(set = 0, binding = 2) readonly buffer Weights {{ float w[]; }} wts;
layout(set = 0, binding = 3) buffer DW {{ float dw[]; }} dw;
layout(set = 0, binding = 4) buffer DB {{ float db[]; }} db;
layout(set = 0, binding = 5) writeonly buffer Y {{ float y[]; }} ys;
void main() {{
  uint id = gl_GlobalInvocationID.x;
  coopvecNV<float, {n_in}> a;
  coopVecLoadNV(a, act.a, id * {n_in * 4});
  coopvecNV<float, {n_out}> y;
  coopVecMatMulAddNV(y, a, gl_ComponentTypeFloat32NV, wts.w, 0, gl_ComponentTypeFloat32NV,
                     wts.w, {n_out * n_in * 4}, gl_ComponentTypeFloat32NV, {n_out}, {n_in},
                     gl_CooperativeVectorMatrixLayoutRowMajorNV, false, {n_in * 4});
  coopvecNV<float, {n_out}> t;
  coopVecLoadNV(t, tgt.t, id * {n_out * 4});
  coopvecNV<float, {n_out}> g = y - t;
  coopVecStoreNV(y, ys.y, id * {n_out * 4});
  coopVecOuterProductAccumulateNV(g, a, dw.dw, 0, {n_in * 4},
                                  gl_CooperativeVectorMatrixLayoutRowMajorNV, gl_ComponentTypeFloat32NV);
  coopVecReduceSumAccumulateNV(g, db.db, 0);
}}
"""
    body = amber_body(
        'train', 1,
        [('act', 'float', a, 16), ('tgt', 'float', t, 16), ('wts', 'float', w + b, 16),
         ('dw', 'float', f'SIZE {n_out * n_in} FILL 0'), ('db', 'float', f'SIZE {n_out} FILL 0'),
         ('ys', 'float', f'SIZE {inv * n_out} FILL 0')],
        [('ys', None, ys, 'Every value is on a 1/512 grid and small: the sums are exact in any '
          'order.'), ('dw', None, dw, None), ('db', None, db, None)])
    native = '\n'.join([NATIVE, 'DEVICE_FEATURE CooperativeVectorFeaturesNV.cooperativeVectorTraining',
                        VMM, 'DEVICE_FEATURE Vulkan12Features.vulkanMemoryModelDeviceScope',
                        'DEVICE_EXTENSION VK_EXT_shader_atomic_float'])
    write_script('coopvec_training.amber',
                 'A training step in float32: forward matmul-add, then OuterProductAccumulate and '
                 'ReduceSumAccumulate.',
                 glsl, '--lower-coop-vector=atomic-float32-add', native, body, args)


def training_f16(args):
    rng = random.Random(1616)
    n_in, n_out, inv = 16, 8, 64
    quarter = lambda: rng.randint(-4, 4) / 4.0
    a = [quarter() for _ in range(inv * n_in)]
    g = [quarter() for _ in range(inv * n_out)]
    dw = [0.0] * (n_out * n_in)
    db = [0.0] * n_out
    for i in range(inv):
        for r in range(n_out):
            db[r] += g[i * n_out + r]
            for c in range(n_in):
                dw[c * n_out + r] += g[i * n_out + r] * a[i * n_in + c]  # Column-major.
    glsl = HEADER + f"""// float16 gradients: dW += g a^T accumulated in float16 (column-major) and in float32
// (row-major), db += g in float16.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Act {{ float16_t a[]; }} act;
layout(set = 0, binding = 1) readonly buffer Grad {{ float16_t g[]; }} grad;
layout(set = 0, binding = 2) buffer DW16 {{ float16_t dw[]; }} dw16;
layout(set = 0, binding = 3) buffer DW32 {{ float dw[]; }} dw32;
layout(set = 0, binding = 4) buffer DB16 {{ float16_t db[]; }} db16;
void main() {{
  uint id = gl_GlobalInvocationID.x;
  coopvecNV<float16_t, {n_in}> a;
  coopVecLoadNV(a, act.a, id * {n_in * 2});
  coopvecNV<float16_t, {n_out}> g;
  coopVecLoadNV(g, grad.g, id * {n_out * 2});
  coopVecOuterProductAccumulateNV(g, a, dw16.dw, 0, {n_out * 2},
                                  gl_CooperativeVectorMatrixLayoutColumnMajorNV, gl_ComponentTypeFloat16NV);
  coopVecOuterProductAccumulateNV(g, a, dw32.dw, 0, {n_in * 4},
                                  gl_CooperativeVectorMatrixLayoutRowMajorNV, gl_ComponentTypeFloat32NV);
  coopVecReduceSumAccumulateNV(g, db16.db, 0);
}}
"""
    dw_row_major = [dw[c * n_out + r] for r in range(n_out) for c in range(n_in)]
    body = amber_body(
        'train16', 1,
        [('act', 'float16', a, 16), ('grad', 'float16', g, 16),
         ('dw16', 'float16', f'SIZE {n_out * n_in} FILL 0'),
         ('dw32', 'float', f'SIZE {n_out * n_in} FILL 0'),
         ('db16', 'float16', f'SIZE {n_out} FILL 0')],
        [('dw16', None, dw, 'Values on a 1/16 grid below 64: exact in float16 in any order.'),
         ('dw32', None, dw_row_major, None), ('db16', None, db, None)])
    native = '\n'.join([NATIVE, 'DEVICE_FEATURE CooperativeVectorFeaturesNV.cooperativeVectorTraining',
                        STORAGE16, VMM, 'DEVICE_FEATURE Vulkan12Features.vulkanMemoryModelDeviceScope',
                        'DEVICE_EXTENSION VK_EXT_shader_atomic_float',
                        'DEVICE_EXTENSION VK_EXT_shader_atomic_float2'])
    write_script('coopvec_training_f16.amber',
                 'float16 training instructions: OuterProductAccumulate into float16 (column-major) '
                 'and float32, ReduceSumAccumulate into float16.',
                 glsl, '--lower-coop-vector=atomic-float16-add,atomic-float32-add', native, body,
                 args)


def mlp64_timing(args):
    """The GPU timing workload: 64 -> 64 (ReLU) -> 64 in float16 over 1M invocations."""
    rng = random.Random(64)
    n, inv = 64, 1 << 20
    w1 = [f16(rng.uniform(-0.125, 0.125)) for _ in range(n * n)]
    b1 = [f16(rng.uniform(-0.25, 0.25)) for _ in range(n)]
    w2 = [f16(rng.uniform(-0.125, 0.125)) for _ in range(n * n)]
    b2 = [f16(rng.uniform(-0.25, 0.25)) for _ in range(n)]
    glsl = mlp_glsl('Timing: 64 -> 64 (ReLU) -> 64 float16 MLP, one evaluation per invocation.',
                    n, n, n, 64)
    body = amber_body(
        'mlp64', inv // 64,
        [('weights', 'float16', w1 + b1 + w2 + b2, 16),
         ('inputs', 'float16', '# Inputs vary with the element: from -2 up to 2 in steps of 2^-24 '
          f'(rounded to float16).\nSIZE {inv * n} SERIES_FROM -2 INC_BY 0.000000059604644775390625'),
         ('outputs', 'float16', f'SIZE {inv * n} FILL 0')],
        [])
    os.makedirs(os.path.join(HERE, 'gpu'), exist_ok=True)
    write_script('gpu/coopvec_mlp64_1m.amber',
                 'GPU timing (utils/gpu_check_coopvec.sh): a 64 -> 64 -> 64 float16 MLP over 1M '
                 'invocations; no EXPECT, native and lowered outputs are compared.',
                 glsl, '--lower-coop-vector', '\n'.join([NATIVE, STORAGE16, VMM]), body, args)


def optimal_f16(args):
    """InferencingOptimalNV matrices lowered with --lower-coop-vector=optimal-as-row-major: the
    buffer holds what vkConvertCooperativeVectorMatrixNV writes when asked for row-major with a
    tight stride instead."""
    rng = random.Random(17)
    n_in, hid, n_out, inv = 32, 16, 8, 32
    w1 = [f16(rng.uniform(-0.25, 0.25)) for _ in range(hid * n_in)]   # hid x n_in, row-major.
    b1 = [f16(rng.uniform(-0.5, 0.5)) for _ in range(hid)]
    w2 = [f16(rng.uniform(-0.25, 0.25)) for _ in range(hid * n_out)]  # hid x n_out: used as W2^T.
    x = [f16(rng.uniform(-1, 1)) for _ in range(inv * n_in)]
    w1_off, b1_off = 0, hid * n_in * 2
    w2_off = b1_off + hid * 2
    y = []
    for i in range(inv):
        xi = x[i * n_in:(i + 1) * n_in]
        h = [f16(b1[r] + sum(w1[r * n_in + k] * xi[k] for k in range(n_in))) for r in range(hid)]
        y += [f16(sum(w2[k * n_out + m] * h[k] for k in range(hid))) for m in range(n_out)]
    glsl = HEADER + f"""// InferencingOptimalNV matrices (stride 0, as for any optimal layout): W1 (16 x 32) with a
// bias, then W2 (16 x 8) transposed. Lowered with optimal-as-row-major, the buffer holds them
// row-major with tight strides (64 and 16 bytes).
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer Weights {{ float16_t w[]; }} weights;
layout(set = 0, binding = 1) readonly buffer Inputs {{ float16_t x[]; }} inputs;
layout(set = 0, binding = 2) writeonly buffer Outputs {{ float16_t y[]; }} outputs;
void main() {{
  uint id = gl_GlobalInvocationID.x;
  coopvecNV<float16_t, {n_in}> x;
  coopVecLoadNV(x, inputs.x, id * {n_in * 2});
  coopvecNV<float16_t, {hid}> h;
  coopVecMatMulAddNV(h, x, gl_ComponentTypeFloat16NV, weights.w, {w1_off}, gl_ComponentTypeFloat16NV,
                     weights.w, {b1_off}, gl_ComponentTypeFloat16NV, {hid}, {n_in},
                     gl_CooperativeVectorMatrixLayoutInferencingOptimalNV, false, 0);
  coopvecNV<float16_t, {n_out}> y;
  coopVecMatMulNV(y, h, gl_ComponentTypeFloat16NV, weights.w, {w2_off}, gl_ComponentTypeFloat16NV,
                  {n_out}, {hid}, gl_CooperativeVectorMatrixLayoutInferencingOptimalNV, true, 0);
  coopVecStoreNV(y, outputs.y, id * {n_out * 2});
}}
"""
    body = amber_body(
        'optimal', inv // 32,
        [('weights', 'float16', w1 + b1 + w2, 16), ('inputs', 'float16', x, 16),
         ('outputs', 'float16', f'SIZE {inv * n_out} FILL 0')],
        [('outputs', '0.02', y, 'float16 results: within 0.02.')])
    write_script('coopvec_optimal_f16.amber',
                 'InferencingOptimalNV float16 matrices, one transposed, read as row-major with '
                 'tight strides (--lower-coop-vector=optimal-as-row-major).',
                 glsl, '--lower-coop-vector=optimal-as-row-major',
                 '\n'.join([NATIVE, STORAGE16, VMM]), body, args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    # glslang 16 of the shared folder beside the repository (../shared/bin from its root).
    parser.add_argument('--glslang', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'shared', 'bin', 'glslang'))
    parser.add_argument('--dis', default='bazel-bin/tools/coopspv-dis')
    args = parser.parse_args()
    mlp_f16(args)
    int8(args)
    e4m3(args)
    saturate(args)
    float_conversions(args)
    training(args)
    training_f16(args)
    mlp64_timing(args)
    optimal_f16(args)


if __name__ == '__main__':
    main()
