import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "examples" / "python"))

KTH = "KTH-SP2-1996-2.1-cln.swf.gz"

# The suite runs with a temporary folder of its own (TMPDIR, inherited by
# the scripts and children it starts, and tempfile.gettempdir() here),
# so that the check below sees only what the suite made, not what other
# programs put in /tmp meanwhile.
_TMP = tempfile.mkdtemp(prefix="schedlab-pytest-")
os.environ["TMPDIR"] = _TMP
tempfile.tempdir = None
assert tempfile.gettempdir() == _TMP
# removed at the end of the session below, or at exit when no test ran
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


def leftovers():
    """The package's temporary folders (schedlab.TEMP_PREFIXES) in
    tempfile.gettempdir()."""
    import schedlab

    return sorted(p.name for p in Path(tempfile.gettempdir()).iterdir() if p.name.startswith(schedlab.TEMP_PREFIXES))


@pytest.fixture(scope="session", autouse=True)
def no_temporary_folder_left():
    """After the Python test suite, no schedlab-run-* (nor schedlab-sweep-*,
    schedlab-gym-*) folder remains: an error at the end of the session
    otherwise, naming them."""
    before = leftovers()
    yield
    import gc

    gc.collect()  # environments not closed remove theirs when collected
    left = [n for n in leftovers() if n not in before]
    shutil.rmtree(_TMP, ignore_errors=True)
    assert not left, f"temporary folders left behind by the suite: {left}"


def shared_trace(name):
    """A real trace from $SCHEDLAB_TRACES or the folder beside the clone
    (the Go tests' rule); None when missing."""
    dirs = [os.environ.get("SCHEDLAB_TRACES", ""), str(REPO.parent / "shared" / "traces")]
    for d in dirs:
        if d and (Path(d) / name).is_file():
            return Path(d) / name
    return None


@pytest.fixture(scope="session")
def hpc2n_prefix(tmp_path_factory):
    """The first 20,000 jobs of HPC2N as a plain SWF file (header kept)."""
    import gzip

    src = shared_trace("HPC2N-2002-2.1-cln.swf.gz")
    if src is None:
        pytest.skip("HPC2N-2002-2.1-cln.swf.gz not found (set SCHEDLAB_TRACES to the folder of the real traces)")
    out = tmp_path_factory.mktemp("hpc2n") / "HPC2N-20000.swf"
    n = 0
    with gzip.open(src, "rt") as f, open(out, "w") as w:
        for line in f:
            if line.startswith(";"):
                w.write(line)
                continue
            if n == 20000:
                break
            w.write(line)
            n += 1
    return out
