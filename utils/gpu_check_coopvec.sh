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
# Expected on NVIDIA: row-major float16 and int8 matrices run natively. A script with a
# "# native: invalid: <VUID>" line breaks a rule of the Vulkan environment when run natively (a
# float8 matrix must be InferencingOptimal / TrainingOptimal, an outer product's matrix
# TrainingOptimal): part 1 skips it and says why. Drivers may refuse other combinations the
# lowered module handles (saturating int32/float32 -> int8 inputs): such a native run exits 2
# with the driver's message, which this script reports as "native: unsupported", not as a
# mismatch. A mismatch prints the failing EXPECTs and the first differing elements of both runs.
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

# explain_mismatch <script> <name>: what differs, so that one GPU run says why: the failing
# EXPECTs (their messages name the index and both values), then both runs' buffers dumped
# (--dump-buffers) and their first differing elements, index by index.
explain_mismatch() {
  local script=$1 name=$2
  python3 - "$OUT/$name.compare.json" <<'PY'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    sys.exit("  (no JSON report: %s)" % e)
for e in report.get("expects", []):
    if e["result"] != "pass":
        print("  EXPECT line %d (%s run): %s" % (e["line"], e["variant"], e.get("message", "")[:300]))
for c in report.get("comparisons", []):
    if c["result"] != "equal":
        print("  buffer %s: %d elements differ, first at %s, max abs error %g" % (
            c["buffer"], c["mismatches"], c["first_mismatch"], c["max_abs_error"]))
PY
  timeout 300 "$BIN/coopspv-run" --dump-buffers "$OUT/$name.native.dump" "$script" \
    >/dev/null 2>&1
  lower_script "$BIN" "$script" "$OUT/$name.lowered.amber" &&
    timeout 300 "$BIN/coopspv-run" --timeout-ms 300000 --dump-buffers "$OUT/$name.lowered.dump" \
      "$OUT/$name.lowered.amber" >/dev/null 2>&1
  python3 - "$OUT/$name.native.dump" "$OUT/$name.lowered.dump" <<'PY'
import sys
def load(path):
    buffers, name = {}, None
    try:
        lines = open(path).read().split("\n")
    except OSError:
        return None
    for line in lines:
        t = line.split()
        if t[:1] == ["BUFFER"]:
            name = t[1]
            buffers[name] = []
        elif t[:1] == ["END"]:
            name = None
        elif name and t:
            buffers[name] += t
    return buffers
native, lowered = load(sys.argv[1]), load(sys.argv[2])
if native is None or lowered is None:
    sys.exit("  (no buffer dump of the %s run)" % ("native" if native is None else "lowered"))
for name, values in native.items():
    other = lowered.get(name, [])
    diff = [i for i in range(min(len(values), len(other)))
            if values[i] != other[i] and float(values[i]) != float(other[i])]
    if diff:
        print("  %s: %d of %d components differ; first (index: native vs lowered):" % (
            name, len(diff), len(values)))
        print("    " + ", ".join("%d: %s vs %s" % (i, values[i], other[i]) for i in diff[:8]))
PY
}

echo
echo "== 1. native vs lowered (coopspv-run --passes)"
for script in "$DIR"/*.amber; do
  name=$(basename "$script" .amber)
  features=$(sed -n 's/^# lower: --lower-coop-vector//p' "$script" | head -1)
  invalid=$(sed -n 's/^# native: invalid: //p' "$script" | head -1)
  if [ -n "$invalid" ]; then  # A native result would mean nothing; part 2 checks the lowered one.
    echo "$name: native not run: $invalid"
    continue
  fi
  timeout 600 "$BIN/coopspv-run" --json --tolerance 0.004 \
    --passes "--lower-coop-vector$features" "$script" >"$OUT/$name.compare.json" \
    2>"$OUT/$name.compare.err"
  rc=$?
  case $rc in
    0) echo "$name: native EXPECTs pass, lowered buffers equal" ;;
    1) echo "$name: MISMATCH (see $OUT/$name.compare.json)"; failures=$((failures + 1))
       explain_mismatch "$script" "$name" ;;
    *) # With --json the error is in the report.
       why=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("error", ""))' \
         "$OUT/$name.compare.json" 2>/dev/null)
       why=${why:-$(cat "$OUT/$name.compare.err")}
       echo "$name: native: unsupported or error: $(printf '%s' "$why" | tr '\n' ' ' | head -c 300)" ;;
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
