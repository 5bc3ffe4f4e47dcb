package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/cmd/schedlab/launch"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/sweep"
)

// checkEmit checks the --emit flags before anything is read: the flags
// of one target given for another, or without --emit, are refused.
func (c *sweepCmd) checkEmit() error {
	bad := func(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }
	k8s := c.Emit == "k8s"
	switch {
	case c.Emit != "" && c.Emit != "slurm" && !k8s:
		return bad("--emit %q: want slurm (a Slurm job array) or k8s (a Kubernetes Indexed Job)", c.Emit)
	case c.Emit != "" && c.List:
		return bad("--emit prints a script and --list a list: one at a time")
	case c.Emit != "" && c.Shard != "":
		return bad("--emit prints what runs every shard: --shard does not go with it (give --shards N)")
	case c.Emit != "" && c.Shards == 0:
		return bad("--emit %s: give the number of shards, --shards N (1..%d)", c.Emit, sweep.MaxShards)
	case c.Emit == "" && c.Name != "":
		return bad("--name is the job name of --emit")
	case !k8s && c.Image != launch.DefaultImage:
		return bad("--image is only for --emit k8s")
	case !k8s && c.Volume != launch.DefaultVolume:
		return bad("--volume is only for --emit k8s")
	case !k8s && c.Parallelism != 0:
		return bad("--parallelism is only for --emit k8s (a Slurm array runs as many tasks at once as the cluster allows; limit them with --array=0-7%%2 in the script)")
	}
	if c.Emit == "" {
		return nil
	}
	if c.Shards < 1 || c.Shards > sweep.MaxShards {
		return bad("--shards %d: want 1..%d", c.Shards, sweep.MaxShards)
	}
	if c.Name != "" {
		if err := launch.CheckName(c.Name); err != nil {
			return bad("--name %w", err)
		}
	}
	if k8s {
		if c.Parallelism < 0 || c.Parallelism > c.Shards {
			return bad("--parallelism %d: want 1..%d (the shards; 0 = all)", c.Parallelism, c.Shards)
		}
		if err := launch.CheckImage(c.Image); err != nil {
			return bad("--image %w", err)
		}
		if err := launch.CheckVolume(c.Volume); err != nil {
			return bad("--volume %w", err)
		}
		if c.Out != "" {
			if err := launch.CheckOut(c.Out); err != nil {
				return bad("--out %w", err)
			}
		}
	}
	return nil
}

// emit prints the Slurm script or the Kubernetes manifest of the sweep
// as c.Shards shards; it runs nothing and writes no file.
func (c *sweepCmd) emit(g *globals, points []scenario.Point, data []byte, out string, workers int) error {
	if err := sweep.CheckPoints(points); err != nil {
		return err
	}
	if workers < 1 {
		workers = 1
	}
	name := c.Name
	if name == "" {
		name = launch.DefaultName(c.File)
	}
	sw := launch.Sweep{Name: name, Shards: c.Shards, Workers: workers, Records: c.Records}
	if c.Emit == "k8s" {
		par := c.Parallelism
		if par == 0 {
			par = c.Shards
		}
		if c.Out == "" {
			out = filepath.ToSlash(out)
		}
		return launch.Kubernetes{Sweep: sw, Image: c.Image, Volume: c.Volume, Parallelism: par,
			ScenarioFile: filepath.Base(c.File), ScenarioData: data, Out: out}.Write(g.stdout)
	}
	// Slurm: the jobs run on nodes that share this file system; every
	// path is made absolute here. The jobs run this very binary: one that
	// 'go run' built in a temporary folder is gone when this command ends.
	if prog := program(); transientBuild(prog) {
		return usageError{fmt.Errorf("--emit slurm: this schedlab runs from a temporary or cached build (%s, as 'go run' makes), which is removed when this command ends or when the Go build cache is cleaned, so the script's jobs may not find it; build it first (go install ./cmd/schedlab, or go build -o schedlab ./cmd/schedlab) and run that", prog)}
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(wd, p)
	}
	return launch.Slurm{Sweep: sw, Program: program(), Scenario: abs(c.File), Out: abs(out), Dir: wd}.Write(g.stdout)
}

// program is the absolute path of the schedlab being run, as it was
// called (a link on the PATH stays that link), for the jobs to run.
func program() string {
	arg0 := os.Args[0]
	if !strings.Contains(arg0, string(filepath.Separator)) {
		if p, err := exec.LookPath(arg0); err == nil {
			arg0 = p
		}
	}
	if p, err := filepath.Abs(arg0); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := os.Executable(); err == nil {
		return p
	}
	return "schedlab"
}

// transientBuild reports a binary that 'go run' or 'go test' built: in a
// temporary go-build folder, or (since Go 1.24, which caches the
// executables of 'go run') in the Go build cache ($GOCACHE, by default
// go-build in the user's cache folder), which 'go clean -cache' and the
// cache's trimming remove.
func transientBuild(prog string) bool {
	sep := string(filepath.Separator)
	tmp := filepath.Clean(os.TempDir()) + sep
	if strings.HasPrefix(prog, tmp) && strings.Contains(prog, sep+"go-build") {
		return true
	}
	cache := os.Getenv("GOCACHE")
	if cache == "" || cache == "off" {
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "go-build")
		}
	}
	return cache != "off" && filepath.IsAbs(cache) && strings.HasPrefix(prog, filepath.Clean(cache)+sep)
}
