package carbon_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/signal"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/carbon"
	"github.com/schedlab/schedlab/validate"
)

func mustSignal(t *testing.T, ts, vs []float64, period float64) *signal.Signal {
	t.Helper()
	s, err := signal.New(ts, vs, period)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The intensity: 300 over [0, 100), 100 over [100, 200), 50 over
// [200, 250), 400 over [250, 1000), 20 from 1000. MaxDelay 150, jobs of
// estimate at most 100 deferrable; 4 CPUs; FCFS inside.
//
//	job submit procs run est  window      lowest        release
//	1   0      1     10  10   [0, 150]    100 at 100    100
//	8   50     1     10  10   [50, 200]   50 at 200     200 (the window is closed)
//	2   120    1     10  10   [120, 270]  50 at 200     200
//	3   210    1     10  10   [210, 360]  50 at 210     210, not held
//	4   300    1     10  10   [300, 450]  400 at 300    300, not held
//	7   860    4     10  10   [860, 1010] 20 at 1000    1000
//	5   900    4     10  10   [900, 1050] 20 at 1000    1000
//	6   990    1     5   500  (est > 100: not deferrable) 990
//
// At 1000, 5 and 7 are released (to the inner policy in id order, 5
// then 7), each with its own submit time: FCFS, which orders its queue
// by submit time, starts 7 (860) on the 4 CPUs (6 ended at 995) and 5
// at 7's end, 1010. Held: 1 100 s, 8 150 s,
// 2 80 s, 7 140 s, 5 100 s: five jobs, 570 s.
func TestDelayByHand(t *testing.T) {
	sig := mustSignal(t, []float64{0, 100, 200, 250, 1000}, []float64{300, 100, 50, 400, 20}, 0)
	mk := func(id int, submit float64, procs int, run, est float64) actual.Job {
		return actual.Job{ID: job.ID(id), Submit: submit, Procs: procs, Runtime: run, Request: est, Estimate: est, User: -1, Group: -1}
	}
	jobs := []actual.Job{mk(1, 0, 1, 10, 10), mk(8, 50, 1, 10, 10), mk(2, 120, 1, 10, 10), mk(3, 210, 1, 10, 10),
		mk(4, 300, 1, 10, 10), mk(7, 860, 4, 10, 10), mk(5, 900, 4, 10, 10), mk(6, 990, 1, 5, 500)}
	d := carbon.New(backfill.NewFCFS(), sig, carbon.Params{MaxDelay: 150, MaxEstimate: 100})
	var released []string
	d.OnRelease = func(now float64, id job.ID, submit float64) {
		released = append(released, strings.Join([]string{itoa(int(id)), ftoa(submit), ftoa(now)}, ":"))
	}
	r := enginetest.RunCluster(t, platform.MustCluster(4), d, jobs, enginetest.Options{})
	r.Check(t, jobs, validate.Options{Procs: 4, Kill: true})
	want := map[job.ID]float64{1: 100, 8: 200, 2: 200, 3: 210, 4: 300, 7: 1000, 5: 1010, 6: 990}
	for _, e := range r.Ends {
		if w := want[e.Job.ID]; e.Start != w {
			t.Errorf("job %d starts at %g, want %g", e.Job.ID, e.Start, w)
		}
	}
	if len(r.Ends) != len(jobs) {
		t.Fatalf("%d jobs ended, want %d", len(r.Ends), len(jobs))
	}
	if got, w := strings.Join(released, " "), "1:0:100 2:120:200 8:50:200 5:900:1000 7:860:1000"; got != w {
		t.Errorf("releases %s, want %s", got, w)
	}
	if d.Deferred() != 5 || d.HeldSeconds() != 570 || d.Held() != 0 {
		t.Errorf("deferred %d, held %g s, still held %d; want 5, 570, 0", d.Deferred(), d.HeldSeconds(), d.Held())
	}
	for now, w := range map[float64]float64{0: 100, 50: 200, 120: 200, 210: 210, 300: 300, 860: 1000, 990: 1000} {
		if got := d.Release(now); got != w {
			t.Errorf("Release(%g) = %g, want %g", now, got, w)
		}
	}
}

// recorder is an inner policy that records its submissions and asks
// for a wake-up of its own.
type recorder struct {
	subs []string
	wake float64
}

func (r *recorder) Name() string { return "recorder" }
func (r *recorder) Submit(now float64, j job.Info) {
	r.subs = append(r.subs, itoa(int(j.ID))+"@"+ftoa(now))
}
func (r *recorder) Finish(float64, job.ID) {}
func (r *recorder) Schedule(now float64, _ policy.Machines, plan *policy.Plan) {
	plan.Wake = r.wake
}

// A daily curve (hours as seconds: 300 over [0, 6), 100 over [6, 18),
// 300 over [18, 24), repeating), MaxDelay 10. Job 1 at 2 waits for 6;
// job 2 at 20 sees [20, 30]: 100 from 30 (the next day's 6), released
// at 30. The wake-ups: the next release, unless the inner policy asks
// earlier; none with nothing held.
func TestDelayWakes(t *testing.T) {
	sig := mustSignal(t, []float64{0, 6, 18}, []float64{300, 100, 300}, 24)
	in := &recorder{}
	d := carbon.New(in, sig, carbon.Params{MaxDelay: 10})
	var plan policy.Plan
	pass := func(now float64) float64 {
		plan.Reset()
		d.Schedule(now, nil, &plan)
		return plan.Wake
	}
	d.Submit(2, job.Info{ID: 1, Submit: 2, Estimate: 1e6})
	if w := pass(2); w != 6 || len(in.subs) != 0 {
		t.Fatalf("at 2: wake %g, subs %v; want 6, none", w, in.subs)
	}
	in.wake = 4
	if w := pass(3); w != 4 {
		t.Fatalf("the inner policy's earlier wake-up: %g, want 4", w)
	}
	in.wake = 0
	if w := pass(6); w != 0 || strings.Join(in.subs, " ") != "1@6" {
		t.Fatalf("at 6: wake %g, subs %v; want 0, 1@6", w, in.subs)
	}
	d.Submit(20, job.Info{ID: 2, Submit: 20})
	if w := pass(20); w != 30 {
		t.Fatalf("at 20: wake %g, want 30", w)
	}
	if w := pass(30); w != 0 || strings.Join(in.subs, " ") != "1@6 2@30" {
		t.Fatalf("at 30: wake %g, subs %v; want 0, 1@6 2@30", w, in.subs)
	}
	d.Submit(31, job.Info{ID: 3, Submit: 31}) // 100 now: not held
	if strings.Join(in.subs, " ") != "1@6 2@30 3@31" || d.Deferred() != 2 || d.HeldSeconds() != 14 {
		t.Fatalf("subs %v, deferred %d, held %g s", in.subs, d.Deferred(), d.HeldSeconds())
	}
}

func TestParseParams(t *testing.T) {
	if p, err := carbon.ParseParams("43200"); err != nil || p != (carbon.Params{MaxDelay: 43200}) {
		t.Fatalf("43200: %v %v", p, err)
	}
	if p, err := carbon.ParseParams("3600:600"); err != nil || p != (carbon.Params{MaxDelay: 3600, MaxEstimate: 600}) {
		t.Fatalf("3600:600: %v %v", p, err)
	}
	for in, want := range map[string]string{
		"":        "is not a number",
		"x":       "is not a number",
		"0":       "want 0 < MAX_S",
		"-5":      "want 0 < MAX_S",
		"1e9":     "want 0 < MAX_S <= 31622400",
		"10:0":    "above 0",
		"10:y":    "\"y\" is not a number",
		"NaN":     "want 0 < MAX_S",
		"10:1e10": "the estimate bound",
	} {
		if _, err := carbon.ParseParams(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseParams(%q): %v, want an error with %q", in, err, want)
		}
	}
}

func TestDelayCaps(t *testing.T) {
	easy := backfill.NewBackfill("easy", 4, 1, backfill.OrderFCFS)
	d := carbon.New(easy, signal.Constant(1), carbon.Params{MaxDelay: 1})
	in := policy.CapsOf(easy).Set()
	if got := policy.CapsOf(d).Set(); got != in&carbon.Forwards {
		t.Fatalf("caps %v, want %v", got, in&carbon.Forwards)
	}
	if d.Name() != "easy" || d.Inner() != policy.QueueScheduler(easy) {
		t.Fatal("name or inner")
	}
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
