package plan

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// harness plays the model by hand for hand-worked tests: it keeps the
// free CPUs of every machine and applies the policy's starts.
type harness struct {
	t     *testing.T
	p     *Planner
	plat  platform.Platform
	free  []int
	procs map[job.ID]int
	where map[job.ID]int
}

func newHarness(t *testing.T, ms []platform.Machine, o Options) *harness {
	t.Helper()
	plat, err := platform.New(ms)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewEGEDF(plat, o, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, p: p, plat: plat, procs: map[job.ID]int{}, where: map[job.ID]int{}}
	for m := range ms {
		h.free = append(h.free, ms[m].CPUs)
	}
	return h
}

type view struct {
	plat platform.Platform
	free []int
}

func (v view) Platform() platform.Platform { return v.plat }
func (v view) Free(m int) int              { return v.free[m] }

// submit submits a job of procs CPUs, estimate est at speed 1 and
// deadline dl (0: none).
func (h *harness) submit(now float64, id job.ID, procs int, est, dl float64) {
	h.procs[id] = procs
	h.p.Submit(now, job.Info{ID: id, Submit: now, Procs: procs, Estimate: est, Deadline: dl})
}

// schedule runs one pass and returns the starts as "id@m" in plan order.
func (h *harness) schedule(now float64) string {
	var plan policy.Plan
	h.p.Schedule(now, view{h.plat, h.free}, &plan)
	var out []string
	for _, s := range plan.Starts {
		if h.procs[s.ID] > h.free[s.Machine] {
			h.t.Fatalf("t=%g: job %d started on machine %d with %d CPUs free", now, s.ID, s.Machine, h.free[s.Machine])
		}
		h.free[s.Machine] -= h.procs[s.ID]
		h.where[s.ID] = s.Machine
		out = append(out, fmt.Sprintf("%d@%d", s.ID, s.Machine))
	}
	return strings.Join(out, " ")
}

func (h *harness) finish(now float64, id job.ID) {
	h.free[h.where[id]] += h.procs[id]
	h.p.Finish(now, id)
}

// plan formats machine m's plan as "id[start,end) ...".
func (h *harness) plan(m int) string { return formatPlan(h.p.Plan(m)) }

func formatPlan(ps []Planned) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%d[%g,%g)", p.ID, p.Start, p.End))
	}
	return strings.Join(out, " ")
}

func (h *harness) wantPlan(m int, want string) {
	h.t.Helper()
	if got := h.plan(m); got != want {
		h.t.Errorf("machine %d plan = %q, want %q", m, got, want)
	}
}

// randomCase draws a small platform and workload: integer times (many
// same-instant events), exact estimates (runtime = estimate), speeds from
// a small set so that durations tie, 70% of jobs with a deadline.
func randomCase(r *rand.Rand) ([]platform.Machine, []actual.Job) {
	nm := 1 + r.IntN(5)
	speeds := []float64{1, 2, 3}
	var ms []platform.Machine
	maxCPUs := 0
	for range nm {
		m := platform.Machine{CPUs: 1 + r.IntN(8), Speed: speeds[r.IntN(len(speeds))]}
		maxCPUs = max(maxCPUs, m.CPUs)
		ms = append(ms, m)
	}
	n := 5 + r.IntN(45)
	var jobs []actual.Job
	t := 0.0
	for i := range n {
		t += float64(r.IntN(4))
		est := float64(1 + r.IntN(30))
		j := actual.Job{ID: job.ID(i + 1), Submit: t, Procs: 1 + r.IntN(maxCPUs), Runtime: est, Estimate: est,
			Request: -1, BMEst: speeds[r.IntN(len(speeds))], User: -1, Group: -1}
		if r.IntN(10) < 7 {
			j.Deadline = t + float64(1+r.IntN(4))*est
		}
		jobs = append(jobs, j)
	}
	return ms, jobs
}

// paperCase draws the workload of docs/papers/klusacek2008.md (Klusáček 2008): machines
// with 1..16 CPUs at speed 200..600, jobs of 1..8 CPUs with Estimated
// 500..3000 at BM_est 200..600, 70% with deadline submit + U[2,4] x
// Estimated, exponential inter-arrival times of mean iat.
func paperCase(r *rand.Rand, machines, jobs int, iat float64) ([]platform.Machine, []actual.Job) {
	var ms []platform.Machine
	maxCPUs := 0
	for range machines {
		m := platform.Machine{CPUs: 1 + r.IntN(16), Speed: float64(200 + r.IntN(401))}
		maxCPUs = max(maxCPUs, m.CPUs)
		ms = append(ms, m)
	}
	var js []actual.Job
	t := 0.0
	for i := range jobs {
		t += r.ExpFloat64() * iat
		est := float64(500 + r.IntN(2501))
		j := actual.Job{ID: job.ID(i + 1), Submit: t, Procs: 1 + r.IntN(min(8, maxCPUs)), Runtime: est, Estimate: est,
			Request: -1, BMEst: float64(200 + r.IntN(401)), User: -1, Group: -1}
		if r.Float64() < 0.7 {
			j.Deadline = t + (2+2*r.Float64())*est
		}
		js = append(js, j)
	}
	return ms, js
}

// run simulates jobs on ms under pol through the real central-queue
// model.
func run(t testing.TB, ms []platform.Machine, jobs []actual.Job, pol policy.QueueScheduler, l engine.Listener) {
	t.Helper()
	plat, err := platform.New(ms)
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: plat, Policy: pol, Source: workload.FromSlice(jobs), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
}
