package metrics

import (
	"github.com/schedlab/schedlab/engine"
)

// GangResult holds the metrics of dimitriadou-karatza-2010: mean response
// time and slowdown of local jobs (RT, SLD), and of gangs weighted by their
// size (WRT = sum p r / sum p, WSLD = sum p s / sum p).
type GangResult struct {
	Locals, Gangs int64 // finished
	RT, SLD       float64
	WRT, WSLD     float64
}

// GangMetrics is the listener computing GangResult. A gang's service time,
// for its slowdown, is its longest task (all tasks start together, so it
// is end - start).
type GangMetrics struct {
	engine.NopListener
	skip               int64
	nl, ng             int64
	sumR, sumS         float64
	sumP, sumPR, sumPS float64
}

// NewGangMetrics returns the listener; the first skip ended jobs (locals
// and gangs) are left out (a warm-up).
func NewGangMetrics(skip int64) *GangMetrics { return &GangMetrics{skip: skip} }

func (m *GangMetrics) JobFinished(now float64, r *engine.Record) {
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
		m.nl++
		m.sumR += resp
		m.sumS += s
		return
	}
	p := float64(r.Job.Procs)
	m.ng++
	m.sumP += p
	m.sumPR += float64(p * resp)
	m.sumPS += float64(p * s)
}

func (m *GangMetrics) JobKilled(now float64, r *engine.Record) { m.JobFinished(now, r) }

// Result returns the metrics so far.
func (m *GangMetrics) Result() GangResult {
	r := GangResult{Locals: m.nl, Gangs: m.ng}
	if m.nl > 0 {
		r.RT, r.SLD = m.sumR/float64(m.nl), m.sumS/float64(m.nl)
	}
	if m.sumP > 0 {
		r.WRT, r.WSLD = m.sumPR/m.sumP, m.sumPS/m.sumP
	}
	return r
}
