#!/bin/bash
# --lower-coop-matrix on the generated kernels of this folder (see generate.py):
# - the files here are what generate.py writes (no hand edits, no stale cases);
# - every kernel lowers for subgroup sizes 8, 16, 32 and 64, with the linear distribution and
#   with ",tile" (coop_matrix_distribution.h), and the result validates with no cooperative
#   matrix left;
# - every lowered kernel (S = 8, both distributions) runs on lavapipe with coopspv-run and every
#   element of D equals the product that generate.py computed, padding untouched.
set -u
DIR=test/run/lower_coop_matrix
AS=tools/coopspv-as
OPT=tools/coopspv-opt
VAL=tools/coopspv-val
RUN=${1:-tools/coopspv-run}
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
# Lavapipe only, by its ICD file: the run never depends on the machine's GPU. Under ASan, as in
# test/run/lavapipe_test.sh: the loader's and Mesa's allocations are suppressed, and the driver
# is preloaded so that LeakSanitizer can name their frames.
ICD=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
export VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD"
export LSAN_OPTIONS="suppressions=$PWD/test/run/lsan_suppressions.txt:print_suppressions=0"
LVP=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
if [ -x "$RUN" ] && ldd "$RUN" | grep -q libasan && [ -f "$LVP" ]; then
  RUN_ENV=(env LD_PRELOAD="$LVP" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
else
  RUN_ENV=()
fi
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# The committed files are the generator's output.
mkdir -p "$TMP/generated"
python3 "$DIR/generate.py" "$TMP/generated" || fail "generate.py"
for f in "$TMP"/generated/*.* "$TMP"/generated/CASES "$TMP"/generated/native/*; do
  rel=${f#"$TMP/generated/"}
  cmp -s "$f" "$DIR/$rel" || fail "$DIR/$rel differs from what generate.py writes: rerun it"
done

cases=$(cat "$DIR/CASES")
[ -n "$cases" ] || fail "no cases"
ran=0
for c in $cases; do
  "$AS" "$DIR/$c.spvasm" -o "$TMP/$c.native.spv" || { fail "$c: does not assemble"; continue; }
  for s in 8 16 32 64 8,tile 16,tile 32,tile 64,tile; do
    if ! "$OPT" --target-env vulkan1.3 --lower-coop-matrix=$s "$TMP/$c.native.spv" \
        -o "$TMP/$c.s$s.spv" 2>"$TMP/err"; then
      fail "$c: --lower-coop-matrix=$s: $(cat "$TMP/err")"
      continue
    fi
    "$VAL" --target-env vulkan1.3 "$TMP/$c.s$s.spv" >"$TMP/err" 2>&1 ||
      fail "$c: S=$s output does not validate: $(head -5 "$TMP/err")"
    tools/coopspv-dis "$TMP/$c.s$s.spv" | grep -q CooperativeMatrix &&
      fail "$c: S=$s output still holds a cooperative matrix"
  done
  if [ -x "$RUN" ] && [ -f "$ICD" ]; then
    for s in 8 8,tile; do
      cp "$TMP/$c.s$s.spv" "$TMP/$c.spv"
      cp "$DIR/$c.amber" "$TMP/$c.amber"
      if ! timeout 300 "${RUN_ENV[@]}" "$RUN" "$TMP/$c.amber" >"$TMP/out" 2>&1; then
        fail "$c: lowered kernel (S=$s) on lavapipe"
        sed 's/^/    /' "$TMP/out" | head -20 >&2
      fi
      ran=$((ran + 1))
    done
  fi
done
# lower_and_run LABEL NATIVE_SPVASM LOWERED_SPV SCRIPT "RUN FLAGS" OPT_FLAGS...: assembles the
# kernel, lowers it with OPT_FLAGS into LOWERED_SPV, validates that and runs SCRIPT (which loads
# it) on lavapipe.
lower_and_run() {
  local label=$1 native=$2 lowered=$3 script=$4 run_flags=$5
  shift 5
  if ! { "$AS" "$native" -o "$lowered.native.spv" &&
    "$OPT" --target-env vulkan1.3 "$@" "$lowered.native.spv" -o "$lowered" 2>"$TMP/err"; }; then
    fail "$label: $(cat "$TMP/err")"
    return
  fi
  "$VAL" --target-env vulkan1.3 "$lowered" >"$TMP/err" 2>&1 ||
    fail "$label: output does not validate: $(head -5 "$TMP/err")"
  # shellcheck disable=SC2086
  if ! timeout 300 "${RUN_ENV[@]}" "$RUN" $run_flags "$script" >"$TMP/out" 2>&1; then
    fail "$label: lowered kernel on lavapipe"
    sed 's/^/    /' "$TMP/out" | head -20 >&2
  fi
  ran=$((ran + 1))
}

if [ -x "$RUN" ] && [ -f "$ICD" ]; then
  # Stores through a wider memory scalar (f16 results through uint words, both layouts):
  # m16n32k8_half_half with its D buffer retyped; the invocation holding the first half of a
  # word fetches the other half (a shuffle) and writes the word. Row-major needs the generated
  # column-major expectation transposed.
  wide="$TMP/wide"
  mkdir -p "$wide"
  for layout in column row; do
    if [ $layout = column ]; then store='%u_1 %u_8'; else store='%u_0 %u_16'; fi
    sed -e 's/^OpDecorate %rt_d ArrayStride 2$/OpDecorate %rt_d ArrayStride 4/' \
      -e 's/^%rt_d = OpTypeRuntimeArray %half$/%rt_d = OpTypeRuntimeArray %uint/' \
      -e 's/^%pel_d = OpTypePointer StorageBuffer %half$/%pel_d = OpTypePointer StorageBuffer %uint/' \
      -e "s/^OpCooperativeMatrixStoreKHR %p_d %out %u_1 %u_16\$/OpCooperativeMatrixStoreKHR %p_d %out $store/" \
      "$DIR/m16n32k8_half_half.spvasm" >"$wide/$layout.spvasm"
    grep -q "OpCooperativeMatrixStoreKHR %p_d %out $store" "$wide/$layout.spvasm" ||
      fail "wide store: the kernel m16n32k8_half_half changed; update lower_test.sh"
    python3 "$DIR/transpose_expect.py" "$DIR/m16n32k8_half_half.amber" \
      "$wide/m16n32k8_half_half.amber" $layout || fail "wide store: transpose_expect.py"
    lower_and_run "wide store ($layout-major)" "$wide/$layout.spvasm" \
      "$wide/m16n32k8_half_half.spv" "$wide/m16n32k8_half_half.amber" "" --lower-coop-matrix=8
    # ",tile": the register tile goes to the linear distribution first (shuffles).
    lower_and_run "wide store ($layout-major, tile)" "$wide/$layout.spvasm" \
      "$wide/m16n32k8_half_half.spv" "$wide/m16n32k8_half_half.amber" "" \
      --lower-coop-matrix=8,tile
  done

  # Eight components in one memory scalar: m16n32k32_char_int with A (int8, column-major) read
  # through 64-bit words, split through 32-bit halves.
  w8="$TMP/w8"
  mkdir -p "$w8"
  sed -e 's/^OpCapability Int8$/OpCapability Int8\nOpCapability Int64/' \
    -e 's/^%uint = OpTypeInt 32 0$/%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0/' \
    -e 's/^OpDecorate %rt_a ArrayStride 1$/OpDecorate %rt_a ArrayStride 8/' \
    -e 's/^%rt_a = OpTypeRuntimeArray %char$/%rt_a = OpTypeRuntimeArray %ulong/' \
    -e 's/^%pel_a = OpTypePointer StorageBuffer %char$/%pel_a = OpTypePointer StorageBuffer %ulong/' \
    -e 's/^%a = OpCooperativeMatrixLoadKHR %mat_a %p_a %u_1 %u_16$/%a = OpCooperativeMatrixLoadKHR %mat_a %p_a %u_1 %u_2/' \
    "$DIR/m16n32k32_char_int.spvasm" >"$w8/k.spvasm"
  grep -q "%a = OpCooperativeMatrixLoadKHR %mat_a %p_a %u_1 %u_2" "$w8/k.spvasm" ||
    fail "ratio 8: the kernel m16n32k32_char_int changed; update lower_test.sh"
  sed 's/^DEVICE_FEATURE Float16Int8Features.shaderInt8$/&\nDEVICE_FEATURE shaderInt64/' \
    "$DIR/m16n32k32_char_int.amber" >"$w8/m16n32k32_char_int.amber"
  lower_and_run "ratio 8" "$w8/k.spvasm" "$w8/m16n32k32_char_int.spv" \
    "$w8/m16n32k32_char_int.amber" "" --lower-coop-matrix=8

  # Half components through uvec4 memory (vk_cooperative_matrix_perf's shared arrays):
  # m16n16k32_half_float with A (row-major, 32 halves a row) read through a v4uint array, stride 4.
  # With ",tile" each invocation loads its A rows as whole uvec4s and splits them.
  v4="$TMP/v4"
  mkdir -p "$v4"
  sed -e 's/^OpDecorate %rt_a ArrayStride 2$/OpDecorate %rt_a ArrayStride 16/' \
    -e 's/^%uint = OpTypeInt 32 0$/%uint = OpTypeInt 32 0\n%v4uint = OpTypeVector %uint 4\n%u_4 = OpConstant %uint 4/' \
    -e 's/^%rt_a = OpTypeRuntimeArray %half$/%rt_a = OpTypeRuntimeArray %v4uint/' \
    -e 's/^%pel_a = OpTypePointer StorageBuffer %half$/%pel_a = OpTypePointer StorageBuffer %v4uint/' \
    -e 's/^%a = OpCooperativeMatrixLoadKHR %mat_a %p_a %u_0 %u_32$/%a = OpCooperativeMatrixLoadKHR %mat_a %p_a %u_0 %u_4/' \
    "$DIR/m16n16k32_half_float.spvasm" >"$v4/k.spvasm"
  grep -q "%a = OpCooperativeMatrixLoadKHR %mat_a %p_a %u_0 %u_4" "$v4/k.spvasm" ||
    fail "uvec4: the kernel m16n16k32_half_float changed; update lower_test.sh"
  cp "$DIR/m16n16k32_half_float.amber" "$v4/"
  for s in 8 8,tile; do
    lower_and_run "uvec4 A (S=$s)" "$v4/k.spvasm" "$v4/m16n16k32_half_float.spv" \
      "$v4/m16n16k32_half_float.amber" "" --lower-coop-matrix=$s
  done
  tools/coopspv-dis "$v4/m16n16k32_half_float.spv" | grep -q "= OpLoad %v4uint" ||
    fail "uvec4 A (S=8,tile): no whole-uvec4 load"

  # The example GEMM through the pipeline of the H100 timing job, over 16 workgroups.
  gemm="$TMP/gemm256"
  sed -e "s#SPIRV-ASM FILE ../../../examples/tiled_gemm.spvasm#SPIRV-BINARY FILE gemm256.spv#" \
    -e '/VK_KHR_cooperative_matrix/d' -e '/CooperativeMatrixFeaturesKHR/d' \
    "$DIR/gemm256.amber" >"$gemm.amber"
  for s in 8 8,tile; do
    lower_and_run "gemm256: examples/tiled_gemm (S=$s)" examples/tiled_gemm.spvasm "$gemm.spv" \
      "$gemm.amber" "--timeout-ms 120000" --set-spec-const-default-value "0:128" \
      --freeze-spec-const --fold-spec-const --lower-coop-matrix=$s --eliminate-dead
  done
  # Its plain twin (what utils/lavapipe_gemm_time.sh times beside it).
  if ! timeout 300 "${RUN_ENV[@]}" "$RUN" "$DIR/gemm256_plain.amber" >"$TMP/out" 2>&1; then
    fail "gemm256_plain: on lavapipe"
    sed 's/^/    /' "$TMP/out" | head -20 >&2
  fi
fi
if [ "$ran" != 0 ]; then
  echo "ran $ran lowered kernels on lavapipe"
elif [ -x "$RUN" ]; then
  fail "$ICD is missing: install mesa-vulkan-drivers (utils/setup.sh)"
else
  echo "note: $RUN is not built: lowering and validation only (no run on lavapipe)"
fi
if [ "$failures" != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo PASS
