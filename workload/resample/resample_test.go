package resample

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

// trace builds a trace whose every user-week is recognisable: a job's
// Runtime is 1000*unit + its index in the unit, so an output job names
// the unit it was drawn from.
func trace() (jobs []actual.Job, unitSize map[int]int, active []int) {
	// week, user, offsets within the week
	spec := []struct {
		week int
		user int32
		offs []float64
	}{
		{0, 1, []float64{0, 10}},
		{0, 2, []float64{20}},
		{0, -1, []float64{30, 31, 32}},
		{1, 1, []float64{5}},
		{2, 3, []float64{100, 200}},
		{2, 1, []float64{150}},
	}
	unitSize = map[int]int{}
	active = []int{3, 1, 2}
	for u, s := range spec {
		for k, o := range s.offs {
			jobs = append(jobs, actual.Job{Submit: float64(s.week*Week) + o, Procs: 1 + u, Runtime: float64(1000*u + k), User: s.user})
		}
		unitSize[u] = len(s.offs)
	}
	// submit order
	for i := 1; i < len(jobs); i++ {
		for k := i; k > 0 && jobs[k].Submit < jobs[k-1].Submit; k-- {
			jobs[k], jobs[k-1] = jobs[k-1], jobs[k]
		}
	}
	for i := range jobs {
		jobs[i].ID = job.ID(i + 1)
	}
	return jobs, unitSize, active
}

func TestUserWeeksStructure(t *testing.T) {
	jobs, unitSize, active := trace()
	for seed := uint64(1); seed <= 50; seed++ {
		out, err := UserWeeks(jobs, rand.New(rand.NewPCG(seed, 7)))
		if err != nil {
			t.Fatal(err)
		}
		// per output week: jobs drawn from each unit; each draw brings
		// the unit's whole stream at its offsets
		perWeek := map[int]map[int]int{}
		for i, j := range out {
			if j.ID != job.ID(i+1) {
				t.Fatalf("seed %d: job %d has id %d, want %d", seed, i, j.ID, i+1)
			}
			if i > 0 && out[i-1].Submit > j.Submit {
				t.Fatalf("seed %d: not in submit order at %d", seed, i)
			}
			u, k := int(j.Runtime)/1000, int(j.Runtime)%1000
			if j.Procs != 1+u {
				t.Fatalf("seed %d: job %d lost its size", seed, i)
			}
			w := int(j.Submit / Week)
			off := j.Submit - float64(w*Week)
			// the unit's k-th job keeps its offset in the week
			var want float64
			for _, o := range jobs {
				if int(o.Runtime) == 1000*u+k {
					want = o.Submit - math.Floor(o.Submit/Week)*Week
				}
			}
			if off != want {
				t.Fatalf("seed %d: job from unit %d index %d at offset %g, want %g", seed, u, k, off, want)
			}
			if perWeek[w] == nil {
				perWeek[w] = map[int]int{}
			}
			perWeek[w][u]++
		}
		for w, a := range active {
			draws := 0
			for u, n := range perWeek[w] {
				if n%unitSize[u] != 0 {
					t.Fatalf("seed %d week %d: %d jobs of unit %d, not whole streams of %d", seed, w, n, u, unitSize[u])
				}
				draws += n / unitSize[u]
			}
			if draws != a {
				t.Fatalf("seed %d week %d: %d user-weeks drawn, want the week's %d active users", seed, w, draws, a)
			}
		}
	}
}

func TestUserWeeksDeterministic(t *testing.T) {
	jobs, _, _ := trace()
	a, _ := UserWeeks(jobs, rand.New(rand.NewPCG(3, 4)))
	b, _ := UserWeeks(jobs, rand.New(rand.NewPCG(3, 4)))
	if len(a) != len(b) {
		t.Fatal("same seed, different lengths")
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Fatalf("same seed, job %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
	differ := false
	for s := uint64(5); s < 15 && !differ; s++ {
		c, _ := UserWeeks(jobs, rand.New(rand.NewPCG(s, 4)))
		differ = len(c) != len(a)
		for i := 0; !differ && i < len(c); i++ {
			differ = !reflect.DeepEqual(c[i], a[i])
		}
	}
	if !differ {
		t.Fatal("ten other seeds all gave the first seed's trace")
	}
}

// The expected job count of a resampled trace is the trace's: there are
// as many draws as user-weeks, each of mean size jobs/units. With 9 jobs
// in 6 units (sizes 2,1,3,1,2,1: variance of a draw 4/9), 6 draws have a
// standard deviation of sqrt(6*4/9) = 1.63 jobs; over 4000 replications
// the mean's standard error is 0.026, and 0.15 is nearly 6 of them.
func TestUserWeeksUnbiasedCount(t *testing.T) {
	jobs, _, _ := trace()
	r := rand.New(rand.NewPCG(11, 12))
	const reps = 4000
	total := 0
	for range reps {
		out, err := UserWeeks(jobs, r)
		if err != nil {
			t.Fatal(err)
		}
		total += len(out)
	}
	if mean := float64(total) / reps; math.Abs(mean-float64(len(jobs))) > 0.15 {
		t.Fatalf("mean resampled job count %g, want %d +- 0.15", mean, len(jobs))
	}
}

func TestUserWeeksErrors(t *testing.T) {
	if _, err := UserWeeks(nil, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Fatal("no error for an empty trace")
	}
}
