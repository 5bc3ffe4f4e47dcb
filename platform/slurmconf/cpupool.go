package slurmconf

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// CPUPool is a configuration read onto a pool of CPUs (a simplification
// until runs simulate nodes, docs/slurm.md): the nodes, in the
// platform's order, own consecutive CPU ids (node n the CPUs after node
// n-1's); each partition is the CPUs of its nodes, as a partition text of
// 'run --partition' (NAME:CPUS[:maxtime=S][:accounts=..][:qos=..]
// [:default]).
type CPUPool struct {
	Procs      int
	Partitions []string
	// Notes say what of the configuration the pool leaves out: whole
	// nodes, memory and GRES, and every partition setting --partition has
	// no form for (PriorityJobFactor, MaxNodes, AllowGroups,
	// OverSubscribe, DefaultTime, a State other than UP, ...); and the
	// order of the partitions when PriorityTier changes it (ByTier).
	Notes []string
}

// CPUPool maps c onto a pool of CPUs.
func (c *Config) CPUPool() CPUPool {
	ns := c.Nodes
	first := make([]int, ns.Len()+1)
	for id := 0; id < ns.Len(); id++ {
		first[id+1] = first[id] + ns.Node(id).CPUs()
	}
	p := CPUPool{Procs: first[ns.Len()]}
	p.Notes = append(p.Notes, fmt.Sprintf("%d nodes become CPUs 0-%d, node after node in the file's order; jobs share CPUs, not nodes: whole-node allocation, memory and GRES are not simulated", ns.Len(), p.Procs-1))
	parts, order := c.ByTier()
	if order != "" {
		p.Notes = append(p.Notes, order)
	}
	for _, pt := range parts {
		var runs []string
		for i := 0; i < len(pt.Nodes); {
			id, _ := ns.Lookup(pt.Nodes[i])
			lo, hi := first[id], first[id+1]-1
			j := i + 1
			for ; j < len(pt.Nodes); j++ {
				next, _ := ns.Lookup(pt.Nodes[j])
				if first[next] != hi+1 {
					break
				}
				hi = first[next+1] - 1
			}
			if lo == hi {
				runs = append(runs, strconv.Itoa(lo))
			} else {
				runs = append(runs, fmt.Sprintf("%d-%d", lo, hi))
			}
			i = j
		}
		if len(runs) == 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("partition %s has no nodes: left out", pt.Name))
			continue
		}
		text := pt.Name + ":" + strings.Join(runs, ",")
		opts, left := pt.Options()
		p.Partitions = append(p.Partitions, text+opts)
		if len(left) > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("partition %s (%s:%d): not on the pool of CPUs: %s", pt.Name, pt.File, pt.Line, strings.Join(left, ", ")))
		}
	}
	return p
}

// Numbers reports whether every id of an Allow list is a number (a
// trace's accounts and QOS are numbers: SWF fields 13 and 15), so that
// a partition can refuse the jobs of the others; a list of names is
// left out, and said.
func Numbers(ids []string) bool {
	for _, s := range ids {
		if n, err := strconv.ParseInt(s, 10, 32); err != nil || n < 0 {
			return false
		}
	}
	return true
}

// Options is what a partition text (--partition) takes of pt after its
// CPUs or nodes: ":maxtime=S" (a limit other than UNLIMITED and 0),
// ":accounts=" and ":qos=" (Allow lists of numbers: a trace's accounts
// and QOS are numbers) and ":default"; left are the keys it does not
// take, in the form a note says them.
func (pt Partition) Options() (opts string, left []string) {
	switch {
	case pt.MaxTime == 0:
		left = append(left, "MaxTime=0")
	case !math.IsInf(pt.MaxTime, 1):
		opts += ":maxtime=" + strconv.FormatFloat(pt.MaxTime, 'f', -1, 64)
	}
	for _, a := range []struct {
		key, slurm string
		ids        []string
	}{{"accounts", "AllowAccounts", pt.AllowAccounts}, {"qos", "AllowQos", pt.AllowQos}} {
		if a.ids == nil {
			continue
		}
		if Numbers(a.ids) {
			opts += ":" + a.key + "=" + strings.Join(a.ids, ",")
		} else {
			left = append(left, a.slurm+"="+strings.Join(a.ids, ",")+" (names; a trace's are numbers)")
		}
	}
	if pt.Default {
		opts += ":default"
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
	return opts, left
}

// ByTier is c's partitions in the order their schedulers serve them:
// PriorityTier highest first, partitions of one tier in the file's order
// (a stable sort). Slurm sorts its one job queue by the partition's
// PriorityTier, then by the job's priority, submission time and id
// (job_scheduler.c, sort_job_queue2), so every job of a higher tier
// comes before any of a lower one; within a tier it interleaves the
// partitions' jobs, which a run, passing partition after partition,
// does not (docs/slurm.md). note says the order when it is not the
// file's ("" otherwise).
func (c *Config) ByTier() (ps []Partition, note string) {
	ps = slices.Clone(c.Partitions)
	slices.SortStableFunc(ps, func(a, b Partition) int { return cmp.Compare(b.PriorityTier, a.PriorityTier) })
	for i := range ps {
		if ps[i].Name != c.Partitions[i].Name {
			var names []string
			for _, p := range ps {
				names = append(names, fmt.Sprintf("%s (PriorityTier=%d)", p.Name, p.PriorityTier))
			}
			return ps, "partitions served by PriorityTier, highest first, not in the file's order: " + strings.Join(names, ", ")
		}
	}
	return ps, ""
}
