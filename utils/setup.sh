#!/bin/sh
# Installs, with apt-get, the Debian 12 packages coopspv's build needs, when they are missing.
# Idempotent and silent when everything is present. Run as root (or with sudo available).
set -eu

PACKAGES="bazel-bootstrap spirv-headers libgtest-dev libbenchmark-dev python3 g++ libvulkan-dev mesa-vulkan-drivers pkg-config libshaderc-dev vulkan-tools"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" != "0" ]; then
  SUDO="sudo"
fi
echo "utils/setup.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing >&2
