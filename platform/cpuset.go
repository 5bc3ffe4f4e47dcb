package platform

import "github.com/schedlab/schedlab/internal/digits"

// Runs is a set of CPU ids as ascending, disjoint, non-adjacent inclusive
// runs [lo, hi], stored flat: lo0, hi0, lo1, hi1, ... It is what a start
// names and what jobs.csv prints.
type Runs []int32

// Count is the number of CPUs in the set.
func (r Runs) Count() int {
	n := 0
	for i := 0; i+1 < len(r); i += 2 {
		n += int(r[i+1]-r[i]) + 1
	}
	return n
}

// Add appends CPU c, which must be greater than every id in r, merging it
// into the last run when adjacent.
func (r Runs) Add(c int32) Runs {
	if n := len(r); n > 0 && r[n-1] == c-1 {
		r[n-1] = c
		return r
	}
	return append(r, c, c)
}

// AddRun appends the CPUs lo..hi (lo <= hi), all greater than every id in
// r, merging them into the last run when adjacent.
func (r Runs) AddRun(lo, hi int32) Runs {
	if n := len(r); n > 0 && r[n-1] == lo-1 {
		r[n-1] = hi
		return r
	}
	return append(r, lo, hi)
}

// Shared returns a CPU in both r and b (the lowest of the first run
// they share), and false if they share none.
func (r Runs) Shared(b Runs) (int32, bool) {
	for i, j := 0, 0; i+1 < len(r) && j+1 < len(b); {
		if lo, hi := max(r[i], b[j]), min(r[i+1], b[j+1]); lo <= hi {
			return lo, true
		}
		if r[i+1] < b[j+1] {
			i += 2
		} else {
			j += 2
		}
	}
	return 0, false
}

// AppendText appends r in Batsim's interval syntax: runs separated by
// spaces, "a" for a single CPU and "a-b" for a run, e.g. "0-3 8".
func (r Runs) AppendText(b []byte) []byte {
	for i := 0; i+1 < len(r); i += 2 {
		if i > 0 {
			b = append(b, ' ')
		}
		b = digits.AppendInt(b, int64(r[i]))
		if r[i+1] != r[i] {
			b = append(b, '-')
			b = digits.AppendInt(b, int64(r[i+1]))
		}
	}
	return b
}

// String is r in Batsim's interval syntax.
func (r Runs) String() string { return string(r.AppendText(nil)) }
