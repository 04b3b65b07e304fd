#!/bin/bash
# The native cooperative tests of test/run/native/ (written for the H100, their EXPECTs computed
# by generate.py from the specs) run on lavapipe with their shaders lowered:
# `coopspv-run --passes-only --lower` bakes each pipeline's SPECIALIZE values in, freezes and
# folds specialization constants, lowers cooperative matrices (for lavapipe's subgroup size, 8)
# and vectors, drops the cooperative device requirements the lowered modules no longer need,
# and every EXPECT must hold.
#
# The same scripts run with `--passes "--freeze-spec-const --fold-spec-const
# --legalize-for-device=lavapipe"`: the legalization for the built-in lavapipe profile (which
# lowers what lavapipe lacks and checks the result against the profile's device rules) gives
# modules that run there with every EXPECT holding (khr_workgroup_shared_bda's Workgroup-scope
# matrices through --lower-coop-matrix2, then --lower-coop-matrix). khr_bf16 needs --lower-small-floats too
# (lavapipe lacks shaderBFloat16Type): legalized, its output must also equal what the H100 wrote
# running it natively (test/run/golden/h100/native_khr_bf16.amber).
#
# Not here, and why:
# - nv_coopmat1_legacy, khr_gemm_specdims, khr_int8_saturating: one subgroup of 32 per
#   workgroup computes a whole matrix; with subgroups of 8 the workgroup holds four subgroups
#   that each compute it into the same memory (a different program, whatever the lowering does).
# - cm2_tensor_layouts: it lowers and validates (test/opt/corpus_test), not run here.
# cm2_transpose_convert, cm2_decode_q4 and cm2_softmax_reduce run through --lower
# (--lower-coop-matrix2=8 --lower-coop-matrix=8); the last two must also match what the H100
# wrote. Each of those two takes about 50 s of CPU with a cold Mesa shader cache (LLVM compiling
# the lowered shader: every subgroup holds each Workgroup-scope 64 x 64 or 128 x 128 tile whole,
# 512 or 2048 elements an invocation), 2 to 4 s with a warm one.
set -u
RUN=tools/coopspv-run
DIR=test/run/native
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

for name in khr_arith_funcs coopvec_mlp_f16 cm2_transpose_convert khr_vkcmp_style; do
  script="$DIR/$name.amber"
  if ! timeout 300 "$RUN" --timeout-ms 120000 --passes-only --lower "$script" >"$TMP/$name.out" 2>&1; then
    fail "$name: lowered on lavapipe"
    sed 's/^/    /' "$TMP/$name.out" | head -20 >&2
  elif ! grep -q "with the passes alone" "$TMP/$name.out"; then
    fail "$name: the report does not say the passes ran alone: $(cat "$TMP/$name.out")"
  fi
done

legalize=(--passes "--freeze-spec-const --fold-spec-const --legalize-for-device=lavapipe")
for name in khr_arith_funcs coopvec_mlp_f16 khr_workgroup_shared_bda khr_vkcmp_style; do
  script="$DIR/$name.amber"
  if ! timeout 300 "$RUN" --timeout-ms 120000 --passes-only "${legalize[@]}" "$script" \
      >"$TMP/$name.legal.out" 2>&1; then
    fail "$name: legalized for lavapipe, on lavapipe"
    sed 's/^/    /' "$TMP/$name.legal.out" | head -20 >&2
  elif ! grep -q "EXPECT passed .* with the passes alone" "$TMP/$name.legal.out"; then
    fail "$name: legalized for lavapipe: $(cat "$TMP/$name.legal.out")"
  fi
done
{
  sed "s#SPIRV-ASM FILE khr_bf16#SPIRV-ASM FILE $PWD/$DIR/khr_bf16#" "$DIR/khr_bf16.amber"
  cat test/run/golden/h100/native_khr_bf16.amber
  echo "EXPECT o EQ_BUFFER o_result"
  echo "EXPECT o16 EQ_BUFFER o16_result"
} >"$TMP/bf16_golden.amber"
if ! timeout 300 "$RUN" --timeout-ms 120000 --passes-only "${legalize[@]}" \
    "$TMP/bf16_golden.amber" >"$TMP/bf16.out" 2>&1; then
  fail "khr_bf16: legalized for lavapipe, on lavapipe"
  sed 's/^/    /' "$TMP/bf16.out" | head -20 >&2
elif ! grep -q "4 of 4 EXPECT passed .* with the passes alone" "$TMP/bf16.out"; then
  fail "khr_bf16 legalized for lavapipe: $(cat "$TMP/bf16.out")"
fi

# Matrix2 kernels lowered (Workgroup-scope multiply-adds split by rows, the element-by-element
# work shared by the workgroup) against the H100's output: <name> <EXPECT line> <EXPECT count>.
golden_lowered() {
  local name=$1 expect=$2 count=$3
  {
    sed "s#FILE ../../data/corpus/#FILE $PWD/test/data/corpus/#" "$DIR/$name.amber"
    cat "test/run/golden/h100/native_$name.amber"
    echo "$expect"
  } >"$TMP/${name}_golden.amber"
  # Lowered without a device budget, both need more Workgroup memory than lavapipe's 32 KiB
  # (cm2_decode_q4 104 KiB, cm2_softmax_reduce 42 KiB): coopspv-run's check against the device
  # refuses them (VUID-RuntimeSpirv-Workgroup-06530), and --skip-validation runs them anyway, as
  # lavapipe does not enforce the limit, to check what the lowering computes.
  "$RUN" --passes-only --lower "$TMP/${name}_golden.amber" >"$TMP/$name.refused.out" 2>&1
  code=$?
  [ "$code" = 2 ] && grep -q "device.shared-memory: .*above the device's maxComputeSharedMemorySize 32768 \[VUID-RuntimeSpirv-Workgroup-06530\]" "$TMP/$name.refused.out" ||
    fail "$name lowered, checked against lavapipe: exit $code, $(head -3 "$TMP/$name.refused.out")"
  if ! timeout 300 "$RUN" --timeout-ms 240000 --skip-validation --passes-only --lower \
      "$TMP/${name}_golden.amber" >"$TMP/$name.golden.out" 2>&1; then
    fail "$name: lowered on lavapipe"
    sed 's/^/    /' "$TMP/$name.golden.out" | head -20 >&2
  elif ! grep -q "$count of $count EXPECT passed .* with the passes alone" "$TMP/$name.golden.out"; then
    fail "$name lowered: $(cat "$TMP/$name.golden.out")"
  fi
}
golden_lowered cm2_decode_q4 "EXPECT d EQ_BUFFER d_result" 2
golden_lowered cm2_softmax_reduce "EXPECT o RMSE_BUFFER o_result TOLERANCE 0.0001" 321

# As written, the native scripts need the cooperative extensions lavapipe lacks: unsupported
# (exit 77), named.
"$RUN" "$DIR/khr_arith_funcs.amber" >"$TMP/native.out" 2>&1
code=$?
[ "$code" = 77 ] && grep -q "UNSUPPORTED: .*VK_KHR_cooperative_matrix" "$TMP/native.out" ||
  fail "khr_arith_funcs as written: exit $code, $(cat "$TMP/native.out")"

# A wrong expectation still fails with the passes alone: the generator's value, changed.
wrong="$TMP/khr_arith_funcs_wrong.amber"
sed -e 's/^EXPECT io IDX 1024 EQ 3 /EXPECT io IDX 1024 EQ 4 /' \
  -e "s#SPIRV-ASM FILE ../../data/corpus/#SPIRV-ASM FILE $PWD/test/data/corpus/#" \
  "$DIR/khr_arith_funcs.amber" >"$wrong"
"$RUN" --passes-only --lower "$wrong" >"$TMP/wrong.out" 2>&1
code=$?
[ "$code" = 1 ] && grep -q "io\[512\] is 3, expected 4" "$TMP/wrong.out" ||
  fail "a wrong expectation with --passes-only: exit $code, $(head -5 "$TMP/wrong.out")"

# --passes-only without passes is a usage error.
"$RUN" --passes-only "$DIR/khr_arith_funcs.amber" >"$TMP/usage.out" 2>&1
[ $? = 2 ] && grep -q "needs --passes or --lower" "$TMP/usage.out" ||
  fail "--passes-only alone: $(cat "$TMP/usage.out")"

# --create-pipeline: lavapipe accepts the lowered example GEMM and rejects it as written.
AS=tools/coopspv-as
OPT=tools/coopspv-opt
"$AS" examples/tiled_gemm.spvasm -o "$TMP/gemm.spv" &&
  "$OPT" --freeze-spec-const --fold-spec-const --lower-coop-matrix=8 "$TMP/gemm.spv" \
    -o "$TMP/gemm_lowered.spv" || fail "assembling and lowering examples/tiled_gemm"
"$RUN" --create-pipeline "$TMP/gemm_lowered.spv" >"$TMP/create.out" 2>&1
[ $? = 0 ] && grep -q "created a compute pipeline" "$TMP/create.out" ||
  fail "--create-pipeline, lowered module: $(cat "$TMP/create.out")"
"$RUN" --create-pipeline "$TMP/gemm.spv" >"$TMP/create.out" 2>&1
[ $? = 2 ] && grep -q "is not valid for llvmpipe" "$TMP/create.out" ||
  fail "--create-pipeline, cooperative module on lavapipe: $(cat "$TMP/create.out")"
"$RUN" --create-pipeline --skip-validation "$TMP/gemm.spv" >"$TMP/create.out" 2>&1
[ $? = 2 ] && grep -q "the driver rejected shader" "$TMP/create.out" ||
  fail "--create-pipeline --skip-validation, cooperative module on lavapipe: $(cat "$TMP/create.out")"
"$RUN" --create-pipeline examples/tiled_gemm.spvasm >"$TMP/create.out" 2>&1
[ $? = 2 ] && grep -q "is not a SPIR-V binary" "$TMP/create.out" ||
  fail "--create-pipeline on a text file: $(cat "$TMP/create.out")"

if [ "$failures" != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo PASS
