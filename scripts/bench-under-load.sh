#!/usr/bin/env bash
# The W20 benchmark (2D) on a busy machine: this script starts one CPU-bound process per core itself,
# then times `boids bench` on one thread, on every core (--threads N: what the default was before it
# measured the load) and on the default thread setting, interleaved, at each size, and prints a markdown
# table: ns per boid-step (wall time, mean over the timed steps), the ratio default / one thread, and the
# 1-minute load average after each round.
#
#   scripts/bench-under-load.sh                      # 10k, 100k, 1M, two rounds each
#   SIZES="10000" ROUNDS=3 scripts/bench-under-load.sh
#   LOAD=0 scripts/bench-under-load.sh               # the same without the competing processes
#
# BOIDS names the program (default build/release/boids); RUN_SECONDS the timed seconds per run (2).
set -euo pipefail

boids=${BOIDS:-build/release/boids}
sizes=${SIZES:-10000 100000 1000000}
rounds=${ROUNDS:-2}
run_seconds=${RUN_SECONDS:-2}
load=${LOAD:-1}
cores=$(nproc)

if [[ ! -x $boids ]]; then
    echo "bench-under-load: no program at $boids (build it, or set BOIDS)" >&2
    exit 2
fi

hogs=()
stop_hogs() {
    for pid in "${hogs[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
}
trap stop_hogs EXIT
if [[ $load != 0 ]]; then
    for ((i = 0; i < cores; ++i)); do
        (while :; do :; done) &
        hogs+=("$!")
    done
    sleep 1
fi

# ns per boid-step of the 2D W20 row for N = $1 on --threads $2 (0: the default setting).
ns_per_boid_step() {
    "$boids" bench --sizes "$1" --dimensions 2 --seconds "$run_seconds" --threads "$2" |
        awk -v n="$1" '$1 == 2 && $2 == n { print $4 }'
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "W20 2D, $cores cores ($cpu), $([[ $load != 0 ]] && echo "$cores competing CPU-bound processes" || echo "no added load")"
echo
echo "ns per boid-step; ratios over --threads 1"
echo
echo "| N | round | load (1 min) | --threads 1 | --threads $cores | default | $cores threads / one | default / one |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
    for ((r = 1; r <= rounds; ++r)); do
        one=$(ns_per_boid_step "$n" 1)
        every=$(ns_per_boid_step "$n" "$cores")
        default=$(ns_per_boid_step "$n" 0)
        avg=$(cut -d' ' -f1 /proc/loadavg)
        ratios=$(awk -v d="$default" -v e="$every" -v o="$one" 'BEGIN { printf "%.2fx | %.2fx", e / o, d / o }')
        echo "| $n | $r | $avg | $one | $every | $default | $ratios |"
    done
done
