package validate

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// Four CPUs; CPUs 0-1 down over [10, 20), all reserved over [30, 40).
func TestUnavailable(t *testing.T) {
	spans := []Span{{"down", 10, 20, []Interval{{0, 1}}}, {"reserved", 30, 40, []Interval{{0, 3}}}}
	in := []Input{{ID: 1, Submit: 0, Runtime: 10, Procs: 2}, {ID: 2, Submit: 0, Runtime: 15, Procs: 2}, {ID: 3, Submit: 0, Runtime: 5, Procs: 2}}
	opt := Options{Procs: 4, Unavailable: spans}
	ok := []Rec{
		{ID: 1, Submit: 0, Start: 0, Finish: 10, Procs: 2, State: StateCompleted, CPUs: []Interval{{0, 1}}}, // ends as the failure begins
		{ID: 2, Submit: 0, Start: 5, Finish: 20, Procs: 2, State: StateCompleted, CPUs: []Interval{{2, 3}}},
		{ID: 3, Submit: 0, Start: 40, Finish: 45, Procs: 2, State: StateCompleted, CPUs: []Interval{{0, 1}}},
	}
	if err := Check(in, ok, opt); err != nil {
		t.Fatalf("valid schedule: %v", err)
	}
	bad := []Rec{
		{ID: 1, Submit: 0, Start: 5, Finish: 15, Procs: 2, State: StateCompleted, CPUs: []Interval{{0, 1}}},
		{ID: 2, Submit: 0, Start: 20, Finish: 35, Procs: 2, State: StateCompleted, CPUs: []Interval{{2, 3}}},
		{ID: 3, Submit: 0, Start: 0, Finish: 3, Procs: 2, State: StateKilled, CPUs: []Interval{{2, 3}}},
	}
	err := Check(in, bad, opt)
	want := []string{
		"job 1: holds CPU 0 over [10, 15), inside the down span [10, 20) of CPUs 0-1",
		"job 2: holds CPU 2 over [30, 35), inside the reserved span [30, 40) of CPUs 0-3",
		"job 3: final state COMPLETED_KILLED at 3, but no unavailable span begins then",
	}
	for _, w := range want {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v, want %q", err, w)
		}
	}
	// A job killed where the failure begins on its CPUs is valid.
	killed := []Rec{ok[0], ok[2], {ID: 2, Submit: 0, Start: 5, Finish: 10, Procs: 2, State: StateKilled, CPUs: []Interval{{1, 2}}}}
	killed[0] = Rec{ID: 1, Submit: 0, Start: 0, Finish: 10, Procs: 2, State: StateCompleted, CPUs: []Interval{{0, 0}, {3, 3}}}
	if err := Check(in, killed, opt); err != nil {
		t.Errorf("killed at a failure: %v", err)
	}
	// Without spans a killed job is an error as before.
	if err := Check(in, killed, Options{Procs: 4}); err == nil || !strings.Contains(err.Error(), `final state "COMPLETED_KILLED"`) {
		t.Errorf("killed without spans: %v", err)
	}
}

// The last job of a run killed by a failure ends the run: the failure
// is written up to the run's last instant, a span of length 0 beginning
// at the kill, which is where the killed job must have ended.
func TestKilledAtZeroLengthSpan(t *testing.T) {
	in := []Input{{ID: 1, Submit: 0, Runtime: 100, Procs: 2}}
	rec := []Rec{{ID: 1, Submit: 0, Start: 0, Finish: 20, Procs: 2, State: StateKilled, CPUs: []Interval{{0, 1}}}}
	opt := Options{Procs: 4, Unavailable: []Span{{"down", 20, 20, []Interval{{0, 1}}}}}
	if err := Check(in, rec, opt); err != nil {
		t.Errorf("killed where a span of length 0 begins: %v", err)
	}
	opt.Unavailable[0].CPUs = []Interval{{2, 3}}
	if err := Check(in, rec, opt); err == nil || !strings.Contains(err.Error(), "no unavailable span begins then") {
		t.Errorf("killed where a span of length 0 begins on other CPUs: %v", err)
	}
}

func TestReadUnavailabilityCSV(t *testing.T) {
	got, err := ReadUnavailabilityCSV(strings.NewReader("kind,resources,start,end\nreserved,0-9,10,20\ndown,3 5,1.5,2\n"), "u.csv")
	if err != nil || len(got) != 2 || got[1].Kind != "down" || FormatResources(got[1].CPUs) != "3 5" || got[1].Start != 1.5 {
		t.Fatalf("got %+v, %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"kind,resources,start\n", "u.csv:1: missing column end"},
		{"kind,resources,start,end\nbroken,0,1,2\n", "u.csv:2: column kind"},
		{"kind,resources,start,end\ndown,0,x,2\n", "u.csv:2: column start: invalid number"},
		{"kind,resources,start,end\ndown,0,3,2\n", "u.csv:2: column end"},
		{"kind,resources,start,end\ndown,2-1,1,2\n", "u.csv:2: column resources"},
	} {
		if _, err := ReadUnavailabilityCSV(strings.NewReader(tc.in), "u.csv"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// rowsReader is an unavailability.csv of n rows, made as it is read.
type rowsReader struct {
	n, i int
	buf  []byte
}

func (r *rowsReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		switch {
		case r.i == 0:
			r.buf = []byte("kind,resources,start,end\n")
		case r.i > r.n:
			return 0, io.EOF
		default:
			r.buf = fmt.Appendf(r.buf, "down,0-1,%d,%d\n", 2*r.i, 2*r.i+1)
		}
		r.i++
	}
	k := copy(p, r.buf)
	r.buf = r.buf[k:]
	return k, nil
}

// The reader holds every span: it stops, naming the line and the bound,
// beyond MaxSpans rows (schedlab writes at most engine.MaxSpans), where
// it read a file of any size into memory (26.7 M rows ran out of it).
func TestReadUnavailabilityCSVBound(t *testing.T) {
	_, err := ReadUnavailabilityCSV(&rowsReader{n: MaxSpans + 1}, "u.csv")
	want := fmt.Sprintf("u.csv:%d: more than %d spans (validate.MaxSpans)", MaxSpans+2, MaxSpans)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	got, err := ReadUnavailabilityCSVLimit(&rowsReader{n: 3}, "u.csv", 3, "three")
	if err != nil || len(got) != 3 || got[2].Start != 6 {
		t.Fatalf("3 rows, limit 3: %d spans, %v", len(got), err)
	}
	if _, err := ReadUnavailabilityCSVLimit(&rowsReader{n: 4}, "u.csv", 3, "three"); err == nil || !strings.Contains(err.Error(), "u.csv:5: more than 3 spans (three)") {
		t.Fatalf("4 rows, limit 3: %v", err)
	}
}
