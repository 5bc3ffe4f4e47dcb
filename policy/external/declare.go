package external

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry: external on
// the cluster model and on the hetero model (the same central queue over
// machines of different sizes and speeds), and python on the cluster
// model (python.go).
func Declarations() []policy.Decl {
	var out []policy.Decl
	for _, model := range []string{policy.ModelCluster, policy.ModelHetero} {
		out = append(out, policy.Decl{
			Model: model, Kind: policy.KindQueue, Name: "external",
			Summary: "an external decision process in any language, over the JSON Lines protocol of docs/protocol.md (run: --command \"CMD ARGS\")",
			Options: []option.Decl{
				{Name: "command", Key: "policy.command", Type: option.Text, Flag: "command",
					Doc: "the decision process's command line, run with /bin/sh -c (required)",
					Valid: func(s string) error {
						if strings.HasPrefix(strings.TrimSpace(s), "-") {
							return fmt.Errorf("%q is not a command line (it starts with -)", s)
						}
						return nil
					}},
				{Name: "fds", Key: "policy.fds", Type: option.Text,
					Doc:   "instead of a command: IN,OUT, file descriptors inherited from the program that started schedlab; replies are read from IN, requests written to OUT (the Python package's way)",
					Valid: func(s string) error { _, err := parseFDs(s); return err }},
				{Name: "timeout", Key: "policy.timeout", Type: option.Float, Range: option.Between(0.001, 86400), Default: "30",
					Doc: "seconds the decision process may take for each reply (its first reply includes its start-up), and to exit at the end"},
				{Name: "view", Key: "policy.view", Type: option.Enum, Values: []string{"full", "free"}, Default: "full",
					Doc: "what each request carries besides the events: the free CPUs, the queue and the running jobs (full), or only the free CPUs (free)"},
			},
			Check:          checkCommand,
			CheckInProcess: checkInProcess,
			// The decision process sees the queue in submit order; what
			// it starts first is its own business.
			QueueOrder: policy.FixedOrder("fcfs"),
			New: func(env policy.Env, v option.Values) (policy.Built, error) {
				if d, ok := env.Decider.(Decider); ok && d != nil {
					if err := checkInProcess(v); err != nil {
						return policy.Built{}, fmt.Errorf("policy external: %w", err)
					}
					if env.Nodes != nil {
						np, err := NewNodes(env.Platform, env.Nodes, Options{Decider: d, Full: v.Text("view") == "full"})
						if err != nil {
							return policy.Built{}, fmt.Errorf("policy external: %w", err)
						}
						return policy.Built{Nodes: np}, nil
					}
					return policy.Built{Queue: New(env.Platform, Options{Decider: d, Full: v.Text("view") == "full"})}, nil
				}
				if err := checkCommand(v); err != nil { // also checked before any work
					return policy.Built{}, fmt.Errorf("policy external: %w", err)
				}
				cmd := v.Text("command")
				fds, err := parseFDs(v.Text("fds"))
				if err != nil {
					return policy.Built{}, fmt.Errorf("policy external: option fds: %w", err)
				}
				opt := Options{
					Command: cmd,
					FDs:     fds,
					Timeout: time.Duration(v.Float("timeout") * float64(time.Second)),
					Full:    v.Text("view") == "full",
				}
				if env.Nodes != nil {
					np, err := NewNodes(env.Platform, env.Nodes, opt)
					if err != nil {
						return policy.Built{}, fmt.Errorf("policy external: %w", err)
					}
					return policy.Built{Nodes: np}, nil
				}
				return policy.Built{Queue: New(env.Platform, opt)}, nil
			},
		})
	}
	return append(out, pythonDecl())
}

// checkCommand refuses a run without a command, before any work.
func checkCommand(v option.Values) error {
	cmd, fds := strings.TrimSpace(v.Text("command")), v.Text("fds")
	switch {
	case cmd == "" && fds == "":
		return errors.New(`option command: required: the decision process's command line (run: --command "python3 my_policy.py")`)
	case cmd != "" && fds != "":
		return errors.New("options command and fds: give one, not both")
	}
	return nil
}

// checkInProcess refuses a command or file descriptors for a run whose
// decisions come from an in-process Decider.
func checkInProcess(v option.Values) error {
	if v.Text("command") != "" || v.Text("fds") != "" {
		return errors.New("an in-process decider takes neither option command nor fds")
	}
	return nil
}

// parseFDs reads "IN,OUT" (two distinct descriptors above 2); "" is
// none.
func parseFDs(s string) ([2]int, error) {
	if s == "" {
		return [2]int{}, nil
	}
	a, b, ok := strings.Cut(s, ",")
	in, err1 := strconv.Atoi(strings.TrimSpace(a))
	out, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || in < 3 || out < 3 || in == out {
		return [2]int{}, fmt.Errorf("%q is not IN,OUT: two distinct file descriptors above 2", s)
	}
	return [2]int{in, out}, nil
}
