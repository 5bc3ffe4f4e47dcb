package nodeuse

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
)

// GPU is the GRES name whose kinds count as GPUs.
const GPU = "gpu"

// Meter is the node-usage listener of one run on a platform of nodes.
// Build it with NewMeter.
type Meter struct {
	ns    *nodes.Nodes
	kinds []nodes.Kind
	total []int // units of each kind
	gpu   []bool

	last               float64 // the instant of the last TimeAdvanced
	coreS, memS, nodeS float64 // core-, MB- and node-seconds held
	unitS              []float64
	idleGPUS           float64 // gpu unit-seconds free while a job that could use them waits
	firstSubmit, end   float64
	submitted          bool
	gpuJobs, otherJobs int64
	gpuWait, otherWait float64
}

// NewMeter returns the meter of a run on ns.
func NewMeter(ns *nodes.Nodes) *Meter {
	m := &Meter{ns: ns, kinds: ns.Kinds()}
	for _, k := range m.kinds {
		m.total = append(m.total, ns.GRESTotal(k))
		m.gpu = append(m.gpu, k.Name == GPU)
	}
	m.unitS = make([]float64, len(m.kinds))
	return m
}

// TimeAdvanced integrates what was held since the previous instant: u
// describes [previous instant, t). A usage without nodes (a pool of
// CPUs) adds nothing.
func (m *Meter) TimeAdvanced(t float64, u *engine.Usage) {
	if n := u.Nodes; n != nil && t > m.last {
		dt := t - m.last
		m.coreS += float64(n.Cores) * dt
		m.memS += float64(n.MemMB) * dt
		m.nodeS += float64(n.NodesBusy) * dt
		for k := range m.kinds {
			held := 0
			if k < len(n.GRES) {
				held = n.GRES[k]
			}
			m.unitS[k] += float64(held) * dt
			if m.gpu[k] && k < len(n.WaitingGRES) && n.WaitingGRES[k] > 0 {
				m.idleGPUS += float64(m.total[k]-held) * dt
			}
		}
	}
	m.last = max(m.last, t)
}

func (m *Meter) JobSubmitted(_ float64, j *actual.Job) {
	if !m.submitted {
		m.firstSubmit, m.submitted = j.Submit, true
	}
}

func (m *Meter) JobDispatched(float64, *actual.Job, []int) {}
func (m *Meter) JobStarted(float64, engine.Start)          {}
func (m *Meter) JobFinished(_ float64, r *engine.Record)   { m.ended(r) }
func (m *Meter) JobKilled(_ float64, r *engine.Record)     { m.ended(r) }

func (m *Meter) ended(r *engine.Record) {
	m.end = max(m.end, r.End)
	if AsksGPU(r.Job.Req) {
		m.gpuJobs++
		m.gpuWait += r.Wait()
	} else {
		m.otherJobs++
		m.otherWait += r.Wait()
	}
}

// AsksGPU says whether a request asks for a GRES named GPU, per node or
// per job (nil, a job of Procs tasks of one CPU, does not).
func AsksGPU(r *nodes.Request) bool {
	if r == nil {
		return false
	}
	for _, gs := range [2][]nodes.GRES{r.GRESPerNode, r.GRESPerJob} {
		for _, g := range gs {
			if g.Name == GPU {
				return true
			}
		}
	}
	return false
}

// Result is the node usage of a run, as summary.json's "nodes" section
// writes it.
type Result struct {
	// FirstSubmitS and SpanS: the utilizations are measured over the
	// span from the first submission to the last job's end, SpanS long.
	FirstSubmitS float64 `json:"first_submit_s"`
	SpanS        float64 `json:"span_s"`
	// Hostlist is every node of the platform (nodes.Compress), Nodes
	// their count.
	Hostlist string `json:"hostlist"`
	Nodes    int    `json:"nodes"`
	Cores    int    `json:"cores"`
	MemMB    int64  `json:"mem_mb"`
	// CoreUtilization: core-seconds held over cores x span.
	CoreUtilization float64 `json:"core_utilization"`
	// MemUtilization: MB-seconds held over the platform's memory x span;
	// absent when no node models memory.
	MemUtilization *float64 `json:"mem_utilization,omitempty"`
	// BusyNodeFraction: node-seconds with at least one job over nodes x
	// span.
	BusyNodeFraction float64 `json:"busy_node_fraction"`
	// GRES: each kind of the platform, in (name, type) order.
	GRES []KindUse `json:"gres"`
	// GPUHours: unit-hours held of the kinds named "gpu", summed.
	GPUHours float64 `json:"gpu_hours"`
	// IdleGPUHoursWhileWaiting: free gpu unit-hours while a waiting job
	// could use them, summed over the gpu kinds.
	IdleGPUHoursWhileWaiting float64 `json:"idle_gpu_hours_while_gpu_jobs_wait"`
	// GPUJobs ask for a GRES named "gpu"; OtherJobs do not. Their mean
	// waits are 0 without jobs.
	GPUJobs           int64   `json:"gpu_jobs"`
	GPUJobsMeanWait   float64 `json:"gpu_jobs_mean_wait"`
	OtherJobs         int64   `json:"other_jobs"`
	OtherJobsMeanWait float64 `json:"other_jobs_mean_wait"`
}

// KindUse is the use of one GRES kind.
type KindUse struct {
	Kind        string  `json:"kind"` // name or name:type
	Units       int     `json:"units"`
	Utilization float64 `json:"utilization"` // unit-seconds held over units x span
	UnitHours   float64 `json:"unit_hours"`  // unit-hours held
}

// Result is the usage of the run: call it when the run has ended (the
// kernel reports the usage up to the instant of the last job's end).
// With no span (no job, or every job of zero length at the first
// submission) the utilizations are 0.
func (m *Meter) Result() Result {
	r := Result{FirstSubmitS: m.firstSubmit, Nodes: m.ns.Len(), Cores: m.ns.Cores(), MemMB: m.ns.MemMB(),
		GPUJobs: m.gpuJobs, OtherJobs: m.otherJobs, IdleGPUHoursWhileWaiting: m.idleGPUS / 3600}
	names := make([]string, m.ns.Len())
	for id := range names {
		names[id] = m.ns.Name(id)
	}
	r.Hostlist, _ = nodes.Compress(names) // the platform's names are valid
	span := 0.0
	if m.submitted {
		span = max(m.end-m.firstSubmit, 0)
	}
	r.SpanS = span
	frac := func(held float64, capacity float64) float64 {
		if span <= 0 || capacity <= 0 {
			return 0
		}
		return held / (capacity * span)
	}
	r.CoreUtilization = frac(m.coreS, float64(r.Cores))
	if r.MemMB > 0 {
		v := frac(m.memS, float64(r.MemMB))
		r.MemUtilization = &v
	}
	r.BusyNodeFraction = frac(m.nodeS, float64(r.Nodes))
	r.GRES = []KindUse{}
	for k, kind := range m.kinds {
		ku := KindUse{Kind: kind.String(), Units: m.total[k], Utilization: frac(m.unitS[k], float64(m.total[k])), UnitHours: m.unitS[k] / 3600}
		r.GRES = append(r.GRES, ku)
		if m.gpu[k] {
			r.GPUHours += ku.UnitHours
		}
	}
	if m.gpuJobs > 0 {
		r.GPUJobsMeanWait = m.gpuWait / float64(m.gpuJobs)
	}
	if m.otherJobs > 0 {
		r.OtherJobsMeanWait = m.otherWait / float64(m.otherJobs)
	}
	return r
}
