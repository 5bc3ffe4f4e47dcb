package backfill

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/validate"
)

// userMix draws a workload with a few users whose runtimes repeat
// loosely (so that predictions from history are sometimes right, often
// short, sometimes long), requests above the runtime, exactly on it and
// (killed, or with cont running on) below it, bursts of arrivals and
// integer times, some users unknown.
func userMix(r *rand.Rand) ([]actual.Job, int) {
	procs := 2 + r.IntN(30)
	n := 30 + r.IntN(120)
	users := 1 + r.IntN(6)
	typical := make([]float64, users)
	for u := range typical {
		typical[u] = float64(1 + r.IntN(400))
	}
	var jobs []actual.Job
	t := 0.0
	for i := range n {
		if r.IntN(3) == 0 {
			t += float64(r.IntN(40))
		}
		u := int32(r.IntN(users))
		run := math.Round(typical[u] * (0.2 + 2*r.Float64()))
		if r.IntN(10) == 0 {
			run = 0
		}
		req := run + float64(r.IntN(3000))
		switch r.IntN(6) {
		case 0:
			req = run
		case 1:
			req = math.Floor(run / 2) // killed at it (or runs on)
		}
		if r.IntN(8) == 0 {
			u = -1
		}
		jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: t, Procs: 1 + r.IntN(procs),
			Runtime: run, Estimate: req, Request: req, User: u, Group: -1})
	}
	return jobs, procs
}

type predRun struct {
	log  []string // starts: id@time:reason:cpus
	resv []string // OnReserve: now:id@at
	pred *predict.Predictor
}

func runPredicted(t *testing.T, b *Backfill, par predict.Params, jobs []actual.Job, procs int, cont bool) *predRun {
	t.Helper()
	out := &predRun{pred: predict.New(b, par)}
	b.OnReserve = func(now float64, id job.ID, at float64) {
		out.resv = append(out.resv, fmt.Sprintf("%g:%d@%g", now, id, at))
	}
	r := enginetest.RunCluster(t, platform.MustCluster(procs), out.pred, jobs, enginetest.Options{Continue: cont})
	r.Check(t, jobs, validate.Options{Procs: procs, Kill: !cont})
	out.log = r.Log()
	return out
}

// With predictions and corrections (Reestimate at every predicted end),
// EASY's fast path and the profile give the same schedule - starts,
// reasons, CPUs - and the same reservations, in FCFS and SJF order, with
// both corrections and the partial reading, jobs killed at their request
// or running on; no schedule over-commits a CPU (the validator).
// (TestPredictedShortcutSameSchedule, hooks_test.go: conservative and
// depth-2 backfilling give the same schedule with and without the
// arrivals-only shortcut.)
func TestPredictedFastPathMatchesProfile(t *testing.T) {
	var corrections, corrected, predicted, reserves int64
	pars := []predict.Params{{}, {Correction: predict.Request}, {Partial: true}}
	for seed := uint64(1); seed <= 250; seed++ {
		r := rand.New(rand.NewPCG(seed, 25))
		jobs, procs := userMix(r)
		cont := seed%4 == 0
		par := pars[seed%3]
		what := fmt.Sprintf("seed %d %s cont %v", seed, par, cont)
		for _, order := range []Order{OrderFCFS, OrderSJF} {
			ref := runPredicted(t, newBackfill("easy", procs, 1, order, true), par, jobs, procs, cont)
			fast := runPredicted(t, newBackfill("easy", procs, 1, order, false), par, jobs, procs, cont)
			sameLines(t, what+" "+order.String()+" starts", fast.log, ref.log)
			sameLines(t, what+" "+order.String()+" reservations", fast.resv, ref.resv)
			if fast.pred.Corrections() != ref.pred.Corrections() {
				t.Fatalf("%s: %d corrections on the fast path, %d on the profile", what, fast.pred.Corrections(), ref.pred.Corrections())
			}
			corrections += fast.pred.Corrections()
			corrected += fast.pred.Corrected()
			predicted += fast.pred.Predicted()
			reserves += int64(len(fast.resv))
		}
	}
	if corrections < 2000 || corrected < 1000 || predicted < 5000 || reserves < 5000 {
		t.Fatalf("not exercised: %d corrections of %d jobs, %d predicted jobs, %d reservations", corrections, corrected, predicted, reserves)
	}
	t.Logf("%d corrections of %d jobs; %d jobs predicted from history; %d reservations made or kept", corrections, corrected, predicted, reserves)
}

// Random sequences of submissions, ends (early, on time, late), passes
// and Reestimate calls - later, earlier, before and after the pass that
// notices an overrun, with ends already past - drive the fast path and
// the profile side by side: every pass gives the same plan and leaves
// the same queue and reservations, and no plan starts a job on CPUs that
// are not free (the test keeps the machine's state itself).
func TestReestimateFastMatchesProfile(t *testing.T) {
	var calls, overrunCalls, staleCalls, rebuilds int
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 77))
		procs := 1 + r.IntN(24)
		order := []Order{OrderFCFS, OrderSJF}[seed%2]
		fast, ref := newBackfill("easy", procs, 1, order, false), newBackfill("easy", procs, 1, order, true)
		pols := []*Backfill{fast, ref}
		v := fixedView{platform.MustCluster(procs)}
		type runJob struct {
			end   float64 // when the "kernel" ends it
			procs int
		}
		running := map[job.ID]runJob{}
		free := procs
		now := 0.0
		next := job.ID(1)
		var plans [2]policy.Plan
		for step := range 200 {
			now += float64(r.IntN(8))
			// Ends at or before now, in id order (the kernel batches
			// them at their instants; here several instants may fold
			// into one, which only makes the ends later than planned).
			for _, id := range endedBy(running, now, func(j runJob) float64 { return j.end }) {
				for _, b := range pols {
					b.Finish(now, id)
				}
				free += running[id].procs
				delete(running, id)
			}
			for range r.IntN(3) {
				var est float64
				switch r.IntN(4) {
				case 0:
					est = 0
				default:
					est = float64(r.IntN(60))
				}
				j := job.Info{ID: next, Submit: now, Procs: 1 + r.IntN(procs), Estimate: est, User: -1}
				next++
				for _, b := range pols {
					b.Submit(now, j)
				}
			}
			// Reestimate some running jobs, in id order.
			var live []job.ID
			for id := range running {
				live = append(live, id)
			}
			slices.Sort(live)
			for _, id := range live {
				if r.IntN(3) != 0 {
					continue
				}
				rr, _ := fast.running.Get(id)
				est := float64(r.IntN(120))
				if r.IntN(10) == 0 {
					est = math.NaN() // ignored
				}
				calls++
				if rr.overrun {
					overrunCalls++
				} else if rr.estEnd <= now {
					staleCalls++ // past its end, the overrun not noticed yet
				}
				for _, b := range pols {
					b.Reestimate(now, id, est)
				}
				if fast.rebuild {
					rebuilds++ // calls that leave a rebuild pending
				}
				if fast.rebuild != ref.rebuild || fast.nOver != ref.nOver {
					t.Fatalf("seed %d step %d: Reestimate(%d, %g): rebuild %v/%v, overrunning CPUs %d/%d", seed, step, id, est,
						fast.rebuild, ref.rebuild, fast.nOver, ref.nOver)
				}
			}
			for i, b := range pols {
				plans[i].Reset()
				b.Schedule(now, v, &plans[i])
			}
			if a, b := fmt.Sprint(plans[0].Starts), fmt.Sprint(plans[1].Starts); a != b {
				t.Fatalf("seed %d step %d t=%g: fast path starts %s, profile %s", seed, step, now, a, b)
			}
			if a, b := fmt.Sprint(fast.Queue()), fmt.Sprint(ref.Queue()); a != b {
				t.Fatalf("seed %d step %d t=%g: fast path leaves %s, profile %s", seed, step, now, a, b)
			}
			for _, s := range plans[0].Starts {
				rr, _ := fast.running.Get(s.ID)
				free -= rr.procs
				if free < 0 {
					t.Fatalf("seed %d step %d t=%g: job %d over-commits the CPUs", seed, step, now, s.ID)
				}
				// Its true runtime: around its estimate, often past it.
				end := now + float64(r.IntN(80))
				running[s.ID] = runJob{end: end, procs: rr.procs}
			}
		}
	}
	if calls < 10000 || overrunCalls < 1000 || staleCalls < 100 || rebuilds < 1000 {
		t.Fatalf("not exercised: %d calls, %d on overrunning jobs, %d on jobs past their end not yet noticed, %d rebuilds",
			calls, overrunCalls, staleCalls, rebuilds)
	}
	t.Logf("%d Reestimate calls: %d on overrunning jobs, %d on jobs past their end not yet noticed; %d rebuilds", calls, overrunCalls, staleCalls, rebuilds)
}

type fixedView struct{ p platform.Platform }

func (v fixedView) Platform() platform.Platform { return v.p }
func (v fixedView) Free(m int) int              { return 0 } // the engine reads its own state

// endedBy returns, in id order, the jobs of running (a test driver's
// running jobs) whose end, as end reads it, is at or before now.
func endedBy[V any](running map[job.ID]V, now float64, end func(V) float64) []job.ID {
	var ids []job.ID
	for id, j := range running {
		if end(j) <= now {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}
