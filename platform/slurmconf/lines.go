package slurmconf

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
)

// merged is a line's pairs over the DEFAULT pairs before it: by lower
// key, the line's own winning.
func merged(defaults map[string]kv, kvs []kv) map[string]kv {
	m := make(map[string]kv, len(defaults)+len(kvs))
	for k, v := range defaults {
		m[k] = v
	}
	for _, k := range kvs[1:] {
		m[strings.ToLower(k.key)] = k
	}
	return m
}

// The NodeName keys read, and those without effect on scheduling.
var (
	nodeRead     = []string{"cpus", "procs", "sockets", "corespersocket", "threadspercore", "realmemory", "gres", "feature", "features", "weight", "state"}
	nodeNoEffect = []string{"nodeaddr", "nodehostname", "port", "reason", "tmpdisk", "bcastaddr", "cpubind"}
)

// classify warns of the keys of a NodeName or PartitionName line that
// are not read (read: the keys the package reads; noEffect: those
// without effect on scheduling) and, for a DEFAULT line, keeps its pairs
// in defaults and reports true.
func (p *parser) classify(kvs []kv, read, noEffect []string, defaults map[string]kv) bool {
	for _, k := range kvs[1:] {
		lk := strings.ToLower(k.key)
		switch {
		case slices.Contains(read, lk):
		case slices.Contains(noEffect, lk):
			p.warn(k, "no effect on scheduling (ignored)")
		default:
			p.warn(k, "not modelled")
		}
	}
	if !strings.EqualFold(kvs[0].value, "DEFAULT") {
		return false
	}
	for _, k := range kvs[1:] {
		defaults[strings.ToLower(k.key)] = k
	}
	return true
}

func (p *parser) nodeLine(kvs []kv) error {
	head := kvs[0]
	if p.classify(kvs, nodeRead, nodeNoEffect, p.nodeDefault) {
		return nil
	}
	names, err := nodes.Expand(head.value)
	if err != nil {
		return p.errf(head, "%v", err)
	}
	m := merged(p.nodeDefault, kvs)
	g := nodes.NodeGroup{Names: names, Sockets: 1, ThreadsPerCore: 1, Weight: 1}
	num := func(key string, lo, hi int64) (int64, bool, error) {
		k, ok := m[key]
		if !ok {
			return 0, false, nil
		}
		v, err := strconv.ParseInt(k.value, 10, 64)
		if err != nil || v < lo || v > hi {
			return 0, true, p.errf(k, "%q: want a whole number %d..%d", k.value, lo, hi)
		}
		return v, true, nil
	}
	cpus, hasCPUs, err := num("cpus", 1, nodes.MaxCPUsPerNode)
	if err != nil {
		return err
	}
	if !hasCPUs {
		if cpus, hasCPUs, err = num("procs", 1, nodes.MaxCPUsPerNode); err != nil {
			return err
		}
	}
	sockets, hasS, err := num("sockets", 1, nodes.MaxCPUsPerNode)
	if err != nil {
		return err
	}
	cores, hasC, err := num("corespersocket", 1, nodes.MaxCPUsPerNode)
	if err != nil {
		return err
	}
	threads, hasT, err := num("threadspercore", 1, nodes.MaxCPUsPerNode)
	if err != nil {
		return err
	}
	switch {
	case !hasS && !hasC && !hasT:
		// Only CPUs (or nothing: Slurm's default of 1): one socket of
		// CPUs cores.
		g.CoresPerSocket = int(max(cpus, 1))
	default:
		g.Sockets, g.CoresPerSocket, g.ThreadsPerCore = int(max(sockets, 1)), int(max(cores, 1)), int(max(threads, 1))
		if hasCPUs {
			if prod := int64(g.Sockets * g.CoresPerSocket * g.ThreadsPerCore); cpus != prod {
				p.warn(m["cpus"], fmt.Sprintf("CPUs=%d differs from Sockets x CoresPerSocket x ThreadsPerCore = %d: the node has %d CPUs here", cpus, prod, prod))
			}
		}
	}
	if g.Sockets*g.CoresPerSocket*g.ThreadsPerCore > nodes.MaxCPUsPerNode {
		return p.errf(head, "%d CPUs a node, more than %d (nodes.MaxCPUsPerNode)", g.Sockets*g.CoresPerSocket*g.ThreadsPerCore, nodes.MaxCPUsPerNode)
	}
	if v, ok, err := num("realmemory", 0, nodes.MaxMemMB); err != nil {
		return err
	} else if ok {
		g.MemMB = v
	}
	if v, ok, err := num("weight", 0, math.MaxUint32); err != nil {
		return err
	} else if ok {
		g.Weight = uint32(v)
	}
	if k, ok := m["gres"]; ok {
		if g.GRES, err = parseGres(k.value); err != nil {
			return p.errf(k, "%v", err)
		}
	}
	for _, key := range []string{"feature", "features"} {
		if k, ok := m[key]; ok {
			fs := splitList(k.value)
			slices.Sort(fs)
			g.Features = slices.Compact(fs)
		}
	}
	if k, ok := m["state"]; ok {
		switch strings.ToUpper(k.value) {
		case "UNKNOWN", "IDLE", "CLOUD":
		default:
			p.warn(k, fmt.Sprintf("State=%s is not modelled: the nodes are up", k.value))
		}
	}
	p.cfg.Groups = append(p.cfg.Groups, g)
	p.nodeLines = append(p.nodeLines, head)
	return nil
}

// parseGres reads a Gres value: NAME[:TYPE][:COUNT] entries separated
// by commas, COUNT with an optional K, M or G (x1024...), a
// parenthesised socket binding and the no_consume flag ignored.
func parseGres(s string) ([]nodes.GRES, error) {
	var out []nodes.GRES
	for _, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		if i := strings.IndexByte(e, '('); i >= 0 {
			e = e[:i]
		}
		if e == "" {
			continue
		}
		var parts []string
		for _, x := range strings.Split(e, ":") {
			if !strings.EqualFold(x, "no_consume") {
				parts = append(parts, x)
			}
		}
		g := nodes.GRES{Name: parts[0], Count: 1}
		rest := parts[1:]
		if n := len(rest); n > 0 {
			if c, ok := gresCount(rest[n-1]); ok {
				g.Count = c
				rest = rest[:n-1]
			} else if countLike.MatchString(rest[n-1]) {
				return nil, fmt.Errorf("%q: count %s out of range 1..%d", e, rest[n-1], nodes.MaxGRESPerNode)
			}
		}
		switch len(rest) {
		case 0:
		case 1:
			g.Type = rest[0]
		default:
			return nil, fmt.Errorf("%q: want NAME[:TYPE][:COUNT]", e)
		}
		if g.Name == "" || g.Count < 1 || g.Count > nodes.MaxGRESPerNode {
			return nil, fmt.Errorf("%q: want a name and a count 1..%d", e, nodes.MaxGRESPerNode)
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b nodes.GRES) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Type, b.Type)
	})
	// One kind in several entries (one per socket binding, as in
	// gpu:v100:2(S:0),gpu:v100:2(S:1)) is their sum.
	var sum []nodes.GRES
	for _, g := range out {
		if n := len(sum); n > 0 && sum[n-1].Kind() == g.Kind() {
			if sum[n-1].Count += g.Count; sum[n-1].Count > nodes.MaxGRESPerNode {
				return nil, fmt.Errorf("%s: %d units, more than %d", g.Kind(), sum[n-1].Count, nodes.MaxGRESPerNode)
			}
			continue
		}
		sum = append(sum, g)
	}
	return sum, nil
}

// countLike is a GRES count's form (digits and an optional K, M or G),
// as opposed to a type such as a100 or 1g.5gb.
var countLike = regexp.MustCompile(`^[0-9]+[kKmMgG]?$`)

func gresCount(s string) (int, bool) {
	mult := int64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult, s = 1<<10, s[:n-1]
		case 'm', 'M':
			mult, s = 1<<20, s[:n-1]
		case 'g', 'G':
			mult, s = 1<<30, s[:n-1]
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > math.MaxInt32/mult {
		return 0, false
	}
	return int(v * mult), true
}

// The PartitionName keys read, and those without effect on scheduling.
var (
	partRead = []string{"nodes", "maxtime", "defaulttime", "maxnodes", "minnodes", "prioritytier", "priorityjobfactor", "priority",
		"allowaccounts", "allowgroups", "allowqos", "oversubscribe", "shared", "preemptmode", "default", "state", "tresbillingweights", "qos"}
	partNoEffect = []string{"hidden", "allocnodes", "rootonly", "disablerootjobs", "alternate"}
)

func (p *parser) partLine(kvs []kv) error {
	head := kvs[0]
	if p.classify(kvs, partRead, partNoEffect, p.partDefault) {
		return nil
	}
	if len(p.cfg.Partitions) == MaxPartitions {
		return p.errf(head, "more than %d partitions (MaxPartitions)", MaxPartitions)
	}
	for _, q := range p.cfg.Partitions {
		if q.Name == head.value {
			return p.errf(head, "partition %s is defined twice (first at %s:%d)", q.Name, q.File, q.Line)
		}
	}
	m := merged(p.partDefault, kvs)
	pt := Partition{Name: head.value, File: head.file, Line: head.line, MaxTime: math.Inf(1), DefaultTime: -1, OverSubscribe: "NO", State: "UP"}
	if err := p.partValues(&pt, m); err != nil {
		return err
	}
	p.cfg.Partitions = append(p.cfg.Partitions, pt)
	p.partLines = append(p.partLines, []kv{m["nodes"]})
	return nil
}

func (p *parser) partValues(pt *Partition, m map[string]kv) error {
	var err error
	dur := func(key string, dst *float64) {
		if k, ok := m[key]; ok && err == nil {
			var v float64
			if v, err = Duration(k.value); err != nil {
				err = p.errf(k, "%v", err)
			}
			*dst = v
		}
	}
	whole := func(key string, dst *int, lo, hi int64) {
		if k, ok := m[key]; ok && err == nil {
			if strings.EqualFold(k.value, "UNLIMITED") && key == "maxnodes" {
				*dst = 0
				return
			}
			v, e := strconv.ParseInt(k.value, 10, 64)
			if e != nil || v < lo || v > hi {
				err = p.errf(k, "%q: want a whole number %d..%d", k.value, lo, hi)
				return
			}
			*dst = int(v)
		}
	}
	dur("maxtime", &pt.MaxTime)
	dur("defaulttime", &pt.DefaultTime)
	whole("maxnodes", &pt.MaxNodes, 0, nodes.MaxNodes)
	whole("minnodes", &pt.MinNodes, 0, nodes.MaxNodes)
	whole("priority", &pt.PriorityTier, 0, math.MaxUint16)
	pt.PriorityJobFactor = pt.PriorityTier
	whole("prioritytier", &pt.PriorityTier, 0, math.MaxUint16)
	whole("priorityjobfactor", &pt.PriorityJobFactor, 0, math.MaxUint16)
	if err != nil {
		return err
	}
	list := func(key string) []string {
		if k, ok := m[key]; ok && !strings.EqualFold(k.value, "ALL") {
			return splitList(k.value)
		}
		return nil
	}
	pt.AllowAccounts, pt.AllowGroups, pt.AllowQos = list("allowaccounts"), list("allowgroups"), list("allowqos")
	for _, key := range []string{"shared", "oversubscribe"} {
		if k, ok := m[key]; ok {
			mode, cnt, has := strings.Cut(strings.ToUpper(k.value), ":")
			switch mode {
			case "NO", "YES", "FORCE", "EXCLUSIVE":
			default:
				return p.errf(k, "%q: want NO, YES[:N], FORCE[:N] or EXCLUSIVE", k.value)
			}
			pt.OverSubscribe, pt.OverSubscribeCount = mode, 0
			if has {
				v, e := strconv.Atoi(cnt)
				if e != nil || v < 1 || v > math.MaxUint16 {
					return p.errf(k, "%q: the count after ':' must be 1..%d", k.value, math.MaxUint16)
				}
				pt.OverSubscribeCount = v
			}
		}
	}
	if k, ok := m["preemptmode"]; ok {
		pt.PreemptMode = strings.ToUpper(k.value)
	}
	if k, ok := m["default"]; ok {
		switch strings.ToUpper(k.value) {
		case "YES":
			pt.Default = true
		case "NO":
		default:
			return p.errf(k, "%q: want YES or NO", k.value)
		}
	}
	if k, ok := m["state"]; ok {
		switch v := strings.ToUpper(k.value); v {
		case "UP", "DOWN", "DRAIN", "INACTIVE":
			pt.State = v
		default:
			return p.errf(k, "%q: want UP, DOWN, DRAIN or INACTIVE", k.value)
		}
	}
	if k, ok := m["tresbillingweights"]; ok {
		ps, e := p.params(k)
		if e != nil {
			return e
		}
		for _, q := range ps {
			if _, e := strconv.ParseFloat(strings.TrimRight(q.Value, "KMGTP"), 64); q.Flag || e != nil {
				return p.errf(k, "%q: want TRES=WEIGHT entries", q.Key)
			}
		}
		pt.TRESBillingWeights = ps
	}
	if k, ok := m["qos"]; ok {
		pt.QOS = k.value
	}
	return nil
}

// finish builds the platform and resolves the partitions' nodes.
func (p *parser) finish() error {
	c := p.cfg
	if len(c.Groups) == 0 {
		return errors.New("slurm.conf: no NodeName line: a platform needs nodes")
	}
	seen := map[string]int{}
	for g, grp := range c.Groups {
		for _, n := range grp.Names {
			if first, dup := seen[n]; dup {
				k := p.nodeLines[g]
				if first == g {
					return p.errf(k, "node %s is named twice", n)
				}
				return p.errf(k, "node %s is also on %s:%d", n, p.nodeLines[first].file, p.nodeLines[first].line)
			}
			seen[n] = g
		}
	}
	ns, err := nodes.New(c.Groups)
	if err != nil {
		var g int
		if _, e := fmt.Sscanf(err.Error(), "nodes: group %d", &g); e == nil && g >= 0 && g < len(p.nodeLines) {
			return p.errf(p.nodeLines[g], "%s", strings.TrimPrefix(err.Error(), fmt.Sprintf("nodes: group %d: ", g)))
		}
		return fmt.Errorf("slurm.conf: %v", err)
	}
	c.Nodes = ns
	for g, grp := range c.Groups {
		for _, r := range grp.GRES {
			if !slices.Contains(c.GresTypes, r.Name) {
				p.warn(kv{key: "Gres", file: p.nodeLines[g].file, line: p.nodeLines[g].line},
					fmt.Sprintf("GRES %s is not in GresTypes (%s): Slurm refuses such a node; schedlab keeps it", r.Name, strings.Join(c.GresTypes, ",")))
			}
		}
	}
	defaults := 0
	for i := range c.Partitions {
		pt := &c.Partitions[i]
		k := p.partLines[i][0]
		if pt.Default {
			if defaults++; defaults > 1 {
				p.warn(kv{key: "Default", file: pt.File, line: pt.Line}, "a second Default=YES partition: the last one is the default, as in Slurm")
			}
		}
		if k.key == "" {
			p.warn(kv{key: "Nodes", file: pt.File, line: pt.Line}, "the partition has no Nodes: it holds no node")
			continue
		}
		if strings.EqualFold(k.value, "ALL") {
			for id := 0; id < ns.Len(); id++ {
				pt.Nodes = append(pt.Nodes, ns.Name(id))
			}
			continue
		}
		names, err := nodes.Expand(k.value)
		if err != nil {
			return p.errf(k, "%v", err)
		}
		ids := make([]int, 0, len(names))
		for _, n := range names {
			id, ok := ns.Lookup(n)
			if !ok {
				return p.errf(k, "node %s is on no NodeName line", n)
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range slices.Compact(ids) {
			pt.Nodes = append(pt.Nodes, ns.Name(id))
		}
	}
	return nil
}
