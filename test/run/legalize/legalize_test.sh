#!/bin/bash
# The legalization passes end to end (coopspv-opt, coopspv-val, and coopspv-run on lavapipe):
# - --coop-matrix-nv-to-khr on nv_two_roles (one value as A and B, a result as A): copies
#   through Workgroup memory; lowered, it runs on lavapipe with generate_two_roles.py's products;
# - --coop-matrix-nv-to-khr on the generated NV kernel of test/run/lower_coop_matrix: the KHR
#   module validates with no NV left, and lowered (--lower-coop-matrix=8) it runs on lavapipe
#   and gives exactly the products generate.py computed;
# - the corpus NV modules convert and validate for their environments; lowered after the
#   conversion, the legacy kernel writes the same buffers on lavapipe as lowered directly;
# - --strip-decode-vector on the corpus decode-vector module validates with no DecodeVectorFunc;
# - --time-report names each pass with its instruction counts;
# - --legalize-for-device=lavapipe on small_floats (bfloat16 / float8 conversions): run on
#   lavapipe through --lower-small-floats, against generate_small_floats.py's exact roundings;
# - --legalize-for-device=lavapipe on long_vector (SPV_EXT_long_vector): lowered to arrays, run.
set -u
AS=tools/coopspv-as
OPT=tools/coopspv-opt
VAL=tools/coopspv-val
DIS=tools/coopspv-dis
RUN=tools/coopspv-run
CORPUS=test/data/corpus
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
ICD=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
export VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD"
export LSAN_OPTIONS="suppressions=$PWD/test/run/lsan_suppressions.txt:print_suppressions=0"
LVP=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
if ldd "$RUN" | grep -q libasan && [ -f "$LVP" ]; then
  RUN_ENV=(env LD_PRELOAD="$LVP" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
else
  RUN_ENV=()
fi
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
if [ ! -f "$ICD" ]; then
  echo "FAIL: $ICD is missing: install mesa-vulkan-drivers (utils/setup.sh)" >&2
  exit 1
fi

# convert_lower_run <dir> <kernel> <--coop-matrix-nv-to-khr flag> <pattern> <count> <what>:
# the NV kernel converted, validated (no NV left, <count> lines of the KHR disassembly matching
# <pattern>), lowered for lavapipe's subgroups of 8 and run with its script's EXPECTs.
convert_lower_run() {
  local D=$1 c=$2 flag=$3 pattern=$4 count=$5 what=$6
  "$AS" "$D/$c.spvasm" -o "$TMP/$c.nv.spv" || { fail "$c: does not assemble"; return; }
  "$OPT" --target-env vulkan1.3 "$flag" "$TMP/$c.nv.spv" -o "$TMP/$c.khr.spv" 2>"$TMP/err" ||
    { fail "$c: $flag: $(cat "$TMP/err")"; return; }
  "$VAL" --target-env vulkan1.3 "$TMP/$c.khr.spv" >"$TMP/err" 2>&1 ||
    fail "$c: the KHR module does not validate: $(head -5 "$TMP/err")"
  "$DIS" "$TMP/$c.khr.spv" >"$TMP/$c.khr.txt"
  grep -q "CooperativeMatrixNV\|SPV_NV_cooperative_matrix" "$TMP/$c.khr.txt" &&
    fail "$c: NV left after $flag"
  [ "$(grep -c "$pattern" "$TMP/$c.khr.txt")" = "$count" ] || fail "$c: expected $what"
  "$OPT" --target-env vulkan1.3 --lower-coop-matrix=8 "$TMP/$c.khr.spv" -o "$TMP/$c.spv" ||
    fail "$c: the KHR module does not lower"
  cp "$D/$c.amber" "$TMP/$c.amber"
  if ! timeout 300 "${RUN_ENV[@]}" "$RUN" "$TMP/$c.amber" >"$TMP/out" 2>&1; then
    fail "$c: converted and lowered kernel on lavapipe"
    sed 's/^/    /' "$TMP/out" | head -20 >&2
  fi
}

# The generated NV kernel: converted, lowered, run against generate.py's products.
convert_lower_run test/run/lower_coop_matrix nv_m16n16k8_half_float --coop-matrix-nv-to-khr \
  "OpTypeCooperativeMatrixKHR" 3 "3 KHR matrix types (A, B, accumulator)"
# One NV value in two roles (A and B; a multiply-add's result as A): converted with copies
# through a per-subgroup Workgroup scratch (lavapipe's subgroups are 8 wide), lowered, run
# against generate_two_roles.py's products.
convert_lower_run test/run/legalize nv_two_roles --coop-matrix-nv-to-khr=8 "OpControlBarrier" 6 \
  "3 copies (B twice, A once), each between 2 barriers"

# The corpus NV modules convert and validate for their environments.
for f in nv_coopmat1_legacy nv_coopmat1_legacy_vulkan1_1 nv_coopmat1_legacy_vulkan1_2; do
  env=$(awk -F'\t' -v f="$f.spvasm" '$1 == f { print $4 }' "$CORPUS/MANIFEST.tsv")
  [ -n "$env" ] || { fail "$f: not in MANIFEST.tsv"; continue; }
  "$AS" "$CORPUS/$f.spvasm" -o "$TMP/$f.spv" || { fail "$f: does not assemble"; continue; }
  "$OPT" --target-env "$env" --coop-matrix-nv-to-khr "$TMP/$f.spv" -o "$TMP/$f.khr.spv" \
    2>"$TMP/err" || { fail "$f: $(cat "$TMP/err")"; continue; }
  "$VAL" --target-env "$env" "$TMP/$f.khr.spv" >"$TMP/err" 2>&1 ||
    fail "$f: the KHR module does not validate for $env: $(head -5 "$TMP/err")"
done

# The legacy kernel's script, for a device without cooperative matrices, on a lowered module:
# lowered through KHR and lowered directly, it writes the same buffers.
f=nv_coopmat1_legacy
sed -e '/VK_NV_cooperative_matrix/d' -e '/CooperativeMatrixFeaturesNV/d' \
  -e "s#^SHADER compute legacy SPIRV-ASM FILE .*#SHADER compute legacy SPIRV-BINARY FILE $f.lowered.spv#" \
  test/run/native/$f.amber >"$TMP/$f.amber"
grep -q "SPIRV-BINARY FILE $f.lowered.spv" "$TMP/$f.amber" || fail "$f: the script has no SHADER line"
fold=(--freeze-spec-const --fold-spec-const --lower-coop-matrix=8)
for how in direct khr; do
  if [ $how = khr ]; then passes=(--coop-matrix-nv-to-khr "${fold[@]}"); else passes=("${fold[@]}"); fi
  "$OPT" --target-env vulkan1.3 "${passes[@]}" "$TMP/$f.spv" -o "$TMP/$f.lowered.spv" ||
    { fail "$f: ${passes[*]}"; continue; }
  # Exit 0 or 1 (EXPECTs); 2 would be a driver or script error.
  timeout 300 "${RUN_ENV[@]}" "$RUN" --dump-buffers "$TMP/$f.$how.buffers" "$TMP/$f.amber" \
    >"$TMP/out" 2>&1
  [ $? -le 1 ] || { fail "$f ($how): coopspv-run: $(head -5 "$TMP/out")"; continue; }
done
cmp -s "$TMP/$f.direct.buffers" "$TMP/$f.khr.buffers" ||
  fail "$f: lowered through --coop-matrix-nv-to-khr, the kernel writes other buffers"

# The decode-vector module.
f=cm2_decode_vector
"$AS" "$CORPUS/$f.spvasm" -o "$TMP/$f.spv" || fail "$f: does not assemble"
if "$OPT" --target-env vulkan1.3 --strip-decode-vector --time-report "$TMP/$f.spv" \
    -o "$TMP/$f.out.spv" 2>"$TMP/err"; then
  grep -qE -- "^--strip-decode-vector +changed +[0-9.]+ ms +[0-9]+ -> [0-9]+ instructions" \
    "$TMP/err" || fail "--time-report: $(cat "$TMP/err")"
  "$VAL" --target-env vulkan1.3 "$TMP/$f.out.spv" >"$TMP/err" 2>&1 ||
    fail "$f: the stripped module does not validate: $(head -5 "$TMP/err")"
  "$DIS" "$TMP/$f.out.spv" | grep -q "DecodeVector" && fail "$f: DecodeVector left"
else
  fail "$f: --strip-decode-vector: $(cat "$TMP/err")"
fi

# --legalize-for-device with the built-in profiles: what each device lacks is rewritten and the
# output passes the device's rules (coopspv-val --device-profile). For the H100 the decode-vector
# functions go (its driver lacks VK_NV_cooperative_matrix_decode_vector) and NV matrices stay;
# for lavapipe every cooperative matrix is lowered (matrix2 through --lower-coop-matrix2).
for f in khr_arith_funcs khr_gemm_specdims nv_coopmat1_legacy cm2_decode_vector; do
  "$AS" "$CORPUS/$f.spvasm" -o "$TMP/$f.in.spv" || { fail "$f: does not assemble"; continue; }
  for profile in h100 lavapipe; do
    if "$OPT" --target-env vulkan1.3 --freeze-spec-const --fold-spec-const \
        --legalize-for-device=$profile "$TMP/$f.in.spv" -o "$TMP/$f.$profile.spv" 2>"$TMP/err"; then
      "$VAL" --target-env vulkan1.3 --device-profile=$profile "$TMP/$f.$profile.spv" \
        >"$TMP/err" 2>&1 || fail "$f for $profile: $(head -5 "$TMP/err")"
    else
      fail "$f: --legalize-for-device=$profile: $(cat "$TMP/err")"
    fi
  done
done
"$DIS" "$TMP/nv_coopmat1_legacy.h100.spv" | grep -q CooperativeMatrixNV ||
  fail "nv_coopmat1_legacy for h100: the NV matrices should stay"
"$DIS" "$TMP/cm2_decode_vector.h100.spv" | grep -q DecodeVector &&
  fail "cm2_decode_vector for h100: DecodeVectorFunc left"
"$DIS" "$TMP/khr_gemm_specdims.lavapipe.spv" | grep -q CooperativeMatrix &&
  fail "khr_gemm_specdims for lavapipe: a cooperative matrix is left"
# A module legalization cannot take as it is (matrix sizes from specialization constants, not
# frozen): a clear failure that says what to run first.
"$OPT" --legalize-for-device=lavapipe "$TMP/cm2_decode_vector.in.spv" -o "$TMP/x.spv" \
  2>"$TMP/err" && fail "cm2_decode_vector legalized for lavapipe"
grep -q "run --freeze-spec-const --fold-spec-const first" "$TMP/err" ||
  fail "cm2_decode_vector for lavapipe: $(cat "$TMP/err")"
"$OPT" --legalize-for-device=no-such-device "$TMP/cm2_decode_vector.in.spv" -o "$TMP/x.spv" \
  2>"$TMP/err" && fail "--legalize-for-device=no-such-device succeeded"
grep -q "not a built-in profile" "$TMP/err" || fail "unknown profile: $(cat "$TMP/err")"

# bfloat16 / float8 conversions, both ways, on a device without them: --legalize-for-device=lavapipe
# runs --lower-small-floats, and every result equals generate_small_floats.py's exact rounding.
"$AS" test/run/legalize/small_floats.spvasm -o "$TMP/small_floats.spv" &&
  "$VAL" --target-env vulkan1.3 --device-profile=lavapipe "$TMP/small_floats.spv" \
    >"$TMP/err" 2>&1 && fail "small_floats as written passes the lavapipe device rules"
grep -q "shaderBFloat16Type" "$TMP/err" || fail "small_floats as written: $(head -3 "$TMP/err")"
cp test/run/legalize/small_floats.amber test/run/legalize/small_floats.spvasm "$TMP/"
if ! timeout 300 "${RUN_ENV[@]}" "$RUN" --timeout-ms 120000 --passes-only \
    --passes "--legalize-for-device=lavapipe" "$TMP/small_floats.amber" >"$TMP/out" 2>&1; then
  fail "small_floats legalized for lavapipe, on lavapipe"
  sed 's/^/    /' "$TMP/out" | head -20 >&2
elif ! grep -q "5 of 5 EXPECT passed .* with the passes alone" "$TMP/out"; then
  fail "small_floats legalized for lavapipe: $(cat "$TMP/out")"
fi

# SPV_EXT_long_vector on lavapipe, which lacks VK_EXT_shader_long_vector: the glslang module's
# vectors of 8, 5 and N components become arrays (--lower-coop-vector=lower-long-vectors, run by
# --legalize-for-device=lavapipe), the result passes lavapipe's device rules and computes
# long_vector.amber's values.
"$AS" test/run/legalize/long_vector.spvasm -o "$TMP/long_vector.spv" &&
  "$VAL" --target-env vulkan1.3 --device-profile=lavapipe "$TMP/long_vector.spv" \
    >"$TMP/err" 2>&1 && fail "long_vector as written passes the lavapipe device rules"
"$OPT" --target-env vulkan1.3 --legalize-for-device=lavapipe "$TMP/long_vector.spv" \
  -o "$TMP/long_vector_lavapipe.spv" 2>"$TMP/err" || fail "long_vector legalize: $(cat "$TMP/err")"
"$VAL" --target-env vulkan1.3 --device-profile=lavapipe "$TMP/long_vector_lavapipe.spv" \
  >"$TMP/err" 2>&1 || fail "long_vector legalized: $(head -3 "$TMP/err")"
"$DIS" "$TMP/long_vector_lavapipe.spv" | grep -q "LongVectorEXT\|OpTypeVector %float [5-9]" &&
  fail "long vectors left after --legalize-for-device=lavapipe"
cp test/run/legalize/long_vector.amber test/run/legalize/long_vector.spvasm "$TMP/"
if ! timeout 300 "${RUN_ENV[@]}" "$RUN" --timeout-ms 120000 --passes-only \
    --passes "--legalize-for-device=lavapipe" "$TMP/long_vector.amber" >"$TMP/out" 2>&1; then
  fail "long_vector legalized for lavapipe, on lavapipe"
  sed 's/^/    /' "$TMP/out" | head -20 >&2
elif ! grep -q "1 of 1 EXPECT passed .* with the passes alone" "$TMP/out"; then
  fail "long_vector legalized for lavapipe: $(cat "$TMP/out")"
fi

if [ "$failures" != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo PASS
