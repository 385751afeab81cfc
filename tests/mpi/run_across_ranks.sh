#!/usr/bin/env bash
# One flock over several ranks gives the single-process run's bits: the same state hash, and --dump,
# --metrics and --trajectory equal byte for byte, the summary equal but for its timing lines.
# Usage: run_across_ranks.sh BOIDS MPIEXEC WORKDIR RANKS [--expect-rebalance] [--expect-fast-path]
#        RUN-ARGUMENTS...
# (RANKS: the rank counts to try, e.g. "2 4". --expect-rebalance: the flock crowds, and the sub-domains
# must have been cut anew on 2 or more ranks. --expect-fast-path: rank 0 must have taken the SIMD fast
# path on every step.)
set -euo pipefail
boids=$1 mpiexec=$2 dir=$3 rank_counts=$4
shift 4
expect_rebalance=0 expect_fast=0
while [ "${1:-}" = --expect-rebalance ] || [ "${1:-}" = --expect-fast-path ]; do
    [ "$1" = --expect-rebalance ] && expect_rebalance=1
    [ "$1" = --expect-fast-path ] && expect_fast=1
    shift
done
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
outputs() { echo --dump "state$1.csv" --metrics "metrics$1.csv" --metrics-every 10 --trajectory "path$1.npy" \
    --trajectory-every 20; }
# The lines that depend on who computed and how fast, and the output names.
steady() { grep -v -E '^boids run:|wall time|per step|written to'; }
"$boids" run --headless --threads 1 "$@" $(outputs 0) | steady >summary0.txt
grep -q "state hash" summary0.txt
for ranks in $rank_counts; do
    "$mpiexec" -np "$ranks" "$boids" run --headless --threads 1 "$@" $(outputs "$ranks") >out$ranks.txt
    steady <out$ranks.txt >summary$ranks.txt
    for f in summary state metrics; do
        cmp "${f}0.$([ $f = summary ] && echo txt || echo csv)" "${f}$ranks.$([ $f = summary ] && echo txt || echo csv)"
    done
    cmp path0.npy "path$ranks.npy"
    if [ "$ranks" -gt 1 ]; then
        # The test means something only if agents crossed between ranks.
        handed=$(sed -n 's/.*, \([0-9.]*\) agents handed over.*/\1/p' out$ranks.txt)
        awk -v h="$handed" 'BEGIN { exit !(h > 0.5) }' || { echo "$ranks ranks: no crossings ($handed)"; exit 1; }
        cuts=$(sed -n 's/.*; \([0-9]*\) rebalances.*/\1/p' out$ranks.txt)
        if [ "$expect_rebalance" = 1 ] && [ "$cuts" -lt 1 ]; then
            echo "$ranks ranks: the crowded flock was never rebalanced"
            exit 1
        fi
        if [ "$expect_fast" = 1 ] && ! grep -q -E 'fast path on ([0-9]+) of \1 steps' out$ranks.txt; then
            echo "$ranks ranks: rank 0 did not take the fast path on every step: $(grep 'per step' out$ranks.txt)"
            exit 1
        fi
    fi
done
echo "run across ranks: $(grep 'state hash' summary0.txt) for $rank_counts ranks; outputs byte-identical"
