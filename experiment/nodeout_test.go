package experiment

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform/nodes"
)

// The outputs of a run on nodes, on an assembly with a platform of nodes
// (the run itself is not needed: the listeners are called by hand): the
// node columns of jobs.csv, the nodes section and its summary lines.
func TestNodeOutputs(t *testing.T) {
	g, err := nodes.ParseGroup("gpu[1-2]:cores=4:gres=gpu:a100=2")
	if err != nil {
		t.Fatal(err)
	}
	ns, err := nodes.New([]nodes.NodeGroup{g})
	if err != nil {
		t.Fatal(err)
	}
	a := &traceAsm{ns: &ns}
	var nodesOut traceOutput
	for _, o := range traceOutputs {
		if o.name == "nodes" {
			nodesOut = o
		}
	}
	if !nodesOut.applies(a) || nodesOut.applies(&traceAsm{}) {
		t.Fatal("the nodes output applies on nodes only")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	jl, err := openJobsCSV(a, f)
	if err != nil {
		t.Fatal(err)
	}
	ul, err := nodesOut.open(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	tee := engine.Tee{jl, ul}
	req := &nodes.Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "gpu", Count: 1}}}
	j := &actual.Job{ID: 1, Submit: 0, Procs: 2, Request: 10, Req: req}
	alloc := &nodes.Allocation{Nodes: []nodes.NodeAlloc{
		{Node: 0, Tasks: 1, Cores: []int{0}, GRES: []nodes.GRESUnits{{Kind: nodes.Kind{Name: "gpu", Type: "a100"}, Units: []int{0}}}},
		{Node: 1, Tasks: 1, Cores: []int{4}, GRES: []nodes.GRESUnits{{Kind: nodes.Kind{Name: "gpu", Type: "a100"}, Units: []int{2}}}}}}
	tee.JobSubmitted(0, j)
	ul.(engine.TimeListener).TimeAdvanced(0, &engine.Usage{Nodes: &engine.NodeUsage{Platform: &ns, GRES: []int{0}, WaitingGRES: []int{0}}})
	tee.JobStarted(0, engine.Start{Job: j, Alloc: alloc})
	// [0, 3600): 2 cores of 8, 2 GPUs of 4, both nodes busy.
	ul.(engine.TimeListener).TimeAdvanced(3600, &engine.Usage{Nodes: &engine.NodeUsage{Platform: &ns, Cores: 2, NodesBusy: 2, GRES: []int{2}, WaitingGRES: []int{0}}})
	rec := &engine.Record{Job: j, Start: 0, End: 3600, State: job.Completed, Alloc: alloc}
	rec.CPUs = rec.CPUs.Add(0).Add(4)
	tee.JobFinished(3600, rec)
	if err := a.o.jobsCSV.Flush(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), strings.Replace(metrics.JobsHeader, "allocated_resources,", "allocated_resources,allocated_nodes,allocated_gres,", 1)) ||
		!strings.Contains(string(b), ",0 4,gpu[1-2],gpu:a100=0 2,COMPLETED_SUCCESSFULLY,") {
		t.Fatalf("jobs.csv:\n%s", b)
	}
	res := &TraceResult{}
	nodesOut.report(a, res)
	n := res.Nodes
	if n == nil || n.CoreUtilization != 0.25 || n.GPUHours != 2 || n.BusyNodeFraction != 1 || n.GPUJobs != 1 || n.Hostlist != "gpu[1-2]" {
		t.Fatalf("nodes section %+v", n)
	}
	var buf bytes.Buffer
	if err := WriteSummary(&buf, res, RunSpec{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"nodes (2 nodes, 8 cores; over the 3600.0 s from 0.0 s): core utilization 0.250, gpu:a100 0.500; busy nodes 1.000",
		"GPUs: 2.0 GPU-hours, 0.0 idle while GPU jobs waited; 1 GPU job(s), mean wait 0.0 s; 0 other job(s), mean wait 0.0 s"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, buf.String())
		}
	}
}
