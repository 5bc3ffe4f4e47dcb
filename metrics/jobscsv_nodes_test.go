package metrics

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
)

// testNodes is n1..n3 (4 cores each: cores 0-3, 4-7, 8-11) and gpu1,
// gpu2 (8 cores: 12-19, 20-27; gpu:a100 units 0-1 and 2-3, nvme 0 and 1).
func testNodes(t *testing.T) *nodes.Nodes {
	t.Helper()
	return nodestest.Must(t, "n[1-3]:cores=4:mem=16G", "gpu[1-2]:cores=8:mem=64G:gres=gpu:a100=2,nvme=1")
}

// onNode is what a job holds on one node: its id, cores and units of
// gpu:a100 and nvme.
type onNode struct {
	node        int
	cores       []int
	a100, nvmes []int
}

// nodeRec is a record of a completed job on the nodes on.
func nodeRec(id job.ID, submit, start, end float64, procs int, on ...onNode) *engine.Record {
	r := rec(id, submit, start, end, procs, 100, job.Completed, job.Immediate)
	a := &nodes.Allocation{}
	var cores []int
	for _, o := range on {
		na := nodes.NodeAlloc{Node: o.node, Tasks: len(o.cores), Cores: o.cores}
		if len(o.a100) > 0 {
			na.GRES = append(na.GRES, nodes.GRESUnits{Kind: nodes.Kind{Name: "gpu", Type: "a100"}, Units: o.a100})
		}
		if len(o.nvmes) > 0 {
			na.GRES = append(na.GRES, nodes.GRESUnits{Kind: nodes.Kind{Name: "nvme"}, Units: o.nvmes})
		}
		a.Nodes = append(a.Nodes, na)
		cores = append(cores, o.cores...)
	}
	r.Alloc = a
	var runs platform.Runs
	for _, c := range sortedInts(cores) {
		runs = runs.Add(int32(c))
	}
	r.CPUs = runs
	return r
}

func sortedInts(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// Four jobs on testNodes, their node columns worked by hand: job 2's
// nodes n1 and n3 are "n[1,3]" (quoted: a comma), job 3 took gpu2
// before gpu1 (units listed by kind, ids sorted), job 4 is on n3 and
// gpu1 ("gpu1,n3": prefixes in natural order).
func TestJobsCSVNodes(t *testing.T) {
	ns := testNodes(t)
	var buf bytes.Buffer
	j := NewJobsCSVNodes(&buf, ns)
	j.JobFinished(10, nodeRec(1, 0, 0, 10, 8, onNode{node: 0, cores: []int{0, 1, 2, 3}}, onNode{node: 1, cores: []int{4, 5, 6, 7}}))
	j.JobFinished(12, nodeRec(2, 1, 2, 12, 4, onNode{node: 0, cores: []int{0, 1}}, onNode{node: 2, cores: []int{8, 9}}))
	j.JobFinished(20, nodeRec(3, 2, 5, 20, 4,
		onNode{node: 4, cores: []int{20, 21}, a100: []int{2}},
		onNode{node: 3, cores: []int{12, 13}, a100: []int{1, 0}, nvmes: []int{0}}))
	j.JobFinished(30, nodeRec(4, 3, 20, 30, 2, onNode{node: 2, cores: []int{10}}, onNode{node: 3, cores: []int{14}, a100: []int{1}}))
	if err := j.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "job_id,submission_time,requested_number_of_resources,requested_time,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch," +
		"allocated_resources,allocated_nodes,allocated_gres,final_state,start_reason,workload_name,profile,success,consumed_energy,metadata,user,group,partition\n" +
		"1,0,8,100,0,10,10,0,10,1,0-7,n[1-2],,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,0,0,0\n" +
		"2,1,4,100,2,10,12,1,11,1.1,0-1 8-9,\"n[1,3]\",,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,0,0,0\n" +
		"3,2,4,100,5,15,20,3,18,1.2,12-13 20-21,gpu[1-2],gpu:a100=0-2;nvme=0,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,0,0,0\n" +
		"4,3,2,100,20,10,30,17,27,2.7,10 14,\"gpu1,n3\",gpu:a100=1,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,0,0,0\n"
	if got := buf.String(); got != want {
		t.Fatalf("jobs.csv on nodes:\n%s\nwant\n%s", got, want)
	}

	// A CSV reader (as pandas' and evalys' read it) sees every row with
	// the header's columns, the hostlists whole.
	rows, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	wantNodes := []string{"n[1-2]", "n[1,3]", "gpu[1-2]", "gpu1,n3"}
	for i, r := range rows[1:] {
		if len(r) != len(rows[0]) {
			t.Fatalf("row %d: %d cells, header %d", i+1, len(r), len(rows[0]))
		}
		if got := r[col["allocated_nodes"]]; got != wantNodes[i] {
			t.Errorf("row %d: allocated_nodes %q, want %q", i+1, got, wantNodes[i])
		}
		if got, err := nodes.Expand(r[col["allocated_nodes"]]); err != nil || len(got) == 0 {
			t.Errorf("row %d: allocated_nodes does not expand: %v %v", i+1, got, err)
		}
		if r[col["final_state"]] != "COMPLETED_SUCCESSFULLY" {
			t.Errorf("row %d: final_state %q: the columns after the node columns moved", i+1, r[col["final_state"]])
		}
	}
}

// A record without an allocation on a platform of nodes is an error
// naming the job, not a panic or a row of empty cells.
func TestJobsCSVNodesNoAlloc(t *testing.T) {
	var buf bytes.Buffer
	j := NewJobsCSVNodes(&buf, testNodes(t))
	j.JobFinished(10, rec(7, 0, 0, 10, 1, 100, job.Completed, job.Immediate))
	if err := j.Flush(); err == nil || !strings.Contains(err.Error(), "job 7") {
		t.Fatalf("err %v, want one naming job 7", err)
	}
}

// The node columns do not change the header of a pool of CPUs.
func TestJobsCSVNodesHeader(t *testing.T) {
	var a, b bytes.Buffer
	NewJobsCSV(&a).Flush()
	NewJobsCSVNodes(&b, testNodes(t)).Flush()
	if a.String() != JobsHeader {
		t.Fatalf("CPU-pool header %q", a.String())
	}
	if want := strings.Replace(JobsHeader, "allocated_resources,", "allocated_resources,"+NodeColumns+",", 1); b.String() != want {
		t.Fatalf("nodes header %q, want %q", b.String(), want)
	}
}
