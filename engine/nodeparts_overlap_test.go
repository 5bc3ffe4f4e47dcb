package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/validate"
)

// Overlapping partitions on nodes (docs/nodes.md, "Overlapping
// partitions"): a node in several partitions; each partition's policy
// sees the jobs of the others on its nodes (policy.NodeForeignLoad).

// overlapPolicy is nodePolicy, and slurm (Slurm's defaults, but
// bf_interval 1 s and bf_resolution 1 s so that the small random
// workloads are backfilled at every instant).
func overlapPolicy(t testing.TB, name string, ns *nodes.Nodes) policy.NodeScheduler {
	t.Helper()
	if name != "slurm" {
		return nodePolicy(t, name, ns)
	}
	sp := backfill.DefaultSlurm()
	sp.Interval, sp.Resolution = 1, 1
	p, err := backfill.NewNodePolicy(backfill.NodeConfig{Name: "slurm", Nodes: ns, Order: backfill.OrderFCFS, Slurm: &sp})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// partOf is the partition name over global node ids under policy pol.
func partOf(t testing.TB, ns *nodes.Nodes, name string, ids []int, pol string, def bool, nums ...int32) engine.NodePartition {
	t.Helper()
	sub, err := engine.PartitionNodes(ns, ids)
	if err != nil {
		t.Fatal(err)
	}
	return engine.NodePartition{Name: name, Nodes: ids, Numbers: nums, Default: def, Policy: overlapPolicy(t, pol, sub)}
}

// Two nodes of 4 cores (n1: cores 0-3, n2: 4-7); partition A = {n1, n2}
// (trace number 1, first in the configuration), B = {n2} (number 2).
// Runtimes are the estimates; the selection rule is first fit with
// block distribution, lowest cores first (docs/nodes.md, Allocation).
//
//	J1 A t=0 6 tasks, 100 s: n1 0-3 and n2 4-5, [0, 100).
//	J2 B t=0 2 tasks, 50 s: B's pass follows A's at the instant and
//	   sees J1 on n2: n2 6-7, [0, 50).
//	J3 B t=1 1 task, 10 s: n2 is full (J1's 4-5 are foreign to B but
//	   counted): it waits. (A policy blind to J1 would start it on n2
//	   core 4, which the model refuses.)
//	J4 A t=2 4 tasks, 10 s: nothing of A is free: it waits.
//	J5 B t=3 2 tasks, 20 s: behind J3.
//	J6 A t=4 1 task, 40 s: behind J4.
//
// Strict FCFS in both:
//
//	t=50: J2 ends; A passes first (J2 was foreign to it): J4 needs 4
//	   cores, 2 are free (n2 6-7): it waits, and J6 behind it. B: J3
//	   on n2 core 6, [50, 60); J5 (2 cores, 1 free) waits.
//	t=60: J3 ends; B: J5 on n2 6-7, [60, 80). A: J4 still waits.
//	t=80: J5 ends; A: J4 needs 4, n2 has 2 free: it waits.
//	t=100: J1 ends; A: J4 on n1 0-3, [100, 110), then J6 on the first
//	   free core, n2 4, [100, 140).
//
// EASY in both:
//
//	t=1: J3 gets B's reservation at 50 (J2's end; J1 holds 4-5 until
//	   100 as a foreign job of estimate 100).
//	t=2: J4 gets A's reservation at 100, on n1 0-3 (at 50 only n2 6-7
//	   are free).
//	t=3, t=4: J5 and J6 cannot start now and the reservations are
//	   taken (depth 1).
//	t=50: J2 ends; A passes first: J6 (1 core, until 90) fits now on n2
//	   core 6 and leaves J4's reservation on n1 whole: backfilled,
//	   [50, 90). B then sees core 6 taken: J3, reserved in B at 50,
//	   starts on core 7, [50, 60) (a partition's reservation is its
//	   own: the other partition's pass before it may take what it
//	   counted on). J5 is then B's head: reserved at 90 (J6's end
//	   frees 6, J3's end 7).
//	t=60: J3 ends; J5 still needs 2 cores (1 free): it waits.
//	t=90: J6 ends; B: J5 on n2 6-7, [90, 110).
//	t=100: J1 ends; A: J4 on n1 0-3, [100, 110).
func TestOverlappingNodePartitionsHandWorked(t *testing.T) {
	ns := mustNodes(t, "n[1-2]:cores=4")
	tasks := func(n int) nodes.Request { return nodes.Request{Tasks: n, CPUsPerTask: 1} }
	jobs := []actual.Job{
		inPart(nj(1, 0, 100, 100, tasks(6)), 1),
		inPart(nj(2, 0, 50, 50, tasks(2)), 2),
		inPart(nj(3, 1, 10, 10, tasks(1)), 2),
		inPart(nj(4, 2, 10, 10, tasks(4)), 1),
		inPart(nj(5, 3, 20, 20, tasks(2)), 2),
		inPart(nj(6, 4, 40, 40, tasks(1)), 1),
	}
	type run struct {
		start float64
		alloc string
	}
	for _, c := range []struct {
		pol  string
		want map[job.ID]run
	}{
		{"fcfs", map[job.ID]run{
			1: {0, "n1:0-3/t4 n2:4-5/t2"}, 2: {0, "n2:6-7/t2"}, 3: {50, "n2:6"}, 5: {60, "n2:6-7/t2"},
			4: {100, "n1:0-3/t4"}, 6: {100, "n2:4"}}},
		{"easy", map[job.ID]run{
			1: {0, "n1:0-3/t4 n2:4-5/t2"}, 2: {0, "n2:6-7/t2"}, 6: {50, "n2:6"}, 3: {50, "n2:7"},
			5: {90, "n2:6-7/t2"}, 4: {100, "n1:0-3/t4"}}},
	} {
		ps := []engine.NodePartition{partOf(t, ns, "A", []int{0, 1}, c.pol, false, 1), partOf(t, ns, "B", []int{1}, c.pol, false, 2)}
		l, err := runNodeParts(t, ns, ps, jobs)
		if err != nil {
			t.Fatalf("%s: %v", c.pol, err)
		}
		for id, w := range c.want {
			x := l.runs[id]
			if x == nil {
				t.Fatalf("%s: job %d did not run", c.pol, id)
			}
			if got := allocText(ns, x.alloc); x.start != w.start || got != w.alloc {
				t.Errorf("%s: job %d: start %g on %s, want %g on %s", c.pol, id, x.start, got, w.start, w.alloc)
			}
		}
		recs := nodeRecs(ns, l)
		for i := range recs {
			recs[i].Allowed = ps[l.runs[job.ID(recs[i].ID)].job.Partition-1].Nodes
		}
		if err := validate.CheckNodes(nodecheck.Caps(ns), recs); err != nil {
			t.Errorf("%s: %v", c.pol, err)
		}
	}
	// The reasons under EASY: J6 passed J4 (backfilled), J3 and J5
	// started at their reservations, J4 too.
	ps := []engine.NodePartition{partOf(t, ns, "A", []int{0, 1}, "easy", false, 1), partOf(t, ns, "B", []int{1}, "easy", false, 2)}
	l, err := runNodeParts(t, ns, ps, jobs)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[job.ID]job.StartReason{1: job.Immediate, 2: job.Immediate, 6: job.Backfilled, 3: job.Reserved, 5: job.Reserved, 4: job.Reserved} {
		if got := l.runs[id].reason; got != want {
			t.Errorf("easy: job %d started as %v, want %v", id, got, want)
		}
	}
}

// Two partitions of the same nodes, every job routed to one of them
// (the first or the second in the configuration), give the schedule of
// the run without partitions, job for job and core for core: the idle
// partition's policy is told of every job (as foreign) and passes at
// every start and end, and that changes nothing. Random platforms and
// workloads, under fcfs, easy, conservative and slurm.
func TestOverlappingNodePartitionsSameNodesArePlain(t *testing.T) {
	runs := 30
	if testing.Short() {
		runs = 8
	}
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 41))
		ns := randomNodes(t, r)
		jobs := randomNodeJobs(ns, r, 60)
		ids := make([]int, ns.Len())
		for i := range ids {
			ids[i] = i
		}
		for _, pol := range []string{"fcfs", "easy", "conservative", "slurm"} {
			plain, err := runNodes(t, ns, overlapPolicy(t, pol, ns), jobs, false)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, pol, err)
			}
			for busy := range 2 { // the partition that takes the jobs
				for i := range jobs {
					jobs[i].Partition = int32(busy)
				}
				ps := []engine.NodePartition{partOf(t, ns, "a", ids, pol, false, 0), partOf(t, ns, "b", ids, pol, false, 1)}
				parted, err := runNodeParts(t, ns, ps, jobs)
				if err != nil {
					t.Fatalf("seed %d %s: %v", seed, pol, err)
				}
				if a, b := runsText(ns, plain), runsText(ns, parted); a != b {
					t.Fatalf("seed %d %s, jobs in partition %d: two partitions of the same nodes differ from the plain run:\n%s\n---\n%s", seed, pol, busy, a, b)
				}
			}
		}
	}
}

// Random platforms, 2 or 3 partitions of random overlapping node sets
// (every node in one at least, some in several), random jobs routed to
// them, under fcfs, easy, conservative or slurm (each partition its
// own): every run ends (no policy's start refused: each partition's
// state is the truth of its nodes) and passes the independent checker,
// which checks every node's capacity over all partitions' jobs at once
// and every job on its partition's nodes. Some runs must share a node
// between jobs of two partitions, or the test would prove little.
func TestOverlappingNodePartitionsRandomInvariants(t *testing.T) {
	runs := 60
	if testing.Short() {
		runs = 15
	}
	mixed := 0
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 42))
		ns := randomNodes(t, r)
		k := 2 + r.IntN(2)
		sets := make([][]int, k) // each node in each partition with odds 1/2, in one at least
		for n := range ns.Len() {
			in := false
			for p := range sets {
				if r.IntN(2) == 0 {
					sets[p], in = append(sets[p], n), true
				}
			}
			if !in {
				p := r.IntN(k)
				sets[p] = append(sets[p], n)
			}
		}
		var ps []engine.NodePartition
		for p := range sets {
			if len(sets[p]) == 0 {
				sets[p] = []int{r.IntN(ns.Len())}
			}
			pol := []string{"fcfs", "easy", "conservative", "slurm"}[r.IntN(4)]
			ps = append(ps, partOf(t, ns, string(rune('a'+p)), sets[p], pol, false, int32(p)))
		}
		var jobs []actual.Job
		for _, j := range randomNodeJobs(ns, r, 80) {
			j.Partition = int32(r.IntN(k))
			sub, _ := engine.PartitionNodes(ns, ps[j.Partition].Nodes)
			q := nodes.FromProcs(j.Procs)
			if j.Req != nil {
				q = *j.Req
			}
			if nodes.Fits(sub, q) { // the runner drops the others
				jobs = append(jobs, j)
			}
		}
		l, err := runNodeParts(t, ns, ps, jobs)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		recs := nodeRecs(ns, l)
		for i := range recs {
			recs[i].Allowed = ps[l.runs[job.ID(recs[i].ID)].job.Partition].Nodes
		}
		if err := validate.CheckNodes(nodecheck.Caps(ns), recs); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if sharedAtOnce(l) {
			mixed++
		}
	}
	if mixed < runs/4 {
		t.Fatalf("%d runs of %d had jobs of two partitions on one node at once: too few", mixed, runs)
	}
}

// sharedAtOnce reports whether two jobs of different partitions ran
// on one node at overlapping times.
func sharedAtOnce(l *nodeLog) bool {
	type span struct {
		part     int32
		from, to float64
	}
	on := map[int][]span{}
	for _, x := range l.runs {
		for _, na := range x.alloc.Nodes {
			on[na.Node] = append(on[na.Node], span{x.job.Partition, x.start, x.end})
		}
	}
	for _, ss := range on {
		for i := range ss {
			for j := range i {
				if ss[i].part != ss[j].part && ss[i].from < ss[j].to && ss[j].from < ss[i].to {
					return true
				}
			}
		}
	}
	return false
}

// The rounds of an instant (nodeParts.Schedule): a start of a later
// partition on shared nodes makes an earlier one pass again at the
// instant, and that pass may start what the first could not. Two nodes
// of 2 cores (n1: 0-1, n2: 2-3); A = {n1, n2} (number 1, first), B =
// {n2} (number 2); all jobs at t=0, runtimes the estimates; EASY and
// conservative alike.
//
//	round 1, A: J1 (2 tasks, 100 s) on n1 (0-1). H (4 tasks, 50 s)
//	   is reserved at 100, on n1 and n2. J (1 task, 200 s) fits now on
//	   n2 but would hold core 2 past 100, where H needs it: it waits.
//	round 1, B: K (1 task, 300 s) on n2 core 2, [0, 300).
//	round 2, A (K is foreign to it, on n2): H now waits for K's end:
//	   reserved at 300. J on n2 core 3, [0, 200), ends before:
//	   backfilled at 0 (without the second round, at A's next pass,
//	   100).
//	t=300: K ends; H on n1 and n2, [300, 350).
func TestOverlappingNodePartitionsRounds(t *testing.T) {
	ns := mustNodes(t, "n[1-2]:cores=2")
	tasks := func(n int) nodes.Request { return nodes.Request{Tasks: n, CPUsPerTask: 1} }
	jobs := []actual.Job{
		inPart(nj(1, 0, 100, 100, tasks(2)), 1), // J1
		inPart(nj(2, 0, 50, 50, tasks(4)), 1),   // H
		inPart(nj(3, 0, 200, 200, tasks(1)), 1), // J
		inPart(nj(4, 0, 300, 300, tasks(1)), 2), // K
	}
	want := map[job.ID]struct {
		start float64
		alloc string
	}{1: {0, "n1:0-1/t2"}, 2: {300, "n1:0-1/t2 n2:2-3/t2"}, 3: {0, "n2:3"}, 4: {0, "n2:2"}}
	for _, pol := range []string{"easy", "conservative"} {
		ps := []engine.NodePartition{partOf(t, ns, "A", []int{0, 1}, pol, false, 1), partOf(t, ns, "B", []int{1}, pol, false, 2)}
		l, err := runNodeParts(t, ns, ps, jobs)
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		for id, w := range want {
			x := l.runs[id]
			if got := allocText(ns, x.alloc); x.start != w.start || got != w.alloc {
				t.Errorf("%s: job %d: start %g on %s, want %g on %s", pol, id, x.start, got, w.start, w.alloc)
			}
		}
		if r := l.runs[3].reason; r != job.Backfilled {
			t.Errorf("%s: J started as %v, want backfilled", pol, r)
		}
	}
}

// Tiers, worked by hand (fcfs): one node n1 of 4 cores in partitions A
// (listed first) and B; every job asks 4 tasks and runs 10 s: job 1 in
// A at 0, job 2 in B at 0, job 3 in A at 1, job 4 in B at 2.
//
//   - No tiers: the list's order, A first at every instant: job 1 at 0,
//     job 3 at 10 (A passes first at job 1's end), job 2 at 20, job 4
//     at 30.
//   - Equal tiers: the partition with the oldest waiting job passes
//     first: at 0 job 1 (A) before job 2 (B, a larger id); at 10 job 2
//     (submitted at 0) before job 3 (at 1), at 20 job 3, at 30 job 4:
//     the submission order, as Slurm's one queue under priority/basic.
//   - B of a higher tier: B first whatever waits: job 2 at 0, job 4 at
//     10, then A's jobs 1 at 20 and 3 at 30.
func TestNodePartitionTiers(t *testing.T) {
	ns := mustNodes(t, "n1:cores=4")
	four := nodes.Request{Tasks: 4, CPUsPerTask: 1}
	jobs := []actual.Job{inPart(nj(1, 0, 10, 10, four), 1), inPart(nj(2, 0, 10, 10, four), 2), inPart(nj(3, 1, 10, 10, four), 1), inPart(nj(4, 2, 10, 10, four), 2)}
	for _, c := range []struct {
		name           string
		tiered         bool
		tierA, tierB   int
		s1, s2, s3, s4 float64
	}{
		{"no tiers", false, 0, 0, 0, 20, 10, 30},
		{"equal tiers", true, 1, 1, 0, 10, 20, 30},
		{"B higher", true, 1, 2, 20, 0, 30, 10},
	} {
		a, b := partOf(t, ns, "A", []int{0}, "fcfs", false, 1), partOf(t, ns, "B", []int{0}, "fcfs", false, 2)
		a.Tier, a.Tiered, b.Tier, b.Tiered = c.tierA, c.tiered, c.tierB, c.tiered
		l, err := runNodeParts(t, ns, []engine.NodePartition{a, b}, jobs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := []float64{l.runs[1].start, l.runs[2].start, l.runs[3].start, l.runs[4].start}
		if want := []float64{c.s1, c.s2, c.s3, c.s4}; !slices.Equal(got, want) {
			t.Errorf("%s: starts %v, want %v", c.name, got, want)
		}
	}
}
