#!/usr/bin/env bash
# scripts/bench-goals.sh: with stand-in programs whose outputs are known, each goal's row reads the right
# figure and is met or not by its own limit (the field of view 1.5x, a model 3x, 3D/2D 2.5x, the cell-lanes
# kernel at least 1.5x slower, the busy machine 1.5x); with the real program on small flocks, every model
# row and each 3D/2D row appear; bad settings exit 2 with a message naming the setting.
#   check_bench_goals.sh SOURCE_DIR BOIDS WORK_DIR
set -euo pipefail
source_dir=$1 boids=$2 work=$3
script=$source_dir/scripts/bench-goals.sh
rm -rf "$work"
mkdir -p "$work"
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# A stand-in boids: `bench --models` prints a table of ratios, `bench --dimensions 2,3` two sizes' 3D/2D,
# the plain W20 table a 2D row whose ns per boid-step depends on --threads (1: 30, otherwise 40: 1.33x).
fake=$work/boids
cat >"$fake" <<'EOF'
#!/usr/bin/env bash
threads=1
models=0
dims=2
for ((i = 1; i <= $#; ++i)); do
    case ${!i} in
    --models) models=1 ;;
    --threads) j=$((i + 1)); threads=${!j} ;;
    --dimensions) j=$((i + 1)); dims=${!j} ;;
    --sizes)
        j=$((i + 1))
        [[ ${!j} =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "--sizes '${!j}'" >&2; exit 2; }
        ;;
    esac
done
if [[ $models == 1 ]]; then
    cat <<'TABLE'
f32, fast path SIMD AVX2 (8 lanes, --target avx2); threads: 1
row                           path neighbours   1 thread ns  x fast   cpu ns  x fast
classic                       fast       20.9          17.7   1.00x     17.8   1.00x
classic, plain path          plain       20.9         642.3  35.88x    641.1  35.64x
topological k=7               fast       19.9          60.5   3.32x     61.1   3.33x
weighted                      fast       22.1          51.1   2.80x     52.0   2.83x
classic fov 270               fast       21.0          26.4   1.49x     26.7   1.42x
classic obstacles             fast       21.0          28.4   1.60x     26.7   1.42x
classic line of sight         fast       22.3          36.2   2.05x     36.3   2.04x
machine load during the table: other processes held 0.02 of 2 cores on average (1-minute load average 0.30)
TABLE
elif [[ $dims == 2,3 ]]; then
    cat <<'TABLE'
dim          N   steps/s  ns/boid  grid ms neighbour ms  integr ms  total ms   min ms   cpu ms  steps   path   peak RSS
  2      10000    3387.7     29.5    0.052       0.243      0.000     0.295    0.282    0.296    690   fast   13 MiB
  3      10000    1527.6     65.5    0.061       0.594      0.000     0.654    0.602    0.635    690   fast   14 MiB 3D/2D 2.22x, fastest steps 2.14x
  2     100000    3387.7     29.5    0.052       0.243      0.000     0.295    0.282    0.296    690   fast   13 MiB
  3     100000    1527.6     65.5    0.061       0.594      0.000     0.654    0.602    0.635    690   fast   14 MiB 3D/2D 2.61x, fastest steps 2.55x
machine load during the table: other processes held 0.01 of 2 cores on average (1-minute load average 0.40)
TABLE
else
    ns=30.0
    [[ $threads != 1 ]] && ns=40.0
    echo "dim          N   steps/s  ns/boid"
    echo "  2      10000    3387.7     $ns"
fi
EOF
chmod +x "$fake"
fake_bench=$work/boids_bench
cat >"$fake_bench" <<'EOF'
#!/usr/bin/env bash
[[ $BOIDS_SIMD_TARGET == avx2 && $OMP_NUM_THREADS == 1 ]] || exit 7
echo "FastStepBesideCellLanes/1000000/iterations:5/repeats:5/manual_time_median  98.6 ms  301 ms  5 cell_lanes_ns_per_boid_step=42.4 cell_lanes_over_fast=1.2936 fast_ns_per_boid_step=32.6 AVX2"
EOF
chmod +x "$fake_bench"

table=$work/fake.txt
BOIDS=$fake BOIDS_BENCH=$fake_bench TARGETS=avx2 SIZES_3D=" 10000  100000 " SIZES_LOAD=" 10000" LOAD=0 \
    RUN_SECONDS=0.1 bash "$script" >"$table" || fail "with stand-in programs: exit $?"
expect() {
    grep -qF -- "$1" "$table" || fail "no row '$1' in: $(cat "$table")"
}
expect "| topological k=7 over classic | avx2 | 100000 | 3.32x | ≤ 3x | **no** |"
expect "| weighted over classic | avx2 | 100000 | 2.80x | ≤ 3x | yes |"
expect "| classic fov 270 over classic | avx2 | 100000 | 1.49x | ≤ 1.5x | yes |"
expect "| classic obstacles over classic | avx2 | 100000 | 1.60x | ≤ 1.5x | **no** |"
expect "| classic line of sight over classic | avx2 | 100000 | 2.05x | ≤ 3x | yes |"
expect "| 3D over 2D | avx2 | 10000 | 2.22x | ≤ 2.5x | yes |"
expect "| 3D over 2D | avx2 | 100000 | 2.61x | ≤ 2.5x | **no** |"
expect "| cell-lanes kernel over the 2D step | avx2 | 1000000 | 1.29x | ≥ 1.5x | **no** |"
expect "over one, $(nproc) busy loops beside | auto | 10000 | 1.33x | ≤ 1.5x | yes |"
expect "met: 5 of 9 goals"
expect "- models on avx2: other processes held 0.02 of 2 cores"
grep -q "classic over classic\|plain path over" "$table" && fail "the classic or a plain row as a goal: $(cat "$table")"

# The real program on small flocks, one target, without the slow goals.
real=$work/real.txt
BOIDS=$boids TARGETS=sse4 MODEL_SIZE=2000 MODEL_SECONDS=0.02 SIZES_3D=2000 SECONDS_3D=0.02 CELL_LANES=0 \
    UNDER_LOAD=0 bash "$script" >"$real" || fail "with the real program: exit $?"
for name in "topological k=7" weighted vicsek couzin "classic fov 270" "classic obstacles" \
    "classic predators pursuing" "classic gravity"; do
    grep -qE "^\| $name over classic \| sse4 \| 2000 \| [0-9.]+x \| ≤ (3|1\.5)x \| (yes|\*\*no\*\*) \|$" "$real" ||
        fail "no row for $name in: $(cat "$real")"
done
grep -qE '^\| 3D over 2D \| sse4 \| 2000 \| [0-9.]+x \| ≤ 2\.5x \| (yes|\*\*no\*\*) \|$' "$real" ||
    fail "no 3D/2D row in: $(cat "$real")"

refused() { # the message expected, then the settings (over CELL_LANES=0 UNDER_LOAD=0)
    local message=$1 status=0
    shift
    env BOIDS="$boids" CELL_LANES=0 UNDER_LOAD=0 "$@" bash "$script" >/dev/null 2>"$work/err" || status=$?
    [[ $status == 2 ]] || fail "$*: exit $status, expected 2"
    grep -qF -- "$message" "$work/err" || fail "$*: no message '$message' in: $(cat "$work/err")"
}
refused "MODEL_SECONDS = 'abc' is invalid" MODEL_SECONDS=abc
refused "MODEL_SIZE = '0' is invalid" MODEL_SIZE=0
refused "hold '10k'" SIZES_3D=10k
refused "SIZES_3D is empty" "SIZES_3D= "
refused "TARGETS holds 'neon'" TARGETS=neon
refused "CELL_LANES = 'yes' is invalid" CELL_LANES=yes
refused "no program at '/nonexistent'" CELL_LANES=1 BOIDS_BENCH=/nonexistent
refused "no program at '$work/missing'" BOIDS="$work/missing"
echo "bench-goals.sh: checked"
