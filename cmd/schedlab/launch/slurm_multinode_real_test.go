package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// multiNodes and multiCPUs are the multi-node Slurm of the tests: eight
// slurmd on this host, each a node of four CPUs with its own port.
const (
	multiNodes = 8
	multiCPUs  = 4
)

// startSlurmNodes starts munged, slurmctld and one slurmd a node
// (slurmd -N nK, each with its own Port, spool, pid and log files) for
// multiNodes nodes n1..n8 of multiCPUs CPUs on 127.0.0.1, records every
// finished job with jobcomp/filetxt in dir/jobcomp.txt, and returns the
// path of slurm.conf once every node is idle; it skips the test when
// they do not come up. partitions are PartitionName lines; extra, when
// not nil, runs once munged is up (with its socket) and its settings
// replace those of the same name or are added (startSlurm's hook).
func startSlurmNodes(t *testing.T, dir string, partitions []string, extra func(socket string) [][2]string) string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	for k := 1; k <= multiNodes; k++ {
		if err := os.MkdirAll(filepath.Join(dir, fmt.Sprintf("n%d", k)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// startSlurm writes the shared settings and starts slurmctld and a
	// single slurmd; here its hook turns the node line into eight and the
	// per-node files into %n patterns, and the single slurmd is replaced
	// by one a node (below). extra runs first: the daemons it starts
	// (MariaDB, slurmdbd) hold their ports before the nodes' are chosen.
	hook := func(socket string) [][2]string {
		var more [][2]string
		if extra != nil {
			more = extra(socket)
		}
		var nodes []string
		for k := 1; k <= multiNodes; k++ {
			nodes = append(nodes, fmt.Sprintf("n%d NodeHostname=%s NodeAddr=127.0.0.1 Port=%d CPUs=%d RealMemory=1000 State=UNKNOWN", k, host, freePort(t), multiCPUs))
		}
		settings := [][2]string{
			{"SlurmdSpoolDir", filepath.Join(dir, "%n", "spool")},
			{"SlurmdPidFile", filepath.Join(dir, "%n", "slurmd.pid")},
			{"SlurmdLogFile", filepath.Join(dir, "%n", "slurmd.log")},
			{"SelectTypeParameters", "CR_Core"},
			{"JobCompType", "jobcomp/filetxt"},
			{"JobCompLoc", filepath.Join(dir, "jobcomp.txt")},
			{"SchedulerParameters", "bf_interval=1,bf_resolution=1"},
			{"NodeName", strings.Join(nodes, "\nNodeName=")},
			{"PartitionName", strings.Join(partitions, "\nPartitionName=")},
		}
		return append(settings, more...)
	}
	return startSlurmWith(t, dir, hook, func(env []string, conf string) {
		for k := 1; k <= multiNodes; k++ {
			name := fmt.Sprintf("n%d", k)
			daemon(t, filepath.Join(dir, name), "slurmd", env, "-D", "-N", name, "-f", conf)
		}
	}, multiNodes)
}

// jobRec is one line of jobcomp/filetxt.
type jobRec struct {
	ID, Nodes, Procs int
	State, Part      string
	NodeList         []string
	Start, End       time.Time
}

func readJobComp(t *testing.T, path string) map[int]jobRec {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kv := regexp.MustCompile(`(\w+)=(\S*)`)
	out := map[int]jobRec{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		m := map[string]string{}
		for _, f := range kv.FindAllStringSubmatch(line, -1) {
			m[f[1]] = f[2]
		}
		var r jobRec
		r.ID, _ = strconv.Atoi(m["JobId"])
		r.Nodes, _ = strconv.Atoi(m["NodeCnt"])
		r.Procs, _ = strconv.Atoi(m["ProcCnt"])
		r.State, r.Part = m["JobState"], m["Partition"]
		r.Start, _ = time.ParseInLocation("2006-01-02T15:04:05", m["StartTime"], time.Local)
		r.End, _ = time.ParseInLocation("2006-01-02T15:04:05", m["EndTime"], time.Local)
		r.NodeList = expandSimple(m["NodeList"])
		out[r.ID] = r
	}
	return out
}

// expandSimple expands Slurm's n[1-3,5] and n1,n2 (this test's names).
func expandSimple(s string) []string {
	var out []string
	if i := strings.IndexByte(s, '['); i >= 0 {
		prefix := s[:i]
		for _, part := range strings.Split(strings.Trim(s[i:], "[]"), ",") {
			lo, hi, ok := strings.Cut(part, "-")
			a, _ := strconv.Atoi(lo)
			b := a
			if ok {
				b, _ = strconv.Atoi(hi)
			}
			for k := a; k <= b; k++ {
				out = append(out, prefix+strconv.Itoa(k))
			}
		}
		return out
	}
	for _, n := range strings.Split(s, ",") {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// A multi-node Slurm on one host (eight slurmd, slurmd -N nK, each with
// its own port): multi-node jobs, an exclusive job and jobs of two
// partitions run, each job on as many distinct nodes as it asked, no
// node running more than its CPUs at once and no job beside the
// exclusive one on its nodes, as jobcomp/filetxt records them.
func TestSlurmMultiNodeForReal(t *testing.T) {
	needRealSlurm(t, "the real Slurm test runs with SCHEDLAB_SLURM_TEST=1 (as root: it installs slurm-wlm and munge with apt-get when they are missing, then starts its own daemons)")
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	conf := startSlurmNodes(t, dir, []string{
		"batch Nodes=n[1-8] Default=YES MaxTime=INFINITE State=UP PriorityTier=1",
		"high Nodes=n[5-8] MaxTime=INFINITE State=UP PriorityTier=2",
	}, nil)
	env := append(os.Environ(), "SLURM_CONF="+conf)
	type sub struct {
		args      []string
		nodes     int
		exclusive bool
	}
	subs := []sub{
		{[]string{"-N", "3", "-n", "6"}, 3, false},
		{[]string{"-N", "2", "-n", "8"}, 2, false},
		{[]string{"-N", "1", "-n", "1", "--exclusive"}, 1, true},
		{[]string{"-N", "4", "-n", "4", "-p", "high"}, 4, false},
		{[]string{"-N", "8", "-n", "8"}, 8, false},
		{[]string{"-N", "1", "-n", "2"}, 1, false},
		{[]string{"-N", "2", "-n", "2", "-p", "high"}, 2, false},
		{[]string{"-N", "1", "-n", "4"}, 1, false},
	}
	want := map[int]sub{}
	for i, s := range subs {
		args := append([]string{"--parsable", "-t", "1", "-o", "/dev/null"}, s.args...)
		args = append(args, "--wrap", fmt.Sprintf("sleep %d", 2+i%3))
		cmd := exec.Command("sbatch", args...)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sbatch %v: %v\n%s", args, err, out)
		}
		id, err := strconv.Atoi(strings.TrimSpace(strings.Split(string(out), ";")[0]))
		if err != nil {
			t.Fatalf("sbatch said %q", out)
		}
		want[id] = s
	}
	var ids []int
	for id := range want {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if st := waitJob(t, env, strconv.Itoa(id), 3*time.Minute); st != "COMPLETED" {
			t.Fatalf("job %d ended %s\nslurmctld: %s", id, st, readTail(filepath.Join(dir, "slurmctld.log")))
		}
	}
	var recs map[int]jobRec
	waitFor(20*time.Second, func() bool { recs = readJobComp(t, filepath.Join(dir, "jobcomp.txt")); return len(recs) >= len(ids) })
	for _, id := range ids {
		r, ok := recs[id]
		s := want[id]
		switch {
		case !ok:
			t.Fatalf("job %d not in jobcomp.txt", id)
		case r.State != "COMPLETED" || r.Nodes != s.nodes || len(r.NodeList) != s.nodes:
			t.Errorf("job %d (%v): %s on %d node(s) %v, want %d", id, s.args, r.State, r.Nodes, r.NodeList, s.nodes)
		case slices.Contains(s.args, "high") && slices.ContainsFunc(r.NodeList, func(n string) bool { k, _ := strconv.Atoi(n[1:]); return k < 5 }):
			t.Errorf("job %d of partition high on %v (its nodes are n5-n8)", id, r.NodeList)
		}
		t.Logf("job %d %v: %s..%s on %v (%d CPUs, partition %s)", id, s.args, r.Start.Format("15:04:05"), r.End.Format("15:04:05"), r.NodeList, r.Procs, r.Part)
	}
	// At every start, the jobs running on each node: no exclusive job
	// shares one, and the CPUs a node runs (a job's CPUs spread evenly
	// over its nodes, as -n over -N here) stay within its four.
	for _, id := range ids {
		at := recs[id].Start
		use := map[string]int{}
		excl := map[string]int{}
		for _, o := range ids {
			r := recs[o]
			if !r.Start.After(at) && r.End.After(at) {
				for _, n := range r.NodeList {
					use[n] += (r.Procs + len(r.NodeList) - 1) / len(r.NodeList)
					if want[o].exclusive {
						excl[n]++
					}
				}
			}
		}
		for n, u := range use {
			if want[id].exclusive && excl[n] > 0 && u > recs[id].Procs {
				t.Errorf("at %s node %s runs another job beside the exclusive one", at.Format("15:04:05"), n)
			}
			if !want[id].exclusive && u > multiCPUs && excl[n] == 0 {
				t.Errorf("at %s node %s runs %d CPUs of its %d", at.Format("15:04:05"), n, u, multiCPUs)
			}
		}
	}
}
