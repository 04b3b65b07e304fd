#!/bin/sh
# Instructions per byte of a whole validator process, measured with callgrind (valgrind), for
# every module listed in a MANIFEST.tsv (columns: file, spirv_version, val_env), beside a
# reference validator when one is given. A developer's measuring tool, not a test.
#
#   utils/ir_per_byte.sh <dir with MANIFEST.tsv> [reference spirv-val]
#
# Uses the optimized build: run `bazel build -c opt //tools:coopspv-val` first.
set -eu
dir=$1
reference=${2:-}
val=$(dirname "$0")/../bazel-out/k8-opt/bin/tools/coopspv-val
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
ir_of() {
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$out" || true
  sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out"
  rm -f "$out"
}
printf '%-42s %8s %12s %8s' module bytes Ir Ir/byte
[ -n "$reference" ] && printf ' %12s %8s %6s' ref_Ir ref/byte ratio
printf '\n'
tail -n +2 "$dir/MANIFEST.tsv" | while IFS="$(printf '\t')" read -r file version env; do
  bytes=$(wc -c <"$dir/$file")
  ir=$(ir_of "$val" --target-env "$env" "$dir/$file")
  printf '%-42s %8d %12d %8d' "$file" "$bytes" "$ir" $((ir / bytes))
  if [ -n "$reference" ]; then
    rir=$(ir_of "$reference" --target-env "$env" "$dir/$file")
    printf ' %12d %8d %6s' "$rir" $((rir / bytes)) "$(echo "scale=1; $rir / $ir" | bc)"
  fi
  printf '\n'
done
