package freeprofile

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naive is an obviously-correct model of a profile: a list of allocations.
type naiveAlloc struct {
	s, e  float64
	procs int
}

func naiveFree(total int, as []naiveAlloc, t float64) int {
	f := total
	for _, a := range as {
		if a.s <= t && t < a.e {
			f -= a.procs
		}
	}
	return f
}

// naiveEarliest tries every candidate start: from, and every allocation end
// after from; a span fits if free >= procs at its start and at every
// allocation start inside it.
func naiveEarliest(total int, as []naiveAlloc, from float64, procs int, d float64) float64 {
	cands := []float64{from}
	for _, a := range as {
		if a.e > from {
			cands = append(cands, a.e)
		}
		if a.s > from {
			cands = append(cands, a.s)
		}
	}
	best := math.Inf(1)
	for _, s := range cands {
		e := Span(s, d)
		ok := naiveFree(total, as, s) >= procs
		for _, a := range as {
			if a.s > s && a.s < e && naiveFree(total, as, a.s) < procs {
				ok = false
			}
		}
		if ok && s < best {
			best = s
		}
	}
	return best
}

func TestSpanZeroLength(t *testing.T) {
	if e := Span(5, 0); !(e > 5) || e != math.Nextafter(5, 6) {
		t.Fatalf("Span(5,0) = %v, want next float after 5", e)
	}
	if e := Span(5, 3); e != 8 {
		t.Fatalf("Span(5,3) = %v, want 8", e)
	}
}

// A hand-worked profile: 10 processors; a job of 6 on [0,10), a job of 3 on
// [5,20). Free: [0,5):4, [5,10):1, [10,20):7, [20,inf):10.
func TestHandWorked(t *testing.T) {
	p := New(10, 0)
	p.Alloc(0, 10, 6)
	p.Alloc(5, 20, 3)
	if got, want := p.String(), "0:4 5:1 10:7 20:10"; got != want {
		t.Fatalf("profile %q, want %q", got, want)
	}
	cases := []struct {
		procs int
		d     float64
		want  float64
	}{
		{4, 5, 0},   // fits exactly in [0,5)
		{4, 6, 10},  // would cross [5,10) with 1 free
		{1, 100, 0}, // 1 is free everywhere
		{7, 1, 10},  // first 7 free at 10
		{8, 1, 20},  // only after 20
		{10, 0, 20}, // a zero-length job still needs its processors at its start
		{11, 1, math.Inf(1)},
	}
	for _, c := range cases {
		if got := p.Earliest(0, c.procs, c.d); got != c.want {
			t.Errorf("Earliest(procs %d, d %g) = %v, want %v", c.procs, c.d, got, c.want)
		}
	}
	// Re-placing the 3-processor job of [5,20) (d = 15): lifted, 4 procs
	// would be free on [0,5) and 1+3 on [5,10), so it could start at 0 if
	// it needed only the room before its own start: Replace answers 0.
	if got := p.Replace(0, 3, 15, 5); got != 0 {
		t.Errorf("Replace = %v, want 0", got)
	}
	p.Release(5, 20, 3)
	p.Release(0, 10, 6)
	if got, want := p.String(), "0:10"; got != want {
		t.Fatalf("after releasing everything: %q, want %q (breakpoints merged)", got, want)
	}
}

func TestAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		total := 1 + r.IntN(12)
		p := New(total, 0)
		var as []naiveAlloc
		for k := r.IntN(12); k > 0; k-- {
			s := float64(r.IntN(30))
			d := float64(r.IntN(15))
			procs := 1 + r.IntN(total)
			e := Span(s, d)
			// keep it feasible like a real schedule would be
			if naiveEarliest(total, as, s, procs, d) != s {
				continue
			}
			as = append(as, naiveAlloc{s, e, procs})
			p.Alloc(s, e, procs)
		}
		now := float64(r.IntN(10))
		p.Advance(now)
		for t2 := now; t2 < 50; t2 += 0.5 {
			if got, want := p.FreeAt(t2), naiveFree(total, as, t2); got != want {
				t.Fatalf("trial %d: FreeAt(%v) = %d, want %d; profile %s", trial, t2, got, want, p)
			}
		}
		for q := 0; q < 10; q++ {
			procs := 1 + r.IntN(total+1)
			d := float64(r.IntN(12))
			got, want := p.Earliest(now, procs, d), naiveEarliest(total, as, now, procs, d)
			if got != want {
				t.Fatalf("trial %d: Earliest(%v, %d, %v) = %v, want %v; profile %s", trial, now, procs, d, got, want, p)
			}
			if fits := p.Fits(now, procs, d); fits != (want == now) {
				t.Fatalf("trial %d: Fits(%v,%d,%v) = %v, earliest %v", trial, now, procs, d, fits, want)
			}
		}
		// Replace on a real allocation that starts in the future equals
		// the earliest start with that allocation lifted
		for k, a := range as {
			if a.s < now {
				continue
			}
			rest := append(append([]naiveAlloc(nil), as[:k]...), as[k+1:]...)
			d := a.e - a.s
			if a.e == math.Nextafter(a.s, math.Inf(1)) {
				d = 0
			}
			want := naiveEarliest(total, rest, now, a.procs, d)
			if got := p.Replace(now, a.procs, d, a.s); got != want {
				t.Fatalf("trial %d: Replace(alloc %v) = %v, want %v; profile %s", trial, a, got, want, p)
			}
		}
	}
}

func BenchmarkEarliest(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	p := New(240, 0)
	for k := 0; k < 500; k++ {
		procs := 1 + r.IntN(32)
		d := float64(1 + r.IntN(10000))
		s := p.Earliest(0, procs, d)
		p.Alloc(s, s+d, procs)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Earliest(0, 1+i%64, float64(100+i%5000))
	}
}

func BenchmarkAllocRelease(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	p := New(240, 0)
	for k := 0; k < 500; k++ {
		procs := 1 + r.IntN(32)
		d := float64(1 + r.IntN(10000))
		s := p.Earliest(0, procs, d)
		p.Alloc(s, s+d, procs)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := float64(i % 7919)
		p.Alloc(s, s+100, 1)
		p.Release(s, s+100, 1)
	}
}
