package workload

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/workload/swf"
)

// nextOnly hides a source's NextInto: Prefetch then reads with Next.
type nextOnly struct{ src Source }

func (s nextOnly) Next() (actual.Job, error) { return s.src.Next() }

// swfLines is an SWF text with jobs, records that are skipped (no submit
// time, no run time, no processors) or rejected (too large), and, if bad,
// a malformed line at the end.
func swfLines(n int, bad bool) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range n {
		submit, run, procs, req := i*3, 10+i%17, 1+i%9, 20+i%13*7
		switch i % 11 {
		case 3:
			submit = -1
		case 5:
			run = -1
		case 7:
			procs = -1
		case 9:
			procs = 65
		}
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 %d %d %d %d 1 %d %d -1 1 -1 -1 -1\n",
			i+1, submit, run, procs, i%5*100, procs, req, i%3*50, i%7, i%4)
	}
	if bad {
		b.WriteString("99999 1 2 3\n")
	}
	return b.String()
}

// Jobs read in place through the SWF source and the estimate layer (the
// path schedlab run takes) are the jobs Next gives, in the same order,
// with the same final error and counts, over batches reused many times.
func TestPrefetchInPlaceSameAsNext(t *testing.T) {
	for _, bad := range []bool{false, true} {
		for _, batch := range []int{1, 3, 64} {
			text := swfLines(500, bad)
			read := func(hide bool) ([]actual.Job, string, swf.Counts) {
				rd, err := swf.NewReader(strings.NewReader(text), "t")
				if err != nil {
					t.Fatal(err)
				}
				src := swf.NewSource(rd, swf.Options{})
				var s Source = WithEstimates(src, EstimateRequest)
				// Both layers must offer the in-place path, or this test
				// would compare Next with itself.
				if _, ok := Source(src).(intoSource); !ok {
					t.Fatal("swf.Source has no NextInto")
				}
				if _, ok := s.(intoSource); !ok {
					t.Fatal("the estimate layer has no NextInto")
				}
				if hide {
					s = nextOnly{s}
				}
				p := Prefetch(s, batch)
				defer p.Close()
				var jobs []actual.Job
				for {
					j, err := p.Next()
					if err != nil {
						return jobs, err.Error(), src.Counts()
					}
					jobs = append(jobs, j)
				}
			}
			got, gotErr, gotCounts := read(false)
			want, wantErr, wantCounts := read(true)
			if len(got) != len(want) || gotErr != wantErr || gotCounts != wantCounts {
				t.Fatalf("bad %v batch %d: %d jobs, %q, %+v; want %d, %q, %+v", bad, batch, len(got), gotErr, gotCounts, len(want), wantErr, wantCounts)
			}
			for i := range got {
				if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
					t.Fatalf("bad %v batch %d job %d: %+v, want %+v", bad, batch, i, got[i], want[i])
				}
			}
			if len(got) < 300 {
				t.Fatalf("only %d jobs", len(got))
			}
		}
	}
}

// BenchmarkPrefetchHPC2N reads HPC2N as schedlab run does: gunzip, parse,
// convert, estimates, prefetched in batches of 4,096.
func BenchmarkPrefetchHPC2N(b *testing.B) {
	const path = "../../shared/traces/HPC2N-2002-2.1-cln.swf.gz"
	if _, err := os.Stat(path); err != nil {
		b.Skipf("trace %s not available", path)
	}
	for b.Loop() {
		rd, err := swf.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		p := Prefetch(WithEstimates(swf.NewSource(rd, swf.Options{}), EstimateRequest), 4096)
		n := 0
		for {
			_, err := p.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		p.Close()
		rd.Close()
		if n != 202876 {
			b.Fatalf("%d jobs", n)
		}
	}
}

// The prefetcher's own NextInto (how the kernel reads it) gives the jobs
// and the final error Next gives, the error again on every later call,
// and leaves the caller's job as it was on error.
func TestPrefetcherNextIntoSameAsNext(t *testing.T) {
	for _, bad := range []bool{false, true} {
		for _, batch := range []int{1, 7, 4096} {
			text := swfLines(900, bad)
			read := func(into bool) ([]actual.Job, []string) {
				rd, err := swf.NewReader(strings.NewReader(text), "t.swf")
				if err != nil {
					t.Fatal(err)
				}
				p := Prefetch(WithEstimates(swf.NewSource(rd, swf.Options{}), EstimateRequest), batch)
				defer p.Close()
				var jobs []actual.Job
				for {
					var j actual.Job
					var err error
					if into {
						j = actual.Job{ID: -7}
						err = p.NextInto(&j)
						if err != nil && j.ID != -7 {
							t.Fatalf("NextInto changed the job on error: %+v", j)
						}
					} else {
						j, err = p.Next()
					}
					if err != nil {
						errs := []string{err.Error()}
						for range 2 {
							var x actual.Job
							if into {
								err = p.NextInto(&x)
							} else {
								_, err = p.Next()
							}
							errs = append(errs, err.Error())
						}
						return jobs, errs
					}
					jobs = append(jobs, j)
				}
			}
			got, gotErrs := read(true)
			want, wantErrs := read(false)
			if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(gotErrs) != fmt.Sprint(wantErrs) {
				t.Fatalf("bad %v batch %d: %d jobs, errors %q; want %d, %q", bad, batch, len(got), gotErrs, len(want), wantErrs)
			}
			if len(got) < 500 || (bad && !strings.Contains(gotErrs[0], "t.swf:902: wrong number of fields")) {
				t.Fatalf("bad %v: %d jobs, errors %q", bad, len(got), gotErrs)
			}
		}
	}
}
