"""Builds the `boids` extension module with the project's CMake build (see pyproject.toml for the rest).

The engine is compiled by CMake exactly as in a normal build, with only the Python module enabled (no
viewer, program, tests or benchmarks), in a tree under pip's build directory. Environment variables:
  BOIDS_CMAKE_BUILD_DIR  build the module in this CMake tree instead (configured already or configured
                         here), e.g. build/release to reuse a build of the repository
  BOIDS_CMAKE_ARGS       extra arguments for the CMake configure step (split on spaces)
  CMAKE_BUILD_PARALLEL_LEVEL  parallel compile jobs (CMake's own variable)
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE_DIR = Path(__file__).resolve().parent


def project_version():
    """The version in CMakeLists.txt's project() call: the package has one version everywhere."""
    text = (SOURCE_DIR / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*boids\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise RuntimeError("setup.py: no `project(boids VERSION x.y.z` in CMakeLists.txt")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = Path(os.environ.get("BOIDS_CMAKE_BUILD_DIR") or Path(self.build_temp) / "cmake").resolve()
        if not (build_dir / "CMakeCache.txt").is_file():
            self.configure(build_dir)
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "boids_python"])
        built = sorted((build_dir / "python").glob("boids.*.so")) + sorted((build_dir / "python").glob("boids.*.pyd"))
        if not built:
            raise RuntimeError(f"setup.py: CMake built no module boids.*.so in {build_dir / 'python'}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)

    def configure(self, build_dir):
        args = [
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-DPython3_EXECUTABLE={sys.executable}",
            "-DBOIDS_BUILD_PYTHON=ON",
            "-DBOIDS_BUILD_CLI=OFF",
            "-DBOIDS_BUILD_VIEWER=OFF",
            "-DBOIDS_BUILD_TESTS=OFF",
            "-DBOIDS_BUILD_BENCH=OFF",
            "-DBOIDS_INSTALL=OFF",
        ]
        if shutil.which("ninja"):
            args.append("-GNinja")
        try:  # pybind11 from pip (build isolation) ships its CMake files inside the package
            import pybind11

            args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:  # Debian's pybind11-dev installs them where CMake looks by itself
            pass
        args += os.environ.get("BOIDS_CMAKE_ARGS", "").split()
        subprocess.check_call(["cmake", "-S", str(SOURCE_DIR), "-B", str(build_dir), *args])


setup(version=project_version(), ext_modules=[CMakeExtension("boids")], cmdclass={"build_ext": CMakeBuild})
