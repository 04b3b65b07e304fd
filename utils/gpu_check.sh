#!/bin/bash
# Runs the AmberScript tests under test/run/ natively on a GPU, and writes one JSON summary. Meant
# for the project's H100 machine (../shared/gpu/README.md), from the repository root, with what
# utils/prepare_gpu.sh puts in the ignored folders .gpu/ (the coopspv-run binary built here) and
# .gl/ (Debian's Vulkan loader packages):
#
#   utils/gpu_check.sh [summary.json] [subset...]   # default: $OUT/gpu_check.json, every subset
#
# Subsets (each fits one GPU call: well under 500 s, at most 3 files beside the summary):
#   plain    test/run/*.amber, the plain compute scripts
#   native   test/run/native/*.amber, the cooperative modules of test/data/corpus/ with timing
#   golden   test/run/native/*.amber without timing: only their golden dumps (fastest)
#   lower    test/run/lower_coop_matrix/native (as written and --lower-coop-matrix=32) and h100/
#            (the 4096 x 4096 x 4096 f16 -> f32 matmul: native, lowered, plain)
#   coopvec  utils/gpu_check_coopvec.sh (native vs --lower-coop-vector, MLP timing); its report
#            is coopvec.txt beside the summary, its logs go into the golden tarball
#   all      plain native lower (the default; coopvec is asked for by name)
#
# Environment: COOPSPV_RUN (the binary, default .gpu/bin/coopspv-run), GPU_DEVICE (a
# --device value), GPU_TIMING (timed runs per RUN, default 20; 0: none), GPU_LOWER (the
# --lower-coop-matrix argument of the lower subset, default 32; 32,tile for the grid
# distribution). The buffers each
# script's shaders wrote (coopspv-run --dump-buffers: the golden data of the native tests,
# golden/<name>.amber) and the stderr of each run go into ONE tarball beside the summary,
# <summary>.golden.tar.gz, so that a GPU call returning at most 8 files loses none of them.
# --lower-coop-matrix (test/run/lower_coop_matrix): every generated kernel runs as written and
# then lowered for the H100's subgroup size (--passes "--lower-coop-matrix=32"): both runs pass
# the EXPECT computed by generate.py and coopspv-run compares their buffers; h100/ times a
# 4096 x 4096 x 4096 f16 -> f32 matmul as written, lowered, and as a plain shared-memory kernel
# (the medians are printed at the end and kept in the summary).
# Exit status: 0 when no script failed or errored (unsupported ones are counted apart), 1
# otherwise (the summary says which and why), 2 on a usage error.
set -u
cd "$(dirname "$0")/.."

RUN="${COOPSPV_RUN:-.gpu/bin/coopspv-run}"
SUMMARY="${OUT:-.}/gpu_check.json"
case "${1:-}" in
  "" | plain | native | golden | lower | coopvec | all) ;;
  *) SUMMARY="$1"; shift ;;
esac
[ $# -gt 0 ] || set -- all
TIMING="${GPU_TIMING:-20}"
LOWER=test/run/lower_coop_matrix
SCRIPTS=()
RUN_COOPVEC=0
for subset in "$@"; do
  case "$subset" in
    plain) SCRIPTS+=(test/run/*.amber) ;;
    native) SCRIPTS+=(test/run/native/*.amber) ;;
    golden) SCRIPTS+=(test/run/native/*.amber) TIMING=0 ;;
    lower) SCRIPTS+=("$LOWER"/native/*.amber "$LOWER"/h100/*.amber) ;;
    coopvec) RUN_COOPVEC=1 ;;
    all) SCRIPTS+=(test/run/*.amber test/run/native/*.amber "$LOWER"/native/*.amber
                   "$LOWER"/h100/*.amber) ;;
    *) echo "gpu_check: unknown subset '$subset' (plain, native, golden, lower, coopvec, all)" >&2
       exit 2 ;;
  esac
done
mkdir -p "$(dirname "$SUMMARY")"
# Dumps and logs are gathered outside $OUT and packed into one tarball at the end.
WORK="$(mktemp -d)"
GOLDEN="$WORK/golden"
mkdir -p "$GOLDEN"

if [ ! -x "$RUN" ]; then
  echo "gpu_check: no coopspv-run at $RUN (build it and run utils/prepare_gpu.sh first)" >&2
  exit 2
fi

# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh

DEVICE_ARGS=()
[ -n "${GPU_DEVICE:-}" ] && DEVICE_ARGS=(--device "$GPU_DEVICE")
TIMING_ARGS=()
[ "$TIMING" != 0 ] && TIMING_ARGS=(--timing="$TIMING" --warmup 5)

json_string() {  # A shell string as a JSON string.
  printf '%s' "$1" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()), end="")' \
    2>/dev/null || printf '"%s"' "$(printf '%s' "$1" | tr -d '"\\' | tr '\n' ' ')"
}

# record <script> <exit code> <milliseconds> <report JSON>: counts the run and adds its entry.
record() {
  case $2 in
    0) passed=$((passed + 1)) ;;
    1) failed=$((failed + 1)) ;;
    77) skipped=$((skipped + 1)) ;;  # Unsupported by the device as written and lowered.
    *) errors=$((errors + 1)) ;;
  esac
  results="${results:+$results,}{\"script\":$(json_string "$1"),\"exit_code\":$2,\"milliseconds\":$3,"
  results+="\"report\":$4}"
  echo "gpu_check: $1 -> exit $2" >&2
}

devices="$("$RUN" --list-devices --json 2>/dev/null)"
[ -n "$devices" ] || devices="[]"
passed=0
failed=0
errors=0
unsupported=0
skipped=0
results=""
LOWER_ARG="${GPU_LOWER:-32}"
LOWER_GEMM="--set-spec-const-default-value \"0:128\" --freeze-spec-const --fold-spec-const --lower-coop-matrix=$LOWER_ARG --eliminate-dead"
for script in "${SCRIPTS[@]}"; do
  [ -f "$script" ] || continue
  name="$(basename "$script" .amber)"
  [ "$(dirname "$script")" = test/run/native ] && name="native_$name"
  PASS_ARGS=()
  case "$script" in
    "$LOWER"/native/*) name="lower_$name" PASS_ARGS=(--passes "--lower-coop-matrix=$LOWER_ARG") ;;
    "$LOWER"/h100/matmul4096_coop.amber)
      name="lower_$name" PASS_ARGS=(--timeout-ms 120000 --passes "$LOWER_GEMM") ;;
    "$LOWER"/h100/*) name="lower_$name" PASS_ARGS=(--timeout-ms 120000) ;;
  esac
  start=$(date +%s%N)
  report="$(timeout 300 "$RUN" --json "${DEVICE_ARGS[@]}" "${TIMING_ARGS[@]}" "${PASS_ARGS[@]}" \
    --dump-buffers "$GOLDEN/$name.amber" "$script" 2>"$GOLDEN/$name.stderr")"
  code=$?
  # A script whose module, as written, is not valid for this device (coopspv-run validates every
  # module against the device's profile first: a cooperative shape or a saturating or float32
  # accumulation the device does not list, say) runs lowered alone, with its passes or --lower;
  # the summary says the native run was not supported, and why.
  if [ "$code" = 2 ] && printf '%s' "$report" | grep -q 'is not valid for'; then
    native_refusal="$(printf '%s' "$report" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("error",""))' 2>/dev/null)"
    # The script's own "# lower: <passes>" line (test/run/native, as native_golden_test.sh reads
    # it: with its "# lowered-needs:" extensions and "# lowered-expect:" EXPECTs), else its
    # passes, else --lower.
    lowered="$script"
    LOWERED_ARGS=("${PASS_ARGS[@]}")
    own=$(sed -n 's/^# lower: //p' "$script" | head -1)
    if [ -n "$own" ]; then
      lowered="$(dirname "$script")/.lowered_$(basename "$script")"
      {
        for e in $(sed -n 's/^# lowered-needs: //p' "$script"); do echo "DEVICE_EXTENSION $e"; done
        cat "$script"
        sed -n 's/^# lowered-expect: //p' "$script"
      } >"$lowered"
      if [ "$own" = "--lower" ]; then
        LOWERED_ARGS=(--lower)
      else
        LOWERED_ARGS=(--passes "--freeze-spec-const --fold-spec-const $own")
      fi
    fi
    [ ${#LOWERED_ARGS[@]} -gt 0 ] || LOWERED_ARGS=(--lower)
    report="$(timeout 300 "$RUN" --json "${DEVICE_ARGS[@]}" "${TIMING_ARGS[@]}" "${LOWERED_ARGS[@]}" \
      --passes-only "$lowered" 2>>"$GOLDEN/$name.stderr")"
    code=$?
    [ "$lowered" = "$script" ] || rm -f "$lowered"
    [ -n "$report" ] && report="${report%\}},\"native\":\"unsupported\",\"native_refusal\":$(json_string "$native_refusal")}"
    unsupported=$((unsupported + 1))
  fi
  ms=$((($(date +%s%N) - start) / 1000000))
  # A crash or a kill leaves no JSON: keep what it printed instead.
  if [ -z "$report" ]; then
    report="{\"status\":\"crash\",\"stderr\":$(json_string "$(tail -c 2000 "$GOLDEN/$name.stderr")")}"
  fi
  [ -s "$GOLDEN/$name.stderr" ] || rm -f "$GOLDEN/$name.stderr"
  record "$script" "$code" "$ms" "$report"
done

if [ "$RUN_COOPVEC" = 1 ]; then
  # Its own report (native vs lowered, the MLP timing), the logs into the tarball.
  start=$(date +%s%N)
  OUT="$WORK/coopvec" timeout 480 utils/gpu_check_coopvec.sh "$(dirname "$RUN")" \
    >"${SUMMARY%.json}.coopvec.txt" 2>&1
  code=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  record utils/gpu_check_coopvec.sh "$code" "$ms" \
    "$(json_string "$(tail -c 6000 "${SUMMARY%.json}.coopvec.txt")")"
fi
tar -C "$WORK" -czf "${SUMMARY%.json}.golden.tar.gz" . && rm -rf "$WORK"

{
  printf '{"tool":%s,"devices":%s,' "$(json_string "$("$RUN" --version)")" "$devices"
  printf '"passed":%d,"failed":%d,"errors":%d,"native_unsupported":%d,"unsupported":%d,"results":[%s]}\n' \
    "$passed" "$failed" "$errors" "$unsupported" "$skipped" "$results"
} >"$SUMMARY"
echo "gpu_check: $passed passed, $failed failed, $errors errors, $skipped unsupported (exit 77:" \
  "the device lacks what they need, as written and lowered; $unsupported ran lowered only: the" \
  "device does not support them as written); summary in $SUMMARY," \
  "dumps and logs in ${SUMMARY%.json}.golden.tar.gz" >&2
# The 4096^3 matmul: native, lowered (S = 32) and plain medians.
python3 - "$SUMMARY" "--lower-coop-matrix=$LOWER_ARG" <<'PY' >&2 || true
import json, sys
summary = json.load(open(sys.argv[1]))
print("gpu_check: 4096 x 4096 x 4096 f16 -> f32 matmul (median of the timed runs)")
for r in summary["results"]:
    if "/h100/matmul4096_" not in r["script"]:
        continue
    for t in r["report"].get("timings", []):
        kind = "plain kernel" if "plain" in r["script"] else (
            "lowered, " + sys.argv[2] if t["variant"] == "passes" else "cooperative matrix (native)")
        ms = t["median_us"] / 1000
        print("  %-28s %10.3f ms  %7.1f TFLOP/s" % (kind, ms, 2 * 4096**3 / (ms * 1e-3) / 1e12))
PY
[ "$failed" = 0 ] && [ "$errors" = 0 ]
