#!/bin/bash
# The developer scripts name no absolute path of one machine (/work/..., /root/..., /home/...):
# the shared folder is found beside the repository or given as an argument.
set -u
files=(utils/*.py utils/*.sh test/run/coopvec/generate.py)
[ "${#files[@]}" -ge 10 ] || { echo "FAIL: only ${#files[@]} scripts found" >&2; exit 1; }
if grep -nE "['\"](/work|/root|/home)/" "${files[@]}"; then
  echo "FAIL: the lines above name a path of one machine" >&2
  exit 1
fi
echo "PASS: ${#files[@]} scripts, no machine paths"
