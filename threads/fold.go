package threads

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
)

// Fold turns the events of a run whose jobs were split into
// one-processor threads (Split, IDs job.ThreadID) back into
// the events of the jobs, for the listeners it wraps: a job is submitted
// with all its threads (Procs = its thread count), starts when its first
// thread starts (that thread's reason and CPU), and ends when its last
// thread ends, with Record.Start = the first thread's start, End = the
// last thread's end, CPUs = every CPU its threads used, State =
// WalltimeReached if a thread was killed. Time listeners among the
// wrapped ones get TimeAdvanced unchanged (the usage counts are the
// threads', which is what the CPUs do).
//
// Record.Exec of a folded job is last end - first start, which overstates
// the CPU time of a job whose threads did not run side by side: Work is
// the CPU time the threads used, for utilization.
//
// Memory: one entry per job present, found by ID through a slice over the
// range of live IDs (foldIndex) rather than a map, since every thread
// looks its job up. Events of threads whose job it has not seen submitted
// are an error (Err), not a panic.
type Fold struct {
	down  engine.Listener
	tdown []engine.TimeListener
	jobs  foldIndex
	pend  *folded // submitted, not yet told downstream (more threads may follow)
	pool  []*folded
	rec   engine.Record
	work  float64
	err   error
}

type folded struct {
	job            actual.Job
	started, ended int
	start          float64
	reason         job.StartReason
	cpus           []int32
	runs           platform.Runs
	killed         bool
}

// NewFold wraps down (which may be a Tee).
func NewFold(down engine.Listener) *Fold {
	f := &Fold{down: down}
	var walk func(l engine.Listener)
	walk = func(l engine.Listener) {
		if t, ok := l.(engine.Tee); ok {
			for _, m := range t {
				walk(m)
			}
			return
		}
		if t, ok := l.(engine.TimeListener); ok {
			f.tdown = append(f.tdown, t)
		}
	}
	walk(down)
	return f
}

// Work is the CPU time used by the threads that ended so far.
func (f *Fold) Work() float64 { return f.work }

// Err reports the first inconsistency seen (a thread of an unknown job).
func (f *Fold) Err() error { return f.err }

func (f *Fold) flush() {
	if p := f.pend; p != nil {
		f.pend = nil
		f.down.JobSubmitted(p.job.Submit, &p.job)
	}
}

func (f *Fold) fail(format string, a ...any) {
	if f.err == nil {
		f.err = fmt.Errorf("thread fold: "+format, a...)
	}
}

func (f *Fold) TimeAdvanced(t float64, u *engine.Usage) {
	f.flush()
	for _, l := range f.tdown {
		l.TimeAdvanced(t, u)
	}
}

func (f *Fold) JobSubmitted(now float64, j *actual.Job) {
	parent, r := j.ID.Thread()
	if p := f.pend; p != nil && p.job.ID == parent && r == p.job.Procs {
		p.job.Procs++
		return
	}
	f.flush()
	if r != 0 {
		f.fail("thread %d of job %d submitted without thread 0 just before it", r, parent)
		return
	}
	if f.jobs.get(parent) != nil {
		f.fail("job %d submitted twice", parent)
		return
	}
	var e *folded
	if n := len(f.pool); n > 0 {
		e, f.pool = f.pool[n-1], f.pool[:n-1]
	} else {
		e = &folded{}
	}
	*e = folded{job: *j, cpus: e.cpus[:0], runs: e.runs[:0]}
	e.job.ID, e.job.Procs = parent, 1
	f.jobs.put(parent, e)
	f.pend = e
}

func (f *Fold) JobDispatched(now float64, j *actual.Job, ms []int) {}

func (f *Fold) JobStarted(now float64, s engine.Start) {
	f.flush()
	parent, _ := s.Job.ID.Thread()
	e := f.jobs.get(parent)
	if e == nil {
		f.fail("thread %d started, its job %d unknown", s.Job.ID, parent)
		return
	}
	for i := 0; i+1 < len(s.CPUs); i += 2 {
		for c := s.CPUs[i]; c <= s.CPUs[i+1]; c++ {
			e.cpus = append(e.cpus, c)
		}
	}
	if e.started == 0 {
		e.start, e.reason = now, s.Reason
		f.down.JobStarted(now, engine.Start{Job: &e.job, Reason: s.Reason, CPUs: s.CPUs})
	}
	e.started++
}

func (f *Fold) JobFinished(now float64, r *engine.Record) { f.end(now, r, false) }
func (f *Fold) JobKilled(now float64, r *engine.Record)   { f.end(now, r, true) }

func (f *Fold) end(now float64, r *engine.Record, killed bool) {
	f.flush()
	parent, _ := r.Job.ID.Thread()
	e := f.jobs.get(parent)
	if e == nil {
		f.fail("thread %d ended, its job %d unknown", r.Job.ID, parent)
		return
	}
	f.work += r.Exec()
	e.killed = e.killed || killed
	e.ended++
	if e.ended < e.job.Procs {
		return
	}
	slices.Sort(e.cpus)
	e.runs = e.runs[:0]
	for i, c := range e.cpus {
		if i > 0 && c == e.cpus[i-1] {
			continue // a CPU that ran two of the job's threads in turn
		}
		e.runs = e.runs.Add(c)
	}
	rec := &f.rec
	*rec = engine.Record{Job: &e.job, Start: e.start, End: now, Reason: e.reason, Machine: r.Machine, CPUs: e.runs}
	f.jobs.del(parent, e)
	f.pool = append(f.pool, e)
	if e.killed {
		rec.State = job.WalltimeReached
		f.down.JobKilled(now, rec)
	} else {
		f.down.JobFinished(now, rec)
	}
}

// Correct corrects the summary of a run whose jobs were split into
// threads: a job's threads need not run side by side, so utilization is
// the threads' CPU time (Work) over procs x the span (first submit to
// makespan), not procs x (last end - first start) per job. It reports the
// fold's first inconsistency (Err) instead, if any.
func (f *Fold) Correct(res *metrics.Result, procs int) error {
	if err := f.Err(); err != nil {
		return err
	}
	res.Utilization = 0
	if span := res.Makespan - res.FirstSubmit; span > 0 {
		res.Utilization = f.Work() / (float64(procs) * span)
	}
	return nil
}
