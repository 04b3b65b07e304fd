#!/usr/bin/env python3
"""Writes an AmberScript test for vk_cooperative_matrix_perf's shared-memory GEMM kernel
(shaders/shmem.comp of jeffbolznv/vk_cooperative_matrix_perf, compiled as shmemfp16_fp32.spv: A and
B float16, C and D float; the sample copy is ../shared/corpus/real-sample/vkcmp_shmemfp16_fp32.spv),
specialized as that program specializes it: D = alpha * A * B + beta * C, M x N x K, tiles
TILE_M x TILE_N x TILE_K of 16 x 16 x 16 cooperative matrices, 8 subgroups of S invocations per
workgroup, A row-major, B row-major, the four matrices behind device addresses in the uniform
block at set 0, binding 0.

A developer tool: the kernel is third-party, so nothing in the build or CI needs it.

  utils/vkcmp_shmem_amber.py --kernel <path to the .spv, relative to the script> \\
      [--size 256] [--tile 128 256 16] [--subgroup 32] [--fill] [--timing] > out.amber

With --fill, A holds 1 and B 0.25 (every element of D is K / 4; what a 4096^3 timing run uses);
otherwise A and B hold small integers (seeded) and D is compared with the product computed here
(EQ_BUFFER), exact in float. Run it natively with `coopspv-run`, lowered with `--passes-only
--lower`, or both with `--lower` (the buffers of the two runs compared).
"""
import argparse
import random
import struct


def rows(values, per=32):
    return "".join("  " + " ".join(str(v) for v in values[i:i + per]) + "\n"
                   for i in range(0, len(values), per))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--size", type=int, default=256, help="M = N = K")
    ap.add_argument("--tile", type=int, nargs=3, default=[128, 256, 16])
    ap.add_argument("--subgroup", type=int, default=32)
    ap.add_argument("--fill", action="store_true")
    ap.add_argument("--seed", type=int, default=1417)
    a = ap.parse_args()
    M = N = K = a.size
    TM, TN, TK = a.tile
    S = a.subgroup
    assert M % TM == 0 and N % TN == 0 and K % TK == 0
    f32 = lambda v: struct.unpack("<I", struct.pack("<f", v))[0]
    alpha, beta = 1.0, 0.0
    # The program's specialization data (SpecId: value), in its order.
    spec = {0: 16, 1: 16, 2: 16, 3: TM, 4: TN, 5: TK, 6: K, 7: K, 8: N, 9: N, 10: N,
            11: f32(alpha), 12: f32(beta), 13: 0, 14: TK, 15: TM, 16: TN, 17: TK,
            18: 8 * S, 19: M, 20: N, 21: S}
    out = ["#!amber",
           f"# vk_cooperative_matrix_perf's shmemfp16_fp32 kernel, {M} x {N} x {K}, tile {TM} x {TN} x {TK},",
           f"# subgroup {S} (8 per workgroup), written by utils/vkcmp_shmem_amber.py.",
           "DEVICE_EXTENSION VK_KHR_cooperative_matrix",
           "DEVICE_FEATURE CooperativeMatrixFeaturesKHR.cooperativeMatrix",
           "DEVICE_FEATURE Vulkan12Features.shaderFloat16",
           "DEVICE_FEATURE Vulkan12Features.vulkanMemoryModel",
           "DEVICE_FEATURE Vulkan12Features.bufferDeviceAddress",
           "DEVICE_FEATURE Vulkan12Features.scalarBlockLayout",
           "DEVICE_FEATURE Storage16BitFeatures.storageBuffer16BitAccess",
           "",
           f"SHADER compute shmem SPIRV-BINARY FILE {a.kernel}",
           ""]
    if a.fill:
        out += [f"BUFFER a DATA_TYPE float16 SIZE {M * K} FILL 1",
                f"BUFFER b DATA_TYPE float16 SIZE {K * N} FILL 0.25",
                f"BUFFER expected DATA_TYPE float SIZE {M * N} FILL {K // 4}"]
    else:
        rng = random.Random(a.seed)
        A = [rng.randint(-2, 2) for _ in range(M * K)]
        B = [rng.randint(-2, 2) for _ in range(K * N)]
        D = [sum(A[m * K + k] * B[k * N + n] for k in range(K)) for m in range(M) for n in range(N)]
        out += ["BUFFER a DATA_TYPE float16 DATA", rows(A) + "END",
                "BUFFER b DATA_TYPE float16 DATA", rows(B) + "END",
                "BUFFER expected DATA_TYPE float DATA", rows(D) + "END"]
    out += [f"BUFFER c DATA_TYPE float SIZE {M * N} FILL 0",
            f"BUFFER d DATA_TYPE float SIZE {M * N} FILL 7",
            "# inputAV4, inputBV4, inputC, outputO (device addresses).",
            "BUFFER params DATA_TYPE uint32 SIZE 8 FILL 0",
            "BUFFER_ADDRESS a INTO params OFFSET 0",
            "BUFFER_ADDRESS b INTO params OFFSET 8",
            "BUFFER_ADDRESS c INTO params OFFSET 16",
            "BUFFER_ADDRESS d INTO params OFFSET 24",
            "",
            "PIPELINE compute gemm",
            "  ATTACH shmem " + " ".join(f"SPECIALIZE {i} AS uint32 {v}" for i, v in spec.items()),
            f"  SUBGROUP shmem REQUIRED_SIZE {S} FULLY_POPULATED on",
            "  BIND BUFFER params AS uniform DESCRIPTOR_SET 0 BINDING 0",
            "END",
            "",
            f"RUN gemm {N // TN} {M // TM} 1",
            "EXPECT d EQ_BUFFER expected",
            ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
