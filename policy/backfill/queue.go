package backfill

import "github.com/schedlab/schedlab/job"

// Order is the order in which a queue is considered.
type Order uint8

const (
	// OrderFCFS: by (submit time, job id).
	OrderFCFS Order = iota
	// OrderSJF: by (estimate, submit time, job id): shortest job first.
	OrderSJF
	// OrderPriority: by a priority function recomputed at every submission
	// and completion, largest first, ties by (submit time, job id). The
	// only priority function is Flexible backfilling's (FlexParams); the
	// one-machine cluster policies do not take it (their order option
	// does not name it).
	OrderPriority
	// OrderMultifactor: by Slurm's multifactor priority (Multifactor),
	// recomputed at every scheduling pass, largest first, ties by
	// (submit time, job id). The one-machine cluster policies take it.
	OrderMultifactor
)

// byPriority reports an order that the engine sorts by a priority
// function before each pass (insert appends).
func (o Order) byPriority() bool { return o == OrderPriority || o == OrderMultifactor }

func (o Order) String() string {
	switch o {
	case OrderSJF:
		return "sjf"
	case OrderPriority:
		return "priority"
	case OrderMultifactor:
		return "multifactor"
	}
	return "fcfs"
}

// less reports whether a goes before b in order o (FCFS or SJF; a
// priority queue is sorted by the engine, see reprioritize and
// multifactor.sort).
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

// attrs are the job attributes that matter over several machines: the
// speed at which the estimate holds, memory per CPU and speed required,
// deadline (0: none); nx, the job's estimated runtime on the fastest
// machine that can hold it (Flexible's Nxtime), and prio, its priority at
// the last re-sort (OrderPriority, OrderMultifactor); who, part and qos
// are the job's fair-share association, partition and QOS
// (OrderMultifactor). The one-machine policies (NewBackfill, NewFCFS)
// keep none (entry.x is nil) unless their order is OrderMultifactor: they
// believe the estimate as it is and check nothing but the processor
// count, as they always did, and their queue entries stay small.
type attrs struct {
	bmEst, mem, speed, deadline float64
	nx, prio                    float64
	who, part, qos              int32
}

// attrsSlab hands out attrs from chunks: no allocation per job.
type attrsSlab struct{ chunk []attrs }

func (s *attrsSlab) new(a attrs) *attrs {
	if len(s.chunk) == cap(s.chunk) {
		s.chunk = make([]attrs, 0, 256)
	}
	s.chunk = append(s.chunk, a)
	return &s.chunk[len(s.chunk)-1]
}

// entry is a waiting job with its reservation.
type entry struct {
	jobKey
	x       *attrs  // nil in the one-machine policies
	resv    float64 // reserved start, valid when hasResv
	m       int32   // the reservation's machine, valid when hasResv
	hasResv bool
	started bool
}

// newEntry makes the queue entry of a job; with slab (policies over
// several machines), the job's attributes are kept.
func newEntry(info *job.Info, slab *attrsSlab) entry {
	e := entry{jobKey: jobKey{ID: info.ID, Submit: info.Submit, Estimate: info.Estimate, Procs: info.Procs}}
	if slab != nil {
		e.x = slab.new(attrs{bmEst: info.BMEst, mem: info.Mem, speed: info.Speed, deadline: info.Deadline})
	}
	return e
}

// needs returns e's memory per CPU and speed requirements (0: none).
func (e *entry) needs() (mem, speed float64) {
	if e.x == nil {
		return 0, 0
	}
	return e.x.mem, e.x.speed
}

// waitQueue is a slice of waiting jobs kept sorted by an Order. Inserting
// in submit order appends; removal of started jobs is batched by compact.
// Under OrderPriority insert appends and the engine sorts before each pass.
type waitQueue struct {
	order Order
	q     []entry
	// base is q's whole backing array: q is always a suffix of it, cut
	// short (started jobs are dropped from the front by reslicing).
	base []entry
}

// add appends e. Dropping started jobs from the front of q loses the
// capacity before them: appending to what is left would reallocate the
// queue, for a short queue whose head starts at every pass once per job.
// So when q fills the end of its array and holds at most half of it, it is
// first moved to the front of the array (amortised O(1): at least as many
// appends as entries moved come between two moves) instead of growing.
func (w *waitQueue) add(e entry) {
	if len(w.q) == cap(w.q) {
		if cap(w.base) > 0 && 2*len(w.q) <= cap(w.base) {
			w.q = w.base[:copy(w.base, w.q)]
		} else {
			w.q = append(w.q, e)
			w.base = w.q[:cap(w.q)]
			return
		}
	}
	w.q = append(w.q, e)
}

// insert puts e in its place and returns its index.
func (w *waitQueue) insert(e entry) int {
	n := len(w.q)
	if n == 0 || w.order.byPriority() || !w.order.less(&e.jobKey, &w.q[n-1].jobKey) {
		w.add(e)
		return n
	}
	// The first entry e goes before (a binary search written out: a
	// closure over e, as sort.Search takes, moved e to the heap, one
	// allocation per out-of-order job).
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if w.order.less(&e.jobKey, &w.q[mid].jobKey) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	i := lo
	w.add(entry{})
	copy(w.q[i+1:], w.q[i:])
	w.q[i] = e
	return i
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
	// Close the gaps from the shorter side: the entries after the first
	// started one move left, or those before the last started one move
	// right and the front is dropped by reslicing (a job backfilled deep
	// in a long queue moves its head, not its tail).
	last := len(w.q) - 1
	for !w.q[last].started {
		last--
	}
	if last+1 < len(w.q)-from {
		k := last
		for i := last; i >= 0; i-- {
			if !w.q[i].started {
				w.q[k] = w.q[i]
				k--
			}
		}
		w.q = w.q[k+1:]
		return
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
