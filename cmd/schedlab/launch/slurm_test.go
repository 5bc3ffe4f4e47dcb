package launch

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func testSlurm(dir string) Slurm {
	return Slurm{
		Sweep:    Sweep{Name: "schedlab-grid", Shards: 4, Workers: 2},
		Program:  "/opt/schedlab/bin/schedlab",
		Scenario: filepath.Join(dir, "grid.yaml"),
		Out:      filepath.Join(dir, "out"),
		Dir:      dir,
	}
}

func needBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on this machine: the Slurm script is not checked")
	}
	return bash
}

// The script is valid bash (bash -n), and so are the batch scripts it
// gives sbatch.
func TestSlurmScriptSyntax(t *testing.T) {
	bash := needBash(t)
	dir := t.TempDir()
	for _, s := range []Slurm{testSlurm("/home/ann/sweeps"), testSlurm("/home/ann/it's a \"sweep\" $HOME `x` \\ ;|&")} {
		s.Records = true
		var buf bytes.Buffer
		if err := s.Write(&buf); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "submit.sh")
		if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bash, "-n", f).CombinedOutput(); err != nil {
			t.Errorf("bash -n: %v: %s\n%s", err, out, buf.String())
		}
		for _, want := range []string{"#!/bin/bash\n", "set -euo pipefail\n", "array=${1:-0-3}\n", `--array="${array}"`, `--dependency=afterok:"${shards}"`, "--cpus-per-task=2", "--parsable"} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("the script has no %q:\n%s", want, buf.String())
			}
		}
	}
}

// Run with a stand-in sbatch, the script submits the array 0-(N-1) (or
// the tasks of its argument), then the merge with afterok on the array's
// id; the batch scripts run the program with exactly the arguments
// meant, whatever the paths hold.
func TestSlurmScriptSubmits(t *testing.T) {
	bash := needBash(t)
	dir := t.TempDir()
	weird := filepath.Join(dir, "it's a \"sweep\" $HOME `x` \\ ;|& *")
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// sbatch: saves its arguments and its standard input (the batch
	// script), prints a job id as --parsable does ("id;cluster").
	sbatch := `#!/bin/bash
n=$(( $(ls "$LOG" | wc -l) / 2 + 1 ))
printf '%s\n' "$@" > "$LOG/args$n"
cat > "$LOG/script$n"
echo "10$n;cluster"
`
	// The program the batch scripts run: prints its arguments, one a line.
	echo := "#!/bin/sh\nprintf '%s\\n' \"$@\"\n"
	for name, text := range map[string]string{"sbatch": sbatch, "schedlab": echo} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := testSlurm(weird)
	s.Program = filepath.Join(bin, "schedlab")
	var buf bytes.Buffer
	if err := s.Write(&buf); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "submit.sh")
	if err := os.WriteFile(script, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		array string
	}{{nil, "0-3"}, {[]string{"1,3"}, "1,3"}} {
		logs := filepath.Join(dir, "log"+c.array)
		if err := os.MkdirAll(logs, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bash, append([]string{script}, c.args...)...)
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "LOG="+logs)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		wantOut := "schedlab: submitted the shards as job array 101 (tasks " + c.array + ") and the merge as job 102 (it starts when every shard has succeeded); results in " + s.Out + ", logs in " + filepath.Join(s.Out, "shards", "logs") + "\n"
		if string(out) != wantOut {
			t.Errorf("printed %q, want %q", out, wantOut)
		}
		if st, err := os.Stat(filepath.Join(s.Out, "shards", "logs")); err != nil || !st.IsDir() {
			t.Errorf("the log folder was not made: %v", err)
		}
		read := func(name string) string {
			b, err := os.ReadFile(filepath.Join(logs, name))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		lines := func(xs ...string) string { return strings.Join(xs, "\n") + "\n" }
		logDir := filepath.Join(s.Out, "shards", "logs")
		if got, want := read("args1"), lines("--parsable", "--job-name=schedlab-grid", "--array="+c.array, "--cpus-per-task=2",
			"--chdir="+s.Dir, "--output="+logDir+"/%x-%A_%a.out"); got != want {
			t.Errorf("sbatch of the shards:\n%s\nwant\n%s", got, want)
		}
		if got, want := read("args2"), lines("--parsable", "--job-name=schedlab-grid-merge", "--dependency=afterok:101",
			"--chdir="+s.Dir, "--output="+logDir+"/%x-%j.out"); got != want {
			t.Errorf("sbatch of the merge:\n%s\nwant\n%s", got, want)
		}
		for i, want := range []string{
			lines("sweep", s.Scenario, "--shards", "4", "--out", s.Out, "--workers", "2"),
			lines("merge", s.Out, s.Scenario),
		} {
			batch := filepath.Join(logs, "script"+string(rune('1'+i)))
			if b := read(filepath.Base(batch)); !strings.HasPrefix(b, "#!/bin/sh\n") {
				t.Errorf("batch script %d: %q", i+1, b)
			}
			got, err := exec.Command("sh", batch).CombinedOutput()
			if err != nil || string(got) != want {
				t.Errorf("batch script %d ran %q (%v), want %q", i+1, got, err, want)
			}
		}
	}
}

// Wrong values are refused before anything is written.
func TestSlurmRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		change func(*Slurm)
		err    string
	}{
		"relative program": {func(s *Slurm) { s.Program = "schedlab" }, `program "schedlab": want an absolute path`},
		"relative out":     {func(s *Slurm) { s.Out = "out" }, "want an absolute path"},
		"newline":          {func(s *Slurm) { s.Scenario = "/a\nb.yaml" }, "a control character"},
		"percent":          {func(s *Slurm) { s.Out = "/data/100%" }, "sbatch --output reads %"},
		"name":             {func(s *Slurm) { s.Name = "my sweep" }, "job name"},
		"shards":           {func(s *Slurm) { s.Shards = 0 }, "want at least 1"},
	} {
		s := testSlurm("/home/ann")
		c.change(&s)
		var buf bytes.Buffer
		err := s.Write(&buf)
		if err == nil || !strings.Contains(err.Error(), c.err) || buf.Len() > 0 {
			t.Errorf("%s: %v (%d bytes written), want %q", name, err, buf.Len(), c.err)
		}
	}
}

// A word is written as it is when safe, else single-quoted, and the
// shell reads back exactly the text.
func TestQuote(t *testing.T) {
	bash := needBash(t)
	for _, s := range []string{"plain/path-1.yaml", "--out=/a/b", "a b", "it's", `"$HOME"`, "`x`", `\`, "*", "~", "", "%x-%A_%a", "a\tb", "é"} {
		q := quote(s)
		if shellSafe.MatchString(s) != (q == s) {
			t.Errorf("%q: quoted as %s", s, q)
		}
		out, err := exec.Command(bash, "-c", "printf '%s' "+q).Output()
		if err != nil || string(out) != s {
			t.Errorf("%q: quoted as %s, the shell reads %q (%v)", s, q, out, err)
		}
	}
}
