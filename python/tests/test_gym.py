"""schedlab.gym.SchedulingEnv: Gymnasium's checker, episodes that end,
determinism under reset(seed=...)."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from schedlab.gym import SchedulingEnv  # noqa: E402


def test_env_checker():
    env = SchedulingEnv(episode_jobs=64, window=8)
    check_env(env, skip_render_check=True)
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


def test_random_masked_episode_ends_and_is_deterministic():
    env = SchedulingEnv(episode_jobs=200, window=16)
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
