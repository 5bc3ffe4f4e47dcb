package backfill_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/validate"
)

// ran is one job's run as the model reports it.
type ran struct {
	start, end float64
	machine    int
	reason     job.StartReason
	cpus       []validate.Interval
}

// multiLog is every job's run on a platform of several machines, from
// the harness's recording (enginetest.Recorder).
type multiLog struct {
	runs map[job.ID]ran
	// order lists the jobs in start order.
	order []job.ID
}

// runOn simulates jobs on p under pol through the real central-queue
// model.
func runOn(t *testing.T, p platform.Platform, pol policy.QueueScheduler, jobs []actual.Job) *multiLog {
	t.Helper()
	r := enginetest.RunCluster(t, p, pol, jobs, enginetest.Options{})
	l := &multiLog{runs: map[job.ID]ran{}, order: r.Order()}
	for _, s := range r.Starts {
		l.runs[s.ID] = ran{start: s.At, machine: p.MachineOf(int(s.CPUs[0])), reason: s.Reason}
	}
	for _, e := range r.Ends {
		x := l.runs[e.Job.ID]
		x.end = e.End
		for k := 0; k+1 < len(e.CPUs); k += 2 {
			x.cpus = append(x.cpus, validate.Interval{Lo: int(e.CPUs[k]), Hi: int(e.CPUs[k+1])})
		}
		l.runs[e.Job.ID] = x
	}
	return l
}

// spy records the engine's queue after every pass, by pass time.
type spy struct {
	*backfill.Backfill
	after map[float64][]backfill.Queued
}

func (s *spy) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	s.Backfill.Schedule(now, v, plan)
	s.after[now] = s.Queue()
}

func newSpy(b *backfill.Backfill) *spy {
	return &spy{Backfill: b, after: map[float64][]backfill.Queued{}}
}

// exact makes a job whose estimate is its runtime (no request: never
// killed).
func exact(id int, submit float64, procs int, est float64) actual.Job {
	return actual.Job{ID: job.ID(id), Submit: submit, Procs: procs, Runtime: est, Estimate: est, Request: -1, User: -1, Group: -1}
}

var mustPlatform = enginetest.MustPlatform

func ids(qs []backfill.Queued) []job.ID {
	var out []job.ID
	for _, q := range qs {
		out = append(out, q.ID)
	}
	return out
}

func checkRuns(t *testing.T, l *multiLog, want map[job.ID]ran) {
	t.Helper()
	keys := make([]job.ID, 0, len(want))
	for id := range want {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	for _, id := range keys {
		w, g := want[id], l.runs[id]
		if g.start != w.start || g.end != w.end || g.machine != w.machine || g.reason != w.reason {
			t.Errorf("job %d: start %g end %g on m%d (%v), want start %g end %g on m%d (%v)",
				id, g.start, g.end, g.machine, g.reason, w.start, w.end, w.machine, w.reason)
		}
	}
}

// declared builds the policy of model called name from its declaration
// (backfill.Declarations), with option texts given and the defaults
// for the rest, on platform p, as the registry builds it.
func declared(model, name string, p platform.Platform, given map[string]string) (policy.QueueScheduler, error) {
	for _, d := range backfill.Declarations() {
		if d.Model != model || d.Name != name {
			continue
		}
		v, err := option.Check(d.Options, given)
		if err == nil && d.Check != nil {
			err = d.Check(v)
		}
		if err != nil {
			return nil, err
		}
		b, err := d.New(policy.Env{Platform: p}, v)
		return b.Queue, err
	}
	return nil, fmt.Errorf("no %s policy %q", model, name)
}

// declaredMulti builds the hetero model's policy called name on p from
// its declaration, Flexible's constants set to flex (nil: the
// defaults).
func declaredMulti(name string, p platform.Platform, flex *backfill.FlexParams) (policy.QueueScheduler, error) {
	var given map[string]string
	if flex != nil {
		f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		given = map[string]string{"agefactor": f(flex.AgeFactor), "deadline_k": f(flex.K), "deadline_max": f(flex.Max),
			"deadline_min": f(flex.Min), "boostvalue": f(flex.Boost), "pin_reservation": strconv.FormatBool(flex.Pin)}
	}
	return declared(policy.ModelHetero, name, p, given)
}
