package validate

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
)

// Processor identities: the checks of the CPUs each record lists (Rec.CPUs).

// machineBounds checks opt.Machines and returns the first CPU id of every
// machine followed by opt.Procs, or nil when the machines cannot be used
// (problems are reported with add).
func machineBounds(opt Options, add func(string, ...any)) []int {
	if opt.Procs <= 0 {
		return nil // reported by Check
	}
	if opt.Machines == nil {
		return []int{0, opt.Procs}
	}
	bounds := make([]int, 0, len(opt.Machines)+1)
	sum, ok := 0, true
	for m, n := range opt.Machines {
		if n <= 0 {
			add("options: machine %d has %d CPUs, want > 0", m, n)
			ok = false
		}
		bounds = append(bounds, sum)
		sum += max(n, 0)
	}
	if sum != opt.Procs {
		add("options: machines %v have %d CPUs in all, machine size is %d", opt.Machines, sum, opt.Procs)
		return nil
	}
	if !ok {
		return nil
	}
	return append(bounds, sum)
}

// machineOf returns the machine owning CPU id (bounds from machineBounds).
func machineOf(bounds []int, id int) int {
	return sort.SearchInts(bounds, id+1) - 1
}

// cpuList checks the CPU list of record r: well-formed intervals, no CPU
// twice, as many CPUs as r.Procs, all inside [0, opt.Procs) and, with
// opt.OneMachine, inside one machine. It returns the CPUs in normal form
// clipped to the platform, for the conflict sweep (nil if there are none or
// opt.Procs is not positive).
func cpuList(r Rec, opt Options, bounds []int, add func(string, ...any)) []Interval {
	ivs := r.CPUs
	sorted := true // ascending and disjoint
	for i, iv := range ivs {
		if iv.Lo < 0 || iv.Hi < iv.Lo || iv.Hi > MaxCPU {
			add("job %d: invalid CPU interval [%d, %d], want 0 <= lo <= hi <= %d", r.ID, iv.Lo, iv.Hi, MaxCPU)
			return nil
		}
		if i > 0 && iv.Lo <= ivs[i-1].Hi {
			sorted = false
		}
	}
	if !sorted {
		// Sorted by Lo, a CPU is listed twice where an interval starts no
		// later than the furthest end so far.
		s := slices.Clone(ivs)
		slices.SortFunc(s, func(a, b Interval) int { return cmp.Compare(a.Lo, b.Lo) })
		var twice []Interval
		end := -1
		for _, iv := range s {
			if iv.Lo <= end {
				twice = append(twice, Interval{iv.Lo, min(iv.Hi, end)})
			}
			end = max(end, iv.Hi)
		}
		if len(twice) > 0 {
			add("job %d: %s listed more than once", r.ID, cpuWord(normalize(twice)))
		}
	}
	ivs = normalize(ivs)

	n := 0 // ids are at most MaxCPU: no overflow for fewer than 2^32 intervals
	for _, iv := range ivs {
		n += iv.Len()
	}
	if n != r.Procs {
		add("job %d: %d CPUs allocated (%s), requested %d", r.ID, n, shortList(ivs), r.Procs)
	}
	if opt.Procs <= 0 {
		return nil
	}
	// The part of the list beyond the platform's last CPU.
	k, _ := slices.BinarySearchFunc(ivs, opt.Procs, func(iv Interval, p int) int { return cmp.Compare(iv.Hi, p) })
	if k < len(ivs) {
		outside := slices.Clone(ivs[k:])
		outside[0].Lo = max(outside[0].Lo, opt.Procs)
		add("job %d: %s out of range, platform has %d CPUs (%s)", r.ID, cpuWord(outside), opt.Procs,
			Interval{0, opt.Procs - 1})
		in := slices.Clone(ivs[:k])
		if ivs[k].Lo < opt.Procs {
			in = append(in, Interval{ivs[k].Lo, opt.Procs - 1})
		}
		ivs = in
	}
	if opt.OneMachine && bounds != nil && len(ivs) > 0 {
		m1, m2 := machineOf(bounds, ivs[0].Lo), machineOf(bounds, ivs[len(ivs)-1].Hi)
		if m1 != m2 {
			add("job %d: %s span machines %d (%s) to %d (%s), want one machine", r.ID, cpuWord(ivs),
				m1, cpuWord([]Interval{{bounds[m1], bounds[m1+1] - 1}}),
				m2, cpuWord([]Interval{{bounds[m2], bounds[m2+1] - 1}}))
		}
	}
	if len(ivs) == 0 {
		return nil
	}
	return ivs
}

// cpuWord writes a non-empty CPU list as "CPU 3" or "CPUs 2-3 7", with at
// most listTokens tokens.
func cpuWord(ivs []Interval) string {
	if len(ivs) == 1 && ivs[0].Lo == ivs[0].Hi {
		return "CPU " + ivs[0].String()
	}
	return "CPUs " + shortList(ivs)
}

// listTokens is the number of intervals a message lists in full.
const listTokens = 16

// shortList writes a CPU list in normal form, the first listTokens tokens
// only ("none" if empty).
func shortList(ivs []Interval) string {
	if len(ivs) == 0 {
		return "none"
	}
	if len(ivs) <= listTokens {
		return FormatResources(ivs)
	}
	return fmt.Sprintf("%s and %d more ranges", FormatResources(ivs[:listTokens]), len(ivs)-listTokens)
}

// holders is the state of the conflict sweep: the CPUs held at the current
// time, as disjoint pieces, each an interval of CPUs and the record holding
// it. A piece is stored at its first CPU; pieces are found with a bitTree
// of first CPUs, so that acquiring or releasing an interval costs
// O(pieces it meets x log64 CPUs), independent of the interval's length.
type holders struct {
	starts *bitTree
	hi     []int32 // hi[c]: last CPU of the piece starting at c
	owner  []int32 // owner[c]: record holding the piece starting at c
}

func (h *holders) put(lo, hi, rec int) {
	h.starts.set(lo)
	h.hi[lo], h.owner[lo] = int32(hi), int32(rec)
}

// conflict: CPUs lo..hi of the starting record were held by record owner.
type conflict struct {
	owner  int
	lo, hi int
}

// acquire gives the CPUs ivs (normal form) to record rec, which finishes
// at finish[rec], and returns the CPUs among them already held, with their
// holders, in ascending CPU order. Where CPUs are held, the record that
// finishes later keeps them (the holder on a tie): then every CPU is held
// by the one, among the records holding it now, that holds it longest, so
// that a later record starting on it before that is caught too.
func (h *holders) acquire(rec int, ivs []Interval, finish func(int) float64, confs []conflict) []conflict {
	for _, iv := range ivs {
		a, b := iv.Lo, iv.Hi
		p := h.starts.prev(a)
		if p < 0 || int(h.hi[p]) < a {
			p = h.starts.next(a)
		}
		cur := a // a..cur-1 are settled; rec's current run starts at cur
		for p >= 0 && p <= b {
			ph, o := int(h.hi[p]), int(h.owner[p])
			nextP := h.starts.next(ph + 1)
			lo, hi := max(p, a), min(ph, b)
			confs = append(confs, conflict{o, lo, hi})
			if finish(o) >= finish(rec) {
				// The holder keeps lo..hi: rec's run so far ends before it.
				if cur < lo {
					h.put(cur, lo-1, rec)
				}
				cur = hi + 1
			} else {
				// rec takes lo..hi: the holder keeps what lies outside.
				h.starts.clear(p)
				if p < lo {
					h.put(p, lo-1, o)
				}
				if ph > hi {
					h.put(hi+1, ph, o)
				}
			}
			p = nextP
		}
		if cur <= b {
			h.put(cur, b, rec)
		}
	}
	return confs
}

// release frees the CPUs record rec still holds within ivs, the list it
// acquired (its pieces all lie inside).
func (h *holders) release(rec int, ivs []Interval) {
	for _, iv := range ivs {
		for p := h.starts.next(iv.Lo); p >= 0 && p <= iv.Hi; p = h.starts.next(int(h.hi[p]) + 1) {
			if int(h.owner[p]) == rec {
				h.starts.clear(p)
			}
		}
	}
}

// cpuConflicts sweeps the time events evs and reports every record that
// starts on CPUs another record still holds: one problem per pair of
// records, at the later one's start, naming the CPUs, the two jobs and
// their times. A record holds cpus[rec] (normal form, inside the
// platform) over [Start, Finish); finishes come before starts at equal
// times, so touching jobs do not conflict, and zero-length jobs, which
// have no events, never do.
func cpuConflicts(out []Rec, cpus [][]Interval, evs []event, add func(string, ...any)) {
	size := 0 // CPUs 0..size-1 cover every list
	for _, l := range cpus {
		if len(l) > 0 {
			size = max(size, l[len(l)-1].Hi+1)
		}
	}
	if size == 0 {
		return
	}
	h := &holders{starts: newBitTree(size), hi: make([]int32, size), owner: make([]int32, size)}
	finish := func(rec int) float64 { return out[rec].Finish }
	var confs []conflict
	for _, e := range evs {
		ivs := cpus[e.rec]
		if len(ivs) == 0 {
			continue
		}
		if !e.start {
			h.release(e.rec, ivs)
			continue
		}
		confs = h.acquire(e.rec, ivs, finish, confs[:0])
		if len(confs) == 0 {
			continue
		}
		// One problem per holder, in the order of their first CPU.
		var owners []int
		byOwner := map[int][]Interval{}
		for _, c := range confs {
			if _, ok := byOwner[c.owner]; !ok {
				owners = append(owners, c.owner)
			}
			byOwner[c.owner] = append(byOwner[c.owner], Interval{c.lo, c.hi})
		}
		r := out[e.rec]
		for _, o := range owners {
			q := out[o]
			add("CPU conflict at time %v: %s held by job %d over [%v, %v) and by job %d over [%v, %v)",
				e.t, cpuWord(normalize(byOwner[o])), q.ID, q.Start, q.Finish, r.ID, r.Start, r.Finish)
		}
	}
}
