package engine_test

import (
	"fmt"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/option"
)

// queuePolicy builds package backfill's cluster policy called name for
// one machine of procs CPUs with its options' defaults, from its
// declaration, as the registry builds it.
func queuePolicy(name string, procs int) (policy.QueueScheduler, error) {
	for _, d := range backfill.Declarations() {
		if d.Model != policy.ModelCluster || d.Name != name {
			continue
		}
		v, err := option.Check(d.Options, nil)
		if err != nil {
			return nil, err
		}
		p, err := platform.Cluster(procs)
		if err != nil {
			return nil, err
		}
		b, err := d.New(policy.Env{Platform: p}, v)
		return b.Queue, err
	}
	return nil, fmt.Errorf("no cluster policy %q in package backfill", name)
}
