# %% [markdown]
# # Boids in a notebook
# Cells are separated by `# %%` (Jupyter, VS Code and Spyder run them one by one); as a script it saves
# its figure instead of showing it:
#
#     PYTHONPATH=build/release/python /usr/bin/python3 examples/notebook.py [--steps 400] [--save flock.png]
#
# After `pip install .` (docs/LIBRARY.md) it runs from any directory without PYTHONPATH.

# %%
import argparse
import sys

import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import boids

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=400)
parser.add_argument("--save", default="notebook.png")
args, _ = parser.parse_known_args()  # notebooks pass their own arguments

# %% A flock with two predators; watch the order parameter as it forms.
w = boids.World("vga-predator", boids=400, seed=7)
w.params["visual_range"] = 50
polarization = []
for _ in range(args.steps):
    w.step()
    polarization.append(w.stats()["polarization"])
w

# %% The final state as numpy arrays: positions (N, 2), velocities (N, 2), kinds (N,).
pos, vel, kinds = w.positions, w.velocities, w.kinds
flock = kinds == boids.BOID
print(f"{flock.sum()} boids, mean speed {np.hypot(*vel[flock].T).mean():.2f} px/step, "
      f"final polarization {polarization[-1]:.3f}")

# %% Plot: the flock (left) and polarization over time (right).
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
left.quiver(pos[flock, 0], pos[flock, 1], vel[flock, 0], -vel[flock, 1], color="tab:blue", scale=250)
left.scatter(pos[~flock, 0], pos[~flock, 1], color="tab:red", s=40, label="predators")
left.set_xlim(0, w.get("width"))
left.set_ylim(w.get("height"), 0)
left.set_aspect("equal")
left.legend(loc="upper right")
right.plot(polarization)
right.set_xlabel("step")
right.set_ylabel("polarization")
right.set_ylim(0, 1)
fig.tight_layout()
if "ipykernel" in sys.modules:
    plt.show()
else:
    fig.savefig(args.save)
    print(f"saved {args.save}")
