package tsafrir

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/schedlab/schedlab/rng"
)

const (
	minute = 60
	hour   = 3600
)

// jointValues are the 15 values found among the 20 most popular requests
// of all four logs the paper models (SDSC SP2, CTC SP2, KTH SP2, SDSC
// Blue Horizon), in seconds.
var jointValues = [...]int64{
	5 * minute, 10 * minute, 15 * minute, 20 * minute, 30 * minute,
	1 * hour, 2 * hour, 3 * hour, 4 * hour, 5 * hour, 6 * hour,
	8 * hour, 10 * hour, 12 * hour, 18 * hour,
}

// roundSteps complete the head when fewer than Top joint values lie below
// the maximum: multiples of each step in turn, counted down from the
// maximum.
var roundSteps = [...]int64{
	200 * hour, 100 * hour, 50 * hour, 10 * hour, 5 * hour, 2 * hour, 1 * hour,
	20 * minute, 10 * minute, 5 * minute,
}

// timeToPop is the paper's observation of which popularity rank (1 = most
// popular) each head value had in each of the four logs, by time rank:
// row 0 is the maximum, rows 1..19 the other head values from shortest to
// longest; columns SDSC SP2, CTC SP2, KTH SP2, SDSC Blue Horizon.
var timeToPop = [Top][4]int{
	{3, 1, 1, 1}, {1, 3, 4, 6}, {4, 4, 10, 5}, {17, 2, 14, 3}, {13, 12, 20, 7},
	{7, 9, 2, 2}, {8, 8, 3, 18}, {18, 18, 7, 19}, {2, 6, 12, 4}, {6, 7, 6, 11},
	{16, 11, 19, 20}, {10, 20, 5, 9}, {5, 16, 18, 10}, {15, 5, 16, 14}, {14, 14, 9, 13},
	{19, 13, 17, 16}, {11, 10, 15, 15}, {12, 15, 13, 17}, {9, 17, 8, 8}, {20, 19, 11, 12},
}

// Value is one value of the histogram.
type Value struct {
	Seconds float64 // the request
	Prob    float64 // the share of jobs that use it, in (0, 1]
	Head    bool    // one of the Top popular values (the maximum included)
}

// Model is a built histogram of requests. It is immutable: safe for
// concurrent use, each caller with its own random stream.
type Model struct {
	p     Params
	vals  []float64 // ascending seconds
	probs []float64
	cum   []float64 // cum[i] = probs[0] + ... + probs[i]
	head  []bool
	max   float64
}

// New builds the histogram of p by the published procedure, drawing its
// random choices (which popular value gets which share, which tail value
// which share) from r; the same p and the same stream give the same
// Model.
//
// The procedure:
//
//  1. Head values: the maximum, the joint values below it, and, while
//     fewer than Top, multiples of 200 h, 100 h, 50 h, 10 h, 5 h, 2 h,
//     1 h, 20 min, 10 min, 5 min counted down from the maximum.
//  2. Head shares: rank x = 2..H gets HeadA exp(HeadB x) + HeadC
//     percent; rank 1 the rest of HeadPercent (or, with MaxPercent, the
//     maximum gets MaxPercent and the others are scaled to keep the sum).
//  3. Which value gets which rank: the maximum gets rank 1 (its own share
//     with MaxPercent); time ranks 1..19 in turn take a rank from the pool
//     of ranks the four logs show at that time rank or earlier, the
//     smaller of two uniform picks, except that a rank that appears at no
//     later time rank in any log is taken at once (the smallest such).
//  4. Tail: K - H values at relative time ranks x = i/(K-H),
//     MaxEstimate (a-1)x/(a-x) rounded to the minute and moved by +30,
//     -30, +20, -20, +10, -10 s to avoid a value already taken (dropped if
//     all collide or it is not below the maximum); shares proportional to
//     (21+j)^TailB summing to 100 - HeadPercent, matched to the values at
//     random.
//
// With a maximum below about 2 h the head holds H < Top values; the
// ranks drawn in step 3 for its time ranks are then renumbered 1..H in
// their order (the authors' code does not handle this case). When no tail
// value survives step 4, the head shares are scaled to sum to 100%.
func New(p Params, r *rand.Rand) (*Model, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errors.New("tsafrir.New: nil random stream r")
	}
	maxEst := int64(p.MaxEstimate)
	ht := headTimes(maxEst)
	h := len(ht)
	k := p.values()
	if k < MinValues { // MinValues > Top >= h: a tail of at least one value
		k = MinValues
	}

	// Head shares by popularity rank (index 0 = rank 1) and the rank of
	// the maximum.
	sizes := make([]float64, h)
	sizes[0] = derivedMaxShare(p, h)
	for x := 2; x <= h; x++ {
		sizes[x-1] = headShare(p, x)
	}
	if p.MaxPercent > 0 {
		f := (p.HeadPercent - p.MaxPercent) / (p.HeadPercent - sizes[0])
		for i := 1; i < h; i++ {
			sizes[i] *= f
		}
		sizes[0] = p.MaxPercent
	}
	maxSize := sizes[0]
	slices.SortStableFunc(sizes, func(a, b float64) int {
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	maxRank := 1
	if p.MaxPercent > 0 {
		maxRank = slices.Index(sizes, maxSize) + 1
	}
	ranks := popRanks(maxRank, p.MaxPercent > 0, h, r)

	vals := make(map[int64]float64, k)
	head := make(map[int64]bool, h)
	for i, t := range ht {
		vals[t] = sizes[ranks[i]-1]
		head[t] = true
	}

	// Tail.
	a := p.TimeA
	if a == 0 {
		a = 1 + 12.1039*math.Pow(float64(k), -0.6026)
	}
	tt := tailTimes(maxEst, k-h, a, vals)
	if len(tt) > 0 {
		ts := make([]float64, len(tt))
		sum := 0.0
		for j := range ts {
			ts[j] = math.Pow(float64(Top+1+j), p.TailB)
			sum += ts[j]
		}
		for j := range ts {
			ts[j] *= (100 - p.HeadPercent) / sum
		}
		r.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		for j, t := range tt {
			vals[t] = ts[j]
		}
	}

	m := &Model{p: p, max: p.MaxEstimate}
	keys := make([]int64, 0, len(vals))
	for t := range vals {
		keys = append(keys, t)
	}
	slices.Sort(keys)
	total := 0.0 // summed in key order, so the same bits every run
	for _, t := range keys {
		total += vals[t]
	}
	m.vals = make([]float64, len(keys))
	m.probs = make([]float64, len(keys))
	m.cum = make([]float64, len(keys))
	m.head = make([]bool, len(keys))
	c := 0.0
	for i, t := range keys {
		m.vals[i] = float64(t)
		if len(tt) > 0 {
			m.probs[i] = vals[t] / 100
		} else {
			m.probs[i] = vals[t] / total
		}
		c += m.probs[i]
		m.cum[i] = c
		m.head[i] = head[t]
	}
	return m, nil
}

// headTimes returns the head values in seconds: the maximum first, then
// the others in ascending order.
func headTimes(maxEst int64) []int64 {
	v := []int64{maxEst}
	for _, t := range jointValues {
		if t < maxEst {
			v = append(v, t)
		}
	}
	for _, step := range roundSteps {
		if len(v) >= Top {
			break
		}
		for t := maxEst / step * step; t > 0 && len(v) < Top; t -= step {
			if !slices.Contains(v, t) {
				v = append(v, t)
			}
		}
	}
	slices.Sort(v[1:])
	return v
}

// popRanks maps head time ranks 0..h-1 (0 = the maximum, then ascending
// values) to popularity ranks 1..h, by step 3 of New. maxRank is the
// maximum's rank; reserved says it is taken from the other values' pool
// (MaxPercent given).
func popRanks(maxRank int, reserved bool, h int, r *rand.Rand) []int {
	// due[p]: the last time rank at which rank p appears in any log.
	var due [Top + 1]int
	for t := range Top {
		for _, p := range timeToPop[t] {
			due[p] = t
		}
	}
	var chosen [Top + 1]bool
	if reserved {
		chosen[maxRank] = true
	}
	out := make([]int, 0, Top)
	pool := make([]int, 0, 4*Top)
	for t := range Top {
		for _, p := range timeToPop[t] {
			if !chosen[p] {
				pool = append(pool, p)
			}
		}
		pick := 0
		if t == 0 {
			pick = maxRank
		}
		for p := 1; pick == 0 && p <= Top; p++ {
			if due[p] <= t && !chosen[p] {
				pick = p
			}
		}
		if pick == 0 && len(pool) > 0 {
			// The smaller of two uniform picks favours popular ranks.
			a, b := pool[r.IntN(len(pool))], pool[r.IntN(len(pool))]
			pick = min(a, b)
		}
		for p := 1; pick == 0 && p <= Top; p++ {
			// Unreachable with the published table; kept so that no
			// time rank is ever left without a rank.
			if !chosen[p] {
				pick = p
			}
		}
		chosen[pick] = true
		out = append(out, pick)
		pool = slices.DeleteFunc(pool, func(p int) bool { return p == pick })
	}
	if h == Top {
		return out
	}
	// Renumber the ranks of time ranks 1..h-1 into 1..h without the
	// maximum's, keeping their order.
	rest := slices.Clone(out[1:h])
	slices.Sort(rest)
	free := make([]int, 0, h-1)
	for p := 1; p <= h; p++ {
		if p != maxRank {
			free = append(free, p)
		}
	}
	res := []int{maxRank}
	for _, p := range out[1:h] {
		res = append(res, free[slices.Index(rest, p)])
	}
	return res
}

// tailTimes returns up to n tail values (ascending seconds), avoiding the
// values in taken and each other, all in (0, max).
func tailTimes(maxEst int64, n int, a float64, taken map[int64]float64) []int64 {
	offsets := [...]int64{0, 30, -30, 20, -20, 10, -10}
	seen := make(map[int64]bool, n)
	out := make([]int64, 0, n)
	for i := 1; i <= n; i++ {
		x := float64(i) / float64(n)
		y := (a - 1) * x / (a - x)
		sec := int64(math.Round(y*float64(maxEst)/60)) * 60
		for _, off := range offsets {
			s := sec + off
			if _, ok := taken[s]; !ok && !seen[s] && s > 0 && s < maxEst {
				seen[s] = true
				out = append(out, s)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// Values returns the histogram in ascending order of seconds (a fresh
// slice). The probabilities sum to 1 up to rounding.
func (m *Model) Values() []Value {
	out := make([]Value, len(m.vals))
	for i := range out {
		out[i] = Value{Seconds: m.vals[i], Prob: m.probs[i], Head: m.head[i]}
	}
	return out
}

// Max is the maximum estimate, the largest value of the histogram.
func (m *Model) Max() float64 { return m.max }

// Params returns the parameters the model was built from.
func (m *Model) Params() Params { return m.p }

// Request returns a request for a job of the given runtime (seconds): a
// value of the histogram drawn with probability proportional to its
// share among the values >= runtime. A runtime above the maximum gets
// OverMax(runtime). A negative or NaN runtime counts as 0. It draws one
// number from r whatever the runtime, so that one job's request never
// shifts another's.
func (m *Model) Request(runtime float64, r *rand.Rand) float64 {
	return m.request(runtime, r.Float64())
}

// OverMax is the request of a job whose runtime exceeds the maximum
// estimate: the runtime rounded up to the next whole minute.
func OverMax(runtime float64) float64 { return math.Ceil(runtime/60) * 60 }

// request is Request with its uniform draw u in [0, 1) given.
func (m *Model) request(runtime, u float64) float64 {
	if !(runtime > 0) {
		runtime = 0
	}
	if runtime > m.max {
		return OverMax(runtime)
	}
	i := sort.SearchFloat64s(m.vals, runtime)
	lo := 0.0
	if i > 0 {
		lo = m.cum[i-1]
	}
	n := len(m.cum)
	target := lo + u*(m.cum[n-1]-lo)
	k := i + sort.Search(n-i, func(j int) bool { return m.cum[i+j] > target })
	if k >= n {
		k = n - 1
	}
	return m.vals[k]
}

// SiteModel is the model of user estimates schedlab's workloads draw
// requests from: the published parameters (Default), the site's
// histogram drawn once per seed, from replication 0's stream (a site's
// habits do not change between replications; the requests themselves
// are drawn per replication by the caller).
func SiteModel(seed uint64) (*Model, error) {
	return New(Default(), rng.New(seed, 0, "tsafrir-histogram"))
}

// SiteModelName names SiteModel's requests in SWF headers.
const SiteModelName = "Tsafrir-Etsion-Feitelson model of user estimates (published parameters, 18 h maximum)"
