package swf

import (
	"bufio"
	"bytes"
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
	full  chan []byte // filled chunks, closed after the last one
	free  chan []byte // chunks handed back for refilling
	err   error       // the final read error (io.EOF at a clean end); set before full is closed
	cur   []byte      // unread rest of the chunk being consumed
	held  []byte      // the chunk being consumed, to hand back
	carry []byte      // a line that crosses chunks, assembled (at most bufSize bytes)
	ctl   *asyncCtl
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

func newAsyncReader(src io.Reader) *asyncReader { return newAsyncReaderSize(src, asyncChunkSize) }

// newAsyncReaderSize is newAsyncReader with chunks of size bytes (tests
// cut lines at other places with small chunks).
func newAsyncReaderSize(src io.Reader, size int) *asyncReader {
	a := &asyncReader{
		full: make(chan []byte, asyncChunks),
		free: make(chan []byte, asyncChunks),
		ctl:  &asyncCtl{done: make(chan struct{}), exited: make(chan struct{})},
	}
	for range asyncChunks {
		a.free <- make([]byte, size)
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

// ReadSlice is bufio.Reader's ReadSlice over the filled chunks, for the
// consuming side (one goroutine only): the line up to and including
// delim, valid until the next call; a line longer than bufSize comes in
// pieces of bufSize bytes with bufio.ErrBufferFull; at the end, the rest
// with the final error. A line inside one chunk is handed out in place
// (no copy through a bufio buffer: the text is parsed where the
// decompressor wrote it); only a line that crosses chunks is assembled,
// in a buffer of at most bufSize bytes, so the pieces are the ones a
// bufio.Reader of bufSize bytes returns and Reader.readLine sees the same
// lines, lengths and errors.
func (a *asyncReader) ReadSlice(delim byte) ([]byte, error) {
	a.carry = a.carry[:0] // handed out by the last call, now free
	for {
		if len(a.cur) == 0 {
			if a.held != nil {
				a.free <- a.held[:cap(a.held)]
				a.held = nil
			}
			chunk, ok := <-a.full
			if !ok {
				if len(a.carry) > 0 {
					return a.carry, a.err
				}
				return nil, a.err
			}
			a.cur, a.held = chunk, chunk
		}
		room := bufSize - len(a.carry)
		seg := a.cur[:min(room, len(a.cur))]
		if i := bytes.IndexByte(seg, delim); i >= 0 {
			line := a.cur[:i+1]
			a.cur = a.cur[i+1:]
			if len(a.carry) == 0 {
				return line, nil
			}
			a.carry = append(a.carry, line...)
			return a.carry, nil
		}
		if len(a.cur) > room {
			// bufSize bytes without delim: a piece of a long line.
			a.cur = a.cur[room:]
			if len(a.carry) == 0 {
				return seg, bufio.ErrBufferFull
			}
			a.carry = append(a.carry, seg...)
			return a.carry, bufio.ErrBufferFull
		}
		// The chunk ends inside the line: keep its tail, read on.
		a.carry = append(a.carry, a.cur...)
		a.cur = nil
	}
}
