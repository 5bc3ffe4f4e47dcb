package policy

import "github.com/schedlab/schedlab/job"

// Queue is a policy for one space-shared cluster of identical processors
// with a central queue (DESIGN.md section 4.3).
//
// Calls arrive in this order at each instant: Finish for every job that
// ended at that instant, then Submit for every job that arrived, then
// exactly one Schedule. Every job named in a Plan is started by the engine
// at that instant (or the run stops with an error), so a policy may record
// the start as soon as it puts it in the plan.
type Queue interface {
	// Name is the policy's registry name, used in errors and reports.
	Name() string
	// Submit adds a job to the policy's queue.
	Submit(now float64, j job.Info)
	// Finish tells the policy that a running job ended at now (completed
	// or killed). now may be earlier than the job's estimated end.
	Finish(now float64, id job.ID)
	// Schedule is one scheduling pass at time now: it appends to plan the
	// jobs to start now. free is the number of idle processors.
	Schedule(now float64, free int, plan *Plan)
}

// Start is one decision: start a waiting job now.
type Start struct {
	ID     job.ID
	Reason job.StartReason
}

// Plan collects the decisions of one scheduling pass. The engine resets it
// before each pass.
type Plan struct {
	Starts []Start
}

// Start appends a decision to start job id now.
func (p *Plan) Start(id job.ID, reason job.StartReason) {
	p.Starts = append(p.Starts, Start{ID: id, Reason: reason})
}

// Reset empties the plan, keeping its storage.
func (p *Plan) Reset() { p.Starts = p.Starts[:0] }
