#!/bin/bash
# VK_LAYER_coopspv on a GPU that has the cooperative matrix extensions (the project's H100; issue
# 29), from the repository root, with what utils/prepare_gpu.sh puts in .gpu/ (bin/coopspv-run,
# bin/coopspv-as, bin/layer_client, layer/) and .gl/:
#
#   utils/gpu_check_layer.sh [report.txt]     # default: $OUT/gpu_check_layer.txt
#
# 1. Emulated against native: each test/run/native/khr_*.amber, cm2_*.amber, nv_*.amber and
#    coopvec_*.amber runs natively, then through the layer with coopspv.hide_native (the layer
#    hides the driver's VK_KHR_cooperative_matrix, VK_NV_cooperative_matrix2,
#    VK_NV_cooperative_matrix and VK_NV_cooperative_vector and emulates them); the line says
#    each run's exit status and whether the buffers the shaders wrote are equal (cmp of the
#    --dump-buffers files). Element-wise results whose placement over the invocations the
#    implementation chooses (khr_arith_funcs' first elements) differ by design, and so do the
#    buffers CONVERT_MATRIX writes in an optimal layout (the driver's is opaque, the layer's
#    row-major): those are left out of the cmp.
# 2. The validate mode's cost on a cache hit (utils/layer_cost.sh): every module of
#    test/data/corpus is created (vkCreateShaderModule and vkCreateComputePipelines, layer_client
#    --time, the median of 20; and vkCreateShaderModule alone, the median of 200; each the median
#    of 5 alternating rounds) without the
#    layer and through it (validation only, coopspv.emulate off, its cache directory filled by a
#    first run); per module the medians in microseconds and the differences, and the sums over
#    the modules the driver takes (the total's percentage is the issue's < 1%).
# Exit status: 0 when every run of part 1 passed both ways, 1 otherwise, 2 when something is
# missing.
set -u
cd "$(dirname "$0")/.."
REPORT="${1:-${OUT:-.}/gpu_check_layer.txt}"
BIN=.gpu/bin
LAYER="$PWD/.gpu/layer"
for f in "$BIN/coopspv-run" "$BIN/coopspv-as" "$BIN/layer_client" "$LAYER/libVkLayer_coopspv.so" \
  "$LAYER/VkLayer_coopspv.json"; do
  [ -e "$f" ] || { echo "gpu_check_layer: no $f (run utils/prepare_gpu.sh here first)" >&2; exit 2; }
done
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
export VK_LAYER_PATH="$LAYER"
WORK="$(mktemp -d)"
status=0
{
  echo "# VK_LAYER_coopspv on $("$BIN/coopspv-run" --list-devices | head -1)"
  echo "# 1. native vs emulated (coopspv.hide_native): exit codes, buffers"
  for script in test/run/native/khr_*.amber test/run/native/cm2_*.amber \
    test/run/native/nv_*.amber test/run/native/coopvec_*.amber; do
    name=$(basename "$script" .amber)
    timeout 300 "$BIN/coopspv-run" --timeout-ms 60000 --dump-buffers "$WORK/$name.native" \
      "$script" >"$WORK/$name.native.out" 2>&1
    native=$?
    timeout 300 env VK_INSTANCE_LAYERS=VK_LAYER_coopspv VK_COOPSPV_HIDE_NATIVE=1 \
      "$BIN/coopspv-run" --timeout-ms 60000 --dump-buffers "$WORK/$name.emulated" "$script" \
      >"$WORK/$name.emulated.out" 2>&1
    emulated=$?
    buffers=differ
    # The dumps without the buffers holding optimal-layout matrices (BUFFER <name>_result ...).
    opaque=" $(awk '$1 == "CONVERT_MATRIX" && / DST_LAYOUT (inferencing|training)_optimal/ {
      print $3 }' "$script" | tr '\n' ' ') "
    for run in native emulated; do
      awk -v opaque="$opaque" '/^BUFFER / {
          skip = index(opaque, " " substr($2, 1, length($2) - 7) " ") > 0 } !skip' \
        "$WORK/$name.$run" >"$WORK/$name.$run.compared" 2>/dev/null
    done
    cmp -s "$WORK/$name.native.compared" "$WORK/$name.emulated.compared" && buffers=equal
    echo "$name native=$native emulated=$emulated buffers=$buffers"
    if [ "$native" = 0 ] && [ "$emulated" != 0 ]; then
      status=1
      sed 's/^/    /' "$WORK/$name.emulated.out" | head -8
    fi
  done

  echo "# 2. creation on a cache hit, median microseconds (utils/layer_cost.sh): module without-layer with-layer difference, then vkCreateShaderModule alone the same way, then the layer's own time (coopspv.self_time)"
  modules=()
  for m in test/data/corpus/*.spvasm; do
    name=$(basename "$m" .spvasm)
    "$BIN/coopspv-as" "$m" -o "$WORK/$name.spv" 2>/dev/null && modules+=("$WORK/$name.spv")
  done
  utils/layer_cost.sh "$BIN/layer_client" "$LAYER" "$WORK/cost" --repeat 20 --rounds 5 "${modules[@]}" ||
    status=1
  exit "$status"
} 2>&1 | tee "$REPORT"
exit "${PIPESTATUS[0]}"
