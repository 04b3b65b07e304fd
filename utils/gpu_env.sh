# Sourced by the GPU scripts (utils/gpu_check.sh, gpu_check_coopvec.sh, gpu_check_layer.sh)
# from the repository root: makes the Vulkan loader and the NVIDIA ICD usable on the GPU machine.
# shellcheck shell=bash

# The Vulkan loader: the machine has the NVIDIA driver but no loader; the carried .deb files
# have one.
if ! ldconfig -p | grep -q 'libvulkan\.so\.1'; then
  for f in .gl/*.deb; do
    [ -f "$f" ] && dpkg -x "$f" /
  done
  ldconfig
fi
# The NVIDIA ICD, when nothing else chooses one.
NVIDIA_ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$NVIDIA_ICD" ]; then
  export VK_DRIVER_FILES="$NVIDIA_ICD"
fi
