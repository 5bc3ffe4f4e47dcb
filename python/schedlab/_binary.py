"""Finding (or building) the schedlab binary."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

MODULE = "module github.com/schedlab/schedlab"

_built: str | None = None


class SchedlabError(RuntimeError):
    """A schedlab command failed; the message is schedlab's own."""


def _repo_root() -> Path | None:
    """The schedlab source tree: $SCHEDLAB_REPO, else the first folder
    holding schedlab's go.mod above this package or the current folder."""
    env = os.environ.get("SCHEDLAB_REPO")
    if env:
        return Path(env)
    for start in (Path(__file__).resolve().parent, Path.cwd().resolve()):
        for d in (start, *start.parents):
            gm = d / "go.mod"
            if gm.is_file() and gm.read_text().startswith(MODULE):
                return d
    return None


def binary() -> str:
    """The schedlab binary to run, in this order: $SCHEDLAB_BIN; one built
    with `go build` from the source tree ($SCHEDLAB_REPO, or the tree this
    package or the current folder is in; rebuilt once per Python process,
    which `go build` makes quick when nothing changed); the copy `pip
    install ./python` built into the package; `schedlab` on the PATH."""
    global _built
    env = os.environ.get("SCHEDLAB_BIN")
    if env:
        if not os.access(env, os.X_OK):
            raise SchedlabError(f"$SCHEDLAB_BIN={env} is not an executable file")
        return env
    if _built:
        return _built
    root = _repo_root()
    go = shutil.which("go")
    if root is not None and go is not None:
        cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "schedlab"
        cache.mkdir(parents=True, exist_ok=True)
        out = cache / f"schedlab-{hashlib.sha256(str(root).encode()).hexdigest()[:12]}"
        r = subprocess.run([go, "build", "-o", str(out), "./cmd/schedlab"], cwd=root, capture_output=True, text=True)
        if r.returncode != 0:
            raise SchedlabError(f"go build ./cmd/schedlab in {root} failed:\n{r.stderr}")
        _built = str(out)
        return _built
    packaged = Path(__file__).resolve().parent / "bin" / ("schedlab.exe" if os.name == "nt" else "schedlab")
    if os.access(packaged, os.X_OK):
        return str(packaged)
    found = shutil.which("schedlab")
    if found:
        return found
    raise SchedlabError(
        "no schedlab binary: set $SCHEDLAB_BIN to one, put schedlab on the PATH "
        "(go install ./cmd/schedlab), or run from the source tree with Go installed "
        "(or set $SCHEDLAB_REPO to it)"
    )
