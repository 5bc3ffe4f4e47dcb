package experiment

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/schedlab/schedlab/internal/atomicfile"
)

// outDir writes files into a folder atomically: each file is written to a
// hidden temporary name and renamed into place by commit, which then
// removes the files of runOutputs this run did not write (an earlier
// run's), so the folder holds one run's results; abort removes the
// temporaries (and the folder, if this run created it and it is empty)
// and leaves the earlier results whole.
type outDir struct {
	dir     string
	created bool
	files   []*os.File
	finals  []string
}

func newOutDir(dir string) (*outDir, error) {
	o := &outDir{dir: dir}
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return nil, fmt.Errorf("output %s: exists and is not a folder", dir)
		}
	} else if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		o.created = true
	} else {
		return nil, fmt.Errorf("output: %w", err)
	}
	return o, nil
}

// create opens a temporary file that commit will rename to name.
// A file of that name that is not a regular file (a FIFO, a device) is
// refused before anything is written.
func (o *outDir) create(name string) (*os.File, error) {
	if err := atomicfile.CheckTarget(filepath.Join(o.dir, name)); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	f, err := atomicfile.CreateTemp(o.dir, name)
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	o.files = append(o.files, f)
	o.finals = append(o.finals, filepath.Join(o.dir, name))
	return f, nil
}

func (o *outDir) commit() error {
	for _, f := range o.files {
		if err := f.Close(); err != nil {
			o.abort()
			return fmt.Errorf("output: %w", err)
		}
	}
	for _, p := range o.finals {
		if err := atomicfile.CheckTarget(p); err != nil {
			o.abort()
			return fmt.Errorf("output: %w", err)
		}
	}
	for i, f := range o.files {
		// CreateTemp makes private files; results are ordinary files.
		if err := os.Chmod(f.Name(), 0o644); err != nil {
			o.abort()
			return fmt.Errorf("output: %w", err)
		}
		if err := os.Rename(f.Name(), o.finals[i]); err != nil {
			o.abort()
			return fmt.Errorf("output: %w", err)
		}
	}
	o.files = nil
	// The folder now holds this run's results: a file an earlier run
	// wrote there that this one did not (schedule.swf of a run with
	// --swf, then one without) would be mistaken for this run's.
	for _, name := range runOutputs {
		p := filepath.Join(o.dir, name)
		if !slices.Contains(o.finals, p) {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("output: removing the earlier run's %s: %w", name, err)
			}
		}
	}
	return nil
}

// runOutputs are every file a trace run may write into its folder.
var runOutputs = []string{"jobs.csv", "summary.json", "schedule.swf", "threads.csv"}

func (o *outDir) abort() {
	for _, f := range o.files {
		f.Close()
		os.Remove(f.Name())
	}
	o.files = nil
	if o.created {
		os.Remove(o.dir) // only succeeds if empty
	}
}
