package workload

import (
	"fmt"
	"io"

	"github.com/schedlab/schedlab/job/actual"
)

// MaxPrefixJobs bounds a prefix (First): the first n jobs of a trace,
// at most this many (scenario key workload.jobs).
const MaxPrefixJobs = 100_000_000

// PrefixSource yields the first n jobs of its source, then io.EOF; a
// source that ends before its n-th job is an error (ShortError): the
// run asked for n jobs.
type PrefixSource struct {
	src  Source
	n    int64
	seen int64
}

// First is the first n (1..MaxPrefixJobs) jobs of src.
func First(src Source, n int64) *PrefixSource { return &PrefixSource{src: src, n: n} }

// ShortError is a source that ended before the n jobs of a prefix.
type ShortError struct {
	Jobs, Want int64
}

func (e *ShortError) Error() string {
	return fmt.Sprintf("%d jobs, fewer than the %d asked for (workload.jobs)", e.Jobs, e.Want)
}

// Next returns the next job of the prefix.
func (p *PrefixSource) Next() (actual.Job, error) {
	if p.seen >= p.n {
		return actual.Job{}, io.EOF
	}
	j, err := p.src.Next()
	if err == io.EOF {
		return j, &ShortError{Jobs: p.seen, Want: p.n}
	}
	if err == nil {
		p.seen++
	}
	return j, err
}

// SubmitZero is src with every job submitted at time 0 (a batch: every
// job waits from the start), in src's order.
func SubmitZero(src Source) Source { return &zeroSubmit{src} }

type zeroSubmit struct{ src Source }

func (z *zeroSubmit) Next() (actual.Job, error) {
	j, err := z.src.Next()
	j.Submit = 0
	j.Recorded, j.RecordedWait = false, 0 // the recorded waits were from the recorded submissions
	return j, err
}
