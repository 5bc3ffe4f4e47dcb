// Package lfj is "largest job first": a queue policy that, at every
// pass, starts the waiting jobs in order of size (largest first) while
// they fit the free CPUs. It is the worked example of docs/extending.md
// and of the test that adds a policy in one folder (TestAddPolicy).
package lfj

import (
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry.
func Declarations() []policy.Decl {
	return []policy.Decl{{
		Model: policy.ModelCluster, Kind: policy.KindQueue, Name: "lfj",
		Summary: "largest job first: waiting jobs start by size, largest first, while they fit",
		Options: []option.Decl{{
			Name: "tie_break", Key: "policy.tie_break", Type: option.Enum,
			Values: []string{"submit", "estimate"}, Default: "submit",
			Doc: "among jobs of one size: the earliest submitted (submit) or the shortest estimate (estimate) first",
		}},
		// The order a run reports (summary.json's "order").
		QueueOrder: func(v option.Values) string { return "largest-" + v.Text("tie_break") },
		New: func(env policy.Env, v option.Values) (policy.Built, error) {
			return policy.Built{Queue: &LFJ{byEstimate: v.Text("tie_break") == "estimate"}}, nil
		},
	}}
}

// LFJ is the policy.
type LFJ struct {
	byEstimate bool
	waiting    []job.Info
}

func (p *LFJ) Name() string                   { return "lfj" }
func (p *LFJ) Submit(now float64, j job.Info) { p.waiting = append(p.waiting, j) }
func (p *LFJ) Finish(now float64, id job.ID)  {}

// Schedule starts the largest waiting jobs that fit, on machine 0.
func (p *LFJ) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	slices.SortStableFunc(p.waiting, func(a, b job.Info) int {
		if a.Procs != b.Procs {
			return b.Procs - a.Procs
		}
		if p.byEstimate && a.Estimate != b.Estimate {
			if a.Estimate < b.Estimate {
				return -1
			}
			return 1
		}
		return 0
	})
	free := v.Free(0)
	kept := p.waiting[:0]
	for _, j := range p.waiting {
		if j.Procs <= free {
			free -= j.Procs
			reason := job.Reserved // it waited
			if now == j.Submit {
				reason = job.Immediate
			}
			plan.Start(j.ID, reason)
			continue
		}
		kept = append(kept, j)
	}
	p.waiting = kept
}
