package external

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// script is a Decider that records each request (as text) and answers
// with its decisions in turn.
type script struct {
	got       []string
	decisions []Decision
	err       error
}

func (s *script) Decide(r *Request) (Decision, error) {
	var ids []string
	for _, j := range r.Waiting {
		ids = append(ids, fmt.Sprint(j.ID))
	}
	var sub []string
	for _, j := range r.Submitted {
		sub = append(sub, fmt.Sprint(j.ID))
	}
	s.got = append(s.got, fmt.Sprintf("t=%g begins=%v ends=%v call=%v submitted=%v completed=%v free=%v waiting=[%s] running=%d",
		r.Now, r.Begins, r.Ends, r.RequestedCall, sub, r.Completed, r.Free, strings.Join(ids, " "), r.Running))
	if r.Ends {
		return Decision{}, nil
	}
	if s.err != nil {
		return Decision{}, s.err
	}
	d := s.decisions[0]
	s.decisions = s.decisions[1:]
	return d, nil
}

// The worked exchange of TestExchange (docs/protocol.md) with an
// in-process Decider: the same requests as values, the same starts and
// reasons from the same decisions.
func TestDecider(t *testing.T) {
	d := &script{decisions: []Decision{
		{Starts: []Exec{{ID: 1}}},
		{},
		{},
		{Starts: []Exec{{ID: 2, Alloc: "0-3"}}},
		{Starts: []Exec{{ID: 3}}, Wake: 100},
	}}
	p := New(platform.MustCluster(4), Options{Decider: d})
	threeJobs(t, p)
	wantReq := []string{
		"t=0 begins=true ends=false call=false submitted=[1] completed=[] free=[4] waiting=[1] running=0",
		"t=1 begins=false ends=false call=false submitted=[2] completed=[] free=[2] waiting=[2] running=1",
		"t=2 begins=false ends=false call=false submitted=[3] completed=[] free=[2] waiting=[2 3] running=1",
		"t=10 begins=false ends=false call=false submitted=[] completed=[1] free=[4] waiting=[2 3] running=0",
		"t=15 begins=false ends=false call=false submitted=[] completed=[2] free=[4] waiting=[3] running=0",
		"t=18 begins=false ends=true call=false submitted=[] completed=[3] free=[4] waiting=[] running=0",
	}
	if !slices.Equal(d.got, wantReq) {
		t.Errorf("requests:\n%s\nwant\n%s", strings.Join(d.got, "\n"), strings.Join(wantReq, "\n"))
	}
}

// A decision is validated by the code that validates a reply: each
// illegal one fails the policy with the reason, the time and
// "in-process"; the first failure stops everything.
func TestDeciderInvalid(t *testing.T) {
	for _, c := range []struct {
		name string
		d    Decision
		err  error
		want string
	}{
		{"unknown job", Decision{Starts: []Exec{{ID: 9}}}, nil, "start 1 of the decision: job 9 is not waiting: no such job in the queue"},
		{"started twice", Decision{Starts: []Exec{{ID: 1}, {ID: 1}}}, nil, "start 2 of the decision: job 1 is not waiting: it started at t=5"},
		{"bad alloc", Decision{Starts: []Exec{{ID: 1, Alloc: "3-1"}}}, nil, `job 1: alloc "3-1": "3-1" is not a run a-b with a <= b`},
		{"wake in the past", Decision{Wake: 5}, nil, "the decision's wake-up time: timestamp 5 is not after now (5)"},
		{"decider error", Decision{}, errors.New("the agent gave up"), "the agent gave up"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &script{decisions: []Decision{c.d}, err: c.err}
			p := New(platform.MustCluster(4), Options{Decider: d})
			p.Submit(5, job.Info{ID: 1, Submit: 5, Procs: 2, Estimate: 10})
			var plan policy.Plan
			p.Schedule(5, free{4}, &plan)
			err := p.Err()
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "policy external at t=5") || !strings.HasSuffix(err.Error(), "[in-process]") {
				t.Fatalf("error %v, want one at t=5 with %q, in-process", err, c.want)
			}
			if e := p.Close(); e != err {
				t.Errorf("Close: %v, want the failure %v", e, err)
			}
			if n := len(d.got); n != 1 {
				t.Errorf("%d requests after the failure, want 1 (no SIMULATION_ENDS)", n)
			}
		})
	}
}
