package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// partitionCountOverlaps warns of --partition texts given as counts that
// share CPUs: a count N means the CPUs 0..N-1, so batch:96 and debug:32
// overlap on CPUs 0-31 (overlapping partitions are allowed and
// documented, but two counts read as side by side by mistake are
// common). "" when no two counts are given.
func partitionCountOverlaps(texts []string) string {
	type counted struct {
		name string
		n    int
	}
	var cs []counted
	for _, t := range texts {
		parts := strings.Split(t, ":")
		if len(parts) < 2 {
			continue
		}
		if n, err := strconv.Atoi(strings.TrimSpace(parts[1])); err == nil && n > 0 {
			cs = append(cs, counted{strings.TrimSpace(parts[0]), n})
		}
	}
	if len(cs) < 2 {
		return ""
	}
	var pairs []string
	for i := 1; i < len(cs); i++ {
		for _, o := range cs[:i] {
			pairs = append(pairs, fmt.Sprintf("%s and %s share CPUs 0-%d", o.name, cs[i].name, min(o.n, cs[i].n)-1))
		}
	}
	return fmt.Sprintf("warning: partitions given as CPU counts overlap (a count N is the CPUs 0..N-1): %s; give CPU ids (e.g. %s:%d-%d) for partitions side by side (docs/partitions.md)",
		strings.Join(pairs, "; "), cs[1].name, cs[0].n, cs[0].n+cs[1].n-1)
}
