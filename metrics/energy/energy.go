package energy

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/signal"
)

// MaxWatts bounds a power value (watts a CPU): 1 MW.
const MaxWatts = 1e6

// Power is the power model of a CPU: watts when idle and when running a
// job (ComputeW >= IdleW >= 0).
type Power struct {
	IdleW, ComputeW float64
}

// ParsePower reads "IDLE_W:COMPUTE_W" (e.g. "95:190.74"), checking
// 0 <= IDLE_W <= COMPUTE_W <= MaxWatts.
func ParsePower(s string) (Power, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return Power{}, fmt.Errorf("%q: want IDLE_W:COMPUTE_W (watts a CPU, e.g. 95:190.74)", s)
	}
	idle, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	comp, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	switch {
	case err1 != nil || math.IsNaN(idle) || math.IsInf(idle, 0):
		return Power{}, fmt.Errorf("%q: idle watts %q is not a number", s, a)
	case err2 != nil || math.IsNaN(comp) || math.IsInf(comp, 0):
		return Power{}, fmt.Errorf("%q: compute watts %q is not a number", s, b)
	}
	p := Power{IdleW: idle, ComputeW: comp}
	if err := p.Check(); err != nil {
		return Power{}, fmt.Errorf("%q: %v", s, err)
	}
	return p, nil
}

// Check reports a model out of its bounds.
func (p Power) Check() error {
	if !(p.IdleW >= 0 && p.IdleW <= p.ComputeW && p.ComputeW <= MaxWatts) {
		return fmt.Errorf("want 0 <= idle <= compute <= %g watts (got %g and %g)", float64(MaxWatts), p.IdleW, p.ComputeW)
	}
	return nil
}

// JobJoules is a job's energy above idle: (ComputeW - IdleW) x cpus x
// run.
func (p Power) JobJoules(cpus int, run float64) float64 {
	return (p.ComputeW - p.IdleW) * float64(cpus) * run
}

// Point is the machine's power from T on (until the next point).
type Point struct {
	T, Watts float64
}

// Meter is the energy listener of one run on cpus CPUs.
type Meter struct {
	p        Power
	cpus     int
	last     float64 // the instant of the last TimeAdvanced
	work     float64 // CPU-seconds busy over [0, last]
	peakBusy float64
	end      float64 // the last job's end
	jobs     int64
	series   []Point
	keep     bool
	// carbon and price, when set, are the signals (gCO2/kWh, currency
	// per kWh) the machine's energy is weighed by: busyC and busyP are
	// the integrals over [0, last] of the busy CPUs times the signal.
	carbon, price *signal.Signal
	busyC, busyP  float64
	// nodes, on a platform of nodes (SetNodes): the power model is per
	// node, linear in the node's load (its cores held over its cores);
	// the meter's units are nodes, and busy is the sum of the nodes'
	// loads: per distinct core count of a node, the cores held on nodes
	// of that many cores (whole numbers: the sum is exact).
	nodes     *nodes.Nodes
	coreKinds []int // the distinct core counts of the nodes
	kindOf    []int // per node, its index in coreKinds
	heldOf    []int // per index of coreKinds, the cores held
}

// SetNodes makes the meter measure a platform of nodes: the power model
// is per node, IdleW when the node runs nothing and ComputeW when all of
// its cores are held, linear in between (docs/energy.md); Result's
// WorkCPUSec is then node-seconds of load. Call it before the run.
func (m *Meter) SetNodes(ns *nodes.Nodes) {
	m.nodes, m.cpus = ns, ns.Len()
	m.kindOf = make([]int, ns.Len())
	for id := range ns.Len() {
		c := ns.Node(id).Cores()
		k := slices.Index(m.coreKinds, c)
		if k < 0 {
			k = len(m.coreKinds)
			m.coreKinds = append(m.coreKinds, c)
		}
		m.kindOf[id] = k
	}
	m.heldOf = make([]int, len(m.coreKinds))
	if m.keep {
		m.series = []Point{{0, m.p.IdleW * float64(m.cpus)}}
	}
}

// hold adds (sign 1) or removes (-1) an allocation's cores from the
// nodes' loads.
func (m *Meter) hold(a *nodes.Allocation, sign int) {
	if m.nodes == nil || a == nil {
		return
	}
	for _, na := range a.Nodes {
		m.heldOf[m.kindOf[na.Node]] += sign * len(na.Cores)
	}
}

// load is the sum of the nodes' loads now.
func (m *Meter) load() float64 {
	l := 0.0
	for k, h := range m.heldOf {
		l += float64(h) / float64(m.coreKinds[k])
	}
	return l
}

// SetSignals weighs the machine's energy by a carbon intensity
// (gCO2/kWh) and a price (currency per kWh), either nil for none:
// Result's CarbonKg and Cost. Call it before the run.
func (m *Meter) SetSignals(carbon, price *signal.Signal) { m.carbon, m.price = carbon, price }

// NewMeter returns the meter of a run on cpus CPUs under p (0: the
// platform's, read from the first usage the kernel reports); with series
// it also keeps the power at every change (Series).
func NewMeter(p Power, cpus int, series bool) *Meter {
	m := &Meter{p: p, cpus: cpus, keep: series}
	if series {
		m.series = []Point{{0, p.IdleW * float64(cpus)}}
	}
	return m
}

// TimeAdvanced integrates the busy CPUs since the previous instant: u
// describes [previous instant, t).
func (m *Meter) TimeAdvanced(t float64, u *engine.Usage) {
	if m.cpus == 0 && u.Platform.Machines() > 0 { // the size the run found (a trace header's)
		m.cpus = u.Platform.CPUs()
		if m.keep && len(m.series) == 1 {
			m.series[0].Watts = m.p.IdleW * float64(m.cpus)
		}
	}
	b := 0.0
	if m.nodes != nil {
		b = m.load()
	} else {
		n := 0
		for _, x := range u.Busy {
			n += x
		}
		b = float64(n)
	}
	if t > m.last {
		m.work += b * (t - m.last)
		m.peakBusy = max(m.peakBusy, b)
		if b > 0 && m.carbon != nil {
			m.busyC += b * m.carbon.Integral(m.last, t)
		}
		if b > 0 && m.price != nil {
			m.busyP += b * m.price.Integral(m.last, t)
		}
		if m.keep {
			m.point(m.last, m.watts(b))
		}
	}
	m.last = max(m.last, t)
}

// point records the power w from t on, merging equal neighbours.
func (m *Meter) point(t, w float64) {
	n := len(m.series)
	switch {
	case n > 0 && m.series[n-1].T == t:
		m.series[n-1].Watts = w
		if n > 1 && m.series[n-2].Watts == w {
			m.series = m.series[:n-1]
		}
	case n > 0 && m.series[n-1].Watts == w:
	default:
		m.series = append(m.series, Point{t, w})
	}
}

func (m *Meter) watts(busy float64) float64 {
	return m.p.IdleW*float64(m.cpus) + (m.p.ComputeW-m.p.IdleW)*busy
}

func (m *Meter) JobSubmitted(float64, *actual.Job)         {}
func (m *Meter) JobDispatched(float64, *actual.Job, []int) {}
func (m *Meter) JobStarted(_ float64, s engine.Start)      { m.hold(s.Alloc, 1) }
func (m *Meter) JobFinished(_ float64, r *engine.Record)   { m.ended(r) }
func (m *Meter) JobKilled(_ float64, r *engine.Record)     { m.ended(r) }

func (m *Meter) ended(r *engine.Record) {
	m.hold(r.Alloc, -1)
	m.jobs++
	m.end = max(m.end, r.End)
}

// Result is a run's energy.
type Result struct {
	TotalJ     float64 // joules of the machine over [0, EndT]
	EndT       float64 // the last job's end
	MeanW      float64 // TotalJ / EndT (0 when EndT is 0)
	PeakW      float64 // the most watts at one instant
	PerJobJ    float64 // TotalJ over the jobs that ended (0 without jobs)
	WorkCPUSec float64 // CPU-seconds busy over [0, EndT]
	// CarbonKg and Cost are the integrals over [0, EndT] of the
	// machine's power times the carbon intensity (kg CO2) and times the
	// price (currency), 0 without the signal (Meter.SetSignals).
	CarbonKg, Cost float64
	// WorkCarbonKg is the part of CarbonKg above idle: (ComputeW -
	// IdleW) x the integral of the busy CPUs times the intensity, the
	// emissions of the work itself (the rest, IdleW x CPUs x the
	// intensity's integral over [0, EndT], depends on the policy only
	// through EndT).
	WorkCarbonKg float64
}

// Result is the energy of the run: call it when the run has ended (the
// kernel reports the usage up to the instant of the last job's end).
func (m *Meter) Result() Result {
	r := Result{EndT: m.end, WorkCPUSec: m.work, PeakW: m.watts(m.peakBusy)}
	r.TotalJ = m.p.IdleW*float64(m.cpus)*m.end + (m.p.ComputeW-m.p.IdleW)*m.work
	// The power is IdleW x CPUs + (ComputeW - IdleW) x busy: the
	// integral of its product with a signal is IdleW x CPUs x the
	// signal's integral plus (ComputeW - IdleW) x the busy CPUs' (W s
	// x unit/kWh = unit / 3.6e6).
	weigh := func(sig *signal.Signal, busy float64) float64 {
		return (m.p.IdleW*float64(m.cpus)*sig.Integral(0, m.end) + (m.p.ComputeW-m.p.IdleW)*busy) / 3.6e6
	}
	if m.carbon != nil {
		r.CarbonKg = weigh(m.carbon, m.busyC) / 1e3
		r.WorkCarbonKg = (m.p.ComputeW - m.p.IdleW) * m.busyC / 3.6e9
	}
	if m.price != nil {
		r.Cost = weigh(m.price, m.busyP)
	}
	if m.end > 0 {
		r.MeanW = r.TotalJ / m.end
	}
	if m.jobs > 0 {
		r.PerJobJ = r.TotalJ / float64(m.jobs)
	}
	return r
}

// Series is the machine's power at every change, from time 0 (nil
// unless asked for).
func (m *Meter) Series() []Point { return m.series }
