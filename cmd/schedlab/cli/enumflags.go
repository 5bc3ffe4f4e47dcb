package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/schedlab/schedlab/policy/option"
)

// foldEnumFlags reads, before the parser, the values of the flags of a
// fixed set of values (kong's enum: --estimate, --on-overrun, trace
// import's --from, ...) of the command args names. A value given in
// another case is replaced by the declared one (--estimate Request is
// --estimate request: every output as with request); a misspelt value
// with exactly one declared value within two edits is refused with a
// "did you mean" (option.Suggest). Anything else is left to the parser
// (its own message on a value of none). Only the values of flags are
// read: positional arguments and what follows "--" are not.
func foldEnumFlags(app *kong.Application, args []string) ([]string, error) {
	node := app.Node
	i := 0
	// The command: the leading words that name subcommands.
	for ; i < len(args); i++ {
		var child *kong.Node
		for _, c := range node.Children {
			if c.Type == kong.CommandNode && (c.Name == args[i] || slices.Contains(c.Aliases, args[i])) {
				child = c
			}
		}
		if child == nil {
			break
		}
		node = child
	}
	enums := map[string]*kong.Flag{}
	for _, group := range node.AllFlags(false) {
		for _, f := range group {
			if f.Enum != "" && !f.IsBool() && !f.IsSlice() {
				enums[f.Name] = f
			}
		}
	}
	if len(enums) == 0 {
		return args, nil
	}
	var out []string
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, text, hasText := strings.Cut(a[2:], "=")
		f, ok := enums[name]
		if !ok {
			continue
		}
		at := i
		if !hasText {
			if i+1 >= len(args) {
				break // the parser says the value is missing
			}
			at, text = i+1, args[i+1]
			i++
		}
		values := f.EnumSlice()
		if slices.Contains(values, text) {
			continue
		}
		s := option.Suggest(text, values)
		switch {
		case s == "":
			continue
		case strings.EqualFold(s, text):
			if out == nil {
				out = slices.Clone(args)
			}
			if hasText {
				out[at] = "--" + name + "=" + s
			} else {
				out[at] = s
			}
		default:
			// the empty value (a flag's "none", as --metrics-by's) is
			// not one to type: listed as its flag's absence
			shown := slices.DeleteFunc(slices.Clone(values), func(v string) bool { return v == "" })
			none := ""
			if len(shown) < len(values) {
				none = " (or none: leave the flag out)"
			}
			return nil, fmt.Errorf("--%s: %q is not one of %s%s; did you mean %s?", name, text, strings.Join(shown, ", "), none, s)
		}
	}
	if out == nil {
		return args, nil
	}
	return out, nil
}
