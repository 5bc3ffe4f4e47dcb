package htmlreport

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/experiment"
)

// powerOverTime by hand: bins of [0, 800] are 1 s wide (timeBins 800).
// The power 100 W from 0, 300 W from 2.5, 50 W from 4: bin 0 and 1 at
// 100 W; bin 2 half at 100 and half at 300 (mean 200, peak 300); bin 3
// at 300; bins 4 to 799 at 50. A cap of 250 W outside [3, 5) and 80 W
// inside: least cap 250 over bins 0 to 1, 80 over bins 2 (which meets
// [3, 5) only at... no: bin 2 is [2, 3), 250), 3 and 4, 250 from 5.
func TestPowerOverTimeByHand(t *testing.T) {
	d := 250.0
	c := &capSpec{Spec: "250,80@3-5", DefaultW: &d}
	c.Windows = append(c.Windows, struct {
		Start float64 `json:"start_s"`
		End   float64 `json:"end_s"`
		W     float64 `json:"cap_w"`
	}{3, 5, 80})
	v := powerOverTime([]powerRow{{0, 100}, {2.5, 300}, {4, 50}}, c, 0, 800)
	if v.W != 1 || v.T0 != 0 || len(v.Mean) != timeBins {
		t.Fatalf("bins of %g s from %g, %d of them", v.W, v.T0, len(v.Mean))
	}
	for k, w := range map[int][3]float64{0: {100, 100, 250}, 1: {100, 100, 250}, 2: {200, 300, 250}, 3: {300, 300, 80}, 4: {50, 50, 80}, 5: {50, 50, 250}, 799: {50, 50, 250}} {
		if math.Abs(v.Mean[k]-w[0]) > 1e-9 || v.Peak[k] != w[1] || v.Cap[k] != w[2] {
			t.Errorf("bin %d: mean %g, peak %g, cap %g; want %v", k, v.Mean[k], v.Peak[k], v.Cap[k], w)
		}
	}
	if got := v.Steps; len(got) != 3 || got[0] != [2]float64{0, 250} || got[1] != [2]float64{3, 80} || got[2] != [2]float64{5, 250} {
		t.Errorf("steps %v", got)
	}
	// no cap outside the window: -1 there
	c.DefaultW = nil
	v = powerOverTime([]powerRow{{0, 100}}, c, 0, 800)
	if v.Cap[0] != -1 || v.Cap[3] != 80 || v.Cap[5] != -1 {
		t.Errorf("caps %g %g %g, want -1 80 -1", v.Cap[0], v.Cap[3], v.Cap[5])
	}
}

// A run with --power and --power-cap: the page embeds the power chart's
// data, its peaks never above its caps, and the bins' mean power, summed
// over the bins, is the energy of energy.csv over the chart's span; a run
// without --power has no power chart; a bad energy.csv is an error
// naming the file, the line and the column.
func TestPowerChartData(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: "testdata/tiny.swf"}, Policy: experiment.PolicySpec{Name: "easy"},
		Platform: experiment.PlatformSpec{Power: "10:30", PowerCap: "600,400@2000-6000"}, Outputs: experiment.OutputSpec{Dir: dir}}).Run(); err != nil {
		t.Fatal(err)
	}
	p, err := readRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.power == nil || p.pcap == nil || *p.pcap.DefaultW != 600 || len(p.pcap.Windows) != 1 {
		t.Fatalf("power %d rows, cap %+v", len(p.power), p.pcap)
	}
	d := p.data()
	if d.Power == nil || d.Power.Cap == nil || d.Power.Spec != "600,400@2000-6000" {
		t.Fatalf("power data %+v", d.Power)
	}
	sum := 0.0
	for k := range d.Power.Mean {
		// a bin that holds a change of the cap may hold power above its
		// least cap before or after the change: only the others compare
		a, b := d.Power.T0+float64(k)*d.Power.W, d.Power.T0+float64(k+1)*d.Power.W
		if straddles := (a < 2000 && b > 2000) || (a < 6000 && b > 6000); !straddles && d.Power.Cap[k] >= 0 && d.Power.Peak[k] > d.Power.Cap[k] {
			t.Errorf("bin %d: peak %g W above the cap %g W", k, d.Power.Peak[k], d.Power.Cap[k])
		}
		sum += d.Power.Mean[k] * d.Power.W
	}
	t0, t1 := timeSpan(p.jobs)
	e := 0.0
	for i, r := range p.power {
		b := t1
		if i+1 < len(p.power) {
			b = p.power[i+1].T
		}
		if a, b := math.Max(r.T, t0), math.Min(b, t1); b > a {
			e += r.W * (b - a)
		}
	}
	if math.Abs(sum-e) > 1e-6*e {
		t.Errorf("the bins hold %g J, energy.csv %g J over [%g, %g]", sum, e, t0, t1)
	}
	var b strings.Builder
	if err := p.render(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<canvas id="power"`) || !strings.Contains(b.String(), "the power cap") {
		t.Error("no power chart on the page")
	}

	plain := tinyRun(t)
	q, err := readRun(plain)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := q.render(&b); err != nil {
		t.Fatal(err)
	}
	if q.power != nil || strings.Contains(b.String(), `<canvas id="power"`) {
		t.Error("a power chart without energy.csv")
	}

	os.WriteFile(filepath.Join(dir, "energy.csv"), []byte("time_s,power_w\n0,100\n5,-3\n"), 0o644)
	if _, err := readRun(dir); err == nil || !strings.Contains(err.Error(), "energy.csv:3: column 2 (power_w): \"-3\"") {
		t.Errorf("bad energy.csv: %v", err)
	}
}

// The page of a capped run draws the power chart in headless Chromium,
// besides every chart of a run, with no error.
func TestBrowserPowerChart(t *testing.T) {
	bin := browser(t)
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: "testdata/tiny.swf"}, Policy: experiment.PolicySpec{Name: "easy"},
		Platform: experiment.PlatformSpec{Power: "10:30", PowerCap: "600,400@2000-6000"}, Outputs: experiment.OutputSpec{Dir: dir}}).Run(); err != nil {
		t.Fatal(err)
	}
	page, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, page, "gantt", "util", "queue", "wait", "bsld", "power")
	if a := sc.Axes["power"]; a.Label == "" {
		t.Errorf("the power chart has no time axis: %+v", sc.Axes)
	}
	screenshot(t, bin, page, "report-power.png")
}
