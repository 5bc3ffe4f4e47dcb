package model

import (
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy/option"
)

// Env is what a run gives a workload model besides its options: the
// machine's size, how many jobs the run needs (stop.completed), and the
// random streams' coordinates (seed, replication).
type Env struct {
	Procs int
	Jobs  int64
	Seed  uint64
	Rep   int
}

// Source yields jobs in submit order, io.EOF after the last (the
// engine's Source contract; workload.Source has the same method).
type Source interface {
	Next() (actual.Job, error)
}

// Built is a model's workload for one replication: the jobs, and their
// expected offered load (for the message of an overloaded run; 0 when
// unknown).
type Built struct {
	Source Source
	Load   float64
	// Speed, when above 0, is the CPU speed of the machine the jobs'
	// speed requirements (actual.Job.Speed) are drawn against: the
	// cluster is then one machine of that speed (platform.Machine.Speed)
	// instead of speed 1, so that every job fits it.
	Speed float64
	// Requests says that some jobs may carry a request on a platform of
	// nodes beyond their processors as tasks of one CPU
	// (actual.Job.Req not cores alone, nodes.CoresAlone: gpumix's GPU
	// jobs). False promises that none does: a run on nodes may then be
	// planned by counts (docs/nodes.md, "Two planners").
	Requests bool
}

// Decl declares a workload model.
type Decl struct {
	// Name is the value of workload.model that selects the model.
	Name    string
	Summary string // one line
	// Options are the model's settings, each read as workload.<Name> (set
	// Key to "workload."+Name); KeyName, the default and the range work
	// as for policy options (scenario keys, result keys, messages).
	Options []option.Decl
	// Exclusive lists pairs of options that may not be given together,
	// with the reason, e.g. {"arrival_factor", "load", "a target load
	// sets the arrival factor"}.
	Exclusive [][3]string
	// New builds the workload of one replication from the checked
	// option values; an error names the scenario keys it is about.
	New func(env Env, v option.Values) (Built, error)
}
