package idmap

import (
	"math/rand/v2"
	"testing"
)

// Random insertions (Set, Put, Add), updates, lookups, deletions and takes agree with Go's map,
// for dense ids (a trace's), ids that differ only in their high bits (the
// matrix model's threads pack the job id above the thread number) and
// negative ids; Len agrees after every step.
func TestAgainstBuiltinMap(t *testing.T) {
	keyOf := map[string]func(r *rand.Rand) int64{
		"dense":     func(r *rand.Rand) int64 { return r.Int64N(3000) },
		"high bits": func(r *rand.Rand) int64 { return r.Int64N(200)<<20 | r.Int64N(4) },
		"signed":    func(r *rand.Rand) int64 { return r.Int64N(2000) - 1000 },
	}
	for name, key := range keyOf {
		r := rand.New(rand.NewPCG(7, uint64(len(name))))
		var m Map[int64, int32]
		want := map[int64]int32{}
		for step := range 200000 {
			k := key(r)
			switch op := r.IntN(11); {
			case op < 3:
				v := int32(step)
				m.Set(k, v)
				want[k] = v
			case op < 4:
				v := int32(step)
				p := m.Put(k)
				if w, had := want[k]; *p != w || (!had && *p != 0) {
					t.Fatalf("%s step %d: Put(%d) points to %d, want %d", name, step, k, *p, w)
				}
				*p = v
				want[k] = v
			case op == 10:
				v := int32(step)
				w, had := want[k]
				got, added := m.Add(k, v)
				if added == had || (had && got != w) || (!had && got != v) {
					t.Fatalf("%s step %d: Add(%d, %d) = %d, %v; held %d, %v", name, step, k, v, got, added, w, had)
				}
				if !had {
					want[k] = v
				}
			case op < 6:
				_, had := want[k]
				if got := m.Delete(k); got != had {
					t.Fatalf("%s step %d: Delete(%d) = %v, want %v", name, step, k, got, had)
				}
				delete(want, k)
			case op < 7:
				w, had := want[k]
				got := int32(-7)
				if ok := m.Take(k, &got); ok != had || (had && got != w) || (!had && got != -7) {
					t.Fatalf("%s step %d: Take(%d) = %d, %v; want %d, %v", name, step, k, got, ok, w, had)
				}
				delete(want, k)
			case op < 8:
				if p := m.Ptr(k); p != nil {
					*p += 1000000
					want[k] += 1000000
				} else if _, ok := want[k]; ok {
					t.Fatalf("%s step %d: Ptr(%d) = nil, key held", name, step, k)
				}
			default:
				got, ok := m.Get(k)
				w, wok := want[k]
				if ok != wok || got != w || m.Has(k) != wok {
					t.Fatalf("%s step %d: Get(%d) = %d, %v; want %d, %v", name, step, k, got, ok, w, wok)
				}
			}
			if m.Len() != len(want) {
				t.Fatalf("%s step %d: Len %d, want %d", name, step, m.Len(), len(want))
			}
		}
		for k, w := range want {
			if got, ok := m.Get(k); !ok || got != w {
				t.Fatalf("%s: at the end Get(%d) = %d, %v; want %d", name, k, got, ok, w)
			}
		}
	}
}

func TestZeroMap(t *testing.T) {
	var m Map[int64, string]
	if _, ok := m.Get(5); ok || m.Delete(5) || m.Ptr(5) != nil || m.Len() != 0 {
		t.Fatal("the zero Map is not empty")
	}
	m.Set(5, "a")
	m.Set(5, "b")
	if v, ok := m.Get(5); !ok || v != "b" || m.Len() != 1 {
		t.Fatalf("Get(5) = %q, %v, Len %d; want b, true, 1", v, ok, m.Len())
	}
}

// A steady state of jobs passing through (insert a new id, delete an old
// one) allocates nothing once the table has grown.
func TestNoAllocationInSteadyState(t *testing.T) {
	var m Map[int64, int32]
	next, oldest := int64(0), int64(0)
	for ; next < 1000; next++ {
		m.Set(next, int32(next))
	}
	a := testing.AllocsPerRun(10000, func() {
		m.Set(next, 1)
		next++
		m.Delete(oldest)
		oldest++
	})
	if a != 0 {
		t.Errorf("%.2f allocations per job, want 0", a)
	}
}

// The pattern of a run: about 1,000 jobs present, each id inserted,
// looked up twice and deleted, ids ascending.
func BenchmarkChurn(b *testing.B) {
	var m Map[int64, int32]
	for i := range int64(1000) {
		m.Set(i, int32(i))
	}
	b.ResetTimer()
	for i := range int64(b.N) {
		k := i + 1000
		m.Set(k, int32(i))
		m.Get(k)
		m.Get(i + 500)
		m.Delete(i)
	}
}

func BenchmarkChurnBuiltin(b *testing.B) {
	m := map[int64]int32{}
	for i := range int64(1000) {
		m[i] = int32(i)
	}
	b.ResetTimer()
	for i := range int64(b.N) {
		k := i + 1000
		m[k] = int32(i)
		_ = m[k]
		_ = m[i+500]
		delete(m, i)
	}
}
