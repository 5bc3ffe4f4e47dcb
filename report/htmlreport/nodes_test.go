package htmlreport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const nodeJobsHeader = "job_id,submission_time,requested_number_of_resources,requested_time,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch," +
	"allocated_resources,allocated_nodes,allocated_gres,final_state,start_reason,workload_name,profile,success,consumed_energy,metadata,user,group,partition\n"

const nodeSummary = `{"run": {"trace": "t.swf", "policy": "fcfs"}, "jobs": 3, "procs": 32, "bounded_slowdown_tau": 10,
 "nodes": {"hostlist": "g[1-2],n[1-3]", "nodes": 5, "gres": [{"kind": "gpu:a100", "units": 2}, {"kind": "gpu:v100", "units": 2}, {"kind": "nvme", "units": 1}]}}`

// nodeRunDir is a run on g1, g2 (8 cores: 0-7, 8-15; two gpu:a100 and
// two gpu:v100), n1..n3 (4 cores: 16-19, 20-23, 24-27): job 1 on n1 and
// n2, job 2 on g1 with both a100, job 3 on g1 and n1 (not neighbours in
// the rows g1, g2, n1, n2, n3) with one a100.
func nodeRunDir(t *testing.T, rows string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), []byte(nodeSummary), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "jobs.csv"), []byte(nodeJobsHeader+rows), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

const nodeRows = "1,0,8,100,0,20,20,0,20,1,16-23,n[1-2],,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,0,0,0\n" +
	"2,0,8,100,0,10,10,0,10,1,0-7,g1,gpu:a100=0-1,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,0,0,0\n" +
	"3,0,2,100,10,10,20,10,20,2,0 16,\"g1,n1\",gpu:a100=1,COMPLETED_SUCCESSFULLY,reserved,w0,delay,1,-1,,0,0,0\n"

func TestNodeGantt(t *testing.T) {
	page, err := build(nodeRunDir(t, nodeRows), Run, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<canvas id="gantt-nodes"`, `<canvas id="gpu"`, "window.schedlabNodes", `R.ylabel || "CPU id"`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	d := embedded(t, page)
	var nv struct {
		Gantt struct {
			Names []string        `json:"names"`
			IvOff json.RawMessage `json:"ivoff"`
			IvLo  json.RawMessage `json:"ivlo"`
			IvHi  json.RawMessage `json:"ivhi"`
		} `json:"gantt"`
		GPU         series `json:"gpu"`
		GPUFraction bool   `json:"gpufraction"`
		GPUUnits    int    `json:"gpuunits"`
	}
	if err := json.Unmarshal(d["nodes"], &nv); err != nil {
		t.Fatal(err)
	}
	// One row per node of the platform, n3 (which ran nothing) too.
	if want := []string{"g1", "g2", "n1", "n2", "n3"}; !slices.Equal(nv.Gantt.Names, want) {
		t.Fatalf("rows %v, want %v", nv.Gantt.Names, want)
	}
	off, lo, hi := decodeCol(t, nv.Gantt.IvOff), decodeCol(t, nv.Gantt.IvLo), decodeCol(t, nv.Gantt.IvHi)
	rowsOf := func(j int) []int {
		var out []int
		for k := int(off[j]); k < int(off[j+1]); k++ {
			for r := int(lo[k]); r <= int(hi[k]); r++ {
				out = append(out, r)
			}
		}
		return out
	}
	// Job 1 on rows n1, n2 (one run); job 2 on g1; job 3 on g1 and n1,
	// two runs of rows.
	for j, want := range [][]int{{2, 3}, {0}, {0, 2}} {
		if got := rowsOf(j); !slices.Equal(got, want) {
			t.Errorf("job %d on rows %v, want %v", j+1, got, want)
		}
	}
	if n := int(off[3] - off[2]); n != 2 {
		t.Errorf("job 3: %d runs of rows, want 2", n)
	}
	// GPUs: 4 units (a100 and v100); 2 held over [0, 10), 1 over
	// [10, 20): 1/2 then 1/4 of the bins.
	if !nv.GPUFraction || nv.GPUUnits != 4 || len(nv.GPU.Y) != timeBins {
		t.Fatalf("GPU series %v units, fraction %v, %d bins", nv.GPUUnits, nv.GPUFraction, len(nv.GPU.Y))
	}
	for k, y := range nv.GPU.Y {
		want := 0.5
		if k >= timeBins/2 {
			want = 0.25
		}
		if d := y - want; d > 1e-9 || d < -1e-9 {
			t.Fatalf("GPU bin %d: %g, want %g", k, y, want)
		}
	}
}

// A page of a pool of CPUs has none of it: report.js as it is, no node
// section, no node data.
func TestNodeGanttNotOnCPUPool(t *testing.T) {
	dir := tinyRun(t)
	page, err := build(dir, Run, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(page, []byte("gantt-nodes")) || bytes.Contains(page, []byte(`<canvas id="gpu"`)) || !bytes.Contains(page, []byte(reportJS)) {
		t.Fatal("the page of a pool of CPUs has node parts, or not report.js as it is")
	}
	if _, ok := embedded(t, page)["nodes"]; ok {
		t.Fatal("node data on a pool of CPUs")
	}
	if _, err := nodePageJS(); err != nil {
		t.Fatal(err)
	}
}

// With --no-gantt the node Gantt is left out; the GPU chart stays.
func TestNodeGanttNoGantt(t *testing.T) {
	page, err := build(nodeRunDir(t, nodeRows), Run, Options{NoGantt: true})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(page, []byte(`<canvas id="gantt-nodes"`)) || !bytes.Contains(page, []byte(`<canvas id="gpu"`)) {
		t.Fatal("--no-gantt: want the GPU chart without the node Gantt")
	}
}

func TestNodeColumnsErrors(t *testing.T) {
	row := func(nodes, gres string) string {
		return "1,0,8,100,0,20,20,0,20,1,16-23," + nodes + "," + gres + ",COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,0,0,0\n"
	}
	for _, c := range []struct{ rows, want string }{
		{row("n[1-", ""), "row 1 (job 1): column allocated_nodes"},
		{row("x7", ""), "node x7 is not in"},
		{row("n1", "gpu:a100"), "column allocated_gres"},
		{row("n1", "gpu=1-x"), "column allocated_gres"},
	} {
		_, err := build(nodeRunDir(t, c.rows), Run, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.rows, err, c.want)
		}
	}
}
