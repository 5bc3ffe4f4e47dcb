package predict_test

import (
	"fmt"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/validate"
)

// outcome is a job's start, end, start reason and final state.
type outcome struct {
	start, end float64
	reason     job.StartReason
	killed     bool
}

// simulate runs pol on jobs over a cluster of procs CPUs, killing jobs at
// their request, and checks the schedule with the independent validator
// (no CPU used twice, no start before submit, every job run once for its
// possibly killed runtime).
func simulate(t *testing.T, pol policy.QueueScheduler, jobs []actual.Job, procs int) map[job.ID]outcome {
	t.Helper()
	r := enginetest.RunCluster(t, platform.MustCluster(procs), pol, jobs, enginetest.Options{})
	r.Check(t, jobs, validate.Options{Procs: procs, Kill: true})
	out := map[job.ID]outcome{}
	for _, e := range r.Ends {
		out[e.Job.ID] = outcome{e.Start, e.End, e.Reason, e.Killed}
	}
	return out
}

func userJob(id int, user int32, submit float64, procs int, runtime, request float64) actual.Job {
	return actual.Job{ID: job.ID(id), Submit: submit, Procs: procs, Runtime: runtime, Request: request, Estimate: request, User: user, Group: -1}
}

// The EASY schedule of five jobs on 4 CPUs, worked by hand, with the
// users' requests and with last2 predictions.
//
//	job user submit procs runtime request
//	1   1    0      1     10      100
//	2   1    0      1     10      100
//	3   2    20     2     100     100
//	4   3    21     4     10      10
//	5   1    22     2     10|200  1000
//
// With requests: 1 and 2 start at 0; 3 at 20; 4 does not fit at 21 and
// reserves 120 (3's end), no extra CPUs; 5 (22+1000 > 120) cannot
// backfill, and starts at 130 after 4 (120..130).
//
// With predictions: user 1's runtimes 10, 10 make job 5's prediction 10,
// so it backfills at 22 (22+10 <= 120). Running 10 s it ends at 32 and 4
// keeps 120. Running 200 s it outlives its prediction: the pass at its
// predicted end 32 (asked through Plan.Wake, job 4 waiting) corrects it to
// 10+60 = 70 (end 92, before 4's reservation: 120 kept); the pass at 92
// to 10+300 = 310 (end 332): 4's reservation moves to 332 (at 120 only
// job 3's 2 CPUs come back). Job 5 is not killed at its prediction: it
// ends at 222, and 4 starts then.
func TestEASYWithPredictionsByHand(t *testing.T) {
	type want struct {
		start  float64
		reason job.StartReason
	}
	I, B, R := job.Immediate, job.Backfilled, job.Reserved
	for _, c := range []struct {
		name    string
		run5    float64
		predict bool
		want    map[job.ID]want
		corr    int64
		resv4   string // job 4's reservations by pass: now:at
	}{
		{"requests", 10, false, map[job.ID]want{1: {0, I}, 2: {0, I}, 3: {20, I}, 4: {120, R}, 5: {130, R}}, 0, "21:120 22:120"},
		{"requests, job 5 long", 200, false, map[job.ID]want{1: {0, I}, 2: {0, I}, 3: {20, I}, 4: {120, R}, 5: {130, R}}, 0, "21:120 22:120"},
		{"predictions", 10, true, map[job.ID]want{1: {0, I}, 2: {0, I}, 3: {20, I}, 4: {120, R}, 5: {22, B}}, 0, "21:120 22:120 32:120"},
		{"predictions, job 5 corrected", 200, true, map[job.ID]want{1: {0, I}, 2: {0, I}, 3: {20, I}, 4: {222, R}, 5: {22, B}}, 2,
			"21:120 22:120 32:120 92:332 120:332"},
	} {
		jobs := []actual.Job{
			userJob(1, 1, 0, 1, 10, 100),
			userJob(2, 1, 0, 1, 10, 100),
			userJob(3, 2, 20, 2, 100, 100),
			userJob(4, 3, 21, 4, 10, 10),
			userJob(5, 1, 22, 2, c.run5, 1000),
		}
		easy := backfill.NewBackfill("easy", 4, 1, backfill.OrderFCFS)
		resv4 := ""
		easy.OnReserve = func(now float64, id job.ID, at float64) {
			if id == 4 {
				resv4 += fmt.Sprintf(" %g:%g", now, at)
			}
		}
		var pol policy.QueueScheduler = easy
		var pr *predict.Predictor
		if c.predict {
			pr = predict.New(easy, predict.Params{})
			pol = pr
		}
		got := simulate(t, pol, jobs, 4)
		for id, w := range c.want {
			if g := got[id]; g.start != w.start || g.reason != w.reason || g.killed {
				t.Errorf("%s: job %d starts at %g (%v, killed %v), want %g (%v)", c.name, id, g.start, g.reason, g.killed, w.start, w.reason)
			}
		}
		if e := got[5].end; e != got[5].start+c.run5 {
			t.Errorf("%s: job 5 ends at %g, want its start + %g", c.name, e, c.run5)
		}
		if resv4 != " "+c.resv4 {
			t.Errorf("%s: job 4's reservations%s, want %s", c.name, resv4, c.resv4)
		}
		if pr != nil && pr.Corrections() != c.corr {
			t.Errorf("%s: %d corrections, want %d", c.name, pr.Corrections(), c.corr)
		}
	}
}

// A prediction never shortens a job's life: a job predicted 105 s
// (user 1's runtimes 10 and 200) with a request of 150 s that would run
// 400 s is killed at its request, 150 s after its start.
func TestKilledAtRequestNotPrediction(t *testing.T) {
	jobs := []actual.Job{
		userJob(1, 1, 0, 1, 10, 100),
		userJob(2, 1, 20, 1, 200, 1000),
		userJob(3, 1, 300, 1, 400, 150),
	}
	pr := predict.New(backfill.NewBackfill("easy", 2, 1, backfill.OrderFCFS), predict.Params{})
	var pred float64
	pr.OnCorrect = func(float64, job.ID, int, float64) { t.Error("no job waits: no pass, no correction") }
	got := simulate(t, &peek{Predictor: pr, id: 3, at: &pred}, jobs, 2)
	if pred != 105 {
		t.Fatalf("job 3's prediction %g, want (10+200)/2 = 105", pred)
	}
	if g := got[3]; g.start != 300 || g.end != 450 || !g.killed {
		t.Fatalf("job 3: %+v, want started at 300 and killed at 450", g)
	}
}

// peek records a job's prediction as the inner policy knows it when the
// job starts.
type peek struct {
	*predict.Predictor
	id job.ID
	at *float64
}

func (p *peek) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if e, _, ok := p.Prediction(p.id); ok {
		*p.at = e
	}
	p.Predictor.Schedule(now, v, plan)
}
