package energy

import (
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/policy"
)

// Declarations declares the energy metrics of the cluster model, off by
// default and measured only under a power model (platform.power in a
// scenario, run --power): energy_kwh, mean_power_kw, peak_power_kw and
// energy_per_job_kj, so that a sweep gives them with confidence
// intervals and paired differences.
func Declarations() []metrics.Decl {
	decl := func(name, unit, doc string, value func(Result) float64) metrics.Decl {
		return metrics.Decl{Name: name, Unit: unit, Better: metrics.Lower, Doc: doc, Models: []string{policy.ModelCluster},
			Requires: "platform.power",
			New: func(env metrics.Env) metrics.Measure {
				p, _ := ParsePower(env.Power) // the scenario's check parsed it
				return &measure{Meter: NewMeter(p, env.Procs, false), value: value}
			}}
	}
	return []metrics.Decl{
		decl("energy_kwh", "kWh", "the machine's energy from time 0 to the last job's end, kWh (docs/energy.md)", func(r Result) float64 { return r.TotalJ / 3.6e6 }),
		decl("mean_power_kw", "kW", "the machine's mean power, kW", func(r Result) float64 { return r.MeanW / 1e3 }),
		decl("peak_power_kw", "kW", "the machine's peak power, kW", func(r Result) float64 { return r.PeakW / 1e3 }),
		decl("energy_per_job_kj", "kJ", "the machine's energy over the jobs that ended, kJ", func(r Result) float64 { return r.PerJobJ / 1e3 }),
	}
}

// measure is one energy metric's listener.
type measure struct {
	*Meter
	value func(Result) float64
}

func (m *measure) Value() float64 { return m.value(m.Result()) }
