//go:build unix

package cli

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an flock on f, shared or exclusive, without waiting; it
// reports false when another open file holds a conflicting one.
func tryLock(f *os.File, shared bool) (bool, error) {
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, err
	}
}

// tryUpgrade turns a shared lock into an exclusive one if no other open
// file holds it (the file can then be removed); false otherwise.
func tryUpgrade(f *os.File) bool {
	ok, err := tryLock(f, false)
	return ok && err == nil
}
