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
