package experiment

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/metrics/nodeuse"
	"github.com/schedlab/schedlab/registry"
)

// WriteSummary prints the text summary of the run of spec that gave
// res: what 'schedlab run' prints (and the in-process library hands to
// its caller), naming the files written to spec.Outputs.Dir.
func WriteSummary(w io.Writer, res *TraceResult, spec RunSpec) error {
	o := spec.Outputs
	out := o.Dir
	r := res.Run
	fmt.Fprintf(w, "trace %s: %d jobs on %d processors (%d records skipped, %d rejected, %d clamped)\n",
		r.Trace, res.Jobs, r.Procs, r.Skipped, r.Rejected, r.Clamped)
	if r.Window != "" {
		fmt.Fprintf(w, "window %s: %d records before it left out, the records after it not read\n", r.Window, r.BeforeWindow)
	}
	if r.Rank != "" {
		fmt.Fprintf(w, "policy %s, rank %s, head %s, estimates %s, overrun %s; %d job(s) refused by the policy (%s)\n\n",
			r.Policy, r.Rank, r.Head, r.Estimate, r.OnOverrun, r.Refused, r.RefusalNote)
	} else if r.Refused > 0 {
		fmt.Fprintf(w, "policy %s, order %s, estimates %s, overrun %s; %d job(s) refused by the policy at submission\n\n", r.Policy, r.Order, r.Estimate, r.OnOverrun, r.Refused)
	} else {
		fmt.Fprintf(w, "policy %s, order %s, estimates %s, overrun %s\n\n", r.Policy, r.Order, r.Estimate, r.OnOverrun)
	}
	if err := res.Result.WriteText(w); err != nil {
		return err
	}
	if err := writeDeclaredMetrics(w, res); err != nil {
		return err
	}
	if e := res.Energy; e != nil {
		unit := "a CPU"
		if e.Nodes > 0 {
			unit = "a node, linear in its load"
		}
		fmt.Fprintf(w, "\nenergy (%g W idle, %g W computing %s): %.1f kWh (%.6g J) from 0 to %.1f s; mean %.1f W, peak %.1f W, %.6g J a job\n",
			e.IdleW, e.ComputeW, unit, e.KWh, e.TotalJ, e.EndS, e.MeanW, e.PeakW, e.PerJobJ)
		writeSignalEnergy(w, e) // carbon.go: carbon, cost, the carbon-aware delay
		writeStates(w, e)       // sleep.go: the idle sleeper
		writeCap(w, e)          // powercap.go: the power cap
	}
	if n := res.Nodes; n != nil {
		writeNodes(w, n)
	}
	if p := r.Predictions; p != nil {
		fmt.Fprintf(w, "\npredictions (%s, correction %s): %d jobs predicted from their user's history (the others: their request); %d outlived their prediction and were corrected, %d corrections in all\n",
			p.Predictor, p.Correction, p.Predicted, p.Corrected, p.Corrections)
	}
	if r.Resample != "" {
		fmt.Fprintf(w, "\nresampled trace (%s): %d jobs\n", r.Resample, r.Resampled)
	}
	if a := r.Availability; a != nil {
		fmt.Fprintf(w, "\navailability (on failure: %s): %d reserved span(s), %.0f CPU-s; %d down span(s), %.0f CPU-s; %d run(s) cut short (%d requeued, %d killed), %.0f CPU-s lost\n",
			a.OnFailure, a.ReservedSpans, a.ReservedCPUTime, a.DownSpans, a.DownCPUTime, a.Interrupted, a.Requeued, a.Interrupted-a.Requeued, a.LostCPUTime)
	}
	writeGroups(w, res)
	if n := r.NoFit; n > 0 {
		fmt.Fprintf(w, "\n%d job(s) fit no node even with every node free: refused at submission, never simulated\n", n)
	}
	if n := r.RejectedByPolicy; n > 0 {
		fmt.Fprintf(w, "\n%d job(s) rejected by the policy while waiting (never started, not in jobs.csv)\n", n)
	}
	if d := res.Deadlines; d != nil {
		fmt.Fprintf(w, "\ndeadlines (%s", d.Rule)
		if d.Factor != "" {
			fmt.Fprintf(w, ", factor %s, fraction %g, seed %d", d.Factor, d.Fraction, d.Seed)
		}
		fmt.Fprintf(w, "): %d of %d jobs have one; missed %d = %.2f%% of all jobs, %.2f%% of those with one; system usage %.3f\n",
			d.WithDeadline, d.Jobs, d.Missed, d.MissedPct, d.MissedOfDeadlinePct, d.Usage)
	}
	if o.Check && r.Nodes != "" {
		kept := ""
		if r.Partitions != nil {
			kept = "; partitions kept: every job on nodes of its partition"
		}
		if r.Availability != nil {
			kept += "; no job on a node while it was reserved or down"
		}
		fmt.Fprintf(w, "\ncheck: schedule valid on nodes (every job once, start >= submit; each allocation against its request: nodes, tasks, whole cores per task, memory, GRES per node and per job, constraint, exclusive; at every instant no core or GRES unit held twice, no node's memory over-committed, no node shared with an exclusive job%s)\n", kept)
	} else if o.Check {
		fmt.Fprint(w, "\ncheck: schedule valid (capacity, start >= submit, durations, every job exactly once, CPU ids: counts, ranges, none held twice")
		if r.Partitions != nil {
			fmt.Fprint(w, ", each job in its partition")
		}
		if r.Availability != nil {
			fmt.Fprint(w, "; none on an unavailable CPU")
		}
		fmt.Fprintln(w, ")")
	}
	if out != "" {
		files := []string{filepath.Join(out, "jobs.csv"), filepath.Join(out, "summary.json")}
		if r.Availability != nil {
			files = append(files, filepath.Join(out, "unavailability.csv"))
		}
		if o.SWF {
			files = append(files, filepath.Join(out, "schedule.swf"))
		}
		if o.Threads {
			files = append(files, filepath.Join(out, "threads.csv"))
		}
		fmt.Fprintf(w, "\nwrote %s\n", andList(files))
	}
	return nil
}

// writeDeclaredMetrics prints the declared metrics a run measured with
// their own listeners (TraceResult.Metrics), one row each as
// the summary's: the name, its unit in parentheses.
func writeDeclaredMetrics(w io.Writer, res *TraceResult) error {
	for _, name := range res.MetricNames {
		label := name
		if d, ok := registry.LookupMetric(registry.ModelCluster, name); ok && d.Unit != "" {
			label += " (" + d.Unit + ")"
		}
		if _, err := fmt.Fprintf(w, "%-34s %14s\n", label, strconv.FormatFloat(res.Metrics[name], 'g', 6, 64)); err != nil {
			return err
		}
	}
	return nil
}

// andList joins xs with ", " and " and " before the last.
func andList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// writeNodes prints the use of a platform of nodes (summary.json's
// "nodes" section) on two lines: utilizations, then the GPUs.
func writeNodes(w io.Writer, n *nodeuse.Result) {
	mem := ""
	if n.MemMB > 0 {
		mem = fmt.Sprintf(", %d MB", n.MemMB)
	}
	fmt.Fprintf(w, "\nnodes (%d nodes, %d cores%s; over the %.1f s from %.1f s): core utilization %.3f", n.Nodes, n.Cores, mem, n.SpanS, n.FirstSubmitS, n.CoreUtilization)
	if m := n.MemUtilization; m != nil {
		fmt.Fprintf(w, ", memory %.3f", *m)
	}
	for _, g := range n.GRES {
		fmt.Fprintf(w, ", %s %.3f", g.Kind, g.Utilization)
	}
	fmt.Fprintf(w, "; busy nodes %.3f\n", n.BusyNodeFraction)
	fmt.Fprintf(w, "GPUs: %.1f GPU-hours, %.1f idle while GPU jobs waited; %d GPU job(s), mean wait %.1f s; %d other job(s), mean wait %.1f s\n",
		n.GPUHours, n.IdleGPUHoursWhileWaiting, n.GPUJobs, n.GPUJobsMeanWait, n.OtherJobs, n.OtherJobsMeanWait)
}

// writeGroups writes the partitions' and the groups' lines of the
// summary (--partition, --metrics-by).
func writeGroups(w io.Writer, res *TraceResult) {
	r := res.Run
	if pt := r.Partitions; pt != nil {
		fmt.Fprintf(w, "\npartitions:")
		for _, p := range pt.List {
			if p.Nodes != "" {
				fmt.Fprintf(w, " %s (nodes %s) %d jobs;", p.Name, p.Nodes, p.Jobs)
			} else {
				fmt.Fprintf(w, " %s (CPUs %s) %d jobs;", p.Name, p.CPUs, p.Jobs)
			}
		}
		fmt.Fprintf(w, " %d job(s) refused at submission (%d of no partition given, %d above maxtime, %d above maxcpus, %d not allowed)\n",
			pt.Rejected, pt.RejectedUnknown, pt.RejectedMaxTime, pt.RejectedMaxCPUs, pt.RejectedAccess)
		for _, p := range pt.List {
			if m := p.Metrics; m != nil {
				fmt.Fprintf(w, "  %s: %d jobs ended, mean wait %.1f s, max wait %.1f s, mean bounded slowdown %.3f, utilization %.3f\n",
					p.Name, m.Jobs, m.MeanWait, m.MaxWait, m.MeanBoundedSlowdown, m.Utilization)
			}
		}
	}
	if g := res.By; g != nil {
		shown := min(len(g.List), MaxGroupsPrinted)
		fmt.Fprintf(w, "\nby %s: %d %s(s) with jobs", g.Key, len(g.List), g.Key)
		if shown < len(g.List) {
			fmt.Fprintf(w, "; the %d with the most jobs (summary.json's metrics_by has all)", shown)
		}
		fmt.Fprintln(w)
		for _, x := range g.List[:shown] {
			fmt.Fprintf(w, "  %s: %d jobs ended, mean wait %.1f s, max wait %.1f s, mean bounded slowdown %.3f, %.1f%% of the CPU time\n",
				groupName(g.Key, x), x.Jobs, x.MeanWait, x.MaxWait, x.MeanBoundedSlowdown, 100*x.CPUShare)
		}
	}
}
