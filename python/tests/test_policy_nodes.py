"""Python policies on a platform of nodes (docs/protocol.md, "On a
platform of nodes"): the node view, job requests, starts that name
nodes or leave them to the engine."""

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


def test_gpu_first_fit(table):
    r = schedlab.run(trace=table, policy=GPUFirstFit(), nodes=NODES, check=True)
    assert starts(r) == WANT
    assert "check: schedule valid" in r.stdout
    # engine="auto" runs over the protocol on nodes; "inprocess" is refused
    with pytest.raises(ValueError, match="platform of nodes"):
        schedlab.run(trace=table, policy=GPUFirstFit(), nodes=NODES, engine="inprocess")


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


def test_view_on_nodes(table):
    p = Recorder()
    r = schedlab.run(trace=table, policy=p, nodes=NODES, engine="process", check=True)
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


def test_requests(table):
    p = Requests()
    schedlab.run(trace=table, policy=p, nodes=NODES)
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


def test_busy_gpu_refused(table):
    busy = r"policy external at t=5: start job 4: node gpu1: gres gpu unit 0 is busy"
    with pytest.raises(schedlab.SchedlabError, match=busy):
        schedlab.run(trace=table, policy=BusyGPU(), nodes=NODES)


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
