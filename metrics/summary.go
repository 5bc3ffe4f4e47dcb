package metrics

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

// DefaultTau is the bounded-slowdown threshold for traces, in seconds
// (schedlab run, hafshejani2012; run --tau changes it).
const DefaultTau = 10.0

// SyntheticTau is the bounded-slowdown threshold of the synthetic models
// (cluster, grid, gang and hetero scenarios, the alnajjar2019
// reproduction): 0, so bounded slowdown is slowdown floored at 1. The
// grid, gang and synthetic cluster models count time in units of the
// mean service time, where a threshold in seconds has no meaning; hetero
// and alnajjar2019 (seconds) keep 0 so that their numbers do not change.
// docs/scheduling.md lists the threshold of each model.
const SyntheticTau = 0.0

// Summary accumulates summary metrics. Create with NewSummary.
type Summary struct {
	engine.NopListener
	procs int
	tau   float64

	n, killed, zeroLen   int64
	failKilled           int64
	preempted, requeued  int64 // runs cut short by preemptions, and those requeued
	bsldSkipped          int64 // zero-length jobs when tau is 0: no bounded slowdown
	sumWait, maxWait     float64
	sumResp, maxResp     float64
	sumSld, sumBsld      float64
	work                 float64
	firstSubmit, lastEnd float64
	byReason             [job.NumReasons]int64
	started              bool
	skip                 int64
	warm                 bool // firstSubmit is the end of a warm-up
}

// Skip leaves the first n ended jobs out of the metrics (a warm-up).
func (s *Summary) Skip(n int64) { s.skip = n }

// NewSummary returns a Summary for a machine of procs processors and
// bounded-slowdown threshold tau (use DefaultTau for traces).
func NewSummary(procs int, tau float64) *Summary {
	return &Summary{procs: procs, tau: tau}
}

func (s *Summary) JobSubmitted(now float64, j *actual.Job) {
	if !s.started && s.skip == 0 && !s.warm {
		s.firstSubmit, s.started = j.Submit, true
	}
}

func (s *Summary) JobFinished(now float64, r *engine.Record) { s.add(r) }
func (s *Summary) JobKilled(now float64, r *engine.Record) {
	switch r.State {
	case job.Killed:
		s.failKilled++ // a CPU it ran on became unavailable
	case job.Preempted:
		// counted by JobPreempted
	default:
		s.killed++
	}
	s.add(r)
}

// JobPreempted counts a run a preemption cut short (engine.PreemptListener).
func (s *Summary) JobPreempted(now float64, r *engine.Record, requeued bool) {
	s.preempted++
	if requeued {
		s.requeued++
	}
}

func (s *Summary) add(r *engine.Record) {
	if s.skip > 0 {
		s.skip--
		if s.skip == 0 {
			// The measured span starts where the warm-up ends.
			s.firstSubmit, s.warm = r.End, true
		}
		return
	}
	s.n++
	w, resp, ex := r.Wait(), r.Turnaround(), r.Exec()
	s.sumWait += w
	s.maxWait = max(s.maxWait, w)
	s.sumResp += resp
	s.maxResp = max(s.maxResp, resp)
	if ex > 0 {
		s.sumSld += resp / ex
	} else {
		s.zeroLen++
	}
	// With tau 0 a zero-length job has no bounded slowdown (0/0, or x/0):
	// it is left out of the mean, as it is of the mean slowdown.
	if d := max(ex, s.tau); d > 0 {
		s.sumBsld += max(1, resp/d)
	} else {
		s.bsldSkipped++
	}
	s.work += float64(float64(r.Job.Procs) * ex)
	s.lastEnd = max(s.lastEnd, r.End)
	s.byReason[r.Reason]++
}

// Result is the summary of a run, as written to summary.json.
type Result struct {
	Jobs   int64 `json:"jobs"`
	Killed int64 `json:"killed"`
	// KilledByFailure counts the jobs killed because a CPU they ran on
	// became unavailable (docs/availability.md); not in Killed.
	KilledByFailure int64 `json:"killed_by_failure,omitempty"`
	// Preempted counts the runs preemptions cut short (docs/slurm.md,
	// "Preemption"), PreemptRequeued those of them requeued: the others'
	// jobs ended, final state COMPLETED_PREEMPTED, among Jobs and not in
	// Killed. A requeued job's metrics are its last run's.
	Preempted           int64            `json:"preempted,omitempty"`
	PreemptRequeued     int64            `json:"preempt_requeued,omitempty"`
	MeanWait            float64          `json:"mean_wait"`
	MaxWait             float64          `json:"max_wait"`
	MeanResponse        float64          `json:"mean_response"`
	MaxResponse         float64          `json:"max_response"`
	MeanSlowdown        float64          `json:"mean_slowdown"`
	ZeroLengthJobs      int64            `json:"zero_length_jobs"`
	MeanBoundedSlowdown float64          `json:"mean_bounded_slowdown"`
	Tau                 float64          `json:"bounded_slowdown_tau"`
	Utilization         float64          `json:"utilization"`
	Makespan            float64          `json:"makespan"`
	FirstSubmit         float64          `json:"first_submit"`
	Procs               int              `json:"procs"`
	StartReasons        map[string]int64 `json:"start_reasons"`
}

// Result computes the summary of the jobs seen so far.
func (s *Summary) Result() Result {
	r := Result{Jobs: s.n, Killed: s.killed, KilledByFailure: s.failKilled, Preempted: s.preempted, PreemptRequeued: s.requeued, MaxWait: s.maxWait, MaxResponse: s.maxResp,
		ZeroLengthJobs: s.zeroLen, Tau: s.tau, Makespan: s.lastEnd, FirstSubmit: s.firstSubmit,
		Procs: s.procs, StartReasons: map[string]int64{}}
	if s.n > 0 {
		n := float64(s.n)
		r.MeanWait, r.MeanResponse = s.sumWait/n, s.sumResp/n
		if m := s.n - s.bsldSkipped; m > 0 {
			r.MeanBoundedSlowdown = s.sumBsld / float64(m)
		}
		if m := s.n - s.zeroLen; m > 0 {
			r.MeanSlowdown = s.sumSld / float64(m)
		}
		if span := s.lastEnd - s.firstSubmit; span > 0 {
			r.Utilization = s.work / (float64(s.procs) * span)
		}
	}
	for i := range job.NumReasons {
		r.StartReasons[job.StartReason(i).String()] = s.byReason[i]
	}
	return r
}

// WriteJSON writes v as indented JSON (map keys are sorted by encoding/json,
// so the output is deterministic).
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteText prints r as an aligned table for people.
func (r Result) WriteText(w io.Writer) error {
	rows := []struct {
		k string
		v string
	}{
		{"jobs", fmt.Sprint(r.Jobs)},
		{"killed at limit", fmt.Sprint(r.Killed)},
		{"mean wait (s)", f1(r.MeanWait)},
		{"max wait (s)", f1(r.MaxWait)},
		{"mean response (s)", f1(r.MeanResponse)},
		{"mean slowdown", f3(r.MeanSlowdown)},
		{fmt.Sprintf("mean bounded slowdown (tau=%gs)", r.Tau), f3(r.MeanBoundedSlowdown)},
		{"utilization", f3(r.Utilization)},
		{"makespan (s)", f1(r.Makespan)},
		{"started immediately", fmt.Sprint(r.StartReasons["immediate"])},
		{"started by backfilling", fmt.Sprint(r.StartReasons["backfilled"])},
		{"started after waiting (reserved)", fmt.Sprint(r.StartReasons["reserved"])},
	}
	if r.KilledByFailure > 0 {
		rows = slices.Insert(rows, 2, struct{ k, v string }{"killed by failure", fmt.Sprint(r.KilledByFailure)})
	}
	if r.Preempted > 0 {
		rows = slices.Insert(rows, 2, struct{ k, v string }{"preempted (requeued)", fmt.Sprintf("%d (%d)", r.Preempted, r.PreemptRequeued)})
	}
	for _, row := range rows {
		if _, err := fmt.Fprintf(w, "%-34s %14s\n", row.k, row.v); err != nil {
			return err
		}
	}
	return nil
}

func f1(v float64) string { return fmt.Sprintf("%.1f", v) }
func f3(v float64) string { return fmt.Sprintf("%.3f", v) }
