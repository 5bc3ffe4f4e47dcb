package plan

import "slices"

// group is n CPUs that all become free at time t.
type group struct {
	t float64
	n int
}

// freeTimes is the multiset of the CPU free times of one machine, as
// groups in strictly increasing time order. List scheduling only ever
// asks "which q CPUs become free first", so CPUs need no identity: two
// CPUs free at the same time are interchangeable, and the plan does not
// depend on which one a job is said to take. Its size is the number of
// distinct free times (at most the machine's CPUs, and at most one more
// than the jobs running or planned), whatever the machine's size.
type freeTimes struct {
	g []group
}

func (f *freeTimes) reset() { f.g = f.g[:0] }

// copyFrom makes f a copy of o, reusing f's storage.
func (f *freeTimes) copyFrom(o *freeTimes) { f.g = append(f.g[:0], o.g...) }

// add makes n more CPUs free at t.
func (f *freeTimes) add(t float64, n int) {
	if n <= 0 {
		return
	}
	i, found := slices.BinarySearchFunc(f.g, t, func(g group, t float64) int {
		switch {
		case g.t < t:
			return -1
		case g.t > t:
			return 1
		}
		return 0
	})
	if found {
		f.g[i].n += n
		return
	}
	f.g = slices.Insert(f.g, i, group{t, n})
}

// kth is the q-th smallest free time (q >= 1): the start of a job of q
// CPUs placed now. The caller guarantees that f holds at least q CPUs.
func (f *freeTimes) kth(q int) float64 {
	for _, g := range f.g {
		if q <= g.n {
			return g.t
		}
		q -= g.n
	}
	panic("schedule: kth beyond the machine's CPUs")
}

// place is one step of list scheduling: a job of q CPUs and duration d
// takes the q CPUs that become free first; it starts when the last of them
// is free, and they are busy until start+d. It returns the start.
func (f *freeTimes) place(q int, d float64) float64 {
	k, left := 0, q
	for left > f.g[k].n {
		left -= f.g[k].n
		k++
	}
	s := f.g[k].t
	if left == f.g[k].n {
		k++
	} else {
		f.g[k].n -= left
	}
	f.g = append(f.g[:0], f.g[k:]...)
	f.add(s+d, q)
	return s
}

// last is the latest free time (the machine's makespan once every planned
// job is placed).
func (f *freeTimes) last() float64 { return f.g[len(f.g)-1].t }

func (f *freeTimes) equal(o *freeTimes) bool { return slices.Equal(f.g, o.g) }
