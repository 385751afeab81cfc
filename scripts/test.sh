#!/usr/bin/env bash
# Builds and runs the whole test suite: the release tree (every test), then an ASan + UBSan tree
# (every test but the long ones labelled "slow" and those across MPI ranks), then the multithreaded engine tests under
# ThreadSanitizer (clang, LLVM's OpenMP runtime with Archer; scripts/tsan.supp; the 3D hunting predators
# left out, their threads run the 2D test's code at 4x its time), then each parser's libFuzzer harness
# for 20 s from its seed corpus (a clang tree of the engine only).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --workflow --preset test
cmake --workflow --preset asan
cmake --workflow --preset tsan
cmake --workflow --preset fuzz
