package backfill

import (
	"io"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// nodeJobSpec is a job of the test driver: it runs dur from its start.
type nodeJobSpec struct {
	id            job.ID
	submit, dur   float64
	est           float64
	req           *nodes.Request // nil: procs tasks of one CPU
	procs         int
	user, group   int32
	partition, qo int32
}

// nodeRun is what the driver records of a job.
type drivenJob struct {
	start, end float64
	alloc      nodes.Allocation
	reason     job.StartReason
}

// driveNodes runs pol over jobs on ns as the model does: at each
// instant the ends (Finish), then the submissions (Submit), then one
// Schedule; a job started with a zero duration ends at the same instant
// (Finish, then Schedule again). Every start's allocation is taken on a
// nodes.State (Occupy: it must be free) and checked against the job's
// request by the engine's rule of counts.
func driveNodes(t testing.TB, ns *nodes.Nodes, pol policy.NodeScheduler, jobs []nodeJobSpec) map[job.ID]*drivenJob {
	t.Helper()
	st := nodes.NewState(ns)
	out := map[job.ID]*drivenJob{}
	byID := map[job.ID]*nodeJobSpec{}
	order := make([]int, len(jobs))
	for i := range jobs {
		order[i] = i
		byID[jobs[i].id] = &jobs[i]
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case jobs[a].submit < jobs[b].submit:
			return -1
		case jobs[a].submit > jobs[b].submit:
			return 1
		}
		return 0
	})
	type end struct {
		t  float64
		id job.ID
	}
	var ends []end
	var plan policy.Plan
	next := 0
	fail, _ := pol.(policy.Failer)
	for next < len(order) || len(ends) > 0 {
		now := 0.0
		switch {
		case len(ends) == 0:
			now = jobs[order[next]].submit
		case next == len(order):
			now = ends[0].t
		default:
			now = min(ends[0].t, jobs[order[next]].submit)
		}
		submitted := false
		for first := true; ; first = false {
			done := 0
			for done < len(ends) && ends[done].t == now {
				e := ends[done]
				st.Release(out[e.id].alloc)
				pol.Finish(now, e.id)
				done++
			}
			ends = ends[done:]
			if !first && done == 0 {
				break
			}
			if !submitted {
				for next < len(order) && jobs[order[next]].submit == now {
					j := &jobs[order[next]]
					pol.Submit(now, job.Info{ID: j.id, Submit: j.submit, Estimate: j.est, Procs: j.procs, Req: j.req,
						User: j.user, Group: j.group, Partition: j.partition, QOS: j.qo})
					next++
				}
				submitted = true
			}
			plan.Reset()
			pol.Schedule(now, nil, &plan)
			if fail != nil && fail.Err() != nil {
				t.Fatal(fail.Err())
			}
			for _, s := range plan.Starts {
				if s.Alloc == nil {
					t.Fatalf("t=%g: job %d started without an allocation", now, s.ID)
				}
				if _, dup := out[s.ID]; dup {
					t.Fatalf("t=%g: job %d started twice", now, s.ID)
				}
				if !st.Occupy(*s.Alloc) {
					t.Fatalf("t=%g: job %d: allocation %+v is not free", now, s.ID, *s.Alloc)
				}
				j := byID[s.ID]
				// A deep copy: the policy reuses an allocation's storage
				// once its job has ended.
				out[s.ID] = &drivenJob{start: now, end: now + j.dur, alloc: deepAlloc(*s.Alloc), reason: s.Reason}
				ends = append(ends, end{now + j.dur, s.ID})
			}
			slices.SortStableFunc(ends, func(a, b end) int {
				switch {
				case a.t < b.t:
					return -1
				case a.t > b.t:
					return 1
				}
				return 0
			})
		}
	}
	for _, j := range jobs {
		if _, ok := out[j.id]; !ok {
			t.Fatalf("job %d never started", j.id)
		}
	}
	return out
}

// kthJobs reads the first n jobs of the embedded KTH trace (requested
// times as estimates).
func kthJobs(t testing.TB, n int) ([]actual.Job, int) {
	t.Helper()
	rd, err := workload.OpenTrace("KTH-SP2-1996-2.1-cln.swf.gz")
	if err != nil {
		t.Skipf("KTH trace: %v", err)
	}
	defer rd.Close()
	src := swf.NewSource(rd, swf.Options{})
	es := workload.WithEstimates(src, workload.EstimateRequest)
	var jobs []actual.Job
	for n <= 0 || len(jobs) < n {
		j, err := es.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	return jobs, src.MaxProcs()
}

// specsOf turns trace jobs into driver jobs, running as the engine runs
// them (their runtime, cut at their request).
func specsOf(jobs []actual.Job) []nodeJobSpec {
	out := make([]nodeJobSpec, len(jobs))
	for i, j := range jobs {
		dur := j.Runtime
		if j.Request > 0 && dur > j.Request {
			dur = j.Request
		}
		out[i] = nodeJobSpec{id: j.ID, submit: j.Submit, dur: dur, est: j.Estimate, procs: j.Procs,
			user: j.User, group: j.Group, partition: j.Partition, qo: j.QOS}
	}
	return out
}

// startRecorder records each job's start in an engine run.
type startRecorder struct {
	engine.NopListener
	start  map[job.ID]float64
	reason map[job.ID]job.StartReason
}

func (r *startRecorder) JobStarted(now float64, s engine.Start) {
	r.start[s.Job.ID] = now
	if r.reason != nil {
		r.reason[s.Job.ID] = s.Reason
	}
}

// poolStarts runs the CPU-pool policy q over jobs on one machine of
// procs CPUs through the engine.
func poolStarts(t testing.TB, jobs []actual.Job, procs int, q policy.QueueScheduler) map[job.ID]float64 {
	t.Helper()
	rec := &startRecorder{start: map[job.ID]float64{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: q,
		Source: workload.FromSlice(jobs), Listener: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return rec.start
}

func mustNodes(t testing.TB, specs ...string) *nodes.Nodes { return nodestest.Must(t, specs...) }

// deepAlloc is a copy of a sharing no storage with it.
func deepAlloc(a nodes.Allocation) nodes.Allocation {
	out := nodes.Allocation{Exclusive: a.Exclusive, Nodes: make([]nodes.NodeAlloc, len(a.Nodes))}
	for i, na := range a.Nodes {
		na.Cores = slices.Clone(na.Cores)
		if na.GRES != nil {
			g := make([]nodes.GRESUnits, len(na.GRES))
			for k, u := range na.GRES {
				g[k] = nodes.GRESUnits{Kind: u.Kind, Units: slices.Clone(u.Units)}
			}
			na.GRES = g
		}
		out.Nodes[i] = na
	}
	return out
}
