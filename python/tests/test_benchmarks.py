"""schedlab.benchmarks: the fixed splits (window boundaries checked by
hand and against the trace itself), the strict SJF and F1 baselines on a
hand-worked schedule, and the baseline script on a tiny split."""

import gzip

import pytest

import schedlab
from conftest import KTH, REPO
from schedlab import benchmarks as b

W = 604800


def test_kth_split_is_fixed():
    # hand-checked: week w is [w * 604800, (w + 1) * 604800)
    assert b.units("kth", "train") == list(range(1, 33))
    assert b.units("kth", "validation") == list(range(33, 39))
    assert b.units("kth", "test") == list(range(39, 48))
    test = b.split("kth", "test")
    assert len(test) == 9
    assert test[0] == {"trace": KTH, "from": "23587200", "to": "24192000"}  # week 39
    assert test[-1] == {"trace": KTH, "from": "28425600", "to": "29030400"}  # week 47
    assert b.split("kth", "train")[0] == {"trace": KTH, "from": "604800", "to": "1209600"}  # week 1
    assert b.split("kth", "validation")[-1]["to"] == "23587200"  # the test weeks follow at once
    # the weeks are whole weeks of the trace: after its first submission
    # (599,850 s) and before its last (29,363,618 s)
    assert 599850 <= 1 * W and 48 * W <= 29363618 < 49 * W


def test_hpc2n_and_lublin_splits_are_fixed(tmp_path):
    assert b.units("hpc2n", "train") == list(range(0, 127))
    assert b.units("hpc2n", "validation") == list(range(127, 145))
    assert b.units("hpc2n", "test") == list(range(145, 181))
    t = b.split("hpc2n", "test", traces=tmp_path)
    assert t[0] == {"trace": str(tmp_path / "HPC2N-2002-2.1-cln.swf.gz"), "from": "87696000", "to": "88300800"}
    assert t[-1]["to"] == "109468800"  # 181 weeks; the last submission is at 109,583,573 s
    s = b.SPLITS["lublin256"]
    assert (s.procs, s.jobs, s.load) == (256, 2000, 0.75)
    assert b.units("lublin256", "test") == list(range(21, 29))
    with pytest.raises(ValueError, match="no benchmark split"):
        b.split("nope", "test")
    with pytest.raises(ValueError, match="part"):
        b.split("kth", "dev")


def test_a_kth_test_week_runs_its_jobs():
    # an independent count: the SWF records submitted in week 39
    lo, hi = 39 * W, 40 * W
    n = 0
    with gzip.open(REPO / "workload" / "traces" / KTH, "rt") as f:
        for line in f:
            if line.startswith(";") or not line.strip():
                continue
            if lo <= float(line.split()[1]) < hi:
                n += 1
    r = schedlab.run(policy="fcfs", **b.split("kth", "test")[0])
    assert r.summary["jobs"] == n == len(r.jobs) > 0
    assert r.jobs["submission_time"].between(lo, hi - 1e-9).all()


def test_f1_key_by_hand():
    f1 = b.F1()
    j = schedlab.Job(id=1, subtime=1000.0, res=4, walltime=100.0)
    assert f1.key(j) == pytest.approx(2 * 4 + 870 * 3)  # log10(100) * 4 + 870 * log10(1000)
    z = schedlab.Job(id=2, subtime=0.0, res=3, walltime=0.0)
    assert f1.key(z) == pytest.approx(-1 * 3 + 870 * -1)  # 0.1 for both
    assert b.SJF().key(j) == 100.0


SWF = """; MaxProcs: 4
1 0 -1 10 4 -1 -1 4 10 -1 1 1 -1 -1 -1 -1 -1 -1
2 1 -1 100 3 -1 -1 3 100 -1 1 1 -1 -1 -1 -1 -1 -1
3 1 -1 5 2 -1 -1 2 5 -1 1 1 -1 -1 -1 -1 -1 -1
4 1 -1 50 1 -1 -1 1 50 -1 1 1 -1 -1 -1 -1 -1 -1
"""


def test_strict_sjf_and_f1_by_hand(tmp_path):
    trace = tmp_path / "t.swf"
    trace.write_text(SWF)
    starts = lambda r: dict(zip(r.jobs["job_id"], r.jobs["starting_time"]))  # noqa: E731
    # at t=10 (job 1 ends) the queue by request is 3 (5 s), 4 (50 s), 2
    # (100 s): 3 and 4 start (2 + 1 CPUs), 2 (3 CPUs) waits for job 3's
    # end at 15, strictly
    assert starts(schedlab.run(trace=trace, policy=b.SJF())) == {1: 0, 2: 15, 3: 10, 4: 10}
    # F1 at s = 1 (log10 1 = 0): log10(r) * n: job 4 1.70, job 3 1.40,
    # job 2 6.00: 3, then 4, then 2 waits likewise
    assert starts(schedlab.run(trace=trace, policy=b.F1())) == {1: 0, 2: 15, 3: 10, 4: 10}
    # FCFS starts 2 at 10 (3 CPUs); 3 (2 CPUs) does not fit, and 4
    # waits behind it: both start at 2's end, 110
    assert starts(schedlab.run(trace=trace, policy="fcfs")) == {1: 0, 2: 10, 3: 110, 4: 110}


def test_baseline_script_on_a_tiny_split(tmp_path, monkeypatch, capsys):
    tiny = b.Split(kind="lublin", procs=16, jobs=60, load=0.7, train=range(1, 2), validation=range(2, 3), test=range(3, 5))
    monkeypatch.setitem(b.SPLITS, "tiny", tiny)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    out = tmp_path / "t.md"
    assert b.main(["--split", "tiny", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed == out.read_text()
    rows = [line for line in printed.splitlines() if line.startswith("| tiny |")]
    assert [r.split(" | ")[4] for r in rows] == ["fcfs", "sjf", "f1", "easy"]
    assert all("| test | 3..4 (2) | 120 |" in r for r in rows)
    # the synthetic traces were written once, by seed, into the cache
    assert sorted(p.name for p in (tmp_path / "schedlab" / "benchmarks").iterdir()) == [
        "lublin-p16-j60-l0.7-s3.swf",
        "lublin-p16-j60-l0.7-s4.swf",
    ]
    # the scores are the runs' own: fcfs's row is the mean of its two runs
    runs = [schedlab.run(policy="fcfs", **a) for a in b.split("tiny", "test")]
    bsld = sum(r.summary["mean_bounded_slowdown"] for r in runs) / 2
    assert f"| fcfs | {bsld:.2f} |" in rows[0]


def test_a_week_in_process_is_the_commands(tmp_path):
    # the window reaches the in-process engine (run_spec's from and to)
    # as it reaches the command line: the same jobs.csv
    from fcfs import FCFS

    args = b.split("kth", "test")[1]
    a = schedlab.run(policy=FCFS(), out=tmp_path / "a", engine="inprocess", **args)
    c = schedlab.run(policy="fcfs", out=tmp_path / "c", **args)
    assert (a.out / "jobs.csv").read_bytes() == (c.out / "jobs.csv").read_bytes()
    assert 0 < a.summary["jobs"] < 1000
