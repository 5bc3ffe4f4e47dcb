package choose

import (
	"cmp"
	"math/rand/v2"
)

// Min returns the i in [0, n) with the smallest key(i) among those for
// which ok(i) (nil: all), ties broken uniformly with r; -1 if none. ties is
// scratch space, reused across calls to avoid allocation.
func Min[K cmp.Ordered](n int, key func(int) K, ok func(int) bool, r *rand.Rand, ties *[]int) int {
	t := (*ties)[:0]
	var best K
	for i := 0; i < n; i++ {
		if ok != nil && !ok(i) {
			continue
		}
		k := key(i)
		switch {
		case len(t) == 0 || k < best:
			best = k
			t = append(t[:0], i)
		case k == best:
			t = append(t, i)
		}
	}
	*ties = t
	switch len(t) {
	case 0:
		return -1
	case 1:
		return t[0]
	}
	return t[r.IntN(len(t))]
}
