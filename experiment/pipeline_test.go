package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// The kernel reads the prefetcher's jobs in place (engine.IntoSource);
// without it the run would fall back to Next, silently slower.
var _ engine.IntoSource = (*workload.Prefetcher)(nil)

// A malformed record deep in a gzip trace, after several of the
// decompressor's chunks, the prefetcher's batches and jobs.csv's batches
// have been handed over, stops the run with the message a plain reader on
// one goroutine gives for it, to the byte (file, line, field), and leaves
// no output folder, whatever the policy.
func TestPipelineKeepsFirstErrorAndWritesNothing(t *testing.T) {
	const n, badAt = 30000, 25000 // jobs; the bad record is job badAt (line badAt+1)
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= n; i++ {
		run := fmt.Sprint(10 + i%97)
		if i == badAt {
			run = "1O" // a letter O
		}
		fmt.Fprintf(&b, "%d %d 0 %s %d -1 -1 %d %d -1 1 %d 1 -1 -1 -1 -1 -1\n", i, i*5, run, 1+i%8, 1+i%8, 100+i%50, i%9)
	}
	b.WriteString("garbage that is never reached\n")
	text := b.String()
	dir := t.TempDir()
	p := writeTrace(t, dir, "deep.swf.gz", text, true)

	// The message of a reader with no goroutines between it and the error.
	rd, err := swf.NewReader(strings.NewReader(text), p)
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = rd.Next()
	}
	want := err.Error()
	if !strings.Contains(want, fmt.Sprintf("deep.swf.gz:%d: field 4 (run time)", badAt+1)) {
		t.Fatalf("reference error %q does not name line %d, field 4", want, badAt+1)
	}
	for _, policy := range []string{"fcfs", "easy", "conservative"} {
		out := filepath.Join(dir, "out-"+policy)
		_, err := (RunSpec{Workload: WorkloadSpec{Trace: p}, Policy: PolicySpec{Name: policy}, Outputs: OutputSpec{Dir: out, SWF: true}}).Run()
		if err == nil || err.Error() != want {
			t.Fatalf("%s: err = %v, want %q", policy, err, want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: output folder left behind (stat: %v)", policy, err)
		}
	}
}
