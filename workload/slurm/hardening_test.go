package slurm

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/workload/swf"
)

// Values that parse as floats but are no durations, memory sizes or ids
// (NaN, overflow, ids beyond an SWF integer) are refused at their file,
// line and column, not later by the SWF writer.
func TestNaNAndOverflowNamed(t *testing.T) {
	hdr := "JobIDRaw|Submit|Start|Elapsed|Timelimit|NCPUS|ReqMem|State\n"
	row := func(id, elapsed, limit, mem string) string {
		return hdr + id + "|2024-01-15T10:00:00|2024-01-15T10:00:00|" + elapsed + "|" + limit + "|2|" + mem + "|COMPLETED\n"
	}
	for _, c := range []struct{ in, want string }{
		{row("1", "01:00:00", "NaN", "1G"), `x.txt:2: column Timelimit: "NaN" is not a duration`},
		{row("1", "NaN:00:00", "10", "1G"), `x.txt:2: column Elapsed: "NaN:00:00" is not a duration`},
		{row("1", "Inf:00:00", "10", "1G"), `x.txt:2: column Elapsed: "Inf:00:00" is not a duration`},
		{row("1", "1e307:00:00", "10", "1G"), `x.txt:2: column Elapsed:`},
		{row("1", "01:00:00", "10", "NaNM"), `x.txt:2: column ReqMem: "NaNM" is not a memory size`},
		{row("1", "01:00:00", "10", "1e307T"), `x.txt:2: column ReqMem: "1e307T"`},
		{row("1", "01:00:00", "10", "0x10G"), `x.txt:2: column ReqMem: "0x10G" is not a memory size`},
		{row("9007199254740993", "01:00:00", "10", "1G"), `x.txt:2: column JobIDRaw: 9007199254740993`},
		{row("9223372036854775807", "01:00:00", "10", "1G"), `x.txt:2: column JobIDRaw: 9223372036854775807`},
	} {
		r, err := ReadSacct(strings.NewReader(c.in), "x.txt", Options{})
		if err == nil {
			err = r.WriteSWF(io.Discard, 0, "x.txt")
			t.Errorf("%q: imported (the SWF writer said %v), want %q", c.in, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n err %v\nwant %q", c.in, err, c.want)
		}
	}
	// ReqCPUS beside a valid NCPUS is checked too.
	in := "JobIDRaw|Submit|Start|End|Timelimit|NCPUS|ReqCPUS|State\n1|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|%s|COMPLETED\n"
	for v, want := range map[string]string{"two": `x.txt:2: column ReqCPUS: "two" is not a CPU count`, "99999999999": "x.txt:2: column ReqCPUS: 99999999999 CPUs: more than a machine may have"} {
		if _, err := ReadSacct(strings.NewReader(fmt.Sprintf(in, v)), "x.txt", Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReqCPUS %s: %v", v, err)
		}
	}
	// JSON: the same values, through their fields.
	job := `{"jobs": [{"job_id": 9007199254740993, "state": {"current": "COMPLETED"}, "time": {"submission": 1705312800, "start": 1705312800, "end": 1705312900, "limit": 10}, "required": {"CPUs": 2}}]}`
	if _, err := ReadSacct(strings.NewReader(job), "x.json", Options{}); err == nil || !strings.Contains(err.Error(), "x.json:1: job 9007199254740993: field job_id: 9007199254740993") {
		t.Errorf("JSON id beyond 2^53: %v", err)
	}
}

// A UTF-8 byte-order mark is refused, as the SWF reader refuses it, for
// -P and JSON alike: it would hide the first column (or send JSON to the
// -P reader).
func TestBOM(t *testing.T) {
	p, _ := os.ReadFile("testdata/quirks.txt")
	j, _ := os.ReadFile("testdata/quirks.json")
	for name, in := range map[string][]byte{"x.txt": p, "x.json": j} {
		_, err := ReadSacct(bytes.NewReader(append([]byte("\xef\xbb\xbf"), in...)), name, Options{})
		if err == nil || !strings.Contains(err.Error(), name+":1: the file starts with a UTF-8 byte-order mark") {
			t.Errorf("%s with a BOM: %v", name, err)
		}
	}
}

// A gzip-compressed export is decompressed (told by its magic bytes).
func TestGzip(t *testing.T) {
	for _, path := range []string{"testdata/quirks.txt", "testdata/quirks.json"} {
		plain := read(t, path, Options{})
		in, _ := os.ReadFile(path)
		var gz bytes.Buffer
		w := gzip.NewWriter(&gz)
		w.Write(in)
		w.Close()
		r, err := ReadSacct(bytes.NewReader(gz.Bytes()), path+".gz", Options{})
		if err != nil {
			t.Fatalf("%s.gz: %v", path, err)
		}
		var a, b bytes.Buffer
		plain.WriteSWF(&a, 0, "q")
		r.WriteSWF(&b, 0, "q")
		if a.String() != b.String() {
			t.Errorf("%s.gz imports differently:\n%s\n%s", path, b.String(), a.String())
		}
		_, err = ReadSacct(bytes.NewReader(gz.Bytes()[:gz.Len()-10]), path+".gz", Options{})
		if err == nil || !strings.Contains(err.Error(), path+".gz") {
			t.Errorf("%s.gz truncated: %v", path, err)
		}
	}
}

// Why the jobs were renumbered is told right: repeated ids (sacct
// --duplicates) are not a missing JobIDRaw column.
func TestRenumberedWhy(t *testing.T) {
	hdr := "JobIDRaw|JobID|Submit|Start|End|Timelimit|NCPUS|State\n"
	line := "7|7|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|COMPLETED\n"
	r, err := ReadSacct(strings.NewReader(hdr+line+line), "dup.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Renumbered || !strings.Contains(r.RenumberedWhy, "job id 7 appears more than once") || strings.Contains(r.RenumberedWhy, "JobIDRaw") {
		t.Errorf("duplicates: renumbered %v, why %q", r.Renumbered, r.RenumberedWhy)
	}
	r, err = ReadSacct(strings.NewReader("JobID|Submit|Start|End|Timelimit|NCPUS|State\n7_1|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|COMPLETED\n"), "arr.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Renumbered || !strings.Contains(r.RenumberedWhy, `"7_1"`) || !strings.Contains(r.RenumberedWhy, "no JobIDRaw column") {
		t.Errorf("array without JobIDRaw: why %q", r.RenumberedWhy)
	}
	j := `{"jobs": [{"job_id": 7, "state": {"current": "COMPLETED"}, "time": {"submission": 1705312800, "start": 1705312800, "end": 1705312900, "limit": 10}, "required": {"CPUs": 2}}`
	r, err = ReadSacct(strings.NewReader(j+","+j[10:]+"]}"), "dup.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Renumbered || !strings.Contains(r.RenumberedWhy, "job id 7 appears more than once") || strings.Contains(r.RenumberedWhy, "column") {
		t.Errorf("JSON duplicates: why %q", r.RenumberedWhy)
	}
}

// Local times in the hour repeated when daylight saving time ends
// (Europe/Stockholm, 2024-10-27: 02:00-03:00 twice, CEST then CET; 00:00
// UTC is 02:00 CEST and 01:00 UTC 02:00 CET) are resolved by the order
// Submit <= Start <= End and by Elapsed.
func TestDSTFold(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	hdr := "JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NCPUS|State\n"
	utc := func(s string) int64 { t, _ := time.Parse(time.RFC3339, s); return t.Unix() }
	for _, c := range []struct {
		name, line string
		t0         int64
		wait, run  float64
		ambiguous  int64
	}{
		// Submitted 02:50 CEST, started 02:10 CET (20 min later), ran 30
		// min to 02:40 CET: only CEST then CET keeps the order.
		{"submit CEST start CET", "1|2024-10-27T02:50:00|2024-10-27T02:10:00|2024-10-27T02:40:00|00:30:00|60|2|COMPLETED", utc("2024-10-27T00:50:00Z"), 1200, 1800, 0},
		// Started 02:10 and ended 03:10 CET (unambiguous): Elapsed 2 h
		// says the start was CEST, 1 h that it was CET.
		{"elapsed says CEST", "2|2024-10-27T01:30:00|2024-10-27T02:10:00|2024-10-27T03:10:00|02:00:00|600|2|COMPLETED", utc("2024-10-26T23:30:00Z"), 2400, 7200, 0},
		{"elapsed says CET", "3|2024-10-27T01:30:00|2024-10-27T02:10:00|2024-10-27T03:10:00|01:00:00|600|2|COMPLETED", utc("2024-10-26T23:30:00Z"), 6000, 3600, 0},
		// Submitted 02:50, started 03:05 (unambiguous): either is in
		// order; the shorter wait is taken, and the job counted.
		{"unresolved", "4|2024-10-27T02:50:00|2024-10-27T03:05:00|2024-10-27T03:10:00|00:05:00|600|2|COMPLETED", utc("2024-10-27T01:50:00Z"), 900, 300, 1},
	} {
		r, err := ReadSacct(strings.NewReader(hdr+c.line+"\n"), "dst.txt", Options{Location: loc})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		rec := r.Record(0)
		if r.Header.UnixStartTime != c.t0 || rec.Wait != c.wait || rec.Run != c.run || r.Ambiguous != c.ambiguous {
			t.Errorf("%s: start %d wait %v run %v ambiguous %d; want %d %v %v %d", c.name, r.Header.UnixStartTime, rec.Wait, rec.Run, r.Ambiguous, c.t0, c.wait, c.run, c.ambiguous)
		}
	}
	// Out of order whichever instant is meant: still refused.
	_, err = ReadSacct(strings.NewReader(hdr+"5|2024-10-27T03:30:00|2024-10-27T02:10:00|2024-10-27T03:40:00|00:30:00|60|2|COMPLETED\n"), "dst.txt", Options{Location: loc})
	if err == nil || !strings.Contains(err.Error(), "dst.txt:2: column Start: start 2024-10-27T02:10:00 is before submit 2024-10-27T03:30:00") {
		t.Errorf("out of order: %v", err)
	}
}

// MaxJSONJob is enforced exactly: a job of maxJSONJob bytes is read, one
// of a byte more is refused, however much the decoder reads ahead.
func TestJSONJobLimitExact(t *testing.T) {
	defer func(n int) { maxJSONJob = n }(maxJSONJob)
	maxJSONJob = 4096
	job := func(size int) string {
		j := `{"job_id": 1, "name": "", "state": {"current": "COMPLETED"}, "time": {"submission": 1705312800, "start": 1705312800, "end": 1705312900, "limit": 10}, "required": {"CPUs": 2}}`
		return strings.Replace(j, `"name": ""`, `"name": "`+strings.Repeat("x", size-len(j))+`"`, 1)
	}
	for _, size := range []int{4096, 4097, 5000} {
		in := "{\"jobs\": [\n" + job(size) + "]}"
		_, err := ReadSacct(strings.NewReader(in), "x.json", Options{})
		switch {
		case size <= 4096 && err != nil:
			t.Errorf("a job of %d bytes: %v", size, err)
		case size > 4096 && (err == nil || !strings.Contains(err.Error(), "x.json:2: jobs[0]: more than 4096 bytes of JSON (slurm.MaxJSONJob)")):
			t.Errorf("a job of %d bytes: %v", size, err)
		}
	}
}

// names writes a -P export of n jobs, each of its own user and group
// (distinct names when distinct is true).
func manyJobs(n int, distinct bool) []byte {
	var b bytes.Buffer
	b.WriteString("JobIDRaw|User|Group|Partition|QOS|Submit|Start|End|Timelimit|NCPUS|ReqMem|State\n")
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		u := "u"
		if distinct {
			u = fmt.Sprintf("user%d", i)
		}
		s := t0.Add(time.Duration(i) * time.Second)
		fmt.Fprintf(&b, "%d|%s|%s|batch|normal|%s|%s|%s|60|4|4000M|COMPLETED\n", i+1, u, u,
			s.Format("2006-01-02T15:04:05"), s.Add(5*time.Second).Format("2006-01-02T15:04:05"), s.Add(time.Hour).Format("2006-01-02T15:04:05"))
	}
	return b.Bytes()
}

// 50,001 distinct users and groups: the SWF written is one its reader
// reads (the header within swf.MaxHeaderLines), the names not listed
// noted.
func TestHeaderBounded(t *testing.T) {
	r, err := ReadSacct(bytes.NewReader(manyJobs(50_001, true)), "many.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteSWF(&b, 4, "many.txt"); err != nil {
		t.Fatal(err)
	}
	rd, err := swf.NewReader(bytes.NewReader(b.Bytes()), "many.swf")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		if _, err := rd.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 50_001 {
		t.Errorf("%d records read back", n)
	}
	if !strings.Contains(b.String(), "; Note: users 20001 to 50001 are not named here") || !strings.Contains(b.String(), "; User 20000: user19999\n") {
		t.Errorf("no note on the users not listed")
	}
}

// The jobs of an import are held compactly: well under 200 bytes a job
// once read (the records and sort keys included).
func TestBytesPerJob(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates")
	}
	const n = 200_000
	in := manyJobs(n, false)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := ReadSacct(bytes.NewReader(in), "many.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
	t.Logf("%.0f bytes a job", per)
	if per > 120 {
		t.Errorf("%.0f bytes a job held, want at most 120", per)
	}
	runtime.KeepAlive(r)
	runtime.KeepAlive(in)
}

// Memory a CPU is a whole number of KB, as SWF's field is: 128 GB a
// node over 3 CPUs is 134217728 / 3 = 44739242.67 KB, written 44739243;
// a tiny share is at least 1 KB. Memory per node ("n") is over the CPUs
// of one node: 4Gn for 16 CPUs on 2 nodes is 4,194,304 KB / 8 = 524,288
// KB a CPU (512 MB; not 256 MB, as if the 16 CPUs were on one node);
// 3Gn for 12 CPUs on 3 nodes is 3,145,728 / 4 = 786,432 KB. A plain size
// is the job's total (sacct since Slurm 21.08), over all its CPUs on any
// number of nodes: 4G for 16 CPUs on 2 nodes is 4,194,304 / 16 =
// 262,144 KB, 3G for 12 CPUs on 3 nodes 262,144 KB, and Slurm 22.05's
// 1500M for 15 CPUs of 100 MB on 8 nodes 1,536,000 / 15 = 102,400 KB
// (100 MB). Memory per CPU is the same on any number of nodes.
func TestMemoryWholeKB(t *testing.T) {
	for _, c := range []struct {
		text         string
		cpus, nnodes int
		want         float64
	}{{"128G", 3, 1, 44739243}, {"128Gn", 3, 1, 44739243}, {"4000M", 1, 1, 4096000}, {"500Mc", 8, 1, 512000}, {"1K", 4096, 1, 1},
		{"4Gn", 16, 2, 524288}, {"4G", 16, 2, 262144}, {"500Mc", 16, 2, 512000}, {"3Gn", 12, 3, 786432}, {"3G", 12, 3, 262144}, {"1500M", 15, 8, 102400}} {
		got, err := parseMem(c.text, c.cpus, c.nnodes)
		if err != nil || got != c.want {
			t.Errorf("parseMem(%q, %d, %d) = %v, %v; want %v", c.text, c.cpus, c.nnodes, got, err, c.want)
		}
	}
}

// NNodes is read for memory per node: the 2-node job's 4Gn over its 16
// CPUs is 524,288 KB a CPU; without NNodes (or NNodes 1) the job is on
// one node: 262,144.
func TestMemoryPerNodeMultiNode(t *testing.T) {
	const head = "JobIDRaw|Submit|Start|End|Timelimit|NCPUS|ReqMem|State|NNodes\n"
	in := head + "1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|10|16|4Gn|COMPLETED|2\n" +
		"2|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|10|16|4Gn|COMPLETED|1\n" +
		"3|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|10|16|4Gn|COMPLETED|\n"
	r, err := ReadSacct(strings.NewReader(in), "x.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{524288, 262144, 262144} {
		if got := r.Record(i).ReqMem; got != want {
			t.Errorf("job %d: %v KB a CPU, want %v", i+1, got, want)
		}
	}
	_, err = ReadSacct(strings.NewReader(head+"1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|10|16|4Gn|COMPLETED|two\n"), "x.txt", Options{})
	if err == nil || !strings.Contains(err.Error(), `x.txt:2: column NNodes: "two" is not a node count`) {
		t.Errorf("NNodes two: %v", err)
	}
}

// An export without its header line (sacct --noheader) is told so, not
// that its header lacks columns.
func TestNoHeaderLine(t *testing.T) {
	_, err := ReadSacct(strings.NewReader("1|1|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|00:01:00|00:10:00|1|1|1G|COMPLETED|alice\n"), "x.txt", Options{})
	if err == nil || !strings.Contains(err.Error(), "the first line is a job, not sacct's header line") || !strings.Contains(err.Error(), "--noheader") {
		t.Errorf("error %v", err)
	}
}

// Memory per node over a CPU count it does not divide is written as a
// whole number of KB a CPU (SWF's field 10 is an integer): 128M on one
// node of 3 CPUs is 131072/3 = 43690.67 KB, written 43691, and no field
// of the written trace holds a fraction.
func TestMemoryWrittenAsInteger(t *testing.T) {
	const head = "JobIDRaw|Submit|Start|End|Timelimit|NCPUS|ReqMem|State\n"
	in := head + "1|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:00|10|3|128M|COMPLETED\n" +
		"2|2024-01-01T00:00:01|2024-01-01T00:00:10|2024-01-01T00:01:00|10|7|1Gn|COMPLETED\n"
	r, err := ReadSacct(strings.NewReader(in), "x.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := r.WriteSWF(&b, 8, "x.txt"); err != nil {
		t.Fatal(err)
	}
	var mems []string
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if strings.HasPrefix(line, ";") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 18 {
			t.Fatalf("line %q: %d fields", line, len(f))
		}
		for i, v := range f {
			if strings.ContainsAny(v, ".eE") {
				t.Errorf("line %q: field %d is %s, not an integer", line, i+1, v)
			}
		}
		mems = append(mems, f[9])
	}
	// 1G on 7 CPUs: 1048576/7 = 149796.57 -> 149797.
	if strings.Join(mems, " ") != "43691 149797" {
		t.Errorf("field 10: %q, want 43691 149797", mems)
	}
}
