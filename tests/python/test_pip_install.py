"""`pip install .` into a fresh virtual environment, offline, with Debian's setuptools, pybind11 and cmake
(--no-build-isolation): the module imports and steps from outside the repository, `boids-control` is a
command, and the Python examples run from any directory.

To stay fast, setup.py builds the module in the already-built tree (BOIDS_CMAKE_BUILD_DIR): the packaging
path is the one users take; only the CMake configure of a fresh tree is skipped.
"""

import os
import shutil
import subprocess

from conftest import SOURCE_DIR, TIMEOUT

PIP_TIMEOUT = TIMEOUT * 10  # pip may rebuild the module in the build tree


def run(args, **kwargs):
    r = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert r.returncode == 0, f"{args}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def test_pip_install_into_a_venv_and_use_it_from_elsewhere(tmp_path):
    # A copy of the sources, as pip would see a fresh checkout (pip builds in the source tree).
    source = tmp_path / "src"
    shutil.copytree(SOURCE_DIR, source, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__"))
    venv = tmp_path / "venv"
    run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], timeout=PIP_TIMEOUT)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["BOIDS_CMAKE_BUILD_DIR"] = os.environ["BOIDS_BUILD_DIR"]
    run([str(python), "-m", "pip", "install", "--no-build-isolation", "--no-index", "--disable-pip-version-check",
         "--quiet", str(source)], env=env, timeout=PIP_TIMEOUT)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import boids; w = boids.World('vga-predator', boids=50, seed=1, threads=1); w.step(3); "
            "print(boids.__file__, boids.__version__, w.steps, len(w), w.positions.shape)")
    out = run([str(python), "-c", code], env=env, cwd=elsewhere, timeout=TIMEOUT)
    path, version, steps, agents, shape = out.split(maxsplit=4)
    assert path.startswith(str(venv)) and version == "1.0.0"
    assert (steps, agents, shape.strip()) == ("3", "52", "(52, 2)")
    # The slider UI as a command: its one-shot mode reports an unreachable port with exit status 2.
    r = subprocess.run([str(venv / "bin" / "boids-control"), "--port", "1", "stats"], capture_output=True,
                       text=True, env=env, cwd=elsewhere, timeout=TIMEOUT)
    assert r.returncode == 2 and "cannot connect to 127.0.0.1:1" in r.stderr, r.stderr
    # An example from another directory, with nothing but the installed package.
    out = run([str(python), str(SOURCE_DIR / "examples" / "parameter_study.py"), "--steps", "5", "--seeds", "1",
               "--boids", "30", "--ranges", "10"], env=dict(env, OMP_NUM_THREADS="1"), cwd=elsewhere,
              timeout=TIMEOUT)
    assert out.splitlines()[1].split()[0] == "10"
