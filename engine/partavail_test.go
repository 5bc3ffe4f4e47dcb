package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// Disjoint partitions with unavailable CPUs (docs/partitions.md,
// docs/availability.md).

func runPartsAvail(t *testing.T, procs int, parts []engine.Partition, jobs []actual.Job, a *engine.Availability) (*availRec, engine.Stats) {
	t.Helper()
	rec := &availRec{ends: map[job.ID]availEnd{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Source: workload.FromSlice(jobs), Listener: rec, Partitions: parts, Availability: a})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return rec, c.Stats()
}

// Eight CPUs: partition b = CPUs 0-3 (trace partition 2), a = CPUs 4-7
// (trace partition 1, its view's CPUs 0-3). A window [10, 20) on CPUs
// 6-7, two of a's four. In a: J1 (4 CPUs) runs [0, 5). At 5, J2 (3
// CPUs, estimate 8) would cross the window on 3 CPUs while 2 stay up:
// it waits for the window's end and runs [20, 28) on 4-6 (no window
// after: the lowest ids). J3 (2 CPUs, estimate 4) ends by 9: the
// backfilling policies start it at 5, on the CPUs whose next window is
// soonest, 6-7 (the lowest ids 4-5 stay clear for longer jobs); strict
// FCFS keeps it behind J2, and as J2 holds 3 of the 4 CPUs from 20 it
// runs [28, 32) on 4-5. In b, untouched by the window: J4 (4 CPUs,
// submitted at 8) runs [8, 33) on 0-3, across the window's time, as
// without any window.
func TestPartitionWindowHand(t *testing.T) {
	jobs := []actual.Job{pj(1, 1, 0, 4, 5, 5), pj(2, 1, 1, 3, 8, 8), pj(3, 1, 2, 2, 4, 4), pj(4, 2, 8, 4, 25, 25)}
	ok := job.Completed
	for _, pol := range []string{"fcfs", "easy", "conservative", "backfill"} {
		parts := []engine.Partition{part(t, pol, "b", 2, 0, 3), part(t, pol, "a", 1, 4, 7)}
		got, _ := runPartsAvail(t, 8, parts, jobs, &engine.Availability{Windows: []policy.Window{window(10, 20, 6, 7)}})
		j3 := availEnd{5, 9, "6-7", ok, 1}
		if pol == "fcfs" {
			j3 = availEnd{28, 32, "4-5", ok, 1}
		}
		wantEnds(t, pol, got, map[job.ID]availEnd{
			1: {0, 5, "4-7", ok, 1}, 2: {20, 28, "4-6", ok, 1}, 3: j3, 4: {8, 33, "0-3", ok, 1}})
		if len(got.spans) != 1 || got.spans[0] != "reserved 6-7 10-20" {
			t.Errorf("%s: spans %q", pol, got.spans)
		}
	}
}

// Four CPUs: partition a = CPUs 0-1 (trace partition 1), b = CPUs 2-3
// (trace partition 2). J1 (a, 2 CPUs) runs [0, 10); J2 (b, 2 CPUs)
// starts at 0 for 50; J3 (b, 1 CPU, estimate 5) waits behind it. CPU 2
// fails at 5 and comes back at 15.
//
// Requeue: J2 goes back to b's queue, at its head; b has one CPU up,
// J2 needs two: it waits, and so does J3 (strict FCFS; under EASY J2
// may start at any moment, so J3, ending at 10, cannot backfill). a's
// CPUs idle from 10 are not b's: J4 (a, 1 CPU, submitted at 12) starts
// there at once. At 15 J2 starts again on 2-3 (second attempt) until
// 65, and J3 runs [65, 70) on 2. Under conservative backfilling J3
// keeps the reservation it held (docs/availability.md: the requeued
// job is placed around the reservations of the jobs behind it), moves
// earlier and runs [5, 10) on CPU 3, and J2 still restarts at 15.
//
// Kill: J2 ends at 5, killed; J3 starts at 5 on b's CPU still up, 3.
func TestPartitionFailureHand(t *testing.T) {
	jobs := []actual.Job{pj(1, 1, 0, 2, 10, 10), pj(2, 2, 0, 2, 50, 50), pj(3, 2, 1, 1, 5, 5), pj(4, 1, 12, 1, 5, 5)}
	fail := func(on engine.OnFailure) *engine.Availability {
		return &engine.Availability{OnFailure: on, Failures: &changes{
			{Time: 5, CPUs: platform.Runs{2, 2}, Down: true}, {Time: 15, CPUs: platform.Runs{2, 2}}}}
	}
	ok := job.Completed
	for _, pol := range []string{"fcfs", "easy", "conservative"} {
		parts := func() []engine.Partition {
			return []engine.Partition{part(t, pol, "a", 1, 0, 1), part(t, pol, "b", 2, 2, 3)}
		}
		got, st := runPartsAvail(t, 4, parts(), jobs, fail(engine.FailRequeue))
		j3 := availEnd{65, 70, "2", ok, 1}
		if pol == "conservative" {
			j3 = availEnd{5, 10, "3", ok, 1}
		}
		wantEnds(t, pol+" requeue", got, map[job.ID]availEnd{
			1: {0, 10, "0-1", ok, 1}, 2: {15, 65, "2-3", ok, 2}, 3: j3, 4: {12, 17, "0", ok, 1}})
		if st.Requeued != 1 || strings.Join(got.cuts, " ") != "2@5" || strings.Join(got.spans, " ") != "down 2 5-15" {
			t.Errorf("%s requeue: %d requeued, cuts %q, spans %q", pol, st.Requeued, got.cuts, got.spans)
		}
		got, st = runPartsAvail(t, 4, parts(), jobs, fail(engine.FailKill))
		wantEnds(t, pol+" kill", got, map[job.ID]availEnd{
			1: {0, 10, "0-1", ok, 1}, 2: {0, 5, "2-3", job.Killed, 1}, 3: {5, 10, "3", ok, 1}, 4: {12, 17, "0", ok, 1}})
		if st.FailureKilled != 1 {
			t.Errorf("%s kill: %d killed by the failure", pol, st.FailureKilled)
		}
	}
}

// Overlapping partitions do not go with unavailable CPUs yet, and a
// partition's policy that does not plan around them is refused as
// without partitions.
func TestPartitionAvailRefused(t *testing.T) {
	a := &engine.Availability{Windows: []policy.Window{window(10, 20, 0, 1)}}
	_, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Source: workload.FromSlice(nil), Availability: a,
		Partitions: []engine.Partition{part(t, "easy", "a", 1, 0, 2), part(t, "easy", "b", 2, 2, 3)}})
	if err == nil || err.Error() != "overlapping partitions do not go with unavailable CPUs (reservations, failures) yet: partitions a and b share CPU 2" {
		t.Errorf("overlapping: %v", err)
	}
	_, err = engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Source: workload.FromSlice(nil), Availability: a,
		Partitions: []engine.Partition{part(t, "easy", "a", 1, 0, 1), part(t, "firstfit", "b", 2, 2, 3)}})
	if !errors.Is(err, engine.ErrNoAvailabilityPlanner) || !strings.Contains(err.Error(), "policy firstfit") {
		t.Errorf("firstfit: %v", err)
	}
}
