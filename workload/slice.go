package workload

import (
	"io"

	"github.com/schedlab/schedlab/job/actual"
)

// Slice is a Source over jobs held in memory (tests, programs that build
// workloads themselves). The jobs must be in submit order.
type Slice struct {
	jobs []actual.Job
	i    int
}

// FromSlice returns a Source that yields jobs in order, then io.EOF.
func FromSlice(jobs []actual.Job) *Slice { return &Slice{jobs: jobs} }

// Next returns the next job, or io.EOF after the last.
func (s *Slice) Next() (actual.Job, error) {
	if s.i == len(s.jobs) {
		return actual.Job{}, io.EOF
	}
	s.i++
	return s.jobs[s.i-1], nil
}
