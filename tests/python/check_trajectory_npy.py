#!/usr/bin/python3
"""numpy reads a `boids run --trajectory X.npy`: shape (frames, N, 4), float32, the frames at steps
0, K, 2K, ..., the last frame equal to the --dump state, and the .csv trajectory equal to the .npy.

Usage: check_trajectory_npy.py BOIDS_EXE WORK_DIR (run by ctest)."""

import csv
import os
import subprocess
import sys

import numpy as np


def main():
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    npy, traj_csv, dump = (os.path.join(work, n) for n in ("t.npy", "t.csv", "final.csv"))
    for traj in (npy, traj_csv):
        subprocess.run([exe, "run", "--headless", "--preset", "vga-scouts", "--boids", "50", "--steps", "30",
                        "--trajectory", traj, "--trajectory-every", "10", "--dump", dump, "--threads", "2"],
                       check=True, stdout=subprocess.DEVNULL)
    a = np.load(npy)
    assert a.shape == (4, 90, 4), a.shape  # steps 0, 10, 20, 30; 50 boids + 20 + 20 scouts
    assert a.dtype == np.float32, a.dtype
    with open(dump) as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    final = np.array([[float(r["x"]), float(r["y"]), float(r["vx"]), float(r["vy"])] for r in rows],
                     dtype=np.float32)
    assert np.array_equal(a[-1], final), "last frame differs from the dumped state"
    assert not np.array_equal(a[0], a[-1])
    with open(traj_csv) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 * 90
    b = np.array([[float(r["x"]), float(r["y"]), float(r["vx"]), float(r["vy"])] for r in rows],
                 dtype=np.float32).reshape(4, 90, 4)
    assert np.array_equal(a, b), "the .csv and .npy trajectories differ"
    assert [int(r["step"]) for r in rows[::90]] == [0, 10, 20, 30]
    print("trajectory .npy OK:", a.shape, a.dtype)


if __name__ == "__main__":
    main()
