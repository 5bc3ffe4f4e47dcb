package backfill_test

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// On random workloads, for every policy and queue order: the schedule
// never uses more processors than exist, no job starts before it is
// submitted, every job runs exactly once for its (possibly killed)
// duration — checked by the independent validator; and, with jobs killed
// at their limit so that none overruns its estimate, no reservation ever
// moves later: EASY never delays its head job, conservative never delays
// any job, and every job starts no later than its last reservation.
func TestInvariants(t *testing.T) {
	type pol struct {
		depth int
		order backfill.Order
	}
	pols := []pol{{1, backfill.OrderFCFS}, {2, backfill.OrderFCFS}, {backfill.Unlimited, backfill.OrderFCFS},
		{1, backfill.OrderSJF}, {backfill.Unlimited, backfill.OrderSJF}}
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		jobs, procs := randomWorkload(r, false)
		// Requests below the runtime: those jobs are killed at the limit.
		for i := range jobs {
			if r.IntN(5) == 0 && jobs[i].Runtime > 1 {
				jobs[i].Request = jobs[i].Runtime / 2
				jobs[i].Estimate = jobs[i].Request
			}
		}
		in := make([]validate.Input, len(jobs))
		for i, j := range jobs {
			in[i] = validate.Input{ID: int64(j.ID), Submit: j.Submit, Runtime: j.Runtime, Request: j.Request, Procs: j.Procs}
		}
		for _, p := range pols {
			// Reservations are never taken away under FCFS order or with
			// unlimited depth; under SJF with finite depth a new shorter
			// job may take the head's place (and its reservation).
			keeps := p.order == backfill.OrderFCFS || p.depth == backfill.Unlimited
			b := backfill.NewBackfill("test", procs, p.depth, p.order)
			resv := map[job.ID]float64{}
			b.OnReserve = func(now float64, id job.ID, at float64) {
				if last, ok := resv[id]; ok && at > last && keeps {
					t.Fatalf("seed %d depth %d: job %d's reservation moved later at t=%g: %g -> %g", seed, p.depth, id, now, last, at)
				}
				resv[id] = at
			}
			s := &enginetest.Recorder{}
			c, _ := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: b, Source: workload.FromSlice(jobs), Listener: s})
			if err := c.Run(); err != nil {
				t.Fatalf("seed %d depth %d order %v: %v", seed, p.depth, p.order, err)
			}
			if err := validate.Check(in, s.Recs(), validate.Options{Procs: procs, Kill: true}); err != nil {
				t.Fatalf("seed %d depth %d order %v: %v", seed, p.depth, p.order, err)
			}
			for _, rec := range s.Recs() {
				if at, ok := resv[job.ID(rec.ID)]; ok && rec.Start > at && keeps {
					t.Fatalf("seed %d depth %d: job %d started at %g after its reservation %g", seed, p.depth, rec.ID, rec.Start, at)
				}
			}
		}
	}
}
