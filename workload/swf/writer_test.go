package swf

import (
	"bytes"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

func writeText(t testing.TB, h *Header, recs []Record) string {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if h != nil {
		if err := w.WriteHeader(*h); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestWriterFormat(t *testing.T) {
	tests := []struct {
		name string
		rec  Record
		want string
	}{
		{"KTH record: integers as integers, single spaces", kthRec,
			"15 599850 192180 3477 4 -1 -1 4 53940 -1 1 12 12 -1 -1 -1 -1 -1\n"},
		{"fraction kept as written", hpc2nRec,
			"12 342343 5 553 40 552.21 -1 40 43200 -1 1 4 1 -1 -1 1 -1 -1\n"},
		{"shortest round-trip floats, no exponent",
			rec(1, 3.5, 0.1, 1e11, 2, 1.0/3, 5e-7, 2, 60, 1e21, 1, 3, 4, -1, -1, -1, 9007199254740992, 0),
			"1 3.5 0.1 100000000000 2 0.3333333333333333 0.0000005 2 60 1000000000000000000000 1 3 4 -1 -1 -1 9007199254740992 0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := writeText(t, nil, []Record{tt.rec}); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestWriteHeader(t *testing.T) {
	tests := []struct {
		name     string
		h        Header
		want     string
		readBack Header
	}{
		{"raw lines win over typed fields",
			Header{MaxProcs: 99, Lines: []string{" Version: 2.2", "", " MaxProcs: 100  "}},
			"; Version: 2.2\n;\n; MaxProcs: 100  \n",
			Header{Version: "2.2", MaxProcs: 100, Lines: []string{" Version: 2.2", "", " MaxProcs: 100  "}}},
		{"typed fields that are set, in PWA order",
			Header{Version: "2.2", Computer: "IBM SP2", MaxJobs: 10, UnixStartTime: 843480031, MaxNodes: 100, MaxProcs: 100},
			"; Version: 2.2\n; Computer: IBM SP2\n; MaxJobs: 10\n; UnixStartTime: 843480031\n; MaxNodes: 100\n; MaxProcs: 100\n",
			Header{Version: "2.2", Computer: "IBM SP2", MaxJobs: 10, UnixStartTime: 843480031, MaxNodes: 100, MaxProcs: 100,
				Lines: []string{" Version: 2.2", " Computer: IBM SP2", " MaxJobs: 10", " UnixStartTime: 843480031", " MaxNodes: 100", " MaxProcs: 100"}}},
		{"every typed field, lists one line per element, in PWA order",
			Header{Version: "2.2", Computer: "C", Installation: "I", Acknowledge: "A", Information: []string{"i1", "i2"}, Conversion: "conv",
				MaxJobs: 5, MaxRecords: 6, Preemption: "No", UnixStartTime: -7, TimeZone: 3600, TimeZoneString: "Europe/Paris",
				StartTime: "s", EndTime: "e", MaxNodes: 2, MaxProcs: 8, MaxRuntime: 3600, MaxMemory: 1024, AllowOveruse: No,
				MaxQueues: 2, Queues: "qs", QueueNames: []NamedNumber{{1, "batch"}, {2, ""}}, MaxPartitions: 1, Partitions: "ps",
				PartitionNames: []NamedNumber{{1, "all"}}},
			"; Version: 2.2\n; Computer: C\n; Installation: I\n; Acknowledge: A\n; Information: i1\n; Information: i2\n; Conversion: conv\n" +
				"; MaxJobs: 5\n; MaxRecords: 6\n; Preemption: No\n; UnixStartTime: -7\n; TimeZone: 3600\n; TimeZoneString: Europe/Paris\n" +
				"; StartTime: s\n; EndTime: e\n; MaxNodes: 2\n; MaxProcs: 8\n; MaxRuntime: 3600\n; MaxMemory: 1024\n; AllowOveruse: No\n" +
				"; MaxQueues: 2\n; Queues: qs\n; Queue: 1 batch\n; Queue: 2\n; MaxPartitions: 1\n; Partitions: ps\n; Partition: 1 all\n",
			Header{Version: "2.2", Computer: "C", Installation: "I", Acknowledge: "A", Information: []string{"i1", "i2"}, Conversion: "conv",
				MaxJobs: 5, MaxRecords: 6, Preemption: "No", UnixStartTime: -7, TimeZone: 3600, TimeZoneString: "Europe/Paris",
				StartTime: "s", EndTime: "e", MaxNodes: 2, MaxProcs: 8, MaxRuntime: 3600, MaxMemory: 1024, AllowOveruse: No,
				MaxQueues: 2, Queues: "qs", QueueNames: []NamedNumber{{1, "batch"}, {2, ""}}, MaxPartitions: 1, Partitions: "ps",
				PartitionNames: []NamedNumber{{1, "all"}},
				Lines: []string{" Version: 2.2", " Computer: C", " Installation: I", " Acknowledge: A", " Information: i1", " Information: i2",
					" Conversion: conv", " MaxJobs: 5", " MaxRecords: 6", " Preemption: No", " UnixStartTime: -7", " TimeZone: 3600",
					" TimeZoneString: Europe/Paris", " StartTime: s", " EndTime: e", " MaxNodes: 2", " MaxProcs: 8", " MaxRuntime: 3600",
					" MaxMemory: 1024", " AllowOveruse: No", " MaxQueues: 2", " Queues: qs", " Queue: 1 batch", " Queue: 2",
					" MaxPartitions: 1", " Partitions: ps", " Partition: 1 all"}}},
		{"empty header writes nothing", Header{}, "", Header{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := writeText(t, &tt.h, nil)
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			h, _, err := readAll("w.swf", got)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(h, tt.readBack) {
				t.Errorf("read back %#v\nwant      %#v", h, tt.readBack)
			}
		})
	}
	w := NewWriter(io.Discard)
	if err := w.WriteHeader(Header{Lines: []string{"two\nlines"}}); err == nil {
		t.Error("a header line with a newline was accepted")
	}
	if err := w.WriteHeader(Header{Computer: "a\nb"}); err == nil {
		t.Error("a header value with a newline was accepted")
	}
}

func TestWriterRefusesWhatReaderRejects(t *testing.T) {
	tests := []struct {
		name     string
		rec      Record
		sentinel error
	}{
		{"NaN", rec(1, math.NaN(), 0, 1, 1, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, -1, -1, -1), ErrSyntax},
		{"Inf", rec(1, 0, 0, math.Inf(1), 1, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, -1, -1, -1), ErrSyntax},
		{"negative procs", rec(1, 0, 0, 1, -5, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, -1, -1, -1), ErrNegative},
		{"negative wait", rec(1, 0, -0.5, 1, 1, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, -1, -1, -1), ErrNegative},
		{"job number beyond 2^53", Record{JobNumber: 1<<53 + 1}, ErrNotInteger},
		{"runtime beyond MaxSeconds", rec(1, 0, 0, 1e300, 1, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, -1, -1, -1), ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewWriter(io.Discard).Write(tt.rec)
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("got %v, want %v", err, tt.sentinel)
			}
		})
	}
}

func TestWriterRoundTrip(t *testing.T) {
	recs := []Record{ // in submit order
		rec(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
		hpc2nRec, kthRec, kthRec2,
		rec(1<<53, 600022, 0.1, 0.2, 1<<53, 1.0/3, 1e-300, 0, MaxSeconds, 5e-324, 0, 0, 0, 0, 0, 0, 1<<53, 123.456e-5),
	}
	h := Header{Version: "2.2", MaxProcs: 100, Lines: []string{" Version: 2.2", " MaxProcs: 100", "\tfree text ; with ; semicolons"}}
	text := writeText(t, &h, recs)
	gotH, got, err := readAll("rt.swf", text)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("records\n got  %+v\n want %+v", got, recs)
	}
	if !reflect.DeepEqual(gotH, h) {
		t.Errorf("header\n got  %#v\n want %#v", gotH, h)
	}
}

// FuzzRoundTrip: whatever parses must read back identically after being
// written: read -> write -> read gives the same header lines and records,
// and writing again gives the same text.
func FuzzRoundTrip(f *testing.F) {
	f.Add(kthHeader + lines(kthLine, kthLine2))
	f.Add(lines(hpc2nLine))
	f.Add(lines("; MaxProcs: 8", "1 0 0 0 -1 -1 -1 2 -1 -1 5 -1 -1 -1 -1 -1 -1 -1", "2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1"))
	f.Add("1 1e3 2.5E-1 +3 4. .5 0.1234567890123456789 2 60 -0 1 3 4 -1 -1 -1 -1 1e-320")
	f.Add("\r\n;x\r\n\t7 0 0 0 1 0 0 1 0 0 0 0 0 0 0 0 0 0\r")
	f.Fuzz(func(t *testing.T, input string) {
		h, recs, err := readAll("in.swf", input)
		if err != nil {
			return // not a valid trace: nothing to round-trip
		}
		text := writeText(t, &h, recs)
		h2, recs2, err := readAll("out.swf", text)
		if err != nil {
			t.Fatalf("written trace does not read back: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(h2, h) {
			t.Errorf("header\n in  %#v\n out %#v", h, h2)
		}
		if !reflect.DeepEqual(recs2, recs) {
			t.Errorf("records\n in  %+v\n out %+v", recs, recs2)
		}
		if again := writeText(t, &h2, recs2); again != text {
			t.Errorf("second write differs:\n%q\n%q", text, again)
		}
		if !strings.HasSuffix(text, "\n") && text != "" {
			t.Errorf("output does not end with a newline: %q", text)
		}
	})
}
