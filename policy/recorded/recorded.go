package recorded

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations declares the recorded policy.
func Declarations() []policy.Decl {
	return []policy.Decl{{
		Model: policy.ModelCluster, Kind: policy.KindQueue, Name: "recorded",
		Summary:    "every job starts at the start its trace records (submit + SWF wait), when it fits: what the real machine did, as a run",
		QueueOrder: policy.FixedOrder("recorded"),
		// On nodes a run of cores alone is planned by counts (docs/nodes.md):
		// the recorded starts over the nodes' cores, placed by the rule.
		Traits: policy.Traits{ByCounts: true},
		New: func(env policy.Env, _ option.Values) (policy.Built, error) {
			return policy.Built{Queue: New(env.Platform)}, nil
		},
	}}
}

type waiting struct {
	info  job.Info
	start float64 // recorded start
}

// Policy is the recorded policy on one platform.
type Policy struct {
	plat    platform.Platform
	queue   []waiting // by (recorded start, id)
	free    []int     // per machine, this pass's free CPUs (reused)
	late    int64
	maxLate float64
}

// New returns the policy for plat.
func New(plat platform.Platform) *Policy { return &Policy{plat: plat} }

func (p *Policy) Name() string { return "recorded" }

// Refuse refuses a job whose trace records no start (policy.Screener):
// it is counted and never simulated.
func (p *Policy) Refuse(j job.Info) string {
	if math.IsNaN(j.RecordedStart) {
		return "no recorded start"
	}
	return ""
}

func (p *Policy) Submit(_ float64, j job.Info) {
	w := waiting{j, j.RecordedStart}
	i, _ := slices.BinarySearchFunc(p.queue, w, compareWaiting)
	p.queue = slices.Insert(p.queue, i, w)
}

func compareWaiting(a, b waiting) int {
	if c := cmp.Compare(a.start, b.start); c != 0 {
		return c
	}
	return cmp.Compare(a.info.ID, b.info.ID)
}

func (p *Policy) Finish(float64, job.ID) {}

// Schedule starts, in recorded order, every job whose recorded start has
// come and that fits, on the first machine with room; it asks to be
// woken at the next recorded start.
func (p *Policy) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	free := p.free[:0]
	for range p.plat.Machines() {
		free = append(free, 0)
	}
	p.free = free
	for m := range free {
		free[m] = v.Free(m)
	}
	kept := p.queue[:0]
	for _, w := range p.queue {
		if w.start > now {
			kept = append(kept, w)
			continue
		}
		m := slices.IndexFunc(free, func(f int) bool { return f >= w.info.Procs })
		if m < 0 {
			kept = append(kept, w)
			continue
		}
		free[m] -= w.info.Procs
		reason := job.Immediate
		if now > w.info.Submit {
			reason = job.Reserved
		}
		plan.StartOn(w.info.ID, reason, m)
		if d := now - w.start; d > 0 {
			p.late++
			p.maxLate = max(p.maxLate, d)
		}
	}
	p.queue = kept
	for _, w := range p.queue {
		if w.start > now {
			plan.Wake = w.start
			break
		}
	}
}

// Late is the jobs started after their recorded start, and the largest
// delay.
func (p *Policy) Late() (int64, float64) { return p.late, p.maxLate }
