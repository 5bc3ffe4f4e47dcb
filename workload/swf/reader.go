package swf

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/schedlab/schedlab/platform/nodes"
)

// bufSize is the read buffer size. Longer lines are still read whole.
const bufSize = 64 << 10

// MaxLineLength bounds the length of one line of a trace, header comments
// included, in bytes: a longer line is refused (ErrLineTooLong) as soon as
// its first MaxLineLength bytes are read, so a file of one huge line costs
// neither time nor memory.
const MaxLineLength = 1 << 20

// MaxHeaderLines and MaxHeaderBytes bound the header, the comment lines
// before the first job, which a Reader keeps (Header.Lines): a header of
// more lines, or of more bytes of comment text, is refused
// (ErrHeaderTooLong) at the first line beyond the bound. The headers of
// the Parallel Workloads Archive have a few dozen lines.
const (
	MaxHeaderLines = 100_000
	MaxHeaderBytes = 16 << 20
)

// MaxLinesWithoutJob bounds the lines in a row that hold no job (blank
// lines, and comment lines, in the header or between jobs): more are
// refused (ErrNoJobLines) at the first line beyond. Each costs a read
// and no memory, so without a bound a gzip file of nothing but newlines
// (4 GiB of them from a few MB) took minutes to say nothing.
const MaxLinesWithoutJob = 1_000_000

// Reader reads SWF records one at a time. Create it with NewReader or Open.
type Reader struct {
	name string
	in   sliceReader  // the text: the input itself, or the gzip stream
	gz   *gzip.Reader // non-nil for gzip input
	gzr  *asyncReader // decompresses gz in the background
	file *os.File     // opened by Open; closed by Close
	hdr  Header

	line    int    // lines consumed so far
	recLine int    // line of the last record returned
	long    []byte // assembles lines longer than the buffer
	pending []byte // first job line, read while scanning the header
	hasPend bool
	hdrSize int   // bytes of header text kept in hdr.Lines
	idle    int   // lines in a row without a job (MaxLinesWithoutJob)
	atEOF   bool  // the last line had no newline; next read is io.EOF
	err     error // sticky read error (or io.EOF)

	prevSubmit float64 // last known (not -1) submit time
	havePrev   bool

	feed RequestFeed    // the requests of the records, by line (nil: none)
	req  *nodes.Request // the request of the last record returned
}

// RequestFeed hands a Reader what each record asks of a platform of
// nodes, which SWF has no field for: a text whose records come with
// requests (a job table read as SWF, jobtable.SWFReader) implements it,
// and NewReader, given such an io.Reader, asks it for the request of
// each record it reads.
type RequestFeed interface {
	// RequestAt returns the request of the record on line line (nil:
	// none beyond its processors) and forgets those of the lines before
	// it, which the Reader will not ask for. It is called for every
	// record, in increasing line order, by the goroutine that reads the
	// text, after the text up to that line has been read.
	RequestAt(line int) *nodes.Request
}

// NewReader returns a Reader of the SWF text in r, plain or gzip-compressed
// (recognised by its magic bytes). name is used in error messages. The
// header is read at once: NewReader returns a *ParseError if a known
// numeric header value is malformed or the input cannot be read.
//
// Gzip input is decompressed by a background goroutine (so decompression
// and parsing overlap), reading ahead at most about 1 MB. It stops at the
// end of the input, on Close, or when the Reader is garbage-collected.
// Close a Reader that is abandoned before the end so r is no longer read.
func NewReader(r io.Reader, name string) (*Reader, error) {
	raw := bufio.NewReaderSize(r, bufSize)
	rd := &Reader{name: name, in: raw}
	rd.feed, _ = r.(RequestFeed)
	magic, err := raw.Peek(2)
	switch {
	case len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		gz, err := gzip.NewReader(raw)
		if err != nil {
			return nil, &ParseError{File: name, Err: fmt.Errorf("%w: %w", ErrTruncated, err)}
		}
		rd.gz = gz
		rd.gzr = newAsyncReader(gz)
		rd.in = rd.gzr // lines read where the decompressor wrote them
		// Stop the decompressing goroutine if the Reader is dropped
		// without Close.
		runtime.AddCleanup(rd, func(c *asyncCtl) { c.stop(false) }, rd.gzr.ctl)
	case err != nil && err != io.EOF:
		return nil, &ParseError{File: name, Err: err}
	}
	if err := rd.readHeader(); err != nil {
		rd.stop()
		return nil, err
	}
	return rd, nil
}

// sliceReader is what readLine reads lines from: a bufio.Reader of
// bufSize bytes over a plain input, the decompressing goroutine's chunks
// (asyncReader) over a gzip one.
type sliceReader interface {
	ReadSlice(delim byte) ([]byte, error)
}

// errClosed is returned by Next after Close.
var errClosed = errors.New("swf: read after Close")

func (r *Reader) stop() {
	if r.gzr != nil {
		r.gzr.ctl.stop(true)
	}
	r.err = errClosed
	r.hasPend = false
}

// Open opens the SWF file at path (plain or gzip) and reads its header.
// Close the Reader when done.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	return r, nil
}

// Close stops the background decompression of a gzip input and closes the
// file opened by Open. It does not close the io.Reader given to NewReader
// (the caller owns it). Next returns an error after Close.
func (r *Reader) Close() error {
	r.stop()
	if r.file == nil {
		return nil
	}
	err := r.file.Close()
	r.file = nil
	return err
}

// Name returns the name used in error messages.
func (r *Reader) Name() string { return r.name }

// HasRequests reports whether the text gives its records requests on
// nodes (a RequestFeed: a job table read as SWF). Without, every
// record's Request is nil.
func (r *Reader) HasRequests() bool { return r.feed != nil }

// Header returns the trace header (the comment lines before the first job).
func (r *Reader) Header() Header { return r.hdr }

// Line returns the line number of the last record returned by Next.
func (r *Reader) Line() int { return r.recLine }

// Request returns what the last record returned by Next asks of a
// platform of nodes, given by the RequestFeed of the text (see
// NewReader); nil when it asks for nothing beyond its processors, or the
// text gives no requests. Source sets it as the job's actual.Job.Req.
func (r *Reader) Request() *nodes.Request { return r.req }

// readHeader consumes the comment and blank lines before the first job
// line, which it keeps for Next.
func (r *Reader) readHeader() error {
	for {
		line, err := r.readLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if r.line == 1 && bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
			return &ParseError{File: r.name, Line: 1, Err: ErrBOM}
		}
		s := trimLeft(line)
		if len(s) == 0 || s[0] == ';' {
			if err := r.noJob(); err != nil {
				return err
			}
		}
		if len(s) == 0 {
			continue
		}
		if s[0] != ';' {
			r.pending = append(r.pending[:0], line...)
			r.hasPend = true
			return nil
		}
		r.hdrSize += len(s) - 1
		if len(r.hdr.Lines) == MaxHeaderLines || r.hdrSize > MaxHeaderBytes {
			r.err = &ParseError{File: r.name, Line: r.line, Err: ErrHeaderTooLong}
			return r.err
		}
		text := string(s[1:])
		r.hdr.Lines = append(r.hdr.Lines, text)
		if name, err := r.hdr.parseLine(text); err != nil {
			return &ParseError{File: r.name, Line: r.line, Name: name, Err: err}
		}
	}
}

// noJob counts a line without a job, refusing one beyond
// MaxLinesWithoutJob in a row (for good: every later call returns the
// error again).
func (r *Reader) noJob() error {
	r.idle++
	if r.idle > MaxLinesWithoutJob {
		r.err = &ParseError{File: r.name, Line: r.line, Err: ErrNoJobLines}
		return r.err
	}
	return nil
}

// readLine returns the next line without its terminator ("\n", with any
// "\r" before it). The slice is valid until the next call.
func (r *Reader) readLine() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.atEOF {
		r.err = io.EOF
		return nil, io.EOF
	}
	line, err := r.in.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(r.long) > MaxLineLength {
				r.err = &ParseError{File: r.name, Line: r.line + 1, Err: tooLong(r.long)}
				return nil, r.err
			}
			line, err = r.in.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		if len(r.long) > MaxLineLength+1 { // +1: the newline
			r.err = &ParseError{File: r.name, Line: r.line + 1, Err: tooLong(r.long)}
			return nil, r.err
		}
		line = r.long
	}
	if err != nil {
		if err != io.EOF {
			// Never hand out the partial line before a read error.
			r.err = r.readError(err)
			return nil, r.err
		}
		if len(line) == 0 {
			r.err = io.EOF
			return nil, io.EOF
		}
		r.atEOF = true // last line without a final newline
	}
	r.line++
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
	}
	for n > 0 && line[n-1] == '\r' {
		n--
	}
	if bytes.IndexByte(line[:n], '\r') >= 0 {
		// A CR inside a line: the file's lines end in CR alone.
		r.err = &ParseError{File: r.name, Line: r.line, Err: ErrCROnly}
		return nil, r.err
	}
	return line[:n], nil
}

// tooLong is the error of a line longer than MaxLineLength: ErrCROnly if
// it holds a CR (a file whose lines end in CR alone is one long line),
// else ErrLineTooLong.
func tooLong(line []byte) error {
	if bytes.IndexByte(line, '\r') >= 0 {
		return ErrCROnly
	}
	return ErrLineTooLong
}

func (r *Reader) readError(err error) error {
	if r.gz != nil {
		err = fmt.Errorf("%w: %w", ErrTruncated, err)
	}
	return &ParseError{File: r.name, Line: r.line + 1, Err: err}
}

func trimLeft(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// Next returns the next record. It returns io.EOF at the end of the input
// and a *ParseError for a malformed line or a read error. Blank and
// comment lines are skipped. After a ParseError about one line, Next may
// be called again and continues with the following line; read errors
// (ErrTruncated) are returned again by every later call.
func (r *Reader) Next() (Record, error) {
	var rec Record
	if err := r.next(&rec); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// next is Next writing the record to *rec (a record of hundreds of bytes
// returned through every layer was copied at each). A line that does not
// parse leaves *rec unchanged; after an unsorted-submit error *rec holds
// the refused record. Callers pass a variable of their own either way.
func (r *Reader) next(rec *Record) error {
	for {
		var line []byte
		if r.hasPend {
			line, r.hasPend = r.pending, false
		} else {
			var err error
			if line, err = r.readLine(); err != nil {
				return err
			}
		}
		s := trimLeft(line)
		if len(s) == 0 || s[0] == ';' {
			if err := r.noJob(); err != nil {
				return err
			}
			continue
		}
		r.idle = 0
		if field, err := parseLineInto(s, rec); err != nil {
			if r.recLine == 0 {
				if h := notSWF(s); h != "" {
					err = fmt.Errorf("%w; %s", err, h)
				}
			}
			return &ParseError{File: r.name, Line: r.line, Field: field, Name: FieldName(field), Err: err}
		}
		if rec.Submit != -1 {
			if r.havePrev && rec.Submit < r.prevSubmit {
				return &ParseError{File: r.name, Line: r.line, Field: 2, Name: FieldName(2),
					Err: fmt.Errorf("%w: %s after %s", ErrUnsorted, strconv.FormatFloat(rec.Submit, 'f', -1, 64), strconv.FormatFloat(r.prevSubmit, 'f', -1, 64))}
			}
			r.prevSubmit, r.havePrev = rec.Submit, true
		}
		r.recLine = r.line
		if r.feed != nil {
			r.req = r.feed.RequestAt(r.line)
		}
		return nil
	}
}

// notSWF says what the first job line of a file that does not parse as
// SWF looks like, and what to run instead: a sacct export, a JSON file
// (a Batsim workload, sacct --json, a run's summary.json) or a jobs.csv
// a run wrote. "" when it looks like none of them.
func notSWF(line []byte) string {
	l := string(line)
	switch {
	case strings.Count(l, "|") >= 2:
		return "this looks like a sacct --parsable2 export, not an SWF trace: convert it with schedlab trace import --from sacct FILE --out TRACE.swf and give that to --trace (docs/slurm.md)"
	case strings.HasPrefix(l, "{") || strings.HasPrefix(l, "["):
		return "this looks like JSON, not an SWF trace: a Batsim workload or sacct --json output converts with schedlab trace import --from batsim|sacct FILE --out TRACE.swf; a summary.json is a run's output, not a trace"
	case strings.HasPrefix(l, "job_id,") || strings.HasPrefix(l, "\"job_id\","):
		return "this looks like a jobs.csv a run wrote (its per-job output), not an SWF trace: give the trace the run read to --trace, or the run's folder to schedlab report"
	case strings.Count(l, ",") >= 3:
		return "this looks like a CSV file, not an SWF trace (18 fields separated by spaces a line; docs/traces.md)"
	}
	return ""
}
