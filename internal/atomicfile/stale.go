package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
)

// TempPattern is the os.CreateTemp pattern of the temporary file of a
// file named name: ".NAME.tmp-*" (hidden; CreateTemp puts digits for the
// star). Everything schedlab writes atomically uses it.
func TempPattern(name string) string { return "." + name + ".tmp-*" }

// IsTemp reports whether a file name is one of our temporary files:
// ".NAME.tmp-" followed by one or more digits.
func IsTemp(name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	i := strings.LastIndex(name, ".tmp-")
	if i < 2 || i+len(".tmp-") == len(name) {
		return false
	}
	for _, c := range name[i+len(".tmp-"):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RemoveTemps removes our temporary files (IsTemp) directly in dir,
// left by a run that was killed or interrupted, and returns their names.
// A missing dir has none. Other files are never touched.
func RemoveTemps(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range ents {
		if e.Type().IsRegular() && IsTemp(e.Name()) {
			p := filepath.Join(dir, e.Name())
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				return removed, err
			}
			removed = append(removed, p)
		}
	}
	return removed, nil
}
