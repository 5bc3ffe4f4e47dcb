package counts

import (
	"io"
	"os"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// traceJobs reads a whole trace (requested times as estimates, as
// schedlab run does by default): the embedded KTH by name, the others
// from the trace folder beside the repository, skipped when absent.
func traceJobs(b *testing.B, name string) []actual.Job {
	b.Helper()
	if name != "KTH-SP2-1996-2.1-cln.swf.gz" {
		name = "../../../shared/traces/" + name
		if _, err := os.Stat(name); err != nil {
			b.Skipf("trace %s not available", name)
		}
	}
	rd, err := workload.OpenTrace(name)
	if err != nil {
		b.Fatal(err)
	}
	defer rd.Close()
	es := workload.WithEstimates(swf.NewSource(rd, swf.Options{MaxProcs: 8192}), workload.EstimateRequest)
	var jobs []actual.Job
	for {
		j, err := es.Next()
		if err == io.EOF {
			return jobs
		}
		if err != nil {
			b.Fatal(err)
		}
		jobs = append(jobs, j)
	}
}

// EASY and conservative by counts on nodes (engine.NodeCluster, the
// model placing every start by the allocation rule) beside the same
// policy on the pool of the nodes' cores (engine.Cluster): KTH on 25
// nodes of 4 cores, HPC2N on 120 of 2, RICC on 1,024 of 8.
func BenchmarkByCounts(b *testing.B) {
	for _, c := range []struct{ trace, nodes string }{
		{"KTH-SP2-1996-2.1-cln.swf.gz", "n[1-25]:cores=4"},
		{"HPC2N-2002-2.1-cln.swf.gz", "n[1-120]:cores=2"},
		{"RICC-2010-2.swf.gz", "n[1-1024]:cores=8"},
	} {
		b.Run(c.trace, func(b *testing.B) {
			jobs := traceJobs(b, c.trace)
			ns := nodestest.Must(b, c.nodes)
			cpus := ns.Cores()
			for _, pol := range []struct {
				name  string
				depth int
			}{{"easy", 1}, {"conservative", backfill.Unlimited}} {
				b.Run("pool/"+pol.name, func(b *testing.B) {
					plat, err := platform.Cluster(cpus)
					if err != nil {
						b.Fatal(err)
					}
					for range b.N {
						c, err := engine.NewCluster(engine.ClusterConfig{Platform: plat, Source: workload.FromSlice(slices.Clone(jobs)),
							Policy: backfill.NewBackfill(pol.name, cpus, pol.depth, backfill.OrderFCFS)})
						if err != nil {
							b.Fatal(err)
						}
						if err := c.Run(); err != nil {
							b.Fatal(err)
						}
					}
				})
				b.Run(c.nodes+"/"+pol.name, func(b *testing.B) {
					for range b.N {
						s, err := New(backfill.NewBackfill(pol.name, cpus, pol.depth, backfill.OrderFCFS), ns)
						if err != nil {
							b.Fatal(err)
						}
						c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: s, Source: workload.FromSlice(slices.Clone(jobs))})
						if err != nil {
							b.Fatal(err)
						}
						if err := c.Run(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
