"""Per-decision cost of a trivial Python policy (a strict FCFS) on a
trace, in process (schedlab's shared library, schedlab._inproc) and over
the protocol (schedlab.run with a schedlab.Policy: a second process).

    python tools/gymbench/decisions.py inprocess TRACE
    python tools/gymbench/decisions.py process TRACE

Prints the run's wall time (from the start of the run to its summary,
without Python's start-up), its decisions (requests) and the time per
decision. The in-process FCFS reads the queue as arrays; the process
one is examples/python/fcfs.py's (the View of the protocol's events).
"""

import sys
import time

import schedlab
from schedlab import _inproc


def inprocess(trace):
    sim = _inproc.Sim(["run", "--trace", trace, "--policy", "external", "--no-out", "--json", "--set", "view=free"])
    n, ids = 0, []
    t = time.perf_counter()
    while sim.step(ids):
        n += 1
        ids = []
        if sim.flags & _inproc.ENDS:
            continue
        qid, qres, _, _ = sim.queue()
        free = int(sim.free()[0])
        for k in range(len(qid)):  # (stops at the first job that does not fit)
            r = int(qres[k])
            if r > free:
                break
            free -= r
            ids.append(int(qid[k]))
    return time.perf_counter() - t, n


class FCFS(schedlab.Policy):
    def decide(self, view):
        free, starts = view.free[0], []
        for job in view.queue.values():
            if job.res > free:
                break
            free -= job.res
            starts.append(job.id)
        return starts


def process(trace):
    from schedlab import _policy

    n = [0]
    orig = _policy.Host.step

    def step(self):
        n[0] += 1
        return orig(self)

    _policy.Host.step = step
    schedlab.binary()  # built before the clock starts
    t = time.perf_counter()
    schedlab.run(trace=trace, policy=FCFS(), out=None)
    return time.perf_counter() - t, n[0]


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("inprocess", "process"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if sys.argv[1] == "inprocess" and _inproc.library() is None:
        sys.exit(f"no schedlab library: {_inproc.why_not()}")
    dt, n = (inprocess if sys.argv[1] == "inprocess" else process)(sys.argv[2])
    print(f"{sys.argv[1]}: {dt:.3f} s, {n} decisions, {dt / n * 1e6:.1f} us per decision")
