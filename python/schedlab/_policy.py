"""Python policies over the external-policy protocol (docs/protocol.md)."""

from __future__ import annotations

import json
import operator
import os
from dataclasses import dataclass, field


@dataclass(slots=True)
class Request:
    """What a job asks of a platform of nodes (docs/nodes.md, sbatch's
    terms): `nodes`..`max_nodes` nodes (0 and 0: any; max_nodes 0 with
    nodes > 0: exactly nodes), `tasks` of `cpus_per_task` CPUs (a task's
    CPUs on one node), memory per node or per CPU (MB; 0 none), GRES per
    node and per job ({"gpu": 2, "gpu:a100": 1}: a kind without type
    takes any type of its name), a feature constraint, whole nodes."""

    tasks: int = 1
    cpus_per_task: int = 1
    nodes: int = 0
    max_nodes: int = 0
    mem_per_node: int = 0
    mem_per_cpu: int = 0
    gres_per_node: dict = field(default_factory=dict)
    gres_per_job: dict = field(default_factory=dict)
    constraint: str = ""
    exclusive: bool = False


def _request(d: dict) -> Request:
    return Request(
        d["tasks"],
        d["cpus_per_task"],
        d.get("nodes", 0),
        d.get("max_nodes", 0),
        d.get("mem_per_node", 0),
        d.get("mem_per_cpu", 0),
        dict(d.get("gres_per_node", {})),
        dict(d.get("gres_per_job", {})),
        d.get("constraint", ""),
        d.get("exclusive", False),
    )


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
    request: Request | None = None  # on a platform of nodes (None on a pool of CPUs)


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
class Node:
    """A node of a platform of nodes (docs/nodes.md), with what is free
    on it at the instant of the view: `free_cores`, `free_mem` (MB; 0
    where memory is not modelled), `free_gres` (kind -> free units),
    `jobs` (jobs running on it) and `whole` (an exclusive job holds it).
    Core ids of the node are first_core .. first_core + cores - 1; unit
    ids of a GRES kind k are first_unit[k] .. first_unit[k] + gres[k] - 1."""

    id: int
    name: str
    cores: int
    sockets: int = 1
    threads: int = 1
    mem: int = 0
    gres: dict = field(default_factory=dict)
    first_core: int = 0
    first_unit: dict = field(default_factory=dict)
    features: list = field(default_factory=list)
    weight: int = 1
    free_cores: int = 0
    free_mem: int = 0
    free_gres: dict = field(default_factory=dict)
    jobs: int = 0
    whole: bool = False


@dataclass(slots=True)
class NodeUse:
    """What a start takes on one node (Start.nodes): `tasks` (None: all
    the job's, on a start of one node), `cores` (global core ids in
    Batsim's interval syntax, e.g. "4-5"; None: the node's lowest free
    cores) and `gres` (kind -> unit ids as "2-3", or a count taking the
    node's lowest free units; None: the request's GRES by the engine's
    rule). Memory is always what the request charges."""

    node: str
    tasks: int | None = None
    cores: str | None = None
    gres: dict | None = None


@dataclass(slots=True)
class Start:
    """A decision: start job `job_id` now on `machine`, on the CPUs `alloc`
    (Batsim's interval syntax, e.g. "0-3 8"; None: the lowest free ids).
    On a platform of nodes: on `nodes`, a list of node names or NodeUse
    values (None: the engine's selection rule places the job; machine
    and alloc are not used)."""

    job_id: int
    machine: int = 0
    alloc: str | None = None
    nodes: list | None = None


def _node_uses(nodes) -> list:
    """Start.nodes as the protocol's "nodes" list."""
    out = []
    for u in nodes:
        if isinstance(u, str):
            out.append(u)
        elif isinstance(u, Node):
            out.append(u.name)
        elif isinstance(u, NodeUse):
            d = {"node": u.node}
            if u.tasks is not None:
                d["tasks"] = job_id(u.tasks, "tasks")
            if u.cores is not None:
                d["cores"] = u.cores
            if u.gres is not None:
                d["gres"] = dict(u.gres)
            out.append(d)
        elif isinstance(u, dict):
            out.append(u)
        else:
            raise TypeError(f"a start's node {u!r} ({type(u).__name__}) is not a name, a NodeUse or a dict")
    return out


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
    Policy.call_me_at. On a platform of nodes (docs/protocol.md, "On a
    platform of nodes"): nodes, the Nodes by id with what is free on each
    (free is then the free cores of all nodes together, one machine),
    and each Job's request."""

    now: float = 0.0
    machines: list[Machine] = field(default_factory=list)
    free: list[int] = field(default_factory=list)
    queue: dict[int, Job] = field(default_factory=dict)
    running: dict[int, Running] = field(default_factory=dict)
    submitted: list[Job] = field(default_factory=list)
    completed: list[int] = field(default_factory=list)
    requested_call: bool = False  # this instant is a call asked for with call_me_at
    nodes: list[Node] = field(default_factory=list)  # on a platform of nodes, by id

    def node(self, name: str) -> Node:
        """The node named `name` (KeyError if there is none)."""
        if getattr(self, "_by_name", None) is None or len(self._by_name) != len(self.nodes):
            self._by_name = {n.name: n for n in self.nodes}
        return self._by_name[name]


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
    alloc, nodes) tuples, machine REJECT_MACHINE for a rejection, nodes
    None or the protocol's list."""
    out = []
    for s in starts:
        if isinstance(s, Reject):
            jid = job_id(s.job_id)
            out.append((jid, REJECT_MACHINE, None, None))
            v.queue.pop(jid, None)
            continue
        nodes = None
        if isinstance(s, Start):
            jid, m, alloc = job_id(s.job_id), job_id(s.machine, "machine"), s.alloc
            if s.nodes is not None:
                nodes = _node_uses(s.nodes)
        else:
            jid, m, alloc = job_id(s), 0, None
        out.append((jid, m, alloc, nodes))
        j = v.queue.pop(jid, None)
        if j is not None:
            speed = v.machines[m].speed if 0 <= m < len(v.machines) else 1.0
            dur = j.walltime * (j.bm_est or 1.0) / speed if speed != 1.0 or j.bm_est else j.walltime
            v.running[jid] = Running(j, m, v.now, v.now + dur)
    return out


def _platform_nodes(groups) -> list[Node]:
    """The nodes of SIMULATION_BEGINS's node_groups, by id, all free."""
    out = []
    for g in groups:
        gres = {k: x["count"] for k, x in g["gres"].items()}
        for i, name in enumerate(g["names"]):
            out.append(
                Node(
                    g["first_node"] + i,
                    name,
                    g["cores"],
                    g["sockets"],
                    g["threads"],
                    g["mem"],
                    dict(gres),
                    g["first_core"] + i * g["cores"],
                    {k: x["first_unit"] + i * x["count"] for k, x in g["gres"].items()},
                    list(g["features"]),
                    g["weight"],
                    g["cores"],
                    g["mem"],
                    dict(gres),
                )
            )
    return out


def _update_nodes(v: View, entries) -> None:
    """Applies a request's view entries of the nodes that changed."""
    for f in entries:
        n = v.nodes[f["id"]]
        n.free_cores, n.free_mem, n.jobs, n.whole = f["cores"], f["mem"], f["jobs"], f["whole"]
        n.free_gres.update(f.get("gres", {}))


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
            _request(d["req"]) if "req" in d else None,
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
                if d.get("platform") == "nodes":
                    v.nodes = _platform_nodes(d["node_groups"])
                begun = True
            elif t == "SIMULATION_ENDS":
                self.ended = True
                self.policy.end(v)
                return False
        v.free = msg["view"]["free"]
        _update_nodes(v, msg["view"].get("nodes", ()))
        if begun:
            self.policy.begin(v)
        return True

    def reply(self, starts, wake=None) -> None:
        """Applies the starts to the view and sends them (and a
        CALL_ME_LATER at `wake`)."""
        events = []
        if wake is not None:
            events.append({"type": "CALL_ME_LATER", "data": {"timestamp": wake}})
        for jid, m, alloc, nodes in apply_starts(self.view, starts):
            if m == REJECT_MACHINE:
                events.append({"type": "REJECT_JOB", "data": {"job_id": jid}})
                continue
            data = {"job_id": jid}
            if m:
                data["machine"] = m
            if alloc:
                data["alloc"] = alloc
            if nodes is not None:
                data["nodes"] = nodes
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
        self._starts = None  # the last decision: (ids, machines, allocs, wake, nodes)
        self._on_nodes = False  # the platform is one of nodes (known at the first instant)

    def read(self) -> bool:
        """Hands the last decision to the engine, runs to the next
        instant and updates the view; False at the end."""
        from . import _inproc

        sim = self.sim
        if self._starts is None:
            more = sim.step()
        else:
            ids, ms, allocs, wake, nodes = self._starts
            more = sim.step(ids, ms, allocs, wake, nodes)
        if not more:
            return False
        v = self.view
        v.now = sim.now
        v.submitted = []
        v.completed = []
        flags = sim.flags
        v.requested_call = bool(flags & _inproc.CALL)
        nv = None
        if flags & _inproc.BEGINS:
            cpus, first, speed, mem = sim.machines()
            v.machines = [Machine(i, int(cpus[i]), int(first[i]), float(speed[i]), float(mem[i])) for i in range(len(cpus))]
            # on a platform of nodes, the protocol's view of them
            # (as Host reads it from the requests)
            nv = sim.nodes_view()
            self._on_nodes = nv is not None
            if nv is not None:
                v.nodes = _platform_nodes(nv["node_groups"])
        elif self._on_nodes and not flags & _inproc.ENDS:
            nv = sim.nodes_view()
        reqs = nv["req"] if nv is not None else ()
        for k, r in enumerate(sim.submitted()):
            add_submitted(
                v,
                Job(
                    int(r[0]),
                    float(r[1]),
                    int(r[2]),
                    float(r[3]),
                    int(r[4]),
                    int(r[5]),
                    float(r[6]),
                    float(r[7]),
                    float(r[8]),
                    float(r[9]),
                    _request(reqs[k]) if k < len(reqs) else None,
                ),
            )
        for jid in sim.completed():
            jid = int(jid)
            v.running.pop(jid, None)
            v.completed.append(jid)
        v.free = [int(x) for x in sim.free()]
        if nv is not None:
            _update_nodes(v, nv["nodes"])
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
        # a start's nodes as the protocol's "nodes" list, which the engine
        # reads as a reply's (as Host sends it)
        nodes = (
            [None if d[3] is None else json.dumps(d[3], separators=(",", ":")) for d in dec]
            if any(d[3] is not None for d in dec)
            else None
        )
        self._starts = (ids, ms, allocs, 0.0 if wake is None else float(wake), nodes)
        return True
