#!/bin/bash
# Runs every AmberScript test under a directory with coopspv-run and prints one line per script
# and a table: passed, unsupported (exit 77: the device lacks what the script asks for), failed
# (an EXPECT or a buffer comparison), error (exit 2), crash (a signal: the driver's, as a rule).
# A developer tool for third-party suites that are not part of the project, such as the Vulkan
# CTS's compute scripts (../shared/peer/cts-amber) or google/amber's tests/cases:
#
#   utils/amber_suite.sh [-r coopspv-run] [-t seconds] [-o results.tsv] <dir> [-- run flags...]
#
# Flags after "--" go to every run: e.g. -- --passes "--eliminate-dead --compact-ids" runs each
# script as written and after the passes and compares the buffers (a difference is a failure).
# results.tsv gets: script, status, exit code, first line of the message. Exit 0 when nothing
# failed, errored or crashed.
set -u
RUN="bazel-bin/tools/coopspv-run"
TIMEOUT=120
RESULTS=""
while getopts "r:t:o:" opt; do
  case $opt in
    r) RUN=$OPTARG ;;
    t) TIMEOUT=$OPTARG ;;
    o) RESULTS=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-r coopspv-run] [-t seconds] [-o results.tsv] <dir> [-- flags]" >&2; exit 2; }
DIR=$1
shift
[ "${1:-}" = "--" ] && shift
[ -d "$DIR" ] || { echo "amber_suite: no directory $DIR" >&2; exit 2; }
[ -x "$RUN" ] || { echo "amber_suite: no coopspv-run at $RUN" >&2; exit 2; }
declare -A count=([passed]=0 [unsupported]=0 [failed]=0 [error]=0 [crash]=0)
out=$(mktemp)
[ -n "$RESULTS" ] && : >"$RESULTS"
while IFS= read -r script; do
  timeout "$TIMEOUT" "$RUN" "$@" "$script" >"$out" 2>&1
  code=$?
  case $code in
    0) status=passed ;;
    1) status=failed ;;
    2) status=error ;;
    77) status=unsupported ;;
    *) status=crash ;;
  esac
  count[$status]=$((count[$status] + 1))
  message=$(grep -v '^$' "$out" | head -1 | cut -c1-200)
  printf '%-11s %s: %s\n' "$status" "${script#"$DIR"/}" "$message"
  [ -n "$RESULTS" ] && printf '%s\t%s\t%s\t%s\n' "${script#"$DIR"/}" "$status" "$code" "$message" >>"$RESULTS"
done < <(find "$DIR" -name '*.amber' | sort)
rm -f "$out"
total=$((count[passed] + count[unsupported] + count[failed] + count[error] + count[crash]))
echo "| scripts | passed | unsupported | failed | error | crash |"
echo "|---|---|---|---|---|---|"
echo "| $total | ${count[passed]} | ${count[unsupported]} | ${count[failed]} | ${count[error]} | ${count[crash]} |"
[ $((count[failed] + count[error] + count[crash])) = 0 ]
