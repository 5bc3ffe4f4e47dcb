package metrics

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

// GangStats holds the metrics of dimitriadou-karatza-2010: mean response
// time and slowdown of local jobs (RT, SLD), and of gangs weighted by their
// size (WRT = sum p r / sum p, WSLD = sum p s / sum p), after the warm-up;
// and counts over the whole run.
type GangStats struct {
	Locals, Gangs int64 // finished after the warm-up
	RT, SLD       float64
	WRT, WSLD     float64

	// Whole run, warm-up included.
	LocalsArrived, GangsArrived   int64
	LocalsFinished, GangsFinished int64
	GangsSplit                    int64 // dispatched to more than one site
	Backfilled                    int64 // locals started by backfilling
}

// GangMetrics is the listener computing GangStats. A gang's service time,
// for its slowdown, is its longest task (all tasks start together, so it
// is end - start).
type GangMetrics struct {
	engine.NopListener
	skip               int64
	st                 GangStats
	sumR, sumS         float64
	sumP, sumPR, sumPS float64
}

// NewGangMetrics returns the listener; the first skip ended jobs (locals
// and gangs) are left out of the response-time metrics (a warm-up).
func NewGangMetrics(skip int64) *GangMetrics { return &GangMetrics{skip: skip} }

func (m *GangMetrics) JobSubmitted(now float64, j *actual.Job) {
	if j.Tasks != nil {
		m.st.GangsArrived++
	} else {
		m.st.LocalsArrived++
	}
}

func (m *GangMetrics) JobDispatched(now float64, j *actual.Job, machines []int) {
	if len(machines) > 1 {
		m.st.GangsSplit++
	}
}

func (m *GangMetrics) JobStarted(now float64, s engine.Start) {
	if s.Reason == job.Backfilled {
		m.st.Backfilled++
	}
}

func (m *GangMetrics) JobFinished(now float64, r *engine.Record) {
	if r.Job.Tasks == nil {
		m.st.LocalsFinished++
	} else {
		m.st.GangsFinished++
	}
	if m.skip > 0 {
		m.skip--
		return
	}
	resp, ex := r.Turnaround(), r.Exec()
	s := 0.0
	if ex > 0 {
		s = resp / ex
	}
	if r.Job.Tasks == nil {
		m.st.Locals++
		m.sumR += resp
		m.sumS += s
		return
	}
	p := float64(r.Job.Procs)
	m.st.Gangs++
	m.sumP += p
	m.sumPR += float64(p * resp)
	m.sumPS += float64(p * s)
}

func (m *GangMetrics) JobKilled(now float64, r *engine.Record) { m.JobFinished(now, r) }

// Result returns the metrics so far.
func (m *GangMetrics) Result() GangStats {
	r := m.st
	if r.Locals > 0 {
		r.RT, r.SLD = m.sumR/float64(r.Locals), m.sumS/float64(r.Locals)
	}
	if m.sumP > 0 {
		r.WRT, r.WSLD = m.sumPR/m.sumP, m.sumPS/m.sumP
	}
	return r
}
