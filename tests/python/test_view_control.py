"""`boids view --control 0` in a real window under Xvfb, driven over a real socket on 127.0.0.1: the lab's
slider UI changes the flying flock through the same port as the headless run."""

import os
import shutil
import signal
import subprocess

import pytest

from conftest import BOIDS_EXE, TIMEOUT, LineClient

pytestmark = pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run (Debian xvfb)")


def test_viewer_serves_the_control_port():
    args = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", BOIDS_EXE, "view", "--control", "0",
            "--boids", "100", "--threads", "1", "--size", "640x480"]
    # Its own process group, so that a failing test takes the viewer down with xvfb-run.
    # Under ASan, Mesa leaves a few bytes in a driver it has unloaded, which LeakSanitizer cannot suppress
    # (see tests/CMakeLists.txt); memory errors are still checked.
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env=env)
    try:
        first = process.stdout.readline()
        assert first.startswith("control: listening on 127.0.0.1:"), (first, process.stderr.read())
        port = int(first.rsplit(":", 1)[1])
        import socket
        client = LineClient(socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT))
        assert client.ask("set visual_range 25") == "ok visual_range=25"
        assert client.ask("get visual_range") == "ok visual_range=25"
        assert client.ask("set visual_range -3").startswith("error ")
        assert client.ask("get visual_range") == "ok visual_range=25", "a rejected value changes nothing"
        assert client.ask("spawn predator 2") == "ok predators=4"  # vga-predator flies 2 already
        assert client.ask("stats").startswith("ok steps=")
        # The lab's fixed point, switched live: the flock carries over into the other scalar.
        assert client.ask("set precision fix15") == "ok precision=fix15"
        import time
        deadline = time.monotonic() + TIMEOUT
        while client.ask("get precision") != "ok precision=fix15":
            assert time.monotonic() < deadline, "the viewer did not switch to fix15"
            time.sleep(0.05)
        assert client.pairs("stats")["predators"] == "4", "the flock carried over"
        assert client.ask("set precision f16").startswith("error precision = 'f16'")
        assert client.ask("quit") == "ok quit"
        assert process.wait(timeout=TIMEOUT) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate(timeout=TIMEOUT)
