package cli

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform/slurmconf"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
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

// readSlurmFiles reads --slurm-conf (readSlurmConf) and --slurm-qos
// (readSlurmQOS) into the machine and given, the options from the
// command line, which win; preempt/qos from --slurm-conf without a QOS
// that preempts another is left out (slurmPreemptFixup).
func (c *runCmd) readSlurmFiles(g *globals, given map[string]string) error {
	user := map[string]bool{}
	for k := range given {
		user[k] = true
	}
	if err := c.readSlurmConf(g, given); err != nil {
		return err
	}
	if err := c.readSlurmQOS(g, given); err != nil {
		return err
	}
	c.slurmPreemptFixup(g, given, user)
	return nil
}

// slurmClock sets the slurm policy's unix_start_time (where the command
// line did not) to the trace's UnixStartTime, so that bf_resolution and
// the will-run test's windows fall on the clock's marks as in Slurm. It
// is not part of a run's default folder name.
func (c *runCmd) slurmClock(given map[string]string) {
	if c.Policy != "slurm" || given == nil || c.Trace == "" {
		return
	}
	if _, set := given["unix_start_time"]; set {
		return
	}
	rd, err := workload.OpenTrace(c.Trace)
	if err != nil {
		return // the run itself says what is wrong with the trace
	}
	h := rd.Header()
	rd.Close()
	if h.UnixStartTime > 0 && h.UnixStartTime <= 1<<40 { // the option's bound (backfill.SlurmMaxOrigin)
		given["unix_start_time"] = strconv.FormatInt(h.UnixStartTime, 10)
	}
}

// readSlurmQOS adds to given (under the options given on the command
// line or by --slurm-conf) the slurm policy's qos_limits and, under
// priority/multifactor, qos_priority from --slurm-qos FILE, QOS names
// matched to the trace's numbers by its header's Queue lines, and says
// on stderr what it leaves out.
func (c *runCmd) readSlurmQOS(g *globals, given map[string]string) error {
	if c.SlurmQOS == "" {
		return nil
	}
	if c.Policy != "slurm" || given == nil {
		return usageError{fmt.Errorf("--slurm-qos sets the QOS limits of the slurm policy: give --policy slurm (not %s)", c.Policy)}
	}
	f, err := os.Open(c.SlurmQOS)
	if err != nil {
		return fmt.Errorf("--slurm-qos: %w", err)
	}
	defer f.Close()
	qs, err := slurmconf.ReadQOS(f, c.SlurmQOS)
	if err != nil {
		return err
	}
	var h swf.Header
	if c.Trace != "" {
		if rd, err := workload.OpenTrace(c.Trace); err == nil {
			h = rd.Header()
			rd.Close()
		}
	}
	number := func(name string) (int32, bool) {
		if n, err := strconv.ParseInt(name, 10, 32); err == nil && n >= 0 {
			return int32(n), true
		}
		for _, nn := range h.QueueNames {
			if nn.Name == name && nn.Number >= 0 && nn.Number <= math.MaxInt32 {
				return int32(nn.Number), true
			}
		}
		return 0, false
	}
	p := slurmconf.QOSPolicy(qs, number)
	for _, k := range []string{"qos_limits", "qos_priority", "qos_preempt"} {
		v, ok := p.Options[k]
		if _, set := given[k]; !ok || set || k == "qos_priority" && given["order"] != "multifactor" {
			continue
		}
		given[k] = v
	}
	if _, ok := p.Options["qos_priority"]; ok && given["order"] != "multifactor" {
		p.Notes = append(p.Notes, "Priority: the QOS priorities count under priority/multifactor only (--order multifactor, or PriorityType=priority/multifactor in --slurm-conf): left out")
	}
	if _, ok := p.Options["qos_preempt"]; ok && given["preempt_type"] != "qos" {
		p.Notes = append(p.Notes, "Preempt: the QOS preempt others under PreemptType=preempt/qos only (--set preempt_type=qos with preempt_mode, or in --slurm-conf): left out")
		delete(given, "qos_preempt")
	}
	for _, n := range p.Notes {
		fmt.Fprintf(g.stderr, "schedlab: %s: %s\n", c.SlurmQOS, n)
	}
	return nil
}

// slurmPreemptFixup leaves out preempt/qos that came from --slurm-conf
// when no QOS preempts another (no --slurm-qos with a Preempt column),
// saying so, rather than refusing the run.
func (c *runCmd) slurmPreemptFixup(g *globals, given map[string]string, user map[string]bool) {
	if given["preempt_type"] != "qos" || given["qos_preempt"] != "" || user["preempt_type"] {
		return
	}
	delete(given, "preempt_type")
	if !user["preempt_mode"] {
		delete(given, "preempt_mode")
	}
	fmt.Fprintf(g.stderr, "schedlab: %s: policy slurm: PreemptType=preempt/qos, but no QOS preempts another (give --slurm-qos FILE with sacctmgr's Preempt column): no preemption\n", c.SlurmConf)
}
