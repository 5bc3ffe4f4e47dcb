package jobtable

import (
	"bytes"
	"errors"
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
// It streams: one row at a time. It is a swf.RequestFeed: an swf.Reader
// of it gives each record its row's request (RowRequest), so that the
// jobs of swf.Source carry them (actual.Job.Req). The SWF text keeps the table's line
// numbers (a row is on its table line; blank lines fill in), so that
// swf.Reader's errors name the table's lines. The rows must come in
// submit order (a row's known submit time at least the last known one),
// as SWF's. An error of the table is the error of Read: a *LineError,
// whose text leaves out the file and line that swf.Reader puts before
// it.
type SWFReader struct {
	r          *Reader
	buf        bytes.Buffer
	w          *swf.Writer
	lines      int // SWF lines written
	rows       int64
	beyond     int64
	last       float64
	haveLast   bool
	done       bool
	err        error
	whenDone   func(rows, beyond int64)
	headerDone bool

	// reqs[head:] are the requests of the rows written and not yet
	// asked for (RequestAt), in line order: those of the text swf.Reader
	// has buffered ahead, so at most its look-ahead's rows.
	reqs []lineRequest
	head int
}

// lineRequest is the request of the row on a line.
type lineRequest struct {
	line int
	req  *nodes.Request
}

// LineError is an error of a table read through an SWFReader: its text
// is the *ParseError's without the file and line, which Unwrap gives.
type LineError struct{ *ParseError }

func (e *LineError) Error() string {
	if e.Column == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("column %s: %v", e.Column, e.Err)
}

func (e *LineError) Unwrap() error { return e.ParseError }

// NewSWFReader returns the SWF text of the table r reads; whenDone, if
// not nil, is called once at the end of the table with the rows read
// and how many of them ask for more than CPUs (Beyond).
func NewSWFReader(r *Reader, whenDone func(rows, beyond int64)) *SWFReader {
	s := &SWFReader{r: r, whenDone: whenDone}
	s.w = swf.NewWriter(&s.buf)
	return s
}

// RowRequest is what a job of a table asks for, as actual.Job.Req
// carries it: nil when the request is exactly nodes.FromProcs of its
// processors (procs, else req_procs: tasks of one CPU, and nothing
// else), or when the row has no processors; else the request. A pool of
// CPUs ignores it.
func RowRequest(row Row) *nodes.Request {
	q := row.Request
	procs := row.Record.AllocProcs
	if procs <= 0 {
		procs = row.Record.ReqProcs
	}
	if q.Tasks == 0 || q.Tasks == procs && q.CPUsPerTask == 1 && q.Nodes == 0 && q.MaxNodes == 0 &&
		q.MemPerNodeMB == 0 && q.MemPerCPUMB == 0 && len(q.GRESPerNode) == 0 && len(q.GRESPerJob) == 0 &&
		q.Constraint == "" && !q.Exclusive {
		return nil
	}
	return &q
}

// RequestAt is the request (RowRequest) of the row on line line of the
// text; the requests of earlier lines are dropped (swf.RequestFeed).
func (s *SWFReader) RequestAt(line int) *nodes.Request {
	for s.head < len(s.reqs) && s.reqs[s.head].line < line {
		s.reqs[s.head] = lineRequest{}
		s.head++
	}
	var q *nodes.Request
	if s.head < len(s.reqs) && s.reqs[s.head].line == line {
		q = s.reqs[s.head].req
		s.reqs[s.head] = lineRequest{}
		s.head++
	}
	if s.head == len(s.reqs) {
		s.reqs, s.head = s.reqs[:0], 0
	} else if s.head >= 64 && 2*s.head >= len(s.reqs) {
		n := copy(s.reqs, s.reqs[s.head:])
		clear(s.reqs[n:])
		s.reqs, s.head = s.reqs[:n], 0
	}
	return q
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

// upTo writes blank lines until the text has line-1 lines.
func (s *SWFReader) upTo(line int) {
	for ; s.lines < line-1; s.lines++ {
		s.buf.WriteByte('\n')
	}
}

// fail ends the text with err, on its table line.
func (s *SWFReader) fail(err error) {
	var pe *ParseError
	if errors.As(err, &pe) && pe.Line > 0 {
		s.upTo(pe.Line)
		err = &LineError{pe}
	}
	s.err = err
}

// fill puts the header, or the next row, into the buffer, or sets err.
func (s *SWFReader) fill() {
	if !s.headerDone {
		s.headerDone = true
		lines := []string{" Note: converted from the schedlab job table " + strings.NewReplacer("\n", " ", "\r", " ").Replace(s.r.Name())}
		for _, c := range s.r.Comments() {
			lines = append(lines, " "+c)
		}
		s.lines = len(lines)
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
		s.fail(err)
		return
	}
	s.rows++
	if Beyond(row.Request) {
		s.beyond++
	}
	line := s.r.Line()
	if sub := row.Record.Submit; sub != -1 {
		if s.haveLast && sub < s.last {
			s.fail(&ParseError{File: s.r.Name(), Line: line, Column: "submit", Err: fmt.Errorf("%v is before the previous job's %v: the rows must come in submit order", sub, s.last)})
			return
		}
		s.last, s.haveLast = sub, true
	}
	s.upTo(line)
	if err := s.w.Write(row.Record); err != nil {
		s.fail(&ParseError{File: s.r.Name(), Line: line, Err: err})
		return
	}
	s.lines++
	if q := RowRequest(row); q != nil {
		s.reqs = append(s.reqs, lineRequest{line, q})
	}
	s.err = s.w.Flush()
}

var _ swf.RequestFeed = (*SWFReader)(nil)

// CoresAlone reports whether every row of the job table at path asks
// for cores alone on a platform of nodes (nodes.CoresAlone of its
// RowRequest), reading the table through once; every row counts, even
// one a run would skip. A row that does not parse is the error.
func CoresAlone(path string) (bool, error) {
	r, err := Open(path)
	if err != nil {
		return false, err
	}
	defer r.Close()
	for {
		row, err := r.Next()
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if !nodes.CoresAlone(RowRequest(row)) {
			return false, nil
		}
	}
}
