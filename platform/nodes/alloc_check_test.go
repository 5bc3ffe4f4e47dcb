package nodes

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/validate"
)

// randomPlatform draws 1-4 groups of 1-4 nodes: 1-8 cores, 1-2 threads,
// memory or none, 0-4 GPUs of type a or b, features x/y.
func randomPlatform(t *testing.T, r *rand.Rand) *Nodes {
	var specs []string
	for g := 0; g < 1+r.IntN(4); g++ {
		s := fmt.Sprintf("g%d-[1-%d]:cores=%d:threads=%d", g, 1+r.IntN(4), 1+r.IntN(8), 1+r.IntN(2))
		if r.IntN(2) == 0 {
			s += fmt.Sprintf(":mem=%dM", 1000*(1+r.IntN(4)))
		}
		if n := r.IntN(5); n > 0 {
			s += fmt.Sprintf(":gres=gpu:%c=%d", "ab"[r.IntN(2)], n)
		}
		s += ":features=" + []string{"x", "y", "x,y"}[r.IntN(3)]
		s += fmt.Sprintf(":weight=%d", r.IntN(3))
		specs = append(specs, s)
	}
	return twoNodes(t, specs...)
}

func randomRequest(r *rand.Rand) Request {
	q := Request{Tasks: 1 + r.IntN(6), CPUsPerTask: 1 + r.IntN(3)}
	switch r.IntN(4) {
	case 0:
		q.Nodes = 1 + r.IntN(min(q.Tasks, 3))
	case 1:
		q.Nodes = 1
		q.MaxNodes = 1 + r.IntN(3)
	}
	switch r.IntN(3) {
	case 0:
		q.MemPerNodeMB = int64(100 * (1 + r.IntN(20)))
	case 1:
		q.MemPerCPUMB = int64(50 * (1 + r.IntN(10)))
	}
	switch r.IntN(4) {
	case 0:
		q.GRESPerNode = []GRES{{"gpu", "", 1 + r.IntN(2)}}
	case 1:
		q.GRESPerNode = []GRES{{"gpu", string("ab"[r.IntN(2)]), 1}}
	case 2:
		q.GRESPerJob = []GRES{{"gpu", "", 1 + r.IntN(3)}}
	}
	if r.IntN(4) == 0 {
		q.Constraint = []string{"x", "y", "x&y", "x|y", "(x|y)&x"}[r.IntN(5)]
	}
	q.Exclusive = r.IntN(6) == 0
	return q
}

type endEvent struct {
	t   float64
	job int
}
type endHeap []endEvent

func (h endHeap) Len() int { return len(h) }
func (h endHeap) Less(i, j int) bool {
	return h[i].t < h[j].t || (h[i].t == h[j].t && h[i].job < h[j].job)
}
func (h endHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *endHeap) Push(x any)   { *h = append(*h, x.(endEvent)) }
func (h *endHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// simulateFCFS runs requests FCFS on ns (job i submitted at i, running
// 1+i%7 s): at each instant the queue's head starts when it fits. Jobs
// that can never fit are left out.
func simulateFCFS(ns *Nodes, reqs []Request) ([]validate.NodeRec, error) {
	s := NewState(ns)
	var recs []validate.NodeRec
	var ends endHeap
	allocs := map[int]Allocation{}
	now := 0.0
	for i, q := range reqs {
		if err := q.Check(); err != nil {
			return nil, err
		}
		if !Fits(ns, q) {
			continue
		}
		now = max(now, float64(i))
		for {
			for len(ends) > 0 && ends[0].t <= now {
				e := heap.Pop(&ends).(endEvent)
				s.Release(allocs[e.job])
			}
			if a, ok := s.Alloc(q); ok {
				allocs[i] = a
				d := float64(1 + i%7)
				heap.Push(&ends, endEvent{now + d, i})
				recs = append(recs, toRec(ns, int64(i), now, now+d, q, a))
				break
			}
			if len(ends) == 0 {
				return nil, fmt.Errorf("job %d fits the empty platform but not an idle one", i)
			}
			now = ends[0].t
		}
	}
	return recs, nil
}

// toRec writes an allocation as the checker reads it (numbers within
// each node).
func toRec(ns *Nodes, id int64, start, end float64, q Request, a Allocation) validate.NodeRec {
	gm := func(gs []GRES) map[string]int {
		m := map[string]int{}
		for _, g := range gs {
			m[g.Kind().String()] = g.Count
		}
		return m
	}
	rec := validate.NodeRec{ID: id, Start: start, Finish: end, Nodes: q.Nodes, MaxNodes: q.MaxNodes, Tasks: q.Tasks, CPUsPerTask: q.CPUsPerTask,
		MemPerNodeMB: q.MemPerNodeMB, MemPerCPUMB: q.MemPerCPUMB, GRESPerNode: gm(q.GRESPerNode), GRESPerJob: gm(q.GRESPerJob),
		Constraint: q.Constraint, Exclusive: q.Exclusive}
	for _, na := range a.Nodes {
		nd := ns.Node(na.Node)
		u := validate.NodeUse{Node: na.Node, Tasks: na.Tasks, MemMB: na.MemMB, GRES: map[string][]int{}}
		for _, c := range na.Cores {
			u.Cores = append(u.Cores, c-nd.FirstCore)
		}
		for _, g := range na.GRES {
			first, _ := ns.FirstGRES(na.Node, g.Kind)
			for _, x := range g.Units {
				u.GRES[g.Kind.String()] = append(u.GRES[g.Kind.String()], x-first)
			}
		}
		rec.Uses = append(rec.Uses, u)
	}
	return rec
}

func capsOf(ns *Nodes) []validate.NodeCap {
	caps := make([]validate.NodeCap, ns.Len())
	for id := range caps {
		nd := ns.Node(id)
		c := validate.NodeCap{Name: nd.Name, Cores: nd.Cores(), ThreadsPerCore: nd.ThreadsPerCore, MemMB: nd.MemMB, GRES: map[string]int{}, Features: nd.Features()}
		for _, g := range nd.GRES() {
			c.GRES[g.Kind().String()] = g.Count
		}
		caps[id] = c
	}
	return caps
}

// Random platforms and requests, run FCFS through State: the independent
// checker (package validate, written from docs/nodes.md) accepts every
// schedule, and rejects one where a GPU unit is planted twice.
func TestAllocAgainstChecker(t *testing.T) {
	planted, runs := 0, 300
	if testing.Short() {
		runs = 60
	}
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		ns := randomPlatform(t, r)
		reqs := make([]Request, 40)
		for i := range reqs {
			reqs[i] = randomRequest(r)
		}
		recs, err := simulateFCFS(ns, reqs)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		caps := capsOf(ns)
		if err := validate.CheckNodes(caps, recs); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// Plant: the first two overlapping jobs holding units of one kind
		// on one node get the same unit.
		if plantGPU(recs) {
			planted++
			err := validate.CheckNodes(caps, recs)
			if err == nil || !strings.Contains(err.Error(), "held by job") {
				t.Fatalf("seed %d: a GPU unit held twice not reported: %v", seed, err)
			}
		}
	}
	if planted < runs/10 {
		t.Fatalf("only %d of %d runs had two overlapping GPU jobs on a node: the plant tests little", planted, runs)
	}
}

func plantGPU(recs []validate.NodeRec) bool {
	for i := range recs {
		for j := i + 1; j < len(recs); j++ {
			a, b := &recs[i], &recs[j]
			if !(a.Start < b.Finish && b.Start < a.Finish) {
				continue
			}
			for _, ua := range a.Uses {
				for bi, ub := range b.Uses {
					if ua.Node != ub.Node {
						continue
					}
					for k, units := range ua.GRES {
						if len(units) > 0 && len(ub.GRES[k]) > 0 {
							b.Uses[bi].GRES[k][0] = units[0]
							return true
						}
					}
				}
			}
		}
	}
	return false
}
