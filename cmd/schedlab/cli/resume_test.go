package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const twoPoints = `model: grid
seed: 7
replications: 2
stop: {completed: 300}
platform: {sites: 2, procs_per_site: 4}
workload: {mean_interarrival: 0.2}
policy:
  grid: [random, deferred]
  allocation_interval: 0.5
  local: sq
`

// A sweep run again into its folder reuses a point only when this build
// of schedlab computed it: a point file of another build (a policy's
// code changed and the binary was rebuilt), or without a record, is run
// again and the console says so; --force runs every point again. The
// point files and summary stay the same bytes.
func TestSweepResumeChecksVersion(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "two.yaml", twoPoints)
	out := filepath.Join(dir, "res")
	if code, stderr := runMain("sweep", file, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	summary, _ := os.ReadFile(filepath.Join(out, "summary.csv"))
	records, _ := filepath.Glob(filepath.Join(out, "versions", "*.txt"))
	if len(records) != 2 {
		t.Fatalf("version records %v, want 2", records)
	}
	id, err := buildID()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(records[0]); string(b) != id+"\n" {
		t.Errorf("record %q, want %q", b, id+"\n")
	}

	// The same build: both reused.
	code, stderr := runMain("sweep", file, "--out", out)
	if code != 0 || !strings.Contains(stderr, "2 of 2 point(s) reused from") {
		t.Errorf("exit %d, stderr %q; want both points reused", code, stderr)
	}

	// Point 0 computed by another build, point 1 with no record.
	os.WriteFile(records[0], []byte("schedlab old vcs 1234 exe sha256:5678\n"), 0o644)
	os.Remove(records[1])
	code, stderr = runMain("sweep", file, "--out", out)
	if code != 0 || strings.Contains(stderr, "reused from") ||
		!strings.Contains(stderr, "1 point(s) in "+filepath.Join(out, "points")+" were computed by another build of schedlab (schedlab old vcs 1234 exe sha256:5678), not by this one ("+id+"): run again: 0") ||
		!strings.Contains(stderr, "1 point(s) in "+filepath.Join(out, "points")+" have no record in "+filepath.Join(out, "versions")+" of the build of schedlab that computed them (an older schedlab, or a merge of shards): run again: 1") {
		t.Errorf("exit %d, stderr %q; want both points run again, each said why", code, stderr)
	}
	if b, _ := os.ReadFile(records[0]); string(b) != id+"\n" {
		t.Errorf("record after the run %q, want %q", b, id+"\n")
	}
	if b, _ := os.ReadFile(filepath.Join(out, "summary.csv")); string(b) != string(summary) {
		t.Errorf("summary.csv changed")
	}

	// --force: nothing reused, nothing said stale.
	code, stderr = runMain("sweep", file, "--out", out, "--force")
	if code != 0 || strings.Contains(stderr, "reused") || strings.Contains(stderr, "run again") {
		t.Errorf("--force: exit %d, stderr %q; want every point run, silently", code, stderr)
	}
	code, stderr = runMain("sweep", file, "--list", "--force")
	if code != 2 || !strings.Contains(stderr, "--force do not go with it") {
		t.Errorf("--list --force: exit %d, stderr %q", code, stderr)
	}
}

// sweep --list refuses what the sweep refuses before running: here a
// trace point with replications (the same run every time).
func TestSweepListChecksAsRun(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "good.swf", goodSWF)
	file := writeFile(t, dir, "reps.yaml", "model: cluster\nreplications: 2\nplatform: {procs: 8}\nworkload: {trace: "+trace+"}\npolicy: {queue: easy}\n")
	want := "point 0 (" // the point and its key, then why
	why := "a trace gives the same run every time"
	runCode, runErr := runMain("sweep", file, "--out", filepath.Join(dir, "res"))
	listCode, listErr := runMain("sweep", file, "--list")
	if runCode != 1 || !strings.Contains(runErr, why) {
		t.Fatalf("sweep: exit %d, stderr %q; want 1 and %q", runCode, runErr, why)
	}
	if listCode != runCode || !strings.Contains(listErr, want) || !strings.Contains(listErr, why) {
		t.Errorf("sweep --list: exit %d, stderr %q; want the sweep's refusal, exit %d, %q", listCode, listErr, runCode, why)
	}
}
