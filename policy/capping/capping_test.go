package capping_test

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/powercap"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/capping"
	"github.com/schedlab/schedlab/validate"
)

var model = powercap.Model{IdleW: 10, ComputeW: 30} // 4 CPUs: 40 W idle, +20 W a busy CPU

func easy() policy.QueueScheduler { return backfill.NewBackfill("easy", 4, 1, backfill.OrderFCFS) }

// run runs inner under the layer and the kernel's cap of the steps on 4
// CPUs, and returns the starts by job and the layer.
func run(t *testing.T, inner policy.QueueScheduler, times, watts []float64, jobs []actual.Job) (map[job.ID]float64, *capping.Capper) {
	t.Helper()
	plat := platform.MustCluster(4)
	c, err := capping.New(inner, times, watts, model, plat)
	if err != nil {
		t.Fatal(err)
	}
	r := enginetest.RunCluster(t, plat, c, jobs, enginetest.Options{Cap: &engine.PowerCap{Times: times, Watts: watts, Model: model}})
	r.Check(t, jobs, validate.Options{Procs: 4, Kill: true})
	got := map[job.ID]float64{}
	for _, s := range r.Starts {
		got[s.ID] = s.At
	}
	return got, c
}

func want(t *testing.T, got, w map[job.ID]float64) {
	t.Helper()
	for id, at := range w {
		if g, ok := got[id]; !ok || g != at {
			t.Errorf("job %d starts at %v (started: %v), want %g", id, g, ok, at)
		}
	}
	if len(got) != len(w) {
		t.Errorf("%d jobs started, want %d", len(got), len(w))
	}
}

// The example: 4 CPUs at 10 W idle and 30 W computing, a cap of
// 90 W: the idle machine draws 40 W and each busy CPU 20 W more, so the
// cap allows (90 - 40) / 20 = 2.5, i.e. 2 busy CPUs (powercap.MaxBusy).
// Jobs A (1 CPU, 100 s) and B (1 CPU, 50 s) at 0 run at once: 40 + 20 +
// 20 = 80 W. C (1 CPU, 30 s) at 10 would make 100 W > 90 W: it waits,
// with 2 CPUs idle, until B ends at 50, and runs [50, 80). Held: 40 s
// (10 to 50), 2 idle CPUs kept from C: 80 CPU-s.
func TestCapDelaysAJobByHand(t *testing.T) {
	for name, inner := range map[string]func() policy.QueueScheduler{"easy": easy, "fcfs": func() policy.QueueScheduler { return backfill.NewFCFS() },
		"conservative": func() policy.QueueScheduler {
			return backfill.NewBackfill("conservative", 4, math.MaxInt32, backfill.OrderFCFS)
		}} {
		t.Run(name, func(t *testing.T) {
			jobs := []actual.Job{enginetest.Job(1, 0, 1, 100, 100), enginetest.Job(2, 0, 1, 50, 50), enginetest.Job(3, 10, 1, 30, 30)}
			got, c := run(t, inner(), []float64{0}, []float64{90}, jobs)
			want(t, got, map[job.ID]float64{1: 0, 2: 0, 3: 50})
			if c.Allow(0) != 2 || c.HeldS() != 40 || c.HeldCPUS() != 80 || c.Rejected() != 0 {
				t.Errorf("allow %d, held %g s, %g CPU-s, %d rejected; want 2, 40, 80, 0", c.Allow(0), c.HeldS(), c.HeldCPUS(), c.Rejected())
			}
		})
	}
	// Without the cap, C starts at its submission.
	r := enginetest.RunCluster(t, platform.MustCluster(4), easy(), []actual.Job{enginetest.Job(1, 0, 1, 100, 100), enginetest.Job(2, 0, 1, 50, 50), enginetest.Job(3, 10, 1, 30, 30)}, enginetest.Options{})
	if r.Starts[2].At != 10 {
		t.Errorf("uncapped: C starts at %g, want 10", r.Starts[2].At)
	}
}

// A window: no cap before 100 and after 200, 60 W over [100, 200): 1
// busy CPU ((60 - 40) / 20). EASY, queue J1..J5 all at 0:
//
//	J1 2 CPUs, 50 s:  [0, 50) is before the window: starts at 0.
//	J2 2 CPUs, 150 s: any start before 200 puts 2 busy CPUs in the
//	                  window (allowed 1): the head, reserved at 200.
//	J3 1 CPU, 60 s:   [0, 60): 2 + 1 busy of 4, clear of the window and of
//	                  J2's reservation: backfilled at 0.
//	J4 1 CPU, 120 s:  [0, 120): 4 busy over [0, 50), 1 over [100, 120)
//	                  (J1 and J3 ended): within the window's 1: backfilled
//	                  at 0 (uncapped, J2 would have started at 0 instead).
//	J5 1 CPU, 100 s:  no CPU at 0; at 50, 60 (ends) and 100 (the cap's
//	                  change) [t, t + 100) meets J4 in the window (2 > 1);
//	                  at 120 (J4 ends) [120, 220) has 1 busy in the window
//	                  and 3 with J2 after 200: backfilled at 120.
//	J2 starts at 200, its reservation, when the window ends (a pass: the
//	cap's change).
//
// The kernel checks every instant: at 100 the machine draws 40 + 20 =
// 60 W (J4), the cap.
func TestCapWindowWithEASYByHand(t *testing.T) {
	inf := math.Inf(1)
	jobs := []actual.Job{enginetest.Job(1, 0, 2, 50, 50), enginetest.Job(2, 0, 2, 150, 150), enginetest.Job(3, 0, 1, 60, 60),
		enginetest.Job(4, 0, 1, 120, 120), enginetest.Job(5, 0, 1, 100, 100)}
	got, c := run(t, easy(), []float64{0, 100, 200}, []float64{inf, 60, inf}, jobs)
	want(t, got, map[job.ID]float64{1: 0, 3: 0, 4: 0, 5: 120, 2: 200})
	if c.Allow(0) != 4 || c.Allow(1) != 1 || c.Allow(2) != 4 {
		t.Errorf("allow %d %d %d, want 4 1 4", c.Allow(0), c.Allow(1), c.Allow(2))
	}
}

// The same window under FCFS, which plans the cap from the horizons
// alone (no profile): J1 starts at 0; J2, the head, needs 2 CPUs clear
// of the window until 150 (the horizons of the 4 idle CPUs at 0: 100,
// 100, 100 and +Inf, less J1's two) and waits until 200; then J3 and J4
// start at 200 (4 CPUs busy, no cap) and J5 at J3's end, 260.
func TestCapWindowWithFCFSByHand(t *testing.T) {
	inf := math.Inf(1)
	jobs := []actual.Job{enginetest.Job(1, 0, 2, 50, 50), enginetest.Job(2, 0, 2, 150, 150), enginetest.Job(3, 0, 1, 60, 60),
		enginetest.Job(4, 0, 1, 120, 120), enginetest.Job(5, 0, 1, 100, 100)}
	got, _ := run(t, backfill.NewFCFS(), []float64{0, 100, 200}, []float64{inf, 60, inf}, jobs)
	want(t, got, map[job.ID]float64{1: 0, 2: 200, 3: 200, 4: 200, 5: 260})
}

// A job that needs more than the highest cap on an idle machine is
// rejected at the pass after its submission: 4 CPUs at 90 W allow 2, a
// 3-CPU job would draw 100 W.
func TestCapRejectsWhatNeverFits(t *testing.T) {
	jobs := []actual.Job{enginetest.Job(1, 0, 3, 10, 10), enginetest.Job(2, 0, 1, 10, 10)}
	plat := platform.MustCluster(4)
	c, err := capping.New(easy(), []float64{0}, []float64{90}, model, plat)
	if err != nil {
		t.Fatal(err)
	}
	r, err := enginetest.Run(plat, c, jobs, enginetest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Rejected() != 1 || len(r.Starts) != 1 || r.Starts[0].ID != 2 {
		t.Errorf("rejected %d, starts %+v: want job 1 rejected, job 2 started", c.Rejected(), r.Starts)
	}
}

func TestNewErrors(t *testing.T) {
	two, err := platform.New([]platform.Machine{{CPUs: 2}, {CPUs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := capping.New(easy(), []float64{0}, []float64{90}, model, two); err == nil {
		t.Error("two machines: no error")
	}
	if _, err := capping.New(easy(), []float64{0}, []float64{39}, model, platform.MustCluster(4)); err == nil {
		t.Error("a cap below the idle draw: no error")
	}
}
