package enum

import (
	"fmt"
	"slices"
	"strings"
)

// Parse finds text among names and returns the value at the same index
// of vals. what names the thing parsed in the error ("queue order"):
// `unknown queue order "lifo" (known: fcfs, sjf)`.
func Parse[T any](what, text string, names []string, vals []T) (T, error) {
	if i := slices.Index(names, text); i >= 0 && i < len(vals) {
		return vals[i], nil
	}
	var zero T
	return zero, fmt.Errorf("unknown %s %q (known: %s)", what, text, strings.Join(names, ", "))
}

// ParseNamed returns the value of vals whose String is text.
func ParseNamed[T fmt.Stringer](what, text string, vals ...T) (T, error) {
	return Parse(what, text, Names(vals...), vals)
}

// Names are the values' names (String), in order.
func Names[T fmt.Stringer](vals ...T) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = v.String()
	}
	return out
}
