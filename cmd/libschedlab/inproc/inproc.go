package inproc

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/schedlab/schedlab/cmd/schedlab/cli"
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

// Start prepares the run of args, a `schedlab run` command line without
// the program name (e.g. run --trace F --policy external --no-out --set
// view=free). Nothing runs before the first Next.
func Start(args []string) *Sim {
	s := &Sim{}
	args = append([]string(nil), args...)
	seq := func(yield func(*external.Request) bool) {
		d := decider(func(r *external.Request) (external.Decision, error) {
			if !yield(r) {
				return external.Decision{}, errStopped
			}
			return s.dec, nil
		})
		defer func() {
			if v := recover(); v != nil { // outside the command's own recover
				fmt.Fprintf(&s.stderr, "schedlab: internal error (a bug; please report it with the command line): %v\n", v)
				s.status = 3
			}
		}()
		s.status = cli.MainInProcess(args, &s.stdout, &s.stderr, d)
	}
	s.next, s.stop = iter.Pull(seq)
	return s
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

// Stdout is what the run printed (the summary table, or with --json the
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
