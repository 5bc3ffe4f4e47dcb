package experiment

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/stats"
	"github.com/schedlab/schedlab/workload/synth"
)

// With random grid and random local policies, Poisson arrivals split at
// random stay Poisson: each of the 32 processors is an M/M/1 queue with
// arrival rate lambda/32 and mean response time 1/(1 - rho).
//
// Tolerance: for M/M/1 the variance of a mean of n correlated responses is
// about rho(2 + 5rho - 4rho^2 + rho^3) / (n (1-rho)^4) in units of the
// service time squared (the waiting-time formula, which dominates). At
// rho = 0.8 and n = 2,000,000 jobs the standard error is about 0.031, i.e.
// 0.6% of the mean 5: a 2% bound is more than 3 standard errors. At rho =
// 0.5 with 500,000 jobs it is about 0.3% of 2. The seeds are fixed, so the
// test is deterministic; the bound says the model is right, not lucky.
func TestGridRandomIsMM1(t *testing.T) {
	for _, c := range []struct {
		rho  float64
		jobs int64
	}{{0.5, 500_000}, {0.8, 2_000_000}} {
		lambda := c.rho * 32
		r, err := RunGrid(GridRun{Platform: platform.MustSites([]int{8, 8, 8, 8}), Grid: "random", Local: "random", MeanInterarrival: 1 / lambda,
			MeanService: 1, Stop: c.jobs, Seed: 2008})
		if err != nil {
			t.Fatal(err)
		}
		want := stats.MM1Response(c.rho, 1)
		if math.Abs(r.RT-want)/want > 0.02 {
			t.Errorf("rho %.1f: mean response %.4f, M/M/1 gives %.4f (more than 2%% off)", c.rho, r.RT, want)
		}
		if math.Abs(r.Utilization-c.rho) > 0.01 {
			t.Errorf("rho %.1f: utilization %.4f", c.rho, r.Utilization)
		}
		t.Logf("rho %.1f: RT %.4f (M/M/1 %.4f), utilization %.4f", c.rho, r.RT, want, r.Utilization)
	}
}

// One site of c = 8 processors fed as a central FCFS queue (the cluster
// engine with one-processor jobs) is an M/M/c queue. At rho = 0.7 the
// Erlang-C mean wait is C(8, 5.6) / (8 - 5.6) = 0.11275. Measured over 30
// seeds, the mean wait of one run of a million jobs has a standard
// deviation of 1.1% (and the 30-seed mean, 0.11262 +- 0.0007, shows no
// bias); at three million jobs that is about 0.65%, so 3% is more than
// 4 standard deviations for this fixed seed.
func TestClusterFCFSIsMMc(t *testing.T) {
	const c, rho, jobs = 8, 0.7, 3_000_000
	lambda := rho * c
	src, err := synth.NewPoisson(2008, 0, 1/lambda, 1, jobs)
	if err != nil {
		t.Fatal(err)
	}
	sum := metrics.NewSummary(c, 0)
	eng, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(c), Policy: backfill.NewFCFS(), Source: src, Listener: sum})
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Run(); err != nil {
		t.Fatal(err)
	}
	got := sum.Result().MeanWait
	want := stats.MMcWait(lambda, 1, c)
	if math.Abs(got-want)/want > 0.03 {
		t.Errorf("mean wait %.5f, Erlang C gives %.5f (more than 3%% off)", got, want)
	}
	t.Logf("M/M/8 at rho 0.7: mean wait %.5f, Erlang C %.5f", got, want)
}
