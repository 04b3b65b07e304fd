#!/bin/bash
# Runs AmberScript tests written for VK_NV_cooperative_vector with their shader lowered: the
# SPIRV-ASM of `SHADER compute kernel` goes through coopspv-as, coopspv-opt
# --lower-coop-vector<features> (the features from the script's "# lower:" line) and coopspv-dis,
# and the lines that ask for VK_NV_cooperative_vector (DEVICE_EXTENSION / DEVICE_FEATURE naming
# it) are dropped. The lowered script then runs on whatever device coopspv-run picks (lavapipe
# when VK_DRIVER_FILES names its ICD file) and must pass every EXPECT.
#
# Usage: run_lowered.sh [-k] <bin dir with coopspv-run/-as/-opt/-dis> <script.amber>...
#   -k   keep going after a failure; the exit status still says whether one failed.
# Writes the lowered scripts to $TEST_TMPDIR (or a temporary folder) and prints their paths.
# Also sourced by utils/gpu_check_coopvec.sh for lower_script.
set -u

# lower_script <bin dir> <script> <out script>: writes the lowered script; 0 on success.
lower_script() {
  local bin=$1 script=$2 out=$3
  local tmp="${out%.amber}"
  local start end features
  start=$(grep -n '^SHADER compute kernel SPIRV-ASM$' "$script" | head -1 | cut -d: -f1)
  [ -n "$start" ] || { echo "$script: no 'SHADER compute kernel SPIRV-ASM'" >&2; return 1; }
  end=$(awk -v s="$start" 'NR > s && /^END$/ { print NR; exit }' "$script")
  [ -n "$end" ] || { echo "$script: the shader has no END" >&2; return 1; }
  features=$(sed -n 's/^# lower: --lower-coop-vector//p' "$script" | head -1)
  sed -n "$((start + 1)),$((end - 1))p" "$script" >"$tmp.native.spvasm"
  "$bin/coopspv-as" "$tmp.native.spvasm" -o "$tmp.native.spv" || return 1
  "$bin/coopspv-opt" --target-env vulkan1.3 "--lower-coop-vector$features" \
    "$tmp.native.spv" -o "$tmp.lowered.spv" || return 1
  "$bin/coopspv-dis" "$tmp.lowered.spv" -o "$tmp.lowered.spvasm" || return 1
  {
    sed -n "1,${start}p" "$script" | grep -v -e 'CooperativeVector' -e 'VK_NV_cooperative_vector'
    cat "$tmp.lowered.spvasm"
    sed -n "${end},\$p" "$script"
  } >"$out"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  keep_going=0
  if [ "${1:-}" = "-k" ]; then
    keep_going=1
    shift
  fi
  [ $# -ge 2 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
  bin=$1
  shift
  out_dir="${TEST_TMPDIR:-$(mktemp -d)}"
  failures=0
  for script in "$@"; do
    name=$(basename "$script" .amber)
    if ! lower_script "$bin" "$script" "$out_dir/$name.lowered.amber"; then
      echo "FAIL: $script: lowering failed" >&2
      failures=$((failures + 1))
    elif ! timeout 600 "$bin/coopspv-run" --timeout-ms 300000 "$out_dir/$name.lowered.amber"; then
      echo "FAIL: $script (lowered: $out_dir/$name.lowered.amber)" >&2
      failures=$((failures + 1))
    fi
    [ "$failures" -eq 0 ] || [ "$keep_going" -eq 1 ] || break
  done
  [ "$failures" -eq 0 ] || { echo "$failures lowered script(s) failed" >&2; exit 1; }
  echo "all lowered cooperative-vector scripts passed"
fi
