package matrix_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/internal/testref"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/matrix"
	"github.com/schedlab/schedlab/threads"
	"github.com/schedlab/schedlab/workload"
)

// jobRec is a folded job's outcome.
type jobRec struct {
	start, end float64
	cpus       string
	reason     job.StartReason
	procs      int
}

// threadRec is one thread, seen by the kernel.
type threadRec struct {
	id         job.ID
	cpu        int32
	start, end float64
	submit     float64
	runtime    float64
}

type jobLog struct {
	engine.NopListener
	jobs map[job.ID]jobRec
}

func (l *jobLog) JobFinished(now float64, r *engine.Record) {
	l.jobs[r.Job.ID] = jobRec{r.Start, r.End, r.CPUs.String(), r.Reason, r.Job.Procs}
}
func (l *jobLog) JobKilled(now float64, r *engine.Record) { l.JobFinished(now, r) }

// threadLog is the threads as the kernel saw them: their ids in start
// order and every thread's run, in end order (from enginetest.Recorder).
type threadLog struct {
	started []job.ID
	ths     []threadRec
}

func threadLogOf(r *enginetest.Recorder) *threadLog {
	l := &threadLog{started: r.Order()}
	for _, e := range r.Ends {
		l.ths = append(l.ths, threadRec{e.Job.ID, e.CPUs[0], e.Start, e.End, e.Job.Submit, e.Job.Runtime})
	}
	return l
}

type result struct {
	jobs    map[job.ID]jobRec
	threads *threadLog
	windows []matrix.Window
	work    float64
}

func run(t *testing.T, jobs []actual.Job, procs int, o matrix.Options) result {
	t.Helper()
	var res result
	o.OnWindow = func(w matrix.Window) {
		w.Jobs = slices.Clone(w.Jobs)
		res.windows = append(res.windows, w)
	}
	pol, err := matrix.New(o)
	if err != nil {
		t.Fatal(err)
	}
	jl := &jobLog{jobs: map[job.ID]jobRec{}}
	tl := &enginetest.Recorder{}
	fold := threads.NewFold(jl)
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pol,
		Source: threads.Split(workload.FromSlice(jobs)), Listener: engine.Tee{fold, tl}, Continue: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	if err := fold.Err(); err != nil {
		t.Fatal(err)
	}
	res.jobs, res.threads, res.work = jl.jobs, threadLogOf(tl), fold.Work()
	return res
}

func mk(id job.ID, submit, run float64, procs int) actual.Job {
	return actual.Job{ID: id, Submit: submit, Runtime: run, Estimate: run, Request: -1, Procs: procs, User: -1, Group: -1}
}

func wantJobs(t *testing.T, name string, got map[job.ID]jobRec, want map[job.ID]jobRec) {
	t.Helper()
	for id, w := range want {
		g, ok := got[id]
		if !ok || g.start != w.start || g.end != w.end || g.cpus != w.cpus || g.reason != w.reason {
			t.Errorf("%s: job %d = %+v, want %+v", name, id, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d jobs ended, want %d", name, len(got), len(want))
	}
}

// 4 CPUs, all at t=0: J1 3 threads x 4 s, J2 2 x 2 s, J3 1 x 3 s.
// Window: n = 3, the first 3 jobs, none larger: J1..J3. Queue (row order):
// J1t1 J2t1 J3t1 | J1t2 J2t2 | J1t3.
// t=0: J1t1 CPU0, J2t1 CPU1, J3t1 CPU2, J1t2 CPU3 (ends 4, 2, 3, 4).
// t=2: J2t1 ends: J2t2 on CPU1 (ends 4). t=3: J3t1 ends: J1t3 on CPU2 (ends 7).
// J1: 0 -> 7 on CPUs 0, 3, 2; J2: 0 -> 4 on CPU 1 twice; J3: 0 -> 3 on CPU 2.
// Reasons: J1 immediate; J2 and J3 start while J1 (earlier) still has
// threads behind them in the queue: backfilled.
// Strict FCFS of whole jobs would give J1 0-4, J2 4-6, J3 4-7: mean
// response 17/3; matrix 14/3.
func TestMatrixHandOneWindow(t *testing.T) {
	jobs := []actual.Job{mk(1, 0, 4, 3), mk(2, 0, 2, 2), mk(3, 0, 3, 1)}
	res := run(t, jobs, 4, matrix.Options{})
	wantJobs(t, "lazy", res.jobs, map[job.ID]jobRec{
		1: {0, 7, "0 2-3", job.Immediate, 3},
		2: {0, 4, "1", job.Backfilled, 2},
		3: {0, 3, "2", job.Backfilled, 1},
	})
	if len(res.windows) != 1 || !slices.Equal(res.windows[0].Jobs, []job.ID{1, 2, 3}) || res.windows[0].N != 3 || res.windows[0].Rows != 3 {
		t.Errorf("windows %+v, want one of J1..J3, n = 3, 3 rows", res.windows)
	}
	// CPU time: 3x4 + 2x2 + 3 = 19.
	if res.work != 19 {
		t.Errorf("work %g, want 19", res.work)
	}
}

// Lazy and eager windows differ. 2 CPUs: J1 t=0 2x4 s; J2 t=1 2x1 s;
// J3 t=2 1x3 s.
// Lazy: J1's window {J1} starts both threads at 0 (ends 4). At t=1 and t=2
// no CPU is free: no window. t=4: n = t(J2) = 2, window J2, J3 (J3 has 1
// <= 2): J2t1 J3t1 | J2t2. J2t1 CPU0 (ends 5), J3t1 CPU1 (ends 7); t=5
// J2t2 CPU0 (ends 6). J2: 4 -> 6 on CPU 0; J3: 4 -> 7 on CPU 1 (J3
// backfilled: J2 has a thread behind it).
// Eager: at t=1 the window is formed of what waits, {J2} alone (n = 2,
// one job); at t=2 {J3}. t=4: J2t1 CPU0, J2t2 CPU1 (end 5); t=5: J3t1 on
// CPU0 (ends 8). J2: 4 -> 5 on CPUs 0-1; J3: 5 -> 8 on CPU 0 (reserved).
func TestMatrixHandLazyEager(t *testing.T) {
	jobs := []actual.Job{mk(1, 0, 4, 2), mk(2, 1, 1, 2), mk(3, 2, 3, 1)}
	lazy := run(t, jobs, 2, matrix.Options{})
	wantJobs(t, "lazy", lazy.jobs, map[job.ID]jobRec{
		1: {0, 4, "0-1", job.Immediate, 2},
		2: {4, 6, "0", job.Reserved, 2},
		3: {4, 7, "1", job.Backfilled, 1},
	})
	eager := run(t, jobs, 2, matrix.Options{Rule: matrix.Eager})
	wantJobs(t, "eager", eager.jobs, map[job.ID]jobRec{
		1: {0, 4, "0-1", job.Immediate, 2},
		2: {4, 5, "0-1", job.Reserved, 2},
		3: {5, 8, "0", job.Reserved, 1},
	})
}

// n = 1 is FCFS of threads. 2 CPUs, at t=0: J1 3x2 s, J2 1x1 s.
// fixed:1: windows {J1}, {J2}; queue J1t1 J1t2 J1t3 J2t1. t=0: J1t1 CPU0,
// J1t2 CPU1 (end 2). t=2: J1t3 CPU0 (ends 4), J2t1 CPU1 (ends 3).
// J1: 0 -> 4 on CPUs 0-1; J2: 2 -> 3 on CPU 1 (reserved).
// The growing rule (lazy) takes both: n = 3, window J1, J2; queue J1t1
// J2t1 | J1t2 | J1t3. t=0: J1t1 CPU0, J2t1 CPU1. t=1: J2 ends, J1t2 CPU1
// (ends 3). t=2: J1t3 CPU0 (ends 4). J1: 0 -> 4; J2: 0 -> 1 (backfilled).
func TestMatrixHandFixedOne(t *testing.T) {
	jobs := []actual.Job{mk(1, 0, 2, 3), mk(2, 0, 1, 1)}
	f1 := run(t, jobs, 2, matrix.Options{Rule: matrix.Fixed, N: 1})
	wantJobs(t, "fixed:1", f1.jobs, map[job.ID]jobRec{
		1: {0, 4, "0-1", job.Immediate, 3},
		2: {2, 3, "1", job.Reserved, 1},
	})
	lazy := run(t, jobs, 2, matrix.Options{})
	wantJobs(t, "lazy", lazy.jobs, map[job.ID]jobRec{
		1: {0, 4, "0-1", job.Immediate, 3},
		2: {0, 1, "1", job.Backfilled, 1},
	})
}

func randomJobs(r *rand.Rand) ([]actual.Job, int) {
	procs := 2 + r.IntN(7)
	n := 5 + r.IntN(40)
	var jobs []actual.Job
	tm := 0.0
	for i := range n {
		tm += float64(r.IntN(5))
		jobs = append(jobs, mk(job.ID(i+1), tm, float64(r.IntN(20)), 1+r.IntN(procs)))
	}
	return jobs, procs
}

func rules() []matrix.Options {
	return []matrix.Options{{}, {Rule: matrix.Eager}, {Rule: matrix.Fixed, N: 1}, {Rule: matrix.Fixed, N: 3}}
}

// The engine (policy + thread transform + fold) and the naive simulator
// (internal/testref.Matrix, written from the rule's words, growing n to the
// first violator) agree job for job: first start, last end and the CPU of
// every thread, under every window rule.
func TestMatrixMatchesNaive(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		jobs, procs := randomJobs(r)
		nj := make([]testref.Job, len(jobs))
		for i, j := range jobs {
			nj[i] = testref.Job{ID: int64(j.ID), Submit: j.Submit, Duration: j.Runtime, Estimate: j.Estimate, Procs: j.Procs}
		}
		for _, o := range rules() {
			got := run(t, jobs, procs, o)
			want := testref.Matrix(nj, procs, testref.MatrixRule{Eager: o.Rule == matrix.Eager, FixedN: o.N})
			cpuOf := map[job.ID]int32{}
			for _, th := range got.threads.ths {
				cpuOf[th.id] = th.cpu
			}
			for i, j := range jobs {
				g, w := got.jobs[j.ID], want[i]
				if g.start != w.Start || g.end != w.End {
					t.Fatalf("seed %d %s: job %d runs %g-%g, naive %g-%g\n%s", seed, o, j.ID, g.start, g.end, w.Start, w.End, dumpJobs(jobs, procs))
				}
				for k, c := range w.CPUs {
					if got := cpuOf[job.ThreadID(j.ID, k)]; int(got) != c {
						t.Fatalf("seed %d %s: job %d thread %d on CPU %d, naive %d", seed, o, j.ID, k, got, c)
					}
				}
			}
		}
	}
}

func dumpJobs(jobs []actual.Job, procs int) string {
	s := fmt.Sprintf("%d CPUs:", procs)
	for _, j := range jobs {
		s += fmt.Sprintf(" {%d t=%g %gs x%d}", j.ID, j.Submit, j.Runtime, j.Procs)
	}
	return s
}

// Invariants on random runs: no CPU runs two threads at once; no thread
// starts before its job's submit; every thread runs its job's runtime; a
// job ends with its last thread and starts with its first; the threads
// start in exactly the order of the windows' row scans, window after
// window; every job is in exactly one window, windows in arrival order.
func TestMatrixInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		jobs, procs := randomJobs(r)
		size := map[job.ID]int{}
		for _, j := range jobs {
			size[j.ID] = j.Procs
		}
		for _, o := range rules() {
			res := run(t, jobs, procs, o)
			ths := slices.Clone(res.threads.ths)
			slices.SortFunc(ths, func(a, b threadRec) int {
				if c := cmpF(a.start, b.start); c != 0 {
					return c
				}
				return cmpF(a.end, b.end) // a zero-length thread frees its CPU at its start instant
			})
			// CPU exclusivity: per CPU, intervals in start order do not overlap.
			last := map[int32]float64{}
			for _, th := range ths {
				if e, ok := last[th.cpu]; ok && th.start < e {
					t.Fatalf("seed %d %s: CPU %d starts thread %d at %g before the previous ends at %g", seed, o, th.cpu, th.id, th.start, e)
				}
				last[th.cpu] = th.end
				if th.start < th.submit || th.end-th.start != th.runtime {
					t.Fatalf("seed %d %s: thread %d submit %g runs %g-%g, runtime %g", seed, o, th.id, th.submit, th.start, th.end, th.runtime)
				}
			}
			first, lastEnd := map[job.ID]float64{}, map[job.ID]float64{}
			for _, th := range res.threads.ths {
				p, _ := th.id.Thread()
				if f, ok := first[p]; !ok || th.start < f {
					first[p] = th.start
				}
				lastEnd[p] = math.Max(lastEnd[p], th.end)
			}
			for _, j := range jobs {
				g := res.jobs[j.ID]
				if g.start != first[j.ID] || g.end != lastEnd[j.ID] || g.procs != j.Procs {
					t.Fatalf("seed %d %s: job %d folded %+v, threads %g-%g", seed, o, j.ID, g, first[j.ID], lastEnd[j.ID])
				}
			}
			// Start order = row scans of the windows, in window order.
			var want []job.ID
			var inWindows []job.ID
			for _, w := range res.windows {
				ks := make([]int, len(w.Jobs))
				for i, id := range w.Jobs {
					ks[i] = size[id]
				}
				for _, s := range matrix.RowOrder(ks) {
					want = append(want, job.ThreadID(w.Jobs[s.Job], s.Thread))
				}
				inWindows = append(inWindows, w.Jobs...)
			}
			if !slices.Equal(res.threads.started, want) {
				t.Fatalf("seed %d %s: threads started in order %v, windows' row order %v", seed, o, res.threads.started, want)
			}
			var ids []job.ID
			for _, j := range jobs {
				ids = append(ids, j.ID)
			}
			if !slices.Equal(inWindows, ids) {
				t.Fatalf("seed %d %s: windows take jobs %v, want each once in arrival order %v", seed, o, inWindows, ids)
			}
		}
	}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
