package validate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// NodeCap is one node of a node platform as CheckNodes sees it: written
// from docs/nodes.md, independent of package platform/nodes.
type NodeCap struct {
	Name           string
	Cores          int
	ThreadsPerCore int   // 1 when 0
	MemMB          int64 // 0: memory not modelled on the node
	// GRES is the node's units per kind, "name" or "name:type".
	GRES     map[string]int
	Features []string
}

// NodeUse is what one job holds on one node: core and GRES unit numbers
// counted within the node (0..Cores-1, 0..count-1 per kind).
type NodeUse struct {
	Node  int // index into the caps
	Tasks int
	Cores []int
	MemMB int64
	GRES  map[string][]int
}

// NodeRec is one job's request and what it held over [Start, Finish).
type NodeRec struct {
	ID            int64
	Start, Finish float64
	// The request (docs/nodes.md): Nodes..MaxNodes nodes (0, 0: any;
	// MaxNodes 0: exactly Nodes), Tasks x CPUsPerTask CPUs, memory per
	// node or per CPU, GRES per node and per job by kind ("gpu" takes any
	// type of gpu), a constraint of features with & | and parentheses,
	// exclusive.
	Nodes, MaxNodes, Tasks, CPUsPerTask int
	MemPerNodeMB, MemPerCPUMB           int64
	GRESPerNode, GRESPerJob             map[string]int
	Constraint                          string
	Exclusive                           bool
	Uses                                []NodeUse
	// Allowed, when not nil, are the nodes (indices into the caps) the
	// job may hold: its partition's (docs/nodes.md, "Partitions on
	// nodes").
	Allowed []int
}

// CheckNodes verifies node allocations: each record's allocation
// matches its request (node count, tasks, whole cores per task, memory,
// GRES per node and per job, every node satisfying the constraint,
// exclusive jobs holding every core), and at every instant no core or
// GRES unit is held twice, no node's memory is over-committed and no job
// shares a node with an exclusive one. Jobs hold their resources over
// [Start, Finish); zero-length jobs hold nothing. It returns every
// problem found, joined, naming the job, the node and the resource.
func CheckNodes(caps []NodeCap, recs []NodeRec) error {
	var probs []string
	for i := range recs {
		probs = append(probs, checkRequest(caps, &recs[i])...)
		probs = append(probs, checkAllowed(caps, &recs[i])...)
	}
	probs = append(probs, checkOverlaps(caps, recs)...)
	if len(probs) == 0 {
		return nil
	}
	return fmt.Errorf("node check: %d problem(s):\n  %s", len(probs), strings.Join(probs, "\n  "))
}

func threads(c NodeCap) int { return max(c.ThreadsPerCore, 1) }

// kindMatches reports whether a unit kind ("name" or "name:type")
// serves a requested kind.
func kindMatches(unit, want string) bool {
	if unit == want {
		return true
	}
	name, _, typed := strings.Cut(unit, ":")
	return !strings.Contains(want, ":") && typed && name == want
}

func checkRequest(caps []NodeCap, r *NodeRec) []string {
	var p []string
	bad := func(format string, args ...any) {
		p = append(p, fmt.Sprintf("job %d: ", r.ID)+fmt.Sprintf(format, args...))
	}
	minN, maxN := max(r.Nodes, 1), r.MaxNodes
	if maxN == 0 && r.Nodes > 0 {
		maxN = r.Nodes
	}
	if len(r.Uses) < minN || (maxN > 0 && len(r.Uses) > maxN) {
		bad("holds %d node(s), the request allows %d..%d", len(r.Uses), minN, maxN)
	}
	tasks, seen, perJob := 0, map[int]bool{}, map[string]int{}
	for _, u := range r.Uses {
		if u.Node < 0 || u.Node >= len(caps) {
			bad("node index %d outside the platform's %d nodes", u.Node, len(caps))
			continue
		}
		c := caps[u.Node]
		if seen[u.Node] {
			bad("node %s listed twice", c.Name)
		}
		seen[u.Node] = true
		tasks += u.Tasks
		if u.Tasks < 1 {
			bad("node %s holds no task", c.Name)
		}
		perTask := (r.CPUsPerTask + threads(c) - 1) / threads(c)
		if want := u.Tasks * perTask; (!r.Exclusive && len(u.Cores) != want) || (r.Exclusive && len(u.Cores) != c.Cores) {
			bad("node %s: %d cores for %d task(s) of %d CPUs (exclusive %v)", c.Name, len(u.Cores), u.Tasks, r.CPUsPerTask, r.Exclusive)
		}
		for _, core := range u.Cores {
			if core < 0 || core >= c.Cores {
				bad("node %s: core %d outside 0..%d", c.Name, core, c.Cores-1)
			}
		}
		if c.MemMB > 0 {
			var want int64
			switch {
			case r.Exclusive:
				want = -1 // all the node's memory free when it started: checked by the sweep
			case r.MemPerNodeMB > 0:
				want = r.MemPerNodeMB
			case r.MemPerCPUMB > 0:
				want = r.MemPerCPUMB * int64(len(u.Cores)*threads(c))
			}
			if want >= 0 && u.MemMB != want {
				bad("node %s: holds %d MB, the request needs %d", c.Name, u.MemMB, want)
			}
		}
		for kind, n := range r.GRESPerNode {
			if got := unitsOf(u, kind); got < n {
				bad("node %s: %d unit(s) of %s, the request needs %d per node", c.Name, got, kind, n)
			}
		}
		for kind := range r.GRESPerJob {
			perJob[kind] += unitsOf(u, kind)
		}
		for kind, units := range u.GRES {
			for _, x := range units {
				if x < 0 || x >= c.GRES[kind] {
					bad("node %s: %s unit %d outside its %d", c.Name, kind, x, c.GRES[kind])
				}
			}
		}
		if r.Constraint != "" {
			ok, err := evalFeatures(r.Constraint, c.Features)
			if err != nil {
				bad("constraint %q: %v", r.Constraint, err)
			} else if !ok {
				bad("node %s (features %s) does not satisfy %q", c.Name, strings.Join(c.Features, ","), r.Constraint)
			}
		}
	}
	if tasks != r.Tasks {
		bad("%d task(s) placed, %d asked", tasks, r.Tasks)
	}
	for kind, n := range r.GRESPerJob {
		if got := perJob[kind] - perNodeShare(r, kind); got < n {
			bad("%d unit(s) of %s beyond its per-node GRES, %d asked per job", got, kind, n)
		}
	}
	return p
}

// unitsOf counts the units u holds that serve kind.
func unitsOf(u NodeUse, kind string) int {
	n := 0
	for k, units := range u.GRES {
		if kindMatches(k, kind) {
			n += len(units)
		}
	}
	return n
}

// perNodeShare is the units of kind the per-node GRES of r take on all
// its nodes together (a per-job count comes on top of them).
func perNodeShare(r *NodeRec, kind string) int {
	n := 0
	for k, c := range r.GRESPerNode {
		if kindMatches(k, kind) || kindMatches(kind, k) {
			n += c * len(r.Uses)
		}
	}
	return n
}

type nodeEvent struct {
	t     float64
	start bool
	rec   int
}

// checkOverlaps sweeps time: finishes before starts at equal times.
func checkOverlaps(caps []NodeCap, recs []NodeRec) []string {
	var evs []nodeEvent
	for i, r := range recs {
		if r.Finish > r.Start {
			evs = append(evs, nodeEvent{r.Start, true, i}, nodeEvent{r.Finish, false, i})
		}
	}
	slices.SortStableFunc(evs, func(a, b nodeEvent) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		if a.start != b.start {
			if a.start {
				return 1
			}
			return -1
		}
		return 0
	})
	type holder map[string]int64 // "core 3" / "gpu:a100 1" -> job
	held := make([]holder, len(caps))
	mem := make([]int64, len(caps))
	jobs := make([]int, len(caps))
	whole := make([]int64, len(caps)) // the exclusive job on the node, or -1
	for i := range held {
		held[i], whole[i] = holder{}, -1
	}
	var p []string
	for _, e := range evs {
		r := &recs[e.rec]
		for _, u := range r.Uses {
			if u.Node < 0 || u.Node >= len(caps) {
				continue
			}
			n, c := u.Node, caps[u.Node]
			keys := make([]string, 0, len(u.Cores))
			for _, core := range u.Cores {
				keys = append(keys, fmt.Sprintf("core %d", core))
			}
			for kind, units := range u.GRES {
				for _, x := range units {
					keys = append(keys, fmt.Sprintf("%s %d", kind, x))
				}
			}
			if !e.start {
				for _, k := range keys {
					if held[n][k] == r.ID {
						delete(held[n], k)
					}
				}
				mem[n] -= u.MemMB
				jobs[n]--
				if whole[n] == r.ID {
					whole[n] = -1
				}
				continue
			}
			if whole[n] >= 0 || (r.Exclusive && jobs[n] > 0) {
				p = append(p, fmt.Sprintf("job %d: starts at %g on node %s beside another job, one of them exclusive", r.ID, e.t, c.Name))
			}
			for _, k := range keys {
				if other, ok := held[n][k]; ok {
					p = append(p, fmt.Sprintf("job %d: starts at %g on node %s %s, held by job %d", r.ID, e.t, c.Name, k, other))
				}
				held[n][k] = r.ID
			}
			if mem[n] += u.MemMB; c.MemMB > 0 && mem[n] > c.MemMB {
				p = append(p, fmt.Sprintf("job %d: starts at %g on node %s: %d MB held of its %d", r.ID, e.t, c.Name, mem[n], c.MemMB))
			}
			if r.Exclusive && c.MemMB > 0 && u.MemMB != c.MemMB {
				p = append(p, fmt.Sprintf("job %d: exclusive on node %s with %d MB of its %d", r.ID, c.Name, u.MemMB, c.MemMB))
			}
			jobs[n]++
			if r.Exclusive {
				whole[n] = r.ID
			}
		}
	}
	return p
}

// evalFeatures evaluates a constraint (features, '&', '|', parentheses;
// '&' binds tighter) against a node's features.
func evalFeatures(expr string, features []string) (bool, error) {
	toks := tokenizeConstraint(expr)
	pos := 0
	var or func() (bool, error)
	atom := func() (bool, error) {
		if pos >= len(toks) {
			return false, fmt.Errorf("ends early")
		}
		t := toks[pos]
		pos++
		if t == "(" {
			v, err := or()
			if err != nil {
				return false, err
			}
			if pos >= len(toks) || toks[pos] != ")" {
				return false, fmt.Errorf("a '(' is not closed")
			}
			pos++
			return v, nil
		}
		if t == ")" || t == "&" || t == "|" {
			return false, fmt.Errorf("unexpected %q", t)
		}
		return slices.Contains(features, t), nil
	}
	and := func() (bool, error) {
		v, err := atom()
		for err == nil && pos < len(toks) && toks[pos] == "&" {
			pos++
			var w bool
			w, err = atom()
			v = v && w
		}
		return v, err
	}
	or = func() (bool, error) {
		v, err := and()
		for err == nil && pos < len(toks) && toks[pos] == "|" {
			pos++
			var w bool
			w, err = and()
			v = v || w
		}
		return v, err
	}
	v, err := or()
	if err == nil && pos != len(toks) {
		err = fmt.Errorf("unexpected %q", toks[pos])
	}
	return v, err
}

func tokenizeConstraint(s string) []string {
	var out []string
	word := strings.Builder{}
	flush := func() {
		if word.Len() > 0 {
			out = append(out, word.String())
			word.Reset()
		}
	}
	for _, r := range s {
		switch r {
		case '&', '|', '(', ')':
			flush()
			out = append(out, string(r))
		case ' ':
			flush()
		default:
			word.WriteRune(r)
		}
	}
	flush()
	return out
}
