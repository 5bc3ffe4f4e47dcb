package engine_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/gang"
	"github.com/schedlab/schedlab/workload"
)

func local(id job.ID, t, run float64) actual.Job {
	return actual.Job{ID: id, Submit: t, Procs: 1, Runtime: run, Estimate: run, Request: -1}
}

func gangJob(id job.ID, t float64, runs ...float64) actual.Job {
	g := actual.Job{ID: id, Submit: t, Procs: len(runs), Request: -1}
	for _, r := range runs {
		g.Tasks = append(g.Tasks, actual.Task{Runtime: r, Estimate: r})
		g.Runtime, g.Estimate = max(g.Runtime, r), max(g.Estimate, r)
	}
	return g
}

type gangLog struct {
	*enginetest.Recorder
	runs []engine.TaskRun
}

func (l *gangLog) TaskStarted(r engine.TaskRun) { l.runs = append(l.runs, r) }

func runGang(t *testing.T, sites []int, approach int, T float64, locals [][]actual.Job, gangs []actual.Job) *gangLog {
	t.Helper()
	pol, err := gang.New(gang.Options{Approach: approach, Threshold: T}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	l := &gangLog{Recorder: &enginetest.Recorder{}}
	var ls []engine.Source
	for _, js := range locals {
		ls = append(ls, workload.FromSlice(js))
	}
	g, err := engine.NewGangGrid(engine.GangConfig{Platform: platform.MustSites(sites), Policy: pol, Locals: ls, Gangs: workload.FromSlice(gangs),
		Listener: l, SplitOverhead: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Run(); err != nil {
		t.Fatal(err)
	}
	return l
}

func wantTimes(t *testing.T, l *gangLog, want map[job.ID][2]float64) {
	t.Helper()
	for id, w := range want {
		if got := [2]float64{startAt(l.Recorder, id), endOf(l.Recorder, id)}; got != w {
			t.Errorf("job %d ran %v, want %v", id, got, w)
		}
	}
}

// One site of two processors, approach 1, T = 0, exact estimates.
//
//	t=0  L1 (10) starts on an idle processor pA.
//	t=1  gang G (two tasks of 3): one idle processor (< 2), but two empty
//	     queues: its tasks join both (the idle pB first, then pA, busy
//	     until 10). Estimated start 10.
//	t=2  L2 (5): no idle processor; pB is free with the gang at its head
//	     and 5 <= (10 - 2) + 0: routed there by the backfill check, starts
//	     at once, ends 7 — before the gang's start.
//	t=8  L3 (5): 5 > (10 - 8) + 0, so no backfill; shortest queue is pB
//	     (gang waiting: 1 job) against pA (L1 + gang: 2): L3 waits behind
//	     the gang.
//	t=10 L1 ends: the gang starts on both processors, ends 13.
//	t=13 L3 starts on pB, ends 18.
func TestGangBackfillNeverDelaysWithT0(t *testing.T) {
	l := runGang(t, []int{2}, 1, 0,
		[][]actual.Job{{local(1, 0, 10), local(2, 2, 5), local(3, 8, 5)}}, []actual.Job{gangJob(100, 1, 3, 3)})
	wantTimes(t, l, map[job.ID][2]float64{1: {0, 10}, 100: {10, 13}, 2: {2, 7}, 3: {13, 18}})
	if s, _ := l.Start(2); s.Reason != job.Backfilled {
		t.Errorf("L2 started as %v, want backfilled", s.Reason)
	}
}

// The same with threshold T = 4: at t=8 L3 (5) satisfies 5 <= 2 + 4 and
// backfills on pB, delaying the gang by 3 (within T) to 13.
func TestGangThresholdAllowsDelay(t *testing.T) {
	l := runGang(t, []int{2}, 1, 4,
		[][]actual.Job{{local(1, 0, 10), local(2, 2, 5), local(3, 8, 5)}}, []actual.Job{gangJob(100, 1, 3, 3)})
	wantTimes(t, l, map[job.ID][2]float64{1: {0, 10}, 2: {2, 7}, 3: {8, 13}, 100: {13, 16}})
}

// Two sites of two idle processors, a gang of three tasks (2 each) at t=1.
// No site has three idle processors or three empty queues. Approach 2
// splits it (site 0 first, two tasks, then one on site 1): it starts at
// once, every task stretched by the 10% overhead: ends at 1 + 2.2. Under
// approach 1 it waits in the grid scheduler's queue for good (no site
// ever has three processors).
func TestSplitGangWithOverhead(t *testing.T) {
	l := runGang(t, []int{2, 2}, 2, 0, [][]actual.Job{nil, nil}, []actual.Job{gangJob(100, 1, 2, 2, 2)})
	wantTimes(t, l, map[job.ID][2]float64{100: {1, 3.2}})
	sites := map[int]int{}
	for _, r := range l.runs {
		sites[r.Machine]++
		if r.End != 1+2*1.1 {
			t.Errorf("task on site %d ends %v, want 3.2", r.Machine, r.End)
		}
	}
	if sites[0] != 2 || sites[1] != 1 {
		t.Errorf("tasks per site %v, want 2 on site 0 and 1 on site 1", sites)
	}
	// Approach 1 never starts it: when the events run out the run is an
	// error, not a silent success with the gang unfinished.
	pol, err := gang.New(gang.Options{Approach: 1}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGangGrid(engine.GangConfig{Platform: platform.MustSites([]int{2, 2}), Policy: pol,
		Locals: []engine.Source{workload.FromSlice(nil), workload.FromSlice(nil)}, Gangs: workload.FromSlice([]actual.Job{gangJob(100, 1, 2, 2, 2)})})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Run(); err == nil || !strings.Contains(err.Error(), "1 gang(s) never started") {
		t.Errorf("approach 1 with a gang larger than any site: err %v", err)
	}
}

// The grid scheduler's queue gives the largest gang first, the oldest on
// ties. One site of four processors, approach 1:
//
//	t=0    L1-L4 (10 each) take the four idle processors.
//	t=0.5  L5-L8 (1 each) queue, one per processor (shortest queue).
//	t=1-4  gangs G101 (2 tasks), G102 (3), G103 (3), G104 (2) arrive: no
//	       idle processor, no empty queue: all four wait at the GS.
//	t=10   L1-L4 end; L5-L8 start (to 11) and every queue is empty: step 1
//	       takes the largest gang that fits four empty queues, the older
//	       3-gang G102, onto p0-p2 (equal estimated ends: index order).
//	       One empty queue is left: no gang fits.
//	t=11   L5-L8 end: G102 starts on p0-p2 (to 12). p3 is idle: four
//	       empty queues again; G103 (3) goes to p3 (idle first), p0, p1.
//	t=12   G102 ends: G103 starts (to 13). p2 is idle: G101 (the older
//	       2-gang) goes to p2 and p0; then G104 fits the last two empty
//	       queues p1 and p3.
//	t=13   G103 ends: G101 and G104 start together (to 14).
func TestGSQueueLargestOldestFirst(t *testing.T) {
	var ls []actual.Job
	for i := 0; i < 4; i++ {
		ls = append(ls, local(job.ID(1+i), 0, 10))
	}
	for i := 0; i < 4; i++ {
		ls = append(ls, local(job.ID(5+i), 0.5, 1))
	}
	gs := []actual.Job{gangJob(101, 1, 1, 1), gangJob(102, 2, 1, 1, 1), gangJob(103, 3, 1, 1, 1), gangJob(104, 4, 1, 1)}
	l := runGang(t, []int{4}, 1, 0, [][]actual.Job{ls}, gs)
	wantTimes(t, l, map[job.ID][2]float64{102: {11, 12}, 103: {12, 13}, 101: {13, 14}, 104: {13, 14}, 5: {10, 11}})
}

// neverPlaces queues every gang and never takes one from the queue.
type neverPlaces struct{ policy.GangPolicy }

func (neverPlaces) Name() string { return "never" }
func (neverPlaces) PlaceArrival(float64, job.Info, policy.GangView) (policy.GangPlacement, bool) {
	return policy.GangPlacement{}, false
}
func (neverPlaces) PickQueued(float64, []job.Info, policy.GangView) (int, policy.GangPlacement, bool) {
	return 0, policy.GangPlacement{}, false
}

// A run whose events are exhausted with gangs still queued is an error
// naming the policy, not a silent success.
func TestGangsNeverStartedIsAnError(t *testing.T) {
	inner, err := gang.New(gang.Options{Approach: 1}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGangGrid(engine.GangConfig{Platform: platform.MustSites([]int{4, 4}), Policy: neverPlaces{inner},
		Locals: []engine.Source{workload.FromSlice(nil), workload.FromSlice(nil)},
		Gangs:  workload.FromSlice([]actual.Job{{ID: 1, Submit: 0, Procs: 2, Runtime: 5, Estimate: 5, Tasks: []actual.Task{{Runtime: 5, Estimate: 5}, {Runtime: 5, Estimate: 5}}}})})
	if err != nil {
		t.Fatal(err)
	}
	err = g.Run()
	if err == nil || !strings.Contains(err.Error(), "gang policy never: 1 gang(s) never started although every processor is idle at t=0") {
		t.Errorf("err %v", err)
	}
}

// examining is a gang policy that says when its GS queue is examined
// (policy.QueueExaminer) and counts how often it is.
type examining struct {
	*gang.Placer
	every bool
	picks int
}

func (e *examining) ExamineEveryDeparture() bool { return e.every }

func (e *examining) PickQueued(now float64, q []job.Info, v policy.GangView) (int, policy.GangPlacement, bool) {
	e.picks++
	return e.Placer.PickQueued(now, q, v)
}

// A policy that asks for it has its GS queue examined after departures
// that leave every queue non-empty too; the others only after one that
// empties a queue.
func TestGangQueueExaminer(t *testing.T) {
	picks := map[bool]int{}
	for _, every := range []bool{false, true} {
		pl, err := gang.New(gang.Options{Approach: 1}, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		pol := &examining{Placer: pl, every: every}
		var locals []actual.Job
		for i := range 8 {
			locals = append(locals, local(job.ID(i+1), 0, float64(1+i)))
		}
		g, err := engine.NewGangGrid(engine.GangConfig{Platform: platform.MustSites([]int{2}), Policy: pol,
			Locals: []engine.Source{workload.FromSlice(locals)}, Gangs: workload.FromSlice([]actual.Job{gangJob(100, 0.5, 1, 1)}),
			Listener: &gangLog{Recorder: &enginetest.Recorder{}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Run(); err != nil {
			t.Fatal(err)
		}
		picks[every] = pol.picks
	}
	if !(picks[true] > picks[false]) {
		t.Errorf("GS queue examined %d times after every departure, %d after emptying ones; want more with every", picks[true], picks[false])
	}
}
