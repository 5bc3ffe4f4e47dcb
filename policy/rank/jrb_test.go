package rank_test

import (
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/rank"
)

// The paper's three ranks on one machine of 4 CPUs. Job 1 holds the
// whole machine until t=10; jobs 2-7 wait behind it (memory per CPU in MB):
//
//	job submit CPUs  MB    runtime  original          linear                              log
//	 2   2     1     50    1        3000+3750 = 6750  257.099+6.565-0.55   = 263.114     10.13+0+91.513*1.69897 = 165.608
//	 3   1     2      1    7        6000+75   = 6075  257.099+13.13-0.011  = 270.218     10.13+568.756*0.30103  = 181.343
//	 4   2     1   1000    7        3000+75000=78000  257.099+6.565-11     = 252.664     10.13+0+91.513*3       = 284.669
//	 5   1     1      0    1        3000              257.099+6.565        = 263.664     10.13
//	 6   1     2      0    8        6000              257.099+13.13        = 270.229     10.13+171.213          = 181.343
//	 7   1     3     10    5        9000+750  = 9750  257.099+19.695-0.11  = 276.684     10.13+271.366+91.513   = 373.009
//
// Under log, jobs 3 and 6 tie exactly (log10 of 1 MB and of unknown memory
// are both 0) and have the same submit time: the lower id, 3, goes first.
func sixJobs() []actual.Job {
	return []actual.Job{
		mb(1, 0, 4, 0, 10),
		mb(3, 1, 2, 1, 7), mb(5, 1, 1, 0, 1), mb(6, 1, 2, 0, 8), mb(7, 1, 3, 10, 5),
		mb(2, 2, 1, 50, 1), mb(4, 2, 1, 1000, 7),
	}
}

func TestRanksOfTheTable(t *testing.T) {
	want := map[rank.Form][]float64{ // by job id 2..7
		rank.FormOriginal: {6750, 6075, 78000, 3000, 6000, 9750},
		rank.FormLinear:   {263.114, 270.218, 252.664, 263.664, 270.229, 276.684},
		rank.FormLog:      {165.608, 181.343, 284.669, 10.130, 181.343, 373.009},
	}
	for f, w := range want {
		r := rank.Named(f)
		for _, j := range sixJobs()[1:] {
			if got := r.Of(j.Procs, j.Mem, j.Speed); math.Abs(got-w[j.ID-2]) > 5e-4 {
				t.Errorf("%s rank of job %d = %.4f, want %.3f", f, j.ID, got, w[j.ID-2])
			}
		}
	}
}

// original: order 5 (3000), 6 (6000), 3 (6075), 2 (6750), 7 (9750), 4.
//
//	t=10  4 free: 5 (1 CPU) -> 3 free, 6 (2) -> 1, 3 (2) does not fit,
//	      2 (1) -> 0.          5: 10-11, 6: 10-18, 2: 10-11
//	t=11  5 and 2 end, 2 free: 3 (2) -> 0.   3: 11-18
//	t=18  6 and 3 end, 4 free: 7 (3) -> 1, 4 (1) -> 0.   7: 18-23, 4: 18-25
//
// linear: order 4 (252.664), 2 (263.114), 5 (263.664), 3, 6, 7.
//
//	t=10  4 -> 3 free, 2 -> 2, 5 -> 1; 3, 6 (2) and 7 (3) do not fit.
//	      4: 10-17, 2: 10-11, 5: 10-11
//	t=11  3 free: 3 (2) -> 1; 6, 7 do not fit.   3: 11-18
//	t=17  4 ends, 2 free: 6 (2) -> 0.            6: 17-25
//	t=18  3 ends, 2 free: 7 (3) does not fit.
//	t=25  4 free: 7.                             7: 25-30
//
// log: order 5 (10.13), 2 (165.608), 3 and 6 (181.343: 3 by id), 4, 7.
//
//	t=10  5 -> 3 free, 2 -> 2, 3 (2) -> 0.       5: 10-11, 2: 10-11, 3: 10-17
//	t=11  2 free: 6 (2) -> 0.                    6: 11-19
//	t=17  3 ends, 2 free: 4 (1) -> 1, 7 (3) does not fit.   4: 17-24
//	t=19  6 ends, 3 free: 7.                     7: 19-24
//
// Had the tie gone to job 6, it would have started at 10.
func TestHandWorkedRanks(t *testing.T) {
	p := platform.MustCluster(4)
	cases := []struct {
		form rank.Form
		want map[job.ID]float64
	}{
		{rank.FormOriginal, map[job.ID]float64{1: 0, 2: 10, 3: 11, 4: 18, 5: 10, 6: 10, 7: 18}},
		{rank.FormLinear, map[job.ID]float64{1: 0, 2: 10, 3: 11, 4: 10, 5: 10, 6: 17, 7: 25}},
		{rank.FormLog, map[job.ID]float64{1: 0, 2: 10, 3: 10, 4: 17, 5: 10, 6: 11, 7: 19}},
	}
	for _, c := range cases {
		t.Run(c.form.String(), func(t *testing.T) {
			l, refused := simulate(t, p, rank.Options{Rank: rank.Named(c.form)}, sixJobs())
			if refused != 0 {
				t.Errorf("%d refused, want 0", refused)
			}
			checkStarts(t, l, c.want)
		})
	}
}

// The tie rule alone: three 1-CPU jobs of equal rank on a 1-CPU machine
// start in (submit, id) order whatever order they reach the policy in:
// job 9 (submit 1) first, then 4 and 7 (submit 2) by id.
func TestTieRule(t *testing.T) {
	p := platform.MustCluster(1)
	jobs := []actual.Job{mb(1, 0, 1, 0, 5), mb(9, 1, 1, 0, 1), mb(4, 2, 1, 0, 1), mb(7, 2, 1, 0, 1)}
	l, _ := simulate(t, p, rank.Options{Rank: rank.Named(rank.FormOriginal)}, jobs)
	checkStarts(t, l, map[job.ID]float64{1: 0, 9: 5, 4: 6, 7: 7})
	// Reversed arrival order within the instant t=2 (7 before 4): the same.
	jobs[2], jobs[3] = jobs[3], jobs[2]
	l, _ = simulate(t, p, rank.Options{Rank: rank.Named(rank.FormOriginal)}, jobs)
	checkStarts(t, l, map[job.ID]float64{1: 0, 9: 5, 4: 6, 7: 7})
}

// Two machines, as in the paper's Fig. 1 (16 and 8 CPUs), here with
// memory: machine 0 has 16 CPUs of 1 GB each, machine 1 8 CPUs of 4 GB.
//
//	job 1: 20 CPUs           -> no machine has 20 CPUs: rank -1, refused
//	job 2: 10 CPUs, 2 GB/CPU -> machine 0 lacks the memory, machine 1 the
//	                            CPUs: rank -1, refused
//	job 3:  4 CPUs, 2 GB/CPU -> only machine 1 holds it
//	job 4: 12 CPUs, 0.5 GB   -> only machine 0
//	job 5:  2 CPUs, 0.5 GB   -> both; at t=0 machine 0 (index order)
//
// Original ranks: 3 = 12000 + 75*2048 = 165600, 4 = 36000 + 75*512 =
// 74400, 5 = 6000 + 75*512 = 44400: at t=0 the pass starts 5 (m0, 14 free), 4 (m0,
// 2 free), 3 (m1, 4 free). All at t=0.
func TestRankMinusOneAndMachines(t *testing.T) {
	p := mustPlatform(t, platform.Machine{CPUs: 16, Mem: 1024 * 1024}, platform.Machine{CPUs: 8, Mem: 4096 * 1024})
	jobs := []actual.Job{mb(1, 0, 20, 0, 5), mb(2, 0, 10, 2048, 5), mb(3, 0, 4, 2048, 5), mb(4, 0, 12, 512, 5), mb(5, 0, 2, 512, 5)}
	pol, err := rank.New(rank.Options{Platform: p, Rank: rank.Named(rank.FormOriginal)})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs[:2] {
		if r := pol.RankOf(j.Info()); r != -1 {
			t.Errorf("job %d: rank %g, want -1", j.ID, r)
		}
		if why := pol.Refuse(j.Info()); !strings.Contains(why, "rank -1") {
			t.Errorf("job %d: refuse %q, want a rank -1 reason", j.ID, why)
		}
	}
	for i, w := range []float64{165600, 74400, 44400} {
		if r := pol.RankOf(jobs[2+i].Info()); r != w {
			t.Errorf("job %d: rank %g, want %g", jobs[2+i].ID, r, w)
		}
	}
	l, refused := simulate(t, p, rank.Options{Rank: rank.Named(rank.FormOriginal)}, jobs)
	if refused != 2 {
		t.Errorf("%d refused, want 2", refused)
	}
	checkStarts(t, l, map[job.ID]float64{3: 0, 4: 0, 5: 0})
	for id, m := range map[job.ID]int{3: 1, 4: 0, 5: 0} {
		if l.runs[id].machine != m {
			t.Errorf("job %d on machine %d, want %d", id, l.runs[id].machine, m)
		}
	}
	if got := l.order; len(got) != 3 || got[0] != 5 || got[1] != 4 || got[2] != 3 {
		t.Errorf("start order %v, want [5 4 3]", got)
	}
	// A refused job handed to Submit anyway is counted and never queued.
	pol.Submit(0, jobs[0].Info())
	if pol.Refused() != 1 {
		t.Errorf("Refused() = %d, want 1", pol.Refused())
	}
	var plan policy.Plan
	pol.Schedule(0, freeAll{p}, &plan)
	if len(plan.Starts) != 0 {
		t.Errorf("a refused job was started: %+v", plan.Starts)
	}
}

type freeAll struct{ p platform.Platform }

func (f freeAll) Platform() platform.Platform { return f.p }
func (f freeAll) Free(m int) int              { return f.p.Machine(m).CPUs }

// Heads, on one machine of 4 CPUs. Jobs: 1 (t=0, 4 CPUs, 10 s); 2 (t=1,
// 3 CPUs, 5 s, rank 9000); 3 (t=2, 1 CPU, 20 s, 3000); 4 (t=2, 1 CPU,
// 2 s, 3000).
//
//	none: t=10, 4 free: 3 -> 3 free, 4 -> 2, 2 (3) does not fit.
//	      3: 10-30, 4: 10-12; t=12, 3 free: 2: 12-17.
//	fcfs: t=10: the head 2 fits: 2: 10-15 (1 free); then by rank 3: 10-30.
//	      t=15, 3 free: 4: 15-17.
func TestHeadFCFS(t *testing.T) {
	p := platform.MustCluster(4)
	jobs := []actual.Job{mb(1, 0, 4, 0, 10), mb(2, 1, 3, 0, 5), mb(3, 2, 1, 0, 20), mb(4, 2, 1, 0, 2)}
	l, _ := simulate(t, p, rank.Options{Rank: rank.Named(rank.FormOriginal)}, jobs)
	checkStarts(t, l, map[job.ID]float64{1: 0, 2: 12, 3: 10, 4: 10})
	l, _ = simulate(t, p, rank.Options{Rank: rank.Named(rank.FormOriginal), Head: rank.HeadFCFS}, jobs)
	checkStarts(t, l, map[job.ID]float64{1: 0, 2: 10, 3: 10, 4: 15})
	for id, r := range map[job.ID]job.StartReason{1: job.Immediate, 2: job.Reserved, 3: job.Reserved, 4: job.Reserved} {
		if l.runs[id].reason != r {
			t.Errorf("fcfs head: job %d reason %v, want %v", id, l.runs[id].reason, r)
		}
	}
}

// EASY head, one machine of 4 CPUs, estimates exact. Jobs: 1 (t=0, 3 CPUs,
// 10 s); 2 (t=1, 4 CPUs, 5 s); 3 (t=2, 1 CPU, 20 s); 4 (t=2, 1 CPU, 3 s).
// Ranks: 3 and 4 = 3000 (3 first by id), 2 = 12000.
//
//	none: t=2, 1 free: 3: 2-22. t=10: 3 free: 4: 10-13; 2 waits for 4 CPUs
//	      until t=22: 2: 22-27.
//	easy: t=1, the head 2 does not fit: shadow = 10 (job 1 ends, 4 free),
//	      extra = 4 - 4 = 0. t=2: 3 would end at 22 > 10 and needs 1 > 0
//	      extra: not now; 4 ends at 5 <= 10: 4: 2-5 (backfilled). t=10:
//	      4 free: 2: 10-15 (reserved); then 3: 10? No: 0 free. t=15: 3:
//	      15-35 (reserved: it is the head then).
func TestHeadEASY(t *testing.T) {
	p := platform.MustCluster(4)
	jobs := []actual.Job{mb(1, 0, 3, 0, 10), mb(2, 1, 4, 0, 5), mb(3, 2, 1, 0, 20), mb(4, 2, 1, 0, 3)}
	l, _ := simulate(t, p, rank.Options{Rank: rank.Named(rank.FormOriginal)}, jobs)
	checkStarts(t, l, map[job.ID]float64{1: 0, 2: 22, 3: 2, 4: 10})
	l, _ = simulate(t, p, rank.Options{Rank: rank.Named(rank.FormOriginal), Head: rank.HeadEASY}, jobs)
	checkStarts(t, l, map[job.ID]float64{1: 0, 2: 10, 3: 15, 4: 2})
	for id, r := range map[job.ID]job.StartReason{1: job.Immediate, 2: job.Reserved, 3: job.Reserved, 4: job.Backfilled} {
		if l.runs[id].reason != r {
			t.Errorf("easy head: job %d reason %v, want %v", id, l.runs[id].reason, r)
		}
	}
}

// positive_only: under the linear rank a job with more than about 24 GB
// per CPU has a rank <= 0 (257.099 + 6.565 - 0.011*MB <= 0 for MB >=
// 23,970): it is refused, counted; without the option it runs.
func TestPositiveOnly(t *testing.T) {
	p := platform.MustCluster(2)
	jobs := []actual.Job{mb(1, 0, 1, 30000, 5), mb(2, 0, 1, 100, 5)}
	o := rank.Options{Rank: rank.Named(rank.FormLinear), PositiveOnly: true}
	l, refused := simulate(t, p, o, jobs)
	if refused != 1 {
		t.Errorf("positive_only: %d refused, want 1", refused)
	}
	checkStarts(t, l, map[job.ID]float64{2: 0})
	o.PositiveOnly = false
	l, refused = simulate(t, p, o, jobs)
	if refused != 0 {
		t.Errorf("%d refused, want 0", refused)
	}
	checkStarts(t, l, map[job.ID]float64{1: 0, 2: 0})
}

// Zero, negative and sub-MB memory in the log rank count as log10 = 0:
// the rank stays finite and equals the no-memory rank.
func TestLogRankBadMemory(t *testing.T) {
	r := rank.Named(rank.FormLog)
	base := r.Of(4, 0, 0) // 10.13 + 568.756*log10(4)
	if math.Abs(base-(10.13+568.756*math.Log10(4))) > 1e-9 {
		t.Fatalf("log rank of 4 CPUs = %g", base)
	}
	for _, kb := range []float64{0, -1, -1024, 512, 1023.9, math.NaN()} {
		if got := r.Of(4, kb, 0); got != base {
			t.Errorf("log rank with %g KB = %g, want %g", kb, got, base)
		}
	}
}

func TestParseCoefficients(t *testing.T) {
	c, cpu, mem, err := rank.ParseCoefficients(" 257.0989, 6.5648 ,-0.0114")
	if err != nil || c != 257.0989 || cpu != 6.5648 || mem != -0.0114 {
		t.Errorf("got %g %g %g %v", c, cpu, mem, err)
	}
	for _, bad := range []string{"", "1,2", "1,2,3,4", "1,x,3", "1,NaN,3", "1,2,Inf", "1,,3"} {
		if _, _, _, err := rank.ParseCoefficients(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := rank.Named(rank.FormLog).WithCoefficients(1, math.Inf(1), 0); err == nil {
		t.Error("an infinite coefficient was accepted")
	}
	if _, err := rank.New(rank.Options{Platform: platform.MustCluster(1), Rank: rank.Rank{Form: rank.FormLinear, CPU: math.NaN()}}); err == nil {
		t.Error("New accepted a NaN coefficient")
	}
	if _, err := rank.New(rank.Options{Rank: rank.Named(rank.FormLog)}); err == nil {
		t.Error("New accepted an empty platform")
	}
}

// Memory read in KB (MemUnitKB = 1), the alternative reading of the
// paper's unitless memory: 1 CPU with 2 MB (2048 KB) has the original
// rank 3000 + 75*2048 = 156600 instead of 3000 + 75*2 = 3150.
func TestMemUnitKB(t *testing.T) {
	r := rank.Named(rank.FormOriginal)
	if got := r.Of(1, 2048, 0); got != 3150 {
		t.Errorf("MB rank %g, want 3150", got)
	}
	r.MemUnitKB = 1
	if got := r.Of(1, 2048, 0); got != 156600 {
		t.Errorf("KB rank %g, want 156600", got)
	}
	if s := r.String(); !strings.Contains(s, "Mem(1KB)") {
		t.Errorf("String %q does not name the unit", s)
	}
	r.MemUnitKB = -1
	if r.Valid() == nil {
		t.Error("a negative memory unit is valid")
	}
}

// select: strict on the six jobs with the original rank (order 5, 6, 3,
// 2, 7, 4): the smallest rank that does not fit holds the queue.
//
//	t=10  4 free: 5 (1) -> 3 free, 6 (2) -> 1, 3 (2) does not fit: it
//	      holds the queue, so 2 (1 CPU, which fits) does not start
//	      (fit-now starts it at 10).   5: 10-11, 6: 10-18
//	t=11  5 ends, 2 free: 3 (2) -> 0.   3: 11-18
//	t=18  6 and 3 end, 4 free: 2 (1) -> 3, 7 (3) -> 0; 4 waits.
//	      2: 18-19, 7: 18-23
//	t=19  2 ends, 1 free: 4.   4: 19-26
func TestStrictSelectionHoldsTheQueue(t *testing.T) {
	p := platform.MustCluster(4)
	l, _ := simulate(t, p, rank.Options{Rank: rank.Named(rank.FormOriginal), Select: rank.SelectStrict}, sixJobs())
	checkStarts(t, l, map[job.ID]float64{1: 0, 5: 10, 6: 10, 3: 11, 2: 18, 7: 18, 4: 19})
	if _, err := rank.ParseSelect("greedy"); err == nil || !strings.Contains(err.Error(), "fit-now, strict") {
		t.Errorf("ParseSelect(greedy) = %v", err)
	}
}

// log_below_one: log, the log rank takes Eq. 6's log10 of memory below
// 1 MB (negative); unknown, zero, negative and NaN memory still count as
// 0. 512 KB per CPU = 0.5 MB: 91.513 x log10(0.5) = -27.548.
func TestLogRankBelowOneMB(t *testing.T) {
	r := rank.Named(rank.FormLog)
	r.LogBelowOne = true
	base := 10.13 + 568.756*math.Log10(4)
	if got := r.Of(4, 512, 0); math.Abs(got-(base-27.548)) > 5e-4 {
		t.Errorf("log rank with 512 KB = %.4f, want %.4f", got, base-27.548)
	}
	for _, kb := range []float64{0, -1, math.NaN()} {
		if got := r.Of(4, kb, 0); got != base {
			t.Errorf("log rank with %g KB = %g, want %g", kb, got, base)
		}
	}
}
