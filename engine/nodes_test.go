package engine_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// nodeFCFS is a strict FCFS NodeScheduler: jobs start in submit order
// while they fit on its own nodes.State mirror (which follows the same
// rule as the model: what it started, released at Finish). With named it
// hands the model the mirror's allocation; otherwise it starts with
// Alloc nil and the model allocates.
type nodeFCFS struct {
	named  bool
	skip   bool // first fit: a job that does not fit is passed, not waited for
	queue  []job.Info
	mirror *nodes.State
	held   map[job.ID]nodes.Allocation
	// viewErr is the first pass at which the model's view disagreed with
	// the mirror ("" none).
	viewErr     string
	noViewCheck bool
}

func (p *nodeFCFS) Name() string { return "test-fcfs" }

func (p *nodeFCFS) Submit(now float64, j job.Info) { p.queue = append(p.queue, j) }

func (p *nodeFCFS) Finish(now float64, id job.ID) {
	p.mirror.Release(p.held[id])
	delete(p.held, id)
}

func (p *nodeFCFS) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	if p.mirror == nil {
		p.mirror, p.held = nodes.NewState(v.Nodes()), map[job.ID]nodes.Allocation{}
	}
	ns := v.Nodes()
	for id := 0; id < ns.Len() && p.viewErr == "" && !p.noViewCheck; id++ {
		m := p.mirror
		ok := v.FreeCores(id) == m.FreeCores(id) && v.FreeMemMB(id) == m.FreeMemMB(id) && v.Jobs(id) == m.Jobs(id) && v.Whole(id) == m.Whole(id)
		for _, k := range ns.Kinds() {
			ok = ok && v.FreeGRES(id, k) == m.FreeGRES(id, k)
		}
		if !ok {
			p.viewErr = fmt.Sprintf("t=%g: the view of node %s disagrees with the mirror", now, ns.Name(id))
		}
	}
	for i := 0; i < len(p.queue); {
		j := p.queue[i]
		r := nodes.FromProcs(j.Procs)
		if j.Req != nil {
			r = *j.Req
		}
		a, ok := p.mirror.Alloc(r)
		if !ok && !p.skip {
			return
		}
		if !ok {
			i++
			continue
		}
		p.held[j.ID] = a
		reason := job.Reserved
		switch {
		case i > 0:
			reason = job.Backfilled
		case now == j.Submit:
			reason = job.Immediate
		}
		s := policy.Start{ID: j.ID, Reason: reason}
		if p.named {
			s.Alloc = &a
		}
		plan.Starts = append(plan.Starts, s)
		p.queue = slices.Delete(p.queue, i, i+1)
	}
}

// nodeRun is one job's run as a listener saw it.
type nodeRun struct {
	job        actual.Job
	start, end float64
	reason     job.StartReason
	killed     bool
	cpus       string
	alloc      nodes.Allocation
}

// nodeLog records every run (by id) and checks the model's counts at
// every instant against the allocations of the jobs running.
type nodeLog struct {
	t       testing.TB
	ns      *nodes.Nodes
	runs    map[job.ID]*nodeRun
	order   []job.ID // end order
	running map[job.ID]nodes.Allocation
	waiting map[job.ID]*actual.Job
	usage   map[float64]engine.NodeUsage // a copy at each instant
}

func newNodeLog(t testing.TB, ns *nodes.Nodes) *nodeLog {
	return &nodeLog{t: t, ns: ns, runs: map[job.ID]*nodeRun{}, running: map[job.ID]nodes.Allocation{},
		waiting: map[job.ID]*actual.Job{}, usage: map[float64]engine.NodeUsage{}}
}

func (l *nodeLog) JobSubmitted(now float64, j *actual.Job) {
	c := *j
	l.waiting[j.ID] = &c
}
func (l *nodeLog) JobDispatched(float64, *actual.Job, []int) {}
func (l *nodeLog) JobRejected(now float64, j *actual.Job)    { delete(l.waiting, j.ID) }
func (l *nodeLog) JobStarted(now float64, s engine.Start) {
	if s.Alloc == nil {
		l.t.Fatalf("t=%g: job %d started without an allocation", now, s.Job.ID)
	}
	a := cloneNodeAlloc(*s.Alloc)
	l.running[s.Job.ID] = a
	delete(l.waiting, s.Job.ID)
	if got, want := s.CPUs.String(), coresText(a); got != want {
		l.t.Errorf("t=%g: job %d: CPUs %s, its allocation's cores %s", now, s.Job.ID, got, want)
	}
}
func (l *nodeLog) JobFinished(now float64, r *engine.Record) { l.ended(now, r, false) }
func (l *nodeLog) JobKilled(now float64, r *engine.Record)   { l.ended(now, r, true) }
func (l *nodeLog) ended(now float64, r *engine.Record, killed bool) {
	if r.Alloc == nil || r.Machine != 0 {
		l.t.Fatalf("t=%g: job %d ended with allocation %v, machine %d", now, r.Job.ID, r.Alloc, r.Machine)
	}
	l.runs[r.Job.ID] = &nodeRun{job: *r.Job, start: r.Start, end: r.End, reason: r.Reason, killed: killed,
		cpus: r.CPUs.String(), alloc: cloneNodeAlloc(*r.Alloc)}
	l.order = append(l.order, r.Job.ID)
	delete(l.running, r.Job.ID)
}

func (l *nodeLog) TimeAdvanced(t float64, u *engine.Usage) {
	n := u.Nodes
	want := engine.NodeUsage{Kinds: l.ns.Kinds(), GRES: make([]int, len(l.ns.Kinds())), WaitingGRES: make([]int, len(l.ns.Kinds()))}
	busy := map[int]bool{}
	for _, a := range l.running {
		for _, na := range a.Nodes {
			want.Cores += len(na.Cores)
			want.MemMB += na.MemMB
			busy[na.Node] = true
			for _, g := range na.GRES {
				want.GRES[slices.Index(want.Kinds, g.Kind)] += len(g.Units)
			}
		}
	}
	want.NodesBusy = len(busy)
	want.Waiting = len(l.waiting)
	for _, j := range l.waiting {
		if j.Req == nil {
			continue
		}
		for k, kind := range want.Kinds {
			for _, g := range append(slices.Clone(j.Req.GRESPerNode), j.Req.GRESPerJob...) {
				if g.Name == kind.Name && (g.Type == "" || g.Type == kind.Type) {
					want.WaitingGRES[k]++
					break
				}
			}
		}
	}
	got := *n
	got.Platform = nil
	if fmt.Sprint(got) != fmt.Sprint(want) || u.Busy[0] != want.Cores {
		l.t.Errorf("t=%g: usage %+v (busy %d), want %+v", t, got, u.Busy[0], want)
	}
	got.GRES, got.WaitingGRES = slices.Clone(got.GRES), slices.Clone(got.WaitingGRES)
	l.usage[t] = got
}

func cloneNodeAlloc(a nodes.Allocation) nodes.Allocation {
	b := a
	b.Nodes = nil
	for _, na := range a.Nodes {
		na.Cores = slices.Clone(na.Cores)
		var gs []nodes.GRESUnits
		for _, g := range na.GRES {
			gs = append(gs, nodes.GRESUnits{Kind: g.Kind, Units: slices.Clone(g.Units)})
		}
		na.GRES = gs
		b.Nodes = append(b.Nodes, na)
	}
	return b
}

// coresText is the allocation's cores as Runs print them ("0-2 4").
func coresText(a nodes.Allocation) string {
	var cs []int
	for _, na := range a.Nodes {
		cs = append(cs, na.Cores...)
	}
	slices.Sort(cs)
	var parts []string
	for i := 0; i < len(cs); {
		k := i
		for k+1 < len(cs) && cs[k+1] == cs[k]+1 {
			k++
		}
		if k == i {
			parts = append(parts, fmt.Sprint(cs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", cs[i], cs[k]))
		}
		i = k + 1
	}
	return strings.Join(parts, " ")
}

// allocText writes an allocation node by node: "n1:0-1/gpu:0 n2:4" (the
// node's name, its cores, its GRES units by kind; "x" at the end for an
// exclusive one; memory as "/800M" when held).
func allocText(ns *nodes.Nodes, a nodes.Allocation) string {
	var parts []string
	for _, na := range a.Nodes {
		s := ns.Name(na.Node) + ":" + coresText(nodes.Allocation{Nodes: []nodes.NodeAlloc{na}})
		if na.Tasks != 1 {
			s += fmt.Sprintf("/t%d", na.Tasks)
		}
		if na.MemMB > 0 {
			s += fmt.Sprintf("/%dM", na.MemMB)
		}
		for _, g := range na.GRES {
			s += "/" + g.Kind.String() + ":" + strings.Trim(fmt.Sprint(g.Units), "[]")
		}
		parts = append(parts, s)
	}
	s := strings.Join(parts, " ")
	if a.Exclusive {
		s += " x"
	}
	return s
}

func mustNodes(t testing.TB, specs ...string) *nodes.Nodes { return nodestest.Must(t, specs...) }

// nj is a job submitted at submit running run seconds (its request, so
// its kill limit, is est) asking r.
func nj(id job.ID, submit, run, est float64, r nodes.Request) actual.Job {
	return actual.Job{ID: id, Submit: submit, Procs: r.CPUs(), Runtime: run, Estimate: est, Request: est, User: -1, Group: -1, Req: &r}
}

func runNodes(t testing.TB, ns *nodes.Nodes, pol policy.NodeScheduler, jobs []actual.Job, cont bool) (*nodeLog, error) {
	l := newNodeLog(t, ns)
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: pol, Source: workload.FromSlice(jobs), Listener: l, Continue: cont})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run()
	if f, ok := pol.(*nodeFCFS); ok && f.viewErr != "" {
		t.Error(f.viewErr)
	}
	if err == nil && c.Stats().Jobs != int64(len(jobs)) {
		t.Fatalf("%d jobs submitted, want %d", c.Stats().Jobs, len(jobs))
	}
	return l, err
}

const gpuNodes = "n[1-2]:cores=4:gres=gpu=2" // n1: cores 0-3, gpu 0-1; n2: cores 4-7, gpu 2-3

func gpus(n int) []nodes.GRES { return []nodes.GRES{{Name: "gpu", Count: n}} }

// Hand-worked runs: each job's start and what it holds, with the policy
// naming the allocation and with the model allocating (the same).
func TestNodeClusterHandWorked(t *testing.T) {
	type want struct {
		id    job.ID
		start float64
		alloc string
	}
	one := nodes.Request{Tasks: 1, CPUsPerTask: 1}
	for _, c := range []struct {
		name  string
		specs []string
		jobs  []actual.Job
		want  []want
	}{{
		// 1 and 2 take both GPUs of n1, n2; 3 needs one while 6 cores are
		// free and waits for the ends at 10, then takes n1's core 0 and
		// GPU 0; 4 (2 tasks, no GPU) waits behind it (strict FCFS) and
		// takes the next cores of n1.
		name:  "gpu job waits for gpus",
		specs: []string{gpuNodes},
		jobs: []actual.Job{
			nj(1, 0, 10, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: gpus(2)}),
			nj(2, 0, 10, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: gpus(2)}),
			nj(3, 1, 5, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: gpus(1)}),
			nj(4, 2, 3, 20, nodes.Request{Tasks: 2, CPUsPerTask: 1}),
		},
		want: []want{{1, 0, "n1:0/gpu:0 1"}, {2, 0, "n2:4/gpu:2 3"}, {3, 10, "n1:0/gpu:0"}, {4, 10, "n1:1-2/t2"}},
	}, {
		// 2 asks 4 tasks on exactly 2 nodes with 1 core of n1 free: n1's
		// share is ceil(4/2) = 2 > 1, so n1 is skipped and n2 alone
		// cannot hold the second node: it waits for 1's end at 10, then n1
		// takes 3 tasks (leaving one for the second node) and n2 one.
		name:  "two-node job",
		specs: []string{gpuNodes},
		jobs: []actual.Job{
			nj(1, 0, 10, 20, nodes.Request{Tasks: 3, CPUsPerTask: 1}),
			nj(2, 0, 5, 20, nodes.Request{Nodes: 2, Tasks: 4, CPUsPerTask: 1}),
		},
		want: []want{{1, 0, "n1:0-2/t3"}, {2, 10, "n1:0-2/t3 n2:4"}},
	}, {
		// 2 (exclusive) takes n2 whole; 3 shares n1 with 1; 4 (exclusive)
		// finds n1 busy and n2 held, and takes n2 whole at 2's end, 5.
		name:  "exclusive job",
		specs: []string{gpuNodes},
		jobs: []actual.Job{
			nj(1, 0, 10, 20, one),
			nj(2, 0, 5, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, Exclusive: true}),
			nj(3, 1, 5, 20, one),
			nj(4, 2, 1, 20, nodes.Request{Tasks: 2, CPUsPerTask: 1, Exclusive: true}),
		},
		want: []want{{1, 0, "n1:0"}, {2, 0, "n2:4-7 x"}, {3, 1, "n1:1"}, {4, 5, "n2:4-7/t2 x"}},
	}, {
		// 800 MB a node: 1 on n1, 2 on n2 (200 MB left on n1); 3 asks 300
		// MB a CPU, more than either node has free, with 6 cores free: it
		// waits for the ends at 10.
		name:  "memory-bound job",
		specs: []string{"n[1-2]:cores=4:mem=1000M:gres=gpu=2"},
		jobs: []actual.Job{
			nj(1, 0, 10, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 800}),
			nj(2, 0, 10, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 800}),
			nj(3, 1, 4, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, MemPerCPUMB: 300}),
		},
		want: []want{{1, 0, "n1:0/800M"}, {2, 0, "n2:4/800M"}, {3, 10, "n1:0/300M"}},
	}, {
		// 1 fills n2 (feature b); 2 wants b too and waits for it while n1
		// (feature a) is idle.
		name:  "feature constraint",
		specs: []string{"n1:cores=4:gres=gpu=2:features=a", "n2:cores=4:gres=gpu=2:features=b"},
		jobs: []actual.Job{
			nj(1, 0, 10, 20, nodes.Request{Tasks: 4, CPUsPerTask: 1, Constraint: "b"}),
			nj(2, 0, 2, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, Constraint: "b"}),
		},
		want: []want{{1, 0, "n2:4-7/t4"}, {2, 10, "n2:4"}},
	}} {
		for _, named := range []bool{false, true} {
			ns := mustNodes(t, c.specs...)
			l, err := runNodes(t, ns, &nodeFCFS{named: named}, c.jobs, false)
			if err != nil {
				t.Fatalf("%s (named %v): %v", c.name, named, err)
			}
			for _, w := range c.want {
				r := l.runs[w.id]
				if r == nil {
					t.Fatalf("%s: job %d did not run", c.name, w.id)
				}
				if got := allocText(ns, r.alloc); r.start != w.start || got != w.alloc {
					t.Errorf("%s (named %v): job %d at %g on %s, want at %g on %s", c.name, named, w.id, r.start, got, w.start, w.alloc)
				}
			}
		}
	}
}

// The counts of Usage.Nodes at hand-worked instants (the listener also
// checks them at every instant against the running jobs).
func TestNodeClusterUsage(t *testing.T) {
	ns := mustNodes(t, "n[1-2]:cores=4:mem=1000M:gres=gpu=2")
	jobs := []actual.Job{
		nj(1, 0, 10, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 100, GRESPerNode: gpus(2)}),
		nj(2, 0, 10, 20, nodes.Request{Tasks: 2, CPUsPerTask: 1, GRESPerJob: gpus(2)}),
		nj(3, 1, 5, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: gpus(1)}),
		nj(4, 2, 3, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, Exclusive: true}),
	}
	l, err := runNodes(t, ns, &nodeFCFS{}, jobs, false)
	if err != nil {
		t.Fatal(err)
	}
	// At 10 (before its events): 1 holds n1 core 0, 100 MB, 2 GPUs; 2
	// holds n2 cores 4-5 and GPUs 2-3; 3 (a GPU job) and 4 wait.
	// Then 3 and 4 start at 10: 3 on n1 (core 0, GPU 0), 4 on n2 whole
	// (1000 MB): at 13 (4's end).
	for _, c := range []struct {
		t    float64
		want string
	}{
		{10, "{<nil> 3 100 2 [gpu] [4] 2 [1]}"},
		{13, "{<nil> 5 1000 2 [gpu] [1] 0 [0]}"},
		{15, "{<nil> 1 0 1 [gpu] [1] 0 [0]}"},
	} {
		if got := fmt.Sprint(l.usage[c.t]); got != c.want {
			t.Errorf("t=%g: usage %s, want %s", c.t, got, c.want)
		}
	}
}

// randomNodes draws 1-3 groups of 1-3 nodes: 1-8 cores, 1-2 threads,
// memory or none, GPUs of type a or b or none, features x/y, weights.
func randomNodes(t testing.TB, r *rand.Rand) *nodes.Nodes {
	return nodestest.RandomPlatform(t, r, nodestest.PlatformDraw{Nodes: 3, Cores: 8, GPUs: 4})
}

func randomNodeRequest(r *rand.Rand) nodes.Request {
	return nodestest.RandomRequest(r, nodestest.RequestDraw{Tasks: 6, PerJob: true, Constraints: []string{"x", "y", "x&y", "x|y"}})
}

// randomNodeJobs draws n jobs that fit ns (some as SWF jobs without a
// request), with runtimes 0-9 and some killed at their limit.
func randomNodeJobs(ns *nodes.Nodes, r *rand.Rand, n int) []actual.Job {
	var jobs []actual.Job
	now := 0.0
	for id := job.ID(1); len(jobs) < n; id++ {
		now += float64(r.IntN(3))
		q := randomNodeRequest(r)
		if r.IntN(5) == 0 {
			q = nodes.FromProcs(1 + r.IntN(ns.Cores()))
		}
		if !nodes.Fits(ns, q) {
			continue
		}
		run := float64(r.IntN(10))
		j := nj(id, now, run, max(run+float64(r.IntN(3))-1, 0), q)
		if q.Tasks == q.CPUs() && q.CPUsPerTask == 1 && q.Nodes == 0 && q.MemPerCPUMB == 0 && q.MemPerNodeMB == 0 &&
			q.GRESPerNode == nil && q.GRESPerJob == nil && q.Constraint == "" && !q.Exclusive {
			j.Req = nil // an SWF job: Procs tasks of one CPU
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// nodeRecs writes the runs as the independent checker reads them.
func nodeRecs(ns *nodes.Nodes, l *nodeLog) []validate.NodeRec {
	var recs []validate.NodeRec
	for _, id := range l.order {
		x := l.runs[id]
		q := nodes.FromProcs(x.job.Procs)
		if x.job.Req != nil {
			q = *x.job.Req
		}
		recs = append(recs, nodecheck.Rec(ns, int64(id), x.start, x.end, q, &x.alloc))
	}
	return recs
}

// Random platforms and workloads: every run is accepted by the
// independent checker, no job starts before its submission or ends
// after its limit, the usage counts agree with the running jobs at
// every instant (the listener), and the policy naming the allocations
// gives the very runs of the model allocating; under strict FCFS and
// under first fit (a job that does not fit is passed).
func TestNodeClusterRandom(t *testing.T) {
	runs := 120
	if testing.Short() {
		runs = 30
	}
	same := 0 // runs where first fit changed nothing
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		ns := randomNodes(t, r)
		jobs := randomNodeJobs(ns, r, 50)
		var logs [4]string
		for k, named := range []bool{false, true, false, true} {
			skip := k >= 2
			l, err := runNodes(t, ns, &nodeFCFS{named: named, skip: skip}, jobs, false)
			if err != nil {
				t.Fatalf("seed %d (named %v): %v", seed, named, err)
			}
			if len(l.runs) != len(jobs) {
				t.Fatalf("seed %d: %d runs of %d jobs", seed, len(l.runs), len(jobs))
			}
			for _, x := range l.runs {
				if x.start < x.job.Submit {
					t.Fatalf("seed %d: job %d starts at %g, submitted at %g", seed, x.job.ID, x.start, x.job.Submit)
				}
				kill := x.job.Request > 0 && x.job.Runtime > x.job.Request
				if d := x.end - x.start; x.killed != kill || (kill && d != x.job.Request) || (!kill && d != x.job.Runtime) {
					t.Fatalf("seed %d: job %d: run %g limit %g, killed %v over [%g, %g)", seed, x.job.ID, x.job.Runtime, x.job.Request, x.killed, x.start, x.end)
				}
			}
			if err := validate.CheckNodes(nodecheck.Caps(ns), nodeRecs(ns, l)); err != nil {
				t.Fatalf("seed %d (named %v): %v", seed, named, err)
			}
			logs[k] = runsText(ns, l)
		}
		if logs[0] != logs[1] || logs[2] != logs[3] {
			t.Fatalf("seed %d: the model's allocations differ from the policy's:\n%s\n---\n%s\n---\n%s\n---\n%s", seed, logs[0], logs[1], logs[2], logs[3])
		}
		if logs[0] == logs[2] {
			same++
		}
	}
	if same > runs/2 {
		t.Fatalf("first fit gave FCFS's runs in %d of %d workloads: it tests little", same, runs)
	}
}

func runsText(ns *nodes.Nodes, l *nodeLog) string {
	var b strings.Builder
	for _, id := range l.order {
		x := l.runs[id]
		fmt.Fprintf(&b, "%d %g-%g %v %v [%s] %s\n", id, x.start, x.end, x.reason, x.killed, x.cpus, allocText(ns, x.alloc))
	}
	return b.String()
}

// Two runs of one workload give identical records.
func TestNodeClusterDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 1))
	ns := randomNodes(t, r)
	jobs := randomNodeJobs(ns, r, 200)
	var texts []string
	for range 2 {
		l, err := runNodes(t, ns, &nodeFCFS{}, jobs, false)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, runsText(ns, l))
	}
	if texts[0] != texts[1] {
		t.Fatal("two runs differ")
	}
}

// A rejected job leaves the queue and its counts: job 1 holds every GPU
// (a task and 2 GPUs on each node); job 2, a GPU job, waits and is
// rejected at 5, when the wake-up its policy asked for comes.
func TestNodeClusterReject(t *testing.T) {
	ns := mustNodes(t, gpuNodes)
	jobs := []actual.Job{
		nj(1, 0, 10, 20, nodes.Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, GRESPerJob: gpus(4)}),
		nj(2, 1, 1, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: gpus(1)}),
	}
	pol := &scripted{waiting: map[job.ID]bool{}, at: 5, decide: func(p *policy.Plan) { p.Rejects = append(p.Rejects, 2) }}
	first := true
	l := newNodeLog(t, ns)
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: &firstStarts{scripted: pol, first: &first}, Source: workload.FromSlice(jobs), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes() != ns {
		t.Fatal("Nodes is not the platform given")
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	if c.Stats().Rejected != 1 || l.runs[2] != nil || l.runs[1] == nil {
		t.Fatalf("rejected %d, runs %v", c.Stats().Rejected, l.runs)
	}
	if got := allocText(ns, l.runs[1].alloc); got != "n1:0/gpu:0 1 n2:4/gpu:2 3" {
		t.Errorf("job 1 on %s", got)
	}
	for _, c := range []struct {
		t    float64
		want string
	}{{5, "{<nil> 2 0 2 [gpu] [4] 1 [1]}"}, {10, "{<nil> 2 0 2 [gpu] [4] 0 [0]}"}} {
		if got := fmt.Sprint(l.usage[c.t]); got != c.want {
			t.Errorf("t=%g: usage %s, want %s", c.t, got, c.want)
		}
	}
}

// A job at its request limit is killed there, unless Continue.
func TestNodeClusterKill(t *testing.T) {
	ns := mustNodes(t, gpuNodes)
	jobs := []actual.Job{nj(1, 0, 10, 5, nodes.Request{Tasks: 2, CPUsPerTask: 1})}
	l, err := runNodes(t, ns, &nodeFCFS{}, jobs, false)
	if err != nil {
		t.Fatal(err)
	}
	if x := l.runs[1]; !x.killed || x.end != 5 {
		t.Errorf("job 1: killed %v at %g, want killed at 5", x.killed, x.end)
	}
	l, err = runNodes(t, ns, &nodeFCFS{}, jobs, true)
	if err != nil {
		t.Fatal(err)
	}
	if x := l.runs[1]; x.killed || x.end != 10 {
		t.Errorf("Continue: job 1: killed %v at %g, want finished at 10", x.killed, x.end)
	}
}

// scripted is a NodeScheduler whose first pass with job 2 waiting makes
// the decision decide gives; every other pass starts nothing.
type scripted struct {
	waiting map[job.ID]bool
	decide  func(plan *policy.Plan)
	done    bool
	at      float64 // the decision waits for this time (a wake-up)
}

func (p *scripted) Name() string                   { return "scripted" }
func (p *scripted) Submit(now float64, j job.Info) { p.waiting[j.ID] = true }
func (p *scripted) Finish(now float64, id job.ID)  {}
func (p *scripted) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	if p.waiting[2] && !p.done && now < p.at {
		plan.Wake = p.at
		return
	}
	if p.waiting[2] && !p.done {
		p.done = true
		p.decide(plan)
	}
}

// Bad decisions and impossible jobs stop the run with an error naming
// the policy, the time and the job.
func TestNodeClusterErrors(t *testing.T) {
	ns := mustNodes(t, gpuNodes)
	one := nodes.Request{Tasks: 1, CPUsPerTask: 1}
	alloc := func(node, tasks int, cores ...int) *nodes.Allocation {
		return &nodes.Allocation{Nodes: []nodes.NodeAlloc{{Node: node, Tasks: tasks, Cores: cores}}}
	}
	// Job 1 runs on n1 core 0 (started by the first decision), job 2
	// (two tasks) arrives at 1.
	base := []actual.Job{nj(1, 0, 10, 20, one), nj(2, 1, 10, 20, nodes.Request{Tasks: 2, CPUsPerTask: 1})}
	for _, c := range []struct {
		name   string
		decide func(plan *policy.Plan)
		want   string
	}{
		{"busy core", func(p *policy.Plan) {
			p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: job.Immediate, Alloc: alloc(0, 2, 0, 1)})
		}, "policy scripted at t=1: start job 2: node n1: core 0 is busy"},
		{"core of another node", func(p *policy.Plan) {
			p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: job.Immediate, Alloc: alloc(0, 2, 3, 4)})
		}, "policy scripted at t=1: start job 2: the allocation does not satisfy the request ntasks=2: node n1: core 4 is not the node's"},
		{"wrong task count", func(p *policy.Plan) {
			p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: job.Immediate, Alloc: alloc(1, 1, 4)})
		}, "policy scripted at t=1: start job 2: the allocation does not satisfy the request ntasks=2: 1 task(s) placed, the request has 2"},
		{"not waiting", func(p *policy.Plan) {
			p.Starts = append(p.Starts, policy.Start{ID: 1, Reason: job.Reserved})
		}, "policy scripted at t=1: start job 1: the job is not waiting"},
		{"started twice", func(p *policy.Plan) {
			p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: job.Immediate}, policy.Start{ID: 2, Reason: job.Immediate})
		}, "policy scripted at t=1: start job 2: the job is not waiting"},
		{"does not fit now", func(p *policy.Plan) {
			p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: job.Immediate, Alloc: alloc(1, 2, 4, 5)}, policy.Start{ID: 3, Reason: job.Immediate})
		}, "policy scripted at t=1: start job 3: the request nodes=2 ntasks=8 does not fit now"},
		{"unknown reason", func(p *policy.Plan) {
			p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: 200})
		}, "policy scripted at t=1: start job 2: unknown start reason 200"},
		{"reject a running job", func(p *policy.Plan) { p.Rejects = append(p.Rejects, 1) }, "policy scripted at t=1: reject job 1: the job is not waiting"},
		{"preempt a waiting job", func(p *policy.Plan) { p.Preempt(2, true) }, "policy scripted at t=1: preempt job 2: the job is not running"},
		{"preempt an unknown job", func(p *policy.Plan) { p.Preempt(9, false) }, "policy scripted at t=1: preempt job 9: the job is not running"},
		{"preempt twice", func(p *policy.Plan) { p.Preempt(1, false); p.Preempt(1, false) }, "policy scripted at t=1: preempt job 1: the job is not running"},
		{"preempt a job started in the pass", func(p *policy.Plan) {
			p.Preempt(2, false)
			p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: job.Immediate})
		}, "policy scripted at t=1: preempt job 2: the job is not running"},
	} {
		jobs := append(slices.Clone(base), nj(3, 1, 10, 20, nodes.Request{Nodes: 2, Tasks: 8, CPUsPerTask: 1}))
		pol := &scripted{waiting: map[job.ID]bool{}, decide: c.decide}
		first := true
		wrapped := &firstStarts{scripted: pol, first: &first}
		_, err := runNodes(t, ns, wrapped, jobs, false)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	late := &scripted{waiting: map[job.ID]bool{}, at: 3, decide: func(p *policy.Plan) {
		p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: job.Immediate})
	}}
	if _, err := runNodes(t, ns, late, []actual.Job{nj(2, 1, 1, 1, one)}, false); err == nil ||
		!strings.Contains(err.Error(), "policy scripted at t=3: start job 2: start reason immediate, but the job was submitted at t=1") {
		t.Errorf("immediate after submit: %v", err)
	}
	// A job that fits no node: an admission error naming the job and its
	// request.
	for _, q := range []nodes.Request{
		{Tasks: 1, CPUsPerTask: 1, GRESPerNode: gpus(3)},
		{Tasks: 9, CPUsPerTask: 1},
		{Tasks: 1, CPUsPerTask: 1, Constraint: "fast"},
	} {
		jobs := []actual.Job{nj(1, 0, 10, 20, one), nj(7, 1, 1, 2, q)}
		_, err := runNodes(t, ns, &nodeFCFS{}, jobs, false)
		want := fmt.Sprintf("job 7: request %s fits no set of nodes of the platform", q)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", q, err, want)
		}
	}
	bad := nj(8, 0, 1, 1, nodes.Request{Tasks: 1, CPUsPerTask: 0})
	if _, err := runNodes(t, ns, &nodeFCFS{}, []actual.Job{bad}, false); err == nil || !strings.Contains(err.Error(), "job 8: request ntasks=1 cpus-per-task=0: cpus per task 0") {
		t.Errorf("a malformed request: %v", err)
	}
	// A job whose id is still in the system, and more jobs waiting than
	// the bound.
	idle0 := &scripted{waiting: map[job.ID]bool{}, decide: func(*policy.Plan) {}}
	_, err := runNodes(t, ns, idle0, []actual.Job{nj(5, 0, 1, 1, one), nj(5, 1, 1, 1, one)}, false)
	if dup := (*engine.DuplicateError)(nil); err == nil || !errors.As(err, &dup) || !strings.Contains(err.Error(), "job 5: duplicate job id") {
		t.Errorf("a duplicate id: %v", err)
	}
	c, _ := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: &scripted{waiting: map[job.ID]bool{}, decide: func(*policy.Plan) {}},
		Source: workload.FromSlice([]actual.Job{nj(1, 0, 1, 1, one), nj(2, 0, 1, 1, one), nj(3, 0, 1, 1, one)}), MaxWaiting: 2})
	if err := c.Run(); !errors.Is(err, engine.ErrTooManyWaiting) {
		t.Errorf("MaxWaiting 2, 3 jobs waiting: %v", err)
	}
	if _, err := engine.NewNodeCluster(engine.NodeClusterConfig{Policy: idle0, Source: workload.FromSlice(nil)}); err == nil {
		t.Error("no platform: no error")
	}
	if _, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Source: workload.FromSlice(nil)}); err == nil {
		t.Error("no policy: no error")
	}
	// A policy that never starts a waiting job.
	idle := &scripted{waiting: map[job.ID]bool{}, decide: func(*policy.Plan) {}}
	if _, err := runNodes(t, ns, idle, []actual.Job{nj(2, 0, 1, 1, one)}, false); err == nil || !strings.Contains(err.Error(), "policy scripted: 1 job(s) never started although all 2 nodes are free") {
		t.Errorf("a job never started: %v", err)
	}
}

// firstStarts starts job 1 (n1 core 0) at its submission, then hands
// over to the script.
type firstStarts struct {
	*scripted
	first *bool
}

func (p *firstStarts) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	if *p.first {
		*p.first = false
		plan.Starts = append(plan.Starts, policy.Start{ID: 1, Reason: job.Immediate})
		return
	}
	p.scripted.Schedule(now, v, plan)
}
