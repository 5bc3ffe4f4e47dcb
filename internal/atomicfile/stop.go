package atomicfile

import (
	"errors"
	"os"
	"sync"
)

// ErrStopped is returned by CreateTemp (and Write) once Stop was called.
var ErrStopped = errors.New("stopping: no new file is created")

var stopping struct {
	sync.RWMutex
	stopped bool
}

// CreateTemp creates the temporary file of a file named name in dir
// (TempPattern), unless Stop was called: then it returns ErrStopped.
func CreateTemp(dir, name string) (*os.File, error) {
	stopping.RLock()
	defer stopping.RUnlock()
	if stopping.stopped {
		return nil, ErrStopped
	}
	return os.CreateTemp(dir, TempPattern(name))
}

// Stop makes CreateTemp refuse from now on, then runs then (if not nil)
// while no temporary file is being created: every temporary file created
// before is there for it to remove, and none appears afterwards. A
// process that is interrupted calls it before removing its temporary
// files and exiting.
func Stop(then func()) {
	stopping.Lock()
	defer stopping.Unlock()
	stopping.stopped = true
	if then != nil {
		then()
	}
}

// Resume undoes Stop: for tests that interrupt a command in their own
// process and go on.
func Resume() {
	stopping.Lock()
	defer stopping.Unlock()
	stopping.stopped = false
}
