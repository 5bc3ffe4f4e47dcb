package cli

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// teachingDir holds the lessons and their answers (README.md).
const teachingDir = "../../../examples/teaching"

// tableRows are the cells of the rows of the Markdown table of md whose
// header line is header (the rows up to the first line not a row).
func tableRows(t *testing.T, md, header string) [][]string {
	t.Helper()
	i := strings.Index(md, header+"\n")
	if i < 0 {
		t.Fatalf("no table %q", header)
	}
	var rows [][]string
	for k, line := range strings.Split(md[i:], "\n") {
		if k < 2 { // the header and the |---| line
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatalf("table %q has no rows", header)
	}
	return rows
}

// The answers of examples/teaching/README.md are what the tool gives:
// every row of its two answer tables is run.
func TestTeachingAnswers(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(teachingDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	made := map[string]string{} // a lesson's .jobs file: the trace trace make writes of it
	tracePath := func(name string) string {
		t.Helper()
		if !strings.HasSuffix(name, ".jobs") {
			return filepath.Join(teachingDir, name)
		}
		if p, ok := made[name]; ok {
			return p
		}
		procs := jobsProcs(t, filepath.Join(teachingDir, name))
		p := filepath.Join(t.TempDir(), strings.TrimSuffix(name, ".jobs")+".swf")
		if code, stderr := runMain("trace", "make", filepath.Join(teachingDir, name), "--procs", procs, "--out", p); code != 0 {
			t.Fatalf("trace make %s: exit %d: %s", name, code, stderr)
		}
		made[name] = p
		return p
	}
	for _, r := range tableRows(t, md, "| exercise | trace | flags | job | starts at |") {
		ex, trace, flags, job, want := r[0], r[1], r[2], r[3], r[4]
		out := t.TempDir()
		args := append([]string{"run", "--trace", tracePath(trace)}, strings.Fields(flags)...)
		if code, stderr := runMain(append(args, "--out", out)...); code != 0 {
			t.Fatalf("exercise %s: %s: exit %d: %s", ex, strings.Join(args, " "), code, stderr)
		}
		f, err := os.Open(filepath.Join(out, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		got := ""
		for _, row := range rows[1:] {
			if row[col["job_id"]] == job {
				got = row[col["starting_time"]]
			}
		}
		if got != want {
			t.Errorf("exercise %s: %s: job %s starts at %q, the answer says %s", ex, flags, job, got, want)
		}
	}
	for _, r := range tableRows(t, md, "| exercise | command | its output says |") {
		ex, cmd, want := r[0], strings.Fields(r[1]), r[2]
		for i := range cmd {
			if cmd[i] == "--trace" && i+1 < len(cmd) {
				cmd[i+1] = tracePath(cmd[i+1])
			}
		}
		var stdout, stderr bytes.Buffer
		if code := Main(cmd, &stdout, &stderr); code != 0 {
			t.Fatalf("exercise %s: %q: exit %d: %s", ex, cmd, code, stderr.String())
		}
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("exercise %s: %q does not say %q:\n%s", ex, cmd, want, stdout.String())
		}
	}
}

// jobsProcs is the machine size a lesson's .jobs file states in its
// first line ("# Lesson N: P CPUs."), which README.md's trace make
// command gives as --procs.
func jobsProcs(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(first)
	for i := 1; i < len(f); i++ {
		if strings.HasPrefix(f[i], "CPUs") {
			return f[i-1]
		}
	}
	t.Fatalf("%s: the first line does not say how many CPUs: %q", path, first)
	return ""
}
