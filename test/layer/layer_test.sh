#!/bin/bash
# VK_LAYER_coopspv on lavapipe: the Khronos loader loads it (VK_INSTANCE_LAYERS and
# VK_LAYER_PATH, or the application's own list), applications run through it unchanged
# (coopspv-run's scripts, vulkaninfo, several instances and devices); in validate mode a module
# that breaks a device rule is reported through the application's debug messenger with its
# VUID (on standard error without one) and its creation fails when coopspv.fail_on_error says
# so; verdicts come from the memory cache within a run and from the cache directory on a second
# run, which validates nothing again; settings come from the environment and
# vk_layer_settings.txt.
set -u
RUN=tools/coopspv-run
AS=tools/coopspv-as
CLIENT=test/layer/layer_client
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
# shellcheck source=test/layer/layer_env.sh
. test/layer/layer_env.sh

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_exit <code> <description> <command...>: stdout and stderr in $TMP/out.
expect_exit() {
  local want=$1 what=$2
  shift 2
  timeout 300 "$@" >"$TMP/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    fail "$what: exit $got, expected $want"
    sed 's/^/    /' "$TMP/out" | head -30 >&2
  fi
}

expect_contains() {
  local text=$1 what=$2
  grep -qF -- "$text" "$TMP/out" || {
    fail "$what: '$text' not in the output"
    sed 's/^/    /' "$TMP/out" | head -30 >&2
  }
}

expect_lacks() {
  local text=$1 what=$2
  if grep -qF -- "$text" "$TMP/out"; then
    fail "$what: '$text' in the output"
    sed 's/^/    /' "$TMP/out" | head -30 >&2
  fi
}

for m in listed_shape unlisted_shape spec_shape; do
  "$AS" "test/layer/$m.spvasm" -o "$TMP/$m.spv" || fail "assembling $m"
done

# ---- The loader takes the layer.
expect_exit 0 "--list-devices through the layer" env VK_INSTANCE_LAYERS=VK_LAYER_coopspv \
  VK_LOADER_DEBUG=layer "$RUN" --list-devices
expect_contains 'Insert instance layer "VK_LAYER_coopspv"' "the loader inserts the layer"
expect_contains "llvmpipe" "--list-devices through the layer"
# Emulated: lavapipe lists VK_KHR_cooperative_matrix through the layer, not without it.
expect_contains "; VK_KHR_cooperative_matrix" "--list-devices through the layer"
expect_exit 0 "--list-devices without the layer" "$RUN" --list-devices
expect_lacks "VK_KHR_cooperative_matrix" "--list-devices without the layer"
expect_exit 0 "--list-devices, coopspv.emulate off" env VK_INSTANCE_LAYERS=VK_LAYER_coopspv \
  VK_COOPSPV_EMULATE=false "$RUN" --list-devices
expect_lacks "VK_KHR_cooperative_matrix" "--list-devices, coopspv.emulate off"

# Plain scripts run through it as without it.
for script in test/run/reduce_subgroup.amber test/run/tiled_matmul.amber \
  test/run/push_spec_constants.amber test/run/float16_int8.amber; do
  expect_exit 0 "$script through the layer" env VK_INSTANCE_LAYERS=VK_LAYER_coopspv "$RUN" "$script"
  expect_contains "PASS" "$script through the layer"
done

# Enabled by the application (ppEnabledLayerNames), by both the application and the
# environment (the loader keeps one), on two instances with two devices each.
expect_exit 0 "enabled by the application" "$CLIENT" --enable-layer "$TMP/listed_shape.spv"
expect_contains "listed_shape.spv: vkCreateComputePipelines VK_SUCCESS" "enabled by the application"
expect_exit 0 "enabled twice" env VK_INSTANCE_LAYERS=VK_LAYER_coopspv "$CLIENT" --enable-layer \
  --instances 2 --devices 2 "$TMP/listed_shape.spv"
[ "$(grep -c "listed_shape.spv: vkCreateComputePipelines VK_SUCCESS" "$TMP/out")" = 4 ] ||
  fail "two instances, two devices: not 4 pipelines: $(cat "$TMP/out")"

# vulkaninfo (vulkan-tools) through the layer lists the emulated extensions on the device and as
# the layer's own. (Its 1.3.239 tables know no cooperative matrix structure to print.)
if [ "$LAYER_SANITIZED" = 0 ]; then
  expect_exit 0 "vulkaninfo" env VK_INSTANCE_LAYERS=VK_LAYER_coopspv vulkaninfo
  expect_contains "VK_LAYER_coopspv (coopspv: " "vulkaninfo"
  [ "$(grep -c "VK_KHR_cooperative_matrix *: extension revision 2" "$TMP/out")" -ge 2 ] ||
    fail "vulkaninfo: VK_KHR_cooperative_matrix not listed by the device and the layer"
  [ "$(grep -c "VK_NV_cooperative_vector *: extension revision 4" "$TMP/out")" -ge 2 ] ||
    fail "vulkaninfo: VK_NV_cooperative_vector not listed by the device and the layer"
  [ "$(grep -c "VK_EXT_shader_replicated_composites *: extension revision 1" "$TMP/out")" -ge 2 ] ||
    fail "vulkaninfo: VK_EXT_shader_replicated_composites not listed by the device and the layer"
fi

# ---- Validate mode: what breaks a device rule is reported with its VUID.
UNLISTED="device.coop-matrix.type: %14 = OpTypeCooperativeMatrixKHR (8x4 float32 MatrixAccumulator Subgroup) matches no VkCooperativeMatrixPropertiesKHR entry of the device profile"
expect_exit 0 "a shape nobody lists, to a messenger" "$CLIENT" --enable-layer --messenger \
  "$TMP/unlisted_shape.spv" "$TMP/listed_shape.spv"
expect_contains "MESSAGE error VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163 | vkCreateShaderModule: error: $UNLISTED" \
  "a shape nobody lists, to a messenger"
expect_contains "unlisted_shape.spv: vkCreateComputePipelines VK_SUCCESS" \
  "without coopspv.fail_on_error the creation goes on"
[ "$(grep -c "MESSAGE error" "$TMP/out")" = 1 ] ||
  fail "the listed shape is reported too, or the unlisted one twice: $(grep MESSAGE "$TMP/out")"
# Modules of the same size whose words differ are told apart (the layer shares what it read of
# a module's words among the modules created from the same words): unlisted_shape with its 8 x 4
# patched to 16 x 16 in place (the same size) passes, after and before the unlisted one.
sed -e 's/%uint_4 = OpConstant %uint 4/%uint_4 = OpConstant %uint 16/' \
  -e 's/%uint_8 = OpConstant %uint 8/%uint_8 = OpConstant %uint 16/' \
  test/layer/unlisted_shape.spvasm >"$TMP/same_size.spvasm"
"$AS" "$TMP/same_size.spvasm" -o "$TMP/same_size.spv" || fail "assembling same_size"
[ "$(stat -c %s "$TMP/same_size.spv")" = "$(stat -c %s "$TMP/unlisted_shape.spv")" ] ||
  fail "same_size.spv and unlisted_shape.spv differ in size"
expect_exit 0 "two modules of one size" "$CLIENT" --enable-layer --messenger \
  "$TMP/unlisted_shape.spv" "$TMP/same_size.spv" "$TMP/unlisted_shape.spv" "$TMP/same_size.spv"
[ "$(grep -c "MESSAGE error" "$TMP/out")" = 2 ] ||
  fail "two modules of one size: $(grep MESSAGE "$TMP/out")"
# The same message id at most coopspv.duplicate_message_limit times (10, as the Khronos
# validation layer's), the last saying so; 0: every creation reports it.
expect_exit 0 "a shape nobody lists, 12 times" "$CLIENT" --enable-layer --messenger --repeat 12 \
  "$TMP/unlisted_shape.spv"
[ "$(grep -c "MESSAGE error VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163" "$TMP/out")" = 10 ] ||
  fail "duplicate_message_limit: $(grep -c MESSAGE "$TMP/out") messages"
expect_contains "(VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163 has been reported 10 times, the duplicate_message_limit: its further messages are suppressed)" \
  "duplicate_message_limit"
expect_exit 0 "a shape nobody lists, 12 times, no limit" env VK_COOPSPV_DUPLICATE_MESSAGE_LIMIT=0 \
  "$CLIENT" --enable-layer --messenger --repeat 12 "$TMP/unlisted_shape.spv"
[ "$(grep -c "MESSAGE error VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163" "$TMP/out")" = 12 ] ||
  fail "duplicate_message_limit 0: $(grep -c MESSAGE "$TMP/out") messages"
expect_lacks "duplicate_message_limit" "duplicate_message_limit 0"
expect_exit 1 "coopspv.fail_on_error" env VK_COOPSPV_FAIL_ON_ERROR=1 "$CLIENT" --enable-layer \
  --messenger "$TMP/unlisted_shape.spv"
expect_contains "unlisted_shape.spv: vkCreateShaderModule VK_ERROR_UNKNOWN" "coopspv.fail_on_error"
expect_contains "MESSAGE error VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163" \
  "coopspv.fail_on_error"
# Without a messenger, on standard error; coopspv-run hands the module over with
# --skip-validation, and the driver never sees it.
expect_exit 2 "coopspv.fail_on_error, coopspv-run" env VK_INSTANCE_LAYERS=VK_LAYER_coopspv \
  VK_COOPSPV_EMULATE=off VK_COOPSPV_FAIL_ON_ERROR=on "$RUN" --skip-validation \
  test/run/bad/driver_rejects.amber
expect_contains "VK_LAYER_coopspv error: vkCreateShaderModule: error: device.coop-matrix.type: %13 = OpTypeCooperativeMatrixKHR (16x16 float32 MatrixAccumulator Subgroup)" \
  "coopspv.fail_on_error, coopspv-run"
expect_contains "[VUID-VkShaderModuleCreateInfo-pCode-08742]" "coopspv.fail_on_error, coopspv-run"
expect_contains "the driver rejected shader 'coop_length': vkCreateShaderModule returned VK_ERROR_UNKNOWN" \
  "coopspv.fail_on_error, coopspv-run"
# At pipeline creation, with the specialization applied: SpecId 0 = 8 makes an 8x16 accumulator.
expect_exit 0 "a shape a specialization makes" "$CLIENT" --enable-layer --messenger \
  --specialize 0:8 "$TMP/spec_shape.spv"
expect_contains "MESSAGE error VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163 | vkCreateComputePipelines: error: device.coop-matrix.type: %14 = OpTypeCooperativeMatrixKHR (8x16 float32" \
  "a shape a specialization makes"
expect_exit 1 "a shape a specialization makes, coopspv.fail_on_error" env VK_COOPSPV_FAIL_ON_ERROR=1 \
  "$CLIENT" --enable-layer --specialize 0:8 "$TMP/spec_shape.spv"
expect_contains "spec_shape.spv: vkCreateShaderModule VK_SUCCESS" "specialized, coopspv.fail_on_error"
expect_contains "spec_shape.spv: vkCreateComputePipelines VK_ERROR_UNKNOWN" \
  "specialized, coopspv.fail_on_error"
expect_exit 0 "a specialization to a listed shape" env VK_COOPSPV_FAIL_ON_ERROR=1 "$CLIENT" \
  --enable-layer --messenger --specialize 0:16 "$TMP/spec_shape.spv"
expect_lacks "MESSAGE error" "a specialization to a listed shape"

# ---- The cache: a second run validates nothing again.
count() { grep -c -- "$1" "$TMP/out"; }
CACHE="$TMP/cache"
rm -rf "$CACHE"
cached_run() {
  expect_exit 0 "$1" env VK_COOPSPV_CACHE_DIR="$CACHE" VK_COOPSPV_REPORT_LEVEL=info "$CLIENT" \
    --enable-layer --messenger --repeat 3 --specialize 0:16 "$TMP/spec_shape.spv" \
    "$TMP/listed_shape.spv"
}
cached_run "first run"
# Each module at vkCreateShaderModule and, specialized, at the pipeline; the two other repeats
# from memory.
[ "$(count "coopspv-layer-validation | .*: validated: valid")" = 4 ] ||
  fail "first run: not 4 validations: $(grep coopspv-layer "$TMP/out")"
[ "$(count "verdict from the memory cache")" = 8 ] ||
  fail "first run: not 8 verdicts from memory: $(grep coopspv-layer "$TMP/out")"
[ "$(find "$CACHE" -name "*.verdict" | wc -l)" = 4 ] || fail "not 4 verdicts in the cache directory"
cached_run "second run"
[ "$(count ": validated: ")" = 0 ] ||
  fail "second run validated again: $(grep coopspv-layer "$TMP/out")"
[ "$(count "verdict from the cache directory: valid")" = 4 ] ||
  fail "second run: not 4 verdicts from the cache directory: $(grep coopspv-layer "$TMP/out")"
# An entry that does not read is validated again (and rewritten).
for f in "$CACHE"/*.verdict; do echo "garbage" >"$f"; done
cached_run "damaged cache"
[ "$(count ": validated: ")" = 4 ] || fail "damaged cache: $(grep coopspv-layer "$TMP/out")"
# Diagnostics come back from the cache too.
expect_exit 0 "a cached error" env VK_COOPSPV_CACHE_DIR="$CACHE" "$CLIENT" --enable-layer \
  --messenger "$TMP/unlisted_shape.spv"
expect_exit 0 "a cached error, again" env VK_COOPSPV_CACHE_DIR="$CACHE" \
  VK_COOPSPV_REPORT_LEVEL=info "$CLIENT" --enable-layer --messenger "$TMP/unlisted_shape.spv"
expect_contains "vkCreateShaderModule: verdict from the cache directory: invalid, 1 diagnostic(s)" \
  "a cached error, again"
expect_contains "MESSAGE error VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163 | vkCreateShaderModule: error: $UNLISTED" \
  "a cached error, again"

# ---- Settings: vk_layer_settings.txt (VK_LAYER_SETTINGS_PATH or the working directory); the
# environment wins.
mkdir -p "$TMP/settings"
printf '# VK_LAYER_coopspv\ncoopspv.fail_on_error = true\nkhronos_validation.x = 1\n' \
  >"$TMP/settings/vk_layer_settings.txt"
expect_exit 1 "fail_on_error from vk_layer_settings.txt" env \
  VK_LAYER_SETTINGS_PATH="$TMP/settings" "$CLIENT" --enable-layer "$TMP/unlisted_shape.spv"
expect_exit 1 "vk_layer_settings.txt named as a file" env \
  VK_LAYER_SETTINGS_PATH="$TMP/settings/vk_layer_settings.txt" "$CLIENT" --enable-layer \
  "$TMP/unlisted_shape.spv"
expect_exit 1 "vk_layer_settings.txt in the working directory" \
  bash -c "cd '$TMP/settings' && '$PWD/$CLIENT' --enable-layer '$TMP/unlisted_shape.spv'"
expect_exit 0 "the environment wins over the file" env VK_LAYER_SETTINGS_PATH="$TMP/settings" \
  VK_COOPSPV_FAIL_ON_ERROR=0 "$CLIENT" --enable-layer "$TMP/unlisted_shape.spv"
expect_exit 0 "coopspv.validate off" env VK_COOPSPV_VALIDATE=0 VK_COOPSPV_FAIL_ON_ERROR=1 \
  "$CLIENT" --enable-layer --messenger "$TMP/unlisted_shape.spv"
expect_lacks "MESSAGE error" "coopspv.validate off"
expect_exit 0 "a bad setting" env VK_COOPSPV_EMULATE=maybe "$CLIENT" --enable-layer \
  "$TMP/listed_shape.spv"
expect_contains "VK_LAYER_coopspv warning: ignored: coopspv.emulate: 'maybe' is not a Boolean" \
  "a bad setting"
printf 'coopspv.colour = blue\n' >"$TMP/settings/vk_layer_settings.txt"
expect_exit 0 "an unknown setting" env VK_LAYER_SETTINGS_PATH="$TMP/settings" "$CLIENT" \
  --enable-layer "$TMP/listed_shape.spv"
expect_contains "ignored: coopspv.colour: no such setting" "an unknown setting"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "all VK_LAYER_coopspv checks passed"
