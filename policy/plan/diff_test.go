package plan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// twin drives the policy and the naive reference with the same calls and
// compares them after every call: the machines' lists, every planned
// start and end, the jobs each pass starts, and the Tabu moves accepted.
type twin struct {
	t     *testing.T
	seed  uint64
	fast  *Planner
	ref   *naive
	moves []float64
	err   error
}

func (w *twin) Name() string { return w.fast.Name() }

func (w *twin) check(now float64, what string) {
	if w.err != nil {
		return
	}
	want := w.ref.plans(now)
	for m := range want {
		if got := w.fast.Plan(m); !slices.Equal(got, want[m]) {
			w.err = fmt.Errorf("seed %d, t=%g, after %s: machine %d plan\n got  %s\n want %s",
				w.seed, now, what, m, formatPlan(got), formatPlan(want[m]))
			return
		}
	}
	if !slices.Equal(w.moves, w.ref.accepted) {
		w.err = fmt.Errorf("seed %d, t=%g, after %s: accepted Tabu moves %v, want %v", w.seed, now, what, w.moves, w.ref.accepted)
	}
}

func (w *twin) Submit(now float64, j job.Info) {
	w.fast.Submit(now, j)
	w.ref.Submit(now, j)
	w.check(now, fmt.Sprintf("submit of job %d", j.ID))
}

func (w *twin) Finish(now float64, id job.ID) {
	w.fast.Finish(now, id)
	w.ref.Finish(now, id)
	w.check(now, fmt.Sprintf("finish of job %d", id))
}

func (w *twin) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	var ref policy.Plan
	w.ref.Schedule(now, v, &ref)
	w.fast.Schedule(now, v, plan)
	if w.err == nil && !slices.EqualFunc(plan.Starts, ref.Starts, func(a, b policy.Start) bool {
		return a.ID == b.ID && a.Machine == b.Machine && a.Reason == b.Reason && a.CPUs == nil && b.CPUs == nil
	}) {
		w.err = fmt.Errorf("seed %d, t=%g: pass starts %v, want %v", w.seed, now, plan.Starts, ref.Starts)
	}
	w.check(now, "the pass")
}

// The policy makes, decision by decision, the same choices as the naive
// reference, which rebuilds every plan from scratch CPU by CPU and
// evaluates every candidate on the whole schedule (no incremental plan,
// no early exit, no memo): on hundreds of random workloads, for EG-EDF and
// for Tabu search with default and small budgets.
func TestMatchesNaive(t *testing.T) {
	cfgs := []struct {
		name string
		o    Options
	}{
		{"eg-edf", Options{}},
		{"tabu", Options{Tabu: true}},
		{"tabu-3-1", Options{Tabu: true, Iterations: 3, TabuLength: 1}},
		{"tabu-len-1", Options{Tabu: true, TabuLength: 1}},
		{"tabu-random", Options{Tabu: true, Order: OrderRandom}},
		{"tabu-every-3", Options{Tabu: true, Trigger: EveryN, Every: 3}},
		{"tabu-interval-7", Options{Tabu: true, Trigger: Interval, Interval: 7, Order: OrderRandom}},
		{"eg-edf-ties-end", Options{Ties: TieEnd}},
		{"tabu-ties-end", Options{Tabu: true, Ties: TieEnd}},
		{"eg-edf-tail", Options{Gaps: GapTail}},
		{"eg-edf-tail-end", Options{Gaps: GapTail, Ties: TieEnd}},
		{"tabu-tail-end", Options{Tabu: true, Gaps: GapTail, Ties: TieEnd}},
		{"eg-edf-deadline", Options{Suitable: SuitDeadline}},
		{"eg-edf-deadline-tail-end", Options{Suitable: SuitDeadline, Gaps: GapTail, Ties: TieEnd}},
		{"tabu-late", Options{Tabu: true, Pick: PickLastLate}},
		{"tabu-deadline-late", Options{Tabu: true, Suitable: SuitDeadline, Pick: PickLastLate}},
		{"tabu-deadline-tail-end-late", Options{Tabu: true, Suitable: SuitDeadline, Pick: PickLastLate, Gaps: GapTail, Ties: TieEnd}},
		{"tabu-deadline-tail-end-late-1", Options{Tabu: true, Suitable: SuitDeadline, Pick: PickLastLate, Gaps: GapTail, Ties: TieEnd, TabuLength: 1}},
	}
	counts := map[string]Stats{}
	for seed := uint64(1); seed <= 400; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		ms, jobs := randomCase(r)
		plat, err := platform.New(ms)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cfgs {
			fast, err := NewEGEDF(plat, c.o, rand.New(rand.NewPCG(seed, 99)))
			if err != nil {
				t.Fatal(err)
			}
			w := &twin{t: t, seed: seed, fast: fast, ref: newNaive(plat, c.o, rand.New(rand.NewPCG(seed, 99)))}
			fast.OnMove = func(m Move) { w.moves = append(w.moves, m.Weight) }
			run(t, ms, jobs, w, nil)
			if w.err != nil {
				t.Fatalf("%s: %v", c.name, w.err)
			}
			s := counts[c.name]
			st := fast.Stats()
			s.Gap += st.Gap
			s.EDF += st.EDF
			s.TabuMoves += st.TabuMoves
			s.TabuIterations += st.TabuIterations
			counts[c.name] = s
		}
	}
	// The random cases exercise both branches of EG-EDF and accepted
	// moves. With tail gaps every machine that holds a job has a gap, so
	// EDF insertion never happens (every random job fits some machine)
	// unless a gap must also meet the job's deadline.
	for _, c := range cfgs {
		s := counts[c.name]
		t.Logf("%s: %d gap decisions, %d EDF decisions, %d Tabu iterations, %d moves", c.name, s.Gap, s.EDF, s.TabuIterations, s.TabuMoves)
		wantEDF := c.o.Gaps == GapFinite || c.o.Suitable == SuitDeadline
		if s.Gap == 0 || (s.EDF > 0) != wantEDF || c.o.Tabu && s.TabuMoves == 0 {
			t.Errorf("%s: a branch was never exercised (or EDF with tail gaps): %+v", c.name, s)
		}
	}
}
