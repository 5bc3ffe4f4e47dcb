package backfill

import (
	"testing"
)

// Hand-worked: a failure at (4 CPUs, 10 s) covers (4, 10), (5, 10) and
// (4, 11), not (3, 10) or (4, 9); a stronger failure (2, 5) replaces it;
// a full memo drops its oldest entry; reset forgets all.
func TestFitMemoHandWorked(t *testing.T) {
	var f fitMemo
	f.add(4, 10)
	for _, c := range []struct {
		p    int
		d    float64
		want bool
	}{{4, 10, true}, {5, 10, true}, {4, 11, true}, {3, 10, false}, {4, 9, false}} {
		if got := f.fails(c.p, c.d); got != c.want {
			t.Fatalf("after (4, 10): fails(%d, %g) = %v", c.p, c.d, got)
		}
	}
	f.add(2, 5)
	if f.n != 1 || !f.fails(3, 6) {
		t.Fatalf("(2, 5) should replace (4, 10): n=%d", f.n)
	}
	for i := range fitMemoSize {
		f.add(100+i, float64(1000-i)) // incomparable pairs
	}
	if f.n != fitMemoSize || f.fails(2, 5) || !f.fails(100+fitMemoSize-1, 1000) {
		t.Fatalf("full memo: n=%d, oldest kept %v", f.n, f.fails(2, 5))
	}
	f.reset()
	if f.fails(1000, 1e9) {
		t.Fatal("reset memo still answers")
	}
}
