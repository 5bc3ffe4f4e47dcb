package swf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Sentinel errors. A *ParseError wraps exactly one of them (except for
// plain read errors, which it wraps as they are); test with errors.Is.
var (
	// ErrFieldCount: a job line does not have exactly 18 fields.
	ErrFieldCount = errors.New("wrong number of fields")
	// ErrSyntax: a field (or a numeric header value) is not a decimal
	// number.
	ErrSyntax = errors.New("invalid number")
	// ErrNegative: a negative value other than exactly -1 ("unknown").
	ErrNegative = errors.New("negative value")
	// ErrNotInteger: an integer field holds a fractional value, or an
	// integer too large to be represented exactly (beyond ±2^53).
	ErrNotInteger = errors.New("not an integer")
	// ErrUnsorted: a submit time is lower than the previous known one.
	ErrUnsorted = errors.New("submit time lower than the previous job's")
	// ErrTruncated: the gzip stream ends early or is corrupt. The
	// ParseError also wraps the gzip decompressor's error
	// (github.com/klauspost/compress/gzip).
	ErrTruncated = errors.New("gzip stream truncated or corrupt")
	// ErrTooLong: a time field beyond MaxSeconds.
	ErrTooLong = errors.New("time out of range")
	// ErrBOM: the file starts with a UTF-8 byte-order mark (an editor's
	// addition; SWF is plain ASCII).
	ErrBOM = errors.New("the file starts with a UTF-8 byte-order mark (BOM): SWF is plain ASCII; remove the first 3 bytes")
	// ErrLineTooLong: a line longer than MaxLineLength bytes (an SWF
	// record is about a hundred bytes; such a line is not SWF).
	ErrLineTooLong = fmt.Errorf("line longer than %d bytes", MaxLineLength)
	// ErrCROnly: a line holds a carriage return (CR) before its end: the
	// file's lines end in CR alone (classic Mac OS), not LF or CR LF.
	ErrCROnly = errors.New("the lines end in CR alone (classic Mac OS line endings); SWF lines end in LF or CR LF: convert the file, e.g. tr '\\r' '\\n' < old.swf > new.swf")
	// ErrHeaderTooLong: the comment lines before the first job line are
	// more than MaxHeaderLines lines or MaxHeaderBytes bytes of text.
	ErrHeaderTooLong = fmt.Errorf("header longer than %d comment lines or %d bytes before the first job line (swf.MaxHeaderLines, swf.MaxHeaderBytes): not an SWF header", MaxHeaderLines, MaxHeaderBytes)
	// ErrNoJobLines: more than MaxLinesWithoutJob lines in a row hold no
	// job (blank or comment lines).
	ErrNoJobLines = fmt.Errorf("more than %d lines in a row without a job (blank or comment lines; swf.MaxLinesWithoutJob): not an SWF trace", MaxLinesWithoutJob)
)

// ParseError describes a problem in an SWF input, with its position.
type ParseError struct {
	File  string // name given to NewReader, or the path given to Open
	Line  int    // 1-based line number; 0 if not about a line
	Field int    // 1-based SWF field number, 0 if not about a field
	Name  string // field name, e.g. "submit time", or "header MaxProcs"
	Err   error  // the cause; wraps one of the sentinel errors
}

// Error formats the error as "file:line: field N (name): cause".
func (e *ParseError) Error() string {
	var b strings.Builder
	switch {
	case e.File != "" && e.Line > 0:
		b.WriteString(e.File)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
	case e.File != "":
		b.WriteString(e.File)
	case e.Line > 0:
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
	default:
		b.WriteString("swf")
	}
	b.WriteString(": ")
	if e.Field > 0 {
		b.WriteString("field ")
		b.WriteString(strconv.Itoa(e.Field))
		if e.Name != "" {
			b.WriteString(" (")
			b.WriteString(e.Name)
			b.WriteByte(')')
		}
		b.WriteString(": ")
	} else if e.Name != "" {
		b.WriteString(e.Name)
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("unknown error")
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }
