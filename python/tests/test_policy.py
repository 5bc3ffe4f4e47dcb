"""Python policies over the external-policy protocol, checked job for job
against the built-in policies, and their errors."""

import pandas as pd
import pytest

import schedlab
from conftest import KTH, REPO
from easy import EASY
from fcfs import FCFS

REPO_TRACES = REPO / "workload" / "traces"


def same_schedule(a, b):
    pd.testing.assert_frame_equal(a.jobs, b.jobs)


@pytest.fixture(params=["process", "inprocess"])
def engine(request):
    """Where a Python policy's run happens: over the protocol, or on the
    engine in this process (skipped without the shared library)."""
    from schedlab import _inproc

    if request.param == "inprocess" and _inproc.library() is None:
        pytest.skip(f"no schedlab library: {_inproc.why_not()}")
    return request.param


def test_fcfs_equals_builtin_on_all_of_kth(engine):
    py = schedlab.run(trace=KTH, policy=FCFS(), engine=engine)
    assert py.summary["jobs"] == 27992 and py.summary["run"]["policy"] == "external"
    same_schedule(py, schedlab.run(trace=KTH, policy="fcfs"))


def test_easy_equals_builtin_on_all_of_kth(engine):
    same_schedule(schedlab.run(trace=KTH, policy=EASY(), engine=engine), schedlab.run(trace=KTH, policy="easy"))


def test_fcfs_and_easy_on_hpc2n_prefix(hpc2n_prefix):
    same_schedule(schedlab.run(trace=hpc2n_prefix, policy=FCFS()), schedlab.run(trace=hpc2n_prefix, policy="fcfs"))
    same_schedule(schedlab.run(trace=hpc2n_prefix, policy=EASY()), schedlab.run(trace=hpc2n_prefix, policy="easy"))


def test_fcfs_script_writes_jobs_csv(tmp_path):
    import subprocess
    import sys

    from conftest import REPO

    out = tmp_path / "fcfs.csv"
    r = subprocess.run(
        [sys.executable, str(REPO / "examples/python/fcfs.py"), KTH, str(out)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    ref = schedlab.run(trace=KTH, policy="fcfs", out=tmp_path / "o")
    assert out.read_bytes() == (ref.out / "jobs.csv").read_bytes()


class Greedy(schedlab.Policy):
    """Starts every waiting job at once: illegal as soon as one does not fit."""

    def decide(self, view):
        return list(view.queue)


class Unknown(schedlab.Policy):
    def decide(self, view):
        return [999999]


class Crash(schedlab.Policy):
    def decide(self, view):
        if view.now > 0:
            raise ValueError("the policy broke")
        return []


def test_illegal_start_is_schedlab_error(tmp_path, engine):
    with pytest.raises(
        schedlab.SchedlabError, match=r"policy external at t=\d+: start job \d+: needs \d+ processors, \d+ free"
    ):
        schedlab.run(trace=KTH, policy=Greedy(), out=tmp_path / "o", engine=engine)
    assert not (tmp_path / "o").exists()
    with pytest.raises(schedlab.SchedlabError, match=r"job 999999 is not waiting: no such job in the queue"):
        schedlab.run(trace=KTH, policy=Unknown(), out=tmp_path / "o", engine=engine)
    assert not (tmp_path / "o").exists()


def test_policy_exception_propagates_and_nothing_is_written(tmp_path, engine):
    with pytest.raises(ValueError, match="the policy broke"):
        schedlab.run(trace=KTH, policy=Crash(), out=tmp_path / "o", engine=engine)
    assert not (tmp_path / "o").exists()


def test_engine_is_checked():
    with pytest.raises(ValueError, match="engine must be"):
        schedlab.run(trace=KTH, policy=FCFS(), engine="gpu")


def test_start_objects_and_alloc():
    class Named(schedlab.Policy):
        """FCFS that names its CPUs: the highest free ids."""

        def begin(self, view):
            self.busy = set()
            self.cpus = {}

        def decide(self, view):
            for jid in view.completed:
                self.busy -= self.cpus.pop(jid)
            free = [c for c in range(view.machines[0].cpus) if c not in self.busy]
            starts = []
            for job in view.queue.values():
                if job.res > len(free):
                    break
                mine, free = free[-job.res :], free[: len(free) - job.res]
                self.busy |= set(mine)
                self.cpus[job.id] = set(mine)
                starts.append(schedlab.Start(job.id, alloc=" ".join(map(str, mine))))
            return starts

    r = schedlab.run(trace=KTH, policy=Named(), check=True)
    b = schedlab.run(trace=KTH, policy="fcfs")
    pd.testing.assert_series_equal(r.jobs.starting_time, b.jobs.starting_time)
    assert r.jobs.allocated_resources.iloc[0] != b.jobs.allocated_resources.iloc[0]


@pytest.mark.skipif(
    not __import__("os").environ.get("SCHEDLAB_FULL_HPC2N"),
    reason="whole HPC2N in Python takes about 30 s: set SCHEDLAB_FULL_HPC2N=1",
)
def test_fcfs_and_easy_on_all_of_hpc2n():
    from conftest import shared_trace

    t = shared_trace("HPC2N-2002-2.1-cln.swf.gz")
    if t is None:
        pytest.skip("HPC2N-2002-2.1-cln.swf.gz not found (set SCHEDLAB_TRACES)")
    same_schedule(schedlab.run(trace=t, policy=FCFS()), schedlab.run(trace=t, policy="fcfs"))
    same_schedule(schedlab.run(trace=t, policy=EASY()), schedlab.run(trace=t, policy="easy"))


def test_call_me_at(engine):
    class Hourly(schedlab.Policy):
        """Strict FCFS, but jobs start only on the hour."""

        def decide(self, view):
            if view.now % 3600:
                self.call_me_at((view.now // 3600 + 1) * 3600)
                return []
            free, starts = view.free[0], []
            for job in view.queue.values():
                if job.res > free:
                    break
                free -= job.res
                starts.append(job.id)
            return starts

    r = schedlab.run(trace=KTH, policy=Hourly(), check=True, engine=engine)
    assert r.summary["jobs"] == 27992
    assert (r.jobs.starting_time % 3600 == 0).all()
    assert r.summary["mean_wait"] > schedlab.run(trace=KTH, policy="fcfs").summary["mean_wait"]


class RejectBig(schedlab.Policy):
    """Strict FCFS that rejects, on arrival, the jobs of more than 64 CPUs."""

    def begin(self, view):
        self.rejected = []

    def decide(self, view):
        out = []
        for job in view.submitted:
            if job.res > 64:
                out.append(schedlab.Reject(job.id))
                self.rejected.append(job.id)
        free = view.free[0]
        for job in view.queue.values():
            if job.res > 64:
                continue
            if job.res > free:
                break
            free -= job.res
            out.append(job.id)
        return out


def test_reject_equals_fcfs_without_those_jobs(tmp_path, engine):
    """Rejecting jobs on arrival under strict FCFS is the built-in FCFS on
    the trace without them: the same start of every other job; the
    rejected ones are counted and have no row."""
    import gzip

    pol = RejectBig()
    r = schedlab.run(trace=KTH, policy=pol, check=True, engine=engine)
    gone = set(pol.rejected)
    assert len(gone) > 100
    assert r.summary["run"]["jobs_rejected_by_policy"] == len(gone)
    assert r.summary["jobs"] == 27992 - len(gone)
    assert not set(r.jobs.job_id) & gone
    kept = tmp_path / "kept.swf"
    with gzip.open(REPO_TRACES / KTH, "rt") as f, open(kept, "w") as w:
        for line in f:
            fields = line.split()
            if line.startswith(";") or not fields or int(fields[0]) not in gone:
                w.write(line)
    b = schedlab.run(trace=str(kept), policy="fcfs")
    assert list(r.jobs.job_id) == list(b.jobs.job_id)
    pd.testing.assert_series_equal(r.jobs.starting_time, b.jobs.starting_time)


def test_reject_of_a_running_job_is_an_error(tmp_path, engine):
    class Late(schedlab.Policy):
        def decide(self, view):
            if view.running:
                return [schedlab.Reject(next(iter(view.running)))]
            return list(view.queue)[:1]

    with pytest.raises(schedlab.SchedlabError, match=r"reject job \d+: it is not waiting: it started at t="):
        schedlab.run(trace=KTH, policy=Late(), out=tmp_path / "o", engine=engine)
    assert not (tmp_path / "o").exists()


def test_out_of_range_job_id_is_named(tmp_path, engine):
    class Huge(schedlab.Policy):
        def decide(self, view):
            return [schedlab.Reject(2**70)] if view.queue else []

    with pytest.raises((schedlab.SchedlabError, ValueError), match="1180591620717411303424"):
        schedlab.run(trace=KTH, policy=Huge(), out=tmp_path / "o", engine=engine)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("bad", [2.9, 2.0, True, "2"])
def test_non_integer_job_id_is_refused(tmp_path, engine, bad):
    # A job id that is not an integer is refused, as the protocol's JSON
    # refuses it, rather than cut to one (2.9 was job 2; True was job 1);
    # in a Start or a Reject too, and a machine that is not an integer.
    def first(view):
        return next(iter(view.queue)) if view.queue else None

    cases = [
        lambda view: [bad] if view.queue else [],
        lambda view: [schedlab.Start(bad)] if view.queue else [],
        lambda view: [schedlab.Reject(bad)] if view.queue else [],
        lambda view: [schedlab.Start(first(view), machine=bad)] if view.queue else [],
    ]
    for k, decide in enumerate(cases):
        what = "machine" if k == 3 else "job id"

        class Bad(schedlab.Policy):
            pass

        Bad.decide = lambda self, view, decide=decide: decide(view)
        msg = rf"the decision's {what} {bad!r} \({type(bad).__name__}\) is not an integer"
        with pytest.raises(TypeError, match=msg):
            schedlab.run(trace=KTH, policy=Bad(), out=tmp_path / "o", engine=engine)
        assert not (tmp_path / "o").exists()


def test_numpy_integer_job_ids_are_taken(tmp_path, engine):
    import numpy as np

    class NumpyFCFS(FCFS):
        def decide(self, view):
            return [np.int64(i) for i in super().decide(view)]

    same_schedule(schedlab.run(trace=KTH, policy=NumpyFCFS(), engine=engine), schedlab.run(trace=KTH, policy="fcfs"))
