package registry

import (
	"fmt"
	"strings"
)

// UnknownNameError is a name the registry does not know: a model, or a
// policy of some kind. Classify it with errors.As, never by its text.
type UnknownNameError struct {
	Kind  string   // what the name was to name: "model", "policy", "grid scheduler", ...
	Name  string   // the name given
	Known []string // the names that exist, in documentation order
}

func (e *UnknownNameError) Error() string {
	return fmt.Sprintf("unknown %s %q (known: %s)", e.Kind, e.Name, strings.Join(e.Known, ", "))
}

// NotImplementedError is a model the registry lists (so that its scenario
// files are checked) but that nothing simulates yet.
type NotImplementedError struct {
	Model string
}

func (e *NotImplementedError) Error() string {
	return fmt.Sprintf("model %q is not implemented in scenario files yet (its files are checked; schedlab reproduce klusacek2008 runs its policies)", e.Model)
}
