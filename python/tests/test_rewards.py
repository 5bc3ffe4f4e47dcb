"""schedlab.gym's reward choices, each worked out by hand on a five-job
episode, the weighted sum, the per-step choice against the run's summary
on a real trace, and both engines giving the same rewards."""

import math

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from schedlab import _inproc  # noqa: E402
from schedlab.gym import REWARDS, SchedulingEnv  # noqa: E402

from conftest import KTH  # noqa: E402

# Five jobs on a machine of 4 CPUs (SWF: id submit wait run procs cpu mem
# reqprocs reqtime reqmem status user group app queue partition prec think).
FIVE = """; MaxProcs: 4
; MaxNodes: 4
1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1
2 10 -1 50 2 -1 -1 2 60 -1 1 1 1 -1 1 -1 -1 -1
3 20 -1 30 2 -1 -1 2 40 -1 1 1 1 -1 1 -1 -1 -1
4 30 -1 200 1 -1 -1 1 200 -1 1 1 1 -1 1 -1 -1 -1
5 40 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1
"""

# The episode with action 0 at every step (the first job of the window):
#   t=0    job 1 (4 CPUs) starts, wait 0; no CPU left until it ends
#   t=100  job 1 ends; the queue is 2, 3, 4, 5, all submitted: job 2
#          (2 CPUs) starts, wait 90, then job 3 (2 CPUs), wait 80; job 4 and
#          job 5 no longer fit (0 CPUs free)
#   t=130  job 3 ends (100 + 30): job 4 (1 CPU) starts, wait 100; job 5
#          (4 CPUs) does not fit
#   t=150  job 2 ends: 3 CPUs free, job 5 still does not fit (no step)
#   t=330  job 4 ends (130 + 200): job 5 starts, wait 290; it ends at 340.
# So five steps, at t = 0, 100, 100, 130, 330, starting jobs 1..5.
WAITS = [0, 90, 80, 100, 290]
# responses (wait + run): 100, 140, 110, 300, 300;
# bounded slowdowns max(1, response / max(run, 10)):
#   100/100 = 1, 140/50 = 2.8, 110/30 = 11/3, 300/200 = 1.5, 300/10 = 30
MEAN_BSLD = (1 + 2.8 + 11 / 3 + 1.5 + 30) / 5  # 7.7933...
MEAN_WAIT = sum(WAITS) / 5  # 112
# utilization: CPU-seconds 4*100 + 2*50 + 2*30 + 1*200 + 4*10 = 800 over
# 4 CPUs x (last end 340 - first submit 0)
UTILIZATION = 800 / (4 * 340)  # 0.588...
TIME_SCALE = 100.0  # waits in units of 100 s below

# The rewards of the five steps, per choice:
EXPECTED = {
    # 0 but at the end: -7.7933...
    "episode_bsld": [0, 0, 0, 0, -MEAN_BSLD],
    # 0 but at the end: -112 / 100
    "episode_wait": [0, 0, 0, 0, -1.12],
    # 0 but at the end: +0.588...
    "episode_utilization": [0, 0, 0, 0, UTILIZATION],
    # each step: minus the wait of the job it starts, / 100
    "step_wait": [0, -0.9, -0.8, -1.0, -2.9],
    # 0 but at the end: under power 100:300 (watts a CPU), 4 CPUs x 100 W x
    # 340 s idle + 200 W x 800 CPU-seconds = 296,000 J = 0.0822 kWh
    "episode_energy": [0, 0, 0, 0, -296000 / 3.6e6],
}
POWER = "100:300"

ENGINES = ["process", "inprocess"]


def need(engine):
    if engine == "inprocess" and _inproc.library() is None:
        pytest.skip(f"no schedlab library: {_inproc.why_not()}")


@pytest.fixture
def five(tmp_path):
    p = tmp_path / "five.swf"
    p.write_text(FIVE)
    return p


def episode(trace, engine, reward, **kw):
    """The rewards, times and infos of one episode with action 0."""
    env = SchedulingEnv(
        trace=trace, episode_jobs=5, window=4, time_scale=TIME_SCALE, engine=engine, reward=reward, **kw
    )
    obs, info = env.reset(seed=0)
    rewards, times, infos = [], [info["now"]], []
    while True:
        obs, r, term, trunc, info = env.step(0)
        rewards.append(r)
        infos.append(info)
        if term:
            break
        times.append(info["now"])
    env.close()
    return rewards, times, infos


def test_every_choice_is_worked_out_here():
    assert sorted(EXPECTED) == sorted(REWARDS)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("reward", sorted(EXPECTED))
def test_reward_by_hand_on_five_jobs(five, engine, reward):
    need(engine)
    rewards, times, infos = episode(five, engine, reward, power=POWER)
    assert times == [0, 100, 100, 130, 330]
    assert rewards == pytest.approx(EXPECTED[reward], rel=1e-12, abs=1e-12)
    s = infos[-1]["summary"]
    assert (s["jobs"], s["mean_wait"], s["utilization"]) == (5, MEAN_WAIT, pytest.approx(UTILIZATION))
    assert s["mean_bounded_slowdown"] == pytest.approx(MEAN_BSLD)
    if reward == "episode_bsld":  # the default: the number it always was, exactly
        assert rewards[-1] == -s["mean_bounded_slowdown"]
    assert all(type(r) is float for r in rewards)
    # info["rewards"]: the chosen term at every step (per step) or at the last one (episodic)
    terms = [list(i["rewards"]) for i in infos]
    assert terms == ([[reward]] * 5 if reward == "step_wait" else [[]] * 4 + [[reward]])


@pytest.mark.parametrize("engine", ENGINES)
def test_weighted_sum_on_five_jobs(five, engine):
    need(engine)
    w = {"episode_bsld": 1.0, "step_wait": 2.0, "episode_utilization": 10.0}
    rewards, _, infos = episode(five, engine, w)
    # 2 x the step waits, plus at the end -7.7933 + 10 x 0.588
    want = [2 * x for x in EXPECTED["step_wait"]]
    want[-1] += -MEAN_BSLD + 10 * UTILIZATION
    assert rewards == pytest.approx(want, rel=1e-12, abs=1e-12)
    want_terms = {"step_wait": -2.9, "episode_bsld": -MEAN_BSLD, "episode_utilization": UTILIZATION}
    assert infos[-1]["rewards"] == pytest.approx(want_terms)
    assert infos[0]["rewards"] == {"step_wait": 0.0}


def test_default_reward_is_the_episodic_bounded_slowdown(five):
    env = SchedulingEnv(trace=five, episode_jobs=5, window=4, engine="process")
    assert env.reward == "episode_bsld" and env.reward_weights == {"episode_bsld": 1.0}
    env.close()


@pytest.mark.parametrize("bad", ["bsld", {}, {"step_wait": math.nan}, {"step_bsld": 1}, {"step_wait": True}, 3])
def test_bad_reward_is_refused(five, bad):
    with pytest.raises(ValueError, match="reward"):
        SchedulingEnv(trace=five, episode_jobs=5, window=4, reward=bad)


def test_step_wait_sums_to_the_summary_and_engines_agree():
    # on 256 jobs of KTH with random legal (and some illegal) actions:
    # the per-step waits sum to -(jobs x mean_wait) / time_scale, and the
    # engine in process gives the same rewards as the second process
    engines = ENGINES if _inproc.library() is not None else ENGINES[:1]
    got = []
    for engine in engines:
        env = SchedulingEnv(trace=KTH, episode_jobs=256, window=8, engine=engine, reward="step_wait")
        rng = np.random.default_rng(3)
        obs, info = env.reset(seed=11)
        rewards = []
        while True:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            if rng.random() < 0.2:
                a = int(rng.integers(-2, env.window + 2))
            obs, r, term, trunc, info = env.step(a)
            rewards.append(r)
            if term:
                break
        s = info["summary"]
        assert len(rewards) == s["jobs"] == 256
        assert sum(rewards) == pytest.approx(-s["jobs"] * s["mean_wait"] / env.time_scale, rel=1e-9)
        assert all(r <= 0 for r in rewards) and min(rewards) < 0
        got.append(rewards)
        env.close()
    assert all(g == got[0] for g in got)


def test_energy_needs_a_power_model(five):
    with pytest.raises(ValueError, match="needs power="):
        SchedulingEnv(trace=five, reward="episode_energy")
    with pytest.raises(ValueError, match="IDLE_W:COMPUTE_W"):
        SchedulingEnv(trace=five, reward="episode_energy", power="190")
