"""Builds schedlab's shared library into the package when it can.

`pip install ./python` (from a clone of the repository) runs `go build
-buildmode=c-shared ./cmd/libschedlab` in the repository and installs
libschedlab.so beside the package's modules, for schedlab.gym and the
in-process engine (schedlab/_inproc.py), and `go build ./cmd/schedlab`
into schedlab/bin/, the command the package runs when it is not in a
source tree. Without Go, without cgo (no C
compiler) or outside the source tree it prints why and installs the
package without it: everything then runs the schedlab command as a
second process. Everything else is in pyproject.toml.
"""

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

LIB = "libschedlab.dylib" if sys.platform == "darwin" else "libschedlab.so"
MODULE = "module github.com/schedlab/schedlab"


def why_not(root: Path, go):
    gm = root / "go.mod"
    if not (gm.is_file() and gm.read_text().startswith(MODULE)):
        return f"{root} is not schedlab's source tree"
    if go is None:
        return "no go command on the PATH"
    cgo = subprocess.run([go, "env", "CGO_ENABLED"], cwd=root, capture_output=True, text=True).stdout.strip()
    if cgo != "1":
        return "cgo is off (Go found no C compiler: install gcc, or set CC)"
    return None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        root = Path(__file__).resolve().parent.parent
        go = shutil.which("go")
        why = why_not(root, go)
        out = Path(self.build_lib).resolve() / "schedlab" / LIB
        out.unlink(missing_ok=True)  # one from an earlier build (in python/build)
        if why is None:
            r = subprocess.run([go, "build", "-buildmode=c-shared", "-o", str(out), "./cmd/libschedlab"], cwd=root)
            out.with_suffix(".h").unlink(missing_ok=True)  # the C header go build writes beside it
            if r.returncode != 0:
                why = "go build -buildmode=c-shared ./cmd/libschedlab failed (above)"
        if why is not None:
            print(
                f"schedlab: not building the shared library {LIB}: {why}; the package will run the "
                "schedlab command as a second process instead (docs: python/README.md)",
                file=sys.stderr,
            )
        # The command itself, so that the installed package runs from any
        # folder (it needs Go, not cgo).
        exe = Path(self.build_lib).resolve() / "schedlab" / "bin" / ("schedlab.exe" if sys.platform == "win32" else "schedlab")
        exe.unlink(missing_ok=True)
        if go is not None and (root / "go.mod").is_file():
            exe.parent.mkdir(parents=True, exist_ok=True)
            if subprocess.run([go, "build", "-o", str(exe), "./cmd/schedlab"], cwd=root).returncode != 0:
                print("schedlab: go build ./cmd/schedlab failed (above); the package will look for the command "
                      "in the source tree or on the PATH", file=sys.stderr)


class MaybeBinary(Distribution):
    """A wheel for this platform: it may hold the shared library."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=MaybeBinary)
