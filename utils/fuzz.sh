#!/bin/bash
# Builds the libFuzzer targets of test/fuzz/ with clang++-14 (AddressSanitizer and
# UndefinedBehaviorSanitizer) and runs each for a number of seconds, one after the other.
#
#   utils/fuzz.sh [seconds] [target...]
#
#   seconds  how long each target runs (default 60; 0 only builds)
#   target   names such as reader_fuzz (default: every test/fuzz/*_fuzz.cc)
#
# A target is one file, test/fuzz/<name>_fuzz.cc, defining LLVMFuzzerTestOneInput; it may
# include any header under source/ (every source/*/*.cc without a main() is linked in). Its seed
# corpus is test/fuzz/corpus/<name>_fuzz/ (read only); what the fuzzer finds goes to
# out/fuzz/corpus/<name>_fuzz/, and crash, leak and timeout inputs to
# out/fuzz/artifacts/<name>_fuzz/. Lines of the target's source starting "// fuzz-flags:" add
# libFuzzer flags, lines starting "// fuzz-corpus:" add seed directories (e.g. another target's
# corpus); a test/fuzz/<name>_fuzz.dict is passed as -dict.
#
# Environment: CXX (clang++-14), FUZZ_OUT (out/fuzz), FUZZ_TIMEOUT (seconds one input may take
# before it counts as a hang, 25), FUZZ_RSS_MB (2560), FUZZ_JOBS (parallel compiles, 2).
# The fuzzers run with nice -n 19 and one process at a time. To replay an input:
#   out/fuzz/bin/<name>_fuzz path/to/input
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if [ $# -gt 0 ]; then shift; fi
case "$seconds" in
  '' | *[!0-9]*)
    echo "usage: utils/fuzz.sh [seconds] [target...]" >&2
    exit 2
    ;;
esac

CXX=${CXX:-clang++-14}
OUT=${FUZZ_OUT:-out/fuzz}
TIMEOUT=${FUZZ_TIMEOUT:-25}
RSS_MB=${FUZZ_RSS_MB:-2560}
JOBS=${FUZZ_JOBS:-2}
CXXFLAGS=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
  -fno-sanitize-recover=all -I. -I"$OUT/gen" -Wall -Wno-unused-parameter)

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for f in test/fuzz/*_fuzz.cc; do
    targets+=("$(basename "$f" .cc)")
  done
fi
for t in "${targets[@]}"; do
  if [ ! -f "test/fuzz/$t.cc" ]; then
    echo "utils/fuzz.sh: no such target: test/fuzz/$t.cc" >&2
    exit 2
  fi
done

if ! command -v "$CXX" >/dev/null 2>&1 ||
  [ ! -f "$("$CXX" -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-x86_64.a" ]; then
  echo "utils/fuzz.sh: needs $CXX with libFuzzer: apt-get install clang-14 libclang-rt-14-dev" >&2
  exit 2
fi

mkdir -p "$OUT/gen/source/grammar" "$OUT/obj" "$OUT/bin" "$OUT/logs"
# Other compiler or flags: start the objects afresh.
stamp="$CXX ${CXXFLAGS[*]}"
if [ "$(cat "$OUT/flags" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$OUT/obj" "$OUT/bin" "$OUT/libcoopspv_fuzz.a"
  mkdir -p "$OUT/obj" "$OUT/bin"
  echo "$stamp" >"$OUT/flags"
fi

# (a) The generated grammar tables, copied out of bazel-bin so that other Bazel builds switching
# the bazel-bin link (e.g. --config=asan) cannot change them under a compile.
# Likewise the built-in device profiles (test/data/profiles/ as a source file).
bazel build //source/grammar:generate_tables //source/profile:builtin_profiles_cc >&2
bin_dir=$(bazel info bazel-bin 2>/dev/null)
mkdir -p "$OUT/gen/source/profile"
for f in grammar/grammar_generated.h grammar/grammar_tables.inc profile/builtin_profiles.cc; do
  if ! cmp -s "$bin_dir/source/$f" "$OUT/gen/source/$f"; then
    cp "$bin_dir/source/$f" "$OUT/gen/source/$f"
  fi
done

# (b) The library: every source/*/*.cc that has no main(), compiled when it or a header it
# includes changed (dependencies from -MMD).
stale() {  # object, dependency file
  local obj=$1 dep=$2 f
  [ -f "$obj" ] && [ -f "$dep" ] || return 0
  for f in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$dep"); do
    [ -e "$f" ] && [ ! "$f" -nt "$obj" ] || return 0
  done
  return 1
}

compile() {  # source, object
  mkdir -p "$(dirname "$2")"
  echo "  compile $1" >&2
  nice -n 19 "$CXX" "${CXXFLAGS[@]}" -MMD -MF "${2%.o}.d" -c "$1" -o "$2"
}

objects=()
pids=()
for src in source/*/*.cc "$OUT/gen/source/profile/builtin_profiles.cc"; do
  if grep -q '^int main(' "$src"; then continue; fi
  obj="$OUT/obj/${src%.cc}.o"
  objects+=("$obj")
  if stale "$obj" "${obj%.o}.d"; then
    compile "$src" "$obj" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$JOBS" ]; then
      wait "${pids[0]}"
      pids=("${pids[@]:1}")
    fi
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
library="$OUT/libcoopspv_fuzz.a"
rebuild_library=0
[ -f "$library" ] || rebuild_library=1
# A source file added or removed changes the member list.
printf '%s\n' "${objects[@]}" >"$OUT/objects.new"
cmp -s "$OUT/objects.new" "$OUT/objects" || rebuild_library=1
mv "$OUT/objects.new" "$OUT/objects"
for obj in "${objects[@]}"; do
  if [ "$obj" -nt "$library" ]; then rebuild_library=1; fi
done
if [ $rebuild_library = 1 ]; then
  rm -f "$library"
  ar rcs "$library" "${objects[@]}"
fi

for t in "${targets[@]}"; do
  obj="$OUT/obj/test/fuzz/$t.o"
  if stale "$obj" "${obj%.o}.d"; then compile "test/fuzz/$t.cc" "$obj"; fi
  if [ ! -f "$OUT/bin/$t" ] || [ "$obj" -nt "$OUT/bin/$t" ] || [ "$library" -nt "$OUT/bin/$t" ]; then
    echo "  link $t" >&2
    nice -n 19 "$CXX" "${CXXFLAGS[@]}" "$obj" "$library" -o "$OUT/bin/$t"
  fi
done
[ "$seconds" = 0 ] && exit 0

# (c) Run each target for `seconds`, one process at a time.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
summary=()
failed=0
for t in "${targets[@]}"; do
  mkdir -p "$OUT/corpus/$t" "$OUT/artifacts/$t"
  flags=(-max_total_time="$seconds" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB"
    -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$t/")
  [ -f "test/fuzz/$t.dict" ] && flags+=(-dict="test/fuzz/$t.dict")
  # shellcheck disable=SC2207
  flags+=($(sed -n 's|^// fuzz-flags:||p' "test/fuzz/$t.cc"))
  seeds=()
  for d in "test/fuzz/corpus/$t" $(sed -n 's|^// fuzz-corpus:||p' "test/fuzz/$t.cc"); do
    if [ -d "$d" ]; then seeds+=("$d"); fi
  done
  log="$OUT/logs/$t.log"
  echo "== $t: ${seconds}s, log in $log" >&2
  start=$(date +%s)
  status=0
  nice -n 19 "$OUT/bin/$t" "${flags[@]}" "$OUT/corpus/$t" "${seeds[@]}" >"$log" 2>&1 ||
    status=$?
  elapsed=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  corpus=$(find "$OUT/corpus/$t" -type f | wc -l)
  if [ $status = 0 ]; then
    result=ok
  else
    result="FAILED (exit $status): $(grep -m 1 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*fuzz invariant failed|ALARM|artifact_prefix)' "$log" || true)"
    grep -E 'Test unit written to' "$log" >&2 || true
    failed=1
  fi
  summary+=("$(printf '%-18s %6ss %12s execs  %5s corpus files  %s' "$t" "$elapsed" "${execs:-?}" "$corpus" "$result")")
done
echo "== summary (utils/fuzz.sh $seconds ${targets[*]})"
for line in "${summary[@]}"; do echo "$line"; done
exit $failed
