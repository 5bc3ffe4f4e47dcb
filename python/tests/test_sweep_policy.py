"""A Python policy in a scenario sweep (policy: {queue: python, class:
MODULE:CLASS}): each replication runs python -m schedlab.serve, and its
numbers are those of schedlab.run with the same class in this process
(the in-process engine when the library is available, else the
protocol: both give one schedule), replication for replication; the
sweep pairs it with a built-in policy (comparisons.csv)."""

import csv
import json
import os
import sys
from pathlib import Path

import pytest

import schedlab
from conftest import KTH
from test_serve import SJF

PKG = str(Path(schedlab.__file__).resolve().parent.parent)


def test_python_policy_sweep_equals_in_process_runs(tmp_path, monkeypatch):
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "mysjf.py").write_text(SJF)
    scenario = tmp_path / "py.yaml"
    scenario.write_text(
        f"""name: py
model: cluster
seed: 3
replications: 2
workload: {{trace: {KTH}, resample: user-weeks}}
policy:
  queue: [easy, python]
  class: mysjf:SJF
  python: {json.dumps(sys.executable)}
  path: {json.dumps(str(mods))}
"""
    )
    # the served policy imports this schedlab package
    monkeypatch.setenv("PYTHONPATH", PKG + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = tmp_path / "sweep"
    s = schedlab.sweep(scenario, out=out, workers=2)
    assert set(s.summary["labels"]) == {"policy.queue=easy", "policy.queue=python"}
    points = {}
    for p in sorted((out / "points").glob("*.json")):
        d = json.loads(p.read_text())
        points[d["labels"][0]["value"]] = {m["name"]: m["values"] for m in d["metrics"]}
    py = points["python"]
    assert py["mean_wait"][0] != py["mean_wait"][1]  # two different resampled traces

    sys.path.insert(0, str(mods))
    try:
        import mysjf
    finally:
        sys.path.remove(str(mods))
    for rep in range(2):
        r = schedlab.run(trace=KTH, policy=mysjf.SJF(), resample="user-weeks", seed=3, replication=rep)
        for name in ("mean_wait", "mean_bounded_slowdown", "utilization", "makespan"):
            assert py[name][rep] == r.summary[name], (name, rep)

    with open(out / "comparisons.csv") as f:
        rows = [row for row in csv.DictReader(f) if row["value"] == "python" and row["metric"] == "mean_wait"]
    assert len(rows) == 1 and rows[0]["baseline"] == "easy" and rows[0]["n"] == "2"
    lo, diff, hi = float(rows[0]["ci_low"]), float(rows[0]["diff"]), float(rows[0]["ci_high"])
    assert lo <= diff <= hi and lo < hi
    assert diff == pytest.approx(sum(py["mean_wait"]) / 2 - sum(points["easy"]["mean_wait"]) / 2)
