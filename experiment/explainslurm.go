package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// explainSlurm is Explain for the slurm policy on a platform of nodes
// (with or without partitions): the passes are said in Slurm's terms,
// from what the policy itself reports at each pass
// (policy.ReasonReporter): the job's reason under Slurm's names
// (Priority, Resources, QOSMaxJobsPerUserLimit, ...), its position in
// the priority order, the rule of the main scheduler or of the backfill
// pass that applied, and a backfill reservation's planned start. A pass
// is an instant at which the policy considered the job; the last one
// is the start.
func explainSlurm(spec RunSpec, id job.ID, keepGoing bool) (exp *Explanation, err error) {
	if err := explainTakes(spec); err != nil {
		return nil, err
	}
	if err := explainFind(spec, id); err != nil {
		return nil, err
	}
	w := &slurmExplainer{target: id, last: math.Inf(-1)}
	a, err := explainAsm(spec, w)
	if err != nil {
		return nil, err
	}
	defer func() { a.close(err != nil) }()
	pols := a.run.nodePartPols
	if len(pols) == 0 {
		pols = []policy.NodeScheduler{a.run.npol}
	}
	for _, p := range pols {
		rr := policy.CapsOf(p).Reasons
		if rr == nil {
			return nil, &SettingError{Setting: "--policy", Err: fmt.Errorf("explain: policy %s gives no reasons here (a layer around it, such as --estimate predict, hides them)", spec.Policy.Name)}
		}
		rr.SetOnReason(w.reason)
	}
	if !keepGoing {
		w.stop = a.run.eng.Stop
	}
	explainRuns.Add(1)
	if err = a.simulate(); err != nil {
		return nil, err
	}
	name := a.rd.Name()
	if !w.seen {
		return nil, fmt.Errorf("job %d of trace %s was not submitted in the run", id, name)
	}
	if !w.started {
		return nil, fmt.Errorf("job %d of trace %s never started under policy %s", id, name, spec.Policy.Name)
	}
	sort.Slice(w.sched, func(i, j int) bool { return w.sched[i].ID < w.sched[j].ID })
	ns := a.ns
	return &Explanation{Policy: a.run.built.Name(), Trace: name, Procs: ns.CPUs(), Slurm: true,
		Nodes: fmt.Sprintf("on %s, under the slurm policy: each pass in Slurm's terms, as the policy gives them (its main scheduler, then its backfill pass)", nodesText(ns)),
		Job:   w.job, Passes: w.passes, Schedule: w.sched}, nil
}

// slurmExplainer keeps the passes of the target job: the reasons the
// policy gives for it, one Pass an instant (the main scheduler's and
// the backfill pass's said together), and its start.
type slurmExplainer struct {
	engine.NopListener
	target  job.ID
	seen    bool
	started bool
	job     ExplainJob
	passes  []Pass
	last    float64 // the instant of the last pass (-Inf: none)
	stop    func()
	sched   []Scheduled
}

func (e *slurmExplainer) JobSubmitted(now float64, j *actual.Job) {
	if j.ID == e.target {
		e.seen = true
		e.job = ExplainJob{ID: int64(j.ID), Submit: j.Submit, Procs: cpusOf(j), Estimate: j.Estimate, Runtime: j.Runtime, Start: math.NaN(), End: math.NaN()}
	}
}

// cpusOf is the CPUs j asks for: its request's, or its processors.
func cpusOf(j *actual.Job) int {
	if j.Req != nil {
		return j.Req.CPUs()
	}
	return j.Procs
}

// pass is the target's pass at now, made when the instant is new.
func (e *slurmExplainer) pass(now float64) *Pass {
	if now != e.last || len(e.passes) == 0 {
		e.last = now
		e.passes = append(e.passes, Pass{Time: now, Free: -1, Head: 0, HeadResv: math.NaN(), Extra: -1, Resv: math.NaN(), Clear: -1, Window: math.NaN()})
	}
	return &e.passes[len(e.passes)-1]
}

// reason is the policy's word on a job at a pass.
func (e *slurmExplainer) reason(now float64, id job.ID, r policy.Reason) {
	if id != e.target || e.started {
		return
	}
	p := e.pass(now)
	if p.Position == 0 {
		p.Position, p.Waiting = r.Position, r.Waiting
	}
	if !math.IsNaN(r.At) {
		p.Resv = r.At
	}
	text := r.Note
	if r.Name != "" {
		text = r.Name + " (" + r.Note + ")"
	}
	if p.Why == "" {
		p.Why = "Slurm's reason: " + text
	} else {
		p.Why += "; then " + text
	}
}

func (e *slurmExplainer) JobStarted(now float64, s engine.Start) {
	if e.stop == nil { // the whole run: its schedule, for a Gantt chart
		e.sched = append(e.sched, Scheduled{ID: int64(s.Job.ID), Start: now, End: now + s.Job.Runtime, CPUs: append(platform.Runs(nil), s.CPUs...)})
	}
	if s.Job.ID != e.target || e.started {
		return
	}
	e.started = true
	e.job.Start, e.job.Reason = now, s.Reason.String()
	p := e.pass(now)
	p.Started = true
	how := "started by the main scheduler"
	if s.Reason == job.Backfilled {
		how = "started by the backfill pass, ahead of a job of higher priority that could not start"
	}
	if s.Alloc != nil {
		how += fmt.Sprintf(" on %d node(s)", len(s.Alloc.Nodes))
	}
	if p.Why == "" {
		p.Why = strings.ToUpper(how[:1]) + how[1:]
	} else {
		p.Why += "; " + how
	}
	if e.stop != nil {
		e.stop()
	}
}

func (e *slurmExplainer) JobFinished(now float64, r *engine.Record) {
	if r.Job.ID == e.target {
		e.job.End = now
	}
}
