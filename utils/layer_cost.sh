#!/bin/bash
# What VK_LAYER_coopspv's validate mode adds to shader module and compute pipeline creation on a
# cache hit (issue 29), on the device the Vulkan loader finds (lavapipe with
# test/run/lavapipe_env.sh; the H100 in utils/gpu_check_layer.sh):
#
#   utils/layer_cost.sh <layer_client> <layer dir> <work dir> [--repeat n] [--module-repeat m]
#                       [--rounds r] module.spv...
#
# Per module, layer_client --time --repeat n (default 20; m, default 200, for the module
# creations alone) runs without the layer and through it
# (validation only, coopspv.emulate off, its cache directory <work dir>/cache filled by a first
# run, so every timed creation is a hit), and prints
#   <module> <without> <with> <difference>  <module without> <module with> <module difference>
#   self <layer> (first <layer first>)
# the medians in microseconds of vkCreateShaderModule + vkCreateComputePipelines, then of
# vkCreateShaderModule alone (layer_client --modules-only: where the layer validates a module as
# created, without a driver's compilation between two creations to cool the caches); with
# --rounds r (default 1) each is the median of r alternating rounds without and through the
# layer; then the layer's own time in the two creations (coopspv.self_time: the driver's calls
# left out, so the driver's own drift between runs, tens of microseconds, does not blur it), the
# median per creation over the timed ones, and that of the process's first creation (the
# verdict read from the cache directory: an application's second run); and at the end
#   total <without> <with> <percent>  <module without> <module with> <module difference>
#   self <layer> <percent of without> (first <layer first> <percent of without>)
# over the modules the driver takes (a module whose pipeline the driver refuses counts in the
# module columns only). LAYER_SETTINGS (default "VK_COOPSPV_EMULATE=0") are the layer's
# settings for the runs through it: on lavapipe, VK_COOPSPV_EMULATE=1 makes the cooperative
# modules valid for the device the application sees (without it each is reported invalid on
# every creation, which is not a hit's cost). Exit status 1 when a module fails through the layer
# only.
set -u
CLIENT="$1" LAYER_DIR="$2" WORK="$3"
shift 3
repeat=20 module_repeat=200 rounds=1
while [ "${1:-}" = "--repeat" ] || [ "${1:-}" = "--module-repeat" ] || [ "${1:-}" = "--rounds" ]; do
  case $1 in
    --repeat) repeat="$2" ;;
    --module-repeat) module_repeat="$2" ;;
    *) rounds="$2" ;;
  esac
  shift 2
done
# The median of the non-empty arguments (empty when there is none).
median() {
  printf '%s\n' "$@" | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END {
    if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
export VK_LAYER_PATH="$LAYER_DIR"
mkdir -p "$WORK"
cache="$WORK/cache"
read -ra settings <<<"${LAYER_SETTINGS:-VK_COOPSPV_EMULATE=0}"
status=0
total_plain=0 total_layer=0 module_plain=0 module_layer=0 total_self=0 total_first=0
for spv in "$@"; do
  name=$(basename "$spv")
  taken=1 layer_status=0
  env VK_INSTANCE_LAYERS=VK_LAYER_coopspv "${settings[@]}" VK_COOPSPV_CACHE_DIR="$cache" \
    "$CLIENT" "$spv" >/dev/null 2>&1
  # Rounds without and through the layer, alternating, each side's median over the rounds: the
  # driver's own creation time drifts between processes by more than the layer's cost.
  plains=() layers=() plain_ms=() layer_ms=() selfs=()
  for ((round = 0; round < rounds; ++round)); do
    env -u VK_INSTANCE_LAYERS "$CLIENT" --time --repeat "$repeat" "$spv" >"$WORK/plain.out" 2>&1 ||
      taken=0
    plains+=("$(sed -n "s/^TIME $name //p" "$WORK/plain.out")")
    plain_ms+=("$(env -u VK_INSTANCE_LAYERS "$CLIENT" --modules-only --time --repeat \
      "$module_repeat" "$spv" 2>/dev/null | sed -n "s/^TIME_MODULE $name //p")")
    env VK_INSTANCE_LAYERS=VK_LAYER_coopspv "${settings[@]}" VK_COOPSPV_CACHE_DIR="$cache" \
      VK_COOPSPV_SELF_TIME=1 "$CLIENT" --time --repeat "$repeat" "$spv" >"$WORK/layer.out" \
      2>"$WORK/layer.err" || layer_status=1
    layers+=("$(sed -n "s/^TIME $name //p" "$WORK/layer.out")")
    # The layer's own time (coopspv.self_time): per creation, the median of the module's and of
    # the pipeline's, and the first of each (the cache directory's hit).
    selfs+=("$(sed -n 's/.*vkCreateShaderModule .*first \([0-9.]*\) us, median \([0-9.]*\) us; vkCreateComputePipelines .*first \([0-9.]*\) us, median \([0-9.]*\) us.*/\2 \4 \1 \3/p' "$WORK/layer.err" | head -1)")
    layer_ms+=("$(env VK_INSTANCE_LAYERS=VK_LAYER_coopspv "${settings[@]}" \
      VK_COOPSPV_CACHE_DIR="$cache" "$CLIENT" --modules-only --time --repeat "$module_repeat" \
      "$spv" 2>/dev/null | sed -n "s/^TIME_MODULE $name //p")")
  done
  plain=$(median "${plains[@]}") layer=$(median "${layers[@]}")
  # Each round's self time: module + pipeline medians; the median over the rounds, and the last
  # round's first creation.
  self_list=()
  for s in "${selfs[@]}"; do
    [ -n "$s" ] && self_list+=("$(awk -v s="$s" 'BEGIN { split(s, v, " "); print v[1] + v[2] }')")
  done
  self=$(median "${self_list[@]}")
  self=${self:-0}
  self_first=$(printf '%s\n' "${selfs[@]}" | awk 'NF == 4 { f = $3 + $4 } END { print f + 0 }')
  plain_m=$(median "${plain_ms[@]}") layer_m=$(median "${layer_ms[@]}")
  # TIME_MODULE is missing from an older layer_client: 0.
  plain_m=${plain_m:-0} layer_m=${layer_m:-0}
  if [ "$taken" = 0 ]; then
    # The driver refuses the pipeline (lavapipe and cooperative matrices): the module's creation
    # still counts.
    awk -v n="$name" -v pm="$plain_m" -v lm="$layer_m" -v s="$self" -v f="$self_first" \
      'BEGIN { printf "%s: the driver does not take it  %s %s %+.2f  self %.3f (first %.1f)\n", n, pm, lm, lm - pm, s, f }'
    module_plain=$(awk "BEGIN { print $module_plain + $plain_m }")
    module_layer=$(awk "BEGIN { print $module_layer + $layer_m }")
    continue
  fi
  [ "$layer_status" = 0 ] && [ -n "$layer" ] && [ -n "$plain" ] ||
    { echo "$name: fails through the layer"; status=1; continue; }
  awk -v n="$name" -v p="$plain" -v l="$layer" -v pm="$plain_m" -v lm="$layer_m" -v s="$self" \
    -v f="$self_first" \
    'BEGIN { printf "%s %s %s %+.1f  %s %s %+.2f  self %.3f (first %.1f)\n", n, p, l, l - p, pm, lm, lm - pm, s, f }'
  total_self=$(awk "BEGIN { print $total_self + $self }")
  total_first=$(awk "BEGIN { print $total_first + $self_first }")
  total_plain=$(awk "BEGIN { print $total_plain + $plain }")
  total_layer=$(awk "BEGIN { print $total_layer + $layer }")
  module_plain=$(awk "BEGIN { print $module_plain + $plain_m }")
  module_layer=$(awk "BEGIN { print $module_layer + $layer_m }")
done
awk -v p="$total_plain" -v l="$total_layer" -v pm="$module_plain" -v lm="$module_layer" \
  -v s="$total_self" -v f="$total_first" \
  'BEGIN { printf "total %s %s %+.2f%%  %s %s %+.2f  self %.3f %.3f%% (first %.1f %.2f%%)\n", p, l, (p > 0 ? 100 * (l - p) / p : 0), pm, lm, lm - pm, s, (p > 0 ? 100 * s / p : 0), f, (p > 0 ? 100 * f / p : 0) }'
exit "$status"
