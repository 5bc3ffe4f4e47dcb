package queue

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
func (o Order) less(a, b *job.Info) bool {
	if o == OrderSJF && a.Estimate != b.Estimate {
		return a.Estimate < b.Estimate
	}
	if a.Submit != b.Submit {
		return a.Submit < b.Submit
	}
	return a.ID < b.ID
}

// entry is a waiting job with its reservation.
type entry struct {
	job.Info
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

func (w *waitQueue) insert(j job.Info) {
	n := len(w.q)
	if n == 0 || !w.order.less(&j, &w.q[n-1].Info) {
		w.q = append(w.q, entry{Info: j})
		return
	}
	i := sort.Search(n, func(i int) bool { return w.order.less(&j, &w.q[i].Info) })
	w.q = append(w.q, entry{})
	copy(w.q[i+1:], w.q[i:])
	w.q[i] = entry{Info: j}
}

// compact removes started entries, keeping order; from is the index of
// the first started entry (everything before it stays in place).
func (w *waitQueue) compact(from int) {
	k := from
	for i := from; i < len(w.q); i++ {
		if !w.q[i].started {
			w.q[k] = w.q[i]
			k++
		}
	}
	clear(w.q[k:])
	w.q = w.q[:k]
}

func reasonFor(blocked bool, now float64, j *job.Info) job.StartReason {
	switch {
	case blocked:
		return job.Backfilled
	case now == j.Submit:
		return job.Immediate
	default:
		return job.Reserved
	}
}
