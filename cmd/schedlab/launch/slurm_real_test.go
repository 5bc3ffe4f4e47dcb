package launch

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The real thing: Debian's slurm-wlm runs a one-host controller and node
// daemon on 127.0.0.1 (a munge daemon with a fresh key, a slurm.conf with
// this machine's CPUs and host name, every file in a temporary folder,
// free ports); the script 'schedlab sweep --emit slurm' prints is run,
// submits a job array of 3 shards and the merge, and the merged folder
// is compared, byte for byte, with the unsharded sweep's. The daemons
// are stopped (by their process ids) and the folder removed at the end.
//
// It runs only with SCHEDLAB_SLURM_TEST=1 (it installs packages as root
// with apt-get when slurmctld is not installed); it skips, saying why,
// where it cannot: not root, no apt-get, the packages not installable,
// the daemons not starting.
func TestSlurmForReal(t *testing.T) {
	needRealSlurm(t, "the real Slurm test runs with SCHEDLAB_SLURM_TEST=1 (as root: it installs slurm-wlm and munge with apt-get when they are missing, then starts its own daemons)")
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil { // munged wants its socket's folder searchable by all
		t.Fatal(err)
	}
	schedlab := buildSchedlab(t, dir)
	conf := startSlurm(t, dir, nil)
	env := append(os.Environ(), "SLURM_CONF="+conf)

	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	scenario := `model: grid
seed: 7
replications: 3
stop: {completed: 2000}
platform: {sites: 2, procs_per_site: 4}
workload: {mean_interarrival: 0.2}
policy:
  grid: [random, deferred]
  allocation_interval: 0.5
  local: [sq, random]
`
	if err := os.WriteFile(filepath.Join(work, "grid.yaml"), []byte(scenario), 0o644); err != nil {
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
	t.Logf("$ schedlab sweep grid.yaml --out unsharded\n(the reference)")
	sh(schedlab, "sweep", "grid.yaml", "--out", "unsharded")
	script := sh(schedlab, "sweep", "grid.yaml", "--shards", "3", "--emit", "slurm", "--out", "sharded")
	if err := os.WriteFile(filepath.Join(work, "submit.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("$ schedlab sweep grid.yaml --shards 3 --emit slurm --out sharded > submit.sh\n$ bash submit.sh")
	start := time.Now()
	out := sh("bash", "submit.sh")
	t.Log(strings.TrimSpace(out))
	m := regexp.MustCompile(`job array (\d+) .* merge as job (\d+) `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no job ids in %q", out)
	}
	t.Logf("$ squeue\n%s", sh("squeue"))
	state := waitJob(t, env, m[2], 3*time.Minute)
	t.Logf("merge job %s: %s after %.1f s", m[2], state, time.Since(start).Seconds())
	logs, _ := filepath.Glob(filepath.Join(work, "sharded", "shards", "logs", "*"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		t.Logf("$ cat %s\n%s", strings.TrimPrefix(l, work+"/"), b)
	}
	if state != "COMPLETED" {
		t.Fatalf("the merge job ended %s", state)
	}
	for _, f := range []string{"summary.csv", "comparisons.csv"} {
		a, _ := os.ReadFile(filepath.Join(work, "unsharded", f))
		b, err := os.ReadFile(filepath.Join(work, "sharded", f))
		if err != nil || len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: the merged file differs from the unsharded sweep's (%v)", f, err)
		}
	}
	points, _ := filepath.Glob(filepath.Join(work, "unsharded", "points", "*.json"))
	for _, p := range points {
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(work, "sharded", "points", filepath.Base(p)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("points/%s differs from the unsharded sweep's (%v)", filepath.Base(p), err)
		}
	}
	if len(points) != 4 {
		t.Errorf("%d point files, want 4", len(points))
	}
	t.Logf("$ cmp sharded/summary.csv unsharded/summary.csv && cmp sharded/comparisons.csv unsharded/comparisons.csv && diff -r sharded/points unsharded/points\n(identical: %d point files)", len(points))
}

// needRealSlurm skips t, saying skip, unless SCHEDLAB_SLURM_TEST=1 and
// root, and installs slurm-wlm and munge when they are missing. Then t
// runs in parallel with the other real-Slurm tests (t.Parallel, as many
// at once as go test's -parallel, GOMAXPROCS by default): each starts
// daemons of its own, on ports of its own (freePort), in a folder of
// its own, and their jobs are sleeps, so that two at once on 2 cores
// keep their timings while the package takes about half the time.
func needRealSlurm(t *testing.T, skip string) {
	t.Helper()
	if os.Getenv("SCHEDLAB_SLURM_TEST") != "1" {
		t.Skip(skip)
	}
	if os.Geteuid() != 0 {
		t.Skip("the real Slurm test needs root (apt-get, and daemons with SlurmUser=root)")
	}
	installSlurm(t)
	t.Parallel()
}

// aptMu keeps two tests from running apt-get at once (dpkg's lock).
var aptMu sync.Mutex

// installSlurm installs slurm-wlm and munge with apt-get unless their
// programs are there; it skips the test when it cannot.
func installSlurm(t *testing.T) {
	t.Helper()
	aptMu.Lock()
	defer aptMu.Unlock()
	need := []string{"slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo", "munged"}
	missing := func() []string {
		var m []string
		for _, p := range need {
			if _, err := exec.LookPath(p); err != nil {
				if _, err := os.Stat(filepath.Join("/usr/sbin", p)); err != nil {
					m = append(m, p)
				}
			}
		}
		return m
	}
	if len(missing()) == 0 {
		return
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		t.Skipf("no apt-get to install slurm-wlm and munge (missing: %v)", missing())
	}
	apt := func(args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	install := []string{"install", "-y", "--no-install-recommends", "slurm-wlm", "munge"}
	out, err := apt(install...)
	if err != nil {
		if uout, uerr := apt("update"); uerr != nil {
			t.Skipf("apt-get update failed (%v): %s", uerr, tail(uout))
		}
		if out, err = apt(install...); err != nil {
			t.Skipf("apt-get install slurm-wlm munge failed (%v): %s", err, tail(out))
		}
	}
	if m := missing(); len(m) > 0 {
		t.Skipf("slurm-wlm and munge installed, but %v are not there", m)
	}
	t.Logf("installed slurm-wlm and munge with apt-get")
}

func tail(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-8):], "\n")
}

// buildSchedlab builds the command into dir/bin.
func buildSchedlab(t *testing.T, dir string) string {
	t.Helper()
	exe := filepath.Join(dir, "bin", "schedlab")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	cmd := exec.Command(gobin, "build", "-o", exe, "github.com/schedlab/schedlab/cmd/schedlab")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// freePort is a TCP port nothing listens on at the moment and that no
// other test of this process was given (tests in parallel pick theirs
// before their daemons listen on them).
func freePort(t *testing.T) int {
	t.Helper()
	portsMu.Lock()
	defer portsMu.Unlock()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !portsGiven[p] {
			portsGiven[p] = true
			return p
		}
	}
}

var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{}
)

// daemon starts a program in the foreground of its own (it forks no
// other) and stops it, by its process id, when the test ends.
func daemon(t *testing.T, dir, name string, env []string, args ...string) {
	t.Helper()
	logf, err := os.Create(filepath.Join(dir, name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr, cmd.Env = logf, logf, env
	if err := cmd.Start(); err != nil {
		logf.Close()
		t.Skipf("%s does not start: %v", name, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); logf.Close(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
}

// startSlurm starts munged, slurmctld and slurmd for this host, all
// files in dir, and returns the path of slurm.conf once the node is
// idle; it skips the test when they do not come up. hook, when not nil,
// runs once munged is up (with its socket), before the Slurm daemons
// start; the settings it returns replace those of the same name in
// slurm.conf, or are added.
func startSlurm(t *testing.T, dir string, hook func(socket string) [][2]string) string {
	t.Helper()
	return startSlurmWith(t, dir, hook, func(env []string, conf string) {
		daemon(t, dir, "slurmd", env, "-D", "-f", conf)
	}, 1)
}

// startSlurmWith is startSlurm with the node daemons started by
// startNodes (given the environment and slurm.conf), waiting until
// nodes nodes are idle.
func startSlurmWith(t *testing.T, dir string, hook func(socket string) [][2]string, startNodes func(env []string, conf string), nodes int) string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	key := make([]byte, 1024)
	rand.Read(key)
	for _, d := range []string{"state", "spool"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "munge.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "munge.socket")
	daemon(t, dir, "munged", os.Environ(), "--foreground", "--force", "--key-file="+filepath.Join(dir, "munge.key"), "--socket="+socket,
		"--pid-file="+filepath.Join(dir, "munged.pid"), "--seed-file="+filepath.Join(dir, "munged.seed"), "--log-file="+filepath.Join(dir, "munged.log"))
	if !waitFor(10*time.Second, func() bool { _, err := os.Stat(socket); return err == nil }) {
		t.Skipf("munged did not start: %s", readTail(filepath.Join(dir, "munged.out")))
	}
	conf := filepath.Join(dir, "slurm.conf")
	settings := [][2]string{
		{"ClusterName", "schedlab"},
		{"SlurmctldHost", host + "(127.0.0.1)"},
		{"SlurmUser", "root"},
		{"SlurmdUser", "root"},
		{"SlurmctldPort", fmt.Sprint(freePort(t))},
		{"SlurmdPort", fmt.Sprint(freePort(t))},
		{"AuthType", "auth/munge"},
		{"CredType", "cred/munge"},
		{"AuthInfo", "socket=" + socket},
		{"StateSaveLocation", filepath.Join(dir, "state")},
		{"SlurmdSpoolDir", filepath.Join(dir, "spool")},
		{"SlurmctldPidFile", filepath.Join(dir, "slurmctld.pid")},
		{"SlurmdPidFile", filepath.Join(dir, "slurmd.pid")},
		{"SlurmctldLogFile", filepath.Join(dir, "slurmctld.log")},
		{"SlurmdLogFile", filepath.Join(dir, "slurmd.log")},
		{"ProctrackType", "proctrack/linuxproc"},
		{"TaskPlugin", "task/none"},
		{"SlurmdParameters", "config_overrides"},
		{"SchedulerType", "sched/backfill"},
		{"SelectType", "select/cons_tres"},
		{"SelectTypeParameters", "CR_CPU"},
		{"ReturnToService", "2"},
		{"MpiDefault", "none"},
		{"JobAcctGatherType", "jobacct_gather/none"},
		{"AccountingStorageType", "accounting_storage/none"},
		{"JobCompType", "jobcomp/none"},
		{"SwitchType", "switch/none"},
		{"MailProg", "/bin/true"},
		{"NodeName", fmt.Sprintf("%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN", host, runtime.NumCPU())},
		{"PartitionName", fmt.Sprintf("schedlab Nodes=%s Default=YES MaxTime=INFINITE State=UP", host)},
	}
	if hook != nil {
	extra:
		for _, e := range hook(socket) {
			for i := range settings {
				if settings[i][0] == e[0] {
					settings[i] = e
					continue extra
				}
			}
			settings = append(settings, e)
		}
	}
	var b strings.Builder
	for _, s := range settings {
		fmt.Fprintf(&b, "%s=%s\n", s[0], s[1])
	}
	if err := os.WriteFile(conf, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "SLURM_CONF="+conf)
	daemon(t, dir, "slurmctld", env, "-D", "-i", "-f", conf)
	startNodes(env, conf)
	var state string
	if !waitFor(60*time.Second, func() bool {
		cmd := exec.Command("sinfo", "-h", "-N", "-o", "%N %T")
		cmd.Env = env
		out, _ := cmd.Output()
		state = strings.TrimSpace(string(out))
		idle := map[string]bool{}
		for _, line := range strings.Split(state, "\n") {
			f := strings.Fields(line)
			if len(f) != 2 || f[1] != "idle" {
				return false
			}
			idle[f[0]] = true
		}
		return len(idle) >= nodes
	}) {
		t.Skipf("the Slurm daemons did not come up (node state %q)\nslurmctld: %s\nslurmd: %s", state,
			readTail(filepath.Join(dir, "slurmctld.log")), readTail(filepath.Join(dir, "slurmd.log")))
	}
	t.Logf("slurmctld and %d slurmd on %s (127.0.0.1): every node idle", nodes, host)
	return conf
}

func readTail(path string) string {
	b, _ := os.ReadFile(path)
	return tail(b)
}

func waitFor(d time.Duration, ok func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if ok() {
			return true
		}
	}
	return ok()
}

// waitJob waits until job id has ended and returns its state; a job
// whose dependency can never be met (a shard failed) ends the wait.
func waitJob(t *testing.T, env []string, id string, limit time.Duration) string {
	t.Helper()
	state := ""
	waitFor(limit, func() bool {
		cmd := exec.Command("scontrol", "show", "job", id)
		cmd.Env = env
		out, _ := cmd.Output()
		s := regexp.MustCompile(`JobState=(\S+)`).FindStringSubmatch(string(out))
		if s == nil {
			return false
		}
		state = s[1]
		if strings.Contains(string(out), "Reason=DependencyNeverSatisfied") {
			state += " (DependencyNeverSatisfied: a shard failed)"
			return true
		}
		switch state {
		case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED":
			return false // REQUEUED: on its way back to PENDING (a preemption)
		}
		return true
	})
	return state
}
