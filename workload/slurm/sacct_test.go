package slurm

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/workload/swf"
)

func read(t *testing.T, path string, o Options) *Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ReadSacct(f, path, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// testdata/quirks.txt holds one line of each kind real exports hold; the
// records below are worked out by hand from it. The first submission,
// 2024-01-15T10:00:00 UTC, is 1705312800.
//   - 100: 4 CPUs, 1 h, limit 2 h, ReqMem 4000M per node over 4 CPUs
//     = 1,024,000 KB per CPU; its steps .batch and .extern are left out.
//   - 101 (an array task, id from JobIDRaw): FAILED is status 0; a limit
//     of 1-00:00:00 is 86,400 s; 500Mc is 512,000 KB per CPU; QOS high.
//   - 102: a JobName with two '|' (the line has two fields too many);
//     cancelled before it started: left out.
//   - 103: TIMEOUT, ran 30:07 against a limit of 30:00 (MM:SS): status 1,
//     run time capped at 1800; 2Gn per node on 1 CPU.
//   - 104 (a heterogeneous job): UNLIMITED is an unknown request (-1),
//     ReqMem 0 unknown.
//   - 105 (PENDING, Partition_Limit) and 106 (RUNNING) are not finished.
func TestQuirks(t *testing.T) {
	r := read(t, "testdata/quirks.txt", Options{})
	want := []swf.Record{
		{JobNumber: 100, Submit: 0, Wait: 5, Run: 3600, AllocProcs: 4, AvgCPU: -1, UsedMem: -1, ReqProcs: 4, ReqTime: 7200, ReqMem: 1024000, Status: 1, User: 1, Group: 1, Exec: -1, Queue: 1, Partition: 1, PrecedingJob: -1, ThinkTime: -1},
		{JobNumber: 101, Submit: 60, Wait: 240, Run: 1800, AllocProcs: 8, AvgCPU: -1, UsedMem: -1, ReqProcs: 8, ReqTime: 86400, ReqMem: 512000, Status: 0, User: 2, Group: 2, Exec: -1, Queue: 2, Partition: 1, PrecedingJob: -1, ThinkTime: -1},
		{JobNumber: 103, Submit: 180, Wait: 420, Run: 1800, AllocProcs: 1, AvgCPU: -1, UsedMem: -1, ReqProcs: 1, ReqTime: 1800, ReqMem: 2097152, Status: 1, User: 1, Group: 1, Exec: -1, Queue: 1, Partition: 1, PrecedingJob: -1, ThinkTime: -1},
		{JobNumber: 104, Submit: 240, Wait: 0, Run: 30, AllocProcs: 16, AvgCPU: -1, UsedMem: -1, ReqProcs: 16, ReqTime: -1, ReqMem: -1, Status: 1, User: 2, Group: 2, Exec: -1, Queue: 1, Partition: 1, PrecedingJob: -1, ThinkTime: -1},
	}
	if len(r.Records()) != len(want) {
		t.Fatalf("%d records: %+v", len(r.Records()), r.Records())
	}
	for i := range want {
		if r.Records()[i] != want[i] {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, r.Records()[i], want[i])
		}
	}
	if r.Header.UnixStartTime != 1705312800 || r.Renumbered {
		t.Errorf("header %+v, renumbered %v", r.Header, r.Renumbered)
	}
	if got := r.SkippedText(); got != "left out: 2 job steps (.batch, .extern, .N; --steps keeps them), 1 never started (cancelled while waiting), 1 not finished (pending), 1 not finished (running)" {
		t.Errorf("skipped: %s", got)
	}
	if strings.Join(r.Users, ",") != "alice,bob" || strings.Join(r.QOS, ",") != "normal,high" || strings.Join(r.Partitions, ",") != "batch" {
		t.Errorf("names: users %v groups %v partitions %v qos %v", r.Users, r.Groups, r.Partitions, r.QOS)
	}
	// Written as SWF and read back: the same records, the names in the
	// header, MaxProcs given.
	var b bytes.Buffer
	if err := r.WriteSWF(&b, 32, "quirks.txt"); err != nil {
		t.Fatal(err)
	}
	rd, err := swf.NewReader(bytes.NewReader(b.Bytes()), "x.swf")
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		rec, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		if rec != want[i] {
			t.Errorf("read back %d: %+v", i, rec)
		}
	}
	h := rd.Header()
	if h.MaxProcs != 32 || h.UnixStartTime != 1705312800 || h.TimeZoneString != "UTC" {
		t.Errorf("read back header %+v", h)
	}
	if !reflect.DeepEqual(h.QueueNames, []swf.NamedNumber{{Number: 1, Name: "normal"}, {Number: 2, Name: "high"}}) || h.MaxQueues != 2 ||
		!reflect.DeepEqual(h.PartitionNames, []swf.NamedNumber{{Number: 1, Name: "batch"}}) || h.MaxPartitions != 1 {
		t.Errorf("read back queues %v (%d), partitions %v (%d)", h.QueueNames, h.MaxQueues, h.PartitionNames, h.MaxPartitions)
	}
	for _, line := range []string{"; User 1: alice", "; Group 2: chem", "; Queue: 2 high", "; Partition: 1 batch"} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("the SWF header lacks %q", line)
		}
	}
	// The array task 101_1 and the heterogeneous component 104+0 (their
	// JobIDRaw 101 and 104) are named by their Slurm ids, for explain
	// --job 101_1; the others' JobID is their JobIDRaw: no line.
	if got := fmt.Sprint(h.IDNames("JobID")); got != "map[101:101_1 104:104+0]" {
		t.Errorf("JobID lines %s", got)
	}
	// --steps keeps the steps, whose ids are not integers: renumbered.
	s := read(t, "testdata/quirks.txt", Options{Steps: true})
	if len(s.Records()) != 6 || !s.Renumbered || s.Records()[0].JobNumber != 1 {
		t.Errorf("with steps: %d records, renumbered %v", len(s.Records()), s.Renumbered)
	}
}

func TestDurations(t *testing.T) {
	for _, c := range []struct {
		s     string
		limit bool
		want  float64
	}{
		{"01:00:00", false, 3600}, {"1:02:03", false, 3723}, {"05:30", false, 330}, {"1-00:00:00", false, 86400},
		{"2-12", false, 2*86400 + 12*3600}, {"2-12:30", false, 2*86400 + 12*3600 + 1800}, {"30", true, 1800},
	} {
		got, err := parseDuration(c.s, c.limit)
		if err != nil || got != c.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", c.s, got, err, c.want)
		}
	}
	for _, s := range []string{"30", "x", "1:2:3:4", "-1", "1-x"} {
		if _, err := parseDuration(s, false); err == nil {
			t.Errorf("parseDuration(%q) accepted", s)
		}
	}
}

// Errors name the file, the line and the column.
func TestErrors(t *testing.T) {
	hdr := "JobIDRaw|Submit|Start|End|Timelimit|NCPUS|State\n"
	for _, c := range []struct{ in, want string }{
		{"", "x.txt: empty"},
		{"JobID|Submit\n", "x.txt:1: the header line lacks the column(s) Start, End or Elapsed, Timelimit, NCPUS or AllocCPUS or ReqCPUS, State"},
		{hdr + "1|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|WEIRD\n", `x.txt:2: column State: unknown state "WEIRD"`},
		{hdr + "1|yesterday|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|COMPLETED\n", `x.txt:2: column Submit: "yesterday" is not a time`},
		{hdr + "1|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|two|COMPLETED\n", `x.txt:2: column NCPUS: "two" is not a CPU count`},
		{hdr + "1|2024-01-15T10:00:00|2024-01-15T09:00:00|2024-01-15T10:01:00|10|2|COMPLETED\n", "x.txt:2: column Start: start 2024-01-15T09:00:00 is before submit"},
		{hdr + "1|2024-01-15T10:00:00|2024-01-15T10:00:00\n", "x.txt:2: 3 fields, the header has 7"},
		{hdr + "1|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|COMPLETED|x\n", "no JobName column"},
		{hdr + "1|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|99999999999-00:00:00|2|COMPLETED\n", "x.txt:2: column Timelimit: 8639999999913600 seconds is more than an SWF time holds"},
		{hdr + "1|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|99999999999|COMPLETED\n", "x.txt:2: column NCPUS: 99999999999 CPUs: more than a machine may have (4194304, platform.MaxCPUs)"},
		{hdr + "1|2024-01-15T10:00:00|Unknown|Unknown|10|2|CANCELLED\n", "x.txt: no finished job to import (left out: 1 never started (cancelled while waiting))"},
	} {
		_, err := ReadSacct(strings.NewReader(c.in), "x.txt", Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.in, err, c.want)
		}
	}
}

// testdata/quirks.json is testdata/quirks.txt as `sacct --json`
// (data_parser v0.0.41) prints it: the same jobs, times as epoch seconds
// (1705312800 is 2024-01-15T10:00:00 UTC), limits in minutes as
// {set, infinite, number} (104 infinite, 105 unset: the partition's),
// states as lists, the array and heterogeneous ids in their own fields,
// the CPUs in tres/allocated, memory per CPU (101) or per node, the
// steps .batch and .extern nested in job 100. It imports to the same
// SWF, byte for byte, with the same summary.
func TestJSONQuirks(t *testing.T) {
	p := read(t, "testdata/quirks.txt", Options{})
	j := read(t, "testdata/quirks.json", Options{})
	var bp, bj bytes.Buffer
	if err := p.WriteSWF(&bp, 32, "quirks"); err != nil {
		t.Fatal(err)
	}
	if err := j.WriteSWF(&bj, 32, "quirks"); err != nil {
		t.Fatal(err)
	}
	if bp.String() != bj.String() {
		t.Errorf("SWF from JSON:\n%s\nfrom -P:\n%s", bj.String(), bp.String())
	}
	if p.SkippedText() != j.SkippedText() {
		t.Errorf("skipped: JSON %q, -P %q", j.SkippedText(), p.SkippedText())
	}
	if _, err := ReadSacct(strings.NewReader("{\"jobs\": []}"), "x.json", Options{Steps: true}); err == nil || !strings.Contains(err.Error(), "--steps reads them only from sacct --parsable2") {
		t.Errorf("--steps with JSON: %v", err)
	}
}

// data_parser v0.0.39 printed plain numbers (4294967295 infinite,
// 4294967294 unset) and the state as a string. Job 7: 2 CPUs (no
// tres/allocated: required/CPUs), submitted at 1705312800, started 10 s
// later, ran 100 s, limit 5 minutes (300 s), 1000 MB per CPU (1,024,000
// KB); job 8: infinite limit (-1), CANCELLED after it started (status 5).
func TestJSONv39(t *testing.T) {
	in := ` {"meta": {}, "errors": [], "jobs": [
 {"job_id": 7, "user": "u", "group": "g", "partition": "p", "qos": "q", "state": {"current": "COMPLETED"},
  "time": {"submission": 1705312800, "start": 1705312810, "end": 1705312910, "elapsed": 100, "limit": 5},
  "required": {"CPUs": 2, "memory_per_cpu": 1000, "memory_per_node": 4294967294}},
 {"job_id": 8, "user": "v", "group": "g", "partition": "p", "qos": "q", "state": {"current": "CANCELLED"},
  "time": {"submission": 1705312900, "start": 1705312900, "end": 1705312960, "elapsed": 60, "limit": 4294967295},
  "required": {"CPUs": 1, "memory_per_cpu": 4294967294, "memory_per_node": 0}}]}`
	r, err := ReadSacct(strings.NewReader(in), "v39.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []swf.Record{
		{JobNumber: 7, Submit: 0, Wait: 10, Run: 100, AllocProcs: 2, AvgCPU: -1, UsedMem: -1, ReqProcs: 2, ReqTime: 300, ReqMem: 1024000, Status: 1, User: 1, Group: 1, Exec: -1, Queue: 1, Partition: 1, PrecedingJob: -1, ThinkTime: -1},
		{JobNumber: 8, Submit: 100, Wait: 0, Run: 60, AllocProcs: 1, AvgCPU: -1, UsedMem: -1, ReqProcs: 1, ReqTime: -1, ReqMem: -1, Status: 5, User: 2, Group: 1, Exec: -1, Queue: 1, Partition: 1, PrecedingJob: -1, ThinkTime: -1},
	}
	if len(r.Records()) != 2 || r.Records()[0] != want[0] || r.Records()[1] != want[1] {
		t.Errorf("records\n got %+v\nwant %+v", r.Records(), want)
	}
}

// JSON errors name the file, the line of the job and the field.
func TestJSONErrors(t *testing.T) {
	job := func(s string) string {
		return "{\"jobs\": [\n{\"job_id\": 1, \"state\": {\"current\": [\"COMPLETED\"]}, \"time\": {\"submission\": 1705312800, \"start\": 1705312800, \"end\": 1705312900, \"limit\": 10}, \"required\": {\"CPUs\": 2}" + s + "}]}"
	}
	for _, c := range []struct{ in, want string }{
		{"{\"meta\": {}}", `x.json: a JSON object without "jobs"`},
		{"{\"jobs\": 3}", `x.json:1: "jobs" is not an array`},
		{"{\"jobs\": [\n{\"job_id\": 1,}]}", `x.json:2: not valid JSON`},
		{"{\"jobs\": [\n{\"job_id\": 1", `x.json:2: not valid JSON: the file ends early`},
		{job(", \"user\": 5"), `x.json:2: jobs[0]: field user: want string, have a JSON number`},
		{job(", \"state\": {\"current\": [\"WEIRD\"]}"), `x.json:2: job 1: field state/current: unknown state "WEIRD"`},
		{job(", \"tres\": {\"allocated\": [{\"type\": \"cpu\", \"count\": -3}]}"), `x.json:2: jobs[0] (job_id 1): field tres/allocated (cpu): -3 is not a whole number`},
		{job(", \"time\": {\"submission\": 1705312800, \"start\": 1705312700, \"end\": 1705312900}"), `x.json:2: job 1: field time/start: start 2024-01-15T09:58:20 is before submit 2024-01-15T10:00:00`},
		{"{\"jobs\": [{\"job_id\": 1, \"state\": {\"current\": [\"PENDING\"]}}]}", `x.json: no finished job to import (left out: 1 not finished (pending))`},
	} {
		_, err := ReadSacct(strings.NewReader(c.in), "x.json", Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n err %v\nwant %q", c.in, err, c.want)
		}
	}
}

// Slurm 22.05 (openapi/dbv0.0.38, as its sacct --json prints it): one
// required/memory in MB, per node, or per CPU with bit 63 set
// (9223372036854776808 is 2^63 + 1000). Job 1: 2 CPUs, 2000 MB per node
// = 1,024,000 KB per CPU; job 2: 1000 MB per CPU = 1,024,000 KB; job 3:
// memory 0, unknown.
func TestJSONv38Memory(t *testing.T) {
	job := func(id, mem string) string {
		return `{"job_id": ` + id + `, "state": {"current": "COMPLETED"}, "time": {"submission": 1705312800, "start": 1705312800, "end": 1705312860, "limit": 2},
 "required": {"CPUs": 2, "memory": ` + mem + `}, "tres": {"allocated": [{"type": "cpu", "name": null, "id": 1, "count": 2}]}}`
	}
	in := `{"meta": {"plugin": {"type": "openapi/dbv0.0.38"}}, "jobs": [` + job("1", "2000") + "," + job("2", "9223372036854776808") + "," + job("3", "0") + "]}"
	r, err := ReadSacct(strings.NewReader(in), "v38.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{1024000, 1024000, -1} {
		if got := r.Records()[i].ReqMem; got != want {
			t.Errorf("job %d: ReqMem %v, want %v", i+1, got, want)
		}
	}
}
