#!/bin/sh
# //:libcoopspv.so exports the C API of include/coopspv/coopspv.h and nothing else, under the
# version nodes COOPSPV_1 and COOPSPV_1.1 (functions added in 0.2), with the SONAME of the header's major version.
set -eu
root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
lib="$root/libcoopspv.so"
header="$root/include/coopspv/coopspv.h"
fail() { echo "FAIL: $*" >&2; exit 1; }

symbols=$(nm -D --defined-only "$lib" | awk '{print $3}')
[ -n "$symbols" ] || fail "no exported symbol in $lib"
for s in $symbols; do
  case "$s" in
    COOPSPV_1 | COOPSPV_1.1) ;;        # The version nodes themselves.
    coopspv_context_set_block_layout@@COOPSPV_1.1) ;;
    coopspv_*@@COOPSPV_1) ;;
    *) fail "exported symbol outside the C API: $s" ;;
  esac
done

# Every function the header declares is exported, and nothing it does not declare.
declared=$(grep -o 'coopspv_[a-z_0-9]*(' "$header" | tr -d '(' | sort -u)
exported=$(printf '%s\n' $symbols | grep '^coopspv_' | sed 's/@@.*//' | sort -u)
[ "$declared" = "$exported" ] || {
  echo "declared in coopspv.h:" >&2; echo "$declared" >&2
  echo "exported by libcoopspv.so:" >&2; echo "$exported" >&2
  fail "the header and the library disagree"
}

major=$(sed -n 's/^#define COOPSPV_VERSION_MAJOR \([0-9]*\)$/\1/p' "$header")
[ -n "$major" ] || fail "no COOPSPV_VERSION_MAJOR in coopspv.h"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libcoopspv.so.$major" ] || fail "SONAME '$soname', expected libcoopspv.so.$major"

# The static archive holds the same C API.
for f in $declared; do
  [ -f "$root/libcoopspv.a" ] || fail "no libcoopspv.a"
  nm --defined-only "$root/libcoopspv.a" 2>/dev/null | grep -q " T $f\$" || fail "libcoopspv.a lacks $f"
done
echo "PASS: $(echo "$exported" | wc -l) coopspv_* symbols, SONAME $soname"
