package cli

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

type explainCmd struct {
	Trace    string   `required:"" placeholder:"FILE" help:"SWF trace (plain or .gz): a path or a bare name, as for run."`
	Policy   string   `required:"" placeholder:"NAME" help:"Queue policy of the cluster model: ${queue_policies} (matrix schedules threads and is not explained)."`
	Job      int64    `required:"" placeholder:"N" help:"The id of the job to explain (SWF field 1)."`
	Procs    int      `placeholder:"N" help:"Machine size (default: the trace header's MaxProcs)."`
	Estimate string   `default:"${estimate_default}" enum:"${estimates}" help:"Runtime estimates the scheduler sees: request or exact."`
	Set      []string `sep:"none" placeholder:"NAME=VALUE" help:"Set an option of the policy (repeatable), as for run; the policy flags of run (--depth, --order, ...) work too."`
	Gantt    bool     `help:"Also draw the schedule as text: CPU ids down, time across, each job's id in its bars (at most ${gantt_cpus} CPUs and ${gantt_jobs} jobs)."`
}

// The text Gantt chart's bounds: a chart a terminal can show.
const (
	maxGanttCPUs  = 64
	maxGanttJobs  = 500
	ganttColumns  = 100
	maxPassesText = 200
)

func (c *explainCmd) Run(g *globals) error {
	spec, err := c.runSpec(g)
	if err != nil {
		return err
	}
	if p := experiment.NewProgress(g.stderr, fmt.Sprintf("explain job %d", c.Job)); p != nil {
		spec.Outputs.Listeners = append(spec.Outputs.Listeners, p)
	}
	x, err := experiment.Explain(spec, c.Job)
	if err != nil {
		return err
	}
	if c.Gantt && (x.Procs > maxGanttCPUs || len(x.Schedule) > maxGanttJobs) {
		return fmt.Errorf("--gantt draws traces of at most %d CPUs and %d jobs; %s has %d CPUs and %d jobs", maxGanttCPUs, maxGanttJobs, x.Trace, x.Procs, len(x.Schedule))
	}
	writeExplanation(g.stdout, x, explainClock(c.Trace))
	if c.Gantt {
		fmt.Fprintln(g.stdout)
		writeGantt(g.stdout, x)
	}
	return nil
}

// explainClock returns how explain writes a time of the trace: its
// seconds, and the date in the trace's zone beside them when the
// header places the trace (UnixStartTime).
func explainClock(trace string) func(float64) string {
	var h swf.Header
	if rd, err := workload.OpenTrace(trace); err == nil {
		h = rd.Header()
		rd.Close()
	}
	if h.UnixStartTime <= 0 {
		return tnum
	}
	return func(t float64) string { return tnum(t) + " (" + workload.FormatInstant(t, h) + ")" }
}

// writeExplanation prints the job and its passes, times by at.
func writeExplanation(w io.Writer, x *experiment.Explanation, at func(float64) string) {
	j := x.Job
	fmt.Fprintf(w, "job %d of %s under %s (%d CPUs): needs %d CPU(s), estimate %s s (ran %s s); submitted at %s, started at %s (%s), ended at %s; waited %s s.\n",
		j.ID, x.Trace, x.Policy, x.Procs, j.Procs, tnum(j.Estimate), tnum(j.Runtime), at(j.Submit), at(j.Start), j.Reason, at(j.End), tnum(j.Start-j.Submit))
	fmt.Fprintf(w, "%d scheduling pass(es) from its submission to its start:\n", len(x.Passes))
	for i, p := range x.Passes {
		if i == maxPassesText/2 && len(x.Passes) > maxPassesText {
			skip := len(x.Passes) - maxPassesText
			fmt.Fprintf(w, "  ... %d passes left out ...\n", skip)
		}
		if len(x.Passes) > maxPassesText && i >= maxPassesText/2 && i < len(x.Passes)-maxPassesText/2 {
			continue
		}
		fmt.Fprintf(w, "  at %s: position %d of %d waiting, %d CPU(s) free", at(p.Time), p.Position, p.Waiting, p.Free)
		if p.Head != 0 {
			fmt.Fprintf(w, "; oldest waiting or reserved: job %d", p.Head)
		}
		if !math.IsNaN(p.HeadResv) {
			fmt.Fprintf(w, ", reserved at %s (shadow time), %d extra processor(s)", at(p.HeadResv), p.Extra)
		}
		if !math.IsNaN(p.Resv) {
			fmt.Fprintf(w, "; its reservation: %s", at(p.Resv))
		}
		fmt.Fprintf(w, "\n    %s\n", p.Why)
	}
}

// writeGantt draws the schedule as text: one row per CPU, ganttColumns
// columns of equal time, each cell the last character of the id of the
// job that holds the CPU at the cell's middle ('.' idle); the explained
// job is drawn with '#'.
func writeGantt(w io.Writer, x *experiment.Explanation) {
	t0, t1 := math.Inf(1), math.Inf(-1)
	for _, s := range x.Schedule {
		t0, t1 = math.Min(t0, s.Start), math.Max(t1, s.End)
	}
	if !(t1 > t0) {
		t1 = t0 + 1
	}
	step := (t1 - t0) / ganttColumns
	rows := make([][]byte, x.Procs)
	for i := range rows {
		rows[i] = []byte(strings.Repeat(".", ganttColumns))
	}
	for _, s := range x.Schedule {
		mark := byte('0' + s.ID%10)
		if s.ID == x.Job.ID {
			mark = '#'
		}
		for k := 0; k < ganttColumns; k++ {
			mid := t0 + (float64(k)+0.5)*step
			if mid < s.Start || mid >= s.End {
				continue
			}
			for r := 0; r+1 < len(s.CPUs); r += 2 {
				for c := s.CPUs[r]; c <= s.CPUs[r+1]; c++ {
					rows[c][k] = mark
				}
			}
		}
	}
	fmt.Fprintf(w, "schedule, CPU ids down, time %s to %s across (%s s a column); each job drawn with the last digit of its id, job %d with #:\n",
		tnum(t0), tnum(t1), tnum(step), x.Job.ID)
	for i, r := range rows {
		fmt.Fprintf(w, "%4d %s\n", i, r)
	}
}

// tnum writes a time: whole numbers without a fraction.
func tnum(t float64) string {
	if math.IsNaN(t) {
		return "-"
	}
	if t == math.Trunc(t) && math.Abs(t) < 1e15 {
		return fmt.Sprintf("%.0f", t)
	}
	return fmt.Sprintf("%.4g", t)
}

// runSpec maps the flags to the run explained (experiment.RunSpec) and
// checks it as Explain will (RunSpec.Check: every problem at once).
func (c *explainCmd) runSpec(g *globals) (experiment.RunSpec, error) {
	var spec experiment.RunSpec
	c.Policy = registry.CanonicalName(registry.ModelCluster, registry.KindQueue, c.Policy)
	qp, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, c.Policy)
	if err != nil {
		return spec, usageError{err}
	}
	given, err := policyOptions(c.Policy, c.Set, qp, g.policyFlags)
	if err != nil {
		return spec, usageError{err}
	}
	est, err := workload.ParseEstimate(c.Estimate)
	if err != nil {
		return spec, usageError{err}
	}
	spec = experiment.RunSpec{
		Workload: experiment.WorkloadSpec{Trace: c.Trace, Estimate: est},
		Platform: experiment.PlatformSpec{Procs: c.Procs},
		Policy:   experiment.PolicySpec{Name: c.Policy, Options: given},
	}
	if err := flagProblems(spec.Check(), qp, g.policyFlags); err != nil {
		return spec, usageError{err}
	}
	return spec, nil
}
