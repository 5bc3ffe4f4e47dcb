package backfill_test

// The policies on a platform of nodes (spec v1), through the engine,
// against the independent naive reference internal/testref/nodesref
// (Schedule): the same start time, nodes, tasks, cores, memory and GRES
// units for every job, and validate.CheckNodes accepting the engine's
// schedule (150 random platforms x 40 jobs, 9 policy and order pairs).

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/testref/nodesref"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/validate"
)

// refNodesPlatform draws 1-4 node groups of 1-8 nodes: 1-8 cores of 1-2
// threads, memory or not, 0-4 GPUs typed (a or b) or untyped, features
// among x and y, weights 0-2.
func refNodesPlatform(t *testing.T, r *rand.Rand) *nodes.Nodes {
	t.Helper()
	var groups []nodes.NodeGroup
	for g := range 1 + r.IntN(4) {
		s := fmt.Sprintf("g%d-[1-%d]:cores=%d:threads=%d", g, 1+r.IntN(8), 1+r.IntN(8), 1+r.IntN(2))
		if r.IntN(2) == 0 {
			s += fmt.Sprintf(":mem=%dM", 1000*(1+r.IntN(4)))
		}
		if n := r.IntN(5); n > 0 {
			switch r.IntN(3) {
			case 0:
				s += fmt.Sprintf(":gres=gpu=%d", n)
			default:
				s += fmt.Sprintf(":gres=gpu:%c=%d", "ab"[r.IntN(2)], n)
			}
		}
		if f := []string{"", "x", "y", "x,y"}[r.IntN(4)]; f != "" {
			s += ":features=" + f
		}
		s += fmt.Sprintf(":weight=%d", r.IntN(3))
		grp, err := nodes.ParseGroup(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		groups = append(groups, grp)
	}
	ns, err := nodes.New(groups)
	if err != nil {
		t.Fatal(err)
	}
	return &ns
}

// refNodesRequest draws a multi-resource request: tasks of 1-3 CPUs,
// nodes exact, a range or any, memory per node or per CPU, GPUs per node
// (typed or not) or per job, a constraint, exclusive; some jobs have no
// request (nil: Procs tasks of one CPU).
func refNodesRequest(r *rand.Rand) *nodes.Request {
	if r.IntN(8) == 0 {
		return nil
	}
	q := nodes.Request{Tasks: 1 + r.IntN(8), CPUsPerTask: 1 + r.IntN(3)}
	switch r.IntN(4) {
	case 0:
		q.Nodes = 1 + r.IntN(min(q.Tasks, 3))
	case 1:
		q.Nodes = 1
		q.MaxNodes = 1 + r.IntN(3)
	}
	switch r.IntN(3) {
	case 0:
		q.MemPerNodeMB = int64(100 * (1 + r.IntN(20)))
	case 1:
		q.MemPerCPUMB = int64(50 * (1 + r.IntN(10)))
	}
	switch r.IntN(5) {
	case 0:
		q.GRESPerNode = []nodes.GRES{{Name: "gpu", Count: 1 + r.IntN(2)}}
	case 1:
		q.GRESPerNode = []nodes.GRES{{Name: "gpu", Type: string("ab"[r.IntN(2)]), Count: 1}}
	case 2:
		q.GRESPerJob = []nodes.GRES{{Name: "gpu", Count: 1 + r.IntN(4)}}
	}
	if r.IntN(4) == 0 {
		q.Constraint = []string{"x", "y", "x&y", "x|y", "(x|y)&x"}[r.IntN(5)]
	}
	q.Exclusive = r.IntN(6) == 0
	return &q
}

// refNodesJobs draws n jobs that fit the empty platform (the engine
// refuses the others at admission): integer times, so that ends and
// submissions often meet; estimates at least the runtimes, some zero.
func refNodesJobs(r *rand.Rand, ns *nodes.Nodes, n int) []actual.Job {
	var jobs []actual.Job
	at := 0.0
	for id := 1; len(jobs) < n; id++ {
		q := refNodesRequest(r)
		procs := 1 + r.IntN(8)
		if q != nil {
			procs = q.CPUs()
		}
		eff := nodes.FromProcs(procs)
		if q != nil {
			eff = *q
		}
		if !nodes.Fits(ns, eff) {
			continue
		}
		at += float64(r.IntN(4))
		run := float64(r.IntN(20))
		est := run + float64(r.IntN(3)*r.IntN(10))
		if r.IntN(10) == 0 {
			run, est = 0, 0
		}
		jobs = append(jobs, actual.Job{ID: job.ID(id), Submit: at, Procs: procs, Runtime: run, Request: -1, Estimate: est,
			User: -1, Group: -1, Partition: -1, QOS: -1, Req: q})
	}
	return jobs
}

// refOf converts the platform for the reference (node-local numbering;
// GRES kinds as "name" or "name:type").
func refOf(ns *nodes.Nodes) []nodesref.Node {
	out := make([]nodesref.Node, ns.Len())
	for id := range out {
		nd := ns.Node(id)
		n := nodesref.Node{Name: nd.Name, Cores: nd.Cores(), ThreadsPerCore: nd.ThreadsPerCore, MemMB: nd.MemMB,
			Features: nd.Features(), Weight: nd.Weight, GRES: map[string]int{}}
		for _, g := range nd.GRES() {
			n.GRES[g.Kind().String()] = g.Count
		}
		out[id] = n
	}
	return out
}

func refGRESOf(gs []nodes.GRES) []nodesref.GRESReq {
	var out []nodesref.GRESReq
	for _, g := range gs {
		out = append(out, nodesref.GRESReq{Name: g.Name, Type: g.Type, Count: g.Count})
	}
	return out
}

// reqOf is a job's request, nil read as nodes.FromProcs(Procs).
func reqOf(j actual.Job) nodes.Request {
	if j.Req == nil {
		return nodes.FromProcs(j.Procs)
	}
	return *j.Req
}

func refJobsOf(jobs []actual.Job) []nodesref.Job {
	out := make([]nodesref.Job, len(jobs))
	for i, j := range jobs {
		q := reqOf(j)
		out[i] = nodesref.Job{ID: int64(j.ID), Submit: j.Submit, Runtime: j.Runtime, Estimate: j.Estimate, Req: nodesref.Request{
			Nodes: q.Nodes, MaxNodes: q.MaxNodes, Tasks: q.Tasks, CPUsPerTask: q.CPUsPerTask,
			MemPerNodeMB: q.MemPerNodeMB, MemPerCPUMB: q.MemPerCPUMB,
			GRESPerNode: refGRESOf(q.GRESPerNode), GRESPerJob: refGRESOf(q.GRESPerJob),
			Constraint: q.Constraint, Exclusive: q.Exclusive}}
	}
	return out
}

// localUses writes an engine allocation in the reference's terms: node
// index, tasks, cores and units counted within the node (global id minus
// the node's first), memory; nil GRES where none.
func localUses(ns *nodes.Nodes, a *nodes.Allocation) []validate.NodeUse {
	if a == nil {
		return nil
	}
	var out []validate.NodeUse
	for _, na := range a.Nodes {
		nd := ns.Node(na.Node)
		u := validate.NodeUse{Node: na.Node, Tasks: na.Tasks, MemMB: na.MemMB}
		for _, c := range na.Cores {
			u.Cores = append(u.Cores, c-nd.FirstCore)
		}
		for _, g := range na.GRES {
			first, _ := ns.FirstGRES(na.Node, g.Kind)
			for _, x := range g.Units {
				if u.GRES == nil {
					u.GRES = map[string][]int{}
				}
				u.GRES[g.Kind.String()] = append(u.GRES[g.Kind.String()], x-first)
			}
		}
		out = append(out, u)
	}
	return out
}

// showUses writes uses as one text (node names, tasks, cores, memory,
// units by kind in sorted order), the form both sides are compared in.
func showUses(ns *nodes.Nodes, us []validate.NodeUse) string {
	var b []string
	for _, u := range us {
		ks := make([]string, 0, len(u.GRES))
		for k := range u.GRES {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		var g []string
		for _, k := range ks {
			g = append(g, fmt.Sprintf("%s%v", k, u.GRES[k]))
		}
		b = append(b, fmt.Sprintf("%s t%d c%v m%d g%v", ns.Name(u.Node), u.Tasks, u.Cores, u.MemMB, g))
	}
	return strings.Join(b, "; ")
}

func showRef(ns *nodes.Nodes, us []nodesref.NodeUse) string {
	v := make([]validate.NodeUse, len(us))
	for i, u := range us {
		v[i] = validate.NodeUse{Node: u.Node, Tasks: u.Tasks, Cores: u.Cores, MemMB: u.MemMB, GRES: u.GRES}
	}
	return showUses(ns, v)
}

// refNodesSource hands out a slice of jobs, io.EOF at the end.
type refNodesSource struct{ jobs []actual.Job }

func (s *refNodesSource) Next() (actual.Job, error) {
	if len(s.jobs) == 0 {
		return actual.Job{}, io.EOF
	}
	j := s.jobs[0]
	s.jobs = s.jobs[1:]
	return j, nil
}

// refNodesRecords keeps every finished job's start, end and allocation
// (in node-local numbering, converted during the call: a record's
// slices are the engine's), by id.
type refNodesRecords struct {
	ns     *nodes.Nodes
	recs   map[job.ID]refNodesRec
	killed []job.ID
}

type refNodesRec struct {
	start, end float64
	uses       []validate.NodeUse
}

func (l *refNodesRecords) JobSubmitted(float64, *actual.Job)         {}
func (l *refNodesRecords) JobDispatched(float64, *actual.Job, []int) {}
func (l *refNodesRecords) JobStarted(float64, engine.Start)          {}
func (l *refNodesRecords) JobFinished(_ float64, r *engine.Record) {
	l.recs[r.Job.ID] = refNodesRec{start: r.Start, end: r.End, uses: localUses(l.ns, r.Alloc)}
}
func (l *refNodesRecords) JobKilled(_ float64, r *engine.Record) {
	l.killed = append(l.killed, r.Job.ID)
}

// runNodesEngine runs jobs on ns under the registry's cluster queue
// policy name with options opts, through the engine.
func runNodesEngine(ns *nodes.Nodes, name string, opts map[string]string, jobs []actual.Job) (*refNodesRecords, error) {
	e, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, name)
	if err != nil {
		return nil, err
	}
	pl, err := platform.New([]platform.Machine{{CPUs: ns.Cores()}})
	if err != nil {
		return nil, err
	}
	b, err := e.Build(policy.Env{Nodes: ns, Platform: pl}, opts)
	if err != nil {
		return nil, err
	}
	if b.Nodes == nil {
		return nil, errors.New("no node scheduler built")
	}
	lis := &refNodesRecords{ns: ns, recs: map[job.ID]refNodesRec{}}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: b.Nodes,
		Source: &refNodesSource{jobs: slices.Clone(jobs)}, Listener: lis})
	if err != nil {
		return nil, err
	}
	return lis, c.Run()
}

// checkNodesSchedule runs validate.CheckNodes on the engine's schedule.
func checkNodesSchedule(ns *nodes.Nodes, jobs []actual.Job, lis *refNodesRecords) error {
	ref := refOf(ns)
	caps := make([]validate.NodeCap, len(ref))
	for i, n := range ref {
		caps[i] = validate.NodeCap{Name: n.Name, Cores: n.Cores, ThreadsPerCore: n.ThreadsPerCore, MemMB: n.MemMB, GRES: n.GRES, Features: n.Features}
	}
	counts := func(gs []nodes.GRES) map[string]int {
		m := map[string]int{}
		for _, g := range gs {
			m[g.Kind().String()] += g.Count
		}
		return m
	}
	var recs []validate.NodeRec
	for _, j := range jobs {
		r, ok := lis.recs[j.ID]
		if !ok {
			continue
		}
		q := reqOf(j)
		recs = append(recs, validate.NodeRec{ID: int64(j.ID), Start: r.start, Finish: r.end,
			Nodes: q.Nodes, MaxNodes: q.MaxNodes, Tasks: q.Tasks, CPUsPerTask: q.CPUsPerTask,
			MemPerNodeMB: q.MemPerNodeMB, MemPerCPUMB: q.MemPerCPUMB,
			GRESPerNode: counts(q.GRESPerNode), GRESPerJob: counts(q.GRESPerJob),
			Constraint: q.Constraint, Exclusive: q.Exclusive, Uses: r.uses})
	}
	return validate.CheckNodes(caps, recs)
}

// refNodesPolicies are the registry's policies and options with the
// reference's reading of them (spec v1's depths).
var refNodesPolicies = []struct {
	name  string
	opts  map[string]string
	sched nodesref.Sched
}{
	{"fcfs", nil, nodesref.SchedFCFS},
	{"firstfit", nil, nodesref.SchedFirstFit},
	{"easy", nil, nodesref.SchedEASY},
	{"conservative", nil, nodesref.SchedConservative},
	{"backfill", map[string]string{"depth": "2"}, nodesref.SchedBackfill(2)},
}

func TestNodePoliciesAgreeWithReference(t *testing.T) {
	seeds := 150
	if testing.Short() {
		seeds = 20
	}
	for seed := range seeds {
		for _, pol := range refNodesPolicies {
			for _, order := range []nodesref.Order{nodesref.ByFCFS, nodesref.BySJF} {
				if pol.name == "fcfs" && order == nodesref.BySJF {
					continue // strict FCFS has no sjf order
				}
				r := rand.New(rand.NewPCG(uint64(seed), 23))
				ns := refNodesPlatform(t, r)
				jobs := refNodesJobs(r, ns, 40)
				opts := map[string]string{"order": order.String()}
				for k, v := range pol.opts {
					opts[k] = v
				}
				what := fmt.Sprintf("seed %d, %s %v", seed, pol.name, opts)
				lis, err := runNodesEngine(ns, pol.name, opts, jobs)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if len(lis.killed) > 0 {
					t.Fatalf("%s: jobs killed: %v", what, lis.killed)
				}
				if err := checkNodesSchedule(ns, jobs, lis); err != nil {
					t.Fatalf("%s: the engine's schedule:\n%v", what, err)
				}
				sched := pol.sched
				sched.Order = order
				want := nodesref.Schedule(refOf(ns), refJobsOf(jobs), sched)
				for i, j := range jobs {
					w := want[i]
					if w.Never {
						t.Fatalf("%s: job %d (%v) never starts in the reference, yet fits the platform", what, j.ID, reqOf(j))
					}
					g, ok := lis.recs[j.ID]
					if !ok {
						t.Fatalf("%s: job %d (%v) did not finish in the engine; reference: at %v on %s", what, j.ID, reqOf(j), w.Time, showRef(ns, w.Uses))
					}
					if gs, ws := showUses(ns, g.uses), showRef(ns, w.Uses); g.start != w.Time || gs != ws {
						t.Fatalf("%s: job %d (%v, submit %v, runtime %v, estimate %v):\nengine    at %v on %s\nreference at %v on %s",
							what, j.ID, reqOf(j), j.Submit, j.Runtime, j.Estimate, g.start, gs, w.Time, ws)
					}
				}
			}
		}
	}
}
