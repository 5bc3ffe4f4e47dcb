package freeprofile

import "testing"

// A profile that slides forward (time advances, reservations keep being
// added at the far end) reuses its array: advance drops segments from
// the front, and growth moves the live ones back to the front instead of
// allocating. Before, the slice form reallocated every few hundred
// changes, for ever.
func TestSlidingProfileDoesNotAllocate(t *testing.T) {
	p := New(64, 0)
	// A job of 100 s from now: the profile holds about 100 breakpoints.
	cycle := slider(p, 100)
	for i := 0; i < 1000; i++ { // reach the steady state
		cycle()
	}
	if p.Len() < 50 || p.Len() > blocksAbove {
		t.Fatalf("%d breakpoints: not the slice's steady state this test is about", p.Len())
	}
	noAllocs(t, cycle)
}

// slider returns one step of a sliding profile: time advances by one
// second and a job of span seconds is allocated from the new now.
func slider(p *Profile, span float64) func() {
	now := p.Start()
	return func() {
		now++
		p.Advance(now)
		p.Alloc(now, now+span, 1+int(now)%7)
	}
}

// noAllocs fails t if 100,000 steps of cycle allocate more than twice.
func noAllocs(t *testing.T, cycle func()) {
	t.Helper()
	if a := testing.AllocsPerRun(1, func() {
		for i := 0; i < 100_000; i++ {
			cycle()
		}
	}); a > 2 {
		t.Errorf("100,000 changes of a sliding profile allocated %.0f times", a)
	}
}
