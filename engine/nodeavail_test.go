package engine_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// viewFCFS is strict FCFS over the model's view that names no
// allocation (the model places each start): the head starts when the
// view's free cores, all nodes together, are at least its processors
// (jobs of Procs tasks of one CPU only). It plans around unavailable
// nodes only in that the view shows them with no free core.
type viewFCFS struct {
	queue []job.Info
	down  [][]int // DownNodes at each pass
}

func (p *viewFCFS) Name() string                                  { return "test-view-fcfs" }
func (p *viewFCFS) Submit(now float64, j job.Info)                { p.queue = append(p.queue, j) }
func (p *viewFCFS) Finish(float64, job.ID)                        {}
func (p *viewFCFS) PlanNodeAvailability([]policy.NodeWindow) bool { return true }
func (p *viewFCFS) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	p.down = append(p.down, v.(policy.NodeAvailabilityView).DownNodes(nil))
	free := 0
	for id := range v.Nodes().Len() {
		free += v.FreeCores(id)
	}
	for len(p.queue) > 0 && p.queue[0].Procs <= free {
		free -= p.queue[0].Procs
		plan.Starts = append(plan.Starts, policy.Start{ID: p.queue[0].ID, Reason: job.Reserved})
		p.queue = p.queue[1:]
	}
}

// availLog is a nodeLog (the model's counts checked at every instant)
// that also follows the runs cut short and the spans reported.
type availLog struct {
	*nodeLog
	cut   []string
	spans []string
}

func (l *availLog) Interrupted(now float64, r *engine.Record, requeued bool) {
	delete(l.running, r.Job.ID)
	if requeued {
		c := *r.Job
		l.waiting[r.Job.ID] = &c
	}
	l.cut = append(l.cut, fmt.Sprintf("%d %g-%g %s requeued=%v", r.Job.ID, r.Start, now, r.CPUs, requeued))
}

func (l *availLog) Unavailable(kind engine.UnavailKind, start, end float64, cpus platform.Runs) {
	l.spans = append(l.spans, fmt.Sprintf("%s %s %g-%g", kind, cpus, start, end))
}

type changeSlice []engine.Change

func (c *changeSlice) Next() (engine.Change, error) {
	if len(*c) == 0 {
		return engine.Change{}, io.EOF
	}
	x := (*c)[0]
	*c = (*c)[1:]
	return x, nil
}

func pjob(id job.ID, submit float64, procs int, run float64) actual.Job {
	return actual.Job{ID: id, Submit: submit, Procs: procs, Runtime: run, Request: -1, Estimate: run}
}

func runAvailNodes(t *testing.T, av *engine.NodeAvailability, jobs []actual.Job) (*availLog, *viewFCFS) {
	t.Helper()
	ns := mustNodes(t, "n[1-2]:cores=4")
	l := &availLog{nodeLog: newNodeLog(t, ns)}
	pol := &viewFCFS{}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: pol, Source: workload.FromSlice(jobs), Listener: l, Availability: av})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return l, pol
}

// A failure of n1 (cores 0-3) at 5, back at 8, on 2 nodes x 4 cores:
// job 1 (4 CPUs, 10 s) runs on n1 from 0, job 2 (4 CPUs, 20 s) on n2;
// job 3 (4 CPUs, 3 s) comes at 1 and waits (no free core).
//
//	kill: job 1 ends at 5, killed; n1 is held whole (the view shows no
//	free core on it, DownNodes [0]) until 8, when job 3 starts there and
//	runs to 11.
//	requeue: job 1 goes back to the policy at 5 (Finish, then Submit
//	again); this policy appends it behind job 3 (the node policies put
//	it at its place, policy/backfill's TestNodeAvailFailure), so at 8
//	job 3 starts on n1 and runs to 11, and job 1 runs again from the
//	start on n1 from 11 to 21.
//
// The model's counts (cores held, busy nodes, waiting jobs) are checked
// at every instant by nodeLog, and n1's down span is [5, 8).
func TestNodeFailureKillAndRequeue(t *testing.T) {
	for _, c := range []struct {
		rule      engine.OnFailure
		cut, runs string
	}{
		{engine.FailKill, "1 0-5 0-3 requeued=false", "1 0-5 0-3 killed|2 0-20 4-7|3 8-11 0-3"},
		{engine.FailRequeue, "1 0-5 0-3 requeued=true", "1 11-21 0-3|2 0-20 4-7|3 8-11 0-3"},
	} {
		ch := changeSlice{{Time: 5, CPUs: platform.Runs{0, 0}, Down: true}, {Time: 8, CPUs: platform.Runs{0, 0}}}
		l, pol := runAvailNodes(t, &engine.NodeAvailability{Failures: &ch, OnFailure: c.rule},
			[]actual.Job{pjob(1, 0, 4, 10), pjob(2, 0, 4, 20), pjob(3, 1, 4, 3)})
		if got := strings.Join(l.cut, "|"); got != c.cut {
			t.Errorf("%s: cut %q, want %q", c.rule, got, c.cut)
		}
		var runs []string
		for id := job.ID(1); id <= 3; id++ {
			r := l.runs[id]
			k := ""
			if r.killed {
				k = " killed"
			}
			runs = append(runs, fmt.Sprintf("%d %g-%g %s%s", id, r.start, r.end, r.cpus, k))
		}
		if got := strings.Join(runs, "|"); got != c.runs {
			t.Errorf("%s: runs %q, want %q", c.rule, got, c.runs)
		}
		if got := strings.Join(l.spans, "|"); got != "down 0-3 5-8" {
			t.Errorf("%s: spans %q", c.rule, got)
		}
		// passes at 0, 1, 5 (the failure), 8 (the return), then at ends
		if len(pol.down) < 4 || fmt.Sprint(pol.down[2]) != "[0]" || fmt.Sprint(append(pol.down[:2:2], pol.down[3:]...)) != fmt.Sprint(make([][]int, len(pol.down)-1)) {
			t.Errorf("%s: DownNodes at the passes: %v, want [0] at the third (t=5) alone", c.rule, pol.down)
		}
	}
}

// A start the policy leaves to the model is placed on nodes clear of
// every window until its estimated end: n1 is reserved over [5, 10), so
// job 1 (4 CPUs, 10 s), which the selection rule alone would put on n1
// (first fit), goes to n2; job 2 (4 CPUs, 4 s) ends before the window
// and takes n1.
func TestNodeWindowModelPlacement(t *testing.T) {
	l, _ := runAvailNodes(t, &engine.NodeAvailability{Windows: []policy.NodeWindow{{Start: 5, End: 10, Nodes: platform.Runs{0, 0}}}},
		[]actual.Job{pjob(1, 0, 4, 10), pjob(2, 0, 4, 4)})
	if r := l.runs[1]; r.cpus != "4-7" || r.start != 0 {
		t.Errorf("job 1 on %s from %g, want 4-7 from 0", r.cpus, r.start)
	}
	if r := l.runs[2]; r.cpus != "0-3" || r.start != 0 {
		t.Errorf("job 2 on %s from %g, want 0-3 from 0", r.cpus, r.start)
	}
	if got := strings.Join(l.spans, "|"); got != "reserved 0-3 5-10" {
		t.Errorf("spans %q", got)
	}
}

// Bad availability is refused before the run, naming what is wrong: a
// policy that does not plan around unavailable nodes (the pool's error),
// a window on a node not on the platform, windows overlapping on a node
// (named), an empty or backward window, partitions with availability.
func TestNodeAvailabilityErrors(t *testing.T) {
	ns := mustNodes(t, "n[1-2]:cores=4")
	src := func() engine.Source { return workload.FromSlice([]actual.Job{pjob(1, 0, 1, 1)}) }
	_, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: &nodeFCFS{}, Source: src(), Availability: &engine.NodeAvailability{}})
	if !errors.Is(err, engine.ErrNoAvailabilityPlanner) || !strings.Contains(err.Error(), "policy test-fcfs does not plan around") {
		t.Errorf("not a planner: %v", err)
	}
	for _, c := range []struct {
		ws   []policy.NodeWindow
		want string
	}{
		{[]policy.NodeWindow{{Start: 0, End: 5, Nodes: platform.Runs{1, 2}}}, "reservation 1: node 2 is not on the platform (2 nodes: ids 0-1)"},
		{[]policy.NodeWindow{{Start: 0, End: 5, Nodes: platform.Runs{0, 1}}, {Start: 4, End: 6, Nodes: platform.Runs{1, 1}}}, "reservations [0, 5) and [4, 6) both hold node n2"},
		{[]policy.NodeWindow{{Start: 5, End: 5, Nodes: platform.Runs{0, 0}}}, "reservation 1: window [5, 5) must be finite, start before end"},
		{[]policy.NodeWindow{{Start: 0, End: 5}}, "reservation 1: no nodes"},
	} {
		_, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: &viewFCFS{}, Source: src(), Availability: &engine.NodeAvailability{Windows: c.ws}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want %q", c.ws, err, c.want)
		}
	}
	// With partitions, every partition's policy must plan around
	// unavailable nodes: the error names the one that does not.
	ps := []engine.NodePartition{{Name: "a", Nodes: []int{0}, Default: true, Policy: &viewFCFS{}}, {Name: "b", Nodes: []int{1}, Numbers: []int32{1}, Policy: &nodeFCFS{}}}
	_, err = engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Partitions: ps, Source: src(), Availability: &engine.NodeAvailability{}})
	if !errors.Is(err, engine.ErrNoAvailabilityPlanner) || !strings.Contains(err.Error(), "policy test-fcfs (partition b) does not plan around") {
		t.Errorf("partitions: %v", err)
	}
	ps = []engine.NodePartition{{Name: "a", Nodes: []int{0}, Default: true, Policy: &viewFCFS{}}, {Name: "b", Nodes: []int{1}, Numbers: []int32{1}, Policy: &viewFCFS{}}}
	if _, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Partitions: ps, Source: src(), Availability: &engine.NodeAvailability{}}); err != nil {
		t.Errorf("partitions of planners: %v", err)
	}
}
