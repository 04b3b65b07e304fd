#!/bin/bash
# The cooperative-vector AmberScript tests of this folder, lowered by --lower-coop-vector, on
# Mesa's lavapipe (chosen by its ICD file, never by the machine's GPU): every EXPECT must pass.
set -u
ICD=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
if [ ! -f "$ICD" ]; then
  echo "FAIL: $ICD is missing: install mesa-vulkan-drivers (utils/setup.sh)" >&2
  exit 1
fi
export VK_DRIVER_FILES="$ICD" VK_ICD_FILENAMES="$ICD"
# Under AddressSanitizer: what the Vulkan loader and Mesa keep until exit is not coopspv's.
if [ -f test/run/lsan_suppressions.txt ]; then
  export LSAN_OPTIONS="suppressions=$PWD/test/run/lsan_suppressions.txt:print_suppressions=0"
fi
exec test/run/coopvec/run_lowered.sh -k tools test/run/coopvec/*.amber
