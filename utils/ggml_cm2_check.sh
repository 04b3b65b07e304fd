#!/bin/bash
# Builds ggml's vulkan-shaders-gen from a ggml snapshot (outside this tree), generates every
# cooperative-matrix-2 shader of ggml's Vulkan backend with glslang, and lowers each one as
# production would have it lowered (issue 31): --freeze-spec-const --fold-spec-const
# --lower-coop-matrix2=32,h100 and =8, then --eliminate-dead after it, each output validated by
# coopspv-val and, when given, the reference spirv-val, and checked for matrix2 / tensor-addressing
# capabilities left. A developer tool: ggml is third-party, so nothing in the build or CI needs it.
#
#   utils/ggml_cm2_check.sh <ggml checkout or git dir> <work dir> [spirv-val] [glslang]
#
# glslang defaults to ../shared/bin/glslang (glslang 16.5.0), spirv-val to ../shared/bin/spirv-val.
# Writes <work dir>/spv/*_cm2.spv, <work dir>/report.tsv (module, step, result, first message)
# and prints the failures grouped by message. Exit 0 when every module lowered and validated.
set -u
[ $# -ge 2 ] || { sed -n 2,13p "$0"; exit 2; }
GGML=$1
WORK=$(mkdir -p "$2" && cd "$2" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SPIRV_VAL=${3:-$ROOT/../shared/bin/spirv-val}
GLSLANG=${4:-$ROOT/../shared/bin/glslang}
(cd "$ROOT" && bazel build //tools:coopspv-opt //tools:coopspv-val //tools:coopspv-dis) || exit 2
# A copy of the tools: a rebuild while this runs does not mix two versions in one report.
BIN=$WORK/bin
mkdir -p "$BIN" && cp -f "$ROOT"/bazel-bin/tools/coopspv-{opt,val,dis} "$BIN/" || exit 2

# The shader sources of the snapshot.
SRC=$WORK/vulkan-shaders
rm -rf "$SRC" && mkdir -p "$SRC"
if git -C "$GGML" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$GGML" archive HEAD src/ggml-vulkan/vulkan-shaders | tar -x -C "$WORK" &&
    cp -r "$WORK/src/ggml-vulkan/vulkan-shaders/." "$SRC" && rm -rf "$WORK/src"
else
  cp -r "$GGML/src/ggml-vulkan/vulkan-shaders/." "$SRC"
fi
[ -f "$SRC/vulkan-shaders-gen.cpp" ] || { echo "no vulkan-shaders-gen.cpp in $GGML" >&2; exit 2; }

# vulkan-shaders-gen, with every cooperative-matrix-2 variant (decode vectors and bfloat16 too).
if [ ! -x "$WORK/vulkan-shaders-gen" ]; then
  g++ -std=c++17 -O1 -pthread -DGGML_VULKAN_COOPMAT_GLSLC_SUPPORT \
    -DGGML_VULKAN_COOPMAT2_GLSLC_SUPPORT -DGGML_VULKAN_COOPMAT2_DECODE_VECTOR_GLSLC_SUPPORT \
    -DGGML_VULKAN_BFLOAT16_GLSLC_SUPPORT "$SRC/vulkan-shaders-gen.cpp" \
    -o "$WORK/vulkan-shaders-gen" || exit 2
fi

# vulkan-shaders-gen calls glslc; glslang takes the same job with other spellings (glslc enables
# #include by itself; -O is left out: the sample modules of ../shared/corpus/real-sample are
# byte for byte what this gives).
cat >"$WORK/glslc" <<EOF
#!/bin/bash
args=()
while [ \$# -gt 0 ]; do
  case "\$1" in
    -fshader-stage=compute) args+=(-S comp) ;;
    --target-env=*) args+=(--target-env "\${1#--target-env=}") ;;
    -O) ;;
    -MD) ;;
    -MF) touch "\$2"; shift ;;
    *) args+=("\$1") ;;
  esac
  shift
done
# glslang names the file on standard error even when it succeeds; glslc says nothing then.
"$GLSLANG" -V -P"#extension GL_GOOGLE_include_directive : require" -I"$SRC" "\${args[@]}" \
  >"$WORK/glslc.\$\$" 2>&1
rc=\$?
[ \$rc = 0 ] || cat "$WORK/glslc.\$\$" >&2
rm -f "$WORK/glslc.\$\$"
exit \$rc
EOF
chmod +x "$WORK/glslc"
mkdir -p "$WORK/spv"
for source in mul_mm_cm2.comp flash_attn_cm2.comp conv2d_mm.comp; do
  (cd "$WORK" && ./vulkan-shaders-gen --glslc "$WORK/glslc" --source "$SRC/$source" \
    --output-dir "$WORK/spv" --target-hpp "$WORK/shaders.hpp" --target-cpp "$WORK/shaders.cpp") ||
    echo "vulkan-shaders-gen failed on $source" >&2
done
find "$WORK/spv" -name '*.spv' ! -name '*_cm2*.spv' -delete

REPORT=$WORK/report.tsv
: >"$REPORT"
failures=0
record() {  # module step result message
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$REPORT"
  [ "$3" = ok ] || failures=$((failures + 1))
}
check() {  # module step file
  local v s caps
  if ! "$BIN/coopspv-val" --target-env vulkan1.3 "$3" >"$WORK/err" 2>&1; then
    record "$1" "$2" coopspv-val "$(grep -m1 -E 'error' "$WORK/err")"
    return
  fi
  if [ -x "$SPIRV_VAL" ] && ! "$SPIRV_VAL" --target-env vulkan1.3 "$3" >"$WORK/err" 2>&1; then
    record "$1" "$2" spirv-val "$(head -1 "$WORK/err")"
    return
  fi
  caps=$("$BIN/coopspv-dis" "$3" | grep -E -o "OpCapability (TensorAddressingNV|CooperativeMatrix(Reductions|Conversions|PerElementOperations|TensorAddressing|BlockLoads|DecodeVector)NV)" | tr '\n' ' ')
  if [ -n "$caps" ]; then
    record "$1" "$2" matrix2-left "$caps"
  else
    record "$1" "$2" ok ""
  fi
}
for f in "$WORK"/spv/*.spv; do
  m=$(basename "$f" .spv)
  for sg in 32,h100 8; do
    out=$WORK/lowered/$m.$sg.spv
    mkdir -p "$WORK/lowered"
    if ! "$BIN/coopspv-opt" --target-env vulkan1.3 --freeze-spec-const --fold-spec-const \
        "--lower-coop-matrix2=$sg" "$f" -o "$out" 2>"$WORK/err"; then
      record "$m" "$sg" lower "$(grep -m1 -E 'error' "$WORK/err" | sed 's/%[0-9]* = //')"
      continue
    fi
    check "$m" "$sg" "$out"
    if ! "$BIN/coopspv-opt" --target-env vulkan1.3 --eliminate-dead "$out" \
        -o "$WORK/lowered/$m.$sg.dead.spv" 2>"$WORK/err"; then
      record "$m" "$sg+eliminate-dead" lower "$(grep -m1 -E 'error' "$WORK/err" | sed 's/%[0-9]* = //')"
    fi
  done
done
total=$(cut -f1,2 "$REPORT" | grep -c -v '+eliminate-dead')
echo "ggml cm2 modules: $(ls "$WORK"/spv/*.spv | wc -l); lowerings: $total; failures: $failures"
awk -F'\t' '$3 != "ok" { print $2 " " $3 ": " $4 }' "$REPORT" | sort | uniq -c | sort -rn | head -40
exit $((failures != 0))
