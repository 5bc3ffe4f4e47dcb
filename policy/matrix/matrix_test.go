package matrix

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The paper's Figs 1-3: jobs of 5, 3, 6, 2, 1, 4, 2, 3 threads.
// n0 = t(J1) = 5: the 5 x 5 matrix J1..J5 holds J3 with 6 > 5, so n = 6 and
// the window is J1..J6; t(J6) = 4 <= 6: stable. The next window starts at
// J7: n0 = 2, J7..J8 holds J8 with 3 > 2, so n = 3, and only two jobs are
// left: the window is J7..J8 with n = 3.
func TestSizeFigures(t *testing.T) {
	ks := []int{5, 3, 6, 2, 1, 4, 2, 3}
	if w, n := Size(ks); w != 6 || n != 6 {
		t.Fatalf("first window: %d jobs, n = %d; want 6 jobs, n = 6", w, n)
	}
	if w, n := Size(ks[6:]); w != 2 || n != 3 {
		t.Fatalf("second window: %d jobs, n = %d; want 2 jobs, n = 3", w, n)
	}
	// n = 1 takes one job: FCFS.
	if w, n := Size([]int{1, 8, 8}); w != 1 || n != 1 {
		t.Fatalf("n = 1: %d jobs, n = %d; want 1, 1", w, n)
	}
	if w, _ := Size(nil); w != 0 {
		t.Fatalf("no jobs: window of %d", w)
	}
}

// Fig. 3, the thread queue of the first window, read from its right end:
// J1p1 J2p1 J3p1 J4p1 J5p1 J6p1 | J1p2 J2p2 J3p2 J4p2 J6p2 | J1p3 J2p3 J3p3
// J6p3 | J1p4 ... (the figure is cut after J1p4; the rest follows the same
// rule: J3p4 J6p4 | J1p5 J3p5 | J3p6). Threads are 1-based in the paper,
// 0-based here.
func TestRowOrderFigure3(t *testing.T) {
	got := RowOrder([]int{5, 3, 6, 2, 1, 4})
	type jp struct{ j, p int } // the paper's J<j>p<p>
	want := []jp{{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1},
		{1, 2}, {2, 2}, {3, 2}, {4, 2}, {6, 2},
		{1, 3}, {2, 3}, {3, 3}, {6, 3},
		{1, 4}, {3, 4}, {6, 4},
		{1, 5}, {3, 5},
		{3, 6}}
	if len(got) != len(want) {
		t.Fatalf("%d threads, want %d: %v", len(got), len(want), got)
	}
	for i, s := range got {
		if s.Job+1 != want[i].j || s.Thread+1 != want[i].p {
			t.Fatalf("position %d: J%dp%d, want J%dp%d (whole queue %v)", i, s.Job+1, s.Thread+1, want[i].j, want[i].p, got)
		}
	}
}

// The growing rule's fixed point does not depend on which violating job
// is taken: growing to the first violator (the paper's wording, one
// reading) and to the largest (Size) agree on random counts.
func TestSizeUnique(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ks := make([]int, 1+r.IntN(30))
		for i := range ks {
			ks[i] = 1 + r.IntN(12)
		}
		n := ks[0]
		for {
			grew := false
			for p := 0; p < min(n, len(ks)); p++ {
				if ks[p] > n {
					n, grew = ks[p], true
					break
				}
			}
			if !grew {
				break
			}
		}
		w, gotN := Size(ks)
		if w != min(n, len(ks)) || gotN != n {
			t.Fatalf("%v: Size = %d jobs, n = %d; first-violator rule: %d jobs, n = %d", ks, w, gotN, min(n, len(ks)), n)
		}
		// The window is closed: no job in it is larger than n, and the
		// row order lists each thread once.
		if slices.Max(ks[:w]) > gotN {
			t.Fatalf("%v: window has a job larger than n = %d", ks, gotN)
		}
		total := 0
		for _, k := range ks[:w] {
			total += k
		}
		if got := len(RowOrder(ks[:w])); got != total {
			t.Fatalf("%v: row order has %d threads, want %d", ks, got, total)
		}
	}
}

func TestParseWindow(t *testing.T) {
	for s, want := range map[string]Options{"": {Rule: Lazy}, "lazy": {Rule: Lazy}, "eager": {Rule: Eager}, "fixed:3": {Rule: Fixed, N: 3}} {
		got, err := ParseWindow(s)
		if err != nil || got.Rule != want.Rule || got.N != want.N {
			t.Errorf("ParseWindow(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	for _, s := range []string{"fixed:0", "fixed:-1", "fixed:x", "fixed:", "fixed:2000000", "greedy", "LAZY"} {
		if _, err := ParseWindow(s); err == nil {
			t.Errorf("ParseWindow(%q): no error", s)
		}
	}
	if _, err := New(Options{Rule: Fixed}); err == nil {
		t.Error("New(fixed, N=0): no error")
	}
}
