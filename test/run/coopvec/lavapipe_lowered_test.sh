#!/bin/bash
# The cooperative-vector AmberScript tests of this folder, lowered by --lower-coop-vector, on
# Mesa's lavapipe (chosen by its ICD file, never by the machine's GPU): every EXPECT must pass.
set -u
RUN=tools/coopspv-run
# The ICD file, and under AddressSanitizer the suppressions and the preloaded driver (what the
# Vulkan loader and Mesa keep until exit is not coopspv's).
# shellcheck source=test/run/lavapipe_env.sh
. test/run/lavapipe_env.sh
exec test/run/coopvec/run_lowered.sh -k tools test/run/coopvec/*.amber
