package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Write creates path (and its folder) with the content write produces.
// A path that exists and is not a regular file (a device, a FIFO, a
// folder, a symbolic link) is refused (CheckTarget), before write runs
// and again before the rename.
func Write(path string, write func(io.Writer) error) error {
	if err := CheckTarget(path); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := CreateTemp(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	// On the disk before the rename makes it the file.
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := CheckTarget(path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
