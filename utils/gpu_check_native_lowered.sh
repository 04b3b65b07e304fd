#!/bin/bash
# Native vs lowered on a GPU with the cooperative extensions (written for the H100 / H200; run by
# hand, never by the tests): every test/run/native/*.amber with a "# lower: <passes>" line runs as
# written and with its shaders through --freeze-spec-const --fold-spec-const <passes>, in one
# coopspv-run --passes call, which checks the EXPECTs of both runs and compares every buffer the
# shaders wrote (buffers that hold an optimal-layout matrix are left out: the driver's layout in
# one run, row-major in the other). One line per script, then the reports.
#
# Usage: utils/gpu_check_native_lowered.sh [coopspv-run] [report dir]
#        (defaults: .gpu/bin/coopspv-run, $OUT or ./gpu_check_native_lowered)
set -u
cd "$(dirname "$0")/.." || exit 2
RUN=${1:-.gpu/bin/coopspv-run}
DIR=${2:-${OUT:-gpu_check_native_lowered}}
mkdir -p "$DIR"
# shellcheck source=utils/gpu_env.sh
. utils/gpu_env.sh
failures=0
for script in test/run/native/*.amber; do
  passes=$(sed -n 's/^# lower: //p' "$script" | head -1)
  [ -n "$passes" ] || continue
  name=$(basename "$script" .amber)
  timeout 300 "$RUN" --json --timeout-ms 120000 \
    --passes "--freeze-spec-const --fold-spec-const $passes" "$script" \
    >"$DIR/$name.lowered.json" 2>"$DIR/$name.lowered.stderr"
  code=$?
  summary=$(python3 - "$DIR/$name.lowered.json" <<'PY' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))
fails = [e["command"] + " (" + e.get("variant", "") + ")" for e in r.get("expects", [])
         if e.get("result") != "pass"]
diffs = [c["buffer"] for c in r.get("comparisons", []) if c.get("result") != "equal"]
same = [c["buffer"] for c in r.get("comparisons", []) if c.get("result") == "equal"]
print("equal: %s; different: %s; failed EXPECTs: %s" % (" ".join(same) or "-",
      " ".join(diffs) or "-", "; ".join(fails) or "-"))
PY
)
  [ "$code" = 0 ] || failures=$((failures + 1))
  echo "$name: exit $code; ${summary:-$(tail -c 400 "$DIR/$name.lowered.stderr")}"
done
[ "$failures" = 0 ]
