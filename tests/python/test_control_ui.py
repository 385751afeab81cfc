"""The lab's slider UI (python/boids_control.py) without a display: the slider -> command mapping and the
one-shot command mode against a real controlled run."""

import subprocess
import sys

import pytest

import boids_control as ui
from conftest import BOIDS_EXE, SOURCE_DIR, TIMEOUT, ControlledRun

SCRIPT = str(SOURCE_DIR / "python" / "boids_control.py")


def slider(key):
    return next(s for s in ui.SLIDERS if s.key == key)


def test_the_lab_sliders_and_their_ranges():
    assert [(s.key, s.low, s.high) for s in ui.SLIDERS[:5]] == [
        ("visual_range", 0, 200), ("protected_range", 0, 100), ("centering_factor", 0.0002, 1),
        ("avoid_factor", 0.01, 1), ("matching_factor", 0.01, 1)]
    assert {s.key for s in ui.SLIDERS[5:]} == {"predator_range", "predator_turn_factor"}


def test_slider_positions_map_to_set_commands():
    assert ui.slider_command(slider("visual_range"), 0) == "set visual_range 0.0"
    assert ui.slider_command(slider("visual_range"), 150) == "set visual_range 30.0"
    assert ui.slider_command(slider("visual_range"), ui.SLIDER_STEPS) == "set visual_range 200.0"
    assert ui.slider_command(slider("protected_range"), 500) == "set protected_range 50.0"
    # Log sliders: the ends are the range's ends, the middle the geometric mean.
    assert ui.slider_command(slider("centering_factor"), 0) == "set centering_factor 0.0002"
    assert ui.slider_command(slider("centering_factor"), ui.SLIDER_STEPS) == "set centering_factor 1.0"
    assert ui.slider_command(slider("avoid_factor"), 500) == "set avoid_factor 0.1"
    # Out-of-range positions are clamped: a slider never sends a value the server would reject.
    assert ui.slider_command(slider("matching_factor"), -50) == "set matching_factor 0.01"
    assert ui.slider_command(slider("matching_factor"), 10**6) == "set matching_factor 1.0"


@pytest.mark.parametrize("s", ui.SLIDERS, ids=lambda s: s.key)
def test_every_position_gives_an_in_range_value_and_round_trips(s):
    previous = None
    for position in range(0, ui.SLIDER_STEPS + 1):
        value = ui.slider_value(s, position)
        assert s.low <= value <= s.high
        assert previous is None or value >= previous  # monotonic
        assert abs(ui.slider_position(s, value) - position) <= 1
        previous = value


def test_the_lab_defaults_sit_where_they_belong():
    assert ui.slider_position(slider("visual_range"), 40) == 200
    assert ui.slider_position(slider("centering_factor"), 0.0005) == 108  # log(2.5) / log(5000)
    assert abs(ui.slider_value(slider("centering_factor"), 108) - 0.0005) < 1e-5
    assert ui.slider_position(slider("visual_range"), 1e9) == ui.SLIDER_STEPS  # clamped


def test_parse_reply():
    assert ui.parse_reply("ok visual_range=30\n") == (True, {"visual_range": "30"}, "visual_range=30")
    ok, pairs, rest = ui.parse_reply("error visual_range = -1 is invalid")
    assert not ok and rest == "visual_range = -1 is invalid"


def test_command_mode_against_a_real_run(controlled_run):
    def cli(*args):
        r = subprocess.run([sys.executable, SCRIPT, "--port", str(controlled_run.port), *args],
                           capture_output=True, text=True, timeout=TIMEOUT)
        return r.returncode, r.stdout.strip()

    assert cli("set", "visual_range", "30") == (0, "ok visual_range=30")
    assert cli("get", "visual_range") == (0, "ok visual_range=30")
    code, out = cli("set", "visual_range", "-5")
    assert code == 1 and out.startswith("error visual_range = -5 is invalid")
    code, out = cli("stats")
    assert code == 0 and "mean_speed=" in out
    with ui.ControlClient(port=controlled_run.port) as c:
        assert c.call("get protected_range") == {"protected_range": "8"}
        with pytest.raises(ui.ControlError, match="unknown parameter"):
            c.call("get nope")
    assert cli("quit") == (0, "ok quit")
    assert controlled_run.finish()[0] == 0


def test_the_client_connects_again_after_the_server_restarts():
    first = ControlledRun()
    port = first.port
    client = ui.ControlClient(port=port)
    try:
        assert client.call("set visual_range 31") == {"visual_range": "31"}
        assert client.request("quit") == "ok quit"
        assert first.finish()[0] == 0
        with pytest.raises(OSError):  # nobody listens: the error says so, the client stays usable
            client.request("stats")
        second = subprocess.Popen([BOIDS_EXE, "run", "--headless", "--control", str(port), "--threads", "1"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert second.stdout.readline().startswith(f"control: listening on 127.0.0.1:{port}")
            # The new server's own value, on a new connection, without a new client.
            assert client.call("get visual_range") == {"visual_range": "40"}
            assert client.connections == 2
            assert client.request("quit") == "ok quit"
            assert second.wait(timeout=TIMEOUT) == 0
        finally:
            if second.poll() is None:
                second.kill()
                second.communicate(timeout=TIMEOUT)
    finally:
        client.close()
        first.kill()


def test_command_mode_without_a_server_exits_2():
    import socket

    with socket.socket() as s:  # a port that was free a moment ago and has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = subprocess.run([sys.executable, SCRIPT, "--port", str(port), "stats"], capture_output=True, text=True,
                       timeout=TIMEOUT)
    assert r.returncode == 2 and "cannot connect" in r.stderr
