"""One session, one protocol: the same script of every control command, sent to `boids run --headless
--control` and to `boids view --control` (a real window under Xvfb), gets the same replies, timing values
aside. The viewer holds the same session as the headless run and answers through the same code."""

import os
import re
import shutil
import signal
import socket
import subprocess

import pytest

from conftest import BOIDS_EXE, TIMEOUT, LineClient

pytestmark = pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run (Debian xvfb)")

SCENE = ["--preset", "vga-predator", "--boids", "100", "--seed", "5", "--threads", "1"]

#: Every command of the protocol, good and bad. The first `pause` and `reset` put both loops at step 0
#: (each stepped at its own rate until then); `resume` lets them fly apart, so a `reset` follows it.
SCRIPT = [
    "help", "pause", "reset", "stats", "params",
    "get visual_range", "set visual_range 25", "get visual_range", "set visual_range -3", "set nosuch 1",
    "get nosuch", "set margin 90", "get margin_left",
    "step", "step 5", "stats",
    "spawn predator 2", "spawn scout1 7", "remove boid 10", "remove predator 99", "spawn dragon 1",
    "spawn boid -1", "stats",
    "get precision", "set precision f64", "get precision", "step 3", "stats",
    "set precision fix15", "step 2", "stats", "set precision f16", "set precision f32", "stats",
    "resume", "pause", "reset", "stats",
    "step 0", "step many", "frobnicate", "set", "pause now",
    "quit",
]

#: Keys whose values are wall-clock timings: they differ between any two runs.
TIMING = re.compile(r"\b(step_ms|grid_ms|neighbours_ms|integrate_ms)=[^ ]+")


def start(args):
    """Starts a control-port process in its own process group; returns it and a connected client."""
    # Under ASan, Mesa leaves a few bytes in a driver it has unloaded, which LeakSanitizer cannot suppress
    # (see tests/CMakeLists.txt); memory errors are still checked.
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env=env)
    first = process.stdout.readline()
    assert first.startswith("control: listening on 127.0.0.1:"), (first, process.stderr.read())
    port = int(first.rsplit(":", 1)[1])
    return process, LineClient(socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT))


def replies_of(args):
    process, client = start(args)
    try:
        replies = [TIMING.sub(r"\1=T", client.ask(line)) for line in SCRIPT]
        assert process.wait(timeout=TIMEOUT) == 0, process.stderr.read()
        return replies
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate(timeout=TIMEOUT)


def test_window_and_headless_run_answer_every_command_alike():
    headless = replies_of([BOIDS_EXE, "run", "--headless", "--control", "0", *SCENE])
    window = replies_of(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", BOIDS_EXE, "view", "--control", "0",
                         "--size", "640x480", *SCENE])
    for line, h, w in zip(SCRIPT, headless, window):
        assert h == w, f"{line!r}: headless {h!r}, window {w!r}"
    # The script did what it says (so that equal replies mean something): the commands acted.
    said = dict(zip(SCRIPT, headless))
    assert said["step 5"] == "ok steps=6"
    assert said["set visual_range 25"] == "ok visual_range=25"
    assert said["set precision fix15"] == "ok precision=fix15"
    assert said["set precision f16"].startswith("error precision = 'f16'")
    assert said["frobnicate"].startswith("error unknown command")
    assert said["help"].startswith("ok commands: ")
    stats = [r for line, r in zip(SCRIPT, headless) if line == "stats"]
    assert len(set(stats)) == len(stats), "each stats line saw a different state"
