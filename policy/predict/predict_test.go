package predict_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/predict"
)

// script is an inner policy for the hand-worked sequences: it records the
// estimate each job arrives with and the new estimates it is told, and
// starts the jobs the test names at the next pass.
type script struct {
	est     map[job.ID]float64
	startAt map[job.ID]bool
	reest   []string // "now:id=estimate"
	wake    float64  // its own Plan.Wake
}

func newScript() *script { return &script{est: map[job.ID]float64{}, startAt: map[job.ID]bool{}} }

func (s *script) Name() string                   { return "script" }
func (s *script) Submit(now float64, j job.Info) { s.est[j.ID] = j.Estimate }
func (s *script) Finish(now float64, id job.ID)  {}
func (s *script) Reestimate(now float64, id job.ID, e float64) {
	s.reest = append(s.reest, fmt.Sprintf("%g:%d=%g", now, id, e))
}
func (s *script) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	for id := job.ID(0); id < 100; id++ { // in id order: deterministic
		if s.startAt[id] {
			plan.Start(id, job.Immediate)
			delete(s.startAt, id)
		}
	}
	plan.Wake = s.wake
}

type view struct{ p platform.Platform }

func (v view) Platform() platform.Platform { return v.p }
func (v view) Free(m int) int              { return v.p.Machine(m).CPUs }

// harness drives a Predictor the way the central-queue model does.
type harness struct {
	t    *testing.T
	p    *predict.Predictor
	in   *script
	v    view
	plan policy.Plan
}

func newHarness(t *testing.T, par predict.Params) *harness {
	in := newScript()
	return &harness{t: t, p: predict.New(in, par), in: in, v: view{platform.MustCluster(64)}}
}

func (h *harness) submit(now float64, id job.ID, user int32, est float64) float64 {
	h.p.Submit(now, job.Info{ID: id, Submit: now, Procs: 1, Estimate: est, User: user})
	return h.in.est[id]
}

// pass runs one Schedule at now, starting ids, and returns the plan's Wake.
func (h *harness) pass(now float64, ids ...job.ID) float64 {
	for _, id := range ids {
		h.in.startAt[id] = true
	}
	h.plan.Reset()
	h.p.Schedule(now, h.v, &h.plan)
	return h.plan.Wake
}

// run submits a job at start, starts it at once and ends it after runtime.
func (h *harness) run(start float64, id job.ID, user int32, est, runtime float64) {
	h.submit(start, id, user, est)
	h.pass(start, id)
	h.p.Finish(start+runtime, id)
}

// A user's predictions, worked by hand (last2, EASY++'s rule: the mean
// of the last two runtimes, at most the request; the request until two
// are known; unknown users keep their request).
func TestLast2Sequence(t *testing.T) {
	h := newHarness(t, predict.Params{})
	check := func(what string, got, want float64) {
		t.Helper()
		if got != want {
			t.Fatalf("%s: predicted %g, want %g", what, got, want)
		}
	}
	check("user 1's first job", h.submit(0, 1, 1, 1000), 1000)
	h.pass(0, 1)
	h.p.Finish(100, 1) // runtime 100
	check("second job, one runtime known", h.submit(100, 2, 1, 1000), 1000)
	h.pass(100, 2)
	h.p.Finish(400, 2) // runtime 300
	check("third job: (100+300)/2", h.submit(400, 3, 1, 1000), 200)
	check("capped at its request", h.submit(400, 4, 1, 150), 150)
	check("unknown user", h.submit(400, 5, -1, 500), 500)
	check("another user, no history", h.submit(400, 6, 2, 700), 700)
	h.pass(400, 3, 4, 5, 6)
	h.p.Finish(450, 3) // runtime 50: user 1's last two are 300, 50
	check("after a third runtime: (300+50)/2", h.submit(450, 7, 1, 1000), 175)
	h.p.Finish(460, 5) // an unknown user's runtime is learned by nobody
	check("unknown user again", h.submit(460, 8, -1, 500), 500)
	check("a zero estimate stays", h.submit(460, 9, 1, 0), 0)
	if got := h.p.Predicted(); got != 3 {
		t.Fatalf("Predicted() = %d, want 3 (jobs 3, 4, 7)", got)
	}
	if e, n, ok := h.p.Prediction(7); !ok || e != 175 || n != 0 {
		t.Fatalf("Prediction(7) = %g, %d, %v", e, n, ok)
	}
}

// avg:3 and the partial reading, on user 1's runtimes 100, 300, 50.
func TestAvgKAndPartial(t *testing.T) {
	for _, c := range []struct {
		pred    string
		partial bool
		want    [4]float64 // predictions after 0, 1, 2, 3 runtimes
	}{
		{"avg:3", false, [4]float64{1000, 1000, 1000, 150}},
		{"avg:3", true, [4]float64{1000, 100, 200, 150}},
		{"last2", true, [4]float64{1000, 100, 200, 175}},
		{"avg:1", false, [4]float64{1000, 100, 300, 50}},
	} {
		hist, err := predict.ParsePredictor(c.pred)
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, predict.Params{Predictor: hist, Partial: c.partial})
		now := 0.0
		for i, rt := range []float64{100, 300, 50, -1} {
			id := job.ID(i + 1)
			if got := h.submit(now, id, 1, 1000); got != c.want[i] {
				t.Fatalf("%s partial %v: job %d predicted %g, want %g", c.pred, c.partial, id, got, c.want[i])
			}
			if rt >= 0 {
				h.pass(now, id)
				now += rt
				h.p.Finish(now, id)
			}
		}
	}
}

// Runtimes enter the history in end order, not start order: with avg:1
// the prediction is the runtime of the job that ended last.
func TestHistoryInEndOrder(t *testing.T) {
	last1, _ := predict.Avg(1)
	h := newHarness(t, predict.Params{Predictor: last1})
	h.submit(0, 1, 1, 1000)
	h.pass(0, 1) // job 1 runs 0..300
	h.submit(50, 2, 1, 1000)
	h.pass(50, 2)      // job 2 runs 50..150
	h.p.Finish(150, 2) // runtime 100
	h.p.Finish(300, 1) // runtime 300, the last to end
	if got := h.submit(300, 3, 1, 1000); got != 300 {
		t.Fatalf("predicted %g, want 300 (the runtime of the job that ended last)", got)
	}
}

// A job predicted 200 s with a request of 3600 s that runs 1000 s: under
// increments, the passes at its predicted ends correct it to 200+60 = 260
// at t=200, 200+300 = 500 at t=260, 200+900 = 1100 at t=500; it ends at
// 1000 before the next. The Wake asks for exactly those passes.
func TestIncrementsCorrections(t *testing.T) {
	h := newHarness(t, predict.Params{})
	h.run(-1000, 90, 1, 3600, 100) // user 1's runtimes: 100, 300
	h.run(-800, 91, 1, 3600, 300)
	if got := h.submit(0, 1, 1, 3600); got != 200 {
		t.Fatalf("prediction %g, want 200", got)
	}
	var steps []string
	h.p.OnCorrect = func(now float64, id job.ID, k int, e float64) {
		steps = append(steps, fmt.Sprintf("%g:%d#%d=%g", now, id, k, e))
	}
	wakes := []float64{h.pass(0, 1)}
	for _, now := range []float64{200, 260, 500} {
		wakes = append(wakes, h.pass(now))
	}
	if want := []float64{200, 260, 500, 1100}; fmt.Sprint(wakes) != fmt.Sprint(want) {
		t.Fatalf("wakes %v, want %v", wakes, want)
	}
	if want := "200:1=260 260:1=500 500:1=1100"; strings.Join(h.in.reest, " ") != want {
		t.Fatalf("Reestimate calls %v, want %s", h.in.reest, want)
	}
	if want := "200:1#1=260 260:1#2=500 500:1#3=1100"; strings.Join(steps, " ") != want {
		t.Fatalf("corrections %v, want %s", steps, want)
	}
	h.p.Finish(1000, 1)
	if w := h.pass(1000); w != 0 {
		t.Fatalf("wake %g after the job ended, want none", w)
	}
	if h.p.Corrections() != 3 || h.p.Corrected() != 1 {
		t.Fatalf("corrections %d, jobs corrected %d; want 3, 1", h.p.Corrections(), h.p.Corrected())
	}
}

// With no pass at the predicted ends (nothing waiting), the first pass
// after them applies the steps until the predicted end is after now:
// at t=2000, 260 -> 500 (end 500) -> 1100 -> 200+1800 = 2000 (end 2000,
// not after now) -> 200+3600 = 3800, capped at the request 3600. Five
// steps, one Reestimate; the request reached, no more wake-ups.
func TestLateCorrectionCatchesUp(t *testing.T) {
	h := newHarness(t, predict.Params{})
	h.run(-1000, 90, 1, 3600, 100)
	h.run(-800, 91, 1, 3600, 300)
	h.submit(0, 1, 1, 3600)
	h.pass(0, 1)
	h.pass(200) // 260
	if w := h.pass(2000); w != 0 {
		t.Fatalf("wake %g, want none: the prediction reached the request", w)
	}
	if want := "200:1=260 2000:1=3600"; strings.Join(h.in.reest, " ") != want {
		t.Fatalf("Reestimate calls %v, want %s", h.in.reest, want)
	}
	if e, k, _ := h.p.Prediction(1); e != 3600 || k != 5 || h.p.Corrections() != 5 {
		t.Fatalf("prediction %g after %d steps (%d counted), want 3600 after 5", e, k, h.p.Corrections())
	}
}

// Under the request correction the first correction predicts the
// request; the inner policy's own earlier wake-up is kept.
func TestRequestCorrectionAndWake(t *testing.T) {
	h := newHarness(t, predict.Params{Correction: predict.Request})
	h.run(-1000, 90, 1, 3600, 100)
	h.run(-800, 91, 1, 3600, 300)
	h.submit(0, 1, 1, 3600)
	h.in.wake = 150
	if w := h.pass(0, 1); w != 150 {
		t.Fatalf("wake %g, want the inner policy's 150", w)
	}
	h.in.wake = 500
	if w := h.pass(150); w != 200 {
		t.Fatalf("wake %g, want the predicted end 200", w)
	}
	h.in.wake = 0
	if w := h.pass(200); w != 0 {
		t.Fatalf("wake %g, want none", w)
	}
	if want := "200:1=3600"; strings.Join(h.in.reest, " ") != want {
		t.Fatalf("Reestimate calls %v, want %s", h.in.reest, want)
	}
}

// The ladder of Increments and its cap.
func TestStep(t *testing.T) {
	want := []float64{60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000}
	if got := predict.Ladder(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("ladder %v, want %v", got, want)
	}
	for k := 1; k <= len(want); k++ {
		if got := predict.Increments.Step(10, 1e9, k); got != 10+want[k-1] {
			t.Fatalf("step %d: %g, want %g", k, got, 10+want[k-1])
		}
		if got := predict.Increments.Step(10, 1000, k); got != min(10+want[k-1], 1000) {
			t.Fatalf("step %d capped: %g", k, got)
		}
		if got := predict.Request.Step(10, 1000, k); got != 1000 {
			t.Fatalf("request step %d: %g", k, got)
		}
	}
	if got := predict.Increments.Step(10, 1e9, 12); got != 1e9 {
		t.Fatalf("after the ladder: %g, want the request", got)
	}
}

func TestParse(t *testing.T) {
	for s, k := range map[string]int{"last2": 2, "avg:2": 2, "avg:1": 1, "avg:1000": 1000, "avg:37": 37} {
		h, err := predict.ParsePredictor(s)
		if err != nil || h.K() != k {
			t.Fatalf("%q: K %d, %v; want %d", s, h.K(), err, k)
		}
		if back, _ := predict.ParsePredictor(h.String()); back != h {
			t.Fatalf("%q: %q does not parse back", s, h.String())
		}
	}
	for _, s := range []string{"", "last3", "avg:", "avg:0", "avg:1001", "avg:-2", "avg:x", "AVG:2", "avg:2.5"} {
		_, err := predict.ParsePredictor(s)
		if err == nil || !strings.Contains(err.Error(), "avg:K") {
			t.Fatalf("%q: error %v does not list the valid forms", s, err)
		}
	}
	for _, s := range []string{"increments", "request"} {
		c, err := predict.ParseCorrection(s)
		if err != nil || c.String() != s {
			t.Fatalf("%q: %v %v", s, c, err)
		}
	}
	if _, err := predict.ParseCorrection("ladder"); err == nil || !strings.Contains(err.Error(), "increments") {
		t.Fatalf("bad correction: %v", err)
	}
	if err := (predict.Params{Correction: 9}).Check(); err == nil {
		t.Fatal("Check accepts an unknown correction")
	}
	if got := (predict.Params{}).String(); got != "last2/increments" {
		t.Fatalf("zero Params is %q", got)
	}
}

// A Predictor's capabilities are exactly its inner policy's among
// Forwards, each the inner's own value: for every set of capabilities
// an inner policy may declare, and for a plain policy found by its
// methods.
func TestForwardsExactly(t *testing.T) {
	every := &everything{}
	for s := policy.CapSet(0); s <= policy.AllCaps; s++ {
		in := policy.Caps{Screen: every, Reserve: every, Windows: every, Reestimate: every, Fail: every,
			Avail: every, Foreign: every, Examine: every, Close: every, Summary: every}.Only(s)
		p := predict.New(declared{newScript(), in}, predict.Params{})
		got := policy.CapsOf(p)
		if got.Set() != s&predict.Forwards {
			t.Fatalf("inner %v: predictor has %v, want %v", s, got.Set(), s&predict.Forwards)
		}
		if got != in.Only(predict.Forwards) {
			t.Fatalf("inner %v: the predictor passes on values other than the inner's", s)
		}
	}
	if got := policy.CapsOf(predict.New(newScript(), predict.Params{})).Set(); got != 0 {
		t.Fatalf("over a policy with nothing but Reestimate the predictor has %v, want none", got)
	}
	f := &fancy{script: newScript()}
	p := predict.New(f, predict.Params{})
	c := policy.CapsOf(p)
	if want := policy.CapScreen | policy.CapReserve | policy.CapFail | policy.CapClose; c.Set() != want {
		t.Fatalf("predictor over fancy has %v, want %v", c.Set(), want)
	}
	called := false
	c.Reserve.SetOnReserve(func(float64, job.ID, float64) { called = true })
	f.on(0, 1, 2)
	if p.Name() != "script" || c.Screen.Refuse(job.Info{Procs: 5}) != "too big" || c.Fail.Err() == nil || p.Close() == nil || !called || p.Inner() != f {
		t.Fatal("not forwarded")
	}
	if p := predict.New(newScript(), predict.Params{}); p.Close() != nil {
		t.Fatal("Close over a policy without one must do nothing")
	}
}

// declared is a policy that declares its capabilities (policy.Layer).
type declared struct {
	*script
	caps policy.Caps
}

func (d declared) Caps() policy.Caps { return d.caps }

// everything implements every optional interface (it is never called).
type everything struct{}

func (*everything) Refuse(job.Info) string                      { return "" }
func (*everything) SetOnReserve(func(float64, job.ID, float64)) {}
func (*everything) SetOnWindow(func(float64, job.ID))           {}
func (*everything) Reestimate(float64, job.ID, float64)         {}
func (*everything) Err() error                                  { return nil }
func (*everything) PlanAvailability([]policy.Window)            {}
func (*everything) Occupy(float64, job.ID, int, float64)        {}
func (*everything) Release(float64, job.ID)                     {}
func (*everything) ExamineEveryDeparture() bool                 { return false }
func (*everything) Close() error                                { return nil }
func (*everything) RankHead() (string, string)                  { return "", "" }
func (*everything) RefusalNote() string                         { return "" }

type fancy struct {
	*script
	on func(float64, job.ID, float64)
}

func (f *fancy) Refuse(j job.Info) string {
	if j.Procs > 4 {
		return "too big"
	}
	return ""
}
func (f *fancy) SetOnReserve(g func(float64, job.ID, float64)) { f.on = g }
func (f *fancy) Err() error                                    { return fmt.Errorf("broken") }
func (f *fancy) Close() error                                  { return fmt.Errorf("closed") }

// On a machine twice as fast as the speed estimates are given at, a job
// of 100 s of work runs 50 s: it enters the history as 100 (the units of
// estimates), and a prediction of P s ends P/2 after the start. Job 2,
// predicted 100 (avg:1), started at 100, is due at 150, corrected there to
// 100+60 = 160, due at 100 + 160/2 = 180.
func TestOtherSpeed(t *testing.T) {
	fast, err := platform.New([]platform.Machine{{CPUs: 8, Speed: 2}})
	if err != nil {
		t.Fatal(err)
	}
	last1, _ := predict.Avg(1)
	h := newHarness(t, predict.Params{Predictor: last1})
	h.v = view{fast}
	sub := func(now float64, id job.ID) float64 {
		h.p.Submit(now, job.Info{ID: id, Submit: now, Procs: 1, Estimate: 1000, User: 1, BMEst: 1})
		return h.in.est[id]
	}
	sub(0, 1)
	h.pass(0, 1)
	h.p.Finish(50, 1)
	if got := sub(100, 2); got != 100 {
		t.Fatalf("prediction %g, want 100", got)
	}
	if w := h.pass(100, 2); w != 150 {
		t.Fatalf("due at %g, want 150", w)
	}
	if w := h.pass(150); w != 180 || strings.Join(h.in.reest, " ") != "150:2=160" {
		t.Fatalf("due at %g after %v, want 180 after 150:2=160", w, h.in.reest)
	}
}
