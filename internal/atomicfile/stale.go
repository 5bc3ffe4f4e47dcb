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
func RemoveTemps(dir string) ([]string, error) { return RemoveTempsOf(dir, nil) }

// TempTarget is the name of the file a temporary file name (IsTemp)
// will be renamed to: ".jobs.csv.tmp-123" is "jobs.csv".
func TempTarget(name string) (string, bool) {
	if !IsTemp(name) {
		return "", false
	}
	return name[1:strings.LastIndex(name, ".tmp-")], true
}

// RemoveTempsOf is RemoveTemps for a folder that other processes write
// into too: it removes only the temporary files whose target name
// (TempTarget) ours accepts (all of them when ours is nil), so that the
// files other processes are writing at that moment are left alone.
func RemoveTempsOf(dir string, ours func(target string) bool) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range ents {
		target, temp := TempTarget(e.Name())
		if e.Type().IsRegular() && temp && (ours == nil || ours(target)) {
			p := filepath.Join(dir, e.Name())
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				return removed, err
			}
			removed = append(removed, p)
		}
	}
	return removed, nil
}
