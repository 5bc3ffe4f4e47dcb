package workload

import (
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

func fiveJobs() []actual.Job {
	var js []actual.Job
	for i := range 5 {
		js = append(js, actual.Job{ID: job.ID(i + 1), Submit: float64(10 * i), Procs: 1, Runtime: 5, Request: 5, Estimate: 5})
	}
	return js
}

// First gives the first n jobs then io.EOF, reading no further; a
// source shorter than n is a ShortError saying how many it had.
func TestFirst(t *testing.T) {
	src := FromSlice(fiveJobs())
	p := First(src, 3)
	for want := 1; want <= 3; want++ {
		j, err := p.Next()
		if err != nil || j.ID != job.ID(want) {
			t.Fatalf("job %d: %v %v", want, j.ID, err)
		}
	}
	if _, err := p.Next(); err != io.EOF {
		t.Fatalf("after 3: %v, want io.EOF", err)
	}
	if j, err := src.Next(); err != nil || j.ID != 4 {
		t.Errorf("the source after the prefix: job %d %v, want 4 (nothing read beyond the prefix)", j.ID, err)
	}
	p = First(FromSlice(fiveJobs()), 7)
	n := 0
	var err error
	for ; err == nil; n++ {
		_, err = p.Next()
	}
	var se *ShortError
	if !errors.As(err, &se) || se.Jobs != 5 || se.Want != 7 || n != 6 {
		t.Errorf("short source: %v after %d calls, want a ShortError of 5 jobs out of 7", err, n)
	}
	if se != nil && se.Error() != "5 jobs, fewer than the 7 asked for (workload.jobs)" {
		t.Errorf("message %q", se.Error())
	}
}

// SubmitZero submits every job at 0 and changes nothing else.
func TestSubmitZero(t *testing.T) {
	js := fiveJobs()
	z := SubmitZero(FromSlice(fiveJobs()))
	for i := range js {
		j, err := z.Next()
		want := js[i]
		want.Submit = 0
		if err != nil || !reflect.DeepEqual(j, want) {
			t.Fatalf("job %d: %+v %v, want %+v", i+1, j, err, want)
		}
	}
	if _, err := z.Next(); err != io.EOF {
		t.Errorf("after the last: %v", err)
	}
}
