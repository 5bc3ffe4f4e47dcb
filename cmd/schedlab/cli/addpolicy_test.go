package cli

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddPolicy adds a policy the documented way (docs/extending.md): a
// new folder policy/lfj with its declaration, option and factory
// (testdata/lfj/lfj.go), and its registration in registry/table.go;
// nothing else changes. Built from a copy of the module, the new policy
// and its option are then in 'schedlab policies', 'run --set', a
// scenario file and its result key, and the messages for a bad value.
func TestAddPolicy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the module (-short)")
	}
	dir := copyModule(t)
	var err error
	// The policy's folder, and a second one: shortest, a strict SJF
	// without an order option, whose declared order summary.json must
	// report.
	for _, name := range []string{"lfj", "shortest"} {
		src, err := os.ReadFile("testdata/" + name + "/" + name + ".go")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "policy", name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "policy", name, name+".go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The registrations: the import and the list entry in registry/table.go.
	table := filepath.Join(dir, "registry/table.go")
	b, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, edit := range [][2]string{
		{"\t\"github.com/schedlab/schedlab/policy/grid\"\n", "\t\"github.com/schedlab/schedlab/policy/grid\"\n\t\"github.com/schedlab/schedlab/policy/lfj\"\n"},
		{"\t\tplan.Declarations(),", "\t\tlfj.Declarations(),\n\t\tplan.Declarations(),"},
		{"\t\"github.com/schedlab/schedlab/policy/rank\"\n", "\t\"github.com/schedlab/schedlab/policy/rank\"\n\t\"github.com/schedlab/schedlab/policy/shortest\"\n"},
		{"\t\tplan.Declarations(),", "\t\tshortest.Declarations(),\n\t\tplan.Declarations(),"},
	} {
		if !strings.Contains(text, edit[0]) {
			t.Fatalf("registry/table.go has no %q: the registration documented in docs/extending.md no longer fits", edit[0])
		}
		text = strings.Replace(text, edit[0], edit[1], 1)
	}
	if err := os.WriteFile(table, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "schedlab")
	build := exec.Command("go", "build", "-o", bin, "./cmd/schedlab")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(work, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Four CPUs: job 1 (3 CPUs, 10 s) runs from 0; job 2 (4 CPUs) waits
	// from 1 s; at 2 s jobs 3 (5 s, estimate 30) and 4 (2 s, estimate 6)
	// arrive for the one free CPU. tie_break submit starts job 3 at 2 and
	// job 4 at 7; estimate starts job 4 at 2 and job 3 at 4. Job 2, the
	// largest, starts when all four CPUs are free, at 10 either way.
	// Mean waits: (0+9+0+5)/4 = 3.5 and (0+9+2+0)/4 = 2.75.
	trace := write("tiny.swf", "; MaxProcs: 4\n"+
		"1 0 -1 10 3 -1 -1 3 20 -1 1 1 1 -1 -1 -1 -1 -1\n"+
		"2 1 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 -1 -1 -1 -1\n"+
		"3 2 -1 5 1 -1 -1 1 30 -1 1 1 1 -1 -1 -1 -1 -1\n"+
		"4 2 -1 2 1 -1 -1 1 6 -1 1 1 1 -1 -1 -1 -1 -1\n")
	run := func(wantStatus int, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != wantStatus {
			t.Fatalf("schedlab %s: exit %d, want %d\n%s", strings.Join(args, " "), status, wantStatus, out)
		}
		return string(out)
	}
	contains := func(what, out string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", what, w, out)
			}
		}
	}
	contains("policies", run(0, "policies"),
		"lfj  ", "largest job first", "policy.tie_break", "submit | estimate, default submit")
	contains("run", run(0, "run", "--trace", trace, "--policy", "lfj", "--json", "--no-out"),
		`"policy": "lfj"`, `"order": "largest-submit"`, `"jobs": 4`, `"mean_wait": 3.5,`)
	contains("run --set", run(0, "run", "--trace", trace, "--policy", "lfj", "--set", "tie_break=estimate", "--json", "--no-out"),
		`"policy": "lfj"`, `"order": "largest-estimate"`, `"jobs": 4`, `"mean_wait": 2.75,`)
	// shortest (strict SJF): job 4 (estimate 6) starts at 2 on the free
	// CPU; job 2 (estimate 20) blocks the queue until job 1 ends at 10,
	// then runs to 20, when job 3 (estimate 30) starts. Mean wait
	// (0+9+18+0)/4 = 6.75. Its summary.json names the order its
	// declaration gives, though it has no order option.
	out := filepath.Join(work, "shortest-out")
	run(0, "run", "--trace", trace, "--policy", "shortest", "--out", out)
	summary, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	contains("shortest summary.json", string(summary), `"policy": "shortest"`, `"order": "sjf"`, `"mean_wait": 6.75,`)
	contains("run --set bad value", run(2, "run", "--trace", trace, "--policy", "lfj", "--set", "tie_break=random", "--no-out"),
		`policy lfj: option tie_break: "random" is not one of submit, estimate`)
	scen := write("s.yaml", "model: cluster\nworkload: {trace: "+trace+"}\npolicy: {queue: lfj, tie_break: [submit, estimate]}\n")
	contains("sweep --list", run(0, "sweep", scen, "--list"), "cluster_queue=lfj_tie_break=estimate_trace=", "cluster_queue=lfj_trace=")
	bad := write("bad.yaml", "model: cluster\nworkload: {trace: "+trace+"}\npolicy: {queue: lfj, tie_break: random}\n")
	contains("sweep bad value", run(1, "sweep", bad, "--list"), "bad.yaml:3:", "policy.tie_break", `"random"`, "submit, estimate")
}

// docs/extending.md shows the example policy as it is.
func TestExtendingShowsTheExample(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/extending.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("testdata/lfj/lfj.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```go\n"+string(src)+"```") {
		t.Error("docs/extending.md does not show testdata/lfj/lfj.go verbatim")
	}
}

// copyModule copies the module (its files but hidden folders and
// schedlab-out) into a temporary folder and returns it, for a test that
// adds a folder the documented way and builds the copy; it skips
// without a go command.
func copyModule(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "schedlab-out") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
