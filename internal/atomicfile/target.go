package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// CheckTarget returns an error when path exists and is not a regular
// file: a rename would replace a device, a FIFO, a socket or a symbolic
// link (not what it points to) with a regular file. A missing path or a
// regular file is fine.
func CheckTarget(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s is %s, not a regular file; schedlab only replaces regular files (choose another path or remove it)", path, kind(st.Mode()))
}

// kind names the type of a file that is not regular.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	default:
		return "of type " + m.Type().String()
	}
}
