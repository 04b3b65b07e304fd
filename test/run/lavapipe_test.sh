#!/bin/bash
# coopspv-run end to end on lavapipe: the AmberScript tests pass, a wrong expectation fails
# with its index, bad input exits 2 with a clear message, --passes compares two runs.
set -u
RUN=tools/coopspv-run
AS=tools/coopspv-as
OPT=tools/coopspv-opt
VAL=tools/coopspv-val
DIR=test/run
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_exit <code> <description> <command...>
expect_exit() {
  local want=$1 what=$2
  shift 2
  timeout 120 "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    fail "$what: exit $got, expected $want"
    sed 's/^/    /' "$TMP/out" "$TMP/err" >&2
  fi
}

expect_contains() {
  local file=$1 text=$2 what=$3
  grep -qF -- "$text" "$file" || {
    fail "$what: '$text' not in $(basename "$file")"
    sed 's/^/    /' "$file" >&2
  }
}

# Usage.
expect_exit 0 "--help" "$RUN" --help
expect_contains "$TMP/out" "Usage:" "--help"
expect_exit 0 "--version" "$RUN" --version
expect_contains "$TMP/out" "coopspv" "--version"
expect_exit 2 "unknown flag" "$RUN" --no-such-flag
expect_exit 2 "no script" "$RUN"
expect_exit 2 "missing script" "$RUN" "$TMP/none.amber"
expect_exit 2 "--timing=0" "$RUN" --timing=0 "$DIR/reduce_subgroup.amber"
expect_exit 2 "--passes with an unknown pass" "$RUN" --passes "--no-such-pass" "$DIR/reduce_subgroup.amber"

# Devices.
expect_exit 0 "--list-devices" "$RUN" --list-devices
expect_contains "$TMP/out" "llvmpipe" "--list-devices"
expect_exit 0 "--device by name" "$RUN" --device LLVMPIPE "$DIR/reduce_subgroup.amber"
expect_exit 0 "--device by index" "$RUN" --device 0 "$DIR/reduce_subgroup.amber"
expect_exit 2 "--device out of range" "$RUN" --device 7 "$DIR/reduce_subgroup.amber"
expect_contains "$TMP/err" "no Vulkan device 7" "--device out of range"
expect_exit 2 "--device unknown name" "$RUN" --device no-such-gpu "$DIR/reduce_subgroup.amber"

# Every test of this folder passes.
count=0
for script in "$DIR"/*.amber; do
  expect_exit 0 "$script" "$RUN" "$script"
  expect_contains "$TMP/out" "PASS" "$script"
  count=$((count + 1))
done
[ "$count" -ge 4 ] || fail "only $count .amber tests found"

# The tests for cooperative hardware (utils/gpu_check.sh runs them on the H100): lavapipe lacks
# their extensions, so here only their syntax and their bindings against the corpus modules.
count=0
for script in "$DIR"/native/*.amber; do
  expect_exit 0 "--check $script" "$RUN" --check "$script"
  count=$((count + 1))
done
[ "$count" -ge 10 ] || fail "only $count native .amber tests found"
# Modules written for them (khr_bf16.spvasm: the bfloat16 half of a corpus module) must validate.
for module in "$DIR"/native/*.spvasm; do
  expect_exit 0 "coopspv-as $module" "$AS" "$module" -o "$TMP/native.spv"
  expect_exit 0 "coopspv-val $module" "$VAL" --target-env vulkan1.3 "$TMP/native.spv"
done
expect_exit 77 "a native test on lavapipe" "$RUN" "$DIR/native/khr_gemm_specdims.amber"
expect_contains "$TMP/out" "UNSUPPORTED: line " "a native test on lavapipe"
expect_contains "$TMP/out" "does not support the device extension VK_KHR_cooperative_matrix" \
  "a native test on lavapipe"

# JSON: one entry per EXPECT.
expect_exit 0 "--json" "$RUN" --json "$DIR/tiled_matmul.amber"
expect_contains "$TMP/out" '"status":"pass"' "--json"
[ "$(grep -o '"result":"pass"' "$TMP/out" | wc -l)" = 4 ] || fail "--json: not 4 passing EXPECTs"

# A wrong expectation fails with its index: element 2 of sums is 10272, not 10270.
sed 's/EQ 2080 6176 10272 14368/EQ 2080 6176 10270 14368/' "$DIR/reduce_subgroup.amber" \
  >"$TMP/wrong.amber"
expect_exit 1 "wrong expectation" "$RUN" "$TMP/wrong.amber"
expect_contains "$TMP/err" "sums[2] is 10272, expected 10270" "wrong expectation"
expect_contains "$TMP/err" "first mismatch at index 2" "wrong expectation"
expect_exit 1 "wrong expectation, JSON" "$RUN" --json "$TMP/wrong.amber"
expect_contains "$TMP/out" '"result":"fail","first_mismatch":2,"mismatches":1,"max_abs_error":2' \
  "wrong expectation, JSON"
# A float tolerance that is too tight, and ones that are wide enough (absolute and percent).
v=$(sed -n 's/^EXPECT c IDX 1020 TOLERANCE 0.001 EQ //p' "$DIR/tiled_matmul.amber")
w=$(awk "BEGIN { print $v + 0.5 }")
{ cat "$DIR/tiled_matmul.amber"; echo "EXPECT c IDX 1020 TOLERANCE 0.25 EQ $w"; } >"$TMP/tol.amber"
expect_exit 1 "value off by 0.5, tolerance 0.25" "$RUN" "$TMP/tol.amber"
expect_contains "$TMP/err" "first mismatch at index 255" "value off by 0.5, tolerance 0.25"
{ cat "$DIR/tiled_matmul.amber"; echo "EXPECT c IDX 1020 TOLERANCE 1 EQ $w"; } >"$TMP/tol.amber"
expect_exit 0 "value off by 0.5, tolerance 1" "$RUN" "$TMP/tol.amber"
{ cat "$DIR/tiled_matmul.amber"; echo "EXPECT c IDX 1020 TOLERANCE 1000% EQ $w"; } >"$TMP/tol.amber"
expect_exit 0 "value off by 0.5, tolerance 1000%" "$RUN" "$TMP/tol.amber"

# Timing: timestamp queries around each RUN, buffers restored before the RUN proper.
expect_exit 0 "--timing" "$RUN" --timing=3 --warmup 1 "$DIR/reduce_subgroup.amber"
expect_contains "$TMP/out" "median" "--timing"
expect_exit 0 "--timing --json" "$RUN" --timing=2 --json "$DIR/push_spec_constants.amber"
expect_contains "$TMP/out" '"median_us":' "--timing --json"

# --dump-buffers writes what the shaders wrote as BUFFER declarations that read back exactly:
# appended to the script, EQ_BUFFER against them passes.
expect_exit 0 "--dump-buffers" "$RUN" --dump-buffers "$TMP/golden.amber" "$DIR/float16_int8.amber"
expect_contains "$TMP/golden.amber" "BUFFER h_out_result DATA_TYPE float16 DATA" "--dump-buffers"
expect_contains "$TMP/golden.amber" "BUFFER q_out_result DATA_TYPE int8 DATA" "--dump-buffers"
{
  cat "$DIR/float16_int8.amber" "$TMP/golden.amber"
  echo "EXPECT h_out EQ_BUFFER h_out_result"
  echo "EXPECT q_out EQ_BUFFER q_out_result"
} >"$TMP/with_golden.amber"
expect_exit 0 "golden data read back" "$RUN" --json "$TMP/with_golden.amber"
[ "$(grep -o '"result":"pass"' "$TMP/out" | wc -l)" = 4 ] || fail "golden data: not 4 passes"

# Images come back as IMAGE declarations of their shape, which EQ_BUFFER compares with them.
expect_exit 0 "--dump-buffers of images" "$RUN" --dump-buffers "$TMP/images.amber" \
  "$DIR/image_storage.amber"
expect_contains "$TMP/images.amber" \
  "IMAGE color_result FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 8 HEIGHT 8 DATA" "--dump-buffers of images"
expect_contains "$TMP/images.amber" "IMAGE depth_result DATA_TYPE float DIM_2D WIDTH 8 HEIGHT 8 DATA" \
  "--dump-buffers of images"
{
  cat "$DIR/image_storage.amber" "$TMP/images.amber"
  echo "EXPECT color EQ_BUFFER color_result"
  echo "EXPECT ids EQ_BUFFER ids_result"
  echo "EXPECT depth RMSE_BUFFER depth_result TOLERANCE 0"
} >"$TMP/images_golden.amber"
expect_exit 0 "image golden data read back" "$RUN" "$TMP/images_golden.amber"
expect_contains "$TMP/out" "PASS: 12 of 12" "image golden data read back"
# --passes compares the images and storage buffers the shaders write.
expect_exit 0 "--passes on images" "$RUN" --json --passes "--eliminate-dead --compact-ids" \
  "$DIR/image_storage.amber"
expect_contains "$TMP/out" '{"buffer":"color","result":"equal"' "--passes on images"
expect_contains "$TMP/out" '{"buffer":"total","result":"equal"' "--passes on images"

# SPIRV-BINARY FILE, relative to the script.
"$AS" "$DIR/bad/increment.spvasm" -o "$TMP/increment.spv" || fail "assemble increment"
cat >"$TMP/binary.amber" <<'AMBER'
SHADER compute inc SPIRV-BINARY FILE increment.spv
BUFFER in DATA_TYPE uint32 SIZE 8 SERIES_FROM 10 INC_BY 10
BUFFER out DATA_TYPE uint32 SIZE 8 FILL 0
PIPELINE compute p
  ATTACH inc ENTRY_POINT main
  BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out AS storage BINDING 1
END
RUN p 2 1 1
EXPECT out IDX 0 EQ 11 21 31 41 51 61 71 81
EXPECT out IDX 28 GT 80
AMBER
expect_exit 0 "SPIRV-BINARY FILE" "$RUN" "$TMP/binary.amber"

# Bad input: exit 2, a clear message, never a crash or a hang.
check_bad() {
  local name=$1 text=$2
  expect_exit 2 "bad/$name" "$RUN" "$DIR/bad/$name"
  expect_contains "$TMP/err" "$text" "bad/$name"
}
check_bad malformed.amber "line 5: SIZE must be an element count"
check_bad missing_buffer.amber "line 8: unknown buffer 'result'"
check_bad binding_mismatch.amber \
  "uses a storage buffer at DESCRIPTOR_SET 0 BINDING 1, but the pipeline binds nothing there"
check_bad binding_kind_mismatch.amber "line 8: binding mismatch: 'in' is bound AS uniform"
check_bad driver_rejects.amber \
  "PIPELINE 'length': shader 'coop_length' is not valid for llvmpipe"
expect_contains "$TMP/err" "device.coop-matrix.type: %13 = OpTypeCooperativeMatrixKHR" \
  "bad/driver_rejects.amber"
expect_contains "$TMP/err" "[VUID-VkShaderModuleCreateInfo-pCode-08740]" "bad/driver_rejects.amber"
expect_exit 2 "bad/driver_rejects.amber --skip-validation" "$RUN" --skip-validation \
  "$DIR/bad/driver_rejects.amber"
expect_contains "$TMP/err" "the driver rejected shader 'coop_length'" "--skip-validation"
# What the device lacks is "unsupported" (the CTS's NotSupported): exit 77, the requirement named.
check_unsupported() {
  local name=$1 text=$2
  expect_exit 77 "bad/$name" "$RUN" "$DIR/bad/$name"
  expect_contains "$TMP/out" "UNSUPPORTED: " "bad/$name"
  expect_contains "$TMP/out" "$text" "bad/$name"
}
check_unsupported missing_feature.amber \
  "does not support the device extension VK_KHR_cooperative_matrix (needed for the feature CooperativeMatrixFeaturesKHR.cooperativeMatrix)"
check_unsupported missing_extension.amber "does not support the device extension VK_NV_cooperative_vector"
expect_exit 77 "unsupported, JSON" "$RUN" --json "$DIR/bad/missing_extension.amber"
expect_contains "$TMP/out" '{"status":"unsupported","exit_code":77,' "unsupported, JSON"
# Mesa 22.3's lavapipe does not preserve float16 denormals.
printf 'DEVICE_PROPERTY FloatControlsProperties.shaderDenormPreserveFloat16\n' >"$TMP/property.amber"
expect_exit 77 "missing device property" "$RUN" "$TMP/property.amber"
expect_contains "$TMP/out" "does not have the device property FloatControlsProperties.shaderDenormPreserveFloat16" \
  "missing device property"
check_bad timeout.amber "line 78: RUN did not finish within 300 ms"
# Images and descriptor arrays must match what the shader declares.
check_bad image_mismatch.amber \
  "line 17: binding mismatch: 'texels' at DESCRIPTOR_SET 0 BINDING 0 is R8G8B8A8_UNORM DIM_2D WIDTH 4 HEIGHT 4, but shader 'ms' declares a multisampled image (MS 1) there"
sed 's/HEIGHT 4$/HEIGHT 4 SAMPLES 4/; s/BUFFER_ARRAY out out/BUFFER out/' \
  "$DIR/bad/image_mismatch.amber" >"$TMP/image_array.amber"
expect_exit 2 "an array bound with too few descriptors" "$RUN" --check "$TMP/image_array.amber"
expect_contains "$TMP/err" "declares an array of 2 storage buffers there; the binding has 1" \
  "an array bound with too few descriptors"
sed 's/HEIGHT 4$/HEIGHT 4 SAMPLES 4/; s/R8G8B8A8_UNORM/R8G8B8A8_UINT/' \
  "$DIR/bad/image_mismatch.amber" >"$TMP/image_numeric.amber"
expect_exit 2 "an integer image read as float" "$RUN" "$TMP/image_numeric.amber"
expect_contains "$TMP/err" "is R8G8B8A8_UINT, but shader 'ms' reads it as float" \
  "an integer image read as float"
sed 's/DIM_2D WIDTH 4 HEIGHT 4$/DIM_3D WIDTH 4 HEIGHT 4 DEPTH 2/' \
  "$DIR/bad/image_mismatch.amber" >"$TMP/image_dim.amber"
expect_exit 2 "a 3D image for a 2D one" "$RUN" --check "$TMP/image_dim.amber"
expect_contains "$TMP/err" "declares an image of Dim 2D" "a 3D image for a 2D one"
# A sample count lavapipe lacks (it has 1 and 4) is unsupported, as the CTS reports it.
sed 's/HEIGHT 4$/HEIGHT 4 SAMPLES 8/' "$DIR/bad/image_mismatch.amber" >"$TMP/image_samples.amber"
expect_exit 77 "SAMPLES 8 on lavapipe" "$RUN" "$TMP/image_samples.amber"
expect_contains "$TMP/out" "does not support R8G8B8A8_UNORM 2D images for storage with SAMPLES 8" \
  "SAMPLES 8 on lavapipe"
# A dynamic offset the device's alignment does not divide.
sed 's/OFFSET 512$/OFFSET 516/' "$DIR/dynamic_buffers.amber" >"$TMP/misaligned.amber"
expect_exit 2 "a misaligned dynamic offset" "$RUN" "$TMP/misaligned.amber"
expect_contains "$TMP/err" "line 30: OFFSET 516 of 'series' is not a multiple of the device's minUniformBufferOffsetAlignment" \
  "a misaligned dynamic offset"
check_bad convert_optimal.amber \
  "line 6: CONVERT_MATRIX w (row_major, float16) to w_opt (inferencing_optimal, float16) needs vkConvertCooperativeVectorMatrixNV: VK_NV_cooperative_vector is not enabled"
check_bad convert_out_of_range.amber "line 7: CONVERT_MATRIX m (row_major, float16) to m8 (row_major, float_e4m3): element (1, 0)"
check_bad buffer_address_offset.amber "line 5: BUFFER_ADDRESS OFFSET '20'"
check_bad glsl_error.amber "line 2: GLSL compile of shader 'broken' failed:"
expect_contains "$TMP/err" "  line 7: error: 'undeclared' : undeclared identifier" \
  "bad/glsl_error.amber"
printf 'DEVICE_FEATURE sparseResidencyBuffer\n' >"$TMP/core_feature.amber"
expect_exit 77 "missing core feature" "$RUN" "$TMP/core_feature.amber"
expect_contains "$TMP/out" "does not support the device feature sparseResidencyBuffer" \
  "missing core feature"
printf 'DEVICE_FEATURE Vulkan12Features.noSuchThing\n' >"$TMP/unknown_feature.amber"
expect_exit 2 "unknown feature" "$RUN" "$TMP/unknown_feature.amber"
expect_contains "$TMP/err" "unknown DEVICE_FEATURE 'Vulkan12Features.noSuchThing'" "unknown feature"
expect_exit 2 "--check on malformed" "$RUN" --check "$DIR/bad/malformed.amber"
expect_exit 2 "--check on a binding mismatch" "$RUN" --check "$DIR/bad/binding_mismatch.amber"
expect_contains "$TMP/err" "but the pipeline binds nothing there" "--check on a binding mismatch"
expect_exit 0 "--check" "$RUN" --check "$DIR/tiled_matmul.amber"
expect_exit 2 "--check on a GLSL error" "$RUN" --check "$DIR/bad/glsl_error.amber"
expect_contains "$TMP/err" "line 7: error: 'undeclared' : undeclared identifier" \
  "--check on a GLSL error"
head -c 3000 /dev/urandom >"$TMP/random.amber"
expect_exit 2 "random bytes" "$RUN" "$TMP/random.amber"

# --passes: the script runs as written and after the passes, and the storage buffers compare.
# The script specializes id 0 to -2 and id 1 (the workgroup size) to 16: with those defaults
# set first, freezing and folding keep the meaning.
expect_exit 0 "--passes spec-constant folding" "$RUN" --json --passes \
  '--set-spec-const-default-value "0:-2 1:16" --freeze-spec-const --fold-spec-const' \
  "$DIR/push_spec_constants.amber"
expect_contains "$TMP/out" '"passes":["--set-spec-const-default-value=0:-2 1:16","--freeze-spec-const","--fold-spec-const"]' "--passes"
expect_contains "$TMP/out" '{"buffer":"out","result":"equal"' "--passes"
# Freezing alone keeps the meaning too: coopspv-run makes each pipeline's SPECIALIZE values the
# defaults of its own copy of the shader before the passes freeze them.
expect_exit 0 "--passes freezing a specialized pipeline" "$RUN" --passes "--freeze-spec-const" \
  "$DIR/push_spec_constants.amber"
# A SPECIALIZE of a SpecId the shader lacks does not affect the pipeline (Vulkan ignores such map
# entries; vk_cooperative_matrix_perf passes some): freezing still keeps the meaning.
sed 's/^\(  ATTACH .*SPECIALIZE.*\)$/\1 SPECIALIZE 77 AS uint32 5/' "$DIR/push_spec_constants.amber" \
  >"$TMP/unknown_spec_id.amber"
grep -q "SPECIALIZE 77" "$TMP/unknown_spec_id.amber" || fail "no ATTACH line took SPECIALIZE 77"
expect_exit 0 "--passes freezing with an unknown SpecId" "$RUN" --passes "--freeze-spec-const" \
  "$TMP/unknown_spec_id.amber"
# A default set after the SPECIALIZE values wins and changes the meaning: the second run's
# EXPECTs fail and the comparison names index 0.
expect_exit 1 "--passes that change the result" "$RUN" --passes \
  '--set-spec-const-default-value "0:-3" --freeze-spec-const' "$DIR/push_spec_constants.amber"
expect_contains "$TMP/err" "buffer 'out' differs after the passes: first mismatch at index 0" \
  "--passes that change the result"
expect_contains "$TMP/err" "(with the passes)" "--passes that change the result"
expect_contains "$TMP/err" "out[0] is 1060, expected 1040" "--passes that change the result"

# Passes that delete or rebuild declarations keep what has meaning without a use: the
# WorkgroupSize built-in (a spec-constant composite no instruction names) and its SpecId.
for passes in "--eliminate-dead" "--eliminate-dead --compact-ids" \
  "--freeze-spec-const --fold-spec-const --eliminate-dead --compact-ids"; do
  expect_exit 0 "--passes \"$passes\" on workgroup_size_spec" "$RUN" --json --passes "$passes" \
    "$DIR/workgroup_size_spec.amber"
  expect_contains "$TMP/out" '{"buffer":"out","result":"equal"' "--passes \"$passes\""
done

# --lower: the lowering passes this build has.
if "$OPT" --help | grep -qE -- "--lower-coop-(matrix|vector)"; then
  expect_exit 0 "--lower on plain compute" "$RUN" --lower "$DIR/tiled_matmul.amber"
else
  expect_exit 2 "--lower without lowering passes" "$RUN" --lower "$DIR/tiled_matmul.amber"
  expect_contains "$TMP/err" "none of the lowering passes" "--lower"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "all coopspv-run checks passed"
