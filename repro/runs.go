package repro

import (
	"fmt"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/sweep"
)

// checkReps refuses a replication count outside 1..MaxReps.
func checkReps(opt Options) error {
	if opt.Reps < 1 || opt.Reps > MaxReps {
		return fmt.Errorf("%d replications, want 1..%d", opt.Reps, MaxReps)
	}
	return nil
}

// simulatedJobs is the number of jobs the replications run so far
// simulated, summed from their models' results (RepMetrics.Detail).
func simulatedJobs(runs *sweep.Memo) int64 {
	var n int64
	runs.Visit(func(m experiment.RepMetrics) {
		switch d := m.Detail.(type) {
		case experiment.GridResult:
			n += d.Jobs
		case experiment.GangResult:
			n += d.Jobs
		case experiment.HeteroResult:
			n += d.Jobs
		case experiment.ClusterResult:
			n += d.Jobs
		default:
			panic(fmt.Sprintf("repro: replication result %T has no job count", m.Detail))
		}
	})
	return n
}
