package cli

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jobLines are the lines of an SWF text that are not comments.
func jobLines(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if !strings.HasPrefix(l, ";") {
			out = append(out, l)
		}
	}
	return out
}

// trace make writes, from lesson1.jobs (five lines of three numbers),
// the jobs of lesson1.swf, written by hand field by field: the same 18
// fields a line; and a .gz output is the same text compressed.
func TestTraceMakeLesson1(t *testing.T) {
	dir := t.TempDir()
	for _, out := range []string{filepath.Join(dir, "l1.swf"), filepath.Join(dir, "l1.swf.gz")} {
		if code, stderr := runMain("trace", "make", filepath.Join(teachingDir, "lesson1.jobs"), "--procs", "5", "--out", out); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = f
		if strings.HasSuffix(out, ".gz") {
			gz, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			r = gz
		}
		got, err := io.ReadAll(r)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(teachingDir, "lesson1.swf"))
		if err != nil {
			t.Fatal(err)
		}
		if g, w := strings.Join(jobLines(string(got)), "\n"), strings.Join(jobLines(string(want)), "\n"); g != w {
			t.Errorf("%s:\n%s\nwant lesson1.swf's jobs:\n%s", out, g, w)
		}
		if !strings.Contains(string(got), "\n; MaxProcs: 5\n") {
			t.Errorf("%s: no MaxProcs header:\n%s", out, got)
		}
	}
}

// A wrong line is refused by its line number and what is wrong, and
// nothing is written.
func TestTraceMakeErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"0 10\n", "j.txt:1: want SUBMIT RUNTIME CPUS [REQUEST], got 2 field(s)"},
		{"# c\n\n0 10 2 20 5\n", "j.txt:3: want SUBMIT RUNTIME CPUS [REQUEST], got 5 field(s)"},
		{"0 ten 2\n", `j.txt:1: RUNTIME "ten" is not a number`},
		{"0 10 2 NaN\n", `j.txt:1: REQUEST "NaN" is not a number`},
		{"-5 10 2\n", "j.txt:1: SUBMIT -5 is negative"},
		{"0 10 9\n", `j.txt:1: CPUS "9": want a whole number 1..4 (--procs)`},
		{"0 10 1.5\n", `j.txt:1: CPUS "1.5": want a whole number 1..4`},
		{"10 1 1\n5 1 1\n", "j.txt:2: SUBMIT 5 is before the previous job's 10: list the jobs in submit order"},
		{"# nothing\n", "j.txt: no jobs"},
	} {
		in := writeFile(t, dir, "j.txt", c.text)
		out := filepath.Join(dir, "out.swf")
		code, stderr := runMain("trace", "make", in, "--procs", "4", "--out", out)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want exit 1 and %q", c.text, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: %s written", c.text, out)
		}
	}
	if code, stderr := runMain("trace", "make", writeFile(t, dir, "ok.txt", "0 1 1\n"), "--procs", "0", "--out", filepath.Join(dir, "o.swf")); code != 2 || !strings.Contains(stderr, "--procs 0: want 1..") {
		t.Errorf("--procs 0: exit %d, %q", code, stderr)
	}
}
