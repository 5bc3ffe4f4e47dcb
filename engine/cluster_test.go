package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

type started struct {
	start  float64
	reason job.StartReason
}

func simulate(t *testing.T, procs int, policy string, jobs []actual.Job) *enginetest.Recorder {
	t.Helper()
	pol, err := queuePolicy(policy, procs)
	if err != nil {
		t.Fatal(err)
	}
	return enginetest.RunCluster(t, platform.MustCluster(procs), pol, jobs, enginetest.Options{})
}

// startOf is job id's start as r recorded it (ok: it started).
func startOf(r *enginetest.Recorder, id job.ID) (s started, ok bool) {
	g, ok := r.Start(id)
	return started{g.At, g.Reason}, ok
}

// startAt is job id's start time as r recorded it (0: it did not start).
func startAt(r *enginetest.Recorder, id job.ID) float64 {
	s, _ := r.Start(id)
	return s.At
}

// endOf is job id's end time as r recorded it (0: it did not end).
func endOf(r *enginetest.Recorder, id job.ID) float64 {
	e, _ := r.End(id)
	return e.End
}

// j builds a job whose estimate (and request) is est and whose actual
// runtime is run.
var j = enginetest.Job

const (
	imm = job.Immediate
	bf  = job.Backfilled
	res = job.Reserved
)

// The five-job example of the tests below, on 10 processors:
//
//	J1 t=0 7 procs 10 s      J2 t=1 5 procs 10 s     J3 t=2 8 procs 5 s
//	J4 t=3 3 procs 30 s      J5 t=4 1 proc   2 s
func fiveJobs(j1run float64) []actual.Job {
	return []actual.Job{
		j(1, 0, 7, j1run, 10), j(2, 1, 5, 10, 10), j(3, 2, 8, 5, 5), j(4, 3, 3, 30, 30), j(5, 4, 1, 2, 2),
	}
}

func check(t *testing.T, got *enginetest.Recorder, want map[job.ID]started) {
	t.Helper()
	for id, w := range want {
		g, ok := startOf(got, id)
		if !ok {
			t.Errorf("job %d never started", id)
			continue
		}
		if g != w {
			t.Errorf("job %d: start %g (%v), want %g (%v)", id, g.start, g.reason, w.start, w.reason)
		}
	}
	if len(got.Starts) != len(want) || len(got.Ends) != len(want) {
		t.Errorf("%d starts and %d ends, want %d each", len(got.Starts), len(got.Ends), len(want))
	}
}

// FCFS: J1 at 0. J2 (5) waits for J1's end at 10. J3 (8) waits for J2's
// end at 20. At 25 J3 ends: J4 (3) and J5 (1) start together. Nothing ever
// passes a blocked head, even J5 which would fit at t=4.
func TestFCFSHandWorked(t *testing.T) {
	got := simulate(t, 10, "fcfs", fiveJobs(10))
	check(t, got, map[job.ID]started{1: {0, imm}, 2: {10, res}, 3: {20, res}, 4: {25, res}, 5: {25, res}})
}

// EASY: t=1 J2 is the head and does not fit (3 free): shadow 10 (J1's
// estimated end), extra = 10 - 5 = 5. t=2 J3 (8) does not fit now. t=3 J4
// (3 procs, ends 33 > shadow) fits now and 3 <= extra: backfilled, extra 2.
// t=4 J5: no processor free. t=10 J1 ends, J2 starts (free 2); J3 is the
// head: shadow = 33 (J4's end), extra 2; J5 fits and ends at 12 <= 33:
// backfilled at 10. J3 starts at 33: EASY let J4 delay it (by 13 s versus
// conservative).
func TestEASYHandWorked(t *testing.T) {
	got := simulate(t, 10, "easy", fiveJobs(10))
	check(t, got, map[job.ID]started{1: {0, imm}, 2: {10, res}, 3: {33, res}, 4: {3, bf}, 5: {10, bf}})
}

// Conservative: t=1 J2 reserves [10,20). t=2 J3 (8) reserves [20,25) (free
// is 3 before 10 and 5 during J2). t=3 J4 (3 procs, 30 s) would cross
// [20,25) where only 2 are free: reserves [25,55). t=4 J5 (1 proc, 2 s)
// fits in [4,6) with 3 free: backfilled. Then J2, J3, J4 start at their
// reservations 10, 20, 25.
func TestConservativeHandWorked(t *testing.T) {
	got := simulate(t, 10, "conservative", fiveJobs(10))
	check(t, got, map[job.ID]started{1: {0, imm}, 2: {10, res}, 3: {20, res}, 4: {25, res}, 5: {4, bf}})
}

// Compression: J1 ends at 6 instead of its estimated 10 (J5 ends at 6 too).
// Re-placing in queue order: J2 fits now, starts at 6, running to 16. J3 (8)
// moves from 20 to 16. J4 (3 procs, 30 s) at 6 would cross [16,21) with 2
// free: moves from 25 to 21. No reservation moved later.
func TestConservativeCompression(t *testing.T) {
	got := simulate(t, 10, "conservative", fiveJobs(6))
	check(t, got, map[job.ID]started{1: {0, imm}, 2: {6, res}, 3: {16, res}, 4: {21, res}, 5: {4, bf}})
}

// EASY with J1 ending early at 6: J4 was backfilled at 3 (as above); J5
// found no processor at 4. At 6, J2 starts (free 2), J3 is the head with
// shadow 33 (J2's estimated end 16 frees only 7), and J5 (ends 8 <= 33)
// backfills at 6. J3 starts when J4 ends, at 33.
func TestEASYEarlyEnd(t *testing.T) {
	got := simulate(t, 10, "easy", fiveJobs(6))
	check(t, got, map[job.ID]started{1: {0, imm}, 2: {6, res}, 3: {33, res}, 4: {3, bf}, 5: {6, bf}})
}

// Same-instant batching: a job ending at t=5 and one arriving at t=5 are
// both seen by one pass, so the arrival starts at 5 on the freed processors.
// A zero-length job ends at its start instant and frees its processors for
// another pass at the same time.
func TestSameInstantBatching(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 4, 5, 5), j(2, 5, 4, 1, 1), j(3, 5, 4, 0, 0), j(4, 5, 4, 2, 2)}
	got := simulate(t, 8, "fcfs", jobs)
	// t=5: J1 ends (4 free -> 8), then J2 and J3 arrive... and J4: one pass
	// starts J2 (4) and J3 (4). J3 ends at 5 (zero length): a second pass at
	// t=5 starts J4.
	check(t, got, map[job.ID]started{1: {0, imm}, 2: {5, imm}, 3: {5, imm}, 4: {5, imm}})
}

type stateLog struct {
	engine.NopListener
	killed, finished []job.ID
	states           []job.FinalState
}

func (l *stateLog) JobFinished(now float64, r *engine.Record) {
	l.finished = append(l.finished, r.Job.ID)
	l.states = append(l.states, r.State)
}
func (l *stateLog) JobKilled(now float64, r *engine.Record) {
	l.killed = append(l.killed, r.Job.ID)
	l.states = append(l.states, r.State)
}

// A job running past its request is killed at the limit by default (and
// reported as killed); with Continue it runs on.
func TestKilledAtLimit(t *testing.T) {
	jobs := []actual.Job{{ID: 1, Submit: 0, Procs: 2, Runtime: 50, Request: 20, Estimate: 20}, {ID: 2, Submit: 0, Procs: 1, Runtime: 5, Request: 20, Estimate: 20}}
	got := simulate(t, 3, "easy", jobs)
	if endOf(got, 1) != 20 || endOf(got, 2) != 5 {
		t.Fatalf("jobs ended at %g and %g, want 20 (killed at its limit) and 5", endOf(got, 1), endOf(got, 2))
	}
	for _, cont := range []bool{false, true} {
		l := &stateLog{}
		pol, _ := queuePolicy("easy", 3)
		c, _ := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(3), Policy: pol, Source: workload.FromSlice(jobs), Listener: l, Continue: cont})
		if err := c.Run(); err != nil {
			t.Fatal(err)
		}
		wantKilled := 1
		if cont {
			wantKilled = 0
		}
		if len(l.killed) != wantKilled || c.Stats().Killed != int64(wantKilled) {
			t.Errorf("continue=%v: killed %v (stats %d), want %d", cont, l.killed, c.Stats().Killed, wantKilled)
		}
		if !cont && (l.killed[0] != 1 || l.states[len(l.states)-1] != job.WalltimeReached) {
			t.Errorf("killed %v states %v", l.killed, l.states)
		}
	}
}

// A job id that is still in the system (here: running) is rejected.
func TestDuplicateRunningJobID(t *testing.T) {
	pol, _ := queuePolicy("fcfs", 4)
	c, _ := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: pol, Source: workload.FromSlice([]actual.Job{j(1, 0, 1, 10, 10), j(1, 5, 1, 10, 10)})})
	err := c.Run()
	if err == nil || !strings.Contains(err.Error(), "job 1: duplicate job id") {
		t.Fatalf("err = %v", err)
	}
	var ae *engine.AdmitError
	if !errors.As(err, &ae) || ae.Job != 1 || !errors.Is(err, engine.ErrDuplicateID) {
		t.Errorf("err = %#v: want an *AdmitError for job 1 wrapping ErrDuplicateID", err)
	}
}

func TestEngineRejectsImpossibleJob(t *testing.T) {
	pol, _ := queuePolicy("easy", 4)
	c, _ := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: pol, Source: workload.FromSlice([]actual.Job{j(7, 0, 5, 1, 1)})})
	err := c.Run()
	if err == nil || !strings.Contains(err.Error(), "job 7: needs 5 processors, the machine has 4") {
		t.Fatalf("err = %v", err)
	}
}

// liar starts the jobs ids at t=0, whatever the state.
func liar(ids []job.ID) enginetest.Scripted {
	s := enginetest.Scripted{0: nil}
	for _, id := range ids {
		s[0] = append(s[0], policy.Start{ID: id, Reason: job.Immediate})
	}
	return s
}

func TestEngineValidatesDecisions(t *testing.T) {
	two := []actual.Job{j(1, 0, 3, 1, 1), j(2, 0, 3, 1, 1)}
	for _, c := range []struct {
		name string
		ids  []job.ID
		want string
	}{
		{"unknown job", []job.ID{99}, "policy scripted at t=0: start job 99: the job is not waiting"},
		{"started twice", []job.ID{1, 1}, "policy scripted at t=0: start job 1: the job is not waiting"},
		{"no room", []job.ID{1, 2}, "policy scripted at t=0: start job 2: needs 3 processors, 1 free"},
		{"never started", nil, "policy scripted: 2 job(s) never started although all 4 processors are free at t=0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, _ := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: liar(c.ids), Source: workload.FromSlice(two)})
			err := e.Run()
			if err == nil || err.Error() != c.want {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// An id used again once its earlier job has ended is accepted, also when
// no other record sits between the two (the source is read one arrival
// ahead) and when the reuse arrives at the instant the earlier job ends.
func TestReusedJobIDAfterEnd(t *testing.T) {
	for name, jobs := range map[string][]actual.Job{
		"long after":      {j(1, 0, 1, 10, 10), j(1, 100, 1, 10, 10)},
		"at its end":      {j(1, 0, 1, 10, 10), j(1, 10, 1, 10, 10)},
		"three times":     {j(1, 0, 1, 10, 10), j(1, 50, 1, 10, 10), j(1, 100, 1, 10, 10)},
		"another between": {j(1, 0, 1, 10, 10), j(2, 5, 1, 10, 10), j(1, 30, 1, 10, 10)},
	} {
		pol, _ := queuePolicy("fcfs", 4)
		c, _ := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: pol, Source: workload.FromSlice(jobs)})
		if err := c.Run(); err != nil {
			t.Errorf("%s: %v", name, err)
		} else if c.Stats().Jobs != int64(len(jobs)) {
			t.Errorf("%s: %d jobs ran, want %d", name, c.Stats().Jobs, len(jobs))
		}
	}
}
