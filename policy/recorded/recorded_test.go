package recorded

import (
	"math"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
)

func rec(id job.ID, submit float64, procs int, run, wait float64) actual.Job {
	j := enginetest.Exact(id, submit, procs, run)
	if wait >= 0 {
		j.Recorded, j.RecordedWait = true, wait
	}
	return j
}

// On 4 CPUs: job 2 (2 CPUs, submitted at 1, wait 0) starts at 1 and
// runs to 6; job 3 (4 CPUs, submitted at 2, wait 1: recorded start 3)
// does not fit at 3 (job 2 holds 2 CPUs) and waits; job 1 (2 CPUs,
// submitted at 0, wait 5) starts at 5 and runs to 25; at 6 job 2 ends
// but 2 CPUs are not enough for job 3; job 4 (1 CPU, recorded start
// 6 + 2 = 8) starts at 8 although job 3 waits (it fitted on the real
// machine); job 3 starts at 25 when job 1 ends: 22 s late, the one late
// job; job 5 has no recorded wait: refused at submission.
func TestRecordedByHand(t *testing.T) {
	p := enginetest.MustPlatform(t, platform.Machine{CPUs: 4, Speed: 1})
	jobs := []actual.Job{
		rec(1, 0, 2, 20, 5),
		rec(2, 1, 2, 5, 0),
		rec(3, 2, 4, 1, 1),
		rec(4, 6, 1, 1, 2),
		rec(5, 7, 1, 1, -1),
	}
	pol := New(p)
	var kept []actual.Job // as a runner screens them (policy.Screener)
	for _, j := range jobs {
		if pol.Refuse(j.Info()) == "" {
			kept = append(kept, j)
		}
	}
	r := enginetest.RunCluster(t, p, pol, kept, enginetest.Options{})
	want := map[job.ID]float64{1: 5, 2: 1, 3: 25, 4: 8}
	for id, at := range want {
		s, ok := r.Start(id)
		if !ok || s.At != at {
			t.Errorf("job %d: started %v at %v, want at %v", id, ok, s.At, at)
		}
	}
	if _, ok := r.Start(5); ok {
		t.Error("job 5 (no recorded start) started")
	}
	if pol.Refuse(jobs[4].Info()) == "" || pol.Refuse(jobs[0].Info()) != "" {
		t.Error("Refuse: job 5 has no recorded start, job 1 has")
	}
	if late, d := pol.Late(); late != 1 || d != 22 {
		t.Errorf("late %d, max delay %v; want 1, 22", late, d)
	}
	if got := r.Order(); !slices.Equal(got, []job.ID{2, 1, 4, 3}) {
		t.Errorf("start order %v, want 2 1 4 3", got)
	}
	if math.IsNaN(jobs[0].Info().RecordedStart) || !math.IsNaN(jobs[4].Info().RecordedStart) {
		t.Error("Info().RecordedStart")
	}
}

// With room for every recorded start, the run is the recorded schedule
// job for job, and the independent checker accepts it.
func TestRecordedReplaysExactly(t *testing.T) {
	p := enginetest.MustPlatform(t, platform.Machine{CPUs: 8, Speed: 1})
	var jobs []actual.Job
	for i := range 50 {
		// jobs of 1 CPU, each recorded to start 3 s after its submission;
		// at most 8 overlap (submissions 1 s apart, 7 s runs).
		jobs = append(jobs, rec(job.ID(i+1), float64(i), 1, 7, 3))
	}
	pol := New(p)
	r := enginetest.RunCluster(t, p, pol, jobs, enginetest.Options{})
	for _, j := range jobs {
		s, ok := r.Start(j.ID)
		if !ok || s.At != j.Submit+3 {
			t.Fatalf("job %d at %v, want %v", j.ID, s.At, j.Submit+3)
		}
	}
	if late, _ := pol.Late(); late != 0 {
		t.Fatalf("%d late", late)
	}
}
