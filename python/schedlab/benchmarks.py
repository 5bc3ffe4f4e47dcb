"""Fixed benchmark splits and their baseline scores (docs/benchmarks.md).

    import schedlab
    from schedlab import benchmarks

    for args in benchmarks.split("kth", "test"):   # one dict per test week
        r = schedlab.run(policy=MyPolicy(), **args)
        print(args["from"], r.summary["mean_bounded_slowdown"])

A split names train, validation and test units of one workload: weeks
of a real trace (KTH-SP2, embedded; HPC2N, from the folder of the real
traces), or seeds of a synthetic Lublin-Feitelson trace. Each unit is one
run from an empty machine: a week is the jobs submitted in [w x 604800,
(w+1) x 604800) seconds since the trace's time 0 (run --from, --to),
run to completion; a seed is a trace `schedlab trace synth` writes.
The definitions below are fixed: a number reported on a split's test
units means the same on every machine.

    python -m schedlab.benchmarks [--split NAME ...] [--part test] [--out FILE.md]

computes the baseline scores (FCFS, SJF, F1, EASY) on each split's
test units and prints the table docs/benchmarks.md shows.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ._binary import SchedlabError, binary
from ._policy import Policy

__all__ = ["Split", "SPLITS", "WEEK", "split", "units", "SJF", "F1", "BASELINES", "baselines", "table"]

WEEK = 604800  # seconds
PARTS = ("train", "validation", "test")


@dataclass(frozen=True)
class Split:
    """One benchmark: its units (week numbers of a trace, or seeds of a
    synthetic trace) for each part.

    kind "weeks": `trace` is the trace's bare name (found as schedlab run
    finds it: embedded, or in $SCHEDLAB_TRACES); unit w is the week
    [w * WEEK, (w + 1) * WEEK) in seconds since the trace's time 0.
    kind "lublin": unit s is the trace `schedlab trace synth --model
    lublin --procs PROCS --jobs JOBS --load LOAD --seed s` writes."""

    kind: str
    train: range
    validation: range
    test: range
    trace: str = ""
    procs: int = 0
    jobs: int = 0
    load: float = 0.0
    about: str = ""

    def part(self, part: str) -> range:
        if part not in PARTS:
            raise ValueError(f"part {part!r}: want one of {', '.join(PARTS)}")
        return getattr(self, part)


# The splits. Weeks: the whole weeks between the trace's first and last
# submission, in time order, about 70% train, then validation, and the
# last 20% test (no unit of one part is in another; the test weeks come
# after every training week, as a policy learned on the past meets the
# future). Never change a split: add a new one under a new name.
SPLITS = {
    # KTH-SP2 (100 CPUs): first submit 599,850 s, last 29,363,618 s:
    # whole weeks 1..47
    "kth": Split(
        kind="weeks",
        trace="KTH-SP2-1996-2.1-cln.swf.gz",
        train=range(1, 33),
        validation=range(33, 39),
        test=range(39, 48),
        about="KTH-SP2 (100 CPUs), weeks of the trace",
    ),
    # HPC2N (240 CPUs): first submit 0 s, last 109,583,573 s: whole
    # weeks 0..180
    "hpc2n": Split(
        kind="weeks",
        trace="HPC2N-2002-2.1-cln.swf.gz",
        train=range(0, 127),
        validation=range(127, 145),
        test=range(145, 181),
        about="HPC2N (240 CPUs), weeks of the trace (not embedded: $SCHEDLAB_TRACES)",
    ),
    # Lublin-Feitelson batch jobs on 256 CPUs at offered load 0.75, with
    # Tsafrir's requests; one trace of 2,000 jobs per seed
    "lublin256": Split(
        kind="lublin",
        procs=256,
        jobs=2000,
        load=0.75,
        train=range(1, 17),
        validation=range(17, 21),
        test=range(21, 29),
        about="Lublin-Feitelson (256 CPUs, 2,000 jobs a seed, load 0.75)",
    ),
}


def _get(name) -> Split:
    if isinstance(name, Split):
        return name
    try:
        return SPLITS[name]
    except KeyError:
        raise ValueError(f"no benchmark split {name!r}: the splits are {', '.join(SPLITS)}") from None


def units(name, part: str) -> list[int]:
    """The part's units of the split: week numbers or seeds, in order."""
    return list(_get(name).part(part))


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "schedlab" / "benchmarks"


def _synth(s: Split, seed: int, cache: Path) -> Path:
    """The Lublin trace of seed (written once into cache)."""
    load = repr(float(s.load))
    path = cache / f"lublin-p{s.procs}-j{s.jobs}-l{load}-s{seed}.swf"
    if not path.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        cmd = [binary(), "trace", "synth", "--model", "lublin", "--procs", str(s.procs), "--jobs", str(s.jobs), "--load", load, "--seed", str(seed), "--out", str(tmp)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise SchedlabError(f"schedlab trace synth exited with status {r.returncode}: {r.stderr.strip()}\n(command: {' '.join(cmd)})")
        os.replace(tmp, path)
    return path


def split(name, part: str, traces=None, cache=None) -> list[dict]:
    """The run arguments of the split's part, one dict per unit in order,
    for schedlab.run(policy=..., **args): trace and, for weeks, "from"
    and "to" (seconds since the trace's time 0).

    traces: a folder holding the real traces (default: the bare name,
    which schedlab looks up itself: embedded, or in $SCHEDLAB_TRACES).
    cache: where the synthetic traces are written once (default
    ~/.cache/schedlab/benchmarks, $XDG_CACHE_HOME)."""
    s = _get(name)
    out = []
    for u in s.part(part):
        if s.kind == "weeks":
            trace = str(Path(traces) / s.trace) if traces is not None else s.trace
            out.append({"trace": trace, "from": str(u * WEEK), "to": str((u + 1) * WEEK)})
        elif s.kind == "lublin":
            out.append({"trace": str(_synth(s, u, Path(cache) if cache is not None else _cache_dir()))})
        else:
            raise ValueError(f"split kind {s.kind!r}: want weeks or lublin")
    return out


class _Strict(Policy):
    """A strict priority order without backfilling (RLScheduler's
    heuristic schedulers): the waiting jobs in order of key(job) (then
    submit time, then id); the first that does not fit the free CPUs
    waits, and so does every job after it."""

    def key(self, job) -> float:
        raise NotImplementedError

    def decide(self, view):
        free, starts = view.free[0], []
        for job in sorted(view.queue.values(), key=lambda j: (self.key(j), j.subtime, j.id)):
            if job.res > free:
                break
            free -= job.res
            starts.append(job.id)
        return starts


class SJF(_Strict):
    """Shortest requested time first, strictly (no backfilling)."""

    name = "sjf"

    def key(self, job):
        return job.walltime


class F1(_Strict):
    """RLScheduler's F1 (Carastan-Santos and de Camargo, SC'17), lowest
    first, strictly: log10(r) * n + 870 * log10(s), r the requested time,
    n the CPUs, s the submit time in seconds since the trace's time 0
    (0.1 in place of a value that is not positive)."""

    name = "f1"

    def key(self, job):
        r = job.walltime if job.walltime > 0 else 0.1
        s = job.subtime if job.subtime > 0 else 0.1
        return math.log10(r) * job.res + 870 * math.log10(s)


# the baselines: a built-in policy's name, or a Policy class
BASELINES = {"fcfs": "fcfs", "sjf": SJF, "f1": F1, "easy": "easy"}

METRICS = ("mean_bounded_slowdown", "mean_wait", "utilization")


@dataclass
class Score:
    """A policy's score on a part: per unit the run's metrics, and their
    means over the units."""

    split: str
    part: str
    policy: str
    units: list[int]
    per_unit: list[dict] = field(default_factory=list)

    def mean(self, metric: str) -> float:
        return sum(u[metric] for u in self.per_unit) / len(self.per_unit)


def baselines(name, part="test", policies=None, traces=None, cache=None) -> list[Score]:
    """Runs each baseline (BASELINES, or `policies`: name -> built-in
    name or Policy class) on every unit of the split's part; a Score per
    policy."""
    import schedlab

    s = _get(name)
    label = name if isinstance(name, str) else "custom"
    args = split(s, part, traces=traces, cache=cache)
    out = []
    for pname, pol in (policies or BASELINES).items():
        sc = Score(label, part, pname, units(s, part))
        for a in args:
            p = pol() if isinstance(pol, type) else pol
            r = schedlab.run(policy=p, **a)
            sc.per_unit.append({m: r.summary[m] for m in METRICS} | {"jobs": r.summary["jobs"]})
        out.append(sc)
    return out


def table(scores: list[Score]) -> str:
    """The Markdown table of the scores: a row per split and policy."""
    lines = [
        "| split | part | units | jobs | policy | mean bounded slowdown | mean wait (s) | utilization |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for sc in scores:
        us = sc.units
        span = f"{us[0]}..{us[-1]}" if len(us) > 1 else str(us[0])
        jobs = sum(u["jobs"] for u in sc.per_unit)
        lines.append(
            f"| {sc.split} | {sc.part} | {span} ({len(us)}) | {jobs:,} | {sc.policy} | "
            f"{sc.mean('mean_bounded_slowdown'):.2f} | {sc.mean('mean_wait'):.0f} | {sc.mean('utilization'):.3f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m schedlab.benchmarks", description="Baseline scores on the benchmark splits (docs/benchmarks.md).")
    ap.add_argument("--split", action="append", choices=list(SPLITS), help="a split (repeat; default: every split whose trace is found)")
    ap.add_argument("--part", default="test", choices=PARTS)
    ap.add_argument("--traces", help="the folder of the real traces (default: $SCHEDLAB_TRACES, as schedlab finds them)")
    ap.add_argument("--out", help="also write the table to this file")
    a = ap.parse_args(argv)
    names = a.split or list(SPLITS)
    scores = []
    for n in names:
        try:
            scores += baselines(n, a.part, traces=a.traces)
        except SchedlabError as e:
            if a.split:  # asked for by name: a failure is an error
                raise
            print(f"schedlab.benchmarks: split {n} left out: {str(e).splitlines()[0]}", file=sys.stderr)
    t = table(scores)
    sys.stdout.write(t)
    if a.out:
        Path(a.out).write_text(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
