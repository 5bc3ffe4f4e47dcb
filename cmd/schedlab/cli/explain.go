package cli

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

type explainCmd struct {
	Trace       string   `required:"" placeholder:"FILE" help:"SWF trace (plain or .gz): a path or a bare name, as for run."`
	Policy      string   `required:"" placeholder:"NAME" help:"Queue policy of the cluster model: ${queue_policies} (matrix schedules threads and is not explained)."`
	Job         string   `required:"" placeholder:"N" help:"The id of the job to explain (SWF field 1: for a Slurm import, the JobIDRaw)."`
	Procs       int      `placeholder:"N" help:"Machine size (default: the trace header's MaxProcs)."`
	Estimate    string   `default:"${estimate_default}" enum:"${estimates}" help:"Runtime estimates the scheduler sees: request or exact."`
	Set         []string `sep:"none" placeholder:"NAME=VALUE" help:"Set an option of the policy (repeatable), as for run; the policy flags of run (--depth, --order, ...) work too."`
	From        string   `placeholder:"WHEN" help:"As for run: only the jobs submitted from WHEN on (a date in the trace's zone, or seconds)."`
	To          string   `placeholder:"WHEN" help:"As for run: only the jobs submitted before WHEN."`
	OnOverrun   string   `default:"kill" enum:"kill,continue" help:"As for run: a job running past its requested time is killed at the limit (kill) or runs on (continue)."`
	Clamp       bool     `help:"As for run: clamp jobs larger than the machine to its size."`
	Partition   []string `sep:"none" placeholder:"NAME:CPUS[:LIMITS]" help:"A partition (repeatable), as for run: the passes then describe the job's partition (its waiting jobs, its free CPUs, its policy's reservations)."`
	Reservation []string `sep:"none" placeholder:"START:END:CPUS" help:"An advance reservation or maintenance window (repeatable), as for run: its CPUs are not free over [START, END)."`
	Events      string   `placeholder:"FILE" help:"As for run, for the announced windows it holds (explain refuses failures: the policy learns of them only when they happen)."`
	Nodes       []string `sep:"none" placeholder:"NAMES:cores=N[:...]" help:"A node group (repeatable), as for run: a run on nodes planned by counts (every job asks for cores alone: an SWF trace) is explained as the pool of its cores, the same schedule (docs/nodes.md); a run the node version plans is refused."`
	SlurmConf   string   `name:"slurm-conf" placeholder:"FILE" help:"As for run: the machine and partitions from a site's slurm.conf (with --slurm-nodes its nodes and partitions of nodes, and under --policy slurm its scheduler settings)."`
	SlurmNodes  bool     `name:"slurm-nodes" help:"As for run: with --slurm-conf, the file's nodes and partitions of nodes."`
	SlurmQOS    string   `name:"slurm-qos" placeholder:"FILE" help:"As for run: with --policy slurm, the QOS limits of 'sacctmgr show qos --parsable2' output."`
	Gantt       bool     `help:"Also draw the schedule as text: CPU ids down, time across, each job's id in its bars (at most ${gantt_cpus} CPUs and ${gantt_jobs} jobs)."`
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
	if p := experiment.NewTraceProgress(g.stderr, "explain job "+c.Job, spec.Workload); p != nil {
		spec.Outputs.Listeners = append(spec.Outputs.Listeners, p)
	}
	id, err := explainID(c.Job)
	if err != nil {
		n, ok := slurmJobID(c.Job, spec.Workload.Trace)
		if !ok {
			return usageError{err}
		}
		id = n
		fmt.Fprintf(g.stderr, "schedlab: --job %s is job %d of the trace (its header's JobID lines, as trace import writes them)\n", strings.TrimSpace(c.Job), n)
	}
	explain := experiment.Explain
	if c.Gantt {
		explain = experiment.ExplainAll // the whole schedule
	}
	x, err := explain(spec, id)
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

// explainID reads --job: a job number (digits only: Go's integer
// syntax would read 1005_1 as 10051). A Slurm array task (1005_1) or
// heterogeneous component (1005+0) is refused with what to give
// instead: a trace numbers jobs by JobIDRaw.
func explainID(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if i := strings.IndexAny(t, "_+"); i > 0 && allDigits(t[:i]) {
		kind := "an array task"
		if t[i] == '+' {
			kind = "a heterogeneous job's component"
		}
		return 0, fmt.Errorf("--job %s: a Slurm id of %s; a trace numbers its jobs by JobIDRaw (SWF field 1), and this trace's header names no job by it (trace import lists them: ; JobID 1006: 1005_1): give that number (sacct -j %s -o JobIDRaw)", s, kind, t)
	}
	if !allDigits(t) || len(t) > 16 {
		return 0, fmt.Errorf("--job %q: want a job number (SWF field 1), such as 1005", s)
	}
	var n int64
	for _, c := range t {
		n = n*10 + int64(c-'0')
	}
	if n < 1 {
		return 0, fmt.Errorf("--job %s: job numbers start at 1", s)
	}
	return n, nil
}

// slurmJobID finds a Slurm JobID of an array task or a heterogeneous
// component (1005_1, 104+0) in the trace's header, whose "JobID N:
// 1005_1" lines (trace import writes them) give the job number N.
func slurmJobID(s, trace string) (int64, bool) {
	t := strings.TrimSpace(s)
	if i := strings.IndexAny(t, "_+"); i <= 0 || !allDigits(t[:i]) {
		return 0, false
	}
	rd, err := workload.OpenTraceNotify(trace, nil)
	if err != nil {
		return 0, false
	}
	defer rd.Close()
	for n, text := range rd.Header().IDNames("JobID") {
		if text == t {
			return int64(n), true
		}
	}
	return 0, false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
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
	where := fmt.Sprintf("%d CPUs", x.Procs)
	if x.Partition != "" {
		where = fmt.Sprintf("partition %s, %d CPUs", x.Partition, x.Procs)
	}
	if x.Nodes != "" {
		fmt.Fprintf(w, "%s.\n", x.Nodes)
	}
	ended := "the simulation stops at its start"
	if !math.IsNaN(j.End) {
		ended = "ended at " + at(j.End)
	}
	fmt.Fprintf(w, "job %d of %s under %s (%s): needs %d CPU(s), estimate %s s (ran %s s); submitted at %s, started at %s (%s), %s; waited %s s.\n",
		j.ID, x.Trace, x.Policy, where, j.Procs, tnum(j.Estimate), tnum(j.Runtime), at(j.Submit), at(j.Start), j.Reason, ended, tnum(j.Start-j.Submit))
	fmt.Fprintf(w, "%d scheduling pass(es) from its submission to its start:\n", len(x.Passes))
	for i, p := range x.Passes {
		if i == maxPassesText/2 && len(x.Passes) > maxPassesText {
			skip := len(x.Passes) - maxPassesText
			fmt.Fprintf(w, "  ... %d passes left out ...\n", skip)
		}
		if len(x.Passes) > maxPassesText && i >= maxPassesText/2 && i < len(x.Passes)-maxPassesText/2 {
			continue
		}
		if x.Slurm {
			// The slurm policy's passes: Slurm's reason and the rule.
			fmt.Fprintf(w, "  at %s:", at(p.Time))
			if p.Position > 0 {
				fmt.Fprintf(w, " position %d of %d in the priority order", p.Position, p.Waiting)
			}
			if !math.IsNaN(p.Resv) {
				fmt.Fprintf(w, "; planned start (backfill reservation): %s", at(p.Resv))
			}
			fmt.Fprintf(w, "\n    %s\n", p.Why)
			continue
		}
		fmt.Fprintf(w, "  at %s: position %d of %d waiting, %d CPU(s) free", at(p.Time), p.Position, p.Waiting, p.Free)
		if p.Head != 0 {
			fmt.Fprintf(w, "; oldest waiting or reserved: job %d", p.Head)
		}
		if !math.IsNaN(p.HeadResv) {
			fmt.Fprintf(w, ", reserved at %s (shadow time), %d extra processor(s)", at(p.HeadResv), p.Extra)
		}
		if p.Ahead != nil {
			fmt.Fprintf(w, "; %d reservation(s) of jobs submitted before it", len(p.Ahead))
		}
		if !math.IsNaN(p.Resv) {
			fmt.Fprintf(w, "; its reservation: %s", at(p.Resv))
		}
		if len(p.Others) > 0 {
			ids := make([]string, len(p.Others))
			for k, id := range p.Others {
				ids[k] = strconv.FormatInt(id, 10)
			}
			if len(ids) > 5 {
				ids = append(ids[:5], fmt.Sprintf("and %d more", len(p.Others)-5))
			}
			fmt.Fprintf(w, "; the pass started job(s) %s (%d CPU(s)), %d CPU(s) free after it", strings.Join(ids, ", "), p.OthersProcs, p.After)
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
	// --slurm-conf, --slurm-nodes and --slurm-qos, read as run reads them.
	rc := &runCmd{Trace: c.Trace, Policy: c.Policy, Procs: c.Procs, Partition: c.Partition, Nodes: c.Nodes, SlurmConf: c.SlurmConf, SlurmNodes: c.SlurmNodes, SlurmQOS: c.SlurmQOS}
	if err := rc.readSlurmFiles(g, given); err != nil {
		return spec, err
	}
	rc.slurmClock(given)
	c.Procs, c.Partition, c.Nodes = rc.Procs, rc.Partition, rc.Nodes
	spec = experiment.RunSpec{
		Workload: experiment.WorkloadSpec{Trace: c.Trace, Estimate: est, From: c.From, To: c.To},
		Platform: experiment.PlatformSpec{Procs: c.Procs, Clamp: c.Clamp, Continue: c.OnOverrun == "continue", Partitions: c.Partition, Nodes: c.Nodes,
			Avail: experiment.AvailSpec{Reservations: c.Reservation, Events: c.Events}},
		Policy: experiment.PolicySpec{Name: c.Policy, Options: given},
	}
	if err := flagProblems(spec.Check(), qp, g.policyFlags); err != nil {
		return spec, usageError{err}
	}
	return spec, nil
}
