package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/sweep"
)

// mergeScenarios are the sweeps of the sharding tests: a synthetic one
// with replications (12 units) and a trace one (2 units of 1
// replication, records as folders).
var mergeScenarios = map[string]string{
	"grid.yaml": `model: grid
seed: 7
replications: 3
stop: {completed: 300}
platform: {sites: 2, procs_per_site: 4}
workload: {mean_interarrival: 0.2}
policy:
  grid: [random, deferred]
  allocation_interval: 0.5
  local: [sq, random]
`,
	"trace.yaml": `model: cluster
platform: {procs: 8}
workload: {trace: TRACE}
policy:
  queue: [easy, fcfs]
`,
}

const mergeTrace = `; MaxProcs: 8
1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1
2 1 0 30 8 -1 -1 8 40 -1 1 1 1 -1 -1 -1 -1 -1
3 2 0 5 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1
4 3 0 50 6 -1 -1 6 60 -1 1 1 1 -1 -1 -1 -1 -1
5 4 0 7 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1
`

func writeMergeScenarios(t *testing.T, dir string) []string {
	t.Helper()
	trace := filepath.Join(dir, "t.swf")
	if err := os.WriteFile(trace, []byte(mergeTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	var files []string
	for name, text := range mergeScenarios {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(strings.ReplaceAll(text, "TRACE", trace)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	slices.Sort(files)
	return files
}

// run runs the command line and fails the test unless it exits with
// want; it returns stdout and stderr.
func run(t *testing.T, want int, args ...string) (string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if got := Main(args, &out, &errb); got != want {
		t.Fatalf("%q: exit %d, want %d\nstdout: %s\nstderr: %s", args, got, want, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

// treeFiles lists the files under dir (relative paths) and their bytes,
// leaving out the folder skip.
func treeFiles(t *testing.T, dir, skip string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			if rel == skip {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(path)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameTree fails unless got holds exactly the files of want (besides
// got's shards/ folder, and want's versions/: the unsharded sweep
// records the build that computed each point, a merge of shards does
// not know it), byte for byte.
func sameTree(t *testing.T, what, want, got string) {
	t.Helper()
	w, g := treeFiles(t, want, "versions"), treeFiles(t, got, "shards")
	if len(w) < 3 {
		t.Fatalf("%s: the unsharded sweep wrote only %d files", what, len(w))
	}
	for name, b := range w {
		if gb, ok := g[name]; !ok {
			t.Errorf("%s: %s missing", what, name)
		} else if !bytes.Equal(b, gb) {
			t.Errorf("%s: %s differs from the unsharded sweep's", what, name)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("%s: %s is not a file the unsharded sweep writes", what, name)
		}
	}
}

// orders returns every order of 0..n-1 for n <= 4, else count orders
// drawn with a fixed seed.
func orders(n, count int) [][]int {
	first := make([]int, n)
	for i := range first {
		first[i] = i
	}
	if n > 4 {
		r := rand.New(rand.NewPCG(11, uint64(n)))
		out := [][]int{first}
		for len(out) < count {
			p := slices.Clone(first)
			r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
			out = append(out, p)
		}
		return out
	}
	var out [][]int
	var perm func(p []int, k int)
	perm = func(p []int, k int) {
		if k == len(p) {
			out = append(out, slices.Clone(p))
			return
		}
		for i := k; i < len(p); i++ {
			p[k], p[i] = p[i], p[k]
			perm(p, k+1)
			p[k], p[i] = p[i], p[k]
		}
	}
	perm(first, 0)
	return out
}

// The merged files are byte for byte those of the unsharded sweep, for
// 1, 2, 3 and 7 shards run in every order (a seeded sample of orders for
// 7), with the first shard run twice and the second killed (a unit file
// missing, a temporary file left) and run again; a merge before the last
// shard names the missing units and writes nothing.
func TestShardedSweepMatchesUnsharded(t *testing.T) {
	dir := t.TempDir()
	for _, sc := range writeMergeScenarios(t, dir) {
		name := filepath.Base(sc)
		points, err := scenario.Load(sc)
		if err != nil {
			t.Fatal(err)
		}
		us := sweep.NewUnits(points)
		ref := filepath.Join(dir, name+"-unsharded")
		refOut, _ := run(t, 0, "sweep", sc, "--out", ref, "--records")
		for _, n := range []int{1, 2, 3, 7} {
			for oi, order := range orders(n, 6) {
				what := fmt.Sprintf("%s, %d shards, order %v", name, n, order)
				out := filepath.Join(dir, fmt.Sprintf("%s-%d-%d", name, n, oi))
				shard := func(i int) string {
					stdout, _ := run(t, 0, "sweep", sc, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", out, "--records", "--workers", strconv.Itoa(1+i%3))
					return stdout
				}
				for k, i := range order {
					shard(i)
					switch k {
					case 0: // run twice: nothing to do the second time
						if s := shard(i); !strings.Contains(s, " 0 run, ") {
							t.Errorf("%s: shard %d run again: %s", what, i, s)
						}
					case 1: // killed: a unit lost and a temporary file left, then run again
						u := i // the shard's first unit
						if u >= us.Total() {
							break // a shard without units
						}
						p, rep := us.Locate(u)
						unit := filepath.Join(sweep.UnitsDir(out), fmt.Sprintf("%04d-%s-r%d.json", p, points[p].Scenario.Key(), rep))
						if err := os.Rename(unit, filepath.Join(filepath.Dir(unit), "."+filepath.Base(unit)+".tmp-99")); err != nil {
							t.Fatal(err)
						}
						if s := shard(i); !strings.Contains(s, " 1 run, ") {
							t.Errorf("%s: killed shard %d run again: %s", what, i, s)
						}
					}
					last := order[len(order)-1]
					if missing := (sweep.Shard{Index: last, Count: n}).Size(us.Total()); k == len(order)-2 && oi == 0 && missing > 0 {
						// One shard to go: the merge names its units and writes nothing.
						_, stderr := run(t, 1, "merge", out)
						if !strings.Contains(stderr, fmt.Sprintf("%d of %d unit(s) missing", missing, us.Total())) ||
							!strings.Contains(stderr, fmt.Sprintf("run shard(s) %d of %d (again)", last, n)) {
							t.Errorf("%s: merge before shard %d: %s", what, last, stderr)
						}
						for _, f := range []string{"summary.csv", "comparisons.csv", "points"} {
							if _, err := os.Stat(filepath.Join(out, f)); !os.IsNotExist(err) {
								t.Errorf("%s: a failed merge left %s", what, f)
							}
						}
					}
				}
				mergeOut, _ := run(t, 0, "merge", out, sc)
				sameTree(t, what, ref, out)
				if strings.ReplaceAll(mergeOut, out, ref) != refOut {
					t.Errorf("%s: merge printed\n%s\nthe sweep printed\n%s", what, mergeOut, refOut)
				}
				temps, _ := filepath.Glob(filepath.Join(sweep.UnitsDir(out), ".*.tmp-*"))
				if len(temps) > 0 {
					t.Errorf("%s: temporary files left: %v", what, temps)
				}
			}
		}
	}
}

// Shards running at the same time into one folder (as on a cluster)
// merge to the unsharded sweep's files.
func TestShardsAtOnce(t *testing.T) {
	dir := t.TempDir()
	sc := writeMergeScenarios(t, dir)[0]
	ref := filepath.Join(dir, "unsharded")
	run(t, 0, "sweep", sc, "--out", ref)
	out := filepath.Join(dir, "sharded")
	const n = 7
	var wg sync.WaitGroup
	errs := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var o, e bytes.Buffer
			if got := Main([]string{"sweep", sc, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", out, "--workers", "1"}, &o, &e); got != 0 {
				errs[i] = fmt.Sprintf("shard %d: exit %d: %s", i, got, e.String())
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	run(t, 0, "merge", out)
	sameTree(t, "7 shards at once", ref, out)
}

// A merge of a folder that mixes scenarios, or checked against another
// scenario file, is refused and writes nothing.
func TestMergeRefusesAnotherScenario(t *testing.T) {
	dir := t.TempDir()
	files := writeMergeScenarios(t, dir)
	grid, trace := files[0], files[1]
	out := filepath.Join(dir, "res")
	run(t, 0, "sweep", grid, "--shard", "0/1", "--out", out)
	_, stderr := run(t, 1, "merge", out, trace)
	if !strings.Contains(stderr, "res holds the shards of another scenario: 4 point(s) in ") || !strings.Contains(stderr, "2 in "+trace) {
		t.Errorf("merge against another scenario: %s", stderr)
	}
	// Units of another scenario copied in.
	other := filepath.Join(dir, "other")
	run(t, 0, "sweep", trace, "--shard", "0/1", "--out", other)
	ents, _ := os.ReadDir(sweep.UnitsDir(other))
	b, _ := os.ReadFile(filepath.Join(sweep.UnitsDir(other), ents[0].Name()))
	if err := os.WriteFile(filepath.Join(sweep.UnitsDir(out), ents[0].Name()), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr = run(t, 1, "merge", out)
	if !strings.Contains(stderr, "holds results of another scenario (their keys are not this scenario's points): "+filepath.Join(sweep.UnitsDir(out), ents[0].Name())) {
		t.Errorf("merge with a foreign unit: %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.csv")); !os.IsNotExist(err) {
		t.Errorf("a refused merge wrote summary.csv")
	}
}

// merge --wait waits for the units of shards still running, and gives
// up after the time given, naming the missing units.
func TestMergeWait(t *testing.T) {
	dir := t.TempDir()
	sc := writeMergeScenarios(t, dir)[0]
	out := filepath.Join(dir, "res")
	run(t, 0, "sweep", sc, "--shard", "0/2", "--out", out)
	_, stderr := run(t, 1, "merge", out, "--wait", "300ms")
	if !strings.Contains(stderr, "schedlab: 6 of 12 unit(s) not there yet; waiting up to 300ms for them") ||
		!strings.Contains(stderr, "schedlab: after waiting 300ms: "+out+": 6 of 12 unit(s) missing") {
		t.Errorf("merge --wait 300ms: %s", stderr)
	}
	done := make(chan string)
	go func() {
		var o, e bytes.Buffer
		Main([]string{"merge", out, "--wait", "10s"}, &o, &e)
		done <- o.String() + e.String()
	}()
	run(t, 0, "sweep", sc, "--shard", "1/2", "--out", out)
	if s := <-done; !strings.Contains(s, "wrote "+filepath.Join(out, "summary.csv")) {
		t.Errorf("merge --wait 10s: %s", s)
	}

	// Started before any shard (a Kubernetes merge Job), it waits for the
	// folder too.
	out = filepath.Join(dir, "later")
	go func() {
		var o, e bytes.Buffer
		Main([]string{"merge", out, "--wait", "10s"}, &o, &e)
		done <- o.String() + e.String()
	}()
	time.Sleep(100 * time.Millisecond)
	run(t, 0, "sweep", sc, "--shard", "0/1", "--out", out)
	if s := <-done; !strings.Contains(s, "holds no shards yet; waiting up to 10s for the first") || !strings.Contains(s, "wrote "+filepath.Join(out, "summary.csv")) {
		t.Errorf("merge --wait 10s before the shards: %s", s)
	}
	_, stderr = run(t, 1, "merge", filepath.Join(dir, "never"), "--wait", "200ms")
	if !strings.Contains(stderr, "no sharded sweep here") {
		t.Errorf("merge --wait of a folder no shard writes: %s", stderr)
	}
}
