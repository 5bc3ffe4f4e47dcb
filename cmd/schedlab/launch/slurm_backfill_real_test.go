package launch

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// bfCPUs is the node's CPU count in the backfill comparison.
const bfCPUs = 4

// bfJobs is the workload of the backfill comparison: submit offset (s),
// CPUs, sleep (s), time limit (min), in three rounds that each start on
// an empty node. Every limit is longer than its sleep, so the
// reservations (made from the limits) are later than the real ends.
// Under EASY on 4 CPUs, by hand:
//
// Round 1. Job 1 (3 CPUs, limit 180 s) starts at 0; job 2 (4 CPUs)
// waits: its shadow time is 180 (job 1's limit), no extra CPUs. Job 3 (1
// CPU, limit 120 s) ends by 124 <= 180: backfilled at 4. Job 1 ends at
// 40, job 2 starts then.
//
// Round 2. Job 4 (2 CPUs, limit 180 s) starts at 60; job 5 (3 CPUs)
// waits: shadow 240, when 4 CPUs are free, 1 more than it needs. Job 6
// (1 CPU, limit 240 s) runs past the shadow time but needs only the extra
// CPU: backfilled at 63 (by conservative backfilling too: job 5's
// reservation leaves that CPU free). Job 4 ends at 80, job 5 starts
// then.
//
// Round 3. Job 7 (2 CPUs, limit 60 s) and job 8 (1 CPU, limit 180 s)
// start at 110 and 111; job 9 (4 CPUs) waits: shadow 291 (job 8's
// limit), no extra; job 10 (3 CPUs) waits too. Job 11 (1 CPU, limit
// 120 s) ends by 235 <= 291: backfilled at 115 (conservative backfilling
// would not start it: it would delay job 10's reservation at 170, when
// job 7's limit frees 3 CPUs). Job 7 ends at 137: job 10 (limit 60 s,
// ends by 197 <= 291) is backfilled then; job 8 ends at 141; job 9
// starts when job 10 ends, 147. Job 7's end lies 4 s before job 8's, so
// that a second's lag at a submission (sbatch on a loaded machine) does
// not make them end together, which would start job 9 before job 10.
var bfJobs = []realJob{
	{0, 3, 40, 3}, {2, 4, 10, 1}, {4, 1, 20, 2},
	{60, 2, 20, 3}, {61, 3, 10, 1}, {63, 1, 20, 4},
	{110, 2, 27, 1}, {111, 1, 30, 3}, {112, 4, 10, 1}, {113, 3, 10, 1}, {115, 1, 15, 2},
}

// bfEASY is the start of each of bfJobs under EASY, worked out by hand
// above (seconds after the first submission). The simulation runs on
// Slurm's submits and run times, which may each be a second off the
// plan (sbatch's moment, sacct's whole seconds): bfPlanSlack allows for
// a few of them adding up.
var bfEASY = []float64{0, 40, 4, 60, 80, 63, 110, 111, 147, 137, 115}

const bfPlanSlack = 3

// bfSlurm is the start of each of bfJobs under 'run --policy slurm' with
// the test's slurm.conf (bf_interval=1, bf_resolution=1), worked out by
// hand in policy/backfill's TestSlurmDocsWorkload: 3 backfilled at 4
// (ends by 124, before job 2's reservation at 180); 6 not (job 5's
// reservation holds the node from 240, inside 6's limit), started with
// 5 at 80; 10 backfilled at 137 when 7 ends; 11 not (10's reservation),
// started at 157 when 9 ends.
var bfSlurm = []float64{0, 40, 4, 60, 80, 80, 110, 111, 147, 137, 157}

// The jobs (numbers of bfJobs, from 1) each scheduler starts while a job
// submitted before them still waits. EASY's and conservative's are
// worked out above; Slurm's are what Slurm 22.05 did, run after run,
// and why is in the test: its backfill reserves for every waiting job,
// like conservative (not job 11), and a reservation takes the whole node
// for its time (not job 6).
var (
	bfBackfilledEASY         = []int{3, 6, 10, 11}
	bfBackfilledConservative = []int{3, 6, 10}
	bfBackfilledSlurm        = []int{3, 10}
)

// bfLatency bounds (s) how much later than a simulated start Slurm starts
// a job the two schedule alike: a backfill pass every second
// (bf_interval=1), or the main scheduler's pass on a submission or a
// job's end a moment after it; sacct's whole seconds; and the lag of the
// start or end the job waited for (the rounds are short, so lags add up
// over one or two jobs at most).
const bfLatency = 4

// TestSlurmBackfillForReal compares Slurm's backfill scheduler
// (SchedulerType=sched/backfill, a pass every second at a resolution of
// a second) with 'run --policy easy' on the same jobs: bfJobs on a node
// of bfCPUs CPUs, their accounting exported with sacct -P, imported and
// simulated (with --policy conservative too). Like TestSlurmFIFOForReal,
// it runs only with SCHEDLAB_SLURM_TEST=1, as root, and takes about
// three and a half minutes. docs/slurm.md has its figures and why Slurm
// differs.
func TestSlurmBackfillForReal(t *testing.T) {
	r := runSlurmWorkload(t, "the real Slurm backfill test runs with SCHEDLAB_SLURM_TEST=1 (as root: it installs slurm-wlm, slurmdbd, munge and mariadb-server with apt-get when they are missing, then starts its own daemons)",
		bfCPUs, [][2]string{
			{"SchedulerType", "sched/backfill"},
			{"SchedulerParameters", "bf_interval=1,bf_resolution=1"},
		}, bfJobs)
	real, easy, cons := r.real, r.simulate(t, "easy"), r.simulate(t, "conservative")
	// The slurm policy on the nodes and with the scheduler settings of
	// slurmctld's own slurm.conf.
	sl := r.simulate(t, "slurm", "--slurm-conf", r.conf, "--slurm-nodes")
	var table strings.Builder
	fmt.Fprintf(&table, "job  CPUs  sleep  limit  submit  Slurm start  EASY start  Slurm - EASY  conservative start  Slurm - conservative  slurm policy start  Slurm - slurm policy  backfilled by\n")
	for i, j := range bfJobs {
		by := ""
		if slurmBackfilled(real, i) {
			by += " Slurm"
		}
		if easy[i].reason == "backfilled" {
			by += " EASY"
		}
		if cons[i].reason == "backfilled" {
			by += " conservative"
		}
		if sl[i].reason == "backfilled" {
			by += " slurm-policy"
		}
		fmt.Fprintf(&table, "%3d  %4d  %5d  %5d  %6.0f  %11.0f  %10.0f  %+12.0f  %18.0f  %+20.0f  %18.0f  %+20.0f %s\n", i+1, j.cpus, j.sleep, j.limit*60,
			real[i].submit, real[i].start, easy[i].start, real[i].start-easy[i].start, cons[i].start, real[i].start-cons[i].start,
			sl[i].start, real[i].start-sl[i].start, by)
	}
	t.Logf("start times (seconds after the first submission):\n%s", table.String())
	// Which of slurmctld's schedulers started each job: the main one
	// ("sched: Allocate", on a submission or a job's end, in priority
	// order) or the backfill pass ("sched/backfill: _start_job: Started").
	ctld, _ := os.ReadFile(r.ctldLog)
	var starts []string
	for _, l := range strings.Split(grepLines(string(ctld), "JobId="), "\n") {
		if strings.Contains(l, "Allocate") || strings.Contains(l, "Started") {
			starts = append(starts, l)
		}
	}
	t.Logf("$ grep JobId= slurmctld.log | grep -E 'Allocate|Started'\n%s", strings.Join(starts, "\n"))

	var slurmBF, easyBF, consBF []int
	for i := range bfJobs {
		if slurmBackfilled(real, i) {
			slurmBF = append(slurmBF, i+1)
		}
		if easy[i].reason == "backfilled" {
			easyBF = append(easyBF, i+1)
		}
		if cons[i].reason == "backfilled" {
			consBF = append(consBF, i+1)
		}
		// The simulation follows the hand-worked plan.
		if d := easy[i].start - bfEASY[i]; d < -bfPlanSlack || d > bfPlanSlack {
			t.Errorf("job %d: EASY started it at %.0f s, the plan at %.0f s (want within %d s)", i+1, easy[i].start, bfEASY[i], bfPlanSlack)
		}
	}
	for _, c := range []struct {
		who       string
		got, want []int
	}{{"EASY", easyBF, bfBackfilledEASY}, {"conservative", consBF, bfBackfilledConservative}, {"Slurm", slurmBF, bfBackfilledSlurm}} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s backfilled jobs %v, want %v", c.who, c.got, c.want)
		}
	}
	only := map[int]bool{} // backfilled by EASY, not by Slurm
	for _, j := range bfBackfilledEASY {
		only[j] = !slices.Contains(bfBackfilledSlurm, j)
	}
	for i := range bfJobs {
		d := real[i].start - easy[i].start
		switch {
		case d < -1:
			t.Errorf("job %d: Slurm started it at %.0f s, before EASY (%.0f s)", i+1, real[i].start, easy[i].start)
		case !only[i+1] && d > bfLatency:
			t.Errorf("job %d: Slurm started it at %.0f s, EASY at %.0f s (want Slurm - EASY in -1..%d s: Slurm's latency)", i+1, real[i].start, easy[i].start, bfLatency)
		case only[i+1] && d <= bfLatency:
			t.Errorf("job %d: EASY backfilled it at %.0f s and Slurm did not, yet started it at %.0f s (want later than EASY by more than %d s)", i+1, easy[i].start, real[i].start, bfLatency)
		}
	}
	// Why Slurm did not backfill them. Job 11: conservative does not
	// either (it would delay job 10's reservation), and Slurm starts it
	// when conservative does. Job 6: conservative backfills it on the
	// CPU EASY finds extra, but Slurm's plan holds whole nodes (its
	// node_space table is a bitmap of nodes free in each interval of
	// time), so job 5's reservation took the node from 240 s, the middle
	// of job 6's limit; Slurm starts 6 with 5, when 4 ends.
	if d := real[10].start - cons[10].start; d < -1 || d > bfLatency {
		t.Errorf("job 11: Slurm started it at %.0f s, conservative at %.0f s (want Slurm - conservative in -1..%d s)", real[10].start, cons[10].start, bfLatency)
	}
	// The slurm policy: its hand-worked plan, Slurm's backfilled jobs,
	// and every start within Slurm's latency of Slurm's.
	var slBF []int
	for i := range bfJobs {
		if sl[i].reason == "backfilled" {
			slBF = append(slBF, i+1)
		}
		if d := sl[i].start - bfSlurm[i]; d < -bfPlanSlack || d > bfPlanSlack {
			t.Errorf("job %d: the slurm policy started it at %.0f s, the plan at %.0f s (want within %d s)", i+1, sl[i].start, bfSlurm[i], bfPlanSlack)
		}
		if d := real[i].start - sl[i].start; d < -1 || d > bfLatency {
			t.Errorf("job %d: Slurm started it at %.0f s, the slurm policy at %.0f s (want Slurm - slurm policy in -1..%d s)", i+1, real[i].start, sl[i].start, bfLatency)
		}
	}
	if fmt.Sprint(slBF) != fmt.Sprint(bfBackfilledSlurm) {
		t.Errorf("the slurm policy backfilled jobs %v, Slurm %v", slBF, bfBackfilledSlurm)
	}
	if d := real[5].start - real[4].start; d < -1 || d > 1 {
		t.Errorf("job 6: Slurm started it at %.0f s, job 5 at %.0f s (want together: job 5's reservation held the node)", real[5].start, real[4].start)
	}
}

// slurmBackfilled says whether Slurm started job i of real while a job
// submitted before it was still waiting: the rule of schedlab's
// start_reason "backfilled".
func slurmBackfilled(real []slurmSched, i int) bool {
	for k := range i {
		if real[k].submit <= real[i].start && real[k].start > real[i].start {
			return true
		}
	}
	return false
}
