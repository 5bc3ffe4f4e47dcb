"""schedlab._inproc: the engine in this process through schedlab's shared
library: the command's run, its validation and messages."""

import json
import threading

import numpy as np
import pytest

import schedlab
from fcfs import FCFS
from schedlab import _inproc

KTH = "KTH-SP2-1996-2.1-cln.swf.gz"


@pytest.fixture(autouse=True)
def library():
    if _inproc.library() is None:
        pytest.skip(f"no schedlab library: {_inproc.why_not()}")


def fcfs(sim):
    qid, qres, _, _ = sim.queue()
    free, ids = int(sim.free()[0]), []
    for i, r in zip(qid.tolist(), qres.tolist()):
        if r > free:
            break
        free -= r
        ids.append(i)
    return ids


def test_fcfs_in_process_is_builtin_fcfs(tmp_path):
    # A strict FCFS deciding here, through the library, gives the
    # built-in fcfs's jobs.csv on all of KTH-SP2.
    sim = _inproc.Sim(_inproc.run_spec(KTH, out=tmp_path / "in", view="free"), json=True)
    ids, n, ends = [], 0, 0
    while sim.step(ids):
        n += 1
        if sim.flags & _inproc.ENDS:
            ends += 1
            ids = []
            continue
        assert sim.flags & _inproc.BEGINS == (_inproc.BEGINS if n == 1 else 0)
        ids = fcfs(sim)
    assert ends == 1 and n > 10000
    assert json.loads(sim.stdout)["jobs"] == 27992
    built = schedlab.run(trace=KTH, policy="fcfs", out=tmp_path / "fcfs")
    assert (tmp_path / "in" / "jobs.csv").read_bytes() == (built.out / "jobs.csv").read_bytes()


def test_run_spec_takes_every_run_flag():
    # every keyword schedlab.run reads as a run flag is a setting of the
    # spec, not a policy option; any other keyword is a policy option
    flags = {
        "estimate": "exact", "procs": 64, "on_overrun": "continue", "clamp": True, "tau": 30, "deadline": "estimate",
        "deadline_factor": "1.5-3", "deadline_fraction": 0.5, "seed": 3, "check": True, "swf": True,
        "predictor": "avg:3", "correction": "request", "resample": "user-weeks", "replication": 2,
        "from": 604800, "to": "1996-10-14", "power": "95:190.74",
    }
    assert set(flags) == schedlab._RUN_FLAGS
    spec = _inproc.run_spec(KTH, out="o", **flags, order="sjf", strict=False)
    assert spec["policy"] == {"name": "external", "predictor": "avg:3", "correction": "request", "options": {"order": "sjf", "strict": "false"}}
    assert spec["workload"] == {
        "trace": KTH, "seed": 3, "replication": 2, "estimate": "exact", "resample": "user-weeks",
        "from": "604800", "to": "1996-10-14", "deadlines": {"rule": "estimate", "seed": 3, "factor": "1.5-3", "fraction": 0.5},
    }
    assert spec["platform"] == {"procs": 64, "clamp": True, "continue": True, "power": "95:190.74"}
    assert spec["outputs"] == {"dir": "o", "tau": 30.0, "check": True, "swf": True}


def test_in_process_run_is_the_commands(tmp_path):
    # schedlab.run with run flags, in process (a spec) and over the
    # protocol (the command line): the same summary.json, jobs.csv,
    # schedule.swf and printed summary
    flags = dict(estimate="exact", procs=80, on_overrun="continue", clamp=True, tau=30, deadline="estimate",
                 deadline_factor="1.5-3", deadline_fraction=0.5, seed=3, check=True, swf=True)
    a = schedlab.run(trace=KTH, policy=FCFS(), out=tmp_path / "a", engine="inprocess", **flags)
    b = schedlab.run(trace=KTH, policy=FCFS(), out=tmp_path / "b", engine="process", **flags)
    for f in ("summary.json", "jobs.csv", "schedule.swf"):
        assert (a.out / f).read_bytes() == (b.out / f).read_bytes(), f
    assert a.summary["deadlines"]["factor"] == "1.5-3" and a.summary["run"]["procs"] == 80
    assert a.stdout.replace(str(a.out), "OUT") == b.stdout.replace(str(b.out), "OUT")
    assert "check: schedule valid" in a.stdout and "schedule.swf" in a.stdout


def test_illegal_start_raises_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    sim = _inproc.Sim(_inproc.run_spec(KTH, out=out))
    assert sim.step()
    with pytest.raises(schedlab.SchedlabError, match=r"job 999999 is not waiting.*\[in-process\]"):
        sim.step([999999])
    assert not out.exists()
    with pytest.raises(schedlab.SchedlabError, match="has ended"):
        sim.step()


def test_too_many_cpus_and_bad_alloc(tmp_path):
    swf = tmp_path / "two.swf"
    swf.write_text("; MaxProcs: 100\n1 0 -1 50 60 -1 -1 60 100 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 -1 50 60 -1 -1 60 100 -1 1 1 1 -1 -1 -1 -1 -1\n")
    args = _inproc.run_spec(swf)
    sim = _inproc.Sim(args)
    assert sim.step() and sim.queue()[0].tolist() == [1, 2] and sim.free().tolist() == [100]
    # 120 CPUs of 100: the model refuses the start (after the policy's
    # turn: the run ends, with SIMULATION_ENDS as over the protocol)
    with pytest.raises(schedlab.SchedlabError, match=r"at t=0: start job 2: needs 60 processors, 40 free"):
        sim.step([1, 2]) and sim.flags & _inproc.ENDS and sim.step()
    sim = _inproc.Sim(args)
    assert sim.step()
    with pytest.raises(schedlab.SchedlabError, match=r"job 1: alloc \"5-1\""):
        sim.step([1], allocs=["5-1"])
    sim = _inproc.Sim(args)
    assert sim.step()
    with pytest.raises(schedlab.SchedlabError, match=r"job 1"):
        sim.step([1], allocs=["0-99"]) and sim.flags & _inproc.ENDS and sim.step()  # 100 CPUs named for 60


def test_wrong_specs():
    for args, want in [
        (_inproc.run_spec(KTH, policy="easy"), "decides for policy external, not easy"),
        (_inproc.run_spec(KTH, command="true"), "neither option command nor fds"),
        (_inproc.run_spec("no-such.swf"), "no-such.swf"),
        (_inproc.run_spec(KTH, tau=-1, procs=-1), "--procs -1: want 1..4194304(.|\\n)*--tau must be a positive number"),
    ]:
        sim = _inproc.Sim(args)
        with pytest.raises(schedlab.SchedlabError, match=want):
            sim.step()


def test_other_thread_is_refused_and_close_midway():
    sim = _inproc.Sim(_inproc.run_spec(KTH))
    assert sim.step()
    errors = []

    def other():
        try:
            sim.step()
        except schedlab.SchedlabError as e:
            errors.append(str(e))

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert errors and "thread that opened it" in errors[0]
    sim2 = _inproc.Sim(_inproc.run_spec(KTH))
    assert sim2.step()
    sim2.close()  # midway: the run is abandoned
    sim2.close()
    with pytest.raises(schedlab.SchedlabError, match="has ended"):
        sim2.step()


def test_queue_buffers_grow():
    # A queue longer than the first buffers (256): a policy that starts
    # one job per instant lets it grow; the arrays follow.
    sim = _inproc.Sim(_inproc.run_spec(KTH))
    longest, ids = 0, []
    while sim.step(ids):
        if sim.flags & _inproc.ENDS:
            ids = []
            continue
        qid, qres, qwt, qsub = sim.queue()
        assert len(qid) == sim.queued and np.all(np.diff(qsub) >= 0)
        longest = max(longest, len(qid))
        ids = [int(qid[0])] if qres[0] <= sim.free()[0] else []
    assert longest > 256


def test_queue_rows_capped(tmp_path):
    # queue=N copies the first N rows of the queue at each instant,
    # queued still counting them all; queue_rows(n) copies more of the
    # current instant's: the same rows as an uncapped Sim's.
    args = _inproc.run_spec(KTH, view="free")
    full, capped = _inproc.Sim(args), _inproc.Sim(args, queue=2)
    ids, longest = [], 0
    while full.step(ids):
        assert capped.step(ids) and capped.queued == full.queued and capped.now == full.now
        rows = capped.queue()
        assert len(rows[0]) == min(full.queued, 2)
        for a, b in zip(rows, full.queue()):
            assert np.array_equal(a, b[:2])
        if full.queued > longest and full.queued > 10:
            longest = full.queued
            for a, b in zip(capped.queue_rows(full.queued), full.queue()):
                assert np.array_equal(a, b)
        ids = [] if full.flags & _inproc.ENDS else fcfs(full)
    assert not capped.step(ids) and longest > 10


def test_gym_steps_refusals_and_errors():
    # The Gymnasium environment's calls (sl_gym_start, sl_gym_step): only
    # on a run not stepped yet; such a run refuses step(); another thread
    # is refused (the run goes on); after the end, a step raises.
    args = _inproc.run_spec(KTH, view="free")
    jargs = dict(json=True)
    sim = _inproc.Sim(args, queue=False, **jargs)
    assert sim.step()
    with pytest.raises(schedlab.SchedlabError, match="already stepped"):
        sim.gym_start(4, 86400.0, 256.0)

    sim = _inproc.Sim(args, queue=False, **jargs)
    assert sim.gym_start(4, 86400.0, 256.0)
    assert sim.gym_mask.any() and sim.gym_obs[0] == 1.0 and sim.gym.now > 0
    with pytest.raises(schedlab.SchedlabError, match="sl_step on a run driven by sl_gym_step"):
        sim.step()

    sim = _inproc.Sim(args, queue=False, **jargs)
    assert sim.gym_start(4, 86400.0, 256.0)
    errors = []

    def other():
        try:
            sim.gym_step(0)
        except schedlab.SchedlabError as e:
            errors.append(str(e))

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert errors and "thread that opened it" in errors[0]
    assert sim.gym_step(0)  # the refused call did nothing

    # a whole run, always the first legal slot: one step per job
    sim = _inproc.Sim(args, queue=False, **jargs)
    assert sim.gym_start(4, 86400.0, 256.0)
    steps = 1
    while sim.gym_step(-1):
        assert sim.gym.replaced == 1
        steps += 1
    assert steps == 27992 and json.loads(sim.stdout)["jobs"] == 27992
    with pytest.raises(schedlab.SchedlabError, match="has ended"):
        sim.gym_step(0)


def run_child(code, timeout=120):
    """Runs code in a fresh interpreter (this package importable); its
    exit status and output. A crash of the library (SIGABRT) or a hang
    fails the caller's test, not this interpreter."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    pkg = str(Path(_inproc.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=pkg + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.setdefault("SCHEDLAB_LIB", str(_inproc.library().path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env)
    return r.returncode, r.stdout + r.stderr


STALE = f"""
import ctypes
import schedlab
from schedlab import _inproc

args = _inproc.run_spec("{KTH}")
lib = _inproc.library()

def refused(what, f):
    try:
        f()
    except schedlab.SchedlabError as e:
        print(what, "raised:", e)
    else:
        print(what, "did not raise")

# machines() after the run ended
sim = _inproc.Sim(_inproc.run_spec("{KTH}", view="free"), queue=1)
ids = []
while sim.step(ids):
    qid, qres, _, _ = sim.queue()
    ids = [int(qid[0])] if not sim.flags & _inproc.ENDS and sim.queued and qres[0] <= sim.free()[0] else []
refused("machines after the end", sim.machines)
# queue_rows() after close()
sim = _inproc.Sim(args, queue=2)
assert sim.step()
sim.close()
refused("queue_rows after close", lambda: sim.queue_rows(10))
refused("gym_start after close", lambda: sim.gym_start(4, 1.0, 1.0))
# the C functions on a handle closed (sl_close twice), and on 0
err = ctypes.c_void_p()
h = lib.sl_open(__import__("json").dumps(dict(spec=args)).encode(), ctypes.byref(err))
lib.sl_close(h)
lib.sl_close(h)
v = _inproc.View()
print("sl_step", lib.sl_step(h, 0, None, None, None, 0.0, ctypes.byref(v), ctypes.byref(err)), _inproc._take(lib, err))
print("sl_fill", lib.sl_fill(h, ctypes.byref(v)))
print("sl_machines", lib.sl_machines(h, 0, None, None, None, None))
print("sl_stdout", lib.sl_stdout(h))
g = _inproc.Gym(window=1, time_scale=1.0, queue_scale=1.0)
print("sl_gym_start", lib.sl_gym_start(h, ctypes.byref(g)), _inproc._take(lib, g.err))
print("sl_gym_step", lib.sl_gym_step(ctypes.c_size_t(h), 0))
print("sl_gym_step 0", lib.sl_gym_step(ctypes.c_size_t(0), 0))
lib.sl_close(0)
h = lib.sl_open(__import__("json").dumps(dict(spec=args)).encode(), ctypes.byref(err))
print("sl_gym_start NULL", lib.sl_gym_start(h, None))
lib.sl_close(h)
print("done")
"""


def test_stale_handles_raise_instead_of_aborting():
    # A closed or ended Sim, and the C functions on a handle already
    # closed: clear errors, never "misuse of an invalid Handle" (SIGABRT).
    rc, out = run_child(STALE)
    assert rc == 0 and "done" in out, out
    assert "machines after the end raised: the simulation has ended" in out
    assert "queue_rows after close raised: the simulation has ended" in out
    assert "gym_start after close raised: the simulation has ended" in out
    assert "sl_step -1 schedlab: no such simulation (closed, or never opened)" in out
    assert "sl_fill -1" in out and "sl_machines -1" in out and "sl_stdout None" in out
    assert "sl_gym_start -1 schedlab: no such simulation (closed, or never opened)" in out
    assert "sl_gym_step -4" in out and "sl_gym_step 0 -4" in out
    assert "sl_gym_start NULL -1" in out


def test_refused_other_thread_keeps_the_run():
    # A step() from another thread is refused and changes nothing: the
    # owner's run goes on to its end (for step and for gym_step).
    args = _inproc.run_spec(KTH, view="free")
    jargs = dict(json=True)

    def other(f):
        errors = []

        def call():
            try:
                f()
            except schedlab.SchedlabError as e:
                errors.append(str(e))

        t = threading.Thread(target=call)
        t.start()
        t.join()
        assert errors and "thread that opened it" in errors[0]

    sim = _inproc.Sim(args, **jargs)
    assert sim.step()
    other(sim.step)
    other(lambda: sim.step([int(sim.queue()[0][0])]))
    assert not sim.ended
    ids = []
    while sim.step(ids):
        ids = [] if sim.flags & _inproc.ENDS else fcfs(sim)
    assert json.loads(sim.stdout)["jobs"] == 27992

    sim = _inproc.Sim(args, queue=False, **jargs)
    other(lambda: sim.gym_start(4, 86400.0, 256.0))
    assert sim.gym_start(4, 86400.0, 256.0)
    other(lambda: sim.gym_step(0))
    assert not sim.ended
    steps = 1
    while sim.gym_step(-1):
        steps += 1
    assert steps == 27992 and json.loads(sim.stdout)["jobs"] == 27992


FORKED = f"""
import os, sys
import schedlab
from schedlab import _inproc
from schedlab.gym import SchedulingEnv

assert _inproc.library() is not None
sim = _inproc.Sim(_inproc.run_spec("{KTH}"))
assert sim.step()
pid = os.fork()
if pid == 0:
    out = []
    try:
        _inproc.Sim(_inproc.run_spec("{KTH}"))
    except schedlab.SchedlabError as e:
        out.append("Sim: " + str(e))
    try:
        sim.step()
    except schedlab.SchedlabError as e:
        out.append("inherited: " + str(e))
    try:
        SchedulingEnv(episode_jobs=16, window=4, engine="inprocess")
    except schedlab.SchedlabError as e:
        out.append("inprocess: " + str(e))
    env = SchedulingEnv(episode_jobs=16, window=4)
    obs, info = env.reset(seed=1)
    out.append("auto: " + env.engine)
    env.close()
    del sim  # (its __del__ must not call into the library)
    print("\\n".join(out), flush=True)
    os._exit(0)
_, status = os.waitpid(pid, 0)
print("child status", status)
assert sim.step()  # the parent's run is unharmed
sim.close()
"""


def test_forked_child_gets_an_error_not_a_hang():
    # After os.fork, the library loaded before it cannot run in the child
    # (Go's runtime does not survive a fork): a clear error, and the
    # default engine falls back to the process one, instead of a hang.
    rc, out = run_child(FORKED, timeout=120)
    assert rc == 0, out
    assert "child status 0" in out
    assert out.count("was forked after the schedlab library was loaded") == 3, out
    assert "auto: process" in out
