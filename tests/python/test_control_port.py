"""The control port of a real `boids run --headless --control 0` process, over real sockets on 127.0.0.1."""

import socket
import subprocess
import sys
import threading
import time

from conftest import BOIDS_EXE, TIMEOUT, ControlledRun, LineClient


def parameter_count():
    """The readable keys, as `boids params` lists them (a header line, then one line per key, then the
    write-only `margin`)."""
    listing = subprocess.run([BOIDS_EXE, "params"], capture_output=True, text=True, timeout=TIMEOUT, check=True)
    return len(listing.stdout.splitlines()) - 2


def test_every_command_is_answered_by_one_line(controlled_run, client):
    assert client.ask("pause") == "ok paused"
    steps = int(client.pairs("stats")["steps"])
    assert client.pairs("step 5") == {"steps": str(steps + 5)}
    assert client.ask("step") == f"ok steps={steps + 6}"
    assert client.ask("set visual_range 30") == "ok visual_range=30"
    assert client.ask("get visual_range") == "ok visual_range=30"
    params = client.pairs("params")
    assert params["visual_range"] == "30" and params["boundary"] == "margin" and len(params) == parameter_count()
    stats = client.pairs("stats")
    for key in ("steps", "paused", "agents", "boids", "predators", "mean_speed", "polarization", "step_ms",
                "grid_ms", "neighbours_ms", "integrate_ms", "hash", "precision", "threads"):
        assert key in stats, key
    assert stats["paused"] == "true" and stats["agents"] == "202"
    assert client.ask("spawn boids 10") == "ok boids=210 agents=212"
    assert client.ask("spawn predator 1") == "ok predators=3 agents=213"
    assert client.ask("remove boid 20") == "ok boids=190 agents=193"
    assert client.ask("set margin 90") == "ok margin=90"
    assert client.ask("get margin_top") == "ok margin_top=90"
    assert client.ask("reset") == "ok steps=0 agents=202"
    assert client.ask("help").startswith("ok commands: set KEY VALUE")
    assert client.ask("resume") == "ok running"
    assert client.ask("quit") == "ok quit"
    code, out, err = controlled_run.finish()
    assert code == 0, err
    assert "agents        200 boids" in out and "state hash" in out


def test_paused_run_does_not_step_and_reset_reproduces_the_start(client):
    assert client.ask("pause") == "ok paused"
    paused = client.pairs("stats")
    time.sleep(0.3)  # the loop keeps serving; paused, it must not step (it steps ~9 times in 0.3 s otherwise)
    assert client.pairs("stats")["steps"] == paused["steps"]
    assert client.ask("reset") == "ok steps=0 agents=202"
    start_hash = client.pairs("stats")["hash"]
    client.ask("step 10")
    assert client.pairs("stats")["hash"] != start_hash
    client.ask("reset")
    # Reset with the scene's parameters gives back the exact starting state.
    assert client.pairs("stats")["hash"] == start_hash


def test_parameter_change_is_observable_in_stats(client):
    client.ask("pause")
    assert client.ask("set min_speed 1") == "ok min_speed=1"
    assert client.ask("set max_speed 1.5") == "ok max_speed=1.5"
    client.ask("step 3")
    speed = float(client.pairs("stats")["mean_speed"])
    assert 1.0 <= speed <= 1.5 + 1e-6, speed
    client.ask("set max_speed 5")
    client.ask("set min_speed 5")
    client.ask("step 3")
    assert abs(float(client.pairs("stats")["mean_speed"]) - 5.0) < 1e-4


def test_the_run_steps_on_its_own_at_a_steady_rate(client):
    first = int(client.pairs("stats")["steps"])
    deadline = time.monotonic() + TIMEOUT
    while int(client.pairs("stats")["steps"]) < first + 3:
        assert time.monotonic() < deadline, "the controlled run does not step"
        time.sleep(0.05)


def test_bad_commands_get_an_error_and_change_nothing(client):
    client.ask("pause")
    before_params = client.ask("params")
    before_hash = client.pairs("stats")["hash"]
    bad = [
        ("set visual_range 1e9", "visual_range = 1e9 is invalid: allowed range is [0, 100000]"),
        ("set visual_range abc", "visual_range = 'abc' is invalid"),
        ("set visual_range nan", "expected a finite number"),
        ("set min_speed 100", "min_speed = 100 is invalid: must not exceed max_speed"),
        ("set nope 1", "unknown parameter 'nope'"),
        ("set visual_range", "set takes KEY VALUE"),
        ("get nope", "unknown parameter 'nope'"),
        ("fly away", "unknown command 'fly'"),
        ("step 0", "step N = '0' is invalid"),
        ("step -3", "step N = '-3' is invalid"),
        ("step 99999999999999999999", "step N"),
        ("spawn dragons 3", "spawn KIND = 'dragons' is invalid"),
        ("spawn boid -1", "spawn boid count = '-1' is invalid"),
        ("spawn boid 2000000", "spawn boid count = '2000000' is invalid"),
        ("remove predator 5", "remove predator count = 5 is invalid: allowed range is [0, 2]"),
        ("params now", "params takes no arguments"),
        ("", "empty line"),
        ("   \t ", "empty line"),
        ("a\x01b", "control character 0x01"),
    ]
    for line, fragment in bad:
        reply = client.ask(line)
        assert reply.startswith("error "), (line, reply)
        assert fragment in reply, (line, reply)
    assert client.ask("params") == before_params
    assert client.pairs("stats")["hash"] == before_hash
    assert client.ask("get visual_range") == "ok visual_range=40"


def test_oversized_and_non_utf8_lines(client):
    client.ask("pause")
    before = client.ask("params")
    # Over 4096 bytes: one error, the rest of the line ignored (not taken as commands), then back to normal.
    reply = client.ask(b"set visual_range 3" + b"0" * 5000 + b" quit")
    assert reply == "error line longer than 4096 bytes"
    huge = b"x" * 300_000  # longer than any socket buffer
    reply = client.ask(huge)
    assert reply == "error line longer than 4096 bytes"
    assert client.ask(b"get visual_range" + b" " * (4096 - 16)) == "ok visual_range=40"  # exactly 4096: fine
    assert client.ask(b"get visual_range\r") == "ok visual_range=40"  # CRLF endings are accepted
    for raw in (b"set visual_range \xff", b"\xc0\xaf", b"get \xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"):
        assert client.ask(raw) == "error line is not valid UTF-8", raw
    assert client.ask("get caf\u00e9") .startswith("error unknown parameter 'caf\u00e9'")
    assert client.ask("params") == before


def test_pipelined_commands_are_answered_in_order(client):
    client.ask("pause")
    client.send_raw(b"set visual_range 31\nget visual_range\nbogus\nget protected_range\n")
    replies = [client.read_line() for _ in range(4)]
    assert replies[0] == "ok visual_range=31"
    assert replies[1] == "ok visual_range=31"
    assert replies[2].startswith("error unknown command 'bogus'; commands: set KEY VALUE")
    assert replies[3] == "ok protected_range=8"


def test_a_hundred_concurrent_clients(controlled_run):
    failures = []

    def one_client(i):
        try:
            with controlled_run.connect() as sock:
                c = LineClient(sock)
                value = 20 + i % 50
                assert c.ask(f"set visual_range {value}").startswith("ok visual_range=")
                assert c.ask("get protected_range") == "ok protected_range=8"
                assert c.pairs("stats")["agents"] == "202"
                assert c.ask("nonsense").startswith("error unknown command")
                assert c.ask(b"\xff\xfe").startswith("error line is not valid UTF-8")
        except Exception as e:  # collected and reported below
            failures.append(f"client {i}: {e!r}")

    threads = [threading.Thread(target=one_client, args=(i,)) for i in range(100)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert not any(t.is_alive() for t in threads), "clients did not finish in time"
    assert failures == []
    with controlled_run.connect() as sock:
        c = LineClient(sock)
        assert 20 <= float(c.pairs("get visual_range")["visual_range"]) <= 69
        assert c.ask("quit") == "ok quit"
    code, _, err = controlled_run.finish()
    assert code == 0, err


def test_a_client_killed_mid_line_harms_nothing(controlled_run, client):
    client.ask("pause")
    before = client.ask("params")
    hash_before = client.pairs("stats")["hash"]
    for partial in (b"set visual_range 1", b"set visual_ra", b"x" * 5000, b"\xe2\x82", b"quit"):
        victim = controlled_run.connect()
        victim.sendall(partial)
        victim.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST
        victim.close()
    # A real client process killed (SIGKILL) while in the middle of a line.
    code = ("import socket, sys, time; s = socket.create_connection(('127.0.0.1', int(sys.argv[1])));"
            "s.sendall(b'set protected_range 9'); print('sent', flush=True); time.sleep(60)")
    victim = subprocess.Popen([sys.executable, "-c", code, str(controlled_run.port)], stdout=subprocess.PIPE,
                              text=True)
    assert victim.stdout.readline().strip() == "sent"
    victim.kill()
    victim.communicate(timeout=TIMEOUT)
    # A client that sends a whole command and vanishes before reading the answer.
    victim = controlled_run.connect()
    victim.sendall(b"stats\n")
    victim.close()
    time.sleep(0.2)
    assert client.ask("params") == before
    assert client.pairs("stats")["hash"] == hash_before
    assert client.ask("quit") == "ok quit"
    code, out, err = controlled_run.finish()
    assert code == 0, err


def test_only_loopback_by_default_and_bad_flags_exit_2():
    from conftest import BOIDS_EXE

    run = ControlledRun()
    try:
        with run.connect() as sock:
            assert sock.getpeername()[0] == "127.0.0.1"
            assert LineClient(sock).ask("quit") == "ok quit"
        assert run.finish()[0] == 0
    finally:
        run.kill()
    for args, fragment in ((["--control", "70000"], "--control = '70000' is invalid"),
                           (["--control", "0", "--control-host", "nowhere"], "--control-host = 'nowhere' is invalid"),
                           (["--control", "0", "--rate", "-1"], "--rate = '-1' is invalid"),
                           (["--rate", "10"], "--rate and --control-host need --control PORT")):
        r = subprocess.run([BOIDS_EXE, "run", "--headless", *args], capture_output=True, text=True, timeout=TIMEOUT)
        assert r.returncode == 2, (args, r.stderr)
        assert fragment in r.stderr and r.stderr.count("\n") == 1, (args, r.stderr)


def test_with_steps_the_run_ends_by_itself_and_dumps(tmp_path):
    dump = tmp_path / "final.csv"
    run = ControlledRun(["--steps", "40", "--dump", str(dump)])
    try:
        code, out, err = run.finish()
    finally:
        run.kill()
    assert code == 0, err
    assert "steps         40" in out
    text = dump.read_text()
    assert text.startswith("# boids state: 202 agents, step 40\n") and text.count("\n") == 204
