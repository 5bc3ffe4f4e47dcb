package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// buildID names this build of schedlab for a sweep's version records
// (sweep.Reuse.Version): "schedlab VERSION vcs REVISION[+modified]
// exe sha256:DIGEST", with the digest of the running executable, so
// that a rebuilt binary (a policy's code changed, committed or not) is
// another version. Without a readable executable it falls back on the
// revision of a build from a clean work tree; with neither, it returns
// an error saying why (the caller then reuses nothing).
var buildID = sync.OnceValues(func() (string, error) {
	vcs, clean := "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, modified := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" {
			vcs = " vcs " + rev
			if modified {
				vcs += "+modified"
			}
			clean = !modified
		}
	}
	sum, err := exeDigest()
	if err == nil {
		return "schedlab " + Version + vcs + " exe sha256:" + sum, nil
	}
	if clean {
		return "schedlab " + Version + vcs, nil
	}
	why := "no VCS revision in the build"
	if vcs != "" {
		why = "built from a modified work tree"
	}
	return "", fmt.Errorf("the executable cannot be read (%v) and %s", err, why)
})

// exeDigest is the SHA-256 of the running executable, in hex: on Linux
// read through /proc/self/exe, the file the process runs even when a
// rebuild has replaced it at its path since.
func exeDigest() (string, error) {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		exe, err := os.Executable()
		if err != nil {
			return "", err
		}
		if f, err = os.Open(exe); err != nil {
			return "", err
		}
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
