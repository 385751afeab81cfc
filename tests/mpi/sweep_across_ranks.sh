#!/usr/bin/env bash
# A sweep shared among 1, 2 and 3 ranks writes the single-process CSV byte for byte, and a torn file
# resumed under mpirun ends up the same too.
# Usage: sweep_across_ranks.sh BOIDS MPIEXEC WORKDIR
set -euo pipefail
boids=$1 mpiexec=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
sweep=(sweep --boids 40 --steps 20 --vary visual_range=10:50:5 --seeds 2 --metric polarization,milling
       --threads 1)
"$boids" "${sweep[@]}" --out one.csv >/dev/null
for ranks in 1 2 3; do
    "$mpiexec" -np "$ranks" "$boids" "${sweep[@]}" --out "ranks$ranks.csv" >/dev/null
    cmp one.csv "ranks$ranks.csv"
done
# Resume: the preamble, two rows and half of the third, finished by 3 ranks.
head -c "$(($(head -n 4 one.csv | wc -c) + 7))" one.csv >resumed.csv
out=$("$mpiexec" -np 3 "$boids" "${sweep[@]}" --out resumed.csv)
cmp one.csv resumed.csv
grep -q "10 runs (2 already in resumed.csv)" <<<"$out"
# Bad input: one message from rank 0, exit code 2 from the job.
set +e
err=$("$mpiexec" -np 2 "$boids" "${sweep[@]}" --out . 2>&1 >/dev/null)
code=$?
set -e
[ "$code" -eq 2 ] || { echo "exit code $code, expected 2"; exit 1; }
[ "$(grep -c "^boids: --out" <<<"$err")" -eq 1 ] || { echo "expected one message: $err"; exit 1; }
echo "sweep across ranks: byte-identical for 1, 2 and 3 ranks; resume ok"
