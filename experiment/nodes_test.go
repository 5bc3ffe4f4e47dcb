package experiment

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/validate"
)

// The declared node metrics (asked for with --metric) are the values of
// summary.json's nodes section, and they need a platform of nodes.
func TestNodeMetricsDeclared(t *testing.T) {
	names := []string{"gpu_utilization", "gpu_hours", "idle_gpu_hours", "gpu_jobs_mean_wait", "other_jobs_mean_wait", "busy_node_fraction"}
	spec := RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: 2000},
		Platform: PlatformSpec{Nodes: []string{"n[1-25]:cores=4:gres=gpu=1"}}, Policy: PolicySpec{Name: "easy"},
		Outputs: OutputSpec{Metrics: names}}
	res, err := spec.Run()
	if err != nil {
		t.Fatal(err)
	}
	n := res.Nodes
	if n == nil {
		t.Fatal("no nodes section")
	}
	want := map[string]float64{"gpu_utilization": 0, "gpu_hours": n.GPUHours, "idle_gpu_hours": n.IdleGPUHoursWhileWaiting,
		"gpu_jobs_mean_wait": n.GPUJobsMeanWait, "other_jobs_mean_wait": n.OtherJobsMeanWait, "busy_node_fraction": n.BusyNodeFraction}
	for _, m := range names {
		if got := res.Metrics[m]; got != want[m] {
			t.Errorf("%s = %v, the nodes section says %v", m, got, want[m])
		}
	}
	if n.OtherJobsMeanWait != res.Result.MeanWait || n.BusyNodeFraction <= 0 || n.BusyNodeFraction > 1 {
		t.Errorf("no SWF job asks for a GPU: other jobs' mean wait %v, want the run's %v; busy node fraction %v", n.OtherJobsMeanWait, res.Result.MeanWait, n.BusyNodeFraction)
	}
	spec.Platform = PlatformSpec{}
	if _, err := spec.Run(); err == nil || !strings.Contains(err.Error(), "--metric gpu_utilization needs --nodes") {
		t.Errorf("a node metric on a pool of CPUs: %v", err)
	}
}

// --check on nodes refuses a schedule where one GPU unit is held by two
// jobs at once (planted in what the run recorded).
func TestNodeCheckRefusesADoubleBookedGPU(t *testing.T) {
	ns, err := ParseNodes([]string{"g[1-2]:cores=4:gres=gpu=2"})
	if err != nil {
		t.Fatal(err)
	}
	r := nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "gpu", Count: 1}}}
	a := nodes.Allocation{Nodes: []nodes.NodeAlloc{{Node: 0, Tasks: 1, Cores: []int{0}, GRES: []nodes.GRESUnits{{Kind: nodes.Kind{Name: "gpu"}, Units: []int{0}}}}}}
	b := nodes.Allocation{Nodes: []nodes.NodeAlloc{{Node: 0, Tasks: 1, Cores: []int{1}, GRES: []nodes.GRESUnits{{Kind: nodes.Kind{Name: "gpu"}, Units: []int{1}}}}}}
	c := &nodeCheck{ns: ns, submitted: 2}
	c.recs = []validate.NodeRec{nodecheck.Rec(ns, 1, 0, 10, r, &a), nodecheck.Rec(ns, 2, 5, 15, r, &b)}
	if err := c.check(); err != nil {
		t.Fatalf("a valid schedule refused: %v", err)
	}
	c.recs[1] = nodecheck.Rec(ns, 2, 5, 15, r, &a) // job 2 on job 1's core and GPU while it runs
	c.recs[1].Uses[0].Cores = []int{1}             // only the GPU is shared
	if err := c.check(); err == nil || !strings.Contains(err.Error(), "gpu") {
		t.Errorf("a GPU held twice: %v", err)
	}
}

// More node groups than MaxNodeGroups are refused before any is parsed,
// naming the bound; none is an error too.
func TestParseNodesBounds(t *testing.T) {
	groups := make([]string, MaxNodeGroups+1)
	for i := range groups {
		groups[i] = "not a group"
	}
	if _, err := ParseNodes(groups); err == nil || !strings.Contains(err.Error(), "4097 node groups: at most 4096 (MaxNodeGroups)") {
		t.Errorf("too many groups: %v", err)
	}
	if _, err := ParseNodes(nil); err == nil {
		t.Error("no group accepted")
	}
	if _, err := ParseNodes([]string{"n[1-2]:cores=2", "n2:cores=4"}); err == nil || !strings.Contains(err.Error(), "n2") {
		t.Errorf("a node in two groups: %v", err)
	}
}
