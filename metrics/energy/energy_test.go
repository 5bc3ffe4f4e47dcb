package energy

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/signal"
	"github.com/schedlab/schedlab/policy"
)

// Four CPUs at 10 W idle, 30 W computing. A: 2 CPUs over [0, 10); B: 4
// CPUs over [10, 15); C: 1 CPU over [20, 30). The kernel reports, at each
// instant, the busy CPUs since the previous one: 0 at 0, 2 at 10, 4 at
// 15, 0 at 20, 1 at 30. Work 2x10 + 4x5 + 1x10 = 50 CPU-s; total
// 10 x 4 x 30 + (30 - 10) x 50 = 2200 J; mean 2200/30 W; peak 40 + 20x4 =
// 120 W; 2200/3 J a job; A's own 20 x 2 x 10 = 400 J above idle.
func TestMeterByHand(t *testing.T) {
	p := Power{IdleW: 10, ComputeW: 30}
	m := NewMeter(p, 4, true)
	adv := func(at float64, busy int) { m.TimeAdvanced(at, &engine.Usage{Busy: []int{busy}}) }
	end := func(s, e float64) {
		m.JobFinished(e, &engine.Record{Job: &actual.Job{}, Start: s, End: e})
	}
	adv(0, 0)
	adv(10, 2)
	end(0, 10)
	adv(15, 4)
	end(10, 15)
	adv(20, 0)
	adv(30, 1)
	end(20, 30)
	r := m.Result()
	want := Result{TotalJ: 2200, EndT: 30, MeanW: 2200.0 / 30, PeakW: 120, PerJobJ: 2200.0 / 3, WorkCPUSec: 50}
	if r != want {
		t.Fatalf("Result() = %+v, want %+v", r, want)
	}
	if got := p.JobJoules(2, 10); got != 400 {
		t.Fatalf("A's joules %g, want 400", got)
	}
	wantS := []Point{{0, 80}, {10, 120}, {15, 40}, {20, 60}}
	if !slices.Equal(m.Series(), wantS) {
		t.Fatalf("Series() = %v, want %v", m.Series(), wantS)
	}
	if NewMeter(p, 4, false).Series() != nil {
		t.Fatal("a series kept unasked")
	}
	// No job: the machine idles from 0 to 0: nothing.
	if r := NewMeter(p, 4, false).Result(); r.TotalJ != 0 || r.MeanW != 0 || r.PerJobJ != 0 || r.PeakW != 40 {
		t.Fatalf("no jobs: %+v", r)
	}
}

func TestParsePower(t *testing.T) {
	p, err := ParsePower("95:190.74")
	if err != nil || p != (Power{IdleW: 95, ComputeW: 190.74}) {
		t.Fatalf("ParsePower(95:190.74) = %v, %v", p, err)
	}
	for in, want := range map[string]string{
		"95":      "want IDLE_W:COMPUTE_W",
		"x:1":     "idle watts \"x\" is not a number",
		"1:NaN":   "compute watts \"NaN\" is not a number",
		"200:100": "want 0 <= idle <= compute",
		"-1:5":    "want 0 <= idle",
		"1:2e7":   "<= 1e+06 watts",
		"1:+Inf":  "not a number",
	} {
		if _, err := ParsePower(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePower(%q): %v, want an error with %q", in, err, want)
		}
	}
	// With power states: Batsim's example host.
	p, err = ParsePower("95:190.74:9.75:152:19030:6.1:620")
	if err != nil || p != (Power{IdleW: 95, ComputeW: 190.74, OffW: 9.75, OnS: 152, OnJ: 19030, OffS: 6.1, OffJ: 620}) || !p.States() {
		t.Fatalf("ParsePower(Batsim's host) = %+v, %v", p, err)
	}
	if p.OnW() != 19030.0/152 || p.OffSwitchW() != 620/6.1 {
		t.Fatalf("switching watts %g, %g", p.OnW(), p.OffSwitchW())
	}
	if q, _ := ParsePower("95:190.74"); q.States() || q.OnW() != 0 {
		t.Fatal("two numbers: no states")
	}
	for in, want := range map[string]string{
		"1:2:3":           "IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J",
		"1:2:x:1:1:1:1":   "off watts \"x\" is not a number",
		"1:2:0:0:1:1:1":   "0 < switch-on seconds",
		"1:2:0:1:1:-1:1":  "0 < switch-off seconds",
		"1:2:0:1e6:1:1:1": "switch-on seconds <= 86400",
		"1:2:-1:1:1:1:1":  "0 <= off watts",
		"1:2:0:1:2e6:1:1": "switch-on joules",
		"1:2:0:1:1:1:-5":  "switch-off joules",
		"1:2:0:1:1:1:1:1": "want IDLE_W:COMPUTE_W",
		"2:1:0:1:1:1:1":   "want 0 <= idle <= compute",
		"1:2:0:1:1:1:NaN": "switch-off joules \"NaN\" is not a number",
		"1:2:0:Inf:1:1:1": "switch-on seconds \"Inf\" is not a number",
	} {
		if _, err := ParsePower(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePower(%q): %v, want an error with %q", in, err, want)
		}
	}
	if math.IsNaN(Power{IdleW: 1, ComputeW: 2}.JobJoules(0, 5)) {
		t.Fatal("NaN")
	}
}

// Power states by hand, the meter alone: 2 CPUs at 10 W idle, 30 W
// computing, 2 W off, switching on 5 s / 100 J (20 W), off 2 s / 10 J
// (5 W). Both busy over [0, 10) (the peak, 60 W, before any switch);
// CPU 1 switches off at 10 (until 12), is off [12, 20), switches on
// [20, 25); CPU 0 runs [25, 30). Reported: busy 2 at 10, 0 at 12, 20, 25,
// 1 at 30. Total: 60 x 10 + (10 + 5) x 2 + (10 + 2) x 8 + (10 + 20) x 5
// + (30 + 10) x 5 = 600 + 30 + 96 + 150 + 200 = 1,076 J; switching 2 x 5
// + 5 x 20 = 110 J; off 16 J.
func TestMeterStatesByHand(t *testing.T) {
	p := Power{IdleW: 10, ComputeW: 30, OffW: 2, OnS: 5, OnJ: 100, OffS: 2, OffJ: 10}
	m := NewMeter(p, 2, true)
	// Carbon: 100 g/kWh over [0, 15), 300 from 15: 60 x 10 x 100 + 15 x
	// 2 x 100 + 12 x 3 x 100 + 12 x 5 x 300 + 30 x 5 x 300 + 40 x 5 x
	// 300 = 189,600 W s g/kWh = 189600 / 3.6e9 kg.
	sig, err := signal.New([]float64{0, 15}, []float64{100, 300}, 0)
	if err != nil {
		t.Fatal(err)
	}
	m.SetSignals(sig, nil)
	adv := func(at float64, busy int) { m.TimeAdvanced(at, &engine.Usage{Busy: []int{busy}}) }
	sw := func(at float64, from, to policy.PowerState) { m.PowerSwitched(at, platform.Runs{1, 1}, from, to) }
	adv(0, 0)
	adv(10, 2)
	m.JobFinished(10, &engine.Record{Job: &actual.Job{}, Start: 0, End: 10})
	sw(10, policy.PowerOn, policy.PowerSwitchingOff)
	adv(12, 0)
	sw(12, policy.PowerSwitchingOff, policy.PowerOff)
	adv(20, 0)
	sw(20, policy.PowerOff, policy.PowerSwitchingOn)
	adv(25, 0)
	sw(25, policy.PowerSwitchingOn, policy.PowerOn)
	adv(30, 1)
	m.JobFinished(30, &engine.Record{Job: &actual.Job{}, Start: 25, End: 30})
	r := m.Result()
	want := Result{TotalJ: 1076, EndT: 30, MeanW: 1076.0 / 30, PeakW: 60, PerJobJ: 538, WorkCPUSec: 25, States: true,
		OffCPUSec: 8, SwOnCPUSec: 5, SwOffCPUSec: 2, SwitchOns: 1, SwitchOffs: 1, SwitchJ: 110, OffJ: 16}
	if wantC := 189600 / 3.6e9; math.Abs(r.CarbonKg-wantC) > 1e-12*wantC {
		t.Fatalf("CarbonKg = %.17g, want %.17g", r.CarbonKg, wantC)
	}
	// The work's part: (30 - 10) x (2 x 10 x 100 + 1 x 5 x 300) W s g/kWh.
	if wantW := 20 * (2000 + 1500) / 3.6e9; math.Abs(r.WorkCarbonKg-wantW) > 1e-12*wantW {
		t.Fatalf("WorkCarbonKg = %.17g, want %.17g", r.WorkCarbonKg, wantW)
	}
	r.CarbonKg, r.WorkCarbonKg = 0, 0
	if r != want {
		t.Fatalf("Result() =\n %+v, want\n %+v", r, want)
	}
	wantS := []Point{{T: 0, Watts: 60}, {T: 10, Watts: 15}, {T: 12, Watts: 12}, {T: 20, Watts: 30}, {T: 25, Watts: 40}}
	if !slices.Equal(m.Series(), wantS) {
		t.Fatalf("Series() = %v, want %v", m.Series(), wantS)
	}
}
