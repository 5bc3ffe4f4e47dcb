"""Strict FCFS written in Python, run by schedlab over the external-policy
protocol: jobs start in queue order (submit time, then id) while they fit;
the first that does not fit stops the pass.

    python3 examples/python/fcfs.py TRACE OUT.csv

writes OUT.csv (jobs.csv: the same file as `schedlab run --policy fcfs`).
Needs the schedlab package: pip install ./python
"""

import shutil
import sys
import tempfile
from pathlib import Path

import schedlab


class FCFS(schedlab.Policy):
    name = "fcfs-python"

    def decide(self, view):
        free = view.free[0]
        starts = []
        for job in view.queue.values():
            if job.res > free:
                break
            free -= job.res
            starts.append(job.id)
        return starts


def main(argv):
    if len(argv) != 3:
        print("usage: fcfs.py TRACE OUT.csv", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as d:
        result = schedlab.run(trace=argv[1], policy=FCFS(), out=Path(d) / "out")
        shutil.copyfile(result.out / "jobs.csv", argv[2])
    s = result.summary
    print(f"{s['jobs']} jobs, mean wait {s['mean_wait']:.1f} s; wrote {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
