package enginetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// Started is one start as the model reports it.
type Started struct {
	ID     job.ID
	At     float64
	Reason job.StartReason
	CPUs   platform.Runs // a copy
}

// String is "id@at:reason:cpus", e.g. "3@10:backfilled:[0 1]": one line
// of a schedule to compare between two runs.
func (s Started) String() string {
	return fmt.Sprintf("%d@%g:%v:%v", s.ID, s.At, s.Reason, s.CPUs)
}

// Ended is one job's run as the model reports it at its end.
type Ended struct {
	Start, End float64
	Reason     job.StartReason
	State      job.FinalState
	Killed     bool // ended by JobKilled
	Machine    int  // the machine of its first CPU (-1: none)
	CPUs       platform.Runs
	Sites      []int
	Job        actual.Job // a copy
}

// Recorder is an engine.Listener that keeps every start and every end.
// The zero value is ready to use.
type Recorder struct {
	engine.NopListener
	// Starts lists every start in the order the model reported them.
	Starts []Started
	// Ends lists every finished or killed job in end order.
	Ends []Ended

	start, end map[job.ID]int // indexes into Starts, Ends (the last for an id)
}

func (r *Recorder) JobStarted(now float64, s engine.Start) {
	if r.start == nil {
		r.start = map[job.ID]int{}
	}
	r.start[s.Job.ID] = len(r.Starts)
	r.Starts = append(r.Starts, Started{ID: s.Job.ID, At: now, Reason: s.Reason, CPUs: slices.Clone(s.CPUs)})
}

func (r *Recorder) JobFinished(now float64, x *engine.Record) { r.ended(x, false) }
func (r *Recorder) JobKilled(now float64, x *engine.Record)   { r.ended(x, true) }

func (r *Recorder) ended(x *engine.Record, killed bool) {
	if r.end == nil {
		r.end = map[job.ID]int{}
	}
	r.end[x.Job.ID] = len(r.Ends)
	r.Ends = append(r.Ends, Ended{Start: x.Start, End: x.End, Reason: x.Reason, State: x.State, Killed: killed,
		Machine: x.Machine, CPUs: slices.Clone(x.CPUs), Sites: slices.Clone(x.Sites), Job: *x.Job})
}

// Start returns job id's (last) start; ok is false if it never started.
func (r *Recorder) Start(id job.ID) (s Started, ok bool) {
	i, ok := r.start[id]
	if !ok {
		return Started{}, false
	}
	return r.Starts[i], true
}

// End returns job id's (last) end; ok is false if it has not ended.
func (r *Recorder) End(id job.ID) (e Ended, ok bool) {
	i, ok := r.end[id]
	if !ok {
		return Ended{}, false
	}
	return r.Ends[i], true
}

// At is job id's (last) start time; 0 if it never started.
func (r *Recorder) At(id job.ID) float64 {
	s, _ := r.Start(id)
	return s.At
}

// Reason is job id's (last) start reason; the zero reason if it never
// started.
func (r *Recorder) Reason(id job.ID) job.StartReason {
	s, _ := r.Start(id)
	return s.Reason
}

// Order lists the started jobs' ids in start order.
func (r *Recorder) Order() []job.ID {
	out := make([]job.ID, len(r.Starts))
	for i, s := range r.Starts {
		out[i] = s.ID
	}
	return out
}

// Log is Starts as strings (Started.String), in start order.
func (r *Recorder) Log() []string {
	out := make([]string, len(r.Starts))
	for i, s := range r.Starts {
		out[i] = s.String()
	}
	return out
}

// Recs are the ended jobs as the independent checker reads them, in end
// order.
func (r *Recorder) Recs() []validate.Rec {
	out := make([]validate.Rec, len(r.Ends))
	for i, e := range r.Ends {
		out[i] = validate.Rec{ID: int64(e.Job.ID), Submit: e.Job.Submit, Start: e.Start, Finish: e.End,
			Procs: e.Job.Procs, State: e.State.String()}
	}
	return out
}

// Check hands the recorded schedule of jobs to the independent checker
// (validate.Check) and fails t if it finds a fault.
func (r *Recorder) Check(t testing.TB, jobs []actual.Job, o validate.Options) {
	t.Helper()
	in := make([]validate.Input, len(jobs))
	for i, j := range jobs {
		in[i] = validate.Input{ID: int64(j.ID), Submit: j.Submit, Runtime: j.Runtime, Request: j.Request, Procs: j.Procs}
	}
	if err := validate.Check(in, r.Recs(), o); err != nil {
		t.Fatal(err)
	}
}

// Scripted is a central-queue policy that makes exactly the starts it is
// given, at the instants it is given (by pass time), and nothing else.
// The engine validates them as any policy's: a harness for the model's
// rules.
type Scripted map[float64][]policy.Start

func (s Scripted) Name() string             { return "scripted" }
func (s Scripted) Submit(float64, job.Info) {}
func (s Scripted) Finish(float64, job.ID)   {}
func (s Scripted) Schedule(now float64, v policy.Machines, p *policy.Plan) {
	p.Starts = append(p.Starts, s[now]...)
}

// Options are RunCluster's optional settings.
type Options struct {
	// Continue lets jobs run past their request (engine.ClusterConfig).
	Continue bool
	// Listener, when set, is told of everything as well (after the
	// Recorder).
	Listener engine.Listener
	// Cap is a power cap (engine.ClusterConfig.Cap).
	Cap *engine.PowerCap
}

// Run builds the central-queue model of p under pol over jobs, runs it
// and returns what it recorded, with the run's error (a configuration
// error included).
func Run(p platform.Platform, pol policy.QueueScheduler, jobs []actual.Job, o Options) (*Recorder, error) {
	r := &Recorder{}
	var l engine.Listener = r
	if o.Listener != nil {
		l = engine.Tee{r, o.Listener}
	}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: p, Policy: pol, Source: workload.FromSlice(jobs),
		Listener: l, Continue: o.Continue, Cap: o.Cap})
	if err != nil {
		return r, err
	}
	return r, c.Run()
}

// RunCluster is Run failing t on an error.
func RunCluster(t testing.TB, p platform.Platform, pol policy.QueueScheduler, jobs []actual.Job, o Options) *Recorder {
	t.Helper()
	r, err := Run(p, pol, jobs, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Job is a job of procs CPUs submitted at submit that runs for runtime
// and is estimated (and requested, so killed) at estimate; no user or
// group.
func Job(id job.ID, submit float64, procs int, runtime, estimate float64) actual.Job {
	return actual.Job{ID: id, Submit: submit, Procs: procs, Runtime: runtime, Estimate: estimate, Request: estimate, User: -1, Group: -1}
}

// Exact is a job whose estimate is its runtime, with no request (never
// killed); no user or group.
func Exact(id job.ID, submit float64, procs int, runtime float64) actual.Job {
	return actual.Job{ID: id, Submit: submit, Procs: procs, Runtime: runtime, Estimate: runtime, Request: -1, User: -1, Group: -1}
}

// MustPlatform is platform.New failing t on an error.
func MustPlatform(t testing.TB, ms ...platform.Machine) platform.Platform {
	t.Helper()
	p, err := platform.New(ms)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
