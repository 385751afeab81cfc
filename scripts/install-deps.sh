#!/usr/bin/env bash
# Installs every build and test dependency from Debian/Ubuntu packages.
# Idempotent: packages already present are skipped; uses sudo when not root.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    libcli11-dev libtomlplusplus-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    pybind11-dev python3-dev python3-numpy python3-pytest python3-tk python3-matplotlib
    libsdl2-dev libimgui-dev libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libpng-dev
    ffmpeg xvfb xauth
    libhwy-dev
    clang libclang-rt-14-dev libomp-14-dev
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
