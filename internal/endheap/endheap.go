package endheap

import "github.com/schedlab/schedlab/job"

// Item is a job and its time.
type Item struct {
	At float64
	ID job.ID
}

func (a Item) less(b Item) bool {
	if a.At != b.At {
		return a.At < b.At
	}
	return a.ID < b.ID
}

// Heap is a min-heap of Items by (At, ID); h[0] is the least. The zero
// value is empty and ready.
type Heap []Item

// Push adds x.
func (h *Heap) Push(x Item) {
	*h = append(*h, x)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

// Pop removes and returns the least item; h must not be empty.
func (h *Heap) Pop() Item {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	*h = s
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && s[r].less(s[l]) {
			c = r
		}
		if !s[c].less(s[i]) {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	return top
}
