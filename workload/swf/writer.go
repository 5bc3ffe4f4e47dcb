package swf

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Writer writes SWF text. Output is buffered: call Flush at the end.
type Writer struct {
	w   *bufio.Writer
	buf []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriter(w), buf: make([]byte, 0, 256)}
}

// errLineBreak is returned for header text that contains a line break.
var errLineBreak = errors.New("swf: header text contains a line break")

// WriteHeader writes h as ';' comment lines: h.Lines as they are if there
// are any, else one "; Key: value" line per typed field that is set
// (non-empty, non-zero). Text containing '\n' is refused.
func (w *Writer) WriteHeader(h Header) error {
	lines := h.Lines
	if len(lines) == 0 {
		lines = h.typedLines()
	}
	for _, l := range lines {
		if strings.ContainsRune(l, '\n') {
			return fmt.Errorf("%w: %q", errLineBreak, l)
		}
	}
	for _, l := range lines {
		w.w.WriteByte(';')
		w.w.WriteString(l)
		if _, err := w.w.WriteString("\n"); err != nil {
			return err
		}
	}
	return nil
}

// Write writes rec as one line of 18 fields separated by single spaces:
// integers as integers, floats in the shortest decimal form that reads
// back to the same value (strconv 'f', -1). It refuses (with the
// Reader's sentinel errors) what the Reader would reject: NaN or
// infinite values (ErrSyntax), negative values other than -1
// (ErrNegative), integers beyond ±2^53 (ErrNotInteger) and times beyond
// MaxSeconds (ErrTooLong). Submit order
// is not checked.
func (w *Writer) Write(rec Record) error {
	var v fieldValues
	v.set(&rec)
	ints := [NumFields]int64{
		0: rec.JobNumber, 4: int64(rec.AllocProcs), 7: int64(rec.ReqProcs),
		10: int64(rec.Status), 11: int64(rec.User), 12: int64(rec.Group),
		13: int64(rec.Exec), 14: int64(rec.Queue), 15: int64(rec.Partition),
		16: rec.PrecedingJob,
	}
	for f, x := range v {
		var err error
		if intLimit[f] > 0 {
			switch n := ints[f]; {
			case n < -1:
				err = fmt.Errorf("%w %d (only -1 means unknown)", ErrNegative, n)
			case n > maxExactInt:
				err = fmt.Errorf("%w: %d is out of range", ErrNotInteger, n)
			}
		} else {
			switch {
			case math.IsNaN(x) || math.IsInf(x, 0):
				err = fmt.Errorf("%w %v", ErrSyntax, x)
			case x < 0 && x != -1:
				err = fmt.Errorf("%w %v (only -1 means unknown)", ErrNegative, x)
			case timeField[f] && x > MaxSeconds:
				err = fmt.Errorf("%w: %v seconds (at most %g)", ErrTooLong, x, float64(MaxSeconds))
			}
		}
		if err != nil {
			return fmt.Errorf("swf: write job %d: field %d (%s): %w", rec.JobNumber, f+1, FieldName(f+1), err)
		}
	}
	b := w.buf[:0]
	for f, x := range v {
		if f > 0 {
			b = append(b, ' ')
		}
		if intLimit[f] > 0 {
			b = strconv.AppendInt(b, ints[f], 10)
		} else {
			b = strconv.AppendFloat(b, x, 'f', -1, 64)
		}
	}
	b = append(b, '\n')
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// Flush writes any buffered data to the underlying io.Writer.
func (w *Writer) Flush() error { return w.w.Flush() }
