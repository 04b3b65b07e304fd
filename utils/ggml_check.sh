#!/bin/bash
# ggml's own judge of the lowering (issue 30): builds ggml's Vulkan backend and test-backend-ops
# outside this tree, from snapshots of the public ggml-org/ggml, KhronosGroup/Vulkan-Headers and
# KhronosGroup/Vulkan-Hpp repositories, and runs test-backend-ops on a Vulkan device, plainly and
# through VK_LAYER_coopspv. A developer tool: ggml is third-party and its build takes long (about
# 25 minutes on 2 cores), so nothing in the build or CI needs it.
#
#   utils/ggml_check.sh build <work dir> <ggml> <Vulkan-Headers> <Vulkan-Hpp>
#   utils/ggml_check.sh run <work dir> <label> <op> [params regex] [env ...]
#   utils/ggml_check.sh package <work dir> <tar.xz>
#
# build: each source is a snapshot's git dir or a checkout.
#   Debian 12's Vulkan headers (1.3.239) predate VK_KHR_cooperative_matrix, and ggml compiles its
#   cooperative paths only when the headers have them; Vulkan-Headers' snapshot lacks its largest
#   generated file (vulkan_structs.hpp), so the C++ headers are generated anew from the snapshot's
#   registry (vk.xml) by Vulkan-Hpp's generator, which needs Debian's libtinyxml2-dev. The shaders
#   are compiled by ../shared/bin/glslang through utils/glslc_glslang.sh (ggml's build calls glslc).
#   Writes <work dir>/build/bin/test-backend-ops.
# run: test-backend-ops -o <op> [-p <params regex>] -b Vulkan0 with the extra environment
#   (e.g. VK_INSTANCE_LAYERS=VK_LAYER_coopspv GGML_VK_DISABLE_COOPMAT2=1); GGML_VK_VISIBLE_DEVICES=0
#   lets ggml use a CPU device (lavapipe). Writes <work dir>/<label>.<op>.log and prints
#   "<label> <op>: <passed> passed, <failed> failed" (exit 0 when nothing failed).
# package: test-backend-ops and its libraries in one archive for a GPU machine (run it there with
#   LD_LIBRARY_PATH=<unpacked>/ggmlpkg/lib).
#
# Through the layer on lavapipe, ggml reports "matrix cores: NV_coopmat2" (the layer emulates
# VK_NV_cooperative_matrix2 and VK_KHR_cooperative_matrix); GGML_VK_DISABLE_COOPMAT2=1 makes it
# take its _cm1 path.
set -u
[ $# -ge 2 ] || { sed -n 2,28p "$0"; exit 2; }
MODE=$1
WORK=$(mkdir -p "$2" && cd "$2" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GLSLANG=${GLSLANG:-$ROOT/../shared/bin/glslang}

# extract <git dir or checkout> <dest> <path>...: the snapshot's files at HEAD (a git dir), or a
# copy (a checkout). A file a snapshot lists but lacks is skipped.
extract() {
  local src=$1 dest=$2
  shift 2
  mkdir -p "$dest"
  if git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1; then
    local f
    git --git-dir="$src" ls-tree -r --name-only HEAD -- "$@" | while read -r f; do
      mkdir -p "$dest/$(dirname "$f")"
      git --git-dir="$src" show "HEAD:$f" >"$dest/$f" 2>/dev/null || rm -f "$dest/$f"
    done
  else
    local p
    for p in "$@"; do
      mkdir -p "$dest/$(dirname "$p")" && cp -r "$src/$p" "$dest/$(dirname "$p")/"
    done
  fi
}

case "$MODE" in
build)
  [ $# -ge 5 ] || { sed -n 2,28p "$0"; exit 2; }
  GGML=$3 HEADERS=$4 HPP=$5
  [ -f /usr/include/tinyxml2.h ] || { echo "ggml_check: apt-get install libtinyxml2-dev" >&2; exit 2; }
  command -v cmake >/dev/null && command -v ninja >/dev/null ||
    { echo "ggml_check: apt-get install cmake ninja-build" >&2; exit 2; }
  extract "$GGML" "$WORK/ggml" CMakeLists.txt cmake include src tests ggml.pc.in || exit 2
  extract "$HEADERS" "$WORK/vulkan-headers" include registry/vk.xml registry/video.xml || exit 2
  extract "$HPP" "$WORK/vulkan-hpp" generator || exit 2
  # The C++ headers, generated from the registry the C headers came from.
  (cd "$WORK/vulkan-hpp" &&
    g++ -std=c++20 -O1 -DBASE_PATH="\"$WORK/vulkan-hpp\"" \
      -DVK_SPEC="\"$WORK/vulkan-headers/registry/vk.xml\"" generator/VulkanHppGenerator.cpp \
      generator/VkXMLParser.cpp generator/DependencyParser.cpp -ltinyxml2 -pthread \
      -o VulkanHppGenerator && mkdir -p vulkan && ./VulkanHppGenerator >generate.log 2>&1) ||
    { echo "ggml_check: Vulkan-Hpp's generator failed ($WORK/vulkan-hpp)" >&2; exit 2; }
  INC=$WORK/vulkan-include
  rm -rf "$INC" && mkdir -p "$INC" && cp -r "$WORK/vulkan-headers/include/." "$INC/" &&
    cp "$WORK/vulkan-hpp/vulkan/"*.hpp "$INC/vulkan/" || exit 2
  # ggml's build calls glslc: utils/glslc_glslang.sh serves it with glslang.
  export GLSLANG
  cmake -S "$WORK/ggml" -B "$WORK/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_VULKAN=ON \
    -DGGML_BUILD_TESTS=ON -DGGML_BUILD_EXAMPLES=OFF -DGGML_NATIVE=OFF \
    -DVulkan_INCLUDE_DIR="$INC" -DVulkan_GLSLC_EXECUTABLE="$ROOT/utils/glslc_glslang.sh" \
    >"$WORK/configure.log" 2>&1 ||
    { tail -20 "$WORK/configure.log"; exit 2; }
  grep -E "supported by glslc|Including Vulkan" "$WORK/configure.log"
  ninja -C "$WORK/build" test-backend-ops >"$WORK/build.log" 2>&1 ||
    { tail -20 "$WORK/build.log"; exit 2; }
  echo "ggml_check: built $WORK/build/bin/test-backend-ops"
  ;;
run)
  [ $# -ge 4 ] || { sed -n 2,28p "$0"; exit 2; }
  LABEL=$3 OP=$4
  PARAMS=${5:-}
  shift $(($# < 5 ? $# : 5))
  BIN=$WORK/build/bin/test-backend-ops
  [ -x "$BIN" ] || { echo "ggml_check: no $BIN (run: $0 build $WORK)" >&2; exit 2; }
  LOG=$WORK/$LABEL.$OP.log
  args=(-o "$OP" -b Vulkan0)
  [ -n "$PARAMS" ] && args+=(-p "$PARAMS")
  env GGML_VK_VISIBLE_DEVICES=0 VK_LAYER_PATH="${VK_LAYER_PATH:-$ROOT/bazel-bin/source/layer}" \
    "$@" "$BIN" "${args[@]}" >"$LOG" 2>&1
  rc=$?
  read -r passed failed < <("$ROOT/utils/ggml_counts.sh" "$LOG")
  grep -m1 'matrix cores' "$LOG"
  echo "$LABEL $OP: $passed passed, $failed failed (exit $rc; $LOG)"
  [ "$rc" = 0 ] && [ "$failed" = 0 ]
  ;;
package)
  [ $# -ge 3 ] || { sed -n 2,28p "$0"; exit 2; }
  PKG=$WORK/ggmlpkg
  rm -rf "$PKG" && mkdir -p "$PKG/lib" &&
    cp -L "$WORK/build/bin/test-backend-ops" "$PKG/" &&
    cp -L "$WORK"/build/src/libggml.so.0 "$WORK"/build/src/libggml-base.so.0 \
      "$WORK"/build/src/libggml-cpu.so.0 "$WORK"/build/src/ggml-vulkan/libggml-vulkan.so.0 \
      "$PKG/lib/" && strip "$PKG/test-backend-ops" "$PKG"/lib/* &&
    tar -cJf "$3" -C "$WORK" ggmlpkg && ls -l "$3"
  ;;
*)
  sed -n 2,28p "$0"
  exit 2
  ;;
esac
