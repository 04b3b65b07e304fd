#!/bin/sh
# Prepares, on this (Debian 12) machine, what utils/gpu_check.sh needs on the GPU machine:
#   .gpu/bin/coopspv-run   the tool, built here (optimized); it opens libvulkan.so.1 at run time
#                          (and coopspv-as / -opt / -dis beside it)
#   .gpu/layer/            VK_LAYER_coopspv's library and manifest, .gpu/bin/layer_client
#                          (utils/gpu_check_layer.sh)
#   .gl/*.deb              Debian's Vulkan loader (libvulkan1), which the GPU machine lacks
# Both folders are ignored by git and travel with the working tree to the GPU machine, where
# `utils/gpu_check.sh` runs from the repository root.
set -eu
cd "$(dirname "$0")/.."

# coopspv-as / -opt / -dis too: utils/gpu_check_coopvec.sh lowers scripts with them;
# VK_LAYER_coopspv and the test application for utils/gpu_check_layer.sh.
bazel build -c opt //tools:coopspv-run //tools:coopspv-as //tools:coopspv-opt //tools:coopspv-dis \
  //source/layer:layer_files //test/layer:layer_client
mkdir -p .gpu/bin .gpu/layer .gl
for tool in tools/coopspv-run tools/coopspv-as tools/coopspv-opt tools/coopspv-dis \
  test/layer/layer_client; do
  cp -f "bazel-bin/$tool" ".gpu/bin/$(basename "$tool")"
  chmod u+w ".gpu/bin/$(basename "$tool")"
  strip ".gpu/bin/$(basename "$tool")" 2>/dev/null || true
done
cp -f bazel-bin/source/layer/libVkLayer_coopspv.so bazel-bin/source/layer/VkLayer_coopspv.json \
  .gpu/layer/
chmod u+w .gpu/layer/*
strip .gpu/layer/libVkLayer_coopspv.so 2>/dev/null || true

# The loader packages (apt-get download fetches a .deb without installing it): the Vulkan
# loader, and the GL dispatch libraries the NVIDIA ICD (libGLX_nvidia.so.0) links to.
for p in libvulkan1 libglvnd0 libglx0 libgl1 libegl1; do
  if ! ls .gl/"${p}"_*.deb >/dev/null 2>&1; then
    (cd .gl && apt-get download "$p")
  fi
done
ls -l .gpu/bin/ .gl/*.deb
echo "prepare_gpu: ready; on the GPU machine run: utils/gpu_check.sh \"\$OUT/gpu_check.json\""
