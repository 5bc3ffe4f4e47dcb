package workload

import (
	"errors"
	"io"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

type countSource struct {
	n, limit int
	err      error
}

func (c *countSource) Next() (actual.Job, error) {
	if c.n == c.limit {
		if c.err != nil {
			return actual.Job{}, c.err
		}
		return actual.Job{}, io.EOF
	}
	c.n++
	return actual.Job{ID: job.ID(c.n)}, nil
}

// Prefetch gives the same jobs in the same order, then the same error.
func TestPrefetchSameStream(t *testing.T) {
	bad := errors.New("line 7: broken")
	for _, c := range []struct {
		limit, batch int
		err          error
	}{{0, 4, nil}, {10, 4, nil}, {12, 4, nil}, {1000, 64, nil}, {7, 3, bad}} {
		src := &countSource{limit: c.limit, err: c.err}
		p := Prefetch(src, c.batch)
		for i := 1; i <= c.limit; i++ {
			j, err := p.Next()
			if err != nil || j.ID != job.ID(i) {
				t.Fatalf("limit %d: job %d: got %d, %v", c.limit, i, j.ID, err)
			}
		}
		want := c.err
		if want == nil {
			want = io.EOF
		}
		for k := 0; k < 2; k++ {
			if _, err := p.Next(); err != want {
				t.Fatalf("limit %d: err %v, want %v", c.limit, err, want)
			}
		}
		p.Close()
		if src.n != c.limit {
			t.Fatalf("source read %d", src.n)
		}
	}
}

// Closing before the end stops the reader.
func TestPrefetchClose(t *testing.T) {
	src := &countSource{limit: 1 << 30}
	p := Prefetch(src, 16)
	p.Next()
	p.Close()
	n := src.n
	if n > 16*4 {
		t.Fatalf("reader went on to %d jobs after Close", n)
	}
}
