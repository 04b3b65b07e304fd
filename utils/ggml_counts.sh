#!/bin/bash
# Prints "<passed> <failed>" for a test-backend-ops log (utils/ggml_check.sh run,
# utils/gpu_ggml_ops.sh): test-backend-ops' own count ("  <passed>/<total> tests passed") when it
# finished, else its verdicts so far (VK_LAYER_coopspv's messages may split a case's line from
# its verdict, so the verdicts are counted, not the lines).
#
#   utils/ggml_counts.sh <log>
set -u
log=$1
summary=$(grep -m1 -E "^  [0-9]+/[0-9]+ tests passed" "$log")
if [ -n "$summary" ]; then
  passed=$(echo "$summary" | sed -E 's#^ *([0-9]+)/.*#\1#')
  total=$(echo "$summary" | sed -E 's#^ *[0-9]+/([0-9]+).*#\1#')
  echo "$passed $((total - passed))"
else
  echo "$(grep -o '32mOK' "$log" | wc -l) $(grep -o '31mFAIL' "$log" | wc -l)"
fi
