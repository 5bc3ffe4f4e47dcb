package backfill

import (
	"testing"

	"github.com/schedlab/schedlab/policy"
)

// The whole KTH trace (27,992 jobs, 100 CPUs; embedded) under EASY and
// conservative backfilling: on the pool of CPUs (through the engine),
// and on nodes, 100 x 1 core and 25 x 4 cores (through the test
// driver, driveNodes, which applies every allocation to a nodes.State
// as the model does).
func BenchmarkKTHNodes(b *testing.B) {
	jobs, procs := kthJobs(b, 0)
	specs := specsOf(jobs)
	for _, pol := range []struct {
		name  string
		depth int
	}{{"easy", 1}, {"conservative", Unlimited}} {
		b.Run("pool/"+pol.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				poolStarts(b, jobs, procs, NewBackfill(pol.name, procs, pol.depth, OrderFCFS))
			}
		})
		for _, plat := range []string{"n[1-100]:cores=1", "n[1-25]:cores=4"} {
			ns := mustNodes(b, plat)
			b.Run(plat+"/"+pol.name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					nb, err := NewNodePolicy(NodeConfig{Name: pol.name, Nodes: ns, Depth: pol.depth, Order: OrderFCFS})
					if err != nil {
						b.Fatal(err)
					}
					driveNodes(b, ns, policy.NodeScheduler(nb), specs)
				}
			})
		}
	}
}
