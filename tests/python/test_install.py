"""`cmake --install` puts the module where Debian's python3 finds it under the prefix."""

import os
import subprocess
import sys

from conftest import TIMEOUT


def test_install_component_python_into_a_prefix(tmp_path):
    build = os.environ["BOIDS_BUILD_DIR"]
    r = subprocess.run(["cmake", "--install", build, "--component", "python", "--prefix", str(tmp_path)],
                       capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr
    site = tmp_path / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "dist-packages"
    assert (site / "boids_control.py").is_file()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    code = "import boids, boids_control; w = boids.World(boids=5, threads=1); w.step(2); print(boids.__file__, len(w))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(str(site)) and r.stdout.split()[-1] == "7"
