#!/usr/bin/env python3
"""The lab's slider UI for a running flock, over the control port (standard library only).

Start a flock that serves the port, then the window:

    boids run --headless --control 4760 &
    python3 python/boids_control.py --port 4760

Moving a slider sends `set KEY VALUE` at once; the sliders start at the values the server reports. Without
a window, one command per call (exit status 0 for an `ok` answer, 1 for `error`, 2 if unreachable):

    python3 python/boids_control.py --port 4760 set visual_range 30
    python3 python/boids_control.py --port 4760 stats

The mapping from slider positions to commands is a set of pure functions (slider_value, slider_position,
slider_command) so it can be tested without a display.
"""

from __future__ import annotations

import argparse
import math
import socket
import sys
from dataclasses import dataclass

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 4760
#: Slider positions run over [0, SLIDER_STEPS]; a position maps to a value on the slider's scale.
SLIDER_STEPS = 1000
#: How often the window refreshes its statistics line, in milliseconds.
STATS_PERIOD_MS = 500


@dataclass(frozen=True)
class Slider:
    """One slider: the parameter key, its range, and whether the scale is logarithmic."""

    key: str
    low: float
    high: float
    log: bool = False


#: The lab's sliders (ECE 4760 Python UI ranges); gains spanning decades use a log scale.
SLIDERS = (
    Slider("visual_range", 0.0, 200.0),
    Slider("protected_range", 0.0, 100.0),
    Slider("centering_factor", 0.0002, 1.0, log=True),
    Slider("avoid_factor", 0.01, 1.0, log=True),
    Slider("matching_factor", 0.01, 1.0, log=True),
    Slider("predator_range", 0.0, 300.0),
    Slider("predator_turn_factor", 0.0, 2.0),
)


def slider_value(slider: Slider, position: float) -> float:
    """The parameter value at a slider position in [0, SLIDER_STEPS] (clamped), rounded to 4 significant
    digits so the command stays short and the value reads cleanly."""
    t = min(max(float(position), 0.0), SLIDER_STEPS) / SLIDER_STEPS
    if slider.log:
        value = slider.low * (slider.high / slider.low) ** t
    else:
        value = slider.low + (slider.high - slider.low) * t
    value = float(f"{value:.4g}")
    return min(max(value, slider.low), slider.high)


def slider_position(slider: Slider, value: float) -> int:
    """The slider position showing `value` (clamped into the slider's range)."""
    value = min(max(float(value), slider.low), slider.high)
    if slider.log:
        t = math.log(value / slider.low) / math.log(slider.high / slider.low)
    else:
        t = (value - slider.low) / (slider.high - slider.low)
    return int(round(t * SLIDER_STEPS))


def format_value(value: float) -> str:
    """A value as the protocol carries it: the shortest text that reads back as the same float."""
    return repr(float(value))


def slider_command(slider: Slider, position: float) -> str:
    """The control-port command a slider at `position` sends."""
    return f"set {slider.key} {format_value(slider_value(slider, position))}"


def parse_reply(line: str) -> tuple[bool, dict[str, str], str]:
    """Splits a reply into (ok, key=value pairs, text after the status word)."""
    line = line.rstrip("\r\n")
    status, _, rest = line.partition(" ")
    pairs = {}
    for word in rest.split():
        key, eq, value = word.partition("=")
        if eq:
            pairs[key] = value
    return status == "ok", pairs, rest


class ControlError(RuntimeError):
    """The server answered `error ...`."""


class ControlClient:
    """One connection to a control port; each request() sends a line and returns the one-line reply. When the
    server has gone away (restarted, say), the next request connects again and sends its line once more."""

    def __init__(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, timeout: float = 5.0):
        self.address = (host, port)
        self.timeout = timeout
        #: How many connections were made so far: 1 after the first, one more per reconnection.
        self.connections = 0
        self._sock = None
        self._file = None
        self._connect()

    def _connect(self) -> None:
        self._sock = socket.create_connection(self.address, timeout=self.timeout)
        self._file = self._sock.makefile("rb")
        self.connections += 1

    def _exchange(self, line: str) -> str:
        self._sock.sendall(line.encode("utf-8") + b"\n")
        reply = self._file.readline()
        if not reply:
            raise ConnectionError("the control port closed the connection")
        return reply.decode("utf-8", "replace").rstrip("\r\n")

    def request(self, line: str) -> str:
        """Sends one command line and returns the reply without its newline. A connection the server closed
        is made again once; OSError when the server cannot be reached."""
        if self._sock is None:
            self._connect()
            return self._exchange(line)
        try:
            return self._exchange(line)
        except OSError:  # broken pipe, reset, closed: the old server is gone, a new one may listen
            self.close()
            self._connect()
            return self._exchange(line)

    def call(self, line: str) -> dict[str, str]:
        """Sends a command; returns its key=value pairs, or raises ControlError for an `error` reply."""
        ok, pairs, rest = parse_reply(self.request(line))
        if not ok:
            raise ControlError(rest)
        return pairs

    def close(self) -> None:
        """Closes the connection (a later request connects again)."""
        if self._sock is not None:
            self._file.close()
            self._sock.close()
        self._sock = self._file = None

    def __enter__(self) -> "ControlClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class ControlWindow:
    """The slider window. Every slider move sends its command at once; a rejected value puts the slider
    back at the server's value and shows the reason."""

    def __init__(self, root, client: ControlClient):
        import tkinter as tk

        self.root = root
        self.client = client
        self.values = {}
        self.scales = {}
        self.labels = {}
        self._updating = False
        root.title(f"boids control ({client.address[0]}:{client.address[1]})")
        self._connection = client.connections
        params = client.call("params")
        for row, slider in enumerate(SLIDERS):
            tk.Label(root, text=slider.key, anchor="w", width=22).grid(row=row, column=0, sticky="w")
            scale = tk.Scale(root, from_=0, to=SLIDER_STEPS, orient=tk.HORIZONTAL, showvalue=False, length=320,
                             command=lambda position, s=slider: self.on_slide(s, position))
            scale.grid(row=row, column=1, sticky="ew")
            label = tk.Label(root, width=10, anchor="e")
            label.grid(row=row, column=2)
            self.scales[slider.key] = scale
            self.labels[slider.key] = label
            self.show(slider, float(params[slider.key]))
        buttons = tk.Frame(root)
        buttons.grid(row=len(SLIDERS), column=0, columnspan=3, sticky="w")
        for text, command in (("Pause", "pause"), ("Resume", "resume"), ("Reset", "reset")):
            tk.Button(buttons, text=text, command=lambda c=command: self.send(c)).pack(side=tk.LEFT)
        self.status = tk.Label(root, anchor="w", justify=tk.LEFT, wraplength=520)
        self.status.grid(row=len(SLIDERS) + 1, column=0, columnspan=3, sticky="w")
        self.stats = tk.Label(root, anchor="w", justify=tk.LEFT)
        self.stats.grid(row=len(SLIDERS) + 2, column=0, columnspan=3, sticky="w")
        self.refresh_stats()

    def show(self, slider: Slider, value: float) -> None:
        """Puts a slider at `value` without sending anything."""
        self._updating = True
        try:
            self.values[slider.key] = value
            self.scales[slider.key].set(slider_position(slider, value))
            self.labels[slider.key].config(text=f"{value:.4g}")
        finally:
            self._updating = False

    def on_slide(self, slider: Slider, position: str) -> None:
        """Tk's slider callback: sends the new value unless the move came from show()."""
        if self._updating:
            return
        # Tk also calls back when show() moved the slider; the position of the value already set is no
        # change, so rounding never sends a value the user did not choose.
        if int(round(float(position))) == slider_position(slider, self.values[slider.key]):
            return
        reply = self.send(slider_command(slider, float(position)))
        if reply is None:
            return
        ok, pairs, _ = parse_reply(reply)
        if ok:
            self.values[slider.key] = float(pairs[slider.key])
            self.labels[slider.key].config(text=f"{self.values[slider.key]:.4g}")
        else:
            self.show(slider, float(self.client.call(f"get {slider.key}")[slider.key]))

    def send(self, command: str):
        """Sends a command, shows the answer in the status line and returns it (None if disconnected)."""
        try:
            reply = self.client.request(command)
        except OSError as e:
            self.status.config(text=f"disconnected: {e}")
            return None
        self.status.config(text=f"{command}: {reply}")
        return reply

    def reload(self) -> None:
        """Puts every slider at the server's value (after a reconnection: a restarted server has its own)."""
        params = self.client.call("params")
        for slider in SLIDERS:
            self.show(slider, float(params[slider.key]))
        self._connection = self.client.connections

    def refresh_stats(self) -> None:
        """Shows steps, agents, mean speed and polarization, and schedules the next refresh. After the client
        had to connect again, the sliders are reloaded from the server first."""
        try:
            s = self.client.call("stats")
            if self.client.connections != self._connection:
                self.reload()
                self.status.config(text="reconnected: the sliders show the server's values")
            self.stats.config(text=f"steps {s['steps']}   agents {s['agents']}   "
                                   f"mean speed {float(s['mean_speed']):.3f}   "
                                   f"polarization {float(s['polarization']):.3f}   "
                                   f"step {float(s['step_ms']):.2f} ms" + ("   (paused)" if s["paused"] == "true" else ""))
        except (OSError, ControlError, KeyError) as e:
            self.stats.config(text=f"stats unavailable: {e}")
        self.root.after(STATS_PERIOD_MS, self.refresh_stats)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"control port address (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"control port (default {DEFAULT_PORT})")
    parser.add_argument("command", nargs="*",
                        help="send this one command (e.g. set visual_range 30, get KEY, params, stats) and exit "
                             "instead of opening the window")
    args = parser.parse_args(argv)
    try:
        client = ControlClient(args.host, args.port)
    except OSError as e:
        print(f"boids_control: cannot connect to {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    with client:
        if args.command:
            reply = client.request(" ".join(args.command))
            print(reply)
            return 0 if reply.startswith("ok") else 1
        import tkinter as tk

        root = tk.Tk()
        ControlWindow(root, client)
        root.mainloop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
