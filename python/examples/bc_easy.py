"""Behaviour cloning of EASY through schedlab's Gymnasium environment: a
linear softmax policy over the window's slots (numpy only), trained by
gradient steps on EASY's trajectories (schedlab.trajectories) of weeks
of the first part of KTH-SP2, evaluated on held-out weeks of its last
part against FCFS and EASY by mean bounded slowdown (tau = 10 s).

    cd python
    python examples/bc_easy.py                 # the full run (docs: python/README.md)
    python examples/bc_easy.py --tiny          # seconds (the tests run it)

The trace's jobs are split in two files: the first 75% (training weeks
are drawn from it), the last 25% (the held-out weeks). A "week" is an
episode of --episode-jobs consecutive jobs (600 is about a week of
KTH-SP2: 28,490 jobs in 11 months). The policy scores each slot s with
theta . phi(s): phi is the slot's features, the machine's, the slot's
position s / window and 1; the action is the legal slot of highest score
(softmax over the legal slots while training: the cross-entropy of
EASY's action, minimized by Adam's steps on all the data at once).
"First fit" is the first legal slot at every step, through the
environment (its schedule: the queue's order, backfilling any job of
the window that fits). FCFS and EASY are schedlab's own policies on each held-out week's jobs
(schedlab.run on the episode's SWF file); the cloned policy acts
through the environment, whose schedule is work-conserving on its
window.
"""

import argparse
import gzip
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

try:
    import schedlab
except ImportError:  # run from the source tree without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import schedlab
import schedlab.trajectories as T
from schedlab.gym import SchedulingEnv, _trace_path


def split_trace(trace, folder, fraction=0.75):
    """Writes the first `fraction` of the trace's jobs and the rest as two
    SWF files (header kept) in folder; returns their paths."""
    path = _trace_path(trace)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        lines = f.readlines()
    header = [x for x in lines if x.startswith(";")]
    jobs = [x for x in lines if x.strip() and not x.startswith(";")]
    cut = int(len(jobs) * fraction)
    out = []
    for name, part in (("train.swf", jobs[:cut]), ("test.swf", jobs[cut:])):
        p = Path(folder) / name
        p.write_text("".join(header + part))
        out.append(p)
    return out


def phi(obs, window, nslot):
    """(steps, window, k) slot descriptors from (steps, size) observations."""
    n = obs.shape[0]
    slots = obs[:, : window * nslot].reshape(n, window, nslot)
    machine = np.repeat(obs[:, None, window * nslot :], window, axis=1)
    pos = np.broadcast_to((np.arange(window) / window)[None, :, None], (n, window, 1))
    return np.concatenate([slots, machine, pos, np.ones((n, window, 1))], axis=2).astype(np.float64)


def train(X, mask, action, epochs, lr=0.05, seed=0):
    """theta minimizing the mean cross-entropy of action under the
    softmax of X @ theta over each row's legal slots (Adam, full batch).
    Returns theta and the losses per epoch."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 0.01, X.shape[2])
    m, v, b1, b2 = np.zeros_like(theta), np.zeros_like(theta), 0.9, 0.999
    legal = mask.astype(bool)
    rows = np.arange(len(action))
    losses = []
    for t in range(1, epochs + 1):
        z = np.where(legal, X @ theta, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        losses.append(float(-np.log(p[rows, action]).mean()))
        g = p.copy()
        g[rows, action] -= 1
        grad = np.einsum("nw,nwk->k", g, X) / len(action)
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad**2
        theta -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + 1e-8)
    return theta, losses


def evaluate(theta, swf, seed, episode_jobs, window):
    """Mean bounded slowdown of the cloned policy through the environment
    and of FCFS and EASY on the same held-out episode."""
    env = SchedulingEnv(trace=swf, episode_jobs=episode_jobs, window=window)
    obs, info = env.reset(seed=seed)
    nslot = env.slot_features
    while True:
        x = phi(obs[None], window, nslot)[0]
        a = int(np.argmax(np.where(info["action_mask"].astype(bool), x @ theta, -np.inf)))
        obs, r, term, trunc, info = env.step(a)
        if term:
            break
    out = {"bc": info["summary"]["mean_bounded_slowdown"]}
    # the first legal slot at every step (first fit on the window, in
    # queue order), through the environment
    obs, info = env.reset(seed=seed)
    while True:
        obs, r, term, trunc, info = env.step(int(np.argmax(info["action_mask"])))
        if term:
            break
    out["first_fit"] = info["summary"]["mean_bounded_slowdown"]
    ep = Path(env._dir) / "episode.swf"
    for pol in ("fcfs", "easy"):
        out[pol] = schedlab.run(trace=str(ep), policy=pol).summary["mean_bounded_slowdown"]
    env.close()
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trace", default="KTH-SP2-1996-2.1-cln.swf.gz")
    p.add_argument("--train-weeks", type=int, default=16)
    p.add_argument("--test-weeks", type=int, default=8)
    p.add_argument("--episode-jobs", type=int, default=600)
    p.add_argument("--window", type=int, default=16)
    p.add_argument("--epochs", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tiny", action="store_true", help="2 weeks of 64 jobs, 1 held out, 60 epochs, window 8")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    a = p.parse_args(argv)
    if a.tiny:
        a.train_weeks, a.test_weeks, a.episode_jobs, a.epochs, a.window = 2, 1, 64, 60, 8
    with tempfile.TemporaryDirectory(prefix="schedlab-bc-") as d:
        train_swf, test_swf = split_trace(a.trace, d)
        t = T.trajectories(
            policy="easy", trace=train_swf, episodes=a.train_weeks, seed=a.seed, episode_jobs=a.episode_jobs, window=a.window
        )
        nslot = t["meta"]["params"]["slot_features"]
        X = phi(t["obs"], a.window, nslot)
        theta, losses = train(X, t["mask"], t["action"], a.epochs, seed=a.seed)
        legal = t["mask"].astype(bool)
        pred = np.argmax(np.where(legal, X @ theta, -np.inf), axis=1)
        first = np.argmax(legal, axis=1)  # the first legal slot (FCFS order on the window)
        res = {
            "train_steps": int(len(t["action"])),
            "loss_first": losses[0],
            "loss_last": losses[-1],
            "train_accuracy": float((pred == t["action"]).mean()),
            "first_legal_accuracy": float((first == t["action"]).mean()),
            "weeks": [],
        }
        for w in range(a.test_weeks):
            res["weeks"].append(evaluate(theta, test_swf, 1000 + a.seed + w, a.episode_jobs, a.window))
    for k in ("bc", "first_fit", "fcfs", "easy"):
        res[f"mean_{k}"] = float(np.mean([w[k] for w in res["weeks"]]))
    if a.json:
        print(json.dumps(res, indent=1))
    else:
        print(
            f"trained on {res['train_steps']} steps of EASY: loss {res['loss_first']:.3f} -> {res['loss_last']:.3f}, "
            f"accuracy {res['train_accuracy']:.3f} (first legal slot: {res['first_legal_accuracy']:.3f})"
        )
        print("held-out week   BC      first fit  FCFS    EASY   (mean bounded slowdown)")
        for w, r in enumerate(res["weeks"]):
            print(f"{w:>13}   {r['bc']:<7.2f} {r['first_fit']:<10.2f} {r['fcfs']:<7.2f} {r['easy']:.2f}")
        print(
            f"{'mean':>13}   {res['mean_bc']:<7.2f} {res['mean_first_fit']:<10.2f} {res['mean_fcfs']:<7.2f} {res['mean_easy']:.2f}"
        )
    return res


if __name__ == "__main__":
    main(sys.argv[1:])
