package atomicfile

import (
	"io"
	"os"
)

// WriteBehindChunk is how many bytes WriteBehind lets pile up before it
// asks the system to start writing them to the disk.
const WriteBehindChunk = 2 << 20

// WriteBehind returns a writer to f that, each time WriteBehindChunk
// more bytes have been written, asks the system to start writing the
// bytes written since the last request to the disk, and returns at once
// (Linux: sync_file_range with SYNC_FILE_RANGE_WRITE; elsewhere it asks
// nothing). The bytes written are exactly the caller's. What it changes
// is when the disk work happens: while the run goes on instead of all of
// it in the Sync before the rename, which then waits only for the last
// chunk (on a 20 MB jobs.csv, about 1 ms instead of 9-11 ms;
// docs/performance.md). Nothing is promised by the request: a file
// system or a file that refuses it (a pipe, any file that is not
// regular) is written as before, the request is not made again, and the
// Sync still reports every error.
func WriteBehind(f *os.File) io.Writer {
	return &writeBehind{f: f}
}

type writeBehind struct {
	f          *os.File
	off, asked int64 // bytes written; bytes asked to be written to the disk
	stop       bool  // a request failed: ask no more
}

func (w *writeBehind) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.off += int64(n)
	if !w.stop && w.off-w.asked >= WriteBehindChunk {
		if startWriteback(w.f, w.asked, w.off-w.asked) != nil {
			w.stop = true
		}
		w.asked = w.off
	}
	return n, err
}
