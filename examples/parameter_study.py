#!/usr/bin/env python3
"""A parameter study in a few lines: how alignment (polarization) depends on the visual range.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/parameter_study.py [--steps 300] [--seeds 3]

After `pip install .` (docs/LIBRARY.md) it runs from any directory without PYTHONPATH.
"""

import argparse

import numpy as np

import boids

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--steps", type=int, default=300)
parser.add_argument("--seeds", type=int, default=3)
parser.add_argument("--boids", type=int, default=300)
parser.add_argument("--ranges", type=float, nargs="+", default=[5, 10, 20, 40, 80])
args = parser.parse_args()

print(f"{'visual_range':>12}  {'polarization':>12}  {'+-':>6}")
for visual_range in args.ranges:
    results = []
    for seed in range(args.seeds):
        w = boids.World("vga-predator", boids=args.boids, predators=0, seed=seed, visual_range=visual_range)
        w.step(args.steps)
        results.append(w.stats()["polarization"])
    print(f"{visual_range:12g}  {np.mean(results):12.3f}  {np.std(results):6.3f}")
