package gym

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/cmd/libschedlab/inproc"
	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/external"
	"github.com/schedlab/schedlab/workload"
)

// script is a Runner that plays requests in order and records the
// decisions it is given (ids).
type script struct {
	reqs []*external.Request
	got  [][]job.ID
}

func (s *script) Next(d external.Decision) (*external.Request, error) {
	ids := []job.ID{}
	for _, e := range d.Starts {
		ids = append(ids, e.ID)
	}
	s.got = append(s.got, ids)
	if len(s.reqs) == 0 {
		return nil, nil
	}
	r := s.reqs[0]
	s.reqs = s.reqs[1:]
	return r, nil
}

func jobInfo(id job.ID, submit float64, procs int, est float64) job.Info {
	return job.Info{ID: id, Submit: submit, Procs: procs, Estimate: est}
}

func f32(x float64) float32 { return float32(x) }

// A window of 2 on 10 CPUs, TimeScale 3600, QueueScale 4, each
// observation computed by hand.
func TestHandComputed(t *testing.T) {
	a, b, c, d := jobInfo(1, 0, 4, 3600), jobInfo(2, 50, 8, 7200), jobInfo(3, 100, 2, 0), jobInfo(4, 250, 5, 60)
	plat := platform.MustCluster(10)
	run := &script{reqs: []*external.Request{
		{Now: 100, Begins: true, Free: []int{10}, Waiting: []job.Info{a, b, c}, Platform: plat},
		// after B and C start: A (4 CPUs) does not fit 1 free CPU, so
		// this instant is answered with no start
		{Now: 200, Free: []int{1}, Running: 2, Waiting: []job.Info{a}, Platform: plat},
		{Now: 300, Free: []int{6}, Running: 1, Waiting: []job.Info{a, d}, Platform: plat},
		{Now: 400, Ends: true, Platform: plat},
	}}
	obs, mask := make([]float32, 2*Features+MachineFeatures), make([]int8, 2)
	obs[0], mask[1] = 9, 9 // (New zeroes the buffers)
	env, err := New(run, Config{Window: 2, TimeScale: 3600, QueueScale: 4}, obs, mask)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, wantObs []float32, wantMask []int8, now float64) {
		t.Helper()
		if !slices.Equal(obs, wantObs) || !slices.Equal(mask, wantMask) || env.Now() != now {
			t.Errorf("%s: obs %v mask %v now %g\nwant obs %v mask %v now %g", what, obs, mask, env.Now(), wantObs, wantMask, now)
		}
	}
	if ok, err := env.Start(); !ok || err != nil {
		t.Fatalf("Start: %v, %v", ok, err)
	}
	// A: 4/10 CPUs, 1 h, waited 100 s; B: 8/10, 2 h clipped to 1, waited 50 s
	check("start", []float32{
		1, 0.4, 1, f32(100.0 / 3600), 1,
		1, 0.8, 1, f32(50.0 / 3600), 1,
		1, 0, 0.75,
	}, []int8{1, 1}, 100)

	// B starts (2 CPUs left): C enters the last slot and fits, A not
	if ok, replaced, err := env.Step(1); !ok || replaced || err != nil {
		t.Fatalf("Step(1): %v, %v, %v", ok, replaced, err)
	}
	check("B picked", []float32{
		1, 0.4, 1, f32(100.0 / 3600), 0,
		1, 0.2, 0, 0, 1,
		0.2, 0, 0.75,
	}, []int8{0, 1}, 100)

	// slot 0 (A) does not fit: replaced by slot 1 (C); then nothing
	// fits: B and C are the decision, the instant at 200 has no fit,
	// the one at 300 has A (and D, not fitting)
	if ok, replaced, err := env.Step(0); !ok || !replaced || err != nil {
		t.Fatalf("Step(0): %v, %v, %v", ok, replaced, err)
	}
	check("at 300", []float32{
		1, 0.4, 1, f32(300.0 / 3600), 1,
		1, 0.5, f32(60.0 / 3600), f32(50.0 / 3600), 1,
		0.6, 0.1, 0.5,
	}, []int8{1, 1}, 300)

	// A starts (2 CPUs left): the window holds D alone, which does not
	// fit; the run ends
	if ok, replaced, err := env.Step(0); ok || replaced || err != nil {
		t.Fatalf("last Step: %v, %v, %v; want the end", ok, replaced, err)
	}
	if !env.Ended() || env.Now() != 400 {
		t.Errorf("ended %v at %g, want true at 400", env.Ended(), env.Now())
	}
	want := [][]job.ID{{}, {2, 3}, {}, {1}, {}}
	if !slices.EqualFunc(run.got, want, slices.Equal) {
		t.Errorf("decisions %v, want %v", run.got, want)
	}
	if _, _, err := env.Step(0); err == nil {
		t.Error("Step after the end: no error")
	}
}

func TestNewRefuses(t *testing.T) {
	for _, c := range []struct {
		w, nobs, nmask int
	}{{0, 3, 0}, {2, 12, 2}, {2, 13, 1}} {
		if _, err := New(&script{}, Config{Window: c.w, TimeScale: 1, QueueScale: 1}, make([]float32, c.nobs), make([]int8, c.nmask)); err == nil {
			t.Errorf("window %d, buffers %d and %d: no error", c.w, c.nobs, c.nmask)
		}
	}
	// scales that would make observations NaN or infinite (0/0, x/0, NaN)
	for _, c := range []struct{ ts, qs float64 }{{0, 1}, {1, 0}, {math.NaN(), 1}, {1, math.NaN()}, {math.Inf(1), 1}, {1, -2}} {
		_, err := New(&script{}, Config{Window: 1, TimeScale: c.ts, QueueScale: c.qs}, make([]float32, Features+MachineFeatures), make([]int8, 1))
		if err == nil || !strings.Contains(err.Error(), "want a finite number > 0") {
			t.Errorf("time_scale %g, queue_scale %g: error %v, want one naming the scale", c.ts, c.qs, err)
		}
	}
}

// recorder is a Runner over a real run that keeps the current request
// and counts the calls (the run reuses its request value).
type recorder struct {
	sim   *inproc.Sim
	req   *external.Request
	calls int
}

func (r *recorder) Next(d external.Decision) (*external.Request, error) {
	req, err := r.sim.Next(d)
	r.req = req
	r.calls++
	return req, err
}

// naive is the observation and the mask built from scratch, as the
// Python environment builds them for engine="process": the window is the
// first Window waiting jobs not picked at this instant.
func naive(cfg Config, r *external.Request, picked map[job.ID]bool, free int) ([]float32, []int8, []job.ID) {
	o := make([]float32, cfg.Window*Features+MachineFeatures)
	m := make([]int8, cfg.Window)
	var ids []job.ID
	cpus := float64(r.Platform.CPUs())
	for _, j := range r.Waiting {
		if len(ids) == cfg.Window {
			break
		}
		if picked[j.ID] {
			continue
		}
		s := len(ids)
		fit := 0.0
		if j.Procs <= free {
			fit, m[s] = 1, 1
		}
		copy(o[s*Features:], []float32{1, clip(float64(j.Procs) / cpus), clip(j.Estimate / cfg.TimeScale), clip((r.Now - j.Submit) / cfg.TimeScale), clip(fit)})
		ids = append(ids, j.ID)
	}
	b := cfg.Window * Features
	o[b], o[b+1], o[b+2] = clip(float64(free)/cpus), clip(float64(r.Running)/cpus), clip(float64(len(r.Waiting))/cfg.QueueScale)
	return o, m, ids
}

// On all of KTH-SP2, with random actions (some illegal), the window the
// Env keeps up to date is the one built from scratch at every step, and
// every job is picked once.
func TestSameAsFromScratch(t *testing.T) {
	for _, cfg := range []Config{
		{Window: 8, TimeScale: 86400, QueueScale: 256},
		{Window: 1, TimeScale: 3600, QueueScale: 16},
		{Window: 128, TimeScale: 86400, QueueScale: 256},
	} {
		sim := inproc.Start(kthSpec(), false)
		rec := &recorder{sim: sim}
		obs, mask := make([]float32, cfg.Window*Features+MachineFeatures), make([]int8, cfg.Window)
		env, err := New(rec, cfg, obs, mask)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(cfg.Window)))
		picked := map[job.ID]bool{}
		free, steps, instant := 0, 0, -1
		ok, err := env.Start()
		for ok {
			at := rec.req
			if rec.calls != instant { // a new instant
				instant, free = rec.calls, at.Free[0]
				clear(picked)
			}
			wantObs, wantMask, ids := naive(cfg, at, picked, free)
			if !slices.Equal(obs, wantObs) || !slices.Equal(mask, wantMask) {
				t.Fatalf("window %d, step %d at t=%g:\nobs %v mask %v\nwant %v %v", cfg.Window, steps, at.Now, obs, mask, wantObs, wantMask)
			}
			a := rng.IntN(cfg.Window + 1)
			if rng.IntN(10) > 0 { // mostly a legal one
				var legal []int
				for s, v := range mask {
					if v == 1 {
						legal = append(legal, s)
					}
				}
				a = legal[rng.IntN(len(legal))]
			}
			want := a
			if a >= len(ids) || mask[a] == 0 {
				want = slices.Index(mask, 1)
			}
			id := ids[want]
			picked[id] = true
			free -= jobProcs(at, id)
			var replaced bool
			ok, replaced, err = env.Step(a)
			if replaced != (want != a) {
				t.Fatalf("step %d: action %d replaced %v", steps, a, replaced)
			}
			steps++
		}
		if err != nil || sim.Err() != nil {
			t.Fatalf("window %d: %v, %v", cfg.Window, err, sim.Err())
		}
		if steps != 27992 {
			t.Errorf("window %d: %d steps, want one per job (27992)", cfg.Window, steps)
		}
	}
}

func jobProcs(r *external.Request, id job.ID) int {
	for _, j := range r.Waiting {
		if j.ID == id {
			return j.Procs
		}
	}
	panic("no such job")
}

// BenchmarkKTHSteps: all of KTH-SP2 through an Env of window 128, always
// the first legal slot (no output); ns/step is the run's time over its
// steps (one per job), the engine's instants included.
func BenchmarkKTHSteps(b *testing.B) {
	cfg := Config{Window: 128, TimeScale: 86400, QueueScale: 256}
	obs, mask := make([]float32, cfg.Window*Features+MachineFeatures), make([]int8, cfg.Window)
	steps := 0
	for b.Loop() {
		sim := inproc.Start(kthSpec(), false)
		env, err := New(sim, cfg, obs, mask)
		if err != nil {
			b.Fatal(err)
		}
		ok, err := env.Start()
		for ok {
			ok, _, err = env.Step(-1)
			steps++
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}

// kthSpec is 'schedlab run --trace KTH-SP2 --policy external --no-out
// --set view=free' as a spec.
func kthSpec() experiment.RunSpec {
	return experiment.RunSpec{
		Workload: experiment.WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", Seed: 1, Deadlines: workload.DeadlineRule{Seed: 1}},
		Policy:   experiment.PolicySpec{Name: "external", Options: map[string]string{"view": "free"}},
		Outputs:  experiment.OutputSpec{Tau: 10},
	}
}

// The features beyond the default, by hand: a window of 3 on 10 CPUs,
// TimeScale 100, QueueScale 4; users 1 and 2.
func TestHandComputedFeatures(t *testing.T) {
	mk := func(id job.ID, submit float64, procs int, est float64, user int32) job.Info {
		j := jobInfo(id, submit, procs, est)
		j.User = user
		return j
	}
	a, b, c := mk(1, 0, 4, 100, 1), mk(2, 0, 2, 50, 1), mk(3, 0, 8, 20, 2)
	d, e, f := mk(4, 10, 1, 10, 1), mk(5, 50, 1, 30, 2), mk(6, 55, 1, 5, 1)
	plat := platform.MustCluster(10)
	run := &script{reqs: []*external.Request{
		{Now: 0, Begins: true, Free: []int{10}, Waiting: []job.Info{a, b, c}, Platform: plat},
		{Now: 30, Free: []int{4}, Running: 2, Waiting: []job.Info{c, d}, Platform: plat},
		{Now: 60, Free: []int{9}, Running: 1, Completed: []job.ID{1, 2}, Waiting: []job.Info{c, e, f}, Platform: plat},
		{Now: 70, Ends: true, Platform: plat},
	}}
	names := []string{"user_waiting", "running_remaining_mean", "user_usage", "running_remaining_min", "queue_work"}
	lay, err := ParseFeatures(names)
	if err != nil {
		t.Fatal(err)
	}
	obs, mask := make([]float32, lay.Size(3)), make([]int8, 3)
	env, err := New(run, Config{Window: 3, TimeScale: 100, QueueScale: 4, Features: names}, obs, mask)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, want []float32, wantMask []int8) {
		t.Helper()
		if !slices.Equal(obs, want) || !slices.Equal(mask, wantMask) {
			t.Errorf("%s: obs %v mask %v\nwant obs %v mask %v", what, obs, mask, want, wantMask)
		}
	}
	step := func(a int, wantOK bool, wantWait float64) {
		t.Helper()
		ok, _, err := env.Step(a)
		if ok != wantOK || err != nil || env.Wait() != wantWait {
			t.Fatalf("Step(%d): %v, %v, wait %g (want %v, wait %g)", a, ok, err, env.Wait(), wantOK, wantWait)
		}
	}
	if ok, err := env.Start(); !ok || err != nil {
		t.Fatalf("Start: %v, %v", ok, err)
	}
	// slots [user's waiting jobs / 4, user's CPU-seconds / (10 x 100)];
	// machine [mean, least remaining estimate / 100 (none running: 0),
	// CPUs x estimate waiting / (10 x 100) = (400 + 100 + 160) / 1000]
	check("t=0", []float32{0.5, 0, 0.5, 0, 0.25, 0, 0, 0, f32(0.66)}, []int8{1, 1, 1})
	step(0, true, 0) // A: 6 CPUs left, B fits
	step(0, true, 0) // B: 4 left, C (8) does not fit: on to t=30
	// t=30: C (user 2: nothing used), D (user 1: A 4 x 30 + B 2 x 30 =
	// 180); remaining A 70, B 20: mean 45, least 20; queue 160 + 10
	check("t=30", []float32{0.25, 0, 0.25, f32(180.0 / 1000), 0, 0, f32(45.0 / 100), f32(20.0 / 100), f32(170.0 / 1000)}, []int8{0, 1, 0})
	step(1, true, 20) // D (submitted at 10): 3 left, C does not fit: on to t=60
	// t=60: A and B ended (user 1: 4 x 60 + 2 x 60 = 360, and D running
	// since 30: + 30); D's estimate (10) is over: remaining 0
	check("t=60", []float32{0.5, 0, 0.5, 0, 0.25, f32(390.0 / 1000), 0, 0, f32(195.0 / 1000)}, []int8{1, 1, 1})
	step(0, true, 60)  // C: 1 left
	step(0, false, 10) // E (submitted at 50): 0 left, F does not fit: on to the end (the script's)
	if !slices.Equal(run.got[len(run.got)-2], []job.ID{3, 5}) {
		t.Errorf("decisions %v", run.got)
	}
	if _, err := ParseFeatures([]string{"wait", "gpus"}); err == nil || !strings.Contains(err.Error(), `"gpus" (known: present, cpus,`) {
		t.Errorf("unknown feature: %v", err)
	}
	if _, err := ParseFeatures([]string{"wait", "wait"}); err == nil {
		t.Error("a feature given twice: no error")
	}
}

// The feature "power" by hand: 10 CPUs at 10 W idle and 30 W running a
// job, so (10 x 10 + 20 x CPUs busy) / (30 x 10): all idle 1/3; after A
// (4 CPUs) starts 180/300; after B (2), C (8) does not fit: on to t=30,
// where the script has 2 CPUs busy: 140/300. Without a power model the
// feature is refused.
func TestHandComputedPower(t *testing.T) {
	a, b, c := jobInfo(1, 0, 4, 100), jobInfo(2, 0, 2, 50), jobInfo(3, 0, 8, 20)
	plat := platform.MustCluster(10)
	run := &script{reqs: []*external.Request{
		{Now: 0, Begins: true, Free: []int{10}, Waiting: []job.Info{a, b, c}, Platform: plat},
		{Now: 30, Free: []int{8}, Running: 1, Waiting: []job.Info{c}, Platform: plat},
		{Now: 70, Ends: true, Platform: plat},
	}}
	names := []string{"free_cpus", "power"}
	lay, err := ParseFeatures(names)
	if err != nil {
		t.Fatal(err)
	}
	obs, mask := make([]float32, lay.Size(1)), make([]int8, 1)
	cfg := Config{Window: 1, TimeScale: 100, QueueScale: 4, Features: names}
	if _, err := New(run, cfg, obs, mask); err == nil || !strings.Contains(err.Error(), `the feature "power" needs a power model`) {
		t.Errorf("power without a power model: %v", err)
	}
	cfg.Power = &[2]float64{10, 30}
	env, err := New(run, cfg, obs, mask)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs) != 2 {
		t.Fatalf("observation of %d numbers, want free_cpus and power", len(obs))
	}
	check := func(what string, free, power float64) {
		t.Helper()
		if want := []float32{f32(free), f32(power)}; !slices.Equal(obs, want) {
			t.Errorf("%s: obs %v, want %v", what, obs, want)
		}
	}
	if ok, err := env.Start(); !ok || err != nil {
		t.Fatalf("Start: %v, %v", ok, err)
	}
	check("t=0", 1, 100.0/300)
	if ok, _, err := env.Step(0); !ok || err != nil {
		t.Fatalf("Step: %v %v", ok, err)
	}
	check("t=0 after A", 0.6, 180.0/300)
	if ok, _, err := env.Step(0); !ok || err != nil {
		t.Fatalf("Step: %v %v", ok, err)
	}
	check("t=30", 0.8, 140.0/300)
}
