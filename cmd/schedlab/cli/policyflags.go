package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/registry"
)

// The flags of 'schedlab run' that set a policy's options are not
// written here: each policy declares them with its options (option.Decl's
// Flag and FlagHelp), and this file reads them from the registry. Main
// takes them off the command line before kong parses the rest
// (takePolicyFlags); the run command's help lists them (policyFlagHelp);
// runCmd.policyOptions hands them to the chosen policy, which refuses a
// flag it does not declare.

// policyFlag is one declared flag: its name, whether it takes no value
// (a boolean option), its help, and the policies that declare it.
type policyFlag struct {
	name     string
	boolean  bool
	arg      string // the value's placeholder: "fcfs|sjf", "N"
	help     string
	policies []string
}

// runPolicies are the policies 'schedlab run' takes: the cluster's queue
// policies, then those of the hetero model that the cluster does not
// have.
func runPolicies() []registry.Entry {
	ps := registry.Policies(registry.ModelCluster, registry.KindQueue)
	for _, p := range registry.Policies(registry.ModelHetero, registry.KindQueue) {
		if _, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, p.Name); err != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// policyFlags lists the declared flags in the order the policies declare
// them, each once.
func policyFlags() []policyFlag {
	var out []policyFlag
	index := map[string]int{}
	for _, p := range runPolicies() {
		for _, o := range p.Options() {
			if o.Flag == "" {
				continue
			}
			i, ok := index[o.Flag]
			if !ok {
				help := o.Doc
				i = len(out)
				index[o.Flag] = i
				arg := map[registry.OptionType]string{registry.TypeInt: "N", registry.TypeFloat: "X", registry.TypeFraction: "F", registry.TypeText: "TEXT"}[o.Type]
				if o.Type == registry.TypeEnum {
					arg = strings.Join(o.Values, "|")
				}
				if o.FromFlag != nil {
					arg = "RULE"
				}
				out = append(out, policyFlag{name: o.Flag, boolean: o.Type == registry.TypeBool, arg: arg, help: help})
			}
			if o.Type == registry.TypeEnum && o.FromFlag == nil && len(o.Values) > strings.Count(out[i].arg, "|")+1 {
				out[i].arg = strings.Join(o.Values, "|")
			}
			out[i].policies = append(out[i].policies, p.Name)
		}
	}
	return out
}

// flagValue is a policy flag as given: its name and text.
type flagValue struct{ name, text string }

// takePolicyFlags takes the policy flags off a 'run' or 'explain' command line (args
// without the program name; other commands are returned as they are):
// --NAME VALUE, --NAME=VALUE, and for a boolean option --NAME or
// --NAME=true|false. Arguments after "--" are left alone.
func takePolicyFlags(args []string) (rest []string, taken []flagValue, err error) {
	if len(args) == 0 || args[0] != "run" && args[0] != "explain" {
		return args, nil, nil
	}
	flags := map[string]policyFlag{}
	for _, f := range policyFlags() {
		flags[f.name] = f
	}
	rest = append(rest, args[0])
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, text, hasText := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		f, ok := flags[name]
		if !strings.HasPrefix(a, "--") || !ok {
			rest = append(rest, a)
			continue
		}
		switch {
		case hasText:
		case f.boolean:
			text = "true"
		case i+1 < len(args):
			i++
			text = args[i]
		default:
			return nil, nil, fmt.Errorf("--%s needs a value", name)
		}
		taken = append(taken, flagValue{name, text})
	}
	return rest, taken, nil
}

// policyFlagHelp is the run command's text on the policy flags.
func policyFlagHelp() string {
	var b strings.Builder
	b.WriteString("Policy options: flags declared by the policies (each for the policies named); --set NAME=VALUE sets any option of the chosen policy (its options: 'schedlab policies').\n")
	for _, f := range policyFlags() {
		arg := ""
		if !f.boolean {
			arg = "=" + f.arg
		}
		fmt.Fprintf(&b, "\n  --%s%s  (%s)\n%s", f.name, arg, strings.Join(f.policies, ", "), wrap(f.help, "      ", 78))
	}
	return b.String()
}

// policyOptions collects the chosen policy's option texts from the
// command line: the policy flags given (each one the policy must
// declare) and every --set NAME=VALUE.
func (c *runCmd) policyOptions(qp registry.Entry, flags []flagValue) (map[string]string, error) {
	return policyOptions(c.Policy, c.Set, qp, flags)
}

// policyOptions collects the option texts of policy qp (named pol on the
// command line) from its flags and --set NAME=VALUE entries.
func policyOptions(pol string, sets []string, qp registry.Entry, flags []flagValue) (map[string]string, error) {
	given := map[string]string{}
	for _, fv := range flags {
		found := false
		for _, o := range qp.Options() {
			if o.Flag != fv.name {
				continue
			}
			found = true
			if o.FromFlag == nil {
				given[o.Name] = fv.text
				break
			}
			set, err := o.FromFlag(fv.text)
			if err != nil {
				return nil, fmt.Errorf("--%s: %w", fv.name, err)
			}
			maps.Copy(given, set)
		}
		if !found {
			var by []string
			for _, f := range policyFlags() {
				if f.name == fv.name {
					by = f.policies
				}
			}
			return nil, fmt.Errorf("--%s is not an option of --policy %s (only of --policy %s)", fv.name, pol, orList(by))
		}
	}
	for _, kv := range sets {
		name, text, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--set %q: want NAME=VALUE (the policy's options: 'schedlab policies')", kv)
		}
		if _, ok := qp.Option(name); !ok {
			var names []string
			for _, o := range qp.Options() {
				names = append(names, o.Name)
			}
			known := "it has none"
			if len(names) > 0 {
				known = "its options: " + strings.Join(names, ", ")
			}
			return nil, fmt.Errorf("--set %s: not an option of --policy %s (%s)", name, pol, known)
		}
		given[name] = text
	}
	// An option read only with another option's values (option.Decl.On)
	// is refused elsewhere, as scenario files refuse it.
	for _, o := range qp.Options() {
		if _, ok := given[o.Name]; !ok || o.On == "" {
			continue
		}
		on, ok := qp.Option(o.On)
		if !ok {
			continue
		}
		v, set := given[on.Name]
		if !set {
			v = on.Default
		}
		if !slices.Contains(o.When, strings.TrimSpace(v)) {
			return nil, fmt.Errorf("option %s: read only with %s %s, not %s", o.Name, on.Name, strings.Join(o.When, " or "), v)
		}
	}
	return given, nil
}

// policyVariant writes the policy options set away from their defaults,
// for the default output folder name ("-order=sjf", and "-NAME" for a boolean option set true),
// in the policy's order of its options; an option given through a flag
// that sets several (--window fixed:8) is written as the flag was.
func policyVariant(qp registry.Entry, given map[string]string, flags []flagValue) string {
	var b strings.Builder
	done := map[string]bool{}
	for _, o := range qp.Options() {
		text, ok := given[o.Name]
		if !ok || done[o.Name] {
			continue
		}
		if v, err := o.Parse(text); err == nil {
			if d, err := o.Parse(o.Default); err == nil && d.Text == v.Text {
				continue
			}
		}
		if o.FromFlag != nil {
			for _, fv := range flags {
				if fv.name == o.Flag {
					set, _ := o.FromFlag(fv.text)
					for n := range set {
						done[n] = true
					}
					fmt.Fprintf(&b, "-%s=%s", o.Flag, fv.text)
				}
			}
			if done[o.Name] {
				continue
			}
		}
		name := strings.ReplaceAll(o.Name, "_", "-")
		if o.Type == registry.TypeBool && text == "true" {
			fmt.Fprintf(&b, "-%s", name)
			continue
		}
		if o.Type == registry.TypeText {
			text = pathSafe(text)
		}
		fmt.Fprintf(&b, "-%s=%s", name, strings.ReplaceAll(text, ",", "_"))
	}
	return b.String()
}

// pathSafe makes a free-text option value (an external policy's command
// line, with spaces and slashes) fit in a folder name: characters other
// than letters, digits and . + - _ become _, and the text is cut to 40
// bytes.
func pathSafe(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '+' || c == '-' || c == '_' || c == ',') {
			b[i] = '_'
		}
	}
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}

// wrap breaks text into lines of at most width columns, each starting
// with indent.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	b.WriteString(line)
	return b.String()
}

// canonicalTracePolicy is the registered name of a trace run's policy
// given in another case (--policy EASY is easy; registry.CanonicalName),
// a queue policy of the cluster model first, then of the hetero model;
// name as given otherwise (then the lookup's error says what is known).
func canonicalTracePolicy(name string) string {
	if n := registry.CanonicalName(registry.ModelCluster, registry.KindQueue, name); n != name {
		return n
	}
	return registry.CanonicalName(registry.ModelHetero, registry.KindQueue, name)
}
