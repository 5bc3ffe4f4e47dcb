package sleep_test

import (
	"math"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/sleep"
	"github.com/schedlab/schedlab/workload"
)

// TestSleeperByHand: FCFS with the sleeper (timeout 10 s, keep=1) on 4
// CPUs at 10 W idle, 30 W computing, 2 W off, switching on 5 s / 100 J
// (20 W), off 2 s / 10 J (5 W). Job A (4 CPUs, 20 s) at 0, job B (4
// CPUs, 10 s) at 50.
//
//   - 20: A ends; the 4 CPUs are idle since 20 (the sleeper asks for a
//     pass at 30).
//   - 30: 4 candidates, nothing waits, 4 on and keep=1: 3 are switched
//     off, the highest ids (equal idle times): CPUs 1-3 switch off over
//     [30, 32), off from 32. CPU 0 stays on.
//   - 50: B waits for 4 CPUs; 1 is idle and none switching on: the
//     sleeper switches on 3 (the lowest off ids, 1-3) over [50, 55).
//   - 55: B starts on 0-3 and ends at 65: 5 s later than always on.
//
// Energy over [0, 65): CPU 0 busy 30 s, idle 35 s: 30x30 + 35x10 =
// 1,250 J; CPUs 1-3 each busy 30 s (900 J), idle [20, 30) (100 J),
// switching off 2 s (10 J), off [32, 50) 18 s (36 J), switching on 5 s
// (100 J): 1,146 J; total 1,250 + 3 x 1,146 = 4,688 J. Always on, B
// runs [50, 60) and the machine draws 10 x 4 x 60 + 20 x 120 = 4,800 J.
func TestSleeperByHand(t *testing.T) {
	pw := energy.Power{IdleW: 10, ComputeW: 30, OffW: 2, OnS: 5, OnJ: 100, OffS: 2, OffJ: 10}
	jobs := []actual.Job{enginetest.Exact(1, 0, 4, 20), enginetest.Exact(2, 50, 4, 10)}
	run := func(sleeper bool) (*enginetest.Recorder, energy.Result, []energy.Point) {
		t.Helper()
		plat := enginetest.MustPlatform(t, platform.Machine{CPUs: 4})
		m := energy.NewMeter(pw, 4, true)
		rec := &enginetest.Recorder{}
		cfg := engine.ClusterConfig{Platform: plat, Policy: backfill.NewFCFS(), Source: workload.FromSlice(jobs), Listener: engine.Tee{rec, m}}
		if sleeper {
			cfg.Policy = sleep.New(cfg.Policy, sleep.Params{After: 10, Keep: 1})
			cfg.Switching = &engine.Switching{OnS: pw.OnS, OffS: pw.OffS}
		}
		c, err := engine.NewCluster(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Run(); err != nil {
			t.Fatal(err)
		}
		return rec, m.Result(), m.Series()
	}
	rec, r, series := run(true)
	if got := rec.At(2); got != 55 {
		t.Errorf("B starts at %g, want 55 (5 s switching on)", got)
	}
	if s, _ := rec.Start(2); !slices.Equal(s.CPUs, platform.Runs{0, 3}) {
		t.Errorf("B on %v, want 0-3", s.CPUs)
	}
	want := energy.Result{TotalJ: 4688, EndT: 65, WorkCPUSec: 120, PeakW: 120, States: true,
		OffCPUSec: 54, SwOnCPUSec: 15, SwOffCPUSec: 6, SwitchOns: 3, SwitchOffs: 3, SwitchJ: 330, OffJ: 108}
	want.MeanW, want.PerJobJ = want.TotalJ/65, want.TotalJ/2
	if math.Abs(r.TotalJ-want.TotalJ) > 1e-9 {
		t.Errorf("TotalJ = %.17g, want 4688", r.TotalJ)
	}
	r.TotalJ, r.MeanW, r.PerJobJ = want.TotalJ, want.MeanW, want.PerJobJ
	if r != want {
		t.Errorf("result\n got %+v\nwant %+v", r, want)
	}
	wantSeries := []energy.Point{{T: 0, Watts: 120}, {T: 20, Watts: 40}, {T: 30, Watts: 25}, {T: 32, Watts: 16}, {T: 50, Watts: 70}, {T: 55, Watts: 120}}
	if !slices.Equal(series, wantSeries) {
		t.Errorf("series %v, want %v", series, wantSeries)
	}
	rec, r, _ = run(false)
	if got := rec.At(2); got != 50 || r.TotalJ != 4800 || r.States {
		t.Errorf("always on: B at %g, %g J (states %v), want 50, 4800 J", got, r.TotalJ, r.States)
	}
}

func TestParseParams(t *testing.T) {
	for s, want := range map[string]sleep.Params{"600": {After: 600}, "0:keep=4": {Keep: 4}, "1.5:keep=0": {After: 1.5}} {
		if p, err := sleep.ParseParams(s); err != nil || p != want {
			t.Errorf("%q: %+v, %v; want %+v", s, p, err, want)
		}
	}
	for _, s := range []string{"", "x", "-1", "10:4", "10:keep=-1", "10:keep=x", "1e9", "NaN"} {
		if _, err := sleep.ParseParams(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestSleeperFromTimeZero: the CPUs are idle from time 0, before the
// first job: the model gives the sleeper a pass at 0, so the timeout
// runs from 0. The power model of TestSleeperByHand, timeout 10 s,
// keep 0; job A (2 CPUs, 20 s) at 100.
//
//   - 0: the pass; 4 CPUs idle since 0, a pass asked for at 10.
//   - 10: all 4 switch off over [10, 12), off from 12.
//   - 100: A waits for 2 CPUs, none idle: CPUs 0-1 switch on over
//     [100, 105); A runs [105, 125).
//
// CPUs 0-1 each: idle 10 s (100 J), switching off 2 s (10 J), off 88 s
// (176 J), switching on 5 s (100 J), busy 20 s (600 J): 986 J. CPUs 2-3
// each: 100 + 10 J, off [12, 125) 113 s (226 J): 336 J. Total 2 x 986 +
// 2 x 336 = 2,644 J.
func TestSleeperFromTimeZero(t *testing.T) {
	pw := energy.Power{IdleW: 10, ComputeW: 30, OffW: 2, OnS: 5, OnJ: 100, OffS: 2, OffJ: 10}
	plat := enginetest.MustPlatform(t, platform.Machine{CPUs: 4})
	m := energy.NewMeter(pw, 4, false)
	rec := &enginetest.Recorder{}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: plat, Policy: sleep.New(backfill.NewFCFS(), sleep.Params{After: 10}),
		Source: workload.FromSlice([]actual.Job{enginetest.Exact(1, 100, 2, 20)}), Listener: engine.Tee{rec, m},
		Switching: &engine.Switching{OnS: pw.OnS, OffS: pw.OffS}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	r := m.Result()
	if rec.At(1) != 105 || math.Abs(r.TotalJ-2644) > 1e-9 || r.EndT != 125 || r.SwitchOffs != 4 || r.SwitchOns != 2 || r.OffCPUSec != 2*88+2*113 {
		t.Errorf("A at %g; %+v; want A at 105, 2644 J to 125, 4 switches off, 2 on, 402 CPU-s off", rec.At(1), r)
	}
}
