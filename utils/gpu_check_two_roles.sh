#!/bin/bash
# On a GPU with VK_NV_cooperative_matrix and VK_KHR_cooperative_matrix (the H100 / H200):
# test/run/legalize/nv_two_roles (one NV matrix value used as A and B, a multiply-add's result
# used as A) runs natively as written, and after --coop-matrix-nv-to-khr (the Use copies through
# the per-subgroup Workgroup scratch), for the smallest subgroup size 32 and for the default 1;
# every run must pass generate_two_roles.py's EXPECTs. From the repository root, after
# utils/prepare_gpu.sh:
#
#   utils/gpu_check_two_roles.sh            # exit 0 when every run passed
set -u
cd "$(dirname "$0")/.."
BIN="${COOPSPV_BIN:-.gpu/bin}"
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
TMP="$(mktemp -d)"
failures=0
c=nv_two_roles
"$BIN/coopspv-as" "test/run/legalize/$c.spvasm" -o "$TMP/nv.spv" || exit 2
"$BIN/coopspv-opt" --target-env vulkan1.3 --coop-matrix-nv-to-khr=32 "$TMP/nv.spv" \
  -o "$TMP/khr32.spv" || exit 2
"$BIN/coopspv-opt" --target-env vulkan1.3 --coop-matrix-nv-to-khr "$TMP/nv.spv" \
  -o "$TMP/khr1.spv" || exit 2
# The script of the lowered kernel with the native module and its extension instead.
script() {  # extension feature-structure module
  {
    echo "DEVICE_EXTENSION $1"
    echo "DEVICE_FEATURE $2.cooperativeMatrix"
    echo "DEVICE_FEATURE Vulkan12Features.vulkanMemoryModel"
    sed "s#SPIRV-BINARY FILE $c.spv#SPIRV-BINARY FILE $TMP/$3#" "test/run/legalize/$c.amber"
  } >"$TMP/$3.amber"
}
script VK_NV_cooperative_matrix CooperativeMatrixFeaturesNV nv.spv
script VK_KHR_cooperative_matrix CooperativeMatrixFeaturesKHR khr32.spv
script VK_KHR_cooperative_matrix CooperativeMatrixFeaturesKHR khr1.spv
for m in nv.spv khr32.spv khr1.spv; do
  if "$BIN/coopspv-run" "$TMP/$m.amber" >"$TMP/$m.out" 2>&1; then
    echo "PASS $c ($m): $(tail -1 "$TMP/$m.out")"
  else
    echo "FAIL $c ($m):"
    sed 's/^/    /' "$TMP/$m.out" | head -20
    failures=$((failures + 1))
  fi
done
exit $((failures != 0))
