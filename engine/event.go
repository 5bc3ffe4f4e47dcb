package engine

// Class orders events that happen at the same instant: completions first,
// then arrivals, then timers.
type Class uint8

const (
	ClassCompletion Class = iota
	ClassArrival
	ClassTimer
)

// Event is a value event. Ref is interpreted by the model that pushed it
// (a job slot, a site, a timer id).
type Event struct {
	Time  float64
	Class Class
	seq   uint64
	Ref   int32
}

func (a *Event) less(b *Event) bool {
	if a.Time != b.Time {
		return a.Time < b.Time
	}
	if a.Class != b.Class {
		return a.Class < b.Class
	}
	return a.seq < b.seq
}

// eventHeap is a typed binary min-heap of events keyed by (Time, Class, seq),
// with one arrival kept beside it: a model reads its source one job ahead,
// so there is one pending arrival (per source), and keeping it out of the
// heap saves a sift-down per job for a comparison per Peek and Pop. The key
// is a total order (seq is unique), so the events come out in the same
// order as from a heap of them all. Push and Pop are O(log n) and allocate
// only when the backing slice grows. The zero value is an empty queue.
type eventHeap struct {
	ev      []Event
	seq     uint64
	side    Event // an arrival held out of ev, when hasSide
	hasSide bool
}

// Len returns the number of pending events.
func (q *eventHeap) Len() int {
	if q.hasSide {
		return len(q.ev) + 1
	}
	return len(q.ev)
}

// Push adds an event; its sequence number is assigned here.
func (q *eventHeap) Push(time float64, class Class, ref int32) {
	q.seq++
	if class == ClassArrival && !q.hasSide {
		q.side, q.hasSide = Event{Time: time, Class: class, seq: q.seq, Ref: ref}, true
		return
	}
	q.ev = append(q.ev, Event{})
	siftUp(q.ev, len(q.ev)-1, Event{Time: time, Class: class, seq: q.seq, Ref: ref})
}

// siftUp puts e in h at hole i or above it, moving down the parents it
// goes before.
func siftUp(h []Event, i int, e Event) {
	for i > 0 {
		p := (i - 1) / 2
		if !e.less(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// sideFirst reports whether the held arrival is the earliest event.
func (q *eventHeap) sideFirst() bool {
	return q.hasSide && (len(q.ev) == 0 || q.side.less(&q.ev[0]))
}

// Peek returns the earliest event without removing it. It must not be
// called on an empty queue.
func (q *eventHeap) Peek() Event {
	if q.sideFirst() {
		return q.side
	}
	return q.ev[0]
}

// Pop removes and returns the earliest event. It must not be called on an
// empty queue.
func (q *eventHeap) Pop() Event {
	if q.sideFirst() {
		q.hasSide = false
		return q.side
	}
	h := q.ev
	top := h[0]
	n := len(h) - 1
	last := h[n]
	q.ev = h[:n]
	if n == 0 {
		return top
	}
	h = q.ev
	// Bottom-up sift-down: the hole left by the top goes down to a leaf
	// along the smaller children (one comparison a level), then last,
	// which came from the bottom and mostly belongs near it, rises from
	// there (usually a step or two): about half the comparisons of
	// sifting last down from the top, each checking it against a child.
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h[r].less(&h[l]) {
			c = r
		}
		h[i] = h[c]
		i = c
	}
	siftUp(h, i, last)
	return top
}
