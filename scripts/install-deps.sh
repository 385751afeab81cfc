#!/usr/bin/env bash
# Installs every build and test dependency from Debian/Ubuntu packages.
# Idempotent: packages already present are skipped; uses sudo when not root.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    libcli11-dev libtomlplusplus-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    pybind11-dev python3-dev python3-numpy python3-pytest python3-tk python3-matplotlib
    python3-pip python3-venv python3-setuptools python3-wheel python3-pandas
    libsdl2-dev libimgui-dev libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libpng-dev
    ffmpeg xvfb xauth
    libhwy-dev
    libopenmpi-dev openmpi-bin
    clang libclang-rt-14-dev libomp-14-dev
)

# Without apt (another distribution, macOS, ...) say so and name what to install, rather than failing on
# the first Debian command.
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: no apt-get here (this script installs Debian/Ubuntu packages); install these or your" \
        "system's equivalents yourself: ${packages[*]}" >&2
    exit 1
fi

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
