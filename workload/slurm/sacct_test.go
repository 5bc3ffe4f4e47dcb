package slurm

import (
	"bytes"
	"os"
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
	if len(r.Records) != len(want) {
		t.Fatalf("%d records: %+v", len(r.Records), r.Records)
	}
	for i := range want {
		if r.Records[i] != want[i] {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, r.Records[i], want[i])
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
	if h := rd.Header(); h.MaxProcs != 32 || h.UnixStartTime != 1705312800 || h.TimeZoneString != "UTC" {
		t.Errorf("read back header %+v", h)
	}
	for _, line := range []string{"; User 1: alice", "; QOS 2: high", "; Partition 1: batch"} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("the SWF header lacks %q", line)
		}
	}
	// --steps keeps the steps, whose ids are not integers: renumbered.
	s := read(t, "testdata/quirks.txt", Options{Steps: true})
	if len(s.Records) != 6 || !s.Renumbered || s.Records[0].JobNumber != 1 {
		t.Errorf("with steps: %d records, renumbered %v", len(s.Records), s.Renumbered)
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
