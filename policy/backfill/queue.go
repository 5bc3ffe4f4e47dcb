package backfill

import (
	"sort"

	"github.com/schedlab/schedlab/job"
)

// Order is the order in which a queue is considered.
type Order uint8

const (
	// OrderFCFS: by (submit time, job id).
	OrderFCFS Order = iota
	// OrderSJF: by (estimate, submit time, job id): shortest job first.
	OrderSJF
)

func (o Order) String() string {
	if o == OrderSJF {
		return "sjf"
	}
	return "fcfs"
}

// ParseOrder parses "fcfs" or "sjf".
func ParseOrder(s string) (Order, bool) {
	switch s {
	case "fcfs", "":
		return OrderFCFS, true
	case "sjf":
		return OrderSJF, true
	}
	return 0, false
}

// less reports whether a goes before b in order o.
func (o Order) less(a, b *jobKey) bool {
	if o == OrderSJF && a.Estimate != b.Estimate {
		return a.Estimate < b.Estimate
	}
	if a.Submit != b.Submit {
		return a.Submit < b.Submit
	}
	return a.ID < b.ID
}

// jobKey is the part of a job.Info that queue policies use; entries stay
// small so that moving them is cheap.
type jobKey struct {
	ID       job.ID
	Submit   float64
	Estimate float64
	Procs    int
}

// entry is a waiting job with its reservation.
type entry struct {
	jobKey
	resv    float64 // reserved start, valid when hasResv
	hasResv bool
	started bool
}

// waitQueue is a slice of waiting jobs kept sorted by an Order. Inserting
// in submit order appends; removal of started jobs is batched by compact.
type waitQueue struct {
	order Order
	q     []entry
}

func (w *waitQueue) insert(info job.Info) {
	j := jobKey{ID: info.ID, Submit: info.Submit, Estimate: info.Estimate, Procs: info.Procs}
	n := len(w.q)
	if n == 0 || !w.order.less(&j, &w.q[n-1].jobKey) {
		w.q = append(w.q, entry{jobKey: j})
		return
	}
	i := sort.Search(n, func(i int) bool { return w.order.less(&j, &w.q[i].jobKey) })
	w.q = append(w.q, entry{})
	copy(w.q[i+1:], w.q[i:])
	w.q[i] = entry{jobKey: j}
}

// compact removes the n started entries, keeping order; from is the
// index of the first one. Started entries at the front (the common case:
// the head starts) are dropped by reslicing, without moving the queue;
// append reclaims the space when it next grows the backing array.
func (w *waitQueue) compact(from, n int) {
	if from == 0 {
		k := 0
		for k < len(w.q) && w.q[k].started {
			k++
		}
		w.q = w.q[k:]
		n -= k
		if n == 0 {
			return
		}
		from = 0
		for !w.q[from].started {
			from++
		}
	}
	k := from
	for i := from; i < len(w.q); i++ {
		if !w.q[i].started {
			w.q[k] = w.q[i]
			k++
		}
	}
	w.q = w.q[:k]
}

func reasonFor(blocked bool, now float64, j *jobKey) job.StartReason {
	switch {
	case blocked:
		return job.Backfilled
	case now == j.Submit:
		return job.Immediate
	default:
		return job.Reserved
	}
}
