package experiment

import (
	"fmt"
	"os"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/metrics/nodeuse"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/threads"
	"github.com/schedlab/schedlab/workload"
)

// traceOutput is one output of a trace run: a listener, a file of the
// output folder, or both.
type traceOutput struct {
	name string
	// file is the file it writes in the output folder, created before
	// open (and given to it) when the run has one; "" for none.
	file string
	// applies says whether the output is part of the run.
	applies func(a *traceAsm) bool
	// open makes the output's listener (nil: none), given its file (nil
	// without an output folder or file). With threads set, the listener
	// hears the threads of a policy that schedules threads, else the
	// jobs.
	open    func(a *traceAsm, f *os.File) (engine.Listener, error)
	threads bool
	// built, when set, runs once the policy is built (with the file).
	built func(a *traceAsm, f *os.File) error
	// report, when set, writes what the output measured into the result
	// (summary.json).
	report func(a *traceAsm, res *TraceResult)
	// flush, when set, completes the output's file before the output
	// folder is committed.
	flush func(a *traceAsm) error
}

// outputs are the handles the outputs of a run keep.
type outputs struct {
	sum         *metrics.Summary
	dl          *metrics.Deadlines
	reader      *jobReader
	measures    []metrics.Measure
	jobsCSV     *metrics.JobsCSV
	jobsFile    *os.File
	swf         *metrics.SWFSchedule
	unavail     *metrics.Unavail
	unavailFile *os.File
	rejected    *rejectedJobs
	threadsCSV  *threads.CSV
	threadRecs  *threads.Recorder
	planned     *plannedCSV
	parts       *partSummaries
	energy      *energy.Meter
	nodeUse     *nodeuse.Meter
	groups      *groupSums
	energyFile  *os.File
	powerLog    *powerLog
	// files are the outputs' files, by output index.
	files []*os.File
}

// traceOutputs are the outputs of a trace run, in the order of their
// listeners (then summary.json, written last, after --check).
var traceOutputs = []traceOutput{
	{name: "summary", applies: always,
		open: func(a *traceAsm, _ *os.File) (engine.Listener, error) {
			tau := a.s.Outputs.Tau
			if tau == 0 {
				tau = metrics.DefaultTau
			}
			a.o.sum = metrics.NewSummary(a.procs, tau)
			return a.o.sum, nil
		},
		report: func(a *traceAsm, res *TraceResult) { res.Result = a.o.sum.Result() }},
	{name: "deadlines", // missed deadlines, klusacek-2008's system usage
		applies: func(a *traceAsm) bool { return a.withDeadlines },
		open: func(a *traceAsm, _ *os.File) (engine.Listener, error) {
			a.o.dl = metrics.NewDeadlines()
			return a.o.dl, nil
		},
		report: reportDeadlines},
	{name: "responses", // OutputSpec.Responses: per job, in memory
		applies: func(a *traceAsm) bool { return a.s.Outputs.Responses },
		open: func(a *traceAsm, _ *os.File) (engine.Listener, error) {
			a.o.reader = &jobReader{res: &ClusterResult{}}
			return a.o.reader, nil
		},
		built: func(a *traceAsm, _ *os.File) error {
			a.o.reader.watch(a.run.built)
			return nil
		},
		report: func(a *traceAsm, res *TraceResult) { res.PerJob = a.o.reader.res }},
	{name: "listeners", // OutputSpec.Listeners, the caller's
		applies: func(a *traceAsm) bool { return len(a.s.Outputs.Listeners) > 0 },
		open: func(a *traceAsm, _ *os.File) (engine.Listener, error) {
			return engine.Tee(a.s.Outputs.Listeners), nil
		}},
	{name: "metrics", // the declared metrics that are their own listeners
		applies: func(a *traceAsm) bool { return len(a.measured) > 0 },
		open:    openMeasures,
		report: func(a *traceAsm, res *TraceResult) {
			res.Metrics = map[string]float64{}
			for i, d := range a.measured {
				res.Metrics[d.Name] = a.o.measures[i].Value()
				res.MetricNames = append(res.MetricNames, d.Name)
			}
		}},
	{name: "partitions", // PlatformSpec.Partitions: each partition's own summary
		applies: func(a *traceAsm) bool { return len(a.defs) > 0 },
		open:    openPartSummaries, report: reportPartSummaries},
	{name: "metrics_by", // OutputSpec.By: each user's, group's or QOS's own summary
		applies: func(a *traceAsm) bool { return a.s.Outputs.By != "" },
		open:    openGroupSums, report: reportGroupSums},
	{name: "energy", // PlatformSpec.Power: the machine's joules (summary.json)
		applies: func(a *traceAsm) bool { return a.s.Platform.Power != "" },
		open:    openEnergy, report: reportEnergy},
	{name: "energy.csv", file: "energy.csv", // the power at every change
		applies: func(a *traceAsm) bool { return a.out != nil && a.s.Platform.Power != "" },
		built:   func(a *traceAsm, f *os.File) error { a.o.energyFile = f; return nil },
		flush:   func(a *traceAsm) error { return writeEnergyCSV(a, a.o.energyFile) }},
	{name: "power.csv", file: "power.csv", // PolicySpec.Sleep: every switch of the CPUs' power states
		applies: func(a *traceAsm) bool { return a.out != nil && a.s.Policy.Sleep != "" },
		open: func(a *traceAsm, f *os.File) (engine.Listener, error) {
			a.o.powerLog = newPowerLog(f)
			return a.o.powerLog, nil
		},
		flush: func(a *traceAsm) error { return a.o.powerLog.w.Flush() }},
	{name: "nodes", // PlatformSpec.Nodes: the use of the nodes (summary.json)
		applies: func(a *traceAsm) bool { return a.ns != nil },
		open: func(a *traceAsm, _ *os.File) (engine.Listener, error) {
			a.o.nodeUse = nodeuse.NewMeter(a.ns)
			return a.o.nodeUse, nil
		},
		report: func(a *traceAsm, res *TraceResult) {
			r := a.o.nodeUse.Result()
			res.Nodes = &r
		}},
	{name: "jobs.csv", file: "jobs.csv",
		applies: func(a *traceAsm) bool { return a.out != nil },
		open:    openJobsCSV,
		flush:   func(a *traceAsm) error { return a.o.jobsCSV.Flush() }},
	{name: "schedule.swf", file: "schedule.swf",
		applies: func(a *traceAsm) bool { return a.out != nil && a.s.Outputs.SWF },
		open: func(a *traceAsm, f *os.File) (engine.Listener, error) {
			h := a.rd.Header()
			h.Lines = append(append([]string(nil), h.Lines...),
				fmt.Sprintf(" Note: simulated by schedlab, policy %s, estimate %s: field 3 is the simulated wait time", a.s.Policy.Name, a.s.Workload.Estimate))
			a.o.swf = metrics.NewSWFSchedule(atomicfile.WriteBehind(f), h)
			return a.o.swf, nil
		},
		flush: func(a *traceAsm) error { return a.o.swf.Close() }},
	{name: "unavailability", file: "unavailability.csv", // the file only with an output folder
		applies: func(a *traceAsm) bool { return a.avail != nil || a.navail != nil },
		open: func(a *traceAsm, f *os.File) (engine.Listener, error) {
			if f == nil {
				a.o.unavail = metrics.NewUnavail(nil)
			} else {
				a.o.unavailFile = f
				a.o.unavail = metrics.NewUnavail(atomicfile.WriteBehind(f))
			}
			return a.o.unavail, nil
		},
		report: reportAvail,
		flush: func(a *traceAsm) error {
			if a.o.unavailFile == nil {
				return nil
			}
			return a.o.unavail.Flush()
		}},
	{name: "rejected", // --check: the jobs the policy rejected are not looked for
		applies: func(a *traceAsm) bool { return a.s.Outputs.Check },
		open: func(a *traceAsm, _ *os.File) (engine.Listener, error) {
			a.o.rejected = &rejectedJobs{}
			return a.o.rejected, nil
		}},
	{name: "threads.csv", file: "threads.csv", threads: true,
		applies: func(a *traceAsm) bool { return a.out != nil && a.s.Outputs.Threads },
		open: func(a *traceAsm, f *os.File) (engine.Listener, error) {
			a.o.threadsCSV = threads.NewCSV(atomicfile.WriteBehind(f))
			return a.o.threadsCSV, nil
		},
		flush: func(a *traceAsm) error { return a.o.threadsCSV.Flush() }},
	{name: "thread records", threads: true, // --check of a policy that schedules threads
		applies: func(a *traceAsm) bool { return a.s.Outputs.Check && a.asThreads },
		open: func(a *traceAsm, _ *os.File) (engine.Listener, error) {
			a.o.threadRecs = &threads.Recorder{}
			return a.o.threadRecs, nil
		}},
	{name: "planned.csv", file: "planned.csv", // hooked to the policy's reservations
		applies: func(a *traceAsm) bool { return a.s.Outputs.Planned },
		built: func(a *traceAsm, f *os.File) (err error) {
			a.o.planned, err = newPlannedCSV(f, a.run.built)
			return err
		},
		flush: func(a *traceAsm) error { return a.o.planned.flush() }},
}

func openMeasures(a *traceAsm, _ *os.File) (engine.Listener, error) {
	var t engine.Tee
	a.o.measures = make([]metrics.Measure, len(a.measured))
	for i, d := range a.measured {
		env := metrics.Env{Model: registry.ModelCluster, Procs: a.procs, Power: a.s.Platform.Power, Nodes: a.ns}
		var err error
		if env.Carbon, env.Price, err = runSignals(a.s.Platform); err != nil {
			return nil, err
		}
		a.o.measures[i] = d.New(env)
		t = append(t, a.o.measures[i])
	}
	return t, nil
}

// openJobsCSV picks the columns: the node columns on a platform of
// nodes, attempts with unavailable CPUs (and the machine columns with
// deadlines), the machine columns with deadlines.
func openJobsCSV(a *traceAsm, f *os.File) (engine.Listener, error) {
	w := atomicfile.WriteBehind(f)
	switch {
	case a.ns != nil:
		a.o.jobsCSV = metrics.NewJobsCSVNodes(w, a.ns)
	case a.avail != nil:
		var mp *platform.Platform
		if a.withDeadlines {
			mp = &a.plat
		}
		a.o.jobsCSV = metrics.NewJobsCSVAttempts(w, mp)
	case a.withDeadlines:
		a.o.jobsCSV = metrics.NewJobsCSVMachines(w, a.plat)
	default:
		a.o.jobsCSV = metrics.NewJobsCSV(w)
	}
	if a.s.Platform.Power != "" {
		p := a.power()
		a.o.jobsCSV.SetEnergyRate(p.ComputeW - p.IdleW)
	}
	// The user and group names of a trace whose header gives them (an
	// import of Slurm accounting: "; User 1: alice").
	if a.rd != nil {
		h := a.rd.Header()
		if users, groups := h.IDNames("User"), h.IDNames("Group"); users != nil || groups != nil {
			a.o.jobsCSV.SetNames(users, groups)
		}
	}
	a.o.jobsFile = f
	return a.o.jobsCSV, nil
}

func reportDeadlines(a *traceAsm, res *TraceResult) {
	d, r := a.o.dl.Result(), a.s.Workload.Deadlines
	res.Deadlines = &TraceDeadlines{Rule: r.Base.String(), Jobs: d.Jobs, WithDeadline: d.WithDeadline, Missed: d.Missed,
		MissedPct: d.MissedPct, MissedOfDeadlinePct: d.MissedOfDeadlinePct, Usage: d.Usage}
	if r.Base != workload.DeadlineNone {
		res.Deadlines.Factor = fmt.Sprintf("%g-%g", r.Min, r.Max)
		res.Deadlines.Fraction, res.Deadlines.Seed = r.Fraction, r.Seed
	}
}

func reportAvail(a *traceAsm, res *TraceResult) {
	s := a.s.Platform.Avail
	in := &AvailInfo{Reservations: len(s.Reservations), Events: s.Events, OnFailure: orText(s.OnFailure, "kill"),
		UnavailCounts: a.o.unavail.Counts}
	if f := s.Failures; f != nil {
		in.Failures = fmt.Sprintf("mtbf %g mttr %g seed %d group_size %d", f.MTBF, f.MTTR, f.Seed, f.GroupSize)
		if f.CPUs != nil {
			in.Failures += " cpus " + f.CPUs.String()
		}
	}
	res.Run.Availability = in
}

// openOutputs opens the output folder (when the run has one) and every
// output that applies, in order, before the run is assembled.
func (a *traceAsm) openOutputs() (err error) {
	if d := a.s.Outputs.Dir; d != "" {
		if a.out, err = newOutDir(d); err != nil {
			return err
		}
		a.onClose(func(failed bool) {
			if failed {
				if a.o.jobsCSV != nil {
					a.o.jobsCSV.Stop() // no batch writes to the file once it is gone
				}
				a.out.abort()
			}
		})
	}
	a.o.files = make([]*os.File, len(traceOutputs))
	for i, o := range traceOutputs {
		if !o.applies(a) || o.open == nil {
			continue
		}
		if err := a.createFile(i); err != nil {
			return err
		}
		l, err := o.open(a, a.o.files[i])
		if err != nil {
			return err
		}
		if o.threads {
			a.threadLis = append(a.threadLis, l)
		} else {
			a.lis = append(a.lis, flatten(l)...)
		}
	}
	return nil
}

// createFile creates output i's file, if it has one and the run an
// output folder.
func (a *traceAsm) createFile(i int) (err error) {
	if name := traceOutputs[i].file; name != "" && a.out != nil {
		a.o.files[i], err = a.out.create(name)
	}
	return err
}

// flatten is l as the listeners it tees, so that the run's tee is one
// flat list (as it was built before the outputs were declared).
func flatten(l engine.Listener) []engine.Listener {
	if t, ok := l.(engine.Tee); ok {
		return t
	}
	return []engine.Listener{l}
}

// builtOutputs runs the outputs' hooks on the built policy, in order.
func (a *traceAsm) builtOutputs() error {
	for i, o := range traceOutputs {
		if !o.applies(a) || o.built == nil {
			continue
		}
		if o.open == nil {
			if err := a.createFile(i); err != nil {
				return err
			}
		}
		if err := o.built(a, a.o.files[i]); err != nil {
			return err
		}
	}
	return nil
}

// reportOutputs writes what the outputs measured into res, in order.
func (a *traceAsm) reportOutputs(res *TraceResult) {
	for _, o := range traceOutputs {
		if o.applies(a) && o.report != nil {
			o.report(a, res)
		}
	}
}

// flushOutputs completes the outputs' files, in order.
func (a *traceAsm) flushOutputs() error {
	for _, o := range traceOutputs {
		if o.applies(a) && o.flush != nil {
			if err := o.flush(a); err != nil {
				return fmt.Errorf("output: %w", err)
			}
		}
	}
	return nil
}
