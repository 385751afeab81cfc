#!/usr/bin/env python3
"""A matplotlib animation of a flock: boids in blue, scouts in green/orange, predators in red.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/flock_animation.py              # a window
    PYTHONPATH=build/release/python /usr/bin/python3 examples/flock_animation.py --save flock.gif  # headless

After `pip install .` (docs/LIBRARY.md) it runs from any directory without PYTHONPATH.
"""

import argparse

import matplotlib

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--preset", default="vga-scouts", help="built-in scene (boids.presets())")
parser.add_argument("--boids", type=int, default=None, help="number of boids (default: the scene's)")
parser.add_argument("--frames", type=int, default=300, help="frames to animate")
parser.add_argument("--steps-per-frame", type=int, default=1, help="simulation steps per frame")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--save", metavar="FILE.gif", help="write the animation to a GIF instead of showing a window")
args = parser.parse_args()
if args.save:
    matplotlib.use("Agg")  # no display needed

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.animation import FuncAnimation, PillowWriter  # noqa: E402

import boids  # noqa: E402

world = boids.World(args.preset, boids=args.boids, seed=args.seed)
colours = ["tab:blue", "tab:green", "tab:orange", "tab:red"]

fig, ax = plt.subplots(figsize=(6.4, 4.8))
ax.set_xlim(0, world.get("width"))
ax.set_ylim(world.get("height"), 0)  # y grows downward, as on the lab's screen
ax.set_aspect("equal")
ax.set_xticks([])
ax.set_yticks([])
p, v = world.positions, world.velocities
arrows = ax.quiver(p[:, 0], p[:, 1], v[:, 0], -v[:, 1], color=[colours[k] for k in world.kinds], scale=250,
                   width=0.004)
title = ax.set_title("")


def update(frame):
    world.step(args.steps_per_frame)
    s = world.stats()
    arrows.set_offsets(world.positions)
    vel = world.velocities
    arrows.set_UVC(vel[:, 0], -vel[:, 1])  # the axis is flipped, so are the arrows' y
    title.set_text(f"step {s['steps']}   polarization {s['polarization']:.2f}   mean speed {s['mean_speed']:.2f}")
    return arrows, title


animation = FuncAnimation(fig, update, frames=args.frames, interval=33, blit=False)
if args.save:
    animation.save(args.save, writer=PillowWriter(fps=30))
    print(f"wrote {args.frames} frames to {args.save}")
else:
    plt.show()
