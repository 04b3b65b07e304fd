#!/bin/bash
# ggml's cm2 kernels (../shared/corpus/real-sample, third-party: read from beside the checkout,
# never copied into it) with ggml's inputs (generate.py writes the scripts, see there), issue 31:
# - each kernel, specialized as its script specializes it, lowers for the H100 onto KHR matrices
#   (--lower-coop-matrix2=32,h100) and on onto plain code (then --lower-coop-matrix=32); every
#   output validates (coopspv-val, also with the H100's profile: its shapes and 48 KiB of
#   Workgroup memory, and ../shared/bin/spirv-val) and declares no matrix2 / tensor-addressing
#   capability (the plain one no cooperative matrix);
# - legalized for lavapipe (--legalize-for-device=lavapipe), the scripts of LAVAPIPE run on
#   lavapipe and every element matches generate.py's reference (flash_attn_br64, ggml's Br = Bc =
#   64 tuning, legalizes in row bands but is too slow on llvmpipe: the GPU runs it);
# - ggml's other common pipelines (PIPELINES: matmul warptiles l / m / s, flash-attention
#   tunings for head sizes 64 / 128 / 256, conv2d shapes) lower for the H100 and lavapipe, or are
#   refused naming the Workgroup bytes generate.py lists;
# - staged_store (the reproducer of --lower-coop-matrix's fix for conv2d's staged store) runs
#   lowered on lavapipe, and its lowered store has no per-element MakePointerAvailable.
# utils/gpu_check_ggml.sh runs the same scripts natively and lowered on the H100.
set -u
DIR=test/run/ggml
OPT=tools/coopspv-opt
VAL=tools/coopspv-val
DIS=tools/coopspv-dis
RUN=tools/coopspv-run
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh

# The checkout this test comes from (the runfiles are links into it), and ../shared beside it.
root=$(cd "$(dirname "$(readlink -f "$DIR/generate.py")")/../../.." && pwd)
SHARED="${COOPSPV_SHARED:-$root/../shared}"
SAMPLE="$SHARED/corpus/real-sample"
# The sample may not be copied into the project: where it is not beside the checkout, only the
# in-tree reproducer (staged_store) runs.
HAVE_SAMPLE=1
if [ ! -f "$SAMPLE/matmul_f16_cm2.spv" ]; then
  echo "ggml_test: ggml's sample modules are not at $SAMPLE (../shared beside the checkout, or" \
    "\$COOPSPV_SHARED); only staged_store runs here" >&2
  HAVE_SAMPLE=0
fi
SPIRV_VAL="$SHARED/bin/spirv-val"

WORK="$TMP/ggml"
rm -rf "$WORK" && mkdir -p "$WORK/spv"
python3 "$DIR/generate.py" "$WORK" || fail "generate.py"
cp "$DIR/staged_store.spvasm" "$WORK/"
if [ "$HAVE_SAMPLE" = 1 ]; then
# What ggml-vulkan.cpp hands a driver without VK_NV_cooperative_matrix_decode_vector.
for module in $(cut -d' ' -f2 "$WORK/SPECS" | sort -u); do
  "$OPT" --target-env vulkan1.3 --strip-decode-vector "$SAMPLE/$module.spv" \
    -o "$WORK/spv/$module.spv" || fail "$module: --strip-decode-vector"
done

validate() {  # what file
  "$VAL" --target-env vulkan1.3 "$2" >"$TMP/err" 2>&1 ||
    fail "$1 does not validate: $(head -3 "$TMP/err")"
  "$VAL" --target-env vulkan1.3 --device-profile=h100 "$2" >"$TMP/err" 2>&1 ||
    fail "$1 is not valid for the H100: $(head -3 "$TMP/err")"
  if [ -x "$SPIRV_VAL" ]; then
    "$SPIRV_VAL" --target-env vulkan1.3 "$2" >"$TMP/err" 2>&1 ||
      fail "$1 is rejected by spirv-val: $(head -3 "$TMP/err")"
  fi
}

# Lowered for the H100, with each script's specialization.
while read -r name module spec; do
  freeze=(--set-spec-const-default-value "$spec" --freeze-spec-const --fold-spec-const)
  if ! "$OPT" --target-env vulkan1.3 "${freeze[@]}" --lower-coop-matrix2=32,h100 \
      "$WORK/spv/$module.spv" -o "$TMP/$name.khr.spv" 2>"$TMP/err"; then
    fail "$name: --lower-coop-matrix2=32,h100: $(cat "$TMP/err")"
  else
    validate "$name lowered to KHR" "$TMP/$name.khr.spv"
    "$DIS" "$TMP/$name.khr.spv" | grep -E "^ *OpCapability " |
      grep -E -q "TensorAddressing|Reductions|Conversions|PerElement|BlockLoads|DecodeVector" &&
      fail "$name: --lower-coop-matrix2=32,h100 left a matrix2 / tensor-addressing capability"
  fi
  # With the H100's profile first: without it flash_attn_br64 needs 49,184 bytes of Workgroup
  # memory, 32 above the H100's limit.
  if ! "$OPT" --target-env vulkan1.3 "${freeze[@]}" --lower-coop-matrix2=32,h100 \
      --lower-coop-matrix=32 "$WORK/spv/$module.spv" -o "$TMP/$name.plain.spv" 2>"$TMP/err"; then
    fail "$name: --lower-coop-matrix2=32,h100 --lower-coop-matrix=32: $(cat "$TMP/err")"
  else
    validate "$name lowered to plain code" "$TMP/$name.plain.spv"
    "$DIS" "$TMP/$name.plain.spv" | grep -q "CooperativeMatrix" &&
      fail "$name: the plain lowering left a cooperative matrix"
  fi
done <"$WORK/SPECS"

# ggml's other common pipelines (generate.py's PIPELINES): each lowers, or is refused naming the
# Workgroup bytes listed.
outcome() {  # name expected log exit: check one lowering's outcome
  if [ "$2" = ok ]; then
    [ "$4" = 0 ] || fail "$1: expected to lower: $(head -c 300 "$3")"
  elif [ "$4" = 0 ]; then
    fail "$1: expected a refusal for $2 bytes of Workgroup memory, but it lowered"
  else
    grep -q "needs $2 bytes of Workgroup memory" "$3" ||
      fail "$1: expected a refusal for $2 bytes of Workgroup memory: $(head -c 300 "$3")"
  fi
}
pipelines=0
while read -r name module h100 lavapipe spec; do
  freeze=(--set-spec-const-default-value "$spec" --freeze-spec-const --fold-spec-const)
  "$OPT" --target-env vulkan1.3 "${freeze[@]}" --lower-coop-matrix2=32,h100 \
    "$WORK/spv/$module.spv" -o "$TMP/p.khr.spv" >"$TMP/err" 2>&1
  code=$?
  outcome "$name (h100)" "$h100" "$TMP/err" "$code"
  [ "$code" = 0 ] && validate "$name lowered to KHR" "$TMP/p.khr.spv"
  "$OPT" --target-env vulkan1.3 "${freeze[@]}" --lower-coop-matrix2=32,h100 \
    --lower-coop-matrix=32 "$WORK/spv/$module.spv" -o "$TMP/p.plain.spv" >"$TMP/err" 2>&1
  code=$?
  outcome "$name (h100, plain)" "$h100" "$TMP/err" "$code"
  [ "$code" = 0 ] && validate "$name lowered to plain code" "$TMP/p.plain.spv"
  "$OPT" --target-env vulkan1.3 "${freeze[@]}" --legalize-for-device=lavapipe \
    "$WORK/spv/$module.spv" -o "$TMP/p.lvp.spv" >"$TMP/err" 2>&1
  code=$?
  outcome "$name (lavapipe)" "$lavapipe" "$TMP/err" "$code"
  if [ "$code" = 0 ]; then
    "$VAL" --target-env vulkan1.3 --device-profile=lavapipe "$TMP/p.lvp.spv" >"$TMP/err" 2>&1 ||
      fail "$name legalized for lavapipe is not valid for it: $(head -3 "$TMP/err")"
  fi
  pipelines=$((pipelines + 1))
done <"$WORK/PIPELINES"
[ "$pipelines" -ge 16 ] || fail "only $pipelines ggml pipelines listed"

# On lavapipe, legalized for it.
legalize=(--passes "--freeze-spec-const --fold-spec-const --legalize-for-device=lavapipe")
count=0
for name in $(cat "$WORK/LAVAPIPE"); do
  if ! timeout 1200 "$RUN" --passes-only "${legalize[@]}" \
      "$WORK/$name.amber" >"$TMP/out" 2>&1; then
    fail "$name: legalized for lavapipe, on lavapipe:"
    sed 's/^/    /' "$TMP/out" | head -12 >&2
  fi
  count=$((count + 1))
done
[ "$count" -ge 4 ] || fail "only $count scripts run on lavapipe"
# flash_attn_br64 is legalized for lavapipe in row bands (PIPELINES: flash_attn_hs64_br64), and
# runs on the H100 (utils/gpu_check_ggml.sh): on llvmpipe it takes longer than this test has.
fi

# The --lower-coop-matrix reproducer.
timeout 300 "$RUN" --passes-only --passes "--lower-coop-matrix=8" "$WORK/staged_store.amber" \
  >"$TMP/out" 2>&1 || {
  fail "staged_store lowered, on lavapipe:"
  sed 's/^/    /' "$TMP/out" | head -8 >&2
}
tools/coopspv-as "$DIR/staged_store.spvasm" -o "$TMP/staged.spv" &&
  "$OPT" --target-env vulkan1.3 --lower-coop-matrix=8 "$TMP/staged.spv" -o "$TMP/staged.low.spv" &&
  "$DIS" "$TMP/staged.low.spv" >"$TMP/staged.low.spvasm" || fail "staged_store: lowering"
grep -q "MakePointerAvailable" "$TMP/staged.low.spvasm" &&
  fail "staged_store: the lowered store still makes each element available"
grep -q "OpMemoryBarrier %uint_2 " "$TMP/staged.low.spvasm" ||
  fail "staged_store: no Workgroup-scope OpMemoryBarrier after the lowered store"

if [ "$failures" != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
if [ "$HAVE_SAMPLE" = 0 ]; then
  echo "PASS: staged_store lowered (ggml's sample modules absent: nothing else to run)"
  exit 0
fi
echo "PASS: $(wc -l <"$WORK/SPECS") ggml scripts lowered for the H100 and validated; $count run" \
  "legalized on lavapipe against the reference; $pipelines more pipelines lowered or refused as" \
  "listed; staged_store lowered"
