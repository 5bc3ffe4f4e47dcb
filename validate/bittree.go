package validate

import "math/bits"

// bitTree is a set of integers in [0, n) with successor and predecessor
// queries in O(log64 n) word operations: level 0 holds one bit per
// element, each higher level one bit per non-zero word of the level below.
type bitTree struct {
	n  int
	lv [][]uint64
}

func newBitTree(n int) *bitTree {
	t := &bitTree{n: n}
	for w := (n + 63) >> 6; ; w = (w + 63) >> 6 {
		t.lv = append(t.lv, make([]uint64, max(w, 1)))
		if w <= 1 {
			return t
		}
	}
}

func (t *bitTree) set(i int) {
	for l := range t.lv {
		w := i >> 6
		t.lv[l][w] |= 1 << (i & 63)
		i = w
	}
}

func (t *bitTree) clear(i int) {
	for l := range t.lv {
		w := i >> 6
		t.lv[l][w] &^= 1 << (i & 63)
		if t.lv[l][w] != 0 {
			return // the word stays non-empty: the levels above are unchanged
		}
		i = w
	}
}

// next returns the smallest element >= i, or -1.
func (t *bitTree) next(i int) int {
	if i < 0 {
		i = 0
	}
	l := 0
	for {
		if l == len(t.lv) {
			return -1
		}
		w := i >> 6
		if w < len(t.lv[l]) {
			if m := t.lv[l][w] & (^uint64(0) << (i & 63)); m != 0 {
				i = w<<6 + bits.TrailingZeros64(m)
				break
			}
		}
		i = w + 1 // look among the following words, one level up
		l++
	}
	for l > 0 { // descend along the lowest set bits
		l--
		i = i<<6 + bits.TrailingZeros64(t.lv[l][i])
	}
	return i
}

// prev returns the largest element <= i, or -1.
func (t *bitTree) prev(i int) int {
	if i >= t.n {
		i = t.n - 1
	}
	l := 0
	for {
		if i < 0 || l == len(t.lv) {
			return -1
		}
		w := i >> 6
		if m := t.lv[l][w] & (^uint64(0) >> (63 - i&63)); m != 0 {
			i = w<<6 + 63 - bits.LeadingZeros64(m)
			break
		}
		i = w - 1 // look among the preceding words, one level up
		l++
	}
	for l > 0 { // descend along the highest set bits
		l--
		i = i<<6 + 63 - bits.LeadingZeros64(t.lv[l][i])
	}
	return i
}
