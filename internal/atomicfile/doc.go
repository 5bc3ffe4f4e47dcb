// Package atomicfile writes files so that readers never see a half-written
// one: the content goes to a hidden temporary file in the same folder,
// which is renamed into place only when complete (0644), and removed on
// any error. WriteBehind lets a large file's bytes go to the disk while it
// is being written, so that the fsync before the rename has little left
// to wait for.
package atomicfile
