package repro

import (
	"math"
	"os"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/workload/synth"
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

// The synthetic stand-in for the paper's data (synth.JRBJobs), fitted
// like Tables 2-9, three replications of 10,000 jobs. The paper's
// estimates and standard errors: linear constant 257.099 (48.633), cpu
// 6.565 (2.474), mem -0.011 (0.456), R^2 0.0007; log constant 10.130
// (152.679), cpu 568.756 (160.308), mem 91.513 (123.99), R^2 0.003.
// Checked: R^2 < 0.01 in both fits (the paper's "cannot predict the run
// time"); the linear estimates within 2 of the paper's SEs of its
// values; the log fit's memory term within 2 SEs, its CPU term positive
// (ours is 2.5-3 of the paper's SEs below its 568.8: the generator's CPU
// effect is linear, the paper's data evidently had a stronger log-CPU
// effect; docs/papers/alnajjar2019.md).
func TestFitSyntheticLikePaper(t *testing.T) {
	for rep := range 3 {
		jobs, err := synth.JRBJobs(2019, rep, synth.JRBDefaults(10_000, synth.PoissonTime))
		if err != nil {
			t.Fatal(err)
		}
		r, err := FitJobs(jobs)
		if err != nil {
			t.Fatal(err)
		}
		lin, lg := r.Linear.Coefficients, r.Log.Coefficients
		t.Logf("rep %d: linear %.3f %.3f %.3f (SE %.3f %.3f %.3f) R2 %.4f; log %.3f %.3f %.3f (SE %.3f %.3f %.3f) R2 %.4f", rep,
			lin["constant"], lin["cpu"], lin["mem"], r.Linear.StdErrors["constant"], r.Linear.StdErrors["cpu"], r.Linear.StdErrors["mem"], r.Linear.RSquared,
			lg["constant"], lg["cpu"], lg["mem"], r.Log.StdErrors["constant"], r.Log.StdErrors["cpu"], r.Log.StdErrors["mem"], r.Log.RSquared)
		if r.Linear.RSquared >= 0.01 || r.Log.RSquared >= 0.01 {
			t.Errorf("rep %d: R2 %.4f and %.4f, want < 0.01", rep, r.Linear.RSquared, r.Log.RSquared)
		}
		for _, c := range []struct {
			what           string
			got, paper, se float64
		}{
			{"linear constant", lin["constant"], 257.099, 48.633},
			{"linear cpu", lin["cpu"], 6.565, 2.474},
			{"linear mem", lin["mem"], -0.011, 0.456},
			{"log mem", lg["mem"], 91.513, 123.99},
		} {
			if math.Abs(c.got-c.paper) > 2*c.se {
				t.Errorf("rep %d: %s %.3f, paper %.3f (SE %.3f)", rep, c.what, c.got, c.paper, c.se)
			}
		}
		if !(lg["cpu"] > 0) {
			t.Errorf("rep %d: log cpu %.3f, want > 0", rep, lg["cpu"])
		}
	}
}

// fitHPC2N is the HPC2N trace of the benchmark, when it is there.
const fitHPC2N = "../../shared/traces/HPC2N-2002-2.1-cln.swf.gz"

// The rank fit of HPC2N (read, 200,734 jobs, two least-squares fits).
func BenchmarkFitHPC2N(b *testing.B) {
	if _, err := os.Stat(fitHPC2N); err != nil {
		b.Skipf("trace %s not available", fitHPC2N)
	}
	for i := 0; i < b.N; i++ {
		if _, err := FitTrace(fitHPC2N); err != nil {
			b.Fatal(err)
		}
	}
}
