#!/bin/bash
# Proves that utils/generate_grammar.py merges grammars by value:
#  1. Generating from the project's core grammar data plus a project grammar fixture whose every
#     entry the data already holds (a), and again from the merged output of (a) plus the fixture
#     (b), gives byte-identical tables and headers; (a) also matches the build's tables, which
#     come from the data alone.
#  2. An old-style core grammar (an opcode under its old name only, an entry the project also has,
#     duplicate capability entries of one value) merges into one entry per value.
#  3. Operand lists that are not prefixes of one another make the generator fail.
#
# Arguments (see BUILD): generator, core grammar, project grammar, registry, the build's merged
# JSON, tables and header, the three fixtures, then the extended-instruction grammars.
set -euo pipefail

if [[ $# -lt 11 ]]; then
  echo "usage: $0 GENERATOR CORE PROJECT REGISTRY BUILT_JSON BUILT_TABLES BUILT_HEADER" \
    "OLD_CORE CONFLICT_OPERANDS CONFLICT_PARAMETERS EXTINST..." >&2
  exit 2
fi
GENERATOR=$1
CORE=$2
PROJECT=$3
REGISTRY=$4
BUILT_JSON=$5
BUILT_TABLES=$6
BUILT_HEADER=$7
OLD_CORE=$8
CONFLICT_OPERANDS=$9
CONFLICT_PARAMETERS=${10}
shift 10
EXTINST_ARGS=()
for f in "$@"; do EXTINST_ARGS+=(--extinst "$f"); done

OUT=$(mktemp -d "${TEST_TMPDIR:-/tmp}/merge_test.XXXXXX")
FAILURES=0

fail() {
  echo "FAIL: $*" >&2
  FAILURES=$((FAILURES + 1))
}

# generate NAME CORE_JSON [more generator flags...]: writes $OUT/NAME.{h,inc,json}.
generate() {
  local name=$1 core=$2
  shift 2
  python3 "$GENERATOR" --core "$core" --project "$PROJECT" "$@" \
    --header "$OUT/$name.h" --tables "$OUT/$name.inc" --merged-json "$OUT/$name.json"
}

same() {  # same FILE1 FILE2 WHAT
  if ! cmp -s "$1" "$2"; then
    fail "$3: $1 and $2 differ"
    diff "$1" "$2" | head -20 >&2 || true
  fi
}

# ------------------------------------------------------------------------------------------------
echo "== 1. Regenerating from a package that already holds every project entry changes nothing"
generate a "$CORE" "${EXTINST_ARGS[@]}" --registry "$REGISTRY"
generate b "$OUT/a.json" "${EXTINST_ARGS[@]}" --registry "$REGISTRY"
for f in a.inc a.h a.json; do
  [[ -s "$OUT/$f" ]] || fail "$f is empty"
done
same "$OUT/a.inc" "$OUT/b.inc" "tables (a) vs (b)"
same "$OUT/a.h" "$OUT/b.h" "header (a) vs (b)"
same "$OUT/a.json" "$OUT/b.json" "merged JSON (a) vs (b)"
# A third round is a fixed point too.
generate c "$OUT/b.json" "${EXTINST_ARGS[@]}" --registry "$REGISTRY"
same "$OUT/a.inc" "$OUT/c.inc" "tables (a) vs (c)"
# The build's genrule ran the same generator on the same inputs.
same "$BUILT_TABLES" "$OUT/a.inc" "tables of //source/grammar:generate_tables vs (a)"
same "$BUILT_HEADER" "$OUT/a.h" "header of //source/grammar:generate_tables vs (a)"
same "$BUILT_JSON" "$OUT/a.json" "merged.core.grammar.json of the build vs (a)"
grep -q '^  TypeVectorIdEXT = 5288,$' "$OUT/a.h" || fail "header (a) lacks TypeVectorIdEXT = 5288"
grep -q '^  TypeCooperativeVectorNV = 5288,$' "$OUT/a.h" ||
  fail "header (a) lacks TypeCooperativeVectorNV = 5288"

# ------------------------------------------------------------------------------------------------
echo "== 2. An old-style core grammar merges one entry per value"
if generate old "$OLD_CORE"; then
  python3 - "$OUT/old.json" <<'EOF' || fail "merged JSON of the old-style fixture"
import collections
import json
import sys

g = json.load(open(sys.argv[1]))
errors = []

def check(condition, message):
    if not condition:
        errors.append(message)

# No opcode twice, no spelling on two opcodes.
opcodes = collections.Counter(i["opcode"] for i in g["instructions"])
check(all(n == 1 for n in opcodes.values()),
      "duplicated opcodes: %s" % [o for o, n in opcodes.items() if n > 1])
spellings = collections.Counter(
    n for i in g["instructions"] for n in [i["opname"]] + i.get("aliases", []))
check(all(n == 1 for n in spellings.values()),
      "spellings on several opcodes: %s" % [s for s, n in spellings.items() if n > 1])
# No enumerant value twice within a kind, no kind twice.
kinds = collections.Counter(k["kind"] for k in g["operand_kinds"])
check(all(n == 1 for n in kinds.values()), "duplicated kinds")
for kind in g["operand_kinds"]:
    values = collections.Counter(int(str(e["value"]), 0) for e in kind.get("enumerants", []))
    check(all(n == 1 for n in values.values()),
          "%s: duplicated values %s" % (kind["kind"], [v for v, n in values.items() if n > 1]))

insts = {i["opcode"]: i for i in g["instructions"]}
vec = insts.get(5288, {})
check(vec.get("opname") == "OpTypeVectorIdEXT", "5288 opname: %r" % vec.get("opname"))
check(vec.get("aliases") == ["OpTypeCooperativeVectorNV"], "5288 aliases: %r" % vec.get("aliases"))
check("CooperativeVectorNV" in vec.get("capabilities", []) and
      "LongVectorEXT" in vec.get("capabilities", []),
      "5288 capabilities: %r" % vec.get("capabilities"))
check(vec.get("class") == "Type-Declaration", "5288 class: %r" % vec.get("class"))
mat = insts.get(4456, {})
check(mat.get("opname") == "OpTypeCooperativeMatrixKHR" and len(mat.get("operands", [])) == 6,
      "4456: %r" % mat)
# The longer operand list wins when one extends the other.
tf = insts.get(22, {})
check([o["kind"] for o in tf.get("operands", [])] == ["IdResult", "LiteralInteger", "FPEncoding"]
      and tf["operands"][2].get("quantifier") == "?", "OpTypeFloat operands: %r" % tf)
check(0 in insts and 17 in insts and 5366 in insts, "entries of either input are missing")

caps = {int(str(e["value"]), 0): e for k in g["operand_kinds"] if k["kind"] == "Capability"
        for e in k["enumerants"]}
vmm = caps.get(5345, {})
check(vmm.get("enumerant") == "VulkanMemoryModel", "5345: %r" % vmm)
check(vmm.get("aliases") == ["VulkanMemoryModelKHR"], "5345 aliases: %r" % vmm.get("aliases"))
check(vmm.get("extensions") == ["SPV_KHR_vulkan_memory_model"], "5345 extensions: %r" % vmm)
check(caps.get(1, {}).get("enumerant") == "Shader", "Shader is missing")
check(caps.get(5447, {}).get("capabilities") == ["CooperativeMatrixBlockLoadsNV"],
      "5447: %r" % caps.get(5447))

for e in errors:
    print("  " + e, file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
  grep -q '^  TypeVectorIdEXT = 5288,$' "$OUT/old.h" || fail "old: header lacks TypeVectorIdEXT"
  grep -q '^  TypeCooperativeVectorNV = 5288,$' "$OUT/old.h" ||
    fail "old: header lacks TypeCooperativeVectorNV"
  grep -q '^  VulkanMemoryModelKHR = 0x14e1u,$' "$OUT/old.h" ||
    fail "old: header lacks VulkanMemoryModelKHR"
  # Merging is by value here too: the merged fixture is a fixed point.
  generate old2 "$OUT/old.json"
  same "$OUT/old.inc" "$OUT/old2.inc" "old-style tables, first vs second round"
  same "$OUT/old.h" "$OUT/old2.h" "old-style header, first vs second round"
  same "$OUT/old.json" "$OUT/old2.json" "old-style merged JSON, first vs second round"
else
  fail "the generator refused the old-style fixture"
fi

# ------------------------------------------------------------------------------------------------
echo "== 3. Operand lists that disagree make the generator fail"
for fixture in "$CONFLICT_OPERANDS" "$CONFLICT_PARAMETERS"; do
  name=$(basename "$fixture" .grammar.json)
  if generate "$name" "$fixture" 2>"$OUT/$name.stderr"; then
    fail "$name: the generator accepted disagreeing operand lists"
  else
    grep -q "operand lists disagree" "$OUT/$name.stderr" ||
      fail "$name: unexpected error: $(cat "$OUT/$name.stderr")"
    for ext in h inc json; do
      [[ ! -e "$OUT/$name.$ext" ]] || fail "$name: the failed run wrote $name.$ext"
    done
  fi
done

if [[ $FAILURES -ne 0 ]]; then
  echo "$FAILURES check(s) failed" >&2
  exit 1
fi
echo "PASS"
