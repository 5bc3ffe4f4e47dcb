package validate

import (
	"strings"
	"testing"
)

// Partitions (docs/partitions.md): a job may hold only the CPUs of its
// partition. Two jobs on 4 CPUs, job 1 in a partition of CPUs 0-1, job
// 2 in one of CPUs 2-3.
func TestCheckPartitionCPUs(t *testing.T) {
	in := []Input{
		{ID: 1, Submit: 0, Runtime: 10, Request: 10, Procs: 2, Allowed: []Interval{{0, 1}}},
		{ID: 2, Submit: 0, Runtime: 5, Request: 5, Procs: 1, Allowed: []Interval{{2, 3}}},
	}
	good := []Rec{
		{ID: 1, Submit: 0, Start: 0, Finish: 10, Procs: 2, State: StateCompleted, CPUs: []Interval{{0, 1}}},
		{ID: 2, Submit: 0, Start: 0, Finish: 5, Procs: 1, State: StateCompleted, CPUs: []Interval{{3, 3}}},
	}
	if err := Check(in, good, Options{Procs: 4, Kill: true}); err != nil {
		t.Fatal(err)
	}
	// Job 2 on CPU 1 (free: job 1 holds 0 and 2 here), outside its
	// partition; job 1 on 0 and 2, CPU 2 outside its partition.
	bad := []Rec{
		{ID: 1, Submit: 0, Start: 0, Finish: 10, Procs: 2, State: StateCompleted, CPUs: []Interval{{0, 0}, {2, 2}}},
		{ID: 2, Submit: 0, Start: 0, Finish: 5, Procs: 1, State: StateCompleted, CPUs: []Interval{{1, 1}}},
	}
	err := Check(in, bad, Options{Procs: 4, Kill: true})
	for _, want := range []string{
		"job 1: holds CPU 2, outside the CPUs 0-1 it may hold (its partition)",
		"job 2: holds CPU 1, outside the CPUs 2-3 it may hold (its partition)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
	// A record without CPUs cannot show it kept to its partition.
	none := []Rec{good[0], {ID: 2, Submit: 0, Start: 0, Finish: 5, Procs: 1, State: StateCompleted}}
	if err := Check(in, none, Options{Procs: 4, Kill: true}); err == nil || !strings.Contains(err.Error(), "job 2: lists no CPUs, but may only hold CPUs 2-3") {
		t.Errorf("got %v", err)
	}
}
