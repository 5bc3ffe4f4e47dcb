package metrics

import (
	"github.com/schedlab/schedlab/engine"
)

// Occupancy is a time listener integrating, over the observed span (from
// the first instant to the last one reached), the CPUs busy and the jobs
// present per machine, and the CPUs busy on the whole platform.
type Occupancy struct {
	engine.NopListener
	started       bool
	first, last   float64
	busy, present []float64 // per machine: integral of busy CPUs, of jobs present
	total         float64   // integral of busy CPUs over the platform
	cpus          []int
	all           int
}

// NewOccupancy returns the listener.
func NewOccupancy() *Occupancy { return &Occupancy{} }

// TimeAdvanced implements engine.TimeListener.
func (o *Occupancy) TimeAdvanced(t float64, u *engine.Usage) {
	if !o.started {
		p := u.Platform
		n := p.Machines()
		o.busy, o.present, o.cpus = make([]float64, n), make([]float64, n), make([]int, n)
		for m := range o.cpus {
			o.cpus[m] = p.Machine(m).CPUs
		}
		o.all = p.CPUs()
		o.first, o.last, o.started = t, t, true
	}
	dt := t - o.last
	o.last = t
	if dt <= 0 {
		return
	}
	busy := 0
	for m, b := range u.Busy {
		busy += b
		o.busy[m] += float64(dt * float64(b))
		o.present[m] += float64(dt * float64(u.Jobs[m]))
	}
	o.total += float64(dt * float64(busy))
}

// Span is the length of time observed.
func (o *Occupancy) Span() float64 { return o.last - o.first }

// Utilization is busy CPU-time over (CPUs x span) on the whole platform
// (0 before any time has passed).
func (o *Occupancy) Utilization() float64 {
	if span := o.Span(); span > 0 {
		return o.total / (span * float64(o.all))
	}
	return 0
}

// Machines returns, per machine, the fraction of CPU-time busy and the
// time-averaged number of jobs present.
func (o *Occupancy) Machines() (busy, jobs []float64) {
	busy = make([]float64, len(o.busy))
	jobs = make([]float64, len(o.busy))
	span := o.Span()
	if span <= 0 {
		return busy, jobs
	}
	for m := range o.busy {
		busy[m] = o.busy[m] / (span * float64(o.cpus[m]))
		jobs[m] = o.present[m] / span
	}
	return busy, jobs
}
