"""The slider window itself, on a private Xvfb display: it starts at the server's values, and moving a
slider changes the running flock at once, whether the flock flies headless or in the viewer's window."""

import os
import select
import subprocess
import tkinter as tk

import pytest

import boids_control as ui
from conftest import BOIDS_EXE, TIMEOUT, ControlledRun


@pytest.fixture(scope="module")
def xvfb_display():
    """A private Xvfb server. -displayfd lets Xvfb pick a free display number itself, so parallel test
    runs (or other projects' xvfb-run) never race for the same display as `xvfb-run -a` can. One server for
the module: Tk does not survive its display changing under it within one process."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                              pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], TIMEOUT)
        assert ready, "Xvfb did not start in time"
        number = os.read(read_end, 64).decode().strip()
        assert number.isdigit(), f"Xvfb failed to start ({number!r})"
        previous = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = f":{number}"
        yield f":{number}"
        if previous is None:
            del os.environ["DISPLAY"]
        else:
            os.environ["DISPLAY"] = previous
    finally:
        os.close(read_end)
        server.terminate()
        server.wait(timeout=TIMEOUT)


@pytest.fixture(params=["headless run", "viewer window"])
def controlled(request, xvfb_display):
    """The slider UI's server: a headless run, or the viewer's window on the same private display (the
    lab's workflow: sliders in Python, the flock on screen)."""
    front = ("run", "--headless") if request.param == "headless run" else ("view", "--size", "640x480")
    run = ControlledRun(front=front)
    yield run
    run.kill()


def test_window_reads_values_and_sliders_set_parameters(controlled):
    controlled_run = controlled
    client = ui.ControlClient(port=controlled_run.port)
    root = tk.Tk()
    try:
        client.call("set visual_range 50")
        window = ui.ControlWindow(root, client)
        root.update()
        for s in ui.SLIDERS:  # every slider shows the server's value, and nothing was sent back
            assert window.scales[s.key].get() == ui.slider_position(s, window.values[s.key])
        assert window.values["visual_range"] == 50.0 and window.values["centering_factor"] == 0.0005
        assert client.call("get centering_factor") == {"centering_factor": "5e-04"}

        visual = next(s for s in ui.SLIDERS if s.key == "visual_range")
        window.scales["visual_range"].set(150)  # as a drag would
        root.update()
        assert client.call("get visual_range") == {"visual_range": "30"}
        assert window.labels["visual_range"].cget("text") == "30"

        avoid = next(s for s in ui.SLIDERS if s.key == "avoid_factor")
        window.on_slide(avoid, str(ui.SLIDER_STEPS))
        assert client.call("get avoid_factor") == {"avoid_factor": "1"}
        assert "set avoid_factor 1.0: ok avoid_factor=1" in window.status.cget("text")
        assert visual.key in window.scales
        window.refresh_stats()
        assert window.stats.cget("text").startswith("steps ")
    finally:
        root.destroy()
        client.call("quit")
        client.close()
    assert controlled_run.finish()[0] == 0


def test_the_window_reconnects_and_shows_the_new_servers_values(xvfb_display):
    first = ControlledRun()
    port = first.port
    client = ui.ControlClient(port=port)
    root = tk.Tk()
    second = None
    try:
        window = ui.ControlWindow(root, client)
        assert window.values["visual_range"] == 40.0
        assert client.request("quit") == "ok quit"
        assert first.finish()[0] == 0
        window.refresh_stats()  # nobody listens: said so, and the window carries on
        assert window.stats.cget("text").startswith("stats unavailable")
        second = subprocess.Popen([BOIDS_EXE, "run", "--headless", "--control", str(port), "--threads", "1",
                                   "--set", "visual_range=25"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        assert second.stdout.readline().startswith(f"control: listening on 127.0.0.1:{port}")
        window.refresh_stats()
        assert window.stats.cget("text").startswith("steps ")
        assert window.values["visual_range"] == 25.0, "the sliders show the restarted server's values"
        assert window.status.cget("text").startswith("reconnected")
        assert client.request("quit") == "ok quit"
        assert second.wait(timeout=TIMEOUT) == 0
    finally:
        root.destroy()
        client.close()
        first.kill()
        if second is not None and second.poll() is None:
            second.kill()
            second.communicate(timeout=TIMEOUT)
