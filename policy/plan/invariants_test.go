package plan

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// rec is a finished job as the model reports it.
type rec struct {
	id         job.ID
	machine    int
	cpus       platform.Runs
	start, end float64
	job        actual.Job
}

// recsOf lists the jobs r saw end (finished or killed), in end order.
func recsOf(r *enginetest.Recorder) []rec {
	out := make([]rec, len(r.Ends))
	for i, e := range r.Ends {
		out[i] = rec{e.Job.ID, e.Machine, e.CPUs, e.Start, e.End, e.Job}
	}
	return out
}

// honest wraps the policy and checks, at every pass, that its plans are
// what happens: a job starts in a pass if and only if it is planned to
// start at that instant, on its planned machine; no planned start is in
// the past; and a plan changes only at a decision (an arrival): with exact
// estimates, ends and starts are exactly as planned, so nothing in
// between may move a planned start. Tabu moves must have weight > 0.
type honest struct {
	*Planner
	prev    map[job.ID]Planned // plans after the previous pass
	planned map[job.ID]float64 // start planned for each job when it started
	pos     map[job.ID]int     // planned machine
	arrived bool
	err     error
}

func newHonest(p *Planner) *honest {
	h := &honest{Planner: p, prev: map[job.ID]Planned{}, planned: map[job.ID]float64{}, pos: map[job.ID]int{}}
	p.OnMove = func(m Move) {
		if !(m.Weight > 0) && h.err == nil {
			h.err = fmt.Errorf("t=%g: Tabu accepted job %d from %d to %d with weight %g", m.Now, m.ID, m.From, m.To, m.Weight)
		}
	}
	return h
}

func (h *honest) fail(format string, a ...any) {
	if h.err == nil {
		h.err = fmt.Errorf(format, a...)
	}
}

func (h *honest) Submit(now float64, j job.Info) {
	h.arrived = true
	h.Planner.Submit(now, j)
}

func (h *honest) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	cur := map[job.ID]Planned{}
	for m := range v.Platform().Machines() {
		for _, p := range h.Plan(m) {
			cur[p.ID] = p
			h.pos[p.ID] = m
			if p.Start < now {
				h.fail("t=%g: job %d planned to start in the past, at %g", now, p.ID, p.Start)
			}
		}
	}
	if !h.arrived {
		for id, p := range cur {
			if q, ok := h.prev[id]; !ok || q != p {
				h.fail("t=%g: no arrival, yet job %d's plan changed from %+v to %+v", now, id, q, p)
			}
		}
	}
	h.arrived = false
	h.Planner.Schedule(now, v, plan)
	for _, s := range plan.Starts {
		p, ok := cur[s.ID]
		switch {
		case !ok:
			h.fail("t=%g: job %d started without a plan", now, s.ID)
		case p.Start != now || h.pos[s.ID] != s.Machine:
			h.fail("t=%g: job %d started on machine %d, planned at %g on machine %d", now, s.ID, s.Machine, p.Start, h.pos[s.ID])
		}
		h.planned[s.ID] = p.Start
		delete(cur, s.ID)
	}
	for id, p := range cur {
		if p.Start == now {
			h.fail("t=%g: job %d planned to start now did not start", now, id)
		}
	}
	h.prev = cur
}

// checkRun checks a finished run: every job ran once, on one machine
// that can hold it, on CPUs of that machine, for runtime x BM_est / BM_m,
// at its planned start; no CPU held by two jobs at once; the policy's
// count of jobs finished by their deadline is right.
func checkRun(ms []platform.Machine, jobs []actual.Job, recs []rec, h *honest) error {
	if h.err != nil {
		return h.err
	}
	if len(recs) != len(jobs) {
		return fmt.Errorf("%d jobs finished, %d submitted", len(recs), len(jobs))
	}
	plat, _ := platform.New(ms)
	type span struct{ s, e float64 }
	perCPU := map[int32][]span{}
	onTime := 0
	for _, r := range recs {
		m := ms[r.machine]
		if r.job.Procs > m.CPUs || r.cpus.Count() != r.job.Procs {
			return fmt.Errorf("job %d (%d CPUs) on machine %d of %d CPUs, given %v", r.id, r.job.Procs, r.machine, m.CPUs, r.cpus)
		}
		for k := 0; k < len(r.cpus); k += 2 {
			for c := r.cpus[k]; c <= r.cpus[k+1]; c++ {
				if plat.MachineOf(int(c)) != r.machine {
					return fmt.Errorf("job %d on machine %d holds CPU %d of machine %d", r.id, r.machine, c, plat.MachineOf(int(c)))
				}
				perCPU[c] = append(perCPU[c], span{r.start, r.end})
			}
		}
		want := r.job.Runtime * r.job.BMEst / m.BM()
		if d := r.end - r.start; r.end != r.start+m.Duration(r.job.Runtime, r.job.BMEst) || math.Abs(d-want) > 1e-9*want {
			return fmt.Errorf("job %d ran [%g,%g) on machine %d, want a duration of %g x %g / %g = %g",
				r.id, r.start, r.end, r.machine, r.job.Runtime, r.job.BMEst, m.BM(), want)
		}
		if p, ok := h.planned[r.id]; !ok || p != r.start {
			return fmt.Errorf("job %d started at %g, planned at %g", r.id, r.start, p)
		}
		if r.start < r.job.Submit {
			return fmt.Errorf("job %d started at %g before its submission %g", r.id, r.start, r.job.Submit)
		}
		if r.end <= r.job.DeadlineOrInf() {
			onTime++
		}
	}
	for c, spans := range perCPU {
		slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.s, b.s) })
		for k := 1; k < len(spans); k++ {
			if spans[k].s < spans[k-1].e {
				return fmt.Errorf("CPU %d held twice: [%g,%g) and [%g,%g)", c, spans[k-1].s, spans[k-1].e, spans[k].s, spans[k].e)
			}
		}
	}
	if got := h.FinishedOnTime(); got != onTime || h.Nondelayed() != onTime {
		return fmt.Errorf("policy counts %d jobs finished on time (nondelayed %d), the records %d", got, h.Nondelayed(), onTime)
	}
	return nil
}

// Invariants on random runs through the real central-queue model, for
// EG-EDF and for Tabu search in index and random machine order: small
// random cases with many same-instant events, and the paper's workload on
// 20 machines at three loads.
func TestInvariants(t *testing.T) {
	type cfg struct {
		name string
		o    Options
	}
	cfgs := []cfg{{"eg-edf", Options{}}, {"tabu", Options{Tabu: true}},
		{"tabu-random", Options{Tabu: true, Order: OrderRandom}},
		{"tabu-every-5", Options{Tabu: true, Trigger: EveryN, Every: 5, Iterations: 7, TabuLength: 3}}}
	type workload struct {
		name string
		ms   []platform.Machine
		jobs []actual.Job
	}
	var cases []workload
	for seed := uint64(1); seed <= 200; seed++ {
		ms, jobs := randomCase(rand.New(rand.NewPCG(seed, 21)))
		cases = append(cases, workload{fmt.Sprintf("random %d", seed), ms, jobs})
	}
	for seed := uint64(1); seed <= 3; seed++ {
		for _, iat := range []float64{20, 40, 80} {
			ms, jobs := paperCase(rand.New(rand.NewPCG(seed, 22)), 20, 300, iat)
			cases = append(cases, workload{fmt.Sprintf("paper %d iat %g", seed, iat), ms, jobs})
		}
	}
	moves := map[string]int64{}
	for _, w := range cases {
		plat, _ := platform.New(w.ms)
		for _, c := range cfgs {
			p, err := NewEGEDF(plat, c.o, rand.New(rand.NewPCG(5, 5)))
			if err != nil {
				t.Fatal(err)
			}
			h := newHonest(p)
			r := &enginetest.Recorder{}
			run(t, w.ms, w.jobs, h, r)
			if err := checkRun(w.ms, w.jobs, recsOf(r), h); err != nil {
				t.Fatalf("%s, %s: %v", w.name, c.name, err)
			}
			moves[c.name] += p.Stats().TabuMoves
		}
	}
	for _, c := range cfgs[1:] {
		if moves[c.name] == 0 {
			t.Errorf("%s: no Tabu move accepted in any run", c.name)
		}
	}
}

// The same inputs and seeds give the same schedule and the same counts;
// the random machine order depends on its seed only.
func TestDeterminism(t *testing.T) {
	ms, jobs := paperCase(rand.New(rand.NewPCG(9, 9)), 30, 600, 30)
	plat, _ := platform.New(ms)
	once := func(o Options, seed uint64) ([]rec, Stats) {
		p, err := NewEGEDF(plat, o, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		r := &enginetest.Recorder{}
		run(t, ms, jobs, p, r)
		return recsOf(r), p.Stats()
	}
	same := func(a, b []rec) bool {
		return slices.EqualFunc(a, b, func(x, y rec) bool {
			return x.id == y.id && x.machine == y.machine && x.start == y.start && x.end == y.end && slices.Equal(x.cpus, y.cpus)
		})
	}
	for _, o := range []Options{{}, {Tabu: true}, {Tabu: true, Order: OrderRandom}} {
		r1, s1 := once(o, 1)
		r2, s2 := once(o, 1)
		if !same(r1, r2) || s1 != s2 {
			t.Errorf("%+v: two runs differ (stats %+v vs %+v)", o, s1, s2)
		}
	}
}

// With estimates that are not exact (outside the paper's model) the plans
// are no longer honest, but the policy stays valid: the model accepts
// every start and every job runs. Jobs end early (replanned at Finish) or
// overrun (their CPUs are planned free from now on, and the head of a
// list waits until they are really free).
func TestInexactEstimates(t *testing.T) {
	for seed := uint64(1); seed <= 150; seed++ {
		r := rand.New(rand.NewPCG(seed, 31))
		ms, jobs := randomCase(r)
		for i := range jobs {
			jobs[i].Runtime = math.Round(jobs[i].Estimate * (0.3 + 1.4*r.Float64()))
		}
		plat, _ := platform.New(ms)
		for _, o := range []Options{{}, {Tabu: true}} {
			for _, cont := range []bool{false, true} {
				for i := range jobs {
					jobs[i].Request = -1
					if !cont {
						jobs[i].Request = jobs[i].Estimate // killed at the estimate
					}
				}
				p, err := NewEGEDF(plat, o, nil)
				if err != nil {
					t.Fatal(err)
				}
				rc := &enginetest.Recorder{}
				c, err := engine.NewCluster(engine.ClusterConfig{Platform: plat, Policy: p, Source: workload.FromSlice(jobs), Listener: rc, Continue: cont})
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Run(); err != nil {
					t.Fatalf("seed %d, %+v, continue %v: %v", seed, o, cont, err)
				}
				if len(rc.Ends) != len(jobs) {
					t.Fatalf("seed %d: %d of %d jobs ran", seed, len(rc.Ends), len(jobs))
				}
			}
		}
	}
}
