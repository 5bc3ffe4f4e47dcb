package cli

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/platform/slurmconf"
)

// readSlurmConf sets the machine size and the partitions from
// --slurm-conf, on the pool of CPUs, and says on stderr what the pool
// leaves out; with --slurm-nodes, the nodes, and for --policy slurm
// the policy's options (into given, under those given on the command
// line).
func (c *runCmd) readSlurmConf(g *globals, given map[string]string) error {
	if c.SlurmConf == "" {
		if c.SlurmNodes {
			return usageError{errors.New("--slurm-nodes takes the nodes of --slurm-conf FILE: give the file")}
		}
		return nil
	}
	if c.SlurmNodes {
		return c.readSlurmNodes(g, given)
	}
	if len(c.Partition) > 0 || c.Procs != 0 {
		return usageError{errors.New("--slurm-conf gives the machine size and the partitions: leave out --partition and --procs")}
	}
	cfg, err := slurmconf.ReadFile(c.SlurmConf)
	if err != nil {
		return err
	}
	pool := cfg.CPUPool()
	c.Procs, c.Partition = pool.Procs, pool.Partitions
	for _, n := range pool.Notes {
		fmt.Fprintf(g.stderr, "schedlab: %s: %s\n", c.SlurmConf, n)
	}
	if n := len(cfg.Warnings); n > 0 {
		fmt.Fprintf(g.stderr, "schedlab: %s: %d key(s) not modelled or without effect on scheduling ('schedlab slurm-conf %s' lists them)\n", c.SlurmConf, n, c.SlurmConf)
	}
	return nil
}

// readSlurmNodes sets the platform of nodes from --slurm-conf's NodeName
// lines (--slurm-nodes) and its partitions from the PartitionName lines
// (slurmNodeParts), and says on stderr what it leaves out: what
// slurmNodeParts notes and the keys not modelled. For --policy slurm it
// adds to given the options the file's SchedulerType,
// SchedulerParameters and Priority* keys say (slurmconf.SlurmPolicy),
// those given on the command line first: an --order given leaves the
// file's priority settings out.
func (c *runCmd) readSlurmNodes(g *globals, given map[string]string) error {
	if len(c.Partition) > 0 || c.Procs != 0 || len(c.Nodes) > 0 {
		return usageError{errors.New("--slurm-conf with --slurm-nodes gives the nodes: leave out --nodes, --partition and --procs")}
	}
	cfg, err := slurmconf.ReadFile(c.SlurmConf)
	if err != nil {
		return err
	}
	if len(cfg.Groups) == 0 {
		return usageError{fmt.Errorf("--slurm-nodes: %s has no NodeName line", c.SlurmConf)}
	}
	for _, grp := range cfg.Groups {
		spec, ok := grp.Spec()
		if !ok {
			return fmt.Errorf("--slurm-nodes: %s: a NodeName line without nodes", c.SlurmConf)
		}
		c.Nodes = append(c.Nodes, spec)
	}
	texts, notes := slurmNodeParts(cfg)
	c.Partition = texts
	for _, n := range notes {
		fmt.Fprintf(g.stderr, "schedlab: %s: %s\n", c.SlurmConf, n)
	}
	if c.Policy == "slurm" && given != nil {
		sp := cfg.SlurmPolicy()
		_, ownOrder := given["order"]
		var names []string
		for k := range sp.Options {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if _, set := given[k]; set || ownOrder && (k == "order" || strings.HasPrefix(k, "priority_")) {
				continue
			}
			given[k] = sp.Options[k]
		}
		for _, n := range sp.Notes {
			fmt.Fprintf(g.stderr, "schedlab: %s: policy slurm: %s\n", c.SlurmConf, n)
		}
	}
	if n := len(cfg.Warnings); n > 0 {
		fmt.Fprintf(g.stderr, "schedlab: %s: %d key(s) not modelled or without effect on scheduling ('schedlab slurm-conf %s' lists them)\n", c.SlurmConf, n, c.SlurmConf)
	}
	return nil
}
