package experiment

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"sync/atomic"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// MaxExplainJobs bounds the jobs of a trace 'schedlab explain' reads: it
// keeps every job and its schedule in memory to answer, and is meant for
// traces a person reads.
const MaxExplainJobs = 1_000_000

// ExplainJob is the job explained, as the scheduler saw it.
type ExplainJob struct {
	ID       int64
	Submit   float64
	Procs    int
	Estimate float64 // what the policy believed its runtime was
	Runtime  float64 // what it was
	Start    float64
	End      float64
	Reason   string // immediate, backfilled, reserved
}

// Pass is one scheduling pass while the job waited (or the one that
// started it): the machine and queue as the pass found them, the
// reservations it held, and what became of the job.
type Pass struct {
	Time float64
	// Position is the job's place among the waiting jobs in submit order
	// (1 = the oldest), of Waiting.
	Position, Waiting int
	Free              int // CPUs free when the pass began
	// Head is the oldest waiting job (0 when it is the job itself) and
	// HeadProcs its size; HeadResv its reservation (NaN: none), the
	// shadow time of EASY, and Extra the CPUs free then beyond the head's
	// (the extra processors; -1 without a reservation).
	Head      int64
	HeadProcs int
	HeadResv  float64
	Extra     int
	// Resv is the job's own reservation at this pass (NaN: none).
	Resv    float64
	Started bool
	Why     string // the decision, in words
}

// Explanation is the answer of Explain.
type Explanation struct {
	Policy string
	Trace  string
	Procs  int
	Job    ExplainJob
	Passes []Pass
	// Schedule holds every job's start, end and CPUs, for a text Gantt
	// chart of a small trace.
	Schedule []Scheduled
}

// Scheduled is one job of the schedule.
type Scheduled struct {
	ID         int64
	Start, End float64
	CPUs       platform.Runs
}

// Explain runs the trace of spec under its policy and records, for job
// jobID, every scheduling pass from its submission to its start: where
// it stood in the queue, the free CPUs, the reservations the policy held
// (through policy.ReservationReporter, for backfilling policies) and the
// decision. The numbers are read from the run itself, not recomputed by
// another rule, except the extra processors, which are the CPUs that the
// running jobs' estimates leave free at the head's reservation, beyond
// the head's. The spec is checked as a run's (RunSpec.Check); explain
// takes its trace, estimates, machine size and policy (a queue policy of
// the cluster model that starts whole jobs), and refuses the settings it
// does not follow.
func Explain(spec RunSpec, jobID int64) (*Explanation, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	if err := explainTakes(spec); err != nil {
		return nil, err
	}
	qp, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, spec.Policy.Name)
	if err != nil { // a policy of the hetero model (Check found it)
		return nil, &SettingError{Setting: "--policy", Err: fmt.Errorf("explain takes a queue policy of the cluster model, not %s (of the hetero model)", spec.Policy.Name)}
	}
	if qp.Traits.Threads {
		return nil, &SettingError{Setting: "--policy", Err: fmt.Errorf("explain: policy %s schedules threads, not jobs; explain takes a policy that starts whole jobs", spec.Policy.Name)}
	}
	opts := spec.Policy.Values
	cfg := struct {
		Trace, Policy string
		Procs         int
		Estimate      workload.Estimate
		Job           int64
	}{spec.Workload.Trace, spec.Policy.Name, spec.Platform.Procs, spec.Workload.Estimate, jobID}
	if err := explainFind(cfg.Trace, cfg.Procs, job.ID(cfg.Job)); err != nil {
		return nil, err
	}
	rd, err := workload.OpenTrace(cfg.Trace)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	src := swf.NewSource(rd, swf.Options{MaxProcs: cfg.Procs})
	procs := src.MaxProcs()
	if procs <= 0 {
		return nil, fmt.Errorf("trace %s: the header gives no MaxProcs: give the machine size with --procs", rd.Name())
	}
	plat, err := platform.Cluster(procs)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", rd.Name(), err)
	}
	w := &explainer{target: job.ID(cfg.Job), total: procs, waiting: map[job.ID]*actual.Job{}, running: map[job.ID]running{},
		resv: map[job.ID]float64{}, resvX: map[job.ID]int{}, procs: map[job.ID]int{}, instant: math.Inf(-1)}
	lim := &limitedSource{src: workload.WithEstimates(src, cfg.Estimate), limit: MaxExplainJobs}
	var lis engine.Listener = w
	if len(spec.Outputs.Listeners) > 0 { // the caller's (a progress line)
		lis = append(engine.Tee{w}, spec.Outputs.Listeners...)
	}
	run, err := newClusterRun(clusterSpec{plat: plat, qp: qp, opts: opts, src: lim, lis: lis})
	if err != nil {
		return nil, err
	}
	defer closePolicy(run.built)
	if rr := run.caps.Reserve; rr != nil {
		rr.SetOnReserve(w.reserve)
	}
	explainRuns.Add(1)
	if err := run.eng.Run(); err != nil {
		return nil, err
	}
	w.close()
	if !w.seen {
		return nil, fmt.Errorf("job %d is not in trace %s (%d jobs read, ids %d..%d)", cfg.Job, rd.Name(), lim.n, lim.minID, lim.maxID)
	}
	if !w.started {
		return nil, fmt.Errorf("job %d of trace %s never started under policy %s", cfg.Job, rd.Name(), cfg.Policy)
	}
	sort.Slice(w.sched, func(a, b int) bool { return w.sched[a].ID < w.sched[b].ID })
	return &Explanation{Policy: run.built.Name(), Trace: rd.Name(), Procs: procs, Job: w.job, Passes: w.passes, Schedule: w.sched}, nil
}

// explainRuns counts the simulations Explain ran (its tests check that
// an unknown id is refused before one).
var explainRuns atomic.Int64

// explainFind reads the trace until job id (a job the run would be
// given: the reader's own checks and the machine size applied), so that
// an id not in the trace is refused before anything is simulated.
func explainFind(trace string, procs int, id job.ID) error {
	rd, err := workload.OpenTrace(trace)
	if err != nil {
		return err
	}
	defer rd.Close()
	lim := &limitedSource{src: swf.NewSource(rd, swf.Options{MaxProcs: procs}), limit: MaxExplainJobs}
	for {
		j, err := lim.Next()
		if err == io.EOF {
			return fmt.Errorf("job %d is not in trace %s (%d jobs read, ids %d..%d)", id, rd.Name(), lim.n, lim.minID, lim.maxID)
		}
		if err != nil {
			return err
		}
		if j.ID == id {
			return nil
		}
	}
}

// limitedSource counts the jobs read (and their ids) and stops at limit.
type limitedSource struct {
	src          workload.Source
	limit        int
	n            int
	minID, maxID int64
}

func (l *limitedSource) Next() (actual.Job, error) {
	j, err := l.src.Next()
	if err != nil {
		return j, err
	}
	if l.n >= l.limit {
		return actual.Job{}, fmt.Errorf("explain reads at most %d jobs (experiment.MaxExplainJobs); this trace has more", l.limit)
	}
	id := int64(j.ID)
	if l.n == 0 || id < l.minID {
		l.minID = id
	}
	if l.n == 0 || id > l.maxID {
		l.maxID = id
	}
	l.n++
	return j, nil
}

type running struct {
	procs  int
	estEnd float64
}

// explainer is the listener that keeps the queue, the running jobs and
// the passes concerning the target job.
type explainer struct {
	engine.NopListener
	target  job.ID
	total   int
	waiting map[job.ID]*actual.Job // copies
	order   []job.ID               // waiting jobs in submit order (stale entries skipped)
	running map[job.ID]running
	busy    int
	resv    map[job.ID]float64 // reservations of the current instant's pass
	procs   map[job.ID]int     // the sizes of the jobs holding reservations
	resvX   map[job.ID]int     // the extra processors each leaves (CPUs free at it beyond its job's, before the pass's starts)

	instant  float64 // the current instant
	snapped  bool    // the current instant's pre-pass state is in pre
	pre      Pass
	seen     bool
	started  bool
	job      ExplainJob
	passes   []Pass
	sched    []Scheduled
	startsAt map[job.ID]float64
}

// at moves to instant now, closing the previous one.
func (e *explainer) at(now float64) {
	if now != e.instant {
		e.close()
		e.instant, e.snapped = now, false
		clear(e.resv)
		clear(e.resvX)
	}
}

// snapshot takes the state the pass of this instant began with (all
// ends and arrivals applied, no start yet).
func (e *explainer) snapshot() {
	if e.snapped {
		return
	}
	e.snapped = true
	e.pre = Pass{Time: e.instant, Free: e.total - e.busy, HeadResv: math.NaN(), Resv: math.NaN(), Extra: -1}
	if _, ok := e.waiting[e.target]; !ok {
		e.pre.Time = math.NaN() // the job does not wait at this pass
		return
	}
	k := 0
	for _, id := range e.order {
		if _, ok := e.waiting[id]; !ok {
			continue
		}
		k++
		if k == 1 && id != e.target {
			e.pre.Head, e.pre.HeadProcs = int64(id), e.waiting[id].Procs
		}
		if id == e.target {
			e.pre.Position = k
		}
	}
	e.pre.Waiting = k
}

// close records the pass of the current instant if the target waited at
// it.
func (e *explainer) close() {
	if !e.snapped {
		e.snapshot()
	}
	p := e.pre
	if math.IsNaN(p.Time) || e.instant == math.Inf(-1) {
		return
	}
	// The head whose reservation bounds backfilling: the one job holding
	// a reservation when there is one (EASY, in whatever queue order),
	// else the oldest waiting job if it holds one.
	head := job.ID(p.Head)
	if head == 0 {
		head = e.target
	}
	if len(e.resv) == 1 {
		for id := range e.resv {
			head = id
		}
		if head != e.target {
			p.Head = int64(head)
			p.HeadProcs = e.free0(head)
		}
	}
	if r, ok := e.resv[head]; ok && head != e.target {
		p.HeadResv, p.Extra = r, e.resvX[head]
	}
	if r, ok := e.resv[e.target]; ok {
		p.Resv = r
	}
	p.Started = e.started && e.job.Start == e.instant
	p.Why = e.why(p)
	e.passes = append(e.passes, p)
	e.pre.Time = math.NaN()
}

// freeAt is the number of CPUs the running jobs' estimates leave free at
// time t (as a backfilling policy sees it at the pass).
func (e *explainer) freeAt(t float64) int {
	free := e.total
	for _, r := range e.running {
		if r.estEnd > t {
			free -= r.procs
		}
	}
	return free
}

// why says in words what the pass did with the job.
func (e *explainer) why(p Pass) string {
	j := e.job
	end := p.Time + j.Estimate
	headName := fmt.Sprintf("job %d", p.Head)
	switch {
	case p.Started && j.Reason == "backfilled":
		switch {
		case !math.IsNaN(p.HeadResv) && end <= p.HeadResv:
			return fmt.Sprintf("started, backfilled ahead of %s: it fits the %s free and its estimate ends it at %s, by %s's reservation (the shadow time) at %s", headName, cpus(p.Free), tnum(end), headName, tnum(p.HeadResv))
		case !math.IsNaN(p.HeadResv) && j.Procs <= p.Extra:
			return fmt.Sprintf("started, backfilled ahead of %s: it fits the %s free and uses only the extra processors (%d: those %s's reservation at %s leaves free), so it cannot delay it", headName, cpus(p.Free), p.Extra, headName, tnum(p.HeadResv))
		case !math.IsNaN(p.Resv):
			return fmt.Sprintf("started, backfilled ahead of %s at its own reservation (the reservations of the jobs ahead of it leave room now)", headName)
		}
		return fmt.Sprintf("started, backfilled ahead of %s: it fits the %s free (the policy holds no reservation that forbids it)", headName, cpus(p.Free))
	case p.Started && j.Reason == "immediate":
		return fmt.Sprintf("started at its submission in queue order: it needs %s, %d free", cpus(j.Procs), p.Free)
	case p.Started:
		if !math.IsNaN(p.Resv) {
			return fmt.Sprintf("started in queue order at its reservation (%s)", tnum(p.Resv))
		}
		return fmt.Sprintf("started in queue order after waiting: it needs %s, %d free", cpus(j.Procs), p.Free)
	case j.Procs > p.Free:
		s := fmt.Sprintf("waits: it needs %s, %d free", cpus(j.Procs), p.Free)
		if !math.IsNaN(p.Resv) {
			s += fmt.Sprintf("; it holds a reservation at %s", tnum(p.Resv))
		}
		return s
	case !math.IsNaN(p.Resv) && p.Head == 0:
		return fmt.Sprintf("waits for its reservation at %s (it is the oldest waiting job)", tnum(p.Resv))
	case !math.IsNaN(p.Resv):
		return fmt.Sprintf("waits for its reservation at %s: it fits the %s free now, but not for its whole estimate without delaying the reservation of a job ahead of it", tnum(p.Resv), cpus(p.Free))
	case !math.IsNaN(p.HeadResv):
		return fmt.Sprintf("waits: it fits the %s free, but its estimate would end it at %s, after %s's reservation (the shadow time) at %s, and it needs %s, more than the %d extra processors", cpus(p.Free), tnum(end), headName, tnum(p.HeadResv), cpus(j.Procs), max(p.Extra, 0))
	}
	return fmt.Sprintf("waits: it fits the %s free but the policy keeps it behind %s (queue order)", cpus(p.Free), headName)
}

// cpus writes a number of CPUs: "1 CPU", "3 CPUs".
func cpus(n int) string {
	if n == 1 {
		return "1 CPU"
	}
	return fmt.Sprintf("%d CPUs", n)
}

// tnum writes a time.
func tnum(t float64) string {
	if t == math.Trunc(t) && math.Abs(t) < 1e15 {
		return fmt.Sprintf("%.0f", t)
	}
	return fmt.Sprintf("%g", t)
}

func (e *explainer) reserve(now float64, id job.ID, at float64) {
	e.at(now)
	e.snapshot()
	e.resv[id] = at
	if j, ok := e.waiting[id]; ok {
		e.resvX[id] = e.freeAt(at) - j.Procs
		e.procs[id] = j.Procs
	}
}

// free0 is the size of a job that held a reservation in this pass.
func (e *explainer) free0(id job.ID) int { return e.procs[id] }

func (e *explainer) JobSubmitted(now float64, j *actual.Job) {
	e.at(now)
	c := *j
	e.waiting[j.ID] = &c
	e.order = append(e.order, j.ID)
	if j.ID == e.target {
		e.seen = true
		e.job = ExplainJob{ID: int64(j.ID), Submit: j.Submit, Procs: j.Procs, Estimate: j.Estimate, Runtime: j.Runtime,
			Start: math.NaN(), End: math.NaN()}
	}
	if len(e.order) > 2*len(e.waiting)+64 {
		kept := e.order[:0]
		for _, id := range e.order {
			if _, ok := e.waiting[id]; ok {
				kept = append(kept, id)
			}
		}
		e.order = kept
	}
}

func (e *explainer) JobStarted(now float64, s engine.Start) {
	e.at(now)
	e.snapshot()
	delete(e.waiting, s.Job.ID)
	e.running[s.Job.ID] = running{procs: s.Job.Procs, estEnd: now + s.Job.Estimate}
	e.busy += s.Job.Procs
	if s.Job.ID == e.target {
		e.started = true
		e.job.Start, e.job.Reason = now, s.Reason.String()
	}
}

func (e *explainer) end(now float64, r *engine.Record) {
	e.at(now)
	if run, ok := e.running[r.Job.ID]; ok {
		e.busy -= run.procs
		delete(e.running, r.Job.ID)
	}
	if r.Job.ID == e.target {
		e.job.End = r.End
	}
	e.sched = append(e.sched, Scheduled{ID: int64(r.Job.ID), Start: r.Start, End: r.End, CPUs: append(platform.Runs(nil), r.CPUs...)})
}

func (e *explainer) JobFinished(now float64, r *engine.Record) { e.end(now, r) }
func (e *explainer) JobKilled(now float64, r *engine.Record)   { e.end(now, r) }

// explainTakes refuses the settings of spec that Explain does not follow
// (it runs the whole trace on an empty machine, jobs killed at their
// request, and writes nothing).
func explainTakes(spec RunSpec) error {
	w, p, o := spec.Workload, spec.Platform, spec.Outputs
	var errs []error
	for _, f := range []struct {
		name string
		set  bool
	}{{"--from", w.From != ""}, {"--to", w.To != ""}, {"--jobs", w.First != 0}, {"submit zero", w.SubmitZero},
		{"--resample", w.Resample != "" && w.Resample != "none"}, {"--deadline", w.Deadlines.Base != workload.DeadlineNone},
		{"--clamp", p.Clamp}, {"--on-overrun continue", p.Continue}, {"--partition", len(p.Partitions) > 0},
		{"availability (--reservation, --events, --failures)", p.Avail.Used()}, {"an in-process decider", spec.Policy.Decider != nil},
		{"--out", o.Dir != ""}, {"--metric", len(o.Metrics) > 0},
		{"--swf", o.SWF}, {"--check", o.Check}, {"--threads", o.Threads}, {"--planned", o.Planned}} {
		if f.set {
			errs = append(errs, &SettingError{Setting: f.name, Err: fmt.Errorf("explain does not take %s", f.name)})
		}
	}
	return errors.Join(errs...)
}
