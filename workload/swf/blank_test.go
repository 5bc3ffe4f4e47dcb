package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readRecords reads every record of the input and returns their number and
// the error that ended the reading (nil at the end).
func readRecords(t *testing.T, r *Reader) (int, error) {
	t.Helper()
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

const blankJob = "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"

// More than MaxLinesWithoutJob lines in a row without a job (blank or
// comment) are refused at the first line beyond, in the header and
// between jobs; as many are read (a gzip file of nothing but newlines
// took minutes, with no limit).
func TestLinesWithoutJobBounded(t *testing.T) {
	blanks := strings.Repeat("\n", MaxLinesWithoutJob)
	for _, tt := range []struct {
		name, input string
		jobs, line  int // records before the error; the error's line (0: no error)
	}{
		{"header at the bound", "; MaxProcs: 8\n" + blanks[1:] + blankJob, 1, 0},
		{"header beyond", "; MaxProcs: 8\n" + blanks + blankJob, 0, MaxLinesWithoutJob + 1},
		{"between jobs at the bound", blankJob + blanks + blankJob, 2, 0},
		{"between jobs beyond", blankJob + blanks + ";\n" + blankJob, 1, MaxLinesWithoutJob + 2},
		{"comment lines count", blankJob + strings.Repeat(";\n", MaxLinesWithoutJob+1), 1, MaxLinesWithoutJob + 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(tt.input), "b.swf")
			if err == nil {
				var n int
				n, err = readRecords(t, r)
				if n != tt.jobs {
					t.Errorf("%d records, want %d", n, tt.jobs)
				}
			}
			var pe *ParseError
			switch {
			case tt.line == 0 && err != nil:
				t.Errorf("error %v", err)
			case tt.line != 0 && (!errors.As(err, &pe) || !errors.Is(err, ErrNoJobLines) || pe.Line != tt.line):
				t.Errorf("error %v, want ErrNoJobLines at line %d", err, tt.line)
			}
		})
	}
}

// A gzip bomb of newlines ends at the bound, quickly, with the file and
// line named.
func TestBlankLineBombStops(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	line := bytes.Repeat([]byte("\n"), 1<<20)
	for range 64 { // 64 Mi newlines, far beyond the bound
		zw.Write(line)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "bomb.swf.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r, err := Open(path)
	if err == nil {
		defer r.Close()
		_, err = readRecords(t, r)
	}
	want := path + ":1000001: more than 1000000 lines in a row without a job (blank or comment lines; swf.MaxLinesWithoutJob): not an SWF trace"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}
