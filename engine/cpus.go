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
// dst; the caller has checked that k are free. It works a run of free
// bits at a time, not a bit at a time.
func (s cpuSet) take(dst platform.Runs, lo, hi, k int) platform.Runs {
	for w := lo >> 6; k > 0 && w<<6 < hi; w++ {
		x := s[w]
		if w == lo>>6 {
			x &^= 1<<(lo&63) - 1
		}
		if end := w<<6 + 64; end > hi {
			x &= 1<<(hi-w<<6) - 1
		}
		for x != 0 && k > 0 {
			tz := bits.TrailingZeros64(x)
			n := min(bits.TrailingZeros64(^(x >> tz)), 64-tz, k)
			mask := runMask(tz, n)
			s[w] &^= mask
			x &^= mask
			c := int32(w<<6 + tz)
			dst = dst.AddRun(c, c+int32(n)-1)
			k -= n
		}
	}
	return dst
}

// runMask has bits [from, from+n) set, 0 < n <= 64-from.
func runMask(from, n int) uint64 {
	if n == 64 {
		return ^uint64(0)
	}
	return (1<<n - 1) << from
}

// set marks every CPU of r free (on true) or busy, a word at a time.
func (s cpuSet) set(r platform.Runs, free bool) {
	for i := 0; i+1 < len(r); i += 2 {
		for c := int(r[i]); c <= int(r[i+1]); {
			n := min(int(r[i+1])-c+1, 64-c&63)
			mask := runMask(c&63, n)
			if free {
				s[c>>6] |= mask
			} else {
				s[c>>6] &^= mask
			}
			c += n
		}
	}
}
