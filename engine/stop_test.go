package engine_test

import (
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload"
)

// stopAt stops the run when job id starts, and records every start.
type stopAt struct {
	engine.NopListener
	id     int64
	c      *engine.Cluster
	starts map[int64]float64
	ends   int
}

func (s *stopAt) JobStarted(now float64, st engine.Start) {
	s.starts[int64(st.Job.ID)] = now
	if int64(st.Job.ID) == s.id {
		s.c.Stop()
	}
}

func (s *stopAt) JobFinished(float64, *engine.Record) { s.ends++ }

// Stop called in a start: the five-job example under EASY on 10
// processors (TestEASYHandWorked): J1 starts at 0, J4 is backfilled at
// 3, J1 ends at 10 and one pass starts J2 and J5. Stopping at J2's
// start still lets that pass start J5; then nothing more is simulated
// (J3's start at 33, the ends of J2, J4 and J5), and Run returns nil
// with Stats.End 10.
func TestStopEndsTheRunAfterThePass(t *testing.T) {
	pol, err := queuePolicy("easy", 10)
	if err != nil {
		t.Fatal(err)
	}
	l := &stopAt{id: 2, starts: map[int64]float64{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(10), Policy: pol, Source: workload.FromSlice(fiveJobs(10)), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	l.c = c
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	want := map[int64]float64{1: 0, 4: 3, 2: 10, 5: 10}
	if len(l.starts) != len(want) {
		t.Fatalf("starts %v, want %v", l.starts, want)
	}
	for id, at := range want {
		if l.starts[id] != at {
			t.Errorf("job %d started at %g, want %g (all: %v)", id, l.starts[id], at, l.starts)
		}
	}
	if l.ends != 1 || c.Stats().End != 10 {
		t.Errorf("%d ends, run end %g; want 1 (J1) and 10", l.ends, c.Stats().End)
	}
}
