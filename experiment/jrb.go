package experiment

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/rank"
	"github.com/schedlab/schedlab/workload"
)

// JRBResult is one run of Job Ranking Backfilling (al-najjar-2019's
// metrics): TET, the total execution time (last end - first submit), and
// AWT, the average waiting time.
type JRBResult struct {
	Jobs    int64   // jobs simulated
	Refused int64   // jobs refused at submission (policy.Screener: rank -1, or a rank the policy's options refuse)
	TET     float64 // last end - first submit (s)
	AWT     float64 // mean wait (s)
	// Work is the offered work, sum of CPUs x runtime (CPU-seconds), and
	// Span the time from the first to the last submission.
	Work, Span float64
}

// RunJRB simulates jobs (sorted by submit time) on plat under JRB with
// options o (o.Platform is set to plat). Jobs the policy refuses are
// dropped and counted.
func RunJRB(jobs []actual.Job, plat platform.Platform, o rank.Options) (JRBResult, error) {
	o.Platform = plat
	pol, err := rank.New(o)
	if err != nil {
		return JRBResult{}, err
	}
	scr := &screenedSource{src: workload.FromSlice(jobs), pol: pol}
	sum := metrics.NewSummary(plat.CPUs(), metrics.SyntheticTau)
	eng, err := engine.NewCluster(engine.ClusterConfig{Platform: plat, Policy: pol, Source: scr, Listener: engine.Tee{sum}})
	if err != nil {
		return JRBResult{}, err
	}
	if err := eng.Run(); err != nil {
		return JRBResult{}, err
	}
	r := sum.Result()
	res := JRBResult{Jobs: r.Jobs, Refused: scr.refused, TET: r.Makespan - r.FirstSubmit, AWT: r.MeanWait}
	for i := range jobs {
		res.Work += float64(jobs[i].Procs) * jobs[i].Runtime
	}
	if n := len(jobs); n > 0 {
		res.Span = jobs[n-1].Submit - jobs[0].Submit
	}
	return res, nil
}
