package launch

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fifoCPUs is the node's CPU count in the FIFO comparison (declared to
// slurmd with config_overrides: the jobs sleep, they do not compute).
const fifoCPUs = 4

// fifoJobs is the workload of the comparison: submit offset (s), CPUs,
// sleep (s), time limit (min). Under FIFO on 4 CPUs, by hand: 1 and 2
// start at once; 3 (4 CPUs) waits for both, to 20; 4 and 5 wait behind
// 3, to its end, 30; 6 (2 CPUs) finds 1 free at 35 and starts when 5
// ends, 40, with 7; 8 (4 CPUs) starts when 7 ends, 55.
var fifoJobs = []realJob{
	{0, 2, 20, 2}, {1, 2, 10, 2}, {2, 4, 10, 2}, {3, 1, 5, 2}, {4, 3, 10, 2}, {6, 2, 5, 2}, {8, 1, 15, 2}, {10, 4, 5, 2},
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
	r := runSlurmWorkload(t, "the real Slurm test runs with SCHEDLAB_SLURM_TEST=1 (as root: it installs slurm-wlm, slurmdbd, munge and mariadb-server with apt-get when they are missing, then starts its own daemons)",
		fifoCPUs, [][2]string{{"SchedulerType", "sched/builtin"}}, fifoJobs)
	real, sim := r.real, r.simulate(t, "fcfs")
	// Slurm's latency for each job: its start minus the first moment
	// FIFO allowed it in Slurm's own schedule (submitted, the job before
	// it started, enough CPUs free given the other jobs' real starts and
	// ends).
	latency := make([]float64, len(real))
	for i := range real {
		ready := real[i].submit
		if i > 0 {
			ready = math.Max(ready, real[i-1].start)
		}
		latency[i] = real[i].start - firstFit(real, fifoJobs, fifoCPUs, i, ready)
	}
	var table strings.Builder
	fmt.Fprintf(&table, "job  CPUs  sleep  submit  Slurm start  Slurm's latency  simulated start  Slurm - simulated\n")
	maxDiff, sumDiff, lagSoFar, maxLat := 0.0, 0.0, 0.0, 0.0
	for i := range real {
		r, s := real[i], sim[i].start
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
			rk, sk := real[k], sim[k].start
			if (r.start < rk.start && s > sk) || (r.start > rk.start && s < sk) {
				t.Errorf("jobs %d and %d: Slurm started them at %.0f and %.0f s, the simulation at %.0f and %.0f s: not in the same order", k+1, i+1, rk.start, r.start, sk, s)
			}
		}
	}
	t.Logf("start times (seconds after the first submission):\n%sSlurm's latency at most %.0f s; Slurm - simulated at most %.0f s, mean %.2f s, over %d jobs; same order of starts",
		table.String(), maxLat, maxDiff, sumDiff/float64(len(real)), len(real))
}

// firstFit is the first moment at or after ready when job i's CPUs are
// free in Slurm's own schedule (the other jobs' real starts and ends):
// ready itself or one of their ends.
func firstFit(real []slurmSched, jobs []realJob, cpus, i int, ready float64) float64 {
	candidates := []float64{ready}
	for k := range real {
		if e := real[k].end; k != i && e > ready {
			candidates = append(candidates, e)
		}
	}
	allowed := math.Inf(1)
	for _, c := range candidates {
		used := 0
		for k := range real {
			if o := real[k]; k != i && o.start <= c && c < o.end {
				used += jobs[k].cpus
			}
		}
		if used+jobs[i].cpus <= cpus && c < allowed {
			allowed = c
		}
	}
	return allowed
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
	aptMu.Lock()
	defer aptMu.Unlock()
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
