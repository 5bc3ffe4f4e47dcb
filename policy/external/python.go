package external

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// The python policy is the external policy with a decision process of
// a known form: the Python package's server, python -m schedlab.serve
// CLASS, serving a schedlab.Policy subclass (python/schedlab/serve.py).
// A scenario names it as {queue: python, class: "mymod:MyPolicy"}, and
// a sweep runs one such process per replication, as for any external
// policy. The process runs in schedlab's working folder, which
// schedlab.serve puts first on the module path; option path adds
// folders before the inherited PYTHONPATH.

// pythonDecl declares the python policy of the cluster model.
func pythonDecl() policy.Decl {
	return policy.Decl{
		Model: policy.ModelCluster, Kind: policy.KindQueue, Name: "python",
		Summary: "a Python policy (a schedlab.Policy subclass) served by python -m schedlab.serve over docs/protocol.md (run: --class mymod:MyPolicy)",
		Options: []option.Decl{
			{Name: "class", Key: "policy.class", Type: option.Text, Flag: "class",
				Doc:   "the policy class, MODULE:CLASS (a module found from the working folder, option path or PYTHONPATH) or FILE.py:CLASS (a file, relative to the working folder) (required)",
				Valid: checkClass},
			{Name: "python", Key: "policy.python", Type: option.Text, Default: "python3",
				Doc:   "the Python interpreter that runs python -m schedlab.serve (it must import schedlab: pip install ./python)",
				Valid: checkPython},
			{Name: "path", Key: "policy.path", Type: option.Text,
				Doc:   "folders put before PYTHONPATH for the policy's module, separated by ':' (relative to the working folder)",
				Valid: checkPythonPath},
			{Name: "timeout", Key: "policy.timeout", Type: option.Float, Range: option.Between(0.001, 86400), Default: "30",
				Doc: "seconds the decision process may take for each reply (its first reply includes its start-up), and to exit at the end"},
		},
		Check: func(v option.Values) error {
			if v.Text("class") == "" {
				return errors.New(`option class: required: the policy class, MODULE:CLASS or FILE.py:CLASS (run: --class mymod:MyPolicy)`)
			}
			return nil
		},
		// As external: the process sees the queue in submit order.
		QueueOrder: policy.FixedOrder("fcfs"),
		New: func(env policy.Env, v option.Values) (policy.Built, error) {
			if v.Text("class") == "" { // also checked before any work
				return policy.Built{}, errors.New("policy python: option class: required")
			}
			opt := Options{
				Name:    "python",
				Command: PythonCommand(v.Text("python"), v.Text("path"), v.Text("class")),
				Timeout: time.Duration(v.Float("timeout") * float64(time.Second)),
				// the server builds its view from the events
				// (schedlab.serve): the free CPUs (on nodes, the
				// nodes that changed) are all it reads
				Full: false,
			}
			if env.Nodes != nil {
				np, err := NewNodes(env.Platform, env.Nodes, opt)
				if err != nil {
					return policy.Built{}, fmt.Errorf("policy python: %w", err)
				}
				return policy.Built{Nodes: np}, nil
			}
			return policy.Built{Queue: New(env.Platform, opt)}, nil
		},
	}
}

// PythonCommand is the python policy's command line for /bin/sh -c:
// exec PYTHON -m schedlab.serve CLASS, with PYTHONPATH=PATH before the
// inherited one when path is not empty. Every value is quoted for the
// shell.
func PythonCommand(python, path, class string) string {
	if python == "" {
		python = "python3"
	}
	var b strings.Builder
	if path != "" {
		b.WriteString("PYTHONPATH=" + shellQuote(path) + `"${PYTHONPATH:+:$PYTHONPATH}" `)
	}
	b.WriteString("exec " + shellQuote(python) + " -m schedlab.serve " + shellQuote(class))
	return b.String()
}

// shellQuote quotes s as one word of /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkClass checks the form of option class: MODULE:CLASS with MODULE
// dotted Python identifiers, or FILE.py:CLASS; CLASS an identifier.
func checkClass(s string) error {
	mod, cls, ok := cutLast(s, ":")
	if !ok || mod == "" || cls == "" {
		return fmt.Errorf("%q is not MODULE:CLASS or FILE.py:CLASS", s)
	}
	if !identifier(cls) {
		return fmt.Errorf("%q: %q is not a Python class name", s, cls)
	}
	if strings.HasSuffix(mod, ".py") {
		if strings.ContainsAny(mod, "\n\x00") {
			return fmt.Errorf("%q: the file name has a newline or NUL", s)
		}
		return nil
	}
	for _, part := range strings.Split(mod, ".") {
		if !identifier(part) {
			return fmt.Errorf("%q: %q is not a module name (dotted Python identifiers; a file is FILE.py:CLASS)", s, mod)
		}
	}
	return nil
}

// cutLast cuts s around its last sep (a file name may hold one, a
// class name never).
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// identifier reports a Python identifier of ASCII letters, digits and
// underscores, not starting with a digit (Python also allows non-ASCII
// letters; this policy does not).
func identifier(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// checkPython refuses an interpreter that is empty or looks like a flag.
func checkPython(s string) error {
	switch t := strings.TrimSpace(s); {
	case t == "":
		return errors.New("empty: want an interpreter such as python3 or a path to one")
	case strings.HasPrefix(t, "-"):
		return fmt.Errorf("%q is not an interpreter (it starts with -)", s)
	case strings.ContainsAny(s, "\n\x00"):
		return fmt.Errorf("%q: the interpreter's name has a newline or NUL", s)
	}
	return nil
}

// checkPythonPath refuses a path with a newline or NUL.
func checkPythonPath(s string) error {
	if strings.ContainsAny(s, "\n\x00") {
		return fmt.Errorf("%q: the path has a newline or NUL", s)
	}
	return nil
}
