package engine

import (
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

// Record is what the engine knows about a job when it ends. The pointers
// are valid only during the listener call; copy what you keep.
type Record struct {
	Job    *actual.Job
	Start  float64
	End    float64
	Reason job.StartReason
	State  job.FinalState
	// Site and Proc locate the job in grid models (-1 on a cluster).
	Site, Proc int
	// Sites lists the sites a job ran on in multi-site models (a gang's
	// tasks may use two); nil on a cluster.
	Sites []int
}

// Wait is the time the job spent queued.
func (r *Record) Wait() float64 { return r.Start - r.Job.Submit }

// Exec is the time the job occupied its processors.
func (r *Record) Exec() float64 { return r.End - r.Start }

// Turnaround is the response time: end minus submit.
func (r *Record) Turnaround() float64 { return r.End - r.Job.Submit }

// Listener observes a simulation. Metrics are listeners: adding one never
// edits the engine. Calls for one instant come in engine order (ends,
// arrivals, then the starts of the pass). A listener must not keep the
// pointers it is given.
type Listener interface {
	JobSubmitted(now float64, j *actual.Job)
	JobStarted(now float64, j *actual.Job, reason job.StartReason)
	// JobDispatched: a grid scheduler sent the job to a site.
	JobDispatched(now float64, j *actual.Job, site int)
	// JobFinished: the job ran to completion.
	JobFinished(now float64, r *Record)
	// JobKilled: the job was killed at its requested time limit.
	JobKilled(now float64, r *Record)
}

// NopListener implements Listener with methods that do nothing; embed it to
// implement only the calls you need.
type NopListener struct{}

func (NopListener) JobSubmitted(float64, *actual.Job)                {}
func (NopListener) JobStarted(float64, *actual.Job, job.StartReason) {}
func (NopListener) JobDispatched(float64, *actual.Job, int)          {}
func (NopListener) JobFinished(float64, *Record)                     {}
func (NopListener) JobKilled(float64, *Record)                       {}

// Tee fans every call out to several listeners, in order.
type Tee []Listener

func (t Tee) JobSubmitted(now float64, j *actual.Job) {
	for _, l := range t {
		l.JobSubmitted(now, j)
	}
}

func (t Tee) JobStarted(now float64, j *actual.Job, r job.StartReason) {
	for _, l := range t {
		l.JobStarted(now, j, r)
	}
}

func (t Tee) JobDispatched(now float64, j *actual.Job, site int) {
	for _, l := range t {
		l.JobDispatched(now, j, site)
	}
}

func (t Tee) JobFinished(now float64, r *Record) {
	for _, l := range t {
		l.JobFinished(now, r)
	}
}

func (t Tee) JobKilled(now float64, r *Record) {
	for _, l := range t {
		l.JobKilled(now, r)
	}
}
