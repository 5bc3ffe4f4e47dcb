package experiment

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
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
	// Others are the jobs of the region (the job's partition, or the
	// machine) that the pass started, the job aside, in the order
	// started, and OthersProcs their CPUs; After the region's CPUs free
	// once the instant's passes are done (the state after the decision).
	Others      []int64
	OthersProcs int
	After       int
	// Clear, with announced windows, is how many of the Free CPUs no
	// window takes before the job's estimate would end it (-1: no
	// windows); Window the first window start among them that takes one.
	Clear  int
	Window float64
	// Ahead, when the pass held more than one reservation (conservative,
	// backfill at a depth above 1), are the reservations of the waiting
	// jobs ahead of it in the queue, in queue order; the pass is then
	// said in conservative's terms (no shadow time, no extra
	// processors). Nil: one reservation or none.
	Ahead []Reserved
	Why   string // the decision, in words
}

// Reserved is a reservation of a pass: the job, its time, its CPUs.
type Reserved struct {
	ID    int64
	At    float64
	Procs int
}

// Explanation is the answer of Explain.
type Explanation struct {
	Policy string
	Trace  string
	Procs  int
	// Partition is the job's partition ("" without partitions); Procs
	// is then its CPUs.
	Partition string
	// Nodes says the run is on a platform of nodes planned by counts,
	// explained as the pool of its cores ("" on a pool of CPUs).
	Nodes string
	// Slurm says the passes are the slurm policy's, in Slurm's terms
	// (explainSlurm): Position and Waiting are in its priority order,
	// Resv a backfill reservation's planned start, Why Slurm's reason
	// and the rule; Free and the head's fields are not given.
	Slurm  bool
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
// the head's (and out of the announced windows then).
//
// The run is the one `run` assembles from spec (the trace stages: the
// window --from/--to, the first jobs, submit zero, resampling,
// estimates, deadlines, partitions; announced windows): explain follows
// every setting of a run but the outputs and the few it refuses
// (explainTakes). With partitions, the job's partition is what the
// passes describe: its waiting jobs, its free CPUs, its policy's
// reservations. The job is looked for in the run's jobs before
// anything is simulated, and the simulation stops at the instant it
// starts (unless keepGoing: the whole schedule, for a Gantt chart).
func Explain(spec RunSpec, jobID int64) (*Explanation, error) {
	return explain(spec, jobID, false)
}

// ExplainAll is Explain simulating the whole trace: Schedule then holds
// every job (a Gantt chart of the run).
func ExplainAll(spec RunSpec, jobID int64) (*Explanation, error) {
	return explain(spec, jobID, true)
}

func explain(spec RunSpec, jobID int64, keepGoing bool) (*Explanation, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	if len(spec.Platform.Nodes) > 0 && spec.Policy.Name == "slurm" {
		return explainSlurm(spec, job.ID(jobID), keepGoing)
	}
	spec, onNodes, err := explainOnNodes(spec)
	if err != nil {
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
	id := job.ID(jobID)
	if err := explainFind(spec, id); err != nil {
		return nil, err
	}
	w := &explainer{target: id, waiting: map[job.ID]*actual.Job{}, running: map[job.ID]running{},
		resv: map[job.ID]float64{}, resvX: map[job.ID]int{}, procs: map[job.ID]int{}, instant: math.Inf(-1), part: -1}
	a, err := explainAsm(spec, w)
	if err != nil {
		return nil, err
	}
	defer func() { a.close(err != nil) }()
	if a.avail != nil && a.avail.Failures != nil {
		err = &SettingError{Setting: "--events", Err: errors.New("explain follows announced windows (--reservation), not failures (machine_unavailable events, --failures): the policy learns of a failure only when it happens")}
		return nil, err
	}
	w.setup(a, keepGoing)
	switch spec.Policy.Name {
	case "conservative":
		w.every = true
	case "backfill":
		w.every = a.opts.Int("depth") != 1
	}
	explainRuns.Add(1)
	if err = a.simulate(); err != nil {
		return nil, err
	}
	w.close()
	name := a.rd.Name()
	if !w.seen {
		err = fmt.Errorf("job %d of trace %s was not submitted in the run", jobID, name)
		return nil, err
	}
	if !w.started {
		err = fmt.Errorf("job %d of trace %s never started under policy %s", jobID, name, spec.Policy.Name)
		return nil, err
	}
	sort.Slice(w.sched, func(i, j int) bool { return w.sched[i].ID < w.sched[j].ID })
	return &Explanation{Policy: a.run.built.Name(), Trace: name, Procs: w.total, Partition: w.partName, Nodes: onNodes, Job: w.job, Passes: w.passes, Schedule: w.sched}, nil
}

// explainAsm assembles the run of spec for an explanation, with the
// listener w before the run's own: the trace's source, the outputs, the
// policy and the engine. On an error, what it opened is closed.
func explainAsm(spec RunSpec, w engine.Listener) (*traceAsm, error) {
	run := spec
	run.Outputs.Listeners = append([]engine.Listener{w}, spec.Outputs.Listeners...)
	a := &traceAsm{s: run}
	src, err := a.source()
	if err == nil {
		err = a.openOutputs()
	}
	if err == nil {
		err = a.assemble(src)
	}
	if err != nil {
		a.close(true)
		return nil, err
	}
	return a, nil
}

// explainRuns counts the simulations Explain ran (its tests check that
// an unknown id is refused before one).
var explainRuns atomic.Int64

// explainFind reads the jobs the run of spec would be given (the
// trace's, through the trace stages) until job id, so that an id not
// in the run is refused before anything is simulated: an id not in the
// trace, and one that the run's settings leave out, each with its
// message.
func explainFind(spec RunSpec, id job.ID) (err error) {
	a := &traceAsm{s: spec}
	defer func() { a.close(err != nil) }()
	src, err := a.source()
	if err != nil {
		return err
	}
	lim := &limitedSource{src: src, limit: MaxExplainJobs}
	for {
		j, err := lim.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if j.ID == id {
			return nil
		}
	}
	// Not in the run: in the trace at all?
	rd, err := workload.OpenTrace(spec.Workload.Trace)
	if err != nil {
		return err
	}
	defer rd.Close()
	raw := &limitedSource{src: swf.NewSource(rd, swf.Options{MaxProcs: max(a.procs, 1), Clamp: true}), limit: MaxExplainJobs}
	for {
		j, err := raw.Next()
		if err != nil {
			break
		}
		if j.ID == id {
			return fmt.Errorf("job %d of trace %s is not among the %d jobs this run simulates: the run's settings leave it out (--from/--to, --jobs, the machine size or --partition's limits)", id, rd.Name(), lim.n)
		}
	}
	if lim.n == 0 {
		return fmt.Errorf("job %d is not in trace %s: the run simulates no job", id, rd.Name())
	}
	return fmt.Errorf("job %d is not in trace %s (%d jobs read, ids %d..%d)", id, rd.Name(), lim.n, lim.minID, lim.maxID)
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
	cpus   platform.Runs // the CPUs it holds (exact explainers only)
}

// explainer is the listener that keeps the queue, the running jobs and
// the passes concerning the target job.
//
// Without partitions or windows it counts CPUs (the machine's total
// less those held). With them it is exact: it keeps the CPUs held and
// reads, over the job's region (its partition's CPUs, or the
// machine's), those neither held nor in a window then.
type explainer struct {
	engine.NopListener
	target  job.ID
	total   int                    // CPUs of the region
	waiting map[job.ID]*actual.Job // copies
	order   []job.ID               // waiting jobs in submit order (stale entries skipped)
	running map[job.ID]running
	busy    int                // count mode: CPUs held
	resv    map[job.ID]float64 // reservations of the current instant's pass (the job's partition's)
	procs   map[job.ID]int     // the sizes of the jobs holding reservations
	// resvX: the extra processors of the head candidates' reservations
	// (CPUs free at it beyond its job's, with the running jobs before
	// the pass's starts); -1 unknown.
	resvX map[job.ID]int

	// exact mode
	exact    bool
	cpusAll  int
	held     bitset // CPUs held by running jobs
	region   bitset // the job's region (nil until it is submitted: all)
	scratch  bitset
	windows  []policy.Window
	partOf   func(j *actual.Job) int // partitions: a job's partition index; nil: none
	part     int                     // the job's partition (-1: none)
	parts    []partitionDef
	partName string
	stop     func() // ends the run (nil: simulate it all)
	// regionEvt: at this instant a job of the job's partition came,
	// started or ended, or its policy reserved (with partitions, only
	// such an instant has a pass of the job's partition).
	regionEvt bool
	// every: the policy reserves for more than the first waiting job
	// (conservative, backfill at a depth other than 1): its passes are
	// said in its terms.
	every bool

	instant float64 // the current instant
	snapped bool    // the current instant's pre-pass state is in pre
	pre     Pass
	seen    bool
	started bool
	job     ExplainJob
	passes  []Pass
	sched   []Scheduled
}

// bitset is a set of CPU ids.
type bitset []uint64

func newBitset(n int) bitset   { return make(bitset, (n+63)/64) }
func (b bitset) set(i int32)   { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) clear(i int32) { b[i>>6] &^= 1 << (uint(i) & 63) }
func (b bitset) addRuns(r platform.Runs) {
	for k := 0; k+1 < len(r); k += 2 {
		for c := r[k]; c <= r[k+1]; c++ {
			b.set(c)
		}
	}
}
func (b bitset) clearRuns(r platform.Runs) {
	for k := 0; k+1 < len(r); k += 2 {
		for c := r[k]; c <= r[k+1]; c++ {
			b.clear(c)
		}
	}
}
func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// setup takes what the assembled run a gives the explainer: the
// machine, the partitions and their policies' reservations, the
// announced windows, and the engine to stop once the job has started
// (unless keepGoing).
func (e *explainer) setup(a *traceAsm, keepGoing bool) {
	e.total = a.plat.CPUs()
	e.cpusAll = e.total
	if a.psrc != nil {
		ps := a.psrc
		e.partOf = func(j *actual.Job) int { return ps.index(j.Partition) }
		e.parts = a.defs
	}
	if a.avail != nil {
		e.windows = a.avail.Windows
	}
	if e.partOf != nil || len(e.windows) > 0 {
		e.exact = true
		e.held, e.scratch = newBitset(e.cpusAll), newBitset(e.cpusAll)
	}
	if len(a.run.partPols) > 0 {
		for k, pol := range a.run.partPols {
			if rr := policy.CapsOf(pol).Reserve; rr != nil {
				rr.SetOnReserve(func(now float64, id job.ID, at float64) {
					if k == e.part {
						e.reserve(now, id, at)
					}
				})
			}
		}
	} else if rr := a.run.caps.Reserve; rr != nil {
		rr.SetOnReserve(e.reserve)
	}
	if !keepGoing {
		e.stop = a.run.eng.Stop
	}
}

// inRegion reports whether job j is one the passes describe: of the
// job's partition, when there are partitions.
func (e *explainer) inRegion(j *actual.Job) bool {
	return e.partOf == nil || e.part < 0 || e.partOf(j) == e.part
}

// note marks the instant as one with an event of the job's partition
// when j is of it.
func (e *explainer) note(j *actual.Job) {
	if e.partOf != nil && e.part >= 0 && e.partOf(j) == e.part {
		e.regionEvt = true
	}
}

// freeAt is the number of CPUs of the region that the running jobs'
// estimates (and, exact, the windows) leave free at time t (as a
// backfilling policy sees it at the pass); now: the CPUs free now.
func (e *explainer) freeAt(t float64, now bool) int {
	if !e.exact {
		if now {
			return e.total - e.busy
		}
		free := e.total
		for _, r := range e.running {
			if r.estEnd > t {
				free -= r.procs
			}
		}
		return free
	}
	sc := e.scratch
	if e.region != nil {
		copy(sc, e.region)
	} else {
		for i := range sc {
			sc[i] = ^uint64(0)
		}
		if r := e.cpusAll % 64; r != 0 {
			sc[len(sc)-1] = 1<<uint(r) - 1
		}
	}
	if now {
		for i := range sc {
			sc[i] &^= e.held[i]
		}
	} else {
		for _, r := range e.running {
			if r.estEnd > t {
				sc.clearRuns(r.cpus)
			}
		}
	}
	for _, w := range e.windows {
		if w.Start <= t && t < w.End {
			sc.clearRuns(w.CPUs)
		}
	}
	return sc.count()
}

// clearOf is how many CPUs of the region are free now and in no window
// over [now, end), and the first start of a window over [now, end)
// that takes a free CPU (NaN: none).
func (e *explainer) clearOf(now, end float64) (int, float64) {
	sc := e.scratch
	e.freeAt(now, true) // sc: the region's CPUs free now (windows at now out)
	first := math.NaN()
	for _, w := range e.windows {
		if w.Start < end && now < w.End && w.Start > now {
			before := sc.count()
			sc.clearRuns(w.CPUs)
			if sc.count() < before && !(first <= w.Start) {
				first = w.Start
			}
		}
	}
	return sc.count(), first
}

// at moves to instant now, closing the previous one.
func (e *explainer) at(now float64) {
	if now != e.instant {
		e.close()
		e.instant, e.snapped, e.regionEvt = now, false, false
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
	e.pre = Pass{Time: math.NaN(), HeadResv: math.NaN(), Resv: math.NaN(), Extra: -1, Clear: -1, Window: math.NaN()}
	tj, ok := e.waiting[e.target]
	if !ok {
		return // the job does not wait at this pass
	}
	e.pre.Time, e.pre.Free = e.instant, e.freeAt(e.instant, true)
	if len(e.windows) > 0 {
		e.pre.Clear, e.pre.Window = e.clearOf(e.instant, e.instant+tj.Estimate)
	}
	k := 0
	for _, id := range e.order {
		j, ok := e.waiting[id]
		if !ok || !e.inRegion(j) {
			continue
		}
		k++
		if k == 1 && id != e.target {
			e.pre.Head, e.pre.HeadProcs = int64(id), j.Procs
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
	if math.IsNaN(p.Time) || e.instant == math.Inf(-1) || (e.partOf != nil && !e.regionEvt) {
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
			p.HeadProcs = e.procs[head]
		}
	}
	if r, ok := e.resv[head]; ok && head != e.target {
		x, ok := e.resvX[head]
		if !ok {
			x = -1
		}
		p.HeadResv, p.Extra = r, x
	}
	if r, ok := e.resv[e.target]; ok {
		p.Resv = r
	}
	if e.every || len(e.resv) > 1 {
		p.Ahead = []Reserved{}
		for _, id := range e.order {
			if id == e.target {
				break
			}
			if at, ok := e.resv[id]; ok {
				p.Ahead = append(p.Ahead, Reserved{ID: int64(id), At: at, Procs: e.procs[id]})
			}
		}
		p.HeadResv, p.Extra = math.NaN(), -1 // EASY's terms do not apply
	}
	p.Started = e.started && e.job.Start == e.instant
	p.After = e.freeAt(e.instant, true)
	p.Why = e.why(p)
	e.passes = append(e.passes, p)
	e.pre.Time = math.NaN()
}

// why says in words what the pass did with the job.
func (e *explainer) why(p Pass) string {
	j := e.job
	end := p.Time + j.Estimate
	headName := fmt.Sprintf("job %d", p.Head)
	if p.Ahead != nil {
		return e.whyConservative(p, end, headName)
	}
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
	case len(p.Others) > 0 && j.Procs > p.After:
		s := e.takenBy(p)
		if !math.IsNaN(p.Resv) {
			s += fmt.Sprintf("; it holds a reservation at %s", tnum(p.Resv))
		}
		return s
	case p.Clear >= 0 && j.Procs > p.Clear:
		s := fmt.Sprintf("waits: it fits the %s free, but its estimate would end it at %s, and an announced window takes %d of them from %s: it needs %s, %d are clear of the windows until then",
			cpus(p.Free), tnum(end), p.Free-p.Clear, tnum(p.Window), cpus(j.Procs), p.Clear)
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

// whyConservative says the pass in the terms of a policy holding a
// reservation for every waiting job (up to its depth): a job starts now
// when it can run to the end of its estimate without delaying any
// reservation of a job ahead of it; else it waits for its own.
func (e *explainer) whyConservative(p Pass, end float64, headName string) string {
	j := e.job
	ahead := "none is ahead of it"
	if len(p.Ahead) > 0 {
		ahead = "ahead of it: " + reservedList(p.Ahead)
	}
	own := ""
	if !math.IsNaN(p.Resv) {
		own = fmt.Sprintf("; it holds a reservation at %s", tnum(p.Resv))
	}
	switch {
	case p.Started && j.Reason == "backfilled":
		return fmt.Sprintf("started, backfilled ahead of %s: it fits the %s free and, by the running jobs' estimates, runs to the end of its estimate (%s) without delaying any reservation (%s)", headName, cpus(p.Free), tnum(end), ahead)
	case p.Started && j.Reason == "immediate":
		return fmt.Sprintf("started at its submission: it needs %s, %d free, and delays no reservation (%s)", cpus(j.Procs), p.Free, ahead)
	case p.Started:
		return fmt.Sprintf("started in queue order after waiting: it needs %s, %d free, and delays no reservation (%s)", cpus(j.Procs), p.Free, ahead)
	case j.Procs > p.Free:
		return fmt.Sprintf("waits: it needs %s, %d free%s", cpus(j.Procs), p.Free, own)
	case len(p.Others) > 0 && j.Procs > p.After:
		return e.takenBy(p) + own
	case p.Clear >= 0 && j.Procs > p.Clear:
		return fmt.Sprintf("waits: it fits the %s free, but an announced window takes %d of them from %s, before its estimate would end it (%s)%s", cpus(p.Free), p.Free-p.Clear, tnum(p.Window), tnum(end), own)
	case len(p.Ahead) > 0:
		return fmt.Sprintf("waits: it fits the %s free now, but running to the end of its estimate (%s) it would delay a reservation of a job ahead of it (%s)%s", cpus(p.Free), tnum(end), reservedList(p.Ahead), own)
	}
	return fmt.Sprintf("waits: it fits the %s free but the policy does not start it%s", cpus(p.Free), own)
}

// takenBy says a pass whose starts of other jobs left the job too few
// CPUs: the state after the decision, not the CPUs free before it.
func (e *explainer) takenBy(p Pass) string {
	return fmt.Sprintf("waits: %d of the %s free went to %s, started in this pass ahead of it in the policy's order, leaving %d; it needs %s",
		p.Free-p.After, cpus(p.Free), jobList(p.Others), p.After, cpus(e.job.Procs))
}

// jobList writes job ids: "job 2", "jobs 2 and 3", "jobs 2, 3, 4 and 5
// more" (the first three, and how many more).
func jobList(ids []int64) string {
	if len(ids) == 1 {
		return fmt.Sprintf("job %d", ids[0])
	}
	var b strings.Builder
	b.WriteString("jobs ")
	for i, id := range ids {
		switch {
		case i == 3:
			fmt.Fprintf(&b, " and %d more", len(ids)-3)
			return b.String()
		case i > 0 && i == len(ids)-1:
			b.WriteString(" and ")
		case i > 0:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", id)
	}
	return b.String()
}

// reservedList writes reservations: "job 2 at 100 (4 CPUs), ..." (the
// first three, and how many more).
func reservedList(rs []Reserved) string {
	var b strings.Builder
	for i, r := range rs {
		if i == 3 {
			fmt.Fprintf(&b, " and %d more", len(rs)-3)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "job %d at %s (%s)", r.ID, tnum(r.At), cpus(r.Procs))
	}
	return b.String()
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
	if math.IsNaN(e.pre.Time) {
		return // the job does not wait at this pass: nothing is recorded
	}
	first := len(e.resv) == 0
	e.resv[id] = at
	e.regionEvt = true
	j, ok := e.waiting[id]
	if !ok {
		return
	}
	e.procs[id] = j.Procs
	// The extra processors, for the reservations that may be the head's:
	// the pass's first, and the oldest waiting job's.
	if head := job.ID(e.pre.Head); first || id == head || (head == 0 && id == e.target) {
		e.resvX[id] = e.freeAt(at, false) - j.Procs
	}
}

func (e *explainer) JobSubmitted(now float64, j *actual.Job) {
	e.at(now)
	c := *j
	e.waiting[j.ID] = &c
	defer e.note(j)
	e.order = append(e.order, j.ID)
	if j.ID == e.target {
		e.seen = true
		e.job = ExplainJob{ID: int64(j.ID), Submit: j.Submit, Procs: j.Procs, Estimate: j.Estimate, Runtime: j.Runtime,
			Start: math.NaN(), End: math.NaN()}
		if e.partOf != nil {
			if e.part = e.partOf(j); e.part >= 0 {
				d := &e.parts[e.part]
				e.partName = d.Name
				e.region = newBitset(e.cpusAll)
				e.region.addRuns(d.CPUs)
				e.total = d.CPUs.Count()
			}
		}
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
	e.note(s.Job)
	r := running{procs: s.Job.Procs, estEnd: now + s.Job.Estimate}
	if e.exact {
		r.cpus = append(platform.Runs(nil), s.CPUs...)
		e.held.addRuns(s.CPUs)
	}
	e.running[s.Job.ID] = r
	e.busy += s.Job.Procs
	if s.Job.ID != e.target && !math.IsNaN(e.pre.Time) && e.inRegion(s.Job) {
		e.pre.Others = append(e.pre.Others, int64(s.Job.ID))
		e.pre.OthersProcs += s.Job.Procs
	}
	if s.Job.ID == e.target {
		e.started = true
		e.job.Start, e.job.Reason = now, s.Reason.String()
		if e.stop != nil {
			e.stop() // the rest of the run says nothing of the job
		}
	}
}

func (e *explainer) end(now float64, r *engine.Record) {
	e.at(now)
	e.note(r.Job)
	if run, ok := e.running[r.Job.ID]; ok {
		e.busy -= run.procs
		if e.exact {
			e.held.clearRuns(run.cpus)
		}
		delete(e.running, r.Job.ID)
	}
	if r.Job.ID == e.target {
		e.job.End = r.End
	}
	if e.stop == nil {
		e.sched = append(e.sched, Scheduled{ID: int64(r.Job.ID), Start: r.Start, End: r.End, CPUs: append(platform.Runs(nil), r.CPUs...)})
	}
}

func (e *explainer) JobFinished(now float64, r *engine.Record) { e.end(now, r) }
func (e *explainer) JobKilled(now float64, r *engine.Record)   { e.end(now, r) }

// explainTakes refuses the settings of spec that Explain does not follow:
// the outputs (it writes nothing), the settings whose passes it cannot
// say in its words (predictions, the carbon delay, the idle sleeper, an in-process
// decider) and, found once the run is assembled, failures. (A platform
// of nodes is explained when it is planned by counts: explainOnNodes.)
func explainTakes(spec RunSpec) error {
	w, o := spec.Workload, spec.Outputs
	var errs []error
	for _, f := range []struct {
		name, why string
		set       bool
	}{
		{"--estimate predict", "predictions (the passes would speak of the estimates, not the predictions the policy sees)", w.Estimate == workload.EstimatePredict},
		{"--carbon-delay", "the carbon delay (the jobs it holds back wait outside the policy)", spec.Policy.CarbonDelay != ""},
		{"--sleep-after", "the idle sleeper (its switches of the CPUs are not in the passes' words)", spec.Policy.Sleep != ""},
		{"an in-process decider", "an in-process decider", spec.Policy.Decider != nil},
		{"--out", "--out (it writes nothing)", o.Dir != ""}, {"--metric", "--metric", len(o.Metrics) > 0},
		{"--swf", "--swf", o.SWF}, {"--check", "--check", o.Check}, {"--threads", "--threads", o.Threads}, {"--planned", "--planned", o.Planned},
	} {
		if f.set {
			errs = append(errs, &SettingError{Setting: f.name, Err: fmt.Errorf("explain does not take %s", f.why)})
		}
	}
	return errors.Join(errs...)
}
