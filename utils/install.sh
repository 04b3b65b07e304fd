#!/bin/sh
# Installs coopspv under PREFIX:
#   PREFIX/lib/libcoopspv.so.MAJOR.MINOR.PATCH, libcoopspv.so.MAJOR -> it, libcoopspv.so -> that
#   PREFIX/lib/libcoopspv.a, PREFIX/lib/pkgconfig/coopspv.pc (with PREFIX written in)
#   PREFIX/include/coopspv/coopspv.h (C API) and coopspv.hpp (C++ API: link libcoopspv.a)
#   PREFIX/bin/coopspv-as, coopspv-dis, coopspv-val, coopspv-opt, coopspv-run
#   PREFIX/lib/libVkLayer_coopspv.so and PREFIX/share/vulkan/explicit_layer.d/VkLayer_coopspv.json
#   (naming the library by its installed path): VK_LAYER_coopspv (docs/layer.md), which the
#   loader finds there for PREFIX /usr or /usr/local, else with
#   VK_LAYER_PATH=PREFIX/share/vulkan/explicit_layer.d
#
# Usage: utils/install.sh PREFIX
# It builds what it installs with Bazel first. With COOPSPV_BIN_DIR set (a directory laid out like
# bazel-bin), it builds nothing and takes the built files from there, and the sources (headers,
# coopspv.pc.in) from COOPSPV_SRC_DIR (default: this checkout); test/api:install_test does that.
set -eu

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
case "$1" in
  /*) prefix=$1 ;;
  *) prefix="$(pwd)/$1" ;;
esac

src="${COOPSPV_SRC_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
tools="coopspv-as coopspv-dis coopspv-val coopspv-opt coopspv-run"
if [ -z "${COOPSPV_BIN_DIR:-}" ]; then
  targets="//:libcoopspv.so //:libcoopspv_static //source/layer:libVkLayer_coopspv.so"
  for t in $tools; do targets="$targets //tools:$t"; done
  # shellcheck disable=SC2086
  (cd "$src" && bazel build -c opt $targets >&2)
  bin="$(cd "$src" && bazel info -c opt bazel-bin)"
else
  bin=$COOPSPV_BIN_DIR
fi

header="$src/include/coopspv/coopspv.h"
version_part() { sed -n "s/^#define COOPSPV_VERSION_$1 \\([0-9]*\\)\$/\\1/p" "$header"; }
major=$(version_part MAJOR)
version="$major.$(version_part MINOR).$(version_part PATCH)"

install -d "$prefix/lib/pkgconfig" "$prefix/include/coopspv" "$prefix/bin"
install -m 755 "$bin/libcoopspv.so" "$prefix/lib/libcoopspv.so.$version"
ln -sf "libcoopspv.so.$version" "$prefix/lib/libcoopspv.so.$major"
ln -sf "libcoopspv.so.$major" "$prefix/lib/libcoopspv.so"
install -m 644 "$bin/libcoopspv.a" "$prefix/lib/libcoopspv.a"
install -m 644 "$src/include/coopspv/coopspv.h" "$src/include/coopspv/coopspv.hpp" \
  "$prefix/include/coopspv/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" "$src/utils/coopspv.pc.in" \
  >"$prefix/lib/pkgconfig/coopspv.pc"
chmod 644 "$prefix/lib/pkgconfig/coopspv.pc"
for t in $tools; do
  install -m 755 "$bin/tools/$t" "$prefix/bin/$t"
done
install -d "$prefix/share/vulkan/explicit_layer.d"
install -m 755 "$bin/source/layer/libVkLayer_coopspv.so" "$prefix/lib/libVkLayer_coopspv.so"
sed "s|@LIBRARY_PATH@|$prefix/lib/libVkLayer_coopspv.so|" "$src/source/layer/VkLayer_coopspv.json.in" \
  >"$prefix/share/vulkan/explicit_layer.d/VkLayer_coopspv.json"
chmod 644 "$prefix/share/vulkan/explicit_layer.d/VkLayer_coopspv.json"
echo "installed coopspv $version in $prefix" >&2
