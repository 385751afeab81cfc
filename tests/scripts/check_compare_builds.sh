#!/usr/bin/env bash
# scripts/compare-builds.sh against one program: the same build twice agrees and reports a median ratio;
# a "build" whose runs end in another state (the program with another seed) is refused with exit 1, and
# timed with HASHES=any (a measurement build), both hashes printed; bad arguments exit 2 with a message
# naming what is wrong.
#   check_compare_builds.sh SOURCE_DIR BOIDS WORK_DIR
set -euo pipefail
source_dir=$1 boids=$2 work=$3
script=$source_dir/scripts/compare-builds.sh
rm -rf "$work"
mkdir -p "$work"
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
args=(--boids 300 --steps 20)

same=$work/same.txt
ROUNDS=2 bash "$script" "$boids" "$boids" "${args[@]}" >"$same" || fail "the same build twice: exit $?"
grep -q '^median new / old: [0-9.]* over 2 round(s)' "$same" || fail "no median in: $(cat "$same")"
[[ $(grep -c '^| [12] | ' "$same") == 2 ]] || fail "not two rounds in: $(cat "$same")"
hash=$("$boids" run --headless --threads 1 "${args[@]}" | awk '$1 == "state" && $2 == "hash" { print $3 }')
grep -q "^state hash: $hash (both builds" "$same" || fail "not the run's hash $hash"

other=$work/other-seed
printf '#!/usr/bin/env bash\nexec "%s" "$@" --seed 99\n' "$boids" >"$other"
chmod +x "$other"
status=0
ROUNDS=2 bash "$script" "$boids" "$other" "${args[@]}" >"$work/differ.txt" 2>"$work/differ.err" || status=$?
[[ $status == 1 ]] || fail "builds of different states: exit $status, expected 1"
grep -q 'state hashes differ' "$work/differ.err" || fail "no message in: $(cat "$work/differ.err")"
HASHES=any ROUNDS=2 bash "$script" "$boids" "$other" "${args[@]}" >"$work/any.txt" ||
    fail "a measurement build with HASHES=any: exit $?"
other_hash=$("$other" run --headless --threads 1 "${args[@]}" | awk '$1 == "state" && $2 == "hash" { print $3 }')
[[ $other_hash != "$hash" ]] || fail "the other seed's run ends in the same state $hash"
grep -q "^state hashes: old $hash, new $other_hash (each build's" "$work/any.txt" ||
    fail "not both hashes in: $(cat "$work/any.txt")"
grep -q '^median new / old: [0-9.]* over 2 round(s)' "$work/any.txt" || fail "no median with HASHES=any"

status=0
ROUNDS=0 bash "$script" "$boids" "$boids" "${args[@]}" 2>"$work/rounds.err" || status=$?
[[ $status == 2 ]] && grep -q "ROUNDS = '0' is invalid" "$work/rounds.err" || fail "ROUNDS=0: exit $status"
status=0
HASHES=some bash "$script" "$boids" "$boids" "${args[@]}" 2>"$work/hashes.err" || status=$?
[[ $status == 2 ]] && grep -q "HASHES = 'some' is invalid" "$work/hashes.err" || fail "HASHES=some: exit $status"
status=0
bash "$script" "$boids" "$work/missing" "${args[@]}" 2>"$work/missing.err" || status=$?
[[ $status == 2 ]] && grep -q "no program at '$work/missing'" "$work/missing.err" ||
    fail "missing build: exit $status"
status=0
ROUNDS=1 bash "$script" "$boids" "$boids" --boids -5 2>"$work/bad.err" || status=$?
[[ $status == 2 ]] && grep -q "run failed" "$work/bad.err" || fail "a failing run: exit $status"
echo "compare-builds: agreeing builds timed, a different state refused unless HASHES=any, bad arguments refused"
