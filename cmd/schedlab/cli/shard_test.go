package cli

import (
	"github.com/schedlab/schedlab/internal/atomicfile"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Which shard a sweep runs: --shard, else the task index a Slurm job
// array or a Kubernetes Indexed Job sets, with N from --shards or
// SLURM_ARRAY_TASK_COUNT.
func TestShardFromEnvironment(t *testing.T) {
	for _, c := range []struct {
		name   string
		shard  string
		shards int
		env    map[string]string
		want   string // "i/N from", "" for no shard, or "error: ..."
	}{
		{"none", "", 0, nil, ""},
		{"flag", "1/3", 0, nil, "1/3 "},
		{"flag wins over slurm", "1/3", 0, map[string]string{envSlurmID: "2", envSlurmCount: "4"}, "1/3 "},
		{"slurm", "", 0, map[string]string{envSlurmID: "2", envSlurmCount: "4"}, "2/4 SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT"},
		{"slurm with --shards: one task re-run", "", 4, map[string]string{envSlurmID: "2", envSlurmCount: "1"}, "2/4 SLURM_ARRAY_TASK_ID and --shards"},
		{"k8s", "", 5, map[string]string{envK8sIndex: "4"}, "4/5 JOB_COMPLETION_INDEX and --shards"},

		{"flag out of range", "3/3", 0, nil, "error: --shard shard 3 of 3: want 0 <= I < N, here 0..2"},
		{"no shards", "0/0", 0, nil, "error: --shard 0 shards: want 1..10000"},
		{"flag and --shards", "0/2", 2, nil, "error: --shard I/N names N itself"},
		{"--shards alone", "", 3, nil, "error: --shards 3: which shard?"},
		{"--shards too many", "", 10001, nil, "error: --shards 10001: want 1..10000"},
		{"--shards negative", "", -1, nil, "error: --shards -1: want 1..10000"},
		{"slurm id not a number", "", 0, map[string]string{envSlurmID: "x1", envSlurmCount: "4"}, `error: SLURM_ARRAY_TASK_ID="x1": not a whole number`},
		{"slurm count not a number", "", 0, map[string]string{envSlurmID: "1", envSlurmCount: "four"}, `error: SLURM_ARRAY_TASK_COUNT="four": not a whole number`},
		{"slurm without count", "", 0, map[string]string{envSlurmID: "1"}, "error: SLURM_ARRAY_TASK_ID=1 is set but not SLURM_ARRAY_TASK_COUNT: give --shards N"},
		{"slurm array from 1", "", 0, map[string]string{envSlurmID: "4", envSlurmCount: "4"}, "error: SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT = 4/4: shard 4 of 4: want 0 <= I < N, here 0..3 (shards are numbered from 0) (submit the array as --array=0-3)"},
		{"slurm index beyond --shards", "", 2, map[string]string{envSlurmID: "2"}, "error: SLURM_ARRAY_TASK_ID and --shards: shard 2 of 2"},
		{"k8s without --shards", "", 0, map[string]string{envK8sIndex: "0"}, "error: JOB_COMPLETION_INDEX=0 is set (a Kubernetes Indexed Job): give the number of shards, --shards N"},
		{"k8s index not a number", "", 3, map[string]string{envK8sIndex: ""}, "error: --shards 3: which shard?"},
		{"k8s index negative", "", 3, map[string]string{envK8sIndex: "-1"}, "error: JOB_COMPLETION_INDEX and --shards: shard -1 of 3"},
		{"both", "", 3, map[string]string{envK8sIndex: "0", envSlurmID: "0"}, "error: both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set"},
	} {
		c := c
		cmd := sweepCmd{Shard: c.shard, Shards: c.shards}
		sh, from, ok, err := cmd.shard(func(k string) string { return c.env[k] })
		var got string
		switch {
		case err != nil:
			got = "error: " + err.Error()
			if _, usage := err.(usageError); !usage {
				t.Errorf("%s: %v is not a usage error (exit 2)", c.name, err)
			}
		case ok:
			got = sh.String() + " " + from
		}
		if c.want == "" && got != "" || c.want != "" && !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
		if ok && sh.Check() != nil {
			t.Errorf("%s: %v out of range", c.name, sh)
		}
	}
}

// An interrupted shard removes the temporary files of its own units
// only: the other shards writing into the folder keep theirs.
func TestInterruptedShardKeepsOthersTemps(t *testing.T) {
	dir := t.TempDir()
	g := &globals{stdout: io.Discard, stderr: io.Discard}
	ours := func(target string) bool { return target == "mine.json" }
	if err := g.useSharedOutDir(dir, ours); err != nil {
		t.Fatal(err)
	}
	mine, theirs := filepath.Join(dir, ".mine.json.tmp-1"), filepath.Join(dir, ".theirs.json.tmp-2")
	for _, f := range []string{mine, theirs} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g.interrupted(syscall.SIGTERM)
	atomicfile.Resume()
	if _, err := os.Stat(mine); !os.IsNotExist(err) {
		t.Errorf("the shard's own temporary file was left")
	}
	if _, err := os.Stat(theirs); err != nil {
		t.Errorf("another shard's temporary file was removed")
	}
}
