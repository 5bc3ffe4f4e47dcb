package freeprofile

import (
	"fmt"
	"testing"
)

// check verifies the block form's own bookkeeping: every block non-empty
// and at most blockMax long, keys the blocks' first times, times strictly
// increasing across blocks, the stored least and most counts, the size
// and the first time.
func (bl *blocks) check() error {
	n, last := 0, 0.0
	for k := range bl.bs {
		b := &bl.bs[k]
		if len(b.segs) == 0 || len(b.segs) > blockMax {
			return fmt.Errorf("block %d holds %d breakpoints", k, len(b.segs))
		}
		if bl.keys[k] != b.segs[0].t {
			return fmt.Errorf("block %d: key %v, first time %v", k, bl.keys[k], b.segs[0].t)
		}
		mn, mx := b.segs[0].free, b.segs[0].free
		for i, g := range b.segs {
			if (k > 0 || i > 0) && !(g.t > last) {
				return fmt.Errorf("block %d: time %v after %v", k, g.t, last)
			}
			last = g.t
			mn, mx = min(mn, g.free), max(mx, g.free)
		}
		if b.mn != mn+b.lazy || b.mx != mx+b.lazy {
			return fmt.Errorf("block %d: least/most %d/%d, want %d/%d", k, b.mn, b.mx, mn+b.lazy, mx+b.lazy)
		}
		n += len(b.segs)
	}
	if len(bl.keys) != len(bl.bs) || n != bl.size || bl.first != bl.keys[0] {
		return fmt.Errorf("%d keys, %d blocks, size %d of %d, first %v of %v", len(bl.keys), len(bl.bs), bl.size, n, bl.first, bl.keys[0])
	}
	return nil
}

// A sliding profile in the block form (time advances, reservations keep
// being added at the far end): blocks dropped at the front give their
// arrays to the blocks split at the back, so it does not allocate.
func TestSlidingBlocksDoNotAllocate(t *testing.T) {
	withForms(t, 0, 0)
	p := New(64, 0)
	// A job of 2,000 s from now: about 2,000 breakpoints, some blocks.
	cycle := slider(p, 2000)
	for i := 0; i < 10000; i++ {
		cycle()
	}
	if p.bl == nil || len(p.bl.bs) < 4 {
		t.Fatalf("not several blocks: %d breakpoints", p.Len())
	}
	if err := p.bl.check(); err != nil {
		t.Fatal(err)
	}
	noAllocs(t, cycle)
}

// locateFrom, searching onwards from a block at or before t, finds what
// locate finds from the start, for every such block and for times on
// breakpoints, between them, before the first and after the last.
func TestLocateFromAsLocate(t *testing.T) {
	withForms(t, 0, 0)
	p := New(64, 0)
	for i := range 700 { // about 1,400 breakpoints: some 40 blocks
		s := float64(i * 3 % 2000)
		p.Alloc(s, s+float64(1+i%50), 1+i%7)
	}
	bl := p.bl
	if bl == nil || len(bl.bs) < 20 {
		t.Fatalf("not many blocks: %d breakpoints", p.Len())
	}
	checked := 0
	for _, g := range bl.appendSegs(nil) {
		for _, x := range []float64{g.t, g.t + 0.5, g.t - 0.5, 1e9} {
			wk, wi := bl.locate(x)
			for k := range bl.bs {
				if bl.keys[k] > x {
					break
				}
				if gk, gi := bl.locateFrom(k, x); gk != wk || gi != wi {
					t.Fatalf("locateFrom(%d, %v) = (%d, %d), locate = (%d, %d)", k, x, gk, gi, wk, wi)
				}
				checked++
			}
		}
	}
	t.Logf("%d searches", checked)
}
