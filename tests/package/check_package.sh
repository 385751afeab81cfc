#!/usr/bin/env bash
# Installs the built tree to a fresh prefix and uses it as another project would: the C++ HelloWorld
# (examples/cpp) configured with find_package(boids) and built, the same file compiled in one command with
# `pkg-config --cflags --libs boids`, and the installed `boids --version`.
#   check_package.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

expect() { # expect WHAT OUTPUT PATTERN
    if ! grep -qE -- "$3" <<<"$2"; then
        echo "check_package: $1 lacks /$3/; it printed:"
        echo "$2"
        exit 1
    fi
}

version=$("$prefix/bin/boids" --version)
expect "boids --version" "$version" '^boids [0-9]+\.[0-9]+\.[0-9]+$'
number=${version#boids }

# find_package(boids 1.0 REQUIRED) + target_link_libraries(... boids::boids), from a separate project.
cmake -S "$source/examples/cpp" -B "$work/hello" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log"
cmake --build "$work/hello" >"$work/build.log"
out=$("$work/hello/hello_world")
expect "hello_world (CMake)" "$out" "^Boids $number\$"
expect "hello_world (CMake)" "$out" '^after 200 steps with max_speed = 8: polarization [0-9.]+, [0-9]+ groups'
expect "hello_world (CMake)" "$out" '^state hash [0-9a-f]{16}$'
expect "hello_world (CMake)" "$out" '^rejected: max_speed'

# A major version the package does not promise is refused.
mkdir -p "$work/v2"
cat >"$work/v2/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(wants_boids_2 LANGUAGES CXX)
find_package(boids 2.0 QUIET)
if(boids_FOUND)
    message(FATAL_ERROR "find_package(boids 2.0) accepted boids ${boids_VERSION}")
endif()
CMAKE
cmake -S "$work/v2" -B "$work/v2/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >"$work/v2.log"

# The same program in one compiler command through pkg-config.
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs boids)
expect "boids.pc" "$flags" '-lhwy'
# shellcheck disable=SC2086 # the flags are words
c++ -O1 "$source/examples/cpp/hello_world.cpp" $flags -o "$work/hello_pc"
out_pc=$("$work/hello_pc")
if [ "$out_pc" != "$out" ]; then
    echo "check_package: the pkg-config build printed something else than the CMake build:"
    diff <(echo "$out") <(echo "$out_pc") || true
    exit 1
fi
echo "check_package: boids $number installed, found by CMake and pkg-config, HelloWorld runs"
