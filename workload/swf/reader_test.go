package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	kgzip "github.com/klauspost/compress/gzip"
)

// rec builds a Record from its 18 SWF fields, in file order.
func rec(f ...float64) Record {
	if len(f) != NumFields {
		panic(fmt.Sprintf("rec: %d fields", len(f)))
	}
	v := fieldValues(f)
	return v.record()
}

// lines joins trace lines with newlines (and a final newline).
func lines(l ...string) string { return strings.Join(l, "\n") + "\n" }

// readAll reads every record of input; err is nil at a clean end.
func readAll(name, input string) (Header, []Record, error) {
	r, err := NewReader(strings.NewReader(input), name)
	if err != nil {
		return Header{}, nil, err
	}
	defer r.Close()
	var recs []Record
	for {
		rc, err := r.Next()
		if err == io.EOF {
			return r.Header(), recs, nil
		}
		if err != nil {
			return r.Header(), recs, err
		}
		recs = append(recs, rc)
	}
}

func gzipBytes(t testing.TB, text string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const (
	kthLine   = "   15   599850 192180   3477    4     -1    -1    4  53940    -1  1  12  12  -1 -1 -1 -1 -1"
	kthLine2  = "   16   600022  11940   2488   25     -1    -1   25   3600    -1  1  13  13  -1 -1 -1 -1 -1"
	hpc2nLine = "   12   342343      5    553   40 552.21    -1   40  43200    -1  1   4   1  -1 -1  1 -1 -1"
)

var (
	kthRec   = rec(15, 599850, 192180, 3477, 4, -1, -1, 4, 53940, -1, 1, 12, 12, -1, -1, -1, -1, -1)
	kthRec2  = rec(16, 600022, 11940, 2488, 25, -1, -1, 25, 3600, -1, 1, 13, 13, -1, -1, -1, -1, -1)
	hpc2nRec = rec(12, 342343, 5, 553, 40, 552.21, -1, 40, 43200, -1, 1, 4, 1, -1, -1, 1, -1, -1)
)

func TestReaderParsesRecordsExactly(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []Record
	}{
		{"a KTH line, all 18 fields", lines(kthLine), []Record{kthRec}},
		{"fractional average CPU time (HPC2N)", lines(hpc2nLine), []Record{hpc2nRec}},
		{"every field unknown", lines("-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1"),
			[]Record{rec(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)}},
		{"tabs and runs of blanks separate fields",
			"1\t0\t \t5 10 2 -1 -1 2 60 -1 1 3 4 -1 -1 -1 -1 -1\n",
			[]Record{rec(1, 0, 5, 10, 2, -1, -1, 2, 60, -1, 1, 3, 4, -1, -1, -1, -1, -1)}},
		{"CRLF line endings", "1 0 5 10 2 -1 -1 2 60 -1 1 3 4 -1 -1 -1 -1 -1\r\n2 1 5 10 2 -1 -1 2 60 -1 1 3 4 -1 -1 -1 -1 -1\r\n",
			[]Record{rec(1, 0, 5, 10, 2, -1, -1, 2, 60, -1, 1, 3, 4, -1, -1, -1, -1, -1),
				rec(2, 1, 5, 10, 2, -1, -1, 2, 60, -1, 1, 3, 4, -1, -1, -1, -1, -1)}},
		{"last line without newline", kthLine + "\n" + kthLine2, []Record{kthRec, kthRec2}},
		{"blank lines and later comments are skipped",
			lines("", kthLine, "   ", "; a comment between jobs", "\t", kthLine2, ""),
			[]Record{kthRec, kthRec2}},
		{"decimal forms: fraction, exponent, leading plus, trailing dot, -1.0",
			lines("1e0 0.5 2.5E1 +3 4. 0.125 1.5e-3 2 60 -1.0 1 3 4 -1 -1 -1 -1 0.25"),
			[]Record{rec(1, 0.5, 25, 3, 4, 0.125, 0.0015, 2, 60, -1, 1, 3, 4, -1, -1, -1, -1, 0.25)}},
		{"integral value written as a float in an integer field",
			lines("7.0 0 0 1 4.000 -1 -1 4 60 -1 1 3 4 -1 -1 -1 -1 -1"),
			[]Record{rec(7, 0, 0, 1, 4, -1, -1, 4, 60, -1, 1, 3, 4, -1, -1, -1, -1, -1)}},
		{"long mantissa takes the slow path and stays exact",
			lines("1 0.1234567890123456789 0 1 4 -1 -1 4 60 -1 1 3 4 -1 -1 -1 -1 -1"),
			[]Record{rec(1, 0.1234567890123456789, 0, 1, 4, -1, -1, 4, 60, -1, 1, 3, 4, -1, -1, -1, -1, -1)}},
		{"empty input", "", nil},
		{"header only", lines("; Version: 2.2"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, err := readAll("t.swf", tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestReaderFieldOrder(t *testing.T) {
	// Field n holds the value n, so any mix-up shows.
	got, _, err := parseLine([]byte("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18"))
	if err != nil {
		t.Fatal(err)
	}
	want := Record{JobNumber: 1, Submit: 2, Wait: 3, Run: 4, AllocProcs: 5, AvgCPU: 6, UsedMem: 7,
		ReqProcs: 8, ReqTime: 9, ReqMem: 10, Status: 11, User: 12, Group: 13, Exec: 14, Queue: 15,
		Partition: 16, PrecedingJob: 17, ThinkTime: 18}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

const kthHeader = `; Version: 2.2
; Computer: IBM SP2
; Installation: Swedish Royal Institute of Technology (KTH)
; Acknowledge: Lars Malinowsky
; Information: http://www.pdc.kth.se/
;              http://www.cs.huji.ac.il/labs/parallel/workload/
; MaxJobs: 28490
; MaxRecords: 28476
; Preemption: No
; UnixStartTime: 843480031
; TimeZone: 3600
; TimeZoneString: Europe/Stockholm
; StartTime: Mon Sep 23 14:00:31 CEST 1996
; EndTime:   Fri Aug 29 10:55:01 CEST 1997
; MaxNodes: 100
; MaxProcs: 100
; Partition:  1  DEFAULT    
;
`

func TestReaderHeader(t *testing.T) {
	input := kthHeader + "\n" + lines(kthLine, "; Note: after the first job, not header", kthLine2)
	r, err := NewReader(strings.NewReader(input), "kth.swf")
	if err != nil {
		t.Fatal(err)
	}
	// The header is available before the first Next.
	h := r.Header()
	want := Header{
		Version: "2.2", Computer: "IBM SP2",
		Installation: "Swedish Royal Institute of Technology (KTH)", Acknowledge: "Lars Malinowsky",
		Information: []string{"http://www.pdc.kth.se/"}, // the continuation line is in Lines only
		MaxJobs:     28490, MaxRecords: 28476, MaxNodes: 100, MaxProcs: 100,
		UnixStartTime: 843480031, TimeZone: 3600, TimeZoneString: "Europe/Stockholm",
		PartitionNames: []NamedNumber{{1, "DEFAULT"}},
		StartTime:      "Mon Sep 23 14:00:31 CEST 1996", EndTime: "Fri Aug 29 10:55:01 CEST 1997",
		Preemption: "No",
	}
	wantLines := strings.Split(strings.TrimSuffix(kthHeader, "\n"), "\n")
	for i := range wantLines {
		wantLines[i] = strings.TrimPrefix(wantLines[i], ";")
	}
	want.Lines = wantLines
	if !reflect.DeepEqual(h, want) {
		t.Errorf("header\n got  %#v\n want %#v", h, want)
	}
	if l := h.Lines[len(h.Lines)-2]; l != " Partition:  1  DEFAULT    " {
		t.Errorf("raw line not kept verbatim: %q", l)
	}
	var recs []Record
	for {
		rc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rc)
	}
	if !reflect.DeepEqual(recs, []Record{kthRec, kthRec2}) {
		t.Errorf("records %+v", recs)
	}
	if len(r.Header().Lines) != len(wantLines) {
		t.Errorf("a comment after the first job joined the header: %q", r.Header().Lines)
	}
}

func TestHeaderKeys(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  Header
	}{
		{"keys are matched without regard to case, blanks around them ignored",
			lines(";maxprocs:64", ";   COMPUTER :  Big One  "),
			Header{MaxProcs: 64, Computer: "Big One", Lines: []string{"maxprocs:64", "   COMPUTER :  Big One  "}}},
		{"unknown keys and free text are kept in Lines only",
			lines("; Owner: me", "; just words", "; Queue 1: batch"),
			Header{Lines: []string{" Owner: me", " just words", " Queue 1: batch"}}},
		{"queues and partitions: counts, descriptions, one NamedNumber per line in order",
			lines("; MaxQueues: 3", "; Queues: by size", "; Queue: 2  big  one ", "; Queue:  0", "; Queue: -1 none",
				"; MaxPartitions: 1", "; Partitions: one", "; Partition: 1 batch"),
			Header{MaxQueues: 3, Queues: "by size", QueueNames: []NamedNumber{{2, "big  one"}, {0, ""}, {-1, "none"}},
				MaxPartitions: 1, Partitions: "one", PartitionNames: []NamedNumber{{1, "batch"}},
				Lines: []string{" MaxQueues: 3", " Queues: by size", " Queue: 2  big  one ", " Queue:  0", " Queue: -1 none",
					" MaxPartitions: 1", " Partitions: one", " Partition: 1 batch"}}},
		{"limits and flags: MaxRuntime (s), MaxMemory (KB), AllowOveruse, TimeZone (may be negative)",
			lines("; MaxRuntime: 86400", "; MaxMemory: 1048576", "; AllowOveruse: yes", "; TimeZone: -28800", "; Information: a", "; Information: b"),
			Header{MaxRuntime: 86400, MaxMemory: 1048576, AllowOveruse: Yes, TimeZone: -28800, Information: []string{"a", "b"},
				Lines: []string{" MaxRuntime: 86400", " MaxMemory: 1048576", " AllowOveruse: yes", " TimeZone: -28800", " Information: a", " Information: b"}}},
		{"AllowOveruse False is No",
			lines("; AllowOveruse: False"),
			Header{AllowOveruse: No, Lines: []string{" AllowOveruse: False"}}},
		{"the last of a repeated key wins",
			lines("; MaxProcs: 10", "; MaxProcs: 20"),
			Header{MaxProcs: 20, Lines: []string{" MaxProcs: 10", " MaxProcs: 20"}}},
		{"-1 is an unknown count; UnixStartTime may be negative",
			lines("; MaxProcs: -1", "; UnixStartTime: -3600"),
			Header{MaxProcs: -1, UnixStartTime: -3600, Lines: []string{" MaxProcs: -1", " UnixStartTime: -3600"}}},
		{"blank lines inside the header, and indented comments",
			lines("; Version: 2.2", "", "  ; MaxNodes: 8"),
			Header{Version: "2.2", MaxNodes: 8, Lines: []string{" Version: 2.2", " MaxNodes: 8"}}},
		{"no header", lines(kthLine), Header{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _, err := readAll("h.swf", tt.input)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(h, tt.want) {
				t.Errorf("got  %#v\nwant %#v", h, tt.want)
			}
		})
	}
}

func TestReaderLineNumbers(t *testing.T) {
	input := lines("; Version: 2.2", ";", kthLine, "", "; comment", kthLine2)
	r, err := NewReader(strings.NewReader(input), "n.swf")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []int{3, 6} {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		if r.Line() != want {
			t.Errorf("Line() = %d, want %d", r.Line(), want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("at end: %v, want io.EOF", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after end: %v, want io.EOF again", err)
	}
}

// good is a valid job line with the given submit time.
func good(id int, submit float64) string {
	return fmt.Sprintf("%d %v 0 10 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1", id, submit)
}

// withField returns a valid job line whose field n (1-based) is text.
func withField(n int, text string) string {
	f := strings.Fields(good(1, 0))
	f[n-1] = text
	return strings.Join(f, " ")
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		sentinel error
		line     int
		field    int
		msg      string // the whole Error() text
	}{
		{"17 fields", lines(good(1, 0), "2 5 0 10 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1"),
			ErrFieldCount, 2, 0, "t.swf:2: wrong number of fields: got 17, want 18"},
		{"19 fields", lines(good(1, 0) + " 7"),
			ErrFieldCount, 1, 0, "t.swf:1: wrong number of fields: got 19, want 18"},
		{"field count is checked before values", lines("x y z"),
			ErrFieldCount, 1, 0, "t.swf:1: wrong number of fields: got 3, want 18"},
		{"not a number", lines("; h", good(1, 0), withField(4, "abc")),
			ErrSyntax, 3, 4, `t.swf:3: field 4 (run time): invalid number "abc"`},
		{"NaN is not a number", lines(withField(2, "NaN")),
			ErrSyntax, 1, 2, `t.swf:1: field 2 (submit time): invalid number "NaN"`},
		{"Inf is not a number", lines(withField(3, "+Inf")),
			ErrSyntax, 1, 3, `t.swf:1: field 3 (wait time): invalid number "+Inf"`},
		{"hexadecimal is not decimal", lines(withField(9, "0x10")),
			ErrSyntax, 1, 9, `t.swf:1: field 9 (requested time): invalid number "0x10"`},
		{"underscores", lines(withField(6, "1_000")),
			ErrSyntax, 1, 6, `t.swf:1: field 6 (average CPU time): invalid number "1_000"`},
		{"dangling exponent", lines(withField(7, "1e")),
			ErrSyntax, 1, 7, `t.swf:1: field 7 (used memory): invalid number "1e"`},
		{"lone minus", lines(withField(18, "-")),
			ErrSyntax, 1, 18, `t.swf:1: field 18 (think time): invalid number "-"`},
		{"overflowing float", lines(withField(10, "1e999")),
			ErrSyntax, 1, 10, `t.swf:1: field 10 (requested memory): invalid number "1e999"`},
		{"negative size", lines(withField(5, "-5")),
			ErrNegative, 1, 5, "t.swf:1: field 5 (allocated processors): negative value -5 (only -1 means unknown)"},
		{"negative fraction in a float field", lines(withField(3, "-0.5")),
			ErrNegative, 1, 3, "t.swf:1: field 3 (wait time): negative value -0.5 (only -1 means unknown)"},
		{"-2 is not unknown", lines(withField(12, "-2")),
			ErrNegative, 1, 12, "t.swf:1: field 12 (user ID): negative value -2 (only -1 means unknown)"},
		{"fraction in an integer field", lines(withField(8, "2.5")),
			ErrNotInteger, 1, 8, `t.swf:1: field 8 (requested processors): not an integer: "2.5"`},
		{"fraction in the status", lines(withField(11, "1.5")),
			ErrNotInteger, 1, 11, `t.swf:1: field 11 (status): not an integer: "1.5"`},
		{"integer beyond 2^53", lines(withField(1, "1e300")),
			ErrNotInteger, 1, 1, `t.swf:1: field 1 (job number): not an integer: "1e300" is out of range`},
		{"unsorted submit times", lines(good(1, 100), good(2, 50)),
			ErrUnsorted, 2, 2, "t.swf:2: field 2 (submit time): submit time lower than the previous job's: 50 after 100"},
		{"unknown submit times do not reset the order", lines(good(1, 100), good(2, -1), good(3, 99)),
			ErrUnsorted, 3, 2, "t.swf:3: field 2 (submit time): submit time lower than the previous job's: 99 after 100"},
		{"the first bad field is reported", lines("1 x 0 10 -4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1"),
			ErrSyntax, 1, 2, `t.swf:1: field 2 (submit time): invalid number "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readAll("t.swf", tt.input)
			checkParseError(t, err, tt.sentinel, tt.line, tt.field, tt.msg)
		})
	}
}

func checkParseError(t *testing.T, err error, sentinel error, line, field int, msg string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("errors.Is(%v, %v) = false", err, sentinel)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%T is not a *ParseError: %v", err, err)
	}
	if pe.Line != line || pe.Field != field {
		t.Errorf("line %d field %d, want line %d field %d", pe.Line, pe.Field, line, field)
	}
	if field > 0 && pe.Name != FieldName(field) {
		t.Errorf("name %q, want %q", pe.Name, FieldName(field))
	}
	if msg != "" && err.Error() != msg {
		t.Errorf("message\n got  %s\n want %s", err, msg)
	}
}

func TestHeaderErrors(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		sentinel error
		line     int
		msg      string
	}{
		{"malformed MaxProcs", lines("; Version: 2.2", "; MaxProcs: 100 (hybrid excluded)", kthLine),
			ErrSyntax, 2, `h.swf:2: header MaxProcs: invalid number "100 (hybrid excluded)"`},
		{"empty MaxNodes", lines("; MaxNodes:"),
			ErrSyntax, 1, `h.swf:1: header MaxNodes: invalid number ""`},
		{"fractional MaxJobs", lines("; MaxJobs: 1.5"),
			ErrSyntax, 1, `h.swf:1: header MaxJobs: invalid number "1.5"`},
		{"overflowing UnixStartTime", lines("; UnixStartTime: 99999999999999999999"),
			ErrSyntax, 1, `h.swf:1: header UnixStartTime: invalid number "99999999999999999999" (out of range)`},
		{"negative MaxRecords", lines("; MaxRecords: -7"),
			ErrNegative, 1, `h.swf:1: header MaxRecords: negative value -7 (only -1 means unknown)`},
		{"negative MaxRuntime", lines("; MaxRuntime: -60"),
			ErrNegative, 1, `h.swf:1: header MaxRuntime: negative value -60 (only -1 means unknown)`},
		{"MaxMemory with a unit", lines("; MaxMemory: 4GB"),
			ErrSyntax, 1, `h.swf:1: header MaxMemory: invalid number "4GB"`},
		{"AllowOveruse neither yes nor no", lines("; Version: 2.2", "; AllowOveruse: sometimes"),
			ErrSyntax, 2, `h.swf:2: header AllowOveruse: invalid number "sometimes" (want Yes or No)`},
		{"a Queue line without its number", lines("; Queue: batch"),
			ErrSyntax, 1, `h.swf:1: header Queue: invalid number "batch" (want a number, then its name)`},
		{"a Partition line with a number below -1", lines("; Partition: -3 x"),
			ErrSyntax, 1, `h.swf:1: header Partition: invalid number "-3 x" (want a number, then its name)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(tt.input), "h.swf")
			if r != nil {
				t.Error("NewReader returned a Reader with an error")
			}
			checkParseError(t, err, tt.sentinel, tt.line, 0, tt.msg)
		})
	}
}

func TestReaderContinuesAfterALineError(t *testing.T) {
	r, err := NewReader(strings.NewReader(lines(good(1, 0), "bad line", good(3, 5))), "c.swf")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var errs int
	for {
		rc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs++
			continue
		}
		ids = append(ids, rc.JobNumber)
	}
	if errs != 1 || !reflect.DeepEqual(ids, []int64{1, 3}) {
		t.Errorf("errors %d, ids %v; want 1 error and ids [1 3]", errs, ids)
	}
}

// bigTrace returns a valid trace of n jobs, about 70 bytes per line.
func bigTrace(n int) string {
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 128\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%6d %9d %6d %6d %4d %7.2f -1 %4d %6d -1 1 %3d %2d -1 -1 1 -1 -1\n",
			i, i*37, i%1000, (i*7919)%50000, 1+i%128, float64(i%977)/4, 1+i%128, 3600+i%5000, i%50, i%7)
	}
	return b.String()
}

func TestGzipInput(t *testing.T) {
	text := bigTrace(3000)
	_, want, err := readAll("plain", text)
	if err != nil || len(want) != 3000 {
		t.Fatalf("plain read: %d records, %v", len(want), err)
	}
	// gzip is detected by its magic bytes, whatever the name says.
	for _, name := range []string{"trace.swf", "trace.swf.gz"} {
		t.Run("gzip named "+name, func(t *testing.T) {
			_, got, err := readAll(name, string(gzipBytes(t, text)))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Error("gzip and plain reads differ")
			}
		})
	}
	t.Run("plain named trace.swf.gz", func(t *testing.T) {
		_, got, err := readAll("trace.swf.gz", text)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("plain file with a .gz name: %d records, %v", len(got), err)
		}
	})
}

func TestTruncatedGzip(t *testing.T) {
	text := bigTrace(20000)
	gz := gzipBytes(t, text)
	r, err := NewReader(bytes.NewReader(gz[:len(gz)/2]), "cut.swf.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		_, err = r.Next()
		if err != nil {
			break
		}
		n++
	}
	if n == 0 || n >= 20000 {
		t.Errorf("read %d records before the cut", n)
	}
	// Two header lines, then n whole records; the cut is in the next line.
	checkParseError(t, err, ErrTruncated, n+3, 0, "")
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("the gzip cause is not wrapped: %v", err)
	}
	if !strings.HasPrefix(err.Error(), fmt.Sprintf("cut.swf.gz:%d: gzip stream truncated or corrupt: ", n+3)) {
		t.Errorf("message %q", err)
	}
	if _, err2 := r.Next(); err2 != err {
		t.Errorf("read error not sticky: %v then %v", err, err2)
	}
}

func TestCorruptGzip(t *testing.T) {
	gz := gzipBytes(t, bigTrace(2000))
	t.Run("flipped bytes in the deflate data", func(t *testing.T) {
		// Garbled deflate data may still decode to (garbage) text: the
		// reader streams, so it can report a bad line before the
		// checksum at the end proves the stream corrupt. Either way the
		// read fails with a ParseError.
		bad := bytes.Clone(gz)
		for i := len(bad) / 3; i < len(bad)/3+64; i++ {
			bad[i] ^= 0x55
		}
		_, _, err := readAll("bad.gz", string(bad))
		if err == nil {
			t.Fatal("corrupt gzip read without error")
		}
		mustBeParseError(t, err)
	})
	t.Run("wrong checksum", func(t *testing.T) {
		bad := bytes.Clone(gz)
		bad[len(bad)-6] ^= 0xff // CRC-32 sits in the trailer's first 4 bytes
		_, _, err := readAll("crc.gz", string(bad))
		if !errors.Is(err, ErrTruncated) || !errors.Is(err, kgzip.ErrChecksum) {
			t.Errorf("got %v, want ErrTruncated wrapping gzip.ErrChecksum", err)
		}
	})
	t.Run("magic bytes only", func(t *testing.T) {
		_, err := NewReader(strings.NewReader("\x1f\x8b"), "magic.gz")
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("got %v, want ErrTruncated", err)
		}
	})
}

func TestLongLine(t *testing.T) {
	line := strings.ReplaceAll(good(1, 0), " ", strings.Repeat(" ", 20000))
	if len(line) < 3*bufSize {
		t.Fatal("line not long enough to test")
	}
	_, got, err := readAll("long.swf", lines(line, good(2, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].JobNumber != 1 || got[1].JobNumber != 2 {
		t.Errorf("got %+v", got)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.swf.gz")
	if err := os.WriteFile(path, gzipBytes(t, lines("; MaxProcs: 4", kthLine)), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Header().MaxProcs != 4 {
		t.Errorf("header %+v", r.Header())
	}
	if got, err := r.Next(); err != nil || got != kthRec {
		t.Errorf("Next = %+v, %v", got, err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := r.Next(); err == nil || err == io.EOF {
		t.Errorf("Next after Close = %v, want an error", err)
	}

	if _, err := Open(filepath.Join(dir, "missing.swf")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(missing) = %v", err)
	}
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("; MaxProcs: many\n"), 0o644)
	if _, err := Open(bad); !errors.Is(err, ErrSyntax) || !strings.HasPrefix(err.Error(), bad+":1: ") {
		t.Errorf("Open(bad header) = %v", err)
	}
}

func TestParseErrorFormat(t *testing.T) {
	tests := []struct {
		err  ParseError
		want string
	}{
		{ParseError{File: "a.swf", Line: 3, Field: 4, Name: "run time", Err: ErrSyntax}, "a.swf:3: field 4 (run time): invalid number"},
		{ParseError{File: "a.swf", Line: 3, Err: ErrFieldCount}, "a.swf:3: wrong number of fields"},
		{ParseError{File: "a.swf", Err: ErrTruncated}, "a.swf: gzip stream truncated or corrupt"},
		{ParseError{Line: 9, Name: "header MaxProcs", Err: ErrSyntax}, "line 9: header MaxProcs: invalid number"},
		{ParseError{}, "swf: unknown error"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestNoPanic feeds mangled traces (plain and gzip) to the reader and the
// source: every outcome must be records, io.EOF or a *ParseError.
func TestNoPanic(t *testing.T) {
	base := kthHeader + bigTrace(40)
	seed := uint64(1)
	rnd := func(n int) int { // xorshift: deterministic, no shared state
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	alphabet := []byte("0123456789 -+.eE;\t\r\n\x1f\x8bxNaI:")
	inputs := []string{"", "\n", ";", "\x1f", "\x1f\x8b", "\x1f\x8b\x08", "-", ".", strings.Repeat("9", 400)}
	for range 3000 {
		b := []byte(base)
		for range 1 + rnd(8) {
			switch i := rnd(len(b)); rnd(3) {
			case 0:
				b[i] = alphabet[rnd(len(alphabet))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			case 2:
				b = append(b[:i], append([]byte{alphabet[rnd(len(alphabet))]}, b[i:]...)...)
			}
		}
		inputs = append(inputs, string(b))
	}
	gz := gzipBytes(t, base)
	for i := 0; i < 300; i++ {
		b := bytes.Clone(gz)
		b[rnd(len(b))] ^= byte(1 + rnd(255))
		inputs = append(inputs, string(b[:len(b)-rnd(len(b))]))
	}
	for _, in := range inputs {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic %v on input %q", p, in)
				}
			}()
			r, err := NewReader(strings.NewReader(in), "p.swf")
			if err != nil {
				mustBeParseError(t, err)
				return
			}
			defer r.Close()
			src := NewSource(r, Options{Clamp: rnd(2) == 0})
			for range 200 {
				_, err := src.Next()
				if err == io.EOF {
					return
				}
				if err != nil {
					mustBeParseError(t, err)
				}
			}
		}()
	}
}

func mustBeParseError(t *testing.T, err error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%T is not a *ParseError: %v", err, err)
	}
}

// TestNoGoroutineLeak: gzip input is decompressed by a background
// goroutine, which must stop at the end of the input, on Close, and when a
// Reader is dropped half-read without Close.
func TestNoGoroutineLeak(t *testing.T) {
	gz := gzipBytes(t, bigTrace(50000)) // several decompression chunks
	base := runtime.NumGoroutine()
	settled := func(what string) {
		t.Helper()
		for range 200 {
			if runtime.NumGoroutine() <= base {
				return
			}
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
		t.Errorf("%s: %d goroutines, want %d", what, runtime.NumGoroutine(), base)
	}

	// Read to the end, no Close.
	if _, recs, err := readAll("a.gz", string(gz)); err != nil || len(recs) != 50000 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	settled("after reading to the end")

	// Close half-way.
	r, err := NewReader(bytes.NewReader(gz), "b.gz")
	if err != nil {
		t.Fatal(err)
	}
	r.Next()
	r.Close()
	settled("after Close")

	// Drop half-way.
	func() {
		r, err := NewReader(bytes.NewReader(gz), "c.gz")
		if err != nil {
			t.Fatal(err)
		}
		r.Next()
	}()
	settled("after dropping a Reader")
}

// A line longer than MaxLineLength is refused with its line number after
// reading at most about MaxLineLength bytes of it (the reader stops
// there, so a 1 GiB line costs no more than a 1 MiB one), in plain text
// and in gzip.
func TestLineTooLong(t *testing.T) {
	huge := "; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n" + strings.Repeat("9", MaxLineLength+1) + "\n"
	fits := "; " + strings.Repeat("x", MaxLineLength-2) + "\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(huge))
	zw.Close()
	for name, in := range map[string]io.Reader{"plain": strings.NewReader(huge), "gzip": &gz} {
		lr := &countingReader{r: in}
		r, err := NewReader(lr, "t.swf")
		if err == nil {
			for err == nil {
				_, err = r.Next()
			}
		}
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrLineTooLong) || pe.Line != 3 {
			t.Errorf("%s: got %v, want line 3: %v", name, err, ErrLineTooLong)
		}
		if lr.n > 2*MaxLineLength {
			t.Errorf("%s: read %d bytes before refusing the line", name, lr.n)
		}
	}
	r, err := NewReader(strings.NewReader(fits), "t.swf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Errorf("a line of exactly MaxLineLength bytes: %v", err)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// A byte-order mark is named as such, on line 1, not reported as a
// malformed record or a missing MaxProcs.
func TestBOM(t *testing.T) {
	_, err := NewReader(strings.NewReader("\xef\xbb\xbf; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"), "b.swf")
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrBOM) || pe.Line != 1 {
		t.Errorf("got %v, want b.swf:1: %v", err, ErrBOM)
	}
}

// Times beyond MaxSeconds are refused with file, line and field; an
// unsorted submit time is printed as written, not in exponent form.
func TestTimeLimitsAndUnsortedText(t *testing.T) {
	_, _, err := readAll("t.swf", "1 0 0 1e300 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrTooLong) || pe.Line != 1 || pe.Field != 4 {
		t.Errorf("1e300 s runtime: got %v", err)
	}
	_, _, err = readAll("t.swf", "1 77589970 0 1 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n2 77589962 0 1 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
	if err == nil || !strings.Contains(err.Error(), "77589962 after 77589970") {
		t.Errorf("unsorted: got %v, want the submit times as written", err)
	}
	if _, _, err := readAll("t.swf", "1 0 0 1000000000000 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"); err != nil {
		t.Errorf("a runtime of exactly MaxSeconds: %v", err)
	}
}

// A header of more than MaxHeaderLines comment lines, or of more than
// MaxHeaderBytes bytes of comment text, is refused at the first line
// beyond the bound (a small gzip of ';' lines would otherwise fill the
// memory); a header at the bounds is read.
func TestHeaderTooLong(t *testing.T) {
	job := "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
	long := "; " + strings.Repeat("x", MaxLineLength-2) + "\n" // MaxLineLength-1 bytes of text
	perBytes := MaxHeaderBytes/(MaxLineLength-1) + 1           // lines over MaxHeaderBytes
	for _, c := range []struct {
		name string
		in   string
		line int // 0: read without error
	}{
		{"lines at the bound", strings.Repeat(";\n", MaxHeaderLines) + job, 0},
		{"one line too many", strings.Repeat(";\n", MaxHeaderLines+1) + job, MaxHeaderLines + 1},
		{"blank lines are not kept", strings.Repeat(";\n\n", MaxHeaderLines) + job, 0},
		{"bytes at the bound", strings.Repeat(long, perBytes-1) + job, 0},
		{"bytes too many", strings.Repeat(long, perBytes) + job, perBytes},
	} {
		r, err := NewReader(strings.NewReader(c.in), "t.swf")
		var pe *ParseError
		switch {
		case c.line == 0 && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.line == 0:
			if _, err := r.Next(); err != nil {
				t.Errorf("%s: first job: %v", c.name, err)
			}
		case !errors.As(err, &pe) || !errors.Is(err, ErrHeaderTooLong) || pe.Line != c.line:
			t.Errorf("%s: got %v, want line %d: %v", c.name, err, c.line, ErrHeaderTooLong)
		case !strings.HasPrefix(err.Error(), "t.swf:"+strconv.Itoa(c.line)+": header longer than 100000 comment lines"):
			t.Errorf("%s: message %q", c.name, err)
		}
	}
}

// A file whose lines end in CR alone is one line to a reader of LF: it
// is named as such (at line 1), whether it starts with a header or a
// job, and when it is longer than MaxLineLength; CR LF and trailing CRs
// are read as before.
func TestCROnly(t *testing.T) {
	job := "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1"
	for name, in := range map[string]string{
		"header first": "; MaxProcs: 8\r" + job + "\r" + job + "\r",
		"job first":    job + "\r" + job + "\r",
		"comment only": "; a comment\r" + job + "\r",
		"long":         strings.Repeat(job+"\r", MaxLineLength/len(job)+10),
	} {
		r, err := NewReader(strings.NewReader(in), "t.swf")
		if err == nil {
			for err == nil {
				_, err = r.Next()
			}
		}
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrCROnly) || pe.Line != 1 {
			t.Errorf("%s: got %v, want line 1: %v", name, err, ErrCROnly)
		}
		if !strings.HasPrefix(err.Error(), "t.swf:1: the lines end in CR alone") {
			t.Errorf("%s: message %q", name, err)
		}
	}
	r, err := NewReader(strings.NewReader("; MaxProcs: 8\r\n"+job+"\r\r\n"+job+"\r\n"), "t.swf")
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 2; n++ {
		if _, err := r.Next(); err != nil {
			t.Errorf("CR LF, record %d: %v", n+1, err)
		}
	}
}

// A file that is not SWF gets a hint at its first job line: what it
// looks like and what to run instead. A later malformed line does not.
func TestNotSWFHints(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"JobID|JobIDRaw|User|Submit\n1|1|alice|2024-01-01T00:00:00\n", "sacct --parsable2 export"},
		{"{\n  \"jobs\": []\n}\n", "looks like JSON"},
		{"job_id,workload_name,profile,submission_time\n1,w,p,0\n", "jobs.csv a run wrote"},
		{"a,b,c,d,e\n", "a CSV file"},
	} {
		r, _ := NewReader(strings.NewReader(c.text), "x")
		_, err := r.Next()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "x:1: ") {
			t.Errorf("%q: error %v, want it to say %q", c.text[:10], err, c.want)
		}
	}
	r, _ := NewReader(strings.NewReader("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\na|b|c\n"), "x")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || strings.Contains(err.Error(), "sacct") {
		t.Errorf("second line: %v, want no hint", err)
	}
}

// IDNames reads the "User N: name" lines trace import writes; other
// lines, bad numbers and empty names are not names.
func TestHeaderIDNames(t *testing.T) {
	h := Header{Lines: []string{" Version: 2.2", " User 1: alice", " User 2:  bob smith ", " User x: nobody", " User -1: neg",
		" User 3:", " Group 1: physics", " UserCount: 3", "User 4: carol"}}
	if got := fmt.Sprint(h.IDNames("User")); got != "map[1:alice 2:bob smith 4:carol]" {
		t.Errorf("users %s", got)
	}
	if got := fmt.Sprint(h.IDNames("Group")); got != "map[1:physics]" {
		t.Errorf("groups %s", got)
	}
	if h.IDNames("Queue") != nil {
		t.Error("names of no line")
	}
}
