#!/bin/bash
# Issue 28's H100 timing table: the 4096 x 4096 x 4096 f16 -> f32 GEMM of examples/tiled_gemm as
# written (cooperative matrices), lowered for S = 32 with the linear distribution
# (--lower-coop-matrix=32) and with the grid one (--lower-coop-matrix=32,tile), and as a plain
# kernel; and vk_cooperative_matrix_perf's shmemfp16_fp32 kernel (tile 128 x 256 x 16, subgroup
# 32) as written and lowered both ways. Same machine, same run, medians of coopspv-run --timing. On the GPU machine, from the repository root, with
# what utils/prepare_gpu.sh prepares, and the third-party kernel's script prepared here first:
#
#   mkdir -p .gpu/vkcmp && cp ../shared/corpus/real-sample/vkcmp_shmemfp16_fp32.spv .gpu/vkcmp/ &&
#     python3 utils/vkcmp_shmem_amber.py --kernel vkcmp_shmemfp16_fp32.spv --size 4096 \
#       --tile 128 256 16 --subgroup 32 --fill > .gpu/vkcmp/s4096.amber
#   utils/gpu_time_gemm.sh [TIMED RUNS (default 10)]      # on the GPU machine
#
# Environment: COOPSPV_RUN (default .gpu/bin/coopspv-run), VKCMP_SCRIPT (default
# .gpu/vkcmp/s4096.amber; skipped when missing). Exit status: 0 when every run passed its EXPECT.
set -u
cd "$(dirname "$0")/.." || exit 2
RUNS=${1:-10}
RUN="${COOPSPV_RUN:-.gpu/bin/coopspv-run}"
VKCMP="${VKCMP_SCRIPT:-.gpu/vkcmp/s4096.amber}"
[ -f utils/gpu_env.sh ] && . utils/gpu_env.sh
H100=test/run/lower_coop_matrix/h100
LOWER_GEMM='--set-spec-const-default-value "0:128" --freeze-spec-const --fold-spec-const --lower-coop-matrix=32 --eliminate-dead'
LOWER_TILE="${LOWER_GEMM/--lower-coop-matrix=32/--lower-coop-matrix=32,tile}"
status=0
# time LABEL SCRIPT ARGS...: prints "LABEL  <median> ms  <TFLOP/s>" for every timed RUN (with
# --passes / --lower: the native run, then the lowered one).
time_one() {
  local label=$1 script=$2
  shift 2
  local out
  out=$(timeout 280 "$RUN" --timeout-ms 120000 --timing="$RUNS" --warmup 3 "$@" "$script" 2>&1)
  local code=$?
  [ $code = 0 ] || status=1
  grep median <<<"$out" | while read -r line; do
    local us variant
    us=$(sed -n 's/.*median \([0-9.]*\) us.*/\1/p' <<<"$line")
    variant=native
    grep -q "with the passes" <<<"$line" && variant=lowered
    python3 -c "import sys; ms = float(sys.argv[1]) / 1000
print('%-34s %10.3f ms %8.2f TFLOP/s' % (sys.argv[2], ms, 2 * 4096**3 / (ms * 1e-3) / 1e12))" \
      "$us" "$label ($variant)"
  done
  [ $code = 0 ] || { echo "$label: exit $code"; tail -5 <<<"$out"; }
}
echo "4096 x 4096 x 4096 f16 -> f32, medians of $RUNS timed runs ($("$RUN" --version))"
time_one "tiled_gemm, linear" "$H100/matmul4096_coop.amber" --passes "$LOWER_GEMM"
time_one "tiled_gemm, tile" "$H100/matmul4096_coop.amber" --passes-only --passes "$LOWER_TILE"
time_one "plain kernel (matmul_plain)" "$H100/matmul4096_plain.amber"
if [ -f "$VKCMP" ]; then
  time_one "vkcmp shmem 128x256x16, linear" "$VKCMP" --passes \
    "--freeze-spec-const --fold-spec-const --lower-coop-matrix=32 --eliminate-dead"
  time_one "vkcmp shmem 128x256x16, tile" "$VKCMP" --passes-only --passes \
    "--freeze-spec-const --fold-spec-const --lower-coop-matrix=32,tile --eliminate-dead"
else
  echo "vkcmp: no $VKCMP (see the head of this script)"
fi
exit $status
