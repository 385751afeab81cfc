#!/usr/bin/env bash
# A build of the library and the `boids` program with only the engine's dependencies and CLI11: configuring
# with the viewer off and the program on must succeed and make a `boids` target that links no viewer and
# no renderer (a configure, not a build, so that it stays quick; the program's answers without a viewer are
# the same code as in docs/LIBRARY.md).
#   check_cli_without_viewer.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source=$1 work=$2
rm -rf "$work"
cmake -S "$source" -B "$work" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBOIDS_BUILD_VIEWER=OFF \
    -DBOIDS_BUILD_CLI=ON -DBOIDS_BUILD_PYTHON=OFF -DBOIDS_BUILD_TESTS=OFF -DBOIDS_BUILD_BENCH=OFF >"$work.log" 2>&1 || {
    echo "check_cli_without_viewer: configuring failed:"
    cat "$work.log"
    exit 1
}
targets=$(ninja -C "$work" -t targets all)
if ! grep -qE '^boids: CXX_EXECUTABLE_LINKER' <<<"$targets"; then
    echo "check_cli_without_viewer: no boids target; the targets are:"
    echo "$targets"
    exit 1
fi
if grep -qE 'boids_(viewer|render)' <<<"$targets"; then
    echo "check_cli_without_viewer: the viewer or the renderer is still built"
    exit 1
fi
if ! grep -q 'BOIDS_HAVE_VIEWER=0' "$work/compile_commands.json"; then
    echo "check_cli_without_viewer: boids is not compiled without its viewer commands"
    exit 1
fi
echo "check_cli_without_viewer: boids configures without the viewer"
