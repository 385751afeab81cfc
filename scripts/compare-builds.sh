#!/usr/bin/env bash
# Two builds of `boids` timed against each other on the same headless run, the way PERFORMANCE.md's
# "before → after" figures are taken: rounds in turn (the first build first in odd rounds, the second
# first in even ones, so that neither always meets the machine's state after the other), one thread, user
# CPU seconds per run, and the median of the rounds' ratios, which a machine whose speed drifts between
# rounds moves less than a ratio of sums. A change that is meant to keep the engine's bits must keep the
# state hash, so the script also checks that every run of both builds ends in the same one. A measurement
# build (one that changes the bits on purpose, to see what a part of the step costs) is timed with
# HASHES=any: each build's runs must still agree among themselves, and both hashes are printed.
#
#   scripts/compare-builds.sh OLD NEW [boids run arguments]
#   scripts/compare-builds.sh /tmp/before/boids build/release/boids --preset downey-2d --boids 100000 \
#       --set width=125.331 --set height=125.331 --set boundary=wrap --set update=synchronous --steps 100
#   ROUNDS=12 TARGET=avx2 scripts/compare-builds.sh OLD NEW --preset couzin --steps 80
#
# Each run is `BOIDS_SIMD_TARGET=$TARGET PROGRAM run --headless --threads 1 ARGUMENTS`. ROUNDS (default 8)
# rounds; TARGET (default auto) the instruction set both builds run; HASHES (default same) whether the two
# builds must end in the same state (same) or only each in one of its own (any). Prints a markdown table of the rounds,
# then the median ratio, the fastest run of each build, the state hash and the 1-minute load average before
# and after. Exit status: 0, 1 when the builds' state hashes differ (or a run's differs from the others' of
# its build), 2 for bad arguments or a run that fails.
set -euo pipefail

usage() {
    echo "usage: compare-builds.sh OLD NEW [boids run arguments]" \
        "(ROUNDS=N, TARGET=auto|avx3|avx2|sse4|..., HASHES=same|any)" >&2
    exit 2
}

[[ $# -ge 2 ]] || usage
old=$1 new=$2
shift 2
rounds=${ROUNDS:-8}
target=${TARGET:-auto}
hashes=${HASHES:-same}
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
    echo "compare-builds: ROUNDS = '$rounds' is invalid: expected a whole number of rounds, 1 or more" >&2
    exit 2
fi
if [[ $hashes != same && $hashes != any ]]; then
    echo "compare-builds: HASHES = '$hashes' is invalid: expected 'same' (the builds end in one state) or" \
        "'any' (a measurement build: each build's runs agree among themselves)" >&2
    exit 2
fi
for program in "$old" "$new"; do
    if [[ ! -x $program ]]; then
        echo "compare-builds: no program at '$program' (build it, or name a boids executable)" >&2
        exit 2
    fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs build $1 (old or new) once; prints its user CPU seconds and leaves its output in $work/$1.out.
run_once() {
    local build=$1 program=$old
    shift
    [[ $build == new ]] && program=$new
    local seconds
    # bash's `time` reports the child's user CPU time; the program's own output goes to a file.
    seconds=$({ TIMEFORMAT=%U; time BOIDS_SIMD_TARGET=$target "$program" run --headless --threads 1 "$@" \
        >"$work/$build.out" 2>"$work/$build.err"; } 2>&1) || {
        echo "compare-builds: the $build build's run failed:" >&2
        cat "$work/$build.err" >&2
        exit 2
    }
    echo "$seconds"
}

hash_of() {
    awk '$1 == "state" && $2 == "hash" { print $3 }' "$work/$1.out"
}

load_before=$(cut -d' ' -f1 /proc/loadavg)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "compare-builds: $rounds round(s) in turn, one thread, target $target, on $cpu"
echo "  old: $old"
echo "  new: $new"
echo "  run: run --headless --threads 1 $*"
echo
echo "| round | old s | new s | new / old |"
echo "|---:|---:|---:|---:|"
declare -A expected=([old]="" [new]="")
for ((r = 1; r <= rounds; ++r)); do
    if ((r % 2 == 1)); then
        old_s=$(run_once old "$@")
        new_s=$(run_once new "$@")
    else
        new_s=$(run_once new "$@")
        old_s=$(run_once old "$@")
    fi
    for build in old new; do
        h=$(hash_of $build)
        if [[ -z $h ]]; then
            echo "compare-builds: the $build build printed no state hash (is it a boids program?)" >&2
            exit 2
        fi
        # With HASHES=same both builds answer to the old build's first hash; with any, each to its own.
        key=$build
        [[ $hashes == same ]] && key=old
        if [[ -z ${expected[$key]} ]]; then
            expected[$key]=$h
        elif [[ $h != "${expected[$key]}" ]]; then
            echo "compare-builds: state hashes differ: $h from the $build build in round $r," \
                "${expected[$key]} before it" >&2
            exit 1
        fi
    done
    echo "$r $old_s $new_s" >>"$work/rounds"
    awk -v r="$r" -v o="$old_s" -v n="$new_s" 'BEGIN {
        ratio = (o > 0) ? sprintf("%.3f", n / o) : "-"
        printf "| %d | %.3f | %.3f | %s |\n", r, o, n, ratio
    }'
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

# The median of the rounds' ratios (runs too short to time, 0.00 s, are left out of it).
median=$(awk '$2 > 0 { print $3 / $2 }' "$work/rounds" | sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) print "-"
    else printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
}')
fastest_old=$(awk '{ print $2 }' "$work/rounds" | sort -g | head -n 1)
fastest_new=$(awk '{ print $3 }' "$work/rounds" | sort -g | head -n 1)
echo
echo "median new / old: $median over $rounds round(s); fastest run: old $fastest_old s, new $fastest_new s"
if [[ $hashes == same ]]; then
    echo "state hash: ${expected[old]} (both builds, every round)"
else
    echo "state hashes: old ${expected[old]}, new ${expected[new]} (each build's, every round)"
fi
echo "1-minute load average: $load_before before, $load_after after"
