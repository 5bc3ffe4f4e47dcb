package nodes

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Random holds on random platforms: a profile's free amounts of every
// node over random intervals equal the capacity minus the peak found
// by brute force (the sum of the holds covering each instant of the
// interval that starts or ends a hold, and its start), and Select on a
// profile of holds all covering now gives what State.Select gives on
// the state holding the same allocations.
func TestProfileFreeOverBruteForce(t *testing.T) {
	for seed := 0; seed < 200; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		ns := randomPlatform(t, r)
		sel := NewSelector(ns)
		p := NewProfile(sel)
		st := NewState(ns)
		type hold struct {
			a, b float64
			al   Allocation
		}
		var hs []hold
		var ids []HoldID
		for i := 0; i < 12; i++ {
			q := randomRequest(r)
			al, ok := st.Alloc(q) // amounts that fit the platform; the state is reset below
			if !ok {
				continue
			}
			st.Release(al)
			a := float64(r.IntN(20))
			b := a + float64(1+r.IntN(20))
			hs = append(hs, hold{a, b, al})
			ids = append(ids, p.AddAllocation(a, b, al))
		}
		if len(ids) > 2 && r.IntN(2) == 0 { // removal and a move keep the profile right
			p.Remove(ids[0])
			hs = hs[1:]
			p.SetInterval(ids[1], hs[0].a+0.5, hs[0].b+3)
			hs[0].a, hs[0].b = hs[0].a+0.5, hs[0].b+3
		}
		f := NodeFree{Units: make([]int, len(ns.kinds))}
		for q := 0; q < 20; q++ {
			x := float64(r.IntN(25))
			y := x + float64(1+r.IntN(15))
			sum := 0
			for n := 0; n < ns.Len(); n++ {
				p.FreeOver(n, x, y, &f)
				instants := []float64{x}
				for _, h := range hs {
					for _, s := range []float64{h.a, h.b} {
						if s > x && s < y {
							instants = append(instants, s)
						}
					}
				}
				nd := ns.Node(n)
				peakC, peakM, jobs, whole := 0, int64(0), false, false
				peakU := make([]int, len(ns.kinds))
				for _, s := range instants {
					c, m := 0, int64(0)
					u := make([]int, len(ns.kinds))
					for _, h := range hs {
						for _, na := range h.al.Nodes {
							if na.Node != n {
								continue
							}
							if h.a < y && x < h.b {
								jobs = true
								whole = whole || h.al.Exclusive
							}
							if h.a <= s && s < h.b {
								c += len(na.Cores)
								m += na.MemMB
								for _, g := range na.GRES {
									k, _ := slices.BinarySearchFunc(ns.kinds, g.Kind, compareKind)
									u[k] += len(g.Units)
								}
							}
						}
					}
					peakC, peakM = max(peakC, c), max(peakM, m)
					for k := range u {
						peakU[k] = max(peakU[k], u[k])
					}
				}
				if f.Cores != nd.Cores()-peakC || f.MemMB != nd.MemMB-peakM || f.Jobs != jobs || f.Whole != whole {
					t.Fatalf("seed %d node %d over [%g, %g): free %+v, want cores %d mem %d jobs %v whole %v",
						seed, n, x, y, f, nd.Cores()-peakC, nd.MemMB-peakM, jobs, whole)
				}
				for k, kind := range ns.kinds {
					if f.Units[k] != nd.GRESCount(kind)-peakU[k] {
						t.Fatalf("seed %d node %d over [%g, %g): %s free %d, want %d", seed, n, x, y, kind, f.Units[k], nd.GRESCount(kind)-peakU[k])
					}
				}
				sum += f.Cores
			}
			// The sum, asked for growing and shrinking y at one x.
			for _, yy := range []float64{y, x + 30, y, x + 0.5} {
				want := 0
				for n := 0; n < ns.Len(); n++ {
					p.FreeOver(n, x, yy, &f)
					want += f.Cores
				}
				if got := p.SumFreeCores(x, yy); got != want {
					t.Fatalf("seed %d: SumFreeCores(%g, %g) = %d, want %d", seed, x, yy, got, want)
				}
			}
			if got := p.SumFreeCores(x, y); got != sum {
				t.Fatalf("seed %d: SumFreeCores(%g, %g) = %d, want %d", seed, x, y, got, sum)
			}
		}
	}
}

// Holds that all cover now make the profile over [now, y) the state
// now: Select agrees with State.Select on random requests, and a
// request needing more cores than are free in total is refused.
func TestProfileSelectMatchesState(t *testing.T) {
	for seed := 0; seed < 200; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		ns := randomPlatform(t, r)
		st := NewState(ns)
		p := NewProfile(st.Selector())
		for i := 0; i < 6; i++ {
			if al, ok := st.Alloc(randomRequest(r)); ok {
				p.AddAllocation(0, float64(10+r.IntN(10)), al)
			}
		}
		var a, b Selection
		for i := 0; i < 30; i++ {
			q := randomRequest(r)
			pr, err := st.Selector().Prepare(q)
			if err != nil {
				t.Fatal(err)
			}
			okS := st.Select(pr, &a)
			okP := p.Select(5, 8, pr, &b)
			if okS != okP || (okS && !slices.Equal(a.Picks, b.Picks)) || (okS && !slices.Equal(a.units, b.units)) {
				t.Fatalf("seed %d, %s: state %v %+v, profile %v %+v", seed, q, okS, a, okP, b)
			}
		}
	}
}

// Random adds, removals (one by one and all at once) and moves of
// holds: the cores kept at the profile's instants stay those of the
// holds covering them (against coresAt), the open sets are the nodes
// with a core free there, and the rule over Over(x, y), which skips
// the others, selects what it selects on a profile without shortcuts
// given the same holds.
func TestProfileKeptInstantsFollowHolds(t *testing.T) {
	for seed := 0; seed < 150; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 9))
		ns := randomPlatform(t, r)
		st := NewState(ns)
		sel := NewSelector(ns)
		p, q := NewProfile(sel), NewProfile(NewSelector(ns))
		q.DisableShortcuts()
		type pair struct{ a, b HoldID }
		var live []pair
		var s1, s2 Selection
		for step := 0; step < 60; step++ {
			switch k := r.IntN(10); {
			case k < 5 || len(live) == 0:
				al, ok := st.Alloc(randomRequest(r))
				if !ok {
					continue
				}
				st.Release(al)
				a := float64(r.IntN(20))
				b := a + float64(r.IntN(15))
				if r.IntN(4) == 0 {
					b = Span(a, 0)
				}
				live = append(live, pair{p.AddAllocation(a, b, al), q.AddAllocation(a, b, al)})
			case k < 7:
				i := r.IntN(len(live))
				p.Remove(live[i].a)
				q.Remove(live[i].b)
				live = slices.Delete(live, i, i+1)
			case k < 8:
				var xs, ys []HoldID
				for len(live) > 0 && r.IntN(3) != 0 {
					i := r.IntN(len(live))
					xs, ys = append(xs, live[i].a), append(ys, live[i].b)
					live = slices.Delete(live, i, i+1)
				}
				p.RemoveAll(xs)
				q.RemoveAll(ys)
			default:
				i := r.IntN(len(live))
				a := float64(r.IntN(20))
				b := a + float64(1+r.IntN(15))
				p.SetInterval(live[i].a, a, b)
				q.SetInterval(live[i].b, a, b)
			}
			for try := 0; try < 4; try++ {
				x := float64(r.IntN(25))
				if r.IntN(3) == 0 {
					x = p.foc[r.IntN(2)].x // a kept instant again
				}
				y := x + float64(1+r.IntN(10))
				pr, err := sel.Prepare(randomRequest(r))
				if err != nil {
					t.Fatal(err)
				}
				ok1 := sel.Select(p.Over(x, y), pr, &s1)
				ok2 := q.sel.Select(q.Over(x, y), pr, &s2)
				if ok1 != ok2 || (ok1 && (!slices.Equal(s1.Picks, s2.Picks) || !slices.Equal(s1.units, s2.units))) {
					t.Fatalf("seed %d step %d over [%g, %g), %s: %v %+v, without shortcuts %v %+v", seed, step, x, y, pr.R, ok1, s1, ok2, s2)
				}
			}
			for fi := range p.foc {
				f := &p.foc[fi]
				if !f.ok {
					continue
				}
				for n := range ns.Len() {
					use := p.coresAt(int32(n), f.x)
					open := f.open.next(int(sel.pos[n])) == int(sel.pos[n])
					if int(f.use[n]) != use || open != (use < int(sel.cores[n])) {
						t.Fatalf("seed %d step %d: node %d at kept %g: use %d open %v, holds say %d", seed, step, n, f.x, f.use[n], open, use)
					}
				}
			}
		}
	}
}

// Passes of reservations as the policies make them: at one instant,
// requests (many of tasks of one core only) get the first time they
// fit and hold it, jobs start now, a hold goes now and then, and a change
// that is undone runs under Restoring. Earliest, which goes on from
// what it learned of earlier requests of cores only, gives the time
// and selection of a profile without shortcuts.
func TestProfileEarliestLearnsNothingWrong(t *testing.T) {
	for seed := 0; seed < 150; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		ns := randomPlatform(t, r)
		st := NewState(ns)
		sel := NewSelector(ns)
		p, q := NewProfile(sel), NewProfile(NewSelector(ns))
		q.DisableShortcuts()
		now := 0.0
		var s1, s2 Selection
		type pair struct {
			a, b HoldID
			x, y float64
			sel  *Selection // nil: a running job's
		}
		var held []pair
		for i := 0; i < 4; i++ { // running jobs
			if al, ok := st.Alloc(randomRequest(r)); ok {
				b := float64(1 + r.IntN(20))
				held = append(held, pair{a: p.AddAllocation(0, b, al), b: q.AddAllocation(0, b, al)})
			}
		}
		for step := 0; step < 40; step++ {
			req := randomRequest(r)
			if r.IntN(3) != 0 {
				req = FromProcs(1 + r.IntN(max(1, ns.Cores())))
			}
			pr, err := sel.Prepare(req)
			if err != nil {
				t.Fatal(err)
			}
			if !Fits(ns, req) {
				continue
			}
			d := float64(r.IntN(12))
			switch k := r.IntN(10); {
			case k == 0 && len(held) > 0:
				i := r.IntN(len(held))
				p.Remove(held[i].a)
				q.Remove(held[i].b)
				held = slices.Delete(held, i, i+1)
				continue
			case k == 1 && len(held) > 0: // moved or taken out, and put back
				i := r.IntN(len(held))
				h := &held[i]
				p.Restoring(func() bool {
					if h.sel == nil {
						a, b := p.Interval(h.a)
						p.SetInterval(h.a, a, b+1)
						p.SetInterval(h.a, a, b)
						return true
					}
					p.Remove(h.a)
					h.a = p.AddSelection(h.x, h.y, h.sel)
					return true
				})
				continue
			case k == 2:
				now++ // a new pass
			case k == 3: // a start now, if it fits
				ok1 := p.Select(now, Span(now, d), pr, &s1)
				ok2 := q.Select(now, Span(now, d), pr, &s2)
				if ok1 != ok2 {
					t.Fatalf("seed %d step %d: Select now %v, without shortcuts %v", seed, step, ok1, ok2)
				}
				if ok1 {
					e := Span(now, d)
					c := new(Selection)
					c.CopyFrom(&s1)
					held = append(held, pair{p.AddSelection(now, e, &s1), q.AddSelection(now, e, &s2), now, e, c})
				}
				continue
			}
			t1, ok1 := p.Earliest(now, d, pr, &s1)
			t2, ok2 := q.Earliest(now, d, pr, &s2)
			if ok1 != ok2 || t1 != t2 || (ok1 && (!slices.Equal(s1.Picks, s2.Picks) || !slices.Equal(s1.units, s2.units))) {
				t.Fatalf("seed %d step %d at %g, %s for %g: %v at %g %+v, without shortcuts %v at %g %+v", seed, step, now, req, d, ok1, t1, s1, ok2, t2, s2)
			}
			// EarliestBy: the same time when it is at most until, else none.
			var s3 Selection
			until := now + float64(r.IntN(15))
			t3, ok3 := q.EarliestBy(now, until, d, pr, &s3)
			if want := ok2 && t2 <= until; ok3 != want || ok3 && (t3 != t2 || !slices.Equal(s3.Picks, s2.Picks)) {
				t.Fatalf("seed %d step %d: EarliestBy(%g, until %g) = %v at %g, Earliest %v at %g", seed, step, now, until, ok3, t3, ok2, t2)
			}
			// With the shortcuts too (what it remembers of a failure up
			// to until must not mislead the later queries of p).
			t4, ok4 := p.EarliestBy(now, until, d, pr, &s3)
			if ok4 != ok3 || ok4 && t4 != t3 {
				t.Fatalf("seed %d step %d: EarliestBy(%g, until %g) = %v at %g, without shortcuts %v at %g", seed, step, now, until, ok4, t4, ok3, t3)
			}
			if ok1 {
				e := Span(t1, d)
				c := new(Selection)
				c.CopyFrom(&s1)
				held = append(held, pair{p.AddSelection(t1, e, &s1), q.AddSelection(t1, e, &s2), t1, e, c})
			}
		}
	}
}
