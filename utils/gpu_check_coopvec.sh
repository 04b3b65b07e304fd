#!/bin/bash
# --lower-coop-vector on a GPU with VK_NV_cooperative_vector (written for the H100; run by hand,
# never by the tests). Three parts, each reported on its own:
#
#  1. native vs lowered: every test/run/coopvec/*.amber runs as written (native cooperative
#     vectors) and with its shader lowered (coopspv-run --passes), and every storage buffer must
#     match (floats within --tolerance); the script's own EXPECTs must pass natively too.
#  2. lowered alone against the expected values of the generator (run_lowered.sh), on the GPU.
#  3. timing: the 64 -> 64 -> 64 float16 MLP over 1M invocations
#     (test/run/coopvec/gpu/coopvec_mlp64_1m.amber), native and lowered, median GPU time of
#     timed dispatches (timestamp queries), then native vs lowered outputs compared.
#
# Expected on NVIDIA: row-major float16 and int8 matrices run natively. Drivers may refuse some
# combinations the lowered module handles (E4M3 with a row-major matrix, OuterProductAccumulate
# into a row-major matrix, saturating int32/float32 -> int8 inputs): such a native run exits 2
# with the driver's message, which this script reports as "native: unsupported", not as a
# mismatch.
#
# Usage: utils/gpu_check_coopvec.sh [bin dir]   (default .gpu/bin, which utils/prepare_gpu.sh
#        fills with coopspv-run, -as, -opt, -dis; bazel-bin/tools works too)
#        SKIP_TIMING=1 leaves part 3 out.
# Output: a report on stdout, and $OUT (default ./gpu_check_coopvec) with the logs and the
# lowered scripts.
set -u
cd "$(dirname "$0")/.." || exit 2
BIN=${1:-.gpu/bin}
OUT=${OUT:-gpu_check_coopvec}
DIR=test/run/coopvec
mkdir -p "$OUT"
# shellcheck source=test/run/coopvec/run_lowered.sh disable=SC1091
. "$DIR/run_lowered.sh"
for tool in coopspv-run coopspv-as coopspv-opt coopspv-dis; do
  [ -x "$BIN/$tool" ] || { echo "missing $BIN/$tool (utils/prepare_gpu.sh)" >&2; exit 2; }
done
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
"$BIN/coopspv-run" --list-devices
failures=0

echo
echo "== 1. native vs lowered (coopspv-run --passes)"
for script in "$DIR"/*.amber; do
  name=$(basename "$script" .amber)
  features=$(sed -n 's/^# lower: --lower-coop-vector//p' "$script" | head -1)
  timeout 600 "$BIN/coopspv-run" --json --tolerance 0.004 \
    --passes "--lower-coop-vector$features" "$script" >"$OUT/$name.compare.json" \
    2>"$OUT/$name.compare.err"
  rc=$?
  case $rc in
    0) echo "$name: native EXPECTs pass, lowered buffers equal" ;;
    1) echo "$name: MISMATCH (see $OUT/$name.compare.json)"; failures=$((failures + 1)) ;;
    *) echo "$name: native: unsupported or error: $(head -c 300 "$OUT/$name.compare.err")" ;;
  esac
done

echo
echo "== 2. lowered scripts against the generator's values"
TEST_TMPDIR="$OUT" "$DIR/run_lowered.sh" -k "$BIN" "$DIR"/*.amber || failures=$((failures + 1))

echo
echo "== 3. timing: 64 -> 64 -> 64 float16 MLP, 1M invocations"
MLP="$DIR/gpu/coopvec_mlp64_1m.amber"
lower_script "$BIN" "$MLP" "$OUT/coopvec_mlp64_1m.lowered.amber" || failures=$((failures + 1))
if [ -n "${SKIP_TIMING:-}" ]; then  # For a dry run of parts 1 and 2 on a CPU driver.
  echo "skipped (SKIP_TIMING)"
  exit $((failures != 0))
fi
echo "native:"
timeout 600 "$BIN/coopspv-run" --timing=20 --warmup 3 "$MLP" | tee "$OUT/mlp64.native.txt"
echo "lowered:"
timeout 600 "$BIN/coopspv-run" --timing=20 --warmup 3 "$OUT/coopvec_mlp64_1m.lowered.amber" |
  tee "$OUT/mlp64.lowered.txt"
native_us=$(sed -n 's/.*median \([0-9.]*\) us.*/\1/p' "$OUT/mlp64.native.txt" | head -1)
lowered_us=$(sed -n 's/.*median \([0-9.]*\) us.*/\1/p' "$OUT/mlp64.lowered.txt" | head -1)
if [ -n "$native_us" ] && [ -n "$lowered_us" ]; then
  awk -v n="$native_us" -v l="$lowered_us" \
    'BEGIN { printf "native %.1f us, lowered %.1f us: lowered / native = %.2f\n", n, l, l / n }'
fi
echo "outputs, native vs lowered:"
timeout 900 "$BIN/coopspv-run" --tolerance 0.004 --passes "--lower-coop-vector" "$MLP" ||
  failures=$((failures + 1))

echo
[ "$failures" -eq 0 ] && echo "gpu_check_coopvec: all checks passed" ||
  echo "gpu_check_coopvec: $failures check(s) failed"
exit $((failures != 0))
