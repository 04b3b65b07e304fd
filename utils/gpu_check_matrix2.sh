#!/bin/bash
# On a GPU with VK_NV_cooperative_matrix2 (the H100 / H200; run by hand, never by the tests):
# every test/run/lower_coop_matrix2/native/*.amber runs as written, then through coopspv-run
# --passes twice, once onto plain VK_KHR_cooperative_matrix (--lower-coop-matrix2=32,h100: only
# the Subgroup shapes the H100 / H200 lists, larger matrices as grids of those tiles, see
# source/opt/tile_coop_matrix.cc) and once onto no cooperative extension at all
# (--lower-coop-matrix2=32 --lower-coop-matrix=32); each
# --passes run checks the EXPECTs of both modules and compares every buffer the shaders wrote.
# From the repository root, after utils/prepare_gpu.sh:
#
#   utils/gpu_check_matrix2.sh [report dir]     # exit 0 when no run failed
#
# A script whose module the device does not support as written (coopspv-run validates every module
# against the device first) runs lowered alone; a lowered form the device cannot run either is
# reported UNSUPPORTED (with the shape the pass refuses), not failed.
set -u
cd "$(dirname "$0")/.." || exit 2
BIN="${COOPSPV_BIN:-.gpu/bin}"
DIR=${1:-${OUT:-gpu_check_matrix2}}
mkdir -p "$DIR"
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
failures=0
native_unsupported=0
check() {  # name report [coopspv-run options...]
  local name=$1 report=$2
  shift 2
  timeout 300 "$BIN/coopspv-run" --timeout-ms 120000 "$@" >"$DIR/$report" 2>&1
  local code=$?
  if [ "$code" = 0 ]; then
    echo "PASS $name: $(tail -1 "$DIR/$report")"
  elif [ ${#only[@]} -gt 0 ] && grep -q "no cooperative matrix shape of the device lists" "$DIR/$report"; then
    # A lowering that still names a shape the device lists in no way (it lowers such
    # matrices to plain code, so only a failure of that step can): no KHR form to run; the
    # plain form must run.
    echo "UNSUPPORTED $name: $(grep -m1 -o -E '%[0-9]+ = Op(TypeCooperativeMatrix|CooperativeMatrixMulAdd)KHR: [^(]*' "$DIR/$report" | cut -c1-160)"
  else
    echo "FAIL $name (exit $code):"
    sed 's/^/    /' "$DIR/$report" | tail -15
    failures=$((failures + 1))
  fi
}
for script in test/run/lower_coop_matrix2/native/*.amber; do
  name=$(basename "$script" .amber)
  # coopspv-run validates every module against the device first: a script whose module the
  # device does not support as written (a Subgroup shape the H100 does not list) runs lowered
  # alone (--passes-only), and is counted apart.
  if timeout 300 "$BIN/coopspv-run" --timeout-ms 120000 "$script" >"$DIR/$name.native.txt" 2>&1; then
    echo "PASS $name (native): $(tail -1 "$DIR/$name.native.txt")"
    only=()
  elif grep -q "is not valid for" "$DIR/$name.native.txt"; then
    echo "NATIVE-UNSUPPORTED $name: $(grep -m1 'error: device\.' "$DIR/$name.native.txt" | sed 's/^ *//' | cut -c1-160)"
    native_unsupported=$((native_unsupported + 1))
    only=(--passes-only)
  else
    echo "FAIL $name (native):"
    sed 's/^/    /' "$DIR/$name.native.txt" | tail -15
    failures=$((failures + 1))
    only=()
  fi
  check "$name (native vs --lower-coop-matrix2=32,h100)" "$name.khr.txt" "${only[@]}" \
    --passes "--lower-coop-matrix2=32,h100" "$script"
  check "$name (native vs --lower-coop-matrix2=32 --lower-coop-matrix=32)" "$name.plain.txt" \
    "${only[@]}" --passes "--lower-coop-matrix2=32 --lower-coop-matrix=32" "$script"
done
echo "gpu_check_matrix2: $failures failures; $native_unsupported scripts ran lowered only (the device does not support them as written)"
exit $((failures != 0))
