package energy

import (
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/policy"
)

// Declarations declares the energy metrics of the cluster model, off by
// default and measured only under a power model (platform.power in a
// scenario, run --power): energy_kwh, mean_power_kw, peak_power_kw and
// energy_per_job_kj, so that a sweep gives them with confidence
// intervals and paired differences; and under a carbon intensity or
// price signal (platform.carbon, platform.price; run --carbon, --price)
// carbon_kg and cost.
func Declarations() []metrics.Decl {
	decl := func(name, unit, doc string, value func(Result) float64) metrics.Decl {
		return metrics.Decl{Name: name, Unit: unit, Better: metrics.Lower, Doc: doc, Models: []string{policy.ModelCluster},
			Requires: "platform.power",
			New: func(env metrics.Env) metrics.Measure {
				p, _ := ParsePower(env.Power) // the scenario's check parsed it
				m := NewMeter(p, env.Procs, false)
				if env.Nodes != nil {
					m.SetNodes(env.Nodes) // watts per node
				}
				return &measure{Meter: m, value: value}
			}}
	}
	return []metrics.Decl{
		decl("energy_kwh", "kWh", "the machine's energy from time 0 to the last job's end, kWh (docs/energy.md)", func(r Result) float64 { return r.TotalJ / 3.6e6 }),
		decl("mean_power_kw", "kW", "the machine's mean power, kW", func(r Result) float64 { return r.MeanW / 1e3 }),
		decl("peak_power_kw", "kW", "the machine's peak power, kW", func(r Result) float64 { return r.PeakW / 1e3 }),
		decl("energy_per_job_kj", "kJ", "the machine's energy over the jobs that ended, kJ", func(r Result) float64 { return r.PerJobJ / 1e3 }),
		signalDecl("carbon_kg", "kg", "platform.carbon", "the machine's emissions from time 0 to the last job's end under the carbon intensity signal, kg CO2 (docs/energy.md)",
			func(r Result) float64 { return r.CarbonKg }),
		signalDecl("cost", "currency", "platform.price", "the machine's energy cost from time 0 to the last job's end under the price signal (docs/energy.md)",
			func(r Result) float64 { return r.Cost }),
	}
}

// signalDecl declares a metric of the energy weighed by a signal: it
// requires the signal (requires) and, through it, the power model
// (a scenario or run with the signal and no power model is refused).
func signalDecl(name, unit, requires, doc string, value func(Result) float64) metrics.Decl {
	return metrics.Decl{Name: name, Unit: unit, Better: metrics.Lower, Doc: doc, Models: []string{policy.ModelCluster},
		Requires: requires,
		New: func(env metrics.Env) metrics.Measure {
			p, _ := ParsePower(env.Power) // the check refused a signal without a power model
			m := NewMeter(p, env.Procs, false)
			if env.Nodes != nil {
				m.SetNodes(env.Nodes)
			}
			m.SetSignals(env.Carbon, env.Price)
			return &measure{Meter: m, value: value}
		}}
}

// measure is one energy metric's listener.
type measure struct {
	*Meter
	value func(Result) float64
}

func (m *measure) Value() float64 { return m.value(m.Result()) }
