package cli

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/slurmconf"
)

// slurmNodeParts turns a slurm.conf's partitions into partitions on its
// nodes (--slurm-conf FILE --slurm-nodes; docs/nodes.md, "Partitions on
// nodes"): each PartitionName line a "NAME:nodes=HOSTLIST" text with
// its MaxTime, AllowAccounts and AllowQos (when they are numbers: a
// trace's accounts and QOS are), Default and PriorityTier (tier=N).
// Partitions may share nodes (overlapping partitions, docs/nodes.md), as
// in Slurm: each is kept, listed by PriorityTier (highest first) and,
// within a tier, in the file's order (slurmconf.Config.ByTier); at an
// instant they pass by tier, and those of one tier in the order of their
// oldest waiting job (engine.NodePartition.Tier). notes say that order when it is not the file's,
// and what is left out: a partition without nodes, and per partition
// the keys not modelled.
func slurmNodeParts(cfg *slurmconf.Config) (texts, notes []string) {
	parts, order := cfg.ByTier()
	if order != "" {
		notes = append(notes, order)
	}
	for _, pt := range parts {
		at := fmt.Sprintf("partition %s (%s:%d)", pt.Name, pt.File, pt.Line)
		if len(pt.Nodes) == 0 {
			notes = append(notes, at+" has no nodes: left out")
			continue
		}
		hl, err := nodes.Compress(pt.Nodes)
		if err != nil { // not reached: the reader checked every name
			notes = append(notes, fmt.Sprintf("%s: %v: left out", at, err))
			continue
		}
		text := pt.Name + ":nodes=" + hl
		opts, left := pt.Options()
		texts = append(texts, text+opts+fmt.Sprintf(":tier=%d", pt.PriorityTier))
		if len(left) > 0 {
			notes = append(notes, fmt.Sprintf("%s: not on nodes: %s", at, strings.Join(left, ", ")))
		}
	}
	return texts, notes
}
