package tsafrir

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// MaxAssign bounds the number of runtimes Assign takes at once (it holds
// three slices of that length).
const MaxAssign = 50_000_000

// Assign gives a batch of jobs their requests by the paper's assignment
// (the authors' est_assign), returning request i for runtimes[i]:
//
//  1. the jobs whose runtime is at most the maximum share the histogram:
//     each value gets its share of their number n, rounded by largest
//     remainder (ties: the longer value first), so the batch's requests
//     are the histogram to within one job per value;
//  2. those jobs, longest runtime first (ties in input order), each take
//     a request uniformly among the remaining requests that are >= their
//     runtime.
//
// A job above the maximum gets OverMax(runtime) and takes no share. A
// negative or NaN runtime counts as 0.
//
// It is an error if the batch cannot be served: when the k longest
// runtimes outnumber the requests at or above the k-th of them (too many
// long jobs for the histogram; a larger MaxEstimate or MaxPercent
// helps), or when len(runtimes) > MaxAssign.
func (m *Model) Assign(runtimes []float64, r *rand.Rand) ([]float64, error) {
	if r == nil {
		return nil, errors.New("tsafrir Assign: nil random stream r")
	}
	if len(runtimes) > MaxAssign {
		return nil, fmt.Errorf("tsafrir Assign: %d runtimes, above the bound %d", len(runtimes), MaxAssign)
	}
	out := make([]float64, len(runtimes))
	rt := func(i int) float64 {
		if !(runtimes[i] > 0) {
			return 0
		}
		return runtimes[i]
	}
	order := make([]int, 0, len(runtimes))
	for i := range runtimes {
		if t := rt(i); t > m.max {
			out[i] = OverMax(t)
		} else {
			order = append(order, i)
		}
	}
	n := len(order)
	if n == 0 {
		return out, nil
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rt(b), rt(a)) })

	// The batch's requests, longest first.
	counts := m.counts(n)
	ests := make([]float64, 0, n)
	for i := len(m.vals) - 1; i >= 0; i-- {
		for range counts[i] {
			ests = append(ests, m.vals[i])
		}
	}
	for k, j := range order {
		if rt(j) > ests[k] {
			return nil, fmt.Errorf("tsafrir Assign: the %d longest runtimes (down to %gs) outnumber the requests of at least %gs (at most %d) the histogram gives %d jobs; raise MaxEstimate or MaxPercent",
				k+1, rt(j), rt(j), k, n)
		}
	}

	// Job k of order draws among positions k..hi, which hold the unused
	// requests >= its runtime: positions past hi are untouched (sorted
	// descending), and the used request is swapped out to position k.
	hi := 0
	for k, j := range order {
		t := rt(j)
		for hi < n-1 && t <= ests[hi+1] {
			hi++
		}
		c := k + r.IntN(hi-k+1)
		out[j] = ests[c]
		ests[c], ests[k] = ests[k], ests[c]
	}
	return out, nil
}

// counts shares n jobs among the values by largest remainder.
func (m *Model) counts(n int) []int {
	c := make([]int, len(m.vals))
	frac := make([]float64, len(m.vals))
	total := m.cum[len(m.cum)-1]
	left := n
	for i, p := range m.probs {
		q := p / total * float64(n)
		c[i] = int(math.Floor(q))
		frac[i] = q - float64(c[i])
		left -= c[i]
	}
	idx := make([]int, len(m.vals))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if d := cmp.Compare(frac[b], frac[a]); d != 0 {
			return d
		}
		return cmp.Compare(b, a) // the longer value first
	})
	for i := 0; left > 0; i = (i + 1) % len(idx) {
		c[idx[i]]++
		left--
	}
	return c
}
