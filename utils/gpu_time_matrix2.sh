#!/bin/bash
# On a GPU with VK_NV_cooperative_matrix2 (the H100 / H200; run by hand, never by the tests):
# times every RUN of test/run/lower_coop_matrix2/native/*.amber and of the matrix2 scripts of
# test/run/native/ as written and after the passes, onto plain VK_KHR_cooperative_matrix with the
# H100's shape list (--lower-coop-matrix2=32,h100) and onto no cooperative extension at all
# (--lower-coop-matrix2=32 --lower-coop-matrix=32); each run also compares every buffer.
# From the repository root, after utils/prepare_gpu.sh:
#
#   utils/gpu_time_matrix2.sh [timed runs [name pattern]]   # one line per RUN and variant
set -u
cd "$(dirname "$0")/.." || exit 2
BIN="${COOPSPV_BIN:-.gpu/bin}"
RUNS=${1:-20}
PATTERN=${2:-*}
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
failures=0
for script in test/run/lower_coop_matrix2/native/*.amber test/run/native/cm2_*.amber; do
  name=$(basename "$script" .amber)
  # shellcheck disable=SC2053
  [[ $name == $PATTERN ]] || continue
  # The corpus scripts size their matrices with specialization constants: freeze them first.
  pre=""
  case "$script" in test/run/native/*) pre="--freeze-spec-const --fold-spec-const " ;; esac
  for passes in "${pre}--lower-coop-matrix2=32,h100" "${pre}--lower-coop-matrix2=32 --lower-coop-matrix=32"; do
    echo "== $name: native vs $passes"
    out=$(timeout 300 "$BIN/coopspv-run" --timeout-ms 120000 --timing="$RUNS" --warmup 5 \
      --passes "$passes" "$script" 2>&1)
    rc=$?
    grep -E "^(RUN|PASS|FAIL|error)" <<<"$out"
    [ $rc = 0 ] || { echo "exit $rc"; failures=$((failures + 1)); }
  done
done
exit $((failures != 0))
