package experiment

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/policy"
)

// MaxResponses bounds the per-job responses a cluster replication keeps
// in memory (ClusterResult.Responses, 16 bytes a job): a longer run
// keeps none.
const MaxResponses = 2_000_000

// JobResponse is one job's response (end - submit; a killed job's too).
type JobResponse struct {
	ID       job.ID
	Response float64
}

// ClusterResult is the typed result of a replication of the cluster
// model (RepMetrics.Detail), for callers in memory that read the run job
// by job (hafshejani-2012 compares the same jobs across policies). No
// file records Responses or Heads.
type ClusterResult struct {
	metrics.Result
	// Responses are the jobs' responses in the order they ended; nil
	// when the run ended more than MaxResponses jobs (Dropped is then
	// set).
	Responses []JobResponse
	Dropped   bool
	// Heads are the first jobs of the windows of a policy that forms them
	// (a policy.WindowReporter, matrix), in window order; nil otherwise.
	Heads []job.ID
}

// ResponseMap is r's responses by job ID (nil when they were dropped).
func (r ClusterResult) ResponseMap() map[job.ID]float64 {
	if r.Dropped {
		return nil
	}
	m := make(map[job.ID]float64, len(r.Responses))
	for _, x := range r.Responses {
		m[x.ID] = x.Response
	}
	return m
}

// jobReader collects a run's per-job responses and its policy's window
// heads (ClusterResult).
type jobReader struct {
	engine.NopListener
	res *ClusterResult
}

func (r *jobReader) JobFinished(now float64, rec *engine.Record) {
	if r.res.Dropped {
		return
	}
	if len(r.res.Responses) == MaxResponses {
		r.res.Responses, r.res.Dropped = nil, true
		return
	}
	r.res.Responses = append(r.res.Responses, JobResponse{ID: rec.Job.ID, Response: rec.Turnaround()})
}

func (r *jobReader) JobKilled(now float64, rec *engine.Record) { r.JobFinished(now, rec) }

// watch asks pol, when it forms windows, to tell r of their heads.
func (r *jobReader) watch(pol any) {
	if w := policy.CapsOf(pol).Windows; w != nil {
		w.SetOnWindow(func(now float64, head job.ID) { r.res.Heads = append(r.res.Heads, head) })
	}
}
