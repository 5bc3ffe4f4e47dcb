"""Interleaved rounds of gymbench.py: in each round schedlab's
SchedulingEnv (engine in process) then RLScheduler's HPCEnv, each in a
fresh Python process, on the same trace; medians and ranges over the
rounds, and ours over theirs per round. For a shared machine, where
consecutive figures drift: interleaving exposes both to the same drift,
and the load average is printed with each round.

    python tools/gymbench/interleave.py ROUNDS TRACE DIR TRACE.swf [EPISODES [ENGINE]]

TRACE, DIR, TRACE.swf, EPISODES and ENGINE as for gymbench.py (TRACE
for schedlab, DIR and TRACE.swf for RLScheduler; EPISODES 20, ENGINE
inprocess by default). Run it from python/ (or with schedlab importable).
"""

import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = str(Path(__file__).resolve().parent / "gymbench.py")
FIGURES = ("steps only", "with resets", "env.step alone", "CPU, steps only")
LINE = re.compile(
    r"steps/s (\d+) \(steps only\), (\d+) \(with resets\), (\d+) \(env\.step alone\).*CPU steps/s (\d+) \(steps only\)"
)


def once(args):
    out = subprocess.run([sys.executable, BENCH, *args], check=True, capture_output=True, text=True).stdout
    m = LINE.search(out)
    if m is None:
        raise SystemExit(f"gymbench.py {' '.join(args)}: no figures in its output:\n{out}")
    return [int(x) for x in m.groups()]


def spread(xs):
    return f"{statistics.median(xs):,.0f} ({min(xs):,.0f}-{max(xs):,.0f})"


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    rounds, trace, folder, swf = int(argv[1]), argv[2], argv[3], argv[4]
    episodes = argv[5] if len(argv) > 5 else "20"
    engine = argv[6] if len(argv) > 6 else "inprocess"
    ours, theirs = [], []
    for k in range(rounds):
        load = os.getloadavg()[0]
        ours.append(once(["schedlab", trace, episodes, engine]))
        theirs.append(once(["rlscheduler", folder, swf, episodes]))
        print(
            f"round {k + 1} (load {load:.1f}-{os.getloadavg()[0]:.1f}): schedlab {ours[-1]}, rlscheduler {theirs[-1]} "
            f"steps/s ({', '.join(FIGURES)})",
            flush=True,
        )
    print(f"\n{rounds} rounds, steps/s median (range):")
    for i, name in enumerate(FIGURES):
        a, b = [o[i] for o in ours], [t[i] for t in theirs]
        ratio = [x / y for x, y in zip(a, b)]
        print(
            f"  {name}: schedlab {spread(a)}, rlscheduler {spread(b)}; "
            f"ratio per round {statistics.median(ratio):.1f}x ({min(ratio):.1f}-{max(ratio):.1f}x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
