"""jobs.csv opens in evalys, Batsim's analysis library: JobSet.from_csv
reads it and draws its Gantt chart."""

import os
import shutil

import pytest

import schedlab

evalys = pytest.importorskip(
    "evalys.jobset", reason="evalys is not installed (../test installs the version pinned in requirements-test.txt)"
)

# Four jobs on 8 CPUs under EASY, worked by hand (estimates are the
# requests): job 1 (4 CPUs, runs 100, asks 200) starts at 0; job 2 (8
# CPUs) must wait for job 1's estimated end, 200, and reserves it; job 3
# (2 CPUs, asks 100) and job 4 (2 CPUs, asks 60) end by 200 and are
# backfilled at 20 and 30. Job 3 runs past its request: killed at 120.
# Job 1 ends at 100, job 3 at 120, and job 2 starts then.
TRACE = """; MaxProcs: 8
1  0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1  2 -1 -1
2 10 -1  50 8 -1 -1 8 100 -1 1 2 1 -1 -1  2 -1 -1
3 20 -1 300 2 -1 -1 2 100 -1 1 1 1 -1 -1  1 -1 -1
4 30 -1  20 2 -1 -1 2  60 -1 1 3 2 -1 -1 -1 -1 -1
"""


def test_jobs_csv_in_evalys(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    trace = tmp_path / "four.swf"
    trace.write_text(TRACE)
    r = schedlab.run(trace=str(trace), policy="easy", out=tmp_path / "out")
    js = evalys.JobSet.from_csv(str(r.out / "jobs.csv"))
    df = js.df.set_index("jobID").sort_index()
    assert list(df.index) == ["1", "2", "3", "4"]
    assert df["starting_time"].tolist() == [0, 120, 20, 30]
    assert df["finish_time"].tolist() == [100, 170, 120, 50]
    assert df["success"].tolist() == [1, 1, 0, 1]
    assert df["final_state"].tolist() == [
        "COMPLETED_SUCCESSFULLY",
        "COMPLETED_SUCCESSFULLY",
        "COMPLETED_WALLTIME_REACHED",
        "COMPLETED_SUCCESSFULLY",
    ]
    assert (df["workload_name"] == "w0").all() and (df["consumed_energy"] == -1).all()
    # evalys parses allocated_resources into processor sets.
    assert df["proc_alloc"].tolist() == [4, 8, 2, 2]
    assert js.MaxProcs == 8
    assert df["user"].tolist() == [1, 2, 1, 3] and df["group"].tolist() == [1, 1, 1, 2]
    assert df["partition"].fillna(-1).tolist() == [2, 2, 1, -1]

    js.gantt(title="schedlab jobs.csv in evalys")
    png = tmp_path / "gantt.png"  # SCHEDLAB_KEEP_GANTT=/tmp/x.png keeps a copy to look at
    plt.gcf().savefig(png)
    plt.close("all")
    assert png.stat().st_size > 1000
    if os.environ.get("SCHEDLAB_KEEP_GANTT"):
        shutil.copy(png, os.environ["SCHEDLAB_KEEP_GANTT"])
