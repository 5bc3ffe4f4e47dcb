"""python -m schedlab.serve MODULE:CLASS: a Python policy served over the
protocol to `schedlab run --policy external --command`, giving the
schedule of the same policy run by schedlab.run."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import schedlab
from conftest import KTH, REPO

EXAMPLES = REPO / "examples" / "python"

# a policy that prints (on standard error, through serve) and uses its
# own state: shortest estimate first among the waiting jobs that fit
SJF = '''
import schedlab


class SJF(schedlab.Policy):
    def begin(self, view):
        print("begin", len(view.machines))  # must not reach the protocol
        self.instants = 0

    def decide(self, view):
        self.instants += 1
        free, starts = view.free[0], []
        for job in sorted(view.queue.values(), key=lambda j: (j.walltime, j.subtime, j.id)):
            if job.res <= free:
                free -= job.res
                starts.append(job.id)
        return starts
'''


# the children import this schedlab package, the one under test
ENV = {**os.environ, "PYTHONPATH": str(Path(schedlab.__file__).resolve().parent.parent)}


def served(spec, cwd, out, extra=()):
    cmd = [schedlab.binary(), "run", "--trace", KTH, "--policy", "external", "--out", str(out)]
    cmd += ["--command", f"{sys.executable} -m schedlab.serve {spec}", *extra]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=300, env=ENV)


@pytest.mark.parametrize("view", ["full", "free"])
def test_served_module_class_equals_in_process_run(tmp_path, view):
    (tmp_path / "mysjf.py").write_text(SJF)
    r = served("mysjf:SJF", tmp_path, tmp_path / "served", ["--set", f"view={view}"])
    assert r.returncode == 0, r.stderr
    assert "begin 1" in r.stderr  # the print went to standard error
    sys.path.insert(0, str(tmp_path))
    try:
        import mysjf
    finally:
        sys.path.remove(str(tmp_path))
    ref = schedlab.run(trace=KTH, policy=mysjf.SJF(), out=tmp_path / "ref")
    assert (tmp_path / "served" / "jobs.csv").read_bytes() == (ref.out / "jobs.csv").read_bytes()
    with open(tmp_path / "served" / "summary.json") as f:
        got = json.load(f)
    assert {k: v for k, v in got.items() if k != "run"} == {k: v for k, v in ref.summary.items() if k != "run"}
    assert got["jobs"] == 27992 and got["mean_wait"] != schedlab.run(trace=KTH, policy="fcfs").summary["mean_wait"]


def test_served_file_class_equals_builtin_fcfs(tmp_path):
    # examples/python/fcfs.py's FCFS, named by its file: the built-in fcfs's schedule
    r = served(f"{EXAMPLES / 'fcfs.py'}:FCFS", tmp_path, tmp_path / "served")
    assert r.returncode == 0, r.stderr
    ref = schedlab.run(trace=KTH, policy="fcfs", out=tmp_path / "ref")
    assert (tmp_path / "served" / "jobs.csv").read_bytes() == (ref.out / "jobs.csv").read_bytes()


@pytest.mark.parametrize(
    "spec,msg",
    [
        ("nocolon", "want MODULE:CLASS"),
        ("schedlab:Nope", "no subclass of schedlab.Policy named Nope"),
        ("schedlab:Result", "no subclass"),
        ("no_such_mod_xyz:P", "No module named"),
        ("missing.py:P", "no file missing.py"),
    ],
)
def test_bad_spec_exits_2_saying_why(tmp_path, spec, msg):
    cmd = [sys.executable, "-m", "schedlab.serve", spec]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, stdin=subprocess.DEVNULL, timeout=60, env=ENV)
    assert r.returncode == 2 and msg in r.stderr and r.stdout == ""


def test_failing_policy_stops_the_run(tmp_path):
    crash = "import schedlab\n\nclass Crash(schedlab.Policy):\n    def decide(self, view):\n"
    crash += "        raise RuntimeError('boom')\n"
    (tmp_path / "crash.py").write_text(crash)
    r = served("crash:Crash", tmp_path, tmp_path / "served")
    assert r.returncode != 0 and "boom" in r.stderr and "exited" in r.stderr
    assert not (tmp_path / "served").exists()
