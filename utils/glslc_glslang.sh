#!/bin/bash
# glslc's command line, served by glslang: ggml's build and its vulkan-shaders-gen call glslc,
# which Debian 12 lacks (utils/ggml_check.sh, utils/ggml_coop_check.sh).
#   GLSLANG        the glslang to run (default ../shared/bin/glslang beside the checkout)
#   GLSLC_INCLUDE  a directory for #include (glslc enables #include by itself; glslang needs
#                  GL_GOOGLE_include_directive, which this turns on)
#   GLSLC_ONLY     a shell pattern: an output whose file name does not match it is written
#                  empty instead of compiled
# Understood: -fshader-stage=compute, --target-env=<env>, -o <file> (- for standard output),
# -MD / -MF <file> (the dependency file is only touched); -O, -O0 and -Os are dropped (glslang's
# output unoptimized is what the sample modules of ../shared/corpus/real-sample are); anything
# else goes to glslang as it is. glslang names the file even when it succeeds; glslc says
# nothing then, so glslang's output is shown only on failure.
set -u
GLSLANG=${GLSLANG:-$(cd "$(dirname "$0")/.." && pwd)/../shared/bin/glslang}
args=()
out=a.spv
while [ $# -gt 0 ]; do
  case "$1" in
    -fshader-stage=compute) args+=(-S comp) ;;
    --target-env=*) args+=(--target-env "${1#--target-env=}") ;;
    -O | -O0 | -Os | -MD) ;;
    -MF) touch "$2"; shift ;;
    -o) out=$2; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [ -n "${GLSLC_ONLY:-}" ] && [ "$out" != - ]; then
  # shellcheck disable=SC2254
  case "$(basename "$out")" in
    $GLSLC_ONLY) ;;
    *) : >"$out"; exit 0 ;;
  esac
fi
[ -n "${GLSLC_INCLUDE:-}" ] && args+=(-I"$GLSLC_INCLUDE")
tmp=$(mktemp -d)
target=$out
[ "$out" = - ] && target=$tmp/out.spv
"$GLSLANG" -V -P"#extension GL_GOOGLE_include_directive : require" "${args[@]}" -o "$target" \
  >"$tmp/log" 2>&1
rc=$?
[ $rc = 0 ] || cat "$tmp/log" >&2
[ $rc = 0 ] && [ "$out" = - ] && cat "$target"
rm -rf "$tmp"
exit $rc
