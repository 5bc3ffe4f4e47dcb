package experiment

import (
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/workload"
)

// Nodes of one core are the pool of CPUs under EASY++'s predictions
// too: with --estimate predict (last2, increments, and the request
// correction), EASY and first-fit start every job of the whole KTH
// trace at the same time on nodes of one core as on the pool, the
// predictor's counts are the same, and jobs were predicted and
// corrected (so the policy's Reestimate ran), planned by counts (the
// pool's policy: Reestimate reaches it through policy/counts) and on
// nodes (the node version's Reestimate).
func TestNodesOfOneCorePredictAreThePool(t *testing.T) {
	for _, c := range []struct{ pol, corr string }{{"easy", "increments"}, {"easy", "request"}, {"firstfit", "increments"}} {
		run := func(p PlatformSpec, planner string) (*startLog, *Predictions) {
			t.Helper()
			l := &startLog{}
			res, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", Estimate: workload.EstimatePredict}, Platform: p,
				Policy: PolicySpec{Name: c.pol, Correction: c.corr, NodePlanner: planner}, Outputs: OutputSpec{Listeners: []engine.Listener{l}}}).Run()
			if err != nil {
				t.Fatalf("%s %s: %v", c.pol, c.corr, err)
			}
			if res.Run.Predictions == nil {
				t.Fatalf("%s %s: no predictions in the run info", c.pol, c.corr)
			}
			return l, res.Run.Predictions
		}
		pool, pp := run(PlatformSpec{Procs: 100}, "")
		var np *Predictions
		for _, planner := range []string{PlannerCounts, PlannerNodes} {
			var onNodes *startLog
			onNodes, np = run(PlatformSpec{Nodes: []string{"n[1-100]:cores=1"}}, planner)
			if len(pool.order) != len(onNodes.order) || len(pool.order) == 0 {
				t.Fatalf("%s planner, %s %s: %d jobs on the pool, %d on nodes", planner, c.pol, c.corr, len(pool.order), len(onNodes.order))
			}
			diff, first := 0, startKey{}
			for _, k := range pool.order {
				if s, ok := onNodes.starts[k]; !ok || s != pool.starts[k] {
					if diff == 0 {
						first = k
					}
					diff++
				}
			}
			if diff > 0 {
				t.Errorf("%s planner, %s %s: %d of %d jobs start at another time on nodes of one core; the first, job %d (submitted %g), at %g on the pool, %g on nodes",
					planner, c.pol, c.corr, diff, len(pool.order), first.id, first.submit, pool.starts[first], onNodes.starts[first])
			}
			if *pp != *np {
				t.Errorf("%s planner, %s %s: predictions %+v on the pool, %+v on nodes", planner, c.pol, c.corr, *pp, *np)
			}
			if np.Predicted < int64(len(pool.order))/2 || np.Corrected == 0 {
				t.Errorf("%s planner, %s %s: %d of %d jobs predicted, %d corrected: the layer did not work", planner, c.pol, c.corr, np.Predicted, len(pool.order), np.Corrected)
			}
		}
		t.Logf("%s %s: %d jobs, %d predicted, %d corrected (%d corrections)", c.pol, c.corr, len(pool.order), np.Predicted, np.Corrected, np.Corrections)
	}
}
