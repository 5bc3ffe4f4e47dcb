package swf

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// traceDir holds the real PWA traces (see its README.md), relative to this
// package's directory.
const traceDir = "../../../shared/traces"

func tracePath(t testing.TB, file string) string {
	t.Helper()
	p := filepath.Join(traceDir, file)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real trace not available (%v); the traces live in %s", err, traceDir)
	}
	return p
}

// TestRealTraces reads the real traces through a Source and checks the
// figures of the traces README (job counts, -1 quirks, header machine
// size, first submit times, last end times).
func TestRealTraces(t *testing.T) {
	tests := []struct {
		file     string
		big      bool // skipped under -short
		maxProcs int  // header MaxProcs (0: no header)
		counts   Counts
		first    float64 // first submit time of a usable job
		lastEnd  float64 // -1: not checked
	}{
		{file: "KTH-SP2-1996-2.1-cln.swf.gz", maxProcs: 100,
			counts: Counts{Read: 27992, Jobs: 27992}, first: 599850, lastEnd: -1},
		{file: "NASA-iPSC-1993-3.1-cln.swf.gz", maxProcs: 128,
			counts: Counts{Read: 18239, Jobs: 18239}, first: 0, lastEnd: -1},
		// 1,190 records with submit -1 scattered through the file (the
		// submit sequence goes backwards around them): not ErrUnsorted.
		// 1,058 more have neither allocated nor requested processors.
		{file: "LLNL-Thunder-2007-1.1-cln.swf.gz", maxProcs: 4008,
			counts: Counts{Read: 121039, Jobs: 118791, SkippedNoSubmit: 1190, SkippedNoProcs: 1058}, first: 0, lastEnd: -1},
		// No header in this copy; README: last submit 14,896,887 s, last end 17,094,517 s.
		{file: "METACENTRUM-2009-2.swf.gz", big: true,
			counts: Counts{Read: 103656, Jobs: 103656}, first: 0, lastEnd: 17094517},
		{file: "HPC2N-2002-2.1-cln.swf.gz", big: true, maxProcs: 240,
			counts: Counts{Read: 202876, Jobs: 202876}, first: 0, lastEnd: -1},
		{file: "LCG-2005.swf.gz", big: true, maxProcs: 24515,
			counts: Counts{Read: 188041, Jobs: 188041}, first: 0, lastEnd: -1},
		// 10,744 cancelled records with run time -1.
		{file: "SDSC-BLUE-2000-4.2-cln.swf.gz", big: true, maxProcs: 1152,
			counts: Counts{Read: 243306, Jobs: 232562, SkippedNoRuntime: 10744}, first: 430593, lastEnd: -1},
		// 19 records with both processor counts unknown.
		{file: "CEA-Curie-2011-2.1-cln.swf.gz", big: true, maxProcs: 93312,
			counts: Counts{Read: 312826, Jobs: 312807, SkippedNoProcs: 19}, first: 31656837, lastEnd: -1},
		// No header; README: last job ends at 13,218,793 s.
		{file: "RICC-2010-2.swf.gz", big: true,
			counts: Counts{Read: 447794, Jobs: 447794}, first: 0, lastEnd: 13218793},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if tt.big && testing.Short() {
				t.Skip("big trace skipped in -short mode")
			}
			r, err := Open(tracePath(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := r.Header().MaxProcs; got != tt.maxProcs {
				t.Errorf("header MaxProcs = %d, want %d", got, tt.maxProcs)
			}
			st, err := ComputeStats(r, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if st.Counts != tt.counts {
				t.Errorf("counts %+v\n  want %+v", st.Counts, tt.counts)
			}
			if st.FirstSubmit != tt.first {
				t.Errorf("first submit %v, want %v", st.FirstSubmit, tt.first)
			}
			if tt.lastEnd >= 0 && st.LastEnd != tt.lastEnd {
				t.Errorf("last end %v, want %v", st.LastEnd, tt.lastEnd)
			}
			if tt.maxProcs > 0 && (st.OfferedLoad <= 0 || st.OfferedLoad > 1.5) {
				t.Errorf("implausible offered load %v", st.OfferedLoad)
			}
		})
	}
}

// TestRealTraceHeader pins the header of KTH-SP2, the smallest real trace.
func TestRealTraceHeader(t *testing.T) {
	r, err := Open(tracePath(t, "KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	h.Lines = nil
	want := Header{Version: "2.2", Computer: "IBM SP2", Installation: "Swedish Royal Institute of Technology (KTH)",
		Acknowledge: "Lars Malinowsky", Information: []string{"http://www.pdc.kth.se/"},
		Conversion: "Dror Feitelson (feit@cs.huji.ac.il) 01 Jan 2012", MaxJobs: 28490, MaxRecords: 28476, MaxNodes: 100, MaxProcs: 100,
		UnixStartTime: 843480031, TimeZone: 3600, TimeZoneString: "Europe/Stockholm", StartTime: "Mon Sep 23 14:00:31 CEST 1996",
		EndTime: "Fri Aug 29 10:55:01 CEST 1997", Preemption: "No"}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("header\n got  %+v\n want %+v", h, want)
	}
	if n := len(r.Header().Lines); n != 24 {
		t.Errorf("%d header lines, want 24", n)
	}
	first, err := r.Next()
	if err != nil || first != kthRec || r.Line() != 25 {
		t.Errorf("first record %+v (line %d), %v", first, r.Line(), err)
	}
}

// BenchmarkReadHPC2N reads the whole gzip-compressed HPC2N trace (19 MB,
// 202,876 jobs) from memory; MB/s counts uncompressed bytes.
func BenchmarkReadHPC2N(b *testing.B) {
	gz, err := os.ReadFile(tracePath(b, "HPC2N-2002-2.1-cln.swf.gz"))
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		b.Fatal(err)
	}
	size, err := io.Copy(io.Discard, zr)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(gz), "HPC2N")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		r.Close()
		if n != 202876 {
			b.Fatalf("%d records", n)
		}
	}
}

// BenchmarkParseLine parses one KTH job line.
func BenchmarkParseLine(b *testing.B) {
	for _, bc := range []struct{ name, line string }{
		{"KTH", kthLine},
		{"HPC2N-fraction", hpc2nLine},
	} {
		b.Run(bc.name, func(b *testing.B) {
			line := []byte(bc.line)
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := parseLine(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
