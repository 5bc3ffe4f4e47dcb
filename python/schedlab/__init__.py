"""schedlab from Python: a thin front end on the Go engine.

    import schedlab
    r = schedlab.run(trace="KTH-SP2-1996-2.1-cln.swf.gz", policy="easy")
    r.jobs      # pandas DataFrame: jobs.csv, typed
    r.summary   # dict: summary.json

Runs, sweeps and Python policies all go through the schedlab command (the
same engine, validation and outputs); nothing is simulated in Python.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ._binary import SchedlabError, binary
from ._policy import Host, Job, Machine, Node, NodeUse, Policy, Reject, Request, Running, Start, View

__all__ = [
    "run",
    "sweep",
    "Result",
    "SweepResult",
    "Policy",
    "View",
    "Job",
    "Running",
    "Machine",
    "Node",
    "NodeUse",
    "Request",
    "Reject",
    "Start",
    "SchedlabError",
    "binary",
    "read_jobs",
    "JOBS_DTYPES",
]

# jobs.csv columns and their dtypes (empty cells, e.g. an unknown
# requested_time or the stretch of a zero-length job, are NaN).
JOBS_DTYPES = {
    "job_id": "int64",
    "submission_time": "float64",
    "requested_number_of_resources": "int64",
    "requested_time": "float64",
    "starting_time": "float64",
    "execution_time": "float64",
    "finish_time": "float64",
    "waiting_time": "float64",
    "turnaround_time": "float64",
    "stretch": "float64",
    "allocated_resources": "string",
    "final_state": "string",
    "start_reason": "string",
    # Batsim's remaining columns (same meaning as Batsim's): workload_name
    # "w0", profile "delay", success 1 or 0, consumed_energy -1, metadata
    # empty (NaN); then the trace's user, group and partition numbers
    # (NaN when unknown, hence float64).
    "workload_name": "string",
    "profile": "string",
    "success": "int64",
    "consumed_energy": "float64",
    "metadata": "string",
    "user": "float64",
    "group": "float64",
    "partition": "float64",
}


# The columns of a run on a platform of nodes (docs/nodes.md), after
# allocated_resources: the job's nodes as a hostlist ("gpu[1-2]") and its
# GRES units ("gpu:a100=0-3;nvme=0", empty when none).
NODE_COLUMNS = {"allocated_nodes": "string", "allocated_gres": "string"}


def read_jobs(path) -> pd.DataFrame:
    """Reads a jobs.csv with the dtypes of JOBS_DTYPES and, on nodes,
    NODE_COLUMNS (other extra columns, as the hetero model's machine
    columns, are read as pandas infers them)."""
    strings = {k: v for k, v in JOBS_DTYPES.items() if v == "string"} | NODE_COLUMNS
    df = pd.read_csv(path, dtype=strings, keep_default_na=False, na_values=[""])
    for col, dt in JOBS_DTYPES.items():
        if col in df.columns and dt != "string":
            df[col] = df[col].astype(dt)
    return df


@dataclass
class Result:
    """A finished run: jobs (jobs.csv as a DataFrame), summary
    (summary.json as a dict), out (the output folder), stdout (the
    printed summary)."""

    jobs: pd.DataFrame
    summary: dict
    out: Path
    stdout: str


@dataclass
class SweepResult:
    """A finished sweep: summary (summary.csv as a DataFrame), out (the
    results folder; None when it was a temporary one, removed), stdout."""

    summary: pd.DataFrame
    out: Path | None
    stdout: str


_RUN_FLAGS = {
    "power",
    "estimate",
    "procs",
    "on_overrun",
    "clamp",
    "tau",
    "deadline",
    "deadline_factor",
    "deadline_fraction",
    "seed",
    "check",
    "swf",
    "predictor",
    "correction",
    "resample",
    "replication",
    "from",  # the time window (run --from, --to): schedlab.run(..., **{"from": ..., "to": ...})
    "to",
}


def _run_args(kwargs) -> list[str]:
    args = []
    for k, v in kwargs.items():
        if k == "nodes":  # node groups, each a --nodes flag (docs/nodes.md)
            for g in [v] if isinstance(v, str) else v:
                args += ["--nodes", str(g)]
        elif k in _RUN_FLAGS:
            flag = "--" + k.replace("_", "-")
            if isinstance(v, bool):
                if v:
                    args.append(flag)
            else:
                args += [flag, str(v)]
        else:  # a policy option, by its declared name ('schedlab policies')
            if isinstance(v, bool):
                v = "true" if v else "false"
            args += ["--set", f"{k}={v}"]
    return args


def _fail(cmd, rc, err) -> SchedlabError:
    return SchedlabError(f"schedlab exited with status {rc}: {err.strip()}\n(command: {' '.join(map(str, cmd))})")


# The prefixes of the temporary folders the package makes (in
# tempfile.gettempdir()): each is removed by the call that made it, unless
# the caller asks to keep it (keep=True); the tests check that none
# remains after the suite.
TEMP_PREFIXES = ("schedlab-run-", "schedlab-sweep-", "schedlab-gym-")


def _temp_out(out, keep, prefix):
    """(output folder, temporary folder to remove or None): `out` as
    given, else `out` inside a new temporary folder, removed by the
    caller after reading unless keep."""
    if out is not None:
        return Path(out), None
    tmp = tempfile.mkdtemp(prefix=prefix)
    return Path(tmp) / "out", (None if keep else tmp)


def run(trace, policy="easy", out=None, timeout=None, engine="auto", keep=False, **options) -> Result:
    """Simulates an SWF trace (a path, or the bare name of an embedded
    trace such as "KTH-SP2-1996-2.1-cln.swf.gz") under `policy`: a
    registered policy's name ('schedlab policies') or a `schedlab.Policy`
    instance, which then decides in this process over the external-policy
    protocol.

    Keyword options: the run flags estimate, procs, on_overrun, clamp,
    tau, deadline, deadline_factor, deadline_fraction, seed, check, swf,
    predictor, correction (estimate="predict"), resample, replication,
    nodes (a platform of nodes: a node group "NAMES:cores=N[:...]" or a
    list of them, as run --nodes; docs/nodes.md; jobs.csv then has
    allocated_nodes and the summary a "nodes" section),
    from and to (a time window, as run --from and --to; `from` is a
    Python keyword: pass them as **{"from": ..., "to": ...}, as
    schedlab.benchmarks.split gives them);
    any other keyword is a policy option (e.g. order="sjf", depth=4).
    `out` is the output folder. Without it the run writes to a new
    temporary folder, reads jobs.csv and summary.json from it and removes
    it (Result.out is then None), unless keep=True, which keeps it
    (Result.out names it; removing it is then the caller's job).
    `timeout` (seconds) bounds each decision of a Python policy run over
    the protocol (default 30, as the external policy's option timeout).
    `engine` says where a Python policy's run happens: "inprocess" (the
    engine as a shared library in this process: no second process, no
    JSON), "process" (schedlab run --policy external over two pipes), or
    "auto" (in process when the library is available, with no timeout
    given), on a pool of CPUs and on a platform of nodes alike. Both give
    the same schedule."""
    if engine not in ("auto", "inprocess", "process"):
        raise ValueError(f'engine must be "auto", "inprocess" or "process", not {engine!r}')
    out, tmp = _temp_out(out, keep, "schedlab-run-")
    try:
        return _run(trace, policy, out, tmp is not None, timeout, engine, options)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def _run(trace, policy, out, temporary, timeout, engine, options) -> Result:
    if isinstance(policy, Policy):
        from . import _inproc

        inproc = engine == "inprocess" or (engine == "auto" and timeout is None and _inproc.library() is not None)
        if inproc:
            stdout = _run_inprocess(trace, policy, out, options)
        else:
            stdout = _run_python(trace, policy, out, timeout, options)
    else:
        if timeout is not None:
            options["timeout"] = timeout
        cmd = [binary(), "run", "--trace", str(trace), "--policy", str(policy), "--out", str(out), *_run_args(options)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise _fail(cmd, r.returncode, r.stderr)
        stdout = r.stdout
    with open(out / "summary.json") as f:
        summary = json.load(f)
    return Result(jobs=read_jobs(out / "jobs.csv"), summary=summary, out=None if temporary else out, stdout=stdout)


def start_external(trace, out, timeout=None, options=None, view="free", extra=()):
    """Starts `schedlab run --policy external` on two pipes of this process
    (option fds). Returns (process, requests file, reply fd, log files).
    The caller runs the protocol (a Host), then calls finish_external."""
    req_r, req_w = os.pipe()  # schedlab writes requests
    rep_r, rep_w = os.pipe()  # schedlab reads replies
    # schedlab's ends non-blocking: its per-reply timeout then applies
    os.set_blocking(req_w, False)
    os.set_blocking(rep_r, False)
    opts = dict(options or {})
    opts["fds"] = f"{rep_r},{req_w}"
    opts["view"] = view
    if timeout is not None:
        opts["timeout"] = timeout
    cmd = [
        binary(),
        "run",
        "--trace",
        str(trace),
        "--policy",
        "external",
        *(["--out", str(out)] if out else ["--no-out"]),
        *_run_args(opts),
        *extra,
    ]
    logs = tempfile.TemporaryFile(mode="w+"), tempfile.TemporaryFile(mode="w+")
    try:
        proc = subprocess.Popen(cmd, pass_fds=(req_w, rep_r), stdout=logs[0], stderr=logs[1], stdin=subprocess.DEVNULL)
    finally:
        os.close(req_w)
        os.close(rep_r)
    return proc, cmd, os.fdopen(req_r, "rb", buffering=1 << 16), rep_w, logs


def finish_external(proc, cmd, requests, rep_w, logs, error=None) -> str:
    """Closes this side's pipes, waits for schedlab and returns its
    standard output; raises SchedlabError (or `error`, the policy's own
    exception, chained) if the run failed."""
    try:
        requests.close()
    except OSError:
        pass
    try:
        os.close(rep_w)
    except OSError:
        pass
    if error is None:
        rc = proc.wait()
    else:
        try:
            # with this side's pipes closed, schedlab fails cleanly
            # (removing its unfinished output)
            rc = proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
    logs[0].seek(0)
    logs[1].seek(0)
    stdout, stderr = logs[0].read(), logs[1].read()
    logs[0].close()
    logs[1].close()
    if error is not None:
        raise error
    if rc != 0:
        raise _fail(cmd, rc, stderr)
    return stdout


def _run_python(trace, policy: Policy, out, timeout, options) -> str:
    proc, cmd, requests, rep_w, logs = start_external(trace, out, timeout, options, view="free")
    host = Host(policy, requests, rep_w)
    try:
        while host.step():
            pass
    except BrokenPipeError:
        pass  # schedlab stopped (its message says why)
    except BaseException as e:  # the policy failed: schedlab must stop too
        finish_external(proc, cmd, requests, rep_w, logs, error=e)
    return finish_external(proc, cmd, requests, rep_w, logs)


def _run_inprocess(trace, policy: Policy, out, options) -> str:
    from . import _inproc
    from ._policy import InprocHost

    opts = dict(options)
    opts["view"] = "free"
    sim = _inproc.Sim(_inproc.run_spec(trace, out=out, **opts), events=True, queue=False)
    host = InprocHost(policy, sim)
    try:
        while host.step():
            pass
    except BaseException:
        sim.close()  # an unfinished run writes nothing
        raise
    return sim.stdout or ""


def sweep(scenario, out=None, workers=None, keep=False, **flags) -> SweepResult:
    """Runs a scenario file (docs/scenarios.md) with `schedlab sweep`;
    returns summary.csv as a DataFrame. Without `out` the sweep writes to
    a new temporary folder, removed once summary.csv is read
    (SweepResult.out is then None) unless keep=True; other keywords are
    sweep flags (records=True, ...)."""
    out, tmp = _temp_out(out, keep, "schedlab-sweep-")
    try:
        return _sweep(scenario, out, tmp is not None, workers, flags)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def _sweep(scenario, out, temporary, workers, flags) -> SweepResult:
    cmd = [binary(), "sweep", str(scenario), "--out", str(out)]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    for k, v in flags.items():
        flag = "--" + k.replace("_", "-")
        if isinstance(v, bool):
            if v:
                cmd.append(flag)
        else:
            cmd += [flag, str(v)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise _fail(cmd, r.returncode, r.stderr)
    return SweepResult(summary=pd.read_csv(out / "summary.csv"), out=None if temporary else out, stdout=r.stdout)
