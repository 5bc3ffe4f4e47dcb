package external

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry: external on
// the cluster model and on the hetero model (the same central queue over
// machines of different sizes and speeds).
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
				{Name: "timeout", Key: "policy.timeout", Type: option.Float, Range: option.Between(0.001, 86400), Default: "30",
					Doc: "seconds the decision process may take for each reply (its first reply includes its start-up), and to exit at the end"},
				{Name: "view", Key: "policy.view", Type: option.Enum, Values: []string{"full", "free"}, Default: "full",
					Doc: "what each request carries besides the events: the free CPUs, the queue and the running jobs (full), or only the free CPUs (free)"},
			},
			Check: checkCommand,
			New: func(env policy.Env, v option.Values) (policy.Built, error) {
				if err := checkCommand(v); err != nil {
					return policy.Built{}, fmt.Errorf("policy external: %w", err)
				}
				cmd := v.Text("command")
				p := New(env.Platform, Options{
					Command: cmd,
					Timeout: time.Duration(v.Float("timeout") * float64(time.Second)),
					Full:    v.Text("view") == "full",
				})
				return policy.Built{Queue: p}, nil
			},
		})
	}
	return out
}

// checkCommand refuses a run without a command, before any work.
func checkCommand(v option.Values) error {
	if strings.TrimSpace(v.Text("command")) == "" {
		return errors.New(`option command: required: the decision process's command line (run: --command "python3 my_policy.py")`)
	}
	return nil
}
