package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// lockName is the file a command locks in its output folder while it
// writes there (removed when it is done). A run, a sweep and a
// reproduction hold it alone; the shards of a sweep and a merge share it
// (they write disjoint files), so that none of them runs while a sweep
// writes the folder, and no command removes the temporary files of
// another one that is still writing them.
const lockName = ".schedlab.lock"

// InUseError is an output folder another process holds the lock of.
type InUseError struct {
	Dir string
	PID string // the holder's process id, "" if unknown
}

func (e *InUseError) Error() string {
	who := "another schedlab process"
	if e.PID != "" {
		who += " (pid " + e.PID + ")"
	}
	return fmt.Sprintf("output folder %s is in use by %s: wait for it to finish, or choose another folder", e.Dir, who)
}

// dirLock is a lock held on an output folder.
type dirLock struct {
	dir     string
	f       *os.File
	shared  bool
	created bool // the folder was made for the lock: removed again if left empty
}

// lockDir takes the lock of folder dir (making the folder if it is
// missing), shared or alone, without waiting: when another process holds
// it, the error is an *InUseError naming the folder and that process.
func lockDir(dir string, shared bool) (*dirLock, error) {
	l := &dirLock{dir: dir, shared: shared}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("output folder %s: %w", dir, err)
		}
		l.created = true
	}
	p := filepath.Join(dir, lockName)
	for range 100 {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			l.removeDir()
			return nil, fmt.Errorf("output folder %s: %w", dir, err)
		}
		got, err := tryLock(f, shared)
		if err != nil {
			f.Close()
			l.removeDir()
			return nil, fmt.Errorf("output folder %s: locking %s: %w", dir, lockName, err)
		}
		if !got {
			b, _ := io.ReadAll(io.LimitReader(f, 64))
			f.Close()
			pid, _, _ := strings.Cut(string(b), "\n")
			if _, err := strconv.Atoi(pid); err != nil {
				pid = ""
			}
			return nil, &InUseError{Dir: dir, PID: pid}
		}
		// Its last holder may have removed the file between our open
		// and our lock: then the lock is the new file's to take.
		fi, err1 := f.Stat()
		pi, err2 := os.Stat(p)
		if err1 == nil && err2 == nil && os.SameFile(fi, pi) {
			if !shared {
				f.Truncate(0)
			}
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			l.f = f
			return l, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("output folder %s: could not lock %s", dir, lockName)
}

// release removes the lock file (unless other processes still share
// it), unlocks, and removes the folder if the lock made it and it is
// empty.
func (l *dirLock) release() {
	if l == nil || l.f == nil {
		return
	}
	if !l.shared || tryUpgrade(l.f) {
		os.Remove(filepath.Join(l.dir, lockName))
	}
	l.f.Close()
	l.f = nil
	l.removeDir()
}

func (l *dirLock) removeDir() {
	if l.created {
		os.Remove(l.dir) // only succeeds if empty
	}
}
