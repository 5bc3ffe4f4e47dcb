package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// docs/scheduling.md shows what 'schedlab explain' prints for the
// teaching example, byte for byte.
func TestExplainDocs(t *testing.T) {
	t.Chdir("../../..")
	doc, err := os.ReadFile("docs/scheduling.md")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if st := Main([]string{"explain", "--trace", "examples/teaching/five-jobs.swf", "--policy", "easy", "--job", "5", "--gantt"}, &out, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	if !strings.Contains(string(doc), out.String()) {
		t.Errorf("docs/scheduling.md does not show the output of explain:\n%s", out.String())
	}
}

// --job takes a job number, digits only: Go's integer syntax would read
// 1005_1 as 10051, a Slurm array task; it is refused with what to give.
func TestExplainJobID(t *testing.T) {
	for _, c := range []struct {
		in   string
		id   int64
		want string
	}{
		{"5", 5, ""},
		{" 1005 ", 1005, ""},
		{"1005_1", 0, "--job 1005_1: a Slurm id of an array task; a trace numbers its jobs by JobIDRaw (SWF field 1), and this trace's header names no job by it (trace import lists them: ; JobID 1006: 1005_1): give that number (sacct -j 1005_1 -o JobIDRaw)"},
		{"1005+0", 0, "a heterogeneous job's component"},
		{"1_000", 0, "array task"},
		{"0x10", 0, `--job "0x10": want a job number`},
		{"-3", 0, "want a job number"},
		{"0", 0, "job numbers start at 1"},
		{"12345678901234567", 0, "want a job number"},
	} {
		id, err := explainID(c.in)
		if c.want == "" {
			if err != nil || id != c.id {
				t.Errorf("%q: %d, %v; want %d", c.in, id, err, c.id)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %d, %v; want an error with %q", c.in, id, err, c.want)
		}
	}
	var out, errb bytes.Buffer
	if st := Main([]string{"explain", "--trace", "../../../examples/teaching/five-jobs.swf", "--policy", "easy", "--job", "5_1"}, &out, &errb); st != 2 || !strings.Contains(errb.String(), "array task") || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
}
