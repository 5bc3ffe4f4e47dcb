package synth

import (
	"math"
	"reflect"
	"testing"
)

// The moments the generator is built to match (Tables 2-9, reconstructed):
// on 10,000 jobs with a fixed seed. Tolerances: the standard error of each
// sample moment at n = 10,000, times about 3 (CPU mean: SD 18 / 100 =
// 0.18; log10 CPU mean: 0.513 / 100 = 0.005; log10 MB: 0.663 / 100;
// correlation: about (1 - 0.84^2) / 100 = 0.003). The runtime SD is
// dominated by the lognormal tail (sample SDs of a sigma = 2.3 lognormal
// vary by tens of percent at this n), so it is checked for its order of
// magnitude only, and the mean runtime within 15%.
func TestJRBMoments(t *testing.T) {
	jobs, err := JRBJobs(2019, 0, JRBDefaults(10_000, PoissonTime))
	if err != nil {
		t.Fatal(err)
	}
	var c, lc, lm, rt []float64
	for _, j := range jobs {
		c = append(c, float64(j.Procs))
		lc = append(lc, math.Log10(float64(j.Procs)))
		lm = append(lm, math.Log10(j.Mem/1024))
		rt = append(rt, j.Runtime)
	}
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	sd := func(xs []float64) float64 {
		m, s := mean(xs), 0.0
		for _, x := range xs {
			s += (x - m) * (x - m)
		}
		return math.Sqrt(s / float64(len(xs)-1))
	}
	corr := func(a, b []float64) float64 {
		ma, mb, s := mean(a), mean(b), 0.0
		for i := range a {
			s += (a[i] - ma) * (b[i] - mb)
		}
		return s / float64(len(a)-1) / sd(a) / sd(b)
	}
	for _, c := range []struct {
		what      string
		got, want float64
		tol       float64
	}{
		{"CPU mean", mean(c), 7.26, 0.55},
		{"CPU SD", sd(c), 17.99, 1.5},
		{"log10 CPU mean", mean(lc), 0.4045, 0.016},
		{"log10 CPU SD", sd(lc), 0.513, 0.012},
		{"log10 MB mean", mean(lm), 0.7036, 0.02},
		{"log10 MB SD", sd(lm), 0.663, 0.015},
		{"corr(log CPU, log MB)", corr(lc, lm), -0.842, 0.01},
		{"runtime mean", mean(rt), 304.6, 0.15 * 304.6},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.4f, want %.4f +- %.4f", c.what, c.got, c.want, c.tol)
		}
	}
	if s := sd(rt); s < 1500 || s > 13000 {
		t.Errorf("runtime SD %.0f, want the order of 4,445", s)
	}
	for i := 1; i < len(jobs); i++ {
		if jobs[i].Submit < jobs[i-1].Submit || jobs[i].ID != jobs[i-1].ID+1 {
			t.Fatalf("jobs %d and %d out of order", i-1, i)
		}
	}
}

func TestJRBDeterministicAndChecked(t *testing.T) {
	a, _ := JRBJobs(7, 1, JRBDefaults(500, UniformGaps))
	b, _ := JRBJobs(7, 1, JRBDefaults(500, UniformGaps))
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different jobs")
	}
	c, _ := JRBJobs(7, 2, JRBDefaults(500, UniformGaps))
	if reflect.DeepEqual(a, c) {
		t.Error("replications 1 and 2 drew the same jobs")
	}
	for _, o := range []JRBOptions{
		{Jobs: 0, Arrival: PoissonTime, Lambda: 1},
		{Jobs: MaxJRBJobs + 1, Arrival: PoissonTime, Lambda: 1},
		{Jobs: 10, Arrival: PoissonTime, Lambda: 0},
		{Jobs: 10, Arrival: PoissonProcess, Gap: math.NaN()},
		{Jobs: 10, Arrival: UniformTime, Lo: 5, Hi: 4},
		{Jobs: 10, Arrival: UniformGaps, Lo: -1, Hi: 4},
		{Jobs: 10, Arrival: Arrival(9)},
		{Jobs: 10, Arrival: PoissonTime, Lambda: 1, SpeedMax: -1},
		{Jobs: 10, Arrival: PoissonTime, Lambda: 1, SpeedMax: math.NaN()},
	} {
		if _, err := JRBJobs(1, 0, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if _, err := ParseArrival("poisson"); err == nil {
		t.Error(`"poisson" parsed: the readings must be named`)
	}
	for _, n := range Arrivals() {
		if a, err := ParseArrival(n); err != nil || a.String() != n {
			t.Errorf("%s: %v %v", n, a, err)
		}
	}
}

// Reading A: creation times within a few sqrt(lambda) of lambda (a
// near-batch: Poisson(10,000) has SD 100); reading B: the mean gap is Gap.
func TestJRBArrivalReadings(t *testing.T) {
	a, _ := JRBJobs(3, 0, JRBDefaults(10_000, PoissonTime))
	if lo, hi := a[0].Submit, a[len(a)-1].Submit; lo < 10_000-600 || hi > 10_000+600 {
		t.Errorf("poisson-time spans %g..%g, want within 10,000 +- 600 (6 SD)", lo, hi)
	}
	b, _ := JRBJobs(3, 0, JRBDefaults(10_000, PoissonProcess))
	if g := b[len(b)-1].Submit / float64(len(b)-1); math.Abs(g-10) > 0.3 {
		t.Errorf("poisson-process mean gap %g, want 10 +- 0.3 (3 SE)", g)
	}
	u, _ := JRBJobs(3, 0, JRBDefaults(10_000, UniformGaps))
	if g := u[len(u)-1].Submit / float64(len(u)-1); math.Abs(g-40) > 0.7 {
		t.Errorf("uniform-gaps mean gap %g, want 40 +- 0.7 (3 SE; SD of a gap 23.4)", g)
	}
}

// A CPU-speed requirement changes nothing else (its own stream): the same
// jobs, each with a speed uniform on [0, SpeedMax] (mean SpeedMax/2,
// SD SpeedMax/sqrt(12): over 20,000 jobs the mean is within 1% of
// SpeedMax/2 at more than 5 standard errors), runtimes at speed SpeedMax,
// and on JRBPlatform every job fits and runs exactly its runtime.
func TestJRBSpeedRequirement(t *testing.T) {
	o := JRBDefaults(20_000, PoissonTime)
	plain, _ := JRBJobs(3, 0, o)
	o.SpeedMax = 3e4
	sped, err := JRBJobs(3, 0, o)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i := range sped {
		j := sped[i]
		if j.Speed < 0 || j.Speed > 3e4 || j.BMEst != 3e4 {
			t.Fatalf("job %d: speed %g, BMEst %g", j.ID, j.Speed, j.BMEst)
		}
		sum += j.Speed
		j.Speed, j.BMEst = 0, 0
		if !reflect.DeepEqual(j, plain[i]) {
			t.Fatalf("job %d differs beyond its speed: %+v vs %+v", j.ID, j, plain[i])
		}
	}
	if m := sum / float64(len(sped)); math.Abs(m-1.5e4) > 150 {
		t.Errorf("mean speed %g, want 15,000 within 1%%", m)
	}
	p, err := JRBPlatform(200, o)
	if err != nil {
		t.Fatal(err)
	}
	m := p.Machine(0)
	for _, j := range sped[:100] {
		if !m.Holds(j.Procs, j.Mem, j.Speed) || m.Duration(j.Runtime, j.BMEst) != j.Runtime {
			t.Fatalf("job %d does not run its runtime on %+v", j.ID, m)
		}
	}
}
