package engine

// fifo is a processor's queue: entries waiting, oldest first. Popping the
// head moves an index; the slice is compacted once the dead prefix is
// both longer than 32 entries and more than half of it, so memory stays
// proportional to the entries waiting and each entry moves O(1) times.
type fifo[T comparable] struct {
	q    []T
	head int
}

func (f *fifo[T]) len() int   { return len(f.q) - f.head }
func (f *fifo[T]) push(e T)   { f.q = append(f.q, e) }
func (f *fifo[T]) peek() T    { return f.q[f.head] }
func (f *fifo[T]) at(k int) T { return f.q[f.head+k] }

func (f *fifo[T]) pop() T {
	e := f.q[f.head]
	f.head++
	f.compact()
	return e
}

// removeAt removes the entry at position k (0 = head).
func (f *fifo[T]) removeAt(k int) T {
	e := f.q[f.head+k]
	copy(f.q[f.head+k:], f.q[f.head+k+1:])
	f.q = f.q[:len(f.q)-1]
	return e
}

func (f *fifo[T]) compact() {
	if f.head == len(f.q) {
		f.q, f.head = f.q[:0], 0
	} else if f.head > 32 && f.head*2 > len(f.q) {
		n := copy(f.q, f.q[f.head:])
		f.q, f.head = f.q[:n], 0
	}
}
