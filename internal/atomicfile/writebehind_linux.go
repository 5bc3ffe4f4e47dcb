package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks Linux to start writing bytes [off, off+n) of f to
// the disk, without waiting for them.
var startWriteback = func(f *os.File, off, n int64) error {
	return unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
