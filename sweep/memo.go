package sweep

import (
	"fmt"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/scenario"
)

// Memo runs scenarios in memory through Run and keeps each one's
// replications by its key (scenario.Scenario.Key), so that a caller who
// finds its scenarios as it goes (a reproduction whose searches ask for
// more points after seeing the first ones) runs each scenario once:
// scenarios with equal keys compute the same thing. A Memo is not safe
// for concurrent use.
type Memo struct {
	// PerJob, set before the first Run, keeps the per-job part of
	// cluster replications' Detail (experiment.RunReplicationPerJob:
	// each job's response, the windows' heads) for a caller that
	// compares jobs one by one; off, replications keep no per-job data.
	PerJob bool

	workers int
	prog    Progress
	reps    map[string][]experiment.RepMetrics
	order   []string // the keys, in the order they were run
}

// Grower is a Progress that is also told how many tasks are coming: a
// Memo's Progress that implements it is told of each batch's
// replications before they run.
type Grower interface {
	Grow(tasks int)
}

// NewMemo returns an empty Memo running on up to workers goroutines (0:
// all cores) and telling prog (may be nil) of every replication ended.
func NewMemo(workers int, prog Progress) *Memo {
	return &Memo{workers: workers, prog: prog, reps: map[string][]experiment.RepMetrics{}}
}

// Run runs, as one parallel batch, the scenarios whose key the Memo does
// not hold yet (each key once).
func (m *Memo) Run(scenarios []scenario.Scenario) error {
	var todo []scenario.Scenario
	var keys []string
	seen := map[string]bool{}
	tasks := 0
	for _, s := range scenarios {
		k := s.Key()
		if _, ok := m.reps[k]; ok || seen[k] {
			continue
		}
		seen[k] = true
		todo, keys = append(todo, s), append(keys, k)
		tasks += s.Replications
	}
	if len(todo) == 0 {
		return nil
	}
	if g, ok := m.prog.(Grower); ok {
		g.Grow(tasks)
	}
	res, err := run(todo, m.workers, m.prog, m.PerJob)
	if err != nil {
		return err
	}
	for i, k := range keys {
		m.reps[k] = res[i]
	}
	m.order = append(m.order, keys...)
	return nil
}

// Reps returns the replications of s, which Run has run; it panics
// otherwise (a caller's bug: it asked for a scenario it did not run).
func (m *Memo) Reps(s scenario.Scenario) []experiment.RepMetrics {
	rs, ok := m.reps[s.Key()]
	if !ok {
		panic(fmt.Sprintf("sweep: scenario %s was not run", s.Key()))
	}
	return rs
}

// Values returns metric name of s over its replications, in replication
// order (for stats.CI95 and paired comparisons); it panics when s was
// not run or its model has no such metric.
func (m *Memo) Values(s scenario.Scenario, name string) []float64 {
	rs := m.Reps(s)
	out := make([]float64, len(rs))
	for i, r := range rs {
		j := r.Index(name)
		if j < 0 {
			panic(fmt.Sprintf("sweep: scenario %s has no metric %q", s.Key(), name))
		}
		out[i] = r.Values[j]
	}
	return out
}

// Visit calls f with every replication the Memo holds, scenario by
// scenario in the order they were first run, each scenario's in
// replication order.
func (m *Memo) Visit(f func(experiment.RepMetrics)) {
	for _, k := range m.order {
		for _, r := range m.reps[k] {
			f(r)
		}
	}
}
