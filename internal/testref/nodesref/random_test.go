package nodesref

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// randomNodes is a platform of 1..3 nodes: 1..4 cores of 1..2 threads,
// memory or not, GPUs untyped or of two types or none, an nvme on some,
// features among a and b, weights 0..2.
func randomNodes(rng *rand.Rand) []Node {
	memMB := int64(0)
	if rng.IntN(2) == 0 {
		memMB = 4000 + 1000*rng.Int64N(5)
	}
	nodes := make([]Node, 1+rng.IntN(3))
	for i := range nodes {
		n := Node{Name: fmt.Sprintf("n%d", i), Cores: 1 + rng.IntN(4), ThreadsPerCore: 1 + rng.IntN(2),
			MemMB: memMB, GRES: map[string]int{}, Weight: uint32(rng.IntN(3))}
		switch rng.IntN(3) {
		case 0:
			n.GRES["gpu"] = 1 + rng.IntN(2)
		case 1:
			n.GRES["gpu:a100"] = 1
			n.GRES["gpu:v100"] = 1 + rng.IntN(2)
		}
		if rng.IntN(3) == 0 {
			n.GRES["nvme"] = 1
		}
		for _, f := range []string{"a", "b"} {
			if rng.IntN(2) == 0 {
				n.Features = append(n.Features, f)
			}
		}
		nodes[i] = n
	}
	return nodes
}

// randomRequest asks for 1..4 tasks of 1..3 CPUs in one of the node
// count forms, maybe memory either way, maybe GPUs per node or per job
// (never both: a name is asked at most once, so that the checker can
// count units by name), maybe an nvme, a constraint, exclusivity.
func randomRequest(rng *rand.Rand) Request {
	r := Request{Tasks: 1 + rng.IntN(4), CPUsPerTask: 1 + rng.IntN(3)}
	switch rng.IntN(4) {
	case 1:
		r.Nodes = 1
	case 2:
		r.Nodes = 1 + rng.IntN(r.Tasks)
	case 3:
		r.Nodes, r.MaxNodes = 1, 2
	}
	switch rng.IntN(3) {
	case 1:
		r.MemPerNodeMB = 500 * (1 + rng.Int64N(6))
	case 2:
		r.MemPerCPUMB = 200 * (1 + rng.Int64N(5))
	}
	switch rng.IntN(5) {
	case 1:
		r.GRESPerNode = []GRESReq{{Name: "gpu", Count: 1 + rng.IntN(2)}}
	case 2:
		r.GRESPerNode = []GRESReq{{Name: "gpu", Type: "v100", Count: 1}}
	case 3:
		r.GRESPerJob = []GRESReq{{Name: "gpu", Count: 1 + rng.IntN(3)}}
	}
	if rng.IntN(4) == 0 {
		r.GRESPerNode = append(r.GRESPerNode, GRESReq{Name: "nvme", Count: 1})
	}
	r.Constraint = []string{"", "", "a", "a|b", "a&b", "(a|b)&b"}[rng.IntN(6)]
	r.Exclusive = rng.IntN(8) == 0
	return r
}

func randomJobs(rng *rand.Rand) []Job {
	jobs := make([]Job, 1+rng.IntN(12))
	for i := range jobs {
		rt := float64(rng.IntN(9))
		jobs[i] = Job{ID: int64(100 + i), Submit: float64(rng.IntN(16)), Runtime: rt,
			Estimate: max(1, rt+float64(rng.IntN(5))), Req: randomRequest(rng)}
	}
	return jobs
}

// matching counts the units held on a node of the kinds (name, typ) can
// use: the kind name:typ, or every kind of name when typ is "".
func matching(held map[string][]int, name, typ string) int {
	c := 0
	for k, ids := range held {
		kn, kt, _ := strings.Cut(k, ":")
		if kn == name && (typ == "" || kt == typ) {
			c += len(ids)
		}
	}
	return c
}

// increasingIn reports whether ids are increasing and in 0..n-1.
func increasingIn(ids []int, n int) bool {
	for i, id := range ids {
		if id < 0 || id >= n || (i > 0 && ids[i-1] >= id) {
			return false
		}
	}
	return true
}

// checkUses checks one job's allocation against its request, written
// from docs/nodes.md apart from the allocation code: node count, tasks,
// whole cores per task, memory, GRES per node and per job, constraint,
// exclusivity.
func checkUses(nodes []Node, j Job, uses []NodeUse) []string {
	r := j.Req
	var bad []string
	fail := func(format string, args ...any) {
		bad = append(bad, fmt.Sprintf("job %d: ", j.ID)+fmt.Sprintf(format, args...))
	}
	n := len(uses)
	switch {
	case r.Nodes > 0 && r.MaxNodes == 0 && n != r.Nodes:
		fail("%d nodes, want exactly %d", n, r.Nodes)
	case n < max(1, r.Nodes) || (r.MaxNodes > 0 && n > r.MaxNodes):
		fail("%d nodes, want %d..%d", n, r.Nodes, r.MaxNodes)
	}
	tasks, perJob := 0, map[string]int{}
	seen := map[int]bool{}
	for _, u := range uses {
		nd := nodes[u.Node]
		if seen[u.Node] {
			fail("node %d twice", u.Node)
		}
		seen[u.Node] = true
		tasks += u.Tasks
		want := u.Tasks * ((r.CPUsPerTask + nd.ThreadsPerCore - 1) / nd.ThreadsPerCore)
		if r.Exclusive {
			want = nd.Cores
		}
		if u.Tasks < 1 || len(u.Cores) != want || !increasingIn(u.Cores, nd.Cores) {
			fail("node %d: %d tasks on cores %v, want %d cores", u.Node, u.Tasks, u.Cores, want)
		}
		var mem int64
		switch {
		case nd.MemMB == 0:
		case r.Exclusive:
			mem = nd.MemMB
		case r.MemPerNodeMB > 0:
			mem = r.MemPerNodeMB
		default:
			mem = r.MemPerCPUMB * int64(len(u.Cores)*nd.ThreadsPerCore)
		}
		if u.MemMB != mem {
			fail("node %d: %d MB, want %d", u.Node, u.MemMB, mem)
		}
		asked := 0
		for _, g := range r.GRESPerNode {
			asked += g.Count
			if got := matching(u.GRES, g.Name, g.Type); got != g.Count {
				fail("node %d: %d units of %s:%s, want %d", u.Node, got, g.Name, g.Type, g.Count)
			}
		}
		for _, g := range r.GRESPerJob {
			perJob[g.Name] += matching(u.GRES, g.Name, g.Type)
			asked += matching(u.GRES, g.Name, g.Type)
		}
		all := 0
		for k, ids := range u.GRES {
			all += len(ids)
			if len(ids) == 0 || !increasingIn(ids, nd.GRES[k]) {
				fail("node %d: units %s %v", u.Node, k, ids)
			}
		}
		if all != asked {
			fail("node %d: %d units, %d asked", u.Node, all, asked)
		}
		if !parseConstraint(r.Constraint).matches(nd.Features) {
			fail("node %d: features %v against %q", u.Node, nd.Features, r.Constraint)
		}
	}
	if tasks != r.Tasks {
		fail("%d tasks, want %d", tasks, r.Tasks)
	}
	for _, g := range r.GRESPerJob {
		if perJob[g.Name] != g.Count {
			fail("%d units of %s per job, want %d", perJob[g.Name], g.Name, g.Count)
		}
	}
	return bad
}

// checkOverTime checks, at every start instant, the jobs running then
// (over [start, start+Runtime)): no core or unit held twice, no node's
// memory over-committed, no job beside an exclusive one.
func checkOverTime(nodes []Node, jobs []Job, starts []Start) []string {
	var bad []string
	for _, s := range starts {
		if s.Never {
			continue
		}
		t := s.Time
		type key struct {
			node int
			what string
		}
		owner := map[key]int64{}
		mem := make([]int64, len(nodes))
		jobsOn := make([][]int64, len(nodes))
		excl := make([]bool, len(nodes))
		for i, o := range starts {
			if o.Never || !(o.Time <= t && t < o.Time+jobs[i].Runtime) {
				continue
			}
			for _, u := range o.Uses {
				mem[u.Node] += u.MemMB
				jobsOn[u.Node] = append(jobsOn[u.Node], o.ID)
				excl[u.Node] = excl[u.Node] || jobs[i].Req.Exclusive
				var ks []string
				for _, c := range u.Cores {
					ks = append(ks, fmt.Sprintf("core %d", c))
				}
				for k, ids := range u.GRES {
					for _, id := range ids {
						ks = append(ks, fmt.Sprintf("%s %d", k, id))
					}
				}
				for _, k := range ks {
					if prev, ok := owner[key{u.Node, k}]; ok {
						bad = append(bad, fmt.Sprintf("t=%v node %d: %s held by jobs %d and %d", t, u.Node, k, prev, o.ID))
					}
					owner[key{u.Node, k}] = o.ID
				}
			}
		}
		for n := range nodes {
			if nodes[n].MemMB > 0 && mem[n] > nodes[n].MemMB {
				bad = append(bad, fmt.Sprintf("t=%v node %d: %d MB of %d", t, n, mem[n], nodes[n].MemMB))
			}
			if excl[n] && len(jobsOn[n]) > 1 {
				bad = append(bad, fmt.Sprintf("t=%v node %d: exclusive beside others %v", t, n, jobsOn[n]))
			}
		}
	}
	return bad
}

// TestRandomInvariants runs random workloads on random platforms under
// every policy and checks every allocation against its request, the
// resources over time, no start before submit, FCFS in queue order, and
// that the policies agree on which jobs can never start.
func TestRandomInvariants(t *testing.T) {
	runs := 3000
	if testing.Short() {
		runs = 300
	}
	started := 0
	for seed := range runs {
		rng := rand.New(rand.NewPCG(uint64(seed), 40))
		nodes, jobs := randomNodes(rng), randomJobs(rng)
		var never []bool
		for _, p := range []Policy{FCFS, EASY, Conservative} {
			starts := Simulate(nodes, jobs, p)
			var bad []string
			var nv []bool
			for i, s := range starts {
				nv = append(nv, s.Never)
				if s.ID != jobs[i].ID {
					bad = append(bad, fmt.Sprintf("start %d is job %d, want %d", i, s.ID, jobs[i].ID))
				}
				if s.Never {
					if s.Time != 0 || s.Uses != nil {
						bad = append(bad, fmt.Sprintf("job %d never starts but has %v", s.ID, show(s)))
					}
					continue
				}
				started++
				if s.Time < jobs[i].Submit {
					bad = append(bad, fmt.Sprintf("job %d starts at %v before its submit %v", s.ID, s.Time, jobs[i].Submit))
				}
				bad = append(bad, checkUses(nodes, jobs[i], s.Uses)...)
			}
			bad = append(bad, checkOverTime(nodes, jobs, starts)...)
			if p == FCFS {
				bad = append(bad, checkQueueOrder(jobs, starts)...)
			}
			if never == nil {
				never = nv
			} else if !slices.Equal(never, nv) {
				bad = append(bad, fmt.Sprintf("never %v, FCFS's %v", nv, never))
			}
			if len(bad) > 0 {
				t.Fatalf("seed %d, %v:\nnodes %+v\njobs %+v\n%s", seed, p, nodes, jobs, strings.Join(bad, "\n"))
			}
		}
	}
	if started < runs { // the generator must exercise starts, not only nevers
		t.Fatalf("only %d starts in %d runs", started, runs)
	}
}

// checkQueueOrder: under FCFS the jobs start in queue order (submit, then
// position), so their start times do not decrease along it.
func checkQueueOrder(jobs []Job, starts []Start) []string {
	idx := make([]int, 0, len(jobs))
	for i := range jobs {
		if !starts[i].Never {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return jobs[idx[a]].Submit < jobs[idx[b]].Submit })
	var bad []string
	for k := 1; k < len(idx); k++ {
		if a, b := starts[idx[k-1]], starts[idx[k]]; b.Time < a.Time {
			bad = append(bad, fmt.Sprintf("FCFS: job %d starts at %v before job %d ahead of it (%v)", b.ID, b.Time, a.ID, a.Time))
		}
	}
	return bad
}
