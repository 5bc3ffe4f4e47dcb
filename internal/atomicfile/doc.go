// Package atomicfile writes files so that readers never see a half-written
// one: the content goes to a hidden temporary file in the same folder,
// which is renamed into place only when complete (0644), and removed on
// any error.
package atomicfile
