package workload

import (
	"io"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

type sliceSrc struct{ jobs []actual.Job }

func (s *sliceSrc) Next() (actual.Job, error) {
	if len(s.jobs) == 0 {
		return actual.Job{}, io.EOF
	}
	j := s.jobs[0]
	s.jobs = s.jobs[1:]
	return j, nil
}

func derive(t *testing.T, r DeadlineRule, jobs []actual.Job) []actual.Job {
	t.Helper()
	src, err := WithDeadlines(&sliceSrc{jobs: jobs}, r)
	if err != nil {
		t.Fatal(err)
	}
	var out []actual.Job
	for {
		j, err := src.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, j)
	}
}

// Deadlines by hand with a fixed factor: submit + 3 x the estimate or the
// runtime; a job with a deadline keeps it; a zero-length job gets none.
func TestWithDeadlinesByHand(t *testing.T) {
	jobs := []actual.Job{
		{ID: 1, Submit: 10, Runtime: 5, Estimate: 8},
		{ID: 2, Submit: 20, Runtime: 4, Estimate: 6, Deadline: 25},
		{ID: 3, Submit: 30, Runtime: 0, Estimate: 0},
	}
	for _, c := range []struct {
		base DeadlineBase
		want []float64
	}{
		{DeadlineEstimate, []float64{10 + 3*8, 25, 0}},
		{DeadlineRuntime, []float64{10 + 3*5, 25, 0}},
		{DeadlineNone, []float64{0, 25, 0}},
	} {
		got := derive(t, DeadlineRule{Base: c.base, Min: 3, Max: 3, Fraction: 1}, append([]actual.Job(nil), jobs...))
		for i, j := range got {
			if j.Deadline != c.want[i] {
				t.Errorf("%v: job %d deadline %g, want %g", c.base, j.ID, j.Deadline, c.want[i])
			}
		}
	}
}

// A factor range and a fraction: about the fraction get one, every factor
// lies in the range, the same seed gives the same deadlines and another
// seed other ones. 10,000 jobs at fraction 0.3: the count's SD is
// sqrt(10000 x 0.3 x 0.7) = 46, so 3000 +- 250 (over 5 SD) cannot fail
// by chance.
func TestWithDeadlinesDraws(t *testing.T) {
	mk := func() []actual.Job {
		js := make([]actual.Job, 10000)
		for i := range js {
			js[i] = actual.Job{ID: job.ID(i + 1), Submit: float64(i), Runtime: 100, Estimate: 100}
		}
		return js
	}
	r := DeadlineRule{Base: DeadlineEstimate, Min: 2, Max: 4, Fraction: 0.3, Seed: 7}
	a, b := derive(t, r, mk()), derive(t, r, mk())
	r.Seed = 8
	c := derive(t, r, mk())
	n, same := 0, 0
	for i := range a {
		if a[i].Deadline != b[i].Deadline {
			t.Fatalf("job %d: %g then %g with the same seed", a[i].ID, a[i].Deadline, b[i].Deadline)
		}
		if a[i].Deadline != 0 {
			n++
			if s := (a[i].Deadline - a[i].Submit) / 100; s < 2 || s > 4 {
				t.Errorf("job %d: factor %g outside [2, 4]", a[i].ID, s)
			}
		}
		if a[i].Deadline == c[i].Deadline {
			same++
		}
	}
	if n < 2750 || n > 3250 {
		t.Errorf("%d of 10000 jobs got a deadline at fraction 0.3", n)
	}
	if same > 8000 {
		t.Errorf("seeds 7 and 8 agree on %d jobs", same)
	}
}

func TestDeadlineRuleErrors(t *testing.T) {
	for _, c := range []struct {
		r    DeadlineRule
		want string
	}{
		{DeadlineRule{Base: DeadlineEstimate, Min: 0, Max: 2, Fraction: 1}, "want 0 < min <= max"},
		{DeadlineRule{Base: DeadlineEstimate, Min: 3, Max: 2, Fraction: 1}, "want 0 < min <= max"},
		{DeadlineRule{Base: DeadlineRuntime, Min: 1, Max: 2, Fraction: -0.1}, "deadline fraction -0.1"},
		{DeadlineRule{Base: 9, Min: 1, Max: 2, Fraction: 1}, "unknown deadline rule"},
	} {
		if _, err := WithDeadlines(&sliceSrc{}, c.r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.r, err, c.want)
		}
	}
	for _, s := range []string{"", "x", "0", "-1", "4-2", "2-", "NaN", "2-1e9"} {
		if _, _, err := ParseFactorRange(s); err == nil {
			t.Errorf("ParseFactorRange(%q) accepted", s)
		}
	}
	if lo, hi, err := ParseFactorRange("1.5-2.5"); err != nil || lo != 1.5 || hi != 2.5 {
		t.Errorf("ParseFactorRange(1.5-2.5) = %g, %g, %v", lo, hi, err)
	}
	if _, err := ParseDeadlineBase("slack"); err == nil || !strings.Contains(err.Error(), "none, estimate, runtime") {
		t.Errorf("ParseDeadlineBase(slack): %v", err)
	}
}

// The '-' of an exponent is not the range's.
func TestParseFactorRangeExponent(t *testing.T) {
	for s, want := range map[string][2]float64{"1e-3": {1e-3, 1e-3}, "1E-3-2e-3": {1e-3, 2e-3}, "2-4": {2, 4}, "3": {3, 3}, "1e-3 - 5": {1e-3, 5}} {
		lo, hi, err := ParseFactorRange(s)
		if err != nil || lo != want[0] || hi != want[1] {
			t.Errorf("%q: %g, %g, %v; want %g, %g", s, lo, hi, err, want[0], want[1])
		}
	}
}
