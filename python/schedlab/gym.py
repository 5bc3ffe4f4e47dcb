"""A Gymnasium environment on the Go engine: an agent picks, one step at a
time, the next job to start from a window of the queue.

    from schedlab.gym import SchedulingEnv
    env = SchedulingEnv(trace="KTH-SP2-1996-2.1-cln.swf.gz", episode_jobs=256, window=16)
    # or, with the ids this module registers (ENV_IDS):
    env = gymnasium.make("schedlab/Scheduling-v0", episode_jobs=256, window=16)
    obs, info = env.reset(seed=1)
    while True:
        a = env.action_space.sample(mask=info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(a)
        if terminated:
            break

Episodes: each reset draws (from its seed) a window of `episode_jobs`
consecutive jobs of the trace, writes them as an SWF file and starts
`schedlab run --policy external` on it; the environment is the decision
process (option fds), so the simulation is the Go engine's, with its
validation. At each scheduling instant where some job of the window fits
the free CPUs, the agent picks jobs one step at a time; when no job of the
window fits any more, the picks are sent as the instant's decision and the
simulation goes on to the next instant where one fits (instants where none
fits are answered with no start). The schedule is thus work-conserving on
the window, and every episode ends.

Observation (float32, in [0, 1]): for each of the `window` first waiting
jobs not yet picked at this instant, in queue order (submit time, then id):
[present, CPUs / machine CPUs, estimate / time_scale, waited / time_scale,
fits now], zeros for empty slots; then the machine: [free CPUs / CPUs,
running jobs / CPUs, waiting jobs / queue_scale]. Values above 1 are
clipped. features=[names] chooses other numbers, by name, from the list
declared in the library (features(); DEFAULT_FEATURES is the layout
above), with engine="inprocess".

Action: Discrete(window), the slot of the job to start now.
info["action_mask"] (int8) marks the legal ones (present and fitting the
CPUs still free at this instant); an illegal action is replaced by the
first legal one (so random actions are safe), and info["replaced"] says so.

Reward: reward= names a choice of REWARDS, or weighs several ({name:
weight, ...}: the weighted sum). The default, "episode_bsld", is 0 at
every step but the last and, at the end of the episode, minus the mean
bounded slowdown (tau = 10 s) of the episode's jobs, from schedlab's
summary.json (info["summary"] holds it all). The episodic choices read
summary.json at the end; the one per-step choice, "step_wait", is the
wait of the job each step starts, known exactly at that step.
info["rewards"] gives each chosen term of the step, unweighted.

Engine: engine="inprocess" runs the same `schedlab run --policy external`
inside this process, through schedlab's shared library (_inproc.py:
built from the source tree, or installed by pip install ./python, when
Go has cgo); engine="process" runs it as a second process over the
protocol (option fds); the default, "auto", is "inprocess" when the
library is available, else "process". Both give the same trajectories
(observations, masks, rewards, summary) for the same seed and actions;
in process each step is one call into the library, which also builds
the observation and the mask (cmd/libschedlab/gym, in Go), instead of a
round trip between processes and the window built here in Python. An
in-process environment is stepped from the thread that reset it.

Nodes: nodes=[node groups] (as schedlab.run's) puts the episodes on a
platform of nodes (in process only): the trace is then a job table (or
SWF), the mask and "fits" follow the engine's selection rule on what is
still free, and the observation gains each slot's request and each
node's free cores, memory and GRES (node_features(); python/README.md,
"On a platform of nodes", gives the layout exactly).

VectorSchedulingEnv: num_envs such episodes (in process) stepped in one
library call (sl_gym_vstep), the observations and masks written into its
(num_envs, ...) buffers; gymnasium.make_vec(id, num_envs=N) of a
registered id makes it. schedlab.trajectories records a built-in
policy's steps through this environment.
"""

from __future__ import annotations

import ctypes
import gzip
import json
import math
import numbers
import os
import shutil
import tempfile
import weakref
from pathlib import Path

import gymnasium
import gymnasium.vector.utils
import numpy as np
from gymnasium import spaces

from . import _inproc, finish_external, start_external
from ._binary import SchedlabError
from ._policy import Host, Policy

FEATURES = 5
MACHINE_FEATURES = 3
# the default observation's features (features=None), in its order; the
# declared list, with every other name, is the library's
# (cmd/libschedlab/gym, features(); the tests check this against it)
DEFAULT_FEATURES = ("present", "cpus", "estimate", "wait", "fits", "free_cpus", "running_jobs", "waiting_jobs")


def features():
    """The declared observation features, from the library: a list of
    {"name", "slot" (True: one per slot of the window, else one for the
    machine), "meaning", "scale" (what maps to 1)}, those of any
    platform. SchedulingEnv(nodes=...) also has node_features().
    SchedlabError without the library."""
    return [dict(f) for f in _inproc.gym_features()["features"]]


def node_features():
    """The declared features of a platform of nodes only, as features()
    lists them, with "node" (True: one per node, after the machine's in
    the observation, node by node in id order; else "slot" is True: one
    per slot) and "per_kind" (True: one number per GRES kind of the
    platform, env.gres_kinds)."""
    return [dict(f) for f in _inproc.gym_features()["node_features"]]


def default_node_features():
    """The default observation's features on a platform of nodes
    (features=None with nodes=), in its order."""
    return tuple(_inproc.gym_features()["default_nodes"])


def _trace_path(trace) -> Path:
    p = Path(trace)
    if p.is_file():
        return p
    from ._binary import _repo_root

    dirs = [os.environ.get("SCHEDLAB_TRACES", ""), "traces"]
    root = _repo_root()
    if root is not None:
        dirs += [str(root / "workload" / "traces"), str(root.parent / "shared" / "traces")]
    for d in dirs:
        if d and (Path(d) / trace).is_file():
            return Path(d) / trace
    raise FileNotFoundError(f"trace {trace}: not found (a path, or a bare name in $SCHEDLAB_TRACES or the source tree)")


_SWF_CACHE = {}


def _read_swf(path: Path):
    """(header lines, job lines) of an SWF file, read once per process
    while the file is unchanged (the lists are shared: not modified)."""
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if key not in _SWF_CACHE:
        _SWF_CACHE.clear()  # (one trace kept: a trace can be large)
        _SWF_CACHE[key] = _read_swf_file(path)
    return _SWF_CACHE[key]


JOB_TABLE = "# schedlab job table v1"


def _read_swf_file(path: Path):
    """An SWF file's (header lines, job lines); or a schedlab job table's
    (docs/nodes.md, "Job requests and the job table": its first line,
    comments and column header; its rows), found by its first line."""
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" or path.suffix == ".gz" else open
    header, jobs = [], []
    with opener(path, "rt") as f:
        table = None
        for line in f:
            s = line.strip()
            if table is None:
                table = s == JOB_TABLE
            if not s:
                continue
            line = line if line.endswith("\n") else line + "\n"
            if table:
                # the comments and the column header (the first other line)
                (header if s.startswith("#") or not any(not h.startswith("#") for h in header) else jobs).append(line)
            else:
                (header if s.startswith(";") else jobs).append(line)
    return header, jobs


class _Idle(Policy):
    pass


# MAX_WINDOW bounds the window (the observation holds 5 floats per slot
# and the mask one byte: 1.3 MB at the bound), checked before anything
# is read or allocated.
MAX_WINDOW = 65536


def _count(name, x) -> int:
    """x as an int if it is an integer >= 1 (not a bool); else ValueError
    naming the parameter."""
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < 1:
        raise ValueError(f"{name}={x!r}: want an integer >= 1")
    return int(x)


# The reward choices: name -> (per step or at the end, what it is). Each
# is exact: the per-step one from the instant's queue (the job started and
# its submit time), the episodic ones from the run's summary.json. Bounded
# slowdown and utilization are episodic only: a step does not know the
# actual runtime of the job it starts, nor when running jobs end.
REWARDS = {
    "episode_bsld": ("episode", "-mean_bounded_slowdown (tau = 10 s): <= -1, unitless; the default"),
    "episode_wait": ("episode", "-mean_wait / time_scale: <= 0, in units of time_scale seconds"),
    "episode_utilization": (
        "episode",
        "+utilization (CPU-seconds used / (CPUs x (last end - first submit))): in [0, 1]",
    ),
    "episode_energy": (
        "episode",
        "-the machine's kWh from time 0 to the episode's last end (summary.json's energy.kwh) under power=: <= 0; needs power=",
    ),
    "step_wait": (
        "step",
        "-(now - submit time) / time_scale of the job the step starts: <= 0; sums to -(total wait) / time_scale",
    ),
}

# the episodic choices: (summary.json key, sign, divided by time_scale)
_SUMMARY = {
    "episode_bsld": ("mean_bounded_slowdown", -1, False),
    "episode_wait": ("mean_wait", -1, True),
    "episode_utilization": ("utilization", 1, False),
    "episode_energy": ("energy.kwh", -1, False),
}


def _reward_weights(reward) -> dict:
    """reward= as {choice: weight}: a name of REWARDS (weight 1), or a
    non-empty mapping of names to finite numbers; ValueError otherwise."""
    if isinstance(reward, str):
        reward = {reward: 1.0}
    elif not isinstance(reward, dict) or not reward:
        raise ValueError(f"reward={reward!r}: want one of {sorted(REWARDS)} or a dict of them to weights")
    out = {}
    for name, w in reward.items():
        if name not in REWARDS:
            raise ValueError(f"reward={name!r}: not one of {sorted(REWARDS)}")
        if isinstance(w, bool) or not isinstance(w, numbers.Real) or not math.isfinite(w):
            raise ValueError(f"reward weight {name}={w!r}: want a finite number")
        out[name] = float(w)
    return out


def _positive(name, x) -> float:
    """x as a float if it is a finite number > 0 (not a bool); else
    ValueError naming the parameter. The same check for both engines: a
    scale of 0 or NaN would make observations NaN (outside the Box) or
    divide by zero."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not (math.isfinite(x) and x > 0):
        raise ValueError(f"{name}={x!r}: want a finite number > 0")
    return float(x)


class SchedulingEnv(gymnasium.Env):
    metadata = {"render_modes": []}

    def __init__(
        self,
        trace="KTH-SP2-1996-2.1-cln.swf.gz",
        episode_jobs=256,
        window=16,
        time_scale=86400.0,
        queue_scale=256.0,
        timeout=3600.0,
        engine="auto",
        reward="episode_bsld",
        features=None,
        power=None,
        nodes=None,
    ):
        super().__init__()
        window, episode_jobs = _count("window", window), _count("episode_jobs", episode_jobs)
        time_scale, queue_scale = _positive("time_scale", time_scale), _positive("queue_scale", queue_scale)
        if timeout is not None:
            timeout = _positive("timeout", timeout)
        self.reward_weights = _reward_weights(reward)
        self.reward = reward if isinstance(reward, str) else dict(reward)
        self._step_wait = "step_wait" in self.reward_weights
        # power: the machine's power model "IDLE_W:COMPUTE_W" (watts a CPU,
        # docs/energy.md), for the energy reward; the run checks its numbers
        if power is not None and (not isinstance(power, str) or power.count(":") != 1):
            raise ValueError(f"power={power!r}: want \"IDLE_W:COMPUTE_W\", watts a CPU draws idle and running a job (e.g. \"95:190.74\")")
        if "episode_energy" in self.reward_weights and power is None:
            raise ValueError('reward "episode_energy" needs power="IDLE_W:COMPUTE_W" (a power model)')
        self.power = power
        if window > MAX_WINDOW:
            raise ValueError(f"window={window}: at most {MAX_WINDOW} (schedlab.gym.MAX_WINDOW)")
        if engine not in ("auto", "inprocess", "process"):
            raise ValueError(f'engine={engine!r}: want "auto", "inprocess" or "process"')
        if engine == "auto":
            engine = "inprocess" if _inproc.library() is not None else "process"
        elif engine == "inprocess" and _inproc.library() is None:
            raise SchedlabError(f"engine='inprocess': the schedlab library is not available: {_inproc.why_not()}")
        # nodes: a platform of nodes (node groups, as schedlab.run's
        # nodes=); in process only (the library builds its observation)
        if nodes is not None:
            nodes = [nodes] if isinstance(nodes, str) else list(nodes)
            if not nodes or not all(isinstance(g, str) for g in nodes):
                raise ValueError(f"nodes={nodes!r}: want a node group \"NAMES:cores=N[...]\" or a list of them")
            if engine == "process":
                why = _inproc.why_not() if _inproc.library() is None else "engine='process' builds the pool's observation only"
                raise ValueError(f"nodes=: the environment on a platform of nodes needs engine='inprocess' ({why})")
        self.nodes = nodes
        self.engine = engine
        # features: None or the default's names is the default layout,
        # which both engines build; any other list needs the library
        if features is not None:
            if isinstance(features, str) or not all(isinstance(n, str) for n in features):
                raise ValueError(f"features={features!r}: want a list of feature names")
            features = tuple(features)
            if features == DEFAULT_FEATURES and nodes is None:
                features = None
        self.node_names, self.gres_kinds, self.node_features = (), (), 0
        if nodes is not None:
            if engine != "inprocess":
                raise SchedlabError(f"nodes=: the schedlab library is not available: {_inproc.why_not()}")
            shape = _inproc.gym_shape(nodes, features, window)
            names = tuple(shape["slot"] + shape["machine"] + shape["node"])
            features = None if features is None else names
            nslot, nmachine = shape["slot_width"], len(shape["machine"])
            self.node_names, self.gres_kinds = tuple(shape["nodes"]), tuple(shape["kinds"])
            self.node_features = shape["node_width"]
            size = shape["size"]
        elif features is not None:
            if engine != "inprocess":
                why = _inproc.why_not() if _inproc.library() is None else "engine='process' builds the default only"
                raise ValueError(f"features={list(features)}: other features than the default need engine='inprocess' ({why})")
            slot, machine = _inproc.gym_layout(features)
            features = tuple(slot + machine)
            nslot, nmachine = len(slot), len(machine)
            size = window * nslot + nmachine
        else:
            nslot, nmachine = FEATURES, MACHINE_FEATURES
            size = window * nslot + nmachine
        self._features = features
        if nodes is not None:
            self.features = names
        else:
            self.features = DEFAULT_FEATURES if features is None else features
        self.slot_features, self.machine_features = nslot, nmachine
        self._bufs = None  # (obs, mask) given by a VectorSchedulingEnv
        self._unbound = False  # VectorSchedulingEnv(parallel=True): runs it may step on its goroutines
        self._track_picks = False  # in process: keep this instant's picks (window_jobs)
        self._defer = False  # reset() leaves the run to start to a VectorSchedulingEnv
        self.trace = _trace_path(trace)
        self.header, self.jobs = _read_swf(self.trace)
        if len(self.jobs) < episode_jobs:
            raise ValueError(f"trace {trace} has {len(self.jobs)} jobs, fewer than episode_jobs={episode_jobs}")
        self.episode_jobs, self.window = episode_jobs, window
        self.time_scale, self.queue_scale, self.timeout = time_scale, queue_scale, timeout
        self.observation_space = spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)
        self.action_space = spaces.Discrete(window)
        # the episode's SWF (and, with engine="process", its outputs):
        # removed by close(), or when the environment is collected or
        # Python exits
        self._dir = tempfile.mkdtemp(prefix="schedlab-gym-")
        self._rmdir = weakref.finalize(self, shutil.rmtree, self._dir, ignore_errors=True)
        self._run = None
        self._sim = None
        self.steps = 0

    # -- the protocol side ------------------------------------------------

    def _stop(self):
        if self._sim is not None:
            self._sim.close()
            self._sim = None
        if self._run is not None:
            proc, cmd, requests, rep_w, logs = self._run
            self._run = None
            try:
                finish_external(proc, cmd, requests, rep_w, logs, error=_Abandoned())
            except _Abandoned:
                pass

    def _window_ids(self):
        out = []
        for jid in self.host.view.queue:
            if jid not in self._picked:
                out.append(jid)
                if len(out) == self.window:
                    break
        return out

    def _mask(self):
        q = self.host.view.queue
        m = np.zeros(self.window, dtype=np.int8)
        for k, jid in enumerate(self._slots):
            if q[jid].res <= self._free:
                m[k] = 1
        return m

    def _advance(self):
        """Sends this instant's picks and reads on to the next instant
        where some job of the window fits. False at the end."""
        while True:
            self.host.reply(self._picked_list)
            self._picked, self._picked_list = set(), []
            try:
                more = self.host.read()
            except (OSError, ValueError):
                more = False
            if not more:
                return False
            self._free = self.host.view.free[0]
            self._slots = self._window_ids()
            if self._mask().any():
                return True

    def _obs(self):
        v = self.host.view
        o = np.zeros(self.window * FEATURES + MACHINE_FEATURES, dtype=np.float32)
        cpus = float(self._cpus)
        if self._slots:
            q, now, free = v.queue, v.now, self._free
            a = np.array([(1.0, q[i].res, q[i].walltime, now - q[i].subtime, q[i].res <= free) for i in self._slots])
            a[:, 1] /= cpus
            a[:, 2:4] /= self.time_scale
            o[: a.size] = a.ravel()
        b = self.window * FEATURES
        o[b:] = (self._free / cpus, len(v.running) / cpus, len(v.queue) / self.queue_scale)
        return np.clip(o, 0.0, 1.0)

    # -- rewards ------------------------------------------------------------

    def _reward(self, wait, summary):
        """The step's reward and its unweighted terms: wait, the wait of
        the job it started (None unless step_wait is chosen); summary,
        the run's summary.json at the end (else None)."""
        terms = {}
        if self._step_wait:
            terms["step_wait"] = -wait / self.time_scale
        if summary is not None:
            for name in self.reward_weights:
                if name in _SUMMARY:
                    key, sign, scaled = _SUMMARY[name]
                    v = summary
                    for part in key.split("."):  # energy.kwh: a section's value
                        v = v[part]
                    terms[name] = sign * float(v) / (self.time_scale if scaled else 1.0)
        return float(sum(self.reward_weights[k] * v for k, v in terms.items())), terms

    # -- the gymnasium API --------------------------------------------------

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._stop()
        os.makedirs(self._dir, exist_ok=True)
        if not self._rmdir.alive:  # a reset after close()
            self._rmdir = weakref.finalize(self, shutil.rmtree, self._dir, ignore_errors=True)
        first = int(self.np_random.integers(0, len(self.jobs) - self.episode_jobs + 1))
        swf = Path(self._dir) / ("episode.jobs" if self.header and self.header[0].strip() == JOB_TABLE else "episode.swf")
        # written over the last episode's file, then cut at its end, rather
        # than truncated first: some file systems write a file truncated
        # to zero and rewritten to disk when it is closed (ext4's
        # auto_da_alloc), which was a tenth of a reset or more
        with os.fdopen(os.open(swf, os.O_WRONLY | os.O_CREAT, 0o644), "w") as f:
            f.writelines(self.header)
            f.writelines(self.jobs[first : first + self.episode_jobs])
            f.truncate()
        self.first_job = first
        self.episode_file = swf  # the episode's jobs (an SWF file or a job table)
        self.steps = 0
        if self.engine == "inprocess":
            return self._ip_reset(swf)
        out = Path(self._dir) / "out"
        shutil.rmtree(out, ignore_errors=True)
        self._out = out
        opts = {"power": self.power} if self.power is not None else None
        self._run = start_external(swf, out, timeout=self.timeout, options=opts, view="free")
        proc, cmd, requests, rep_w, logs = self._run
        self.host = Host(_Idle(), requests, rep_w)
        if not self.host.read():
            self._finish()
            raise RuntimeError("schedlab ended before the first instant")
        self._cpus = sum(m.cpus for m in self.host.view.machines)
        self._free = self.host.view.free[0]
        self._picked, self._picked_list = set(), []
        self._slots = self._window_ids()
        if not self._mask().any():  # (the first instant always has a fitting job)
            self._advance()
        mask = self._mask()
        return self._obs(), {"action_mask": mask, "now": self.host.view.now}

    def _finish(self):
        proc, cmd, requests, rep_w, logs = self._run
        self._run = None
        finish_external(proc, cmd, requests, rep_w, logs)
        with open(self._out / "summary.json") as f:
            return json.load(f)

    def step(self, action):
        if self.engine == "inprocess":
            return self._ip_step(action)
        if self._run is None:
            raise RuntimeError("step() before reset(), or after the episode ended")
        mask = self._mask()
        a = int(action)
        replaced = not (0 <= a < self.window and mask[a])
        if replaced:
            a = int(np.flatnonzero(mask)[0])
        jid = self._slots[a]
        wait = self.host.view.now - self.host.view.queue[jid].subtime
        self._picked.add(jid)
        self._picked_list.append(jid)
        self._free -= self.host.view.queue[jid].res
        self._slots = self._window_ids()
        self.steps += 1
        if self._mask().any() or self._advance():
            reward, terms = self._reward(wait, None)
            return (
                self._obs(),
                reward,
                False,
                False,
                {"action_mask": self._mask(), "replaced": replaced, "now": self.host.view.now, "rewards": terms},
            )
        summary = self._finish()
        obs = np.zeros(self.observation_space.shape, dtype=np.float32)
        reward, terms = self._reward(wait, summary)
        return (
            obs,
            reward,
            True,
            False,
            {
                "action_mask": np.zeros(self.window, dtype=np.int8),
                "replaced": replaced,
                "summary": summary,
                "now": self.host.view.now,
                "rewards": terms,
            },
        )

    # -- in process (engine="inprocess") ----------------------------------
    #
    # The same decisions, observations and masks as above, built by the
    # library (cmd/libschedlab/gym, in Go): a step is one call into it,
    # which starts the job of the slot, updates the window, and when no
    # job of the window fits any more hands the instant's picks to the
    # run and runs on to the next instant where one fits, writing the
    # observation and the mask into this environment's numpy buffers.
    # The numbers are the float64 operations of _obs, clipped to [0, 1]
    # before the cast to float32 rather than after, which gives the same
    # float32 values (rounding is monotonic and 0 and 1 are exact); the
    # tests check the two engines' trajectories bit for bit.

    def _ip_reset(self, swf):
        opts = {"power": self.power} if self.power is not None else {}
        if self.nodes is not None:
            opts["nodes"] = self.nodes
        self._sim = sim = _inproc.Sim(_inproc.run_spec(swf, view="free", **opts), queue=False, json=True, unbound=self._unbound)
        obs, mask = self._bufs if self._bufs is not None else (None, None)
        if self._defer:  # VectorSchedulingEnv starts it, with others (then _ip_started)
            sim.gym_prepare(self.window, self.time_scale, self.queue_scale, self._features, obs, mask)
            return None
        return self._ip_started(sim.gym_start(self.window, self.time_scale, self.queue_scale, self._features, obs, mask))

    def _ip_started(self, ok):
        sim = self._sim
        if not ok:
            self._sim = None
            raise RuntimeError("schedlab ended before the first instant")
        self._o, self._m, self._g = sim.gym_obs, sim.gym_mask, sim.gym
        self._ip_picked = set()
        return self._o.copy(), {"action_mask": self._m.copy(), "now": self._g.now}

    def _ip_step(self, action):
        sim = self._sim
        if sim is None:
            raise RuntimeError("step() before reset(), or after the episode ended")
        a = int(action)
        wait = self._ip_wait(sim, a) if self._step_wait or self._track_picks else None
        more = sim.gym_step(a if 0 <= a < self.window else -1)
        self.steps += 1
        g = self._g
        if more:
            reward, terms = self._reward(wait, None)
            return (
                self._o.copy(),
                reward,
                False,
                False,
                {"action_mask": self._m.copy(), "replaced": g.replaced != 0, "now": g.now, "rewards": terms},
            )
        summary = json.loads(sim.stdout)
        self._sim = None
        obs = np.zeros(self.observation_space.shape, dtype=np.float32)
        reward, terms = self._reward(wait, summary)
        return (
            obs,
            reward,
            True,
            False,
            {
                "action_mask": np.zeros(self.window, dtype=np.int8),
                "replaced": g.replaced != 0,
                "summary": summary,
                "now": g.now,
                "rewards": terms,
            },
        )

    def _ip_wait(self, sim, a):
        """The wait of the job that gym_step(a) is about to start, from
        the instant's queue (as it began: the jobs picked at this instant
        included) and the picks made at it: slot a of the window of the
        jobs not picked yet, or the first legal slot when a is not
        legal, as the library does. A pick from an earlier instant has
        left the queue (it started), which is how a new instant shows."""
        picked = self._ip_picked
        ids, _, _, sub = sim.gym_queue(self.window + len(picked))
        ids = ids.tolist()
        picked &= set(ids)
        slots = [k for k, jid in enumerate(ids) if jid not in picked][: self.window]
        if not (0 <= a < self.window and self._m[a]):
            a = int(np.flatnonzero(self._m)[0])
        k = slots[a]
        picked.add(ids[k])
        return self._g.now - float(sub[k])

    def window_jobs(self):
        """The job ids of the window's slots now, slot 0 first (fewer than
        `window` when fewer jobs wait): the jobs the observation's slots
        describe. In process it needs the instant's picks, which the
        environment keeps when window_jobs was called at the episode's
        start (after reset), or with reward "step_wait"."""
        if self.engine == "process":
            if self._run is None:
                raise RuntimeError("window_jobs() before reset(), or after the episode ended")
            return list(self._slots)
        if self._sim is None:
            raise RuntimeError("window_jobs() before reset(), or after the episode ended")
        if not (self._track_picks or self._step_wait):
            if self.steps:
                raise RuntimeError("window_jobs(): call it first right after reset() (the picks are not kept before)")
            self._track_picks = True
        ids = self._sim.gym_queue(self.window + len(self._ip_picked))[0].tolist()
        picked = self._ip_picked & set(ids)
        return [j for j in ids if j not in picked][: self.window]

    def close(self):
        self._stop()
        self._rmdir()
        super().close()


class _Abandoned(Exception):
    pass


# -- vectorized: N environments stepped in one library call -----------------


class VectorSchedulingEnv(gymnasium.vector.VectorEnv):
    """num_envs SchedulingEnv episodes (engine="inprocess") stepped together:
    a step of all of them is one call into the library (sl_gym_vstep),
    which steps each run (in turn, or on its goroutines: parallel) and
    writes the observations and masks into this environment's (num_envs,
    ...) numpy buffers, each sub-environment's row given to its run.

        envs = VectorSchedulingEnv(num_envs=8, episode_jobs=256, window=16)
        # or gymnasium.make_vec("schedlab/Scheduling-v0", num_envs=8)
        obs, info = envs.reset(seed=1)        # seeds 1 .. 8, one per env
        obs, rewards, terminated, truncated, info = envs.step(actions)

    The keywords other than num_envs and autoreset_mode are
    SchedulingEnv's, the same for every sub-environment. reset(seed=s)
    seeds sub-environment i with s + i (a list: one seed each), as
    gymnasium's SyncVectorEnv does, so that its trajectories are those
    of num_envs SchedulingEnv reset with those seeds and given the same
    actions; an autoreset resets a sub-environment without a seed (its
    generator goes on), as SyncVectorEnv does.

    autoreset_mode (gymnasium.vector.AutoresetMode or its value):
    NEXT_STEP (the default): the step that ends an episode returns its
    last observation (zeros, as SchedulingEnv's) and terminated; the next
    step resets that sub-environment, ignoring its action, with reward 0.
    SAME_STEP: the ending step resets it at once and returns the new
    episode's observation, the last one in info["final_obs"] and its info
    in info["final_info"]. DISABLED: an ended sub-environment is reset by
    reset(options={"reset_mask": mask}).

    parallel (default False: every run stepped in turn on this thread):
    True has the library share the runs out among up to GOMAXPROCS
    goroutines in each call (the machine's cores: Go's default), each
    stepping one run at a time (the next not taken yet); no simulation
    uses more than one, and the results are the same. On this project's
    2-core machine, shared with other work, it was slower than False
    (tools/gymbench/vecbench.py measures both), hence the default.

    info: "action_mask" (num_envs, window) int8, "replaced" and "now" per
    sub-environment, and for those that ended, "summary" (the run's
    summary.json; "_summary" marks them).
    """

    metadata = {"render_modes": [], "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs=2, autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP, parallel=False, **kwargs):
        AM = gymnasium.vector.AutoresetMode
        num_envs = _count("num_envs", num_envs)
        self.autoreset_mode = autoreset_mode if isinstance(autoreset_mode, AM) else AM(autoreset_mode)
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)
        for k in ("render_mode", "max_episode_steps"):  # (gymnasium.make_vec's; none used)
            if kwargs.pop(k, None) is not None:
                raise ValueError(f"{k}: not supported by VectorSchedulingEnv")
        engine = kwargs.pop("engine", "inprocess")
        if engine not in ("inprocess", "auto"):
            raise ValueError(f"engine={engine!r}: VectorSchedulingEnv runs in process only")
        if _inproc.library() is None:
            raise SchedlabError(f"VectorSchedulingEnv: the schedlab library is not available: {_inproc.why_not()}")
        self.envs = [SchedulingEnv(engine="inprocess", **kwargs) for _ in range(num_envs)]
        e = self.envs[0]
        self.num_envs, self.window = num_envs, e.window
        self.single_observation_space, self.single_action_space = e.observation_space, e.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(e.observation_space, num_envs)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, e.window, dtype=np.int64))
        self._lib = _inproc.library()
        n, w = num_envs, e.window
        self._obs = np.zeros((n,) + e.observation_space.shape, dtype=np.float32)
        self._mask = np.zeros((n, w), dtype=np.int8)
        self.parallel = bool(parallel)
        for i, sub in enumerate(self.envs):
            sub._bufs = (self._obs[i], self._mask[i])
            sub._unbound = self.parallel
        self._h = np.zeros(n, dtype=np.uintp)  # the runs' handles (0: none)
        self._act = np.zeros(n, dtype=np.int64)
        self._status = np.zeros(n, dtype=np.int32)
        self._replaced = np.zeros(n, dtype=np.int8)
        self._now = np.zeros(n, dtype=np.float64)
        self._wait = np.zeros(n, dtype=np.float64)
        self._ended = np.ones(n, dtype=bool)  # episode over (or never reset)
        self._need_reset = np.zeros(n, dtype=bool)  # NEXT_STEP: reset at the next step
        self._started = False
        self._args = None
        self._step_w = e.reward_weights.get("step_wait") if e._step_wait else None
        self.time_scale = e.time_scale

    def _reset_many(self, idx, seeds):
        """Resets the sub-environments idx (seeds: one each, or None) and
        starts their runs in one library call (sl_gym_vstart)."""
        subs = [self.envs[i] for i in idx]
        for sub, seed in zip(subs, seeds):
            sub._defer = True
            try:
                sub.reset(seed=seed)
            finally:
                sub._defer = False
        oks = _inproc.gym_start_many([sub._sim for sub in subs])
        for i, sub, ok in zip(idx, subs, oks):
            _, info = sub._ip_started(ok)
            self._h[i] = sub._sim._h
            self._now[i] = info["now"]
            self._ended[i] = False
        self._args = None  # the handles changed

    def reset(self, *, seed=None, options=None):
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset: {len(seeds)} seeds for {self.num_envs} environments")
        which = np.ones(self.num_envs, dtype=bool)
        if options and "reset_mask" in options:
            which = np.asarray(options["reset_mask"], dtype=bool)
            if which.shape != (self.num_envs,):
                raise ValueError(f"reset_mask: want {self.num_envs} booleans")
        idx = [int(i) for i in np.flatnonzero(which)]
        self._reset_many(idx, [seeds[i] for i in idx])
        self._need_reset[which] = False
        self._started = True
        return self._obs.copy(), {"action_mask": self._mask.copy(), "now": self._now.copy()}

    def _call(self, idx):
        """One library call stepping the runs idx (all: None)."""
        c = ctypes
        if idx is None:
            if self._args is None:
                self._args = (
                    c.c_int64(self.num_envs),
                    *(c.c_void_p(a.ctypes.data) for a in (self._h, self._act, self._status, self._replaced, self._now, self._wait)),
                )
            return self._lib.sl_gym_vstep(*self._args), np.arange(self.num_envs)
        h, act = self._h[idx], self._act[idx]
        st, rp = np.zeros(len(idx), dtype=np.int32), np.zeros(len(idx), dtype=np.int8)
        now, wait = np.zeros(len(idx)), np.zeros(len(idx))
        bad = self._lib.sl_gym_vstep(
            c.c_int64(len(idx)), *(c.c_void_p(a.ctypes.data) for a in (h, act, st, rp, now, wait))
        )
        self._status[idx], self._replaced[idx], self._now[idx], self._wait[idx] = st, rp, now, wait
        return bad, idx

    def step(self, actions):
        if not self._started:
            raise RuntimeError("step() before reset()")
        a = np.asarray(actions).reshape(self.num_envs)
        w = self.window
        self._act[:] = np.where((a >= 0) & (a < w), a, -1)
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        reset_now = np.flatnonzero(self._need_reset)
        if self.autoreset_mode == gymnasium.vector.AutoresetMode.DISABLED and self._ended.any():
            raise RuntimeError(
                f"step(): environments {np.flatnonzero(self._ended).tolist()} ended; reset them (options={{'reset_mask': ...}})"
            )
        if len(reset_now):
            self._reset_many([int(i) for i in reset_now], [None] * len(reset_now))
        self._need_reset[:] = False
        self._replaced[reset_now] = 0
        if len(reset_now):
            idx = np.flatnonzero(~np.isin(np.arange(n), reset_now))
            bad, stepped = self._call(idx) if len(idx) else (0, idx)
        else:
            bad, stepped = self._call(None)
        if self._step_w is not None:
            rewards[stepped] = self._step_w * (-self._wait[stepped] / self.time_scale)
        infos = {}
        if bad:
            summaries = np.empty(n, dtype=object)
            has = np.zeros(n, dtype=bool)
            for i in stepped[self._status[stepped] != 1]:
                i = int(i)
                sub = self.envs[i]
                sim = sub._sim
                st = int(self._status[i])
                sim.gym_end(st)  # raises on a failure
                summary = json.loads(sim.stdout)
                sub._sim = None
                self._h[i] = 0
                self._args = None
                self._ended[i] = True
                self._obs[i] = 0
                self._mask[i] = 0
                rewards[i] = sub._reward(float(self._wait[i]), summary)[0]
                terminated[i] = True
                summaries[i], has[i] = summary, True
            infos["summary"], infos["_summary"] = summaries, has
        obs = self._obs.copy()
        infos.update({"action_mask": self._mask.copy(), "replaced": self._replaced.astype(bool), "now": self._now.copy()})
        if terminated.any():
            if self.autoreset_mode == gymnasium.vector.AutoresetMode.NEXT_STEP:
                self._need_reset |= terminated
            elif self.autoreset_mode == gymnasium.vector.AutoresetMode.SAME_STEP:
                final_obs = np.empty(n, dtype=object)
                final_info = {k: v.copy() for k, v in infos.items()}
                ended = [int(i) for i in np.flatnonzero(terminated)]
                for i in ended:
                    final_obs[i] = obs[i].copy()
                self._reset_many(ended, [None] * len(ended))
                obs = self._obs.copy()
                infos["action_mask"], infos["now"] = self._mask.copy(), self._now.copy()
                infos["final_obs"], infos["_final_obs"] = final_obs, terminated.copy()
                infos["final_info"], infos["_final_info"] = final_info, terminated.copy()
        return obs, rewards, terminated, np.zeros(n, dtype=bool), infos

    def close_extras(self, **kwargs):
        for sub in self.envs:
            sub.close()


# The registered ids (gymnasium.make): each is SchedulingEnv with the
# keywords given here; gymnasium.make's keywords override them
# (gymnasium.make("schedlab/Scheduling-v0", trace="my.swf", window=32)).
# Registered when this module is imported; gymnasium.make
# ("schedlab.gym:schedlab/Scheduling-v0") imports it first.
ENV_IDS = {
    "schedlab/Scheduling-v0": {},  # the defaults: reward "episode_bsld"
    "schedlab/SchedulingStepWait-v0": {"reward": "step_wait"},  # a reward at every step
}


def register_envs() -> None:
    """Registers ENV_IDS with Gymnasium (again, harmlessly, when already
    registered)."""
    for env_id, kwargs in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="schedlab.gym:SchedulingEnv",
                vector_entry_point="schedlab.gym:VectorSchedulingEnv",
                kwargs=dict(kwargs),
            )


register_envs()
