"""schedlab.gym.SchedulingEnv: Gymnasium's checker, episodes that end,
determinism under reset(seed=...)."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from schedlab import _inproc  # noqa: E402
from schedlab.gym import SchedulingEnv  # noqa: E402

from conftest import shared_trace  # noqa: E402

ENGINES = ["process", "inprocess"]


def need(engine):
    if engine == "inprocess" and _inproc.library() is None:
        pytest.skip(f"no schedlab library: {_inproc.why_not()}")


@pytest.mark.parametrize("engine", ENGINES)
def test_env_checker(engine):
    need(engine)
    env = SchedulingEnv(episode_jobs=64, window=8, engine=engine)
    assert env.engine == engine
    check_env(env, skip_render_check=True)
    env.close()


def trajectory(env, seed, policy_seed):
    """Everything an agent sees in one episode with random masked
    actions: observations, masks, rewards, flags, times, the summary."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    seen = [(obs, info["action_mask"], info["now"])]
    while True:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        if rng.random() < 0.1:
            a = int(rng.integers(env.window))  # sometimes an illegal one
        obs, r, term, trunc, info = env.step(a)
        seen.append((obs, info["action_mask"], info["now"], r, term, trunc, info["replaced"]))
        if term:
            summary = dict(info["summary"])
            summary["run"] = {k: v for k, v in summary["run"].items() if k != "trace"}  # the episode file's folder
            return seen, summary


def same(a, b):
    return len(a) == len(b) and all(
        len(x) == len(y)
        and all(
            (u.dtype == v.dtype and np.array_equal(u, v)) if isinstance(u, np.ndarray) else (type(u) is type(v) and u == v)
            for u, v in zip(x, y)
        )
        for x, y in zip(a, b)
    )


@pytest.mark.parametrize(
    "trace,window",
    [
        ("KTH-SP2-1996-2.1-cln.swf.gz", 8),
        ("HPC2N-2002-2.1-cln.swf.gz", 128),
        # a window of 2: many instants with more fitting jobs than slots
        ("KTH-SP2-1996-2.1-cln.swf.gz", 2),
    ],
)
def test_inprocess_same_trajectories_as_process(trace, window):
    # The engine in this process (schedlab's shared library) and as a
    # second process over the protocol: for the same seeds and actions,
    # the same observations (bit for bit), masks, rewards, times and
    # summary.
    need("inprocess")
    if trace.startswith("HPC2N"):
        trace = shared_trace(trace)
        if trace is None:
            pytest.skip("HPC2N-2002-2.1-cln.swf.gz not found (set SCHEDLAB_TRACES)")
    envs = [SchedulingEnv(trace=trace, episode_jobs=256, window=window, engine=e) for e in ENGINES]
    for seed in range(3):
        (a, sa), (b, sb) = (trajectory(env, seed, 100 + seed) for env in envs)
        assert len(a) == 257 and same(a, b)
        assert sa == sb and sa["jobs"] == 256
    for env in envs:
        env.close()


@pytest.mark.parametrize("window,time_scale,queue_scale", [(1, 3600.0, 4.0), (32, 600.0, 8.0)])
def test_library_observations_same_as_python(window, time_scale, queue_scale):
    # In process the library (cmd/libschedlab/gym, Go) builds the
    # observation and the mask; with engine="process" this package does
    # (_obs, _mask). With scales small enough that many features are
    # clipped at 1: the same trajectories, bit for bit.
    need("inprocess")
    kw = dict(episode_jobs=128, window=window, time_scale=time_scale, queue_scale=queue_scale)
    envs = [SchedulingEnv(engine=e, **kw) for e in ENGINES]
    clipped = 0
    for seed in range(3):
        (a, sa), (b, sb) = (trajectory(env, seed, 200 + seed) for env in envs)
        assert len(a) == 129 and same(a, b) and sa == sb
        # estimates and waits clipped at 1
        clipped += sum(int((x[0][2 : 5 * window : 5] == 1).sum() + (x[0][3 : 5 * window : 5] == 1).sum()) for x in a)
    assert clipped > 100
    for env in envs:
        env.close()


def test_window_bound():
    # refused before the trace is read: a huge window would allocate
    # its observation (5 floats a slot) first
    with pytest.raises(ValueError, match=r"window=1000000000: at most 65536 \(schedlab.gym.MAX_WINDOW\)"):
        SchedulingEnv(trace="no-such-trace.swf", window=10**9)


def test_engine_switch():
    with pytest.raises(ValueError, match="engine"):
        SchedulingEnv(engine="threads")
    env = SchedulingEnv(episode_jobs=16, window=4)
    assert env.engine == ("inprocess" if _inproc.library() is not None else "process")
    env.close()


def episode(env, seed, policy_seed):
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    traj = [obs.copy()]
    total, steps = 0.0, 0
    while True:
        mask = info["action_mask"]
        assert mask.any()
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, r, term, trunc, info = env.step(a)
        assert not info["replaced"] and not trunc
        traj.append(obs.copy())
        total += r
        steps += 1
        if term:
            return traj, total, steps, info["summary"]


@pytest.mark.parametrize("engine", ENGINES)
def test_random_masked_episode_ends_and_is_deterministic(engine):
    need(engine)
    env = SchedulingEnv(episode_jobs=200, window=16, engine=engine)
    t1, r1, n1, s1 = episode(env, seed=7, policy_seed=3)
    assert n1 == 200  # one step per job
    assert s1["jobs"] == 200 and r1 == -s1["mean_bounded_slowdown"] < 0
    t2, r2, n2, s2 = episode(env, seed=7, policy_seed=3)
    assert n1 == n2 and r1 == r2 and all(np.array_equal(a, b) for a, b in zip(t1, t2))
    t3, *_ = episode(env, seed=8, policy_seed=3)
    assert not (len(t3) == len(t1) and all(np.array_equal(a, b) for a, b in zip(t1, t3)))
    env.close()


def test_always_first_slot_is_greedy_fcfs_order():
    # Always slot 0 (masked): the first waiting job that fits, in queue
    # order; the schedule must be a valid one of all the episode's jobs.
    env = SchedulingEnv(episode_jobs=100, window=4)
    obs, info = env.reset(seed=1)
    steps = 0
    while True:
        a = int(np.flatnonzero(info["action_mask"])[0])
        obs, r, term, _, info = env.step(a)
        steps += 1
        if term:
            break
    assert steps == 100 and info["summary"]["jobs"] == 100
    env.close()


def test_illegal_action_is_replaced():
    env = SchedulingEnv(episode_jobs=50, window=4)
    obs, info = env.reset(seed=2)
    illegal = [k for k in range(4) if not info["action_mask"][k]]
    if illegal:
        _, _, _, _, info2 = env.step(illegal[0])
        assert info2["replaced"]
    env.close()


def test_episode_file_is_the_episode_window(tmp_path):
    # reset() writes each episode's SWF over the last one's and cuts it
    # at its end: exactly the header and the episode's jobs, whatever
    # the length of the file before (here jobs' lines of varied lengths).
    from pathlib import Path

    trace = tmp_path / "t.swf"
    lines = ["; MaxProcs: 16\n", "; MaxNodes: 16\n"]
    for k in range(200):
        run = 10 ** (k % 5)
        lines.append(f"{k + 1} {k * 10} -1 {run} {1 + k % 4} -1 -1 {1 + k % 4} {run * 2} -1 1 1 1 1 1 1 -1 -1\n")
    trace.write_text("".join(lines))
    env = SchedulingEnv(trace=trace, episode_jobs=50, window=4)
    sizes = set()
    for seed in (1, 2, 3, 4, 1):
        env.reset(seed=seed)
        text = (Path(env._dir) / "episode.swf").read_text()
        sizes.add(len(text))
        assert text == "".join(env.header) + "".join(env.jobs[env.first_job : env.first_job + 50])
    assert len(sizes) > 1
    env.close()


@pytest.mark.parametrize("engine", ENGINES)
def test_parameters_are_checked_alike(engine):
    # The same checks for both engines, before anything is read: a scale
    # of 0 or NaN made NaN observations (outside the Box) in process and
    # a ZeroDivisionError over the protocol.
    need(engine)
    for kw, name in [
        ({"time_scale": 0}, "time_scale"),
        ({"queue_scale": 0}, "queue_scale"),
        ({"time_scale": float("nan")}, "time_scale"),
        ({"queue_scale": float("inf")}, "queue_scale"),
        ({"time_scale": -1.0}, "time_scale"),
        ({"queue_scale": "256"}, "queue_scale"),
        ({"time_scale": True}, "time_scale"),
        ({"timeout": 0}, "timeout"),
        ({"window": 0}, "window"),
        ({"window": 2.5}, "window"),
        ({"episode_jobs": 0}, "episode_jobs"),
    ]:
        with pytest.raises(ValueError, match=rf"^{name}=.*: want"):
            SchedulingEnv(trace="no-such-trace.swf", engine=engine, **kw)
    env = SchedulingEnv(episode_jobs=16, window=4, time_scale=np.float32(3600), queue_scale=4, engine=engine)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    env.close()


FORK_VECTOR = """
import gymnasium
from schedlab.gym import SchedulingEnv

envs = gymnasium.vector.AsyncVectorEnv(
    [lambda: SchedulingEnv(episode_jobs=32, window=4)] * 2, context="fork"
)
obs, info = envs.reset(seed=1)
for _ in range(20):
    obs, r, term, trunc, info = envs.step(envs.action_space.sample())
envs.close()
print("vector ok", obs.shape)
"""


def test_async_vector_env_with_fork():
    # Gymnasium's AsyncVectorEnv forks its workers (Linux's default)
    # after the parent made an environment (the library loaded): the
    # workers' default engine is then the process one, rather than a
    # call into a library whose runtime the fork did not copy (a hang).
    import os
    import subprocess
    import sys
    from pathlib import Path

    pkg = str(Path(_inproc.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=pkg + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        r = subprocess.run([sys.executable, "-c", FORK_VECTOR], capture_output=True, text=True, timeout=180, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail("AsyncVectorEnv with fork: no progress in 180 s")
    assert r.returncode == 0 and "vector ok (2, 23)" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("env_id", sorted(__import__("schedlab.gym").gym.ENV_IDS))
def test_registered_ids(env_id):
    # every registered id: made by gymnasium.make with keywords, checked
    # by Gymnasium's checker, deterministic for a seed; also made by the
    # "module:id" form, which imports schedlab.gym itself
    env = gymnasium.make(env_id, episode_jobs=64, window=8)
    assert isinstance(env.unwrapped, SchedulingEnv)
    assert (env.unwrapped.episode_jobs, env.unwrapped.window) == (64, 8)
    check_env(env.unwrapped, skip_render_check=True)
    a = trajectory(env.unwrapped, seed=5, policy_seed=2)
    other = gymnasium.make("schedlab.gym:" + env_id, episode_jobs=64, window=8)
    b = trajectory(other.unwrapped, seed=5, policy_seed=2)
    other.close()
    assert same(a[0], b[0]) and a[1] == b[1]
    c = trajectory(env.unwrapped, seed=6, policy_seed=2)
    assert not same(a[0], c[0])  # another seed, another window of the trace
    env.close()


def test_registered_ids_are_gymnasiums():
    import schedlab.gym

    assert "schedlab/Scheduling-v0" in schedlab.gym.ENV_IDS
    for env_id, kwargs in schedlab.gym.ENV_IDS.items():
        spec = gymnasium.spec(env_id)
        assert spec.entry_point == "schedlab.gym:SchedulingEnv" and spec.kwargs == kwargs
