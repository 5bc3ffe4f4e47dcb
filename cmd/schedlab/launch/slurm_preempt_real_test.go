package launch

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// preemptSlack is how far (s) a simulated time may be from Slurm's in
// TestSlurmPreemptForReal: slurmctld kills the preempted job, waits for
// its node to complete, and starts the preemptor at a pass after that,
// a second or two later on a loaded machine.
const preemptSlack = 3

// TestSlurmPreemptForReal checks the slurm policy's preemption by QOS
// against a real Slurm: one node of 4 CPUs, PreemptType=preempt/qos,
// PreemptMode=REQUEUE, AuthInfo cred_expire=10, and two QOS, "low" and
// "high" (Preempt=low). j1 (low, 4 CPUs, 40 s) runs from 0; j2 (high, 2
// CPUs, 20 s) at 5 preempts it; j1 is requeued, startable 11 s later;
// j3 (low, 2 CPUs, 10 s) at 8 starts beside j2; j1 starts again once
// j2 has ended (about 25). sacct --duplicates shows j1's two runs. The
// same jobs (their first submissions, sacct's elapsed times) are
// simulated under the slurm.conf and the QOS table: every job's last
// start and j1's preemption within preemptSlack seconds of Slurm's;
// without preemption the simulation must differ (j2 would wait for j1).
// Only with SCHEDLAB_SLURM_TEST=1, as root; about two minutes.
func TestSlurmPreemptForReal(t *testing.T) {
	subs := []slurmSub{
		{0, []string{"-n", "4", "--time=3", "--qos=low", "--wrap", "sleep 40"}},
		{5, []string{"-n", "2", "--time=1", "--qos=high", "--wrap", "sleep 20"}},
		{8, []string{"-n", "2", "--time=1", "--qos=low", "--wrap", "sleep 10"}},
	}
	m := slurmMachine{cpus: 4, authInfo: "cred_expire=10", requeues: true,
		setup: func(t *testing.T, r *slurmRun) {
			r.sh(t, "sacctmgr", "-i", "add", "qos", "low")
			r.sh(t, "sacctmgr", "-i", "add", "qos", "high", "Preempt=low")
			r.sh(t, "sacctmgr", "-i", "modify", "user", "root", "set", "qos+=low,high")
			if !waitFor(30*time.Second, func() bool {
				return strings.Contains(r.sh(t, "scontrol", "show", "assoc_mgr", "flags=qos"), "QOS=high")
			}) {
				t.Fatalf("slurmctld does not know QOS high:\n%s", r.sh(t, "scontrol", "show", "assoc_mgr", "flags=qos"))
			}
		}}
	r := runSlurmOn(t, "the real-Slurm preemption comparison runs with SCHEDLAB_SLURM_TEST=1 (as root: it installs slurm-wlm, slurmdbd, munge and mariadb-server with apt-get when they are missing, then starts its own daemons)",
		m, [][2]string{
			{"SchedulerType", "sched/backfill"},
			{"SchedulerParameters", "bf_interval=1,bf_resolution=1"},
			{"AccountingStorageEnforce", "associations,limits,qos"},
			{"PreemptType", "preempt/qos"},
			{"PreemptMode", "REQUEUE"},
		}, subs)
	// Every run of every job, the earlier ones too.
	dups := r.sh(t, "sacct", "--allusers", "--duplicates", "--parsable2", "--noheader", "--starttime", "now-1hour",
		"--format=JobIDRaw,JobName,Submit,Start,End,Elapsed,State,QOS,NCPUS,Timelimit")
	t.Logf("$ sacct --duplicates --parsable2 --format=JobIDRaw,JobName,Submit,Start,End,Elapsed,State,QOS,NCPUS,Timelimit\n%s", dups)
	type run struct {
		submit, start, end time.Time
		elapsed            float64
		state, qos         string
		cpus, limit        int
	}
	runs := map[string][]run{} // by job name, in sacct's order
	parse := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02T15:04:05", s, time.UTC)
		if err != nil {
			t.Fatalf("sacct time %q: %v", s, err)
		}
		return v
	}
	for _, l := range strings.Split(strings.TrimSpace(dups), "\n") {
		f := strings.Split(l, "|")
		if len(f) < 10 || strings.Contains(f[0], ".") || !strings.HasPrefix(f[1], "j") {
			continue // steps
		}
		var el float64
		for _, p := range strings.Split(f[5], ":") { // HH:MM:SS
			v, _ := strconv.Atoi(p)
			el = el*60 + float64(v)
		}
		cpus, _ := strconv.Atoi(f[8])
		limit, _ := strconv.Atoi(strings.Split(f[9], ":")[1]) // 00:MM:00
		runs[f[1]] = append(runs[f[1]], run{parse(f[2]), parse(f[3]), parse(f[4]), el, f[6], f[7], cpus, limit})
	}
	for name, rs := range runs {
		sort.Slice(rs, func(i, j int) bool { return rs[i].start.Before(rs[j].start) })
		runs[name] = rs
	}
	if len(runs["j1"]) != 2 || len(runs["j2"]) != 1 || len(runs["j3"]) != 1 {
		t.Fatalf("sacct --duplicates: want two runs of j1 and one of j2 and j3, got %d, %d, %d", len(runs["j1"]), len(runs["j2"]), len(runs["j3"]))
	}
	origin := runs["j1"][0].submit
	rel := func(v time.Time) float64 { return v.Sub(origin).Seconds() }
	// Slurm's own schedule shows the preemption: j1's first run ends
	// when j2 starts, about 5 s in, and its second run waits past
	// cred_expire.
	first := runs["j1"][0]
	if e := rel(first.end); math.Abs(e-rel(runs["j2"][0].start)) > preemptSlack || e > 5+preemptSlack {
		t.Fatalf("Slurm did not preempt j1 for j2: j1's first run ended at %.0f, j2 started at %.0f", e, rel(runs["j2"][0].start))
	}
	// The jobs as submitted, with their first submission and their
	// completed run's elapsed time.
	qosNum := map[string]int{"low": 1, "high": 2}
	var swf strings.Builder
	fmt.Fprintf(&swf, "; UnixStartTime: %d\n; Queue: 1 low\n; Queue: 2 high\n; Partition: 1 schedlab\n; User 1: root\n", origin.Unix())
	for i, name := range []string{"j1", "j2", "j3"} {
		rs := runs[name]
		last := rs[len(rs)-1]
		fmt.Fprintf(&swf, "%d %.0f -1 %.0f %d -1 -1 %d %d -1 1 1 1 -1 %d 1 -1 -1\n", r.ids[i], rel(rs[0].submit), last.elapsed, last.cpus, last.cpus, last.limit*60, qosNum[last.qos])
	}
	r.write(t, "preempt.swf", swf.String())
	t.Logf("preempt.swf:\n%s", swf.String())
	qos := r.sh(t, "sacctmgr", "show", "qos", "--parsable2", "format=Name,Priority,MaxJobsPU,MaxSubmitPU,MaxWall,MaxTRESPU,GrpTRES,Preempt,PreemptMode")
	r.write(t, "qos.txt", qos)
	t.Logf("$ sacctmgr show qos --parsable2 format=...\n%s", qos)
	r.trace = "preempt.swf"
	on := []string{"--slurm-conf", r.conf, "--slurm-nodes", "--slurm-qos", "qos.txt"}
	with := r.simulateIn(t, "slurm-preempt", "slurm", on...)
	without := r.simulateIn(t, "slurm-no-preempt", "slurm", append(on, "--set", "preempt_type=none", "--set", "preempt_mode=off")...)
	var table strings.Builder
	fmt.Fprintf(&table, "job  qos   submit  Slurm's starts  simulated (last start)  without preemption\n")
	differ := false
	for i, name := range []string{"j1", "j2", "j3"} {
		rs := runs[name]
		var st []string
		for _, x := range rs {
			st = append(st, fmt.Sprintf("%.0f", rel(x.start)))
		}
		last := rel(rs[len(rs)-1].start)
		fmt.Fprintf(&table, "%-4s %-5s %6.0f  %14s  %22.0f  %18.0f\n", name, rs[0].qos, rel(rs[0].submit), strings.Join(st, ", "), with[i].start, without[i].start)
		if math.Abs(with[i].start-last) > preemptSlack {
			t.Errorf("%s: the slurm policy with preemption starts it (last) at %.0f, Slurm at %.0f", name, with[i].start, last)
		}
		if math.Abs(without[i].start-last) > preemptSlack {
			differ = true
		}
	}
	t.Logf("starts (s after j1's submission):\n%s", table.String())
	if !differ {
		t.Errorf("without preemption the slurm policy starts every job as Slurm did: the check cannot tell the preemption")
	}
}
