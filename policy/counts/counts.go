package counts

import (
	"fmt"

	"github.com/schedlab/schedlab/internal/idmap"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// Cores is the number of cores a job of cores alone holds: its request's
// tasks, or its Procs without a request.
func Cores(j *job.Info) int {
	if j.Req != nil {
		return j.Req.Tasks
	}
	return j.Procs
}

// Scheduler is a policy.NodeScheduler that plans with a pool policy: the
// pool policy sees one machine of the platform's cores, of which the
// cores free now (kept as its jobs start and end), and every job as
// Procs CPUs (its tasks); its starts reach the model with no allocation.
// Every job must ask for cores alone (nodes.CoresAlone): one that does not
// stops the run (Err), since the pool's plan would not hold for it.
type Scheduler struct {
	inner policy.QueueScheduler
	caps  policy.Caps
	plat  platform.Platform
	cores int // the platform's
	free  int // cores free now
	// cores of each job submitted and not ended (its tasks): taken
	// from free when it starts, given back when it ends.
	of idmap.Map[job.ID, int]
	// foreign: the cores each job of another partition makes busy on
	// the platform's nodes (overlapping partitions, OccupyNodes).
	foreign map[job.ID]int
	ns      *nodes.Nodes
	err     error
}

// New wraps pool, a policy built for a machine of the cores of ns
// (platform.Cluster(ns.Cores())), as a node scheduler of ns.
func New(pool policy.QueueScheduler, ns *nodes.Nodes) (*Scheduler, error) {
	if ns == nil || ns.Len() == 0 {
		return nil, fmt.Errorf("policy %s by counts: a platform of nodes is required", pool.Name())
	}
	plat, err := platform.Cluster(ns.Cores())
	if err != nil {
		return nil, err
	}
	return &Scheduler{inner: pool, caps: policy.CapsOf(pool), plat: plat, cores: ns.Cores(), free: ns.Cores(),
		ns: ns}, nil
}

// Inner is the pool policy.
func (s *Scheduler) Inner() policy.QueueScheduler { return s.inner }

// Name is the pool policy's.
func (s *Scheduler) Name() string { return s.inner.Name() }

// Caps implements policy.Layer: the reservations the pool policy
// reports, its new estimates, its summary and its refusals at
// submission (a Screener looks at the job alone: recorded's jobs
// without a recorded start) pass through; the scheduler can fail (a
// job that does not ask for cores alone).
func (s *Scheduler) Caps() policy.Caps {
	c := s.caps.Only(policy.CapScreen | policy.CapReserve | policy.CapReestimate | policy.CapSummary)
	c.Fail = s
	if s.caps.Foreign != nil {
		c.NodeForeign = s
	}
	return c
}

// OccupyNodes implements policy.NodeForeignLoad (when the pool policy
// implements policy.ForeignLoad: Caps): a job of another partition
// holding a on shared nodes takes, to the pool policy, the cores it
// makes busy there (every core of a node it holds whole), until end.
func (s *Scheduler) OccupyNodes(now float64, id job.ID, a nodes.Allocation, end float64) {
	if s.caps.Foreign == nil {
		return
	}
	if _, dup := s.foreign[id]; dup {
		return
	}
	n := 0
	for _, na := range a.Nodes {
		n += len(na.Cores)
		if a.Exclusive {
			n += s.ns.Node(na.Node).Cores() - len(na.Cores)
		}
	}
	if n == 0 {
		return
	}
	if s.foreign == nil {
		s.foreign = map[job.ID]int{}
	}
	s.foreign[id] = n
	s.free -= n
	s.caps.Foreign.Occupy(now, id, n, end)
}

// ReleaseNodes implements policy.NodeForeignLoad.
func (s *Scheduler) ReleaseNodes(now float64, id job.ID) {
	n, ok := s.foreign[id]
	if !ok {
		return
	}
	delete(s.foreign, id)
	s.free += n
	s.caps.Foreign.Release(now, id)
}

// Err implements policy.Failer: the first job that did not ask for
// cores alone, or a failure of the pool policy.
func (s *Scheduler) Err() error {
	if s.err == nil && s.caps.Fail != nil {
		return s.caps.Fail.Err()
	}
	return s.err
}

// Submit hands the pool policy j as Procs CPUs: its tasks.
func (s *Scheduler) Submit(now float64, j job.Info) {
	if !nodes.CoresAlone(j.Req) {
		if s.err == nil {
			s.err = fmt.Errorf("policy %s by counts: job %d asks for more than cores (request %s): plan it with the node planner (docs/nodes.md)", s.inner.Name(), j.ID, j.Req)
		}
		return
	}
	c := Cores(&j)
	j.Procs, j.Req = c, nil
	s.of.Set(j.ID, c)
	s.inner.Submit(now, j)
}

// Finish gives the job's cores back and tells the pool policy.
func (s *Scheduler) Finish(now float64, id job.ID) {
	var c int
	if s.of.Take(id, &c) {
		s.free += c
	}
	s.inner.Finish(now, id)
}

// Schedule runs the pool policy's pass over the cores free now and
// leaves each of its starts to the model's allocation rule.
func (s *Scheduler) Schedule(now float64, _ policy.NodeView, plan *policy.Plan) {
	if s.err != nil {
		return
	}
	n0 := len(plan.Starts)
	s.inner.Schedule(now, machines{s}, plan)
	for i := n0; i < len(plan.Starts); i++ {
		st := &plan.Starts[i]
		st.Machine, st.CPUs, st.Alloc = 0, nil, nil
		c, _ := s.of.Get(st.ID)
		s.free -= c
	}
	for _, id := range plan.Rejects {
		s.of.Delete(id)
	}
}

// Free is the cores free now, as the scheduler counts them.
func (s *Scheduler) Free() int { return s.free }

// machines is the pool policy's view: one machine of the platform's
// cores, s.free of them free.
type machines struct{ s *Scheduler }

func (m machines) Platform() platform.Platform { return m.s.plat }
func (m machines) Free(int) int                { return m.s.free }
