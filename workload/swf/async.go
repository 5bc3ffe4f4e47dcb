package swf

import (
	"io"
	"sync"
)

// asyncReader runs a (slow) io.Reader, the gzip decompressor, in a
// goroutine of its own, so that decompression and parsing overlap on two
// cores. It hands over filled chunks through a small ring of buffers;
// memory stays bounded (chunks × chunkSize).
//
// The goroutine stops at the end of the input, on a read error, or when
// stop is called (by Reader.Close, or by a cleanup when an abandoned
// Reader is garbage collected).
type asyncReader struct {
	full chan []byte // filled chunks, closed after the last one
	free chan []byte // chunks handed back for refilling
	err  error       // the final read error (io.EOF at a clean end); set before full is closed
	cur  []byte      // unread rest of the chunk being consumed
	held []byte      // the chunk being consumed, to hand back
	ctl  *asyncCtl
}

// asyncCtl is what stopping needs; it must not refer to the Reader, so a
// cleanup attached to the Reader can use it.
type asyncCtl struct {
	once   sync.Once
	done   chan struct{} // closed to ask the goroutine to stop
	exited chan struct{} // closed by the goroutine when it returns
}

// stop asks the goroutine to stop and, if wait is set, waits until it has
// returned (at most the time of one read from the source).
func (c *asyncCtl) stop(wait bool) {
	c.once.Do(func() { close(c.done) })
	if wait {
		<-c.exited
	}
}

const (
	asyncChunks    = 4
	asyncChunkSize = 256 << 10
)

func newAsyncReader(src io.Reader) *asyncReader {
	a := &asyncReader{
		full: make(chan []byte, asyncChunks),
		free: make(chan []byte, asyncChunks),
		ctl:  &asyncCtl{done: make(chan struct{}), exited: make(chan struct{})},
	}
	for range asyncChunks {
		a.free <- make([]byte, asyncChunkSize)
	}
	go a.run(src)
	return a
}

func (a *asyncReader) run(src io.Reader) {
	defer close(a.ctl.exited)
	defer close(a.full)
	for {
		var buf []byte
		select {
		case buf = <-a.free:
		case <-a.ctl.done:
			a.err = io.ErrClosedPipe
			return
		}
		n := 0
		var err error
		for n < len(buf) && err == nil {
			var m int
			m, err = src.Read(buf[n:])
			n += m
		}
		if n > 0 {
			select {
			case a.full <- buf[:n]:
			case <-a.ctl.done:
				a.err = io.ErrClosedPipe
				return
			}
		}
		if err != nil {
			a.err = err
			return
		}
	}
}

// Read implements io.Reader for the consuming side (one goroutine only).
func (a *asyncReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.held != nil {
			a.free <- a.held[:cap(a.held)]
			a.held = nil
		}
		chunk, ok := <-a.full
		if !ok {
			return 0, a.err
		}
		a.cur, a.held = chunk, chunk
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}
