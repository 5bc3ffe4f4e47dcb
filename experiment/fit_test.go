package experiment

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
)

// The data set of stats.TestOLSByHand as jobs: CPUs 1..5, memory per CPU
// 2, 1, 2, 1, 2 MB (the hand set's x2 + 1), runtimes 3, 4, 8, 8, 12; plus
// a job without memory and one with 0 CPUs, left out and counted. With
// x2 shifted by 1 the slopes stay (11/5, 5/3) and the constant becomes
// -3/5 - 5/3 = -34/15; R^2 = 194/195 as before.
//
// The log fit on the same jobs: log10 CPU = 0, .30103, .47712, .60206,
// .69897; log10 MB = .30103, 0, .30103, 0, .30103: checked against the
// linear algebra of stats.FitOLS only through its R^2 being below the
// linear one's here (runtime grows linearly with CPU).
func TestFitJobsByHand(t *testing.T) {
	var jobs []actual.Job
	for i, rt := range []float64{3, 4, 8, 8, 12} {
		jobs = append(jobs, actual.Job{Procs: i + 1, Mem: float64(2-i%2) * 1024, Runtime: rt})
	}
	jobs = append(jobs, actual.Job{Procs: 4, Mem: 0, Runtime: 100}, actual.Job{Procs: 0, Mem: 1024, Runtime: 100})
	r, err := FitJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 5 || r.LeftOut != 2 || r.NoMemory != 1 || r.NoCPU != 1 {
		t.Errorf("n %d left out %d (%d, %d), want 5, 2 (1, 1)", r.N, r.LeftOut, r.NoMemory, r.NoCPU)
	}
	for p, w := range map[string]float64{"constant": -34.0 / 15, "cpu": 11.0 / 5, "mem": 5.0 / 3} {
		if got := r.Linear.Coefficients[p]; math.Abs(got-w) > 1e-9 {
			t.Errorf("linear %s = %.12g, want %.12g", p, got, w)
		}
	}
	if se := r.Linear.StdErrors["mem"]; math.Abs(se-1.0/3) > 1e-9 {
		t.Errorf("SE(mem) = %g, want 1/3", se)
	}
	if math.Abs(r.Linear.RSquared-194.0/195) > 1e-9 {
		t.Errorf("R2 = %g, want 194/195", r.Linear.RSquared)
	}
	if a := r.Linear.ANOVA; a.Residual.DF != 2 || a.Corrected.DF != 4 || a.Uncorrected.DF != 5 || a.Regression.DF != 3 ||
		math.Abs(a.Corrected.SS-52) > 1e-9 || math.Abs(a.Uncorrected.SS-297) > 1e-9 {
		t.Errorf("ANOVA %+v", a)
	}
	if !(r.Log.RSquared < r.Linear.RSquared) {
		t.Errorf("log R2 %g, linear %g", r.Log.RSquared, r.Linear.RSquared)
	}
	if r.Linear.Flag != "--rank linear --rank-coefficients=-2.26667,2.2,1.66667" {
		t.Errorf("flag %q", r.Linear.Flag)
	}
}

// Too few usable jobs: an error, not a fit.
func TestFitJobsTooFew(t *testing.T) {
	jobs := []actual.Job{{Procs: 1, Mem: 1024, Runtime: 1}, {Procs: 2, Mem: 2048, Runtime: 2}, {Procs: 2, Mem: 0, Runtime: 2}}
	if _, err := FitJobs(jobs); err == nil {
		t.Error("a fit of 2 jobs for 3 parameters")
	}
}
