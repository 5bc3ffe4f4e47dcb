"""The engine in this process: schedlab's shared library (Go,
cmd/libschedlab in the repository) through ctypes.

A `Sim` is one `schedlab run --policy external`, given as a run spec
(`run_spec`: the JSON form of the engine's typed run, no command line),
whose decisions this process makes one instant at a time, without a second process or a
protocol: `step(decision)` hands the decision to the engine and returns
at the next instant at which a job could start, with that instant's view
in numpy arrays. The run is the command's own (same checks, engine,
validation, outputs and messages); an illegal decision raises
SchedlabError.

The library is found, in this order: $SCHEDLAB_LIB (a path to it);
built from the source tree with `go build -buildmode=c-shared` (as the
binary is, see _binary.py; needs cgo: a C compiler); the copy installed
with the package (`pip install ./python` builds it when it can);
`libschedlab.so` beside $SCHEDLAB_BIN. `library()` returns None when
there is none, and `why_not()` says why.

A process forked after the library was loaded cannot use it (Go's
runtime, its threads, do not survive a fork: a call into it would never
return): there `library()` returns None, `why_not()` says so, and every
Sim raises SchedlabError, so that the environment and schedlab.run fall
back to the engine as a second process (engine="auto").
"""

from __future__ import annotations

import ctypes
import hashlib
import json as _json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np

from ._binary import SchedlabError, _repo_root
from ._policy import job_id

BEGINS, CALL, ENDS = 1, 2, 4
# the statuses of sl_step, sl_gym_start and sl_gym_step besides 1 and 0:
# failed (the run is over), not started by sl_gym_start, refused (the
# call did nothing; the run goes on), no such handle
FAILED, NOT_GYM, REFUSED, NO_SIM = -1, -2, -3, -4
JOB_FIELDS = 10  # id, subtime, res, walltime, user, group, mem, speed, bm_est, deadline

LIBNAME = "libschedlab.dylib" if sys.platform == "darwin" else "libschedlab.so"

_i64p = ctypes.POINTER(ctypes.c_int64)
_f64p = ctypes.POINTER(ctypes.c_double)


class View(ctypes.Structure):
    """sl_view of cmd/libschedlab: counts out, the caller's buffers in."""

    _fields_ = [
        ("now", ctypes.c_double),
        ("flags", ctypes.c_int64),
        ("running", ctypes.c_int64),
        ("queued", ctypes.c_int64),
        ("submitted", ctypes.c_int64),
        ("completed", ctypes.c_int64),
        ("machines", ctypes.c_int64),
        ("cap_machines", ctypes.c_int64),
        ("free", _i64p),
        ("cap_queue", ctypes.c_int64),
        ("queue_id", _i64p),
        ("queue_res", _i64p),
        ("queue_walltime", _f64p),
        ("queue_subtime", _f64p),
        ("cap_submitted", ctypes.c_int64),
        ("submitted_jobs", _f64p),
        ("cap_completed", ctypes.c_int64),
        ("completed_id", _i64p),
    ]


class Gym(ctypes.Structure):
    """sl_gym of cmd/libschedlab: the Gymnasium environment's shape,
    scales and buffers in, the instant's time and whether the action was
    replaced out."""

    _fields_ = [
        ("window", ctypes.c_int64),
        ("time_scale", ctypes.c_double),
        ("queue_scale", ctypes.c_double),
        ("obs", ctypes.c_void_p),
        ("mask", ctypes.c_void_p),
        ("now", ctypes.c_double),
        ("replaced", ctypes.c_int64),
        ("err", ctypes.c_void_p),
        ("features", ctypes.c_char_p),  # names, comma-separated; None: the default
    ]


GYM_FEATURES, GYM_MACHINE_FEATURES = 5, 3

_lib = None
_why = None
_lock = threading.Lock()
_lib_pid = None  # the process that loaded _lib
_forked = False  # this process was forked after _lib was loaded


def _after_fork_in_child():
    global _forked
    if _lib is not None:
        _forked = True


os.register_at_fork(after_in_child=_after_fork_in_child)


def _fork_why() -> str:
    return (
        f"this process (pid {os.getpid()}) was forked after the schedlab library was loaded (in pid {_lib_pid}): "
        "Go's runtime does not survive a fork, so the in-process engine cannot run here; start the worker processes "
        'with the "spawn" or "forkserver" method (multiprocessing, or '
        'gymnasium\'s AsyncVectorEnv(..., context="spawn")), '
        'or use engine="process"'
    )


def _in_forked_child() -> bool:
    global _forked
    if _lib is not None and not _forked and os.getpid() != _lib_pid:
        _forked = True  # (a fork that ran no at-fork hooks)
    return _forked


def _build_from_tree():
    """Builds the library from the source tree into the cache; None with
    _why set when it cannot."""
    global _why
    root = _repo_root()
    go = shutil.which("go")
    if root is None or go is None or not (Path(root) / "go.mod").is_file():
        _why = "no source tree with Go to build it from"
        return None
    cgo = subprocess.run([go, "env", "CGO_ENABLED"], cwd=root, capture_output=True, text=True)
    if cgo.stdout.strip() != "1":
        _why = "cgo is off (no C compiler found by Go: install gcc, or set CC)"
        return None
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "schedlab"
    cache.mkdir(parents=True, exist_ok=True)
    out = cache / f"libschedlab-{hashlib.sha256(str(root).encode()).hexdigest()[:12]}{Path(LIBNAME).suffix}"
    r = subprocess.run(
        [go, "build", "-buildmode=c-shared", "-o", str(out), "./cmd/libschedlab"], cwd=root, capture_output=True, text=True
    )
    if r.returncode != 0:
        _why = f"go build -buildmode=c-shared ./cmd/libschedlab in {root} failed:\n{r.stderr}"
        return None
    return out


def _find():
    global _why
    env = os.environ.get("SCHEDLAB_LIB")
    if env:
        if not Path(env).is_file():
            raise SchedlabError(f"$SCHEDLAB_LIB={env} is not a file")
        return Path(env)
    built = _build_from_tree()
    if built is not None:
        return built
    packaged = Path(__file__).resolve().parent / LIBNAME
    if packaged.is_file():
        return packaged
    binenv = os.environ.get("SCHEDLAB_BIN")
    if binenv and (Path(binenv).parent / LIBNAME).is_file():
        return Path(binenv).parent / LIBNAME
    _why = (_why or "not found") + f"; and no {LIBNAME} installed with the package (pip install ./python builds it when Go has cgo)"
    return None


def library():
    """The loaded library, or None (why_not() says why)."""
    global _lib, _why, _lib_pid
    if _in_forked_child():
        return None
    with _lock:
        if _lib is not None or _why is not None:
            return _lib
        path = _find()
        if path is None:
            return None
        try:
            lib = ctypes.CDLL(str(path))
        except OSError as e:
            _why = f"cannot load {path}: {e}"
            return None
        lib.sl_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.sl_open.restype = ctypes.c_size_t
        lib.sl_step.argtypes = [
            ctypes.c_size_t,
            ctypes.c_int64,
            _i64p,
            _i64p,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_double,
            ctypes.POINTER(View),
            ctypes.POINTER(ctypes.c_void_p),
        ]
        lib.sl_step.restype = ctypes.c_int
        lib.sl_step_nodes.argtypes = [
            ctypes.c_size_t,
            ctypes.c_int64,
            _i64p,
            _i64p,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_double,
            ctypes.POINTER(View),
            ctypes.POINTER(ctypes.c_void_p),
        ]
        lib.sl_step_nodes.restype = ctypes.c_int
        lib.sl_nodes_view.argtypes = [ctypes.c_size_t]
        lib.sl_nodes_view.restype = ctypes.c_void_p
        lib.sl_gym_start.argtypes = [ctypes.c_size_t, ctypes.POINTER(Gym)]
        lib.sl_gym_start.restype = ctypes.c_int
        # sl_gym_step(handle, action) is called without argtypes, with a
        # c_size_t and a Python int (a C int): ctypes then passes them as
        # they are, where argtypes would convert each one through
        # from_param, a large part of the call's cost.
        lib.sl_gym_step.restype = ctypes.c_int
        # sl_gym_vstep(n, handles, actions, status, replaced, now, wait):
        # called without argtypes too, with ctypes objects made once
        lib.sl_gym_vstep.restype = ctypes.c_int64
        lib.sl_gym_vstart.restype = ctypes.c_int64
        lib.sl_gym_features.argtypes = []
        lib.sl_gym_features.restype = ctypes.c_void_p
        lib.sl_gym_shape.argtypes = [ctypes.c_char_p]
        lib.sl_gym_shape.restype = ctypes.c_void_p
        lib.sl_fill.argtypes = [ctypes.c_size_t, ctypes.POINTER(View)]
        lib.sl_fill.restype = ctypes.c_int
        lib.sl_machines.argtypes = [ctypes.c_size_t, ctypes.c_int64, _i64p, _i64p, _f64p, _f64p]
        lib.sl_machines.restype = ctypes.c_int64
        lib.sl_stdout.argtypes = [ctypes.c_size_t]
        lib.sl_stdout.restype = ctypes.c_void_p
        lib.sl_close.argtypes = [ctypes.c_size_t]
        lib.sl_close.restype = None
        lib.sl_free.argtypes = [ctypes.c_void_p]
        lib.sl_free.restype = None
        lib.path = path
        _lib, _lib_pid = lib, os.getpid()
        return lib


_features = None


def gym_features() -> dict:
    """The library's declared observation features
    (cmd/libschedlab/gym): {"features": [{"name", "slot", "meaning",
    "scale"}, ...], "default": [names]}. SchedlabError without the
    library."""
    global _features
    if _features is None:
        lib = library()
        if lib is None:
            raise SchedlabError(f"the schedlab library is not available: {why_not()}")
        _features = _json.loads(_take(lib, lib.sl_gym_features()))
    return _features


def gym_layout(names):
    """(slot features, machine features) of names on a pool of CPUs, in
    the observation's order (the slot ones as given, then the machine's
    as given); ValueError for an unknown or repeated name, listing the
    known ones, and for a feature of a platform of nodes."""
    feats = gym_features()
    decl = {f["name"]: f for f in feats["features"]}
    more = [f["name"] for f in feats["node_features"]]
    slot, machine, seen = [], [], set()
    for n in names:
        if n in more:
            raise ValueError(f"observation feature {n!r} is for a platform of nodes (nodes=)")
        if n not in decl:
            raise ValueError(f"unknown observation feature {n!r} (known: {', '.join(decl)}); on a platform of nodes also: {', '.join(more)}")
        if n in seen:
            raise ValueError(f"observation feature {n!r} given twice")
        seen.add(n)
        (slot if decl[n]["slot"] else machine).append(n)
    return slot, machine


def gym_shape(nodes, features, window) -> dict:
    """The observation's layout (sl_gym_shape) for `window` slots on the
    node groups `nodes` (a list of "NAMES:cores=N[...]", as run --nodes;
    None or empty: a pool of CPUs) with the features named (None: the
    default there): {"size", "slot", "machine", "node" (the features'
    names in the observation's order), "slot_width", "node_width" (the
    numbers of one slot and of one node: a per-kind feature takes one
    number per GRES kind), "nodes" (the nodes' names, by id), "kinds"
    (the platform's GRES kinds, in the per-kind numbers' order)}.
    ValueError for a feature or node group that is not valid."""
    lib = library()
    if lib is None:
        raise SchedlabError(f"the schedlab library is not available: {why_not()}")
    q = {"nodes": [str(g) for g in (nodes or [])], "features": list(features or []), "window": int(window)}
    out = _json.loads(_take(lib, lib.sl_gym_shape(_json.dumps(q).encode())))
    if "error" in out:
        raise ValueError(out["error"].removeprefix("gym: ").removeprefix("schedlab: "))
    return out


def gym_start_many(sims):
    """sl_gym_vstart: starts the runs of sims (each after gym_prepare) in
    one call (the unbound ones on the library's goroutines); returns
    their gym_end, in order (a failure raises after all were taken)."""
    lib = library()
    n = len(sims)
    handles = (ctypes.c_size_t * n)(*[s._h for s in sims])
    gyms = (ctypes.c_void_p * n)(*[ctypes.addressof(s.gym) for s in sims])
    status = (ctypes.c_int32 * n)()
    lib.sl_gym_vstart(ctypes.c_int64(n), handles, gyms, status)
    out, err = [], None
    for s, st in zip(sims, status):
        try:
            out.append(s.gym_end(st))
        except SchedlabError as e:
            out.append(None)
            err = err or e
    if err is not None:
        raise err
    return out


def why_not() -> str | None:
    """Why there is no library (None when there is one)."""
    if library() is not None:
        return None
    return _fork_why() if _forked else _why


def _take(lib, p) -> str:
    """A string the library returned, freed."""
    try:
        return ctypes.string_at(p).decode()
    finally:
        lib.sl_free(p)


def run_spec(trace, out=None, policy="external", **options) -> dict:
    """The run spec (the JSON form of the Go engine's experiment.RunSpec)
    of `schedlab run --trace trace --policy policy` with `out` the output
    folder (None: no files) and `options` as schedlab.run takes them: the
    run flags estimate, procs, on_overrun, clamp, tau, deadline,
    deadline_factor, deadline_fraction, seed, check, swf, predictor,
    correction, resample, replication, from, to; any other keyword a policy
    option. Unset flags take the command's defaults."""
    o = dict(options)
    seed = int(o.pop("seed", 1))
    deadlines = {"rule": str(o.pop("deadline", "none")), "seed": seed}
    if "deadline_factor" in o:
        deadlines["factor"] = str(o.pop("deadline_factor"))
    if "deadline_fraction" in o:
        deadlines["fraction"] = float(o.pop("deadline_fraction"))
    workload = {
        "trace": str(trace),
        "seed": seed,
        "replication": int(o.pop("replication", 0)),
        "estimate": str(o.pop("estimate", "request")),
        "deadlines": deadlines,
    }
    if "resample" in o:
        workload["resample"] = str(o.pop("resample"))
    for k in ("from", "to"):  # the time window, as run --from and --to
        if k in o:
            workload[k] = str(o.pop(k))
    platform = {
        "procs": int(o.pop("procs", 0)),
        "clamp": bool(o.pop("clamp", False)),
        "continue": str(o.pop("on_overrun", "kill")) == "continue",
    }
    if "power" in o:  # the power model, as run --power (docs/energy.md)
        platform["power"] = str(o.pop("power"))
    if "nodes" in o:  # node groups, as run --nodes (docs/nodes.md)
        v = o.pop("nodes")
        platform["nodes"] = [str(g) for g in ([v] if isinstance(v, str) else v)]
    pol = {"name": str(policy)}
    for k in ("predictor", "correction"):
        if k in o:
            pol[k] = str(o.pop(k))
    outputs = {"dir": "" if out is None else str(out), "tau": float(o.pop("tau", 10))}
    for k in ("check", "swf"):
        outputs[k] = bool(o.pop(k, False))
    pol["options"] = {k: ("true" if v else "false") if isinstance(v, bool) else str(v) for k, v in o.items()}
    return {"workload": workload, "platform": platform, "policy": pol, "outputs": outputs}


class Sim:
    """One run in this process. spec: a run spec (run_spec(...)) whose
    policy is external; with json=True the run prints its summary as JSON
    (stdout), else the table `schedlab run` prints. After each step()
    that returns True, the instant's view is in: now, flags, running,
    free (per machine), and the queue in order: queue_id, queue_res,
    queue_walltime (the estimate), queue_subtime (numpy views of length
    queued, valid until the next step; with queue=False they are not
    copied; with queue=N, an int, only the first N rows are copied at
    each instant, `queued` still counting them all, and queue_rows(n)
    copies more of the current instant's); with events=True also
    submitted (rows of JOB_FIELDS) and completed (ids). Drive a Sim from
    the thread that created it: a call from another thread raises
    SchedlabError and does nothing (the run goes on). Once the run has
    ended (or after close()), a call that would reach the library
    (step, gym_step, gym_start, queue_rows, machines) raises
    SchedlabError("the simulation has ended")."""

    def __init__(self, spec, events=False, queue=True, json=False, unbound=False):
        self._h = 0
        lib = library()
        if lib is None:
            raise SchedlabError(f"the schedlab library is not available: {why_not()}")
        self._lib = lib
        err = ctypes.c_void_p()
        # unbound: the run's coroutine on a goroutine of its own, so that
        # sl_gym_vstep may step it on a worker goroutine (cmd/libschedlab)
        opts = {"spec": spec, "json": bool(json)}
        if unbound:
            opts["unbound"] = True
        # the node groups, on a platform of nodes (the observation's size depends on them)
        self._nodes = list(spec.get("platform", {}).get("nodes") or [])
        self._h = lib.sl_open(_json.dumps(opts).encode(), ctypes.byref(err))
        if not self._h:
            raise SchedlabError(_take(lib, err))
        self._err, self._errp = err, ctypes.byref(err)
        self._events = events
        self._v = View()
        self._vp = ctypes.byref(self._v)
        # _queue: rows to copy at most (None: all)
        if queue is True:
            self._queue, rows = None, 256
        elif queue is False:
            self._queue, rows = 0, 0
        else:
            if int(queue) < 1:
                raise ValueError(f"queue={queue!r}: want True, False or a number of rows >= 1")
            self._queue = rows = int(queue)
        self._widened = False
        self._qid = self._qres = np.zeros(0, dtype=np.int64)
        self._qwt = self._qsub = np.zeros(0, dtype=np.float64)
        self._grow(machines=1, queue=rows, submitted=64 if events else 0, completed=64 if events else 0)
        self._empty = (ctypes.c_int64 * 1)()
        self.ended = False
        self.stdout = None

    def _grow(self, machines, queue, submitted, completed):
        v = self._v
        if machines > v.cap_machines:
            self._free = np.zeros(machines, dtype=np.int64)
            v.cap_machines, v.free = machines, self._free.ctypes.data_as(_i64p)
        if queue > v.cap_queue:
            self._qid = np.zeros(queue, dtype=np.int64)
            self._qres = np.zeros(queue, dtype=np.int64)
            self._qwt = np.zeros(queue, dtype=np.float64)
            self._qsub = np.zeros(queue, dtype=np.float64)
            v.cap_queue = queue
            v.queue_id, v.queue_res = self._qid.ctypes.data_as(_i64p), self._qres.ctypes.data_as(_i64p)
            v.queue_walltime, v.queue_subtime = self._qwt.ctypes.data_as(_f64p), self._qsub.ctypes.data_as(_f64p)
        if submitted > v.cap_submitted:
            self._sub = np.zeros((submitted, JOB_FIELDS), dtype=np.float64)
            v.cap_submitted, v.submitted_jobs = submitted, self._sub.ctypes.data_as(_f64p)
        if completed > v.cap_completed:
            self._comp = np.zeros(completed, dtype=np.int64)
            v.cap_completed, v.completed_id = completed, self._comp.ctypes.data_as(_i64p)

    def step(self, ids=(), machines=None, allocs=None, wake=0.0, nodes=None) -> bool:
        """Gives the decision for the current instant (job ids to start;
        optionally their machines and CPU sets as Batsim's interval text;
        on a platform of nodes, nodes: for each start None (the engine's
        selection rule places it) or the nodes it takes as the JSON text
        of the protocol's EXECUTE_JOB "nodes" list) and runs to the next
        instant: True there, False at the end of the run (stdout then
        holds what the run printed). Raises SchedlabError if the run
        failed."""
        self._check()
        lib, n = self._lib, len(ids)
        if n:
            ids = [job_id(x) for x in ids]  # refuses 2.9 and True (ctypes would take True as 1)
            for x in ids:
                if not -(2**63) <= x < 2**63:
                    # ctypes would wrap it silently into another id
                    raise ValueError(f"job id {x} is not a 64-bit integer (the decision names no such job)")
            if machines is not None:
                machines = [job_id(m, "machine") for m in machines]
            idv = (ctypes.c_int64 * n)(*ids)
            mv = (ctypes.c_int64 * n)(*machines) if machines is not None else None
            av = (ctypes.c_char_p * n)(*[a.encode() if a else None for a in allocs]) if allocs is not None else None
            nv = (ctypes.c_char_p * n)(*[u.encode() if u is not None else None for u in nodes]) if nodes is not None else None
        else:
            idv, mv, av, nv = self._empty, None, None, None
        if self._widened:  # (back to the cap after queue_rows)
            self._v.cap_queue, self._widened = self._queue, False
        if nv is None:
            st = lib.sl_step(self._h, n, idv, mv, av, wake, self._vp, self._errp)
        else:
            st = lib.sl_step_nodes(self._h, n, idv, mv, av, nv, wake, self._vp, self._errp)
        if st == REFUSED:  # nothing was done: the run goes on
            raise SchedlabError(_take(lib, self._err))
        if st < 0:
            self.ended = True
            msg = _take(lib, self._err)
            self._close()
            raise SchedlabError(msg)
        if st == 0:
            self.ended = True
            self.stdout = _take(lib, lib.sl_stdout(self._h))
            self._close()
            return False
        v = self._v
        if v.machines > v.cap_machines or (self._queue is None and v.queued > v.cap_queue) or (
            self._events and (v.submitted > v.cap_submitted or v.completed > v.cap_completed)
        ):
            self._grow(
                max(v.machines, v.cap_machines),
                max(2 * v.queued, v.cap_queue) if self._queue is None else 0,
                max(2 * v.submitted, v.cap_submitted) if self._events else 0,
                max(2 * v.completed, v.cap_completed) if self._events else 0,
            )
            lib.sl_fill(self._h, self._vp)
        return True

    # the view of the current instant
    @property
    def now(self) -> float:
        return self._v.now

    @property
    def flags(self) -> int:
        return self._v.flags

    @property
    def running(self) -> int:
        return self._v.running

    @property
    def queued(self) -> int:
        return self._v.queued

    def free(self):
        return self._free[: self._v.machines]

    def queue(self):
        """(id, res, walltime, subtime) arrays of the waiting jobs (the
        first ones only, when the rows copied are capped: queued counts
        them all)."""
        n = min(self._v.queued, self._v.cap_queue)
        return self._qid[:n], self._qres[:n], self._qwt[:n], self._qsub[:n]

    def queue_rows(self, n):
        """Copies at least the first n rows of the current instant's
        queue (all of them when fewer), for a Sim whose rows are capped;
        returns queue()."""
        self._check()
        v = self._v
        if n > v.cap_queue and v.queued > v.cap_queue:
            rows = max(n, 2 * v.cap_queue)
            if rows > len(self._qid):
                self._grow(v.machines, rows, 0, 0)
            v.cap_queue, self._widened = rows, True
            self._lib.sl_fill(self._h, self._vp)
        return self.queue()

    # the Gymnasium environment's steps (cmd/libschedlab/gym)

    def gym_start(self, window, time_scale, queue_scale, features=None, obs=None, mask=None) -> bool:
        """Makes this run (not stepped yet) a Gymnasium episode whose
        observation and action mask the library builds: it runs to the
        first instant at which some job of the window fits. True
        there, with gym_obs (float32, window * GYM_FEATURES +
        GYM_MACHINE_FEATURES with the default features, else the size
        of gym_layout(features); on a platform of nodes, the size
        gym_shape gives), gym_mask (int8, window) and gym.now
        filled; False at the end of the run. From then on the run is
        stepped with gym_step only. features: names of gym_features()
        (None: the default); obs, mask: the buffers to fill (contiguous
        float32 and int8 numpy arrays of those sizes, kept by the caller
        until the run ends), else new ones."""
        self.gym_prepare(window, time_scale, queue_scale, features, obs, mask)
        return self._gym_status(self._lib.sl_gym_start(self._h, ctypes.byref(self.gym)))

    def gym_prepare(self, window, time_scale, queue_scale, features=None, obs=None, mask=None):
        """gym_start's sl_gym and buffers, without the call: for
        sl_gym_vstart (start_many), then gym_end with its status."""
        self._check()
        size = window * GYM_FEATURES + GYM_MACHINE_FEATURES
        if self._nodes:
            size = gym_shape(self._nodes, features, window)["size"]
        elif features is not None:
            slot, machine = gym_layout(features)
            size = window * len(slot) + len(machine)
        self._gym_features = None if features is None else ",".join(features).encode()
        g = self.gym = Gym(window=window, time_scale=time_scale, queue_scale=queue_scale, features=self._gym_features)
        self.gym_obs = np.zeros(size, dtype=np.float32) if obs is None else obs
        self.gym_mask = np.zeros(window, dtype=np.int8) if mask is None else mask
        if not (
            self.gym_obs.shape == (size,)
            and self.gym_obs.dtype == np.float32
            and self.gym_obs.flags.c_contiguous
            and self.gym_mask.shape == (window,)
            and self.gym_mask.dtype == np.int8
            and self.gym_mask.flags.c_contiguous
        ):
            raise ValueError(f"gym_start: want contiguous buffers of {size} float32 and {window} int8")
        g.obs, g.mask = self.gym_obs.ctypes.data, self.gym_mask.ctypes.data
        self._gym_step, self._hc = self._lib.sl_gym_step, ctypes.c_size_t(self._h)

    def gym_step(self, action) -> bool:
        """Starts the job of slot action (a Python int, -1 or a slot;
        one not legal is replaced by the first legal slot, and
        gym.replaced is 1) and runs to the next decision: True with
        gym_obs, gym_mask and gym.now filled, False at the end of the
        run (stdout then holds what it printed). Raises SchedlabError if
        the run failed."""
        if self.ended or _forked:
            self._check()
        st = self._gym_step(self._hc, action)
        return st == 1 or self._gym_status(st)

    def gym_end(self, st) -> bool:
        """Takes the status that sl_gym_vstep or sl_gym_vstart gave this
        run (as gym_step's): True for 1; False at the end (stdout filled,
        the run closed); raises SchedlabError on a failure."""
        return st == 1 or self._gym_status(st)

    def gym_queue(self, n):
        """For a run driven by gym_step, whose steps copy no view: the
        current instant's queue as it was when the instant began (jobs
        picked at this instant included), its first n rows at least (all
        when fewer), copied afresh; returns queue()."""
        self._check()
        v = self._v
        if n > v.cap_queue:
            self._grow(0, max(n, 2 * v.cap_queue), 0, 0)
        self._lib.sl_fill(self._h, self._vp)
        return self.queue()

    def _gym_status(self, st) -> bool:
        if st == 1:
            return True
        if st == REFUSED:  # nothing was done: the run goes on
            raise SchedlabError(_take(self._lib, self.gym.err) if self.gym.err else "sl_gym_step: refused")
        self._check()
        self.ended = True
        if st < 0:
            msg = _take(self._lib, self.gym.err) if self.gym.err else f"sl_gym_step: status {st}"
            self._close()
            raise SchedlabError(msg)
        self.stdout = _take(self._lib, self._lib.sl_stdout(self._h))
        self._close()
        return False

    def nodes_view(self):
        """On a platform of nodes, what the current instant's request
        says of the nodes, in the protocol's JSON (docs/protocol.md, "On
        a platform of nodes"), as a dict: "node_groups" (at the first
        instant only: SIMULATION_BEGINS's), "nodes" (the view's entries
        of the nodes whose free amounts changed since the last instant)
        and "req" (the request of each job of submitted(), in order).
        None on a pool of CPUs."""
        self._check()
        p = self._lib.sl_nodes_view(self._h)
        return None if not p else _json.loads(_take(self._lib, p))

    def submitted(self):
        return self._sub[: self._v.submitted]

    def completed(self):
        return self._comp[: self._v.completed]

    def machines(self):
        """(cpus, first_cpu, speed, mem) arrays of the platform's machines."""
        self._check()
        cap = max(1, self._v.machines)
        c, f = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
        s, m = np.zeros(cap, dtype=np.float64), np.zeros(cap, dtype=np.float64)
        n = self._lib.sl_machines(
            self._h, cap, c.ctypes.data_as(_i64p), f.ctypes.data_as(_i64p), s.ctypes.data_as(_f64p), m.ctypes.data_as(_f64p)
        )
        return c[:n], f[:n], s[:n], m[:n]

    def _check(self):
        """Raises SchedlabError unless the run can be driven from here."""
        if _forked:
            raise SchedlabError(_fork_why())
        if self.ended or not self._h:
            raise SchedlabError("the simulation has ended")

    def _close(self):
        if self._h:
            if not _forked:  # (a call into the library would never return)
                self._lib.sl_close(self._h)
            self._h = 0

    def close(self):
        """Ends the run (one not at its end fails, writing nothing)."""
        self.ended = True
        self._close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
