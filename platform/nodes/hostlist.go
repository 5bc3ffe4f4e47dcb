package nodes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Limits of hostlist expressions. They are checked on the parsed text,
// before any name is made.
const (
	// MaxNames bounds the names one expression may expand to (duplicates
	// counted): the nodes a platform may have.
	MaxNames = MaxNodes
	// MaxNameLen bounds the length in bytes of one node name, as written
	// or as expanded (a DNS label has at most 63).
	MaxNameLen = 64
	// MaxExprLen bounds the length in bytes of one hostlist expression.
	MaxExprLen = 1 << 20
	// maxDigits bounds the digits of one number in brackets, so that every
	// number fits an int64 and every run's length is exact.
	maxDigits = 18
)

// Error is a malformed part of a hostlist expression, a node group spec
// or a constraint. Offset is the byte offset (0-based) in the text given
// to the parser; Error prints it as a column (1-based).
type Error struct {
	Field  string // the spec's field ("names", "cores", "gres", ...); "" outside a spec
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("column %d (%s): %s", e.Offset+1, e.Field, e.Msg)
	}
	return fmt.Sprintf("column %d: %s", e.Offset+1, e.Msg)
}

func errAt(off int, format string, args ...any) *Error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// nameByte reports whether c may appear in a node name: letters, digits,
// '-', '_' and '.'.
func nameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

// A parsed hostlist: items separated by top-level commas, each a sequence
// of literal text and bracket groups.
type hlRange struct {
	lo, hi int64
	width  int // digits of lo as written: the zero-padding of every value
}

type hlPart struct {
	text   string    // literal text, when ranges is nil
	ranges []hlRange // a bracket group
}

type hlItem struct {
	parts []hlPart
	count int64 // names the item expands to (capped at MaxNames+1)
	size  int   // length of its longest name
}

// parseHostlist parses expr without making any name; base is added to
// every offset an error reports.
func parseHostlist(expr string, base int) ([]hlItem, int64, error) {
	if len(expr) > MaxExprLen {
		return nil, 0, errAt(base, "hostlist of %d bytes, more than %d (MaxExprLen)", len(expr), MaxExprLen)
	}
	if expr == "" {
		return nil, 0, errAt(base, "no node names")
	}
	var items []hlItem
	var total int64
	i := 0
	for {
		start := i
		it := hlItem{count: 1}
		for i < len(expr) && expr[i] != ',' {
			switch c := expr[i]; {
			case c == '[':
				rs, next, err := parseBracket(expr, i, base)
				if err != nil {
					return nil, 0, err
				}
				var n int64
				w := 0
				for _, r := range rs {
					n = min(n+(r.hi-r.lo+1), MaxNames+1) // no overflow: each term < 10^18
					w = max(w, r.width, len(strconv.FormatInt(r.hi, 10)))
				}
				it.parts = append(it.parts, hlPart{ranges: rs})
				it.count = min(it.count*n, MaxNames+1)
				it.size += w
				i = next
			case c == ']':
				return nil, 0, errAt(base+i, "']' without '['")
			case nameByte(c):
				j := i
				for j < len(expr) && nameByte(expr[j]) {
					j++
				}
				it.parts = append(it.parts, hlPart{text: expr[i:j]})
				it.size += j - i
				i = j
			default:
				return nil, 0, errAt(base+i, "%q may not appear in a node name (letters, digits, '-', '_', '.')", c)
			}
		}
		if i == start {
			return nil, 0, errAt(base+i, "empty node name (two commas, or a comma at an end)")
		}
		if it.size > MaxNameLen {
			return nil, 0, errAt(base+start, "%q makes names of %d bytes, more than %d (MaxNameLen)", expr[start:i], it.size, MaxNameLen)
		}
		total = min(total+it.count, MaxNames+1)
		if total > MaxNames {
			return nil, 0, errAt(base+start, "more than %d names (MaxNames) by %q", MaxNames, expr[start:i])
		}
		items = append(items, it)
		if i == len(expr) {
			return items, total, nil
		}
		i++ // the comma
		if i == len(expr) {
			return nil, 0, errAt(base+i, "empty node name (two commas, or a comma at an end)")
		}
	}
}

// parseBracket parses the group starting at expr[open] == '['; it returns
// the ranges and the offset after ']'.
func parseBracket(expr string, open, base int) ([]hlRange, int, error) {
	var rs []hlRange
	i := open + 1
	for {
		lo, w, next, err := parseNum(expr, i, base)
		if err != nil {
			return nil, 0, err
		}
		r := hlRange{lo: lo, hi: lo, width: w}
		if next < len(expr) && expr[next] == '-' {
			hi, _, n2, err := parseNum(expr, next+1, base)
			if err != nil {
				return nil, 0, err
			}
			if hi < lo {
				return nil, 0, errAt(base+i, "range %s runs downwards", expr[i:n2])
			}
			r.hi, next = hi, n2
		}
		rs = append(rs, r)
		i = next
		if i == len(expr) {
			return nil, 0, errAt(base+open, "'[' without ']'")
		}
		switch expr[i] {
		case ']':
			return rs, i + 1, nil
		case ',':
			i++
		case '[':
			return nil, 0, errAt(base+i, "'[' inside brackets")
		default:
			return nil, 0, errAt(base+i, "%q in brackets: want a number, '-', ',' or ']'", expr[i])
		}
	}
}

// parseNum reads the digits at expr[i:]: value, digits, offset after.
func parseNum(expr string, i, base int) (int64, int, int, error) {
	j := i
	for j < len(expr) && '0' <= expr[j] && expr[j] <= '9' {
		j++
	}
	switch {
	case j == i && i == len(expr):
		return 0, 0, 0, errAt(base+i, "hostlist ends inside brackets: want a number")
	case j == i && expr[i] == '[':
		return 0, 0, 0, errAt(base+i, "'[' inside brackets")
	case j == i:
		return 0, 0, 0, errAt(base+i, "%q in brackets: want a number", expr[i])
	case j-i > maxDigits:
		return 0, 0, 0, errAt(base+i, "number %s has more than %d digits", expr[i:j], maxDigits)
	}
	v, _ := strconv.ParseInt(expr[i:j], 10, 64)
	return v, j - i, j, nil
}

// Count is the number of names expr expands to (duplicates counted),
// without making them; it fails where Expand fails.
func Count(expr string) (int, error) {
	_, n, err := parseHostlist(expr, 0)
	return int(n), err
}

// Expand returns the names of a hostlist expression in the order written:
// items separated by commas, each expanded with its first bracket group
// varying slowest, a group's ranges in the order written, each range
// upwards. A number is printed with at least as many digits as the low
// end of its range has ("gpu[01-32]" gives gpu01..gpu32, "n[8-10]" gives
// n8, n9, n10, "n[08-100]" gives n08..n99, n100). Duplicates are kept.
// The count and the name lengths are checked before any name is made.
func Expand(expr string) ([]string, error) {
	return expand(expr, 0)
}

func expand(expr string, base int) ([]string, error) {
	items, total, err := parseHostlist(expr, base)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, total)
	buf := make([]byte, 0, MaxNameLen)
	for _, it := range items {
		out = expandParts(out, buf, it.parts)
	}
	return out, nil
}

func expandParts(out []string, buf []byte, parts []hlPart) []string {
	if len(parts) == 0 {
		return append(out, string(buf))
	}
	p := parts[0]
	if p.ranges == nil {
		return expandParts(out, append(buf, p.text...), parts[1:])
	}
	for _, r := range p.ranges {
		for v := r.lo; v <= r.hi; v++ {
			out = expandParts(out, appendPadded(buf, v, r.width), parts[1:])
		}
	}
	return out
}

func appendPadded(b []byte, v int64, width int) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], v, 10)
	for k := len(s); k < width; k++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// A name split as Slurm splits a host name: the prefix and the number
// its trailing digits make (num < 0: no trailing digits, or more than
// maxDigits of them, and the whole name is the prefix).
type splitName struct {
	name, prefix string
	digits       string
	num          int64
	class        int   // 0: unpadded; w: padded to w digits (see Compress)
	least        int64 // the smallest number of its class
}

func split(name string) splitName {
	j := len(name)
	for j > 0 && '0' <= name[j-1] && name[j-1] <= '9' {
		j--
	}
	if j == len(name) || len(name)-j > maxDigits {
		return splitName{name: name, prefix: name, num: -1}
	}
	v, _ := strconv.ParseInt(name[j:], 10, 64)
	return splitName{name: name, prefix: name[:j], digits: name[j:], num: v}
}

// padded reports whether the digits have a leading zero that a plain
// number would not print.
func (s splitName) padded() bool { return len(s.digits) > 1 && s.digits[0] == '0' }

// checkName reports what is wrong with a node name, or "".
func checkName(name string) string {
	switch {
	case name == "":
		return "empty node name"
	case len(name) > MaxNameLen:
		return fmt.Sprintf("node name of %d bytes, more than %d (MaxNameLen)", len(name), MaxNameLen)
	}
	for i := 0; i < len(name); i++ {
		if !nameByte(name[i]) {
			return fmt.Sprintf("node name %q: %q may not appear in a node name (letters, digits, '-', '_', '.')", name, name[i])
		}
	}
	return ""
}

// canonical splits the unique names and sorts them in the canonical
// order of Compress.
func canonical(names []string) ([]splitName, error) {
	for i, n := range names {
		if msg := checkName(n); msg != "" {
			return nil, fmt.Errorf("name %d: %s", i, msg)
		}
	}
	ss := make([]splitName, len(names))
	for i, n := range names {
		ss[i] = split(n)
	}
	slices.SortFunc(ss, func(a, b splitName) int {
		if c := natCompare(a.prefix, b.prefix); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	ss = slices.CompactFunc(ss, func(a, b splitName) bool { return a.name == b.name })
	// classes, per prefix: a padded name is in the class of its width; an
	// unpadded one joins the class of its width when that prefix has a
	// padded name of that width (gpu01..gpu32 is one class), else class 0
	for lo := 0; lo < len(ss); {
		hi := lo
		var widths []int
		for hi < len(ss) && ss[hi].prefix == ss[lo].prefix {
			if ss[hi].padded() && !slices.Contains(widths, len(ss[hi].digits)) {
				widths = append(widths, len(ss[hi].digits))
			}
			hi++
		}
		least := map[int]int64{} // the smallest number of each class
		for k := lo; k < hi; k++ {
			s := &ss[k]
			if s.num < 0 {
				continue
			}
			if slices.Contains(widths, len(s.digits)) {
				s.class = len(s.digits)
			}
			if m, ok := least[s.class]; !ok || s.num < m {
				least[s.class] = s.num
			}
		}
		for k := lo; k < hi; k++ {
			ss[k].least = least[ss[k].class]
		}
		slices.SortFunc(ss[lo:hi], func(a, b splitName) int {
			switch {
			case (a.num < 0) != (b.num < 0):
				if a.num < 0 {
					return -1
				}
				return 1
			case a.least != b.least:
				if a.least < b.least {
					return -1
				}
				return 1
			case a.class != b.class:
				return a.class - b.class
			case a.num != b.num:
				if a.num < b.num {
					return -1
				}
				return 1
			}
			return 0
		})
		lo = hi
	}
	return ss, nil
}

// Sort returns the unique names in the canonical order of Compress: the
// order in which Expand(Compress(names)) gives them.
func Sort(names []string) ([]string, error) {
	ss, err := canonical(names)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.name
	}
	return out, nil
}

// Compress returns the canonical hostlist of a set of names (duplicates
// are dropped): what Expand turns back into the sorted unique names.
//
// As in Slurm, a name is split into a prefix and the number its trailing
// digits make ("a1b3": prefix "a1b", number 3); names without trailing
// digits stand alone. Prefixes come in natural order (digit runs compared
// as numbers, then bytewise), a name without a number before the numbered
// names of its prefix. The numbers of one prefix are put into classes: a
// number written with a leading zero ("01") is in the class of its
// width; a number without one joins the class of its width when the
// prefix has a zero-padded name of that width ("gpu10" with "gpu01"),
// and otherwise the unpadded class (n9 and n10 merge into n[9-10]). Each
// class, unpadded first then by width, is cut into runs of consecutive
// numbers, each printed lo-hi (or lo alone), padded to the class's
// width; the classes come in the order of their smallest numbers (on a
// tie the unpadded class first, then by width): "n[5-9,08-10]",
// "n[08,100]". A prefix with one name prints without brackets ("n7").
//
// Every name must be a valid node name (letters, digits, '-', '_', '.';
// at most MaxNameLen bytes).
func Compress(names []string) (string, error) {
	ss, err := canonical(names)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for lo := 0; lo < len(ss); {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if ss[lo].num < 0 {
			b.WriteString(ss[lo].name)
			lo++
			continue
		}
		hi := lo
		for hi < len(ss) && ss[hi].prefix == ss[lo].prefix && ss[hi].num >= 0 {
			hi++
		}
		b.WriteString(ss[lo].prefix)
		if hi == lo+1 {
			b.WriteString(ss[lo].digits)
			lo = hi
			continue
		}
		b.WriteByte('[')
		var buf []byte
		for k := lo; k < hi; {
			e := k
			for e+1 < hi && ss[e+1].class == ss[k].class && ss[e+1].num == ss[e].num+1 {
				e++
			}
			if k > lo {
				b.WriteByte(',')
			}
			b.WriteString(ss[k].digits)
			if e > k {
				b.WriteByte('-')
				buf = appendPadded(buf[:0], ss[e].num, ss[k].class)
				b.Write(buf)
			}
			k = e + 1
		}
		b.WriteByte(']')
		lo = hi
	}
	return b.String(), nil
}

// natCompare compares a and b in natural order: runs of digits as numbers
// (leading zeros ignored), other bytes as bytes; equal in that order,
// bytewise.
func natCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			i2, j2 := i, j
			for i2 < len(a) && isDigit(a[i2]) {
				i2++
			}
			for j2 < len(b) && isDigit(b[j2]) {
				j2++
			}
			x := strings.TrimLeft(a[i:i2], "0")
			y := strings.TrimLeft(b[j:j2], "0")
			if len(x) != len(y) {
				return len(x) - len(y)
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			i, j = i2, j2
			continue
		}
		if a[i] != b[j] {
			return int(a[i]) - int(b[j])
		}
		i++
		j++
	}
	if c := (len(a) - i) - (len(b) - j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
