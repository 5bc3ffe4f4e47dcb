package launch

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// qosSlack is how far (s) a simulated start may be from Slurm's in
// TestSlurmQOSForReal: slurmctld starts a job its pass after the event
// that frees it, up to a second or two later on a loaded machine.
const qosSlack = 3

// TestSlurmQOSForReal checks the slurm policy's QOS limits against a
// real Slurm: on one node of 4 CPUs with AccountingStorageEnforce=
// limits,qos, a QOS "lim" of MaxJobsPerUser=2, six 1-CPU jobs of 20 s in
// it and two in the default QOS. Slurm runs the lim jobs two at a time
// (at about 0, 20 and 40 s), leaving CPUs idle, while the default QOS's
// jobs start at once beside them; squeue gives the held jobs the reason
// QOSMaxJobsPerUserLimit. The accounting is imported, `sacctmgr show
// qos` is read with --slurm-qos, and the slurm policy must start every
// job within qosSlack seconds of Slurm; without the QOS table it must
// not (the lim jobs would all start at once). Only with
// SCHEDLAB_SLURM_TEST=1, as root; about two minutes.
func TestSlurmQOSForReal(t *testing.T) {
	var subs []slurmSub
	for i := range 6 {
		subs = append(subs, slurmSub{i / 2, []string{"-n", "1", "--time=2", "--qos=lim", "--wrap", "sleep 20"}})
	}
	for range 2 {
		subs = append(subs, slurmSub{3, []string{"-n", "1", "--time=2", "--wrap", "sleep 20"}})
	}
	var reasons string
	m := slurmMachine{cpus: 4,
		setup: func(t *testing.T, r *slurmRun) {
			r.sh(t, "sacctmgr", "-i", "add", "qos", "lim", "MaxJobsPerUser=2")
			r.sh(t, "sacctmgr", "-i", "modify", "user", "root", "set", "qos+=lim")
			// slurmctld learns of the new QOS from slurmdbd.
			if !waitFor(30*time.Second, func() bool {
				return strings.Contains(r.sh(t, "scontrol", "show", "assoc_mgr", "flags=qos"), "QOS=lim")
			}) {
				t.Fatalf("slurmctld does not know QOS lim:\n%s", r.sh(t, "scontrol", "show", "assoc_mgr", "flags=qos"))
			}
		},
		probe: func(t *testing.T, r *slurmRun) {
			time.Sleep(3 * time.Second) // a scheduling pass after the last submission
			reasons = r.sh(t, "squeue", "-h", "-t", "PD", "-o", "%j %r")
			t.Logf("$ squeue -h -t PD -o '%%j %%r'\n%s", reasons)
		}}
	r := runSlurmOn(t, "the real-Slurm QOS comparison runs with SCHEDLAB_SLURM_TEST=1 (as root: it installs slurm-wlm, slurmdbd, munge and mariadb-server with apt-get when they are missing, then starts its own daemons)",
		m, [][2]string{
			{"SchedulerType", "sched/backfill"},
			{"SchedulerParameters", "bf_interval=1,bf_resolution=1"},
			{"AccountingStorageEnforce", "associations,limits,qos"},
		}, subs)
	// Four of the lim jobs wait for the limit, not for CPUs (two are free).
	for _, j := range []string{"j3", "j4", "j5", "j6"} {
		if !strings.Contains(reasons, j+" QOSMaxJobsPerUserLimit") {
			t.Errorf("squeue does not hold %s for QOSMaxJobsPerUserLimit:\n%s", j, reasons)
		}
	}
	qos := r.sh(t, "sacctmgr", "show", "qos", "--parsable2", "format=Name,Priority,MaxJobsPU,MaxSubmitPU,MaxWall,MaxTRESPU,GrpTRES,Preempt,PreemptMode")
	r.write(t, "qos.txt", qos)
	t.Logf("$ sacctmgr show qos --parsable2 format=...\n%s", qos)
	// The slurm policy on the node of the slurm.conf slurmctld ran with
	// (its SchedulerParameters among the options).
	on := []string{"--slurm-conf", r.conf, "--slurm-nodes"}
	with := r.simulateIn(t, "slurm-qos", "slurm", append(on, "--slurm-qos", "qos.txt")...)
	without := r.simulateIn(t, "slurm", "slurm", on...)
	var table strings.Builder
	fmt.Fprintf(&table, "job  qos     submit  Slurm  with --slurm-qos  without\n")
	far := 0
	for i := range subs {
		q := "normal"
		if i < 6 {
			q = "lim"
		}
		fmt.Fprintf(&table, "j%-3d %-6s  %6.0f  %5.0f  %16.0f  %7.0f\n", i+1, q, r.real[i].submit, r.real[i].start, with[i].start, without[i].start)
		if math.Abs(with[i].start-r.real[i].start) > qosSlack {
			t.Errorf("j%d: the slurm policy with the QOS table starts it at %.0f, Slurm at %.0f", i+1, with[i].start, r.real[i].start)
		}
		if math.Abs(without[i].start-r.real[i].start) > qosSlack {
			far++
		}
	}
	t.Logf("starts (s after the first submission):\n%s", table.String())
	// Slurm's own schedule shows the limit: the fifth and sixth lim jobs
	// wait for two rounds of 20 s.
	if w := r.real[5].start - r.real[5].submit; w < 30 {
		t.Errorf("Slurm started j6 %.0f s after its submission: the QOS limit did not hold it", w)
	}
	if far < 2 {
		t.Errorf("without the QOS table the slurm policy starts all but %d jobs as Slurm did: the check cannot tell the limit", far)
	}
}
