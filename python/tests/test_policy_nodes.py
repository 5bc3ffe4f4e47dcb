"""Python policies on a platform of nodes (docs/protocol.md, "On a
platform of nodes"): the node view, job requests, starts that name
nodes or leave them to the engine."""

import copy
import os
import sys
from pathlib import Path

import pytest

import schedlab
from conftest import REPO
from gpu_first_fit import GPUFirstFit

# gpu1: cores 0-7, gpu units 0-3; gpu2: cores 8-15, units 4-7; cpu1: cores 16-23
NODES = ["gpu[1-2]:cores=8:gres=gpu=4", "cpu1:cores=8"]

TABLE = """# schedlab job table v1
id\tsubmit\truntime\tprocs\treq_time\tnodes\ttasks\tcpus_per_task\tgres_per_node
1\t0\t100\t2\t100\t0\t1\t2\tgpu:1
2\t0\t100\t1\t100\t0\t1\t1\tgpu:2
3\t0\t50\t4\t50\t0\t4\t1\t
4\t5\t20\t1\t20\t0\t1\t1\tgpu:3
5\t6\t10\t2\t10\t2\t2\t1\t
6\t7\t10\t1\t10\t0\t1\t1\tgpu:1
"""

# Worked by hand from gpu_first_fit.py's rule (the most free GPUs, ties
# the lowest id; first fit for the others; several nodes when all idle):
#  t=0  1 (2 CPUs, 1 gpu): gpu1 and gpu2 have 4 free: gpu1, cores 0-1, unit 0
#       2 (2 gpus): gpu1 3 free, gpu2 4: gpu2, core 8, units 4-5
#       3 (4 tasks): first node with 4 free cores: gpu1, cores 2-5
#  t=5  4 (3 gpus): gpu1 3 free, gpu2 2: gpu1, core 6, units 1-3
#  t=6  5 (2 nodes) waits for every node to be idle
#  t=7  6 (1 gpu): gpu1 0 free, gpu2 2: gpu2, core 9, unit 6
#  t=100 1 and 2 end, all idle: 5 by the engine's rule, gpu1 and gpu2, cores 0 and 8
WANT = {
    1: (0, "0-1", "gpu1", "gpu=0"),
    2: (0, "8", "gpu2", "gpu=4-5"),
    3: (0, "2-5", "gpu1", ""),
    4: (5, "6", "gpu1", "gpu=1-3"),
    5: (100, "0 8", "gpu[1-2]", ""),
    6: (7, "9", "gpu2", "gpu=6"),
}


@pytest.fixture
def table(tmp_path):
    p = tmp_path / "gpu.jobs"
    p.write_text(TABLE)
    return p


def starts(r):
    j = r.jobs.fillna({"allocated_gres": ""})
    return {
        int(row.job_id): (row.starting_time, row.allocated_resources, row.allocated_nodes, row.allocated_gres)
        for row in j.itertuples()
    }


def engines():
    """The engines a Python policy runs on: over the protocol, and in
    process when the library is available."""
    from schedlab import _inproc

    return ["process", "inprocess"] if _inproc.library() is not None else ["process"]


@pytest.mark.parametrize("engine", engines())
def test_gpu_first_fit(table, engine):
    r = schedlab.run(trace=table, policy=GPUFirstFit(), nodes=NODES, check=True, engine=engine)
    assert starts(r) == WANT
    assert "check: schedule valid" in r.stdout


class Recorder(schedlab.Policy):
    """Starts the head at t=0 and t=5, later only on an idle platform,
    each placed by the engine; keeps what the view says."""

    def begin(self, view):
        self.nodes = [(n.id, n.name, n.cores, n.first_core, dict(n.gres), dict(n.first_unit)) for n in view.nodes]
        self.seen = []

    def decide(self, view):
        self.seen.append((view.now, view.free[0], [(n.free_cores, n.free_gres.get("gpu"), n.jobs) for n in view.nodes]))
        if view.now in (0, 5) or all(n.jobs == 0 for n in view.nodes):
            return [next(iter(view.queue))]  # the head, placed by the engine
        return []


@pytest.mark.parametrize("engine", engines())
def test_view_on_nodes(table, engine):
    p = Recorder()
    r = schedlab.run(trace=table, policy=p, nodes=NODES, engine=engine, check=True)
    assert p.nodes == [
        (0, "gpu1", 8, 0, {"gpu": 4}, {"gpu": 0}),
        (1, "gpu2", 8, 8, {"gpu": 4}, {"gpu": 4}),
        (2, "cpu1", 8, 16, {}, {}),
    ]
    # t=0: all free; job 1 (2 cores, 1 gpu) starts by the engine's rule on gpu1.
    # t=5: gpu1 has 6 cores and 3 gpus free; job 2 (1 core, 2 gpus) starts: gpu1 again.
    # t=6, 7: 5 cores and 1 gpu free on gpu1
    assert p.seen[0] == (0, 24, [(8, 4, 0), (8, 4, 0), (8, None, 0)])
    assert p.seen[1] == (5, 22, [(6, 3, 1), (8, 4, 0), (8, None, 0)])
    assert p.seen[2] == (6, 21, [(5, 1, 2), (8, 4, 0), (8, None, 0)])
    s = starts(r)
    assert s[1] == (0, "0-1", "gpu1", "gpu=0")
    assert s[2] == (5, "2", "gpu1", "gpu=1-2")


class Requests(GPUFirstFit):
    def begin(self, view):
        self.reqs = {}

    def decide(self, view):
        for j in view.submitted:
            self.reqs[j.id] = j.request
        return super().decide(view)


@pytest.mark.parametrize("engine", engines())
def test_requests(table, engine):
    p = Requests()
    schedlab.run(trace=table, policy=p, nodes=NODES, engine=engine)
    assert p.reqs[1] == schedlab.Request(tasks=1, cpus_per_task=2, gres_per_node={"gpu": 1})
    assert p.reqs[5] == schedlab.Request(tasks=2, cpus_per_task=1, nodes=2)
    assert p.reqs[3].gres_per_node == {} and not p.reqs[3].exclusive


class BusyGPU(schedlab.Policy):
    def decide(self, view):
        if view.now == 0:
            return [schedlab.Start(1, nodes=["gpu1"])]
        if view.now == 5:  # gpu unit 0 is job 1's
            return [schedlab.Start(4, nodes=[schedlab.NodeUse("gpu1", gres={"gpu": "0-2"})])]
        return []


@pytest.mark.parametrize("engine", engines())
def test_busy_gpu_refused(table, engine):
    busy = r"policy external at t=5: start job 4: node gpu1: gres gpu unit 0 is busy"
    with pytest.raises(schedlab.SchedlabError, match=busy):
        schedlab.run(trace=table, policy=BusyGPU(), nodes=NODES, engine=engine)


def test_served_on_nodes(table, monkeypatch):
    """--policy python (python -m schedlab.serve) on nodes: the same schedule."""
    monkeypatch.setenv("PYTHONPATH", str(Path(schedlab.__file__).resolve().parent.parent))
    r = schedlab.run(
        trace=table,
        policy="python",
        nodes=NODES,
        python=sys.executable,
        path=str(REPO / "examples" / "python"),
        **{"class": "gpu_first_fit:GPUFirstFit"},
    )
    assert starts(r) == WANT


class FirstFit(schedlab.Policy):
    """First fit on nodes: each waiting job in queue order that one node
    holds now starts on the first such node by id, naming it and its
    tasks (and, when `counts`, its GPUs per node as counts); a job of
    several nodes, or that no single node could hold, starts only when
    every node is idle, placed by the engine's rule. Counts down what its
    starts take."""

    def __init__(self, counts=False):
        self.counts = counts

    def decide(self, view):
        from gpu_first_fit import holds, needs

        cores = {n.id: n.free_cores for n in view.nodes}
        mem = {n.id: n.free_mem for n in view.nodes}
        gres = {n.id: dict(n.free_gres) for n in view.nodes}
        jobs = {n.id: n.jobs for n in view.nodes}
        idle = all(n.jobs == 0 for n in view.nodes)
        starts = []
        for job in view.queue.values():
            r = job.request
            one = r.nodes <= 1 and not r.constraint and not r.gres_per_job
            if not one or not any(holds(n, r, n.cores, n.mem, n.gres, 0) for n in view.nodes):
                if idle:
                    starts.append(job.id)
                    idle = False
                    for n in view.nodes:
                        cores[n.id] = 0
                continue
            for n in view.nodes:
                if holds(n, r, cores[n.id], mem[n.id], gres[n.id], jobs[n.id]):
                    c, m = needs(n, r)
                    cores[n.id] -= c
                    mem[n.id] -= m if n.mem else 0
                    jobs[n.id] += 1
                    use = schedlab.NodeUse(n.name, tasks=r.tasks)
                    if self.counts and r.gres_per_node and all(k in n.gres for k in r.gres_per_node):
                        use.gres = dict(r.gres_per_node)
                    for w, cnt in r.gres_per_node.items():  # take from the kinds that serve w
                        for k in gres[n.id]:
                            take = min(cnt, gres[n.id][k]) if k.partition(":")[0] == w.partition(":")[0] else 0
                            gres[n.id][k] -= take
                            cnt -= take
                    starts.append(schedlab.Start(job.id, nodes=[use]))
                    idle = False
                    break
        return starts


def random_case(seed, path):
    """A random platform of 2-4 node groups (cores, memory, GPUs of one
    or two types) and a job table of 80 jobs asking for tasks, CPUs per
    task, memory per node, GPUs per node, some of several nodes; written
    to path. Returns the node groups."""
    import random

    rnd = random.Random(seed)
    groups, nodes_of = [], []  # the groups' text, and (count, cores, mem MB, gpu type, gpus) of each
    for g in range(rnd.randint(2, 4)):
        count, cores = rnd.randint(1, 3), rnd.choice([2, 4, 8])
        spec, mem, typ, gpus = f"g{g}n[1-{count}]:cores={cores}", 0, "", 0
        if rnd.random() < 0.5:
            mem = rnd.choice([4, 8])
            spec += f":mem={mem}G"
        if rnd.random() < 0.6:
            typ, gpus = rnd.choice(["a", "b"]), rnd.randint(1, 4)
            spec += f":gres=gpu:{typ}={gpus}"
        groups.append(spec)
        nodes_of.append((count, cores, mem * 1024, typ, gpus))

    def fits(tasks, cpt, mem, gpu):  # some node holds the whole job (a job of one node)
        kind, n = (gpu.rsplit(":", 1)[0], int(gpu.rsplit(":", 1)[1])) if gpu else ("", 0)
        return any(
            cores >= tasks * cpt
            and (m == 0 or m >= mem)
            and (n == 0 or (gpus >= n and kind in ("gpu", f"gpu:{typ}")))
            for _, cores, m, typ, gpus in nodes_of
        )

    lines = [
        "# schedlab job table v1",
        "id\tsubmit\truntime\tprocs\treq_time\tnodes\ttasks\tcpus_per_task\tmem_per_node_mb\tgres_per_node",
    ]
    t, i = 0, 0
    while i < 80:
        tasks, cpt = rnd.randint(1, 2), rnd.choice([1, 1, 2])
        mem = rnd.choice([0, 0, 512, 2048])
        gpu = rnd.choice(["", "", "gpu:1", "gpu:2", "gpu:a:1"])
        nodes = 0
        if rnd.random() < 0.15:  # two nodes of one task each (every platform has two nodes of 2 cores or more)
            nodes, tasks, cpt, mem, gpu = 2, 2, 1, 0, ""
        elif not fits(tasks, cpt, mem, gpu):
            continue
        i += 1
        t += rnd.choice([0, 0, 1, 3, 10])
        run = rnd.randint(1, 60)
        lines.append(f"{i}\t{t}\t{run}\t{tasks * cpt}\t{run + rnd.randint(0, 20)}\t{nodes}\t{tasks}\t{cpt}\t{mem}\t{gpu}")
    path.write_text("\n".join(lines) + "\n")
    return groups


@pytest.mark.skipif(len(engines()) < 2, reason="the schedlab library is not available")
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("policy", ["gpu-first-fit", "first-fit", "first-fit-counts"])
def test_engines_agree_on_nodes(tmp_path, seed, policy):
    """The same Python policy on a random platform of nodes gives the
    same jobs.csv, byte for byte, in process and over the protocol."""
    table = tmp_path / "jobs.table"
    groups = random_case(seed, table)
    make = {"gpu-first-fit": GPUFirstFit, "first-fit": FirstFit, "first-fit-counts": lambda: FirstFit(counts=True)}[policy]
    out = {}
    for engine in ("process", "inprocess"):
        out[engine] = tmp_path / engine
        schedlab.run(trace=table, policy=make(), nodes=groups, engine=engine, out=out[engine], check=True)
    a, b = (out["process"] / "jobs.csv").read_bytes(), (out["inprocess"] / "jobs.csv").read_bytes()
    assert a.count(b"\n") == 81  # every job ran (a header and 80 rows)
    assert a == b


class Named(schedlab.Policy):
    """Starts job 1 at t=0 on the node `where`."""

    def __init__(self, where):
        self.where = where

    def decide(self, view):
        return [schedlab.Start(1, nodes=self.where)] if view.now == 0 else []


@pytest.mark.parametrize("engine", engines())
@pytest.mark.parametrize(
    "where, msg",
    [
        (["gpu9"], r'start job 1: node "gpu9": no such node|job 1: node "gpu9": no such node'),
        ([schedlab.NodeUse("gpu1", gres={"gpu": 5})], r'job 1: node gpu1: gres "gpu": 5 unit\(s\) asked, the node has 4'),
        ([], r'job 1: "nodes" is empty'),
    ],
)
def test_bad_nodes_refused(table, engine, where, msg):
    """A start naming nodes wrongly is refused with the protocol's
    message, with both engines."""
    with pytest.raises(schedlab.SchedlabError, match=msg):
        schedlab.run(trace=table, policy=Named(where), nodes=NODES, engine=engine)


@pytest.mark.skipif(len(engines()) < 2, reason="the schedlab library is not available")
def test_nodes_on_a_pool_refused_in_process(table):
    """In process, a start that names nodes on a pool of CPUs (no nodes=)
    fails the run, naming the job."""
    with pytest.raises(schedlab.SchedlabError, match=r"start 1 of the decision: job 1 names nodes, but the platform is a pool of CPUs"):
        schedlab.run(trace=table, policy=Named(["gpu1"]), engine="inprocess", procs=24)


class ViewRecorder(FirstFit):
    """FirstFit that records everything its view says at each instant:
    the machines, the free cores, every node (what is free on it), the
    queue (each job with its request), the running jobs and the events."""

    def begin(self, view):
        # (compared as values: the protocol's machine speed is the int 1, the library's the float 1.0)
        self.seen = [("begin", copy.deepcopy(view.machines), copy.deepcopy(view.nodes))]

    def decide(self, view):
        self.seen.append(
            copy.deepcopy(
                (view.now, view.requested_call, list(view.free), view.nodes, list(view.queue.values()),
                 sorted(view.running.items()), view.submitted, list(view.completed))
            )
        )
        return super().decide(view)


@pytest.mark.skipif(len(engines()) < 2, reason="the schedlab library is not available")
@pytest.mark.parametrize("seed", range(3))
def test_engines_same_view_on_nodes(tmp_path, seed):
    """In process and over the protocol, a policy on nodes sees the same
    view at every instant, field for field."""
    table = tmp_path / "jobs.table"
    groups = random_case(seed, table)
    seen = {}
    for engine in ("process", "inprocess"):
        p = ViewRecorder()
        schedlab.run(trace=table, policy=p, nodes=groups, engine=engine)
        seen[engine] = p.seen
    assert len(seen["process"]) > 10
    assert seen["process"] == seen["inprocess"]
