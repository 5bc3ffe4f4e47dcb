package backfill

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// changeList is a ChangeSource of fixed changes.
type changeList []engine.Change

func (l *changeList) Next() (engine.Change, error) {
	if len(*l) == 0 {
		return engine.Change{}, io.EOF
	}
	c := (*l)[0]
	*l = (*l)[1:]
	return c, nil
}

// attempt is one run of a job: its interval and allocation.
type attempt struct {
	id         job.ID
	start, end float64
	alloc      nodes.Allocation
	killed     bool // by unavailability (kill rule)
	done       bool
}

// availRecorder records every attempt of every job and the spans of
// unavailable cores.
type availRecorder struct {
	engine.NopListener
	ns    *nodes.Nodes
	runs  []*attempt
	cur   map[job.ID]*attempt
	spans []validate.NodeSpan
}

func (r *availRecorder) JobStarted(now float64, s engine.Start) {
	a := &attempt{id: s.Job.ID, start: now, alloc: cloneAlloc(*s.Alloc)}
	r.runs = append(r.runs, a)
	r.cur[s.Job.ID] = a
}
func (r *availRecorder) close(now float64, id job.ID) {
	if a := r.cur[id]; a != nil && !a.done {
		a.end, a.done = now, true
	}
}
func (r *availRecorder) JobFinished(now float64, rec *engine.Record) { r.close(rec.End, rec.Job.ID) }
func (r *availRecorder) JobKilled(now float64, rec *engine.Record)   { r.close(rec.End, rec.Job.ID) }
func (r *availRecorder) Interrupted(now float64, rec *engine.Record, requeued bool) {
	r.cur[rec.Job.ID].killed = !requeued
	r.close(now, rec.Job.ID)
}

// Unavailable turns a span of cores into spans of the nodes owning them.
func (r *availRecorder) Unavailable(kind engine.UnavailKind, start, end float64, cpus platform.Runs) {
	last := -1
	for i := 0; i+1 < len(cpus); i += 2 {
		for c := cpus[i]; c <= cpus[i+1]; c++ {
			if n := r.ns.NodeOfCore(int(c)); n != last {
				r.spans = append(r.spans, validate.NodeSpan{Kind: kind.String(), Node: n, Start: start, End: end})
				last = n
			}
		}
	}
}

func cloneAlloc(a nodes.Allocation) nodes.Allocation {
	out := nodes.Allocation{Exclusive: a.Exclusive}
	for _, na := range a.Nodes {
		na.Cores = slices.Clone(na.Cores)
		var gs []nodes.GRESUnits
		for _, g := range na.GRES {
			gs = append(gs, nodes.GRESUnits{Kind: g.Kind, Units: slices.Clone(g.Units)})
		}
		na.GRES = gs
		out.Nodes = append(out.Nodes, na)
	}
	return out
}

// runAvail runs pol over jobs with availability av through
// engine.NodeCluster.
func runAvail(ns *nodes.Nodes, pol policy.NodeScheduler, jobs []actual.Job, av *engine.NodeAvailability) (*availRecorder, error) {
	rec := &availRecorder{ns: ns, cur: map[job.ID]*attempt{}}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: pol, Source: workload.FromSlice(jobs), Listener: rec, Availability: av})
	if err != nil {
		return nil, err
	}
	return rec, c.Run()
}

func mustPolicy(t testing.TB, ns *nodes.Nodes, name string, depth int, strict bool) *NodePolicy {
	t.Helper()
	p, err := NewNodePolicy(NodeConfig{Name: name, Nodes: ns, Depth: depth, Strict: strict, Order: OrderFCFS})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// text is the attempts, one "id start-end nodes" each, in start order.
func (r *availRecorder) text() string {
	var b strings.Builder
	for _, a := range r.runs {
		var names []string
		for _, na := range a.alloc.Nodes {
			names = append(names, r.ns.Name(na.Node))
		}
		k := ""
		if a.killed {
			k = " killed"
		}
		fmt.Fprintf(&b, "%d %g-%g %s%s\n", a.id, a.start, a.end, strings.Join(names, ","), k)
	}
	return b.String()
}

func pj(id job.ID, submit float64, procs int, run, est float64) actual.Job {
	return actual.Job{ID: id, Submit: submit, Procs: procs, Runtime: run, Request: -1, Estimate: est}
}

// EASY on 2 nodes x 4 cores with a maintenance window on n2 over
// [10, 20):
//
//	job 1 at 0, 8 cores (both nodes), 15 s: over [0, 15) it would run
//	into the window on n2, so it does not start; its reservation is the
//	first time both nodes are free for 15 s clear of the window: 20.
//	job 2 at 1, 4 cores, 8 s: on n1 over [1, 9), before 20: backfilled.
//	job 3 at 1, 4 cores, 10 s: n1 is taken; on n2 [1, 11) runs into the
//	window: it waits. At 9 (job 2 ends) it fits on n1 over [9, 19),
//	before job 1's reservation at 20: backfilled there.
//	job 1 starts at 20, the window over, and ends at 35.
//
// Without the window job 1 would start at 0 (checked too).
func TestNodeAvailEASYMaintenance(t *testing.T) {
	ns := nodestest.Must(t, "n[1-2]:cores=4")
	jobs := []actual.Job{pj(1, 0, 8, 15, 15), pj(2, 1, 4, 8, 8), pj(3, 1, 4, 10, 10)}
	av := &engine.NodeAvailability{Windows: []policy.NodeWindow{{Start: 10, End: 20, Nodes: platform.Runs{1, 1}}}}
	rec, err := runAvail(ns, mustPolicy(t, ns, "easy", 1, false), jobs, av)
	if err != nil {
		t.Fatal(err)
	}
	want := "2 1-9 n1\n3 9-19 n1\n1 20-35 n1,n2\n"
	if got := rec.text(); got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
	if want := []validate.NodeSpan{{Kind: "reserved", Node: 1, Start: 10, End: 20}}; !slices.Equal(rec.spans, want) {
		t.Fatalf("spans %v, want %v", rec.spans, want)
	}
	rec, err = runAvail(ns, mustPolicy(t, ns, "easy", 1, false), jobs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.runs[0]; got.id != 1 || got.start != 0 {
		t.Fatalf("without the window job 1 should start at 0: %s", rec.text())
	}
}

// Conservative on 2 nodes x 4 cores, n1 in maintenance over [0, 10),
// all jobs at 0:
//
//	job 1, 4 cores, 20 s: n1 is in the window, n2 free: n2 over [0, 20).
//	job 2, 8 cores, 5 s: both nodes free from 20 (n1 from 10, n2 from
//	20): reserved at 20.
//	job 3, 4 cores, 5 s: n1 over [10, 15), before job 2 at 20: reserved
//	at 10, starts at 10 when the window ends.
//	job 4, 4 cores, 12 s: n1 over [10, 22) or [15, 27) runs into job 2
//	at 20; both nodes are job 2's over [20, 25): reserved at 25, on n1
//	(first fit) until 37.
func TestNodeAvailConservative(t *testing.T) {
	ns := nodestest.Must(t, "n[1-2]:cores=4")
	jobs := []actual.Job{pj(1, 0, 4, 20, 20), pj(2, 0, 8, 5, 5), pj(3, 0, 4, 5, 5), pj(4, 0, 4, 12, 12)}
	av := &engine.NodeAvailability{Windows: []policy.NodeWindow{{Start: 0, End: 10, Nodes: platform.Runs{0, 0}}}}
	rec, err := runAvail(ns, mustPolicy(t, ns, "conservative", Unlimited, false), jobs, av)
	if err != nil {
		t.Fatal(err)
	}
	want := "1 0-20 n2\n3 10-15 n1\n2 20-25 n1,n2\n4 25-37 n1\n"
	if got := rec.text(); got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
}

// A failure on 2 nodes x 4 cores: n1 goes down at 5 and comes back at
// 8. Job 1 (4 cores, 10 s) runs on n1 from 0, job 2 (4 cores, 20 s) on
// n2 from 0; job 3 (4 cores, 3 s) comes at 1 and waits.
//
//	kill: job 1 ends at 5, killed; job 2 runs to 20; job 3 takes n1
//	when it comes back, [8, 11).
//	requeue: job 1 goes back to the queue at 5, at its place (submitted
//	at 0: ahead of job 3); n1 is down, n2 job 2's until 20; n1 back at
//	8: job 1 runs again from the start, [8, 18), and job 3 follows on
//	n1, [18, 21).
//
// Either way n1's down span is [5, 8).
func TestNodeAvailFailure(t *testing.T) {
	ns := nodestest.Must(t, "n[1-2]:cores=4")
	for _, c := range []struct {
		rule engine.OnFailure
		want string
	}{
		{engine.FailKill, "1 0-5 n1 killed\n2 0-20 n2\n3 8-11 n1\n"},
		{engine.FailRequeue, "1 0-5 n1\n2 0-20 n2\n1 8-18 n1\n3 18-21 n1\n"},
	} {
		jobs := []actual.Job{pj(1, 0, 4, 10, 10), pj(2, 0, 4, 20, 20), pj(3, 1, 4, 3, 3)}
		ch := changeList{{Time: 5, CPUs: platform.Runs{0, 0}, Down: true}, {Time: 8, CPUs: platform.Runs{0, 0}}}
		for _, name := range []string{"fcfs", "easy"} {
			depth, strict := 1, false
			if name == "fcfs" {
				depth, strict = 0, true
			}
			chs := slices.Clone(ch)
			rec, err := runAvail(ns, mustPolicy(t, ns, name, depth, strict), jobs, &engine.NodeAvailability{Failures: &chs, OnFailure: c.rule})
			if err != nil {
				t.Fatal(err)
			}
			if got := rec.text(); got != c.want {
				t.Fatalf("%s, %s: got\n%swant\n%s", name, c.rule, got, c.want)
			}
			if want := []validate.NodeSpan{{Kind: "down", Node: 0, Start: 5, End: 8}}; !slices.Equal(rec.spans, want) {
				t.Fatalf("%s, %s: spans %v, want %v", name, c.rule, rec.spans, want)
			}
		}
	}
}

// planted starts job 1 on n2 (cores 4-7) at once, whatever the windows.
type planted struct{ started bool }

func (p *planted) Name() string                                  { return "planted" }
func (p *planted) Submit(float64, job.Info)                      {}
func (p *planted) Finish(float64, job.ID)                        {}
func (p *planted) PlanNodeAvailability([]policy.NodeWindow) bool { return true }
func (p *planted) Schedule(now float64, _ policy.NodeView, plan *policy.Plan) {
	if !p.started {
		p.started = true
		a := nodes.Allocation{Nodes: []nodes.NodeAlloc{{Node: 1, Tasks: 4, Cores: []int{4, 5, 6, 7}}}}
		plan.Starts = append(plan.Starts, policy.Start{ID: 1, Alloc: &a})
	}
}

// The engine refuses a start on a node inside a window, or one that
// would run into a window, naming the job, the node and the window; and
// a policy that does not plan around unavailable nodes (slurm) is
// refused with the pool's error.
func TestNodeAvailRefusals(t *testing.T) {
	ns := nodestest.Must(t, "n[1-2]:cores=4")
	for _, c := range []struct {
		at   float64
		want string
	}{
		{0, "start job 1: node n2 is in the reservation [0, 10)"},
		{5, "start job 1: node n2 is reserved over [5, 10), before the job's estimated end t=8"},
	} {
		av := &engine.NodeAvailability{Windows: []policy.NodeWindow{{Start: c.at, End: 10, Nodes: platform.Runs{1, 1}}}}
		_, err := runAvail(ns, &planted{}, []actual.Job{pj(1, 0, 4, 8, 8)}, av)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("window at %g: err %v, want %q", c.at, err, c.want)
		}
	}
	slurm, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &SlurmParams{Window: 60, MaxJobTest: 10, Resolution: 1, Interval: 1, QueueDepth: 10}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = runAvail(ns, slurm, []actual.Job{pj(1, 0, 4, 8, 8)}, &engine.NodeAvailability{})
	if !errors.Is(err, engine.ErrNoAvailabilityPlanner) {
		t.Fatalf("slurm: err %v, want ErrNoAvailabilityPlanner", err)
	}
}

// randomNodeWindows draws up to 6 windows of 1-2 nodes each, no node in
// two windows at once.
func randomNodeWindows(r *rand.Rand, ns *nodes.Nodes) []policy.NodeWindow {
	var ws []policy.NodeWindow
	for range r.IntN(7) {
		a := float64(r.IntN(80))
		w := policy.NodeWindow{Start: a, End: a + 1 + float64(r.IntN(25))}
		n := int32(r.IntN(ns.Len()))
		w.Nodes = platform.Runs{n, min(n+int32(r.IntN(2)), int32(ns.Len()-1))}
		ok := true
		for _, o := range ws {
			if o.Start < w.End && w.Start < o.End && o.Nodes[0] <= w.Nodes[1] && w.Nodes[0] <= o.Nodes[1] {
				ok = false
			}
		}
		if ok {
			ws = append(ws, w)
		}
	}
	return ws
}

// randomNodeFailures draws failures of single nodes, each back 1-15 s
// later.
func randomNodeFailures(r *rand.Rand, ns *nodes.Nodes) changeList {
	var ch changeList
	t := 0.0
	for range r.IntN(5) {
		t += float64(r.IntN(30))
		n := int32(r.IntN(ns.Len()))
		back := t + 1 + float64(r.IntN(15))
		ch = append(ch, engine.Change{Time: t, CPUs: platform.Runs{n, n}, Down: true}, engine.Change{Time: back, CPUs: platform.Runs{n, n}})
		t = back
	}
	return ch
}

// Random platforms, jobs, windows and failures under every node policy
// (fcfs, firstfit, easy and conservative in orders fcfs and sjf, backfill
// at depth 2) and both failure rules: the independent checkers accept every
// schedule (validate.CheckNodesUnavailable: no attempt holds a node in
// one of its spans; validate.CheckNodes: no node over its capacity),
// and every job ends (finished, killed at its limit or by a failure).
func TestNodeAvailRandomInvariants(t *testing.T) {
	runs := 80
	if testing.Short() {
		runs = 20
	}
	kills, requeues := 0, 0
	defer func() {
		t.Logf("%d kills, %d requeues", kills, requeues)
		if !t.Failed() && (kills < runs || requeues < runs) {
			t.Errorf("%d kills and %d requeues in %d runs: the draws test little", kills, requeues, runs)
		}
	}()
	for seed := range runs {
		r := rand.New(rand.NewPCG(uint64(seed), 77))
		ns := randomNodePlatform(t, r)
		specs := randomNodeJobs(r, ns, 30, seed%2 == 1)
		var jobs []actual.Job
		reqs := map[job.ID]nodes.Request{}
		for _, j := range specs {
			jobs = append(jobs, actual.Job{ID: j.id, Submit: j.submit, Procs: j.procs, Runtime: j.dur, Request: -1, Estimate: j.est, Req: j.req})
			reqs[j.id] = *j.req
		}
		ws := randomNodeWindows(r, ns)
		fails := randomNodeFailures(r, ns)
		for _, c := range []struct {
			name   string
			depth  int
			strict bool
			order  Order
		}{{"fcfs", 0, true, OrderFCFS}, {"firstfit", 0, false, OrderFCFS}, {"easy", 1, false, OrderFCFS}, {"easy", 1, false, OrderSJF},
			{"backfill", 2, false, OrderFCFS}, {"conservative", Unlimited, false, OrderFCFS}, {"conservative", Unlimited, false, OrderSJF}} {
			for _, rule := range engine.OnFailures() {
				f := slices.Clone(fails)
				pol, err := NewNodePolicy(NodeConfig{Name: c.name, Nodes: ns, Depth: c.depth, Strict: c.strict, Order: c.order})
				if err != nil {
					t.Fatal(err)
				}
				rec, err := runAvail(ns, pol, jobs, &engine.NodeAvailability{Windows: ws, Failures: &f, OnFailure: rule})
				if err != nil {
					t.Fatalf("seed %d, %s, %s: %v", seed, c.name, rule, err)
				}
				var recs []validate.NodeRec
				ended := map[job.ID]bool{}
				for _, a := range rec.runs {
					if !a.done {
						t.Fatalf("seed %d, %s, %s: job %d's attempt from %g never ended", seed, c.name, rule, a.id, a.start)
					}
					recs = append(recs, nodecheck.Rec(ns, int64(a.id), a.start, a.end, reqs[a.id], &a.alloc))
					ended[a.id] = true
				}
				if len(ended) != len(jobs) {
					t.Fatalf("seed %d, %s, %s: %d of %d jobs ran", seed, c.name, rule, len(ended), len(jobs))
				}
				requeues += len(rec.runs) - len(jobs)
				for _, a := range rec.runs {
					if a.killed {
						kills++
					}
				}
				if err := validate.CheckNodesUnavailable(nodecheck.Caps(ns), recs, rec.spans); err != nil {
					t.Fatalf("seed %d, %s, %s: %v", seed, c.name, rule, err)
				}
				if err := validate.CheckNodes(nodecheck.Caps(ns), recs); err != nil {
					t.Fatalf("seed %d, %s, %s: %v", seed, c.name, rule, err)
				}
			}
		}
	}
}

// Planning around windows changes nothing where no window bites: on
// random platforms and jobs, every node policy with one window on every
// node long after the last job (and a failure source that never fires)
// gives the schedule of the run without availability, job for job and
// node for node (the profile path for every start, full passes and the
// profile without shortcuts decide as the plain planner does).
func TestNodeAvailFarWindowChangesNothing(t *testing.T) {
	runs := 60
	if testing.Short() {
		runs = 15
	}
	for seed := range runs {
		r := rand.New(rand.NewPCG(uint64(seed), 91))
		ns := randomNodePlatform(t, r)
		specs := randomNodeJobs(r, ns, 40, seed%2 == 1)
		var jobs []actual.Job
		for _, j := range specs {
			jobs = append(jobs, actual.Job{ID: j.id, Submit: j.submit, Procs: j.procs, Runtime: j.dur, Request: -1, Estimate: j.est, Req: j.req})
		}
		far := []policy.NodeWindow{{Start: 1e9, End: 1e9 + 1, Nodes: platform.Runs{0, int32(ns.Len() - 1)}}}
		for _, c := range []struct {
			name   string
			depth  int
			strict bool
		}{{"fcfs", 0, true}, {"firstfit", 0, false}, {"easy", 1, false}, {"conservative", Unlimited, false}} {
			plain, err := runAvail(ns, mustPolicy(t, ns, c.name, c.depth, c.strict), jobs, nil)
			if err != nil {
				t.Fatal(err)
			}
			none := changeList{}
			with, err := runAvail(ns, mustPolicy(t, ns, c.name, c.depth, c.strict), jobs, &engine.NodeAvailability{Windows: far, Failures: &none})
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, c.name, err)
			}
			if a, b := plain.text(), with.text(); a != b {
				t.Fatalf("seed %d, %s: without availability\n%swith a far window\n%s", seed, c.name, a, b)
			}
		}
	}
}
