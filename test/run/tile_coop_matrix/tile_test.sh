#!/bin/bash
# --tile-coop-matrix and --lower-coop-matrix2=<S>,<profile> (see BUILD):
# - big_matmul.spvasm (32 x 32 x 16 half x half + float, element-wise arithmetic, a splat, a
#   conversion, a length) fails the device rules of the h100 profile's fixed shapes as written
#   and passes them tiled (--tile-coop-matrix=h100); lowered with --lower-coop-matrix=8 both
#   ways, the two kernels run in one Amber script on lavapipe, every output equal to what
#   generate.py computed and to each other;
# - mixed_matmul.spvasm (big_matmul and an 8 x 16 uint32 chain no H100 shape takes): tiled for
#   the h100 shapes, its uint32 chain lowered to plain code and its half one left as tiles; run
#   on lavapipe (lowered) like big_matmul;
# - test/run/lower_coop_matrix2/workgroup_matmul and test/data/corpus/cm2_transpose_convert
#   (specialization constants frozen): --lower-coop-matrix2=<S> alone, S = 32 and 8, leaves
#   shapes the fixed list lacks (8 x 64, 32 x 16, ...: asserted), --lower-coop-matrix2=<S>,h100
#   passes coopspv-val --device-profile=h100 and the fixed shapes' rules;
# - workgroup_matmul --lower-coop-matrix2=8,h100 --lower-coop-matrix=8 still gives generate.py's
#   results on lavapipe. (cm2_transpose_convert tiled and lowered also does, but Mesa compiles
#   its 48 tile products for about a minute: run by hand, see README.md.)
set -u
AS=tools/coopspv-as
OPT=tools/coopspv-opt
VAL=tools/coopspv-val
DIS=tools/coopspv-dis
RUN=${1:-tools/coopspv-run}
DIR=test/run/tile_coop_matrix
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh

# The h100 profile without flexible dimensions: only its VkCooperativeMatrixPropertiesKHR list.
sed 's/"cooperativeMatrixFlexibleDimensions": true/"cooperativeMatrixFlexibleDimensions": false/' \
  test/data/profiles/h100.json >"$TMP/fixed.json"
grep -q '"cooperativeMatrixFlexibleDimensions": false' "$TMP/fixed.json" ||
  fail "could not write the fixed-shapes profile"

# passes <module> <profile>: the module passes the profile's device rules.
passes() {
  "$VAL" --target-env vulkan1.3 --device-profile="$2" "$1" >"$TMP/err" 2>&1
}

# The plain KHR kernel.
python3 "$DIR/generate.py" "$TMP" || fail "generate.py"
"$AS" "$DIR/big_matmul.spvasm" -o "$TMP/big.spv" || fail "big_matmul does not assemble"
passes "$TMP/big.spv" "$TMP/fixed.json" && fail "big_matmul as written passes the fixed shapes"
grep -q "device.coop-matrix.muladd" "$TMP/err" || fail "big_matmul: no muladd shape error"
"$OPT" --target-env vulkan1.3 --tile-coop-matrix=h100 "$TMP/big.spv" -o "$TMP/big.tiled.spv" ||
  fail "big_matmul: --tile-coop-matrix=h100"
passes "$TMP/big.tiled.spv" "$TMP/fixed.json" || fail "big_matmul tiled: $(head -3 "$TMP/err")"
passes "$TMP/big.tiled.spv" h100 || fail "big_matmul tiled, h100: $(head -3 "$TMP/err")"
"$OPT" --target-env vulkan1.3 --lower-coop-matrix=8 "$TMP/big.spv" -o "$TMP/big_matmul.plain.spv" ||
  fail "big_matmul: --lower-coop-matrix=8"
"$OPT" --target-env vulkan1.3 --tile-coop-matrix=h100 --lower-coop-matrix=8 "$TMP/big.spv" \
  -o "$TMP/big_matmul.tiled.spv" || fail "big_matmul: --tile-coop-matrix=h100 --lower-coop-matrix=8"
cmp -s "$TMP/big_matmul.plain.spv" "$TMP/big_matmul.tiled.spv" &&
  fail "big_matmul: the tiling changed nothing"
if ! (cd "$TMP" && timeout 300 "$OLDPWD/$RUN" big_matmul.amber) >"$TMP/out" 2>&1; then
  fail "big_matmul, untiled and tiled, on lavapipe"
  sed 's/^/    /' "$TMP/out" | head -20 >&2
elif ! grep -q "7 of 7 EXPECT passed" "$TMP/out"; then
  fail "big_matmul: $(cat "$TMP/out")"
fi

# mixed_matmul: big_matmul beside an 8 x 16 uint32 accumulator no H100 shape takes. With the
# h100 shapes, the half chain becomes tiles and the uint32 one plain code (S = 8, then lowered
# whole for lavapipe); --legalize-for-device=h100 does the same at S = 32. Both pass the h100
# rules; on lavapipe, lowered, it computes what generate.py says, tiled or not.
"$AS" "$DIR/mixed_matmul.spvasm" -o "$TMP/mixed.spv" || fail "mixed_matmul does not assemble"
for how in "--lower-coop-matrix2=8,h100" "--legalize-for-device=h100"; do
  if "$OPT" --target-env vulkan1.3 $how "$TMP/mixed.spv" -o "$TMP/mixed.kept.spv" 2>"$TMP/err"; then
    passes "$TMP/mixed.kept.spv" h100 || fail "mixed_matmul $how fails h100: $(head -3 "$TMP/err")"
    "$DIS" "$TMP/mixed.kept.spv" >"$TMP/mixed.kept.txt" || fail "mixed_matmul $how: coopspv-dis"
    grep -q "OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_0" \
      "$TMP/mixed.kept.txt" || fail "mixed_matmul $how: no 16 x 16 half tiles left"
    grep -q "OpTypeCooperativeMatrixKHR %uint" "$TMP/mixed.kept.txt" &&
      fail "mixed_matmul $how: the uint32 matrix is still a cooperative matrix"
  else
    fail "mixed_matmul $how: $(cat "$TMP/err")"
  fi
done
"$OPT" --target-env vulkan1.3 --lower-coop-matrix2=8,h100 --lower-coop-matrix=8 "$TMP/mixed.spv" \
  -o "$TMP/mixed_matmul.tiled.spv" || fail "mixed_matmul: --lower-coop-matrix2=8,h100 --lower-coop-matrix=8"
"$OPT" --target-env vulkan1.3 --lower-coop-matrix=8 "$TMP/mixed.spv" \
  -o "$TMP/mixed_matmul.plain.spv" || fail "mixed_matmul: --lower-coop-matrix=8"
if ! (cd "$TMP" && timeout 300 "$OLDPWD/$RUN" mixed_matmul.amber) >"$TMP/out" 2>&1; then
  fail "mixed_matmul, plain and tiled, on lavapipe"
  sed 's/^/    /' "$TMP/out" | head -20 >&2
elif ! grep -q "9 of 9 EXPECT passed" "$TMP/out"; then
  fail "mixed_matmul: $(cat "$TMP/out")"
fi

# The matrix2 kernels.
"$AS" test/run/lower_coop_matrix2/workgroup_matmul.spvasm -o "$TMP/wm.spv" ||
  fail "workgroup_matmul does not assemble"
"$AS" test/data/corpus/cm2_transpose_convert.spvasm -o "$TMP/tc.in.spv" ||
  fail "cm2_transpose_convert does not assemble"
"$OPT" --target-env vulkan1.3 --freeze-spec-const --fold-spec-const "$TMP/tc.in.spv" \
  -o "$TMP/tc.spv" || fail "cm2_transpose_convert: freezing"
for kernel in wm tc; do
  for s in 32 8; do
    name="$kernel --lower-coop-matrix2=$s"
    if "$OPT" --target-env vulkan1.3 --lower-coop-matrix2=$s "$TMP/$kernel.spv" \
        -o "$TMP/$kernel.$s.spv" 2>"$TMP/err"; then
      passes "$TMP/$kernel.$s.spv" "$TMP/fixed.json" &&
        fail "$name: the untiled output passes the fixed shapes"
    else
      fail "$name: $(cat "$TMP/err")"
    fi
    if "$OPT" --target-env vulkan1.3 --lower-coop-matrix2=$s,h100 "$TMP/$kernel.spv" \
        -o "$TMP/$kernel.$s.tiled.spv" 2>"$TMP/err"; then
      passes "$TMP/$kernel.$s.tiled.spv" h100 || fail "$name,h100 fails h100: $(head -3 "$TMP/err")"
      passes "$TMP/$kernel.$s.tiled.spv" "$TMP/fixed.json" ||
        fail "$name,h100 fails the fixed shapes: $(head -3 "$TMP/err")"
    else
      fail "$name,h100: $(cat "$TMP/err")"
    fi
  done
done
# What the H200 refused: 8-row pieces of the split multiply-adds, in the h100 profile itself.
passes "$TMP/tc.32.spv" h100 && fail "cm2_transpose_convert --lower-coop-matrix2=32 passes h100"
grep -q "8x64 float16 MatrixA" "$TMP/err" || fail "cm2_transpose_convert: no 8x64 error: $(head -3 "$TMP/err")"
passes "$TMP/wm.8.spv" h100 && fail "workgroup_matmul --lower-coop-matrix2=8 passes h100"

# A device with VK_KHR_cooperative_matrix only (the H100 without VK_NV_cooperative_matrix2):
# --legalize-for-device lowers the matrix2 kernels onto KHR tiles it lists.
grep -v '"VK_NV_cooperative_matrix2",' "$TMP/fixed.json" >"$TMP/khr_only.json"
for kernel in wm tc; do
  if "$OPT" --target-env vulkan1.3 --legalize-for-device="$TMP/khr_only.json" "$TMP/$kernel.spv" \
      -o "$TMP/$kernel.legal.spv" 2>"$TMP/err"; then
    passes "$TMP/$kernel.legal.spv" "$TMP/khr_only.json" ||
      fail "$kernel legalized for a KHR-only H100: $(head -3 "$TMP/err")"
  else
    fail "$kernel --legalize-for-device=<KHR-only H100>: $(cat "$TMP/err")"
  fi
done

"$OPT" --target-env vulkan1.3 --lower-coop-matrix=8 "$TMP/wm.8.tiled.spv" \
  -o "$TMP/workgroup_matmul.spv" || fail "workgroup_matmul: --lower-coop-matrix=8 after tiling"
cp test/run/lower_coop_matrix2/workgroup_matmul.amber "$TMP/"
if ! (cd "$TMP" && timeout 300 "$OLDPWD/$RUN" workgroup_matmul.amber) >"$TMP/out" 2>&1; then
  fail "workgroup_matmul tiled and lowered, on lavapipe"
  sed 's/^/    /' "$TMP/out" | head -20 >&2
fi

if [ "$failures" != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "PASS: big_matmul tiled equals untiled on lavapipe; workgroup_matmul and" \
  "cm2_transpose_convert tiled pass the h100 shapes"
