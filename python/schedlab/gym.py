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
clipped.

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
"""

from __future__ import annotations

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
import numpy as np
from gymnasium import spaces

from . import _inproc, finish_external, start_external
from ._binary import SchedlabError
from ._policy import Host, Policy

FEATURES = 5
MACHINE_FEATURES = 3


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


def _read_swf(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    header, jobs = [], []
    with opener(path, "rt") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            (header if s.startswith(";") else jobs).append(line if line.endswith("\n") else line + "\n")
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
    ):
        super().__init__()
        window, episode_jobs = _count("window", window), _count("episode_jobs", episode_jobs)
        time_scale, queue_scale = _positive("time_scale", time_scale), _positive("queue_scale", queue_scale)
        if timeout is not None:
            timeout = _positive("timeout", timeout)
        self.reward_weights = _reward_weights(reward)
        self.reward = reward if isinstance(reward, str) else dict(reward)
        self._step_wait = "step_wait" in self.reward_weights
        if window > MAX_WINDOW:
            raise ValueError(f"window={window}: at most {MAX_WINDOW} (schedlab.gym.MAX_WINDOW)")
        if engine not in ("auto", "inprocess", "process"):
            raise ValueError(f'engine={engine!r}: want "auto", "inprocess" or "process"')
        if engine == "auto":
            engine = "inprocess" if _inproc.library() is not None else "process"
        elif engine == "inprocess" and _inproc.library() is None:
            raise SchedlabError(f"engine='inprocess': the schedlab library is not available: {_inproc.why_not()}")
        self.engine = engine
        self.trace = _trace_path(trace)
        self.header, self.jobs = _read_swf(self.trace)
        if len(self.jobs) < episode_jobs:
            raise ValueError(f"trace {trace} has {len(self.jobs)} jobs, fewer than episode_jobs={episode_jobs}")
        self.episode_jobs, self.window = episode_jobs, window
        self.time_scale, self.queue_scale, self.timeout = time_scale, queue_scale, timeout
        self.observation_space = spaces.Box(0.0, 1.0, shape=(window * FEATURES + MACHINE_FEATURES,), dtype=np.float32)
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
                    terms[name] = sign * float(summary[key]) / (self.time_scale if scaled else 1.0)
        return float(sum(self.reward_weights[k] * v for k, v in terms.items())), terms

    # -- the gymnasium API --------------------------------------------------

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._stop()
        os.makedirs(self._dir, exist_ok=True)
        if not self._rmdir.alive:  # a reset after close()
            self._rmdir = weakref.finalize(self, shutil.rmtree, self._dir, ignore_errors=True)
        first = int(self.np_random.integers(0, len(self.jobs) - self.episode_jobs + 1))
        swf = Path(self._dir) / "episode.swf"
        # written over the last episode's file, then cut at its end, rather
        # than truncated first: some file systems write a file truncated
        # to zero and rewritten to disk when it is closed (ext4's
        # auto_da_alloc), which was a tenth of a reset or more
        with os.fdopen(os.open(swf, os.O_WRONLY | os.O_CREAT, 0o644), "w") as f:
            f.writelines(self.header)
            f.writelines(self.jobs[first : first + self.episode_jobs])
            f.truncate()
        self.first_job = first
        self.steps = 0
        if self.engine == "inprocess":
            return self._ip_reset(swf)
        out = Path(self._dir) / "out"
        shutil.rmtree(out, ignore_errors=True)
        self._out = out
        self._run = start_external(swf, out, timeout=self.timeout, view="free")
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
        self._sim = sim = _inproc.Sim(_inproc.run_spec(swf, view="free"), queue=False, json=True)
        if not sim.gym_start(self.window, self.time_scale, self.queue_scale):
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
        wait = self._ip_wait(sim, a) if self._step_wait else None
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

    def close(self):
        self._stop()
        self._rmdir()
        super().close()


class _Abandoned(Exception):
    pass


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
            gymnasium.register(id=env_id, entry_point="schedlab.gym:SchedulingEnv", kwargs=dict(kwargs))


register_envs()
