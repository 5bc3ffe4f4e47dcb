package metrics

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
)

// Deadlines is the listener of klusacek-2008's metrics: jobs that missed
// their deadline (ended after it; a job ending exactly at its deadline
// meets it), and the paper's system usage: active CPUs / min(available
// CPUs, CPUs requested by the jobs present), time-averaged over the time
// with at least one job present ("computed at each simulation time", so
// the start-up and drain-out with no job do not count).
type Deadlines struct {
	engine.NopListener
	jobs, withDeadline, missed int64

	requested   int // CPUs requested by the jobs present (waiting or running)
	present     int
	started     bool
	last        float64
	usageArea   float64
	usageTime   float64
	platformCPU int
}

// NewDeadlines returns the listener.
func NewDeadlines() *Deadlines { return &Deadlines{} }

func (d *Deadlines) JobSubmitted(now float64, j *actual.Job) {
	d.requested += j.Procs
	d.present++
}

func (d *Deadlines) JobFinished(now float64, r *engine.Record) {
	d.requested -= r.Job.Procs
	d.present--
	d.jobs++
	if r.Job.Deadline != 0 {
		d.withDeadline++
		if r.End > r.Job.Deadline {
			d.missed++
		}
	}
}

func (d *Deadlines) JobKilled(now float64, r *engine.Record) { d.JobFinished(now, r) }

// TimeAdvanced implements engine.TimeListener.
func (d *Deadlines) TimeAdvanced(t float64, u *engine.Usage) {
	if !d.started {
		d.started, d.last, d.platformCPU = true, t, u.Platform.CPUs()
	}
	dt := t - d.last
	d.last = t
	if dt <= 0 || d.present == 0 {
		return
	}
	active := 0
	for _, b := range u.Busy {
		active += b
	}
	if den := min(d.platformCPU, d.requested); den > 0 {
		d.usageArea += float64(dt * float64(active) / float64(den))
	}
	d.usageTime += dt
}

// DeadlineStats are the results of a Deadlines listener.
type DeadlineStats struct {
	Jobs, WithDeadline, Missed int64
	// MissedPct is missed / all jobs (jobs without a deadline never miss,
	// as the authors' simulator counts); MissedOfDeadlinePct is missed /
	// jobs with a deadline.
	MissedPct, MissedOfDeadlinePct float64
	// Usage is the paper's system usage (0..1).
	Usage float64
}

// Result returns the metrics so far.
func (d *Deadlines) Result() DeadlineStats {
	s := DeadlineStats{Jobs: d.jobs, WithDeadline: d.withDeadline, Missed: d.missed}
	if d.jobs > 0 {
		s.MissedPct = 100 * float64(d.missed) / float64(d.jobs)
	}
	if d.withDeadline > 0 {
		s.MissedOfDeadlinePct = 100 * float64(d.missed) / float64(d.withDeadline)
	}
	if d.usageTime > 0 {
		s.Usage = d.usageArea / d.usageTime
	}
	return s
}

// QueueAtEvents is the listener of the mean number of jobs waiting at a
// scheduling event (a submission or a completion, counted after the
// event): the queue a queue-based policy scans at each decision, a
// deterministic measure of its decision work.
type QueueAtEvents struct {
	engine.NopListener
	waiting int
	sum     float64
	events  int64
}

// NewQueueAtEvents returns the listener.
func NewQueueAtEvents() *QueueAtEvents { return &QueueAtEvents{} }

func (q *QueueAtEvents) JobSubmitted(now float64, j *actual.Job) {
	q.waiting++
	q.sum += float64(q.waiting)
	q.events++
}

func (q *QueueAtEvents) JobStarted(now float64, s engine.Start) { q.waiting-- }

func (q *QueueAtEvents) JobFinished(now float64, r *engine.Record) {
	q.sum += float64(q.waiting)
	q.events++
}

func (q *QueueAtEvents) JobKilled(now float64, r *engine.Record) { q.JobFinished(now, r) }

// Mean is the mean queue length at events (0 before any).
func (q *QueueAtEvents) Mean() float64 {
	if q.events == 0 {
		return 0
	}
	return q.sum / float64(q.events)
}
