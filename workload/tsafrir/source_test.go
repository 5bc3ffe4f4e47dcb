package tsafrir

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

func jobs() []actual.Job {
	var js []actual.Job
	for i := range 500 {
		req := -1.0
		if i%3 == 0 {
			req = 7200 // a trace request
		}
		js = append(js, actual.Job{ID: job.ID(i), Submit: float64(i), Procs: 1, Runtime: float64(i * 131 % 70000), Request: req, Estimate: 1})
	}
	return js
}

// slice is a plain source (Next only).
type slice struct{ s intoSlice }

func fromSlice(js []actual.Job) *slice { return &slice{intoSlice{js: js}} }

func (s *slice) Next() (actual.Job, error) { return s.s.Next() }

// intoSlice is a source that also reads in place.
type intoSlice struct {
	js []actual.Job
	i  int
}

func (s *intoSlice) Next() (actual.Job, error) {
	var j actual.Job
	err := s.NextInto(&j)
	return j, err
}

func (s *intoSlice) NextInto(j *actual.Job) error {
	if s.i >= len(s.js) {
		return io.EOF
	}
	*j = s.js[s.i]
	s.i++
	return nil
}

func drain(t *testing.T, src Source) []actual.Job {
	t.Helper()
	var out []actual.Job
	for {
		j, err := src.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, j)
	}
}

func TestWithRequests(t *testing.T) {
	m := mustNew(t, Default(), 1)
	in := jobs()
	for _, only := range []bool{false, true} {
		got := drain(t, WithRequests(fromSlice(jobs()), m, stream(2), only))
		// The k-th job's request is the k-th draw's.
		u := stream(2)
		for k, j := range got {
			d := u.Float64()
			want := m.request(in[k].Runtime, d)
			if only && in[k].Request > 0 {
				want = in[k].Request
			}
			if j.Request != want || j.Estimate != j.Request {
				t.Fatalf("only %v, job %d: request %g estimate %g, want %g", only, k, j.Request, j.Estimate, want)
			}
			if !(only && in[k].Request > 0) && j.Request < j.Runtime {
				t.Fatalf("job %d: request %g below runtime %g", k, j.Request, j.Runtime)
			}
			if j.ID != in[k].ID || j.Runtime != in[k].Runtime || j.Submit != in[k].Submit {
				t.Fatalf("job %d changed beyond its request: %+v", k, j)
			}
		}
		if len(got) != len(in) {
			t.Fatalf("%d jobs out of %d", len(got), len(in))
		}
	}
}

func TestWithRequestsInPlace(t *testing.T) {
	// NextInto (as Prefetch reads) gives the same jobs as Next.
	m := mustNew(t, Default(), 1)
	want := drain(t, WithRequests(fromSlice(jobs()), m, stream(2), false))
	src := WithRequests(&intoSlice{js: jobs()}, m, stream(2), false)
	in, ok := src.(interface{ NextInto(*actual.Job) error })
	if !ok {
		t.Fatal("no NextInto")
	}
	for k := 0; ; k++ {
		var j actual.Job
		err := in.NextInto(&j)
		if errors.Is(err, io.EOF) {
			if k != len(want) {
				t.Fatalf("%d jobs, want %d", k, len(want))
			}
			break
		}
		if err != nil || j.Request != want[k].Request || j.Estimate != want[k].Estimate {
			t.Fatalf("job %d: %+v %v, want %+v", k, j, err, want[k])
		}
	}
}

func TestWithRequestsNil(t *testing.T) {
	m := mustNew(t, Default(), 1)
	for name, src := range map[string]Source{
		"src": WithRequests(nil, m, stream(1), false),
		" m":  WithRequests(fromSlice(jobs()), nil, stream(1), false),
		" r":  WithRequests(fromSlice(jobs()), m, nil, false),
	} {
		if _, err := src.Next(); err == nil || !strings.Contains(err.Error(), "nil") || !strings.Contains(err.Error(), name) {
			t.Errorf("nil %s: %v", name, err)
		}
	}
}
