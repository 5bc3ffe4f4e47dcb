"""Aggregate Gym steps per second of schedlab.gym.VectorSchedulingEnv (N
episodes stepped in one library call) against the single SchedulingEnv
(engine="inprocess") and, with DIR, RLScheduler's SchedGym environment,
on one trace with random legal actions, episodes of 256 jobs and a
window of 128 (as gymbench.py). One process; the three are run one
after another, ROUNDS times interleaved (the vector one twice: with its
runs stepped in turn on the calling thread, parallel=False, the
default, and on the library's goroutines, parallel=True), and each figure's median
(range) over the rounds is printed.

    cd python
    python ../tools/gymbench/vecbench.py TRACE [N [STEPS [ROUNDS [DIR TRACE.swf]]]]
    # e.g. SCHEDLAB_TRACES=/path/to/traces python ../tools/gymbench/vecbench.py HPC2N-2002-2.1-cln.swf.gz 64 200000 5

STEPS is the number of agent steps per round of each environment (for
a vector one, its sub-environments' steps added up). The single environment's figures are
gymbench.py's: "steps only" (the stepping loop, the random agent's
choice included, resets left out) and "with resets". The vector
environment resets its episodes itself (autoreset, inside step):
"with resets" is its loop's steps per second, "steps only" leaves out
the time spent in its autoresets. The random agent's choice is the
vectorized one for the vector environment (a uniform choice among each
environment's legal slots, argmax of uniform numbers times the mask),
rng.choice(np.flatnonzero(mask)) for the single one, as gymbench.py.
"""

import statistics
import sys
import time

import numpy as np


def bench_single(trace, steps):
    from schedlab.gym import SchedulingEnv

    env = SchedulingEnv(trace=trace, episode_jobs=256, window=128, engine="inprocess")
    rng = np.random.default_rng(0)
    done, t_reset, t_step, e = 0, 0.0, 0.0, 0
    clock = time.perf_counter
    while done < steps:
        t = clock()
        obs, info = env.reset(seed=e)
        t_reset += clock() - t
        e += 1
        t = clock()
        while True:
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, r, term, trunc, info = env.step(a)
            done += 1
            if term:
                break
        t_step += clock() - t
    env.close()
    return done / t_step, done / (t_step + t_reset)


def bench_vector(trace, n, steps, parallel=False):
    from schedlab.gym import VectorSchedulingEnv

    envs = VectorSchedulingEnv(num_envs=n, trace=trace, episode_jobs=256, window=128, parallel=parallel)
    t_reset = [0.0]
    reset_many = envs._reset_many

    def timed(idx, seeds):
        t = time.perf_counter()
        try:
            return reset_many(idx, seeds)
        finally:
            t_reset[0] += time.perf_counter() - t

    envs._reset_many = timed
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=0)
    t_reset[0] = 0.0
    done, clock = 0, time.perf_counter
    t = clock()
    while done < steps:
        mask = info["action_mask"]
        stepping = n - int(envs._need_reset.sum())  # (those reset this step take no step)
        a = np.argmax(rng.random(mask.shape) * mask, axis=1)
        obs, r, term, trunc, info = envs.step(a)
        done += stepping
    total = clock() - t
    envs.close()
    return done / (total - t_reset[0]), done / total


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    trace = argv[1]
    n = int(argv[2]) if len(argv) > 2 else 64
    steps = int(argv[3]) if len(argv) > 3 else 200_000
    rounds = int(argv[4]) if len(argv) > 4 else 5
    rl = argv[5:7] if len(argv) > 6 else None
    vec, seq = f"vector (N={n})", f"vector (N={n}, parallel=True)"
    res = {"single": [], vec: [], seq: []}
    if rl:
        res["rlscheduler"] = []
    for _ in range(rounds):
        res["single"].append(bench_single(trace, steps))
        res[vec].append(bench_vector(trace, n, steps))
        res[seq].append(bench_vector(trace, n, steps, parallel=True))
        if rl:
            sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
            import gymbench

            s, tr, ts, te, tc = gymbench.bench_rlscheduler(rl[0], rl[1], max(1, steps // 256))
            res["rlscheduler"].append((s / ts, s / (ts + tr)))

    def med(xs):
        return f"{statistics.median(xs):,.0f} ({min(xs):,.0f}-{max(xs):,.0f})"

    def medx(xs):
        return f"{statistics.median(xs):.2f}x ({min(xs):.2f}-{max(xs):.2f}x)"

    for name, rows in res.items():
        print(f"{name}: steps only {med([r[0] for r in rows])}, with resets {med([r[1] for r in rows])} steps/s")
    for name in (vec, seq):
        for k, what in ((0, "steps only"), (1, "with resets")):
            ratios = [v[k] / s[k] for v, s in zip(res[name], res["single"])]
            print(f"{name} / single, per round, {what}: {medx(ratios)}")
            if rl:
                ratios = [v[k] / s[k] for v, s in zip(res[name], res["rlscheduler"])]
                print(f"{name} / rlscheduler, per round, {what}: {medx(ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
