package workload

import (
	"io"
	"sync"

	"github.com/schedlab/schedlab/job/actual"
)

// Prefetch reads src ahead in a goroutine of its own, in batches of n
// jobs, so that parsing a trace overlaps with simulating it. The jobs and
// the error (io.EOF or a read error, after the jobs before it) come out
// exactly as src gives them: results do not change. Close stops the reader
// early; after Next has returned an error, src may be inspected (for
// counts) without a race.
//
// Batches are recycled: once Next has handed out every job of a batch, its
// storage goes back to the reader, so a whole trace is read in a few
// batches' worth of memory.
func Prefetch(src Source, n int) *Prefetcher {
	p := &Prefetcher{ch: make(chan batch, 2), free: make(chan []actual.Job, 4), done: make(chan struct{})}
	into, _ := src.(intoSource)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer close(p.ch)
		for {
			var b batch
			select {
			case b.jobs = <-p.free:
			default:
				b.jobs = make([]actual.Job, 0, n)
			}
			for len(b.jobs) < n {
				if into != nil {
					// Read in place: a job copied out of each layer
					// cost more than the rest of the loop.
					k := len(b.jobs)
					b.jobs = b.jobs[:k+1]
					if err := into.NextInto(&b.jobs[k]); err != nil {
						b.jobs = b.jobs[:k]
						b.err = err
						break
					}
					continue
				}
				j, err := src.Next()
				if err != nil {
					b.err = err
					break
				}
				b.jobs = append(b.jobs, j)
			}
			select {
			case p.ch <- b:
			case <-p.done:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	return p
}

// intoSource is a Source that can also write its next job in place; on
// error the job is unchanged. A job read so is the one Next would return.
type intoSource interface {
	NextInto(j *actual.Job) error
}

type batch struct {
	jobs []actual.Job
	err  error
}

// Prefetcher is a Source that reads ahead; see Prefetch.
type Prefetcher struct {
	ch    chan batch
	free  chan []actual.Job // consumed batches, for the reader to refill
	done  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
	cur   batch
	i     int
	final error
}

// Next returns the next job, or the source's error once its jobs are out.
func (p *Prefetcher) Next() (actual.Job, error) {
	if err := p.ready(); err != nil {
		return actual.Job{}, err
	}
	p.i++
	return p.cur.jobs[p.i-1], nil
}

// NextInto is Next writing the job to *j: one copy, from the batch the
// reader filled to the consumer's own storage (the kernel's job slot),
// where Next's result was copied once more. On error *j is unchanged.
func (p *Prefetcher) NextInto(j *actual.Job) error {
	if err := p.ready(); err != nil {
		return err
	}
	*j = p.cur.jobs[p.i]
	p.i++
	return nil
}

// ready makes p.cur hold a job at p.i, taking the next batch when the
// current one is used up, or returns the final error.
func (p *Prefetcher) ready() error {
	for p.i == len(p.cur.jobs) {
		if p.final != nil {
			return p.final
		}
		if p.cur.err != nil {
			p.final = p.cur.err
			p.wg.Wait() // the reader has stopped: src is ours again
			return p.final
		}
		if p.cur.jobs != nil {
			select {
			case p.free <- p.cur.jobs[:0]:
			default:
			}
		}
		b, ok := <-p.ch
		if !ok {
			p.final = io.ErrUnexpectedEOF
			return p.final
		}
		p.cur, p.i = b, 0
	}
	return nil
}

// Close stops the reader goroutine and waits for it.
func (p *Prefetcher) Close() {
	p.once.Do(func() { close(p.done) })
	p.wg.Wait()
}
