package experiment

import (
	"bufio"
	"os"
	"strconv"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics/energy"
)

// EnergyInfo is summary.json's energy section of a run with a power
// model (PlatformSpec.Power; docs/energy.md): joules of the whole
// machine from time 0 to the last job's end.
type EnergyInfo struct {
	IdleW    float64 `json:"idle_w"`    // watts a CPU draws idle
	ComputeW float64 `json:"compute_w"` // watts a CPU draws running a job
	CPUs     int     `json:"cpus"`
	// Nodes, on a platform of nodes: the watts above are per node, and
	// WorkCPUS is node-seconds of load (a node's cores held over its
	// cores).
	Nodes    int     `json:"nodes,omitempty"`
	TotalJ   float64 `json:"total_j"`
	KWh      float64 `json:"kwh"`
	EndS     float64 `json:"end_s"` // the last job's end
	MeanW    float64 `json:"mean_w"`
	PeakW    float64 `json:"peak_w"`
	PerJobJ  float64 `json:"per_job_j"`
	WorkCPUS float64 `json:"work_cpu_s"` // CPU-seconds of work
	// CarbonKg and Cost: the energy weighed by the carbon intensity
	// (PlatformSpec.Carbon, kg CO2; WorkCarbonK its part above idle,
	// the work's) and the price (PlatformSpec.Price),
	// absent without the signal; CarbonDelay what the carbon-aware
	// delay did (PolicySpec.CarbonDelay).
	CarbonKg    *float64         `json:"carbon_kg,omitempty"`
	WorkCarbonK *float64         `json:"work_carbon_kg,omitempty"` // the part of carbon_kg above idle
	Cost        *float64         `json:"cost,omitempty"`
	CarbonDelay *CarbonDelayInfo `json:"carbon_delay,omitempty"`
	// States, with the idle sleeper (PolicySpec.Sleep): the power
	// states' model and use.
	States *StatesInfo `json:"states,omitempty"`
	// Cap, with a power cap (PlatformSpec.PowerCap): the cap and what
	// it held.
	Cap *CapInfo `json:"cap,omitempty"`
}

// power is the run's power model (Check has parsed it once already).
func (a *traceAsm) power() energy.Power {
	p, _ := energy.ParsePower(a.s.Platform.Power)
	return p
}

func openEnergy(a *traceAsm, _ *os.File) (engine.Listener, error) {
	a.o.energy = energy.NewMeter(a.power(), a.plat.CPUs(), a.out != nil)
	if a.ns != nil {
		a.o.energy.SetNodes(a.ns) // watts per node, linear in its load
	}
	c, p, err := runSignals(a.s.Platform)
	if err != nil {
		return nil, err
	}
	a.o.energy.SetSignals(c, p)
	return a.o.energy, nil
}

func reportEnergy(a *traceAsm, res *TraceResult) {
	r, p := a.o.energy.Result(), a.power()
	res.Energy = &EnergyInfo{IdleW: p.IdleW, ComputeW: p.ComputeW, CPUs: a.plat.CPUs(), TotalJ: r.TotalJ, KWh: r.TotalJ / 3.6e6,
		EndS: r.EndT, MeanW: r.MeanW, PeakW: r.PeakW, PerJobJ: r.PerJobJ, WorkCPUS: r.WorkCPUSec}
	var d delayCounts
	if a.run != nil {
		d = a.run.delay
	}
	if a.ns != nil {
		res.Energy.Nodes = a.ns.Len()
	}
	signalEnergy(res.Energy, r, a.s.Platform.Carbon != "", a.s.Platform.Price != "", d)
	if a.run != nil {
		statesEnergy(res.Energy, r, p, a.run.sleep)
	}
	capEnergy(res.Energy, a.run)
}

// writeEnergyCSV writes the machine's power at every change: time_s,
// power_w (the power from that time on, until the next row).
func writeEnergyCSV(a *traceAsm, f *os.File) error {
	w := bufio.NewWriter(f)
	w.WriteString("time_s,power_w\n")
	var b []byte
	for _, pt := range a.o.energy.Series() {
		b = strconv.AppendFloat(b[:0], pt.T, 'g', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, pt.Watts, 'g', -1, 64)
		b = append(b, '\n')
		w.Write(b)
	}
	return w.Flush()
}
