package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/report/htmlreport"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

type reportCmd struct {
	Dirs    []string `arg:"" placeholder:"DIR" help:"Output folder of 'schedlab run', 'sweep' or 'reproduce' (--out DIR; for reproduce, DIR or DIR/<paper>); or two or more run folders of one trace to compare (with --out FILE)."`
	Out     string   `placeholder:"FILE" help:"The comparison page of two or more run folders, a name ending in .html (required with them; only with them)."`
	NoGantt bool     `name:"no-gantt" help:"Leave the Gantt charts (and the per-job data they need) out of run and comparison pages: a page of a few hundred KB, not tens of MB."`
	From    string   `placeholder:"WHEN" help:"Show only the jobs submitted from WHEN on (run and comparison pages): a date (YYYY-MM-DD[THH:MM[:SS]], in the trace's time zone; needs the trace, for its header's UnixStartTime) or seconds since the trace's start. The headline, charts and distributions are recomputed over those jobs; the summary table stays the whole run's."`
	To      string   `placeholder:"WHEN" help:"Show only the jobs submitted before WHEN (as --from)."`
	Label   []string `placeholder:"NAME" sep:"none" help:"Name the runs of a comparison, one --label per folder in their order (default: each run's policy, or its folder's name when two runs share a policy; never twice the same)."`
}

// Run writes DIR/report.html, or with several run folders the
// comparison page --out.
func (c *reportCmd) Run(g *globals) error {
	// The run's trace header places dates (--from, --to, the time axes);
	// without it, seconds since the trace's start.
	h, herr := runHeader(c.Dirs[0])
	win, err := c.window(h, herr)
	if err != nil {
		return err
	}
	opts := htmlreport.Options{NoGantt: c.NoGantt, Window: win, Labels: c.Label}
	if herr == nil {
		opts.Clock = clockOf(h)
	}
	switch {
	case len(c.Dirs) == 1 && c.Out != "":
		return usageError{fmt.Errorf("--out is only for a comparison of two or more run folders (one folder's page is DIR/report.html)")}
	case len(c.Dirs) > htmlreport.MaxCompareRuns:
		return usageError{fmt.Errorf("%d folders: a comparison takes at most %d runs", len(c.Dirs), htmlreport.MaxCompareRuns)}
	case len(c.Dirs) == 1 && len(c.Label) > 0:
		return usageError{fmt.Errorf("--label names the runs of a comparison of two or more run folders")}
	case len(c.Dirs) > 1 && len(c.Label) > 0 && htmlreport.CheckLabels(c.Label, len(c.Dirs)) != nil:
		return usageError{fmt.Errorf("--label: %w", htmlreport.CheckLabels(c.Label, len(c.Dirs)))}
	case len(c.Dirs) > 1 && c.Out == "":
		return usageError{fmt.Errorf("two or more run folders make one comparison page: say where with --out FILE (e.g. --out compare.html)")}
	case len(c.Dirs) > 1 && !htmlreport.IsHTMLName(c.Out):
		return usageError{fmt.Errorf("--out %s: the comparison page's name must end in .html", c.Out)}
	case len(c.Dirs) > 1:
		if err := htmlreport.CompareOpts(c.Dirs, c.Out, opts); err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "wrote %s\n", c.Out)
		return nil
	}
	outs, err := htmlreport.WriteOpts(c.Dirs[0], opts)
	for _, out := range outs {
		fmt.Fprintf(g.stdout, "wrote %s\n", out)
	}
	return err
}

// window reads --from and --to (nil when neither is given). Seconds need
// nothing more; a date needs the header of the run's trace (its
// UnixStartTime and time zone), found from run.trace in the first
// folder's summary.json as 'schedlab run' finds a trace. When the trace
// cannot be opened, a date is refused and seconds still work (and the
// page names the window in seconds).
func (c *reportCmd) window(h swf.Header, herr error) (*htmlreport.Window, error) {
	if c.From == "" && c.To == "" {
		return nil, nil
	}
	isSeconds := func(s string) bool {
		_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return s == "" || err == nil
	}
	w := &htmlreport.Window{From: math.Inf(-1), To: math.Inf(1)}
	from, to := "the start", "the end"
	for _, e := range []struct {
		flag, text string
		dst        *float64
		name       *string
	}{{"--from", c.From, &w.From, &from}, {"--to", c.To, &w.To, &to}} {
		if e.text == "" {
			continue
		}
		// Neither seconds nor a date: say what WHEN may be (a probe
		// header that places dates tells a date from other text).
		if _, err := workload.ParseInstant(e.text, swf.Header{UnixStartTime: 1}); err != nil {
			return nil, usageError{fmt.Errorf("%s %v", e.flag, err)}
		}
		if !isSeconds(e.text) && herr != nil {
			return nil, usageError{fmt.Errorf("%s %s: a date needs the header of the run's trace (its UnixStartTime), and it cannot be read: %v; give seconds since the trace's start instead", e.flag, e.text, herr)}
		}
		x, err := workload.ParseInstant(e.text, h)
		if err != nil {
			return nil, usageError{fmt.Errorf("%s %v", e.flag, err)}
		}
		// Beyond any time a trace holds, a date cannot be written (1e300
		// s was the year 292277026623).
		if math.Abs(x) > swf.MaxSeconds {
			return nil, usageError{fmt.Errorf("%s %s: %g seconds from the trace's start, beyond any time a trace holds: at most %g in either direction (swf.MaxSeconds)", e.flag, e.text, x, swf.MaxSeconds)}
		}
		*e.dst, *e.name = x, workload.FormatInstant(x, h)
	}
	if !(w.From < w.To) {
		return nil, usageError{fmt.Errorf("--from %s --to %s: an empty window (from must come before to)", c.From, c.To)}
	}
	w.Text = "from " + from + " to " + to
	return w, nil
}

// traceClock places the times of the run in dir on the calendar: its
// trace's header UnixStartTime and TimeZoneString (run.trace of its
// summary.json, found as 'schedlab run' finds a trace). nil when the
// folder is no run, its trace cannot be opened or its header has no
// UnixStartTime: the page then shows the time since the first submission.
func traceClock(dir string) *htmlreport.Clock {
	h, err := runHeader(dir)
	if err != nil {
		return nil
	}
	return clockOf(h)
}

// clockOf places a header's times on the calendar (nil without a
// UnixStartTime).
func clockOf(h swf.Header) *htmlreport.Clock {
	if h.UnixStartTime <= 0 {
		return nil
	}
	return &htmlreport.Clock{Start: float64(h.UnixStartTime), Zone: h.TimeZoneString}
}

// runHeader is the SWF header of the trace of the run in dir (run.trace
// of its summary.json, looked up as 'schedlab run' looks a trace up).
func runHeader(dir string) (swf.Header, error) {
	trace, err := runTrace(dir)
	if err != nil {
		return swf.Header{}, err
	}
	rd, err := workload.OpenTrace(trace)
	if err != nil {
		return swf.Header{}, err
	}
	defer rd.Close()
	return rd.Header(), nil
}

// runTrace is run.trace of DIR/summary.json.
func runTrace(dir string) (string, error) {
	path := filepath.Join(dir, "summary.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var s struct {
		Run struct {
			Trace string `json:"trace"`
		} `json:"run"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	if s.Run.Trace == "" {
		return "", fmt.Errorf("%s has no run.trace", path)
	}
	return s.Run.Trace, nil
}
