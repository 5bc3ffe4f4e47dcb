"""schedlab.run and schedlab.sweep: the Go engine's outputs, typed."""

import csv
import math
import shutil

import pandas as pd
import pytest

import schedlab
from conftest import KTH


def test_jobs_equal_jobs_csv_value_by_value():
    r = schedlab.run(trace=KTH, policy="easy", keep=True)
    assert r.summary["jobs"] == 27992
    assert r.summary["run"]["policy"] == "easy"
    assert list(r.jobs.columns) == list(schedlab.JOBS_DTYPES)
    assert {c: str(t) for c, t in r.jobs.dtypes.items()} == schedlab.JOBS_DTYPES
    with open(r.out / "jobs.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    shutil.rmtree(r.out.parent)  # keep=True: the caller removes it
    assert len(rows) == len(r.jobs) == 27992
    cols = {c: r.jobs[c].tolist() for c in r.jobs.columns}
    for i, row in enumerate(rows):
        for c, dt in schedlab.JOBS_DTYPES.items():
            got, text = cols[c][i], row[c]
            if dt == "int64":
                assert got == int(text), (i, c)
            elif dt == "float64":
                assert (math.isnan(got) and text == "") or got == float(text), (i, c)
            elif text == "":  # an empty text cell (metadata) is missing
                assert got is pd.NA, (i, c)
            else:
                assert got == text, (i, c)


def test_options_and_run_flags():
    a = schedlab.run(trace=KTH, policy="backfill", depth=4, order="sjf", estimate="exact")
    assert a.summary["run"]["order"] == "sjf" and a.summary["run"]["estimate"] == "exact"
    b = schedlab.run(trace=KTH, policy="backfill", depth=4, order="sjf", estimate="exact")
    pd.testing.assert_frame_equal(a.jobs, b.jobs)  # deterministic


def test_predictions_and_resampling():
    # EASY++ predictions: the counters of summary.json (KTH's every job has
    # a request; most users have history by their second job)
    p = schedlab.run(trace=KTH, policy="easy", estimate="predict", predictor="avg:3", correction="request")
    pr = p.summary["run"]["predictions"]
    assert pr["predictor"] == "avg:3" and pr["correction"] == "request"
    assert 0 < pr["jobs_corrected"] <= pr["jobs_predicted"] <= 27992
    # with the request as the correction, a job is corrected at most once
    assert pr["corrections"] == pr["jobs_corrected"]
    # a resampled trace: another replication, another trace
    a = schedlab.run(trace=KTH, policy="easy", resample="user-weeks", replication=0)
    b = schedlab.run(trace=KTH, policy="easy", resample="user-weeks", replication=1)
    assert a.summary["run"]["jobs_resampled"] == len(a.jobs)
    assert len(a.jobs) != len(b.jobs) or not a.jobs["submission_time"].equals(b.jobs["submission_time"])


def test_bad_option_is_a_clear_error(tmp_path):
    with pytest.raises(schedlab.SchedlabError, match=r'policy fcfs: option order: "sjf" is not one of fcfs|order'):
        schedlab.run(trace=KTH, policy="fcfs", order="sjf", out=tmp_path / "o")
    assert not (tmp_path / "o").exists()
    with pytest.raises(schedlab.SchedlabError, match="unknown policy"):
        schedlab.run(trace=KTH, policy="nope")


def test_sweep(tmp_path):
    sc = tmp_path / "s.yaml"
    sc.write_text(f"model: cluster\nworkload: {{trace: {KTH}}}\npolicy: {{queue: [fcfs, easy]}}\n")
    s = schedlab.sweep(sc, out=tmp_path / "res", workers=1)
    mw = s.summary[s.summary.metric == "mean_wait"]
    assert len(mw) == 2
    fcfs = schedlab.run(trace=KTH, policy="fcfs").summary["mean_wait"]
    assert sorted(mw["mean"].round(3)) == sorted(
        [round(fcfs, 3), round(schedlab.run(trace=KTH, policy="easy").summary["mean_wait"], 3)]
    )


def test_run_without_out_leaves_no_folder(tmp_path):
    """A run without out= reads its outputs and removes its temporary
    folder, a failed one too; keep=True keeps it for the caller."""
    from conftest import leftovers

    before = leftovers()
    r = schedlab.run(trace=KTH, policy="fcfs")
    assert r.out is None and leftovers() == before
    assert len(r.jobs) == r.summary["jobs"] == 27992  # read before the folder went
    with pytest.raises(schedlab.SchedlabError):
        schedlab.run(trace=KTH, policy="fcfs", order="sjf")
    assert leftovers() == before
    k = schedlab.run(trace=KTH, policy="fcfs", keep=True)
    assert k.out.parent.name.startswith("schedlab-run-") and (k.out / "jobs.csv").is_file()
    assert leftovers() == sorted([*before, k.out.parent.name])
    shutil.rmtree(k.out.parent)
    sc = tmp_path / "s.yaml"
    sc.write_text(f"model: cluster\nworkload: {{trace: {KTH}}}\npolicy: {{queue: [fcfs]}}\n")
    s = schedlab.sweep(sc, workers=1)
    assert s.out is None and len(s.summary) > 0 and leftovers() == before
