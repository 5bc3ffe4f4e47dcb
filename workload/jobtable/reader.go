package jobtable

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/swf"
)

// ParseError is a problem at one line (and column) of a table.
type ParseError struct {
	File   string
	Line   int    // 1-based; 0 when not about a line
	Column string // the column's name; "" for the line as a whole
	Err    error
}

func (e *ParseError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	case e.Column == "":
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: column %s: %v", e.File, e.Line, e.Column, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Reader reads a job table one row at a time, plain or gzip-compressed
// (found by its magic bytes); it holds one line at a time.
type Reader struct {
	name  string
	sc    *bufio.Scanner
	file  *os.File
	line  int
	idx   [numCols]int // the position of each known column, -1 absent
	n     int          // columns of the header
	rows  int64
	cells []string
	err   error // sticky

	comments     []string // the comment lines before the header
	commentBytes int
	inHeader     bool
}

// Open opens the table at path. Close the Reader when done.
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

// NewReader reads the table in r (name is for messages) up to its header
// line: an error if the first line is not Magic or the header is
// malformed.
func NewReader(r io.Reader, name string) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var in io.Reader = br
	if b, _ := br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{File: name, Err: fmt.Errorf("not a valid gzip file: %w", err)}
		}
		in = gzErr{gz}
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	rd := &Reader{name: name, sc: sc, inHeader: true}
	first, err := rd.nextLine(true)
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: errors.New("empty: want a job table (its first line " + Magic + ")")}
	}
	if err != nil {
		return nil, err
	}
	if rd.line != 1 || first != Magic {
		return nil, &ParseError{File: name, Line: rd.line, Err: fmt.Errorf("not a job table: the first line is %.40q, want %q", first, Magic)}
	}
	head, err := rd.nextLine(false)
	if err == io.EOF {
		return nil, &ParseError{File: name, Line: rd.line, Err: errors.New("no header line (the column names) after " + Magic)}
	}
	if err != nil {
		return nil, err
	}
	if err := rd.header(head); err != nil {
		return nil, &ParseError{File: name, Line: rd.line, Err: err}
	}
	rd.inHeader = false
	return rd, nil
}

// IsJobTable reports whether the first line of a (decompressed) input,
// b, is Magic.
func IsJobTable(b []byte) bool {
	s := string(b)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, "\r") == Magic
}

// gzErr says that a read error comes from the gzip stream.
type gzErr struct{ r io.Reader }

func (g gzErr) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gzip stream truncated or corrupt: %w", err)
	}
	return n, err
}

// Name is the name given to NewReader (the path given to Open).
func (r *Reader) Name() string { return r.name }

// Line is the line of the last row read.
func (r *Reader) Line() int { return r.line }

// Close closes the file opened by Open (not the io.Reader given to
// NewReader); Next fails after it.
func (r *Reader) Close() error {
	r.err = errors.New("jobtable: read after Close")
	if r.file == nil {
		return nil
	}
	err := r.file.Close()
	r.file = nil
	return err
}

// nextLine returns the next line that is not blank and, unless comments,
// not a comment ("#..."), without its line ending; io.EOF at the end.
func (r *Reader) nextLine(comments bool) (string, error) {
	for skipped := 0; ; skipped++ {
		if skipped > MaxLinesWithoutJob {
			return "", &ParseError{File: r.name, Line: r.line, Err: fmt.Errorf("more than %d lines in a row without a job (blank or comment lines; jobtable.MaxLinesWithoutJob)", MaxLinesWithoutJob)}
		}
		if !r.sc.Scan() {
			err := r.sc.Err()
			switch {
			case err == nil:
				return "", io.EOF
			case errors.Is(err, bufio.ErrTooLong):
				return "", &ParseError{File: r.name, Line: r.line + 1, Err: fmt.Errorf("line longer than %d bytes (jobtable.MaxLine)", MaxLine)}
			}
			return "", &ParseError{File: r.name, Line: r.line + 1, Err: err}
		}
		r.line++
		t := strings.TrimSuffix(r.sc.Text(), "\r")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if !comments && t[0] == '#' {
			if r.inHeader && r.line > 1 {
				if err := r.keep(t); err != nil {
					return "", err
				}
			}
			continue
		}
		return t, nil
	}
}

// keep keeps a comment line before the header, within MaxComments lines
// and MaxCommentBytes bytes.
func (r *Reader) keep(t string) error {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "#"), " ")
	r.commentBytes += len(t)
	if len(r.comments) >= MaxComments || r.commentBytes > MaxCommentBytes {
		return &ParseError{File: r.name, Line: r.line, Err: fmt.Errorf("more than %d comment lines or %d bytes of them before the header line (jobtable.MaxComments, jobtable.MaxCommentBytes)", MaxComments, MaxCommentBytes)}
	}
	r.comments = append(r.comments, strings.Clone(t))
	return nil
}

// Comments are the comment lines between Magic and the header line,
// without their "#" and one space after it.
func (r *Reader) Comments() []string { return slices.Clone(r.comments) }

// header reads the column names.
func (r *Reader) header(text string) error {
	if strings.ContainsRune(text, '#') {
		return errHash
	}
	names := strings.Split(text, "\t")
	if len(names) > MaxColumns {
		return fmt.Errorf("%d columns: more than %d (jobtable.MaxColumns)", len(names), MaxColumns)
	}
	for i := range r.idx {
		r.idx[i] = -1
	}
	seen := map[string]bool{}
	for i, n := range names {
		if n == "" || seen[n] {
			return fmt.Errorf("column %d: name %q empty or given twice (columns are separated by one tab)", i+1, n)
		}
		seen[n] = true
		for c, k := range Columns {
			if k == n {
				r.idx[c] = i
			}
		}
	}
	var missing []string
	for _, n := range required {
		if !seen[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the header lacks the column(s) %s (have: %s)", strings.Join(missing, ", "), strings.Join(names, ", "))
	}
	r.n = len(names)
	r.cells = make([]string, 0, r.n)
	return nil
}

// Next returns the next row, io.EOF after the last; an error (a
// *ParseError naming the line and column) is returned again by every
// later call.
func (r *Reader) Next() (Row, error) {
	if r.err != nil {
		return Row{}, r.err
	}
	row, err := r.next()
	if err != nil {
		r.err = err
		return Row{}, err
	}
	return row, nil
}

func (r *Reader) next() (Row, error) {
	text, err := r.nextLine(false)
	if err != nil {
		return Row{}, err
	}
	if r.rows >= MaxJobs {
		return Row{}, &ParseError{File: r.name, Line: r.line, Err: fmt.Errorf("more than %d jobs (jobtable.MaxJobs)", MaxJobs)}
	}
	r.rows++
	if strings.ContainsRune(text, '#') {
		return Row{}, &ParseError{File: r.name, Line: r.line, Err: errHash}
	}
	if strings.ContainsRune(text, '\r') {
		return Row{}, &ParseError{File: r.name, Line: r.line, Err: errors.New("a carriage return (CR) inside the line: lines end in LF or CR LF")}
	}
	r.cells = splitTabs(r.cells[:0], text, r.n+1)
	if len(r.cells) != r.n {
		return Row{}, &ParseError{File: r.name, Line: r.line, Err: fmt.Errorf("%d fields, the header has %d (fields are separated by one tab)", len(r.cells), r.n)}
	}
	row, c, err := r.parse()
	if err != nil {
		pe := &ParseError{File: r.name, Line: r.line, Err: err}
		if c >= 0 {
			pe.Column = fmt.Sprintf("%d (%s)", r.idx[c]+1, Columns[c])
		}
		return Row{}, pe
	}
	return row, nil
}

// splitTabs appends the tab-separated fields of s to out, at most max of
// them (the rest in the last).
func splitTabs(out []string, s string, max int) []string {
	for len(out) < max-1 {
		i := strings.IndexByte(s, '\t')
		if i < 0 {
			break
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
	return append(out, s)
}

// cell is the text of known column c ("" when absent).
func (r *Reader) cell(c col) string {
	if r.idx[c] < 0 {
		return ""
	}
	return r.cells[r.idx[c]]
}

// parse reads the cells into a row; on error, the column (-1: the row
// as a whole).
func (r *Reader) parse() (Row, col, error) {
	row := Row{Record: swf.Record{AvgCPU: -1, Exec: -1, PrecedingJob: -1, ThinkTime: -1}}
	rec := &row.Record
	for _, t := range []struct {
		c col
		p *float64
		f func(string) (float64, error)
	}{{cSubmit, &rec.Submit, parseSeconds}, {cWait, &rec.Wait, parseSeconds}, {cRuntime, &rec.Run, parseSeconds},
		{cReqTime, &rec.ReqTime, parseSeconds}, {cUsedMem, &rec.UsedMem, parseKB}, {cReqMem, &rec.ReqMem, parseKB}} {
		*t.p = -1
		if s := r.cell(t.c); s != "" {
			v, err := t.f(s)
			if err != nil {
				return row, t.c, err
			}
			*t.p = v
		}
	}
	if r.cell(cID) == "" {
		return row, cID, errors.New("empty: want the job's number")
	}
	id, err := parseInt(r.cell(cID), 0, maxExact)
	if err != nil {
		return row, cID, err
	}
	rec.JobNumber = id
	for _, t := range []struct {
		c  col
		p  *int
		hi int64
	}{{cProcs, &rec.AllocProcs, nodes.MaxCPUs}, {cReqProcs, &rec.ReqProcs, nodes.MaxCPUs}, {cStatus, &rec.Status, maxExact},
		{cUser, &rec.User, maxExact}, {cGroup, &rec.Group, maxExact}, {cQOS, &rec.Queue, maxExact}, {cPartition, &rec.Partition, maxExact}} {
		*t.p = -1
		if s := r.cell(t.c); s != "" && s != "-1" {
			v, err := parseInt(s, 0, t.hi)
			if err != nil {
				return row, t.c, fmt.Errorf("%v (or -1, unknown)", err)
			}
			*t.p = int(v)
		}
	}
	req, c, err := r.request(rec)
	if err != nil {
		return row, c, err
	}
	row.Request = req
	name := r.cell(cName)
	if len(name) > MaxName {
		return row, cName, fmt.Errorf("%d bytes: more than %d (jobtable.MaxName)", len(name), MaxName)
	}
	row.Name = strings.Clone(name)
	return row, -1, nil
}

// request reads the request's cells. Tasks 0 (or absent) is the job's
// processors (procs, else req_procs) when known; a job with neither has
// the zero Request.
func (r *Reader) request(rec *swf.Record) (nodes.Request, col, error) {
	var q nodes.Request
	for _, t := range []struct {
		c  col
		p  *int
		hi int64
	}{{cNodes, &q.Nodes, nodes.MaxNodes}, {cMaxNodes, &q.MaxNodes, nodes.MaxNodes}, {cTasks, &q.Tasks, nodes.MaxTasks},
		{cCPUsPerTask, &q.CPUsPerTask, nodes.MaxCPUsPerTask}} {
		if s := r.cell(t.c); s != "" {
			v, err := parseInt(s, 0, t.hi)
			if err != nil {
				return q, t.c, err
			}
			*t.p = int(v)
		}
	}
	for _, t := range []struct {
		c col
		p *int64
	}{{cMemPerNode, &q.MemPerNodeMB}, {cMemPerCPU, &q.MemPerCPUMB}} {
		if s := r.cell(t.c); s != "" {
			v, err := parseInt(s, 0, nodes.MaxMemMB)
			if err != nil {
				return q, t.c, err
			}
			*t.p = v
		}
	}
	for _, t := range []struct {
		c col
		p *[]nodes.GRES
	}{{cGRESPerNode, &q.GRESPerNode}, {cGRESPerJob, &q.GRESPerJob}} {
		g, err := ParseGRES(r.cell(t.c))
		if err != nil {
			return q, t.c, err
		}
		*t.p = g
	}
	if s := r.cell(cConstraint); s != "" {
		if _, err := nodes.ParseConstraint(s); err != nil {
			return q, cConstraint, fmt.Errorf("%q: %v", s, err)
		}
		q.Constraint = strings.Clone(s)
	}
	switch s := r.cell(cExclusive); s {
	case "", "0", "false":
	case "1", "true":
		q.Exclusive = true
	default:
		return q, cExclusive, fmt.Errorf("%q: want 1 or 0 (true or false)", s)
	}
	return fillRequest(q, rec)
}

// fillRequest gives a request without tasks the job's processors and a
// request without CPUs per task 1, then checks it.
func fillRequest(q nodes.Request, rec *swf.Record) (nodes.Request, col, error) {
	if q.Tasks == 0 {
		q.Tasks = rec.AllocProcs
		if q.Tasks <= 0 {
			q.Tasks = rec.ReqProcs
		}
		if q.Tasks <= 0 {
			return nodes.Request{}, -1, nil
		}
	}
	if q.CPUsPerTask == 0 {
		q.CPUsPerTask = 1
	}
	if err := q.Check(); err != nil {
		return q, -1, fmt.Errorf("request %s: %v", q.String(), err)
	}
	return q, -1, nil
}
