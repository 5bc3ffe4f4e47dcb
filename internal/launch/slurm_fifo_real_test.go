package launch

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fifoCPUs is the node's CPU count in the FIFO comparison (declared to
// slurmd with config_overrides: the jobs sleep, they do not compute).
const fifoCPUs = 4

// fifoJobs is the workload of the comparison: submit offset (s), CPUs,
// sleep (s). Under FIFO on 4 CPUs, by hand: 1 and 2 start at once; 3 (4
// CPUs) waits for both, to 20; 4 and 5 wait behind 3, to its end, 30; 6
// (2 CPUs) finds 1 free at 35 and starts when 5 ends, 40, with 7; 8 (4
// CPUs) starts when 7 ends, 55.
var fifoJobs = []struct {
	at, cpus, sleep int
}{
	{0, 2, 20}, {1, 2, 10}, {2, 4, 10}, {3, 1, 5}, {4, 3, 10}, {6, 2, 5}, {8, 1, 15}, {10, 4, 5},
}

// fifoLatency bounds (s) Slurm's latency: how long after FIFO allows a
// job (submitted, the job before it started, its CPUs free) slurmctld
// starts it. sacct's times are whole seconds; the scheduling pass that a
// submission or a job's end triggers comes a moment later. A job's
// start inherits the lags of the starts and ends it waited for, so the
// simulation (no latency) starts later jobs earlier by their sum.
const fifoLatency = 3

// TestSlurmFIFOForReal checks the Slurm import and the FIFO policy
// against a running Slurm: slurmctld with the FIFO scheduler
// (SchedulerType=sched/builtin), accounting in slurmdbd and MariaDB (all
// on 127.0.0.1, files in a temporary folder), a node of fifoCPUs CPUs;
// fifoJobs submitted with staggered submits, their accounting exported
// with sacct -P (and --json), imported, simulated with 'run --policy
// fcfs', and every job's simulated start compared with the one Slurm
// gave it. It runs only with SCHEDLAB_SLURM_TEST=1, as root (it installs
// slurm-wlm, slurmdbd, munge and mariadb-server with apt-get when they
// are missing), and takes about a minute and a half.
func TestSlurmFIFOForReal(t *testing.T) {
	if os.Getenv("SCHEDLAB_SLURM_TEST") != "1" {
		t.Skip("the real Slurm test runs with SCHEDLAB_SLURM_TEST=1 (as root: it installs slurm-wlm, slurmdbd, munge and mariadb-server with apt-get when they are missing, then starts its own daemons)")
	}
	if os.Geteuid() != 0 {
		t.Skip("the real Slurm test needs root (apt-get, and daemons with SlurmUser=root)")
	}
	installSlurm(t)
	installPackages(t, map[string]string{"slurmdbd": "slurmdbd", "mariadbd": "mariadb-server", "mariadb-install-db": "mariadb-server", "sacctmgr": "slurm-client", "sacct": "slurm-client"})
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	schedlab := buildSchedlab(t, dir)
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	conf := startSlurm(t, dir, func(socket string) [][2]string {
		dbd := startAccounting(t, dir, socket)
		return [][2]string{
			{"SchedulerType", "sched/builtin"},
			{"AccountingStorageType", "accounting_storage/slurmdbd"},
			{"AccountingStorageHost", "localhost"},
			{"AccountingStoragePort", fmt.Sprint(dbd)},
			{"AccountingStoragePass", socket}, // the munge socket, for slurmdbd's connections
			{"NodeName", fmt.Sprintf("%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN", host, fifoCPUs)},
		}
	})
	env := append(os.Environ(), "SLURM_CONF="+conf, "TZ=UTC")
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	sh := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = work, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	start := time.Now()
	var ids []string
	for i, j := range fifoJobs {
		time.Sleep(time.Until(start.Add(time.Duration(j.at) * time.Second)))
		out := sh("sbatch", "--parsable", "-J", fmt.Sprintf("j%d", i+1), "-n", fmt.Sprint(j.cpus), "--time=2", "-o", "/dev/null",
			"--wrap", fmt.Sprintf("sleep %d", j.sleep))
		ids = append(ids, strings.TrimSpace(out))
	}
	t.Logf("submitted %d sleep jobs (ids %s) over %d s", len(ids), strings.Join(ids, ","), fifoJobs[len(fifoJobs)-1].at)
	for _, id := range ids {
		if st := waitJob(t, env, id, 3*time.Minute); st != "COMPLETED" {
			t.Fatalf("job %s ended %s", id, st)
		}
	}
	// The accounting reaches slurmdbd a moment after the jobs end.
	format := "JobIDRaw,JobID,JobName,User,Group,Partition,QOS,Submit,Start,End,Elapsed,Timelimit,NCPUS,ReqCPUS,ReqMem,State"
	var acct string
	waitFor(30*time.Second, func() bool {
		acct = sh("sacct", "--allusers", "--parsable2", "--starttime", "now-1hour", "--format="+format)
		done := 0
		for _, l := range strings.Split(acct, "\n") {
			if f := strings.Split(l, "|"); len(f) > 15 && !strings.Contains(f[0], ".") && f[15] == "COMPLETED" && f[9] != "Unknown" {
				done++
			}
		}
		return done == len(fifoJobs)
	})
	write := func(name, text string) string {
		p := filepath.Join(work, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("acct.txt", acct)
	t.Logf("$ sacct --allusers --parsable2 --format=%s\n%s", format, acct)
	t.Logf("$ schedlab trace import acct.txt --from sacct --procs %d --out acct.swf\n%s", fifoCPUs,
		sh(schedlab, "trace", "import", "acct.txt", "--from", "sacct", "--procs", fmt.Sprint(fifoCPUs), "--out", "acct.swf"))
	jcmd := exec.Command("sacct", "--allusers", "--json", "--starttime", "now-1hour")
	jcmd.Env = env
	js, err := jcmd.Output()
	if err == nil && strings.HasPrefix(strings.TrimSpace(string(js)), "{") {
		// The same history as JSON must import to the same jobs.
		write("acct.json", string(js))
		sh(schedlab, "trace", "import", "acct.json", "--from", "sacct", "--procs", fmt.Sprint(fifoCPUs), "--out", "acct-json.swf")
		a, _ := os.ReadFile(filepath.Join(work, "acct.swf"))
		b, _ := os.ReadFile(filepath.Join(work, "acct-json.swf"))
		// Requested memory (field 10) is left out: Slurm 22.05's -P ReqMem
		// is the memory allocated (1M here, the node's default
		// RealMemory), its JSON's required.memory the request (0).
		if noMem(jobLines(a)) != noMem(jobLines(b)) {
			t.Errorf("sacct --json imports to other jobs than sacct -P:\n%s\n%s\n%.4000s", jobLines(b), jobLines(a), js)
		} else {
			t.Logf("sacct --json (this Slurm's) imports to the same %d jobs as sacct -P (requested memory aside)", len(fifoJobs))
		}
	} else {
		t.Logf("sacct --json not available here (%v): only -P compared", err)
	}
	t.Logf("$ schedlab run --trace acct.swf --policy fcfs --out fcfs\n%s", sh(schedlab, "run", "--trace", "acct.swf", "--policy", "fcfs", "--out", "fcfs"))

	// Slurm's schedule from the imported trace (submit, start = submit +
	// wait, end = start + run), the simulated starts from jobs.csv.
	type sched struct{ submit, start, end float64 }
	real := map[int64]sched{}
	b, _ := os.ReadFile(filepath.Join(work, "acct.swf"))
	for _, l := range strings.Split(jobLines(b), "\n") {
		f := strings.Fields(l)
		id, _ := strconv.ParseInt(f[0], 10, 64)
		var v [3]float64
		for k := range v {
			v[k], _ = strconv.ParseFloat(f[k+1], 64)
		}
		real[id] = sched{v[0], v[0] + v[1], v[0] + v[1] + v[2]}
	}
	fcsv, err := os.Open(filepath.Join(work, "fcfs", "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fcsv.Close()
	rows, err := csv.NewReader(fcsv).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sim := map[int64]float64{}
	for _, r := range rows[1:] {
		id, _ := strconv.ParseInt(r[0], 10, 64)
		sim[id], _ = strconv.ParseFloat(r[4], 64)
	}
	// Slurm's latency for each job: its start minus the first moment
	// FIFO allowed it in Slurm's own schedule (submitted, the job before
	// it started, enough CPUs free given the other jobs' real starts and
	// ends).
	num := make([]int64, len(ids))
	for i, idText := range ids {
		num[i], _ = strconv.ParseInt(idText, 10, 64)
		if _, ok := real[num[i]]; !ok {
			t.Fatalf("job %s is not in the import", idText)
		}
		if _, ok := sim[num[i]]; !ok {
			t.Fatalf("job %s is not in the simulation", idText)
		}
	}
	latency := make([]float64, len(ids))
	for i := range ids {
		r := real[num[i]]
		ready := r.submit
		if i > 0 {
			ready = math.Max(ready, real[num[i-1]].start)
		}
		candidates := []float64{ready}
		for k := range ids {
			if e := real[num[k]].end; k != i && e > ready {
				candidates = append(candidates, e)
			}
		}
		allowed := math.Inf(1)
		for _, c := range candidates {
			used := 0
			for k := range ids {
				if o := real[num[k]]; k != i && o.start <= c && c < o.end {
					used += fifoJobs[k].cpus
				}
			}
			if used+fifoJobs[i].cpus <= fifoCPUs && c < allowed {
				allowed = c
			}
		}
		latency[i] = r.start - allowed
	}
	var table strings.Builder
	fmt.Fprintf(&table, "job  CPUs  sleep  submit  Slurm start  Slurm's latency  simulated start  Slurm - simulated\n")
	maxDiff, sumDiff, lagSoFar, maxLat := 0.0, 0.0, 0.0, 0.0
	for i := range ids {
		r, s := real[num[i]], sim[num[i]]
		d := r.start - s
		lagSoFar += math.Max(latency[i], 0)
		fmt.Fprintf(&table, "%3d  %4d  %5d  %6.0f  %11.0f  %15.0f  %15.0f  %+17.0f\n", i+1, fifoJobs[i].cpus, fifoJobs[i].sleep, r.submit, r.start, latency[i], s, d)
		maxDiff, sumDiff, maxLat = math.Max(maxDiff, math.Abs(d)), sumDiff+math.Abs(d), math.Max(maxLat, latency[i])
		if latency[i] < -1 || latency[i] > fifoLatency {
			t.Errorf("job %d: Slurm started it %.0f s after FIFO allowed it (want 0..%d s)", i+1, latency[i], fifoLatency)
		}
		// The simulation has no latency: never later than Slurm (but
		// for sacct's whole seconds), and earlier by at most the lags
		// Slurm accumulated so far.
		if d < -1 || d > lagSoFar+1 {
			t.Errorf("job %d: Slurm started it at %.0f s, the simulation at %.0f s (want Slurm - simulated in -1..%.0f s: the latencies so far)", i+1, r.start, s, lagSoFar+1)
		}
		// The same order of starts: no two jobs the other way round (a
		// lag may make two jobs start together in Slurm that the
		// simulation starts one after the other).
		for k := range i {
			rk, sk := real[num[k]], sim[num[k]]
			if (r.start < rk.start && s > sk) || (r.start > rk.start && s < sk) {
				t.Errorf("jobs %d and %d: Slurm started them at %.0f and %.0f s, the simulation at %.0f and %.0f s: not in the same order", k+1, i+1, rk.start, r.start, sk, s)
			}
		}
	}
	t.Logf("start times (seconds after the first submission):\n%sSlurm's latency at most %.0f s; Slurm - simulated at most %.0f s, mean %.2f s, over %d jobs; same order of starts",
		table.String(), maxLat, maxDiff, sumDiff/float64(len(ids)), len(ids))
}

// jobLines is the job lines of an SWF file (its header left out).
func jobLines(b []byte) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, ";") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// installPackages installs, with apt-get, the package of every program
// (program -> package) not found; it skips the test when it cannot.
func installPackages(t *testing.T, progs map[string]string) {
	t.Helper()
	var pkgs []string
	seen := map[string]bool{}
	for prog, pkg := range progs {
		if _, err := exec.LookPath(prog); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join("/usr/sbin", prog)); err == nil {
			continue
		}
		if !seen[pkg] {
			seen[pkg] = true
			pkgs = append(pkgs, pkg)
		}
	}
	if len(pkgs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	for _, args := range [][]string{{"update"}, append([]string{"install", "-y", "--no-install-recommends"}, pkgs...)} {
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("apt-get %s failed (%v): %s", strings.Join(args, " "), err, tail(out))
		}
	}
	t.Logf("installed %v with apt-get", pkgs)
}

// startAccounting starts MariaDB (its own data folder in dir, on a free
// port of 127.0.0.1, without grant tables: only this test reaches it)
// and slurmdbd, registers the cluster, an account and root in it, and
// returns slurmdbd's port; it skips the test when they do not come up.
func startAccounting(t *testing.T, dir, socket string) int {
	t.Helper()
	data := filepath.Join(dir, "mysql")
	if out, err := exec.Command("mariadb-install-db", "--user=root", "--datadir="+data, "--auth-root-authentication-method=normal",
		"--skip-test-db").CombinedOutput(); err != nil {
		t.Skipf("mariadb-install-db: %v\n%s", err, tail(out))
	}
	dbPort := freePort(t)
	daemon(t, dir, "mariadbd", os.Environ(), "--no-defaults", "--user=root", "--datadir="+data, "--socket="+filepath.Join(dir, "mysql.sock"),
		"--pid-file="+filepath.Join(dir, "mariadb.pid"), "--bind-address=127.0.0.1", fmt.Sprintf("--port=%d", dbPort),
		"--skip-grant-tables", "--innodb-lock-wait-timeout=900", "--innodb-buffer-pool-size=64M")
	if !waitFor(60*time.Second, func() bool {
		c, err := netDial(dbPort)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Skipf("MariaDB did not start: %s", readTail(filepath.Join(dir, "mariadbd.out")))
	}
	dbdPort := freePort(t)
	dbdConf := filepath.Join(dir, "slurmdbd.conf")
	settings := [][2]string{
		{"AuthType", "auth/munge"},
		{"AuthInfo", "socket=" + socket},
		{"DbdHost", "localhost"},
		{"DbdAddr", "127.0.0.1"},
		{"DbdPort", fmt.Sprint(dbdPort)},
		{"SlurmUser", "root"},
		{"StorageType", "accounting_storage/mysql"},
		{"StorageHost", "127.0.0.1"},
		{"StoragePort", fmt.Sprint(dbPort)},
		{"StorageUser", "root"},
		{"StorageLoc", "slurm_acct_db"},
		{"PidFile", filepath.Join(dir, "slurmdbd.pid")},
		{"LogFile", filepath.Join(dir, "slurmdbd.log")},
	}
	var b strings.Builder
	for _, s := range settings {
		fmt.Fprintf(&b, "%s=%s\n", s[0], s[1])
	}
	if err := os.WriteFile(dbdConf, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	// slurmdbd and sacctmgr read slurm.conf (sacctmgr for where slurmdbd
	// is): a minimal one until startSlurm writes the full file.
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	minimal := fmt.Sprintf("ClusterName=schedlab\nSlurmctldHost=%s(127.0.0.1)\nAuthType=auth/munge\nAuthInfo=socket=%s\nAccountingStorageType=accounting_storage/slurmdbd\nAccountingStorageHost=localhost\nAccountingStoragePort=%d\nAccountingStoragePass=%s\n", host, socket, dbdPort, socket)
	if err := os.WriteFile(filepath.Join(dir, "slurm.conf"), []byte(minimal), 0o644); err != nil {
		t.Fatal(err)
	}
	daemon(t, dir, "slurmdbd", append(os.Environ(), "SLURM_CONF="+filepath.Join(dir, "slurm.conf")), "-D") // slurmdbd.conf beside slurm.conf
	if !waitFor(60*time.Second, func() bool {
		c, err := netDial(dbdPort)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Skipf("slurmdbd did not start: %s\n%s", readTail(filepath.Join(dir, "slurmdbd.out")), readTail(filepath.Join(dir, "slurmdbd.log")))
	}
	env := append(os.Environ(), "SLURM_CONF="+filepath.Join(dir, "slurm.conf"))
	for _, args := range [][]string{
		{"-i", "add", "cluster", "schedlab"},
		{"-i", "add", "account", "schedlab", "Cluster=schedlab"},
		{"-i", "add", "user", "root", "Account=schedlab", "Cluster=schedlab"},
	} {
		cmd := exec.Command("sacctmgr", args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("sacctmgr %s: %v\n%s\nslurmdbd: %s", strings.Join(args, " "), err, out, readTail(filepath.Join(dir, "slurmdbd.log")))
		}
	}
	t.Logf("MariaDB on 127.0.0.1:%d, slurmdbd on 127.0.0.1:%d, cluster schedlab registered", dbPort, dbdPort)
	return dbdPort
}

func netDial(port int) (net.Conn, error) {
	return net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
}

// noMem blanks field 10 (requested memory) of SWF job lines.
func noMem(lines string) string {
	var out []string
	for _, l := range strings.Split(lines, "\n") {
		f := strings.Fields(l)
		if len(f) > 9 {
			f[9] = "?"
		}
		out = append(out, strings.Join(f, " "))
	}
	return strings.Join(out, "\n")
}
