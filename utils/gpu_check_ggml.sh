#!/bin/bash
# ggml's cm2 kernels with ggml's inputs (test/run/ggml/generate.py, issue 31) on a GPU with
# VK_NV_cooperative_matrix2 (the H100 / H200; run by hand, never by the tests): each script runs
# as written (native), then through coopspv-run --passes onto KHR matrices
# (--lower-coop-matrix2=32,h100) and onto plain code (--legalize-for-device for the H100 with its
# cooperative extensions hidden, as the layer does with coopspv.hide_native=true), each
# frozen with the script's specialization first; every --passes
# run checks the EXPECTs (generate.py's reference) of both runs and compares every buffer the
# kernel wrote; all RUNs are timed (--timing). Prints one line per run and a timing table.
#
# The sample modules (../shared/corpus/real-sample) stay beside the checkout, which does not
# travel to the GPU machine: first, here (after utils/prepare_gpu.sh, which builds .gpu/bin):
#
#   utils/gpu_check_ggml.sh --prepare     # writes .gpu/ggml: the scripts, spv/ (the modules
#                                         # through --strip-decode-vector, as ggml does without
#                                         # VK_NV_cooperative_matrix_decode_vector)
#
# then on the GPU machine, from the repository root (carry .gpu and .gl):
#
#   utils/gpu_check_ggml.sh [timed runs (default 20)] [report dir] [name pattern]
#
# exits 0 when every run passed (the pattern, a shell glob, picks scripts: "matmul*").
# The plain step legalizes for the H100 with its cooperative extensions hidden (as the layer does
# with coopspv.hide_native=true); GGML_PLAIN_LOWER=<S>[,tile] lowers the KHR form instead
# (--lower-coop-matrix2=32,h100 --lower-coop-matrix=<S>[,tile]: tiled to the H100's shapes first,
# a module many times larger).
set -u
cd "$(dirname "$0")/.." || exit 2
BIN="${COOPSPV_BIN:-.gpu/bin}"
WORK=.gpu/ggml

if [ "${1:-}" = "--prepare" ]; then
  SAMPLE="${COOPSPV_SHARED:-../shared}/corpus/real-sample"
  OPT="$BIN/coopspv-opt"
  [ -x "$OPT" ] || OPT=bazel-bin/tools/coopspv-opt
  [ -x "$OPT" ] || { echo "gpu_check_ggml: no coopspv-opt (run utils/prepare_gpu.sh)" >&2; exit 2; }
  [ -f "$SAMPLE/matmul_f16_cm2.spv" ] || {
    echo "gpu_check_ggml: no sample at $SAMPLE" >&2
    exit 2
  }
  rm -rf "$WORK" && mkdir -p "$WORK/spv" || exit 2
  python3 test/run/ggml/generate.py "$WORK" || exit 2
  for module in $(cut -d' ' -f2 "$WORK/SPECS" | sort -u); do
    "$OPT" --target-env vulkan1.3 --strip-decode-vector "$SAMPLE/$module.spv" \
      -o "$WORK/spv/$module.spv" || exit 2
  done
  # The plain step's target: the H100 as the layer sees it with every cooperative extension
  # hidden (coopspv.hide_native=true): matrix2 lowered without tiling to the device's KHR shapes,
  # then to plain code, within the device's shared memory.
  python3 - "${COOPSPV_SOURCE:-.}/test/data/profiles/h100.json" "$WORK/h100_plain.json" <<'PY' || exit 2
import json, sys
profile = json.load(open(sys.argv[1]))
profile["extensions"] = [e for e in profile["extensions"] if "cooperative_matrix" not in e]
for k in list(profile["features"]):
    if k.startswith("cooperativeMatrix") or k.endswith("CooperativeMatrix"):
        profile["features"][k] = False
for k in ("cooperativeMatrixProperties", "cooperativeMatrixPropertiesNV",
          "cooperativeMatrixFlexibleDimensionsProperties"):
    profile.pop(k, None)
profile["deviceName"] += " (cooperative matrices hidden)"
json.dump(profile, open(sys.argv[2], "w"), indent=1)
PY
  ls -l "$WORK" "$WORK/spv"
  echo "gpu_check_ggml: prepared $WORK; on the GPU machine run: utils/gpu_check_ggml.sh"
  exit 0
fi

RUNS=${1:-20}
DIR=${2:-${OUT:-gpu_check_ggml}}
PATTERN=${3:-*}
mkdir -p "$DIR"
[ -x "$BIN/coopspv-run" ] || { echo "gpu_check_ggml: no $BIN/coopspv-run" >&2; exit 2; }
[ -f "$WORK/SPECS" ] || { echo "gpu_check_ggml: no $WORK (run --prepare first)" >&2; exit 2; }
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
"$BIN/coopspv-run" --list-devices 2>&1 | head -3

failures=0
TABLE="$DIR/timing.tsv"
printf 'script\tnative_us\tkhr_us\tplain_us\n' >"$TABLE"
median() {  # report variant: the median of the first RUN line of the run as written / passes
  if [ "$2" = native ]; then
    grep -m1 -E '^RUN [^ ]+ \(line [0-9]+\): median' "$1" | sed -E 's/.*median ([0-9.]+) us.*/\1/'
  else
    grep -m1 -E '^RUN .* with the passes: median' "$1" | sed -E 's/.*median ([0-9.]+) us.*/\1/'
  fi
}
run() {  # name label report [coopspv-run options...]
  local name=$1 label=$2 report=$3
  shift 3
  timeout 240 "$BIN/coopspv-run" --timeout-ms 200000 --timing="$RUNS" --warmup 5 "$@" \
    >"$DIR/$report" 2>&1
  local code=$?
  if [ "$code" = 0 ]; then
    echo "PASS $name ($label): $(tail -1 "$DIR/$report")"
  else
    echo "FAIL $name ($label, exit $code):"
    grep -v '^EXPECT' "$DIR/$report" | sed 's/^/    /' | tail -12
    failures=$((failures + 1))
  fi
  return $code
}
while read -r name _ _; do
  # shellcheck disable=SC2053
  [[ $name == $PATTERN ]] || continue
  script="$WORK/$name.amber"
  # Lowered buffers match native within the tolerance the script's EXPECTs give the reference.
  tolerance=$(grep -m1 -oE 'TOLERANCE [0-9.e-]+' "$script" | cut -d' ' -f2)
  run "$name" native "$name.native.txt" "$script"
  native=$(median "$DIR/$name.native.txt" native)
  run "$name" "native vs --lower-coop-matrix2=32,h100" "$name.khr.txt" \
    --tolerance "${tolerance:-0.001}" --passes "--freeze-spec-const --fold-spec-const --lower-coop-matrix2=32,h100" "$script"
  khr=$(median "$DIR/$name.khr.txt" passes)
  plain_passes="--freeze-spec-const --fold-spec-const"
  if [ -n "${GGML_PLAIN_LOWER:-}" ]; then  # Through the KHR form, tiled to the H100's shapes.
    plain_passes+=" --lower-coop-matrix2=32,h100 --lower-coop-matrix=$GGML_PLAIN_LOWER"
  else  # As the layer does with every cooperative extension hidden.
    plain_passes+=" --legalize-for-device=$WORK/h100_plain.json"
  fi
  run "$name" "native vs ${plain_passes#--freeze-spec-const --fold-spec-const }" "$name.plain.txt" \
    --tolerance "${tolerance:-0.001}" --passes "$plain_passes" "$script"
  plain=$(median "$DIR/$name.plain.txt" passes)
  printf '%s\t%s\t%s\t%s\n' "$name" "${native:--}" "${khr:--}" "${plain:--}" >>"$TABLE"
done <"$WORK/SPECS"
echo "== median RUN times (us, $RUNS timed runs after 5 warm-up), $DIR/timing.tsv:"
column -t "$TABLE" 2>/dev/null || cat "$TABLE"
echo "gpu_check_ggml: $failures failures"
exit $((failures != 0))
