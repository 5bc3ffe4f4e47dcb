"""schedlab.gym.SchedulingEnv on a platform of nodes (nodes=): the
observation's layout, a hand-worked episode, Gymnasium's checker,
determinism under reset(seed=...), the vector environment."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from schedlab import _inproc  # noqa: E402
from schedlab import gym as sgym  # noqa: E402
from schedlab.gym import SchedulingEnv, VectorSchedulingEnv  # noqa: E402

from test_gym import same, trajectory  # noqa: E402

pytestmark = pytest.mark.skipif(_inproc.library() is None, reason="the schedlab library is not available")

# two nodes of 4 cores and 8 GiB (n1, n2), one of 4 cores, 8 GiB and 2 GPUs (g1): 12 cores
NODES = ["n[1-2]:cores=4:mem=8G", "g1:cores=4:mem=8G:gres=gpu=2"]

# 1: one task of 4 CPUs, 4 GiB and a GPU (only g1 holds it); 2: two nodes of
# one 2-CPU task each; 3: a whole node; 4: four 1-CPU tasks and 2 GPUs on one node
TABLE = """# schedlab job table v1
id\tsubmit\truntime\tprocs\treq_time\tnodes\ttasks\tcpus_per_task\tmem_per_node_mb\tgres_per_node\texclusive
1\t0\t100\t4\t200\t0\t1\t4\t4096\tgpu:1\t0
2\t0\t50\t4\t100\t2\t2\t2\t0\t\t0
3\t0\t30\t1\t60\t0\t1\t1\t0\t\t1
4\t10\t10\t4\t20\t0\t4\t1\t0\tgpu:2\t0
"""


@pytest.fixture
def table(tmp_path):
    p = tmp_path / "hand.jobs"
    p.write_text(TABLE)
    return p


def f32(x):
    return np.float32(x)


def test_layout(table):
    env = SchedulingEnv(trace=table, episode_jobs=4, window=2, time_scale=100, queue_scale=4, nodes=NODES)
    assert env.engine == "inprocess"
    assert env.features == sgym.default_node_features()
    assert env.node_names == ("n1", "n2", "g1") and env.gres_kinds == ("gpu",)
    # per slot: the 5 default numbers and 8 request features, one of them
    # per GRES kind twice (1 kind here): 13; the machine's 3; per node 3
    assert (env.slot_features, env.machine_features, env.node_features) == (13, 3, 3)
    assert env.observation_space.shape == (2 * 13 + 3 + 3 * 3,)
    assert env.observation_space.dtype == np.float32
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    assert info["action_mask"].shape == (2,) and info["action_mask"].dtype == np.int8
    env.close()
    # features chosen by name: slots first, then the machine's, then the nodes'
    env = SchedulingEnv(
        trace=table, episode_jobs=4, window=3, nodes=NODES, features=["node_free_gres", "free_cpus", "req_gres_per_node", "wait"]
    )
    assert env.features == ("req_gres_per_node", "wait", "free_cpus", "node_free_gres")
    assert env.observation_space.shape == (3 * 2 + 1 + 3 * 1,)
    env.close()
    # no GRES: the per-kind features take no number
    env = SchedulingEnv(trace=table, episode_jobs=4, window=2, nodes="n[1-5]:cores=8")
    assert env.gres_kinds == () and len(env.node_names) == 5
    assert (env.slot_features, env.machine_features, env.node_features) == (11, 3, 2)
    assert env.observation_space.shape == (2 * 11 + 3 + 5 * 2,)
    env.close()


def test_bad_parameters(table):
    with pytest.raises(ValueError, match="needs engine='inprocess'"):
        SchedulingEnv(trace=table, episode_jobs=4, nodes=NODES, engine="process")
    with pytest.raises(ValueError, match=r"observation feature 'node_free_cores' is for a platform of nodes"):
        SchedulingEnv(trace=table, episode_jobs=4, features=["wait", "node_free_cores"], engine="inprocess")
    with pytest.raises(ValueError, match=r"nodes: node group 1 .*cores"):
        SchedulingEnv(trace=table, episode_jobs=4, nodes=["n[1-2]:mem=8G"])
    with pytest.raises(ValueError, match="want a node group"):
        SchedulingEnv(trace=table, episode_jobs=4, nodes=[3])


def test_hand_worked_episode(table):
    """The episode of cmd/libschedlab/gym's TestHandComputedNodes, worked
    by hand there (the same numbers): a slot is present, cpus (/12),
    estimate, wait (/100), fits, req_nodes (/3), req_tasks (/12),
    req_cpus_per_task (/4), req_mem_per_node (/8192), req_mem_per_cpu,
    req_gres_per_node gpu (/2), req_gres_per_job gpu, req_exclusive; then
    free_cpus, running_jobs, waiting_jobs (/4); then per node free cores,
    memory, gpus."""
    env = SchedulingEnv(trace=table, episode_jobs=4, window=2, time_scale=100, queue_scale=4, nodes=NODES, reward="step_wait")
    free = [1, 1, 0]
    job1 = [1, 4 / 12, 1, 0, 1, 0, 1 / 12, 1, 0.5, 0, 0.5, 0, 0]
    job3 = [1, 1 / 12, 0.6, 0, 1, 0, 1 / 12, 0.25, 0, 0, 0, 0, 1]

    def job2(wait):
        return [1, 4 / 12, 1, wait / 100, 1, 2 / 3, 2 / 12, 0.5, 0, 0, 0, 0, 0]

    def job4(wait, fits):
        return [1, 4 / 12, 0.2, wait / 100, fits, 0, 4 / 12, 0.25, 0, 0, 1, 0, 0]

    def want(*parts):
        return np.array([x for p in parts for x in p], dtype=np.float64).astype(np.float32)

    obs, info = env.reset(seed=3)
    # t=0: all free, jobs 1 and 2 fit
    assert info["now"] == 0 and list(info["action_mask"]) == [1, 1]
    assert np.array_equal(obs, want(job1, job2(0), [1, 0, 0.75], free, free, [1, 1, 1]))
    # job 1 on g1 (4 cores, 4 GiB, a GPU); 3 enters the window
    obs, r, term, _, info = env.step(0)
    assert not term and not info["replaced"] and r == 0
    assert np.array_equal(obs, want(job2(0), job3, [8 / 12, 0, 0.75], free, free, [0, 0.5, 0.5]))
    # job 3 takes all of n1: job 2 (two nodes) fits nowhere; t=10 job 4
    # (2 GPUs on one node) neither; t=30 job 3 ends: job 2 fits
    obs, r, term, _, info = env.step(1)
    assert info["now"] == 30 and list(info["action_mask"]) == [1, 0]
    assert np.array_equal(obs, want(job2(30), job4(20, 0), [8 / 12, 1 / 12, 0.5], free, free, [0, 0.5, 0.5]))
    # slot 1 (job 4) does not fit: replaced by slot 0, job 2, which waited 30 s
    obs, r, term, _, info = env.step(1)
    assert info["replaced"] and r == -30 / 100
    assert info["now"] == 100 and list(info["action_mask"]) == [1, 0]
    assert np.array_equal(obs, want(job4(90, 1), [0] * 13, [1, 0, 0.25], free, free, [1, 1, 1]))
    obs, r, term, _, info = env.step(0)
    assert term and r == -90 / 100 and info["now"] == 110
    s = info["summary"]
    assert s["jobs"] == 4 and s["mean_wait"] == (0 + 0 + 30 + 90) / 4 and s["makespan"] == 110
    env.close()


def test_env_checker(table):
    env = SchedulingEnv(trace=table, episode_jobs=4, window=2, nodes=NODES)
    check_env(env, skip_render_check=True)
    env.close()


def random_table(path, jobs=300, seed=5):
    """A job table of `jobs` jobs that each fit NODES: one or two tasks
    of one or two CPUs, memory, a GPU or two, some exclusive, some of
    two nodes."""
    rng = np.random.default_rng(seed)
    lines = [TABLE.splitlines()[0], TABLE.splitlines()[1]]
    t = 0
    for i in range(1, jobs + 1):
        t += int(rng.integers(0, 4))
        run = int(rng.integers(1, 100))
        tasks, cpt = int(rng.integers(1, 3)), int(rng.integers(1, 3))
        mem, gres, nodes, excl = int(rng.choice([0, 1024, 4096])), str(rng.choice(["", "", "gpu:1", "gpu:2"])), 0, int(rng.random() < 0.1)
        if rng.random() < 0.15:
            nodes, tasks, cpt, gres = 2, 2, 1, ""
        lines.append(f"{i}\t{t}\t{run}\t{tasks * cpt}\t{run + int(rng.integers(0, 50))}\t{nodes}\t{tasks}\t{cpt}\t{mem}\t{gres}\t{excl}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_determinism(tmp_path):
    """Two environments, one seed, the same random actions: the same
    trajectories bit for bit (observations, masks, rewards, summary);
    another seed another episode."""
    trace = random_table(tmp_path / "r.jobs")
    kw = dict(trace=trace, episode_jobs=64, window=4, time_scale=100, nodes=NODES, reward={"step_wait": 1.0, "episode_bsld": 0.1})
    a, b = SchedulingEnv(**kw), SchedulingEnv(**kw)
    ta, sa = trajectory(a, 7, 11)
    tb, sb = trajectory(b, 7, 11)
    assert same(ta, tb) and sa == sb
    assert len(ta) == 65  # the reset and one step per job
    tc, _ = trajectory(b, 8, 11)
    assert not same(ta, tc)
    for x in ta:
        assert x[0].shape == a.observation_space.shape and a.observation_space.contains(x[0])
    a.close(), b.close()


def test_vector_on_nodes(tmp_path):
    """VectorSchedulingEnv on nodes: each sub-environment's trajectory is
    a SchedulingEnv's with its seed and actions."""
    trace = random_table(tmp_path / "r.jobs")
    kw = dict(trace=trace, episode_jobs=32, window=4, nodes=NODES)
    envs = VectorSchedulingEnv(num_envs=2, **kw)
    singles = [SchedulingEnv(**kw) for _ in range(2)]
    obs, info = envs.reset(seed=5)
    one = [s.reset(seed=5 + i) for i, s in enumerate(singles)]
    for i in range(2):
        assert np.array_equal(obs[i], one[i][0])
    done = [False, False]
    for t in range(40):
        acts = np.array([t % 4, (t + 1) % 4])
        obs, rew, term, _, info = envs.step(acts)
        for i, s in enumerate(singles):
            if done[i]:
                continue
            o, r, te, _, inf = s.step(int(acts[i]))
            assert np.array_equal(obs[i], o) and rew[i] == r and term[i] == te
            assert np.array_equal(info["action_mask"][i], inf["action_mask"])
            done[i] = te
        if all(done):
            break
    assert all(done)
    envs.close()
    for s in singles:
        s.close()


def test_node_features_table_documented():
    # python/README.md's table of the features of nodes is the library's
    # declarations (name, per slot or node, meaning, scale), in order
    import re

    from conftest import REPO

    text = (REPO / "python" / "README.md").read_text()
    section = text.split("### Observation features", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (slot, on nodes|node) \| (.*?) \| (.*?) \|$", section, re.M)
    want = [(f["name"], "node" if f["node"] else "slot, on nodes", f["meaning"], f["scale"]) for f in sgym.node_features()]
    assert rows == want and len(rows) == 11


@pytest.mark.parametrize("nodes", [["n[1-100]:cores=1"], ["n[1-25]:cores=4"], ["a[1-10]:cores=2", "b[1-20]:cores=4"]])
def test_cores_alone_agree_with_the_pool(nodes):
    """An SWF trace asks for cores alone (P tasks of one CPU on any
    nodes), which fit when P cores are free anywhere: on nodes of 100
    cores in all, the environment's masks, its default features and its
    trajectory are the pool's of 100 CPUs (KTH-SP2), step for step, for
    the same seed and actions, and the node features say the cores used."""
    pool = SchedulingEnv(episode_jobs=400, window=8)
    on = SchedulingEnv(episode_jobs=400, window=8, features=list(sgym.DEFAULT_FEATURES), nodes=nodes)
    assert on.observation_space.shape == (8 * 5 + 3,) == pool.observation_space.shape
    full = SchedulingEnv(episode_jobs=400, window=8, nodes=nodes)
    rng = np.random.default_rng(3)
    (o1, i1), (o2, i2), (o3, i3) = pool.reset(seed=9), on.reset(seed=9), full.reset(seed=9)
    cores = np.array([int(g.split("cores=")[1]) for g in nodes for _ in range(int(g.split("-")[1].split("]")[0]))])
    k = full.window * full.slot_features + full.machine_features
    steps = 0
    while True:
        assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"]) and i1["now"] == i2["now"]
        assert np.array_equal(i1["action_mask"], i3["action_mask"])
        # free cores per node (node_free_cores, the first of each node's 2 numbers) sum to free_cpus
        free = o3[k::2][: len(cores)] * cores
        assert abs(free.sum() / 100 - o3[full.window * full.slot_features]) < 1e-5
        a = int(rng.integers(-1, 8))
        (o1, r1, t1, _, i1), (o2, r2, t2, _, i2), (o3, _, t3, _, i3) = pool.step(a), on.step(a), full.step(a)
        steps += 1
        assert r1 == r2 and t1 == t2 == t3
        if t1:
            break
    assert steps == 400 and i1["summary"]["mean_wait"] == i2["summary"]["mean_wait"] == i3["summary"]["mean_wait"]
    pool.close(), on.close(), full.close()
