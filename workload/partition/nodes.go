package partition

import (
	"fmt"

	"github.com/schedlab/schedlab/platform/nodes"
)

// parseNodes reads the HOSTLIST of "NAME:nodes=HOSTLIST": Slurm's
// hostlist syntax (nodes.Expand), at least one name, none twice. The
// names come back sorted (nodes.Sort). The count is bounded by
// nodes.MaxNames before any name is made.
func parseNodes(hl string) ([]string, error) {
	if hl == "" {
		return nil, fmt.Errorf("an empty set of nodes: want a hostlist such as gpu[01-04]")
	}
	names, err := nodes.Expand(hl)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", hl, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%q names no node", hl)
	}
	sorted, err := nodes.Sort(names)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", hl, err)
	}
	if len(sorted) < len(names) { // Sort dropped a duplicate: name it
		seen := make(map[string]bool, len(names))
		for _, n := range names {
			if seen[n] {
				return nil, fmt.Errorf("%q: node %s is given twice", hl, n)
			}
			seen[n] = true
		}
	}
	return sorted, nil
}
