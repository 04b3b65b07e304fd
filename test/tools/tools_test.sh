#!/bin/bash
# End-to-end checks of the command-line tools: help, version, exit codes, and the main jobs
# (assemble -> validate -> optimize -> validate -> disassemble) on realistic modules.
set -u
AS=tools/coopspv-as
DIS=tools/coopspv-dis
VAL=tools/coopspv-val
OPT=tools/coopspv-opt
MATMUL=test/val/data/tiled_matmul_khr.spvasm
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_exit <code> <description> <command...>
expect_exit() {
  local want=$1 what=$2
  shift 2
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    fail "$what: exit $got, expected $want"
    sed 's/^/    /' "$TMP/err" >&2
  fi
}

expect_contains() {
  local file=$1 text=$2 what=$3
  grep -qF -- "$text" "$file" || fail "$what: '$text' not in $(basename "$file")"
}

# Help, version and usage errors.
for tool in "$AS" "$DIS" "$VAL" "$OPT"; do
  expect_exit 0 "$tool --help" "$tool" --help
  expect_contains "$TMP/out" "Usage:" "$tool --help"
  expect_exit 0 "$tool --version" "$tool" --version
  expect_contains "$TMP/out" "coopspv" "$tool --version"
done
expect_exit 2 "coopspv-as unknown flag" "$AS" --no-such-flag
expect_exit 2 "coopspv-dis unknown flag" "$DIS" --no-such-flag
expect_exit 2 "coopspv-val unknown flag" "$VAL" --no-such-flag
expect_exit 2 "coopspv-val bad env" "$VAL" --target-env vulkan9 "$TMP/none"
expect_exit 1 "coopspv-opt unknown flag (spirv-opt exits 1)" "$OPT" --no-such-flag
expect_exit 2 "coopspv-val missing file" "$VAL" "$TMP/does-not-exist.spv"
"$OPT" --help >"$TMP/opt_help"
for pass in set-spec-const-default-value freeze-spec-const fold-spec-const fold-coop-length \
    eliminate-dead compact-ids lower-coop-vector; do
  expect_contains "$TMP/opt_help" "--$pass" "coopspv-opt --help lists --$pass"
done

# Assemble, validate, disassemble, reassemble: identical binaries.
expect_exit 0 "assemble the tiled matmul" "$AS" "$MATMUL" -o "$TMP/mm.spv"
expect_exit 0 "validate the tiled matmul" "$VAL" --target-env vulkan1.3 "$TMP/mm.spv"
expect_exit 0 "disassemble" "$DIS" "$TMP/mm.spv" -o "$TMP/mm.txt"
expect_exit 0 "reassemble" "$AS" "$TMP/mm.txt" -o "$TMP/mm2.spv"
cmp -s "$TMP/mm.spv" "$TMP/mm2.spv" || fail "text -> binary -> text -> binary is not identical"
"$AS" - -o - <"$MATMUL" >"$TMP/mm_stdin.spv" || fail "coopspv-as from stdin to stdout"
cmp -s "$TMP/mm.spv" "$TMP/mm_stdin.spv" || fail "stdin/stdout assembly differs"

# Bad input: malformed text, malformed binary, invalid module.
printf 'OpCapability Shader\n%%x = OpNoSuchOp\n' >"$TMP/bad.spvasm"
expect_exit 1 "coopspv-as bad text" "$AS" "$TMP/bad.spvasm" -o "$TMP/bad.spv"
expect_contains "$TMP/err" "2:6: error: unknown opcode 'OpNoSuchOp'" "assembler error names line:col"
printf '\x03\x02\x23\x07\x00' >"$TMP/trunc.spv"
expect_exit 1 "coopspv-dis truncated binary" "$DIS" "$TMP/trunc.spv"
expect_exit 1 "coopspv-val truncated binary" "$VAL" "$TMP/trunc.spv"
expect_contains "$TMP/err" "binary.malformed" "malformed binary rule id"
sed 's/%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor %K None/%a = OpCooperativeMatrixLoadKHR %matA %pA %rowMajor/' \
  "$MATMUL" >"$TMP/invalid.spvasm"
"$AS" "$TMP/invalid.spvasm" -o "$TMP/invalid.spv" || fail "assemble the invalid module"
expect_exit 1 "coopspv-val invalid module" "$VAL" --target-env vulkan1.3 "$TMP/invalid.spv"
expect_contains "$TMP/err" "error: coop-matrix.memory.stride:" "human diagnostic names the rule"
expect_contains "$TMP/err" "OpCooperativeMatrixLoadKHR" "human diagnostic shows the instruction"
expect_exit 1 "coopspv-val --json" "$VAL" --json --target-env vulkan1.3 "$TMP/invalid.spv"
expect_contains "$TMP/out" '"valid": false' "JSON result"
expect_contains "$TMP/out" '"rule": "coop-matrix.memory.stride"' "JSON rule id"
expect_exit 1 "coopspv-val -q" "$VAL" -q --target-env vulkan1.3 "$TMP/invalid.spv"
[ -s "$TMP/out" ] || [ -s "$TMP/err" ] && fail "coopspv-val -q printed something"
expect_exit 0 "coopspv-val --suppress" "$VAL" --suppress=coop-matrix.memory.stride \
  --target-env vulkan1.3 "$TMP/invalid.spv"
expect_exit 1 "coopspv-opt refuses an invalid input" "$OPT" --compact-ids "$TMP/invalid.spv" -o "$TMP/x.spv"

# The optimizer end to end: set spec-constant values, freeze, fold, eliminate, compact; the
# result validates, has no spec constants left, and the two tile sizes set to 32 share one
# constant.
cat >"$TMP/pipeline.cfg" <<'CFG'
# Specialize TM and TN to 32, TK to 16.
--set-spec-const-default-value "0:32 1:32 2:16"
--freeze-spec-const
--fold-spec-const
--eliminate-dead
--compact-ids
CFG
expect_exit 0 "coopspv-opt pipeline" "$OPT" --target-env vulkan1.3 --validate-after-each \
  --time-report -Oconfig="$TMP/pipeline.cfg" "$TMP/mm.spv" -o "$TMP/mm_opt.spv"
for pass in set-spec-const-default-value freeze-spec-const fold-spec-const eliminate-dead compact-ids; do
  expect_contains "$TMP/err" "--$pass" "--time-report lists --$pass"
done
expect_exit 0 "optimized module validates" "$VAL" --target-env vulkan1.3 "$TMP/mm_opt.spv"
"$DIS" "$TMP/mm_opt.spv" >"$TMP/mm_opt.txt"
grep -q "OpSpecConstant" "$TMP/mm_opt.txt" && fail "spec constants left after freeze + fold"
[ "$(grep -c "OpConstant %uint 32" "$TMP/mm_opt.txt")" = 1 ] ||
  fail "TM and TN (both 32) were not merged into one constant"
expect_contains "$TMP/mm_opt.txt" "OpTypeCooperativeMatrixKHR %half %uint_3 %TM %TK %uint_0" \
  "matrix A is 32 x 16 through the merged constants"
[ "$(wc -c <"$TMP/mm_opt.spv")" -lt "$(wc -c <"$TMP/mm.spv")" ] ||
  fail "the optimized module is not smaller"

# Cooperative vectors lowered to plain code: the argument is optional, the result validates
# and names nothing of SPV_NV_cooperative_vector.
COOPVEC=test/data/corpus/coopvec_loadstore_math.spvasm
expect_exit 0 "assemble a cooperative-vector module" "$AS" "$COOPVEC" -o "$TMP/cv.spv"
expect_exit 0 "coopspv-opt --lower-coop-vector" "$OPT" --target-env vulkan1.3 \
  --lower-coop-vector "$TMP/cv.spv" -o "$TMP/cv_low.spv"
expect_exit 0 "coopspv-opt --lower-coop-vector=<features>" "$OPT" --target-env vulkan1.3 \
  --lower-coop-vector=atomic-float32-add "$TMP/cv.spv" -o "$TMP/cv_low2.spv"
expect_exit 0 "lowered module validates" "$VAL" --target-env vulkan1.3 "$TMP/cv_low.spv"
"$DIS" "$TMP/cv_low.spv" >"$TMP/cv_low.txt"
grep -q "CooperativeVector" "$TMP/cv_low.txt" && fail "cooperative vectors left after lowering"
expect_exit 1 "coopspv-opt --lower-coop-vector=<unknown feature>" "$OPT" --target-env vulkan1.3 \
  --lower-coop-vector=atomic-float8-add "$TMP/cv.spv" -o "$TMP/cv_low3.spv"
expect_contains "$TMP/err" "unknown target feature" "--lower-coop-vector names the bad feature"

if [ "$failures" != 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all tool checks passed"
