package htmlreport

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readSpans stops at the row beyond MaxSpans, naming the line and the
// bound, instead of reading the whole unavailability.csv into memory
// first (26.7 M rows of a run before engine.MaxSpans ran out of it).
func TestReadSpansBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unavailability.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("kind,resources,start,end\n")
	for i := range MaxSpans + 1 {
		fmt.Fprintf(w, "down,0,%d,%d\n", 2*i, 2*i+1)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = readSpans(path, machine{cpus: 4, what: "test"})
	want := fmt.Sprintf("%s:%d: more than %d spans (htmlreport.MaxSpans)", path, MaxSpans+2, MaxSpans)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
}
