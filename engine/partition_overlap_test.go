package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload"
)

// Overlapping partitions (docs/partitions.md, "Overlapping
// partitions").

// partOn is a partition of the CPUs r taking the trace's partition num,
// under a fresh instance of policy pol.
func partOn(t *testing.T, pol, name string, num int32, r platform.Runs) engine.Partition {
	t.Helper()
	p, err := queuePolicy(pol, r.Count())
	if err != nil {
		t.Fatal(err)
	}
	return engine.Partition{Name: name, CPUs: r, Numbers: []int32{num}, Policy: p}
}

// resvLog records the reservations a partition's policy reports
// (policy.ReservationReporter): job -> "at@now", each time the reserved
// start changes.
type resvLog map[job.ID][]string

func (l resvLog) watch(p engine.Partition) engine.Partition {
	p.Policy.(policy.ReservationReporter).SetOnReserve(func(now float64, id job.ID, at float64) {
		h := l[id]
		if len(h) > 0 && strings.HasPrefix(h[len(h)-1], fmt.Sprintf("%g@", at)) {
			return
		}
		l[id] = append(h, fmt.Sprintf("%g@%g", at, now))
	})
	return p
}

// Six CPUs: partition a = CPUs 0-3 (trace partition 1), b = CPUs 2-5
// (trace partition 2): they share CPUs 2-3; a alone holds 0-1, b alone
// 4-5. Both EASY (conservative gives the same schedule here).
//
//	J1 a t=0  2 CPUs est 20 run 20    J2 b t=0  4 CPUs est 50 run 50
//	J3 a t=1  3 CPUs est 10 run 10    J4 a t=2  1 CPU  est 40 run 40
//	J5 b t=25 4 CPUs est 30 run 30
//
// Partitions served a, then b (the order given):
//   - t=0: a's pass starts J1 on its own CPUs 0-1 (a job takes the CPUs
//     no other partition holds first). b's pass starts J2 on 4-5 (its
//     own) and 2-3 (shared): a is told (Occupy: 2 of its CPUs until 50)
//     and passes again, with nothing to start.
//   - t=1: J3 (3 CPUs) waits in a: a's view has J1 on 2 CPUs until 20
//     and J2 on 2 until 50, so 2 are free at 20 and 4 at 50: J3 is
//     reserved at 50 (alone on 4 CPUs, a would reserve it at 20).
//   - t=20: J1 ends; CPUs 0-1 are free. J4 (1 CPU, est 40) would end at
//     60, after the shadow time 50, but a has 4 - 3 = 1 extra CPU at 50:
//     J4 backfills at 20 on CPU 0.
//   - t=25: J5 (4 CPUs) waits in b behind J2: reserved at 50.
//   - t=50: J2 ends; 2-5 are idle. a is served first: J3 starts on CPU
//     1 (a's own CPU left) and 2-3, and b is told (J3 holds 2 of its
//     CPUs until 60). b's pass: J5 needs 4, b has 2 free: its
//     reservation moves from 50 to 60 (a job of another partition took
//     shared CPUs first, the one case where a reservation moves later).
//   - t=60: J3 and J4 end; J5 starts on 2-5 and ends at 90.
//
// Served b first, t=50 goes the other way: J5 starts on 2-5, a is told
// (J5 holds 2-3 until 80), and J3, whose reservation was at 50, now
// needs 3 CPUs where a has CPU 1 free until J4 ends at 60 and two at 60:
// it is reserved at 80, and starts then on 0-2.
func TestOverlapHandWorked(t *testing.T) {
	jobs := []actual.Job{pj(1, 1, 0, 2, 20, 20), pj(2, 2, 0, 4, 50, 50), pj(3, 1, 1, 3, 10, 10),
		pj(4, 1, 2, 1, 40, 40), pj(5, 2, 25, 4, 30, 30)}
	a, b := platform.Runs{0, 3}, platform.Runs{2, 5}
	for _, pol := range []string{"easy", "conservative"} {
		log := resvLog{}
		got := runParts(t, 6, []engine.Partition{log.watch(partOn(t, pol, "a", 1, a)), log.watch(partOn(t, pol, "b", 2, b))}, jobs)
		wantParts(t, pol+" a,b", got, map[job.ID]partEnd{
			1: {0, 20, "0-1", imm}, 2: {0, 50, "2-5", imm}, 3: {50, 60, "1-3", res},
			4: {20, 60, "0", bf}, 5: {60, 90, "2-5", res}})
		if g, w := log[3], []string{"50@1"}; !slices.Equal(g, w) {
			t.Errorf("%s a,b: J3's reservations %v, want %v", pol, g, w)
		}
		if g, w := log[5], []string{"50@25", "60@50"}; !slices.Equal(g, w) {
			t.Errorf("%s a,b: J5's reservations %v, want %v", pol, g, w)
		}

		log = resvLog{}
		got = runParts(t, 6, []engine.Partition{log.watch(partOn(t, pol, "b", 2, b)), log.watch(partOn(t, pol, "a", 1, a))}, jobs)
		wantParts(t, pol+" b,a", got, map[job.ID]partEnd{
			1: {0, 20, "0-1", imm}, 2: {0, 50, "2-5", imm}, 3: {80, 90, "0-2", res},
			4: {20, 60, "0", bf}, 5: {50, 80, "2-5", res}})
		if g, w := log[3], []string{"50@1", "80@50"}; !slices.Equal(g, w) {
			t.Errorf("%s b,a: J3's reservations %v, want %v", pol, g, w)
		}
	}
}

// A job that ends before its estimate frees the shared CPUs at once:
// the other partition is told (Release) and passes at that instant.
// Four CPUs, a = 0-2, b = 1-3 (shared 1-2). J1 (b, 3 CPUs, est 100,
// runs 10) takes 3 and 1-2; J2 (a, 2 CPUs) arrives at 5 and is
// reserved at 100 in a's view; J1 ends at 10, and J2 starts then on 0-1.
func TestOverlapEarlyEnd(t *testing.T) {
	jobs := []actual.Job{pj(1, 2, 0, 3, 10, 100), pj(2, 1, 5, 2, 10, 10)}
	for _, pol := range []string{"fcfs", "firstfit", "easy", "conservative"} {
		got := runParts(t, 4, []engine.Partition{partOn(t, pol, "a", 1, platform.Runs{0, 2}), partOn(t, pol, "b", 2, platform.Runs{1, 3})}, jobs)
		wantParts(t, pol, got, map[job.ID]partEnd{1: {0, 10, "1-3", imm}, 2: {10, 20, "0-1", res}})
	}
	// Zero-length jobs: J3 (b, 3 CPUs, estimate and runtime 0) at 30
	// takes 3 and 1-2, served first; J4 (a, 3 CPUs) arriving then waits,
	// and starts at the same instant once J3's end (another batch at 30)
	// gives the CPUs back.
	jobs = append(jobs, pj(3, 2, 30, 3, 0, 0), pj(4, 1, 30, 3, 10, 10))
	for _, pol := range []string{"fcfs", "firstfit", "easy", "conservative"} {
		got := runParts(t, 4, []engine.Partition{partOn(t, pol, "b", 2, platform.Runs{1, 3}), partOn(t, pol, "a", 1, platform.Runs{0, 2})}, jobs)
		wantParts(t, pol+" zero", got, map[job.ID]partEnd{1: {0, 10, "1-3", imm}, 2: {10, 20, "0-1", res},
			3: {30, 30, "1-3", imm}, 4: {30, 40, "0-2", imm}})
	}
}

// Two partitions of the same CPUs, every job in one of them: the run is
// the plain run, job by job and CPU by CPU (the other partition only
// watches the jobs go by).
func TestOverlapIdenticalPartitionsArePlain(t *testing.T) {
	for _, pol := range []string{"fcfs", "firstfit", "easy", "conservative"} {
		for seed := range uint64(10) {
			jobs := overlapJobs(seed, 80, func(*rand.Rand) int32 { return 1 }, 8)
			all := platform.Runs{0, 7}
			got := runParts(t, 8, []engine.Partition{partOn(t, pol, "idle", 2, all), partOn(t, pol, "busy", 1, all)}, jobs)
			p, _ := queuePolicy(pol, 8)
			rec := &partRec{ends: map[job.ID]partEnd{}}
			c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(8), Policy: p, Source: workload.FromSlice(jobs), Listener: rec})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Run(); err != nil {
				t.Fatal(err)
			}
			wantParts(t, fmt.Sprintf("%s seed %d", pol, seed), got, rec.ends)
		}
	}
}

// overlapJobs is a random workload of n jobs of at most maxProcs CPUs,
// each routed to partition part(r); runtimes within estimates.
func overlapJobs(seed uint64, n int, part func(*rand.Rand) int32, maxProcs int) []actual.Job {
	r := rng.New(seed, 0, "overlap")
	var jobs []actual.Job
	now := 0.0
	for id := range n {
		if r.IntN(3) > 0 {
			now += float64(r.IntN(15))
		}
		size := 1 + r.IntN(maxProcs)
		est := float64(5 * (1 + r.IntN(20)))
		run := float64(1 + r.IntN(int(est)))
		jobs = append(jobs, pj(job.ID(id+1), part(r), now, size, run, est))
	}
	return jobs
}

// occupyCount wraps a partition's policy and counts the foreign jobs it
// is told of.
type occupyCount struct {
	*backfill.Backfill
	n int
}

func (o *occupyCount) Occupy(now float64, id job.ID, procs int, end float64) {
	o.n++
	o.Backfill.Occupy(now, id, procs, end)
}

// The guarantee of docs/partitions.md on random workloads over three
// overlapping partitions (a = 0-5, b = 4-9, c = 2-7 under EASY and
// conservative, runtimes within estimates): every run ends with every
// job started (the engine refuses any start a partition could not
// make), each job on its partition's CPUs; and a reservation moves
// later only across a foreign job's start on the partition's CPUs
// (Occupy).
func TestOverlapReservationsHold(t *testing.T) {
	cpus := []platform.Runs{{0, 5}, {4, 9}, {2, 7}}
	for _, pol := range []string{"easy", "conservative"} {
		moved := 0 // reservations moved later by a foreign start
		for seed := range uint64(15) {
			jobs := overlapJobs(seed, 120, func(r *rand.Rand) int32 { return int32(1 + r.IntN(3)) }, 6)
			var ps []engine.Partition
			var counts []*occupyCount
			type seen struct {
				at float64
				n  int
			}
			last := map[job.ID]seen{}
			for k, r := range cpus {
				p := partOn(t, pol, string(rune('a'+k)), int32(k+1), r)
				oc := &occupyCount{Backfill: p.Policy.(*backfill.Backfill)}
				oc.SetOnReserve(func(now float64, id job.ID, at float64) {
					if s, ok := last[id]; ok && at > s.at {
						if oc.n == s.n {
							t.Errorf("%s seed %d: job %d's reservation moved from %g to %g at t=%g with no foreign start in between", pol, seed, id, s.at, at, now)
						}
						moved++
					}
					last[id] = seen{at, oc.n}
				})
				p.Policy = oc
				ps = append(ps, p)
				counts = append(counts, oc)
			}
			got := runParts(t, 10, ps, jobs)
			if len(got.ends) != len(jobs) {
				t.Fatalf("%s seed %d: %d jobs ended of %d", pol, seed, len(got.ends), len(jobs))
			}
			for _, x := range jobs {
				r := cpus[x.Partition-1]
				for _, tok := range splitRuns(got.ends[x.ID].cpus) {
					if tok[0] < r[0] || tok[1] > r[1] {
						t.Fatalf("%s seed %d: job %d of partition %d on CPUs %s", pol, seed, x.ID, x.Partition, got.ends[x.ID].cpus)
					}
				}
			}
			if counts[0].n == 0 {
				t.Errorf("%s seed %d: no foreign start in a (a weak test)", pol, seed)
			}
		}
		if moved == 0 {
			t.Errorf("%s: no reservation moved later (a weak test)", pol)
		}
		t.Logf("%s: %d reservations moved later across a foreign start", pol, moved)
	}
}

// splitRuns reads a CPU list in allocated_resources text as [lo, hi]
// pairs.
func splitRuns(s string) [][2]int32 {
	var out [][2]int32
	for _, tok := range strings.Fields(s) {
		var lo, hi int32
		if n, _ := fmt.Sscanf(tok, "%d-%d", &lo, &hi); n == 2 {
			out = append(out, [2]int32{lo, hi})
		} else {
			fmt.Sscanf(tok, "%d", &lo)
			out = append(out, [2]int32{lo, lo})
		}
	}
	return out
}
