package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/schedlab/schedlab/internal/atomicfile"
)

// folder returns the names and contents of the files of dir.
func folder(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func names(m map[string]string) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	slices.Sort(s)
	return s
}

// A rename failing part-way through the commit of a run (EIO on the
// second file) leaves the folder as the earlier run left it, byte for
// byte, with no temporary file: never the new jobs.csv beside the old
// summary.json.
func TestCommitFailingPartWayKeepsTheEarlierRun(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 8\n"+goodLine+strings.Replace(goodLine, "1 0 0", "2 3 0", 1), false)
	out := filepath.Join(dir, "out")
	if _, err := (RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out, SWF: true}}).Run(); err != nil {
		t.Fatal(err)
	}
	before := folder(t, out)
	defer func(r func(string, string) error) { rename = r }(rename)
	placed := 0
	rename = func(from, to string) error {
		if atomicfile.IsTemp(filepath.Base(from)) && !atomicfile.IsTemp(filepath.Base(to)) && !strings.Contains(from, ".tmp-"+pidDigits()) {
			if placed++; placed == 2 {
				return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EIO}
			}
		}
		return os.Rename(from, to)
	}
	_, err := (RunSpec{Workload: WorkloadSpec{Trace: trace}, Platform: PlatformSpec{Procs: 2}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Dir: out}}).Run()
	if !errors.Is(err, syscall.EIO) {
		t.Fatalf("err %v, want EIO", err)
	}
	after := folder(t, out)
	if !slices.Equal(names(after), names(before)) {
		t.Fatalf("files %v, want %v", names(after), names(before))
	}
	for name, b := range before {
		if after[name] != b {
			t.Errorf("%s changed", name)
		}
	}
}

// pidDigits is the start of the hidden names of the files commit moves
// aside.
func pidDigits() string { return strconv.Itoa(os.Getpid()) }

// A run into a folder removes every file of the earlier run it does not
// write itself: its report.html (run --report, then a run without),
// schedule.swf (--swf, then without).
func TestRunRemovesTheEarlierRunsFiles(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "t.swf", "; MaxProcs: 8\n"+goodLine, false)
	out := filepath.Join(dir, "out")
	if _, err := (RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out, SWF: true}}).Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "report.html"), []byte("the earlier run's page"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Dir: out}}).Run(); err != nil {
		t.Fatal(err)
	}
	if got := names(folder(t, out)); !slices.Equal(got, []string{"jobs.csv", "summary.json"}) {
		t.Errorf("files %v, want jobs.csv and summary.json", got)
	}
}
