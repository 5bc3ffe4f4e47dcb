package experiment

import (
	"os"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
)

// PartitionMetrics are a partition's own summary metrics in
// summary.json: those of the jobs of the partition alone, on its CPUs
// (the definitions of the run's summary, docs/scheduling.md).
type PartitionMetrics struct {
	Jobs                int64   `json:"jobs_ended"`
	MeanWait            float64 `json:"mean_wait"`
	MaxWait             float64 `json:"max_wait"`
	MeanResponse        float64 `json:"mean_response"`
	MeanBoundedSlowdown float64 `json:"mean_bounded_slowdown"`
	// Utilization is the CPU-seconds of the partition's jobs over its
	// CPUs times the span from its first submission to its last end.
	Utilization float64 `json:"utilization"`
}

// PartitionSummary is one partition in summary.json's partitions
// section: its name, its CPUs (Run.Partitions.List's) and its metrics.
type PartitionSummary struct {
	Name string `json:"name"`
	CPUs string `json:"cpus"`
	PartitionMetrics
}

// partSummaries routes each job's events to the summary of its
// partition.
type partSummaries struct {
	a    *traceAsm
	sums []*metrics.Summary
}

func (p *partSummaries) of(j *actual.Job) *metrics.Summary {
	if p.a.psrc == nil {
		return nil
	}
	if k := p.a.psrc.index(j.Partition); k >= 0 {
		return p.sums[k]
	}
	return nil
}

func (p *partSummaries) JobSubmitted(now float64, j *actual.Job) {
	if s := p.of(j); s != nil {
		s.JobSubmitted(now, j)
	}
}
func (p *partSummaries) JobDispatched(float64, *actual.Job, []int) {}
func (p *partSummaries) JobStarted(now float64, st engine.Start) {
	if s := p.of(st.Job); s != nil {
		s.JobStarted(now, st)
	}
}
func (p *partSummaries) JobFinished(now float64, r *engine.Record) {
	if s := p.of(r.Job); s != nil {
		s.JobFinished(now, r)
	}
}
func (p *partSummaries) JobKilled(now float64, r *engine.Record) {
	if s := p.of(r.Job); s != nil {
		s.JobKilled(now, r)
	}
}

func openPartSummaries(a *traceAsm, _ *os.File) (engine.Listener, error) {
	tau := a.s.Outputs.Tau
	if tau == 0 {
		tau = metrics.DefaultTau
	}
	p := &partSummaries{a: a}
	for _, d := range a.defs {
		p.sums = append(p.sums, metrics.NewSummary(d.CPUs.Count(), tau))
	}
	a.o.parts = p
	return p, nil
}

func reportPartSummaries(a *traceAsm, res *TraceResult) {
	if res.Run.Partitions == nil {
		return
	}
	for k, s := range a.o.parts.sums {
		if k >= len(res.Run.Partitions.List) {
			break
		}
		r := s.Result()
		pi := &res.Run.Partitions.List[k]
		pi.Metrics = &PartitionMetrics{Jobs: r.Jobs, MeanWait: r.MeanWait, MaxWait: r.MaxWait,
			MeanResponse: r.MeanResponse, MeanBoundedSlowdown: r.MeanBoundedSlowdown, Utilization: r.Utilization}
		res.Partitions = append(res.Partitions, PartitionSummary{Name: pi.Name, CPUs: pi.CPUs, PartitionMetrics: *pi.Metrics})
	}
}
