package experiment

import (
	"fmt"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
)

// MaxJobsRun bounds the jobs of a JobsRun (they are held in memory).
const MaxJobsRun = 10_000_000

// JobsRun is a workload held in memory (a trace prefix, a generated
// workload) on one cluster under a queue policy by name, with each job's
// response kept: the hafshejani-2012 reproduction compares the same jobs
// across policies.
type JobsRun struct {
	Jobs   []actual.Job // in submit order; estimates set
	Procs  int
	Policy string // a cluster queue policy (registry)
	// Options are the policy's option texts by name (see 'schedlab
	// policies'); the registry checks them.
	Options map[string]string
}

// JobsResult is the outcome of a JobsRun.
type JobsResult struct {
	metrics.Result
	// Response is each job's response (end - submit), by job ID.
	Response map[job.ID]float64
	// Heads are the first jobs of the windows of a policy that forms them
	// (a policy.WindowReporter), in window order; nil otherwise.
	Heads []job.ID
}

type responses struct {
	engine.NopListener
	m map[job.ID]float64
}

func (r *responses) JobFinished(now float64, rec *engine.Record) { r.m[rec.Job.ID] = rec.Turnaround() }
func (r *responses) JobKilled(now float64, rec *engine.Record)   { r.JobFinished(now, rec) }

// RunJobs simulates cfg (jobs are killed at their request, as in `run`).
func RunJobs(cfg JobsRun) (*JobsResult, error) {
	if len(cfg.Jobs) == 0 || len(cfg.Jobs) > MaxJobsRun {
		return nil, fmt.Errorf("jobs run: %d jobs, want 1..%d", len(cfg.Jobs), MaxJobsRun)
	}
	qp, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, cfg.Policy)
	if err != nil {
		return nil, err
	}
	plat, err := platform.Cluster(cfg.Procs)
	if err != nil {
		return nil, err
	}
	opts, err := qp.Check(cfg.Options)
	if err != nil {
		return nil, err
	}
	res := &JobsResult{Response: make(map[job.ID]float64, len(cfg.Jobs))}
	sum := metrics.NewSummary(cfg.Procs, metrics.DefaultTau)
	run, err := newClusterRun(clusterSpec{plat: plat, qp: qp, opts: opts, src: workload.FromSlice(cfg.Jobs),
		lis: engine.Tee{sum, &responses{m: res.Response}}})
	if err != nil {
		return nil, err
	}
	defer closePolicy(run.pol)
	if w, ok := run.pol.(policy.WindowReporter); ok {
		w.SetOnWindow(func(now float64, head job.ID) { res.Heads = append(res.Heads, head) })
	}
	if err := run.eng.Run(); err != nil {
		return nil, err
	}
	res.Result = sum.Result()
	if err := run.threadUtilization(&res.Result, cfg.Procs); err != nil {
		return nil, err
	}
	return res, nil
}
