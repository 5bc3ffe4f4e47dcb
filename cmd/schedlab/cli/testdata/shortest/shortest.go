// Package shortest is a throwaway queue policy for TestAddPolicy: strict
// shortest-estimate-first. It orders its queue itself and has no order
// option; its declaration says its order (QueueOrder), which a run's
// summary.json reports.
package shortest

import (
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry.
func Declarations() []policy.Decl {
	return []policy.Decl{{
		Model: policy.ModelCluster, Kind: policy.KindQueue, Name: "shortest",
		Summary:    "strict shortest estimate first: nothing passes a blocked job",
		QueueOrder: policy.FixedOrder("sjf"),
		New: func(env policy.Env, v option.Values) (policy.Built, error) {
			return policy.Built{Queue: &Shortest{}}, nil
		},
	}}
}

// Shortest is the policy.
type Shortest struct{ waiting []job.Info }

func (p *Shortest) Name() string                   { return "shortest" }
func (p *Shortest) Submit(now float64, j job.Info) { p.waiting = append(p.waiting, j) }
func (p *Shortest) Finish(now float64, id job.ID)  {}

// Schedule starts the waiting jobs by estimate, shortest first (ties:
// submit order), and stops at the first that does not fit.
func (p *Shortest) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	slices.SortStableFunc(p.waiting, func(a, b job.Info) int {
		switch {
		case a.Estimate < b.Estimate:
			return -1
		case a.Estimate > b.Estimate:
			return 1
		}
		return 0
	})
	free := v.Free(0)
	for len(p.waiting) > 0 && p.waiting[0].Procs <= free {
		j := p.waiting[0]
		free -= j.Procs
		reason := job.Reserved
		if now == j.Submit {
			reason = job.Immediate
		}
		plan.Start(j.ID, reason)
		p.waiting = p.waiting[1:]
	}
}
