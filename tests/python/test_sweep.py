"""boids.sweep(): the table it returns, the same numbers as `boids sweep`, any thread count, the GIL
released while it runs, and bad input refused with ValueError naming the field."""

import csv
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import boids
from conftest import BOIDS_EXE, TIMEOUT

# One small sweep, written once for the CLI and once for Python: 3 x 2 combinations, 2 seeds.
SCENE = ["--preset", "vicsek", "--boids", "40", "--set", "width=5", "--set", "height=5"]
CLI_AXES = ["--vary", "noise=0:4:3", "--vary", "boids=20,40"]
RUN = ["--seeds", "2", "--steps", "30", "--burn-in", "10", "--every", "5", "--metric", "polarization,groups"]
AXES = {"noise": [0, 2, 4], "boids": [20, 40]}
KWARGS = dict(preset="vicsek", boids=40, width=5, height=5, seeds=2, steps=30, burn_in=10, every=5,
              metrics="polarization,groups")


def cli_sweep(tmp_path, *extra):
    out = tmp_path / "out.csv"
    r = subprocess.run([BOIDS_EXE, "sweep", *SCENE, *CLI_AXES, *RUN, "--threads", "2", "--out", str(out), *extra],
                       capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr
    return out


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    return rows[0], rows[1:]


def test_a_sweep_is_a_record_array_one_record_per_run_in_run_order():
    t = boids.sweep(AXES, **KWARGS)
    assert isinstance(t, np.recarray)
    assert t.dtype.names == ("run", "noise", "boids", "seed", "polarization", "groups")
    assert t.dtype["boids"] == np.int64 and t.dtype["noise"] == np.float64
    assert len(t) == 12
    assert list(t.run) == list(range(12))
    assert list(t.noise) == [0] * 4 + [2] * 4 + [4] * 4
    assert list(t.boids) == [20, 20, 40, 40] * 3
    assert list(t.seed) == [4760, 4761] * 6
    assert np.all((t.polarization >= 0) & (t.polarization <= 1)) and np.all(t.groups >= 1)
    # The ordered phase at no noise, the disordered one at eta = 4.
    assert t.polarization[t.noise == 0].mean() > t.polarization[t.noise == 4].mean()


def test_the_numbers_are_those_of_the_cli_for_the_same_sweep(tmp_path):
    header, rows = read_csv(cli_sweep(tmp_path))
    t = boids.sweep(AXES, threads=1, **KWARGS)
    assert header == ["noise", "boids", "seed", "polarization", "groups"]
    assert len(rows) == len(t)
    for row, record in zip(rows, t):
        assert [float(x) for x in row] == [float(record[name]) for name in header]


def test_the_series_is_that_of_the_cli_and_the_same_for_any_thread_count(tmp_path):
    series_csv = tmp_path / "series.csv"
    cli_sweep(tmp_path, "--series", str(series_csv), "--series-every", "10")
    header, rows = read_csv(series_csv)
    one = boids.sweep(AXES, series=True, series_every=10, threads=1, **KWARGS)
    two = boids.sweep(AXES, series=True, series_every=10, threads=2, **KWARGS)
    assert one.tobytes() == two.tobytes()
    assert one.dtype.names == tuple(header) == ("run", "noise", "boids", "seed", "step", "polarization", "groups")
    assert len(one) == len(rows) == 12 * 4
    assert list(one.step[:4]) == [0, 10, 20, 30]
    for row, record in zip(rows, one):
        assert [float(x) for x in row] == [float(record[name]) for name in header]


def test_axes_take_the_cli_range_text_and_numpy_values():
    by_text = boids.sweep({"noise": "0:4:3"}, **KWARGS)
    by_array = boids.sweep({"noise": np.array([0.0, 2.0, 4.0])}, **KWARGS)
    assert by_text.tobytes() == by_array.tobytes()
    assert list(boids.sweep({"boids": np.arange(20, 41, 20)}, **KWARGS).boids) == [20, 20, 40, 40]


def sweep_heartbeat(steps):
    """The sweep's length and this thread's longest wait while a sweep of `steps` steps runs beside it."""
    worker = threading.Thread(target=boids.sweep, args=({"noise": [1, 2]},),
                              kwargs=dict(preset="vicsek", seeds=2, steps=steps, threads=1))
    start = last = time.monotonic()
    longest_gap = 0.0
    worker.start()
    while worker.is_alive():
        time.sleep(0.001)
        now = time.monotonic()
        longest_gap, last = max(longest_gap, now - last), now
    return time.monotonic() - start, longest_gap


def test_the_sweep_runs_without_holding_the_gil():
    # This thread's heartbeat, from before the sweep starts until it ends: held, the GIL would stop it
    # for the whole sweep (in start() or in the loop); released, it never waits long. A fast machine
    # finishes a short sweep before the heartbeat can tell, so the sweep grows until it lasts.
    steps = 400
    elapsed, longest_gap = sweep_heartbeat(steps)
    while elapsed <= 0.2 and steps < 400 * 64:
        steps *= 4
        elapsed, longest_gap = sweep_heartbeat(steps)
    assert elapsed > 0.2, "the sweep is too short to tell"
    assert longest_gap < elapsed / 2, (steps, longest_gap, elapsed)


def test_ctrl_c_stops_a_sweep_after_the_runs_in_progress():
    # 2,000 runs of 300 steps would take minutes; the interrupt comes after 0.3 s.
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        boids.sweep({"noise": np.linspace(0, 5, 1000)}, preset="vicsek", seeds=2, steps=300, threads=2)
    timer.join()
    assert time.monotonic() - start < 10


@pytest.mark.parametrize("axes, kwargs, fragments", [
    ({"colour": [1, 2]}, {}, ["axes", "'colour'", "numeric parameter of the vicsek model"]),
    ({"visual_range": [10]}, {}, ["visual_range", "the vicsek model does not use this key"]),
    ({"noise": []}, {}, ["axes['noise']", "no values"]),
    ({"noise": [1, "x"]}, {}, ["axes['noise']", "'x'", "list of numbers"]),
    ({"noise": [1, True]}, {}, ["axes['noise']", "True", "list of numbers"]),
    ({"noise": 1.5}, {}, ["axes['noise']", "1.5", "list of numbers"]),
    ({"noise": [1, 1.0]}, {}, ["axes['noise']", "given twice"]),
    ({"noise": [1, 9]}, {}, ["axes noise = 9", "[0, 6.28"]),
    ({"boids": [10, 12.5]}, {}, ["axes['boids']", "12.5", "whole number"]),
    ({"noise": "0:1"}, {}, ["axes['noise']", "START:STOP:COUNT"]),
    ({1: [1]}, {}, ["axes", "1", "keys must be str"]),
    ({}, {}, ["axes", "missing"]),
    ({"noise": [1]}, {"metrics": "polarisation"}, ["metrics", "'polarisation'", "milling"]),
    ({"noise": [1]}, {"metrics": ["groups", "groups"]}, ["metrics", "'groups'", "named twice"]),
    ({"noise": [1]}, {"steps": 0}, ["steps", "0", "[1, "]),
    ({"noise": [1]}, {"steps": 10, "burn_in": 10}, ["burn_in", "10", "[0, 9]"]),
    ({"noise": [1]}, {"seeds": 1.5}, ["seeds", "1.5", "int"]),
    ({"noise": [1]}, {"precision": "f16"}, ["precision", "f16", "f32"]),
    ({"noise": [1]}, {"threads": -1}, ["threads", "-1"]),
    ({"noise": [1]}, {"interaction_radius": -1}, ["interaction_radius", "-1"]),
])
def test_bad_input_raises_value_error_naming_the_field(axes, kwargs, fragments):
    with pytest.raises(ValueError) as error:
        boids.sweep(axes, **{"preset": "vicsek", "steps": 10, **kwargs})
    for fragment in fragments:
        assert fragment in str(error.value)


def test_a_dataframe_when_pandas_is_installed():
    pandas = pytest.importorskip("pandas")
    frame = boids.sweep(AXES, dataframe=True, **KWARGS)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == ["run", "noise", "boids", "seed", "polarization", "groups"]
    assert frame.polarization.tolist() == boids.sweep(AXES, **KWARGS).polarization.tolist()


def test_asking_for_a_dataframe_without_pandas_says_what_is_missing(monkeypatch):
    # pandas is installed with the other dependencies; a None entry makes its import fail as if it were not.
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="needs pandas"):
        boids.sweep({"noise": [1]}, preset="vicsek", steps=5, dataframe=True)
