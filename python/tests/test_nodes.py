"""Runs on a platform of nodes from Python (docs/nodes.md)."""

import schedlab
from schedlab import _inproc
from conftest import KTH

def test_run_on_nodes():
    r = schedlab.run(trace=KTH, policy="easy", nodes=["n[1-24]:cores=4", "big[1-2]:cores=2:gres=gpu=1"])
    assert r.summary["nodes"]["cores"] == 100
    assert r.summary["nodes"]["nodes"] == 26
    assert list(r.jobs.columns).index("allocated_nodes") == list(r.jobs.columns).index("allocated_resources") + 1
    assert str(r.jobs["allocated_nodes"].dtype) == "string"
    # an SWF job of P processors holds P cores, on at least ceil(P / 4) nodes
    for procs, cores, hosts in zip(r.jobs["requested_number_of_resources"], r.jobs["allocated_resources"], r.jobs["allocated_nodes"]):
        n = 0
        for part in cores.split():
            lo, _, hi = part.partition("-")
            n += int(hi or lo) - int(lo) + 1
        assert n == procs
        assert hosts
    # the same machine as a pool of CPUs: EASY on nodes of one core is the pool's
    pool = schedlab.run(trace=KTH, policy="easy", procs=100)
    ones = schedlab.run(trace=KTH, policy="easy", nodes="n[1-100]:cores=1")
    a = dict(zip(pool.jobs["job_id"], pool.jobs["starting_time"]))
    b = dict(zip(ones.jobs["job_id"], ones.jobs["starting_time"]))
    assert a == b

def test_run_spec_takes_nodes():
    spec = _inproc.run_spec(KTH, policy="easy", nodes=["n[1-4]:cores=8", "g1:cores=16:gres=gpu=4"])
    assert spec["platform"]["nodes"] == ["n[1-4]:cores=8", "g1:cores=16:gres=gpu=4"]
    assert _inproc.run_spec(KTH, policy="easy", nodes="n1:cores=2")["platform"]["nodes"] == ["n1:cores=2"]
    assert "nodes" not in _inproc.run_spec(KTH, policy="easy")["platform"]
