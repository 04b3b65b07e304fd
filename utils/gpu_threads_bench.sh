#!/bin/bash
# Validation throughput from 1 to 16 threads on the 16-core GPU host (modules/s of the corpus,
# test/bench/validate_threads.cc). That host has no Bazel and no libbenchmark, so the binary is
# built here, linked statically, and travels in the ignored folder .gpu/ like coopspv-run:
#
#   utils/gpu_threads_bench.sh prepare         # here (Debian 12): bazel build, copy to .gpu/bin
#   utils/gpu_threads_bench.sh [MAX_THREADS]   # there, from the repository root (default 16)
#
# The second form writes $OUT/threads_bench.txt (else ./threads_bench.txt): the table for
# shared contexts, then for a context set per thread. Environment: SECONDS_PER_POINT (default 2).
set -eu
cd "$(dirname "$0")/.."
BIN=.gpu/bin/validate_threads

if [ "${1:-}" = prepare ]; then
  bazel build -c opt //test/bench:validate_threads
  mkdir -p .gpu/bin
  cp -f bazel-bin/test/bench/validate_threads "$BIN"
  chmod u+w "$BIN"
  strip "$BIN" 2>/dev/null || true
  ls -l "$BIN"
  echo "gpu_threads_bench: ready; on the GPU machine run: utils/gpu_threads_bench.sh 16"
  exit 0
fi

MAX="${1:-16}"
SECS="${SECONDS_PER_POINT:-2}"
REPORT="${OUT:-.}/threads_bench.txt"
if [ ! -x "$BIN" ]; then
  echo "gpu_threads_bench: no $BIN (run utils/gpu_threads_bench.sh prepare first)" >&2
  exit 2
fi
{
  echo "# $(uname -srm); $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  "$BIN" --max-threads="$MAX" --seconds="$SECS" test/data/corpus
  "$BIN" --max-threads="$MAX" --seconds="$SECS" --separate-contexts test/data/corpus
} | tee "$REPORT"
echo "gpu_threads_bench: table in $REPORT" >&2
