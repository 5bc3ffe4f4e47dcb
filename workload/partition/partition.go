package partition

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/avail"
)

// MaxPartitions bounds the partitions of a run (each has a policy of
// its own, and each start looks its job's partition up).
const MaxPartitions = 256

// Spec is one partition as written.
type Spec struct {
	Name string
	// CPUs are the partition's CPUs on a pool of CPUs; nil for a
	// partition of nodes.
	CPUs platform.Runs
	// Nodes are the names of a partition of nodes ("NAME:nodes=HOSTLIST",
	// docs/nodes.md), sorted (nodes.Sort) and distinct; nil on a pool of
	// CPUs. Which of them are on the platform is the run's to check.
	Nodes   []string
	MaxTime float64 // 0: none
	MaxCPUs int     // 0: none
	// Users, Accounts and QOS allowed (nil: any); SWF fields 12, 13, 15.
	Users, Accounts, QOS []int32
	Default              bool
	// Tier is Slurm's PriorityTier (Tiered: given, "tier=N"; partitions
	// of nodes only): the partitions of a run that gives tiers pass by
	// tier, highest first, and those of one tier in the order of their
	// oldest waiting job (docs/nodes.md, "Overlapping partitions").
	Tier   int
	Tiered bool
}

// MaxTier bounds tier= (Slurm's PriorityTier is 16 bits).
const MaxTier = math.MaxUint16

// Syntax is the form of a partition text, for messages.
const Syntax = "NAME:CPUS[:maxtime=S][:maxcpus=N][:users=U,...][:accounts=G,...][:qos=Q,...][:default]"

// NodeSyntax is the form of a partition text on a platform of nodes.
const NodeSyntax = "NAME:nodes=HOSTLIST[:maxtime=S][:maxcpus=N][:users=U,...][:accounts=G,...][:qos=Q,...][:tier=N][:default]"

// Parse reads a partition text for a machine of procs CPUs, or, when
// its second field is "nodes=HOSTLIST", a partition of nodes (Spec.Nodes;
// procs is then not used). Its errors say what is wrong but not which
// text (the caller names it: a flag or a scenario key).
func Parse(s string, procs int) (Spec, error) {
	bad := func(format string, a ...any) (Spec, error) {
		return Spec{}, fmt.Errorf(format, a...)
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 {
		return bad("want %s", Syntax)
	}
	d := Spec{Name: strings.TrimSpace(parts[0])}
	if d.Name == "" || strings.ContainsAny(d.Name, " \t,=") {
		return bad("NAME %q: want a partition number or a name without spaces, commas or '='", parts[0])
	}
	c := strings.TrimSpace(parts[1])
	if hl, ok := strings.CutPrefix(c, "nodes="); ok {
		var err error
		if d.Nodes, err = parseNodes(hl); err != nil {
			return bad("nodes: %v", err)
		}
	} else if n, err := strconv.Atoi(c); err == nil {
		if n < 1 || n > procs {
			return bad("CPUS: a count of %d, want 1..%d (the machine's CPUs)", n, procs)
		}
		d.CPUs = platform.Runs{0, int32(n - 1)}
	} else {
		var err error
		if d.CPUs, err = avail.ParseCPUs(c, procs); err != nil {
			return bad("CPUS: %v", err)
		}
	}
	seen := map[string]bool{}
	for _, f := range parts[2:] {
		key, val, hasVal := strings.Cut(strings.TrimSpace(f), "=")
		if seen[key] {
			return bad("%s given twice", key)
		}
		seen[key] = true
		if key == "default" {
			if hasVal {
				return bad("default takes no value")
			}
			d.Default = true
			continue
		}
		if !hasVal {
			return bad("limit %q: want KEY=VALUE (maxtime, maxcpus, users, accounts, qos, tier) or default", f)
		}
		switch key {
		case "maxtime":
			x, err := strconv.ParseFloat(val, 64)
			if err != nil || !(x > 0) || math.IsInf(x, 0) {
				return bad("maxtime %q: want a positive number of seconds", val)
			}
			d.MaxTime = x
		case "maxcpus":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return bad("maxcpus %q: want a positive integer", val)
			}
			d.MaxCPUs = n
		case "tier":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n > MaxTier {
				return bad("tier %q: want 0..%d (Slurm's PriorityTier)", val, MaxTier)
			}
			if d.Nodes == nil {
				return bad("tier: for partitions of nodes only (NAME:nodes=HOSTLIST:tier=N); on a pool of CPUs give the partitions from the highest tier down")
			}
			d.Tier, d.Tiered = n, true
		case "users", "accounts", "qos":
			var ids []int32
			for _, t := range strings.Split(val, ",") {
				n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 32)
				if err != nil || n < 0 {
					return bad("%s: %q is not a number >= 0 (the trace's %s numbers)", key, t, map[string]string{"users": "user", "accounts": "group", "qos": "queue"}[key])
				}
				ids = append(ids, int32(n))
			}
			slices.Sort(ids)
			switch key {
			case "users":
				d.Users = ids
			case "accounts":
				d.Accounts = ids
			default:
				d.QOS = ids
			}
		default:
			return bad("unknown limit %q (want maxtime, maxcpus, users, accounts, qos, tier or default)", key)
		}
	}
	return d, nil
}

// Canonical writes s in one form (CPUs as ids, limits in a fixed
// order, id lists sorted), so that two texts of the same partition read
// the same; it is what a result key hashes.
func (s Spec) Canonical() string {
	var b strings.Builder
	if s.Nodes != nil {
		hl, _ := nodes.Compress(s.Nodes) // Parse checked the names
		b.WriteString(s.Name + ":nodes=" + hl)
	} else {
		b.WriteString(s.Name + ":" + s.CPUs.String())
	}
	if s.MaxTime > 0 {
		b.WriteString(":maxtime=" + strconv.FormatFloat(s.MaxTime, 'g', -1, 64))
	}
	if s.MaxCPUs > 0 {
		b.WriteString(":maxcpus=" + strconv.Itoa(s.MaxCPUs))
	}
	for _, l := range []struct {
		key string
		ids []int32
	}{{"users", s.Users}, {"accounts", s.Accounts}, {"qos", s.QOS}} {
		if l.ids == nil {
			continue
		}
		ts := make([]string, len(l.ids))
		for i, id := range l.ids {
			ts[i] = strconv.Itoa(int(id))
		}
		b.WriteString(":" + l.key + "=" + strings.Join(ts, ","))
	}
	if s.Tiered {
		b.WriteString(":tier=" + strconv.Itoa(s.Tier))
	}
	if s.Default {
		b.WriteString(":default")
	}
	return b.String()
}

// Check checks a set of partitions: at most MaxPartitions, no name given
// twice, at most one default. Partitions may share CPUs (overlapping
// partitions, docs/partitions.md). It returns the index of the first
// one at fault (-1: none) and why.
func Check(specs []Spec) (int, error) {
	if len(specs) > MaxPartitions {
		return MaxPartitions, fmt.Errorf("%d partitions: at most %d (partition.MaxPartitions)", len(specs), MaxPartitions)
	}
	def := -1
	for i, s := range specs {
		for _, o := range specs[:i] {
			if o.Name == s.Name {
				return i, fmt.Errorf("partition %s is given twice", s.Name)
			}
		}
		if s.Default {
			if def >= 0 {
				return i, fmt.Errorf("partitions %s and %s are both the default", specs[def].Name, s.Name)
			}
			def = i
		}
	}
	return -1, nil
}
