//go:build unix

package cli

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// hasSize reports whether the terminal w reports a width (a terminal of
// no size, such as some job consoles, reports 0 columns).
func hasSize(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	return err == nil && ws.Col > 0
}
