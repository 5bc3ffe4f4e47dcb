package swf

import (
	"fmt"
	"strconv"
	"strings"
)

// Header is the comment block before the first job line. The typed fields
// hold the known "; Key: value" lines (keys matched without regard to
// case; if a key appears twice the last value wins); zero means absent.
// Lines keeps every header comment line, known or not, in order.
type Header struct {
	Version      string
	Computer     string
	Installation string
	Acknowledge  string

	MaxJobs    int64 // jobs in the original log (not the line count of a cleaned log)
	MaxRecords int64
	MaxNodes   int
	MaxProcs   int // machine size in processors

	UnixStartTime  int64 // epoch second that submit time 0 stands for
	TimeZoneString string
	StartTime      string
	EndTime        string
	Preemption     string

	// Lines are the raw header comment lines, without the leading ';'
	// (and without anything before it), in file order.
	Lines []string
}

// headerKey describes one known header key.
type headerKey struct {
	key string
	str func(h *Header) *string
	i64 func(h *Header) *int64
	int func(h *Header) *int
}

var headerKeys = []headerKey{
	{key: "Version", str: func(h *Header) *string { return &h.Version }},
	{key: "Computer", str: func(h *Header) *string { return &h.Computer }},
	{key: "Installation", str: func(h *Header) *string { return &h.Installation }},
	{key: "Acknowledge", str: func(h *Header) *string { return &h.Acknowledge }},
	{key: "MaxJobs", i64: func(h *Header) *int64 { return &h.MaxJobs }},
	{key: "MaxRecords", i64: func(h *Header) *int64 { return &h.MaxRecords }},
	{key: "Preemption", str: func(h *Header) *string { return &h.Preemption }},
	{key: "UnixStartTime", i64: func(h *Header) *int64 { return &h.UnixStartTime }},
	{key: "TimeZoneString", str: func(h *Header) *string { return &h.TimeZoneString }},
	{key: "StartTime", str: func(h *Header) *string { return &h.StartTime }},
	{key: "EndTime", str: func(h *Header) *string { return &h.EndTime }},
	{key: "MaxNodes", int: func(h *Header) *int { return &h.MaxNodes }},
	{key: "MaxProcs", int: func(h *Header) *int { return &h.MaxProcs }},
}

// splitKeyValue splits "Key: value" (surrounding blanks ignored). The key
// must be one word.
func splitKeyValue(text string) (key, value string, ok bool) {
	s := strings.TrimSpace(text)
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	key = strings.TrimSpace(s[:i])
	if key == "" || strings.ContainsAny(key, " \t") {
		return "", "", false
	}
	return key, strings.TrimSpace(s[i+1:]), true
}

// parseLine records one header comment line (text after ';'). It returns
// the name of the offending key and a cause if a numeric value is
// malformed.
func (h *Header) parseLine(text string) (string, error) {
	key, value, ok := splitKeyValue(text)
	if !ok {
		return "", nil
	}
	for _, k := range headerKeys {
		if !strings.EqualFold(k.key, key) {
			continue
		}
		switch {
		case k.str != nil:
			*k.str(h) = value
		case k.i64 != nil:
			n, err := parseHeaderInt(k.key, value, 64)
			if err != nil {
				return "header " + k.key, err
			}
			*k.i64(h) = n
		case k.int != nil:
			n, err := parseHeaderInt(k.key, value, strconv.IntSize)
			if err != nil {
				return "header " + k.key, err
			}
			*k.int(h) = int(n)
		}
		return "", nil
	}
	return "", nil
}

// parseHeaderInt parses a numeric header value. Counts may be -1
// (unknown) but not otherwise negative; UnixStartTime may be any integer.
func parseHeaderInt(key, value string, bits int) (int64, error) {
	n, err := strconv.ParseInt(value, 10, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("%w %q (out of range)", ErrSyntax, value)
		}
		return 0, fmt.Errorf("%w %q", ErrSyntax, value)
	}
	if n < -1 && key != "UnixStartTime" {
		return 0, fmt.Errorf("%w %d (only -1 means unknown)", ErrNegative, n)
	}
	return n, nil
}

// typedLines renders the typed fields that are set as header lines
// (without the leading ';'), in the usual PWA order.
func (h *Header) typedLines() []string {
	var out []string
	for _, k := range headerKeys {
		var v string
		switch {
		case k.str != nil:
			v = *k.str(h)
		case k.i64 != nil:
			if n := *k.i64(h); n != 0 {
				v = strconv.FormatInt(n, 10)
			}
		case k.int != nil:
			if n := *k.int(h); n != 0 {
				v = strconv.Itoa(n)
			}
		}
		if v != "" {
			out = append(out, " "+k.key+": "+v)
		}
	}
	return out
}
