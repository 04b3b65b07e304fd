#!/bin/bash
# On a GPU with both VK_NV_cooperative_matrix and VK_KHR_cooperative_matrix (the H100): every
# AmberScript test of an SPV_NV_cooperative_matrix module runs as written and after
# --coop-matrix-nv-to-khr (coopspv-run --passes), and the two runs must pass their EXPECTs and
# write the same buffers. The scripts are copied with the KHR extension and features (and the
# Vulkan memory model the KHR module declares) added, and their FILE paths made absolute.
# From the repository root, after utils/prepare_gpu.sh:
#
#   utils/gpu_check_legalize.sh            # exit 0 when every script passed
#
# Environment: COOPSPV_RUN (default .gpu/bin/coopspv-run), GPU_DEVICE (a --device value).
set -u
cd "$(dirname "$0")/.."
RUN="${COOPSPV_RUN:-.gpu/bin/coopspv-run}"
if [ ! -x "$RUN" ]; then
  echo "gpu_check_legalize: no coopspv-run at $RUN (run utils/prepare_gpu.sh first)" >&2
  exit 2
fi
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
DEVICE_ARGS=()
[ -n "${GPU_DEVICE:-}" ] && DEVICE_ARGS=(--device "$GPU_DEVICE")
TMP="$(mktemp -d)"
failures=0
count=0
for script in test/run/native/nv_*.amber test/run/lower_coop_matrix/native/nv_*.amber; do
  [ -f "$script" ] || continue
  dir="$(cd "$(dirname "$script")" && pwd)"
  out="$TMP/$(basename "$script")"
  {
    echo "DEVICE_EXTENSION VK_KHR_cooperative_matrix"
    echo "DEVICE_FEATURE CooperativeMatrixFeaturesKHR.cooperativeMatrix"
    grep -q "Vulkan12Features.vulkanMemoryModel" "$script" ||
      echo "DEVICE_FEATURE Vulkan12Features.vulkanMemoryModel"
    sed -E "s#(SPIRV-(ASM|BINARY) FILE )([^/][^ ]*)#\1$dir/\3#" "$script"
  } >"$out"
  count=$((count + 1))
  if "$RUN" "${DEVICE_ARGS[@]}" --json --passes "--coop-matrix-nv-to-khr" "$out" \
      >"$out.json" 2>"$out.err"; then
    echo "PASS $script (as written and through --coop-matrix-nv-to-khr, buffers equal)"
  else
    echo "FAIL $script: $(head -5 "$out.err")"
    failures=$((failures + 1))
  fi
done
echo "$count scripts, $failures failed"
[ "$failures" = 0 ]
