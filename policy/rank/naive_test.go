package rank_test

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/rank"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// paperRank is the rank of a job as the paper defines it (al-najjar-2019),
// written here from the paper and not from rank.Rank.Of, so that a wrong
// formula or coefficient in the implementation is caught by the naive
// comparisons below: procs CPUs, memKB KB of memory per CPU (read in MB,
// KB / 1024; 0 when unknown), CPU speed speed (0: any).
//
//   - original, Eq. 1: 3000*No_CPU + 75*Memory_size + 10*CPU_Speed;
//   - linear, Eq. 2 with Tables 2-3: 6.565*No_CPU - 0.011*Memory_size +
//     257.099 (Eq. 5 prints the constant as "57.099");
//   - log, Eq. 3 with Tables 6-7: 568.756*log10(No_CPU) +
//     91.513*log10(Memory_size) + 10.130 (the text's F4 "1.513" drops the
//     9), where a value below 1 (unknown memory, under 1 MB) counts as
//     log10 = 0, the reading docs/papers/alnajjar2019.md states.
func paperRank(f rank.Form, procs int, memKB, speed float64, logBelowOne bool) float64 {
	cpu, mb := float64(procs), memKB/1024
	switch f {
	case rank.FormOriginal:
		return 3000*cpu + 75*mb + 10*speed
	case rank.FormLinear:
		return 6.565*cpu - 0.011*mb + 257.099
	case rank.FormLog:
		// Eq. 6 takes log10 of the values as they are (logBelowOne: the
		// reading log_below_one=log; unknown memory, 0, counts 0); our
		// first reading counts a value below 1 as 0.
		log10 := func(x float64) float64 {
			if x < 1 && !(logBelowOne && x > 0) {
				return 0
			}
			return math.Log10(x)
		}
		return 568.756*log10(cpu) + 91.513*log10(mb) + 10.130
	}
	panic(fmt.Sprintf("paperRank: no such form %v", f))
}

// naiveJRB is an independent, literal JRB written for the tests: its own
// event loop, ranks from paperRank (the options' form; the paper's
// coefficients), and at every instant the rule as the paper states it, one
// start at a time: recompute the set of waiting jobs that fit now, take
// the smallest (rank, submit, id), start it on the first machine (index
// order) where it fits; repeat. With a head mode the submit-order head is
// tried first at every step; with HeadEASY the head's reservation (shadow
// time, extra CPUs) is recomputed from scratch at every step from the
// running jobs' estimated ends. O(queue^2) per instant.
func naiveJRB(p platform.Platform, o rank.Options, jobs []actual.Job) (map[job.ID]run, int) {
	type wj struct {
		j    actual.Job
		rank float64
	}
	type rj struct {
		id          job.ID
		m, procs    int
		end, estEnd float64
	}
	if o.Rank.MemUnitKB != 0 && o.Rank.MemUnitKB != 1024 {
		panic("naiveJRB: memory is read in MB only")
	}
	var ms []platform.Machine
	for m := 0; m < p.Machines(); m++ {
		ms = append(ms, p.Machine(m))
	}
	holds := func(m platform.Machine, j *actual.Job) bool {
		return j.Procs <= m.CPUs && (m.Mem == 0 || j.Mem <= m.Mem) && (j.Speed == 0 || j.Speed <= m.BM())
	}
	var in []actual.Job
	refused := 0
	for _, j := range jobs {
		ok := false
		for _, m := range ms {
			ok = ok || holds(m, &j)
		}
		if !ok || o.PositiveOnly && paperRank(o.Rank.Form, j.Procs, j.Mem, j.Speed, o.Rank.LogBelowOne) <= 0 {
			refused++
			continue
		}
		in = append(in, j)
	}
	free := make([]int, len(ms))
	for m := range ms {
		free[m] = ms[m].CPUs
	}
	out := map[job.ID]run{}
	var waiting []wj
	var running []rj
	next := 0
	for next < len(in) || len(waiting) > 0 || len(running) > 0 {
		t := math.Inf(1)
		if next < len(in) {
			t = in[next].Submit
		}
		for _, r := range running {
			t = min(t, r.end)
		}
		keep := running[:0]
		for _, r := range running {
			if r.end == t {
				free[r.m] += r.procs
				x := out[r.id]
				x.end = t
				out[r.id] = x
			} else {
				keep = append(keep, r)
			}
		}
		running = keep
		for next < len(in) && in[next].Submit == t {
			j := in[next]
			waiting = append(waiting, wj{j, paperRank(o.Rank.Form, j.Procs, j.Mem, j.Speed, o.Rank.LogBelowOne)})
			next++
		}
		for {
			// The submit-order head.
			h := -1
			for i := range waiting {
				if h < 0 || cmp.Or(cmp.Compare(waiting[i].j.Submit, waiting[h].j.Submit), cmp.Compare(waiting[i].j.ID, waiting[h].j.ID)) < 0 {
					h = i
				}
			}
			firstFit := func(j *actual.Job, ok func(m int) bool) int {
				for m := range ms {
					if holds(ms[m], j) && free[m] >= j.Procs && ok(m) {
						return m
					}
				}
				return -1
			}
			any := func(int) bool { return true }
			pick, pm := -1, -1
			if o.Head != rank.HeadNone && h >= 0 {
				if m := firstFit(&waiting[h].j, any); m >= 0 {
					pick, pm = h, m
				}
			}
			if pick < 0 {
				cond := any
				if o.Head == rank.HeadEASY && h >= 0 {
					hj := &waiting[h].j
					rm, shadow, extra := -1, math.Inf(1), 0
					for m := range ms {
						if !holds(ms[m], hj) {
							continue
						}
						var ends []rj
						for _, r := range running {
							if r.m == m {
								ends = append(ends, rj{procs: r.procs, estEnd: max(r.estEnd, t)})
							}
						}
						slices.SortFunc(ends, func(a, b rj) int { return cmp.Compare(a.estEnd, b.estEnd) })
						// The shadow time: the first estimated end at which
						// enough CPUs are free; extra: all CPUs free then
						// (every job ending by it released) beyond the head's.
						s, avail := t, free[m]
						for i := 0; avail < hj.Procs; i++ {
							s = ends[i].estEnd
							avail += ends[i].procs
						}
						avail = free[m]
						for _, e := range ends {
							if e.estEnd <= s {
								avail += e.procs
							}
						}
						if s < shadow {
							rm, shadow, extra = m, s, avail-hj.Procs
						}
					}
					condFor := func(j *actual.Job) func(m int) bool {
						return func(m int) bool {
							return m != rm || t+ms[m].Duration(j.Estimate, j.BMEst) <= shadow || j.Procs <= extra
						}
					}
					for i := range waiting {
						if i == h {
							continue
						}
						m := firstFit(&waiting[i].j, condFor(&waiting[i].j))
						if m >= 0 && (pick < 0 || less(waiting[i].rank, waiting[i].j, waiting[pick].rank, waiting[pick].j)) {
							pick, pm = i, m
						}
					}
				} else {
					for i := range waiting {
						m := firstFit(&waiting[i].j, cond)
						if m >= 0 && (pick < 0 || less(waiting[i].rank, waiting[i].j, waiting[pick].rank, waiting[pick].j)) {
							pick, pm = i, m
						}
					}
				}
				// Strict: only the smallest rank of all the waiting jobs
				// (the head included) may start; if it does not fit (for
				// EASY: without delaying the head), nothing does.
				if o.Select == rank.SelectStrict && len(waiting) > 0 {
					s := 0
					for i := range waiting {
						if less(waiting[i].rank, waiting[i].j, waiting[s].rank, waiting[s].j) {
							s = i
						}
					}
					if pick != s {
						pick, pm = -1, -1
					}
				}
			}
			if pick < 0 {
				break
			}
			j := waiting[pick].j
			reason := job.Immediate
			switch {
			case pick != h:
				reason = job.Backfilled
			case t != j.Submit:
				reason = job.Reserved
			}
			free[pm] -= j.Procs
			out[j.ID] = run{start: t, machine: pm, reason: reason}
			running = append(running, rj{id: j.ID, m: pm, procs: j.Procs,
				end: t + ms[pm].Duration(j.Runtime, j.BMEst), estEnd: t + ms[pm].Duration(j.Estimate, j.BMEst)})
			waiting = append(waiting[:pick], waiting[pick+1:]...)
		}
	}
	return out, refused
}

func less(ra float64, a actual.Job, rb float64, b actual.Job) bool {
	return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID)) < 0
}

// randomJobs makes n jobs on integer times (many ties of submit and end
// times), memory per CPU 0..8 GB (0 a quarter of the time), some CPU-speed
// requirements, estimates at or above the runtime.
func randomJobs(r *rand.Rand, n, maxProcs int, speeds bool) []actual.Job {
	var out []actual.Job
	t := 0.0
	for i := range n {
		t += float64(r.IntN(4))
		rt := float64(1 + r.IntN(60))
		j := actual.Job{ID: job.ID(i + 1), Submit: t, Procs: 1 + r.IntN(maxProcs), Runtime: rt,
			Estimate: rt + float64(r.IntN(3))*float64(r.IntN(30)), Request: -1, User: -1, Group: -1}
		if r.IntN(4) > 0 {
			j.Mem = float64(r.IntN(8*1024)) * 1024 / float64(1+r.IntN(4))
		}
		if speeds && r.IntN(5) == 0 {
			j.Speed = 1.5
		}
		out = append(out, j)
	}
	return out
}

func compare(t *testing.T, got *log, want map[job.ID]run) {
	t.Helper()
	if len(got.runs) != len(want) {
		t.Fatalf("policy ran %d jobs, naive %d", len(got.runs), len(want))
	}
	bad := 0
	for id, w := range want {
		g := got.runs[id]
		if g != w {
			if bad++; bad <= 5 {
				t.Errorf("job %d: policy start %g end %g m%d %v; naive start %g end %g m%d %v",
					id, g.start, g.end, g.machine, g.reason, w.start, w.end, w.machine, w.reason)
			}
		}
	}
	if bad > 5 {
		t.Errorf("... %d jobs differ in all", bad)
	}
}

// allOptions are the paper's named ranks (the only ones naiveJRB knows)
// with every head mode, and the linear rank with positive ranks only.
func allOptions() []rank.Options {
	var out []rank.Options
	for _, f := range rank.Forms() {
		for _, h := range rank.Heads() {
			out = append(out, rank.Options{Rank: rank.Named(f), Head: h})
		}
	}
	out = append(out, rank.Options{Rank: rank.Named(rank.FormLinear), PositiveOnly: true})
	for _, h := range rank.Heads() {
		for _, f := range rank.Forms() {
			out = append(out, rank.Options{Rank: rank.Named(f), Head: h, Select: rank.SelectStrict})
		}
	}
	lb := rank.Named(rank.FormLog)
	lb.LogBelowOne = true
	out = append(out, rank.Options{Rank: lb}, rank.Options{Rank: lb, Select: rank.SelectStrict, Head: rank.HeadEASY})
	return out
}

// The policy through the real model agrees job for job (start, end,
// machine, reason) with the naive JRB on random workloads: one machine,
// and three machines of different sizes, memories and speeds.
func TestAgreesWithNaiveRandom(t *testing.T) {
	plats := []platform.Platform{
		platform.MustCluster(16),
		mustPlatform(t, platform.Machine{CPUs: 8, Mem: 4096 * 1024}, platform.Machine{CPUs: 16, Mem: 2048 * 1024, Speed: 2},
			platform.Machine{CPUs: 4, Speed: 1.5}),
	}
	for pi, p := range plats {
		for seed := range uint64(4) {
			r := rand.New(rand.NewPCG(seed, 77))
			jobs := randomJobs(r, 300, 20, pi == 1)
			for _, o := range allOptions() {
				o.Platform = p
				want, wref := naiveJRB(p, o, jobs)
				got, gref := simulate(t, p, o, jobs)
				if gref != wref {
					t.Errorf("platform %d seed %d %s head %s: refused %d, naive %d", pi, seed, o.Rank.Form, o.Head, gref, wref)
				}
				compare(t, got, want)
				checkInvariants(t, p, jobs, got)
			}
		}
	}
}

// checkInvariants: every job that ran started at or after its submit
// time, on a machine that holds it (CPUs, memory, speed), and no machine
// ever runs more CPUs than it has.
func checkInvariants(t *testing.T, p platform.Platform, jobs []actual.Job, l *log) {
	t.Helper()
	type ev struct {
		t     float64
		delta int
	}
	per := make([][]ev, p.Machines())
	for i := range jobs {
		j := &jobs[i]
		g, ok := l.runs[j.ID]
		if !ok {
			continue
		}
		m := p.Machine(g.machine)
		if g.start < j.Submit {
			t.Errorf("job %d starts at %g before its submit %g", j.ID, g.start, j.Submit)
		}
		if !m.Holds(j.Procs, j.Mem, j.Speed) {
			t.Errorf("job %d (%d CPUs, %g KB, speed %g) on machine %d %+v", j.ID, j.Procs, j.Mem, j.Speed, g.machine, m)
		}
		per[g.machine] = append(per[g.machine], ev{g.start, j.Procs}, ev{g.end, -j.Procs})
	}
	for m, evs := range per {
		slices.SortFunc(evs, func(a, b ev) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.delta, b.delta)) })
		used := 0
		for _, e := range evs {
			if used += e.delta; used > p.Machine(m).CPUs {
				t.Fatalf("machine %d runs %d CPUs at t=%g, has %d", m, used, e.t, p.Machine(m).CPUs)
			}
		}
	}
}

const hpc2n = "../../../shared/traces/HPC2N-2002-2.1-cln.swf.gz"

// readTrace reads n jobs of an SWF trace after skipping the first skip
// (with memory per processor), exact estimates (the runtime) so that no
// job is killed.
func readTrace(t testing.TB, name string, skip, n int) []actual.Job {
	t.Helper()
	rd, err := workload.OpenTrace(name)
	if err != nil {
		t.Skipf("%s: %v", name, err)
	}
	defer rd.Close()
	src := swf.NewSource(rd, swf.Options{})
	var out []actual.Job
	for len(out) < n {
		j, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if skip > 0 {
			skip--
			continue
		}
		j.Estimate, j.Request = j.Runtime, -1
		out = append(out, j)
	}
	return out
}

// On the real HPC2N trace (240 CPUs; memory per processor known for most
// jobs): 3,000 jobs from the 20,001st on (the first months have fewer
// jobs with memory), every rank and head mode, the policy and
// the naive JRB agree job for job; once more on a platform of two
// machines of 120 CPUs, one with 200 MB per CPU, so that memory decides
// where jobs go and some are refused.
func TestAgreesWithNaiveHPC2N(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	jobs := readTrace(t, hpc2n, 20000, 3000)
	withMem := 0
	for _, j := range jobs {
		if j.Mem > 0 {
			withMem++
		}
	}
	if withMem < len(jobs)*9/10 {
		t.Fatalf("only %d of %d jobs have memory", withMem, len(jobs))
	}
	plats := []platform.Platform{platform.MustCluster(240),
		mustPlatform(t, platform.Machine{CPUs: 120, Mem: 200 * 1024}, platform.Machine{CPUs: 120})}
	for pi, p := range plats {
		for _, o := range allOptions() {
			o.Platform = p
			want, wref := naiveJRB(p, o, jobs)
			got, gref := simulate(t, p, o, jobs)
			if gref != wref {
				t.Errorf("platform %d %s head %s: refused %d, naive %d", pi, o.Rank.Form, o.Head, gref, wref)
			}
			compare(t, got, want)
			checkInvariants(t, p, jobs, got)
		}
	}
}

// The implementation's named ranks are the paper's formulas (paperRank),
// on a grid of CPUs, memories (unknown, under 1 MB, 1 MB up to 4 GB per
// CPU) and speeds: the direct form of what the naive comparisons check
// through whole schedules.
func TestNamedRanksArePaperRanks(t *testing.T) {
	for _, f := range rank.Forms() {
		r := rank.Named(f)
		for _, procs := range []int{1, 2, 7, 64, 1000} {
			for _, memKB := range []float64{0, 512, 1024, 5 * 1024, 597 * 1024, 4 << 20} {
				for _, speed := range []float64{0, 1, 2.5} {
					for _, below := range []bool{false, true} {
						r.LogBelowOne = below
						got, want := r.Of(procs, memKB, speed), paperRank(f, procs, memKB, speed, below)
						if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
							t.Errorf("%s rank (log_below_one %v) of %d CPUs, %g KB, speed %g: %g, paper %g", f, below, procs, memKB, speed, got, want)
						}
					}
				}
			}
		}
	}
}
