#!/usr/bin/env python3
"""A two-parameter phase diagram with boids.sweep(): Vicsek's order parameter v_a over noise x density.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/phase_diagram.py --out phase.png

Every (noise, density) pair is run for several seeds (a full-factorial sweep, as NetLogo's BehaviorSpace
runs one); v_a is averaged over time after a burn-in and then over the seeds. The ordered phase
(v_a near 1) gives way to disorder at a critical noise that rises with the density (Vicsek et al. 1995,
Fig. 2). The defaults drew docs/figures/vicsek_phase_diagram.png (a minute or two on two cores).
Needs Debian's python3-matplotlib (the Agg backend: no display).
"""

import argparse

import matplotlib
import numpy as np

import boids

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--noise", default="0:5:21", help="noise values START:STOP:COUNT (default 0:5:21)")
parser.add_argument("--densities", type=float, nargs="+", default=[0.25, 0.5, 1, 2, 3, 4],
                    help="agents per unit area (default 0.25 0.5 1 2 3 4)")
parser.add_argument("--size", type=float, default=10, help="side L of the square torus (default 10)")
parser.add_argument("--seeds", type=int, default=3)
parser.add_argument("--steps", type=int, default=2000)
parser.add_argument("--burn-in", type=int, default=1000)
parser.add_argument("--every", type=int, default=10)
parser.add_argument("--threads", type=int, default=0, help="runs at once (default 0: one per core)")
parser.add_argument("--out", default="phase_diagram.png", help="image file (.png, .svg, .pdf)")
args = parser.parse_args()

counts = [round(d * args.size ** 2) for d in args.densities]
table = boids.sweep({"noise": args.noise, "boids": counts}, preset="vicsek", width=args.size,
                    height=args.size, seeds=args.seeds, steps=args.steps, burn_in=args.burn_in,
                    every=args.every, metrics="polarization", threads=args.threads)

# The runs come in a fixed order (first axis slowest, seed fastest), so the table reshapes into
# (noise, density, seed).
noise = np.unique(table.noise)
va = table.polarization.reshape(len(noise), len(counts), args.seeds).mean(axis=2)

print("v_a by noise (rows) and density (columns)")
print(f"{'noise':>6} " + " ".join(f"{d:>6g}" for d in args.densities))
for eta, row in zip(noise, va):
    print(f"{eta:6.3g} " + " ".join(f"{v:6.3f}" for v in row))

fig, ax = plt.subplots(figsize=(6, 4.2), dpi=100)
density_edges = np.arange(len(counts) + 1) - 0.5
step = noise[1] - noise[0] if len(noise) > 1 else 1.0
noise_edges = np.append(noise - step / 2, noise[-1] + step / 2)
mesh = ax.pcolormesh(noise_edges, density_edges, va.T, cmap="viridis", vmin=0, vmax=1, shading="flat")
if len(noise) > 1 and len(counts) > 1:
    lines = ax.contour(noise, np.arange(len(counts)), va.T, levels=[0.5], colors="white", linewidths=1.5)
    ax.clabel(lines, fmt=r"$v_a$ = 0.5", fontsize=8)
ax.set_yticks(np.arange(len(counts)), [f"{d:g}" for d in args.densities])
ax.set_xlabel(r"noise $\eta$")
ax.set_ylabel("density (agents per unit area)")
ax.set_title(f"Vicsek model: order parameter $v_a$ (L = {args.size:g}, {args.seeds} seeds)")
fig.colorbar(mesh, ax=ax, label=r"$v_a$ (time and seed average)")
fig.tight_layout()
fig.savefig(args.out)
print(f"phase_diagram: wrote {args.out}")
