package backfill

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// Preemption by QOS (Slurm's PreemptType=preempt/qos; docs/slurm.md,
// "Preemption"): a waiting job the main scheduler cannot start now may
// stop running jobs of the QOS its QOS preempts (sacctmgr's Preempt
// column), cancelling or requeueing them by PreemptMode.

// Bounds of the preemption options.
const (
	// MaxPreemptEntries bounds the QOS of the qos_preempt option (as
	// MaxQOSEntries the QOS limits).
	MaxPreemptEntries = MaxQOSEntries
	// MinCredExpire and MaxCredExpire bound cred_expire, seconds: Slurm
	// refuses less than 5 (slurm_cred.c); at most a day.
	MinCredExpire = 5
	MaxCredExpire = 86400
	// SlurmDefaultCredExpire is Slurm's AuthInfo cred_expire default
	// (slurm_cred.c's DEFAULT_EXPIRATION_WINDOW, seconds): a requeued
	// batch job's BeginTime is its requeue time + cred_expire + 1
	// (slurmctld's batch_requeue_fini).
	SlurmDefaultCredExpire = 120
	// ReasonBeginTime is Slurm's reason for a job waiting for its
	// BeginTime (a requeued job, cred_expire + 1 seconds).
	ReasonBeginTime = "BeginTime"
)

// SlurmPreempt is the slurm policy's preemption (SlurmParams.Preempt).
type SlurmPreempt struct {
	// Preempts is by QOS number (SWF field 15) the QOS whose running jobs
	// its jobs may preempt (sacctmgr's Preempt).
	Preempts map[int32][]int32
	// Requeue is PreemptMode=REQUEUE (the preempted job waits again and
	// restarts from its beginning), else CANCEL (it ends, final state
	// job.Preempted).
	Requeue bool
	// CredExpire is AuthInfo's cred_expire in seconds: a requeued job may
	// start again cred_expire + 1 seconds after its preemption.
	CredExpire float64
	// QOSPriority is each QOS's priority (qos_priority), Slurm's first
	// key of the preemption order (unlisted: 0).
	QOSPriority map[int32]float64
	// YoungestFirst is SchedulerParameters preempt_youngest_first: the
	// candidates by start time, the latest first.
	YoungestFirst bool
}

// ParseQOSPreempt reads the qos_preempt option: entries
// "QOS:QOS[+QOS...]" separated by commas, each a QOS number (SWF field
// 15) and the QOS whose jobs its jobs may preempt (sacctmgr's Preempt
// column). A QOS that preempts itself is refused (Slurm preempts within
// a QOS only under PreemptMode WITHIN, not modelled). "" is none.
func ParseQOSPreempt(text string) (map[int32][]int32, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	if n := strings.Count(text, ",") + 1; n > MaxPreemptEntries {
		return nil, fmt.Errorf("%d entries (at most %d)", n, MaxPreemptEntries)
	}
	num := func(i int, item, s string) (int32, error) {
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("entry %d %q: %q is not a QOS number (SWF field 15: 0..%d)", i+1, item, s, math.MaxInt32)
		}
		return int32(v), nil
	}
	out := map[int32][]int32{}
	for i, item := range strings.Split(text, ",") {
		q, list, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok || strings.TrimSpace(list) == "" {
			return nil, fmt.Errorf("entry %d %q: want QOS:QOS[+QOS...] (a QOS and those it preempts)", i+1, item)
		}
		id, err := num(i, item, q)
		if err != nil {
			return nil, err
		}
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("entry %d: QOS %d given twice", i+1, id)
		}
		var ps []int32
		for _, s := range strings.Split(list, "+") {
			p, err := num(i, item, s)
			if err != nil {
				return nil, err
			}
			if p == id {
				return nil, fmt.Errorf("entry %d %q: QOS %d preempts itself (Slurm's PreemptMode WITHIN is not modelled)", i+1, item, id)
			}
			if !slices.Contains(ps, p) {
				ps = append(ps, p)
			}
		}
		slices.Sort(ps)
		out[id] = ps
	}
	return out, nil
}

// preemptState is the slurm policy's preemption state.
type preemptState struct {
	p SlurmPreempt
	// qos is every waiting and running job's QOS; begin the requeued
	// jobs' BeginTime (until they start); basic their priority/basic
	// priority, which a requeue keeps.
	qos      map[job.ID]int32
	begin    map[job.ID]float64
	basic    map[job.ID]float64
	runBasic map[job.ID]float64 // the running jobs' (with per-user limits)
	cands    []int32            // scratch: run slots
	trial    []int32            // scratch: the candidates taken out
}

func newPreemptState(p SlurmPreempt) *preemptState {
	return &preemptState{p: p, qos: map[job.ID]int32{}, begin: map[job.ID]float64{}, basic: map[job.ID]float64{}, runBasic: map[job.ID]float64{}}
}

// may reports whether a job of QOS a may preempt a job of QOS b.
func (s *preemptState) may(a, b int32) bool {
	return slices.Contains(s.p.Preempts[a], b)
}

// submitted records job j's QOS. A requeued job keeps its place: its
// priority/basic priority is unchanged, as Slurm's; under multifactor
// its age still counts from its first submission (Slurm resets its
// accrue time at the requeue: not modelled).
func (s *preemptState) submitted(j *job.Info) {
	s.qos[j.ID] = j.QOS
}

// waitsBegin reports whether job id waits for its BeginTime at now.
func (s *preemptState) waitsBegin(now float64, id job.ID) (float64, bool) {
	t, ok := s.begin[id]
	return t, ok && now < t
}

// preemptFor looks for running jobs whose preemption lets waiting job e
// start now, in Slurm's way (select/cons_tres's _run_now): the
// candidates, running jobs of this policy whose QOS e's QOS preempts,
// are taken in Slurm's preemption order (preempt/qos's priority: the
// QOS priority, then the node count, lowest first; ties in submission
// order, as slurmctld's job list, which its sort keeps; with
// preempt_youngest_first the latest started first) and removed one at a time from the
// nodes' use until e fits; the jobs preempted are those removed that
// hold one of the nodes e would take. Slurm then reorders the
// candidates to preempt fewer (preempt_reorder_count), not modelled.
// It appends the preemptions to plan and reports whether it made any.
// The nodes' use is restored: the jobs end when the model applies the
// plan (Finish), and e starts at the pass that follows.
func (b *NodePolicy) preemptFor(now float64, e *entry, plan *policy.Plan) bool {
	s := b.slurm.pre
	q, ok := s.qos[e.ID]
	if !ok || len(s.p.Preempts[q]) == 0 {
		return false
	}
	s.cands = s.cands[:0]
	for _, slot := range b.runOf {
		r := &b.runs[slot]
		if r.live && !r.foreign && s.may(q, s.qos[r.id]) {
			s.cands = append(s.cands, slot)
		}
	}
	if len(s.cands) == 0 {
		return false
	}
	key := func(slot int32) float64 {
		r := &b.runs[slot]
		return s.p.QOSPriority[s.qos[r.id]]*65536 + float64(min(len(r.alloc.Nodes), 0xffff))
	}
	slices.SortFunc(s.cands, func(x, y int32) int {
		rx, ry := &b.runs[x], &b.runs[y]
		if s.p.YoungestFirst {
			return cmp.Or(-cmp.Compare(rx.start, ry.start), cmp.Compare(rx.id, ry.id))
		}
		return cmp.Or(cmp.Compare(key(x), key(y)), cmp.Compare(rx.id, ry.id))
	})
	pr := &b.jobs[e.m].prep
	s.trial = s.trial[:0]
	fits := false
	for _, slot := range s.cands {
		b.st.Release(b.runs[slot].alloc)
		s.trial = append(s.trial, slot)
		if b.st.Select(pr, &b.tent) {
			fits = true
			break
		}
	}
	for _, slot := range s.trial {
		if !b.st.Occupy(b.runs[slot].alloc) {
			b.fail(fmt.Errorf("policy %s at t=%g: job %d's allocation could not be restored after a preemption trial", b.name, now, b.runs[slot].id))
			return false
		}
	}
	if !fits {
		return false
	}
	made := false
	for _, slot := range s.trial {
		r := &b.runs[slot]
		if !holdsAny(b, slot) {
			continue
		}
		plan.Preempt(r.id, s.p.Requeue)
		if s.p.Requeue {
			s.begin[r.id] = now + s.p.CredExpire + 1
			if v, ok := s.runBasic[r.id]; ok {
				s.basic[r.id] = v
			}
		}
		made = true
	}
	return made
}

// holdsAny reports whether running job slot holds a node of b.tent
// (the selection of the job it is removed for).
func holdsAny(b *NodePolicy, slot int32) bool {
	for _, na := range b.runs[slot].alloc.Nodes {
		for _, pk := range b.tent.Picks {
			if pk.Node == na.Node {
				return true
			}
		}
	}
	return false
}

// finished forgets running job id (ended, or preempted: a requeued one
// is submitted again at once).
func (s *preemptState) finished(id job.ID) {
	delete(s.qos, id)
	delete(s.runBasic, id)
}

// requeuedBasic is the priority/basic priority a requeued job keeps.
func (s *slurmState) requeuedBasic(id job.ID) (float64, bool) {
	if s.pre == nil {
		return 0, false
	}
	v, ok := s.pre.basic[id]
	return v, ok
}
