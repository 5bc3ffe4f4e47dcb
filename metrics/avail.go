package metrics

import (
	"bufio"
	"io"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/platform"
)

// UnavailHeader is the header row of unavailability.csv: one row per
// span of unavailable CPUs, kind reserved (an announced window, written
// when it begins, with its whole span) or down (a failure, written when
// the CPUs return, or at the end of the run, then ending at the run's
// last instant); resources in allocated_resources syntax; [start, end).
const UnavailHeader = "kind,resources,start,end\n"

// Unavail writes unavailability.csv and counts what unavailability did
// (engine.AvailListener). Check Flush after the run.
type Unavail struct {
	engine.NopListener
	w   *bufio.Writer
	buf []byte
	err error
	// The counts for summary.json.
	Counts UnavailCounts
}

// UnavailCounts are a run's unavailability totals.
type UnavailCounts struct {
	ReservedSpans   int64   `json:"reserved_spans"`
	DownSpans       int64   `json:"down_spans"`
	ReservedCPUTime float64 `json:"reserved_cpu_seconds"`
	DownCPUTime     float64 `json:"down_cpu_seconds"`
	// Interrupted counts the runs cut short (killed or requeued), and
	// LostCPUTime the CPU time they had used.
	Interrupted int64   `json:"runs_interrupted"`
	Requeued    int64   `json:"runs_requeued"`
	LostCPUTime float64 `json:"lost_cpu_seconds"`
}

// NewUnavail writes the header to w (nil: count only).
func NewUnavail(w io.Writer) *Unavail {
	u := &Unavail{}
	if w != nil {
		u.w = bufio.NewWriter(w)
		_, u.err = u.w.WriteString(UnavailHeader)
	}
	return u
}

func (u *Unavail) Unavailable(k engine.UnavailKind, start, end float64, cpus platform.Runs) {
	area := float64(cpus.Count()) * (end - start)
	if k == engine.KindReserved {
		u.Counts.ReservedSpans++
		u.Counts.ReservedCPUTime += area
	} else {
		u.Counts.DownSpans++
		u.Counts.DownCPUTime += area
	}
	if u.w == nil || u.err != nil {
		return
	}
	b := append(u.buf[:0], k.String()...)
	b = append(b, ',')
	b = cpus.AppendText(b)
	b = append(b, ',')
	b = num(b, start)
	b = append(b, ',')
	b = num(b, end)
	b = append(b, '\n')
	u.buf = b
	_, u.err = u.w.Write(b)
}

func (u *Unavail) Interrupted(now float64, r *engine.Record, requeued bool) {
	u.Counts.Interrupted++
	if requeued {
		u.Counts.Requeued++
	}
	u.Counts.LostCPUTime += float64(r.Job.Procs) * (r.End - r.Start)
}

// Flush writes what is buffered and returns the first error.
func (u *Unavail) Flush() error {
	if u.w == nil || u.err != nil {
		return u.err
	}
	return u.w.Flush()
}
