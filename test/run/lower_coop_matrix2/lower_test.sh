#!/bin/bash
# --lower-coop-matrix2 on the generated kernels of this folder (see generate.py):
# - the files here are what generate.py writes (no hand edits, no stale cases; native/ holds the
#   kernels as written for a GPU with VK_NV_cooperative_matrix2, utils/gpu_check.sh style);
# - every kernel validates as written, lowers with --lower-coop-matrix2=8 alone (the result
#   validates with no matrix2 / tensor-addressing left) and with --lower-coop-matrix2=8
#   --lower-coop-matrix=8 (the result validates with no cooperative matrix left);
# - the fully lowered kernel runs on lavapipe with coopspv-run and every element of the output
#   equals what generate.py computed.
set -u
DIR=test/run/lower_coop_matrix2
AS=tools/coopspv-as
OPT=tools/coopspv-opt
VAL=tools/coopspv-val
DIS=tools/coopspv-dis
RUN=${1:-tools/coopspv-run}
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh

mkdir -p "$TMP/generated"
python3 "$DIR/generate.py" "$TMP/generated" || fail "generate.py"
for f in "$TMP"/generated/*.* "$TMP"/generated/CASES "$TMP"/generated/native/*; do
  rel=${f#"$TMP/generated/"}
  cmp -s "$f" "$DIR/$rel" || fail "$DIR/$rel differs from what generate.py writes: rerun it"
done

cases=$(cat "$DIR/CASES")
[ -n "$cases" ] || fail "no cases"
for c in $cases; do
  "$AS" "$DIR/$c.spvasm" -o "$TMP/$c.native.spv" || { fail "$c: does not assemble"; continue; }
  "$VAL" --target-env vulkan1.3 "$TMP/$c.native.spv" >"$TMP/err" 2>&1 ||
    fail "$c: the kernel as written does not validate: $(head -5 "$TMP/err")"
  if ! "$OPT" --target-env vulkan1.3 --lower-coop-matrix2=8 "$TMP/$c.native.spv" \
      -o "$TMP/$c.khr.spv" 2>"$TMP/err"; then
    fail "$c: --lower-coop-matrix2=8: $(cat "$TMP/err")"
    continue
  fi
  "$VAL" --target-env vulkan1.3 "$TMP/$c.khr.spv" >"$TMP/err" 2>&1 ||
    fail "$c: --lower-coop-matrix2 output does not validate: $(head -5 "$TMP/err")"
  # Debug instructions (glslang's names and source extensions) may still say so.
  "$DIS" "$TMP/$c.khr.spv" | grep -v -E "^ *Op(Name|MemberName|Source|SourceExtension) " |
    grep -E -q "Tensor|matrix2|ConversionsNV|ReductionsNV|PerElement" &&
    fail "$c: --lower-coop-matrix2 output still holds matrix2 / tensor addressing"
  "$DIS" "$TMP/$c.khr.spv" | grep -q "OpCooperativeMatrixLoadKHR" ||
    fail "$c: --lower-coop-matrix2 output has no OpCooperativeMatrixLoadKHR"
  if ! "$OPT" --target-env vulkan1.3 --lower-coop-matrix2=8 --lower-coop-matrix=8 \
      "$TMP/$c.native.spv" -o "$TMP/$c.spv" 2>"$TMP/err"; then
    fail "$c: --lower-coop-matrix2=8 --lower-coop-matrix=8: $(cat "$TMP/err")"
    continue
  fi
  "$VAL" --target-env vulkan1.3 "$TMP/$c.spv" >"$TMP/err" 2>&1 ||
    fail "$c: fully lowered output does not validate: $(head -5 "$TMP/err")"
  "$DIS" "$TMP/$c.spv" | grep -q CooperativeMatrix &&
    fail "$c: fully lowered output still holds a cooperative matrix"
  cp "$DIR/$c.amber" "$TMP/$c.amber"
  if ! timeout 300 "$RUN" "$TMP/$c.amber" >"$TMP/out" 2>&1; then
    fail "$c: lowered kernel on lavapipe"
    sed 's/^/    /' "$TMP/out" | head -20 >&2
  fi
done
if [ "$failures" != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "PASS: $(echo "$cases" | wc -w) kernels lowered and run on lavapipe"
