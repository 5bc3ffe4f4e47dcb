"""schedlab.trajectories: a built-in policy's (observation, mask,
action, reward, done) through the environment, written as Parquet or
npz; and the behaviour-cloning example on them, tiny."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")
import schedlab.trajectories as T  # noqa: E402
from schedlab import _inproc  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ARRAYS = [c for c in T.COLUMNS]


def same(a, b):
    return all(a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in ARRAYS)


@pytest.mark.parametrize("fmt", ["parquet", "npz"])
def test_deterministic_for_a_seed(tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    kw = dict(policy="easy", episodes=2, seed=3, episode_jobs=48, window=6)
    a = T.trajectories(out=tmp_path / f"a.{fmt}", **kw)
    b = T.trajectories(out=tmp_path / f"b.{fmt}", **kw)
    ra, rb = T.read(tmp_path / f"a.{fmt}"), T.read(tmp_path / f"b.{fmt}")
    assert same(a, ra) and same(ra, rb) and ra["meta"] == rb["meta"] == a["meta"]
    assert (tmp_path / f"a.{fmt}").read_bytes() == (tmp_path / f"b.{fmt}").read_bytes()
    c = T.trajectories(**dict(kw, seed=4))
    assert not np.array_equal(a["job"], c["job"])


def test_columns_and_rule():
    t = T.trajectories(policy="easy", episodes=3, seed=0, episode_jobs=40, window=4, reward="step_wait")
    n = len(t["action"])
    assert n == 3 * 40 and t["obs"].shape == (n, 4 * 5 + 3) and t["mask"].shape == (n, 4)
    assert t["obs"].dtype == np.float32 and t["mask"].dtype == np.int8
    # every action legal; each episode starts each of its jobs once; done
    # on its last step only; steps numbered from 0
    assert (t["mask"][np.arange(n), t["action"]] == 1).all()
    for e in range(3):
        rows = t["episode"] == e
        assert len(set(t["job"][rows].tolist())) == 40
        assert t["done"][rows].tolist() == [False] * 39 + [True]
        assert t["step"][rows].tolist() == list(range(40))
    # step_wait rewards sum to minus the episode's total wait / time_scale
    for e, m in enumerate(t["meta"]["episodes"]):
        total = -t["reward"][t["episode"] == e].sum() * 86400.0
        assert total == pytest.approx(m["env_mean_wait"] * 40, rel=1e-9)


def test_follows_easy_where_it_can():
    # KTH, 128 jobs from seed 0 with a window of 8: EASY's schedule of
    # this episode is work-conserving on the window, and the environment
    # driven by the rule gives EASY's own schedule (its summary, exactly)
    t = T.trajectories(policy="easy", episodes=1, seed=0, episode_jobs=128, window=8)
    m = t["meta"]["episodes"][0]
    assert m["env_mean_bounded_slowdown"] == m["policy_mean_bounded_slowdown"]
    assert m["env_mean_wait"] == m["policy_mean_wait"]


def test_both_engines_alike():
    if _inproc.library() is None:
        pytest.skip(f"no schedlab library: {_inproc.why_not()}")
    kw = dict(policy="easy", episodes=2, seed=5, episode_jobs=64, window=8)
    assert same(T.trajectories(engine="process", **kw), T.trajectories(engine="inprocess", **kw))


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="format"):
        T.trajectories(episodes=1, episode_jobs=8, out=tmp_path / "x.csv", format="csv")
    with pytest.raises(ValueError, match="built-in policy"):
        T.trajectories(policy=object(), episodes=1, episode_jobs=8)


def test_behaviour_cloning_example_tiny(capsys):
    spec = importlib.util.spec_from_file_location("bc_easy", REPO / "python" / "examples" / "bc_easy.py")
    bc = importlib.util.module_from_spec(spec)
    sys.modules["bc_easy"] = bc
    spec.loader.exec_module(bc)
    res = bc.main(["--tiny"])
    assert res["loss_last"] < res["loss_first"]  # the gradient steps lower the loss
    assert res["train_accuracy"] >= res["first_legal_accuracy"] - 0.05
    assert len(res["weeks"]) == 1
    for w in res["weeks"]:
        assert set(w) == {"bc", "first_fit", "fcfs", "easy"} and all(np.isfinite(v) and v >= 1 for v in w.values())
    assert "held-out week" in capsys.readouterr().out


# On nodes: two nodes of 4 cores and 8 GiB, one of 4 cores, 8 GiB and 2 GPUs
NODES = ["n[1-2]:cores=4:mem=8G", "g1:cores=4:mem=8G:gres=gpu=2"]
# 1: a task of 4 CPUs, 4 GiB and a GPU (only g1 holds it); 2: two nodes of one
# 2-CPU task each; 3: a whole node; 4 (at 10): four 1-CPU tasks and 2 GPUs on one node
TABLE = """# schedlab job table v1
id\tsubmit\truntime\tprocs\treq_time\tnodes\ttasks\tcpus_per_task\tmem_per_node_mb\tgres_per_node\texclusive
1\t0\t100\t4\t200\t0\t1\t4\t4096\tgpu:1\t0
2\t0\t50\t4\t100\t2\t2\t2\t0\t\t0
3\t0\t30\t1\t60\t0\t1\t1\t0\t\t1
4\t10\t10\t4\t20\t0\t4\t1\t0\tgpu:2\t0
"""


def test_on_nodes_by_hand(tmp_path):
    if _inproc.library() is None:
        pytest.skip(f"no schedlab library: {_inproc.why_not()}")
    # EASY on the nodes, worked by hand: at 0 job 1 takes g1 (the only GPUs)
    # and job 2 two cores of n1 and of n2; job 3 wants a node without jobs, so
    # it waits for job 2's end at 50; job 4 needs 2 GPUs, g1's, after job 1's
    # end at 100. Waits 0, 0, 50, 90: mean 35. The environment, driven by the
    # rule, starts them in that order: job 3 is legal at 0 (every node is
    # free) but EASY started it later than jobs 1 and 2, and after them no
    # node is free of jobs.
    p = tmp_path / "hand.jobs"
    p.write_text(TABLE)
    t = T.trajectories(policy="easy", trace=p, nodes=NODES, episodes=1, seed=0, episode_jobs=4, window=4)
    assert t["job"].tolist() == [1, 2, 3, 4]
    m = t["meta"]["episodes"][0]
    assert m["policy_mean_wait"] == m["env_mean_wait"] == 35.0
    assert t["meta"]["params"]["nodes"] == NODES
    assert (t["mask"][np.arange(4), t["action"]] == 1).all()


def test_on_nodes_of_one_core_as_the_pool():
    if _inproc.library() is None:
        pytest.skip(f"no schedlab library: {_inproc.why_not()}")
    # KTH's 100 CPUs as 100 nodes of one core: the same episodes, the same
    # expert schedule, the same actions, jobs and rewards as on the pool
    kw = dict(policy="easy", episodes=2, seed=2, episode_jobs=64, window=8, engine="inprocess")
    a = T.trajectories(**kw)
    b = T.trajectories(nodes="n[1-100]:cores=1", **kw)
    for k in ("action", "job", "reward", "done"):
        assert np.array_equal(a[k], b[k]), k
    assert a["meta"]["episodes"] == b["meta"]["episodes"]
    assert "nodes" not in a["meta"]["params"] and b["meta"]["params"]["nodes"] == ["n[1-100]:cores=1"]
