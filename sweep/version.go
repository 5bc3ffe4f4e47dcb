package sweep

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/scenario"
)

// Reuse says which point files already in a results folder a sweep
// takes instead of running their points again.
type Reuse struct {
	// Version names the build of schedlab that runs the sweep (its
	// revision and a digest of its executable). When it is set, a point
	// file is reused only if DIR/versions/ records that the same version
	// computed it, and every point computed is recorded there; when it
	// is empty, point files are reused by their key alone and no
	// version is recorded.
	Version string
	// Force runs every point, reusing nothing.
	Force bool
}

// Stale is a point whose file was in the folder but was computed by
// another version of schedlab, or by one not recorded, and was run again.
type Stale struct {
	Index   int
	Version string // the version recorded for the point file; "" when none is
}

// VersionsDir is the folder of the version records of dir's point files:
// NNNN-KEY.txt beside points/NNNN-KEY.json holds the version that
// computed the point (one line). The point files stay as they were, so
// that their bytes do not depend on the build.
func VersionsDir(dir string) string { return filepath.Join(dir, "versions") }

func versionPath(dir string, p scenario.Point) string {
	return filepath.Join(VersionsDir(dir), fmt.Sprintf("%04d-%s.txt", p.Index, p.Scenario.Key()))
}

// readVersion is the version recorded for p's point file in dir; "" when
// none is.
func readVersion(dir string, p scenario.Point) string {
	b, err := os.ReadFile(versionPath(dir, p))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// recordVersion records that version computed p's point file (after the
// point file is written: a sweep stopped between the two leaves a point
// that is run again, never a stale one reused). An empty version
// removes the record.
func recordVersion(dir string, p scenario.Point, version string) error {
	path := versionPath(dir, p)
	if version == "" {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, version+"\n")
		return err
	})
}
