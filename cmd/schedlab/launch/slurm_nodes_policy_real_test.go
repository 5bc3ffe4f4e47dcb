package launch

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The multi-node comparison's workload and machine: nodesJobs sleep
// jobs from a seeded generator (nodesWorkload) on the eight nodes of
// four CPUs and 1,000 MB of startSlurmNodes, one partition, Slurm's
// backfill with a pass every second at a resolution of a second, cores
// and memory allocated (CR_Core_Memory).
const (
	nodesJobs = 80
	nodesSeed = 41
	// nodesGap is the mean gap (s) between two submissions: about 24 of
	// the 32 CPUs busy on average, so that a queue forms and the
	// backfill pass has work.
	nodesGap = 1.3
	// nodesSlack (s) is how far apart a simulated start and Slurm's may
	// lie and count as the same: the backfill pass every second
	// (bf_interval=1), sacct's whole seconds and a second of slurmctld's
	// own delay (the one-node comparison's Slurm started jobs 0 to 2 s
	// after the simulation).
	nodesSlack = 3
)

// nodesKind is what a job of nodesWorkload asks for.
type nodesKind int

const (
	oneNode   nodesKind = iota // -N 1, 1-4 tasks
	fewNodes                   // -N 2-4, 1-2 tasks a node
	exclusive                  // -N 1 -n 1 --exclusive
	bigMemory                  // -N 1 -n 1 --mem=800 (of the node's 1,000 MB)
	manyNodes                  // -N 6-8, 1-2 tasks a node
)

func (k nodesKind) String() string {
	return [...]string{"1 node", "2-4 nodes", "exclusive", "800 MB", "6-8 nodes"}[k]
}

// nodesWorkload draws n submissions from seed: exponential gaps of mean
// nodesGap (rounded to whole seconds), sleeps of 3 to 24 s, time limits
// of 1 to 3 minutes, and requests: 55% one node with 1 to 4 tasks, 30%
// 2 to 4 nodes, 5% an exclusive node for one task, 5% one task with 800
// MB (so that its node's memory, not its cores, bounds what runs beside
// it: two more tasks of 100 MB), 5% 6 to 8 nodes; the tasks of several
// nodes are between one and two a node, every task but the 800 MB ones
// with 100 MB a CPU.
func nodesWorkload(seed uint64, n int) ([]slurmSub, []nodesKind) {
	rng := rand.New(rand.NewPCG(seed, 0))
	subs := make([]slurmSub, n)
	kinds := make([]nodesKind, n)
	at := 0.0
	for i := range n {
		if i > 0 {
			at += rng.ExpFloat64() * nodesGap
		}
		sleep, limit := 3+rng.IntN(22), 1+rng.IntN(3)
		nodes, tasks, mem := 1, 1, "--mem-per-cpu=100"
		var extra []string
		switch u := rng.Float64(); {
		case u < 0.55:
			kinds[i], tasks = oneNode, 1+rng.IntN(multiCPUs)
		case u < 0.85:
			kinds[i], nodes = fewNodes, 2+rng.IntN(3)
			tasks = nodes + rng.IntN(nodes+1)
		case u < 0.90:
			kinds[i], extra = exclusive, []string{"--exclusive"}
		case u < 0.95:
			kinds[i], mem = bigMemory, "--mem=800"
		default:
			kinds[i], nodes = manyNodes, 6+rng.IntN(3)
			tasks = nodes + rng.IntN(nodes+1)
		}
		args := []string{"-N", fmt.Sprint(nodes), "-n", fmt.Sprint(tasks), mem, fmt.Sprintf("--time=%d", limit)}
		args = append(append(args, extra...), "--wrap", fmt.Sprintf("sleep %d", sleep))
		subs[i] = slurmSub{int(math.Round(at)), args}
	}
	return subs, kinds
}

// nodesFit is how close one simulation lies to Slurm's schedule.
type nodesFit struct {
	name              string
	within            int     // jobs started within nodesSlack of Slurm's start
	meanAbs, maxAbs   float64 // |Slurm's start - the simulated start|, s
	realWait, simWait float64 // mean waits, s
}

func fitOf(name string, real []slurmSched, sim []simSched) nodesFit {
	f := nodesFit{name: name}
	for i, r := range real {
		d := math.Abs(r.start - sim[i].start)
		if d <= nodesSlack {
			f.within++
		}
		f.meanAbs += d / float64(len(real))
		f.maxAbs = max(f.maxAbs, d)
		f.realWait += (r.start - r.submit) / float64(len(real))
		f.simWait += (sim[i].start - r.submit) / float64(len(real))
	}
	return f
}

// relErr is the mean wait's relative error of f (n/a without a wait).
func (f nodesFit) relErr() string {
	if f.realWait == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", 100*(f.simWait-f.realWait)/f.realWait)
}

// TestSlurmPolicyNodesForReal runs a workload of several-node,
// exclusive and memory-bound jobs on the real multi-node Slurm of
// TestSlurmMultiNodeForReal (with slurmdbd and MariaDB, as the
// one-node comparisons), imports its accounting as a job table, and
// simulates it on the nodes of the very slurm.conf slurmctld ran with
// (--slurm-conf --slurm-nodes) under the slurm policy, EASY and
// conservative backfilling: how many jobs each starts within nodesSlack
// seconds of Slurm, and the mean wait's error. docs/slurm.md has the
// figures of a quiet run and what they say. Only with
// SCHEDLAB_SLURM_TEST=1, as root; about four and a half minutes.
func TestSlurmPolicyNodesForReal(t *testing.T) {
	subs, kinds := nodesWorkload(nodesSeed, nodesJobs)
	r := runSlurmOn(t, "the real multi-node Slurm comparison runs with SCHEDLAB_SLURM_TEST=1 (as root: it installs slurm-wlm, slurmdbd, munge and mariadb-server with apt-get when they are missing, then starts its own daemons)",
		slurmMachine{multi: true, partitions: []string{"batch Nodes=n[1-8] Default=YES MaxTime=INFINITE State=UP"}},
		[][2]string{
			{"SchedulerType", "sched/backfill"},
			{"SchedulerParameters", "bf_interval=1,bf_resolution=1"},
			{"SelectTypeParameters", "CR_Core_Memory"},
			// The backfill pass logs each job's planned start and nodes
			// (with SCHEDLAB_SLURM_KEEP, slurmctld.log shows why a job
			// started when it did).
			{"DebugFlags", "Backfill"},
		}, subs)
	on := []string{"--slurm-conf", r.conf, "--slurm-nodes", "--check"}
	sims := map[string][]simSched{
		"slurm":        r.simulate(t, "slurm", on...),
		"easy":         r.simulate(t, "easy", on...),
		"conservative": r.simulate(t, "conservative", on...),
		// The slurm policy with Slurm's cons_tres node selection.
		"slurm-cons": r.simulateIn(t, "slurm-cons", "slurm", append(on, "--set", "select_rule=cons_tres")...),
	}
	names := []string{"slurm", "slurm-cons", "easy", "conservative"}
	// What the machine did, as a run of its own, and the calibration of
	// the slurm policy against it: the report a site would read.
	r.sh(t, r.schedlab, "run", "--trace", "acct.swf", "--procs", fmt.Sprint(multiNodes*multiCPUs), "--policy", "recorded", "--out", "recorded")
	t.Logf("$ schedlab calibrate recorded slurm\n%s", r.sh(t, r.schedlab, "calibrate", "recorded", "slurm"))

	var table strings.Builder
	fmt.Fprintf(&table, "job  request     sbatch                                    submit  Slurm  slurm-policy  slurm-cons  easy  conservative  backfilled by\n")
	for i, s := range subs {
		by := ""
		if slurmBackfilled(r.real, i) {
			by += " Slurm"
		}
		for _, n := range names {
			if sims[n][i].reason == "backfilled" {
				by += " " + n
			}
		}
		fmt.Fprintf(&table, "%3d  %-10s  %-40s  %6.0f  %5.0f  %+12.0f  %+10.0f  %+4.0f  %+12.0f %s\n", i+1, kinds[i], strings.Join(s.args[:len(s.args)-2], " "),
			r.real[i].submit, r.real[i].start, sims["slurm"][i].start-r.real[i].start, sims["slurm-cons"][i].start-r.real[i].start, sims["easy"][i].start-r.real[i].start,
			sims["conservative"][i].start-r.real[i].start, by)
	}
	t.Logf("starts (s after the first submission; the simulations' as their difference from Slurm's):\n%s", table.String())

	fits := map[string]nodesFit{}
	var sum strings.Builder
	fmt.Fprintf(&sum, "simulation    within %d s of Slurm  mean |start error|  max |start error|  mean wait: Slurm  simulated  error\n", nodesSlack)
	for _, n := range names {
		f := fitOf(n, r.real, sims[n])
		fits[n] = f
		fmt.Fprintf(&sum, "%-12s  %3d of %d (%3.0f%%)     %8.1f s          %8.0f s       %8.1f s  %8.1f s  %s\n", n, f.within, len(subs),
			100*float64(f.within)/float64(len(subs)), f.meanAbs, f.maxAbs, f.realWait, f.simWait, f.relErr())
	}
	t.Logf("how close each simulation is to Slurm:\n%s", sum.String())

	// Slurm queued jobs: without waits there is nothing to compare.
	var waited int
	for _, s := range r.real {
		if s.start-s.submit > nodesSlack {
			waited++
		}
	}
	if waited < len(subs)/5 {
		t.Errorf("only %d of the %d jobs waited more than %d s in Slurm: the workload does not load the machine", waited, len(subs), nodesSlack)
	}
	// Loose bounds, from quiet runs (docs/slurm.md: 60 and 64 of the 80
	// jobs within 3 s, mean wait errors of -8.7% and -0.4%), wide enough
	// for Slurm's delays on a loaded machine: a model far from Slurm's
	// rules fails them (fcfs, no backfilling, started 23 of those 80
	// within 3 s).
	sl := fits["slurm"]
	if sl.within < len(subs)/2 {
		t.Errorf("the slurm policy started %d of the %d jobs within %d s of Slurm, want at least half", sl.within, len(subs), nodesSlack)
	}
	if e := (sl.simWait - sl.realWait) / sl.realWait; sl.realWait > 0 && math.Abs(e) > 0.25 {
		t.Errorf("the slurm policy's mean wait is %.1f s, Slurm's %.1f s (%+.0f%%): want within 25%%", sl.simWait, sl.realWait, 100*e)
	}
	if !slices.ContainsFunc(names, func(n string) bool { return n != "slurm" && fits[n].within > sl.within }) {
		t.Logf("the slurm policy starts the most jobs within %d s of Slurm (%d)", nodesSlack, sl.within)
	}
}
