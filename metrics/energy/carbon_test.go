package energy

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/signal"
)

// TestMeterByHand's run (4 CPUs at 10 W idle, 30 W computing: 80 W over
// [0, 10), 120 W over [10, 15), 40 W over [15, 20), 60 W over [20, 30))
// under a carbon intensity of 100 g/kWh over [0, 12), 400 over [12, 25),
// 200 from 25, and a price of 0.1 over [0, 20), 0.3 from 20. The
// products, interval by interval: 80x100x10 = 80,000; 120x100x2 =
// 24,000; 120x400x3 = 144,000; 40x400x5 = 80,000; 60x400x5 = 120,000;
// 60x200x5 = 60,000: 508,000 W s g/kWh = 508,000 / 3.6e6 g = 1.4111e-4
// kg. Price: 80x0.1x10 + 120x0.1x5 + 40x0.1x5 + 60x0.3x10 = 80 + 60 + 20
// + 180 = 340 W s /kWh = 340 / 3.6e6. The busy CPUs times the
// intensity: 2 x 1000 over [0, 10), 4 x 1400 over [10, 15), 1 x 3000
// over [20, 30).
func TestMeterCarbonByHand(t *testing.T) {
	carbon, err := signal.New([]float64{0, 12, 25}, []float64{100, 400, 200}, 0)
	if err != nil {
		t.Fatal(err)
	}
	price, err := signal.New([]float64{0, 20}, []float64{0.1, 0.3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMeter(Power{IdleW: 10, ComputeW: 30}, 4, false)
	m.SetSignals(carbon, price)
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
	if want := 508000 / 3.6e6 / 1e3; r.CarbonKg != want {
		t.Errorf("CarbonKg = %.17g, want %.17g", r.CarbonKg, want)
	}
	// Above idle: 20 W a busy CPU x (2x1000 + 4x1400 + 1x3000 = 10,600
	// CPU s g/kWh).
	if want := 20 * 10600 / 3.6e9; r.WorkCarbonKg != want {
		t.Errorf("WorkCarbonKg = %.17g, want %.17g", r.WorkCarbonKg, want)
	}
	if want := 340 / 3.6e6; math.Abs(r.Cost-want) > 1e-12*want {
		t.Errorf("Cost = %.17g, want %.17g", r.Cost, want)
	}
	if r.TotalJ != 2200 {
		t.Errorf("TotalJ = %g, want 2200 (the signals change no energy)", r.TotalJ)
	}
	// Without signals: zero.
	if r := NewMeter(Power{IdleW: 10, ComputeW: 30}, 4, false).Result(); r.CarbonKg != 0 || r.Cost != 0 {
		t.Errorf("no signal: %+v", r)
	}
}

// TestCarbonAgainstIndependentIntegrator: random busy steps at random
// instants and random signal steps (periodic or not); the meter's carbon
// against a sweep written here from the definition alone: every change
// point of the power and of the signal, merged and sorted, the product
// of the power and the signal (each looked up by a linear scan, at the
// interval's middle) times
// the length of each interval between them.
func TestCarbonAgainstIndependentIntegrator(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := range 200 {
		cpus := 1 + r.IntN(64)
		p := Power{IdleW: r.Float64() * 100}
		p.ComputeW = p.IdleW + r.Float64()*200
		// The signal: rows at random times from 0.
		n := 1 + r.IntN(12)
		st, sv := []float64{0}, []float64{r.Float64() * 800}
		for len(st) < n {
			st = append(st, st[len(st)-1]+r.Float64()*5000+1e-3)
			sv = append(sv, r.Float64()*800)
		}
		period := 0.0
		if trial%2 == 1 {
			period = st[len(st)-1] + 1 + r.Float64()*3000
		}
		sig, err := signal.New(st, sv, period)
		if err != nil {
			t.Fatal(err)
		}
		sigAt := func(x float64) float64 {
			if period > 0 {
				x -= math.Floor(x/period) * period
			}
			v := sv[0]
			for i := range st {
				if st[i] <= x {
					v = sv[i]
				}
			}
			return v
		}
		// The kernel's instants and the busy CPUs before each.
		m := NewMeter(p, cpus, false)
		m.SetSignals(sig, nil)
		var at []float64
		var busy []int
		now := 0.0
		m.TimeAdvanced(0, &engine.Usage{Busy: []int{0}})
		for range 1 + r.IntN(40) {
			now += r.Float64() * 4000
			b := r.IntN(cpus + 1)
			at, busy = append(at, now), append(busy, b)
			m.TimeAdvanced(now, &engine.Usage{Busy: []int{b}})
		}
		m.JobFinished(now, &engine.Record{Job: &actual.Job{}, End: now})
		got := m.Result().CarbonKg

		powerAt := func(x float64) float64 { // the busy CPUs of the instant after x
			for i := range at {
				if x < at[i] {
					return p.IdleW*float64(cpus) + (p.ComputeW-p.IdleW)*float64(busy[i])
				}
			}
			return p.IdleW * float64(cpus)
		}
		cuts := append([]float64{0, now}, at...)
		for k := 0.0; ; k++ {
			done := false
			for _, x := range st {
				c := x + k*period
				if c >= now {
					done = true
					break
				}
				cuts = append(cuts, c)
			}
			if period == 0 || done {
				break
			}
		}
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		want := 0.0
		for i := 0; i+1 < len(cuts) && cuts[i+1] <= now; i++ {
			mid := (cuts[i] + cuts[i+1]) / 2 // inside the interval: no rounding of a period's multiple puts it in the wrong row
			want += powerAt(mid) * sigAt(mid) * (cuts[i+1] - cuts[i])
		}
		want /= 3.6e9
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Fatalf("trial %d: carbon %.17g kg, independent %.17g", trial, got, want)
		}
	}
}
