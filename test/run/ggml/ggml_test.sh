#!/bin/bash
# ggml's cm2 kernels (../shared/corpus/real-sample, third-party: read from beside the checkout,
# never copied into it) with ggml's inputs (generate.py writes the scripts, see there), issue 31:
# - each kernel, specialized as its script specializes it, lowers for the H100 onto KHR matrices
#   (--lower-coop-matrix2=32,h100) and onto plain code (--lower-coop-matrix2=32
#   --lower-coop-matrix=32); every output validates (coopspv-val, and ../shared/bin/spirv-val)
#   and declares no matrix2 / tensor-addressing capability (the plain one no cooperative matrix);
# - legalized for lavapipe (--legalize-for-device=lavapipe), the scripts of LAVAPIPE run on
#   lavapipe and every element matches generate.py's reference; flash_attn_br64 (ggml's Br = Bc =
#   64 tuning) is refused for lavapipe's 32 KiB of Workgroup memory, with the bytes;
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
if [ ! -f "$SAMPLE/matmul_f16_cm2.spv" ]; then
  echo "FAIL: ggml's sample modules are not at $SAMPLE (../shared beside the checkout, or" \
    "\$COOPSPV_SHARED)" >&2
  exit 1
fi
SPIRV_VAL="$SHARED/bin/spirv-val"

WORK="$TMP/ggml"
rm -rf "$WORK" && mkdir -p "$WORK/spv"
python3 "$DIR/generate.py" "$WORK" || fail "generate.py"
cp "$DIR/staged_store.spvasm" "$WORK/"
# What ggml-vulkan.cpp hands a driver without VK_NV_cooperative_matrix_decode_vector.
for module in $(cut -d' ' -f2 "$WORK/SPECS" | sort -u); do
  "$OPT" --target-env vulkan1.3 --strip-decode-vector "$SAMPLE/$module.spv" \
    -o "$WORK/spv/$module.spv" || fail "$module: --strip-decode-vector"
done

validate() {  # what file
  "$VAL" --target-env vulkan1.3 "$2" >"$TMP/err" 2>&1 ||
    fail "$1 does not validate: $(head -3 "$TMP/err")"
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
  if ! "$OPT" --target-env vulkan1.3 "${freeze[@]}" --lower-coop-matrix2=32 \
      --lower-coop-matrix=32 "$WORK/spv/$module.spv" -o "$TMP/$name.plain.spv" 2>"$TMP/err"; then
    fail "$name: --lower-coop-matrix2=32 --lower-coop-matrix=32: $(cat "$TMP/err")"
  else
    validate "$name lowered to plain code" "$TMP/$name.plain.spv"
    "$DIS" "$TMP/$name.plain.spv" | grep -q "CooperativeMatrix" &&
      fail "$name: the plain lowering left a cooperative matrix"
  fi
done <"$WORK/SPECS"

# On lavapipe, legalized for it.
legalize=(--passes "--freeze-spec-const --fold-spec-const --legalize-for-device=lavapipe")
count=0
for name in $(cat "$WORK/LAVAPIPE"); do
  if ! timeout 900 "$RUN" --timeout-ms 600000 --passes-only "${legalize[@]}" \
      "$WORK/$name.amber" >"$TMP/out" 2>&1; then
    fail "$name: legalized for lavapipe, on lavapipe:"
    sed 's/^/    /' "$TMP/out" | head -12 >&2
  fi
  count=$((count + 1))
done
[ "$count" -ge 4 ] || fail "only $count scripts run on lavapipe"
if timeout 300 "$RUN" --passes-only "${legalize[@]}" "$WORK/flash_attn_br64.amber" \
    >"$TMP/out" 2>&1; then
  fail "flash_attn_br64 legalized for lavapipe: expected a refusal (Workgroup memory)"
else
  grep -q "bytes of Workgroup memory.*maxComputeSharedMemorySize 32768" "$TMP/out" ||
    fail "flash_attn_br64 for lavapipe: not refused for its Workgroup memory: $(head -3 "$TMP/out")"
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
echo "PASS: $(wc -l <"$WORK/SPECS") ggml pipelines lowered for the H100 and validated; $count run" \
  "legalized on lavapipe against the reference; staged_store lowered"
