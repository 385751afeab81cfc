#!/usr/bin/env bash
# Every speed goal of docs/PERFORMANCE.md §7 measured on this machine in one run, as one markdown table:
# each goal, the SIMD target it ran on (every target this CPU runs of avx3, avx2 and sse4, so that a
# machine measures the paths it would not pick too), the flock size, what it read, its limit and whether
# it is met; then the CPU and the machine's load during each measurement. The goals:
#   - each model's and each classic extension's ns per boid-step over the classic fast path's, at W20's
#     neighbour count (`boids bench --models --threads 1`): the field of view, obstacles and predators
#     within 1.5x, the other extensions and the models within 3x;
#   - 3D over 2D at 10k, 100k and 1M within 2.5x (`boids bench --dimensions 2,3 --threads 1`);
#   - the AVX2 2D step at 1M at least 1.5x faster than the straightforward cell-lanes kernel (`boids_bench
#     --benchmark_filter=FastStepBesideCellLanes/1000000`, one thread; needs AVX2 among the targets);
#   - with one CPU-bound process per core beside it, the default thread setting within 1.5x of one thread's
#     ns per boid-step at each size (scripts/bench-under-load.sh, one round).
# Speed goals are read here and in the benchmarks, never in timed tests: the script exits 0 whether or
# not they are met.
#
#   scripts/bench-goals.sh                                   # everything: about ten minutes on 2 cores
#   TARGETS=avx2 CELL_LANES=0 UNDER_LOAD=0 scripts/bench-goals.sh
#
# BOIDS and BOIDS_BENCH name the programs (build/release/boids, build/release/boids_bench). TARGETS: the
# targets, space-separated (default: those of avx3 avx2 sse4 this CPU runs). MODEL_SIZE (100000) and
# MODEL_SECONDS (1): the models' flock and timed seconds per row. SIZES_3D (10000 100000 1000000) and
# SECONDS_3D (2): the 3D/2D flocks and timed seconds per size. CELL_LANES and UNDER_LOAD (1): 0 leaves
# that goal out. SIZES_LOAD (10000 100000 1000000): the busy machine's flocks; LOAD=0 runs that table
# without the competing processes (as bench-under-load.sh). Exit status: 0, or 2 for a bad setting or a
# program that fails.
set -euo pipefail

boids=${BOIDS:-build/release/boids}
boids_bench=${BOIDS_BENCH:-build/release/boids_bench}
model_size=${MODEL_SIZE:-100000}
model_seconds=${MODEL_SECONDS:-1}
sizes_3d=${SIZES_3D:-10000 100000 1000000}
seconds_3d=${SECONDS_3D:-2}
cell_lanes=${CELL_LANES:-1}
under_load=${UNDER_LOAD:-1}
sizes_load=${SIZES_LOAD:-10000 100000 1000000}

bad() {
    echo "bench-goals: $*" >&2
    exit 2
}
whole='^[1-9][0-9]*$'
seconds='^([0-9]+(\.[0-9]*)?|\.[0-9]+)$'
[[ -x $boids ]] || bad "no program at '$boids' (build it, or set BOIDS)"
[[ $model_size =~ $whole ]] || bad "MODEL_SIZE = '$model_size' is invalid: expected a whole number of boids, 1 or more"
[[ $model_seconds =~ $seconds ]] || bad "MODEL_SECONDS = '$model_seconds' is invalid: expected seconds, such as 1 or 0.5"
[[ $seconds_3d =~ $seconds ]] || bad "SECONDS_3D = '$seconds_3d' is invalid: expected seconds, such as 2 or 0.5"
read -ra flocks_3d <<<"$sizes_3d"
read -ra flocks_load <<<"$sizes_load"
for n in "${flocks_3d[@]}" "${flocks_load[@]}"; do
    [[ $n =~ $whole ]] || bad "SIZES_3D and SIZES_LOAD hold '$n': expected whole numbers of boids, 1 or more"
done
[[ ${#flocks_3d[@]} -gt 0 ]] || bad "SIZES_3D is empty: expected flock sizes, such as '10000 100000'"
[[ ${#flocks_load[@]} -gt 0 || $under_load == 0 ]] || bad "SIZES_LOAD is empty: expected flock sizes, or UNDER_LOAD=0"
for flag in CELL_LANES UNDER_LOAD; do
    value=${!flag:-1}
    [[ $value == 0 || $value == 1 ]] || bad "$flag = '$value' is invalid: expected 1 (measure) or 0 (leave out)"
done
if [[ $cell_lanes == 1 && ! -x $boids_bench ]]; then
    bad "no program at '$boids_bench' (build it, set BOIDS_BENCH, or CELL_LANES=0)"
fi

# Whether this CPU runs target $1: a short bench refuses a target it does not (exit 2).
runs() {
    "$boids" bench --target "$1" --sizes 1000 --dimensions 2 --seconds 0.01 --warmup 1 --steps 1 \
        >/dev/null 2>&1
}
targets=()
if [[ -z ${TARGETS+set} ]]; then
    for t in avx3 avx2 sse4; do
        if runs "$t"; then
            targets+=("$t")
        fi
    done
else
    read -ra targets <<<"$TARGETS"
    for t in "${targets[@]}"; do
        runs "$t" || bad "TARGETS holds '$t': not a target this CPU runs (avx3, avx2, sse4, ssse3, scalar)"
    done
fi
[[ ${#targets[@]} -gt 0 ]] || bad "TARGETS is empty: expected targets, such as 'avx2 sse4'"

rows=$(mktemp)
trap 'rm -f "$rows" "$rows.err"' EXIT
loads=()
# A row: goal, target, N, the reading (a ratio, shown to two decimals and judged as read), the comparison
# (<= or >=) and the limit.
row() {
    local sign="≤"
    [[ $5 == ">=" ]] && sign="≥"
    awk -v goal="$1" -v target="$2" -v n="$3" -v v="$4" -v op="$5" -v sign="$sign" -v l="$6" 'BEGIN {
        met = (op == "<=" ? v + 0 <= l + 0 : v + 0 >= l + 0) ? "yes" : "**no**"
        printf "| %s | %s | %s | %.2fx | %s %sx | %s |\n", goal, target, n, v, sign, l, met
    }' >>"$rows"
}
# The load line a bench prints, without its lead.
load_of() {
    grep '^machine load during the table' | sed 's/^machine load during the table: //'
}

# The models and the classic extensions: each row of path `fast` but the classic one, its name (the
# fields before the path) and its first ratio (wall ns over the classic flock's, one thread).
limit_of() {
    case $1 in
    "classic fov"* | "classic obstacles"* | "classic predators"*) echo 1.5 ;;
    *) echo 3 ;;
    esac
}
for t in "${targets[@]}"; do
    out=$("$boids" bench --models --sizes "$model_size" --seconds "$model_seconds" --threads 1 --target "$t") ||
        bad "boids bench --models --target $t failed"
    found=0
    while IFS=$'\t' read -r name ratio; do
        row "$name over classic" "$t" "$model_size" "$ratio" "<=" "$(limit_of "$name")"
        found=$((found + 1))
    done < <(awk '{
        for (i = 2; i + 3 <= NF; ++i) {
            if ($i == "fast" && $(i + 3) ~ /^[0-9.]+x$/) {
                name = $1
                for (j = 2; j < i; ++j) name = name " " $j
                r = $(i + 3)
                sub(/x$/, "", r)
                if (name != "classic") print name "\t" r
                break
            }
        }
    }' <<<"$out")
    [[ $found -gt 0 ]] || bad "no model rows in the output of boids bench --models --target $t"
    loads+=("models on $t: $(load_of <<<"$out")")
done

# 3D over 2D, both flocks flown in turns.
sizes_list=$(IFS=,; echo "${flocks_3d[*]}")
for t in "${targets[@]}"; do
    out=$("$boids" bench --sizes "$sizes_list" --dimensions 2,3 --seconds "$seconds_3d" --threads 1 --target "$t") ||
        bad "boids bench --dimensions 2,3 --target $t failed"
    found=0
    while IFS=$'\t' read -r n ratio; do
        row "3D over 2D" "$t" "$n" "$ratio" "<=" 2.5
        found=$((found + 1))
    done < <(awk '$1 == 3 {
        for (i = 3; i < NF; ++i) {
            if ($i == "3D/2D") {
                r = $(i + 1)
                sub(/x,?$/, "", r)
                print $2 "\t" r
            }
        }
    }' <<<"$out")
    [[ $found -gt 0 ]] || bad "no 3D/2D ratios in the output of boids bench --dimensions 2,3 --target $t"
    loads+=("3D/2D on $t: $(load_of <<<"$out")")
done

# The AVX2 2D step at 1M against the cell-lanes kernel: the ratio of their median steps.
if [[ $cell_lanes == 1 ]]; then
    if [[ " ${targets[*]} " == *" avx2 "* ]]; then
        out=$(OMP_NUM_THREADS=1 BOIDS_SIMD_TARGET=avx2 "$boids_bench" \
            --benchmark_filter='FastStepBesideCellLanes/1000000/' 2>"$rows.err") ||
            bad "$boids_bench failed: $(cat "$rows.err")"
        ratio=$(grep 'manual_time_median' <<<"$out" | grep -o 'cell_lanes_over_fast=[0-9.]*' | cut -d= -f2)
        [[ -n $ratio ]] || bad "no cell_lanes_over_fast in the output of $boids_bench"
        row "cell-lanes kernel over the 2D step" avx2 1000000 "$ratio" ">=" 1.5
        loads+=("cell-lanes: 1-minute load average $(cut -d' ' -f1 /proc/loadavg) after")
    else
        echo "bench-goals: the cell-lanes goal is AVX2's, not among the targets (${targets[*]}): left out" >&2
    fi
fi

# The default threads on a busy machine, over one thread.
if [[ $under_load == 1 ]]; then
    out=$(BOIDS=$boids SIZES="${flocks_load[*]}" ROUNDS=1 bash "$(dirname "$0")/bench-under-load.sh") ||
        bad "bench-under-load.sh failed"
    found=0
    while IFS=$'\t' read -r n ratio load; do
        row "default threads over one, $(nproc) busy loops beside" auto "$n" "$ratio" "<=" 1.5
        loads+=("busy machine at $n: 1-minute load average $load")
        found=$((found + 1))
    done < <(awk -F'|' 'NF >= 10 && $2 ~ /[0-9]/ {
        n = $2; r = $9; l = $4
        gsub(/[ x]/, "", n); gsub(/[ x]/, "", r); gsub(/ /, "", l)
        print n "\t" r "\t" l
    }' <<<"$out")
    [[ $found -gt 0 ]] || bad "no rows in the output of bench-under-load.sh"
fi

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
family=$(awk -F': ' '/^cpu family/ { print $2; exit }' /proc/cpuinfo)
model=$(awk -F': ' '/^model\t/ { print $2; exit }' /proc/cpuinfo)
avx512=$(grep -o 'avx512[a-z0-9_]*' /proc/cpuinfo | sort -u | tr '\n' ' ' | sed 's/ $//')
echo "Speed goals on $cpu (family $family model $model), $(nproc) logical CPUs; AVX-512: ${avx512:-none}"
echo
echo "| goal | target | N | measured | limit | met |"
echo "|---|---|---:|---:|---:|---|"
cat "$rows"
echo
echo "met: $(grep -c '| yes |$' "$rows" || true) of $(wc -l <"$rows") goals"
echo
echo "machine load during each measurement (other processes' share of the cores, or the 1-minute load average):"
for line in "${loads[@]}"; do
    echo "- $line"
done
