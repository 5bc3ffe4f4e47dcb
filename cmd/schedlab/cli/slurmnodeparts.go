package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/slurmconf"
)

// slurmNodeParts turns a slurm.conf's partitions into partitions on its
// nodes (--slurm-conf FILE --slurm-nodes; docs/nodes.md, "Partitions on
// nodes"): each PartitionName line a "NAME:nodes=HOSTLIST" text with
// its MaxTime, AllowAccounts and AllowQos (when they are numbers: a
// trace's accounts and QOS are) and Default. notes say what is left
// out: a partition without nodes, one that shares a node with a
// partition before it in the file (overlapping partitions on nodes are
// not built yet; its jobs are then refused as of no partition), and per
// partition the keys not modelled.
func slurmNodeParts(cfg *slurmconf.Config) (texts, notes []string) {
	holder := map[string]string{} // node -> the partition kept with it
	for _, pt := range cfg.Partitions {
		at := fmt.Sprintf("partition %s (%s:%d)", pt.Name, pt.File, pt.Line)
		if len(pt.Nodes) == 0 {
			notes = append(notes, at+" has no nodes: left out")
			continue
		}
		shared := ""
		for _, n := range pt.Nodes {
			if o, ok := holder[n]; ok {
				shared = fmt.Sprintf("%s shares node %s with partition %s: left out (overlapping partitions on a platform of nodes are not built yet; its jobs are refused as of no partition)", at, n, o)
				break
			}
		}
		if shared != "" {
			notes = append(notes, shared)
			continue
		}
		for _, n := range pt.Nodes {
			holder[n] = pt.Name
		}
		hl, err := nodes.Compress(pt.Nodes)
		if err != nil { // not reached: the reader checked every name
			notes = append(notes, fmt.Sprintf("%s: %v: left out", at, err))
			continue
		}
		text := pt.Name + ":nodes=" + hl
		var left []string
		switch {
		case pt.MaxTime == 0:
			left = append(left, "MaxTime=0")
		case !math.IsInf(pt.MaxTime, 1):
			text += ":maxtime=" + strconv.FormatFloat(pt.MaxTime, 'f', -1, 64)
		}
		for _, a := range []struct {
			key, slurm string
			ids        []string
		}{{"accounts", "AllowAccounts", pt.AllowAccounts}, {"qos", "AllowQos", pt.AllowQos}} {
			if a.ids == nil {
				continue
			}
			if slurmconf.Numbers(a.ids) {
				text += ":" + a.key + "=" + strings.Join(a.ids, ",")
			} else {
				left = append(left, a.slurm+"="+strings.Join(a.ids, ",")+" (names; a trace's are numbers)")
			}
		}
		if pt.Default {
			text += ":default"
		}
		texts = append(texts, text)
		if pt.PriorityTier != 0 {
			left = append(left, fmt.Sprintf("PriorityTier=%d", pt.PriorityTier))
		}
		if pt.PriorityJobFactor != 0 {
			left = append(left, fmt.Sprintf("PriorityJobFactor=%d", pt.PriorityJobFactor))
		}
		if pt.MaxNodes > 0 {
			left = append(left, fmt.Sprintf("MaxNodes=%d", pt.MaxNodes))
		}
		if pt.MinNodes > 0 {
			left = append(left, fmt.Sprintf("MinNodes=%d", pt.MinNodes))
		}
		if pt.AllowGroups != nil {
			left = append(left, "AllowGroups="+strings.Join(pt.AllowGroups, ","))
		}
		if pt.OverSubscribe != "NO" {
			left = append(left, "OverSubscribe="+pt.OverSubscribe)
		}
		if pt.DefaultTime >= 0 {
			left = append(left, "DefaultTime")
		}
		if pt.State != "UP" {
			left = append(left, "State="+pt.State)
		}
		if pt.PreemptMode != "" {
			left = append(left, "PreemptMode="+pt.PreemptMode)
		}
		if pt.TRESBillingWeights != nil {
			left = append(left, "TRESBillingWeights")
		}
		if pt.QOS != "" {
			left = append(left, "QOS="+pt.QOS)
		}
		if len(left) > 0 {
			notes = append(notes, fmt.Sprintf("%s: not on nodes: %s", at, strings.Join(left, ", ")))
		}
	}
	return texts, notes
}
