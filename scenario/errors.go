package scenario

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found in a scenario file.
type Error struct {
	File   string // the name given to Parse (the path given to Load)
	Line   int    // 1-based; 0 when the problem has no position
	Column int    // 1-based
	Path   string // YAML path of the setting, e.g. "policy.local"; empty for YAML syntax errors
	Msg    string
}

// Error formats the problem as "file:line:column: path: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one scenario file, sorted by position
// (line, then column; problems at one position keep the order in which
// they were found). Parse and Load return an Errors value, never a bare
// *Error, when the file is wrong.
type Errors []*Error

// Error lists the problems, one per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the problems, for errors.As and errors.Is.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// pos is a position in the file, 1-based. The zero pos means "no position".
type pos struct{ line, col int }

func (p pos) String() string { return fmt.Sprintf("%d:%d", p.line, p.col) }

func (p pos) before(q pos) bool {
	if p.line != q.line {
		return p.line < q.line
	}
	return p.col < q.col
}

// problems collects errors, dropping exact duplicates (the same message at
// the same place, as the per-point checks of a sweep produce).
type problems struct {
	file string
	list Errors
	seen map[string]bool
}

func (ps *problems) add(at pos, path, format string, args ...any) {
	e := &Error{File: ps.file, Line: at.line, Column: at.col, Path: path, Msg: fmt.Sprintf(format, args...)}
	s := e.Error()
	if ps.seen == nil {
		ps.seen = map[string]bool{}
	}
	if ps.seen[s] {
		return
	}
	ps.seen[s] = true
	ps.list = append(ps.list, e)
}

func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	out := append(Errors(nil), ps.list...)
	sort.SliceStable(out, func(i, j int) bool {
		return pos{out[i].Line, out[i].Column}.before(pos{out[j].Line, out[j].Column})
	})
	return out
}
