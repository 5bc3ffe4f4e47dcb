package workload

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/swf"
	"github.com/schedlab/schedlab/workload/traces"
)

// TraceDirsEnv names the environment variable with extra trace folders
// (separated by the OS list separator, ':' on Unix).
const TraceDirsEnv = "SCHEDLAB_TRACES"

// TraceDirs returns the folders searched for a trace given by bare name:
// $SCHEDLAB_TRACES, then ./traces, ../shared/traces and ../../shared/traces
// (the layout of a schedlab checkout beside the shared folder).
func TraceDirs() []string {
	var dirs []string
	if v := os.Getenv(TraceDirsEnv); v != "" {
		dirs = append(dirs, filepath.SplitList(v)...)
	}
	return append(dirs, "traces", filepath.Join("..", "shared", "traces"), filepath.Join("..", "..", "shared", "traces"))
}

// OpenTrace opens an SWF trace given by path or by bare name. A path that
// exists is used as is; otherwise a bare name is looked up among the
// embedded traces and then in TraceDirs. The error lists where it looked.
//
// A file that is a job table (package jobtable: its first line, once
// decompressed, is jobtable.Magic) is read as SWF: each job its SWF
// record, its processors procs (else req_procs), as on a pool of CPUs,
// and its request its job's actual.Job.Req (jobtable.RowRequest: nil
// for a row of tasks of one CPU and nothing else), which the pool
// ignores.
// At the end of the table, if any of its jobs asks for more than CPUs
// (jobtable.Beyond: several nodes, GRES, exclusive nodes, a constraint,
// memory per node over nodes), a line on stderr says how many, and that
// the CPU pool ignores it (OpenTraceNotify names the writer).
func OpenTrace(name string) (*swf.Reader, error) { return OpenTraceNotify(name, os.Stderr) }

// OpenTraceNotify is OpenTrace, writing the notice on a job table's
// requests to notice (nil: none).
func OpenTraceNotify(name string, notice io.Writer) (*swf.Reader, error) {
	if _, err := os.Stat(name); err == nil {
		return openFile(name, notice)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if strings.ContainsRune(name, os.PathSeparator) {
		return nil, fmt.Errorf("trace %s: no such file", name)
	}
	if f, err := traces.Open(name); err == nil {
		r, err := swf.NewReader(f, name)
		if err != nil {
			f.Close()
			return nil, err
		}
		return r, nil
	}
	for _, d := range TraceDirs() {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return openFile(p, notice)
		}
	}
	return nil, fmt.Errorf("trace %s: not found (looked in the current folder, the embedded traces %s, and %s; set %s to add folders)",
		name, strings.Join(traces.Names(), ", "), strings.Join(TraceDirs(), ", "), TraceDirsEnv)
}

var _ io.Closer = (*swf.Reader)(nil)

// openFile opens the SWF trace or job table at path.
func openFile(path string, notice io.Writer) (*swf.Reader, error) {
	if !isJobTable(path) {
		return swf.Open(path)
	}
	jr, err := jobtable.Open(path)
	if err != nil {
		return nil, err
	}
	done := func(rows, beyond int64) {
		jr.Close()
		if beyond > 0 && notice != nil {
			fmt.Fprintf(notice, "schedlab: %s: %d of its %d job(s) ask for more than CPUs (several nodes, GRES, exclusive nodes, a feature constraint or memory per node): the pool of CPUs ignores that and runs each job on its processors\n", path, beyond, rows)
		}
	}
	rd, err := swf.NewReader(jobtable.NewSWFReader(jr, done), path)
	if err != nil {
		jr.Close()
		return nil, err
	}
	// The table's file is closed at its end (done), or when the Reader
	// is dropped.
	runtime.AddCleanup(rd, func(jr *jobtable.Reader) { jr.Close() }, jr)
	return rd, nil
}

// isJobTable says whether the file at path (plain or gzip) starts with
// jobtable.Magic; an unreadable file is not (swf.Open then says why).
func isJobTable(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var in io.Reader = br
	if b, _ := br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return false
		}
		in = gz
	}
	b := make([]byte, len(jobtable.Magic)+2)
	n, _ := io.ReadFull(in, b)
	return jobtable.IsJobTable(b[:n])
}
