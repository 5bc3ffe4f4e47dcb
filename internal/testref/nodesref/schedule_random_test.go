package nodesref

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/validate"
)

// classicEASY is the pool of CPUs' EASY, counted, on procs processors,
// written for this test alone: at an instant the jobs that end then end,
// those submitted then join the queue (submit, id, input order), then
// one pass: the head starts while it fits; then the head's shadow time
// (the first estimated end of the running jobs at which enough
// processors are free, the jobs ending together counted together) and
// the extra processors (free then beyond the head's); a later job starts
// when it fits now and ends by the shadow time, or takes no more than
// the extra processors, which it then uses up. It returns the start
// times in the jobs' order.
func classicEASY(procs int, jobs []Job) []float64 {
	type run struct {
		j           int
		end, estEnd float64
	}
	starts := make([]float64, len(jobs))
	arrivals := make([]int, len(jobs))
	for i := range arrivals {
		arrivals[i] = i
	}
	slices.SortStableFunc(arrivals, func(a, b int) int {
		return cmp.Or(cmp.Compare(jobs[a].Submit, jobs[b].Submit), cmp.Compare(jobs[a].ID, jobs[b].ID))
	})
	var queue []int
	var running []run
	size := func(j int) int { return jobs[j].Req.Tasks }
	for len(arrivals) > 0 || len(queue) > 0 {
		now := math.Inf(1)
		if len(arrivals) > 0 {
			now = jobs[arrivals[0]].Submit
		}
		for _, r := range running {
			now = min(now, r.end)
		}
		running = slices.DeleteFunc(running, func(r run) bool { return r.end <= now })
		for len(arrivals) > 0 && jobs[arrivals[0]].Submit <= now {
			queue = append(queue, arrivals[0])
			arrivals = arrivals[1:]
		}
		free := procs
		for _, r := range running {
			free -= size(r.j)
		}
		start := func(j int) {
			starts[j] = now
			running = append(running, run{j, now + jobs[j].Runtime, now + jobs[j].Estimate})
			free -= size(j)
		}
		for len(queue) > 0 && size(queue[0]) <= free {
			start(queue[0])
			queue = queue[1:]
		}
		if len(queue) == 0 {
			continue
		}
		head := queue[0]
		var ends []float64
		for _, r := range running {
			ends = append(ends, r.estEnd)
		}
		slices.Sort(ends)
		ends = slices.Compact(ends)
		shadow, extra, avail := math.Inf(1), 0, free
		for _, t := range ends {
			for _, r := range running {
				if r.estEnd == t {
					avail += size(r.j)
				}
			}
			if avail >= size(head) {
				shadow, extra = t, avail-size(head)
				break
			}
		}
		waiting := []int{head}
		for _, j := range queue[1:] {
			switch {
			case size(j) <= free && now+jobs[j].Estimate <= shadow:
				start(j)
			case size(j) <= free && size(j) <= extra:
				start(j)
				extra -= size(j)
			default:
				waiting = append(waiting, j)
			}
		}
		queue = waiting
	}
	return starts
}

// On nodes of one core, EASY of spec v1 in fcfs order decides as the
// pool of CPUs' EASY: the same start time for every job, on random
// workloads of 200 jobs (the repair is what makes the extra processors
// usable on the reserved nodes).
func TestEASYOnOneCoreNodesIsClassicEASY(t *testing.T) {
	runs := 20
	if testing.Short() {
		runs = 5
	}
	for seed := range runs {
		rng := rand.New(rand.NewPCG(uint64(seed), 41))
		p := 1 + rng.IntN(16)
		nodes := make([]Node, p)
		for i := range nodes {
			nodes[i] = Node{Name: fmt.Sprintf("c%d", i), Cores: 1, ThreadsPerCore: 1, Weight: 1}
		}
		jobs := make([]Job, 200)
		at := 0.0
		for i := range jobs {
			at += float64(rng.IntN(6))
			run := float64(rng.IntN(40))
			est := max(1, run+float64(rng.IntN(3)*rng.IntN(20)))
			jobs[i] = Job{ID: int64(i + 1), Submit: at, Runtime: run, Estimate: est, Req: Request{Tasks: 1 + rng.IntN(p), CPUsPerTask: 1}}
		}
		want := classicEASY(p, jobs)
		got := Schedule(nodes, jobs, SchedEASY)
		for i := range jobs {
			if got[i].Never || got[i].Time != want[i] {
				t.Fatalf("seed %d (%d nodes): job %d (%d procs, submit %v, estimate %v): nodes at %v, pool at %v",
					seed, p, jobs[i].ID, jobs[i].Req.Tasks, jobs[i].Submit, jobs[i].Estimate, got[i].Time, want[i])
			}
		}
	}
}

// The test must be able to fail: without the repair (the old reference's
// EASY, Simulate) some start differs on the same workloads.
func TestClassicEASYDiffersFromEASYWithoutRepair(t *testing.T) {
	for seed := range 20 {
		rng := rand.New(rand.NewPCG(uint64(seed), 41))
		p := 2 + rng.IntN(8)
		nodes := make([]Node, p)
		for i := range nodes {
			nodes[i] = Node{Name: fmt.Sprintf("c%d", i), Cores: 1, ThreadsPerCore: 1, Weight: 1}
		}
		jobs := make([]Job, 100)
		at := 0.0
		for i := range jobs {
			at += float64(rng.IntN(4))
			run := float64(1 + rng.IntN(40))
			jobs[i] = Job{ID: int64(i + 1), Submit: at, Runtime: run, Estimate: run, Req: Request{Tasks: 1 + rng.IntN(p), CPUsPerTask: 1}}
		}
		want := classicEASY(p, jobs)
		old := Simulate(nodes, jobs, EASY)
		for i := range jobs {
			if old[i].Time != want[i] {
				return
			}
		}
	}
	t.Fatal("EASY without the repair agrees with the pool's EASY on every workload: the property above proves nothing")
}

// Every policy of spec v1, both orders, on random platforms and
// workloads (estimates 0 included): every allocation meets its request,
// no resource is held twice at an instant, no start before submit, the
// same jobs never start as under Simulate, FCFS strict starts in queue
// order.
func TestScheduleRandomInvariants(t *testing.T) {
	runs := 1500
	if testing.Short() {
		runs = 200
	}
	pols := []Sched{SchedFCFS, SchedFirstFit, SchedEASY, SchedConservative, SchedBackfill(2)}
	started := 0
	for seed := range runs {
		rng := rand.New(rand.NewPCG(uint64(seed), 42))
		nodes, jobs := randomNodes(rng), randomJobs(rng)
		never := Simulate(nodes, jobs, FCFS)
		for i := range jobs {
			if jobs[i].Runtime == 0 && rng.IntN(2) == 0 {
				jobs[i].Estimate = 0
			}
		}
		for _, base := range pols {
			for _, o := range []Order{ByFCFS, BySJF} {
				p := base
				p.Order = o
				starts := Schedule(nodes, jobs, p)
				var bad []string
				for i, s := range starts {
					if s.ID != jobs[i].ID || s.Never != never[i].Never {
						bad = append(bad, fmt.Sprintf("start %d: %s, job %d never %v", i, show(s), jobs[i].ID, never[i].Never))
					}
					if s.Never {
						continue
					}
					started++
					if s.Time < jobs[i].Submit {
						bad = append(bad, fmt.Sprintf("job %d starts at %v before its submit %v", s.ID, s.Time, jobs[i].Submit))
					}
					bad = append(bad, checkUses(nodes, jobs[i], s.Uses)...)
				}
				bad = append(bad, checkOverTime(nodes, jobs, starts)...)
				if err := validate.CheckNodes(capsOf(nodes), recsOf(jobs, starts)); err != nil {
					bad = append(bad, "validate.CheckNodes: "+err.Error())
				}
				if p == SchedFCFS {
					bad = append(bad, checkQueueOrder(jobs, starts)...)
				}
				if len(bad) > 0 {
					t.Fatalf("seed %d, %v:\nnodes %+v\njobs %+v\n%s", seed, p, nodes, jobs, strings.Join(bad, "\n"))
				}
			}
		}
	}
	if started < runs {
		t.Fatalf("only %d starts in %d runs", started, runs)
	}
}

// capsOf and recsOf put a platform and a schedule in validate's terms,
// for its independent checker.
func capsOf(nodes []Node) []validate.NodeCap {
	caps := make([]validate.NodeCap, len(nodes))
	for i, n := range nodes {
		caps[i] = validate.NodeCap{Name: n.Name, Cores: n.Cores, ThreadsPerCore: n.ThreadsPerCore, MemMB: n.MemMB, GRES: n.GRES, Features: n.Features}
	}
	return caps
}

func recsOf(jobs []Job, starts []Start) []validate.NodeRec {
	counts := func(gs []GRESReq) map[string]int {
		m := map[string]int{}
		for _, g := range gs {
			k := g.Name
			if g.Type != "" {
				k += ":" + g.Type
			}
			m[k] += g.Count
		}
		return m
	}
	var recs []validate.NodeRec
	for i, s := range starts {
		if s.Never {
			continue
		}
		q := jobs[i].Req
		var us []validate.NodeUse
		for _, u := range s.Uses {
			us = append(us, validate.NodeUse{Node: u.Node, Tasks: u.Tasks, Cores: u.Cores, MemMB: u.MemMB, GRES: u.GRES})
		}
		recs = append(recs, validate.NodeRec{ID: s.ID, Start: s.Time, Finish: s.Time + jobs[i].Runtime,
			Nodes: q.Nodes, MaxNodes: q.MaxNodes, Tasks: q.Tasks, CPUsPerTask: q.CPUsPerTask,
			MemPerNodeMB: q.MemPerNodeMB, MemPerCPUMB: q.MemPerCPUMB,
			GRESPerNode: counts(q.GRESPerNode), GRESPerJob: counts(q.GRESPerJob),
			Constraint: q.Constraint, Exclusive: q.Exclusive, Uses: us})
	}
	return recs
}

// FCFS strict plans nothing: what is free over [now, now + estimate)
// beside the running jobs is what is free now, counted or named alike,
// so Schedule's FCFS in fcfs order is Simulate's FCFS, start for start
// (the ids increase with the input order, so the two queue orders agree).
func TestScheduleFCFSIsSimulateFCFS(t *testing.T) {
	for seed := range 500 {
		rng := rand.New(rand.NewPCG(uint64(seed), 43))
		nodes, jobs := randomNodes(rng), randomJobs(rng)
		got, want := Schedule(nodes, jobs, SchedFCFS), Simulate(nodes, jobs, FCFS)
		for i := range jobs {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("seed %d: job %d: Schedule %s, Simulate %s", seed, jobs[i].ID, show(got[i]), show(want[i]))
			}
		}
	}
}
