package swf

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// errAfter is an input that fails with err after its text.
type errAfter struct {
	r   io.Reader
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		err = e.err
	}
	return n, err
}

// readChunked is every record and the error that ends a Reader's input, as
// text, with the line of each.
func readChunked(r *Reader) string {
	var b strings.Builder
	for {
		rec, err := r.Next()
		if err != nil {
			fmt.Fprintf(&b, "end: %v\n", err)
			return b.String()
		}
		fmt.Fprintf(&b, "%d: %+v\n", r.Line(), rec)
	}
}

// newChunked is a Reader whose lines come from an asyncReader of chunks of
// size bytes over text, as a gzip input's lines do (the decompressor
// replaced by the text itself).
func newChunked(in io.Reader, name string, size int) (*Reader, error) {
	a := newAsyncReaderSize(in, size)
	r := &Reader{name: name, in: a, gzr: a}
	if err := r.readHeader(); err != nil {
		r.stop()
		return nil, err
	}
	return r, nil
}

// Lines read in place from the decompressor's chunks are the lines a
// bufio.Reader of bufSize bytes gives: the same records, line numbers
// and errors (too long, CR only, a read error naming the line after the
// last whole one, a last line without a newline), wherever the chunk
// boundaries fall, for lines shorter than, as long as and longer than the
// buffer, and around MaxLineLength.
func TestChunkedLinesMatchBufio(t *testing.T) {
	job := "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1"
	pad := func(n int) string { return "; " + strings.Repeat("x", max(n-2, 0)) }
	texts := []string{
		"",
		job,
		job + "\n",
		"; MaxProcs: 8\n" + job + "\n" + job,
		"; MaxProcs: 8\n" + pad(bufSize-1) + "\n" + job + "\n" + pad(bufSize) + "\n" + job + "\n" + pad(bufSize+1) + "\n" + job + "\n",
		"; MaxProcs: 8\n" + job + "\n" + pad(3*bufSize+17) + "\n" + job + "\n",
		"; MaxProcs: 8\n" + job + "\n" + strings.Repeat("9", MaxLineLength+1) + "\n" + job + "\n",
		"; MaxProcs: 8\n" + job + "\n" + strings.Repeat("9", MaxLineLength) + "\n",
		"; MaxProcs: 8\n" + job + "\n" + strings.Repeat("9", MaxLineLength+bufSize/2) + "\r" + strings.Repeat("9", bufSize) + "\n",
		"; MaxProcs: 8\n" + job + "\r" + job + "\r",
		"; MaxProcs: 8\n" + job + "\r\n" + job + "\n2 1 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 x -1 -1\n" + job + "\n",
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		var b strings.Builder
		b.WriteString("; MaxProcs: 64\n")
		for i := range 300 + rnd.IntN(300) {
			switch rnd.IntN(20) {
			case 0:
				b.WriteString(pad(rnd.IntN(2 * bufSize)))
			case 1:
				b.WriteString("")
			default:
				fmt.Fprintf(&b, "%d %d 0 %d 2 -1 -1 2 %d -1 1 1 1 -1 -1 -1 -1 -1", i+1, i, rnd.IntN(1000), rnd.IntN(2000))
			}
			b.WriteString("\n")
		}
		texts = append(texts, b.String())
	}
	broken := errors.New("unexpected EOF in the input")
	for ti, text := range texts {
		for _, fail := range []bool{false, true} {
			if fail && len(text) < 2 {
				continue // the plain Reader fails in its first Peek, before lines
			}
			in := func() io.Reader {
				if fail {
					return &errAfter{r: strings.NewReader(text), err: broken}
				}
				return strings.NewReader(text)
			}
			var want string
			if r, err := NewReader(in(), "t.swf"); err != nil {
				want = fmt.Sprintf("open: %v\n", err)
			} else {
				want = readChunked(r)
			}
			for _, size := range []int{1, 7, 100, 4096, bufSize - 1, bufSize, bufSize + 1, 3*bufSize + 5, asyncChunkSize} {
				if size < 100 && len(text) > 4*bufSize {
					continue // a channel handoff per byte: slow, and no boundary case the others miss
				}
				var got string
				if r, err := newChunked(in(), "t.swf", size); err != nil {
					got = fmt.Sprintf("open: %v\n", err)
				} else {
					got = readChunked(r)
					r.Close()
				}
				if got != want {
					t.Fatalf("text %d (failing input %v), chunks of %d bytes:\n got %.600s\nwant %.600s", ti, fail, size, got, want)
				}
			}
		}
	}
}
