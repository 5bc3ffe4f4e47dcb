package engine_test

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// availEnd is one job's record as the availability tests see it.
type availEnd struct {
	start, end float64
	cpus       string
	state      job.FinalState
	attempts   int
}

type availRec struct {
	engine.NopListener
	ends  map[job.ID]availEnd
	spans []string
	cuts  []string
}

func (r *availRec) JobFinished(now float64, rec *engine.Record) { r.add(rec) }
func (r *availRec) JobKilled(now float64, rec *engine.Record)   { r.add(rec) }
func (r *availRec) add(rec *engine.Record) {
	r.ends[rec.Job.ID] = availEnd{rec.Start, rec.End, rec.CPUs.String(), rec.State, rec.Attempts}
}
func (r *availRec) Unavailable(k engine.UnavailKind, s, e float64, cpus platform.Runs) {
	r.spans = append(r.spans, k.String()+" "+cpus.String()+" "+ftoa(s)+"-"+ftoa(e))
}
func (r *availRec) Interrupted(now float64, rec *engine.Record, requeued bool) {
	r.cuts = append(r.cuts, ftoa(float64(rec.Job.ID))+"@"+ftoa(now))
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// changes is a ChangeSource over a slice.
type changes []engine.Change

func (c *changes) Next() (engine.Change, error) {
	if len(*c) == 0 {
		return engine.Change{}, io.EOF
	}
	x := (*c)[0]
	*c = (*c)[1:]
	return x, nil
}

func runAvail(t *testing.T, procs int, pol string, jobs []actual.Job, a *engine.Availability) (*availRec, engine.Stats) {
	t.Helper()
	p, err := queuePolicy(pol, procs)
	if err != nil {
		t.Fatal(err)
	}
	rec := &availRec{ends: map[job.ID]availEnd{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: p, Source: workload.FromSlice(jobs), Listener: rec, Availability: a})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return rec, c.Stats()
}

func wantEnds(t *testing.T, name string, got *availRec, want map[job.ID]availEnd) {
	t.Helper()
	for id, w := range want {
		if g := got.ends[id]; g != w {
			t.Errorf("%s: job %d: got %+v, want %+v", name, id, g, w)
		}
	}
	if len(got.ends) != len(want) {
		t.Errorf("%s: %d jobs ended, want %d", name, len(got.ends), len(want))
	}
}

func window(s, e float64, lo, hi int32) policy.Window {
	return policy.Window{Start: s, End: e, CPUs: platform.Runs{lo, hi}}
}

// A full maintenance window [10, 20) on all 10 CPUs. J1 (10 CPUs) runs
// [0, 5). At 5, J2 (4 CPUs, estimate 8) would run to 13, across the
// window: it must wait for its end, 20. J3 (4 CPUs, estimate 4) ends by
// 9, before the window: the backfilling policies start it at 5 (J2's
// reservation at 20 is untouched); strict FCFS keeps it behind J2, and
// at 20 both fit (4 + 4 <= 10).
func TestReservationHand(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 10, 5, 5), j(2, 1, 4, 8, 8), j(3, 2, 4, 4, 4)}
	ok := job.Completed
	for _, pol := range []string{"easy", "conservative", "backfill"} {
		got, _ := runAvail(t, 10, pol, jobs, &engine.Availability{Windows: []policy.Window{window(10, 20, 0, 9)}})
		wantEnds(t, pol, got, map[job.ID]availEnd{
			1: {0, 5, "0-9", ok, 1}, 2: {20, 28, "0-3", ok, 1}, 3: {5, 9, "0-3", ok, 1}})
		if len(got.spans) != 1 || got.spans[0] != "reserved 0-9 10-20" {
			t.Errorf("%s: spans %q", pol, got.spans)
		}
	}
	got, _ := runAvail(t, 10, "fcfs", jobs, &engine.Availability{Windows: []policy.Window{window(10, 20, 0, 9)}})
	wantEnds(t, "fcfs", got, map[job.ID]availEnd{
		1: {0, 5, "0-9", ok, 1}, 2: {20, 28, "0-3", ok, 1}, 3: {20, 24, "4-7", ok, 1}})
}

// A window [10, 20) on CPUs 0-4 of 10. J1 (10 CPUs) runs [0, 5). At 5,
// under EASY: J2 (6 CPUs, estimate 20) would cross the window on 6 CPUs
// while only 5 stay up: reserved at 20. J3 (5 CPUs, estimate 14) crosses
// the window on 5, ends at 19 before J2's start: it backfills, and must
// get the CPUs no window touches, 5-9 (the lowest free ids, 0-4, would
// put it into the window). J4 (5 CPUs, estimate 4) ends at 9 before the
// window: it backfills on 0-4.
func TestReservationPartialCPUs(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 10, 5, 5), j(2, 1, 6, 20, 20), j(3, 2, 5, 14, 14), j(4, 3, 5, 4, 4)}
	ok := job.Completed
	for _, pol := range []string{"easy", "conservative"} {
		got, _ := runAvail(t, 10, pol, jobs, &engine.Availability{Windows: []policy.Window{window(10, 20, 0, 4)}})
		wantEnds(t, pol, got, map[job.ID]availEnd{
			1: {0, 5, "0-9", ok, 1}, 2: {20, 40, "0-5", ok, 1}, 3: {5, 19, "5-9", ok, 1}, 4: {5, 9, "0-4", ok, 1}})
	}
}

// Counts fit but identities do not: a window [10, 20) on CPUs 0-4 of 10.
// J1 (5 CPUs, estimate 1) gets 0-4 (the model keeps the CPUs no window
// touches for longer jobs), J2 (5 CPUs, estimate 9) gets 5-9. At 1, J1
// has availEnd and J3 (5 CPUs, estimate 50) fits by count (5 CPUs stay up
// during the window) but the only idle CPUs, 0-4, are reserved from 10:
// it starts at 9 on 5-9, when J2 ends.
func TestReservationIdentities(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 5, 1, 1), j(2, 0, 5, 9, 9), j(3, 1, 5, 50, 50)}
	ok := job.Completed
	for _, pol := range []string{"easy", "conservative", "fcfs"} {
		got, _ := runAvail(t, 10, pol, jobs, &engine.Availability{Windows: []policy.Window{window(10, 20, 0, 4)}})
		wantEnds(t, pol, got, map[job.ID]availEnd{
			1: {0, 1, "0-4", ok, 1}, 2: {0, 9, "5-9", ok, 1}, 3: {9, 59, "5-9", ok, 1}})
	}
}

// CPUs 0-4 of 10 fail at 5 and return at 15. J1 (4 CPUs) runs on 0-3,
// J2 (2 CPUs) on 4-5, J3 (4 CPUs) on 6-9, all from 0 for 10 s.
//
// kill: J1 and J2 end at 5, COMPLETED_KILLED; J3 completes at 10, the
// end of the run (the return at 15 comes after it).
//
// requeue: J1 and J2 go back to the queue at 5. Only CPU 5 is up and
// idle: nothing starts. At 10 J3 ends: CPUs 5-9 are idle, J1 starts on
// 5-8 (ends 20); J2 needs 2, only CPU 9 is idle. At 15 CPUs 0-4 return:
// J2 starts on 0-1 (ends 25). Each ran twice.
func TestFailureHand(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 4, 10, 10), j(2, 0, 2, 10, 10), j(3, 0, 4, 10, 10)}
	fail := func() *changes {
		return &changes{{Time: 5, CPUs: platform.Runs{0, 4}, Down: true}, {Time: 15, CPUs: platform.Runs{0, 4}}}
	}
	for _, pol := range []string{"fcfs", "easy", "conservative"} {
		got, st := runAvail(t, 10, pol, jobs, &engine.Availability{Failures: fail(), OnFailure: engine.FailKill})
		wantEnds(t, pol+" kill", got, map[job.ID]availEnd{
			1: {0, 5, "0-3", job.Killed, 1}, 2: {0, 5, "4-5", job.Killed, 1}, 3: {0, 10, "6-9", job.Completed, 1}})
		if st.FailureKilled != 2 || st.Requeued != 0 || st.Killed != 0 {
			t.Errorf("%s kill: stats %+v", pol, st)
		}
		// The run ends at 10 with J3: the span is reported up to there.
		if strings.Join(got.spans, ";") != "down 0-4 5-10" {
			t.Errorf("%s kill: spans %q", pol, got.spans)
		}

		got, st = runAvail(t, 10, pol, jobs, &engine.Availability{Failures: fail(), OnFailure: engine.FailRequeue})
		wantEnds(t, pol+" requeue", got, map[job.ID]availEnd{
			1: {10, 20, "5-8", job.Completed, 2}, 2: {15, 25, "0-1", job.Completed, 2}, 3: {0, 10, "6-9", job.Completed, 1}})
		if st.FailureKilled != 0 || st.Requeued != 2 || st.Jobs != 3 {
			t.Errorf("%s requeue: stats %+v", pol, st)
		}
		if strings.Join(got.cuts, ";") != "1@5;2@5" {
			t.Errorf("%s requeue: cuts %q", pol, got.cuts)
		}
	}
}

// A failure that outlasts the workload does not keep the run going,
// and is reported up to the run's last instant.
func TestFailureAfterLastJob(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 2, 10, 10)}
	got, st := runAvail(t, 4, "easy", jobs, &engine.Availability{Failures: &changes{
		{Time: 3, CPUs: platform.Runs{2, 3}, Down: true}, {Time: 1000, CPUs: platform.Runs{2, 3}}}})
	if st.End != 10 {
		t.Errorf("run availEnd at %g, want 10 (the last job's end)", st.End)
	}
	if strings.Join(got.spans, ";") != "down 2-3 3-10" {
		t.Errorf("spans %q", got.spans)
	}
}

func TestAvailabilityRefused(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 2, 10, 10)}
	for _, tc := range []struct {
		pol  string
		a    engine.Availability
		want string
	}{
		{"firstfit", engine.Availability{Windows: []policy.Window{window(1, 2, 0, 1)}}, "does not plan around unavailable CPUs"},
		{"easy", engine.Availability{Windows: []policy.Window{window(1, 5, 0, 1), window(4, 6, 1, 2)}}, "both hold CPU 1"},
		{"easy", engine.Availability{Windows: []policy.Window{window(2, 2, 0, 1)}}, "start before end"},
		{"easy", engine.Availability{Windows: []policy.Window{window(1, 2, 0, 4)}}, "CPU 4 is not on the platform"},
	} {
		p, _ := queuePolicy(tc.pol, 4)
		_, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: p, Source: workload.FromSlice(jobs), Availability: &tc.a})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: error %v, want %q", tc.pol, tc.a, err, tc.want)
		}
	}
	// Unsorted failure events stop the run with a message.
	p, _ := queuePolicy("easy", 4)
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: p, Source: workload.FromSlice(jobs),
		Availability: &engine.Availability{Failures: &changes{{Time: 5, CPUs: platform.Runs{0, 0}, Down: true}, {Time: 4, CPUs: platform.Runs{0, 0}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err == nil || !strings.Contains(err.Error(), "not sorted") {
		t.Errorf("unsorted events: %v", err)
	}
}

// A requeued job goes back to its place in the queue, ahead of jobs
// holding reservations. 8 CPUs, a window [20, 30) on all of them; J1 (4
// CPUs, 10 s) runs on 0-3 from 0; J2 (8 CPUs, 10 s, submitted at 1)
// reserves [10, 20), just before the window. CPUs 0-1 fail at 5 (back at
// 12): J1 is requeued, ahead of J2.
//
// EASY and FCFS: J1 is the head again; J2's reservation, now behind it,
// is lifted; J1 fits [5, 15) on the 6 CPUs up (it gets 2-5) and starts
// at once. J2 cannot run [15, 25) across the window: it starts at 30.
//
// Conservative (and backfill, unlimited depth): J1 is placed around the
// reservations already held: J2's [10, 20) leaves it nothing before the
// window, so it reserves 30. At 10 J2 cannot start (2 CPUs down): its
// reservation moves to 30 and J1 compresses to [10, 20); J2 starts at 30.
func TestRequeueAtItsPlace(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 4, 10, 10), j(2, 1, 8, 10, 10)}
	ok := job.Completed
	for _, tc := range []struct {
		pol   string
		start float64
	}{{"easy", 5}, {"fcfs", 5}, {"conservative", 10}, {"backfill", 10}} {
		got, _ := runAvail(t, 8, tc.pol, jobs, &engine.Availability{Windows: []policy.Window{window(20, 30, 0, 7)}, OnFailure: engine.FailRequeue,
			Failures: &changes{{Time: 5, CPUs: platform.Runs{0, 1}, Down: true}, {Time: 12, CPUs: platform.Runs{0, 1}}}})
		wantEnds(t, tc.pol, got, map[job.ID]availEnd{
			1: {tc.start, tc.start + 10, "2-5", ok, 2}, 2: {30, 40, "0-7", ok, 1}})
	}
}

// The failure rules parse by name; an unknown one is refused with the
// names that are known (the message every enum option gives; it used to
// say "(want kill or requeue)", the same names).
func TestParseOnFailure(t *testing.T) {
	for _, o := range engine.OnFailures() {
		if got, err := engine.ParseOnFailure(o.String()); err != nil || got != o {
			t.Errorf("ParseOnFailure(%q) = %v, %v", o, got, err)
		}
	}
	if _, err := engine.ParseOnFailure("retry"); err == nil || err.Error() != `unknown failure rule "retry" (known: kill, requeue)` {
		t.Errorf("ParseOnFailure(retry): %v", err)
	}
}

// A job killed by a failure ends the run when it was the last job: its
// void completion (at its original end) does not keep the run going, so
// no failure after it is applied or reported, and the failure still in
// progress is reported up to the run's last instant, the kill (a span of
// length 0 there: the checker needs it to see why the job ended).
// J1 (2 CPUs, 100 s) on 0-1, J2 (2 CPUs, 10 s) on 2-3; CPUs 0-1 fail at
// 20 (J1 is killed: the last job), CPUs 2-3 fail over [30, 40) and 0-1
// return at 50, all after the run's end.
func TestFailureKillsLastJob(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 2, 100, 100), j(2, 0, 2, 10, 10)}
	for _, pol := range []string{"fcfs", "easy", "conservative"} {
		got, st := runAvail(t, 4, pol, jobs, &engine.Availability{Failures: &changes{
			{Time: 20, CPUs: platform.Runs{0, 1}, Down: true},
			{Time: 30, CPUs: platform.Runs{2, 3}, Down: true}, {Time: 40, CPUs: platform.Runs{2, 3}},
			{Time: 50, CPUs: platform.Runs{0, 1}}}})
		wantEnds(t, pol, got, map[job.ID]availEnd{1: {0, 20, "0-1", job.Killed, 1}, 2: {0, 10, "2-3", job.Completed, 1}})
		if st.End != 20 {
			t.Errorf("%s: run ends at %g, want 20 (the killed last job's end)", pol, st.End)
		}
		if s := strings.Join(got.spans, ";"); s != "down 0-1 20-20" {
			t.Errorf("%s: spans %q, want %q", pol, s, "down 0-1 20-20")
		}
	}
}

// endless is a ChangeSource of failures that never ends: CPUs cpus go
// down at from, from+2*step, ... and come back step later. It gives up
// with an error after limit changes, so that a run it would keep going
// for ever fails instead of hanging the test.
type endless struct {
	cpus       platform.Runs
	from, step float64
	n, limit   int
}

func (e *endless) Next() (engine.Change, error) {
	if e.n >= e.limit {
		return engine.Change{}, fmt.Errorf("test source: %d changes and the run still goes on", e.n)
	}
	ch := engine.Change{Time: e.from + float64(e.n)*e.step, CPUs: e.cpus, Down: e.n%2 == 0}
	e.n++
	return ch, nil
}

func runAvailErr(procs int, pol string, jobs []actual.Job, a *engine.Availability) error {
	p, err := queuePolicy(pol, procs)
	if err != nil {
		return err
	}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: p, Source: workload.FromSlice(jobs), Availability: a})
	if err != nil {
		return err
	}
	return c.Run()
}

// A job requeued by failures more frequent than its runtime would run
// again for ever: after engine.MaxRequeues requeues the run stops with
// a message naming the job and the limit.
func TestRequeueLimit(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 2, 100, 100)}
	err := runAvailErr(2, "easy", jobs, &engine.Availability{OnFailure: engine.FailRequeue,
		Failures: &endless{cpus: platform.Runs{0, 1}, from: 10, step: 5, limit: 10 * engine.MaxRequeues}})
	if err == nil || !strings.Contains(err.Error(), "job 1") || !strings.Contains(err.Error(), "engine.MaxRequeues") ||
		!errors.Is(err, engine.ErrAvailLimit) {
		t.Fatalf("error %v, want job 1 requeued more than engine.MaxRequeues times", err)
	}
	// Exactly MaxRequeues requeues are fine: the job then runs to its end.
	var cs changes
	for k := range engine.MaxRequeues {
		cs = append(cs, engine.Change{Time: float64(10 + 10*k), CPUs: platform.Runs{0, 1}, Down: true},
			engine.Change{Time: float64(15 + 10*k), CPUs: platform.Runs{0, 1}})
	}
	got, st := runAvail(t, 2, "easy", jobs, &engine.Availability{OnFailure: engine.FailRequeue, Failures: &cs})
	last := float64(15 + 10*(engine.MaxRequeues-1))
	wantEnds(t, "at the limit", got, map[job.ID]availEnd{1: {last, last + 100, "0-1", job.Completed, engine.MaxRequeues + 1}})
	if st.Requeued != engine.MaxRequeues {
		t.Errorf("requeued %d times, want %d", st.Requeued, engine.MaxRequeues)
	}
}

// Failures so frequent that the run would step through millions of them
// (--failures 1e-6:1e-6 is inside the documented bounds) stop the run
// once engine.MaxFailureChanges changes are applied, whatever the jobs
// do: here the failures never touch the one job's CPU.
func TestFailureChangesLimit(t *testing.T) {
	jobs := []actual.Job{j(1, 0, 1, 1e7, 1e7)}
	err := runAvailErr(2, "easy", jobs, &engine.Availability{
		Failures: &endless{cpus: platform.Runs{1, 1}, from: 1, step: 1, limit: engine.MaxFailureChanges + 1000}})
	if err == nil || !strings.Contains(err.Error(), "engine.MaxFailureChanges") || !errors.Is(err, engine.ErrAvailLimit) {
		t.Fatalf("error %v, want more than engine.MaxFailureChanges changes", err)
	}
}

// A return of CPUs that went down apart is reported as one span per
// run of CPUs: an events file can make several rows of
// unavailability.csv a change. The spans are bounded on their own
// (engine.MaxSpans): here 4 a return, the limit is met before
// MaxFailureChanges.
func TestSpansLimit(t *testing.T) {
	if engine.MaxSpans/4 >= engine.MaxFailureChanges/2 {
		t.Fatal("the test needs MaxSpans reached before MaxFailureChanges")
	}
	jobs := []actual.Job{j(1, 0, 1, 1e7, 1e7)}
	src := &apart{down: platform.Runs{1, 1, 3, 3, 5, 5, 7, 7}, up: platform.Runs{1, 7}, limit: engine.MaxFailureChanges + 1000}
	err := runAvailErr(8, "easy", jobs, &engine.Availability{Failures: src})
	if err == nil || !strings.Contains(err.Error(), "engine.MaxSpans") || !errors.Is(err, engine.ErrAvailLimit) {
		t.Fatalf("error %v, want more than engine.MaxSpans spans", err)
	}
}

// apart alternates a failure of the CPUs down and a return of up, one a
// second, giving up after limit changes.
type apart struct {
	down, up platform.Runs
	n, limit int
}

func (a *apart) Next() (engine.Change, error) {
	if a.n >= a.limit {
		return engine.Change{}, fmt.Errorf("test source: %d changes and the run still goes on", a.n)
	}
	a.n++
	if a.n%2 == 1 {
		return engine.Change{Time: float64(a.n), CPUs: a.down, Down: true}, nil
	}
	return engine.Change{Time: float64(a.n), CPUs: a.up}, nil
}
