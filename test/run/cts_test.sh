#!/bin/bash
# The Vulkan CTS compute scripts listed in test/run/cts/expected.tsv, read from
# ../shared/peer/cts-amber beside the repository (third-party scripts are never copied into the
# project), run by coopspv-run on lavapipe: each must give its listed status (passed: exit 0;
# unsupported: exit 77), as written and through a pass pipeline that deletes and rebuilds
# declarations (--passes compares every buffer the shaders write).
set -u
RUN=tools/coopspv-run
LIST=test/run/cts/expected.tsv
failures=0
# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh
# The checkout this test comes from (the runfiles are links into it), and ../shared beside it.
root=$(cd "$(dirname "$(readlink -f "$LIST")")/../../.." && pwd)
CTS="${COOPSPV_SHARED:-$root/../shared}/peer/cts-amber"
if [ ! -d "$CTS" ]; then
  echo "cts_test: the CTS scripts are not at $CTS (../shared beside the checkout, or" \
    "\$COOPSPV_SHARED); nothing to run here" >&2
  exit 0
fi
PASSES="--freeze-spec-const --fold-spec-const --eliminate-dead --compact-ids"
count=0
while IFS=$'\t' read -r script status; do
  case "$script" in "#"* | "") continue ;; esac
  want=0
  [ "$status" = unsupported ] && want=77
  for mode in written passes; do
    args=()
    [ "$mode" = passes ] && args=(--passes "$PASSES")
    timeout 120 "$RUN" "${args[@]}" "$CTS/$script" >/tmp/cts_test.$$ 2>&1
    got=$?
    if [ "$got" != "$want" ]; then
      echo "FAIL: $script ($mode): exit $got, expected $want ($status)" >&2
      sed 's/^/    /' /tmp/cts_test.$$ | head -8 >&2
      failures=$((failures + 1))
    fi
  done
  count=$((count + 1))
done <"$LIST"
rm -f /tmp/cts_test.$$
[ "$count" -ge 110 ] || { echo "FAIL: only $count scripts listed" >&2; failures=$((failures + 1)); }
if [ "$failures" != 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "PASS: $count CTS scripts, as written and through $PASSES"
