package threads

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload"
)

// jobLog records the folded events a listener hears.
type jobLog struct {
	engine.NopListener
	events []string
	rec    engine.Record
}

func (l *jobLog) JobSubmitted(now float64, j *actual.Job) {
	l.events = append(l.events, "submit "+itoa(int(j.ID))+" procs "+itoa(j.Procs))
}
func (l *jobLog) JobStarted(now float64, s engine.Start) {
	l.events = append(l.events, "start "+itoa(int(s.Job.ID)))
}
func (l *jobLog) JobFinished(now float64, r *engine.Record) {
	l.events = append(l.events, "end "+itoa(int(r.Job.ID)))
	l.rec = *r
}

func itoa(n int) string { return strconv.Itoa(n) }

// A job of three processors becomes three consecutive one-processor
// threads; a job outside the ID range is an error naming it.
func TestSplit(t *testing.T) {
	src := Split(workload.FromSlice([]actual.Job{{ID: 7, Procs: 3, Runtime: 5}, {ID: 8, Procs: 1, Runtime: 1}}))
	var got []job.ID
	for {
		j, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if p, _ := j.ID.Thread(); j.Procs != 1 || p == 7 && j.Runtime != 5 {
			t.Fatalf("thread %v: %d procs, runtime %g", j.ID, j.Procs, j.Runtime)
		}
		got = append(got, j.ID)
	}
	want := []job.ID{job.ThreadID(7, 0), job.ThreadID(7, 1), job.ThreadID(7, 2), job.ThreadID(8, 0)}
	if len(got) != len(want) {
		t.Fatalf("threads %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("threads %v, want %v", got, want)
		}
	}
	if _, err := Split(workload.FromSlice([]actual.Job{{ID: -1, Procs: 1}})).Next(); err == nil || !strings.Contains(err.Error(), "job -1") {
		t.Fatalf("a negative id: %v", err)
	}
}

// The fold hands its listener one job made of the threads: submitted
// with all of them, started with the first, ended with the last, over
// every CPU they used; Correct sets utilization from the threads' work.
func TestFold(t *testing.T) {
	l := &jobLog{}
	f := NewFold(l)
	ths := make([]actual.Job, 2)
	for r := range ths {
		ths[r] = actual.Job{ID: job.ThreadID(4, r), Procs: 1, Submit: 0, Runtime: 10}
		f.JobSubmitted(0, &ths[r])
	}
	f.JobStarted(0, engine.Start{Job: &ths[0], CPUs: platform.Runs{0, 0}})
	f.JobFinished(10, &engine.Record{Job: &ths[0], Start: 0, End: 10, CPUs: platform.Runs{0, 0}})
	f.JobStarted(10, engine.Start{Job: &ths[1], CPUs: platform.Runs{1, 1}})
	f.JobFinished(20, &engine.Record{Job: &ths[1], Start: 10, End: 20, CPUs: platform.Runs{1, 1}})
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	want := "submit 4 procs 2|start 4|end 4"
	if got := strings.Join(l.events, "|"); got != want {
		t.Fatalf("events %q, want %q", got, want)
	}
	if l.rec.Start != 0 || l.rec.End != 20 || l.rec.CPUs.String() != "0-1" {
		t.Fatalf("record %+v", l.rec)
	}
	if f.Work() != 20 {
		t.Fatalf("work %g, want 20", f.Work())
	}
	// A thread of a job never submitted is an error, not a panic.
	f.JobStarted(30, engine.Start{Job: &actual.Job{ID: job.ThreadID(9, 0)}})
	if f.Err() == nil {
		t.Fatal("no error for a thread of an unknown job")
	}
}
