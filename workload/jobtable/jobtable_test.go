package jobtable

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/swf"
)

// example is a table written by hand: a 2-node GPU job, a job of 4
// tasks of 2 CPUs with memory per CPU and a constraint, and an SWF-like
// job with only the required columns filled (tasks from procs).
var example = Magic + `
# MaxProcs: 64
id	submit	wait	runtime	procs	req_procs	req_time	used_mem_kb	req_mem_kb	status	user	group	qos	partition	nodes	max_nodes	tasks	cpus_per_task	mem_per_node_mb	mem_per_cpu_mb	gres_per_node	gres_per_job	constraint	exclusive	name
7	0	10	3600	16	16	7200	-1	262144	1	1	2	1	1	2	0	16	1	4096	0	gpu:a100:2	 	ib&a100	1	lammps
# a comment between rows
8	5.5	0	60	8	-1	-1	-1	-1	0	-1	-1	-1	-1	1	2	4	2	0	1000		gpu:1	(ib|opa)&amd	0	
` + "9\t6\t-1\t1\t3" + strings.Repeat("\t", 20) + `
`

func readAll(t *testing.T, text string) []Row {
	t.Helper()
	r, err := NewReader(strings.NewReader(text), "t.jobs")
	if err != nil {
		t.Fatal(err)
	}
	var rows []Row
	for {
		row, err := r.Next()
		if err == io.EOF {
			return rows
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
}

func rec(id int64, submit, wait, run float64, procs, reqProcs int, reqTime, reqMem float64, status, user, group, qos, part int) swf.Record {
	return swf.Record{JobNumber: id, Submit: submit, Wait: wait, Run: run, AllocProcs: procs, AvgCPU: -1, UsedMem: -1,
		ReqProcs: reqProcs, ReqTime: reqTime, ReqMem: reqMem, Status: status, User: user, Group: group, Exec: -1,
		Queue: qos, Partition: part, PrecedingJob: -1, ThinkTime: -1}
}

func TestReadExample(t *testing.T) {
	// Row 7's gres_per_job is one space: not a GRES list.
	if _, err := readErr(example); err == nil || !strings.Contains(err.Error(), "t.jobs:4: column 22 (gres_per_job)") {
		t.Fatalf("a space as gres_per_job: %v", err)
	}
	rows := readAll(t, strings.Replace(example, "gpu:a100:2\t \t", "gpu:a100:2\t\t", 1))
	want := []Row{
		{Record: rec(7, 0, 10, 3600, 16, 16, 7200, 262144, 1, 1, 2, 1, 1), Name: "lammps",
			Request: nodes.Request{Nodes: 2, Tasks: 16, CPUsPerTask: 1, MemPerNodeMB: 4096,
				GRESPerNode: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 2}}, Constraint: "ib&a100", Exclusive: true}},
		{Record: rec(8, 5.5, 0, 60, 8, -1, -1, -1, 0, -1, -1, -1, -1),
			Request: nodes.Request{Nodes: 1, MaxNodes: 2, Tasks: 4, CPUsPerTask: 2, MemPerCPUMB: 1000,
				GRESPerJob: []nodes.GRES{{Name: "gpu", Count: 1}}, Constraint: "(ib|opa)&amd"}},
		// Empty fields: unknown (-1) or none; tasks 0 is procs' 3 tasks of one CPU.
		{Record: rec(9, 6, -1, 1, 3, -1, -1, -1, -1, -1, -1, -1, -1), Request: nodes.FromProcs(3)},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("rows\n%+v\nwant\n%+v", rows, want)
	}
	if Beyond(rows[0].Request) != true || Beyond(rows[1].Request) != true || Beyond(rows[2].Request) {
		t.Fatal("Beyond: want true (2 nodes, GRES), true (GRES, constraint), false (3 tasks)")
	}
	for _, c := range []struct {
		q    nodes.Request
		want bool
	}{
		{nodes.Request{Nodes: 1, MaxNodes: 4, Tasks: 4, CPUsPerTask: 1, MemPerCPUMB: 100}, false},
		{nodes.Request{Nodes: 1, Tasks: 4, CPUsPerTask: 1, MemPerNodeMB: 100}, false}, // one node: 25 MB a CPU
		{nodes.Request{Tasks: 1, CPUsPerTask: 4, MemPerNodeMB: 100}, false},           // one task: one node
		{nodes.Request{Tasks: 4, CPUsPerTask: 1, MemPerNodeMB: 100}, true},            // any nodes: per node unknown a CPU
		{nodes.Request{Nodes: 1, MaxNodes: 2, Tasks: 4, CPUsPerTask: 1, MemPerNodeMB: 100}, true},
		{nodes.Request{Tasks: 4, CPUsPerTask: 1, Exclusive: true}, true},
	} {
		if got := Beyond(c.q); got != c.want {
			t.Errorf("Beyond(%s) = %v", c.q, got)
		}
	}
}

func readErr(text string) ([]Row, error) {
	r, err := NewReader(strings.NewReader(text), "t.jobs")
	if err != nil {
		return nil, err
	}
	var rows []Row
	for {
		row, err := r.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			if _, again := r.Next(); again != err {
				return nil, errors.New("the error is not sticky")
			}
			return rows, err
		}
		rows = append(rows, row)
	}
}

func TestRoundTripAndGzip(t *testing.T) {
	rows := readAll(t, strings.Replace(example, "gpu:a100:2\t \t", "gpu:a100:2\t\t", 1))
	rows = append(rows, Row{Record: rec(10, 7, 1, 0.25, 1, 1, 1e12, 0.5, 5, 0, 0, 0, 0), Name: "a\tb#c\nd",
		Request: nodes.Request{Tasks: 1, CPUsPerTask: 8, GRESPerNode: []nodes.GRES{{Name: "nvme", Count: 1}, {Name: "gpu", Type: "v100", Count: 4}}}})
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Comment("MaxProcs: 64"); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if w.Comment("late") == nil {
		t.Fatal("a comment after a row was taken")
	}
	rows[3].Name = "a_b_c_d" // what the writer makes of tabs, '#' and line breaks
	for _, in := range []struct {
		name string
		data []byte
	}{{"plain", buf.Bytes()}, {"gzip", gz(buf.Bytes())}} {
		r, err := NewReader(bytes.NewReader(in.data), in.name)
		if err != nil {
			t.Fatal(err)
		}
		if c := r.Comments(); !reflect.DeepEqual(c, []string{"MaxProcs: 64"}) {
			t.Fatalf("%s: comments %q", in.name, c)
		}
		var got []Row
		for {
			row, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, row)
		}
		if !reflect.DeepEqual(got, rows) {
			t.Fatalf("%s: read back\n%+v\nwant\n%+v", in.name, got, rows)
		}
	}
	if line := strings.Split(buf.String(), "\n")[6]; line != "10\t7\t1\t0.25\t1\t1\t1000000000000\t-1\t0.5\t5\t0\t0\t0\t0\t0\t0\t1\t8\t0\t0\tnvme:1,gpu:v100:4\t\t\t0\ta_b_c_d" {
		t.Fatalf("row 10 written as %q", line)
	}
}

func gz(b []byte) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

func TestGzipTruncated(t *testing.T) {
	z := gz([]byte(strings.Replace(example, "gpu:a100:2\t \t", "gpu:a100:2\t\t", 1)))
	_, err := readErr(string(z[:len(z)-10]))
	if err == nil || !strings.Contains(err.Error(), "gzip stream truncated or corrupt") {
		t.Fatalf("truncated gzip: %v", err)
	}
	if _, err := NewReader(bytes.NewReader([]byte{0x1f, 0x8b, 1}), "x.gz"); err == nil || !strings.Contains(err.Error(), "x.gz: not a valid gzip file") {
		t.Fatalf("bad gzip header: %v", err)
	}
}

const head = Magic + "\nid\tsubmit\truntime\tprocs\tnodes\tgres_per_job\tconstraint\texclusive\tmem_per_node_mb\tmem_per_cpu_mb\ttasks\n"

func TestErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "t.jobs: empty: want a job table"},
		{"id\tsubmit\n", "t.jobs:1: not a job table: the first line is \"id\\tsubmit\""},
		{"\n" + Magic + "\n", "t.jobs:2: not a job table"},
		{Magic + "\n", "t.jobs:1: no header line"},
		{Magic + "\nid\tsubmit\truntime\n", "t.jobs:2: the header lacks the column(s) procs"},
		{Magic + "\nid\tid\tsubmit\truntime\tprocs\n", "column 2: name \"id\" empty or given twice"},
		{Magic + "\nid\tsubmit\truntime\tprocs\tx#\n", "t.jobs:2: a '#' inside the line"},
		{Magic + "\n" + strings.Repeat("c\t", MaxColumns) + "c\n", "65 columns: more than 64 (jobtable.MaxColumns)"},
		{head + "1\t0\t1\n", "t.jobs:3: 3 fields, the header has 11"},
		{head + "1\t0\t1\t2\t0\t\t\t0\t0\t0\t0\textra\n", "t.jobs:3: 12 fields, the header has 11"},
		{head + "\t0\t1\t2\t\t\t\t\t\t\t\n", "t.jobs:3: column 1 (id): empty: want the job's number"},
		{head + "1\t-2\t1\t2\t\t\t\t\t\t\t\n", "column 2 (submit): \"-2\": want seconds"},
		{head + "1\t1e3\t1\t2\t\t\t\t\t\t\t\n", "column 2 (submit): \"1e3\""},
		{head + "1\tNaN\t1\t2\t\t\t\t\t\t\t\n", "column 2 (submit)"},
		{head + "1\t2e12\t1\t2\t\t\t\t\t\t\t\n", "column 2 (submit)"},
		{head + "1\t2000000000000\t1\t2\t\t\t\t\t\t\t\n", "column 2 (submit): \"2000000000000\": want at most 1e+12 seconds"},
		{head + "1\t0\t1\t4194305\t\t\t\t\t\t\t\n", "column 4 (procs): \"4194305\": want a whole number from 0 to 4194304 (or -1, unknown)"},
		{head + "1\t0\t1\t2\t3\t\t\t\t\t\t\n", "t.jobs:3: request nodes=3 ntasks=2: nodes 3: more than its 2 tasks"},
		{head + "1\t0\t1\t2\t\tgpu\t\t\t\t\t\n", "column 6 (gres_per_job): \"gpu\": want NAME:COUNT"},
		{head + "1\t0\t1\t2\t\tgpu:0\t\t\t\t\t\n", "column 6 (gres_per_job): \"gpu:0\": count \"0\""},
		{head + "1\t0\t1\t2\t\tgpu:1,gpu:2\t\t\t\t\t\n", "gpu given twice"},
		{head + "1\t0\t1\t2\t\tg$u:1\t\t\t\t\t\n", "byte '$'"},
		{head + "1\t0\t1\t2\t\t\ta|b&c\t\t\t\t\n", "column 7 (constraint): \"a|b&c\""},
		{head + "1\t0\t1\t2\t\t\t\tyes\t\t\t\n", "column 8 (exclusive): \"yes\": want 1 or 0"},
		{head + "1\t0\t1\t2\t\t\t\t\t5\t5\t\n", "memory given both per node (5 MB) and per cpu (5 MB)"},
		{head + "1\t0\t1\t2\t\t\t\t\t01\t\t\n", "column 9 (mem_per_node_mb): \"01\""},
		{head + "1\t0\t1\t2\t-0\t\t\t\t\t\t\n", "column 5 (nodes): \"-0\""},
		{head + "-1\t0\t1\t2\t\t\t\t\t\t\t\n", "column 1 (id): \"-1\": want a whole number from 0"},
		{head + "1\t0\t1\t2\t\t\t\t\t\t\t4194305\n", "column 11 (tasks): \"4194305\": want a whole number from 0 to 4194304"},
		{head + "1\t0\t1\t2\t\t\t#\t\t\t\t\n", "t.jobs:3: a '#' inside the line"},
		{head + strings.Repeat("x", MaxLine+1) + "\n", "t.jobs:3: line longer than 1048576 bytes (jobtable.MaxLine)"},
	} {
		_, err := readErr(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.80q:\n got %v\nwant %s", c.text, err, c.want)
		}
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%.80q: %T, not a *ParseError", c.text, err)
		}
	}
}
