"""Python policies over the external-policy protocol (docs/protocol.md)."""

from __future__ import annotations

import json
import operator
import os
from dataclasses import dataclass, field


@dataclass(slots=True)
class Job:
    """A job as a policy sees it: estimates only, never the actual runtime."""

    id: int
    subtime: float
    res: int
    walltime: float  # the estimate (by default the user's requested time)
    user: int = -1
    group: int = -1
    mem: float = 0.0
    speed: float = 0.0
    bm_est: float = 0.0
    deadline: float = 0.0


@dataclass(slots=True)
class Running:
    job: Job
    machine: int
    start: float
    estimated_end: float


@dataclass(slots=True)
class Machine:
    id: int
    cpus: int
    first_cpu: int
    speed: float = 1.0
    mem: float = 0.0


@dataclass(slots=True)
class Start:
    """A decision: start job `job_id` now on `machine`, on the CPUs `alloc`
    (Batsim's interval syntax, e.g. "0-3 8"; None: the lowest free ids)."""

    job_id: int
    machine: int = 0
    alloc: str | None = None


@dataclass(slots=True)
class Reject:
    """A decision: reject waiting job `job_id` (Batsim's REJECT_JOB): it
    leaves the queue and never starts; summary.json counts it
    (jobs_rejected_by_policy) and jobs.csv has no row for it."""

    job_id: int


# the machine index that carries a rejection to the in-process engine
REJECT_MACHINE = -1


def job_id(x, what="job id") -> int:
    """x as a Python int if it is an integer (int, numpy's integers);
    TypeError otherwise: a float (even 2.0: 2.9 would name job 2, and the
    protocol's JSON refuses both), a bool, a string."""
    if type(x) is int:
        return x
    if not isinstance(x, bool):
        try:
            return operator.index(x)
        except TypeError:
            pass
    raise TypeError(f"the decision's {what} {x!r} ({type(x).__name__}) is not an integer")


@dataclass
class View:
    """The read-only state at one scheduling instant.

    queue: the waiting jobs in queue order (submit time, then id), a dict
    id -> Job; running: id -> Running; free: idle CPUs per machine;
    submitted and completed: the events since the last decision (Jobs,
    ids); requested_call: this decision is a call asked for with
    Policy.call_me_at."""

    now: float = 0.0
    machines: list[Machine] = field(default_factory=list)
    free: list[int] = field(default_factory=list)
    queue: dict[int, Job] = field(default_factory=dict)
    running: dict[int, Running] = field(default_factory=dict)
    submitted: list[Job] = field(default_factory=list)
    completed: list[int] = field(default_factory=list)
    requested_call: bool = False  # this instant is a call asked for with call_me_at


class Policy:
    """A queue policy written in Python. Subclass it, implement `decide`,
    and pass an instance as `schedlab.run(..., policy=instance)`.

    `decide(view)` is called once per scheduling instant (after all of the
    instant's completions and submissions) and returns the jobs to start
    now: job ids (machine 0, lowest free CPUs) or `Start` values, and
    the waiting jobs to reject as `Reject` values. The view
    does not change while it decides: count the CPUs you use yourself.
    Every start is validated by schedlab; an illegal one stops the run
    with an error naming the time and the job."""

    name = "python"
    _wake = None

    def call_me_at(self, t: float) -> None:
        """Asks for a decision at time t (after now) even if nothing happens
        then (Batsim's CALL_ME_LATER); honoured while jobs wait. Call it
        from decide; the earliest time asked wins."""
        self._wake = t if self._wake is None else min(self._wake, t)

    def begin(self, view: View) -> None:
        """Called once, before the first decision (view.machines is set)."""

    def decide(self, view: View) -> list:
        raise NotImplementedError

    def end(self, view: View) -> None:
        """Called once after the last instant."""


def add_submitted(v: View, j: Job) -> None:
    """Puts a submitted job in the view's queue, in queue order (submit
    time, then id), and in its list of the instant's submissions."""
    q = v.queue
    if q and next(reversed(q.values())).subtime == j.subtime and next(reversed(q)) > j.id:
        # keep queue order (submit, id) when ids come out of order
        items = sorted([*q.values(), j], key=lambda x: (x.subtime, x.id))
        q.clear()
        q.update((x.id, x) for x in items)
    else:
        q[j.id] = j
    v.submitted.append(j)


def apply_starts(v: View, starts) -> list:
    """Moves the decided jobs from the view's queue to its running jobs
    (rejected ones out of it); returns the decisions as (job id, machine,
    alloc) tuples, machine REJECT_MACHINE for a rejection."""
    out = []
    for s in starts:
        if isinstance(s, Reject):
            jid = job_id(s.job_id)
            out.append((jid, REJECT_MACHINE, None))
            v.queue.pop(jid, None)
            continue
        if isinstance(s, Start):
            jid, m, alloc = job_id(s.job_id), job_id(s.machine, "machine"), s.alloc
        else:
            jid, m, alloc = job_id(s), 0, None
        out.append((jid, m, alloc))
        j = v.queue.pop(jid, None)
        if j is not None:
            speed = v.machines[m].speed if 0 <= m < len(v.machines) else 1.0
            dur = j.walltime * (j.bm_est or 1.0) / speed if speed != 1.0 or j.bm_est else j.walltime
            v.running[jid] = Running(j, m, v.now, v.now + dur)
    return out


class Host:
    """Runs the protocol for a Policy over two file objects: requests in,
    replies out. It keeps the view up to date from the events alone."""

    def __init__(self, policy: Policy, requests, reply_fd: int):
        self.policy = policy
        self.requests = requests
        self.reply_fd = reply_fd
        self.view = View()
        self.ended = False
        self.instants = 0

    def _job(self, d: dict) -> Job:
        return Job(
            d["id"],
            d["subtime"],
            d["res"],
            d["walltime"],
            d.get("user", -1),
            d.get("group", -1),
            d.get("mem", 0.0),
            d.get("speed", 0.0),
            d.get("bm_est", 0.0),
            d.get("deadline", 0.0),
        )

    def read(self) -> bool:
        """Reads one request and updates the view; False at the end."""
        line = self.requests.readline()
        if not line:
            return False
        msg = json.loads(line)
        v = self.view
        v.now = msg["now"]
        v.submitted = []
        v.completed = []
        v.requested_call = False
        begun = False
        for e in msg["events"]:
            t, d = e["type"], e["data"]
            if t == "JOB_SUBMITTED":
                add_submitted(v, self._job(d["job"]))
            elif t == "JOB_COMPLETED":
                v.running.pop(d["job_id"], None)
                v.completed.append(d["job_id"])
            elif t == "REQUESTED_CALL":
                v.requested_call = True
            elif t == "SIMULATION_BEGINS":
                v.machines = [
                    Machine(m["id"], m["cpus"], m["first_cpu"], m.get("speed", 1.0), m.get("mem", 0.0))
                    for m in d["machines"]
                ]
                begun = True
            elif t == "SIMULATION_ENDS":
                self.ended = True
                self.policy.end(v)
                return False
        v.free = msg["view"]["free"]
        if begun:
            self.policy.begin(v)
        return True

    def reply(self, starts, wake=None) -> None:
        """Applies the starts to the view and sends them (and a
        CALL_ME_LATER at `wake`)."""
        events = []
        if wake is not None:
            events.append({"type": "CALL_ME_LATER", "data": {"timestamp": wake}})
        for jid, m, alloc in apply_starts(self.view, starts):
            if m == REJECT_MACHINE:
                events.append({"type": "REJECT_JOB", "data": {"job_id": jid}})
                continue
            data = {"job_id": jid}
            if m:
                data["machine"] = m
            if alloc:
                data["alloc"] = alloc
            events.append({"type": "EXECUTE_JOB", "data": data})
        self.send(events)

    def send(self, events) -> None:
        b = (json.dumps({"now": self.view.now, "events": events}, separators=(",", ":")) + "\n").encode()
        while b:
            n = os.write(self.reply_fd, b)
            b = b[n:]

    def step(self) -> bool:
        """One instant: read, decide, reply. False at the end."""
        if not self.read():
            return False
        self.instants += 1
        starts = self.policy.decide(self.view)
        wake, self.policy._wake = self.policy._wake, None
        self.reply(starts, wake)
        return True


class InprocHost:
    """Runs a Policy on the engine in this process (a _inproc.Sim made
    with events=True): the same instants, events and view as Host, with
    no second process and no JSON."""

    def __init__(self, policy: Policy, sim):
        self.policy = policy
        self.sim = sim
        self.view = View()
        self.instants = 0
        self._starts = None  # the last decision: (ids, machines, allocs, wake)

    def read(self) -> bool:
        """Hands the last decision to the engine, runs to the next
        instant and updates the view; False at the end."""
        from . import _inproc

        sim = self.sim
        if self._starts is None:
            more = sim.step()
        else:
            ids, ms, allocs, wake = self._starts
            more = sim.step(ids, ms, allocs, wake)
        if not more:
            return False
        v = self.view
        v.now = sim.now
        v.submitted = []
        v.completed = []
        flags = sim.flags
        v.requested_call = bool(flags & _inproc.CALL)
        if flags & _inproc.BEGINS:
            cpus, first, speed, mem = sim.machines()
            v.machines = [Machine(i, int(cpus[i]), int(first[i]), float(speed[i]), float(mem[i])) for i in range(len(cpus))]
        for r in sim.submitted():
            add_submitted(
                v,
                Job(int(r[0]), float(r[1]), int(r[2]), float(r[3]), int(r[4]), int(r[5]), float(r[6]), float(r[7]), float(r[8]), float(r[9])),
            )
        for jid in sim.completed():
            jid = int(jid)
            v.running.pop(jid, None)
            v.completed.append(jid)
        v.free = [int(x) for x in sim.free()]
        if flags & _inproc.BEGINS:
            self.policy.begin(v)
        if flags & _inproc.ENDS:
            self.policy.end(v)
            self._starts = None
            while sim.step():  # the run's last step ends it
                pass
            return False
        return True

    def step(self) -> bool:
        """One instant: read, decide. False at the end."""
        if not self.read():
            return False
        self.instants += 1
        starts = self.policy.decide(self.view)
        wake, self.policy._wake = self.policy._wake, None
        dec = apply_starts(self.view, starts)
        ids = [d[0] for d in dec]
        ms = [d[1] for d in dec] if any(d[1] for d in dec) else None
        allocs = [d[2] for d in dec] if any(d[2] for d in dec) else None
        self._starts = (ids, ms, allocs, 0.0 if wake is None else float(wake))
        return True
