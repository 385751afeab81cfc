#!/usr/bin/python3
"""Times the numpy side of boids.World at scale: reading positions, velocities, kinds and biases (each
against numpy.copy of an array of the same size and dtype), the setters, and metrics().

    PYTHONPATH=build/release/python OMP_NUM_THREADS=2 /usr/bin/python3 bench/python_arrays.py [--boids 1000000]

The world is W20 (docs/PERFORMANCE.md): vga-predator's rules in a square wrap world sized so that a boid
has 20 others within its visual range on average. Each figure is the best of --repeat runs, in ms.
"""

import argparse
import math
import time

import numpy as np

import boids


def best_ms(fn, repeat, before=None):
    """The best wall time of `fn` over `repeat` runs, in ms (`before` runs untimed ahead of each)."""
    best = math.inf
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000.0


def cpu_ms(fn, threads):
    """The process CPU time of one run of `fn` divided by the threads, in ms: what the wall time would be
    on otherwise idle cores, when other programs share them."""
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000.0 / threads


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boids", type=int, default=1_000_000)
    parser.add_argument("--steps", type=int, default=5, help="steps before measuring (a settled grid)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0, help="World threads (0 = all)")
    args = parser.parse_args()

    side = math.sqrt(args.boids * math.pi * 40.0**2 / 20.0)  # 20 neighbours within visual range 40
    w = boids.World("vga-predator", boids=args.boids, predators=0, seed=1, threads=args.threads, width=side,
                    height=side, boundary="wrap")
    w.step(args.steps)
    print(f"boids {boids.__version__}, {len(w)} agents, W20 {side:.0f} x {side:.0f}, {w.threads} threads")
    print(f"{'operation':<24} {'ms':>9} {'numpy.copy ms':>14} {'ratio':>6}")

    def row(name, ms, reference=None):
        if reference is None:
            print(f"{name:<24} {ms:9.2f}")
        else:
            print(f"{name:<24} {ms:9.2f} {reference:14.2f} {ms / reference:6.2f}")

    for name in ("positions", "velocities", "kinds", "biases"):
        sample = getattr(w, name)
        reference = best_ms(lambda: np.copy(sample), args.repeat)
        row(f"read {name}", best_ms(lambda: getattr(w, name), args.repeat), reference)
    # The first read after a step: the fast step keeps the flock in cell order, and a step that follows a
    # read writes it back into agent order as it ends (see "step, then read positions" below).
    sample = w.positions
    row("read positions (1st)", best_ms(lambda: w.positions, args.repeat, before=lambda: w.step(1)),
        best_ms(lambda: np.copy(sample), args.repeat))
    positions, velocities = w.positions, w.velocities
    if hasattr(type(w).positions, "fset") and type(w).positions.fset is not None:
        def set_positions():
            w.positions = positions

        def set_velocities():
            w.velocities = velocities

        row("set positions", best_ms(set_positions, args.repeat),
            best_ms(lambda: np.copy(positions), args.repeat))
        row("set velocities", best_ms(set_velocities, args.repeat))
    else:
        print(f"{'set positions':<24} {'(no setter)':>9}")
    row("metrics()", best_ms(w.metrics, max(1, args.repeat // 2)))
    row("metrics() CPU / threads", cpu_ms(w.metrics, w.threads))
    w.step(1)
    row("step (for scale)", best_ms(lambda: w.step(1), 2))

    def step_and_read():
        w.step(1)
        return w.positions

    step_and_read()  # a read before the timed steps: each of them writes the flock back as it ends
    row("step, then read positions", best_ms(step_and_read, 2))


if __name__ == "__main__":
    main()
