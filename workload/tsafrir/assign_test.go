package tsafrir

import (
	"math"
	"strings"
	"testing"
)

func logUniform(n int, max float64, seed uint64) []float64 {
	r := stream(seed)
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Exp(r.Float64() * math.Log(max))
	}
	return out
}

func TestAssignReproducesTheHistogram(t *testing.T) {
	// The batch form gives the n jobs exactly the histogram's counts
	// (largest remainder: each within one job of p x n), so the shares
	// the paper publishes hold to 1/n: 89% on the 20 head values, 21.73%
	// on the maximum. n = 50,000 log-uniform runtimes on [1 s, 18 h].
	p := Default()
	p.Jobs = 50_000
	m := mustNew(t, p, 21)
	const n = 50_000
	rts := logUniform(n, m.Max(), 22)
	req, err := m.Assign(rts, stream(23))
	if err != nil {
		t.Fatal(err)
	}
	count := map[float64]int{}
	for i, q := range req {
		if q < rts[i] {
			t.Fatalf("job %d: request %g below runtime %g", i, q, rts[i])
		}
		count[q]++
	}
	head, atMax := 0, 0
	for _, v := range m.Values() {
		c := count[v.Seconds]
		if math.Abs(float64(c)-v.Prob*n) >= 1 {
			t.Errorf("value %g: %d jobs, want %g to within one", v.Seconds, c, v.Prob*n)
		}
		if v.Head {
			head += c
		}
		delete(count, v.Seconds)
		if v.Seconds == m.Max() {
			atMax = c
		}
	}
	if len(count) != 0 {
		t.Errorf("requests outside the histogram: %v", count)
	}
	if math.Abs(float64(head)/n-0.89) > 20.0/n || math.Abs(float64(atMax)/n-0.21732888) > 1.0/n {
		t.Errorf("head share %g (want 0.89), maximum %g (want 0.2173)", float64(head)/n, float64(atMax)/n)
	}
	acc := 0.0
	for i := range req {
		acc += rts[i] / req[i]
	}
	t.Logf("batch: mean accuracy %.4f", acc/n)
}

func TestAssignHandWorked(t *testing.T) {
	// The 21-value model (TestHandWorkedProbabilities) and 100 jobs. The
	// 10 jobs over 18 h get their runtime to the minute and take no
	// share; the one job of 64,790 s fits only 18 h; the 11 jobs of
	// 64,000 s fit 17:59:30 or 18 h.
	p := Default()
	p.Values = 21
	m := mustNew(t, p, 1)
	rts := make([]float64, 100)
	for i := range rts {
		switch {
		case i == 0:
			rts[i] = 64790
		case i <= 11:
			rts[i] = 64000
		case i <= 21:
			rts[i] = 70000 + float64(i)
		default:
			rts[i] = float64(i) // short
		}
	}
	req, err := m.Assign(rts, stream(2))
	if err != nil {
		t.Fatal(err)
	}
	if req[0] != 64800 {
		t.Errorf("job 0 (64,790 s): %g, want 18 h", req[0])
	}
	n := map[float64]int{}
	for i, q := range req {
		if i >= 12 && i <= 21 {
			if q != OverMax(rts[i]) {
				t.Errorf("job %d over the maximum: %g, want %g", i, q, OverMax(rts[i]))
			}
			continue
		}
		if q < rts[i] {
			t.Errorf("job %d: %g below %g", i, q, rts[i])
		}
		n[q]++
	}
	// 90 jobs share the histogram: the floors of 90 x the 21 shares sum
	// to 78, and the 12 largest remainders get one more job each; 17:59:30
	// (9.9, remainder .90) is 4th of them, 18 h (19.56, remainder .5596)
	// 12th, just ahead of rank 10's .5586: 20 jobs at 18 h, 10 at
	// 17:59:30.
	if n[64800] != 20 || n[64770] != 10 {
		t.Errorf("18 h %d jobs, 17:59:30 %d jobs", n[64800], n[64770])
	}
}

func TestAssignInfeasible(t *testing.T) {
	// Half the jobs at 17 h 59 min 50 s: only 18 h (21.7%) serves them.
	m := mustNew(t, Default(), 1)
	rts := make([]float64, 1000)
	for i := range rts {
		rts[i] = 100
		if i%2 == 0 {
			rts[i] = 64790
		}
	}
	_, err := m.Assign(rts, stream(1))
	if err == nil || !strings.Contains(err.Error(), "MaxEstimate") {
		t.Errorf("want an error naming MaxEstimate, got %v", err)
	}
	// MaxPercent 60 makes it feasible.
	p := Default()
	p.MaxPercent = 60
	if _, err := mustNew(t, p, 1).Assign(rts, stream(1)); err != nil {
		t.Errorf("MaxPercent 60: %v", err)
	}
	if _, err := m.Assign(rts, nil); err == nil {
		t.Error("nil stream accepted")
	}
	if out, err := m.Assign(nil, stream(1)); err != nil || len(out) != 0 {
		t.Errorf("empty batch: %v %v", out, err)
	}
}

func TestAssignDeterministic(t *testing.T) {
	m := mustNew(t, Default(), 3)
	rts := logUniform(5000, m.Max(), 4)
	a, err1 := m.Assign(rts, stream(5))
	b, err2 := m.Assign(rts, stream(5))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("job %d: %g vs %g", i, a[i], b[i])
		}
	}
}
