//go:build !unix

package cli

import "os"

// Without flock the folder is not locked: concurrent commands writing
// one folder are not detected.
func tryLock(*os.File, bool) (bool, error) { return true, nil }

func tryUpgrade(*os.File) bool { return true }
