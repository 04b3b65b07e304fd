#!/bin/bash
# ggml's test-backend-ops on a GPU with the cooperative extensions (the H100; issue 30), three
# ways: natively (ggml's _cm2 path), through VK_LAYER_coopspv with VK_NV_cooperative_matrix2
# hidden and emulated (ggml's _cm2 shaders lowered onto the device's own KHR matrices), and with
# every cooperative extension hidden and emulated (lowered to plain code). A tool you run and
# report, never a test. First, here:
#
#   utils/ggml_check.sh build <work> <ggml> <Vulkan-Headers> <Vulkan-Hpp>
#   utils/ggml_check.sh package <work> .gpu/ggml.tar.xz
#   sh utils/prepare_gpu.sh                              # .gpu/layer, .gl
#
# then on the GPU machine, from the repository root (carry .gpu and .gl):
#
#   utils/gpu_ggml_ops.sh <op> [params regex] [seconds per way (default 120)] [report dir]
#                         [ways (default "native m2 all")]
#
# (further ways, without the layer: cm1, ggml's own KHR path with GGML_VK_DISABLE_COOPMAT2=1;
# scalar, its non-cooperative shaders with GGML_VK_DISABLE_COOPMAT=1 too)
#
# prints, per way, ggml's "matrix cores" line and "<way> <op>: <passed> passed, <failed>
# failed, <n> not supported" (test-backend-ops' own verdicts, which compare the Vulkan backend
# with ggml's CPU backend); the logs are <report dir>/<way>.<op>.log. A way cut off by the time
# limit says so ("timed out": its counts are the cases it finished). Through the layer
# (coopspv.report_level info) the line also counts the pipelines the layer legalized and the
# errors it reported (the first three are shown). Exit status: 0 when no case failed any way, 1
# otherwise, 2 when something is missing.
#
# GGML_OPS_MODE=perf runs test-backend-ops' perf mode instead (its own cases of llama.cpp's
# sizes, which the params regex filters): per way the cases' "us/run", then a table of them
# side by side (<report dir>/perf.<op>.tsv).
set -u
cd "$(dirname "$0")/.." || exit 2
[ $# -ge 1 ] || { sed -n 2,30p "$0"; exit 2; }
OP=$1
PARAMS=${2:-}
SECONDS_PER_WAY=${3:-120}
DIR=${4:-${OUT:-gpu_ggml_ops}}
WAYS=${5:-native m2 all}
PKG=${GGML_PKG:-.gpu/ggml.tar.xz}
LAYER="$PWD/.gpu/layer"
[ -f "$PKG" ] || { echo "gpu_ggml_ops: no $PKG (utils/ggml_check.sh package)" >&2; exit 2; }
[ -f "$LAYER/libVkLayer_coopspv.so" ] || { echo "gpu_ggml_ops: no $LAYER (utils/prepare_gpu.sh)" >&2; exit 2; }
mkdir -p "$DIR"
UNPACKED=${TMPDIR:-/tmp}/gpu_ggml_ops
if [ ! -x "$UNPACKED/ggmlpkg/test-backend-ops" ]; then
  mkdir -p "$UNPACKED" && tar -xJf "$PKG" -C "$UNPACKED" || exit 2
fi
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
BIN=$UNPACKED/ggmlpkg/test-backend-ops
MODE=${GGML_OPS_MODE:-test}
args=("$MODE" -o "$OP" -b Vulkan0)
# The layer's messages at info level would split perf mode's lines (a case's name is printed
# before its pipelines are created).
level=info
[ "$MODE" = perf ] && level=error
[ -n "$PARAMS" ] && args+=(-p "$PARAMS")
failures=0
for way in $WAYS; do
  case $way in
    native) extra=() ;;
    cm1) extra=(GGML_VK_DISABLE_COOPMAT2=1) ;;  # ggml's own KHR (_cm1) path
    scalar) extra=(GGML_VK_DISABLE_COOPMAT=1 GGML_VK_DISABLE_COOPMAT2=1) ;;  # its plain shaders
    m2) extra=(VK_LAYER_PATH="$LAYER" VK_INSTANCE_LAYERS=VK_LAYER_coopspv
               VK_COOPSPV_REPORT_LEVEL=$level VK_COOPSPV_HIDE_NATIVE=VK_NV_cooperative_matrix2) ;;
    all) extra=(VK_LAYER_PATH="$LAYER" VK_INSTANCE_LAYERS=VK_LAYER_coopspv
                VK_COOPSPV_REPORT_LEVEL=$level VK_COOPSPV_HIDE_NATIVE=true) ;;
    *) echo "gpu_ggml_ops: unknown way '$way' (native, cm1, scalar, m2, all)" >&2; exit 2 ;;
  esac
  log=$DIR/$way.$OP.log
  env LD_LIBRARY_PATH="$UNPACKED/ggmlpkg/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "${extra[@]}" \
    timeout "$SECONDS_PER_WAY" "$BIN" "${args[@]}" >"$log" 2>&1
  rc=$?
  if [ "$MODE" = perf ]; then
    grep -m1 'matrix cores' "$log" | sed "s/^/$way: /"
    # "  OP(params):   N runs -   X us/run - ..." per case.
    sed -nE "s/^ *($OP\([^)]*\)): +[0-9]+ runs - +([0-9.]+) us\/run.*/\1\t\2/p" "$log" \
      >"$DIR/perf.$way.$OP.tsv"
    echo "$way $OP perf: $(wc -l <"$DIR/perf.$way.$OP.tsv") cases timed (exit $rc)"
    continue
  fi
  read -r passed failed < <(utils/ggml_counts.sh "$log")
  unsupported=$(grep -cE "^  $OP\(.*not supported" "$log")
  grep -m1 'matrix cores' "$log" | sed "s/^/$way: /"
  note=""
  [ "$rc" = 124 ] && note=", timed out after ${SECONDS_PER_WAY} s"
  [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$failed" = 0 ] && note=", exit $rc: $(tail -2 "$log" | tr '\n' ' ')"
  # Through the layer: how many pipelines it gave the driver legalized (its info messages).
  legalized=$(grep -c 'VK_LAYER_coopspv info: vkCreateComputePipelines: legalized' "$log")
  refused=$(grep -c 'VK_LAYER_coopspv error' "$log")
  [[ "${extra[*]}" == *VK_LAYER_PATH* ]] && note="; the layer legalized $legalized pipelines, reported $refused errors$note"
  echo "$way $OP: $passed passed, $failed failed, $unsupported not supported$note"
  [ "$refused" != 0 ] && grep -m3 'VK_LAYER_coopspv error' "$log" | cut -c1-300 | sed 's/^/    /'
  if [ "$failed" != 0 ] || { [ "$rc" != 0 ] && [ "$rc" != 124 ]; }; then
    grep -E "^  $OP\(" "$log" | grep FAIL | head -5 | sed 's/^/    /'
    failures=$((failures + 1))
  fi
done
if [ "$MODE" = perf ]; then  # case, then us/run per way.
  python3 - "$DIR" "$OP" $WAYS <<'PY' | tee "$DIR/perf.$OP.tsv"
import sys
d, op, ways = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = {}
for w in ways:
    for line in open("%s/perf.%s.%s.tsv" % (d, w, op)):
        case, us = line.rstrip("\n").split("\t")
        rows.setdefault(case, {})[w] = us
print("\t".join(["case"] + ["%s_us" % w for w in ways]))
for case, t in rows.items():
    print("\t".join([case] + [t.get(w, "-") for w in ways]))
PY
fi
exit $((failures != 0))
