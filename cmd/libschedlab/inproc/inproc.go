package inproc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/policy/external"
)

// Sim is one run in progress. Build it with Start; call Next until it
// returns no request; Close ends it early (or after the end, doing
// nothing). Not safe for concurrent use.
type Sim struct {
	next func() (*external.Request, bool)
	stop func()
	req  *external.Request // the current instant's request (nil before the first and after the end)
	dec  external.Decision // the decision handed to the run for req
	done bool
	// the run's exit status, standard output and error
	status         int
	stdout, stderr bytes.Buffer
}

// errStopped is the decision of a Sim closed before its end.
var errStopped = errors.New("the simulation was closed before its end")

// Start prepares the run of spec, whose policy is external
// (spec.Policy.Decider is set to the Sim's): the run of 'schedlab run'
// (experiment.RunSpec.Run, the same checks, assembly, outputs and
// messages), in this process. What the command prints, the run's
// summary (as JSON with asJSON, as 'run --json'), is Stdout once it
// ends. Nothing runs before the first Next.
func Start(spec experiment.RunSpec, asJSON bool) *Sim {
	s := &Sim{}
	seq := func(yield func(*external.Request) bool) {
		spec.Policy.Decider = decider(func(r *external.Request) (external.Decision, error) {
			if !yield(r) {
				return external.Decision{}, errStopped
			}
			return s.dec, nil
		})
		defer func() {
			if v := recover(); v != nil {
				fmt.Fprintf(&s.stderr, "schedlab: internal error (a bug; please report it with the run's spec): %v\n", v)
				s.status = 3
			}
		}()
		if err := run(&s.stdout, spec, asJSON); err != nil {
			fmt.Fprintf(&s.stderr, "schedlab: %v\n", err)
			s.status = exitStatus(err)
		}
	}
	s.next, s.stop = iter.Pull(seq)
	return s
}

// run runs spec and prints its summary to w.
func run(w io.Writer, spec experiment.RunSpec, asJSON bool) error {
	res, err := spec.Run()
	if err != nil {
		return err
	}
	if asJSON {
		return metrics.WriteJSON(w, res)
	}
	return experiment.WriteSummary(w, res, spec)
}

// exitStatus is the status 'schedlab run' gives err: 2 for a wrong
// setting (RunSpec.Check's problems, a window, availability or
// partitions that do not go with the trace), 1 for everything else.
func exitStatus(err error) int {
	var se *experiment.SettingError
	var we *experiment.WindowError
	var ae *experiment.AvailError
	var pe *experiment.PartitionError
	if errors.As(err, &se) || errors.As(err, &we) || errors.As(err, &ae) || errors.As(err, &pe) {
		return 2
	}
	return 1
}

type decider func(*external.Request) (external.Decision, error)

func (f decider) Decide(r *external.Request) (external.Decision, error) { return f(r) }

// Next gives the run the decision for the current request (none before
// the first request; ignored for the one with Ends set) and runs it to
// the next request, which it returns; nil at the end of the run, with
// the run's failure, if any. The request and what it points to are
// valid until the next call. d.Starts may be reused by the caller after
// the call.
func (s *Sim) Next(d external.Decision) (*external.Request, error) {
	if s.done {
		return nil, s.Err()
	}
	s.dec = d
	r, ok := s.next()
	s.dec = external.Decision{}
	if !ok {
		s.done, s.req = true, nil
		return nil, s.Err()
	}
	s.req = r
	return r, nil
}

// Request is the current instant's request (nil before the first and
// after the end).
func (s *Sim) Request() *external.Request { return s.req }

// Done reports whether the run has ended.
func (s *Sim) Done() bool { return s.done }

// Err is the run's failure once it has ended: schedlab's message (what
// the command writes to standard error) and exit status.
func (s *Sim) Err() error {
	if !s.done || s.status == 0 {
		return nil
	}
	msg := strings.TrimSpace(s.stderr.String())
	if msg == "" {
		msg = fmt.Sprintf("schedlab run failed (status %d)", s.status)
	}
	return &Error{Status: s.status, Msg: msg}
}

// Stdout is what the run printed (the summary table, or with asJSON the
// result as JSON).
func (s *Sim) Stdout() string { return s.stdout.String() }

// Close ends the run: a run not at its end fails (its decider returns
// an error), removing what it was writing. Calling it again does
// nothing.
func (s *Sim) Close() {
	if !s.done {
		s.stop()
		s.done, s.req = true, nil
	}
}

// Error is a failed run: its exit status and schedlab's message.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }
