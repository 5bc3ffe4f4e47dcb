package backfill

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
)

// planMix draws a workload for the planners: widths from one CPU to the
// whole machine, zero runtimes and estimates, jobs ending early, exactly
// on their estimate and (with overrun) past it, bursts at one instant,
// integer times, users and groups for the multifactor order, ids
// sometimes out of submit order; one workload in three has a long burst
// that queues hundreds of jobs (the EASY planner's queue index turns on
// from 256 and off again as the queue drains).
func planMix(r *rand.Rand, overrun bool) ([]actual.Job, int) {
	procs := 1 + r.IntN(32)
	n := 20 + r.IntN(120)
	long := r.IntN(3) == 0
	if long {
		n = 350 + r.IntN(150)
	}
	var jobs []actual.Job
	t := 0.0
	for i := range n {
		switch {
		case long && i > n/2 && r.IntN(80) == 0:
			t += float64(1000 + r.IntN(2000)) // the queue drains
		case !long && r.IntN(3) == 0, long && r.IntN(25) == 0:
			t += float64(r.IntN(15))
		}
		p := 1 + r.IntN(procs)
		switch r.IntN(6) {
		case 0:
			p = procs
		case 1:
			p = 1
		}
		run := float64(r.IntN(60))
		if r.IntN(8) == 0 {
			run = 0
		}
		est := run
		switch r.IntN(4) {
		case 0:
			est = run + float64(r.IntN(80))
		case 1:
			if overrun {
				est = float64(r.IntN(int(run) + 1))
			}
		case 2:
			if r.IntN(3) == 0 && (overrun || run == 0) {
				est = 0
			}
		}
		jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: t, Procs: p,
			Runtime: run, Estimate: est, Request: est, User: int32(r.IntN(4)), Group: int32(r.IntN(2))})
	}
	if r.IntN(3) == 0 {
		for i, k := range r.Perm(n) {
			jobs[i].ID = job.ID(k + 1)
		}
	}
	return jobs, procs
}

// planCase is one engine configuration on one machine of procs CPUs,
// built with the planner kind (planProfile: the reference).
type planCase struct {
	name  string
	build func(t *testing.T, procs int, kind planKind) *Backfill
	// kinds are the planners held to the profile planner on it.
	kinds []planKind
}

func oneMachine(depth int, order Order) func(*testing.T, int, planKind) *Backfill {
	return func(_ *testing.T, procs int, kind planKind) *Backfill {
		return newBackfillPlanned("test", procs, depth, order, kind)
	}
}

func multifactorOn(depth int) func(*testing.T, int, planKind) *Backfill {
	return func(t *testing.T, procs int, kind planKind) *Backfill {
		b := newBackfillPlanned("test", procs, depth, OrderMultifactor, kind)
		b.mf = newMultifactor(Multifactor{WeightAge: 500, WeightFairshare: 1000, WeightJobSize: 300,
			MaxAge: 200, DecayHalfLife: 100, FavorSmall: true}, procs)
		return b
	}
}

func flexibleOn(t *testing.T, procs int, kind planKind) *Backfill {
	p, err := platform.New([]platform.Machine{{CPUs: procs}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := newBackfillMulti(MultiConfig{Name: "flexible", Platform: p, Depth: 1, Order: OrderPriority, Pick: PickFastest}, kind)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// planRun is what a run shows of its planner: the starts (id, time,
// reason, CPUs) in order and every reservation made or kept.
type planRun struct{ log, resv []string }

func runPlanned(t *testing.T, p platform.Platform, pol *Backfill, jobs []actual.Job, cont bool) planRun {
	t.Helper()
	var out planRun
	pol.OnReserve = func(now float64, id job.ID, at float64) {
		out.resv = append(out.resv, fmt.Sprintf("%g:%d@%g", now, id, at))
	}
	out.log = enginetest.RunCluster(t, p, pol, jobs, enginetest.Options{Continue: cont}).Log()
	return out
}

func kindName(k planKind) string {
	return map[planKind]string{planProfile: "profile", planMulti: "multi", planEasy: "easy"}[k]
}

// Every planner gives the profile planner's schedule: on random
// workloads (fixed seeds), for every configuration it can plan, the same
// starts (time, reason, CPUs) in the same order and the same
// reservations made or kept at every pass. The EASY planner (with its
// queue index on the long workloads) and the multi-machine planner (on a
// platform of one machine) against the profile planner; EASY, hybrid
// and conservative in FCFS and SJF order, the multifactor order, and
// Flexible backfilling's priority. With the tag invariants the reference
// is the plain profile planner: its memos and the driver's arrivals-only
// shortcut switched off (plainReference).
func TestEveryPlannerIsTheProfilePlanner(t *testing.T) {
	cases := []planCase{
		{"easy fcfs", oneMachine(1, OrderFCFS), []planKind{planEasy, planMulti}},
		{"easy sjf", oneMachine(1, OrderSJF), []planKind{planEasy, planMulti}},
		{"depth 2 fcfs", oneMachine(2, OrderFCFS), []planKind{planMulti}},
		{"depth 3 sjf", oneMachine(3, OrderSJF), []planKind{planMulti}},
		{"conservative fcfs", oneMachine(Unlimited, OrderFCFS), []planKind{planMulti}},
		{"conservative sjf", oneMachine(Unlimited, OrderSJF), []planKind{planMulti}},
		{"easy multifactor", multifactorOn(1), []planKind{planMulti}},
		{"conservative multifactor", multifactorOn(Unlimited), []planKind{planMulti}},
		{"flexible", flexibleOn, []planKind{planMulti}},
	}
	seeds := uint64(90)
	if testing.Short() {
		seeds = 30
	}
	compared, reservations, indexed := map[planKind]int{}, 0, 0
	refName := ""
	for seed := uint64(1); seed <= seeds; seed++ {
		r := rand.New(rand.NewPCG(seed, 3939))
		overrun := seed%2 == 0
		jobs, procs := planMix(r, overrun)
		p := platform.MustCluster(procs)
		for _, c := range cases {
			refPol := c.build(t, procs, planProfile)
			refName = plainReference(refPol)
			ref := runPlanned(t, p, refPol, jobs, overrun)
			for _, k := range c.kinds {
				pol := c.build(t, procs, k)
				if got := kindName(plannerKind(pol.pl)); got != kindName(k) {
					t.Fatalf("%s: built with the %s planner, want %s", c.name, got, kindName(k))
				}
				got := runPlanned(t, p, pol, jobs, overrun)
				what := fmt.Sprintf("seed %d %s overrun %v: the %s planner", seed, c.name, overrun, kindName(k))
				samePlan(t, what+", starts", got.log, ref.log)
				samePlan(t, what+", reservations", got.resv, ref.resv)
				compared[k]++
				reservations += len(got.resv)
				if ez, ok := pol.pl.(*easyPlanner); ok && ez.ix.n > 0 {
					indexed++ // the queue index was built in this run
				}
			}
		}
	}
	if compared[planEasy] == 0 || compared[planMulti] == 0 || reservations < 1000 || indexed < 4 {
		t.Fatalf("not exercised: %v runs compared, %d reservations, %d runs with the queue index", compared, reservations, indexed)
	}
	t.Logf("against %s: runs compared: %d EASY, %d multi-machine (%d with the queue index); %d reservations made or kept",
		refName, compared[planEasy], compared[planMulti], indexed, reservations)
}

// Over several machines, a machine that can hold none of the jobs (too
// slow for the speed they require) changes nothing: the multi-machine
// planner over it and the one machine that can gives the profile
// planner's schedule on that machine alone, with either machine choice.
func TestMultiPlannerIgnoresUnusableMachine(t *testing.T) {
	seeds := uint64(60)
	if testing.Short() {
		seeds = 20
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		r := rand.New(rand.NewPCG(seed, 1717))
		overrun := seed%2 == 0
		jobs, procs := planMix(r, overrun)
		for i := range jobs {
			jobs[i].Speed = 1
		}
		one, err := platform.New([]platform.Machine{{CPUs: procs}})
		if err != nil {
			t.Fatal(err)
		}
		two, err := platform.New([]platform.Machine{{CPUs: procs}, {CPUs: 2 * procs, Speed: 0.5}})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []int{1, 2, Unlimited} {
			for _, pick := range []Pick{PickFirst, PickFastest} {
				ref, err := NewBackfillMulti(MultiConfig{Name: "one", Platform: one, Depth: d, Pick: pick})
				if err != nil {
					t.Fatal(err)
				}
				pol, err := NewBackfillMulti(MultiConfig{Name: "two", Platform: two, Depth: d, Pick: pick})
				if err != nil {
					t.Fatal(err)
				}
				if plannerKind(ref.pl) != planProfile || plannerKind(pol.pl) != planMulti {
					t.Fatal("the constructors do not choose the planners")
				}
				want, got := runPlanned(t, one, ref, jobs, overrun), runPlanned(t, two, pol, jobs, overrun)
				what := fmt.Sprintf("seed %d depth %d pick %v", seed, d, pick)
				samePlan(t, what+", starts", got.log, want.log)
				samePlan(t, what+", reservations", got.resv, want.resv)
			}
		}
	}
}

// plannerKind names p's type.
func plannerKind(p planner) planKind {
	switch p.(type) {
	case *profilePlanner:
		return planProfile
	case *multiPlanner:
		return planMulti
	case *easyPlanner:
		return planEasy
	}
	return planAuto
}

func samePlan(t *testing.T, what string, got, want []string) {
	t.Helper()
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("%s: line %d is %s, the profile planner's %s", what, i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, the profile planner %d", what, len(got), len(want))
	}
}
