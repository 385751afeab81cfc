"""The examples run headless with tiny settings (smoke tests of real runs, checked by their output)."""

import os
import subprocess
import sys

from conftest import SOURCE_DIR, TIMEOUT

EXAMPLES = SOURCE_DIR / "examples"


def run(script, *args, cwd):
    env = dict(os.environ, MPLBACKEND="Agg", OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                       timeout=TIMEOUT * 4, cwd=cwd, env=env)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_flock_animation_saves_a_gif(tmp_path):
    out = run("flock_animation.py", "--boids", "40", "--frames", "4", "--save", str(tmp_path / "f.gif"),
              cwd=tmp_path)
    assert "wrote 4 frames" in out
    assert (tmp_path / "f.gif").read_bytes()[:6] in (b"GIF89a", b"GIF87a")


def test_parameter_study_prints_a_table(tmp_path):
    out = run("parameter_study.py", "--steps", "20", "--seeds", "2", "--boids", "50", "--ranges", "5", "40",
              cwd=tmp_path)
    lines = out.strip().splitlines()
    assert lines[0].split() == ["visual_range", "polarization", "+-"]
    assert [line.split()[0] for line in lines[1:]] == ["5", "40"]
    assert all(0 <= float(line.split()[1]) <= 1 for line in lines[1:])


def test_notebook_script_saves_its_figure(tmp_path):
    out = run("notebook.py", "--steps", "10", "--save", str(tmp_path / "n.png"), cwd=tmp_path)
    assert "final polarization" in out and (tmp_path / "n.png").read_bytes()[:4] == b"\x89PNG"


def test_phase_diagram_prints_its_table_and_saves_its_figure(tmp_path):
    out = run("phase_diagram.py", "--noise", "0:4:3", "--densities", "1", "2", "--size", "4", "--seeds", "2",
              "--steps", "30", "--burn-in", "10", "--every", "5", "--out", str(tmp_path / "p.png"), cwd=tmp_path)
    lines = out.strip().splitlines()
    assert lines[1].split() == ["noise", "1", "2"]
    assert [line.split()[0] for line in lines[2:5]] == ["0", "2", "4"]
    assert all(0 <= float(v) <= 1 for line in lines[2:5] for v in line.split()[1:])
    assert float(lines[2].split()[1]) > float(lines[4].split()[1])  # ordered at no noise, not at eta = 4
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
