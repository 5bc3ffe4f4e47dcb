//go:build !invariants

package swf

// alwaysCheck is false in the default build: parseLine skips the value
// checks where the fast path showed they cannot refuse a field. The build
// with the tag invariants makes it a variable tests set (check_on.go).
const alwaysCheck = false
