"""schedlab.gym.VectorSchedulingEnv (N episodes stepped in one library
call) against N SchedulingEnv stepped one by one, and the observation
features chosen by name."""

import re
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

import schedlab.gym as sgym  # noqa: E402
from schedlab import _inproc  # noqa: E402
from schedlab.gym import SchedulingEnv, VectorSchedulingEnv  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(_inproc.library() is None, reason=f"no schedlab library: {_inproc.why_not()}")

ALL = [f["name"] for f in (sgym.features() if _inproc.library() is not None else [])]


def actions(rng, masks, window):
    """Random legal slots, and now and then an illegal one (replaced)."""
    a = np.argmax(rng.random(masks.shape) * masks, axis=1)
    odd = rng.random(len(a)) < 0.1
    a[odd] = rng.integers(-2, window + 2, size=int(odd.sum()))
    return a


def singles(kw, seeds, steps, policy_seed, mode):
    """What VectorSchedulingEnv should give, from one SchedulingEnv per
    seed stepped in turn, with gymnasium's autoreset rules done by hand."""
    envs = [SchedulingEnv(engine="inprocess", **kw) for _ in seeds]
    rng = np.random.default_rng(policy_seed)
    first = [e.reset(seed=s) for e, s in zip(envs, seeds)]
    obs = np.stack([o for o, _ in first])
    masks = np.stack([i["action_mask"] for _, i in first])
    out = [(obs, masks)]
    again = [False] * len(envs)
    for _ in range(steps):
        a = actions(rng, masks, kw["window"])
        rows = []
        for k, e in enumerate(envs):
            if again[k]:
                o, info = e.reset()
                rows.append((o, 0.0, False, info["action_mask"], None, None))
                again[k] = False
                continue
            o, r, term, _, info = e.step(int(a[k]))
            final = None
            if term:
                final = o
                if mode == AutoresetMode.SAME_STEP:
                    o, info2 = e.reset()
                    info = dict(info, action_mask=info2["action_mask"])
                else:
                    again[k] = True
            rows.append((o, r, term, info["action_mask"], final, info.get("summary")))
        obs = np.stack([x[0] for x in rows])
        masks = np.stack([x[3] for x in rows])
        out.append((obs, masks, np.array([x[1] for x in rows]), np.array([x[2] for x in rows]), [x[4] for x in rows], [x[5] for x in rows]))
    for e in envs:
        e.close()
    return out


def vectored(kw, seed, n, steps, policy_seed, mode, parallel=False):
    envs = VectorSchedulingEnv(num_envs=n, autoreset_mode=mode, parallel=parallel, **kw)
    rng = np.random.default_rng(policy_seed)
    obs, info = envs.reset(seed=seed)
    masks = info["action_mask"]
    out = [(obs, masks)]
    for _ in range(steps):
        a = actions(rng, masks, kw["window"])
        obs, r, term, trunc, info = envs.step(a)
        assert not trunc.any()
        masks = info["action_mask"]
        finals = [None] * n
        sums = [None] * n
        if "summary" in info:
            for k in np.flatnonzero(info["_summary"]):
                sums[k] = info["summary"][k]
        if mode == AutoresetMode.SAME_STEP and "final_obs" in info:
            for k in np.flatnonzero(info["_final_obs"]):
                finals[k] = info["final_obs"][k]
        elif mode == AutoresetMode.NEXT_STEP:
            for k in np.flatnonzero(term):
                finals[k] = obs[k]
        out.append((obs, masks, r, term, finals, sums))
    envs.close()
    return out


def strip(s):
    if s is None:
        return None
    s = dict(s)
    s["run"] = {k: v for k, v in s["run"].items() if k != "trace"}  # the episode file's folder
    return s


def check_same(a, b):
    assert len(a) == len(b)
    for t, (x, y) in enumerate(zip(a, b)):
        assert x[0].dtype == y[0].dtype == np.float32 and np.array_equal(x[0], y[0]), f"step {t}: observations"
        assert np.array_equal(x[1], y[1]), f"step {t}: masks"
        if t == 0:
            continue
        assert x[2].dtype == y[2].dtype and np.array_equal(x[2], y[2]), f"step {t}: rewards {x[2]} {y[2]}"
        assert np.array_equal(x[3], y[3]), f"step {t}: terminated"
        for u, v in zip(x[4], y[4]):
            assert (u is None) == (v is None) and (u is None or np.array_equal(u, v)), f"step {t}: final observations"
        assert [strip(s) for s in x[5]] == [strip(s) for s in y[5]], f"step {t}: summaries"


@pytest.mark.parametrize(
    "mode,kw",
    [
        (AutoresetMode.NEXT_STEP, dict(episode_jobs=48, window=8)),
        (AutoresetMode.SAME_STEP, dict(episode_jobs=40, window=4, reward={"step_wait": 2.0, "episode_bsld": 0.5})),
        # every feature ("power" needs a power model)
        (AutoresetMode.NEXT_STEP, dict(episode_jobs=32, window=3, reward="step_wait", features=ALL, power="95:190.74")),
    ],
)
def test_vector_same_as_singles(mode, kw):
    # N environments stepped together: exactly the trajectories of N
    # single environments reset with seeds seed, seed+1, ... and stepped
    # one by one with the same actions, across several autoresets
    n, steps = 4, 130
    a = singles(kw, [7 + i for i in range(n)], steps, 3, mode)
    b = vectored(kw, 7, n, steps, 3, mode)
    assert sum(int(x[3].sum()) for x in a[1:]) >= 2 * n  # episodes ended (and were reset)
    check_same(a, b)
    # and deterministic: the same again, and stepped on the library's
    # goroutines
    check_same(b, vectored(kw, 7, n, steps, 3, mode))
    check_same(b, vectored(kw, 7, n, steps, 3, mode, parallel=True))


def test_vector_disabled_autoreset_and_seeds():
    kw = dict(episode_jobs=16, window=4)
    envs = VectorSchedulingEnv(num_envs=2, autoreset_mode="Disabled", **kw)
    obs, info = envs.reset(seed=[3, 9])
    single = SchedulingEnv(engine="inprocess", **kw)
    o, _ = single.reset(seed=9)
    assert np.array_equal(obs[1], o)
    while True:
        obs, r, term, _, info = envs.step(np.zeros(2, dtype=np.int64))
        if term.any():
            break
    with pytest.raises(RuntimeError, match="reset them"):
        envs.step(np.zeros(2, dtype=np.int64))
    obs, info = envs.reset(options={"reset_mask": term})
    assert info["action_mask"][term].any(axis=1).all()
    envs.step(np.zeros(2, dtype=np.int64))
    envs.close()
    single.close()


@pytest.mark.parametrize("env_id", sorted(sgym.ENV_IDS))
def test_make_vec_every_id(env_id):
    # gymnasium.make_vec on the ids' vector entry point, and the same
    # trajectory as with vectorization_mode="sync" (SyncVectorEnv of
    # SchedulingEnv)
    got = []
    for mode in ("vector_entry_point", "sync"):
        envs = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode=mode, episode_jobs=24, window=4)
        if mode == "vector_entry_point":
            assert isinstance(envs.unwrapped, VectorSchedulingEnv)
        obs, info = envs.reset(seed=11)
        seen = [obs]
        for t in range(60):
            obs, r, term, trunc, info = envs.step(np.full(3, t % 4))
            seen += [obs, r, term]
        envs.close()
        got.append(seen)
    assert all(np.array_equal(x, y) for x, y in zip(*got))


def test_features_by_name():
    # the default list named is the default; unknown names are an error
    # listing the known ones; the process engine builds the default only
    assert tuple(_inproc.gym_features()["default"]) == sgym.DEFAULT_FEATURES
    decl = sgym.features()
    names = [f["name"] for f in decl]
    assert len(set(names)) == len(names) and set(sgym.DEFAULT_FEATURES) <= set(names)
    assert [f["slot"] for f in decl] == sorted((f["slot"] for f in decl), reverse=True)  # per slot first
    with pytest.raises(ValueError, match=r"unknown observation feature 'gpus' \(known: present, cpus, .*queue_work, power\)"):
        SchedulingEnv(features=["present", "gpus"])
    with pytest.raises(ValueError, match="given twice"):
        SchedulingEnv(features=["wait", "wait"], engine="inprocess")
    with pytest.raises(ValueError, match="engine='inprocess'"):
        SchedulingEnv(features=["wait", "queue_work"], engine="process")
    kw = dict(episode_jobs=64, window=8)
    a, b = SchedulingEnv(**kw), SchedulingEnv(features=list(sgym.DEFAULT_FEATURES), engine="process", **kw)
    assert a.observation_space == b.observation_space
    a.close(), b.close()
    env = SchedulingEnv(features=["queue_work", "wait", "user_usage", "running_remaining_mean"], engine="inprocess", **kw)
    assert env.features == ("wait", "user_usage", "queue_work", "running_remaining_mean")  # slots first
    assert env.observation_space.shape == (8 * 2 + 2,)
    check_env(env, skip_render_check=True)
    # the "wait" column is the default layout's, bit for bit
    d = SchedulingEnv(engine="inprocess", **kw)
    o1, i1 = env.reset(seed=4)
    o2, i2 = d.reset(seed=4)
    for _ in range(50):
        assert np.array_equal(o1[0:16:2], o2[3:40:5]) and np.array_equal(i1["action_mask"], i2["action_mask"])
        o1, _, t1, _, i1 = env.step(1)
        o2, _, t2, _, i2 = d.step(1)
        assert t1 == t2
    env.close(), d.close()


def test_power_feature():
    # "power" is the machine's watts over COMPUTE_W x CPUs: with power=
    # "10:30" on the default trace (KTH, 100 CPUs) it is (10 x 100 + 20 x
    # (100 - free)) / 3000, i.e. 1/3 + 2/3 x (1 - free_cpus), at every
    # step; without power= it is refused
    kw = dict(episode_jobs=64, window=4, engine="inprocess")
    with pytest.raises(Exception, match="needs a power model"):
        SchedulingEnv(features=["free_cpus", "power"], **kw).reset(seed=1)
    env = SchedulingEnv(features=["free_cpus", "power"], power="10:30", **kw)
    assert env.observation_space.shape == (2,)
    o, info = env.reset(seed=3)
    for _ in range(40):
        assert abs(o[1] - np.float32(1 / 3 + 2 / 3 * (1 - o[0]))) < 1e-6, o
        o, _, term, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if term:
            break
    env.close()


def test_features_table_documented():
    # python/README.md's table of the features is the library's
    # declarations (name, per slot or machine, meaning, scale), in order
    text = (REPO / "python" / "README.md").read_text()
    section = text.split("### Observation features", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (slot|machine) \| (.*?) \| (.*?) \|$", section, re.M)
    want = [(f["name"], "slot" if f["slot"] else "machine", f["meaning"], f["scale"]) for f in sgym.features()]
    assert rows == want
