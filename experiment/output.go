package experiment

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

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

// rename is os.Rename; a test makes it fail part-way.
var rename = os.Rename

// commit puts this run's files in place as a set: each is written to the
// disk (fsync), then the earlier run's files (runOutputs) are moved aside
// to hidden temporary names, this run's renamed into place, and the
// earlier ones removed. If a rename fails part-way, the files placed are
// removed and the earlier ones put back: the folder holds one run's
// files, never a mix of two, and never a file of an earlier run this one
// did not write (schedule.swf of a run with --swf, then one without; the
// report.html of the earlier run).
func (o *outDir) commit() error {
	for _, f := range o.files {
		if err := f.Sync(); err != nil {
			o.abort()
			return fmt.Errorf("output: %w", err)
		}
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
	for _, f := range o.files {
		// CreateTemp makes private files; results are ordinary files.
		if err := os.Chmod(f.Name(), 0o644); err != nil {
			o.abort()
			return fmt.Errorf("output: %w", err)
		}
	}
	var aside [][2]string // an earlier file and its hidden name
	var placed []string
	undo := func() {
		for _, p := range placed {
			os.Remove(p)
		}
		for _, a := range aside {
			rename(a[1], a[0])
		}
		o.abort()
	}
	for i, name := range runOutputs {
		p := filepath.Join(o.dir, name)
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			continue
		}
		hidden := filepath.Join(o.dir, fmt.Sprintf(".%s.tmp-%d%d", name, os.Getpid(), i))
		if err := rename(p, hidden); err != nil {
			undo()
			return fmt.Errorf("output: moving the earlier run's %s aside: %w", name, err)
		}
		aside = append(aside, [2]string{p, hidden})
	}
	for i, f := range o.files {
		if err := rename(f.Name(), o.finals[i]); err != nil {
			undo()
			return fmt.Errorf("output: %w (the folder's earlier files are kept)", err)
		}
		placed = append(placed, o.finals[i])
	}
	o.files = nil
	for _, a := range aside {
		if err := os.Remove(a[1]); err != nil {
			return fmt.Errorf("output: removing the earlier run's %s: %w", filepath.Base(a[0]), err)
		}
	}
	syncDir(o.dir)
	return nil
}

// syncDir writes a folder's entries (the renames) to the disk, where the
// system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// runOutputs are every file a trace run may write into its folder.
// report.html is written after the run (run --report), from these files:
// an earlier run's is removed with them.
var runOutputs = []string{"jobs.csv", "summary.json", "schedule.swf", "threads.csv", "report.html"}

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
