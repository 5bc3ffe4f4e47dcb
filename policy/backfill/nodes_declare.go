package backfill

import (
	"fmt"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy/option"
)

// nodePolicyFor builds the node version of the cluster policy name
// (fcfs, firstfit, easy, conservative, backfill) with the checked
// option values v (mf: the multifactor settings with order
// multifactor). A policy without a node version is an error saying so.
func nodePolicyFor(name string, ns *nodes.Nodes, v option.Values, mf *Multifactor) (*NodePolicy, error) {
	c := NodeConfig{Name: name, Nodes: ns, Order: orderOf(v), MF: mf}
	switch name {
	case "fcfs":
		c.Strict = true
	case "firstfit":
	case "easy":
		c.Depth = 1
	case "conservative":
		c.Depth = Unlimited
	case "backfill":
		d := v.Int("depth")
		if d == 0 {
			d = Unlimited
		}
		c.Depth = d
		c.Name = fmt.Sprintf("backfill-%s", depthName(d))
	default:
		return nil, fmt.Errorf("policy %s does not run on a platform of nodes yet", name)
	}
	return NewNodePolicy(c)
}
