"""EASY backfilling (Lifka) written in Python, run by schedlab over the
external-policy protocol. At each instant: start jobs from the head of the
queue while they fit; if the head does not fit, its shadow time is the
earliest estimated end of running jobs at which enough CPUs are free, and
the extra CPUs are those free then beyond the head's need; each later job
starts now if it fits now and either ends (by its estimate) by the shadow
time or needs no more than the extra CPUs (a job ending after the shadow
time uses them up). The same rule as `schedlab run --policy easy`
(docs/scheduling.md), on one machine.

    python3 examples/python/easy.py TRACE OUT.csv
"""

import shutil
import sys
import tempfile
from pathlib import Path

import schedlab


class EASY(schedlab.Policy):
    name = "easy-python"

    def decide(self, view):
        now, free = view.now, view.free[0]
        starts = []
        ends = None  # estimated ends of the running jobs, plus this pass's starts
        queue = iter(view.queue.values())
        head = None
        for job in queue:
            if job.res <= free:
                free -= job.res
                starts.append(job.id)
                continue
            head = job
            break
        if head is None:
            return starts
        ends = [(r.estimated_end, r.job.res) for r in view.running.values()]
        for jid in starts:
            j = view.queue[jid]
            ends.append((now + j.walltime, j.res))
        ends.sort()
        avail, shadow, k = free, None, 0
        while k < len(ends):
            t = ends[k][0]
            while k < len(ends) and ends[k][0] == t:  # every job ending at t
                avail += ends[k][1]
                k += 1
            if avail >= head.res:
                shadow = max(t, now)
                break
        extra = avail - head.res
        for job in queue:
            if job.res > free:
                continue
            if now + job.walltime <= shadow:
                free -= job.res
                starts.append(job.id)
            elif job.res <= extra:
                free -= job.res
                extra -= job.res
                starts.append(job.id)
        return starts


def main(argv):
    if len(argv) != 3:
        print("usage: easy.py TRACE OUT.csv", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as d:
        result = schedlab.run(trace=argv[1], policy=EASY(), out=Path(d) / "out")
        shutil.copyfile(result.out / "jobs.csv", argv[2])
    s = result.summary
    print(f"{s['jobs']} jobs, mean wait {s['mean_wait']:.1f} s; wrote {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
