package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The bytes written are the caller's, and the requests cover what was
// written, chunk by chunk, each once: writes of odd sizes that cross
// chunk boundaries, one write larger than two chunks.
func TestWriteBehindRequestsChunks(t *testing.T) {
	type req struct{ off, n int64 }
	var got []req
	saved := startWriteback
	t.Cleanup(func() { startWriteback = saved })
	startWriteback = func(f *os.File, off, n int64) error {
		got = append(got, req{off, n})
		return nil
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := WriteBehind(f)
	var want bytes.Buffer
	sizes := []int{1, 999_999, 1_100_000, 2 * WriteBehindChunk, 5, WriteBehindChunk - 7}
	for k, n := range sizes {
		p := bytes.Repeat([]byte{byte('a' + k)}, n)
		if m, err := w.Write(p); m != n || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", n, m, err)
		}
		want.Write(p)
	}
	// 1+999,999+1,100,000 = 2,100,000 >= 2 MiB (2,097,152): the first
	// request; the next write of 4 MiB makes 6,294,304, a request for
	// all of it; the last 2 MiB - 2 bytes stay unrequested.
	wantReqs := []req{{0, 2_100_000}, {2_100_000, 4 << 20}}
	if len(got) != len(wantReqs) || got[0] != wantReqs[0] || got[1] != wantReqs[1] {
		t.Errorf("requests %v, want %v", got, wantReqs)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want.Bytes()) {
		t.Errorf("file holds %d bytes, not the %d written", len(data), want.Len())
	}
}

// A refused request is not made again, and the writes go on.
func TestWriteBehindStopsAskingAfterARefusal(t *testing.T) {
	calls := 0
	saved := startWriteback
	t.Cleanup(func() { startWriteback = saved })
	startWriteback = func(*os.File, int64, int64) error {
		calls++
		return errors.New("refused")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := WriteBehind(f)
	p := make([]byte, WriteBehindChunk)
	for range 3 {
		if _, err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Errorf("%d requests after a refusal, want 1", calls)
	}
	if st, _ := f.Stat(); st.Size() != 3*WriteBehindChunk {
		t.Errorf("file holds %d bytes, want %d", st.Size(), 3*WriteBehindChunk)
	}
}

// The system's own request on a pipe (which Linux refuses) leaves the
// data flowing; on a regular file it succeeds and Sync still works.
func TestWriteBehindRealRequests(t *testing.T) {
	r, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int64)
	go func() {
		n, _ := io.Copy(io.Discard, r)
		done <- n
	}()
	w := WriteBehind(pw)
	p := make([]byte, WriteBehindChunk+1)
	for range 2 {
		if _, err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	pw.Close()
	if n := <-done; n != 2*int64(len(p)) {
		t.Errorf("pipe carried %d bytes, want %d", n, 2*len(p))
	}

	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w = WriteBehind(f)
	for range 3 {
		if _, err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if wb := w.(*writeBehind); wb.stop || wb.asked != 3*int64(len(p)) {
		t.Errorf("on a regular file: stop %v, asked %d; want false, %d", wb.stop, wb.asked, 3*len(p))
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
}

// Writing 20 MB (about HPC2N's jobs.csv) in 64 KB writes, then Sync, as
// a run's output is committed: plain, and through WriteBehind.
func BenchmarkWrite20MBSync(b *testing.B) {
	p := bytes.Repeat([]byte("0123456789abcdef"), 1<<12) // 64 KB
	for _, behind := range []bool{false, true} {
		name := "plain"
		if behind {
			name = "behind"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			for i := 0; i < b.N; i++ {
				f, err := os.Create(filepath.Join(dir, "out"))
				if err != nil {
					b.Fatal(err)
				}
				var w io.Writer = f
				if behind {
					w = WriteBehind(f)
				}
				for n := 0; n < 20<<20; n += len(p) {
					if _, err := w.Write(p); err != nil {
						b.Fatal(err)
					}
				}
				if err := f.Sync(); err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
	}
}
