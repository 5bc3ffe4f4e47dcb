package digits

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func same(t *testing.T, v int64) {
	t.Helper()
	for _, prefix := range [][]byte{nil, []byte("x,"), make([]byte, 3, 4), make([]byte, 5, 13)} {
		if got, want := AppendInt(bytes.Clone(prefix), v), strconv.AppendInt(bytes.Clone(prefix), v, 10); !bytes.Equal(got, want) {
			t.Fatalf("AppendInt(%q, %d) = %q, strconv %q", prefix, v, got, want)
		}
	}
}

// The bytes of strconv for edge values (0, every power of ten and its
// neighbours, both signs, 10^8 where the fast path ends, the int64
// extremes), for every value up to 10^5 and from 10^8-10^5 to 10^8+10^5,
// and for a million random values of every magnitude; into slices with
// and without room to spare.
func TestSameAsStrconv(t *testing.T) {
	edges := []int64{0, 1, -1, 9, 10, 11, 99, 100, 101, 1e8 - 1, 1e8, -1e8 + 1, -1e8,
		math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1 << 53, -(1 << 53), math.MaxInt32, math.MinInt32, math.MaxUint32}
	for p := int64(1); p <= 1e18; p *= 10 {
		edges = append(edges, p-1, p, p+1, -p+1, -p, -p-1)
	}
	for _, v := range edges {
		same(t, v)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		v := int64(r.Uint64() >> r.IntN(64)) // every magnitude, both signs
		same(t, v)
	}
	for v := int64(-1000); v <= 100_000; v++ {
		same(t, v)
	}
	for v := int64(1e8 - 1e5); v <= 1e8+1e5; v++ {
		same(t, v)
	}
}

// The append leaves the bytes before it alone (its 8-byte store lands in
// the spare capacity, as append's writes do).
func TestNoClobber(t *testing.T) {
	buf := []byte("abcdefghijklmnop")
	b := AppendInt(buf[:3], 12345)
	if string(b) != "abc12345" {
		t.Fatalf("got %q", b)
	}
	if string(buf[:3]) != "abc" {
		t.Fatalf("prefix changed: %q", buf[:3])
	}
}

// A row's worth of jobs.csv numbers (ids, times, counts of 1 to 8
// digits) appended one after another, as the writer does.
func BenchmarkAppendRow(b *testing.B) {
	vals := make([]int64, 1024)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range vals {
		vals[i] = int64(r.IntN(100_000_000)) >> r.IntN(27)
	}
	buf := make([]byte, 0, 256)
	b.Run("digits", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for k := range 8 {
				buf = append(AppendInt(buf, vals[(i*8+k)&1023]), ',')
			}
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for k := range 8 {
				buf = append(strconv.AppendInt(buf, vals[(i*8+k)&1023], 10), ',')
			}
		}
	})
}
