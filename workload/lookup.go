package workload

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
func OpenTrace(name string) (*swf.Reader, error) {
	if _, err := os.Stat(name); err == nil {
		return swf.Open(name)
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
			return swf.Open(p)
		}
	}
	return nil, fmt.Errorf("trace %s: not found (looked in the current folder, the embedded traces %s, and %s; set %s to add folders)",
		name, strings.Join(traces.Names(), ", "), strings.Join(TraceDirs(), ", "), TraceDirsEnv)
}

var _ io.Closer = (*swf.Reader)(nil)
