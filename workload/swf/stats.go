package swf

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"
)

// Stats summarises a trace, as seen through a Source (usable jobs only,
// after clamping).
type Stats struct {
	Name     string // trace name (the Reader's name)
	Header   Header
	Counts   Counts
	MaxProcs int // effective machine size (0 if unknown)

	FirstSubmit float64 // lowest submit time of a usable job
	LastSubmit  float64 // highest submit time of a usable job
	LastEnd     float64 // max submit+wait+run (a wait of -1 counts as 0)
	MaxJobProcs int     // largest job, in processors
	MaxJobID    int64   // highest job number of a usable job
	TotalWork   float64 // sum of procs*runtime, processor-seconds

	// OfferedLoad is TotalWork / (MaxProcs * (LastSubmit-FirstSubmit)),
	// or 0 if MaxProcs is unknown or the span is empty.
	OfferedLoad float64
}

// ComputeStats reads r to the end through a Source with options opt and
// returns the statistics. It streams: memory does not grow with the trace.
// It stops at the first error, which it returns with the statistics so far.
func ComputeStats(r *Reader, opt Options) (Stats, error) {
	src := NewSource(r, opt)
	st := Stats{Name: r.Name(), Header: r.Header(), MaxProcs: src.MaxProcs()}
	first := true
	var err error
	for {
		job, rec, e := src.next()
		if e != nil {
			if e != io.EOF {
				err = e
			}
			break
		}
		if first || job.Submit < st.FirstSubmit {
			st.FirstSubmit = job.Submit
		}
		if first || job.Submit > st.LastSubmit {
			st.LastSubmit = job.Submit
		}
		end := job.Submit + max(rec.Wait, 0) + job.Runtime
		if first || end > st.LastEnd {
			st.LastEnd = end
		}
		if first || int64(job.ID) > st.MaxJobID {
			st.MaxJobID = int64(job.ID)
		}
		st.MaxJobProcs = max(st.MaxJobProcs, job.Procs)
		st.TotalWork += float64(float64(job.Procs) * job.Runtime)
		first = false
	}
	st.Counts = src.Counts()
	if span := st.LastSubmit - st.FirstSubmit; st.MaxProcs > 0 && span > 0 {
		st.OfferedLoad = st.TotalWork / (float64(st.MaxProcs) * span)
	}
	return st, err
}

// WriteText prints a readable, aligned report of s.
func (s Stats) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	row := func(label, format string, args ...any) {
		fmt.Fprintf(tw, "%s\t"+format+"\n", append([]any{label}, args...)...)
	}
	h := s.Header
	name := s.Name
	if name == "" {
		name = "(unnamed)"
	}
	row("trace", "%s", name)
	if h.Computer != "" {
		row("computer", "%s", h.Computer)
	}
	if h.Installation != "" {
		row("installation", "%s", h.Installation)
	}
	if h.Acknowledge != "" {
		row("acknowledge", "%s", h.Acknowledge)
	}
	if h.Version != "" {
		row("SWF version", "%s", h.Version)
	}
	machine := "unknown (no limit)"
	if s.MaxProcs > 0 {
		machine = processors(s.MaxProcs)
		if h.MaxProcs > 0 && h.MaxProcs != s.MaxProcs {
			machine += " (header says " + group(int64(h.MaxProcs)) + ")"
		}
	}
	row("machine size", "%s", machine)
	if h.MaxNodes > 0 {
		row("nodes (header)", "%s", group(int64(h.MaxNodes)))
	}
	if h.UnixStartTime != 0 {
		t := time.Unix(h.UnixStartTime, 0).UTC().Format("2006-01-02 15:04:05 UTC")
		row("unix start time", "%d (%s)", h.UnixStartTime, t)
	}
	if h.TimeZoneString != "" {
		row("time zone", "%s", h.TimeZoneString)
	}
	c := s.Counts
	row("records read", "%s", group(c.Read))
	row("usable jobs", "%s", group(c.Jobs))
	row("skipped", "%s", group(c.Skipped()))
	row("  no submit time", "%s", group(c.SkippedNoSubmit))
	row("  no run time", "%s", group(c.SkippedNoRuntime))
	row("  no processors", "%s", group(c.SkippedNoProcs))
	row("rejected (too large)", "%s", group(c.Rejected))
	row("clamped", "%s", group(c.Clamped))
	if c.Jobs > 0 {
		// Times are relative seconds; with a UnixStartTime they are
		// also shown as UTC dates.
		when := func(x float64) string {
			out := fmtNum(x) + " s"
			if h.UnixStartTime != 0 {
				sec := float64(h.UnixStartTime) + x
				out += " (" + time.Unix(int64(sec), 0).UTC().Format("2006-01-02 15:04:05 UTC") + ")"
			}
			return out
		}
		span := s.LastSubmit - s.FirstSubmit
		whole := s.LastEnd - s.FirstSubmit
		row("first submit", "%s", when(s.FirstSubmit))
		row("last submit", "%s", when(s.LastSubmit))
		row("last end", "%s", when(s.LastEnd))
		row("submit span", "%s s (%.1f days)", fmtNum(span), span/86400)
		row("span to last end", "%s s (%.1f days)", fmtNum(whole), whole/86400)
		row("largest job", "%s", processors(s.MaxJobProcs))
		row("highest job number", "%d", s.MaxJobID)
		row("total work", "%s processor-seconds", fmtNum(s.TotalWork))
		if s.OfferedLoad > 0 {
			row("offered load", "%.3f (total work / (machine size x submit span))", s.OfferedLoad)
		} else {
			row("offered load", "unknown")
		}
	}
	return tw.Flush()
}

// processors writes "1 processor", "1,024 processors".
func processors(n int) string {
	if n == 1 {
		return "1 processor"
	}
	return group(int64(n)) + " processors"
}

// group formats n with thousands separators: 1234567 -> "1,234,567".
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// fmtNum formats a number of seconds (or processor-seconds): grouped if
// integral and not huge, else with one decimal.
func fmtNum(x float64) string {
	if x == float64(int64(x)) && x < 1e18 && x > -1e18 {
		return group(int64(x))
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}
