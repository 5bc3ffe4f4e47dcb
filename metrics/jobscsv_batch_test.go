package metrics

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
)

// Rows written in batches by the background formatter are, byte for byte
// and in order, the rows each record gives on its own (a writer flushed
// after every row never fills a batch, never starts its goroutine), for
// every kind of writer, across several batches and a partial last one. The engine reuses
// its Record and CPU list: the test does too, so a row that kept a
// reference instead of a copy would show the wrong values.
func TestJobsCSVBatchesEqualRowByRow(t *testing.T) {
	plat, err := platform.New([]platform.Machine{{CPUs: 8, Speed: 1}, {CPUs: 4, Speed: 2.5}})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]func(w *bytes.Buffer) *JobsCSV{
		"plain":    func(w *bytes.Buffer) *JobsCSV { return NewJobsCSV(w) },
		"sites":    func(w *bytes.Buffer) *JobsCSV { return NewJobsCSVSites(w) },
		"machines": func(w *bytes.Buffer) *JobsCSV { return NewJobsCSVMachines(w, plat) },
	}
	const n = (2*csvInFlight+1)*csvBatchRows + 17 // past csvInFlight: the listener waits
	for name, mk := range kinds {
		var all, want bytes.Buffer
		w := mk(&all)
		w1 := mk(&want) // flushed after every row: never a batch
		j := actual.Job{}
		r := engine.Record{Job: &j}
		for i := range n {
			j = actual.Job{ID: job.ID(i + 1), Submit: float64(i) / 4, Procs: 1 + i%5, Request: float64(i % 3 * 100),
				BMEst: float64(i % 2), Deadline: float64(i%4) * 1000.5, Local: i%3 == 1}
			if i%7 == 0 {
				j.Tasks = []actual.Task{{}}
			}
			r.Start, r.End = float64(i)/4+float64(i%11), float64(i)/4+float64(i%11)+float64(i%13)/3
			r.State, r.Reason = job.FinalState(i%2), job.StartReason(i%job.NumReasons)
			r.Machine = i%3 - 1
			r.CPUs = append(r.CPUs[:0], int32(i%8))
			if i%4 == 0 {
				r.CPUs = append(r.CPUs, int32(i%8)+2, int32(i%8)+3)
			}
			r.Sites = append(r.Sites[:0], i%3, 3+i%2)[:1+i%2]
			if i%2 == 0 {
				w.JobFinished(r.End, &r)
			} else {
				w.JobKilled(r.End, &r)
			}
			w1.JobFinished(r.End, &r)
			if err := w1.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Err(); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		header, rows, _ := strings.Cut(all.String(), "\n")
		if !strings.HasPrefix(header, "job_id,") {
			t.Fatalf("%s: header %q", name, header)
		}
		if all.String() != want.String() {
			t.Fatalf("%s: batched rows differ from rows written one at a time", name)
		}
		if got := strings.Count(rows, "\n"); got != n {
			t.Fatalf("%s: %d rows, want %d", name, got, n)
		}
	}
}

// A write error of a batch formatted in the background is reported by
// Err and by Flush.
func TestJobsCSVBatchWriteError(t *testing.T) {
	w := NewJobsCSV(failBig{n: 1000})
	r := rec(1, 0, 0, 10, 1, 10, job.Completed, job.Immediate)
	for range 2 * csvBatchRows {
		w.JobFinished(10, r)
	}
	if err := w.Err(); !errors.Is(err, errFull) {
		t.Fatalf("Err: %v, want %v", err, errFull)
	}
	if err := w.Flush(); !errors.Is(err, errFull) {
		t.Fatalf("Flush: %v, want %v", err, errFull)
	}
}

var errFull = errors.New("disk full")

// failBig fails every write of more than n bytes: the writer's first
// write of its full buffer (csvWriteSize) fails.
type failBig struct{ n int }

func (f failBig) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errFull
	}
	return len(p), nil
}

// Batches in flight are written in order even when the first one's writes
// stall: the goroutines of the later batches wait for it (run with -race:
// two formatters sharing the writer at once would also be a data race).
func TestJobsCSVBatchesInFlightStayInOrder(t *testing.T) {
	gw := &gatedWriter{gate: make(chan struct{})}
	w := NewJobsCSV(gw)
	var want bytes.Buffer
	w1 := NewJobsCSV(&want)
	j := actual.Job{}
	r := engine.Record{Job: &j}
	for i := range csvInFlight * csvBatchRows { // every batch in flight, no wait
		j = actual.Job{ID: job.ID(i + 1), Submit: float64(i), Procs: 1 + i%3}
		r.Start, r.End = float64(i+i%7), float64(2*i+i%5)
		w.JobFinished(r.End, &r)
		w1.JobFinished(r.End, &r)
	}
	close(gw.gate) // the first batch's first write (csvWriteSize) was held until now
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w1.Flush(); err != nil {
		t.Fatal(err)
	}
	if gw.buf.String() != want.String() {
		t.Fatal("rows of batches in flight came out of order")
	}
}

// gatedWriter holds every write until gate is closed.
type gatedWriter struct {
	gate chan struct{}
	mu   sync.Mutex
	buf  bytes.Buffer
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	<-g.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf.Write(p)
}

// Stop returns only once every batch in flight is written, and nothing
// writes after it: a failed run closes and removes the file right after.
func TestJobsCSVStopWaitsForBatchesInFlight(t *testing.T) {
	gw := &gatedWriter{gate: make(chan struct{})}
	w := NewJobsCSV(gw)
	r := rec(1, 0, 0, 10, 1, 10, job.Completed, job.Immediate)
	for range csvInFlight * csvBatchRows {
		w.JobFinished(10, r)
	}
	stopped := make(chan struct{})
	go func() {
		w.Stop()
		close(stopped)
	}()
	select {
	case <-stopped:
		t.Fatal("Stop returned while the batches' writes were held")
	case <-time.After(50 * time.Millisecond):
	}
	close(gw.gate)
	<-stopped
	gw.mu.Lock()
	n := gw.buf.Len()
	gw.mu.Unlock()
	if n == 0 {
		t.Fatal("nothing written before Stop returned")
	}
	time.Sleep(20 * time.Millisecond)
	gw.mu.Lock()
	defer gw.mu.Unlock()
	if gw.buf.Len() != n {
		t.Fatalf("%d bytes written after Stop returned", gw.buf.Len()-n)
	}
}

// shortWriter takes half of every write and reports no error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

// closedWriter fails every write, even an empty one.
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

// A write that takes fewer bytes without an error is io.ErrShortWrite
// (as a bufio.Writer reported it), and a Flush with nothing left to
// write does not write: a second Flush after the writer is gone is
// still fine.
func TestJobsCSVShortWriteAndSecondFlush(t *testing.T) {
	j := NewJobsCSV(shortWriter{})
	if err := j.Flush(); !errors.Is(err, io.ErrShortWrite) {
		t.Errorf("short write: Flush = %v, want io.ErrShortWrite", err)
	}
	var buf bytes.Buffer
	j = NewJobsCSV(&buf)
	if err := j.Flush(); err != nil {
		t.Fatal(err)
	}
	j.w = closedWriter{} // as if the file were closed after the first Flush
	if err := j.Flush(); err != nil {
		t.Errorf("second Flush with nothing to write = %v, want nil", err)
	}
	if buf.String() != JobsHeader {
		t.Errorf("wrote %q, want the header alone", buf.String())
	}
}
