package nodeuse

import (
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/policy"
)

// Declarations declares the metrics of a run on a platform of nodes, off
// by default and measured only on nodes (platform.nodes in a scenario,
// run --nodes), so that a sweep gives them with confidence intervals and
// paired differences: gpu_utilization, gpu_hours, idle_gpu_hours,
// gpu_jobs_mean_wait, other_jobs_mean_wait and busy_node_fraction (the
// values of summary.json's nodes section, docs/nodes.md).
func Declarations() []metrics.Decl {
	decl := func(name, unit, better, doc string, value func(Result) float64) metrics.Decl {
		return metrics.Decl{Name: name, Unit: unit, Better: better, Doc: doc, Models: []string{policy.ModelCluster},
			Requires: "platform.nodes",
			New: func(env metrics.Env) metrics.Measure {
				return &measure{Meter: NewMeter(env.Nodes), value: value}
			}}
	}
	return []metrics.Decl{
		decl("gpu_utilization", "fraction", metrics.Higher, "GPU unit-hours held over the GPUs' unit-hours, from the first submission to the last end (every GRES named gpu; 0 without GPUs; docs/nodes.md)", gpuUtilization),
		decl("gpu_hours", "hours", metrics.Higher, "GPU unit-hours held by jobs", func(r Result) float64 { return r.GPUHours }),
		decl("idle_gpu_hours", "hours", metrics.Lower, "GPU unit-hours idle while a waiting job could use them", func(r Result) float64 { return r.IdleGPUHoursWhileWaiting }),
		decl("gpu_jobs_mean_wait", "time", metrics.Lower, "the mean wait of the jobs asking for GPUs (0 without any)", func(r Result) float64 { return r.GPUJobsMeanWait }),
		decl("other_jobs_mean_wait", "time", metrics.Lower, "the mean wait of the jobs asking for no GPU (0 without any)", func(r Result) float64 { return r.OtherJobsMeanWait }),
		decl("busy_node_fraction", "fraction", metrics.Higher, "node-seconds with at least one job over the nodes' seconds", func(r Result) float64 { return r.BusyNodeFraction }),
	}
}

// gpuUtilization is the GPU unit-hours held over the GPU units x span.
func gpuUtilization(r Result) float64 {
	units := 0
	for _, k := range r.GRES {
		if k.Kind == "gpu" || len(k.Kind) > 4 && k.Kind[:4] == "gpu:" {
			units += k.Units
		}
	}
	if units == 0 || r.SpanS <= 0 {
		return 0
	}
	return r.GPUHours * 3600 / (float64(units) * r.SpanS)
}

// measure is one node metric's listener.
type measure struct {
	*Meter
	value func(Result) float64
}

func (m *measure) Value() float64 { return m.value(m.Result()) }
