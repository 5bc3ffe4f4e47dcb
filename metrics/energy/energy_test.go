package energy

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
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
