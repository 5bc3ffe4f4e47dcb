package experiment

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/engine"

	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/avail"
)

// The five-job example, worked by hand (testdata/explain.swf, 5 CPUs):
// job 1 (3 CPUs, 100 s) runs from 0; job 2 (4 CPUs) cannot start and is
// the head from 1; jobs 3, 4 and 5 each need one CPU, with requests 50,
// 500 and 200 s (their estimates).
//
// EASY: job 2's reservation (the shadow time) is 100, when job 1's
// estimate ends; at 100 all 5 CPUs are free, so 1 is extra.
//   - job 3 at 2: 1 CPU free, its estimate ends it at 52 <= 100:
//     backfilled by the shadow time.
//   - job 4 at 3: 1 CPU free, ends at 503 > 100, but it uses 1 CPU <= the
//     1 extra: backfilled on the extra processor.
//   - job 5 at 4: no CPU free (jobs 1, 3, 4 hold 5; at 100 job 4 still
//     holds one, so the extra is 0). At 22 job 3 ends: 1
//     free, but it would end at 222 > 100 and the extra processor is
//     taken by job 4 (at 100 only 4 CPUs are free: extra 0). At 33 job 4
//     ends: 2 free, extra 1 again: backfilled on the extra processor.
func TestExplainEASY(t *testing.T) {
	x, err := Explain(RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "easy"}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	// Explain stops at the job's start: its end is not simulated.
	if j := x.Job; j.Start != 33 || j.Reason != "backfilled" || j.Procs != 1 || j.Estimate != 200 || !math.IsNaN(j.End) || len(x.Schedule) != 0 {
		t.Fatalf("job %+v, schedule %v", j, x.Schedule)
	}
	all, err := ExplainAll(RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "easy"}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if j := all.Job; j.Start != 33 || j.End != 43 || len(all.Schedule) != 5 || fmt.Sprint(all.Passes) != fmt.Sprint(x.Passes) {
		t.Fatalf("ExplainAll: job %+v, %d jobs scheduled, passes %+v (Explain's: %+v)", j, len(all.Schedule), all.Passes, x.Passes)
	}
	want := []struct {
		time         float64
		pos, waiting int
		free         int
		head         int64
		headResv     float64
		extra        int
		started      bool
		why          string
	}{
		{4, 2, 2, 0, 2, 100, 0, false, "waits: it needs 1 CPU, 0 free"},
		{22, 2, 2, 1, 2, 100, 0, false, "its estimate would end it at 222, after job 2's reservation (the shadow time) at 100, and it needs 1 CPU, more than the 0 extra processors"},
		{33, 2, 2, 2, 2, 100, 1, true, "started, backfilled ahead of job 2: it fits the 2 CPUs free and uses only the extra processors (1: those job 2's reservation at 100 leaves free)"},
	}
	if len(x.Passes) != len(want) {
		t.Fatalf("%d passes, want %d: %+v", len(x.Passes), len(want), x.Passes)
	}
	for i, w := range want {
		p := x.Passes[i]
		if p.Time != w.time || p.Position != w.pos || p.Waiting != w.waiting || p.Free != w.free || p.Head != w.head ||
			p.HeadResv != w.headResv || p.Extra != w.extra || p.Started != w.started || !strings.Contains(p.Why, w.why) {
			t.Errorf("pass %d = %+v\nwant %+v", i, p, w)
		}
	}
	x3, err := Explain(RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "easy"}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(x3.Passes) != 1 || !strings.Contains(x3.Passes[0].Why, "its estimate ends it at 52, by job 2's reservation (the shadow time) at 100") {
		t.Errorf("job 3: %+v", x3.Passes)
	}
	// Job 2 is the head: it does not fit and holds the reservation.
	x2, err := Explain(RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "easy"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if p := x2.Passes[0]; p.Time != 1 || p.Resv != 100 || !strings.Contains(p.Why, "waits: it needs 4 CPUs, 2 free; it holds a reservation at 100") {
		t.Errorf("job 2 at 1: %+v", p)
	}
	if last := x2.Passes[len(x2.Passes)-1]; last.Time != 100 || !last.Started || x2.Job.Reason != "reserved" {
		t.Errorf("job 2 started: %+v, %+v", last, x2.Job)
	}
}

// A pass line says the state after the decision. FCFS on the five-job
// example: job 1 (3 CPUs) runs 0-100, job 2 (4 CPUs) waits from 1, jobs
// 3, 4, 5 (1 CPU each, runtimes 20, 30, 10) behind it. At 100 job 1
// ends: 5 CPUs free when the pass begins; FCFS starts job 2 (4) and job
// 3 (1), leaving 0, so job 4 waits for lack of CPUs, not "behind job 2"
// (job 2 started in that very pass). At 120 job 3 ends: 1 free, job 4
// takes it. Job 5 at 120: the 1 free CPU goes to job 4, 0 after; it
// starts at 150, when job 2 ends.
func TestExplainStateAfterPass(t *testing.T) {
	spec := RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "fcfs"}}
	x, err := Explain(spec, 4)
	if err != nil {
		t.Fatal(err)
	}
	var at100 *Pass
	for i := range x.Passes {
		if x.Passes[i].Time == 100 {
			at100 = &x.Passes[i]
		}
	}
	if at100 == nil {
		t.Fatalf("no pass at 100: %+v", x.Passes)
	}
	if p := *at100; p.Free != 5 || fmt.Sprint(p.Others) != "[2 3]" || p.OthersProcs != 5 || p.After != 0 || p.Started ||
		p.Why != "waits: 5 of the 5 CPUs free went to jobs 2 and 3, started in this pass ahead of it in the policy's order, leaving 0; it needs 1 CPU" {
		t.Errorf("job 4 at 100: %+v", p)
	}
	if last := x.Passes[len(x.Passes)-1]; last.Time != 120 || !last.Started || last.After != 0 || len(last.Others) != 0 {
		t.Errorf("job 4's start: %+v", last)
	}
	// Before 100 no job starts: nothing went to others, the CPUs free after
	// the pass are those free before it (2: job 1 holds 3 of 5).
	if p := x.Passes[0]; p.Time != 3 || len(p.Others) != 0 || p.After != 2 || !strings.Contains(p.Why, "keeps it behind job 2") {
		t.Errorf("job 4 at 3: %+v", p)
	}
	x5, err := Explain(spec, 5)
	if err != nil {
		t.Fatal(err)
	}
	var at120 *Pass
	for i := range x5.Passes {
		if x5.Passes[i].Time == 120 {
			at120 = &x5.Passes[i]
		}
	}
	if at120 == nil || fmt.Sprint(at120.Others) != "[4]" || at120.After != 0 ||
		at120.Why != "waits: 1 of the 1 CPU free went to job 4, started in this pass ahead of it in the policy's order, leaving 0; it needs 1 CPU" {
		t.Errorf("job 5 at 120: %+v", at120)
	}
	if x5.Job.Start != 150 {
		t.Errorf("job 5 started at %v, want 150", x5.Job.Start)
	}
}

// Conservative backfilling: every waiting job holds a reservation. Job 5
// (1 CPU, 200 s) at 4: no CPU free; its reservation is 150, the end of
// job 2's (job 4 holds a CPU until 503, job 2 four from 100 to 150). At
// 22 one CPU is free but only until 100 (job 2 takes 4 of the 5 then,
// job 4 the fifth), too short: still 150. At 33
// job 4 ends: from 33 one CPU stays free through job 2's reservation, so
// its reservation moves to now and it starts, backfilled.
func TestExplainConservative(t *testing.T) {
	x, err := Explain(RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "conservative"}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if x.Job.Start != 33 || x.Job.Reason != "backfilled" {
		t.Fatalf("job %+v", x.Job)
	}
	if len(x.Passes) != 3 {
		t.Fatalf("passes %+v", x.Passes)
	}
	if p := x.Passes[0]; p.Time != 4 || p.Resv != 150 || !strings.Contains(p.Why, "it holds a reservation at 150") {
		t.Errorf("pass at 4: %+v", p)
	}
	// In conservative's terms: the reservations of the jobs ahead of it
	// (job 2's at 100, 4 CPUs), no shadow time, no extra processors.
	if p := x.Passes[1]; p.Time != 22 || p.Resv != 150 || len(p.Ahead) != 1 || p.Ahead[0] != (Reserved{2, 100, 4}) || !math.IsNaN(p.HeadResv) ||
		p.Why != "waits: it fits the 1 CPU free now, but running to the end of its estimate (222) it would delay a reservation of a job ahead of it (job 2 at 100 (4 CPUs)); it holds a reservation at 150" {
		t.Errorf("pass at 22: %+v", p)
	}
	if p := x.Passes[2]; p.Time != 33 || !p.Started || len(p.Ahead) != 1 ||
		p.Why != "started, backfilled ahead of job 2: it fits the 2 CPUs free and, by the running jobs' estimates, runs to the end of its estimate (233) without delaying any reservation (ahead of it: job 2 at 100 (4 CPUs))" {
		t.Errorf("pass at 33: %+v", p)
	}
}

func TestExplainErrors(t *testing.T) {
	for _, c := range []struct {
		run  RunSpec
		job  int64
		want string
	}{
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "easy"}}, 9, "job 9 is not in trace testdata/explain.swf (5 jobs read, ids 1..5)"},
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "matrix"}}, 1, "policy matrix schedules threads"},
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "nope"}}, 1, `unknown policy "nope"`},
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "easy", Options: map[string]string{"depth": "2"}}}, 1, "option depth: not an option"},
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Policy: PolicySpec{Name: "flexible"}}, 1, "explain takes a queue policy of the cluster model, not flexible (of the hetero model)"},
		// every setting explain does not follow, at once
		// on nodes, the runs the node version plans
		// (the slurm policy is explained in Slurm's terms: an unknown id
		// is refused as on the pool)
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Platform: PlatformSpec{Nodes: []string{"n[1-2]:cores=4"}}, Policy: PolicySpec{Name: "slurm"}},
			9, "job 9 is not in trace testdata/explain.swf (5 jobs read, ids 1..5)"},
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Platform: PlatformSpec{Nodes: []string{"n[1-2]:cores=4"}}, Policy: PolicySpec{Name: "easy", NodePlanner: PlannerNodes}},
			1, "this one is not: --node-planner nodes"},
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Platform: PlatformSpec{Nodes: []string{"n[1-2]:cores=4"}, Avail: AvailSpec{Reservations: []string{"10:20:n2"}}}, Policy: PolicySpec{Name: "easy"}},
			1, "this one is not: some nodes are unavailable"},
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf", Estimate: workload.EstimatePredict}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: "x", Planned: true}},
			1, "explain does not take predictions (the passes would speak of the estimates, not the predictions the policy sees)\nexplain does not take --out (it writes nothing)\nexplain does not take --planned"},
		// a job the run's settings leave out (job 1 is submitted at 0)
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf", From: "10"}, Policy: PolicySpec{Name: "easy"}},
			1, "job 1 of trace testdata/explain.swf is not among the 0 jobs this run simulates: the run's settings leave it out"},
		// the run's own checks come first, all of them
		{RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf", From: "10"}, Platform: PlatformSpec{Procs: -1}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Tau: -1}},
			1, "--procs -1: want 1..4194304 (or leave it out for the header's MaxProcs)\n--tau must be a positive number of seconds, got -1"},
	} {
		if _, err := Explain(c.run, c.job); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.run, err, c.want)
		}
	}
}

// An id not in the trace is refused with the trace's count and id range
// before anything is simulated (on the embedded KTH-SP2, always there;
// on HPC2N the reading alone takes a fraction of a second where the
// conservative simulation takes seconds).
func TestExplainUnknownIDBeforeSimulating(t *testing.T) {
	before := explainRuns.Load()
	spec := RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Policy: PolicySpec{Name: "conservative"}}
	_, err := Explain(spec, 99999999)
	if err == nil || !strings.Contains(err.Error(), "job 99999999 is not in trace") || !strings.Contains(err.Error(), "27992 jobs read, ids 15..28490") {
		t.Fatalf("Explain of an unknown id: %v", err)
	}
	if n := explainRuns.Load() - before; n != 0 {
		t.Fatalf("%d simulation(s) ran before the refusal", n)
	}
}

// On HPC2N (202,876 jobs; conservative simulates the trace for about a
// second here, more under load) an unknown id is refused in under a
// second of wall time: the trace is read, nothing simulated. Skipped
// without the trace beside the checkout.
func TestExplainUnknownIDFastOnHPC2N(t *testing.T) {
	if _, err := os.Stat(hpc2n); err != nil {
		t.Skip("HPC2N not beside the checkout: ", err)
	}
	before := explainRuns.Load()
	start := time.Now()
	_, err := Explain(RunSpec{Workload: WorkloadSpec{Trace: hpc2n}, Policy: PolicySpec{Name: "conservative"}}, 99999999)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "job 99999999 is not in trace") || !strings.Contains(err.Error(), "202876 jobs read, ids 1..527371") {
		t.Fatalf("Explain of an unknown id: %v", err)
	}
	if n := explainRuns.Load() - before; n != 0 || took >= time.Second {
		t.Fatalf("refused after %v and %d simulation(s); want under 1 s and none", took, n)
	}
}

// Partitions (testdata/explain-parts.swf, 6 CPUs): a = CPUs 0-3 (SWF
// partition 1), b = CPUs 4-5 (2), each under EASY. Job 1 (a, 4 CPUs,
// 100 s) holds all of a from 0; job 2 (b, 1 CPU, 50 s) starts at 1 on b;
// job 3 (a, 1 CPU, 10 s) comes at 2: the machine has 1 CPU free (on b),
// its partition none, so it waits, the head of a with its reservation
// at 100 (job 1's end), and starts then. Job 4 (b, 2 CPUs) waits at 3 in
// b's queue, not in a's: every pass says 1 of 1 waiting. Only the
// instants of a's own events are a's passes (2 and 100; not 3, 51, 61,
// which are b's). Without partitions job 3 starts at 2 on the free CPU.
func TestExplainPartition(t *testing.T) {
	spec := RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain-parts.swf"}, Platform: PlatformSpec{Partitions: []string{"a:0-3", "b:4-5"}}, Policy: PolicySpec{Name: "easy"}}
	x, err := Explain(spec, 3)
	if err != nil {
		t.Fatal(err)
	}
	if x.Partition != "a" || x.Procs != 4 || x.Job.Start != 100 || x.Job.Reason != "reserved" {
		t.Fatalf("partition %q of %d CPUs, job %+v", x.Partition, x.Procs, x.Job)
	}
	want := []struct {
		time    float64
		free    int
		resv    float64
		started bool
		why     string
	}{
		{2, 0, 100, false, "waits: it needs 1 CPU, 0 free; it holds a reservation at 100"},
		{100, 4, math.NaN(), true, "started in queue order after waiting: it needs 1 CPU, 4 free"},
	}
	if len(x.Passes) != len(want) {
		t.Fatalf("%d passes, want %d: %+v", len(x.Passes), len(want), x.Passes)
	}
	for i, w := range want {
		p := x.Passes[i]
		if p.Time != w.time || p.Free != w.free || p.Position != 1 || p.Waiting != 1 || p.Started != w.started ||
			!(p.Resv == w.resv || math.IsNaN(p.Resv) && math.IsNaN(w.resv)) || p.Why != w.why {
			t.Errorf("pass %d = %+v\nwant %+v", i, p, w)
		}
	}
	spec.Platform.Partitions = nil
	if x, err = Explain(spec, 3); err != nil || x.Partition != "" || x.Procs != 6 || x.Job.Start != 2 || len(x.Passes) != 1 || x.Passes[0].Free != 1 {
		t.Fatalf("without partitions: %v %+v", err, x)
	}
}

// An announced window over the whole machine, [200, 300) (the five-job
// example, EASY). Job 3 (ends by 52) backfills at 2; job 4 (estimate
// 500) would cross the window and waits. Job 5 (estimate 200): at 4 one
// CPU is free but it would end at 204 and the window takes that CPU at
// 200, so none is clear of the windows; at 22 (job 3 ends) 2 free, none
// clear (222); at 100 (job 1 ends, job 2 starts on 4 CPUs) 5 free
// before the pass, it would end at 300, none clear; at 150 (job 2 ends)
// the same (350); at 200 the window holds every CPU: 0 free; at 300 it
// ends: 5 free, and job 5 starts in queue order (after job 4, the head,
// reserved at 300).
func TestExplainWindow(t *testing.T) {
	spec := RunSpec{Workload: WorkloadSpec{Trace: "testdata/explain.swf"}, Platform: PlatformSpec{Avail: AvailSpec{Reservations: []string{"200:300:5"}}}, Policy: PolicySpec{Name: "easy"}}
	x, err := Explain(spec, 5)
	if err != nil {
		t.Fatal(err)
	}
	if x.Job.Start != 300 || x.Job.Reason != "reserved" {
		t.Fatalf("job %+v", x.Job)
	}
	want := []struct {
		time        float64
		free, clear int
		why         string
	}{
		{4, 1, 0, "waits: it fits the 1 CPU free, but its estimate would end it at 204, and an announced window takes 1 of them from 200: it needs 1 CPU, 0 are clear of the windows until then"},
		{22, 2, 0, "would end it at 222, and an announced window takes 2 of them from 200"},
		{100, 5, 0, "would end it at 300, and an announced window takes 5 of them from 200"},
		{150, 5, 0, "would end it at 350"},
		{200, 0, 0, "waits: it needs 1 CPU, 0 free"},
		{300, 5, 5, "started in queue order after waiting: it needs 1 CPU, 5 free"},
	}
	if len(x.Passes) != len(want) {
		t.Fatalf("%d passes, want %d: %+v", len(x.Passes), len(want), x.Passes)
	}
	for i, w := range want {
		if p := x.Passes[i]; p.Time != w.time || p.Free != w.free || p.Clear != w.clear || !strings.Contains(p.Why, w.why) {
			t.Errorf("pass %d = %+v\nwant %+v", i, p, w)
		}
	}
	spec.Platform.Avail = AvailSpec{Failures: &avail.Failures{MTBF: 1000, MTTR: 10}}
	if _, err := Explain(spec, 5); err == nil || !strings.Contains(err.Error(), "explain follows announced windows (--reservation), not failures") {
		t.Fatalf("failures: %v", err)
	}
}

// On nodes planned by counts explain is the pool of the nodes' cores:
// KTH on 25 nodes x 4 cores under conservative, job 2000 (it waits and
// is backfilled), has the passes of the pool of 100 CPUs, and its start
// is the run's on the nodes.
func TestExplainOnNodes(t *testing.T) {
	kth := WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}
	pol := PolicySpec{Name: "conservative"}
	onNodes, err := Explain(RunSpec{Workload: kth, Platform: PlatformSpec{Nodes: []string{"n[1-25]:cores=4"}}, Policy: pol}, 2000)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := Explain(RunSpec{Workload: kth, Platform: PlatformSpec{Procs: 100}, Policy: pol}, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(onNodes.Nodes, "on 25 nodes, 100 cores, 100 CPUs, planned by counts") || pool.Nodes != "" {
		t.Errorf("notes %q, %q", onNodes.Nodes, pool.Nodes)
	}
	onNodes.Nodes = ""
	if fmt.Sprintf("%+v", *onNodes) != fmt.Sprintf("%+v", *pool) { // End is NaN: not DeepEqual
		t.Errorf("on nodes %+v\npool %+v", onNodes.Job, pool.Job)
	}
	if len(pool.Passes) < 2 || pool.Job.Start == pool.Job.Submit {
		t.Fatalf("job 2000 does not wait: %+v", pool.Job)
	}
	l := &startLog{}
	if _, err := (RunSpec{Workload: kth, Platform: PlatformSpec{Nodes: []string{"n[1-25]:cores=4"}}, Policy: pol,
		Outputs: OutputSpec{Listeners: []engine.Listener{l}}}).Run(); err != nil {
		t.Fatal(err)
	}
	found := false
	for k, st := range l.starts {
		if k.id == 2000 {
			found = true
			if st != pool.Job.Start {
				t.Errorf("the run on nodes starts job 2000 at %g, explain at %g", st, pool.Job.Start)
			}
		}
	}
	if !found {
		t.Error("the run on nodes has no job 2000")
	}
}
