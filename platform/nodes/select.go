package nodes

import (
	"cmp"
	"math/bits"
	"slices"
)

// NodeFree is what is free on one node, as counts: cores, memory (MB;
// 0 where memory is not modelled), units of each GRES kind (one entry a
// kind, in Nodes.Kinds order), whether some job holds part of the node
// and whether an exclusive job holds it whole.
type NodeFree struct {
	Cores int
	MemMB int64
	Units []int
	Jobs  bool
	Whole bool
}

// FreeSource gives the free amounts of each node: FreeOn fills f for
// node n (f.Units has one entry a kind of the platform). A State is one
// (what is free now), a Free another, and a Profile's view of an
// interval a third (what is free over the whole interval): the selection
// rule (Select) reads nothing else, so that one implementation serves
// "now" and "over an interval".
type FreeSource interface {
	FreeOn(n int, f *NodeFree)
}

// Free is a FreeSource of plain per-node counts (Units: node n's kind k
// at n*len(kinds)+k).
type Free struct {
	Cores []int
	MemMB []int64
	Units []int
	Jobs  []bool
	Whole []bool
}

// FreeOn implements FreeSource.
func (f *Free) FreeOn(n int, x *NodeFree) {
	x.Cores, x.MemMB, x.Jobs, x.Whole = f.Cores[n], f.MemMB[n], f.Jobs[n], f.Whole[n]
	k := len(x.Units)
	copy(x.Units, f.Units[n*k:n*k+k])
}

// Selector applies the selection rule of State.Alloc (docs/nodes.md,
// rules 1-4) to the free counts of a FreeSource. It keeps per-node
// facts of the platform and scratch space, so that a selection
// allocates nothing once its buffers have grown; one Selector serves
// one goroutine.
type Selector struct {
	ns      *Nodes
	K       int     // GRES kinds of the platform
	order   []int32 // node ids by (weight, id)
	threads []int32
	cores   []int32
	first   []int32 // first core id
	mem     []int64
	group   []int32
	units   []int   // per node x kind: the node's units
	total   int     // cores of the platform
	pos     []int32 // per node: its position in order
	ths     []int32 // the distinct threads per core of the nodes

	nf    NodeFree
	saved []int   // per pick x kind: the node's free units when picked
	savC  []int   // per pick: free cores when picked
	savM  []int64 // per pick: free memory when picked
	perJ  []int   // per pick x GRES per job: units taken
	local []int   // per kind: scratch

	rule SelectRule
	fit  []int32 // ConsTRES: per node, the tasks it holds (0: none)
	runs []run   // ConsTRES: the sets of consecutive candidates
}

// SelectRule is the order in which Select takes nodes.
type SelectRule uint8

const (
	// FirstFit is docs/nodes.md's rule: candidates by (weight, id), each
	// taken as it comes.
	FirstFit SelectRule = iota
	// ConsTRES is the rule of Slurm's select/cons_tres without a
	// topology (docs/nodes.md, "Slurm's node selection"): the
	// candidates fall into runs of consecutive node ids of one weight;
	// the run taken first is of the lowest weight, then the first that
	// holds the rest of the job, then the tightest that does (fewest
	// tasks), else the largest; within it a job needing one more node
	// takes the node that holds the rest most tightly, else nodes in id
	// order, each as many tasks as it holds; then the next run.
	ConsTRES
)

// String is the rule's name as the slurm policy's select_rule option
// writes it.
func (r SelectRule) String() string {
	if r == ConsTRES {
		return "cons_tres"
	}
	return "first_fit"
}

// run is a set of consecutive candidates (ConsTRES): node ids a..z, the
// tasks they hold in all, how many are candidates, their weight.
type run struct {
	a, z, tasks, nodes int
	weight             uint32
}

// SetRule makes Select follow rule r (FirstFit when never set).
func (s *Selector) SetRule(r SelectRule) { s.rule = r }

// Rule is the selector's rule.
func (s *Selector) Rule() SelectRule { return s.rule }

// NewSelector returns the selector of ns (which must not change).
func NewSelector(ns *Nodes) *Selector {
	n := ns.Len()
	s := &Selector{ns: ns, K: len(ns.kinds), order: make([]int32, n), threads: make([]int32, n), cores: make([]int32, n), first: make([]int32, n),
		mem: make([]int64, n), group: make([]int32, n), units: make([]int, n*len(ns.kinds)), pos: make([]int32, n)}
	for id := 0; id < n; id++ {
		nd := ns.Node(id)
		s.order[id] = int32(id)
		s.threads[id] = int32(nd.ThreadsPerCore)
		s.cores[id] = int32(nd.Cores())
		s.first[id] = int32(nd.FirstCore)
		s.mem[id] = nd.MemMB
		s.group[id] = int32(nd.Group)
		for k, kind := range ns.kinds {
			s.units[id*s.K+k] = nd.GRESCount(kind)
		}
		s.total += nd.Cores()
	}
	slices.SortStableFunc(s.order, func(a, b int32) int { return cmp.Compare(ns.Node(int(a)).Weight, ns.Node(int(b)).Weight) })
	for i, id := range s.order {
		s.pos[id] = int32(i)
		if !slices.Contains(s.ths, s.threads[id]) {
			s.ths = append(s.ths, s.threads[id])
		}
	}
	s.nf.Units = make([]int, s.K)
	s.local = make([]int, s.K)
	return s
}

// Nodes is the selector's platform.
func (s *Selector) Nodes() *Nodes { return s.ns }

// Capacity fills f with node n's amounts when nothing is held.
func (s *Selector) Capacity(n int, f *NodeFree) {
	f.Cores, f.MemMB, f.Jobs, f.Whole = int(s.cores[n]), s.mem[n], false, false
	copy(f.Units, s.units[n*s.K:n*s.K+s.K])
}

// Prepared is a request made ready for selections on one platform: its
// constraint evaluated per node group, its GRES resolved to kinds.
type Prepared struct {
	R          Request
	minN, maxN int
	groupOK    []bool  // per group; nil: no constraint
	pnKinds    [][]int // per GRES per node: the kinds it takes, in order
	pjKinds    [][]int // per GRES per job
	pjPerNode  []int   // per GRES per job: what the GRES per node take of its kind
	// MinCores is a lower bound of the cores any selection of the
	// request holds (tasks x the fewest cores a task takes on a node of
	// the platform; exclusive requests hold more).
	MinCores int
	// coresOnly: the request asks only for tasks of one core on every
	// node of the platform (no node counts, constraint, memory, GRES or
	// exclusivity): the rule then places it exactly when the nodes
	// have MinCores cores free in all.
	coresOnly bool
}

// CoresOnly reports whether the request asks only for tasks of one core
// on every node of the platform (no node counts, constraint, memory,
// GRES or exclusivity): it then fits over an interval exactly when the
// nodes have MinCores cores free in all there, so that one that fails
// fails for no fewer cores and no shorter interval too.
func (p *Prepared) CoresOnly() bool { return p.coresOnly }

// Prepare readies r (which must pass Check) for selections; it fails
// only when r's constraint does not parse.
func (s *Selector) Prepare(r Request) (*Prepared, error) {
	p := &Prepared{}
	return p, s.PrepareInto(r, p)
}

// PrepareInto is Prepare into p, reusing its storage.
func (s *Selector) PrepareInto(r Request, p *Prepared) error {
	*p = Prepared{R: r, pnKinds: p.pnKinds[:0], pjKinds: p.pjKinds[:0], pjPerNode: p.pjPerNode[:0]}
	p.minN, p.maxN = max(r.Nodes, 1), r.MaxNodes
	if p.maxN == 0 && r.Nodes > 0 {
		p.maxN = r.Nodes
	}
	if r.Constraint != "" {
		c, err := ParseConstraint(r.Constraint)
		if err != nil {
			return err
		}
		p.groupOK = make([]bool, len(s.ns.groups))
		for g, x := range s.ns.groups {
			p.groupOK[g] = c.Eval(x.Features)
		}
	}
	for _, g := range r.GRESPerNode {
		p.pnKinds = append(p.pnKinds, s.kindsOf(g))
	}
	for _, g := range r.GRESPerJob {
		p.pjKinds = append(p.pjKinds, s.kindsOf(g))
		p.pjPerNode = append(p.pjPerNode, perNodeCount(r, g))
	}
	minCPT := 0
	for _, th32 := range s.ths {
		th := int(th32)
		if c := (r.CPUsPerTask + th - 1) / th; minCPT == 0 || c < minCPT {
			minCPT = c
		}
	}
	p.MinCores = r.Tasks * minCPT
	maxCPT := 0
	for _, th32 := range s.ths {
		th := int(th32)
		maxCPT = max(maxCPT, (r.CPUsPerTask+th-1)/th)
	}
	p.coresOnly = maxCPT == 1 && r.Nodes == 0 && r.MaxNodes == 0 && r.Constraint == "" && r.MemPerNodeMB == 0 && r.MemPerCPUMB == 0 &&
		len(r.GRESPerNode) == 0 && len(r.GRESPerJob) == 0 && !r.Exclusive
	return nil
}

func (s *Selector) kindsOf(g GRES) []int {
	var out []int
	for i, k := range s.ns.kinds {
		if k.Name == g.Name && (g.Type == "" || k.Type == g.Type) {
			out = append(out, i)
		}
	}
	return out
}

func sumOf(units []int, kinds []int) int {
	n := 0
	for _, k := range kinds {
		n += units[k]
	}
	return n
}

// Pick is one node of a selection: the tasks placed there and the
// amounts held (cores; memory in MB, 0 where not modelled or not asked;
// the units of each kind are Selection.Units).
type Pick struct {
	Node, Tasks, Cores int
	MemMB              int64
}

// Selection is what the selection rule chose, as counts: nodes in the
// order taken, with per node its tasks, cores, memory and units of each
// GRES kind. State.Assign names its ids.
type Selection struct {
	Exclusive bool
	Picks     []Pick
	units     []int // per pick x kind
	k         int
}

// Units is the units of each kind (Nodes.Kinds order) held on the i-th
// pick's node.
func (sel *Selection) Units(i int) []int { return sel.units[i*sel.k : i*sel.k+sel.k] }

// CopyFrom makes sel a copy of o, reusing sel's storage.
func (sel *Selection) CopyFrom(o *Selection) {
	sel.Exclusive, sel.k = o.Exclusive, o.k
	sel.Picks = append(sel.Picks[:0], o.Picks...)
	sel.units = append(sel.units[:0], o.units...)
}

// Select applies the selection rule to what src has free and writes
// the result to out (reusing its storage); it reports false when p does
// not fit (out is then undefined).
func (s *Selector) Select(src FreeSource, p *Prepared, out *Selection) bool {
	// Where Slurm's greedy pass finds no nodes though some hold the job
	// (a node bound over uneven free nodes; GRES per job outside the
	// nodes it took), the first-fit rule decides (docs/nodes.md).
	if s.rule == ConsTRES && s.selectBy(src, p, out, true) {
		return true
	}
	return s.selectBy(src, p, out, false)
}

// selectBy is Select by the ConsTRES rule (cons) or the first-fit one.
func (s *Selector) selectBy(src FreeSource, p *Prepared, out *Selection, cons bool) bool {
	r := &p.R
	K := s.K
	out.Exclusive, out.k = r.Exclusive, K
	out.Picks = out.Picks[:0]
	s.saved, s.savC, s.savM = s.saved[:0], s.savC[:0], s.savM[:0]
	remaining := r.Tasks
	minN, maxN := p.minN, p.maxN
	nf := &s.nf
	var open *openSet
	if o, ok := src.(opener); ok {
		open = o.openNodes()
	}
	if cons {
		remaining = s.pickConsTRES(src, p, out)
	}
	for at := 0; at < len(s.order) && !cons; at++ {
		if open != nil {
			// Skip the nodes with no core free at the interval's start:
			// none is a candidate (a task takes at least one core).
			if at = open.next(at); at >= len(s.order) {
				break
			}
		}
		id32 := s.order[at]
		picks := len(out.Picks)
		if remaining == 0 && picks >= minN {
			break
		}
		if maxN > 0 && picks == maxN {
			break
		}
		id := int(id32)
		if p.groupOK != nil && !p.groupOK[s.group[id]] {
			continue
		}
		src.FreeOn(id, nf)
		th := int(s.threads[id])
		cpt := (r.CPUsPerTask + th - 1) / th
		fit := s.capacity(id, p, nf, cpt)
		share := 1
		if maxN > 0 {
			share = (remaining + maxN - picks - 1) / (maxN - picks)
		}
		if fit < max(share, 1) {
			continue
		}
		t := min(fit, remaining-max(minN-picks-1, 0))
		out.Picks = append(out.Picks, Pick{Node: id, Tasks: t, Cores: t * cpt})
		s.saved = append(s.saved, nf.Units...)
		s.savC = append(s.savC, nf.Cores)
		s.savM = append(s.savM, nf.MemMB)
		remaining -= t
	}
	if remaining > 0 || len(out.Picks) < minN {
		return false
	}
	// The GRES per job, from the chosen nodes in their order.
	nj := len(r.GRESPerJob)
	s.perJ = s.perJ[:0]
	for range len(out.Picks) * nj {
		s.perJ = append(s.perJ, 0)
	}
	for gi := range r.GRESPerJob {
		need := r.GRESPerJob[gi].Count
		for pi := range out.Picks {
			take := min(need, sumOf(s.saved[pi*K:pi*K+K], p.pjKinds[gi])-p.pjPerNode[gi])
			if take > 0 {
				s.perJ[pi*nj+gi] = take
				need -= take
			}
		}
		if need > 0 {
			return false
		}
	}
	// The amounts held on each node.
	out.units = out.units[:0]
	for pi := range out.Picks {
		pk := &out.Picks[pi]
		id := pk.Node
		if r.Exclusive {
			pk.Cores = s.savC[pi]
		}
		if s.mem[id] > 0 {
			switch {
			case r.Exclusive:
				pk.MemMB = s.savM[pi]
			case r.MemPerNodeMB > 0:
				pk.MemMB = r.MemPerNodeMB
			case r.MemPerCPUMB > 0:
				pk.MemMB = r.MemPerCPUMB * int64(pk.Cores*int(s.threads[id]))
			}
		}
		base := len(out.units)
		for range K {
			out.units = append(out.units, 0)
		}
		if K == 0 {
			continue
		}
		taken := out.units[base : base+K]
		local := s.local
		copy(local, s.saved[pi*K:pi*K+K])
		takeN := func(kinds []int, n int) {
			for _, k := range kinds {
				if n == 0 {
					return
				}
				x := min(n, local[k])
				local[k] -= x
				taken[k] += x
				n -= x
			}
		}
		for gi, g := range r.GRESPerNode {
			takeN(p.pnKinds[gi], g.Count)
		}
		for gi := range r.GRESPerJob {
			if n := s.perJ[pi*nj+gi]; n > 0 {
				takeN(p.pjKinds[gi], n)
			}
		}
	}
	return true
}

// pickConsTRES makes out's picks by the ConsTRES rule (Slurm 22.05's
// _eval_nodes in select/cons_tres/job_test.c, without required nodes,
// topology or GRES per job steering the runs), saving each pick's free
// amounts as Select's loop does, and returns the tasks left unplaced.
func (s *Selector) pickConsTRES(src FreeSource, p *Prepared, out *Selection) int {
	r := &p.R
	nf := &s.nf
	n := s.ns.Len()
	if cap(s.fit) < n {
		s.fit = make([]int32, n)
	}
	s.fit = s.fit[:n]
	s.runs = s.runs[:0]
	for id := range n {
		fit := 0
		if p.groupOK == nil || p.groupOK[s.group[id]] {
			src.FreeOn(id, nf)
			th := int(s.threads[id])
			fit = s.capacity(id, p, nf, (r.CPUsPerTask+th-1)/th)
		}
		s.fit[id] = int32(fit)
		if fit == 0 {
			continue
		}
		w := s.ns.Node(id).Weight
		if k := len(s.runs) - 1; k >= 0 && s.runs[k].z == id-1 && s.runs[k].weight == w {
			s.runs[k].z, s.runs[k].tasks, s.runs[k].nodes = id, s.runs[k].tasks+fit, s.runs[k].nodes+1
		} else {
			s.runs = append(s.runs, run{a: id, z: id, tasks: fit, nodes: 1, weight: w})
		}
	}
	remaining := r.Tasks
	minN, maxN := p.minN, p.maxN
	for {
		picks := len(out.Picks)
		if remaining == 0 && picks >= minN || maxN > 0 && picks == maxN {
			return remaining
		}
		need := max(minN-picks, 0) // Slurm's rem_nodes
		best, bestSuff := -1, false
		for i := range s.runs {
			ru := &s.runs[i]
			if ru.nodes == 0 {
				continue
			}
			suff := ru.tasks >= remaining && ru.nodes >= need
			newBest := best < 0 || ru.weight < s.runs[best].weight
			if !newBest && ru.weight == s.runs[best].weight {
				b := &s.runs[best]
				newBest = suff && !bestSuff || suff && ru.tasks < b.tasks || !suff && ru.tasks > b.tasks
			}
			if newBest {
				best, bestSuff = i, suff
			}
		}
		if best < 0 {
			return remaining
		}
		ru := &s.runs[best]
		if need <= 1 {
			// One node more: the one that holds the rest most tightly,
			// alone, when there is one.
			one := -1
			for id := ru.a; id <= ru.z; id++ {
				if f := int(s.fit[id]); f >= remaining && (one < 0 || f < int(s.fit[one])) {
					if one = id; f == remaining {
						break
					}
				}
			}
			if one >= 0 {
				for id := ru.a; id <= ru.z; id++ {
					if id != one {
						s.fit[id] = 0
					}
				}
			}
		}
		for id := ru.a; id <= ru.z; id++ {
			picks := len(out.Picks)
			if remaining == 0 && picks >= minN || maxN > 0 && picks == maxN {
				break
			}
			f := int(s.fit[id])
			if f == 0 || maxN > 0 && maxN-picks == 1 && f < remaining {
				continue // none free, or the last node allowed cannot hold the rest
			}
			t := min(f, remaining-max(minN-picks-1, 0))
			if t <= 0 {
				continue
			}
			s.fit[id] = 0
			src.FreeOn(id, nf)
			th := int(s.threads[id])
			out.Picks = append(out.Picks, Pick{Node: id, Tasks: t, Cores: t * ((r.CPUsPerTask + th - 1) / th)})
			s.saved = append(s.saved, nf.Units...)
			s.savC = append(s.savC, nf.Cores)
			s.savM = append(s.savM, nf.MemMB)
			remaining -= t
		}
		ru.nodes, ru.tasks = 0, 0
	}
}

// capacity is the tasks of p node id can hold on what nf has free (0:
// not a candidate); the constraint is checked by the caller.
func (s *Selector) capacity(id int, p *Prepared, nf *NodeFree, coresPerTask int) int {
	r := &p.R
	if nf.Whole || (r.Exclusive && nf.Jobs) {
		return 0
	}
	hasMem := s.mem[id] > 0
	if r.MemPerNodeMB > 0 && hasMem && nf.MemMB < r.MemPerNodeMB {
		return 0
	}
	for gi, g := range r.GRESPerNode {
		if sumOf(nf.Units, p.pnKinds[gi]) < g.Count {
			return 0
		}
	}
	for gi := range r.GRESPerJob {
		if sumOf(nf.Units, p.pjKinds[gi]) < 1 {
			return 0
		}
	}
	fit := nf.Cores / coresPerTask
	if r.MemPerCPUMB > 0 && hasMem {
		fit = min(fit, int(nf.MemMB/(r.MemPerCPUMB*int64(coresPerTask*int(s.threads[id])))))
	}
	return fit
}

// opener is a FreeSource that knows a superset of the candidates of
// every request: the nodes with a core free (openNodes; nil: unknown).
type opener interface {
	openNodes() *openSet
}

// openSet is a set of nodes by their position in the selector's order
// (a bit per position): the nodes with at least one core free at some
// instant, every other node having none.
type openSet struct {
	bits []uint64
}

func newOpenSet(n int) openSet { return openSet{bits: make([]uint64, (n+63)/64)} }

func (o *openSet) set(pos int32, on bool) {
	if on {
		o.bits[pos>>6] |= 1 << (pos & 63)
	} else {
		o.bits[pos>>6] &^= 1 << (pos & 63)
	}
}

// next is the least position >= at in the set (a position past the
// last when none).
func (o *openSet) next(at int) int {
	w := at >> 6
	if w >= len(o.bits) {
		return at
	}
	if x := o.bits[w] >> (at & 63); x != 0 {
		return at + bits.TrailingZeros64(x)
	}
	for w++; w < len(o.bits); w++ {
		if o.bits[w] != 0 {
			return w<<6 + bits.TrailingZeros64(o.bits[w])
		}
	}
	return len(o.bits) << 6
}
