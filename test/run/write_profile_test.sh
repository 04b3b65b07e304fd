#!/bin/bash
# coopspv-run --write-profile on lavapipe (chosen by its ICD file): the profile it writes is the
# built-in test/data/profiles/lavapipe.json (regenerate that file when Debian's Mesa changes),
# coopspv-val reads it back and refuses a cooperative module with it, and an unwritable output
# path is a usage error.
set -u
RUN=tools/coopspv-run
VAL=tools/coopspv-val
AS=tools/coopspv-as
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
ICD=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
export VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD"
export LSAN_OPTIONS="suppressions=$PWD/test/run/lsan_suppressions.txt:print_suppressions=0"
LVP=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
if ldd "$RUN" | grep -q libasan && [ -f "$LVP" ]; then
  RUN_ENV=(env LD_PRELOAD="$LVP" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
else
  RUN_ENV=()
fi
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

"${RUN_ENV[@]}" "$RUN" --write-profile "$TMP/lavapipe.json" || fail "--write-profile exited $?"
cmp -s "$TMP/lavapipe.json" test/data/profiles/lavapipe.json ||
  fail "the written profile differs from test/data/profiles/lavapipe.json: $(diff "$TMP/lavapipe.json" test/data/profiles/lavapipe.json | head -5)"

"$AS" --target-env vulkan1.3 test/data/corpus/khr_gemm_specdims.spvasm -o "$TMP/gemm.spv" || fail "assemble"
"$VAL" --target-env vulkan1.3 "$TMP/gemm.spv" || fail "the module is not valid without a profile"
"$VAL" --target-env vulkan1.3 --device-profile="$TMP/lavapipe.json" "$TMP/gemm.spv" 2> "$TMP/val.err"
rc=$?
[ $rc = 1 ] || fail "with lavapipe's profile: exit $rc, expected 1"
grep -q "device.capability: the capability CooperativeMatrixKHR needs the feature cooperativeMatrix" "$TMP/val.err" ||
  fail "no device.capability diagnostic: $(cat "$TMP/val.err")"

"${RUN_ENV[@]}" "$RUN" --write-profile "$TMP/no/such/dir/p.json" 2> "$TMP/run.err"
rc=$?
[ $rc = 2 ] || fail "unwritable --write-profile path: exit $rc, expected 2"

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "PASS"
