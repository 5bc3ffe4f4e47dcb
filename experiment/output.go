package experiment

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedlab/schedlab/internal/atomicfile"
)

// outDir writes files into a folder atomically: each file is written to a
// hidden temporary name and renamed into place by commit; abort removes the
// temporaries (and the folder, if this run created it and it is empty).
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
func (o *outDir) create(name string) (*os.File, error) {
	f, err := os.CreateTemp(o.dir, atomicfile.TempPattern(name))
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
	return nil
}

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
