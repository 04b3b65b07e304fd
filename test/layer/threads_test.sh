#!/bin/bash
# VK_LAYER_coopspv with threads creating pipelines at once: 4 threads on each of 2 devices, each
# creating a validated module, an emulated one, a specialized one and an emulated
# cooperative-vector one (its Transpose specialized) 5 times, with the cache directory shared;
# every creation succeeds. Run it under ThreadSanitizer too:
# bazel test --config=tsan //test/layer:threads_test
set -u
AS=tools/coopspv-as
CLIENT=test/layer/layer_client
RUN=$CLIENT
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
# shellcheck source=test/layer/layer_env.sh
. test/layer/layer_env.sh
for m in test/layer/listed_shape test/layer/spec_shape test/data/corpus/coopvec_int8_packed; do
  "$AS" "$m.spvasm" -o "$TMP/$(basename "$m").spv" || { echo "FAIL: assembling $m" >&2; exit 1; }
done
sed 's/OpCapability CooperativeMatrixKHR/OpCapability Int64/; /SPV_KHR_cooperative_matrix/d; /OpTypeCooperativeMatrixKHR/d; s/%length = OpCooperativeMatrixLengthKHR %uint %acc/%length = OpCopyObject %uint %uint_16/' \
  test/layer/listed_shape.spvasm >"$TMP/plain.spvasm"
"$AS" "$TMP/plain.spvasm" -o "$TMP/plain.spv" || { echo "FAIL: assembling plain" >&2; exit 1; }
for cache in "" "$TMP/cache"; do
  if ! timeout 600 env VK_COOPSPV_CACHE_DIR="$cache" "$CLIENT" --enable-layer --messenger \
      --devices 2 --threads 4 --repeat 5 --specialize 0:16 "$TMP/listed_shape.spv" \
      "$TMP/spec_shape.spv" "$TMP/plain.spv" "$TMP/coopvec_int8_packed.spv" >"$TMP/out" 2>&1; then
    echo "FAIL: threads creating pipelines (cache '$cache'):" >&2
    grep -v "VK_SUCCESS" "$TMP/out" | head -40 >&2
    exit 1
  fi
  n=$(grep -c "vkCreateComputePipelines VK_SUCCESS" "$TMP/out")
  [ "$n" = 160 ] || { echo "FAIL: $n pipelines, expected 160" >&2; exit 1; }
  if grep -q "MESSAGE error" "$TMP/out"; then
    echo "FAIL: errors reported: $(grep "MESSAGE error" "$TMP/out" | head)" >&2
    exit 1
  fi
done
echo PASS
