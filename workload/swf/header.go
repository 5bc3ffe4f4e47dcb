package swf

import (
	"fmt"
	"strconv"
	"strings"
)

// Header is the comment block before the first job line. The typed fields
// hold the header keys of the Standard Workload Format (keys matched
// without regard to case); zero means absent. A key that may appear once
// keeps its last value if it appears twice; Information, Queue and
// Partition lines are kept in order, one element each. Lines keeps
// every header comment line, known or not, in order.
type Header struct {
	Version      string
	Computer     string
	Installation string
	Acknowledge  string
	Information  []string // one per "Information:" line
	Conversion   string   // who converted the log, and when

	MaxJobs    int64 // jobs in the original log (not the line count of a cleaned log)
	MaxRecords int64
	Preemption string // No, Yes, Double or TS

	UnixStartTime  int64 // epoch second that submit time 0 stands for
	TimeZone       int64 // deprecated offset from UTC in seconds (TimeZoneString replaces it)
	TimeZoneString string
	StartTime      string
	EndTime        string

	MaxNodes     int
	MaxProcs     int    // machine size in processors
	MaxRuntime   int64  // seconds: the longest run time the system allows
	MaxMemory    int64  // KB per processor: the most memory the system allows
	AllowOveruse YesNo  // whether a job may use more than it requested
	MaxQueues    int    // queues of the system
	Queues       string // a verbal description of the queues
	// QueueNames are the "Queue: N name" lines: the name of queue number
	// N (SWF field 15).
	QueueNames    []NamedNumber
	MaxPartitions int
	Partitions    string // a verbal description of the partitions
	// PartitionNames are the "Partition: N name" lines (SWF field 16).
	PartitionNames []NamedNumber

	// Lines are the raw header comment lines, without the leading ';'
	// (and without anything before it), in file order.
	Lines []string
}

// YesNo is a header flag: unset, yes or no.
type YesNo int8

const (
	Unset YesNo = iota
	Yes
	No
)

func (y YesNo) String() string {
	switch y {
	case Yes:
		return "Yes"
	case No:
		return "No"
	}
	return ""
}

// NamedNumber is one "Queue: N name" or "Partition: N name" line: a
// number used in the job lines and what it stands for (may be empty).
type NamedNumber struct {
	Number int64
	Name   string
}

// headerKey describes one known header key.
type headerKey struct {
	key  string
	str  func(h *Header) *string
	i64  func(h *Header) *int64
	int  func(h *Header) *int
	list func(h *Header) *[]string      // repeated text lines
	nums func(h *Header) *[]NamedNumber // repeated "N name" lines
	yn   func(h *Header) *YesNo
	neg  bool // the number may be any integer (not only -1 or more)
}

// headerKeys are the known keys in the order the Parallel Workloads
// Archive writes them, which is the order the Writer renders them.
var headerKeys = []headerKey{
	{key: "Version", str: func(h *Header) *string { return &h.Version }},
	{key: "Computer", str: func(h *Header) *string { return &h.Computer }},
	{key: "Installation", str: func(h *Header) *string { return &h.Installation }},
	{key: "Acknowledge", str: func(h *Header) *string { return &h.Acknowledge }},
	{key: "Information", list: func(h *Header) *[]string { return &h.Information }},
	{key: "Conversion", str: func(h *Header) *string { return &h.Conversion }},
	{key: "MaxJobs", i64: func(h *Header) *int64 { return &h.MaxJobs }},
	{key: "MaxRecords", i64: func(h *Header) *int64 { return &h.MaxRecords }},
	{key: "Preemption", str: func(h *Header) *string { return &h.Preemption }},
	{key: "UnixStartTime", i64: func(h *Header) *int64 { return &h.UnixStartTime }, neg: true},
	{key: "TimeZone", i64: func(h *Header) *int64 { return &h.TimeZone }, neg: true},
	{key: "TimeZoneString", str: func(h *Header) *string { return &h.TimeZoneString }},
	{key: "StartTime", str: func(h *Header) *string { return &h.StartTime }},
	{key: "EndTime", str: func(h *Header) *string { return &h.EndTime }},
	{key: "MaxNodes", int: func(h *Header) *int { return &h.MaxNodes }},
	{key: "MaxProcs", int: func(h *Header) *int { return &h.MaxProcs }},
	{key: "MaxRuntime", i64: func(h *Header) *int64 { return &h.MaxRuntime }},
	{key: "MaxMemory", i64: func(h *Header) *int64 { return &h.MaxMemory }},
	{key: "AllowOveruse", yn: func(h *Header) *YesNo { return &h.AllowOveruse }},
	{key: "MaxQueues", int: func(h *Header) *int { return &h.MaxQueues }},
	{key: "Queues", str: func(h *Header) *string { return &h.Queues }},
	{key: "Queue", nums: func(h *Header) *[]NamedNumber { return &h.QueueNames }},
	{key: "MaxPartitions", int: func(h *Header) *int { return &h.MaxPartitions }},
	{key: "Partitions", str: func(h *Header) *string { return &h.Partitions }},
	{key: "Partition", nums: func(h *Header) *[]NamedNumber { return &h.PartitionNames }},
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
		case k.list != nil:
			*k.list(h) = append(*k.list(h), value)
		case k.yn != nil:
			switch strings.ToLower(value) {
			case "yes", "true", "1":
				*k.yn(h) = Yes
			case "no", "false", "0":
				*k.yn(h) = No
			default:
				return "header " + k.key, fmt.Errorf("%w %q (want Yes or No)", ErrSyntax, value)
			}
		case k.nums != nil:
			num, name := value, ""
			if i := strings.IndexAny(value, " \t"); i >= 0 {
				num, name = value[:i], value[i+1:]
			}
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil || n < -1 {
				return "header " + k.key, fmt.Errorf("%w %q (want a number, then its name)", ErrSyntax, value)
			}
			*k.nums(h) = append(*k.nums(h), NamedNumber{Number: n, Name: strings.TrimSpace(name)})
		case k.i64 != nil:
			n, err := parseHeaderInt(k, value, 64)
			if err != nil {
				return "header " + k.key, err
			}
			*k.i64(h) = n
		case k.int != nil:
			n, err := parseHeaderInt(k, value, strconv.IntSize)
			if err != nil {
				return "header " + k.key, err
			}
			*k.int(h) = int(n)
		}
		return "", nil
	}
	return "", nil
}

// parseHeaderInt parses a numeric header value. Counts and limits may be
// -1 (unknown) but not otherwise negative; UnixStartTime and TimeZone may
// be any integer.
func parseHeaderInt(k headerKey, value string, bits int) (int64, error) {
	n, err := strconv.ParseInt(value, 10, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("%w %q (out of range)", ErrSyntax, value)
		}
		return 0, fmt.Errorf("%w %q", ErrSyntax, value)
	}
	if n < -1 && !k.neg {
		return 0, fmt.Errorf("%w %d (only -1 means unknown)", ErrNegative, n)
	}
	return n, nil
}

// typedLines renders the typed fields that are set as header lines
// (without the leading ';'), in the usual PWA order.
func (h *Header) typedLines() []string {
	var out []string
	for _, k := range headerKeys {
		var vs []string
		switch {
		case k.str != nil:
			if v := *k.str(h); v != "" {
				vs = append(vs, v)
			}
		case k.list != nil:
			vs = append(vs, *k.list(h)...)
		case k.yn != nil:
			if v := *k.yn(h); v != Unset {
				vs = append(vs, v.String())
			}
		case k.nums != nil:
			for _, n := range *k.nums(h) {
				vs = append(vs, strings.TrimRight(strconv.FormatInt(n.Number, 10)+" "+n.Name, " "))
			}
		case k.i64 != nil:
			if n := *k.i64(h); n != 0 {
				vs = append(vs, strconv.FormatInt(n, 10))
			}
		case k.int != nil:
			if n := *k.int(h); n != 0 {
				vs = append(vs, strconv.Itoa(n))
			}
		}
		for _, v := range vs {
			out = append(out, " "+k.key+": "+v)
		}
	}
	return out
}

// IDNames reads the header's "WHAT N: name" lines ("; User 1: alice",
// "; Group 2: physics", as trace import writes them for the user and
// group ids of SWF fields 12 and 13) into a map from N to the name; nil
// when there are none. A line whose N is not an integer >= 0 or whose
// name is empty is not one of them.
func (h Header) IDNames(what string) map[int32]string {
	var m map[int32]string
	for _, l := range h.Lines {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), what+" ")
		if !ok {
			continue
		}
		num, name, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 32)
		name = strings.TrimSpace(name)
		if err != nil || n < 0 || name == "" {
			continue
		}
		if m == nil {
			m = map[int32]string{}
		}
		m[int32(n)] = name
	}
	return m
}
