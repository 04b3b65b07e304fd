#!/bin/bash
# VK_KHR_cooperative_matrix and VK_NV_cooperative_matrix2 emulated by VK_LAYER_coopspv on
# lavapipe, which lacks both (and VK_NV_cooperative_matrix, VK_KHR_shader_bfloat16,
# VK_NV_cooperative_vector): the project's native scripts run unchanged through the layer
# (coopspv-run only loads it, no --lower): the layer advertises the extensions, their features
# and properties and the shapes it lowers well, keeps them from the driver at vkCreateDevice, and
# hands the driver each module specialized and legalized for lavapipe (--legalize-for-device
# with its live profile, subgroup size 8), and every EXPECT holds.
#
# nv_coopmat1_legacy (VK_NV_cooperative_matrix), khr_bf16 (VK_KHR_shader_bfloat16) and
# khr_int8_saturating (saturating accumulation, flexible dimensions) are emulated too; each has a
# workgroup of 32 identical invocations written for one subgroup of 32, which the layer narrows
# to one subgroup of lavapipe's 8 (else four subgroups load, add to and store the same C
# matrices, and race).
#
# Not here, and why: khr_gemm_specdims asks for REQUIRED_SIZE 32 (one subgroup of 32 computes
# a whole matrix), which lavapipe cannot give (its subgroups are 8). cm2_softmax_reduce and
# cm2_decode_q4, whose whole matrices would need more Workgroup memory than lavapipe's 32 KiB,
# run in row bands (cm2_softmax_reduce's row, column, whole and 2x2 reductions band by band; it
# takes about 3 minutes of LLVM with a cold Mesa shader cache) and with owned rows in rounds
# (cm2_decode_q4, below).
#
# VK_NV_cooperative_vector too: the coopvec_* scripts run unchanged through the layer, their
# CONVERT_MATRIX commands by the layer's vkConvertCooperativeVectorMatrixNV (on the host, into
# the layout the lowering reads the optimal ones in), except coopvec_training, whose float16
# accumulation needs float16 atomic adds, which lavapipe lacks: the layer advertises training
# with float32 accumulation only, and the script's float32 half runs (below).
set -u
RUN=tools/coopspv-run
VAL=tools/coopspv-val
CLIENT=test/layer/layer_client
AS=tools/coopspv-as
DIR=test/run/native
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
# shellcheck source=test/layer/layer_env.sh
. test/layer/layer_env.sh
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
export VK_INSTANCE_LAYERS=VK_LAYER_coopspv

for name in khr_arith_funcs khr_vkcmp_style cm2_transpose_convert khr_workgroup_shared_bda \
  cm2_tensor_layouts nv_coopmat1_legacy khr_bf16 khr_int8_saturating coopvec_mlp_f16 \
  coopvec_int8_packed coopvec_fp8_matmul coopvec_loadstore_math cm2_softmax_reduce; do
  if ! timeout 900 env VK_COOPSPV_REPORT_LEVEL=info "$RUN" --timeout-ms 600000 \
      "$DIR/$name.amber" >"$TMP/$name.out" 2>&1; then
    fail "$name through the layer"
    sed 's/^/    /' "$TMP/$name.out" | head -20 >&2
  elif ! grep -q "^PASS: " "$TMP/$name.out" ||
      ! grep -q "VK_LAYER_coopspv info: vkCreateComputePipelines: legalized for subgroup size 8" \
        "$TMP/$name.out"; then
    fail "$name through the layer: $(cat "$TMP/$name.out")"
  fi
done

# The three whose workgroups of 32 identical invocations become one subgroup: the layer says so.
for name in nv_coopmat1_legacy khr_bf16 khr_int8_saturating; do
  grep -q "legalized for subgroup size 8, its workgroup of 32 identical invocations narrowed to one subgroup" \
    "$TMP/$name.out" || fail "$name: not narrowed to one subgroup: $(cat "$TMP/$name.out")"
done
# khr_workgroup_shared_bda reads LocalInvocationIndex (its 128 invocations are 4 subgroups of
# 32 on different tiles): its workgroup stays.
grep -q "legalized for subgroup size 8$" "$TMP/khr_workgroup_shared_bda.out" ||
  fail "khr_workgroup_shared_bda narrowed: $(grep legalized "$TMP/khr_workgroup_shared_bda.out")"

# Emulated against native: the coopvec scripts through the layer on lavapipe against the dumps of
# their native runs on the H100 (test/run/golden/h100), the buffers the shaders wrote compared:
# integer and exact float8 results bit for bit, float16 accumulation and transcendental math by
# RMSE (the GPU accumulates float16 in another order, and computes tanh, exp, ... a few ulps
# apart).
golden() {
  local name=$1
  shift
  {
    sed "s#FILE ../../data/corpus/#FILE $PWD/test/data/corpus/#" "$DIR/$name.amber"
    cat "test/run/golden/h100/native_$name.amber"
    printf '%s\n' "$@"
  } >"$TMP/golden_$name.amber"
  timeout 300 "$RUN" --timeout-ms 120000 "$TMP/golden_$name.amber" >"$TMP/golden_$name.out" 2>&1 ||
    fail "$name through the layer against the H100's buffers: $(cat "$TMP/golden_$name.out")"
}
golden coopvec_int8_packed "EXPECT out EQ_BUFFER out_result"
golden coopvec_fp8_matmul "EXPECT z EQ_BUFFER z_result"
golden coopvec_mlp_f16 "EXPECT y RMSE_BUFFER y_result TOLERANCE 0.001"
golden coopvec_loadstore_math "EXPECT w RMSE_BUFFER w_result TOLERANCE 0.0001" \
  "EXPECT h RMSE_BUFFER h_result TOLERANCE 0.001"

# The layer's InferencingOptimal is row-major with a tight stride (what the lowering reads): W3 of
# coopvec_int8_packed converted into row_major instead gives the same result, into column_major
# a wrong one.
for layout in row_major column_major; do
  sed -e "s#SPIRV-ASM FILE ../../data/corpus/#SPIRV-ASM FILE $PWD/test/data/corpus/#" \
    -e "s/DST_LAYOUT inferencing_optimal DST_OFFSET 4096/DST_LAYOUT $layout DST_OFFSET 4096/" \
    "$DIR/coopvec_int8_packed.amber" >"$TMP/w3.amber"
  "$RUN" "$TMP/w3.amber" >"$TMP/w3.out" 2>&1
  code=$?
  if [ "$layout" = row_major ]; then
    [ "$code" = 0 ] || fail "coopvec_int8_packed, W3 row-major: exit $code, $(cat "$TMP/w3.out")"
  else
    [ "$code" = 1 ] && grep -q "first mismatch at index" "$TMP/w3.out" ||
      fail "coopvec_int8_packed, W3 column-major: exit $code, $(head -5 "$TMP/w3.out")"
  fi
done

# The device commands: the host conversion is the layer's, the device-side one is not emulated
# (NULL); without the emulation lavapipe has neither.
CONVERT=vkConvertCooperativeVectorMatrixNV
CMD_CONVERT=vkCmdConvertCooperativeVectorMatrixNV
"$CLIENT" --proc "$CONVERT" --proc "$CMD_CONVERT" >"$TMP/procs.out" 2>&1 &&
  grep -qx "PROC $CONVERT found" "$TMP/procs.out" && grep -qx "PROC $CMD_CONVERT NULL" "$TMP/procs.out" ||
  fail "the cooperative vector device commands through the layer: $(cat "$TMP/procs.out")"
VK_COOPSPV_EMULATE=0 "$CLIENT" --proc "$CONVERT" >"$TMP/procs.out" 2>&1 &&
  grep -qx "PROC $CONVERT NULL" "$TMP/procs.out" ||
  fail "vkConvertCooperativeVectorMatrixNV without the emulation: $(cat "$TMP/procs.out")"

# A replicated composite that is no cooperative vector: the lowering leaves it, and the layer
# refuses the pipeline on lavapipe, which lacks VK_EXT_shader_replicated_composites.
"$AS" test/layer/replicated_vec4.spvasm -o "$TMP/replicated_vec4.spv" ||
  fail "assembling replicated_vec4"
"$CLIENT" --messenger "$TMP/replicated_vec4.spv" >"$TMP/replicated.out" 2>&1
code=$?
[ "$code" = 1 ] &&
  grep -q "replicated_vec4.spv: vkCreateComputePipelines VK_ERROR_UNKNOWN" "$TMP/replicated.out" &&
  grep -q "MESSAGE error coopspv-layer-emulation | .*--legalize-for-device failed: .*the capability ReplicatedCompositesEXT needs the feature shaderReplicatedComposites" \
    "$TMP/replicated.out" ||
  fail "a replicated vec4: exit $code, $(cat "$TMP/replicated.out")"

# Training: float16 accumulation is not advertised (lavapipe has no float16 atomic add), so
# coopspv-run's own validation against the device refuses coopvec_training, and the layer,
# handed the module anyway, refuses its pipeline naming the add it lacks.
"$RUN" "$DIR/coopvec_training.amber" >"$TMP/training.out" 2>&1
code=$?
[ "$code" = 2 ] &&
  grep -q "OpCooperativeVectorOuterProductAccumulateNV accumulates float16 but the device profile's cooperativeVectorTrainingFloat16Accumulation is false" \
    "$TMP/training.out" || fail "coopvec_training: exit $code, $(cat "$TMP/training.out")"
"$RUN" --skip-validation "$DIR/coopvec_training.amber" >"$TMP/training.out" 2>&1
code=$?
[ "$code" = 2 ] &&
  grep -q "VK_LAYER_coopspv error: vkCreateComputePipelines: the cooperative vectors of this module cannot be emulated (subgroup size 8): --lower-coop-vector failed: .*accumulating float16 needs an atomic float add" \
    "$TMP/training.out" ||
  fail "coopvec_training, --skip-validation: exit $code, $(cat "$TMP/training.out")"
# Its float32 half (the float16 accumulations taken out of the module): the layer enables
# VK_EXT_shader_atomic_float's shaderBufferFloat32AtomicAdd for the lowered adds; dW32 is the
# generator's, dW (untouched now) reads back as it was written, through both conversions.
grep -v "OpCooperativeVector\(OuterProduct\|ReduceSum\)AccumulateNV %\(61\|69\) " \
  test/data/corpus/coopvec_training.spvasm >"$TMP/training32.spvasm"
sed -e "s#SPIRV-ASM FILE ../../data/corpus/coopvec_training.spvasm#SPIRV-ASM FILE $TMP/training32.spvasm#" \
  -e 's/^EXPECT dw_rows EQ_BUFFER dw_expected$/EXPECT dw_rows EQ_BUFFER dw_start/' \
  -e 's/^EXPECT db EQ_BUFFER db_expected$/EXPECT dw32_rows EQ_BUFFER dw32_expected/' \
  "$DIR/coopvec_training.amber" >"$TMP/training32.amber"
timeout 300 env VK_COOPSPV_REPORT_LEVEL=info "$RUN" --timeout-ms 120000 "$TMP/training32.amber" \
  >"$TMP/training32.out" 2>&1 && grep -q "^PASS: 2 of 2 EXPECT passed" "$TMP/training32.out" &&
  grep -q "legalized for subgroup size 8" "$TMP/training32.out" ||
  fail "coopvec_training's float32 half: $(cat "$TMP/training32.out")"

# A wrong expectation still fails: the generator's value, changed.
sed -e 's/^EXPECT io IDX 1024 EQ 3 /EXPECT io IDX 1024 EQ 4 /' \
  -e "s#SPIRV-ASM FILE ../../data/corpus/#SPIRV-ASM FILE $PWD/test/data/corpus/#" \
  "$DIR/khr_arith_funcs.amber" >"$TMP/wrong.amber"
"$RUN" "$TMP/wrong.amber" >"$TMP/wrong.out" 2>&1
code=$?
[ "$code" = 1 ] && grep -q "io\[512\] is 3, expected 4" "$TMP/wrong.out" ||
  fail "a wrong expectation through the layer: exit $code, $(head -5 "$TMP/wrong.out")"

# Without emulation, or without the layer, lavapipe lacks the extensions: unsupported.
for how in "VK_COOPSPV_EMULATE=0" "VK_INSTANCE_LAYERS="; do
  env "$how" "$RUN" "$DIR/khr_arith_funcs.amber" >"$TMP/native.out" 2>&1
  code=$?
  [ "$code" = 77 ] && grep -q "UNSUPPORTED: .*VK_KHR_cooperative_matrix" "$TMP/native.out" ||
    fail "khr_arith_funcs with $how: exit $code, $(cat "$TMP/native.out")"
  env "$how" "$RUN" "$DIR/cm2_transpose_convert.amber" >"$TMP/native.out" 2>&1
  code=$?
  [ "$code" = 77 ] && grep -q "UNSUPPORTED: .*VK_\(KHR\|NV\)_cooperative_matrix" "$TMP/native.out" ||
    fail "cm2_transpose_convert with $how: exit $code, $(cat "$TMP/native.out")"
  env "$how" "$RUN" "$DIR/coopvec_mlp_f16.amber" >"$TMP/native.out" 2>&1
  code=$?
  [ "$code" = 77 ] && grep -q "UNSUPPORTED: .*VK_NV_cooperative_vector" "$TMP/native.out" ||
    fail "coopvec_mlp_f16 with $how: exit $code, $(cat "$TMP/native.out")"
done

# cm2_decode_q4: its 128 x 128 Workgroup matrices lowered whole would need 72 KiB of Workgroup
# memory; the layer's --legalize-for-device (--lower-coop-matrix2 with lavapipe's 32 KiB) lets
# its 32 subgroups own 4 rows each, in 4 rounds (band_coop_matrix2.cc, "Owned rows"), and the
# result equals the expected product exactly (about 2 minutes of llvmpipe).
if ! timeout 900 "$RUN" --timeout-ms 800000 "$DIR/cm2_decode_q4.amber" >"$TMP/decode.out" 2>&1; then
  fail "cm2_decode_q4 through the layer"
  sed 's/^/    /' "$TMP/decode.out" | head -20 >&2
elif ! grep -q "^PASS: 1 of 1 EXPECT passed" "$TMP/decode.out"; then
  fail "cm2_decode_q4 through the layer: $(cat "$TMP/decode.out")"
fi

# The subgroup size the layer cannot change: lavapipe's is 8, the script requires 32.
"$RUN" "$DIR/khr_gemm_specdims.amber" >"$TMP/specdims.out" 2>&1
code=$?
[ "$code" = 2 ] && grep -q "SUBGROUP REQUIRED_SIZE 32: llvmpipe .* supports compute subgroup sizes 8 to 8" \
  "$TMP/specdims.out" || fail "khr_gemm_specdims: exit $code, $(cat "$TMP/specdims.out")"

# What the application sees: the profile coopspv-run writes through the layer has the extension,
# the feature, compute as the stage and the emulated shapes, and coopspv-val takes the native
# scripts' modules for it.
"$RUN" --write-profile "$TMP/profile.json" >"$TMP/profile.out" 2>&1 ||
  fail "--write-profile through the layer: $(cat "$TMP/profile.out")"
grep -q '"VK_KHR_cooperative_matrix"' "$TMP/profile.json" &&
  grep -q '"cooperativeMatrix": true' "$TMP/profile.json" &&
  grep -q '"cooperativeMatrixSupportedStages": \["compute"\]' "$TMP/profile.json" &&
  grep -q '{"MSize": 16, "NSize": 16, "KSize": 16, "AType": "float16", "BType": "float16", "CType": "float32", "ResultType": "float32", "saturatingAccumulation": false, "scope": "subgroup"}' \
    "$TMP/profile.json" &&
  grep -q '"AType": "sint8", "BType": "sint8", "CType": "sint32"' "$TMP/profile.json" &&
  grep -q '"VK_NV_cooperative_matrix"' "$TMP/profile.json" &&
  grep -q '"cooperativeMatrixSupportedStagesNV": \["compute"\]' "$TMP/profile.json" &&
  grep -q '"VK_KHR_shader_bfloat16"' "$TMP/profile.json" &&
  grep -q '"shaderBFloat16CooperativeMatrix": true' "$TMP/profile.json" &&
  grep -q '{"MSize": 16, "NSize": 16, "KSize": 16, "AType": "bfloat16", "BType": "bfloat16", "CType": "float32", "ResultType": "float32", "saturatingAccumulation": false, "scope": "subgroup"}' \
    "$TMP/profile.json" &&
  grep -q '{"MSize": 16, "NSize": 16, "KSize": 32, "AType": "sint8", "BType": "sint8", "CType": "sint32", "ResultType": "sint32", "saturatingAccumulation": true, "scope": "subgroup"}' \
    "$TMP/profile.json" &&
  grep -q '"VK_NV_cooperative_matrix2"' "$TMP/profile.json" &&
  grep -q '"cooperativeMatrixWorkgroupScope": true' "$TMP/profile.json" &&
  grep -q '"cooperativeMatrixWorkgroupScopeMaxWorkgroupSize": 256' "$TMP/profile.json" &&
  grep -q '"cooperativeMatrixWorkgroupScopeReservedSharedMemory": 8192' "$TMP/profile.json" &&
  grep -q '{"MGranularity": 32, "NGranularity": 32, "KGranularity": 16, "AType": "float16", "BType": "float16", "CType": "float32", "ResultType": "float32", "saturatingAccumulation": false, "scope": "workgroup", "workgroupInvocations": 256}' \
    "$TMP/profile.json" &&
  grep -q '"VK_NV_cooperative_vector"' "$TMP/profile.json" &&
  grep -q '"VK_EXT_shader_replicated_composites"' "$TMP/profile.json" &&
  grep -q '"cooperativeVector": true' "$TMP/profile.json" &&
  grep -q '"cooperativeVectorTraining": true' "$TMP/profile.json" &&
  grep -q '"cooperativeVectorSupportedStages": \["compute"\]' "$TMP/profile.json" &&
  grep -q '"cooperativeVectorTrainingFloat16Accumulation": false' "$TMP/profile.json" &&
  grep -q '"cooperativeVectorTrainingFloat32Accumulation": true' "$TMP/profile.json" &&
  grep -q '"maxCooperativeVectorComponents": 512' "$TMP/profile.json" &&
  grep -q '{"inputType": "float16", "inputInterpretation": "float8_e4m3", "matrixInterpretation": "float8_e4m3", "biasInterpretation": "float16", "resultType": "float16", "transpose": true}' \
    "$TMP/profile.json" &&
  grep -q '{"inputType": "uint32", "inputInterpretation": "sint8_packed", "matrixInterpretation": "sint8", "biasInterpretation": "sint32", "resultType": "sint32", "transpose": true}' \
    "$TMP/profile.json" ||
  fail "the profile through the layer: $(cat "$TMP/profile.json")"
for m in khr_arith_funcs khr_vkcmp_style cm2_transpose_convert cm2_tensor_layouts \
  nv_coopmat1_legacy khr_int8_saturating coopvec_mlp_f16 coopvec_int8_packed coopvec_fp8_matmul \
  coopvec_loadstore_math; do
  "$AS" "test/data/corpus/$m.spvasm" -o "$TMP/$m.spv" &&
    "$VAL" --target-env vulkan1.3 --device-profile="$TMP/profile.json" "$TMP/$m.spv" \
      >"$TMP/val.out" 2>&1 || fail "$m against the profile through the layer: $(cat "$TMP/val.out")"
done

# A module the lowering refuses is reported (the messenger's pMessageIdName
# coopspv-layer-emulation) and its pipeline fails cleanly.
"$AS" test/layer/unlowerable.spvasm -o "$TMP/unlowerable.spv" || fail "assembling unlowerable"
"$CLIENT" --messenger "$TMP/unlowerable.spv" >"$TMP/unlowerable.out" 2>&1
code=$?
[ "$code" = 1 ] &&
  grep -q "unlowerable.spv: vkCreateComputePipelines VK_ERROR_UNKNOWN" "$TMP/unlowerable.out" &&
  grep -q "MESSAGE error coopspv-layer-emulation | vkCreateComputePipelines: the cooperative matrices of this module cannot be emulated (subgroup size 8): --legalize-for-device failed: --lower-coop-matrix failed: OpCooperativeMatrixStoreKHR: a store through 32-bit memory scalars" \
    "$TMP/unlowerable.out" || fail "a module the lowering refuses: exit $code, $(cat "$TMP/unlowerable.out")"

# A module in the stage's pNext (VK_KHR_maintenance5's way, no shader module): validated and
# emulated all the same; lavapipe (which predates maintenance5) gets a shader module of the
# legalized words.
"$AS" test/layer/listed_shape.spvasm -o "$TMP/listed_shape.spv" || fail "assembling listed_shape"
"$CLIENT" --messenger --inline "$TMP/listed_shape.spv" >"$TMP/inline.out" 2>&1 &&
  grep -q "listed_shape.spv: vkCreateComputePipelines VK_SUCCESS" "$TMP/inline.out" ||
  fail "a module in the stage's pNext: $(cat "$TMP/inline.out")"
env VK_COOPSPV_FAIL_ON_ERROR=1 "$CLIENT" --messenger --inline "$TMP/unlowerable.spv" \
  >"$TMP/inline.out" 2>&1
code=$?
[ "$code" = 1 ] &&
  grep -q "MESSAGE error VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163 | vkCreateComputePipelines: error: device.coop-matrix.type: %15 = OpTypeCooperativeMatrixKHR (16x7 float16" \
    "$TMP/inline.out" &&
  grep -q "unlowerable.spv: vkCreateComputePipelines VK_ERROR_UNKNOWN" "$TMP/inline.out" ||
  fail "an invalid module in the stage's pNext: exit $code, $(cat "$TMP/inline.out")"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "all VK_LAYER_coopspv emulation checks passed"
