package backfill

import (
	"os"
	"testing"
	"time"
	"io"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

func loadT(t *testing.T, path string) ([]actual.Job, int) {
	rd, err := swf.Open(path)
	if err != nil { t.Skip(err) }
	defer rd.Close()
	src := swf.NewSource(rd, swf.Options{})
	es := workload.WithEstimates(src, workload.EstimateRequest)
	var jobs []actual.Job
	for { j, err := es.Next(); if err == io.EOF { break }; if err != nil { t.Fatal(err) }; jobs = append(jobs, j) }
	return jobs, src.MaxProcs()
}

func TestZZPerf(t *testing.T) {
	path := os.Getenv("PERF_TRACE")
	if path == "" { t.Skip() }
	jobs, procs := loadT(t, path)
	if n := os.Getenv("PERF_PROCS"); n == "8192" { procs = 8192 }
	plat := os.Getenv("PERF_NODES")
	depth := 1
	if os.Getenv("PERF_POL") == "conservative" { depth = Unlimited }
	t0 := time.Now()
	poolStarts(t, jobs, procs, NewBackfill("x", procs, depth, OrderFCFS))
	tp := time.Since(t0)
	ns := mustNodes(t, plat)
	specs := specsOf(jobs)
	nb, _ := NewNodePolicy(NodeConfig{Name: "x", Nodes: ns, Depth: depth})
	t0 = time.Now()
	driveNodes(t, ns, nb, specs)
	t.Logf("%d jobs, pool %v, nodes %v", len(jobs), tp, time.Since(t0))
}
