package experiment

import (
	"errors"
	"io"
	"time"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload/synth"
)

// HeteroRun is one replication of the heterogeneous model of
// klusacek-2008: a central queue over machines of different sizes and
// speeds, jobs with deadlines.
type HeteroRun struct {
	// Platform, when it has machines, is used as it is; else the machines
	// are drawn from Machines for this replication.
	Platform platform.Platform
	Machines synth.MachineOptions
	Jobs     synth.HeteroOptions
	// Policy builds the queue policy for the replication's platform.
	Policy      func(p platform.Platform, seed uint64, rep int) (policy.QueueScheduler, error)
	Seed        uint64
	Replication int
}

// HeteroResult holds one replication's metrics.
type HeteroResult struct {
	Jobs                int64   `json:"jobs"`
	MissedPct           float64 `json:"missed_pct"`             // of all jobs
	MissedOfDeadlinePct float64 `json:"missed_of_deadline_pct"` // of jobs with a deadline
	Usage               float64 `json:"usage"`                  // the paper's system usage
	Slowdown            float64 `json:"slowdown"`               // mean (Tw + Te) / Te
	MeanWait            float64 `json:"mean_wait"`
	OfferedLoad         float64 `json:"offered_load"`
	// Events are the scheduling events (submissions and completions) the
	// policy was told of; Evaluations its deterministic count of plan
	// evaluations, when it keeps one (0 otherwise); QueueAtEvents the mean
	// number of jobs waiting at an event (what a queue-based policy scans).
	Events        int64   `json:"events"`
	Evaluations   int64   `json:"plan_evaluations"`
	QueueAtEvents float64 `json:"queue_at_events"`
	// DecisionSeconds is the policy's wall-clock time per scheduling event
	// (machine-dependent; never part of a deterministic output).
	DecisionSeconds float64 `json:"-"`
}

// Evaluator is implemented by policies that count their plan evaluations.
type Evaluator interface{ PlanEvaluations() int64 }

// timed wraps a queue policy and measures the wall-clock time it spends
// deciding; the simulation itself never reads the clock. It is a
// declared layer (policy.Layer) that passes on its inner policy's
// timedForwards: the model must see that the external policy can fail.

// closePolicy ends what a policy holds outside the process (the external
// policy's decision process) and returns its failure; it does nothing
// for other policies.
func closePolicy(p any) error {
	if c, ok := p.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

type timed struct {
	policy.QueueScheduler
	caps   policy.Caps // the inner's among timedForwards
	spent  time.Duration
	events int64
}

// timedForwards are the capabilities timed passes on (untimed: Err is
// not deciding).
const timedForwards = policy.CapFail

// newTimed wraps pol.
func newTimed(pol policy.QueueScheduler) *timed {
	return &timed{QueueScheduler: pol, caps: policy.CapsOf(pol).Only(timedForwards)}
}

// Caps implements policy.Layer.
func (t *timed) Caps() policy.Caps { return t.caps }

func (t *timed) Submit(now float64, j job.Info) {
	s := time.Now()
	t.QueueScheduler.Submit(now, j)
	t.spent += time.Since(s)
	t.events++
}

func (t *timed) Finish(now float64, id job.ID) {
	s := time.Now()
	t.QueueScheduler.Finish(now, id)
	t.spent += time.Since(s)
	t.events++
}

func (t *timed) Schedule(now float64, v policy.Machines, p *policy.Plan) {
	s := time.Now()
	t.QueueScheduler.Schedule(now, v, p)
	t.spent += time.Since(s)
}

// HeteroPlatform is the platform replication r runs on: r.Platform when it
// has machines, else the machines drawn from r.Machines for the
// replication (the same every time).
func HeteroPlatform(r HeteroRun) (platform.Platform, error) {
	if r.Platform.Machines() > 0 {
		return r.Platform, nil
	}
	return synth.Machines(r.Seed, r.Replication, r.Machines)
}

// RunHetero simulates one replication; extra listeners see every job.
// It is the hetero model's assembly (synthModels) on r's machines and
// policy, without a scenario's checks.
func RunHetero(r HeteroRun, extra ...engine.Listener) (HeteroResult, error) {
	if r.Policy == nil {
		return HeteroResult{}, errors.New("hetero run: no policy")
	}
	p, err := HeteroPlatform(r)
	if err != nil {
		return HeteroResult{}, err
	}
	spec := RunSpec{Model: registry.ModelHetero, Workload: WorkloadSpec{Synthetic: &SyntheticSpec{Hetero: r.Jobs}, Seed: r.Seed, Rep: r.Replication},
		Outputs: OutputSpec{Listeners: extra}}
	res, err := runAsm(spec, p, func(a *synthAsm) { a.hetero = r })
	if err != nil {
		return HeteroResult{}, err
	}
	return res.detail.(HeteroResult), nil
}
