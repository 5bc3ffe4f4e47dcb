package threads

import "github.com/schedlab/schedlab/job"

// foldIndex maps the IDs of the jobs a Fold holds to their entries.
// Job IDs are usually handed out in arrival order (SWF job numbers), so
// the live jobs lie in a short range of IDs: a slice indexed by ID - base
// covers that range, and the few IDs outside it (out of order, or too far
// ahead of the live ones) go to a map. Lookups are exact whichever way;
// only the cost depends on the order of IDs.
type foldIndex struct {
	base  job.ID    // tab[i] holds job base+i
	tab   []*folded // tab[:head] is empty
	head  int       // first slot that may be live
	live  int       // non-nil entries of tab
	spill map[job.ID]*folded
}

// foldSlack is the span of IDs the slice may cover beyond twice the live
// jobs it holds before a new ID goes to the map instead.
const foldSlack = 4096

func (x *foldIndex) get(id job.ID) *folded {
	if i := id - x.base; i >= job.ID(x.head) && i < job.ID(len(x.tab)) {
		if e := x.tab[i]; e != nil {
			return e
		}
	}
	if x.spill != nil {
		return x.spill[id]
	}
	return nil
}

// put adds id, which get does not hold.
func (x *foldIndex) put(id job.ID, e *folded) {
	if x.live == 0 {
		x.base, x.tab, x.head = id, x.tab[:0], 0
	}
	i := id - x.base
	switch {
	case i < job.ID(x.head):
	case i < job.ID(len(x.tab)):
		x.tab[i] = e
		x.live++
		return
	case i-job.ID(x.head) <= job.ID(2*x.live+foldSlack):
		for job.ID(len(x.tab)) < i {
			x.tab = append(x.tab, nil)
		}
		x.tab = append(x.tab, e)
		x.live++
		return
	}
	if x.spill == nil {
		x.spill = map[job.ID]*folded{}
	}
	x.spill[id] = e
}

// del removes id, which get holds as e.
func (x *foldIndex) del(id job.ID, e *folded) {
	if i := id - x.base; i >= job.ID(x.head) && i < job.ID(len(x.tab)) && x.tab[i] == e {
		x.tab[i] = nil
		x.live--
		for x.head < len(x.tab) && x.tab[x.head] == nil {
			x.head++
		}
		switch {
		case x.head == len(x.tab):
			x.tab, x.head = x.tab[:0], 0
		case x.head >= foldSlack && 2*x.head >= len(x.tab):
			n := copy(x.tab, x.tab[x.head:])
			clear(x.tab[n:])
			x.tab = x.tab[:n]
			x.base += job.ID(x.head)
			x.head = 0
		}
		return
	}
	delete(x.spill, id)
}
