package synth

import (
	"io"
	"math"
	"strings"
	"testing"
)

// The option checks name the keys; a valid workload gives exactly Jobs
// jobs in submit order, sizes by the rule, requests between runtime and
// 3x runtime, whole seconds, the same for the same seed.
func TestHafshejaniWorkload(t *testing.T) {
	ok := HafshejaniOptions{Procs: 64, Sizes: SizesPow2, SizeMin: 1, SizeMax: 32, Load: 0.9, Jobs: 2000}
	for _, c := range []struct {
		edit func(*HafshejaniOptions)
		want string
	}{
		{func(o *HafshejaniOptions) { o.SizeMin = 3 }, "must be powers of two"},
		{func(o *HafshejaniOptions) { o.SizeMax = 128 }, "workload.size_max 128: more than the machine's 64 CPUs"},
		{func(o *HafshejaniOptions) { o.SizeMin, o.SizeMax = 8, 4 }, "want 1 <= size_min <= size_max"},
		{func(o *HafshejaniOptions) { o.Load = 0 }, "workload.offered_load 0: want above 0"},
		{func(o *HafshejaniOptions) { o.Jobs = 0 }, "stop.completed 0"},
		{func(o *HafshejaniOptions) { o.Jobs = MaxHafshejaniJobs + 1 }, "stop.completed 100000001, want 1..100000000 (synth.MaxHafshejaniJobs)"},
		{func(o *HafshejaniOptions) { o.Sizes = "zipf" }, `workload.sizes "zipf"`},
	} {
		o := ok
		c.edit(&o)
		if err := o.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", o, err, c.want)
		}
	}
	draw := func(o HafshejaniOptions) (sizes map[int]int, last float64, ids []int64) {
		s, err := NewHafshejani(7, 0, o)
		if err != nil {
			t.Fatal(err)
		}
		sizes = map[int]int{}
		prev := 0.0
		for {
			j, err := s.Next()
			if err == io.EOF {
				return sizes, prev, ids
			}
			if err != nil {
				t.Fatal(err)
			}
			if j.Submit < prev || j.Runtime < 1 || j.Request < j.Runtime || j.Request > 3*j.Runtime+1 ||
				j.Runtime != math.Round(j.Runtime) || j.Submit != math.Round(j.Submit) || j.Estimate != j.Request {
				t.Fatalf("job %+v after submit %g", j, prev)
			}
			prev = j.Submit
			sizes[j.Procs]++
			ids = append(ids, int64(j.ID))
		}
	}
	sizes, _, ids := draw(ok)
	if len(ids) != 2000 || ids[1999] != 2000 {
		t.Fatalf("%d jobs", len(ids))
	}
	for p, n := range sizes {
		if p&(p-1) != 0 || p > 32 || n < 2000/6/2 {
			t.Errorf("size %d drawn %d times (want powers of two up to 32, about 333 each)", p, n)
		}
	}
	u := ok
	u.Sizes, u.SizeMin, u.SizeMax, u.Load = SizesUniform, 33, 64, 0.7
	sizes, _, _ = draw(u)
	for p := range sizes {
		if p < 33 || p > 64 {
			t.Errorf("uniform 33..64 drew %d", p)
		}
	}
	if len(sizes) < 30 {
		t.Errorf("uniform 33..64 drew %d distinct sizes in 2000 jobs", len(sizes))
	}
	_, a, _ := draw(ok)
	_, b, _ := draw(ok)
	if a != b {
		t.Errorf("same seed, last submit %g and %g", a, b)
	}
}
