#!/bin/sh
# utils/install.sh into a temporary prefix, then what a driver's build does with it: compile the
# C example (examples/validate.c) with `cc $(pkg-config --cflags --libs coopspv)`, run it on a
# valid and an invalid module, check its output and exit status.
set -eu
root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
tmp="${TEST_TMPDIR}"
prefix="$tmp/prefix"
fail() { echo "FAIL: $*" >&2; exit 1; }

COOPSPV_SRC_DIR="$root" COOPSPV_BIN_DIR="$root" sh "$root/utils/install.sh" "$prefix"

# The library under its full version, with the SONAME link and the development link.
header="$prefix/include/coopspv/coopspv.h"
[ -f "$header" ] || fail "no installed coopspv.h"
[ -f "$prefix/include/coopspv/coopspv.hpp" ] || fail "no installed coopspv.hpp"
major=$(sed -n 's/^#define COOPSPV_VERSION_MAJOR \([0-9]*\)$/\1/p' "$header")
version="$major.$(sed -n 's/^#define COOPSPV_VERSION_MINOR \([0-9]*\)$/\1/p' "$header")"
version="$version.$(sed -n 's/^#define COOPSPV_VERSION_PATCH \([0-9]*\)$/\1/p' "$header")"
[ -f "$prefix/lib/libcoopspv.so.$version" ] || fail "no libcoopspv.so.$version"
[ "$(readlink "$prefix/lib/libcoopspv.so.$major")" = "libcoopspv.so.$version" ] ||
  fail "libcoopspv.so.$major does not link to libcoopspv.so.$version"
[ "$(readlink "$prefix/lib/libcoopspv.so")" = "libcoopspv.so.$major" ] ||
  fail "libcoopspv.so does not link to libcoopspv.so.$major"
[ -f "$prefix/lib/libcoopspv.a" ] || fail "no libcoopspv.a"
for t in coopspv-as coopspv-dis coopspv-val coopspv-opt coopspv-run; do
  [ -x "$prefix/bin/$t" ] || fail "no $t in bin"
done
# VK_LAYER_coopspv: the library and a manifest that names it where it was installed.
[ -x "$prefix/lib/libVkLayer_coopspv.so" ] || fail "no libVkLayer_coopspv.so"
manifest="$prefix/share/vulkan/explicit_layer.d/VkLayer_coopspv.json"
grep -q "\"library_path\": \"$prefix/lib/libVkLayer_coopspv.so\"" "$manifest" ||
  fail "the layer's manifest does not name the installed library: $(cat "$manifest")"

# Under --config=asan the library needs the sanitizers' runtimes: the example links them too
# (ASan's runtime must come first in the process).
sanitize=""
if readelf -d "$root/libcoopspv.so" | grep -q 'libasan'; then
  sanitize="-fsanitize=address,undefined"
fi

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion coopspv)" = "$version" ] || fail "pkg-config --modversion"
flags=$(pkg-config --cflags --libs coopspv)
echo "pkg-config --cflags --libs coopspv: $flags"

# A C compiler, C99, pedantic: the header is C, not C++ that happens to compile as C.
# shellcheck disable=SC2086
cc -std=c99 -pedantic -Wall -Wextra -Werror -o "$tmp/validate" "$root/examples/validate.c" \
  $flags -Wl,-rpath,"$prefix/lib" $sanitize
ldd "$tmp/validate" | grep -q "libcoopspv.so.$major => $prefix/lib/libcoopspv.so.$major" ||
  { ldd "$tmp/validate" >&2; fail "validate does not load the installed libcoopspv.so.$major"; }

# A valid module, assembled by the installed coopspv-as.
"$prefix/bin/coopspv-as" "$root/examples/tiled_gemm.spvasm" -o "$tmp/valid.spv"
status=0
"$tmp/validate" --target-env vulkan1.3 "$tmp/valid.spv" >"$tmp/out" 2>&1 || status=$?
cat "$tmp/out"
[ "$status" = 0 ] || fail "valid module: exit $status"
grep -q "valid.spv: valid (coopspv $version, 0 diagnostics)" "$tmp/out" || fail "valid module: output"

# An invalid one: two operands whose ids nothing defines.
cp "$root/test/api/data/undefined_operands.spvasm" "$tmp/invalid.spvasm"
"$prefix/bin/coopspv-as" "$tmp/invalid.spvasm" -o "$tmp/invalid.spv"
status=0
"$tmp/validate" "$tmp/invalid.spv" >"$tmp/out" 2>&1 || status=$?
cat "$tmp/out"
[ "$status" = 1 ] || fail "invalid module: exit $status, expected 1"
grep -q "^error: id.undefined: " "$tmp/out" || fail "invalid module: no id.undefined error"
grep -q "OpIAdd" "$tmp/out" || fail "invalid module: the instruction is not printed"
grep -q "invalid.spv: invalid (coopspv $version, 2 diagnostics)" "$tmp/out" ||
  fail "invalid module: output"

# The static archive is whole: the example links against it and libstdc++ alone.
cc -std=c99 -o "$tmp/validate_static" "$root/examples/validate.c" $(pkg-config --cflags coopspv) \
  "$prefix/lib/libcoopspv.a" -lstdc++ -lm $sanitize
! ldd "$tmp/validate_static" | grep -q libcoopspv || fail "validate_static loads libcoopspv.so"
status=0
"$tmp/validate_static" "$tmp/invalid.spv" >"$tmp/out_static" 2>&1 || status=$?
[ "$status" = 1 ] || fail "static example, invalid module: exit $status, expected 1"
cmp -s "$tmp/out" "$tmp/out_static" || fail "the static example prints something else"

# A file that is not a module, and a bad target environment: usage errors.
printf 'abc' >"$tmp/short.spv"
status=0; "$tmp/validate" "$tmp/short.spv" >/dev/null 2>&1 || status=$?
[ "$status" = 2 ] || fail "3-byte file: exit $status, expected 2"
status=0; "$tmp/validate" --target-env vulkan9 "$tmp/valid.spv" >/dev/null 2>&1 || status=$?
[ "$status" = 2 ] || fail "unknown target environment: exit $status, expected 2"
echo PASS
