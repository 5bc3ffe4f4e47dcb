package jobtable

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/swf"
)

// Beyond reports whether a request asks for more than a pool of CPUs
// can give: more than one node (Nodes > 1), GRES, exclusive nodes, a
// feature constraint, or memory per node for a job that may span nodes
// (of a job on one node, or of one task, it is its memory per CPU times
// its CPUs, which the pool fits as memory per processor, SWF field 10).
// Memory per CPU is not beyond.
func Beyond(q nodes.Request) bool {
	spans := q.Tasks > 1 && (q.Nodes != 1 || q.MaxNodes > 1)
	return q.Nodes > 1 || len(q.GRESPerNode) > 0 || len(q.GRESPerJob) > 0 || q.Exclusive || q.Constraint != "" || q.MemPerNodeMB > 0 && spans
}

// SWFReader is a job table read as SWF text: each row its Record (one
// line of swf.Writer), after a header of the table's comment lines
// before its header line, each as an SWF comment line ("# MaxProcs: 64"
// is "; MaxProcs: 64", which swf.Reader reads as the header's MaxProcs).
// It streams: one row at a time. The rows must come in submit order (a
// row's known submit time at least the last known one), as SWF's; an
// error of the table (a *ParseError at its line) is the error of Read.
type SWFReader struct {
	r          *Reader
	buf        bytes.Buffer
	w          *swf.Writer
	rows       int64
	beyond     int64
	last       float64
	haveLast   bool
	done       bool
	err        error
	whenDone   func(rows, beyond int64)
	headerDone bool
}

// NewSWFReader returns the SWF text of the table r reads; whenDone, if
// not nil, is called once at the end of the table with the rows read
// and how many of them ask for more than CPUs (Beyond).
func NewSWFReader(r *Reader, whenDone func(rows, beyond int64)) *SWFReader {
	s := &SWFReader{r: r, whenDone: whenDone}
	s.w = swf.NewWriter(&s.buf)
	return s
}

// Counts are the rows read so far and how many of them are Beyond.
func (s *SWFReader) Counts() (rows, beyond int64) { return s.rows, s.beyond }

// Read reads SWF text.
func (s *SWFReader) Read(p []byte) (int, error) {
	for s.buf.Len() == 0 {
		if s.err != nil {
			return 0, s.err
		}
		s.fill()
	}
	return s.buf.Read(p)
}

// fill puts the header, or the next row, into the buffer, or sets err.
func (s *SWFReader) fill() {
	if !s.headerDone {
		s.headerDone = true
		lines := []string{" Note: converted from the schedlab job table " + strings.NewReplacer("\n", " ", "\r", " ").Replace(s.r.Name())}
		for _, c := range s.r.Comments() {
			lines = append(lines, " "+c)
		}
		s.err = s.w.WriteHeader(swf.Header{Lines: lines})
		if s.err == nil {
			s.err = s.w.Flush()
		}
		return
	}
	row, err := s.r.Next()
	if err == io.EOF {
		if !s.done && s.whenDone != nil {
			s.whenDone(s.rows, s.beyond)
		}
		s.done, s.err = true, io.EOF
		return
	}
	if err != nil {
		s.err = err
		return
	}
	s.rows++
	if Beyond(row.Request) {
		s.beyond++
	}
	if sub := row.Record.Submit; sub != -1 {
		if s.haveLast && sub < s.last {
			s.err = &ParseError{File: s.r.Name(), Line: s.r.Line(), Column: "submit", Err: fmt.Errorf("%v is before the previous job's %v: the rows must come in submit order", sub, s.last)}
			return
		}
		s.last, s.haveLast = sub, true
	}
	if err := s.w.Write(row.Record); err != nil {
		s.err = &ParseError{File: s.r.Name(), Line: s.r.Line(), Err: err}
		return
	}
	s.err = s.w.Flush()
}
