package backfill

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload"
)

// steadyJobs draws n jobs on 64 CPUs at a load of about 0.85: mixed
// widths, jobs ending early (most), on time and, with cont, past their
// estimates, so that every planner's paths run (starts, reservations
// made, kept, moved and lifted, early ends, overruns).
func steadyJobs(n int) []actual.Job {
	r := rand.New(rand.NewPCG(11, 5))
	jobs := make([]actual.Job, n)
	t := 0.0
	for i := range jobs {
		t += r.Float64() * 20
		procs := 1 + r.IntN(1+r.IntN(40))
		run := float64(1 + r.IntN(100))
		est := run * (1 + 2*r.Float64())
		if r.IntN(5) == 0 {
			est = run * r.Float64() // runs past it (cont)
		}
		jobs[i] = actual.Job{ID: job.ID(i + 1), Submit: t, Procs: procs, Runtime: run, Estimate: est, Request: -1, User: -1, Group: -1}
	}
	return jobs
}

// No planner allocates per job: ten times the jobs cost almost no more
// allocations in a whole run (engine and policy) with the EASY, profile
// and multi-machine planners. (A *run handed through the planner
// interface moved every finished job's run to the heap.)
func TestNoPlannerAllocatesPerJob(t *testing.T) {
	two, err := platform.New([]platform.Machine{{CPUs: 40}, {CPUs: 24, Speed: 2}})
	if err != nil {
		t.Fatal(err)
	}
	one := platform.MustCluster(64)
	cases := []struct {
		name  string
		p     platform.Platform
		build func() *Backfill
		kind  planKind
	}{
		{"easy", one, func() *Backfill { return newBackfillPlanned("easy", 64, 1, OrderFCFS, planAuto) }, planEasy},
		{"easy on the profile", one, func() *Backfill { return newBackfillPlanned("easy", 64, 1, OrderSJF, planProfile) }, planProfile},
		{"conservative", one, func() *Backfill { return newBackfillPlanned("conservative", 64, Unlimited, OrderFCFS, planAuto) }, planProfile},
		{"flexible on two machines", two, func() *Backfill {
			b, err := NewBackfillMulti(MultiConfig{Name: "flexible", Platform: two, Depth: 1, Order: OrderPriority, Pick: PickFastest})
			if err != nil {
				t.Fatal(err)
			}
			return b
		}, planMulti},
	}
	for _, c := range cases {
		allocs := func(n int) float64 {
			jobs := steadyJobs(n)
			return testing.AllocsPerRun(1, func() {
				pol := c.build()
				if plannerKind(pol.pl) != c.kind {
					t.Fatalf("%s: not the %s planner", c.name, kindName(c.kind))
				}
				cl, err := engine.NewCluster(engine.ClusterConfig{Platform: c.p, Policy: pol, Source: workload.FromSlice(jobs), Continue: true})
				if err != nil {
					t.Fatal(err)
				}
				if err := cl.Run(); err != nil {
					t.Fatal(err)
				}
			})
		}
		small, large := allocs(2_000), allocs(20_000)
		t.Logf("%s: 2,000 jobs %.0f allocations, 20,000 jobs %.0f", c.name, small, large)
		if extra := large - small; extra > 200 {
			t.Errorf("%s: 2,000 jobs: %.0f allocations; 20,000 jobs: %.0f (%.0f more for 18,000 more jobs)", c.name, small, large, extra)
		}
	}
}
