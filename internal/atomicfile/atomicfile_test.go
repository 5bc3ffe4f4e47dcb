package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "a.txt")
	if err := Write(p, func(w io.Writer) error { _, err := io.WriteString(w, "hello"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "hello" {
		t.Fatalf("content %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v", st.Mode())
	}
	// A failing writer leaves the old file and no temporary behind.
	boom := errors.New("boom")
	if err := Write(p, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }); err != boom {
		t.Fatalf("err %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "hello" {
		t.Fatalf("content after failure %q", b)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Fatalf("%d files left, want 1", len(ents))
	}
}

// Write refuses a path that is a FIFO or a folder, before calling write,
// and leaves it as it was.
func TestWriteRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	for p, what := range map[string]string{fifo: "a FIFO (named pipe)", sub: "a folder"} {
		called := false
		err := Write(p, func(w io.Writer) error { called = true; return nil })
		if err == nil || err.Error() != p+" is "+what+", not a regular file; schedlab only replaces regular files (choose another path or remove it)" {
			t.Errorf("%s: err %v", p, err)
		}
		if called {
			t.Errorf("%s: write was called", p)
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("FIFO replaced: %v %v", st.Mode(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d files, want 2", len(ents))
	}
}

// After Stop, Write creates no file and returns ErrStopped; Stop's
// function runs while no file is being created.
func TestStop(t *testing.T) {
	dir := t.TempDir()
	ran := false
	Stop(func() { ran = true })
	defer Resume()
	called := false
	err := Write(filepath.Join(dir, "a.txt"), func(io.Writer) error { called = true; return nil })
	if !errors.Is(err, ErrStopped) || called || !ran {
		t.Errorf("err %v, write called %v, Stop's function ran %v", err, called, ran)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d files created", len(ents))
	}
}
