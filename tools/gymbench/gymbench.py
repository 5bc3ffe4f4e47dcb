"""Gym steps per second: schedlab.gym.SchedulingEnv against RLScheduler's
SchedGym environment (HPCEnv of DIR-LAB/deep-batch-scheduler), on the same
trace, with random legal actions, episodes of 256 jobs and a window of 128
queued jobs (RLScheduler's JOB_SEQUENCE_SIZE and MAX_QUEUE_SIZE).

    python tools/gymbench/gymbench.py schedlab TRACE [EPISODES [ENGINE]]
    python tools/gymbench/gymbench.py rlscheduler DIR TRACE.swf [EPISODES]

DIR holds HPCSimPickJobs.py, job.py and cluster.py from a clone of
https://github.com/DIR-LAB/deep-batch-scheduler (not part of this
repository); TRACE.swf is the trace uncompressed (its reader takes plain
SWF). Their module imports TensorFlow 1.x, SciPy and the old gym at load
time, none of which its environment uses to simulate: this script puts
small stand-ins in their place (gym's Env, spaces and seeding from
gymnasium and numpy) so that only the environment is timed. Reset times
are reported apart: RLScheduler's reset also schedules the episode twice
with heuristics (SJF and F1) for its reward baselines. ENGINE is
SchedulingEnv's engine: inprocess (the default when schedlab's shared
library is available), process or auto.

"steps only" times the stepping loop, the random agent's choice of a
legal action included (the same for both environments: a choice among
the legal slots); "env.step alone" times the calls to step() only.
"CPU" is the stepping loop's steps per second of the process's CPU time
(time.process_time: all its threads, so the Go runtime's too), which a
busy machine disturbs less than the wall-clock figures: on a shared
machine compare those, interleaved (interleave.py).
"""

import sys
import time
import types

import numpy as np


def bench_schedlab(trace, episodes, engine="auto"):
    from schedlab.gym import SchedulingEnv

    env = SchedulingEnv(trace=trace, episode_jobs=256, window=128, engine=engine)
    rng = np.random.default_rng(0)
    steps, t_reset, t_step, t_env, t_cpu = 0, 0.0, 0.0, 0.0, 0.0
    clock, cpu = time.perf_counter, time.process_time
    for e in range(episodes):
        t = clock()
        obs, info = env.reset(seed=e)
        t_reset += clock() - t
        t, c = clock(), cpu()
        while True:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            u = clock()
            obs, r, term, trunc, info = env.step(a)
            t_env += clock() - u
            steps += 1
            if term:
                break
        t_step += clock() - t
        t_cpu += cpu() - c
    env.close()
    return steps, t_reset, t_step, t_env, t_cpu


def stand_ins():
    import gymnasium

    tf = types.ModuleType("tensorflow")
    scipy = types.ModuleType("scipy")
    scipy.signal = types.ModuleType("scipy.signal")
    gym = types.ModuleType("gym")
    gym.Env = object
    gym.spaces = gymnasium.spaces
    seeding = types.ModuleType("gym.utils.seeding")
    seeding.np_random = lambda seed=None: (np.random.RandomState(seed), seed)
    utils = types.ModuleType("gym.utils")
    utils.seeding = seeding
    gym.utils = utils
    sys.modules.update(
        {
            "tensorflow": tf,
            "scipy": scipy,
            "scipy.signal": scipy.signal,
            "gym": gym,
            "gym.spaces": gymnasium.spaces,
            "gym.utils": utils,
            "gym.utils.seeding": seeding,
        }
    )


def bench_rlscheduler(folder, trace, episodes):
    stand_ins()
    sys.path.insert(0, folder)
    import HPCSimPickJobs as h

    env = h.HPCEnv()
    env.seed(0)
    env.my_init(workload_file=trace)
    rng = np.random.default_rng(0)
    steps, t_reset, t_step, t_env, t_cpu = 0, 0.0, 0.0, 0.0, 0.0
    clock, cpu = time.perf_counter, time.process_time
    for e in range(episodes):
        t = clock()
        obs, _ = env.reset()
        t_reset += clock() - t
        t, c = clock(), cpu()
        while True:
            legal = [k for k, p in enumerate(env.pairs) if p[0]]
            a = int(rng.choice(legal)) if legal else 0
            u = clock()
            o, r, done, *_ = env.step(a)
            t_env += clock() - u
            steps += 1
            if done:
                break
        t_step += clock() - t
        t_cpu += cpu() - c
    return steps, t_reset, t_step, t_env, t_cpu


def main(argv):
    if len(argv) >= 3 and argv[1] == "schedlab":
        steps, tr, ts, te, tc = bench_schedlab(
            argv[2], int(argv[3]) if len(argv) > 3 else 20, argv[4] if len(argv) > 4 else "auto"
        )
        argv[1] += f" ({argv[4] if len(argv) > 4 else 'auto'})"
    elif len(argv) >= 4 and argv[1] == "rlscheduler":
        steps, tr, ts, te, tc = bench_rlscheduler(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 20)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(
        f"{argv[1]}: {steps} steps; steps/s {steps / ts:.0f} (steps only), {steps / (ts + tr):.0f} (with resets), "
        f"{steps / te:.0f} (env.step alone); reset {tr:.3f} s, steps {ts:.3f} s; CPU steps/s {steps / tc:.0f} (steps only)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
