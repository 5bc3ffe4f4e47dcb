package swf

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
)

// sourceTrace exercises every conversion rule. The machine has 8
// processors according to the header.
var sourceTrace = lines(
	"; MaxProcs: 8",
	//id submit wait run alloc cpu mem req reqtime reqmem status user group exec queue part prec think
	"1  0  5  100  4 -1 -1  4 3600 2048  1  3  7 -1 -1  2 -1 -1", // plain job, partition 2
	"2  1  0   50 -1 -1 -1  2    0   -1  1 -1 -1 -1 -1 -1 -1 -1", // alloc unknown: requested; no request
	"3 -1 -1   -1 -1 -1 -1 -1   -1   -1  1  4 -1 -1 -1 -1 -1 -1", // no submit time (LLNL style)
	"4  2  0   -1  4 -1 -1  4   60   -1  5  3  7 -1 -1 -1 -1 -1", // no run time (cancelled)
	"5  3  0   10 -1 -1 -1 -1   60   -1  5  3  7 -1 -1 -1 -1 -1", // no processor count at all
	"6  3  0   10  0 -1 -1  0   60   -1  0  3  7 -1 -1 -1 -1 -1", // zero processors
	"7  4  0    0  1 -1 -1  1   60   -1  1  3  7 -1 -1 -1 -1 -1", // runtime 0 is a job
	"8  5  0   30 16 -1 -1 16  900   -1  1  5  2 -1 -1 -1 -1 -1", // larger than the machine
	"9  6 -1   20  0 -1 512 3   -1   -1  1  5  2 -1 -1 -1 -1 -1", // alloc 0: requested; used memory; no recorded wait
)

var (
	job1 = actual.Job{ID: 1, Submit: 0, Procs: 4, Runtime: 100, Request: 3600, User: 3, Group: 7, ReqMem: 2048, Mem: 2048, Partition: 2, QOS: -1, Recorded: true, RecordedWait: 5}
	job2 = actual.Job{ID: 2, Submit: 1, Procs: 2, Runtime: 50, Request: -1, User: -1, Group: -1, ReqMem: -1, Partition: -1, QOS: -1, Recorded: true}
	job7 = actual.Job{ID: 7, Submit: 4, Procs: 1, Runtime: 0, Request: 60, User: 3, Group: 7, ReqMem: -1, Partition: -1, QOS: -1, Recorded: true}
	job9 = actual.Job{ID: 9, Submit: 6, Procs: 3, Runtime: 20, Request: -1, User: 5, Group: 2, ReqMem: -1, Mem: 512, Partition: -1, QOS: -1}
)

func with(j actual.Job, procs int) actual.Job { j.Procs = procs; return j }

var job8 = actual.Job{ID: 8, Submit: 5, Procs: 16, Runtime: 30, Request: 900, User: 5, Group: 2, ReqMem: -1, Partition: -1, QOS: -1, Recorded: true}

func TestSourceConversion(t *testing.T) {
	skips := Counts{Read: 9, SkippedNoSubmit: 1, SkippedNoRuntime: 1, SkippedNoProcs: 2}
	counts := func(jobs, rejected, clamped int64) Counts {
		c := skips
		c.Jobs, c.Rejected, c.Clamped = jobs, rejected, clamped
		return c
	}
	tests := []struct {
		name     string
		input    string
		opt      Options
		maxProcs int
		want     []actual.Job
		counts   Counts
	}{
		{"header machine size: the 16-processor job is rejected",
			sourceTrace, Options{}, 8,
			[]actual.Job{job1, job2, job7, job9}, counts(4, 1, 0)},
		{"clamp: the 16-processor job runs on 8",
			sourceTrace, Options{Clamp: true}, 8,
			[]actual.Job{job1, job2, job7, with(job8, 8), job9}, counts(5, 0, 1)},
		{"Options.MaxProcs overrides the header",
			sourceTrace, Options{MaxProcs: 32}, 32,
			[]actual.Job{job1, job2, job7, job8, job9}, counts(5, 0, 0)},
		{"a smaller machine rejects more",
			sourceTrace, Options{MaxProcs: 3}, 3,
			[]actual.Job{job2, job7, job9}, counts(3, 2, 0)},
		{"a smaller machine with clamping",
			sourceTrace, Options{MaxProcs: 3, Clamp: true}, 3,
			[]actual.Job{with(job1, 3), job2, job7, with(job8, 3), job9}, counts(5, 0, 2)},
		{"no header and no option: no limit",
			strings.TrimPrefix(sourceTrace, "; MaxProcs: 8\n"), Options{Clamp: true}, 0,
			[]actual.Job{job1, job2, job7, job8, job9}, counts(5, 0, 0)},
		{"header MaxProcs -1 (unknown): no limit",
			strings.Replace(sourceTrace, "MaxProcs: 8", "MaxProcs: -1", 1), Options{}, 0,
			[]actual.Job{job1, job2, job7, job8, job9}, counts(5, 0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(tt.input), "s.swf")
			if err != nil {
				t.Fatal(err)
			}
			src := NewSource(r, tt.opt)
			if src.MaxProcs() != tt.maxProcs {
				t.Errorf("MaxProcs() = %d, want %d", src.MaxProcs(), tt.maxProcs)
			}
			var got []actual.Job
			for {
				j, err := src.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, j)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("jobs\n got  %+v\n want %+v", got, tt.want)
			}
			c := src.Counts()
			if c != tt.counts {
				t.Errorf("counts %+v, want %+v", c, tt.counts)
			}
			if c.Read != c.Jobs+c.Skipped()+c.Rejected {
				t.Errorf("counts do not add up: %+v", c)
			}
		})
	}
}

func TestSourceSkipOrder(t *testing.T) {
	// A record missing everything counts once, as SkippedNoSubmit.
	r, _ := NewReader(strings.NewReader(lines("1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1")), "o.swf")
	src := NewSource(r, Options{})
	if _, err := src.Next(); err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
	if want := (Counts{Read: 1, SkippedNoSubmit: 1}); src.Counts() != want {
		t.Errorf("counts %+v, want %+v", src.Counts(), want)
	}
}

func TestSourcePassesErrorsOn(t *testing.T) {
	r, _ := NewReader(strings.NewReader(lines("; MaxProcs: 4", good(1, 10), withField(5, "-5"), good(3, 20))), "e.swf")
	src := NewSource(r, Options{})
	if src.Header().MaxProcs != 4 {
		t.Errorf("Header() = %+v", src.Header())
	}
	if j, err := src.Next(); err != nil || j.ID != 1 {
		t.Fatalf("first job %+v, %v", j, err)
	}
	_, err := src.Next()
	checkParseError(t, err, ErrNegative, 3, 5, "")
	if j, err := src.Next(); err != nil || j.ID != 3 || j.Submit != 20 {
		t.Errorf("after the error: %+v, %v; want job 3", j, err)
	}
	if c := src.Counts(); c.Read != 2 || c.Jobs != 2 {
		t.Errorf("counts %+v: the bad line must not be counted", c)
	}
}

func TestUserGroupBeyondInt32AreUnknown(t *testing.T) {
	r, _ := NewReader(strings.NewReader(lines(withField(12, "4294967296"))), "u.swf")
	j, err := NewSource(r, Options{}).Next()
	if err != nil {
		t.Fatal(err)
	}
	if j.User != -1 || j.Group != 1 {
		t.Errorf("user %d group %d, want -1 and 1", j.User, j.Group)
	}
}
