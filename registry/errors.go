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

// Suggest is the known name closest to name, for a "did you mean": the
// one equal to it but for case, else the one within two edits (a letter
// added, dropped or changed) if exactly one is; "" when none is.
func Suggest(name string, known []string) string {
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return k
		}
	}
	var best []string
	for _, k := range known {
		if editDistance(strings.ToLower(name), k, 3) <= 2 {
			best = append(best, k)
		}
	}
	if len(best) == 1 {
		return best[0]
	}
	return ""
}

// editDistance is the Levenshtein distance of a and b, or limit when it
// is limit or more (names are short; the rows stay small).
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}

// NotImplementedError is a model the registry lists (so that its scenario
// files are checked) but that nothing simulates yet.
type NotImplementedError struct {
	Model string
}

func (e *NotImplementedError) Error() string {
	return fmt.Sprintf("model %q is not implemented in scenario files yet (its files are checked; schedlab reproduce klusacek2008 runs its policies)", e.Model)
}
