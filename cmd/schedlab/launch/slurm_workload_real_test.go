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
	env                     []string
	ids                     []int64
	real                    []slurmSched
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
	needRealSlurm(t, skip)
	installPackages(t, map[string]string{"slurmdbd": "slurmdbd", "mariadbd": "mariadb-server", "mariadb-install-db": "mariadb-server", "sacctmgr": "slurm-client", "sacct": "slurm-client"})
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &slurmRun{schedlab: buildSchedlab(t, dir), work: filepath.Join(dir, "work"), ctldLog: filepath.Join(dir, "slurmctld.log")}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	conf := startSlurm(t, dir, func(socket string) [][2]string {
		dbd := startAccounting(t, dir, socket)
		return append([][2]string{
			{"AccountingStorageType", "accounting_storage/slurmdbd"},
			{"AccountingStorageHost", "localhost"},
			{"AccountingStoragePort", fmt.Sprint(dbd)},
			{"AccountingStoragePass", socket}, // the munge socket, for slurmdbd's connections
			{"NodeName", fmt.Sprintf("%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN", host, cpus)},
		}, settings...)
	})
	r.conf = conf
	r.env = append(os.Environ(), "SLURM_CONF="+conf, "TZ=UTC")
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("$ scontrol show config | grep Scheduler\n%s", grepLines(r.sh(t, "scontrol", "show", "config"), "Scheduler"))

	start := time.Now()
	var ids []string
	for i, j := range jobs {
		time.Sleep(time.Until(start.Add(time.Duration(j.at) * time.Second)))
		out := r.sh(t, "sbatch", "--parsable", "-J", fmt.Sprintf("j%d", i+1), "-n", fmt.Sprint(j.cpus), fmt.Sprintf("--time=%d", j.limit),
			"-o", "/dev/null", "--wrap", fmt.Sprintf("sleep %d", j.sleep))
		ids = append(ids, strings.TrimSpace(out))
	}
	t.Logf("submitted %d sleep jobs (ids %s) over %d s", len(ids), strings.Join(ids, ","), jobs[len(jobs)-1].at)
	for _, id := range ids {
		if st := waitJob(t, r.env, id, 5*time.Minute); st != "COMPLETED" {
			t.Fatalf("job %s ended %s", id, st)
		}
	}
	// The accounting reaches slurmdbd a moment after the jobs end.
	format := "JobIDRaw,JobID,JobName,User,Group,Partition,QOS,Submit,Start,End,Elapsed,Timelimit,NCPUS,ReqCPUS,ReqMem,State"
	var acct string
	waitFor(30*time.Second, func() bool {
		acct = r.sh(t, "sacct", "--allusers", "--parsable2", "--starttime", "now-1hour", "--format="+format)
		done := 0
		for _, l := range strings.Split(acct, "\n") {
			if f := strings.Split(l, "|"); len(f) > 15 && !strings.Contains(f[0], ".") && f[15] == "COMPLETED" && f[9] != "Unknown" {
				done++
			}
		}
		return done == len(jobs)
	})
	r.write(t, "acct.txt", acct)
	t.Logf("$ sacct --allusers --parsable2 --format=%s\n%s", format, acct)
	t.Logf("$ schedlab trace import acct.txt --from sacct --procs %d --out acct.swf\n%s", cpus,
		r.sh(t, r.schedlab, "trace", "import", "acct.txt", "--from", "sacct", "--procs", fmt.Sprint(cpus), "--out", "acct.swf"))
	jcmd := exec.Command("sacct", "--allusers", "--json", "--starttime", "now-1hour")
	jcmd.Env = r.env
	js, err := jcmd.Output()
	if err == nil && strings.HasPrefix(strings.TrimSpace(string(js)), "{") {
		// The same history as JSON must import to the same jobs.
		r.write(t, "acct.json", string(js))
		r.sh(t, r.schedlab, "trace", "import", "acct.json", "--from", "sacct", "--procs", fmt.Sprint(cpus), "--out", "acct-json.swf")
		a, _ := os.ReadFile(filepath.Join(r.work, "acct.swf"))
		b, _ := os.ReadFile(filepath.Join(r.work, "acct-json.swf"))
		// Requested memory (field 10) is left out: Slurm 22.05's -P ReqMem
		// is the memory allocated (1M here, the node's default
		// RealMemory), its JSON's required.memory the request (0).
		if noMem(jobLines(a)) != noMem(jobLines(b)) {
			t.Errorf("sacct --json imports to other jobs than sacct -P:\n%s\n%s\n%.4000s", jobLines(b), jobLines(a), js)
		} else {
			t.Logf("sacct --json (this Slurm's) imports to the same %d jobs as sacct -P (requested memory aside)", len(jobs))
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
	args = append([]string{"run", "--trace", "acct.swf", "--policy", policy, "--out", policy}, args...)
	t.Logf("$ schedlab %s\n%s", strings.Join(args, " "), r.sh(t, r.schedlab, args...))
	f, err := os.Open(filepath.Join(r.work, policy, "jobs.csv"))
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
	out := make([]simSched, len(r.ids))
	for i, id := range r.ids {
		s, ok := byID[id]
		if !ok {
			t.Fatalf("job %d is not in the %s simulation", id, policy)
		}
		out[i] = s
	}
	return out
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
