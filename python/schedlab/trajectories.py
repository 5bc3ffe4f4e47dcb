"""Trajectories of a built-in policy acting through the Gymnasium
environment: (observation, mask, action, reward, done) per step, written
as a columnar file.

    import schedlab.trajectories as T
    t = T.trajectories(policy="easy", trace="KTH-SP2-1996-2.1-cln.swf.gz", episodes=4, seed=0,
                       out="easy.parquet")      # or .npz
    t["obs"].shape      # (steps, observation size), float32
    T.read("easy.parquet")                       # the same dict

    python -m schedlab.trajectories --policy easy --episodes 4 --seed 0 --out easy.parquet

The expert's action (the rule): for each episode (SchedulingEnv.reset
with seed + episode), the built-in policy is first run by schedlab on
the episode's jobs alone (the same SWF file, from an empty machine),
which gives each job's start time in the policy's own schedule. Then
the environment is stepped, and at each step the action is the legal
slot whose job that schedule started first (ties: the lower job id).
The environment's schedule is work-conserving on its window (a step
always starts a job that fits, and an instant ends only when none of
the window fits), where a built-in policy may keep CPUs idle (EASY's
reservation for the queue's head) or start a job beyond the window, so
the two schedules can part: the action is then still the policy's
order among the jobs that can start now. On a platform of nodes
(nodes=, the environment's; the trace a job table or an SWF file) the
policy's schedule is run on the same nodes. Where the policy's schedule is
work-conserving on the window, the environment follows it start for
start. info["summary"] of the last step (the environment's schedule)
and the policy's own summary are in the result's "episodes".

Columns (one row per step, in order): episode (int64), step (int64,
within the episode), obs (float32, the observation before the action),
mask (int8, its action mask), action (int64, the slot), job (int64, the
job started), reward (float64, the environment's reward for the step),
done (bool, the episode's last step). Parquet (when pyarrow is
importable, or format="parquet"): obs and mask as fixed-size lists;
format="npz" (numpy.savez: the same names, obs (steps, size) and mask
(steps, window) as 2-D arrays). Both hold the same numbers; the file's
metadata (Parquet's key "schedlab", the npz's array "meta") is the JSON
of the call's parameters and the per-episode summaries. The same call
with the same seed writes the same numbers.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

COLUMNS = ("episode", "step", "obs", "mask", "action", "job", "reward", "done")


def _have_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def _policy_starts(swf, policy, options):
    """job id -> (start time, job id) in the built-in policy's schedule of
    the SWF file, and its summary."""
    import schedlab

    r = schedlab.run(trace=str(swf), policy=policy, **options)
    j = r.jobs
    return {int(i): (float(s), int(i)) for i, s in zip(j["job_id"], j["starting_time"])}, r.summary


def trajectories(
    policy="easy",
    trace="KTH-SP2-1996-2.1-cln.swf.gz",
    episodes=4,
    seed=0,
    out=None,
    format=None,
    episode_jobs=256,
    window=16,
    reward="episode_bsld",
    features=None,
    engine="auto",
    policy_options=None,
    **env_options,
) -> dict:
    """Runs `policy` (a built-in policy's name, as schedlab.run takes it;
    policy_options: its options) through SchedulingEnv (trace,
    episode_jobs, window, reward, features, engine and env_options are
    the environment's) for `episodes` episodes seeded seed, seed + 1, ...,
    by the rule of this module's doc, and returns the columns as numpy
    arrays (and "episodes": per episode its seed, first job, and the
    environment's and the policy's summaries). With out=, also writes
    them: format "parquet" or "npz" (default: out's suffix, else parquet
    when pyarrow is importable, else npz)."""
    from .gym import SchedulingEnv

    if not isinstance(policy, str):
        raise ValueError(f"policy={policy!r}: want the name of a built-in policy (schedlab policies)")
    episodes = int(episodes)
    if episodes < 1:
        raise ValueError(f"episodes={episodes}: want >= 1")
    fmt = _format(out, format)
    env = SchedulingEnv(
        trace=trace, episode_jobs=episode_jobs, window=window, reward=reward, features=features, engine=engine, **env_options
    )
    cols = {k: [] for k in COLUMNS}
    meta = []
    try:
        for e in range(episodes):
            obs, info = env.reset(seed=seed + e)
            run_options = dict(policy_options or {})
            if env.nodes is not None:
                run_options["nodes"] = env.nodes
            rank, policy_summary = _policy_starts(env.episode_file, policy, run_options)
            slots = env.window_jobs()
            t = 0
            while True:
                mask = info["action_mask"]
                legal = np.flatnonzero(mask)
                keys = [rank.get(slots[k], (np.inf, slots[k])) for k in legal]
                a = int(legal[min(range(len(legal)), key=keys.__getitem__)])
                jid = slots[a]
                cols["episode"].append(e)
                cols["step"].append(t)
                cols["obs"].append(obs)
                cols["mask"].append(mask)
                cols["action"].append(a)
                cols["job"].append(jid)
                obs, r, term, trunc, info = env.step(a)
                assert not info["replaced"]
                cols["reward"].append(r)
                cols["done"].append(bool(term))
                t += 1
                if term:
                    break
                slots = env.window_jobs()
            s = info["summary"]
            meta.append(
                {
                    "seed": seed + e,
                    "first_job": env.first_job,
                    "steps": t,
                    "env_mean_bounded_slowdown": s["mean_bounded_slowdown"],
                    "policy_mean_bounded_slowdown": policy_summary["mean_bounded_slowdown"],
                    "env_mean_wait": s["mean_wait"],
                    "policy_mean_wait": policy_summary["mean_wait"],
                }
            )
    finally:
        env.close()
    res = {
        "episode": np.array(cols["episode"], dtype=np.int64),
        "step": np.array(cols["step"], dtype=np.int64),
        "obs": np.stack(cols["obs"]).astype(np.float32),
        "mask": np.stack(cols["mask"]).astype(np.int8),
        "action": np.array(cols["action"], dtype=np.int64),
        "job": np.array(cols["job"], dtype=np.int64),
        "reward": np.array(cols["reward"], dtype=np.float64),
        "done": np.array(cols["done"], dtype=bool),
    }
    params = {
        "policy": policy,
        "policy_options": dict(policy_options or {}),
        "trace": Path(str(trace)).name,
        "episodes": episodes,
        "seed": seed,
        "episode_jobs": episode_jobs,
        "window": window,
        "reward": reward,
        "features": list(env.features),
        "slot_features": env.slot_features,  # the first ones of features; the rest are the machine's
    }
    if env.nodes is not None:
        params["nodes"] = list(env.nodes)
    res["meta"] = {"params": params, "episodes": meta}
    if out is not None:
        write(res, out, fmt)
    return res


def _format(out, format):
    if format is None:
        suffix = Path(out).suffix.lower() if out is not None else ""
        format = {".parquet": "parquet", ".npz": "npz"}.get(suffix) or ("parquet" if _have_pyarrow() else "npz")
    if format not in ("parquet", "npz"):
        raise ValueError(f"format={format!r}: want 'parquet' or 'npz'")
    if format == "parquet" and not _have_pyarrow():
        raise ValueError("format='parquet' needs pyarrow (pip install pyarrow), or use format='npz'")
    return format


def write(t, out, format=None):
    """Writes trajectories (the dict trajectories() returns) to out."""
    fmt = _format(out, format)
    meta = json.dumps(t["meta"], sort_keys=True)
    if fmt == "npz":
        arrays = {k: t[k] for k in COLUMNS}
        with open(out, "wb") as f:
            np.savez(f, meta=np.array(meta), **arrays)
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    n, d = t["obs"].shape
    w = t["mask"].shape[1]
    table = pa.table(
        {
            "episode": t["episode"],
            "step": t["step"],
            "obs": pa.FixedSizeListArray.from_arrays(pa.array(t["obs"].ravel(), pa.float32()), d),
            "mask": pa.FixedSizeListArray.from_arrays(pa.array(t["mask"].ravel(), pa.int8()), w),
            "action": t["action"],
            "job": t["job"],
            "reward": t["reward"],
            "done": t["done"],
        }
    ).replace_schema_metadata({"schedlab": meta})
    pq.write_table(table, out)


def read(path) -> dict:
    """The trajectories of a file written by trajectories() (Parquet or
    npz, by its content): the columns as numpy arrays and "meta"."""
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic == b"PAR1":
        import pyarrow.parquet as pq

        table = pq.read_table(path)
        out = {}
        for k in COLUMNS:
            col = table.column(k).combine_chunks()
            if k in ("obs", "mask"):
                size = col.type.list_size
                out[k] = col.flatten().to_numpy(zero_copy_only=False).reshape(-1, size)
            else:
                out[k] = col.to_numpy(zero_copy_only=False)
        out["obs"] = out["obs"].astype(np.float32)
        out["mask"] = out["mask"].astype(np.int8)
        out["meta"] = json.loads(table.schema.metadata[b"schedlab"])
        return out
    with np.load(path) as z:
        out = {k: z[k] for k in COLUMNS}
        out["meta"] = json.loads(str(z["meta"]))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m schedlab.trajectories", description=__doc__.split("\n\n")[0])
    p.add_argument("--policy", default="easy")
    p.add_argument("--trace", default="KTH-SP2-1996-2.1-cln.swf.gz")
    p.add_argument("--episodes", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--episode-jobs", type=int, default=256)
    p.add_argument("--window", type=int, default=16)
    p.add_argument("--features", help="comma-separated feature names (default: the environment's)")
    p.add_argument("--format", choices=["parquet", "npz"])
    p.add_argument("--out", required=True)
    p.add_argument("--nodes", action="append", help="a node group, as schedlab run --nodes (repeatable): the episodes on a platform of nodes")
    a = p.parse_args(argv)
    extra = {"nodes": a.nodes} if a.nodes else {}
    t = trajectories(
        policy=a.policy,
        trace=a.trace,
        episodes=a.episodes,
        seed=a.seed,
        out=a.out,
        format=a.format,
        episode_jobs=a.episode_jobs,
        window=a.window,
        features=a.features.split(",") if a.features else None,
        **extra,
    )
    print(f"{a.out}: {len(t['action'])} steps of {a.episodes} episodes")
    for m in t["meta"]["episodes"]:
        print(
            f"  seed {m['seed']}: mean bounded slowdown {m['env_mean_bounded_slowdown']:.3f} through the environment, "
            f"{m['policy_mean_bounded_slowdown']:.3f} as {a.policy} itself"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
