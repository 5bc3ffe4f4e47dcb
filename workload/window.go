package workload

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the traces' time zones, also where the system has no zoneinfo

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/workload/swf"
)

// The layouts a date of a time window may take, in the trace's time
// zone.
var dateLayouts = []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05"}

// ParseInstant reads one end of a time window of a trace: a number of
// seconds since the trace's time 0 (its submit times' origin), or a date
// (YYYY-MM-DD, optionally THH:MM[:SS]) in the trace's time zone, which
// needs the header's UnixStartTime (and reads its TimeZoneString; UTC
// without one).
func ParseInstant(text string, h swf.Header) (float64, error) {
	t := strings.TrimSpace(text)
	if x, err := strconv.ParseFloat(t, 64); err == nil {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%q: not a finite number of seconds", text)
		}
		return x, nil
	}
	loc := time.UTC
	if h.TimeZoneString != "" {
		if l, err := time.LoadLocation(h.TimeZoneString); err == nil {
			loc = l
		}
	}
	for _, layout := range dateLayouts {
		d, err := time.ParseInLocation(layout, t, loc)
		if err != nil {
			continue
		}
		if h.UnixStartTime <= 0 {
			return 0, fmt.Errorf("%q: the trace's header gives no UnixStartTime, so a date cannot be placed in it: give seconds since the trace's start", text)
		}
		return float64(d.Unix() - h.UnixStartTime), nil
	}
	return 0, fmt.Errorf("%q: want a date (YYYY-MM-DD, optionally THH:MM or THH:MM:SS, in the trace's time zone) or a number of seconds since the trace's start", text)
}

// Window is a time window of a trace: the jobs submitted in [From, To).
type Window struct {
	From, To float64 // seconds since the trace's time 0; To +Inf: no end
}

// WindowSource passes on the jobs submitted in the window: it drops (and
// counts) the jobs before it and ends at the first job at or after its
// end (sources are sorted by submit time).
type WindowSource struct {
	src    Source
	w      Window
	before int64
	done   bool
}

// NewWindowSource wraps src.
func NewWindowSource(src Source, w Window) *WindowSource { return &WindowSource{src: src, w: w} }

// Before is the number of jobs dropped because they came before the
// window.
func (s *WindowSource) Before() int64 { return s.before }

func (s *WindowSource) Next() (actual.Job, error) {
	if s.done {
		return actual.Job{}, io.EOF
	}
	for {
		j, err := s.src.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				s.done = true
			}
			return j, err
		}
		if j.Submit < s.w.From {
			s.before++
			continue
		}
		if j.Submit >= s.w.To {
			s.done = true
			return actual.Job{}, io.EOF
		}
		return j, nil
	}
}

// FormatInstant writes a time of a trace as a date in its time zone
// when the header places it (UnixStartTime), else as seconds.
func FormatInstant(x float64, h swf.Header) string {
	if h.UnixStartTime <= 0 || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64) + " s"
	}
	loc := time.UTC
	if h.TimeZoneString != "" {
		if l, err := time.LoadLocation(h.TimeZoneString); err == nil {
			loc = l
		}
	}
	return time.Unix(h.UnixStartTime+int64(math.Floor(x)), 0).In(loc).Format("2006-01-02 15:04:05 MST")
}
