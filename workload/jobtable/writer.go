package jobtable

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
)

// Writer writes a job table: Magic, optional comment lines, the header
// line of Columns, then one row a Write. Output is buffered: call Flush
// at the end.
type Writer struct {
	w                  *bufio.Writer
	magicDone, started bool
	buf                []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriter(w), buf: make([]byte, 0, 256)} }

// Comment writes "# text" lines after Magic, before the header; it is
// refused once a row is written, and for text with a line break.
func (w *Writer) Comment(text string) error {
	if strings.ContainsAny(text, "\r\n") {
		return fmt.Errorf("jobtable: a comment with a line break: %q", text)
	}
	if w.started {
		return errors.New("jobtable: a comment after the first row")
	}
	w.magic()
	w.w.WriteString("# " + text + "\n")
	return nil
}

func (w *Writer) magic() {
	if !w.magicDone {
		w.magicDone = true
		w.w.WriteString(Magic + "\n")
	}
}

// Write writes one row. It refuses what a Reader would refuse, naming
// the column: a record value out of its range, a request that fails
// nodes.Request.Check (a zero Request, no tasks, is written as tasks 0:
// the job's processors), a GRES name or constraint the table cannot
// hold, a name of more than MaxName bytes. In the name, tabs, line
// breaks and '#' are written as '_'.
func (w *Writer) Write(row Row) error {
	if c, err := checkRecord(&row.Record); err != nil {
		return fmt.Errorf("job %d: column %s: %w", row.Record.JobNumber, Columns[c], err)
	}
	if c, err := checkRow(&row); err != nil && c < 0 {
		return fmt.Errorf("job %d: %w", row.Record.JobNumber, err)
	} else if err != nil {
		return fmt.Errorf("job %d: column %s: %w", row.Record.JobNumber, Columns[c], err)
	}
	w.magic()
	if !w.started {
		w.started = true
		w.w.WriteString(strings.Join(Columns, "\t") + "\n")
	}
	rec, q := &row.Record, &row.Request
	b := w.buf[:0]
	b = strconv.AppendInt(b, rec.JobNumber, 10)
	for _, v := range []float64{rec.Submit, rec.Wait, rec.Run} {
		b = strconv.AppendFloat(append(b, '\t'), v, 'f', -1, 64)
	}
	for _, v := range []int{rec.AllocProcs, rec.ReqProcs} {
		b = strconv.AppendInt(append(b, '\t'), int64(v), 10)
	}
	for _, v := range []float64{rec.ReqTime, rec.UsedMem, rec.ReqMem} {
		b = strconv.AppendFloat(append(b, '\t'), v, 'f', -1, 64)
	}
	for _, v := range []int{rec.Status, rec.User, rec.Group, rec.Queue, rec.Partition, q.Nodes, q.MaxNodes, q.Tasks, q.CPUsPerTask} {
		b = strconv.AppendInt(append(b, '\t'), int64(v), 10)
	}
	for _, v := range []int64{q.MemPerNodeMB, q.MemPerCPUMB} {
		b = strconv.AppendInt(append(b, '\t'), v, 10)
	}
	b = append(append(b, '\t'), FormatGRES(q.GRESPerNode)...)
	b = append(append(b, '\t'), FormatGRES(q.GRESPerJob)...)
	b = append(append(b, '\t'), q.Constraint...)
	excl := byte('0')
	if q.Exclusive {
		excl = '1'
	}
	b = append(b, '\t', excl)
	b = append(append(b, '\t'), cleanName(row.Name)...)
	b = append(b, '\n')
	_, err := w.w.Write(b)
	w.buf = b[:0]
	return err
}

// cleanName keeps a name in its cell.
func cleanName(s string) string {
	if !strings.ContainsAny(s, "\t\n\r#") {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c == '\t' || c == '\n' || c == '\r' || c == '#' {
			b[i] = '_'
		}
	}
	return string(b)
}

// checkRow checks the request and name of a row; on error, the column
// (-1: the request as a whole).
func checkRow(row *Row) (col, error) {
	q := row.Request
	if len(row.Name) > MaxName {
		return cName, fmt.Errorf("%d bytes: more than %d (jobtable.MaxName)", len(row.Name), MaxName)
	}
	for _, t := range []struct {
		c  col
		gs []nodes.GRES
	}{{cGRESPerNode, q.GRESPerNode}, {cGRESPerJob, q.GRESPerJob}} {
		if len(t.gs) > MaxGRES {
			return t.c, fmt.Errorf("%d GRES: more than %d (jobtable.MaxGRES)", len(t.gs), MaxGRES)
		}
		for _, g := range t.gs {
			if err := checkWord(g.Name, false); err != nil {
				return t.c, err
			}
			if err := checkWord(g.Type, true); err != nil {
				return t.c, err
			}
		}
	}
	if strings.ContainsAny(q.Constraint, "\t\r\n#") {
		return cConstraint, fmt.Errorf("%q: a tab, line break or '#'", q.Constraint)
	}
	if q.Tasks == 0 && q.CPUsPerTask == 0 && q.Nodes == 0 && q.MaxNodes == 0 && q.MemPerNodeMB == 0 && q.MemPerCPUMB == 0 &&
		len(q.GRESPerNode) == 0 && len(q.GRESPerJob) == 0 && q.Constraint == "" && !q.Exclusive {
		return 0, nil // the zero Request: tasks 0
	}
	if q.Tasks < 0 || q.CPUsPerTask < 0 {
		return -1, fmt.Errorf("request %s: negative tasks or cpus per task", q.String())
	}
	_, c, err := fillRequest(q, &row.Record)
	return c, err
}

// Flush writes what is buffered (Magic and the header line too, for a
// table without rows).
func (w *Writer) Flush() error {
	w.magic()
	if !w.started {
		w.started = true
		w.w.WriteString(strings.Join(Columns, "\t") + "\n")
	}
	return w.w.Flush()
}
