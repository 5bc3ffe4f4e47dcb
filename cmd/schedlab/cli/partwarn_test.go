package cli

import (
	"strings"
	"testing"
)

// Two partitions given as counts overlap from CPU 0: the run says so,
// with the ids that would put them side by side; ids, or one count,
// say nothing.
func TestPartitionCountOverlaps(t *testing.T) {
	w := partitionCountOverlaps([]string{"batch:96", "debug:32:maxtime=3600"})
	if !strings.Contains(w, "batch and debug share CPUs 0-31") || !strings.Contains(w, "debug:96-127") {
		t.Errorf("warning %q", w)
	}
	for _, texts := range [][]string{{"batch:0-95", "debug:96-127"}, {"batch:96", "debug:96-127"}, {"batch:96"}} {
		if w := partitionCountOverlaps(texts); w != "" {
			t.Errorf("%q: warning %q", texts, w)
		}
	}
	code, stderr := runMain("run", "--trace", "KTH-SP2-1996-2.1-cln.swf.gz", "--policy", "easy", "--no-out",
		"--partition", "1:60", "--partition", "2:40:default")
	if code != 0 || !strings.Contains(stderr, "warning: partitions given as CPU counts overlap") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
