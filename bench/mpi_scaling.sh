#!/usr/bin/env bash
# The distributed run's figures per rank count: steps/s, time in halo exchange and migration, bytes sent
# per step, imbalance; and one process with the same total number of threads, for comparison.
# Usage: bench/mpi_scaling.sh BOIDS [RANKS...]   (env: AGENTS, STEPS, PRESET, THREADS_TOTAL, EXTRA)
# Example: bench/mpi_scaling.sh build/release/boids 1 2
set -euo pipefail
boids=$1
shift
ranks=("${@:-1 2}")
agents=${AGENTS:-20000} steps=${STEPS:-100} preset=${PRESET:-vga-predator} total=${THREADS_TOTAL:-2}
# EXTRA: more run flags, e.g. "--set boundary=wrap --set width=2000 --set height=2000"
read -r -a extra <<<"${EXTRA:-}"
run=(run --headless --preset "$preset" --boids "$agents" --steps "$steps" "${extra[@]}")
echo "# $(uptime)"
echo "# $preset, $agents boids, $steps steps"
printf '%-22s %10s %10s %10s %10s %10s %12s %10s %s\n' layout steps/s ms/step halo_ms step_ms migrate_ms \
    bytes/step imbalance "state hash"
line=$("$boids" "${run[@]}" --threads "$total")
printf '%-22s %10s %10s %10s %10s %10s %12s %10s %s\n' "1 process x $total threads" \
    "$(sed -n 's/.*(\([0-9.]*\) steps\/s).*/\1/p' <<<"$line")" \
    "$(sed -n 's/.*per step *\([0-9.]*\) ms.*/\1/p' <<<"$line")" - - - - - \
    "$(sed -n 's/.*state hash *//p' <<<"$line")"
for r in ${ranks[@]}; do
    line=$(mpirun --oversubscribe -np "$r" "$boids" "${run[@]}" --threads 1)
    per=$(sed -n 's/.*per step *//p' <<<"$line")
    printf '%-22s %10s %10s %10s %10s %10s %12s %10s %s\n' "$r ranks x 1 thread" \
        "$(sed -n 's/.*(\([0-9.]*\) steps\/s).*/\1/p' <<<"$line")" \
        "$(sed -n 's/^\([0-9.]*\) ms.*/\1/p' <<<"$per")" \
        "$(sed -n 's/.*halo \([0-9.]*\),.*/\1/p' <<<"$per")" \
        "$(sed -n 's/.*step \([0-9.]*\)[ ,].*/\1/p' <<<"$per")" \
        "$(sed -n 's/.*migrate \([0-9.]*\);.*/\1/p' <<<"$per")" \
        "$(sed -n 's/.*job: \([0-9]*\) bytes.*/\1/p' <<<"$per")" \
        "$(sed -n 's/.*imbalance \([0-9.]*\);.*/\1/p' <<<"$per")" \
        "$(sed -n 's/.*state hash *//p' <<<"$line")"
done
echo "# $(uptime)"
