# Sourced by the lavapipe tests of test/run/ after they set RUN (the coopspv-run binary).
# shellcheck shell=bash
# Lavapipe only, by its ICD file (VK_DRIVER_FILES for loaders from 1.3.207 on, VK_ICD_FILENAMES
# for older ones): the tests never depend on the machine's GPU.
ICD=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
if [ ! -f "$ICD" ]; then
  echo "FAIL: $ICD is missing: install mesa-vulkan-drivers (utils/setup.sh)" >&2
  exit 1
fi
export VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD"
# Under AddressSanitizer: the Vulkan loader and Mesa keep allocations until exit that are not
# coopspv's (see lsan_suppressions.txt); our own leaks are still reported.
export LSAN_OPTIONS="suppressions=$PWD/test/run/lsan_suppressions.txt:print_suppressions=0"
# The loader unloads the driver at vkDestroyInstance, and LeakSanitizer, which runs at exit,
# then cannot name its frames ("<unknown module>"), so the suppressions could not match them:
# under ASan the driver is preloaded, which keeps it mapped (ASan must then not insist on
# coming first).
LVP=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
if ldd "$RUN" | grep -q libasan && [ -f "$LVP" ]; then
  export LD_PRELOAD="$LVP"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
fi
