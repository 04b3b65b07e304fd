#!/bin/bash
# Times on lavapipe (S = 8) the GEMM of examples/tiled_gemm lowered by --lower-coop-matrix beside
# its plain twin (test/run/lower_coop_matrix/tiled_gemm_plain.comp), both D = A * B of float16 A
# and B (1 and 0.25) into float D at SIZE^3, checked (every element of D is SIZE / 4). Issue 28's
# lavapipe target: the lowered GEMM, at a size where it takes >= 50 ms, within 1.25 x the plain one.
#
#   utils/lavapipe_gemm_time.sh [SIZE (multiple of 64; default 512)] [TIMED RUNS (default 5)]
#
# Environment: COOPSPV_OPT / COOPSPV_RUN (default bazel-bin/tools/...): give another build's
# coopspv-opt to time its lowering (e.g. main's, for a before / after table); LOWER: the
# --lower-coop-matrix argument (default 8; "8,tile" for the grid distribution). Prints one line per
# kernel: its median dispatch time (coopspv-run --timing).
set -eu
cd "$(dirname "$0")/.."
SIZE=${1:-512}
RUNS=${2:-5}
OPT=${COOPSPV_OPT:-bazel-bin/tools/coopspv-opt}
RUN=${COOPSPV_RUN:-bazel-bin/tools/coopspv-run}
LOWER=${LOWER:-8}
AS=${COOPSPV_AS:-bazel-bin/tools/coopspv-as}
if [ $((SIZE % 64)) != 0 ] || [ "$SIZE" -lt 64 ]; then
  echo "lavapipe_gemm_time: SIZE must be a positive multiple of 64" >&2
  exit 2
fi
. test/run/lavapipe_env.sh
DIR=test/run/lower_coop_matrix
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Every 256 / 64 / 16-sized number of the 256 x 256 x 64 scripts, scaled.
scale() {
  sed -e "s/SIZE 65536/SIZE $((SIZE * SIZE))/" -e "s/FILL 16\$/FILL $((SIZE / 4))/" \
    -e "s/^256 256 64 64 256 256\$/$SIZE $SIZE $SIZE $SIZE $SIZE $SIZE/" "$@"
}
# The lowered GEMM: the pipeline of utils/gpu_check.sh's timing job, for S = 8; 16 subgroups of
# 32 x 32 per workgroup.
"$AS" examples/tiled_gemm.spvasm -o "$TMP/native.spv"
"$OPT" --target-env vulkan1.3 --set-spec-const-default-value "0:128" --freeze-spec-const \
  --fold-spec-const --lower-coop-matrix="$LOWER" --eliminate-dead "$TMP/native.spv" -o "$TMP/gemm.spv"
scale -e "s#SPIRV-ASM FILE ../../../examples/tiled_gemm.spvasm#SPIRV-BINARY FILE gemm.spv#" \
  -e '/VK_KHR_cooperative_matrix/d' -e '/CooperativeMatrixFeaturesKHR/d' \
  -e "s/^RUN pipeline 16 1 1/RUN pipeline $((SIZE * SIZE / 1024 / 16)) 1 1/" \
  "$DIR/gemm256.amber" >"$TMP/lowered.amber"
# The plain twin: 32 x 64 per workgroup.
cp "$DIR/tiled_gemm_plain.spvasm" "$TMP/"
scale -e "s/^RUN pipeline 32 1 1/RUN pipeline $((SIZE * SIZE / 2048)) 1 1/" \
  "$DIR/gemm256_plain.amber" >"$TMP/plain.amber"
status=0
for kernel in lowered plain; do
  if out=$("$RUN" --timeout-ms 600000 --timing="$RUNS" --warmup 1 "$TMP/$kernel.amber" 2>&1); then
    label=$kernel
    [ $kernel = lowered ] && label="lowered (--lower-coop-matrix=$LOWER)"
    echo "$label ${SIZE}^3: $(grep -m1 median <<<"$out")"
  else
    echo "$kernel ${SIZE}^3: FAILED" >&2
    sed 's/^/    /' <<<"$out" | head -20 >&2
    status=1
  fi
done
exit $status
