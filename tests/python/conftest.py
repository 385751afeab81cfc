"""Shared fixtures for the Python tests. ctest sets BOIDS_EXE (the CLI), BOIDS_SOURCE_DIR and PYTHONPATH
(the built module); every wait below is bounded."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("BOIDS_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BOIDS_EXE = os.environ.get("BOIDS_EXE", str(SOURCE_DIR / "build" / "release" / "boids"))
sys.path.insert(0, str(SOURCE_DIR / "python"))  # boids_control.py

#: Longest a test waits for one answer or for the server to start or stop, in seconds.
TIMEOUT = 30.0


class ControlledRun:
    """A real `boids run --headless --control 0` process (or, with `front=("view",)`, a viewer window on
    the current DISPLAY) and the port it printed."""

    def __init__(self, extra_args=(), front=("run", "--headless")):
        self.args = [BOIDS_EXE, *front, "--control", "0", "--preset", "vga-predator",
                     "--boids", "200", "--seed", "5", "--threads", "1", *extra_args]
        # Under ASan, Mesa (the viewer's GL) leaves a few bytes in a driver it has unloaded, which
        # LeakSanitizer cannot suppress (see tests/CMakeLists.txt); memory errors are still checked.
        env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env=env if front[0] == "view" else None)
        first = self.process.stdout.readline()  # "control: listening on 127.0.0.1:PORT"
        assert first.startswith("control: listening on 127.0.0.1:"), (first, self.process.stderr.read())
        self.port = int(first.rsplit(":", 1)[1])

    def connect(self):
        """A connected socket with a bounded timeout."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)

    def finish(self):
        """Waits for the process to end (after `quit`); returns (exit code, rest of stdout, stderr)."""
        out, err = self.process.communicate(timeout=TIMEOUT)
        return self.process.returncode, out, err

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate(timeout=TIMEOUT)


class LineClient:
    """Sends lines and reads one-line replies on one connection."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def send_raw(self, data: bytes):
        self.sock.sendall(data)

    def read_line(self) -> str:
        deadline = time.monotonic() + TIMEOUT
        while b"\n" not in self.buffer:
            assert time.monotonic() < deadline, "no reply in time"
            chunk = self.sock.recv(65536)
            assert chunk, f"connection closed; partial: {self.buffer!r}"
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8")

    def ask(self, line) -> str:
        self.send_raw((line if isinstance(line, bytes) else line.encode()) + b"\n")
        return self.read_line()

    def pairs(self, line) -> dict:
        reply = self.ask(line)
        assert reply.startswith("ok"), f"{line!r} -> {reply!r}"
        return dict(w.split("=", 1) for w in reply.split()[1:] if "=" in w)


@pytest.fixture
def controlled_run():
    """A paused-on-demand controlled run; stopped with `quit` by the test or killed at teardown."""
    run = ControlledRun()
    yield run
    run.kill()


@pytest.fixture
def client(controlled_run):
    sock = controlled_run.connect()
    yield LineClient(sock)
    sock.close()
