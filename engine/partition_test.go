package engine_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload"
)

// pj is a job of the trace's partition part.
func pj(id job.ID, part int32, submit float64, procs int, run, est float64) actual.Job {
	x := j(id, submit, procs, run, est)
	x.Partition = part
	return x
}

// partEnd is one job's record as the partition tests see it.
type partEnd struct {
	start, end float64
	cpus       string
	reason     job.StartReason
}

type partRec struct {
	engine.NopListener
	ends map[job.ID]partEnd
}

func (r *partRec) JobFinished(now float64, rec *engine.Record) { r.add(rec) }
func (r *partRec) JobKilled(now float64, rec *engine.Record)   { r.add(rec) }
func (r *partRec) add(rec *engine.Record) {
	r.ends[rec.Job.ID] = partEnd{rec.Start, rec.End, rec.CPUs.String(), rec.Reason}
}

// part is a partition of the given CPUs taking the trace's partition num,
// under a fresh instance of policy pol.
func part(t *testing.T, pol, name string, num int32, lo, hi int32) engine.Partition {
	t.Helper()
	p, err := queuePolicy(pol, int(hi-lo+1))
	if err != nil {
		t.Fatal(err)
	}
	return engine.Partition{Name: name, CPUs: platform.Runs{lo, hi}, Numbers: []int32{num}, Policy: p}
}

func runParts(t *testing.T, procs int, parts []engine.Partition, jobs []actual.Job) *partRec {
	t.Helper()
	rec := &partRec{ends: map[job.ID]partEnd{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Source: workload.FromSlice(jobs), Listener: rec, Partitions: parts})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return rec
}

func wantParts(t *testing.T, name string, got *partRec, want map[job.ID]partEnd) {
	t.Helper()
	for id, w := range want {
		if g := got.ends[id]; g != w {
			t.Errorf("%s: job %d: got %+v, want %+v", name, id, g, w)
		}
	}
	if len(got.ends) != len(want) {
		t.Errorf("%s: %d jobs ended, want %d", name, len(got.ends), len(want))
	}
}

// Four CPUs: partition a = CPUs 0-1 (trace partition 1), b = CPUs 2-3
// (trace partition 2). J1 (a, 2 CPUs) runs [0, 100). J2 (a, 1 CPU)
// arrives at 10: partition b is idle, but J2 may only run on a's CPUs,
// so it waits for J1's end and runs [100, 110) on CPU 0 (without
// partitions it would start at 10 on CPU 2). J3 (b, 1 CPU) arrives at
// 20 and starts at once on CPU 2, the lowest idle id of b: it passes
// J2, which waits in another partition, so it is immediate, not
// backfilled. Same under every policy: J2 is the head of its partition.
func TestPartitionWaitsForItsCPUs(t *testing.T) {
	jobs := []actual.Job{pj(1, 1, 0, 2, 100, 100), pj(2, 1, 10, 1, 10, 10), pj(3, 2, 20, 1, 5, 5)}
	for _, pol := range []string{"fcfs", "easy", "conservative", "firstfit"} {
		got := runParts(t, 4, []engine.Partition{part(t, pol, "a", 1, 0, 1), part(t, pol, "b", 2, 2, 3)}, jobs)
		wantParts(t, pol, got, map[job.ID]partEnd{
			1: {0, 100, "0-1", imm}, 2: {100, 110, "0", res}, 3: {20, 25, "2", imm}})
	}
	// The same jobs without partitions: J2 starts at 10 on CPU 2.
	p, _ := queuePolicy("fcfs", 4)
	rec := &partRec{ends: map[job.ID]partEnd{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: p, Source: workload.FromSlice(jobs), Listener: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	if g := rec.ends[2]; g != (partEnd{10, 20, "2", imm}) {
		t.Errorf("without partitions: job 2: %+v", g)
	}
}

// Six CPUs: partition a = CPUs 0-3 (trace partition 7), b = CPUs 4-5
// (trace partition 9), both EASY. In a: J1 (3 CPUs, estimate 100) runs
// [0, 100) on 0-2. J2 (4 CPUs, estimate 50) waits: a has 1 CPU free; its
// reservation is at 100 (J1's estimated end, the shadow time) with 0
// extra CPUs (a has 4, J2 needs 4). J3 (1 CPU, estimate 50) fits a's one
// free CPU and ends by 52 <= 100: backfilled at 2 on CPU 3. J4 (1 CPU,
// estimate 200, runs 10) finds no CPU of a free at 3; at 52 (J3 ends)
// CPU 3 is free, but J4 would end at 252 > 100 and there are no extra
// CPUs: it waits. At 100 J2 starts on 0-3 (reserved) and runs to 150;
// J4 starts at 150 on CPU 0 and ends at 160. In b: J5 (2 CPUs, estimate
// 500) arrives at 3 and starts at once on 4-5, although a's J2 and J4
// wait: b's CPUs are b's alone (J2 would not fit in b anyway, nor J4
// run there). The EASY numbers are a's alone: 4 CPUs, not 6.
func TestPartitionEASYBackfillsWithin(t *testing.T) {
	jobs := []actual.Job{pj(1, 7, 0, 3, 100, 100), pj(2, 7, 1, 4, 50, 50), pj(3, 7, 2, 1, 50, 50),
		pj(4, 7, 3, 1, 10, 200), pj(5, 9, 3, 2, 500, 500)}
	got := runParts(t, 6, []engine.Partition{part(t, "easy", "a", 7, 0, 3), part(t, "easy", "b", 9, 4, 5)}, jobs)
	wantParts(t, "easy", got, map[job.ID]partEnd{
		1: {0, 100, "0-2", imm}, 2: {100, 150, "0-3", res}, 3: {2, 52, "3", bf},
		4: {150, 160, "0", res}, 5: {3, 503, "4-5", imm}})
}

// A partition of several runs: its jobs get its lowest idle ids across
// the runs, and the default partition takes the jobs of unknown
// partition (-1).
func TestPartitionRunsAndDefault(t *testing.T) {
	pa, _ := queuePolicy("fcfs", 4)
	pb, _ := queuePolicy("fcfs", 2)
	parts := []engine.Partition{
		{Name: "a", CPUs: platform.Runs{0, 1, 4, 5}, Numbers: []int32{1}, Policy: pa},
		{Name: "b", CPUs: platform.Runs{2, 3}, Default: true, Policy: pb},
	}
	jobs := []actual.Job{pj(1, 1, 0, 1, 10, 10), pj(2, 1, 0, 3, 10, 10), pj(3, -1, 0, 2, 5, 5)}
	got := runParts(t, 6, parts, jobs)
	wantParts(t, "runs", got, map[job.ID]partEnd{
		1: {0, 10, "0", imm}, 2: {0, 10, "1 4-5", imm}, 3: {0, 5, "2-3", imm}})
}

// Random workloads: two partitions run side by side give, job by job,
// exactly the schedules of the two partitions run as clusters of their
// own (the CPU ids shifted by the partition's first id). This is the
// rule of docs/partitions.md: a partition is a cluster with its own
// queue that shares the clock.
func TestPartitionsAreIndependentClusters(t *testing.T) {
	for _, pol := range []string{"fcfs", "easy", "conservative", "firstfit"} {
		for seed := range uint64(20) {
			r := rng.New(seed, 0, "partitions")
			var all, inA, inB []actual.Job
			now := 0.0
			for id := range 60 {
				now += float64(r.IntN(20))
				p := int32(1 + r.IntN(2))
				size := 1 + r.IntN(6)
				if p == 2 {
					size = 1 + r.IntN(4)
				}
				run := float64(1 + r.IntN(100))
				est := run + float64(r.IntN(50))
				x := pj(job.ID(id+1), p, now, size, run, est)
				all = append(all, x)
				if p == 1 {
					inA = append(inA, x)
				} else {
					inB = append(inB, x)
				}
			}
			got := runParts(t, 10, []engine.Partition{part(t, pol, "a", 1, 0, 5), part(t, pol, "b", 2, 6, 9)}, all)
			for _, side := range []struct {
				jobs  []actual.Job
				procs int
				shift int32
			}{{inA, 6, 0}, {inB, 4, 6}} {
				p, _ := queuePolicy(pol, side.procs)
				rec := &partRec{ends: map[job.ID]partEnd{}}
				c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(side.procs), Policy: p, Source: workload.FromSlice(side.jobs), Listener: rec})
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Run(); err != nil {
					t.Fatal(err)
				}
				for _, x := range side.jobs {
					w := rec.ends[x.ID]
					w.cpus = shiftRuns(w.cpus, side.shift)
					if g := got.ends[x.ID]; g != w {
						t.Fatalf("%s seed %d: job %d: partitioned %+v, alone %+v", pol, seed, x.ID, g, w)
					}
				}
			}
		}
	}
}

// shiftRuns adds d to every id of a CPU list in allocated_resources text.
func shiftRuns(s string, d int32) string {
	var out []string
	for _, tok := range strings.Fields(s) {
		var lo, hi int32
		if n, _ := fmt.Sscanf(tok, "%d-%d", &lo, &hi); n == 2 {
			out = append(out, fmt.Sprintf("%d-%d", lo+d, hi+d))
		} else {
			fmt.Sscanf(tok, "%d", &lo)
			out = append(out, fmt.Sprint(lo+d))
		}
	}
	return strings.Join(out, " ")
}

// Bad configurations and jobs are errors that say what is wrong.
func TestPartitionErrors(t *testing.T) {
	mk := func(name string, lo, hi int32, nums ...int32) engine.Partition {
		p, _ := queuePolicy("fcfs", int(hi-lo+1))
		return engine.Partition{Name: name, CPUs: platform.Runs{lo, hi}, Numbers: nums, Policy: p}
	}
	for _, c := range []struct {
		parts []engine.Partition
		want  string
	}{
		{[]engine.Partition{mk("a", 0, 1, 1), mk("b", 2, 3, 1)}, "partitions a and b both take the trace's partition 1"},
		{[]engine.Partition{mk("a", 0, 4, 1)}, "partition a: CPU 4"},
		{nil, "a policy and a source are required"},
	} {
		_, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Source: workload.FromSlice(nil), Partitions: c.parts})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// Overlapping partitions need policies that see the other
	// partitions' jobs (policy.ForeignLoad); a partition that shares
	// nothing may have any policy.
	_, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Source: workload.FromSlice(nil),
		Partitions: []engine.Partition{mk("a", 0, 1, 1), mk("b", 1, 3, 2)}})
	if err != nil {
		t.Errorf("overlap: %v", err)
	}
	blind := func(name string, lo, hi int32, num int32) engine.Partition {
		p := mk(name, lo, hi, num)
		p.Policy = noForeign{p.Policy}
		return p
	}
	_, err = engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(6), Source: workload.FromSlice(nil),
		Partitions: []engine.Partition{blind("c", 4, 5, 3), mk("a", 0, 1, 1), blind("b", 1, 3, 2)}})
	if !errors.Is(err, engine.ErrNoForeignLoad) || !strings.Contains(err.Error(), "partition b shares CPUs with partition a, and policy fcfs cannot run there") {
		t.Errorf("overlap without ForeignLoad: %v", err)
	}
	// A job of no partition, or larger than its partition, is refused
	// when read (the runner drops such jobs before: a broken source).
	for _, c := range []struct {
		j    actual.Job
		want string
	}{
		{pj(5, 3, 0, 1, 1, 1), "job 5: partition 3 is none of the run's partitions"},
		{pj(6, -1, 0, 1, 1, 1), "job 6: partition -1 is none of the run's partitions"},
		{pj(7, 1, 0, 3, 1, 1), "job 7: needs 3 processors, partition a has 2"},
	} {
		cl, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Source: workload.FromSlice([]actual.Job{c.j}),
			Partitions: []engine.Partition{mk("a", 0, 1, 1), mk("b", 2, 3, 2)}})
		if err != nil {
			t.Fatal(err)
		}
		if err := cl.Run(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// noForeign hides a policy's policy.ForeignLoad.
type noForeign struct{ policy.QueueScheduler }
