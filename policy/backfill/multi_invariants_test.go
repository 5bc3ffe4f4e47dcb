package backfill_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/validate"
)

// randomPlatform draws 2..6 machines of 1..8 CPUs, speeds 1..4 (some left
// at the default 0 = 1) and, sometimes, memory per CPU.
func randomPlatform(r *rand.Rand) platform.Platform {
	ms := make([]platform.Machine, 2+r.IntN(5))
	for i := range ms {
		ms[i] = platform.Machine{CPUs: 1 + r.IntN(8), Speed: float64(r.IntN(5))}
		if r.IntN(3) == 0 {
			ms[i].Mem = float64(1000 * (1 + r.IntN(4)))
		}
	}
	p, err := platform.New(ms)
	if err != nil {
		panic(err)
	}
	return p
}

// randomHetero draws jobs for p: integer submit times (frequent ties),
// sizes up to the largest machine, BM_est 0..3, sometimes a memory or
// speed requirement (dropped if no machine could hold the job), 70% with a
// deadline. Estimates are exact; with early, some jobs end before their
// estimate (runtime <= estimate, never more).
func randomHetero(r *rand.Rand, p platform.Platform, early, zero bool) []actual.Job {
	top := 0
	for m := 0; m < p.Machines(); m++ {
		top = max(top, p.Machine(m).CPUs)
	}
	n := 10 + r.IntN(60)
	jobs := make([]actual.Job, 0, n)
	t := 0.0
	for i := 0; i < n; i++ {
		t += float64(r.IntN(4))
		est := float64(1 + r.IntN(40))
		if zero && r.IntN(10) == 0 {
			est = 0
		}
		j := actual.Job{ID: job.ID(i + 1), Submit: t, Procs: 1 + r.IntN(top), Runtime: est, Estimate: est, Request: -1,
			User: -1, Group: -1, BMEst: float64(r.IntN(4))}
		if early && r.IntN(3) == 0 {
			j.Runtime = float64(r.IntN(int(est) + 1))
		}
		if r.IntN(4) == 0 {
			j.Mem = float64(500 * (1 + r.IntN(8)))
		}
		if r.IntN(4) == 0 {
			j.Speed = float64(1 + r.IntN(4))
		}
		if backfill.Fastest(p, j.Info()) < 0 {
			j.Mem, j.Speed = 0, 0
		}
		if r.Float64() < 0.7 {
			j.Deadline = j.Submit + (2+2*r.Float64())*est
		}
		jobs = append(jobs, j)
	}
	return jobs
}

type multiPolicy struct {
	name string
	// keeps: a job's reservation is never taken away (so it never moves
	// later while estimates are exact or pessimistic).
	keeps bool
	build func(p platform.Platform) (policy.QueueScheduler, *backfill.Backfill)
}

func multiPolicies() []multiPolicy {
	byName := func(name string, flex *backfill.FlexParams) func(platform.Platform) (policy.QueueScheduler, *backfill.Backfill) {
		return func(p platform.Platform) (policy.QueueScheduler, *backfill.Backfill) {
			pol, err := declaredMulti(name, p, flex)
			if err != nil {
				panic(err)
			}
			b, _ := pol.(*backfill.Backfill)
			return pol, b
		}
	}
	engine := func(depth int, order backfill.Order, pick backfill.Pick) func(platform.Platform) (policy.QueueScheduler, *backfill.Backfill) {
		return func(p platform.Platform) (policy.QueueScheduler, *backfill.Backfill) {
			b, err := backfill.NewBackfillMulti(backfill.MultiConfig{Name: "test", Platform: p, Depth: depth, Order: order, Pick: pick})
			if err != nil {
				panic(err)
			}
			return b, b
		}
	}
	unpinned := backfill.DefaultFlex()
	unpinned.Pin = false
	return []multiPolicy{
		{"fcfs", true, byName("fcfs", nil)},
		{"easy", true, byName("easy", nil)},
		{"flexible", true, byName("flexible", nil)},
		{"flexible unpinned", false, byName("flexible", &unpinned)},
		{"easy sjf", false, engine(1, backfill.OrderSJF, backfill.PickFastest)},
		{"depth 2 first-fit", true, engine(2, backfill.OrderFCFS, backfill.PickFirst)},
		{"conservative", true, engine(backfill.Unlimited, backfill.OrderFCFS, backfill.PickFastest)},
	}
}

// On random platforms and workloads, through the real model, for every
// policy over several machines:
//   - the independent validator accepts the schedule: every job runs
//     once, never before it is submitted, all its CPUs on one machine, no
//     CPU held by two jobs at once;
//   - every job runs on a machine that can hold it (CPUs, memory per CPU,
//     speed), for exactly its runtime scaled by speed, runtime x BM_est /
//     BM_m;
//   - with runtimes never above their estimates, no reservation ever moves
//     later and every job starts no later than any reservation it was
//     given: EASY and Flexible never delay their reserved job beyond its
//     shadow time (except where the reservation can be taken away: SJF
//     order, Flexible unpinned).
func TestMultiInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 250; seed++ {
		r := rand.New(rand.NewPCG(seed, 77))
		p := randomPlatform(r)
		jobs := randomHetero(r, p, seed%2 == 0, true)
		for _, mp := range multiPolicies() {
			pol, b := mp.build(p)
			first := map[job.ID]float64{}
			last := map[job.ID]float64{}
			if b != nil {
				b.OnReserve = func(now float64, id job.ID, at float64) {
					if l, ok := last[id]; ok && at > l && mp.keeps {
						t.Fatalf("seed %d %s: job %d's reservation moved later at t=%g: %g -> %g", seed, mp.name, id, now, l, at)
					}
					if _, ok := first[id]; !ok {
						first[id] = at
					}
					last[id] = at
				}
			}
			l := runOn(t, p, pol, jobs)
			if err := checkMulti(p, jobs, l); err != nil {
				t.Fatalf("seed %d %s: %v\njobs: %s", seed, mp.name, err, dumpHetero(jobs))
			}
			for id, at := range first {
				if s := l.runs[id].start; s > at && mp.keeps {
					t.Fatalf("seed %d %s: job %d started at %g after its first reservation %g", seed, mp.name, id, s, at)
				}
			}
		}
	}
}

// checkMulti validates a schedule on p independently of the engine.
func checkMulti(p platform.Platform, jobs []actual.Job, l *multiLog) error {
	var in []validate.Input
	var out []validate.Rec
	sizes := make([]int, p.Machines())
	for m := range sizes {
		sizes[m] = p.Machine(m).CPUs
	}
	for _, j := range jobs {
		x, ok := l.runs[j.ID]
		if !ok {
			return fmt.Errorf("job %d never ran", j.ID)
		}
		mc := p.Machine(x.machine)
		if !backfill.CanHold(mc, j.Info()) {
			return fmt.Errorf("job %d (%d CPUs, mem %g, speed %g) ran on m%d %+v, which cannot hold it", j.ID, j.Procs, j.Mem, j.Speed, x.machine, mc)
		}
		if d := mc.Duration(j.Runtime, j.BMEst); x.end-x.start != d && x.end != x.start+d {
			return fmt.Errorf("job %d ran [%g, %g) on m%d, want %g = %g x %g / %g", j.ID, x.start, x.end, x.machine, d, j.Runtime, j.BMEst, mc.BM())
		}
		in = append(in, validate.Input{ID: int64(j.ID), Submit: j.Submit, Runtime: x.end - x.start, Request: -1, Procs: j.Procs})
		out = append(out, validate.Rec{ID: int64(j.ID), Submit: j.Submit, Start: x.start, Finish: x.end, Procs: j.Procs,
			State: validate.StateCompleted, CPUs: x.cpus})
	}
	return validate.Check(in, out, validate.Options{Procs: p.CPUs(), Machines: sizes, OneMachine: true})
}

func dumpHetero(jobs []actual.Job) string {
	s := ""
	for _, j := range jobs {
		s += fmt.Sprintf("\n  id %d submit %g procs %d run %g est %g bm %g mem %g speed %g deadline %g",
			j.ID, j.Submit, j.Procs, j.Runtime, j.Estimate, j.BMEst, j.Mem, j.Speed, j.Deadline)
	}
	return s
}
