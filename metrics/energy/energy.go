package energy

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/signal"
	"github.com/schedlab/schedlab/policy"
)

// MaxWatts bounds a power value (watts a CPU): 1 MW.
const MaxWatts = 1e6

// MaxSwitchS bounds the time of a switch (on or off): a day.
const MaxSwitchS = 86400

// Power is the power model of a CPU: watts when idle and when running a
// job (ComputeW >= IdleW >= 0); with power states (States), also the
// watts when off and the time and energy of switching on and off
// (Batsim's energy platform: docs/energy.md, "Power states").
type Power struct {
	IdleW, ComputeW float64
	// OffW is the watts a CPU draws when off; OnS and OnJ the seconds
	// and joules of switching it on, OffS and OffJ of switching it off
	// (a switching CPU draws OnJ/OnS or OffJ/OffS watts throughout).
	// All 0 without power states.
	OffW, OnS, OnJ, OffS, OffJ float64
}

// States reports whether the model has power states (off, switching).
func (p Power) States() bool { return p.OnS > 0 }

// OnW and OffSwitchW are the watts a CPU draws switching on and
// switching off (0 without power states).
func (p Power) OnW() float64 {
	if p.OnS > 0 {
		return p.OnJ / p.OnS
	}
	return 0
}

func (p Power) OffSwitchW() float64 {
	if p.OffS > 0 {
		return p.OffJ / p.OffS
	}
	return 0
}

// ParsePower reads "IDLE_W:COMPUTE_W" (e.g. "95:190.74"), checking
// 0 <= IDLE_W <= COMPUTE_W <= MaxWatts, or with power states
// "IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J" (e.g. Batsim's
// "95:190.74:9.75:152:19030:6.1:620"), checking also 0 <= OFF_W <=
// MaxWatts, 0 < ON_S, OFF_S <= MaxSwitchS and 0 <= ON_J, OFF_J <=
// MaxWatts x the switch's seconds.
func ParsePower(s string) (Power, error) {
	f := strings.Split(s, ":")
	if len(f) != 2 && len(f) != 7 {
		return Power{}, fmt.Errorf("%q: want IDLE_W:COMPUTE_W (watts a CPU, e.g. 95:190.74) or IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J (with power states, e.g. 95:190.74:9.75:152:19030:6.1:620)", s)
	}
	names := [...]string{"idle watts", "compute watts", "off watts", "switch-on seconds", "switch-on joules", "switch-off seconds", "switch-off joules"}
	var v [7]float64
	for i, x := range f {
		y, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil || math.IsNaN(y) || math.IsInf(y, 0) {
			return Power{}, fmt.Errorf("%q: %s %q is not a number", s, names[i], x)
		}
		v[i] = y
	}
	p := Power{IdleW: v[0], ComputeW: v[1], OffW: v[2], OnS: v[3], OnJ: v[4], OffS: v[5], OffJ: v[6]}
	if err := p.Check(); err != nil {
		return Power{}, fmt.Errorf("%q: %v", s, err)
	}
	if len(f) == 7 && !p.States() {
		return Power{}, fmt.Errorf("%q: switch-on seconds must be above 0", s)
	}
	return p, nil
}

// Check reports a model out of its bounds.
func (p Power) Check() error {
	if !(p.IdleW >= 0 && p.IdleW <= p.ComputeW && p.ComputeW <= MaxWatts) {
		return fmt.Errorf("want 0 <= idle <= compute <= %g watts (got %g and %g)", float64(MaxWatts), p.IdleW, p.ComputeW)
	}
	if p == (Power{IdleW: p.IdleW, ComputeW: p.ComputeW}) {
		return nil
	}
	switch {
	case !(p.OffW >= 0 && p.OffW <= MaxWatts):
		return fmt.Errorf("want 0 <= off watts <= %g (got %g)", float64(MaxWatts), p.OffW)
	case !(p.OnS > 0 && p.OnS <= MaxSwitchS):
		return fmt.Errorf("want 0 < switch-on seconds <= %d (got %g)", MaxSwitchS, p.OnS)
	case !(p.OffS > 0 && p.OffS <= MaxSwitchS):
		return fmt.Errorf("want 0 < switch-off seconds <= %d (got %g)", MaxSwitchS, p.OffS)
	case !(p.OnJ >= 0 && p.OnJ <= MaxWatts*p.OnS):
		return fmt.Errorf("want 0 <= switch-on joules <= %g x its seconds (got %g)", float64(MaxWatts), p.OnJ)
	case !(p.OffJ >= 0 && p.OffJ <= MaxWatts*p.OffS):
		return fmt.Errorf("want 0 <= switch-off joules <= %g x its seconds (got %g)", float64(MaxWatts), p.OffJ)
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
	// With power states (engine.PowerListener): the CPUs off, switching
	// on and switching off now; their CPU-seconds over [0, last]; the
	// signals' integrals weighted by the watts above idle they add
	// (exC, exP); the switches begun; the most watts over an interval.
	off, swOn, swOff          int
	offSec, swOnSec, swOffSec float64
	exC, exP                  float64
	ons, offs                 int64
	peakW                     float64
	states                    bool
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
		if m.states {
			d := t - m.last
			m.offSec += float64(m.off) * d
			m.swOnSec += float64(m.swOn) * d
			m.swOffSec += float64(m.swOff) * d
			if ex := m.stateExcess(); ex != 0 {
				if m.carbon != nil {
					m.exC += ex * m.carbon.Integral(m.last, t)
				}
				if m.price != nil {
					m.exP += ex * m.price.Integral(m.last, t)
				}
			}
			m.peakW = max(m.peakW, m.watts(b))
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
	w := m.p.IdleW*float64(m.cpus) + (m.p.ComputeW-m.p.IdleW)*busy
	if m.states {
		w += m.stateExcess()
	}
	return w
}

// stateExcess is the watts the CPUs off and switching draw now above
// the idle watts they would draw on (negative when off draws less).
func (m *Meter) stateExcess() float64 {
	return (m.p.OffW-m.p.IdleW)*float64(m.off) + (m.p.OnW()-m.p.IdleW)*float64(m.swOn) + (m.p.OffSwitchW()-m.p.IdleW)*float64(m.swOff)
}

// PowerSwitched counts the CPUs in each power state (an
// engine.PowerListener): the change holds from now, after the usage up
// to now was integrated (TimeAdvanced comes first at every instant).
func (m *Meter) PowerSwitched(_ float64, cpus platform.Runs, from, to policy.PowerState) {
	if !m.states {
		// The most watts before the first switch: every CPU was on.
		m.peakW, m.states = m.watts(m.peakBusy), true
	}
	n := cpus.Count()
	m.count(from, -n)
	m.count(to, n)
	switch to {
	case policy.PowerSwitchingOn:
		m.ons += int64(n)
	case policy.PowerSwitchingOff:
		m.offs += int64(n)
	}
}

func (m *Meter) count(s policy.PowerState, n int) {
	switch s {
	case policy.PowerOff:
		m.off += n
	case policy.PowerSwitchingOn:
		m.swOn += n
	case policy.PowerSwitchingOff:
		m.swOff += n
	}
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
	// With power states (a CPU switched off: docs/energy.md, "Power
	// states"): the CPU-seconds off, switching on and switching off over
	// [0, EndT]; the switches on and off begun by EndT (CPUs); SwitchJ
	// the joules the CPUs drew switching over [0, EndT]; OffJ those
	// they drew off. States is false (and the rest 0) when no CPU was
	// ever switched.
	States                             bool
	OffCPUSec, SwOnCPUSec, SwOffCPUSec float64
	SwitchOns, SwitchOffs              int64
	SwitchJ, OffJ                      float64
}

// Result is the energy of the run: call it when the run has ended (the
// kernel reports the usage up to the instant of the last job's end).
func (m *Meter) Result() Result {
	r := Result{EndT: m.end, WorkCPUSec: m.work, PeakW: m.watts(m.peakBusy)}
	r.TotalJ = m.p.IdleW*float64(m.cpus)*m.end + (m.p.ComputeW-m.p.IdleW)*m.work
	if m.states {
		// The CPUs off and switching draw their own watts instead of
		// the idle watts the first term counts for them.
		r.States, r.PeakW = true, m.peakW
		r.OffCPUSec, r.SwOnCPUSec, r.SwOffCPUSec = m.offSec, m.swOnSec, m.swOffSec
		r.SwitchOns, r.SwitchOffs = m.ons, m.offs
		r.SwitchJ = m.p.OnW()*m.swOnSec + m.p.OffSwitchW()*m.swOffSec
		r.OffJ = m.p.OffW * m.offSec
		r.TotalJ += (m.p.OffW-m.p.IdleW)*m.offSec + (m.p.OnW()-m.p.IdleW)*m.swOnSec + (m.p.OffSwitchW()-m.p.IdleW)*m.swOffSec
	}
	// The power is IdleW x CPUs + (ComputeW - IdleW) x busy: the
	// integral of its product with a signal is IdleW x CPUs x the
	// signal's integral plus (ComputeW - IdleW) x the busy CPUs' (W s
	// x unit/kWh = unit / 3.6e6).
	weigh := func(sig *signal.Signal, busy, ex float64) float64 {
		return (m.p.IdleW*float64(m.cpus)*sig.Integral(0, m.end) + (m.p.ComputeW-m.p.IdleW)*busy + ex) / 3.6e6
	}
	if m.carbon != nil {
		r.CarbonKg = weigh(m.carbon, m.busyC, m.exC) / 1e3
		r.WorkCarbonKg = (m.p.ComputeW - m.p.IdleW) * m.busyC / 3.6e9
	}
	if m.price != nil {
		r.Cost = weigh(m.price, m.busyP, m.exP)
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
