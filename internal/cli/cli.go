package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/alecthomas/kong"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// Version is set by the build (or left as "dev").
var Version = "dev"

type globals struct {
	stdout io.Writer
	stderr io.Writer
}

type cliSpec struct {
	Reproduce reproduceCmd `cmd:"" help:"Re-run a paper's experiments and set our numbers beside the published ones."`
	Run       runCmd       `cmd:"" help:"Simulate an SWF trace on one cluster under a queue policy."`
	Sweep     sweepCmd     `cmd:"" help:"Run a scenario file: every point of its sweep, with replications, confidence intervals and paired comparisons."`
	Trace     traceCmd     `cmd:"" help:"Inspect SWF traces."`
	Policies  policiesCmd  `cmd:"" help:"List the scheduling policies."`
	Bench     benchCmd     `cmd:"" help:"Time whole simulations of real traces (speed figures for docs/performance.md)."`
	Version   versionCmd   `cmd:"" help:"Print the version."`
}

// usageError marks errors of the command line (exit status 2).
type usageError struct{ error }

// Main runs the command line args (without the program name) and returns
// the exit status.
func Main(args []string, stdout, stderr io.Writer) (status int) {
	var spec cliSpec
	g := &globals{stdout: stdout, stderr: stderr}
	exited := false
	parser, err := kong.New(&spec,
		kong.Name("schedlab"),
		kong.Description("A fast, deterministic laboratory for grid and HPC job-scheduling policies."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exited, status = true, code }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Bind(g),
	)
	if err != nil {
		fmt.Fprintf(stderr, "schedlab: internal error: %v\n", err)
		return 1
	}
	ctx, err := parser.Parse(args)
	if exited { // --help
		return status
	}
	if err != nil {
		fmt.Fprintf(stderr, "schedlab: %v\n", err)
		fmt.Fprintln(stderr, "Run 'schedlab --help' for usage.")
		return 2
	}
	if err := ctx.Run(g); err != nil {
		fmt.Fprintf(stderr, "schedlab: %v\n", err)
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}

type runCmd struct {
	Trace     string  `required:"" placeholder:"FILE" help:"SWF trace (plain or .gz): a path, or the bare name of an embedded trace or of one in $$SCHEDLAB_TRACES or ../shared/traces."`
	Policy    string  `required:"" placeholder:"NAME" help:"Queue policy: fcfs, easy, conservative, backfill (see 'schedlab policies')."`
	Depth     int     `placeholder:"K" help:"Reservation depth for --policy backfill (1 = EASY; 0 = unlimited = conservative)."`
	Order     string  `default:"fcfs" enum:"fcfs,sjf" help:"Queue order: fcfs (submit time) or sjf (shortest estimate first)."`
	Estimate  string  `default:"request" enum:"request,exact" help:"Runtime estimates the scheduler sees: request (SWF requested time; the runtime if unknown) or exact."`
	Procs     int     `placeholder:"N" help:"Machine size (default: the trace header's MaxProcs)."`
	OnOverrun string  `default:"kill" enum:"kill,continue" help:"A job running past its requested time is killed at the limit (kill) or runs on (continue)."`
	Clamp     bool    `help:"Clamp jobs larger than the machine to its size instead of rejecting them."`
	Tau       float64 `default:"10" help:"Bounded-slowdown threshold in seconds."`
	Out       string  `placeholder:"DIR" help:"Output folder for jobs.csv and summary.json (default: schedlab-out/<trace>-<policy>)."`
	NoOut     bool    `help:"Write no files; print the summary only."`
	SWF       bool    `name:"swf" help:"Also write the simulated schedule as DIR/schedule.swf (simulated waits in field 3)."`
	Check     bool    `help:"Validate the produced schedule with an independent checker (capacity, start >= submit, durations)."`
	JSON      bool    `name:"json" help:"Print the summary as JSON instead of a table."`
}

func (c *runCmd) Run(g *globals) error {
	if !(c.Tau > 0) || math.IsInf(c.Tau, 0) {
		return usageError{fmt.Errorf("--tau must be a positive number of seconds, got %v", c.Tau)}
	}
	if c.Depth != 0 && c.Policy != "backfill" {
		return usageError{fmt.Errorf("--depth is only for --policy backfill (easy has depth 1, conservative unlimited)")}
	}
	if _, err := backfill.New(c.Policy, backfill.Options{Procs: 1, Depth: c.Depth}); err != nil && strings.HasPrefix(err.Error(), "unknown policy") {
		return usageError{err}
	}
	out := c.Out
	if out == "" && !c.NoOut {
		stem := filepath.Base(c.Trace)
		for _, ext := range []string{".gz", ".swf"} {
			stem = strings.TrimSuffix(stem, ext)
		}
		name := c.Policy
		if c.Policy == "backfill" {
			name = fmt.Sprintf("backfill%d", c.Depth)
		}
		out = filepath.Join("schedlab-out", stem+"-"+name)
	}
	if c.NoOut {
		out = ""
	}
	res, err := experiment.RunTrace(experiment.TraceRun{
		Trace: c.Trace, Policy: c.Policy, Depth: c.Depth, Order: c.Order, Estimate: c.Estimate,
		Procs: c.Procs, Continue: c.OnOverrun == "continue", Clamp: c.Clamp, Tau: c.Tau,
		Out: out, SWF: c.SWF, Check: c.Check,
	})
	if err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(g.stdout, res)
	}
	r := res.Run
	fmt.Fprintf(g.stdout, "trace %s: %d jobs on %d processors (%d records skipped, %d rejected, %d clamped)\n",
		r.Trace, res.Jobs, r.Procs, r.Skipped, r.Rejected, r.Clamped)
	fmt.Fprintf(g.stdout, "policy %s, order %s, estimates %s, overrun %s\n\n", r.Policy, r.Order, r.Estimate, r.OnOverrun)
	if err := res.Result.WriteText(g.stdout); err != nil {
		return err
	}
	if c.Check {
		fmt.Fprintln(g.stdout, "\ncheck: schedule valid (capacity, start >= submit, durations, every job exactly once, CPU ids: counts, ranges, none held twice)")
	}
	if out != "" {
		fmt.Fprintf(g.stdout, "\nwrote %s and %s\n", filepath.Join(out, "jobs.csv"), filepath.Join(out, "summary.json"))
	}
	return nil
}

type traceCmd struct {
	Info   traceInfoCmd   `cmd:"" help:"Job count, skipped jobs and why, time span, largest job, offered load."`
	Repeat traceRepeatCmd `cmd:"" help:"Write a long trace made of copies of a real one, shifted in time (for memory and speed tests)."`
}

type traceRepeatCmd struct {
	File  string  `arg:"" name:"file" help:"SWF trace to repeat (path or bare name)."`
	Times int     `required:"" help:"Number of copies."`
	Gap   float64 `default:"0" help:"Seconds between the last submission of a copy and the first of the next."`
	Out   string  `required:"" placeholder:"PATH" help:"Output SWF file (.gz to compress)."`
}

func (c *traceRepeatCmd) Run(g *globals) error {
	if c.Times < 1 {
		return usageError{fmt.Errorf("--times must be >= 1, got %d", c.Times)}
	}
	n, err := workload.Repeat(c.File, c.Times, c.Gap, c.Out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.stdout, "wrote %s: %d records (%d copies)\n", c.Out, n, c.Times)
	return err
}

type traceInfoCmd struct {
	Files []string `arg:"" name:"file" help:"SWF traces (paths or bare names)."`
	Procs int      `placeholder:"N" help:"Machine size (default: the header's MaxProcs)."`
	Clamp bool     `help:"Clamp jobs larger than the machine instead of rejecting them."`
}

func (c *traceInfoCmd) Run(g *globals) error {
	for i, name := range c.Files {
		if i > 0 {
			fmt.Fprintln(g.stdout)
		}
		rd, err := workload.OpenTrace(name)
		if err != nil {
			return err
		}
		st, err := swf.ComputeStats(rd, swf.Options{MaxProcs: c.Procs, Clamp: c.Clamp})
		rd.Close()
		if err != nil {
			return err
		}
		if err := st.WriteText(g.stdout); err != nil {
			return err
		}
	}
	return nil
}

type policiesCmd struct{}

func (policiesCmd) Run(g *globals) error {
	section := func(title string, rows [][2]string) error {
		fmt.Fprintf(g.stdout, "%s:\n", title)
		tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
		for _, r := range rows {
			fmt.Fprintf(tw, "  %s\t%s\n", r[0], r[1])
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		_, err := fmt.Fprintln(g.stdout)
		return err
	}
	var rows [][2]string
	for _, d := range backfill.Policies() {
		rows = append(rows, [2]string{d.Name, d.Summary})
	}
	if err := section("cluster model (run --policy, scenario policy.queue)", rows); err != nil {
		return err
	}
	for _, sec := range otherPolicies {
		if err := section(sec.title, sec.list); err != nil {
			return err
		}
	}
	return nil
}

// otherPolicies are the policies of the multi-site models, selected in
// scenario files (docs/scenarios.md).
var otherPolicies = []struct {
	title string
	list  [][2]string
}{
	{"grid model, grid scheduler (scenario policy.grid)", [][2]string{
		{"random", "each job to a uniformly random site (capacity-weighted with normalize_load)"},
		{"realtime", "each job at once to the least loaded site"},
		{"deferred", "jobs wait for the end of the allocation interval, then go to the least loaded sites"},
		{"hybrid", "random during the first random_fraction of each interval, deferred after"},
	}},
	{"grid model, local scheduler (scenario policy.local)", [][2]string{
		{"random", "a uniformly random processor"},
		{"sq", "the processor with the fewest jobs (idle first)"},
		{"2rsq", "the shorter of two random processors"},
	}},
	{"gang model (scenario policy.approach)", [][2]string{
		{"1", "a gang goes to one site: idle processors, else empty queues, else the GS queue (largest first)"},
		{"2", "as 1, and a gang may be split over both sites when enough processors are idle (+overhead)"},
	}},
}

type versionCmd struct{}

func (versionCmd) Run(g *globals) error {
	_, err := fmt.Fprintf(g.stdout, "schedlab %s\n", Version)
	return err
}
