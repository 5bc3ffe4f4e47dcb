package backfill

import (
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
)

// runOn runs pol over jobs on one machine of procs processors (cont: jobs
// may run past their estimates) and returns its starts.
func runOn(t *testing.T, pol *Backfill, jobs []actual.Job, procs int, cont bool) *enginetest.Recorder {
	t.Helper()
	return enginetest.RunCluster(t, platform.MustCluster(procs), pol, jobs, enginetest.Options{Continue: cont})
}
