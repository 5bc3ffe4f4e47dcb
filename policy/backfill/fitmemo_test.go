package backfill

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
)

func runMemo(t *testing.T, jobs []actual.Job, procs, depth int, order Order, cont, off bool) (*starts, *Backfill) {
	t.Helper()
	pol := NewBackfill("test", procs, depth, order)
	pol.noFitMemo = off
	return runOn(t, pol, jobs, procs, cont), pol
}

// The memo of requests that did not fit gives the same starts, start
// reasons and CPUs as asking the profile every time, in FCFS and SJF
// order, at depths 1, 2, 5 and unlimited, with jobs ending early, on time
// and past their estimates (reservations lifted and re-placed), ids in
// and out of order; and it is really used.
func TestFitMemoSameSchedule(t *testing.T) {
	var hits int64
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 4242))
		overrun := seed%2 == 0
		jobs, procs := arrivalHeavy(r, overrun)
		for _, order := range []Order{OrderFCFS, OrderSJF} {
			for _, d := range []int{1, 2, 5, Unlimited} {
				plain, _ := runMemo(t, jobs, procs, d, order, overrun, true)
				memo, pol := runMemo(t, jobs, procs, d, order, overrun, false)
				hits += pol.fails.hits
				if len(plain.log) != len(memo.log) {
					t.Fatalf("seed %d %s depth %d: %d starts with the memo, %d without", seed, order, d, len(memo.log), len(plain.log))
				}
				for i := range plain.log {
					if plain.log[i] != memo.log[i] {
						t.Fatalf("seed %d %s depth %d overrun %v: start %d is %s with the memo, %s without", seed, order, d, overrun, i, memo.log[i], plain.log[i])
					}
				}
			}
		}
	}
	if hits < 10000 {
		t.Fatalf("the memo answered only %d times over all runs: not exercised", hits)
	}
	t.Logf("profile walks saved: %d", hits)
}

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
