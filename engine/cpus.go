package engine

import (
	"math/bits"

	"github.com/schedlab/schedlab/platform"
)

// cpuSet is the set of free CPUs of a platform, one bit per global CPU id
// (1 = free). It answers "the k lowest free ids of a machine" and checks
// that named CPUs are free.
type cpuSet []uint64

func newCPUSet(n int) cpuSet {
	s := make(cpuSet, (n+63)/64)
	for c := 0; c < n; c++ {
		s[c>>6] |= 1 << (c & 63)
	}
	return s
}

func (s cpuSet) free(c int32) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// take marks the k lowest free CPUs of [lo, hi) busy and appends them to
// dst; the caller has checked that k are free.
func (s cpuSet) take(dst platform.Runs, lo, hi, k int) platform.Runs {
	for w := lo >> 6; k > 0 && w<<6 < hi; w++ {
		x := s[w]
		if w == lo>>6 {
			x &^= 1<<(lo&63) - 1
		}
		for x != 0 && k > 0 {
			c := w<<6 + bits.TrailingZeros64(x)
			if c >= hi {
				break
			}
			x &= x - 1
			s[w] &^= 1 << (c & 63)
			dst = dst.Add(int32(c))
			k--
		}
	}
	return dst
}

// set marks every CPU of r free (on true) or busy.
func (s cpuSet) set(r platform.Runs, free bool) {
	for i := 0; i+1 < len(r); i += 2 {
		for c := r[i]; c <= r[i+1]; c++ {
			if free {
				s[c>>6] |= 1 << (c & 63)
			} else {
				s[c>>6] &^= 1 << (c & 63)
			}
		}
	}
}
