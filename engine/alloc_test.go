package engine_test

import (
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload"
)

// fragmenting builds n jobs on 64 CPUs whose mixed sizes and runtimes
// leave the free CPUs scattered, so that many jobs get CPU lists of many
// runs (the case that used to grow a slot's list by append, job after
// job).
func fragmenting(n int) []actual.Job {
	r := rng.New(7, 0, "fragmenting")
	jobs := make([]actual.Job, n)
	t := 0.0
	for i := range jobs {
		t += r.Float64() * 3
		procs := 1 + int(r.Float64()*float64(1+int(r.Float64()*40)))
		run := 1 + r.Float64()*100
		jobs[i] = actual.Job{ID: job.ID(i + 1), Submit: t, Procs: procs, Runtime: run, Estimate: run * 2, Request: run * 2, User: -1, Group: -1}
	}
	return jobs
}

// allocsFor runs jobs under EASY and returns the heap allocations of the
// whole run (engine, policy, source; jobs built beforehand).
func allocsFor(t *testing.T, jobs []actual.Job) (allocs float64, maxRuns int) {
	t.Helper()
	var lis runCounter
	allocs = testing.AllocsPerRun(1, func() {
		pol, err := queuePolicy("easy", 64)
		if err != nil {
			t.Fatal(err)
		}
		c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(64), Policy: pol, Source: workload.FromSlice(jobs), Listener: &lis})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Run(); err != nil {
			t.Fatal(err)
		}
	})
	return allocs, lis.maxRuns
}

type runCounter struct {
	engine.NopListener
	maxRuns int
}

func (r *runCounter) JobStarted(now float64, s engine.Start) {
	r.maxRuns = max(r.maxRuns, len(s.CPUs)/2)
}

// The engine allocates nothing per job: ten times the jobs cost almost no
// more allocations (what grows is bounded by the jobs present at once,
// not by the jobs run). Before CPU lists were grown from a shared chunk,
// each slot's list grew by append as fragmented jobs came through it.
func TestNoAllocationPerJob(t *testing.T) {
	small, runsSmall := allocsFor(t, fragmenting(2_000))
	large, runsLarge := allocsFor(t, fragmenting(20_000))
	if max(runsSmall, runsLarge) <= 8 {
		t.Fatalf("the workload does not fragment the CPUs (at most %d runs per job): the test proves nothing", max(runsSmall, runsLarge))
	}
	t.Logf("2,000 jobs: %.0f allocations, 20,000 jobs: %.0f; at most %d CPU runs per job", small, large, max(runsSmall, runsLarge))
	if extra := large - small; extra > 100 {
		t.Errorf("2,000 jobs: %.0f allocations; 20,000 jobs: %.0f (%.0f more for 18,000 more jobs)", small, large, extra)
	}
}
