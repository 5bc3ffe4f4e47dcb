"""GPU first-fit on a platform of nodes, written in Python and run by
schedlab over the external-policy protocol's node extension
(docs/protocol.md, "On a platform of nodes").

At each instant, each waiting job in queue order (submit time, then id):

- a job of one node (its request allows a single node and no
  constraint) starts now on a node that holds all of it (free cores for
  its tasks, free memory, the free GPUs it asks per node): for a GPU job
  the node with the most free GPUs of the kinds it asks (ties: the lowest
  node id), for any other job the first such node by id. The start names
  the node and its tasks; the core and GPU ids are left to schedlab (the
  node's lowest free ones).
- a job of several nodes, or with a feature constraint, starts only when
  every node is idle, with no nodes named: schedlab's selection rule
  places it (it fits the empty platform, or schedlab would have refused
  it at submission).

Jobs that fit nowhere now wait; later jobs may start before them (a
first-fit, not strict FCFS, and no reservation: a large job may starve).

    python3 examples/python/gpu_first_fit.py TRACE OUT.csv NODES...

runs TRACE (a job table, or SWF) on the node groups NODES (as --nodes)
and writes OUT.csv (jobs.csv). Needs the schedlab package: pip install ./python
"""

import shutil
import sys
import tempfile
from pathlib import Path

import schedlab


def serves(want: str, kind: str) -> bool:
    """Whether units of `kind` ("gpu:a100") serve a request for `want`
    ("gpu" takes any type of its name)."""
    name, _, typ = want.partition(":")
    kname, _, ktype = kind.partition(":")
    return name == kname and (typ == "" or typ == ktype)


def needs(n, r):
    """(cores, memory) a job of request r takes on node n, all its tasks there."""
    per_task = -(-r.cpus_per_task // n.threads)
    c = n.cores if r.exclusive else r.tasks * per_task
    m = n.mem if r.exclusive else (r.mem_per_node or r.mem_per_cpu * c * n.threads)
    return c, m


def holds(n, r, cores, mem, gres, jobs):
    """Whether node n, with cores, mem, gres (kind -> units) free and
    jobs running, holds all of a job of request r."""
    c, m = needs(n, r)
    if cores < c or (n.mem and mem < m) or (r.exclusive and jobs):
        return False
    return all(sum(u for k, u in gres.items() if serves(w, k)) >= cnt for w, cnt in r.gres_per_node.items())


class GPUFirstFit(schedlab.Policy):
    name = "gpu-first-fit"

    def decide(self, view):
        # what is free, counted down as this instant's starts take it
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
                # several nodes: when every node is idle, the engine's rule places it
                if idle:
                    starts.append(job.id)
                    idle = False
                    for n in view.nodes:  # nothing else this instant
                        cores[n.id] = 0
                continue
            best = None
            for n in view.nodes:
                if n.whole or not holds(n, r, cores[n.id], mem[n.id], gres[n.id], jobs[n.id]):
                    continue
                gpus = sum(u for k, u in gres[n.id].items() if k.partition(":")[0] == "gpu")
                if best is None or gpus > best[0]:
                    best = (gpus, n)
                if not r.gres_per_node:
                    break  # first fit for a job without GPUs
            if best is None:
                continue
            n = best[1]
            c, m = needs(n, r)
            cores[n.id] -= c
            mem[n.id] -= m
            jobs[n.id] += 1
            idle = False
            for w, cnt in r.gres_per_node.items():  # the kinds in order, as schedlab takes them
                for k in sorted(gres[n.id]):
                    if serves(w, k):
                        take = min(cnt, gres[n.id][k])
                        gres[n.id][k] -= take
                        cnt -= take
            starts.append(schedlab.Start(job.id, nodes=[schedlab.NodeUse(n.name, tasks=r.tasks)]))
        return starts


def main(argv):
    if len(argv) < 4:
        print("usage: gpu_first_fit.py TRACE OUT.csv NODES...", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as d:
        result = schedlab.run(trace=argv[1], policy=GPUFirstFit(), out=Path(d) / "out", nodes=argv[3:])
        shutil.copyfile(result.out / "jobs.csv", argv[2])
    s = result.summary
    print(f"{s['jobs']} jobs, mean wait {s['mean_wait']:.1f} s; wrote {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
