package registry

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/policy/option"
)

// UnknownNameError is a name the registry does not know: a model, or a
// policy of some kind. Classify it with errors.As, never by its text.
type UnknownNameError struct {
	Kind  string   // what the name was to name: "model", "policy", "grid scheduler", ...
	Name  string   // the name given
	Known []string // the names that exist, in documentation order
	// Hint, when not empty, says what the name is instead (a value of
	// an option: sjf is an order, not a policy).
	Hint string
}

func (e *UnknownNameError) Error() string {
	hint := ""
	if s := Suggest(e.Name, e.Known); s != "" {
		hint = "; did you mean " + s + "?"
	} else if e.Hint != "" {
		hint = "; " + e.Hint
	}
	return fmt.Sprintf("unknown %s %q (known: %s%s)", e.Kind, e.Name, strings.Join(e.Known, ", "), hint)
}

// Suggest is the known name closest to name, for a "did you mean"
// (option.Suggest: the one equal to it but for case, else the one
// within two edits if exactly one is); "" when none is.
func Suggest(name string, known []string) string { return option.Suggest(name, known) }

// NotImplementedError is a model the registry lists (so that its scenario
// files are checked) but that nothing simulates yet.
type NotImplementedError struct {
	Model string
}

func (e *NotImplementedError) Error() string {
	return fmt.Sprintf("model %q is not implemented in scenario files yet (its files are checked; schedlab reproduce klusacek2008 runs its policies)", e.Model)
}
