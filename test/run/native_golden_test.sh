#!/bin/bash
# The lowered cooperative-vector modules on lavapipe against what real hardware computed: each
# native script of test/run/native/ named below runs with its shader lowered as its
# "# lower:" line says (coopspv-run --passes-only: optimal-layout matrices become row-major ones,
# which CONVERT_MATRIX then writes in software), with the device extensions of its
# "# lowered-needs:" line and the EXPECTs of its "# lowered-expect:" lines added, and with the
# golden dump of the native run on the GPU (test/run/golden/h100/native_<name>.amber) loaded and
# compared buffer by buffer. The script's own EXPECTs (generate.py's values) must hold too.
set -u
RUN=tools/coopspv-run
DIR=test/run/native
GOLDEN=test/run/golden/h100
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# lowered_script <name> <compare lines...>: writes $TMP/<name>.amber.
lowered_script() {
  local name=$1 script="$DIR/$1.amber"
  shift
  {
    for e in $(sed -n 's/^# lowered-needs: //p' "$script"); do echo "DEVICE_EXTENSION $e"; done
    sed "s#FILE ../../data/corpus/#FILE $PWD/test/data/corpus/#" "$script"
    sed -n 's/^# lowered-expect: //p' "$script"
    cat "$GOLDEN/native_$name.amber"
    printf '%s\n' "$@"
  } >"$TMP/$name.amber"
}

# run_lowered <name> <expected exit> <text the output must hold>
run_lowered() {
  local name=$1 want=$2 text=$3
  local passes
  passes=$(sed -n 's/^# lower: //p' "$DIR/$name.amber")
  timeout 300 "$RUN" --timeout-ms 120000 --passes-only \
    --passes "--freeze-spec-const --fold-spec-const $passes" "$TMP/$name.amber" >"$TMP/$name.out" 2>&1
  local got=$?
  if [ "$got" != "$want" ] || ! grep -qF -- "$text" "$TMP/$name.out"; then
    fail "$name lowered: exit $got (expected $want), no '$text'"
    sed 's/^/    /' "$TMP/$name.out" | head -20 >&2
  fi
}

# Integer and exact float results: bit for bit. coopvec_loadstore_math applies tanh, atan, exp
# and log, which the GPU and LLVM compute a few ulps apart.
lowered_script coopvec_int8_packed "EXPECT out EQ_BUFFER out_result"
run_lowered coopvec_int8_packed 0 "PASS: 2 of 2 EXPECT passed"
lowered_script coopvec_fp8_matmul "EXPECT z EQ_BUFFER z_result"
run_lowered coopvec_fp8_matmul 0 "PASS: 2 of 2 EXPECT passed"
lowered_script coopvec_training "EXPECT dw_rows EQ_BUFFER dw_rows_result" \
  "EXPECT db EQ_BUFFER db_result"
run_lowered coopvec_training 0 "PASS: 5 of 5 EXPECT passed"
lowered_script coopvec_loadstore_math "EXPECT w RMSE_BUFFER w_result TOLERANCE 0.0001" \
  "EXPECT h RMSE_BUFFER h_result TOLERANCE 0.001"
run_lowered coopvec_loadstore_math 0 "PASS: 66 of 66 EXPECT passed"

# The comparison can fail: one golden value changed (element 3 of the E4M3 product) is found.
lowered_script coopvec_fp8_matmul "EXPECT z EQ_BUFFER z_result"
awk '/^BUFFER z_result / { golden = 1; print; next }
     golden && !done { $4 = $4 + 1; done = 1 } { print }' "$TMP/coopvec_fp8_matmul.amber" \
  >"$TMP/wrong.amber" && mv "$TMP/wrong.amber" "$TMP/coopvec_fp8_matmul.amber"
run_lowered coopvec_fp8_matmul 1 "first mismatch at index 3"

# Lowered without optimal-as-row-major, an InferencingOptimal matrix is refused: exit 2, said so.
"$RUN" --passes-only --passes "--freeze-spec-const --fold-spec-const --lower-coop-vector=atomic-float16-add" \
  "$DIR/coopvec_int8_packed.amber" >"$TMP/optimal.out" 2>&1
code=$?
[ "$code" = 2 ] && grep -qF "InferencingOptimalNV" "$TMP/optimal.out" ||
  fail "coopvec_int8_packed lowered without optimal-as-row-major: exit $code, $(cat "$TMP/optimal.out")"

if [ "$failures" != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo PASS
