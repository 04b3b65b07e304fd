#!/bin/bash
# Builds ggml's vulkan-shaders-gen from a ggml snapshot (outside this tree), generates every
# cooperative shader of ggml's Vulkan backend with glslang (mul_mm_cm2.comp, mul_mm.comp with
# COOPMAT, flash_attn_cm1.comp, flash_attn_cm2.comp, conv2d_mm.comp, conv3d_mm.comp: the _cm1 and
# _cm2 variants), and lowers each one as production would (issue 31), frozen and folded at its
# specialization defaults:
#   h100      matrix2 modules: --lower-coop-matrix2=32,h100; coopspv-val --device-profile=h100,
#             spirv-val, and no matrix2 / tensor-addressing capability left;
#   h100+dead the same output after --eliminate-dead --compact-ids, validated again;
#   lavapipe  every module: --legalize-for-device=lavapipe; coopspv-val --device-profile=lavapipe
#             and spirv-val.
# Every module goes through the same steps again with the specialization constants ggml gives
# its pipelines (steps <step>@ggml..., see ggml_specs).
# A developer tool: ggml is third-party, so nothing in the build or CI needs it.
#
#   utils/ggml_coop_check.sh <ggml checkout or git dir> <work dir> [spirv-val] [glslang]
#
# glslang defaults to ../shared/bin/glslang, spirv-val to ../shared/bin/spirv-val; COOPSPV_BIN=<dir>
# takes coopspv-opt, -val and -dis from <dir> instead of building this tree's. The shaders are
# generated once (<work dir>/spv/.done; remove it to generate again); the checks run each time
# with the tools of this tree. Writes <work dir>/report.tsv (module, group, step, outcome, first
# message), prints the table of groups x steps x outcomes and the failures grouped by message.
# Exit 0 when every step of every module succeeded. Run it nice'd: generating costs CPU.
set -u
[ $# -ge 2 ] || { sed -n 2,23p "$0"; exit 2; }
GGML=$1
WORK=$(mkdir -p "$2" && cd "$2" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SPIRV_VAL=${3:-$ROOT/../shared/bin/spirv-val}
GLSLANG=${4:-$ROOT/../shared/bin/glslang}
ENV=vulkan1.3
# The tools: those of $COOPSPV_BIN when set, else this tree's, built. A copy: a rebuild while
# this runs does not mix two versions in one report.
if [ -z "${COOPSPV_BIN:-}" ]; then
  (cd "$ROOT" && bazel build //tools:coopspv-opt //tools:coopspv-val //tools:coopspv-dis) || exit 2
  COOPSPV_BIN=$ROOT/bazel-bin/tools
fi
BIN=$WORK/bin
mkdir -p "$BIN" && cp -f "$COOPSPV_BIN"/coopspv-{opt,val,dis} "$BIN/" || exit 2

generate() {
  local SRC=$WORK/vulkan-shaders source
  rm -rf "$SRC" && mkdir -p "$SRC"
  if git -C "$GGML" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$GGML" archive HEAD src/ggml-vulkan/vulkan-shaders | tar -x -C "$WORK" &&
      cp -r "$WORK/src/ggml-vulkan/vulkan-shaders/." "$SRC" && rm -rf "$WORK/src"
  else
    cp -r "$GGML/src/ggml-vulkan/vulkan-shaders/." "$SRC"
  fi
  [ -f "$SRC/vulkan-shaders-gen.cpp" ] || { echo "no vulkan-shaders-gen.cpp in $GGML" >&2; exit 2; }
  # Every cooperative variant (decode vectors and bfloat16 too).
  g++ -std=c++17 -O1 -pthread -DGGML_VULKAN_COOPMAT_GLSLC_SUPPORT \
    -DGGML_VULKAN_COOPMAT2_GLSLC_SUPPORT -DGGML_VULKAN_COOPMAT2_DECODE_VECTOR_GLSLC_SUPPORT \
    -DGGML_VULKAN_BFLOAT16_GLSLC_SUPPORT "$SRC/vulkan-shaders-gen.cpp" \
    -o "$WORK/vulkan-shaders-gen" || exit 2
  # vulkan-shaders-gen calls glslc (utils/glslc_glslang.sh serves it with glslang). Outputs that
  # are not cooperative (no _cm1 / _cm2 in the name) are not compiled: vulkan-shaders-gen skips
  # the empty file.
  rm -rf "$WORK/spv" && mkdir -p "$WORK/spv"
  for source in mul_mm_cm2.comp mul_mm.comp flash_attn_cm1.comp flash_attn_cm2.comp \
      conv2d_mm.comp conv3d_mm.comp; do
    [ -f "$SRC/$source" ] || { echo "no $source in this snapshot" >&2; continue; }
    (cd "$WORK" && GLSLANG="$GLSLANG" GLSLC_INCLUDE="$SRC" GLSLC_ONLY='*_cm[12]*' \
      ./vulkan-shaders-gen --glslc "$ROOT/utils/glslc_glslang.sh" --source "$SRC/$source" \
      --output-dir "$WORK/spv" --target-hpp "$WORK/shaders.hpp" --target-cpp "$WORK/shaders.cpp") ||
      echo "vulkan-shaders-gen failed on $source" >&2
  done
  find "$WORK/spv" -name '*.spv' \( -empty -o \! \( -name '*_cm1*' -o -name '*_cm2*' \) \) -delete
  touch "$WORK/spv/.done"
}
[ -f "$WORK/spv/.done" ] || generate

# The module group: the kernel family and the cooperative flavour.
group() {
  local family
  case "$1" in
    flash_attn*) family=flash_attn ;;
    matmul_id*) family=matmul_id ;;
    matmul*) family=matmul ;;
    conv_transpose_2d*) family=conv_transpose_2d ;;
    conv2d*) family=conv2d ;;
    conv3d*) family=conv3d ;;
    *) family=other ;;
  esac
  case "$1" in *_cm2*) echo "${family}_cm2" ;; *) echo "${family}_cm1" ;; esac
}

# Besides the defaults (some of which no pipeline of ggml uses: flash attention's Br = 1, conv's
# SHMEM_PAD = 4, an array of length 0), the specialization constants ggml-vulkan.cpp gives its
# common pipelines of the group, as "<name>|<spec id>:<value> ...": flash attention with
# HSK = HSV = 128 and float16 K / V (get_fa_spec_constants; cm2: the n_rows < 32 and the
# n_rows >= 32 block sizes, subgroup 32; cm1: 4 subgroups of lavapipe's 8), convolutions with a
# 3 x 3 kernel and padding 1 in the 64 x 128 block shape (SHMEM_PAD 8, Csh staged; cm1: 32 x 32
# subgroup tiles), matmuls aligned with the m and s warptiles of a coopmat2 device (quantized A:
# the _mmq ones) and the m warptile of a coopmat1 device with 16 x 16 x 16 tiles and subgroups of
# 32. Ids a module does not have are left out.
ggml_specs() {
  local conv2d="0:256 1:64 2:16 3:128 4:8 5:0 6:8 9:1 10:1 13:3 14:3 16:1"
  local conv3d="0:256 1:64 2:16 3:128 4:8 5:8 9:1 10:1 11:1 15:3 16:3 17:3 19:1"
  local fa="3:128 4:128 8:32 12:1 13:1 14:2 15:2"
  local quant=1
  case "$1" in matmul_f32_* | matmul_f16_* | matmul_bf16_* | matmul_id_subgroup_f32_* | \
    matmul_id_subgroup_f16_* | matmul_id_subgroup_bf16_*) quant= ;;
  esac
  case "$(group "$1")" in
    matmul_cm2 | matmul_id_cm2)
      if [ -n "$quant" ]; then
        echo "ggml-m|0:256 1:128 2:128 3:64 4:true 5:1 6:32"
        echo "ggml-s|0:256 1:32 2:64 3:128 4:false 5:1 6:32"
      else
        echo "ggml-m|0:256 1:128 2:128 3:64 4:false 5:1 6:32"
        echo "ggml-s|0:128 1:64 2:64 3:64 4:false 5:1 6:32"
      fi ;;
    matmul_cm1 | matmul_id_cm1)
      echo "ggml-m|0:128 1:64 2:64 3:$([ -n "$quant" ] && echo 32 || echo 16) 4:32 5:32 6:2 7:16 8:16 9:16 10:32 11:1" ;;
    flash_attn_cm2)
      echo "ggml-rows32|0:256 1:32 2:32 $fa"
      echo "ggml-rows64|0:128 1:64 2:64 $fa" ;;
    flash_attn_cm1) echo "ggml|0:32 1:16 2:64 3:128 4:128 6:8 7:4 8:8 9:0 12:1 13:1 14:2 15:2" ;;
    conv2d_cm2|conv_transpose_2d_cm2) echo "ggml|$conv2d" ;;
    conv2d_cm1|conv_transpose_2d_cm1) echo "ggml|$conv2d 17:32 18:32" ;;
    conv3d_cm2) echo "ggml|$conv3d" ;;
    conv3d_cm1) echo "ggml|$conv3d 20:32 21:32" ;;
  esac
}

REPORT=$WORK/report.tsv
: >"$REPORT"
record() {  # module group step outcome message
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$REPORT"
}
first_error() {
  grep -m1 -E 'error' "$WORK/err" | sed -E 's/%[0-9]+ = //; s/^[^:]*: //' | cut -c1-300
}
# The disassembler spells the capabilities SPV_EXT_cooperative_matrix2 shares with NV as EXT.
MATRIX2_CAPS="OpCapability (TensorAddressingNV|CooperativeMatrix(Reductions|Conversions|PerElementOperations|TensorAddressing|BlockLoads|DecodeVector)(NV|EXT))"
# Runs coopspv-opt with the given passes on $in into $out; records a refusal or crash.
lower() {  # module group step in out passes...
  local m=$1 g=$2 step=$3 in=$4 out=$5 rc
  shift 5
  timeout 600 "$BIN/coopspv-opt" --target-env $ENV "$@" "$in" -o "$out" 2>"$WORK/err" </dev/null
  rc=$?
  [ $rc = 0 ] && return 0
  if [ $rc -ge 124 ]; then
    record "$m" "$g" "$step" crash "exit status $rc: $(head -c 200 "$WORK/err" | tr '\n' ' ')"
  else
    record "$m" "$g" "$step" refused "$(first_error)"
  fi
  return 1
}
# Outcome input-invalid: the output breaks a device rule that the module as written, frozen and
# folded the same way (no lowering), breaks already (ggml never specializes it so).
validate() {  # module group step file profile [frozen input]
  local caps message rule
  if ! timeout 600 "$BIN/coopspv-val" --target-env $ENV "--device-profile=$5" "$4" \
      >"$WORK/err" 2>&1 </dev/null; then
    message=$(first_error)
    rule=${message%%:*}
    if [ -n "${6:-}" ] && [ -f "$6" ] &&
        "$BIN/coopspv-val" --target-env $ENV "--device-profile=$5" "$6" 2>&1 </dev/null |
        grep -q "^error: $rule:"; then
      record "$1" "$2" "$3" input-invalid "$message"
    else
      record "$1" "$2" "$3" coopspv-val "$message"
    fi
    return 1
  fi
  if [ -x "$SPIRV_VAL" ] && ! "$SPIRV_VAL" --target-env $ENV "$4" >"$WORK/err" 2>&1 </dev/null; then
    record "$1" "$2" "$3" spirv-val "$(head -1 "$WORK/err" | cut -c1-300)"
    return 1
  fi
  caps=$("$BIN/coopspv-dis" "$4" </dev/null | grep -E -o "$MATRIX2_CAPS" | sort -u | tr '\n' ' ')
  if [ -n "$caps" ]; then
    record "$1" "$2" "$3" matrix2-left "$caps"
    return 1
  fi
  record "$1" "$2" "$3" ok ""
}

OUT=$WORK/lowered
rm -rf "$OUT" && mkdir -p "$OUT"
for f in "$WORK"/spv/*.spv; do
  m=$(basename "$f" .spv)
  g=$(group "$m")
  "$BIN/coopspv-dis" "$f" >"$WORK/dis"
  matrix2=
  grep -q -E "$MATRIX2_CAPS|OpTypeCooperativeMatrixKHR %[A-Za-z0-9_]+ %uint_2 " "$WORK/dis" &&
    matrix2=1
  grep -o -E 'OpDecorate %[^ ]+ SpecId [0-9]+' "$WORK/dis" | awk '{ print $4 }' >"$WORK/specids"
  # "|" (the defaults), then each of ggml's specializations.
  { echo "|"; ggml_specs "$m"; } | while IFS='|' read -r name spec; do
    set_spec=()
    if [ -n "$spec" ]; then
      spec=$(for pair in $spec; do
        grep -q -x "${pair%%:*}" "$WORK/specids" && printf '%s ' "$pair"
      done)
      set_spec=(--set-spec-const-default-value "${spec% }")
    fi
    at=${name:+@$name}
    o=$OUT/$m${at:+.$name}
    if [ -n "$matrix2" ]; then
      "$BIN/coopspv-opt" --target-env $ENV "${set_spec[@]}" --freeze-spec-const \
        --fold-spec-const "$f" -o "$o.frozen.spv" >/dev/null 2>&1 </dev/null
      if lower "$m" "$g" "h100$at" "$f" "$o.h100.spv" "${set_spec[@]}" --freeze-spec-const \
          --fold-spec-const --lower-coop-matrix2=32,h100 &&
          validate "$m" "$g" "h100$at" "$o.h100.spv" h100 "$o.frozen.spv"; then
        lower "$m" "$g" "h100+dead$at" "$o.h100.spv" "$o.h100.dead.spv" --eliminate-dead \
          --compact-ids && validate "$m" "$g" "h100+dead$at" "$o.h100.dead.spv" h100 "$o.frozen.spv"
      fi
    fi
    lower "$m" "$g" "lavapipe$at" "$f" "$o.lavapipe.spv" "${set_spec[@]}" --freeze-spec-const \
      --fold-spec-const --legalize-for-device=lavapipe &&
      validate "$m" "$g" "lavapipe$at" "$o.lavapipe.spv" lavapipe
  done
done

echo "ggml cooperative modules: $(ls "$WORK"/spv/*.spv | wc -l) (report: $REPORT)"
printf '%-22s %-26s %s\n' group step outcomes
awk -F'\t' '{ n[$2 "\t" $3 "\t" $4]++; key[$2 "\t" $3] = 1 }
  END { for (k in key) { line = ""; for (o in n) { split(o, p, "\t");
          if (p[1] "\t" p[2] == k) line = line " " p[3] "=" n[o] }
        split(k, q, "\t"); printf "%-22s %-26s%s\n", q[1], q[2], line } }' "$REPORT" | sort
echo
echo "failures by group, step and message:"
awk -F'\t' '$4 != "ok" { print $2 " " $3 " " $4 ": " $5 }' "$REPORT" | sort | uniq -c | sort -rn |
  head -60
! awk -F'\t' '$4 != "ok"' "$REPORT" | grep -q .
