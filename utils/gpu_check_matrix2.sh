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
#   utils/gpu_check_matrix2.sh [report dir]     # exit 0 when every run passed
set -u
cd "$(dirname "$0")/.." || exit 2
BIN="${COOPSPV_BIN:-.gpu/bin}"
DIR=${1:-${OUT:-gpu_check_matrix2}}
mkdir -p "$DIR"
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
failures=0
check() {  # name report [coopspv-run options...]
  local name=$1 report=$2
  shift 2
  if timeout 300 "$BIN/coopspv-run" --timeout-ms 120000 "$@" >"$DIR/$report" 2>&1; then
    echo "PASS $name: $(tail -1 "$DIR/$report")"
  else
    echo "FAIL $name (exit $?):"
    sed 's/^/    /' "$DIR/$report" | tail -15
    failures=$((failures + 1))
  fi
}
for script in test/run/lower_coop_matrix2/native/*.amber; do
  name=$(basename "$script" .amber)
  check "$name (native)" "$name.native.txt" "$script"
  check "$name (native vs --lower-coop-matrix2=32,h100)" "$name.khr.txt" \
    --passes "--lower-coop-matrix2=32,h100" "$script"
  check "$name (native vs --lower-coop-matrix2=32 --lower-coop-matrix=32)" "$name.plain.txt" \
    --passes "--lower-coop-matrix2=32 --lower-coop-matrix=32" "$script"
done
exit $((failures != 0))
