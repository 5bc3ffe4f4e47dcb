package launch

import (
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realJob is a sleep job of the real-Slurm comparisons: submit offset
// (s), CPUs, sleep (s) and time limit (minutes, Slurm's unit).
type realJob struct {
	at, cpus, sleep, limit int
}

// slurmSched is one job as Slurm ran it, in seconds after the first
// submission (from the imported trace: start = submit + wait, end =
// start + run).
type slurmSched struct {
	submit, start, end float64
}

// simSched is one job as the simulation ran it (jobs.csv).
type simSched struct {
	start  float64
	reason string // start_reason: immediate, backfilled, reserved
}

// slurmRun is a workload run on a real Slurm and imported: the working
// folder, the schedlab command, slurmctld's log, the jobs' Slurm ids and
// schedules in workload order.
type slurmRun struct {
	work, schedlab, ctldLog string
	conf                    string // the slurm.conf slurmctld runs with
	trace                   string // the import simulate runs: acct.swf, or acct.jobs on several nodes
	env                     []string
	ids                     []int64
	real                    []slurmSched
}

// slurmMachine is the Slurm a workload runs on: one node of this host
// with cpus CPUs, or (multi) the multiNodes nodes of multiCPUs CPUs of
// startSlurmNodes with the PartitionName lines partitions.
type slurmMachine struct {
	cpus       int
	multi      bool
	partitions []string
	// setup, when set, runs once the daemons are up, before the first
	// submission (sacctmgr's QOS, say); probe right after the last
	// submission, while the jobs run (squeue's reasons, say).
	setup, probe func(t *testing.T, r *slurmRun)
	// authInfo, when set, is added to slurm.conf's AuthInfo after its
	// munge socket (cred_expire=N, say; one node only).
	authInfo string
	// requeues: some jobs run more than once (preempted and requeued),
	// and sacct --json lists every run where sacct -P lists the last:
	// their imports are not compared.
	requeues bool
}

// procs is the machine's CPUs in all.
func (m slurmMachine) procs() int {
	if m.multi {
		return multiNodes * multiCPUs
	}
	return m.cpus
}

// slurmSub is one submission of a workload: its offset (s) after the
// first and sbatch's options beyond --parsable, -J and -o (the request,
// the time limit and the --wrap command).
type slurmSub struct {
	at   int
	args []string
}

// runSlurmWorkload starts MariaDB, slurmdbd, slurmctld and slurmd (one
// node of cpus CPUs; settings, such as SchedulerType, replace or add
// slurm.conf lines), submits jobs at their offsets, waits for them,
// exports their accounting with sacct -P and imports it with 'trace
// import --from sacct'. It also imports sacct --json, where this Slurm
// writes it, and checks that it gives the same jobs. It skips the test
// where it cannot run (not SCHEDLAB_SLURM_TEST=1, not root, packages not
// installable, daemons not starting); skip is the reason printed.
func runSlurmWorkload(t *testing.T, skip string, cpus int, settings [][2]string, jobs []realJob) *slurmRun {
	t.Helper()
	subs := make([]slurmSub, len(jobs))
	for i, j := range jobs {
		subs[i] = slurmSub{j.at, []string{"-n", fmt.Sprint(j.cpus), fmt.Sprintf("--time=%d", j.limit), "--wrap", fmt.Sprintf("sleep %d", j.sleep)}}
	}
	return runSlurmOn(t, skip, slurmMachine{cpus: cpus}, settings, subs)
}

// runSlurmOn is runSlurmWorkload on the machine m with the submissions
// subs. On several nodes (m.multi) the export has the request's columns
// too (NNodes, ReqNodes, ReqTRES, AllocTRES) and is imported as a job
// table as well (acct.jobs, which simulate then runs).
func runSlurmOn(t *testing.T, skip string, m slurmMachine, settings [][2]string, subs []slurmSub) *slurmRun {
	t.Helper()
	needRealSlurm(t, skip)
	installPackages(t, map[string]string{"slurmdbd": "slurmdbd", "mariadbd": "mariadb-server", "mariadb-install-db": "mariadb-server", "sacctmgr": "slurm-client", "sacct": "slurm-client"})
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &slurmRun{schedlab: buildSchedlab(t, dir), work: filepath.Join(dir, "work"), ctldLog: filepath.Join(dir, "slurmctld.log"), trace: "acct.swf"}
	if keep := os.Getenv("SCHEDLAB_SLURM_KEEP"); keep != "" {
		// The working folder (exports, imports, runs), slurm.conf and
		// slurmctld's log outlive the test there, for a look afterwards.
		t.Cleanup(func() {
			to := filepath.Join(keep, t.Name())
			os.RemoveAll(to)
			out, err := exec.Command("cp", "-r", r.work, to).CombinedOutput()
			if err == nil {
				out, err = exec.Command("cp", r.ctldLog, filepath.Join(dir, "slurm.conf"), to).CombinedOutput()
			}
			if err != nil {
				t.Logf("SCHEDLAB_SLURM_KEEP: %v\n%s", err, out)
				return
			}
			t.Logf("SCHEDLAB_SLURM_KEEP: the working folder, slurm.conf and slurmctld.log are in %s", to)
		})
	}
	accounting := func(socket string) [][2]string {
		dbd := startAccounting(t, dir, socket)
		return [][2]string{
			{"AccountingStorageType", "accounting_storage/slurmdbd"},
			{"AccountingStorageHost", "localhost"},
			{"AccountingStoragePort", fmt.Sprint(dbd)},
			{"AccountingStoragePass", socket}, // the munge socket, for slurmdbd's connections
		}
	}
	if m.multi {
		r.trace = "acct.jobs"
		r.conf = startSlurmNodes(t, dir, m.partitions, func(socket string) [][2]string {
			return append(accounting(socket), settings...)
		})
	} else {
		host, _ := os.Hostname()
		host, _, _ = strings.Cut(host, ".")
		r.conf = startSlurm(t, dir, func(socket string) [][2]string {
			set := append(append(accounting(socket),
				[2]string{"NodeName", fmt.Sprintf("%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN", host, m.cpus)}), settings...)
			if m.authInfo != "" {
				set = append(set, [2]string{"AuthInfo", "socket=" + socket + "," + m.authInfo})
			}
			return set
		})
	}
	r.env = append(os.Environ(), "SLURM_CONF="+r.conf, "TZ=UTC")
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("$ scontrol show config | grep Scheduler\n%s", grepLines(r.sh(t, "scontrol", "show", "config"), "Scheduler"))
	if m.setup != nil {
		m.setup(t, r)
	}

	start := time.Now()
	var ids []string
	for i, s := range subs {
		time.Sleep(time.Until(start.Add(time.Duration(s.at) * time.Second)))
		args := append([]string{"--parsable", "-J", fmt.Sprintf("j%d", i+1), "-o", "/dev/null"}, s.args...)
		ids = append(ids, strings.TrimSpace(r.sh(t, "sbatch", args...)))
	}
	t.Logf("submitted %d sleep jobs (ids %s) over %d s", len(ids), strings.Join(ids, ","), subs[len(subs)-1].at)
	if m.probe != nil {
		m.probe(t, r)
	}
	for _, id := range ids {
		if st := waitJob(t, r.env, id, 5*time.Minute); st != "COMPLETED" {
			t.Fatalf("job %s ended %s", id, st)
		}
	}
	// The accounting reaches slurmdbd a moment after the jobs end.
	format := "JobIDRaw,JobID,JobName,User,Group,Partition,QOS,Submit,Start,End,Elapsed,Timelimit,NCPUS,ReqCPUS,ReqMem,State"
	if m.multi {
		format += ",NNodes,ReqNodes,ReqTRES,AllocTRES"
	}
	var acct string
	waitFor(30*time.Second, func() bool {
		acct = r.sh(t, "sacct", "--allusers", "--parsable2", "--starttime", "now-1hour", "--format="+format)
		done := 0
		for _, l := range strings.Split(acct, "\n") {
			if f := strings.Split(l, "|"); len(f) > 15 && !strings.Contains(f[0], ".") && f[15] == "COMPLETED" && f[9] != "Unknown" {
				done++
			}
		}
		return done == len(subs)
	})
	r.write(t, "acct.txt", acct)
	procs := fmt.Sprint(m.procs())
	if len(subs) <= 20 {
		t.Logf("$ sacct --allusers --parsable2 --format=%s\n%s", format, acct)
	}
	t.Logf("$ schedlab trace import acct.txt --from sacct --procs %s --out acct.swf\n%s", procs,
		r.sh(t, r.schedlab, "trace", "import", "acct.txt", "--from", "sacct", "--procs", procs, "--out", "acct.swf"))
	if m.multi {
		t.Logf("$ schedlab trace import acct.txt --from sacct --procs %s --out acct.jobs\n%s", procs,
			r.sh(t, r.schedlab, "trace", "import", "acct.txt", "--from", "sacct", "--procs", procs, "--out", "acct.jobs"))
	}
	jcmd := exec.Command("sacct", "--allusers", "--json", "--starttime", "now-1hour")
	jcmd.Env = r.env
	js, err := jcmd.Output()
	if err == nil && strings.HasPrefix(strings.TrimSpace(string(js)), "{") {
		// The same history as JSON must import to the same jobs.
		r.write(t, "acct.json", string(js))
		r.sh(t, r.schedlab, "trace", "import", "acct.json", "--from", "sacct", "--procs", procs, "--out", "acct-json.swf")
		a, _ := os.ReadFile(filepath.Join(r.work, "acct.swf"))
		b, _ := os.ReadFile(filepath.Join(r.work, "acct-json.swf"))
		// Requested memory (field 10) is left out: Slurm 22.05's -P ReqMem
		// is the memory allocated (1M here, the node's default
		// RealMemory), its JSON's required.memory the request (0).
		if m.requeues {
			t.Logf("sacct --json lists every run of a requeued job, sacct -P its last: the imports differ, not compared:\n%s\n%s", jobLines(b), jobLines(a))
		} else if noMem(jobLines(a)) != noMem(jobLines(b)) {
			t.Errorf("sacct --json imports to other jobs than sacct -P:\n%s\n%s\n%.4000s", jobLines(b), jobLines(a), js)
		} else {
			t.Logf("sacct --json (this Slurm's) imports to the same %d jobs as sacct -P (requested memory aside)", len(subs))
		}
	} else {
		t.Logf("sacct --json not available here (%v): only -P compared", err)
	}

	byID := map[int64]slurmSched{}
	b, _ := os.ReadFile(filepath.Join(r.work, "acct.swf"))
	for _, l := range strings.Split(jobLines(b), "\n") {
		f := strings.Fields(l)
		id, _ := strconv.ParseInt(f[0], 10, 64)
		var v [3]float64
		for k := range v {
			v[k], _ = strconv.ParseFloat(f[k+1], 64)
		}
		byID[id] = slurmSched{v[0], v[0] + v[1], v[0] + v[1] + v[2]}
	}
	for _, idText := range ids {
		id, _ := strconv.ParseInt(idText, 10, 64)
		s, ok := byID[id]
		if !ok {
			t.Fatalf("job %s is not in the import", idText)
		}
		r.ids, r.real = append(r.ids, id), append(r.real, s)
	}
	return r
}

// simulate runs 'schedlab run --policy policy' (with the flags args) on
// the imported trace and returns each job's start and start reason, in
// workload order.
func (r *slurmRun) simulate(t *testing.T, policy string, args ...string) []simSched {
	t.Helper()
	return r.simulateIn(t, policy, policy, args...)
}

// simulateIn is simulate writing to the folder out of the working
// folder.
func (r *slurmRun) simulateIn(t *testing.T, out, policy string, args ...string) []simSched {
	t.Helper()
	args = append([]string{"run", "--trace", r.trace, "--policy", policy, "--out", out}, args...)
	t.Logf("$ schedlab %s\n%s", strings.Join(args, " "), r.sh(t, r.schedlab, args...))
	f, err := os.Open(filepath.Join(r.work, out, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	byID := map[int64]simSched{}
	for _, row := range rows[1:] {
		id, _ := strconv.ParseInt(row[col["job_id"]], 10, 64)
		start, _ := strconv.ParseFloat(row[col["starting_time"]], 64)
		byID[id] = simSched{start, row[col["start_reason"]]}
	}
	sched := make([]simSched, len(r.ids))
	for i, id := range r.ids {
		s, ok := byID[id]
		if !ok {
			t.Fatalf("job %d is not in the %s simulation (%s)", id, policy, out)
		}
		sched[i] = s
	}
	return sched
}

// sh runs a command in the working folder with the Slurm environment
// and returns its output; a failure ends the test.
func (r *slurmRun) sh(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = r.work, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (r *slurmRun) write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.work, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// grepLines is the lines of text that contain word.
func grepLines(text, word string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
