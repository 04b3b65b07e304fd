# Sourced by the tests of test/layer/ after they set RUN (coopspv-run) and TMP: lavapipe only
# (test/run/lavapipe_env.sh), and VK_LAYER_coopspv's manifest and library side by side in
# $LAYERS, which VK_LAYER_PATH names. The layer is not enabled here: each test enables it
# (VK_INSTANCE_LAYERS, or the application's ppEnabledLayerNames).
# shellcheck shell=bash
# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh
LAYERS="$TMP/layers"
mkdir -p "$LAYERS"
cp -f source/layer/VkLayer_coopspv.json source/layer/libVkLayer_coopspv.so "$LAYERS/"
export VK_LAYER_PATH="$LAYERS"
unset VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE VK_LAYER_SETTINGS_PATH
for v in $(env | sed -n 's/^\(VK_COOPSPV_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
# A layer built with AddressSanitizer loads only into a process that has its runtime.
LAYER_SANITIZED=0
if ldd "$LAYERS/libVkLayer_coopspv.so" | grep -q "libasan\|libtsan"; then LAYER_SANITIZED=1; fi
