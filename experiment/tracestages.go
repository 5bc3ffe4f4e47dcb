package experiment

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/resample"
	"github.com/schedlab/schedlab/workload/swf"
)

// A trace run is assembled in stages (traceAsm.do):
//
//  1. the settings are checked (RunSpec.Check), what they give taken
//     (traceAsm.resolve) and the trace opened;
//  2. the trace's source goes through traceStages, in their order, each
//     stage that applies wrapping what the earlier ones made;
//  3. the outputs (traceOutputs), in their order, add their listeners
//     and create their files;
//  4. newClusterRun builds the policy and the engine, where
//     clusterStages wrap the source further (screening, recording for
//     --check, the split into threads);
//  5. the engine runs; every applied stage and output then reports into
//     summary.json's run info, the outputs are flushed, the schedule is
//     checked (--check) and summary.json is written.
//
// The orders of the lists are the orders of the wrappers and of the
// listeners, and they decide results: a stage or an output goes where
// its place in the run is, never at the end for convenience.

// traceAsm is one trace run being assembled: the checked settings, the
// trace, and what the stages and outputs made.
type traceAsm struct {
	s                     RunSpec
	est                   workload.Estimate
	measured              []registry.Metric
	predictor, correction string
	pred                  *predict.Params
	qp                    registry.Entry
	opts                  option.Values
	// hetero: a policy of the hetero model; asThreads: a policy that
	// schedules threads; withDeadlines: the deadline metrics are
	// measured (deadlines derived, or a hetero policy).
	hetero, asThreads, withDeadlines bool

	rd    *swf.Reader
	src   *swf.Source // the trace's jobs, before any stage
	procs int
	plat  platform.Platform
	// ns is the platform of nodes (PlatformSpec.Nodes; nil: a pool of
	// CPUs, plat). With it plat is one machine of ns's cores.
	ns    *nodes.Nodes
	avail *engine.Availability
	// navail is avail on a platform of nodes (nodeavail.go).
	navail *engine.NodeAvailability
	defs   []partitionDef

	// what the source stages made
	window    *workload.WindowSource
	resampled []actual.Job
	psrc      *partitionSource

	out       *outDir
	lis       engine.Tee
	threadLis []engine.Listener
	o         outputs
	run       *clusterRun
	rec       *recordingSource // --check: the jobs (or threads) the kernel was given
	nodeChk   *nodeCheck       // --check on nodes: the jobs' requests and allocations
	// closers run when the run ends, the last added first (failed: the
	// run returns an error).
	closers []func(failed bool)
}

// sourceStage is one wrapper of a trace run's source of jobs.
type sourceStage struct {
	name string
	// applies says whether the stage is part of the run.
	applies func(a *traceAsm) bool
	// wrap returns the source with the stage around it.
	wrap func(a *traceAsm, src workload.Source) (workload.Source, error)
	// report, when set, writes what the stage did into the run info of
	// summary.json.
	report func(a *traceAsm, r *RunInfo)
}

// traceStages are the wrappers of a trace's source, innermost first.
// Those of newClusterRun (clusterStages: screening, recording for
// --check, threads) follow them.
var traceStages = []sourceStage{
	{name: "window", // --from, --to
		applies: func(a *traceAsm) bool { return a.s.Workload.From != "" || a.s.Workload.To != "" },
		wrap:    wrapWindow,
		report:  reportWindow},
	{name: "first", // the first N jobs (WorkloadSpec.First)
		applies: func(a *traceAsm) bool { return a.s.Workload.First != 0 },
		wrap: func(a *traceAsm, src workload.Source) (workload.Source, error) {
			return workload.First(src, a.s.Workload.First), nil
		}},
	{name: "submit-zero",
		applies: func(a *traceAsm) bool { return a.s.Workload.SubmitZero },
		wrap: func(a *traceAsm, src workload.Source) (workload.Source, error) {
			return workload.SubmitZero(src), nil
		}},
	{name: "resample", // reads every job before the run starts
		applies: func(a *traceAsm) bool {
			return a.s.Workload.Resample != "" && a.s.Workload.Resample != resample.Methods[0]
		},
		wrap: func(a *traceAsm, src workload.Source) (workload.Source, error) {
			var err error
			if a.resampled, err = resampleTrace(src, a.s.Workload); err != nil {
				return nil, fmt.Errorf("trace %s: %w", a.rd.Name(), err)
			}
			return workload.FromSlice(a.resampled), nil
		},
		report: func(a *traceAsm, r *RunInfo) {
			w := a.s.Workload
			r.Resample = fmt.Sprintf("%s seed %d replication %d", w.Resample, w.Seed, w.Rep)
			r.Resampled = len(a.resampled)
		}},
	{name: "tsafrir", // requests for the jobs without one
		applies: func(a *traceAsm) bool { return a.est == workload.EstimateTsafrir },
		wrap: func(a *traceAsm, src workload.Source) (workload.Source, error) {
			return tsafrirRequests(src, a.s.Workload.Seed, a.s.Workload.Rep)
		}},
	{name: "estimates",
		applies: always,
		wrap: func(a *traceAsm, src workload.Source) (workload.Source, error) {
			return workload.WithEstimates(src, a.est), nil
		}},
	{name: "prefetch", // parsing overlaps with simulation: same jobs, same order, same errors
		applies: always,
		wrap: func(a *traceAsm, src workload.Source) (workload.Source, error) {
			pre := workload.Prefetch(src, 4096)
			a.onClose(func(bool) { pre.Close() })
			return pre, nil
		}},
	{name: "deadlines", // WorkloadSpec.Deadlines (none: the source unchanged)
		applies: always,
		wrap: func(a *traceAsm, src workload.Source) (workload.Source, error) {
			return workload.WithDeadlines(src, a.s.Workload.Deadlines)
		}},
	{name: "partitions", // refuses jobs no partition takes, counts each partition's
		applies: func(a *traceAsm) bool { return a.defs != nil },
		wrap: func(a *traceAsm, src workload.Source) (workload.Source, error) {
			a.psrc = newPartitionSource(src, a.defs)
			return a.psrc, nil
		},
		report: func(a *traceAsm, r *RunInfo) { r.Partitions = a.psrc.info() }},
}

func always(*traceAsm) bool { return true }

// wrapWindow keeps the jobs submitted in [From, To).
func wrapWindow(a *traceAsm, src workload.Source) (workload.Source, error) {
	cfg, h := a.s.Workload, a.rd.Header()
	w := workload.Window{From: math.Inf(-1), To: math.Inf(1)}
	var err error
	if cfg.From != "" {
		if w.From, err = workload.ParseInstant(cfg.From, h); err != nil {
			return nil, &WindowError{fmt.Errorf("--from %w", err)}
		}
	}
	if cfg.To != "" {
		if w.To, err = workload.ParseInstant(cfg.To, h); err != nil {
			return nil, &WindowError{fmt.Errorf("--to %w", err)}
		}
	}
	if !(w.From < w.To) {
		return nil, &WindowError{fmt.Errorf("--from %s --to %s: an empty window (from must come before to)", cfg.From, cfg.To)}
	}
	a.window = workload.NewWindowSource(src, w)
	return a.window, nil
}

func reportWindow(a *traceAsm, r *RunInfo) {
	h := a.rd.Header()
	from, to := "the start", "the end"
	if a.s.Workload.From != "" {
		x, _ := workload.ParseInstant(a.s.Workload.From, h)
		from = workload.FormatInstant(x, h)
	}
	if a.s.Workload.To != "" {
		x, _ := workload.ParseInstant(a.s.Workload.To, h)
		to = workload.FormatInstant(x, h)
	}
	r.Window = "from " + from + " to " + to
	r.BeforeWindow = a.window.Before()
}

// onClose adds fn to what runs when the run ends.
func (a *traceAsm) onClose(fn func(failed bool)) { a.closers = append(a.closers, fn) }

// close runs the closers, the last added first.
func (a *traceAsm) close(failed bool) {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i](failed)
	}
}

// do assembles the run, runs it and writes its outputs.
func (a *traceAsm) do() (res *TraceResult, err error) {
	defer func() { a.close(err != nil) }()
	src, err := a.source()
	if err != nil {
		return nil, err
	}
	if err := a.openOutputs(); err != nil {
		return nil, err
	}
	if err := a.assemble(src); err != nil {
		return nil, err
	}
	if err := a.simulate(); err != nil {
		return nil, err
	}
	if res, err = a.result(); err != nil {
		return nil, err
	}
	if a.out == nil {
		return res, nil
	}
	if err := a.finish(res); err != nil {
		return nil, err
	}
	return res, nil
}

// source resolves the settings, opens the trace and wraps its jobs in
// the trace stages that apply: the jobs the run is given (explain reads
// them alone first, to find the job it explains).
func (a *traceAsm) source() (src workload.Source, err error) {
	if err := a.resolve(); err != nil {
		return nil, err
	}
	if err := a.openTrace(); err != nil {
		return nil, err
	}
	src = a.src
	for _, s := range traceStages {
		if s.applies(a) {
			if src, err = s.wrap(a, src); err != nil {
				return nil, err
			}
		}
	}
	return src, nil
}

// openTrace opens the trace and makes the machine, its unavailable CPUs
// and its partitions.
func (a *traceAsm) openTrace() error {
	s := a.s
	notice := io.Writer(os.Stderr)
	if len(s.Platform.Nodes) > 0 {
		notice = nil // on nodes a job table's requests are what runs
	}
	rd, err := workload.OpenTraceNotify(s.Workload.Trace, notice)
	if err != nil {
		return err
	}
	a.rd = rd
	a.onClose(func(bool) { rd.Close() })
	maxProcs := s.Platform.Procs
	if len(s.Platform.Nodes) > 0 {
		if err := a.pickNodes(); err != nil {
			return err
		}
		maxProcs = a.ns.Cores() // a job of more processors than cores fits no node
	}
	a.src = swf.NewSource(rd, swf.Options{MaxProcs: maxProcs, Clamp: s.Platform.Clamp})
	a.procs = a.src.MaxProcs()
	if a.procs <= 0 {
		// A file that is not SWF at all also has no MaxProcs: its first
		// record's error is the real one, and an empty file says so.
		if _, err := rd.Next(); err == io.EOF {
			return fmt.Errorf("trace %s has no job records (an empty or header-only trace)", rd.Name())
		} else if err != nil {
			return err
		}
		return fmt.Errorf("trace %s: the header gives no MaxProcs: give the machine size with --procs", rd.Name())
	}
	if a.plat, err = platform.Cluster(a.procs); err != nil {
		return fmt.Errorf("trace %s: %w", rd.Name(), err)
	}
	if s.Platform.Avail.Used() {
		var closeEvents func() error
		spec, h := s.Platform.Avail, rd.Header()
		spec.instant = func(t string) (float64, error) { return workload.ParseInstant(t, h) }
		if a.ns != nil {
			a.navail, closeEvents, err = spec.buildNodes(a.ns, s.Workload.Rep)
		} else {
			a.avail, closeEvents, err = spec.build(a.plat, s.Workload.Rep)
		}
		if err != nil {
			return err
		}
		a.onClose(func(bool) { closeEvents() })
	}
	if len(s.Platform.Partitions) > 0 {
		if a.defs, err = s.partitionDefs(a.procs, rd.Header(), a.hetero, a.asThreads); err != nil {
			return err
		}
		if a.ns != nil {
			if err := resolveNodeParts(a.defs, s.Platform.Partitions, a.ns); err != nil {
				return &PartitionError{err}
			}
		}
	}
	return nil
}
