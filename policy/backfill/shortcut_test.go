package backfill

import (
	"fmt"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload"
)

type starts struct {
	engine.NopListener
	log []string
}

func (s *starts) JobStarted(now float64, st engine.Start) {
	s.log = append(s.log, fmt.Sprintf("%d@%g:%v:%v", st.Job.ID, now, st.Reason, st.CPUs))
}

// runOn runs pol over jobs on one machine of procs processors (cont: jobs
// may run past their estimates) and returns its starts.
func runOn(t *testing.T, pol *Backfill, jobs []actual.Job, procs int, cont bool) *starts {
	t.Helper()
	l := &starts{}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pol,
		Source: workload.FromSlice(jobs), Listener: l, Continue: cont})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return l
}
