#!/usr/bin/env bash
# Builds and runs the whole test suite: the release tree (every test), then an ASan + UBSan tree
# (every test but the long ones labelled "slow" and those across MPI ranks), then the multithreaded engine tests under
# ThreadSanitizer (clang, LLVM's OpenMP runtime with Archer; scripts/tsan.supp; three 3D scenes left out,
# the 3D predators hunting, the 3D bits and W20 in 3D on several threads: their threads run the 2D scenes'
# code, at several times their time; the predators among obstacles, whose phase runs on one thread, and the
# lab page's predator order, the same lanes in another order),
# then each parser's libFuzzer harness
# for a fixed number of inputs from its seed corpus (a clang tree of the engine only).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --workflow --preset test
cmake --workflow --preset asan
cmake --workflow --preset tsan
cmake --workflow --preset fuzz
