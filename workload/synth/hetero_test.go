package synth

import (
	"io"
	"math"
	"testing"

	"github.com/schedlab/schedlab/platform"
)

func TestPaperMachines(t *testing.T) {
	p, err := Machines(1, 0, PaperMachines())
	if err != nil {
		t.Fatal(err)
	}
	if p.Machines() != 150 {
		t.Fatalf("%d machines", p.Machines())
	}
	for m := 0; m < p.Machines(); m++ {
		mc := p.Machine(m)
		if mc.CPUs < 1 || mc.CPUs > 16 || mc.Speed < 200 || mc.Speed > 600 || mc.Speed != math.Trunc(mc.Speed) {
			t.Fatalf("machine %d: %+v", m, mc)
		}
	}
	q, _ := Machines(1, 0, PaperMachines())
	r, _ := Machines(1, 1, PaperMachines())
	same, diff := true, false
	for m := 0; m < 150; m++ {
		same = same && p.Machine(m) == q.Machine(m)
		diff = diff || p.Machine(m) != r.Machine(m)
	}
	if !same || !diff {
		t.Fatalf("same seed and replication must give the same machines (%v), another replication others (%v)", same, diff)
	}
}

// The paper's attributes: Req 1..8, Estimated 500..3000 integers, 70% with
// a deadline at submit + s x Estimated with s in [2, 4]; exact runtimes;
// mean inter-arrival as asked. Tolerances: 30,000 jobs, the sample mean of
// a uniform on 1..8 has standard error 2.3/sqrt(30000) = 0.013; we allow
// 0.05 (about 4 standard errors) and likewise for the others.
func TestHeteroJobs(t *testing.T) {
	p, _ := Machines(2, 0, PaperMachines())
	o := PaperJobs(3)
	o.Jobs = 30000
	h, err := NewHetero(2, 0, o, p)
	if err != nil {
		t.Fatal(err)
	}
	var n, withDL int
	var sumReq, sumEst, sumBM, last float64
	for {
		j, err := h.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		if j.Procs < 1 || j.Procs > 8 || j.Estimate < 500 || j.Estimate > 3000 || j.Estimate != math.Trunc(j.Estimate) || j.Runtime != j.Estimate {
			t.Fatalf("job %+v", j)
		}
		if j.BMEst < 200 || j.BMEst > 600 || j.Submit < last {
			t.Fatalf("job %+v after %g", j, last)
		}
		if j.Deadline != 0 {
			withDL++
			s := (j.Deadline - j.Submit) / j.Estimate
			if s < 2-1e-9 || s > 4+1e-9 {
				t.Fatalf("deadline factor %g", s)
			}
		}
		last = j.Submit
		sumReq += float64(j.Procs)
		sumEst += j.Estimate
		sumBM += j.BMEst
	}
	if n != 30000 {
		t.Fatalf("%d jobs", n)
	}
	check := func(name string, got, want, tol float64) {
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %g, want %g ± %g", name, got, want, tol)
		}
	}
	check("mean Req", sumReq/float64(n), 4.5, 0.05)
	check("mean Estimated", sumEst/float64(n), 1750, 15)
	check("mean BM_est", sumBM/float64(n), 400, 3)
	check("deadline fraction", float64(withDL)/float64(n), 0.7, 0.01)
	check("mean inter-arrival", last/float64(n), 3, 0.06)
}

// Offered load, hand-worked on two machines (2 CPUs at 300, 4 at 100;
// capacity 2x300 + 4x100 = 1000 per second): jobs of 1..2 CPUs (mean 1.5),
// Estimated 100..300 (mean 200), BM_est 200 (min rule), one per 2 s:
// 1.5 x 200 x 200 / (2 x 1000) = 30.
func TestOfferedLoad(t *testing.T) {
	p := platform.Platform{}
	var err error
	if p, err = platform.New([]platform.Machine{{CPUs: 2, Speed: 300}, {CPUs: 4, Speed: 100}}); err != nil {
		t.Fatal(err)
	}
	o := HeteroOptions{Jobs: 1, MeanInterarrival: 2, CPUsMin: 1, CPUsMax: 2, EstMin: 100, EstMax: 300, SMin: 2, SMax: 4,
		BMEst: BMEstMin, BMMin: 200, BMMax: 600}
	if got := OfferedLoad(o, p); math.Abs(got-30) > 1e-12 {
		t.Fatalf("offered load %g, want 30", got)
	}
	// The paper's setup at mean inter-arrival 5 with BM_est uniform on
	// 200..600: E[Req] E[Est] E[BM] / (5 x 150 x 8.5 x 400) = 1.235 for the
	// expected platform; a drawn platform is within a few percent.
	pm, _ := Machines(1, 0, PaperMachines())
	if got := OfferedLoad(PaperJobs(5), pm); math.Abs(got-1.235) > 0.1 {
		t.Fatalf("paper offered load at 5: %g", got)
	}
}

func TestHeteroOptionErrors(t *testing.T) {
	o := PaperJobs(0)
	o.Jobs = 0
	if _, err := NewHetero(1, 0, o, platform.MustCluster(4)); err == nil {
		t.Fatal("want an error")
	}
	if _, err := Machines(1, 0, MachineOptions{N: 2, CPUsMin: 1, CPUsMax: 1 << 30, SpeedMin: 1, SpeedMax: 1}); err == nil {
		t.Fatal("want a size error")
	}
	if _, err := ParseBMEst("nope"); err == nil {
		t.Fatal("want an error")
	}
}
