"""The Python module `boids`: construction, numpy arrays, parameters, agents, state files, and equality
with the CLI."""

import re
import subprocess

import numpy as np
import pytest

import boids
from conftest import BOIDS_EXE, TIMEOUT


def cli_run(*args):
    r = subprocess.run([BOIDS_EXE, "run", "--headless", "--threads", "1", *args], capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr
    return r.stdout


def cli_hash(out):
    return int(re.search(r"state hash\s+([0-9a-f]{16})", out).group(1), 16)


@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_same_seed_and_params_as_the_cli_give_the_same_state(tmp_path, precision):
    dump = tmp_path / "cli.csv"
    out = cli_run("--preset", "vga-scouts", "--boids", "150", "--scouts1", "10", "--scouts2", "8", "--predators",
                  "1", "--seed", "11", "--steps", "60", "--precision", precision,
                  "--set", "visual_range=35", "--set", "boundary=wrap", "--dump", str(dump))
    w = boids.World("vga-scouts", boids=150, scouts1=10, scouts2=8, predators=1, seed=11, precision=precision,
                    threads=1, visual_range=35, boundary="wrap")
    w.step(60)
    assert w.state_hash() == cli_hash(out)
    mine = tmp_path / "py.csv"
    w.save_state(mine)
    assert mine.read_bytes() == dump.read_bytes()


def test_default_world_matches_the_cli_default_scene():
    out = cli_run("--steps", "20")
    w = boids.World(threads=1)
    w.step(20)
    assert format(w.state_hash(), "016x") in out
    assert w.counts == {"boids": 500, "scouts1": 0, "scouts2": 0, "predators": 2}


def test_state_file_round_trip_and_continuation_match_the_cli(tmp_path):
    start = tmp_path / "start.csv"
    w = boids.World("ece4760", seed=2, precision="f64", threads=1)
    w.step(10)
    w.save_state(start)
    out = cli_run("--preset", "ece4760", "--init", str(start), "--steps", "15", "--precision", "f64")
    v = boids.World("ece4760", state=start, precision="f64", threads=1)
    assert v.state_hash() == w.state_hash() and v.steps == 10  # the file carries its step
    v.step(15)
    w.step(15)
    assert v.state_hash() == w.state_hash() == cli_hash(out)
    u = boids.World("ece4760", boids=3, precision="f64")
    u.load_state(start)
    assert len(u) == len(w) and u.steps == 10


def test_saved_state_continues_exactly_and_a_truncated_one_is_refused(tmp_path):
    # Vicsek's noise follows the step index: a loaded state continues it instead of restarting at 0.
    straight = boids.World("vicsek", boids=200, seed=3, threads=1)
    straight.step(30)
    half = boids.World("vicsek", boids=200, seed=3, threads=1)
    half.step(15)
    saved = tmp_path / "half.csv"
    half.save_state(saved)
    resumed = boids.World("vicsek", state=saved, threads=1)
    resumed.step(15)
    assert resumed.steps == 30 and resumed.state_hash() == straight.state_hash()
    # Saving replaces the file whole (a temporary file renamed over it): nothing else is left in the folder.
    half.save_state(saved)
    assert [p.name for p in tmp_path.iterdir()] == ["half.csv"]
    lines = saved.read_text().splitlines(keepends=True)
    saved.write_text("".join(lines[:-20]))
    with pytest.raises(ValueError, match="truncated or damaged: its first line promises 200 agents, it holds 180"):
        resumed.load_state(saved)
    with pytest.raises(ValueError, match="does not exist"):
        half.save_state(tmp_path / "missing" / "x.csv")
    with pytest.raises(ValueError, match="is a directory"):
        boids.World(scenario=tmp_path)


@pytest.mark.parametrize("precision,dtype", [("f32", np.float32), ("f64", np.float64)])
def test_numpy_shapes_dtypes_and_copies(precision, dtype):
    w = boids.World("vga-scouts", boids=40, scouts1=3, scouts2=2, predators=1, seed=4, precision=precision, threads=1)
    n = 46
    assert w.positions.shape == (n, 2) and w.positions.dtype == dtype
    assert w.velocities.shape == (n, 2) and w.velocities.dtype == dtype
    assert w.biases.shape == (n,) and w.biases.dtype == dtype
    assert w.kinds.shape == (n,) and w.kinds.dtype == np.uint8
    assert list(np.bincount(w.kinds, minlength=4)) == [40, 3, 2, 1]
    assert [boids.KINDS[k] for k in w.kinds[[0, 40, 43, 45]]] == ["boid", "scout1", "scout2", "predator"]
    assert (boids.BOID, boids.SCOUT1, boids.SCOUT2, boids.PREDATOR) == (0, 1, 2, 3)
    p = w.positions
    p[:] = -1  # a copy: writing to it does not move the agents
    assert (w.positions >= 0).all()
    before = w.positions
    w.step(1)
    assert not np.array_equal(before, w.positions)  # the earlier copy kept the old state
    np.testing.assert_array_equal(before + w.velocities, w.positions)  # x += v, same rounding (no wrap)
    speeds = np.hypot(*w.velocities.T)
    assert (speeds >= 3 - 1e-5).all() and (speeds <= 6 + 1e-5).all()
    scouts = (w.kinds == 1) | (w.kinds == 2)
    assert (w.biases[~scouts] == 0).all() and (w.biases[scouts] > 0).all()


@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_setters_put_a_state_into_the_world(tmp_path, precision):
    w = boids.World("vga-predator", boids=60, seed=2, precision=precision, threads=1)
    rng = np.random.default_rng(1)
    positions = rng.uniform(120, 500, size=(len(w), 2))  # float64 for either precision
    velocities = rng.uniform(-3, 3, size=(len(w), 2)).astype(np.float32)
    w.positions = positions
    w.velocities = velocities
    dtype = np.float32 if precision == "f32" else np.float64
    np.testing.assert_array_equal(w.positions, positions.astype(dtype))
    np.testing.assert_array_equal(w.velocities, velocities.astype(dtype))
    # The same state through a state file: the same bits now and after stepping on.
    state = tmp_path / "state.csv"
    w.save_state(state)
    loaded = boids.World(state=str(state), precision=precision, threads=1)
    assert loaded.state_hash() == w.state_hash()
    w.step(20)
    loaded.step(20)
    assert loaded.state_hash() == w.state_hash()
    # Integer arrays, Fortran order and views are fine; a list too.
    w.positions = np.asfortranarray(np.full((len(w), 2), 300, dtype=np.int64))
    assert (w.positions == 300).all()
    w.velocities = [[1.0, 0.5]] * len(w)
    assert (w.velocities == [1.0, 0.5]).all()


def test_setters_reject_bad_arrays_and_change_nothing():
    w = boids.World("vga-predator", boids=10, seed=3, threads=1)
    w.step(2)
    n = len(w)
    before = w.state_hash()
    good = w.positions.astype(np.float64)

    def one_bad(index, value):  # `good` with the flat element `index` replaced
        return np.where(np.arange(2 * n).reshape(n, 2) == index, value, good)

    cases = [
        (np.zeros((n, 3)), "positions shape = (12, 3) is invalid: expected (12, 2): one row per agent"),
        (np.zeros((n - 1, 2)), "positions shape = (11, 2) is invalid: expected (12, 2)"),
        (np.zeros(2 * n), "positions shape = (24,) is invalid"),
        (np.zeros((n, 2), dtype=bool), "positions dtype = bool is invalid: expected real numbers"),
        (np.zeros((n, 2), dtype=complex), "positions dtype = complex128 is invalid"),
        (np.array([["a", "b"]] * n), "positions dtype = <U1 is invalid"),
        (one_bad(7, np.nan), "positions[3, 1] = nan is invalid: expected a finite number"),
        (one_bad(0, np.inf), "positions[0, 0] = inf is invalid"),
        (one_bad(5, 1e39), "positions[2, 1] = 1e+39 is invalid: expected a finite number that fits the World's"),
        ("positions", "positions dtype = <U9 is invalid"),
    ]
    for value, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            w.positions = value
        assert w.state_hash() == before
    with pytest.raises(ValueError, match=re.escape("velocities[1, 0] = nan is invalid")):
        w.velocities = one_bad(2, np.nan)
    assert w.state_hash() == before
    with pytest.raises(AttributeError):
        w.kinds = np.zeros(n, dtype=np.uint8)


def test_reads_follow_every_change():
    """Reads between two changes share one copy of the state; every change must show in the next read."""
    w = boids.World("vga-scouts", boids=30, seed=8, threads=1)
    first = w.positions
    assert np.array_equal(w.positions, first) and w.positions is not first
    w.step(1)
    assert not np.array_equal(w.positions, first)
    w.spawn("predator", 2)
    assert w.positions.shape == (len(w), 2) and list(w.kinds[-2:]) == [boids.PREDATOR] * 2
    w.remove("predator", 2)
    assert w.kinds.shape == (len(w),)
    moved = np.full((len(w), 2), 200.0)
    w.positions = moved
    assert (w.positions == 200).all()
    w.reset()
    assert np.array_equal(w.positions, boids.World("vga-scouts", boids=30, seed=8, threads=1).positions)
    w.params["dimensions"] = 3
    assert w.positions.shape == (len(w), 3)
    w.positions = np.full((len(w), 3), 100.0)
    assert (w.positions[:, 2] == 100).all()


def test_params_get_set_and_validation():
    w = boids.World(boids=10, seed=1, threads=1)
    assert w.get("visual_range") == 40.0 and isinstance(w.get("visual_range"), float)
    assert w.get("dynamic_bias") is False and w.get("boundary") == "margin"
    w.set("visual_range", 30)
    assert w.params["visual_range"] == 30.0
    w.params["protected_range"] = np.float32(4.5)
    assert w.get("protected_range") == 4.5
    w.params["dynamic_bias"] = True
    w.params["boundary"] = "wrap"
    assert w.params["dynamic_bias"] is True and w.params["boundary"] == "wrap"
    w.set("margin", 50)
    assert w.params["margin_left"] == w.params["margin_bottom"] == 50.0
    w.params.update(min_speed=7, max_speed=8)  # checked together: min <= max holds at the end
    assert (w.get("min_speed"), w.get("max_speed")) == (7.0, 8.0)
    w.params = {"max_speed": 9}
    assert w.get("max_speed") == 9.0
    d = dict(w.params)
    assert len(d) == len(boids.param_table()) and d["visual_range"] == 30.0 and "visual_range" in w.params
    assert w.params.get("nope", 5) == 5
    assert {r["key"] for r in boids.param_table()} == set(d)

    before = dict(w.params)
    cases = [
        (lambda: w.set("visual_range", 1e9), "visual_range = 1000000000.0 is invalid: allowed range is [0, 100000]"),
        (lambda: w.set("visual_range", float("nan")), "expected a finite number"),
        (lambda: w.set("centering_factor", -0.1), "centering_factor = -0.1 is invalid: allowed range is [0, 1]"),
        (lambda: w.set("visual_range", "far"), "visual_range = 'far' is invalid"),
        (lambda: w.set("visual_range", True), "visual_range = 'true' is invalid"),
        (lambda: w.set("visual_range", [1]), "visual_range = [1] is invalid: expected a number, a bool or a str"),
        (lambda: w.set("min_speed", 10), "min_speed = 10 is invalid: must not exceed max_speed = 9"),
        (lambda: w.set("nope", 1), "unknown parameter 'nope'"),
        (lambda: w.get("nope"), "unknown parameter 'nope'"),
        (lambda: w.params.update(visual_range=20, avoid_factor=5), "avoid_factor = 5 is invalid"),
        (lambda: w.set("boundary", "torus"), "boundary = 'torus' is invalid: allowed values are margin | wrap"),
    ]
    for call, fragment in cases:
        with pytest.raises(ValueError, match=re.escape(fragment)):
            call()
    with pytest.raises(boids.InputError):
        w.set("width", 0)
    with pytest.raises(KeyError):
        w.params["nope"]
    assert dict(w.params) == before  # nothing changed, not even the valid half of the update


def test_constructor_errors_raise_value_error(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("kind,x,y,vx,vy\nboid,1,2,3\n")
    cases = [
        (dict(preset="nope"), "nope"),
        (dict(boids=-1), "boids = -1 is invalid"),
        (dict(boids=2.5), "boids = 2.5 is invalid"),
        (dict(seed=-4), "seed = -4 is invalid"),
        (dict(seed=2**64), "seed = 18446744073709551616 is invalid"),
        (dict(seed=1.0), "seed = 1.0 is invalid"),
        (dict(precision="f16"), "precision = 'f16' is invalid: allowed values are f32 | f64"),
        (dict(threads=-1), "threads = -1 is invalid"),
        (dict(visual_range=-1), "visual_range = -1 is invalid"),
        (dict(min_speed=9), "min_speed = 9 is invalid: must not exceed max_speed = 6"),
        (dict(state=bad), "bad.csv"),
        (dict(state=tmp_path / "missing.csv"), "missing.csv"),
        (dict(state=bad, boids=3), "boids cannot be combined with state"),
        (dict(scenario=tmp_path / "none.toml"), "none.toml"),
        (dict(preset="ece4760", scenario=tmp_path / "x.toml"), "preset and scenario are exclusive"),
    ]
    for kwargs, fragment in cases:
        with pytest.raises(ValueError, match=re.escape(fragment)):
            boids.World(**kwargs)


def test_scenario_file(tmp_path):
    toml = tmp_path / "scene.toml"
    toml.write_text('seed = 7\n[agents]\nboids = 30\npredators = 1\n[params]\nvisual_range = 25\n')
    w = boids.World(scenario=toml, precision="f64", threads=1)
    assert w.counts == {"boids": 30, "scouts1": 0, "scouts2": 0, "predators": 1}
    assert w.get("visual_range") == 25.0
    out = cli_run("--scenario", str(toml), "--steps", "5", "--precision", "f64")
    w.step(5)
    assert w.state_hash() == cli_hash(out)


def test_spawn_remove_reset_and_stats():
    w = boids.World("vga-scouts", boids=20, scouts1=2, scouts2=2, seed=9, threads=1)
    start = w.state_hash()
    w.spawn("predator", 2)
    w.spawn("boids", 5)
    assert w.counts == {"boids": 25, "scouts1": 2, "scouts2": 2, "predators": 2}
    assert list(w.kinds[-7:]) == [3, 3, 0, 0, 0, 0, 0]
    w.remove("boid", 5)  # the most recently added go first
    assert list(w.kinds[-2:]) == [3, 3] and len(w) == 26
    with pytest.raises(ValueError, match=re.escape("remove scout1 count = 3 is invalid: allowed range is [0, 2]")):
        w.remove("scout1", 3)
    with pytest.raises(ValueError, match="kind = 'dragon' is invalid"):
        w.spawn("dragon", 1)
    with pytest.raises(ValueError, match=re.escape("n = -1 is invalid: expected an int in [0, 100000000]")):
        w.spawn("boid", -1)
    with pytest.raises(ValueError, match=re.escape("spawn boid count = 2000000 is invalid")):
        w.spawn("boid", 2_000_000)
    for bad in (2.5, True, "3", 10**30):
        with pytest.raises(ValueError, match="n = .* is invalid"):
            w.spawn("boid", bad)
    w.spawn("boid", np.int64(1))  # numpy integers are ints
    w.remove("boid", np.int32(1))
    w.step(4)
    s = w.stats()
    assert s["steps"] == 4 and s["agents"] == 26 and s["predators"] == 2
    assert 3 <= s["mean_speed"] <= 6 and 0 <= s["polarization"] <= 1
    assert s["state_hash"] == w.state_hash() and s["precision"] == "f32" and s["threads"] == 1
    assert set(s["last_step"]) == {"total_ms", "grid_build_ms", "neighbours_ms", "integrate_ms", "fast_steps"}
    assert s["total"]["total_ms"] >= s["last_step"]["total_ms"] >= 0
    assert s["last_step"]["fast_steps"] == 1 and s["total"]["fast_steps"] == 4  # the classic model's SIMD path
    assert w.summary().startswith("steps=4 paused=false agents=26 ")
    w.reset()
    assert w.steps == 0 and w.state_hash() == start
    # Spawning replays exactly after a reset (its own seeded stream).
    w.spawn("boid", 3)
    v = boids.World("vga-scouts", boids=20, scouts1=2, scouts2=2, seed=9, threads=1)
    v.spawn("boid", 3)
    assert v.state_hash() == w.state_hash()


def test_threads_do_not_change_the_result():
    hashes = set()
    for threads in (1, 2):
        w = boids.World(boids=300, seed=3, threads=threads)
        w.step(10)
        hashes.add(w.state_hash())
    assert len(hashes) == 1


def test_step_releases_the_gil():
    import threading

    w = boids.World(boids=2000, seed=1, threads=1)
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set() and len(ticks) < 100_000:
            ticks.append(1)

    t = threading.Thread(target=ticker)
    t.start()
    w.step(30)
    done.set()
    t.join(TIMEOUT)
    assert len(ticks) > 0  # Python code ran while the engine stepped
    for bad in (-1, 1.5, None, 10**30):
        with pytest.raises(ValueError, match="n = .* is invalid"):
            w.step(bad)
    w.step(np.int64(1))


def test_help_and_catalogue():
    doc = boids.World.__doc__
    assert "COPIES" in doc and "state_hash" in doc
    for name in ("step", "positions", "velocities", "kinds", "biases", "params", "get", "set", "spawn", "remove",
                 "load_state", "save_state", "stats", "state_hash", "reset"):
        assert getattr(boids.World, name).__doc__, name
    assert {"ece4760", "vga-predator", "vga-scouts", "pynboids", "downey-2d"} <= set(boids.presets())
    assert boids.presets() == sorted(boids.presets())
    assert "predator" in boids.preset_description("vga-predator").lower()
    assert boids.PRECISIONS == ("f32", "f64", "fix15")
    assert repr(boids.World(boids=3, predators=0)).startswith("<boids.World vga-predator f32: 3 boids")


def test_metrics_are_returned(tmp_path):
    # All aligned, two far clusters: polarization 1, two groups.
    state = tmp_path / "aligned.csv"
    rows = ["kind,x,y,vx,vy"] + [f"boid,{x},{y},3,0" for x, y in [(200, 200), (210, 200), (500, 300), (505, 305)]]
    state.write_text("\n".join(rows) + "\n")
    w = boids.World(state=str(state), precision="f64")
    m = w.metrics()
    assert set(m) >= {"polarization", "milling", "nnd_mean", "groups", "speed_mean", "speed_std", "frac_right",
                      "frac_left", "step"}
    assert abs(m["polarization"] - 1.0) < 1e-12 and m["groups"] == 2 and m["frac_right"] == 1.0
    assert m["step"] == 0
    w.step(3)
    assert w.metrics()["step"] == 3


def test_a_3d_world_has_three_columns_and_matches_the_cli(tmp_path):
    dump = tmp_path / "cli.csv"
    out = cli_run("--preset", "downey-3d", "--seed", "5", "--steps", "40", "--dump", str(dump))
    w = boids.World("downey-3d", seed=5, threads=1)
    assert w.get("dimensions") == "3"
    assert w.positions.shape == (20, 3) and w.velocities.shape == (20, 3)
    w.step(40)
    assert w.state_hash() == cli_hash(out)
    speeds = np.linalg.norm(w.velocities, axis=1)
    assert np.allclose(speeds, 0.1, atol=1e-6)  # Downey's unit speed times dt, in space
    assert np.ptp(w.positions[:, 2]) > 0  # the flock spreads in depth
    mine = tmp_path / "py.csv"
    w.save_state(mine)
    assert mine.read_bytes() == dump.read_bytes()
    w.spawn("boid", 5)
    assert w.positions.shape == (25, 3)
    with pytest.raises(ValueError, match="model"):
        boids.World(dimensions=3, model="topological")
    with pytest.raises(ValueError, match="dimensions"):
        w.set("dimensions", 4)
