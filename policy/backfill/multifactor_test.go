package backfill_test

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// userJob is a job of user u whose estimate is its runtime.
func userJob(id int, submit float64, procs int, run float64, u int32) actual.Job {
	return actual.Job{ID: job.ID(id), Submit: submit, Procs: procs, Runtime: run, Estimate: run, Request: -1, User: u, Group: -1, Partition: -1, QOS: -1}
}

// A fair-share order that flips after the heavy user's job completes,
// worked by hand. 4 CPUs; every job takes all 4 for 100 s. Weights:
// fair-share 1000, age 1000 with PriorityMaxAge 1000 s (age factor =
// wait / 1000); half-life H = 100 s; users 1 and 2 with 1 share each
// (S = 1/2).
//
//	job 1 user 1 at 0   job 2 user 1 at 10   job 3 user 2 at 20
//	job 5 user 2 at 30  job 6 user 1 at 150
//
// A job of 4 CPUs run from s is charged at t: 4 · H/ln2 · (1 - 2^-((t-s)/H)).
//
// t=100: job 1 ends: usage1 = 4 · 144.2695 · (1 - 1/2) = 288.539, usage2 = 0,
// so U1 = 1, U2 = 0; fair-share 2^(-1/0.5) = 0.25 for user 1, 1 for user 2.
// P2 = floor(90 + 250) = 340, P3 = floor(80 + 1000) = 1080, P5 = floor(70 +
// 1000) = 1070: job 3 (the light user's, submitted after job 2) starts.
//
// t=150 (job 6 arrives; job 3 runs): usage1 = 288.539 · 2^-0.5 = 204.028,
// usage2 = 4 · 144.2695 · (1 - 2^-0.5) = 169.022 (accrued while running);
// U1 = 0.546918, U2 = 0.453082; factors 2^(-2 U): 0.468514, 0.533602.
// P5 = floor(120 + 533.602) = 653, P2 = floor(140 + 468.514) = 608,
// P6 = floor(0 + 468.514) = 468.
//
// t=200: job 3 ends: usage1 = 288.539/4·2 = 144.270, usage2 = 288.539:
// U1 = 1/3, U2 = 2/3; factors 2^(-2/3) = 0.629961, 2^(-4/3) = 0.396850.
// P2 = floor(190 + 629.961) = 819, P6 = floor(50 + 629.961) = 679,
// P5 = floor(170 + 396.850) = 566: the order has flipped (job 5 was
// ahead of job 2 at 100 and 150, and held EASY's reservation for 200);
// job 2 starts.
//
// t=300: job 2 ends: usage1 = 288.539/4 + 288.539 = 360.674, usage2 =
// 144.270: U1 = 5/7, U2 = 2/7; factors 2^(-10/7) = 0.371499,
// 2^(-4/7) = 0.672950. P5 = floor(270 + 672.950) = 942 > P6 =
// floor(150 + 371.499) = 521: job 5 starts, job 6 at 400.
//
// Under the FCFS order the jobs start in submit order: 2 at 100, 3 at
// 200, 5 at 300, 6 at 400.
func TestMultifactorFairShareFlip(t *testing.T) {
	jobs := []actual.Job{userJob(1, 0, 4, 100, 1), userJob(2, 10, 4, 100, 1), userJob(3, 20, 4, 100, 2),
		userJob(5, 30, 4, 100, 2), userJob(6, 150, 4, 100, 1)}
	mf := backfill.DefaultMultifactor()
	mf.WeightFairshare, mf.WeightAge, mf.MaxAge, mf.DecayHalfLife = 1000, 1000, 1000, 100
	type prio struct {
		id job.ID
		p  float64
	}
	wantQueue := map[float64][]prio{
		100: {{5, 1070}, {2, 340}},
		150: {{5, 653}, {2, 608}, {6, 468}},
		200: {{6, 679}, {5, 566}},
		300: {{6, 521}},
		400: nil,
	}
	wantStart := map[job.ID]float64{1: 0, 3: 100, 2: 200, 5: 300, 6: 400}
	for _, depth := range []int{1, 2, backfill.Unlimited} {
		b, err := backfill.NewBackfillMultifactor("mf", 4, depth, mf)
		if err != nil {
			t.Fatal(err)
		}
		s := newSpy(b)
		l := runOn(t, platform.MustCluster(4), s, jobs)
		for id, at := range wantStart {
			if l.runs[id].start != at {
				t.Errorf("depth %d: job %d started at %g, want %g", depth, id, l.runs[id].start, at)
			}
		}
		for at, want := range wantQueue {
			got := s.after[at]
			if len(got) != len(want) {
				t.Errorf("depth %d: queue after the pass at %g: %+v, want %+v", depth, at, got, want)
				continue
			}
			for i := range want {
				if got[i].ID != want[i].id || got[i].Priority != want[i].p {
					t.Errorf("depth %d: queue after the pass at %g: %+v, want %+v", depth, at, got, want)
					break
				}
			}
		}
	}
	// The same jobs in FCFS order.
	l := runOn(t, platform.MustCluster(4), backfill.NewBackfill("easy", 4, 1, backfill.OrderFCFS), jobs)
	for id, at := range map[job.ID]float64{1: 0, 2: 100, 3: 200, 5: 300, 6: 400} {
		if l.runs[id].start != at {
			t.Errorf("fcfs order: job %d started at %g, want %g", id, l.runs[id].start, at)
		}
	}
	// Strict priority order (fcfs with multifactor) and first-fit give
	// the same starts here: every job needs the whole machine.
	f, _ := backfill.NewFCFSMultifactor(4, mf)
	ff, _ := backfill.NewFirstFitMultifactor(4, mf)
	for _, pol := range []policy.QueueScheduler{f, ff} {
		l := runOn(t, platform.MustCluster(4), pol, jobs)
		for id, at := range wantStart {
			if l.runs[id].start != at {
				t.Errorf("%s multifactor: job %d started at %g, want %g", pol.Name(), id, l.runs[id].start, at)
			}
		}
	}
}

// The job size factor and the age cap, by hand. 10 CPUs, weight 100 on
// job size and on age with PriorityMaxAge 20 s; job 1 (10 CPUs, 0..50)
// holds the machine. At t=50 the waiting jobs:
//
//	job 2: 2 CPUs, submitted 1:  age min(49/20, 1) = 1 (capped), size 0.2 -> 100 + 20 = 120
//	job 3: 8 CPUs, submitted 40: age 10/20 = 0.5, size 0.8 -> 50 + 80 = 130
//
// so job 3 starts first (at 50, with job 2 beside it: 2 + 8 = 10). With
// PriorityFavorSmall the size factors are 0.8 and 0.2: 180 vs 70.
func TestMultifactorAgeCapAndSize(t *testing.T) {
	jobs := []actual.Job{userJob(1, 0, 10, 50, 1), userJob(2, 1, 2, 10, 1), userJob(3, 40, 8, 10, 1),
		userJob(4, 45, 9, 10, 1)}
	for _, small := range []bool{false, true} {
		mf := backfill.DefaultMultifactor()
		mf.WeightJobSize, mf.WeightAge, mf.MaxAge, mf.FavorSmall = 100, 100, 20, small
		b, err := backfill.NewBackfillMultifactor("mf", 10, 1, mf)
		if err != nil {
			t.Fatal(err)
		}
		// Job 4 (9 CPUs, submitted 45): age 0.25, size 0.9 (0.1 small):
		// 25 + 90 = 115, or 25 + 10 = 35. Favouring large jobs the order at
		// 50 is 3 (130), 2 (120), 4 (115): 3 and 2 start; 4 waits. Favouring
		// small: 2 (180), 3 (70), 4 (35): 2 and 3 start.
		s := newSpy(b)
		l := runOn(t, platform.MustCluster(10), s, jobs)
		if l.runs[2].start != 50 || l.runs[3].start != 50 || l.runs[4].start != 60 {
			t.Errorf("favor small %v: starts 2:%g 3:%g 4:%g, want 50 50 60", small, l.runs[2].start, l.runs[3].start, l.runs[4].start)
		}
		want := []job.ID{3, 2} // started in this order at 50
		if small {
			want = []job.ID{2, 3}
		}
		if got := l.order[1:3]; got[0] != want[0] || got[1] != want[1] {
			t.Errorf("favor small %v: start order %v, want %v", small, l.order, want)
		}
		if q := s.after[50]; len(q) != 1 || q[0].ID != 4 || q[0].Priority != map[bool]float64{false: 115, true: 35}[small] {
			t.Errorf("favor small %v: queue after 50: %+v", small, q)
		}
	}
}

// With every weight 0 (Slurm's defaults) every priority is 1 and ties
// go by (submit, id): the multifactor order is the FCFS order, job for
// job, under every policy that takes it.
func TestMultifactorZeroWeightsIsFCFS(t *testing.T) {
	for seed := uint64(1); seed <= 150; seed++ {
		r := rand.New(rand.NewPCG(seed, 29))
		jobs, procs := randomWorkload(r, seed%2 == 0)
		for i := range jobs {
			jobs[i].User = int32(r.IntN(3))
		}
		mf := backfill.DefaultMultifactor()
		type pair struct{ a, b policy.QueueScheduler }
		var pairs []pair
		for _, d := range []int{1, 2, backfill.Unlimited} {
			b, _ := backfill.NewBackfillMultifactor("mf", procs, d, mf)
			pairs = append(pairs, pair{backfill.NewBackfill("ref", procs, d, backfill.OrderFCFS), b})
		}
		f, _ := backfill.NewFCFSMultifactor(procs, mf)
		ff, _ := backfill.NewFirstFitMultifactor(procs, mf)
		pairs = append(pairs, pair{backfill.NewFCFS(), f}, pair{backfill.NewFirstFit(backfill.OrderFCFS), ff})
		for k, p := range pairs {
			la := runOn(t, platform.MustCluster(procs), p.a, jobs)
			lb := runOn(t, platform.MustCluster(procs), p.b, jobs)
			for _, j := range jobs {
				x, y := la.runs[j.ID], lb.runs[j.ID]
				if x.start != y.start || x.end != y.end || x.reason != y.reason {
					t.Fatalf("seed %d pair %d: job %d: fcfs %+v, multifactor %+v", seed, k, j.ID, la.runs[j.ID], lb.runs[j.ID])
				}
			}
		}
	}
}

// On random workloads with several users, partitions and QOS and every
// factor weighted, every policy that takes the multifactor order gives a
// schedule the independent validator accepts (capacity, start >= submit,
// durations, exactly once).
func TestMultifactorInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 31))
		jobs, procs := randomWorkload(r, seed%3 == 0)
		for i := range jobs {
			jobs[i].User, jobs[i].Group = int32(r.IntN(4)), int32(r.IntN(2))
			jobs[i].Partition, jobs[i].QOS = int32(r.IntN(3)), int32(r.IntN(3))
		}
		in := make([]validate.Input, len(jobs))
		for i, j := range jobs {
			in[i] = validate.Input{ID: int64(j.ID), Submit: j.Submit, Runtime: j.Runtime, Request: j.Request, Procs: j.Procs}
		}
		mf := backfill.Multifactor{WeightAge: 500, WeightFairshare: 1000, WeightJobSize: 300, WeightPartition: 200, WeightQOS: 400,
			MaxAge: float64(1 + r.IntN(100)), DecayHalfLife: float64(r.IntN(3) * 50), FavorSmall: r.IntN(2) == 0, Accounts: r.IntN(2) == 0,
			Shares: map[int32]float64{0: 5, 1: 1}, AccountShares: map[int32]float64{1: 3},
			PartitionPriority: map[int32]float64{1: 10, 2: 5}, QOSPriority: map[int32]float64{0: 1, 2: 100}}
		var pols []policy.QueueScheduler
		for _, d := range []int{1, 3, backfill.Unlimited} {
			b, err := backfill.NewBackfillMultifactor("mf", procs, d, mf)
			if err != nil {
				t.Fatal(err)
			}
			pols = append(pols, b)
		}
		f, _ := backfill.NewFCFSMultifactor(procs, mf)
		ff, _ := backfill.NewFirstFitMultifactor(procs, mf)
		pols = append(pols, f, ff)
		for k, pol := range pols {
			s := &enginetest.Recorder{}
			c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pol, Source: workload.FromSlice(jobs), Listener: s})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Run(); err != nil {
				t.Fatalf("seed %d policy %d: %v", seed, k, err)
			}
			if err := validate.Check(in, s.Recs(), validate.Options{Procs: procs, Kill: true}); err != nil {
				t.Fatalf("seed %d policy %d: %v", seed, k, err)
			}
		}
	}
}
