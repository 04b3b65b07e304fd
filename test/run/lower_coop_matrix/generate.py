#!/usr/bin/env python3
"""Writes the --lower-coop-matrix run tests of this folder.

Each case is a compute kernel with Subgroup-scope cooperative matrices, D = op(MulAdd(A, B, C)),
written as SPIR-V assembly (<case>.spvasm), and an AmberScript (<case>.amber) that loads
<case>.spv (the test assembles and lowers the kernel into that file), fills A, B, C with small
integers and checks every element of D against the product computed here (padding of a padded
stride keeps its fill value: the lowering never writes outside the matrix). The values are
chosen so that every product and sum is exact in the component types, so EQ compares exactly.
native/<case>.amber runs the kernel as written on a device with cooperative matrices
(utils/gpu_check.sh). The kernel's workgroup is 32 invocations: with a subgroup of S < 32, each
subgroup computes the whole matrix and stores the same values.

The sweep covers M, N, K in {8, 16, 32}, the component / accumulator pairs, both layouts of
every matrix, padded and unpadded strides, and the element-wise operations after the
multiply-add; one case uses SPV_NV_cooperative_matrix.

Usage: generate.py [output folder, default: this script's folder]
"""
import itertools
import os
import random
import sys

# name: (declaration, bytes, amber DATA_TYPE, kind) with kind f (float), s (signed), u.
SCALARS = {
    "half": ("OpTypeFloat 16", 2, "float16", "f"),
    "float": ("OpTypeFloat 32", 4, "float", "f"),
    "char": ("OpTypeInt 8 1", 1, "int8", "s"),
    "uchar": ("OpTypeInt 8 0", 1, "uint8", "u"),
    "int": ("OpTypeInt 32 1", 4, "int32", "s"),
    "uint": ("OpTypeInt 32 0", 4, "uint32", "u"),
}

# (A, B, C, Result, Cooperative Matrix Operands, value range of A and B, of C)
TYPES = [
    ("half", "half", "float", "float", "", (-3, 3), (-8, 8)),
    ("half", "half", "half", "half", "", (-3, 3), (-8, 8)),
    ("float", "float", "float", "float", "", (-4, 4), (-8, 8)),
    ("char", "char", "int", "int",
     "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|"
     "MatrixResultSignedComponentsKHR", (-128, 127), (-1000, 1000)),
    ("uchar", "uchar", "uint", "uint", "SaturatingAccumulationKHR", (0, 255), (0, 4294967295)),
    ("char", "char", "char", "char",
     "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|MatrixCSignedComponentsKHR|"
     "MatrixResultSignedComponentsKHR|SaturatingAccumulationKHR", (-128, 127), (-128, 127)),
    ("char", "uchar", "int", "int", "MatrixASignedComponentsKHR|MatrixCSignedComponentsKHR",
     (-128, 127), (-1000, 1000)),
]
FILL = 99  # D's initial value everywhere: padding must keep it.


def wrap(v, bits, signed):
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def reference(case, a, b, c):
    """D as the spec computes it, as a flat list in D's memory layout."""
    m, n, k = case["m"], case["n"], case["k"]
    ta, tb, tc, tr, ops = case["types"][:5]
    _, rbytes, _, rkind = SCALARS[tr]
    bits = rbytes * 8
    r_signed = "MatrixResultSignedComponentsKHR" in ops or (case["nv"] and rkind == "s")
    saturating = "SaturatingAccumulationKHR" in ops
    d = [FILL] * case["size"]["d"]
    for i in range(m):
        for j in range(n):
            p = sum(at(case, "a", a, i, kk) * at(case, "b", b, kk, j) for kk in range(k))
            cv = at(case, "c", c, i, j)
            if rkind == "f":
                v = p + cv
            elif saturating:
                p = wrap(p, bits, r_signed)
                lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if r_signed else (0, (1 << bits) - 1)
                v = wrap(min(max(p + cv, lo), hi), bits, rkind == "s")
            else:
                v = wrap(p + cv, bits, rkind == "s")  # The low bits, as D's type reads them.
            if case["post"] == "scale":
                v = v * 2 if rkind == "f" else wrap(v * 2, bits, rkind == "s")
            elif case["post"] == "sub":
                v = v - cv if rkind == "f" else wrap(v - cv, bits, rkind == "s")
            elif case["post"] == "negate":
                v = -v if rkind == "f" else wrap(-v, bits, rkind == "s")
            d[index(case, "d", i, j)] = v
    return d


def index(case, name, row, col):
    layout, stride = case["layout"][name], case["stride"][name]
    return row * stride + col if layout == 0 else col * stride + row


def at(case, name, values, row, col):
    return values[index(case, name, row, col)]


def values_for(rng, lo, hi, count):
    return [rng.randint(lo, hi) for _ in range(count)]


def kernel(case):
    """The SPIR-V assembly of the kernel."""
    m, n, k = case["m"], case["n"], case["k"]
    ta, tb, tc, tr, ops = case["types"][:5]
    nv = case["nv"]
    used = {"uint", ta, tb, tc, tr}
    caps = ["Shader"]
    if "half" in used:
        caps.append("Float16")
    if used & {"char", "uchar"}:
        caps.append("Int8")
    if any(SCALARS[t][1] == 2 for t in (ta, tb, tc, tr)):
        caps.append("StorageBuffer16BitAccess")
    if any(SCALARS[t][1] == 1 for t in (ta, tb, tc, tr)):
        caps.append("StorageBuffer8BitAccess")
    if not nv:
        caps.append("VulkanMemoryModel")
    caps.append("CooperativeMatrixNV" if nv else "CooperativeMatrixKHR")
    lines = ["; SPIR-V", "; Version: 1.6", "; Generator: coopspv generate.py; 0", "; Bound: 0",
             "; Schema: 0"]
    lines += ["OpCapability " + c for c in caps]
    lines.append('OpExtension "%s"' % ("SPV_NV_cooperative_matrix" if nv else "SPV_KHR_cooperative_matrix"))
    lines.append("OpMemoryModel Logical " + ("GLSL450" if nv else "Vulkan"))
    lines.append('OpEntryPoint GLCompute %main "main" %buf_a %buf_b %buf_c %buf_d')
    lines.append("OpExecutionMode %main LocalSize 32 1 1")
    lines.append('OpName %main "main"')
    for binding, (name, t) in enumerate((("a", ta), ("b", tb), ("c", tc), ("d", tr))):
        lines += ["OpDecorate %%rt_%s ArrayStride %d" % (name, SCALARS[t][1]),
                  "OpMemberDecorate %%blk_%s 0 Offset 0" % name,
                  "OpDecorate %%blk_%s Block" % name,
                  "OpDecorate %%buf_%s DescriptorSet 0" % name,
                  "OpDecorate %%buf_%s Binding %d" % (name, binding)]
    lines += ["%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%bool = OpTypeBool"]
    for t in sorted(used):
        lines.append("%%%s = %s" % (t, SCALARS[t][0]))
    consts = sorted({0, 1, 2, 3, m, n, k} | set(case["stride"].values()))
    for v in consts:
        lines.append("%%u_%d = OpConstant %%uint %d" % (v, v))
    lines += ["%true = OpConstantTrue %bool", "%false = OpConstantFalse %bool"]
    if nv:
        mats = [("a", ta, m, k), ("b", tb, k, n), ("c", tc, m, n)]
        for name, t, rows, cols in mats:
            lines.append("%%mat_%s = OpTypeCooperativeMatrixNV %%%s %%u_3 %%u_%d %%u_%d" % (name, t, rows, cols))
    else:
        for name, t, rows, cols, use in (("a", ta, m, k, 0), ("b", tb, k, n, 1), ("c", tc, m, n, 2)):
            lines.append("%%mat_%s = OpTypeCooperativeMatrixKHR %%%s %%u_3 %%u_%d %%u_%d %%u_%d" % (name, t, rows, cols, use))
    mat_d = "%mat_c"
    if tr != tc:
        mat_d = "%mat_d"
        lines.append("%%mat_d = OpTypeCooperativeMatrixKHR %%%s %%u_3 %%u_%d %%u_%d %%u_2" % (tr, m, n))
    if case["post"] == "scale":
        if SCALARS[tr][3] == "f":
            lines.append("%two = OpConstant %" + tr + " 2")
        else:
            lines += ["%two = OpConstant %" + tr + " 2", "%twos = OpConstantComposite " + mat_d + " %two"]
    for name, t in (("a", ta), ("b", tb), ("c", tc), ("d", tr)):
        lines += ["%%rt_%s = OpTypeRuntimeArray %%%s" % (name, t),
                  "%%blk_%s = OpTypeStruct %%rt_%s" % (name, name),
                  "%%pblk_%s = OpTypePointer StorageBuffer %%blk_%s" % (name, name),
                  "%%buf_%s = OpVariable %%pblk_%s StorageBuffer" % (name, name),
                  "%%pel_%s = OpTypePointer StorageBuffer %%%s" % (name, t)]
    lines += ["%main = OpFunction %void None %fn", "%entry = OpLabel"]
    for name in "abcd":
        lines.append("%%p_%s = OpAccessChain %%pel_%s %%buf_%s %%u_0 %%u_0" % (name, name, name))
    for name in "abc":
        layout, stride = case["layout"][name], case["stride"][name]
        if nv:
            lines.append("%%%s = OpCooperativeMatrixLoadNV %%mat_%s %%p_%s %%u_%d %s" % (
                name, name, name, stride, "%true" if layout else "%false"))
        else:
            lines.append("%%%s = OpCooperativeMatrixLoadKHR %%mat_%s %%p_%s %%u_%d %%u_%d" % (
                name, name, name, layout, stride))
    if nv:
        lines.append("%r = OpCooperativeMatrixMulAddNV " + mat_d + " %a %b %c")
    else:
        lines.append("%r = OpCooperativeMatrixMulAddKHR " + mat_d + " %a %b %c" + (" " + ops if ops else ""))
    fl = SCALARS[tr][3] == "f"
    if case["post"] == "scale":
        lines.append("%out = OpMatrixTimesScalar " + mat_d + " %r %two" if fl else
                     "%out = OpIMul " + mat_d + " %r %twos")
    elif case["post"] == "sub":
        lines.append("%%out = %s %s %%r %%c" % ("OpFSub" if fl else "OpISub", mat_d))
    elif case["post"] == "negate":
        lines.append("%%out = %s %s %%r" % ("OpFNegate" if fl else "OpSNegate", mat_d))
    else:
        lines.append("%out = OpCopyObject " + mat_d + " %r")
    layout, stride = case["layout"]["d"], case["stride"]["d"]
    if nv:
        lines.append("OpCooperativeMatrixStoreNV %%p_d %%out %%u_%d %s" % (stride, "%true" if layout else "%false"))
    else:
        lines.append("OpCooperativeMatrixStoreKHR %%p_d %%out %%u_%d %%u_%d" % (layout, stride))
    lines += ["OpReturn", "OpFunctionEnd"]
    return "\n".join(lines) + "\n"


def features(case, native):
    ta, tb, tc, tr = case["types"][:4]
    used = {ta, tb, tc, tr}
    out = []
    if "half" in used:
        out.append("DEVICE_FEATURE Float16Int8Features.shaderFloat16")
    if used & {"char", "uchar"}:
        out.append("DEVICE_FEATURE Float16Int8Features.shaderInt8")
    if any(SCALARS[t][1] == 2 for t in used):
        out.append("DEVICE_FEATURE Storage16BitFeatures.storageBuffer16BitAccess")
    if any(SCALARS[t][1] == 1 for t in used):
        out.append("DEVICE_FEATURE Storage8BitFeatures.storageBuffer8BitAccess")
    if not case["nv"]:
        out.append("DEVICE_FEATURE VulkanMemoryModelFeatures.vulkanMemoryModel")
    if native:
        if case["nv"]:
            out += ["DEVICE_EXTENSION VK_NV_cooperative_matrix",
                    "DEVICE_FEATURE CooperativeMatrixFeaturesNV.cooperativeMatrix"]
        else:
            out += ["DEVICE_EXTENSION VK_KHR_cooperative_matrix",
                    "DEVICE_FEATURE CooperativeMatrixFeaturesKHR.cooperativeMatrix"]
    elif SCALARS[tr][1] != 4:
        # The lowering shuffles values of the result's component type.
        out.append("DEVICE_FEATURE ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes")
    return out


def data_lines(values):
    out, line = [], []
    for v in values:
        line.append(str(v))
        if len(line) == 16:
            out.append(" ".join(line))
            line = []
    if line:
        out.append(" ".join(line))
    return out


def amber(case, shader_line, native):
    rng = random.Random(case["seed"])
    ta, tb, tc, tr, _, ab_range, c_range = case["types"]
    bufs = {}
    for name, t, rng_range in (("a", ta, ab_range), ("b", tb, ab_range), ("c", tc, c_range)):
        lo = max(rng_range[0], 0) if SCALARS[t][3] == "u" else rng_range[0]
        bufs[name] = values_for(rng, lo, rng_range[1], case["size"][name])
    d = reference(case, bufs["a"], bufs["b"], bufs["c"])
    desc = "%s: D = %s(MulAdd(A, B, C)), %dx%dx%d, %s x %s + %s -> %s%s, layouts A %s B %s C %s D %s, strides %s" % (
        case["name"], case["post"], case["m"], case["n"], case["k"], ta, tb, tc, tr,
        (" [" + case["types"][4] + "]") if case["types"][4] else "",
        *("col" if case["layout"][x] else "row" for x in "abcd"),
        " ".join("%s=%d" % (x, case["stride"][x]) for x in "abcd"))
    lines = ["#!amber",
             "# Generated by test/run/lower_coop_matrix/generate.py; do not edit.",
             "# " + desc,
             "# " + ("The kernel as written (SPV_%s_cooperative_matrix)." % ("NV" if case["nv"] else "KHR")
                     if native else "The kernel after --lower-coop-matrix (the test writes %s.spv)." % case["name"]),
             ""]
    lines += features(case, native)
    # Lavapipe on a busy machine: the lowered 32 x 32 x 32 kernels take seconds.
    lines += ["", "SET ENGINE_DATA fence_timeout_ms 120000", "", shader_line, ""]
    for name, t in (("a", ta), ("b", tb), ("c", tc)):
        lines.append("BUFFER %s DATA_TYPE %s DATA" % (name, SCALARS[t][2]))
        lines += data_lines(bufs[name])
        lines.append("END")
    lines.append("BUFFER d DATA_TYPE %s SIZE %d FILL %d" % (SCALARS[tr][2], case["size"]["d"], FILL))
    lines += ["", "PIPELINE compute pipeline", "  ATTACH kernel"]
    for binding, name in enumerate("abcd"):
        lines.append("  BIND BUFFER %s AS storage DESCRIPTOR_SET 0 BINDING %d" % (name, binding))
    lines += ["END", "", "RUN pipeline 1 1 1", "", "EXPECT d IDX 0 EQ " + " ".join(str(v) for v in d), ""]
    return "\n".join(lines)


def cases():
    out = []
    posts = ["none", "scale", "sub", "negate"]
    for n_case, (m, n, k) in enumerate(itertools.product((8, 16, 32), repeat=3)):
        types = TYPES[n_case % len(TYPES)]
        layout = {x: (n_case >> bit) & 1 for bit, x in enumerate("abcd")}
        padded = n_case % 3 == 1
        out.append(make("m%dn%dk%d_%s_%s" % (m, n, k, types[0], types[3]), m, n, k, types, layout, padded,
                        posts[n_case % len(posts)], False, n_case))
    # Padding slots: R * C not a multiple of the subgroup size.
    out.append(make("pad_m8n12k4_float", 8, 12, 4, TYPES[2], dict(a=0, b=1, c=0, d=1), True, "sub", False, 100))
    out.append(make("pad_m4n6k8_int8_sat", 4, 6, 8, TYPES[5], dict(a=1, b=0, c=1, d=0), True, "none", False, 101))
    out.append(make("nv_m16n16k8_half_float", 16, 16, 8, ("half", "half", "float", "float", "", (-3, 3), (-8, 8)),
                    dict(a=0, b=1, c=0, d=1), True, "scale", True, 102))
    return out


def make(name, m, n, k, types, layout, padded, post, nv, seed):
    dims = {"a": (m, k), "b": (k, n), "c": (m, n), "d": (m, n)}
    stride, size = {}, {}
    for x, (rows, cols) in dims.items():
        major, minor = (rows, cols) if layout[x] == 0 else (cols, rows)
        stride[x] = minor + (3 if padded else 0)
        size[x] = major * stride[x]
    return dict(name=name, m=m, n=n, k=k, types=types, layout=layout, stride=stride, size=size,
                post=post, nv=nv, seed=seed)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(os.path.join(out, "native"), exist_ok=True)
    names = []
    for case in cases():
        names.append(case["name"])
        with open(os.path.join(out, case["name"] + ".spvasm"), "w") as f:
            f.write(kernel(case))
        with open(os.path.join(out, case["name"] + ".amber"), "w") as f:
            f.write(amber(case, "SHADER compute kernel SPIRV-BINARY FILE %s.spv" % case["name"], False))
        with open(os.path.join(out, "native", case["name"] + ".amber"), "w") as f:
            f.write(amber(case, "SHADER compute kernel SPIRV-ASM FILE ../%s.spvasm" % case["name"], True))
    with open(os.path.join(out, "CASES"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
