#!/usr/bin/env bash
# What a run across ranks refuses gets one message from rank 0 and exit code 2 from the job; a rank that
# dies ends the job with a non-zero code instead of leaving the others waiting.
# Usage: run_refusals.sh BOIDS MPIEXEC WORKDIR
set -euo pipefail
boids=$1 mpiexec=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
expect_refusal() { # PATTERN RANKS ARGS...
    local pattern=$1 ranks=$2
    shift 2
    set +e
    err=$("$mpiexec" -np "$ranks" "$boids" run --headless --steps 5 "$@" 2>&1 >/dev/null)
    code=$?
    set -e
    [ "$code" -eq 2 ] || { echo "$*: exit code $code, expected 2: $err"; exit 1; }
    [ "$(grep -c "^boids: .*$pattern" <<<"$err")" -eq 1 ] || { echo "$*: expected one '$pattern': $err"; exit 1; }
}
# A range as wide as the world leaves one range-sized cell: two ranks cannot split it.
expect_refusal "2 ranks cannot split a 640 x 480 world" 2 --preset vga-predator --set visual_range=700
expect_refusal "model = topological" 2 --preset pynboids
expect_refusal "update = sequential" 2 --preset ece4760 --update sequential
expect_refusal "--record" 2 --preset vga-predator --record out.png
# A rank killed mid-run: the job ends, non-zero, well within the test's timeout.
set +e
"$mpiexec" -np 3 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then (sleep 1; kill -9 $$) & fi; exec "$0" "$@"' \
    "$boids" run --headless --steps 100000000 --boids 300 >/dev/null 2>&1
code=$?
set -e
[ "$code" -ne 0 ] || { echo "a killed rank left exit code 0"; exit 1; }
echo "refusals: one message and exit code 2 each; a killed rank ended the job with code $code"
