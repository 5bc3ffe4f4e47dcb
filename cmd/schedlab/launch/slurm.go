package launch

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Sweep is what the Slurm script and the Kubernetes manifest share: a
// sweep split into Shards shards.
type Sweep struct {
	Name    string // the job name (CheckName)
	Shards  int    // N, 1..MaxShards of package sweep (the caller checks)
	Workers int    // CPUs of one shard, and its --workers; >= 1
	Records bool   // the shards run with --records
}

// MaxNameLen bounds a job name: Kubernetes names the shards' pods
// NAME-shards-INDEX-RANDOM, and a pod's host name NAME-shards-INDEX
// must be a DNS label of at most 63 characters.
const MaxNameLen = 40

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// CheckName checks a job name: a DNS label (lower-case letters, digits
// and '-', beginning and ending with a letter or digit) of at most
// MaxNameLen characters, as Kubernetes names need and Slurm accepts.
func CheckName(name string) error {
	if len(name) > MaxNameLen || !dnsLabel.MatchString(name) {
		return fmt.Errorf("%q: want lower-case letters, digits and '-' (not first or last), at most %d characters", name, MaxNameLen)
	}
	return nil
}

// DefaultName is the job name of a scenario file: "schedlab-" and its
// file name without extension, lower-cased, other characters as '-',
// cut to MaxNameLen.
func DefaultName(scenarioFile string) string {
	stem := strings.TrimSuffix(filepath.Base(scenarioFile), filepath.Ext(scenarioFile))
	var b strings.Builder
	b.WriteString("schedlab-")
	dash := true // no leading dash, no double dash
	for _, r := range strings.ToLower(stem) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	name := b.String()
	if len(name) > MaxNameLen {
		name = name[:MaxNameLen]
	}
	return strings.TrimRight(name, "-")
}

func (s Sweep) check() error {
	if err := CheckName(s.Name); err != nil {
		return fmt.Errorf("job name %w", err)
	}
	if s.Shards < 1 || s.Workers < 1 {
		return fmt.Errorf("%d shards of %d workers: want at least 1 of each", s.Shards, s.Workers)
	}
	return nil
}

// shardArgs are the arguments of a shard's sweep command after the
// program name.
func (s Sweep) shardArgs(scenario, out string) []string {
	a := []string{"sweep", scenario, "--shards", strconv.Itoa(s.Shards), "--out", out, "--workers", strconv.Itoa(s.Workers)}
	if s.Records {
		a = append(a, "--records")
	}
	return a
}

// Slurm is a sweep to submit to Slurm from a login node whose file
// system the compute nodes share: every path is absolute.
type Slurm struct {
	Sweep
	Program  string // the schedlab program the jobs run
	Scenario string // the scenario file
	Out      string // the output folder
	Dir      string // the jobs' working folder (relative trace paths in the scenario are relative to it)
}

func checkPath(what, p string) error {
	if !filepath.IsAbs(p) {
		return fmt.Errorf("%s %q: want an absolute path", what, p)
	}
	if strings.ContainsFunc(p, unicode.IsControl) {
		return fmt.Errorf("%s %q: a control character in the path", what, p)
	}
	return nil
}

// Write writes a bash script that submits the shards as a job array
// (--array=0-(N-1), or the tasks its first argument names) and the
// merge as a job that runs when all of them have succeeded
// (--dependency=afterok), both with sbatch --parsable, and prints their
// job ids. The jobs' output goes to OUT/shards/logs/.
func (s Slurm) Write(w io.Writer) error {
	if err := s.check(); err != nil {
		return err
	}
	for _, p := range []struct{ what, path string }{{"program", s.Program}, {"scenario", s.Scenario}, {"output folder", s.Out}, {"working folder", s.Dir}} {
		if err := checkPath(p.what, p.path); err != nil {
			return err
		}
	}
	if strings.Contains(s.Out, "%") {
		return fmt.Errorf("output folder %q: sbatch --output reads %% as the start of a file name pattern: choose a folder without %%", s.Out)
	}
	logs := filepath.Join(s.Out, "shards", "logs")
	last := strconv.Itoa(s.Shards - 1)
	shard := script{interpreter: "/bin/sh", stmts: []stmt{
		comment(fmt.Sprintf("One shard of %d: schedlab takes its number from SLURM_ARRAY_TASK_ID.", s.Shards)),
		command{args: append([]word{lit("exec"), lit(s.Program)}, words(s.shardArgs(s.Scenario, s.Out)...)...)},
	}}
	merge := script{interpreter: "/bin/sh", stmts: []stmt{
		command{args: words("exec", s.Program, "merge", s.Out, s.Scenario)},
	}}
	driver := script{interpreter: "/bin/bash", stmts: []stmt{
		comment(fmt.Sprintf("Runs the sweep %s on Slurm: a job array of %d shards, then the merge", filepath.Base(s.Scenario), s.Shards)),
		comment("as a job that starts when every shard has succeeded. Made by 'schedlab sweep --emit slurm'."),
		comment(""),
		comment("Run this script (do not sbatch it): bash THIS-FILE"),
		comment("To run some shards again, e.g. 1 and 3 after they failed: bash THIS-FILE 1,3"),
		comment("(a new merge waits for them; scancel the merge that waits for the failed array)."),
		comment("More sbatch options come from the environment: SBATCH_PARTITION, SBATCH_TIMELIMIT,"),
		comment("SBATCH_ACCOUNT, ... (man sbatch, INPUT ENVIRONMENT VARIABLES)."),
		command{args: words("set", "-euo", "pipefail")},
		defaultParam{name: "array", n: 1, def: "0-" + last},
		command{args: words("mkdir", "-p", logs)},
		command{capture: "shards", args: []word{
			lit("sbatch"), lit("--parsable"),
			lit("--job-name=" + s.Name),
			{part{text: "--array="}, param("array")},
			lit("--cpus-per-task=" + strconv.Itoa(s.Workers)),
			lit("--chdir=" + s.Dir),
			lit("--output=" + filepath.Join(logs, "%x-%A_%a.out")),
		}, stdin: &heredoc{delim: "SCHEDLAB_SHARD", body: shard}},
		firstField("shards"),
		command{capture: "merge", args: []word{
			lit("sbatch"), lit("--parsable"),
			lit("--job-name=" + s.Name + "-merge"),
			{part{text: "--dependency=afterok:"}, param("shards")},
			lit("--chdir=" + s.Dir),
			lit("--output=" + filepath.Join(logs, "%x-%j.out")),
		}, stdin: &heredoc{delim: "SCHEDLAB_MERGE", body: merge}},
		firstField("merge"),
		command{args: []word{lit("printf"),
			lit(`schedlab: submitted the shards as job array %s (tasks %s) and the merge as job %s (it starts when every shard has succeeded); results in %s, logs in %s\n`),
			{param("shards")}, {param("array")}, {param("merge")}, lit(s.Out), lit(logs)}},
	}}
	text, err := driver.text()
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, text)
	return err
}
