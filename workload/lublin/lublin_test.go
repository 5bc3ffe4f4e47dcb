package lublin

import (
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"gonum.org/v1/gonum/mathext"
)

// Every job of every machine size and both classes keeps the promises:
// ids 1..N, submit times nondecreasing whole seconds, 1 <= procs <= P,
// whole-second runtimes >= 1, request = estimate >= runtime.
func TestInvariants(t *testing.T) {
	for _, c := range Classes() {
		for _, procs := range []int{1, 2, 3, 7, 100, 128, 1000, 1 << 20} {
			p := For(c, procs)
			p.Jobs = 3000
			p.Users = 5
			p.Request = func(run float64, r *rand.Rand) float64 { return run * (1 + r.Float64()) }
			jobs := generate(t, p, 1, 0)
			if len(jobs) != p.Jobs {
				t.Fatalf("%v %d: %d jobs, want %d", c, procs, len(jobs), p.Jobs)
			}
			last := 0.0
			for i, j := range jobs {
				switch {
				case int(j.ID) != i+1:
					t.Fatalf("%v %d: job %d has id %d", c, procs, i+1, j.ID)
				case j.Submit < last || j.Submit != math.Round(j.Submit):
					t.Fatalf("%v %d: job %d submit %v after %v", c, procs, j.ID, j.Submit, last)
				case j.Procs < 1 || j.Procs > procs:
					t.Fatalf("%v %d: job %d has %d processors", c, procs, j.ID, j.Procs)
				case !(j.Runtime >= 1) || j.Runtime != math.Round(j.Runtime):
					t.Fatalf("%v %d: job %d runtime %v", c, procs, j.ID, j.Runtime)
				case !(j.Request >= j.Runtime) || j.Estimate != j.Request:
					t.Fatalf("%v %d: job %d runtime %v request %v estimate %v", c, procs, j.ID, j.Runtime, j.Request, j.Estimate)
				case j.User < 1 || j.User > 5 || j.Group != -1:
					t.Fatalf("%v %d: job %d user %d group %d", c, procs, j.ID, j.User, j.Group)
				}
				last = j.Submit
			}
		}
	}
}

// Small machines: one processor makes every job serial; two make every
// parallel job 2 (ULow, UMed, UHi all clamped to log2 2 = 1).
func TestSmallMachines(t *testing.T) {
	p := Default(1)
	p.Jobs = 2000
	for _, j := range generate(t, p, 3, 0) {
		if j.Procs != 1 {
			t.Fatalf("1 processor: job %d has %d", j.ID, j.Procs)
		}
	}
	p = Default(2)
	p.Jobs = 2000
	if p.ULow != 1 || p.UMed != 1 || p.UHi != 1 {
		t.Fatalf("Default(2): ULow, UMed, UHi = %v, %v, %v, want 1, 1, 1", p.ULow, p.UMed, p.UHi)
	}
	two := 0
	for _, j := range generate(t, p, 3, 0) {
		if j.Procs == 2 {
			two++
		}
	}
	checkProp(t, "2-processor jobs on 2 processors", float64(two), 2000, 1-p.SerialProb)
}

// The published sets at 128 processors are the program's values.
func TestPublishedValues(t *testing.T) {
	b := Default(128)
	if b.Class != Batch || b.SerialProb != 0.2927 || b.Pow2Prob != 0.6686 || b.ULow != 1.2 || b.UMed != 5 || b.UHi != 7 || b.UProb != 0.875 ||
		b.A1 != 6.57 || b.B1 != 0.823 || b.A2 != 639.1 || b.B2 != 0.0156 || b.PA != -0.003 || b.PB != 0.6986 ||
		b.AArr != 6.0415 || b.BArr != 0.8531 || b.ARAR != 1.0519 || b.ANum != 6.1271 || b.BNum != 5.2740 {
		t.Errorf("Default(128) = %+v", b)
	}
	i := For(Interactive, 128)
	if i.SerialProb != 0.1541 || i.Pow2Prob != 0.625 || i.ULow != 1 || i.UMed != 3 || i.UHi != 5.5 || i.UProb != 0.705 ||
		i.A1 != 3.8351 || i.B1 != 0.6605 || i.A2 != 7.073 || i.B2 != 0.6856 || i.PA != -0.0118 || i.PB != 0.9156 ||
		i.AArr != 6.5510 || i.BArr != 0.6621 || i.ARAR != 0.9797 || i.ANum != 8.9186 || i.BNum != 3.6680 {
		t.Errorf("For(Interactive, 128) = %+v", i)
	}
	if c, err := ParseClass("interactive"); err != nil || c != Interactive {
		t.Errorf("ParseClass: %v %v", c, err)
	}
	if _, err := ParseClass("mixed"); err == nil || !strings.Contains(err.Error(), "known: batch, interactive") {
		t.Errorf("ParseClass(mixed): %v", err)
	}
}

// Same seed and replication: the same jobs; another replication or seed:
// other jobs.
func TestDeterminism(t *testing.T) {
	p := Default(128)
	p.Jobs = 5000
	p.Users = 50
	p.Request = func(run float64, r *rand.Rand) float64 { return math.Ceil(run * (1 + 3*r.Float64())) }
	a, b := generate(t, p, 42, 3), generate(t, p, 42, 3)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed and replication, different jobs")
	}
	for _, other := range [][]actual.Job{generate(t, p, 42, 4), generate(t, p, 43, 3)} {
		same := 0
		for i := range a {
			if a[i].Runtime == other[i].Runtime {
				same++
			}
		}
		// Equal runtimes by chance: well under 5% (whole seconds
		// spread over e^0..e^12).
		if same > len(a)/20 {
			t.Errorf("another replication or seed: %d of %d runtimes equal", same, len(a))
		}
	}
}

// Common random numbers: the streams are separate, so scaling runtimes
// leaves sizes and submit times as they were and every runtime within
// rounding of the factor times the old one; adding users or a request
// model changes neither.
func TestStreamsIndependent(t *testing.T) {
	p := Default(128)
	p.Jobs = 5000
	base := generate(t, p, 9, 0)
	q := p
	q.RuntimeFactor = 2
	q.Users = 10
	q.Request = func(run float64, r *rand.Rand) float64 { return run + r.Float64()*100 }
	scaled := generate(t, q, 9, 0)
	for i := range base {
		a, b := base[i], scaled[i]
		if a.Submit != b.Submit || a.Procs != b.Procs {
			t.Fatalf("job %d: submit/procs %v/%d became %v/%d", a.ID, a.Submit, a.Procs, b.Submit, b.Procs)
		}
		if math.Abs(b.Runtime-2*a.Runtime) > 1 {
			t.Fatalf("job %d: runtime %v at factor 1, %v at factor 2", a.ID, a.Runtime, b.Runtime)
		}
	}
	// The arrival factor scales model time: without the daily cycle,
	// every submit time is the old one times the factor, up to the
	// rounding of both to whole seconds.
	p.DailyCycle = false
	q = p
	q.ArrivalFactor = 3
	x, y := generate(t, p, 9, 0), generate(t, q, 9, 0)
	for i := range x {
		if math.Abs(y[i].Submit-3*x[i].Submit) > 2 || x[i].Runtime != y[i].Runtime {
			t.Fatalf("job %d: submit %v at factor 1, %v at factor 3", x[i].ID, x[i].Submit, y[i].Submit)
		}
	}
}

// Without the daily cycle the mean inter-arrival time is
// E[exp(G) | G <= 13], G ~ Gamma(AArr·ARAR, BArr) (= (1-b)^-a ·
// P(a, 13(1-b)/b) / P(a, 13/b)); the mean work of a job is
// Σ P(n)·n·(p(n)·T1 + (1-p(n))·T2) with the runtime Gammas' truncated
// means T1, T2. Both within 5 SE of a 50,000-job sample; and the
// package's MeanInterarrival, ExpectedWork and OfferedLoad agree with
// these formulas to 1e-9.
func TestArrivalRateAndWork(t *testing.T) {
	p := Default(128)
	p.Jobs = shapeJobs
	p.DailyCycle = false
	wantIA := truncMeanExp(p.AArr*p.ARAR, p.BArr, MaxLogInterarrival)
	t1, t2 := truncMeanExp(p.A1, p.B1, MaxLogRuntime), truncMeanExp(p.A2, p.B2, MaxLogRuntime)
	wantWork := 0.0
	for n, q := range sizePMF(p) {
		pn := clamp01(p.PA*float64(n) + p.PB)
		wantWork += q * float64(n) * (pn*t1 + (1-pn)*t2)
	}
	if got := p.MeanInterarrival(); math.Abs(got-wantIA) > 1e-9*wantIA {
		t.Errorf("MeanInterarrival %v, want %v", got, wantIA)
	}
	if got := p.ExpectedWork(); math.Abs(got-wantWork) > 1e-9*wantWork {
		t.Errorf("ExpectedWork %v, want %v", got, wantWork)
	}
	wantLoad := wantWork / (128 * wantIA)
	if got := p.OfferedLoad(); math.Abs(got-wantLoad) > 1e-9 {
		t.Errorf("OfferedLoad %v, want %v", got, wantLoad)
	}
	t.Logf("batch, 128 processors: mean inter-arrival %.1f s, work %.0f processor-s, offered load %.4f", wantIA, wantWork, wantLoad)

	jobs := generate(t, p, 77, 0)
	gaps := make([]float64, len(jobs))
	work := make([]float64, len(jobs))
	prev := 0.0
	for i, j := range jobs {
		gaps[i] = j.Submit - prev
		prev = j.Submit
		work[i] = float64(j.Procs) * j.Runtime
	}
	m, sd := meanSD(gaps)
	checkNear(t, "mean inter-arrival time", m, wantIA, 5*sd/math.Sqrt(float64(len(gaps))))
	m, sd = meanSD(work)
	checkNear(t, "mean work per job", m, wantWork, 5*sd/math.Sqrt(float64(len(work))))
}

// A target load sets the arrival factor so that OfferedLoad is the
// target, and the sample's mean inter-arrival time follows.
func TestTargetLoad(t *testing.T) {
	p := Default(128)
	p.Load = 0.8
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	if got := p.OfferedLoad(); math.Abs(got-0.8) > 1e-12 {
		t.Errorf("OfferedLoad with Load 0.8: %v", got)
	}
	q := Default(128)
	f := q.OfferedLoad() / 0.8
	s, err := New(p, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.ArrivalFactor()-f) > 1e-12*f {
		t.Errorf("arrival factor %v, want %v (default load / target)", s.ArrivalFactor(), f)
	}
	p.ArrivalFactor = 2
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "leave ArrivalFactor at 1") {
		t.Errorf("Load with ArrivalFactor 2: %v", err)
	}
}

// With the daily cycle, the share of arrivals in each six-hour quarter
// of the day is the quarter's share of the slot weights: slot k (from
// k·30 min) has weight P(i-0.5 < Y <= i+0.5), Y ~ Gamma(ANum, BNum),
// for the slot number i in 11..58 with (i-1) mod 48 = k. The tolerance
// is 5 standard errors from 25 batch means of 2,000 consecutive jobs
// (each about 80 days long, so the batches are close to independent).
func TestDailyCycle(t *testing.T) {
	p := Default(128)
	p.Jobs = shapeJobs
	var w [48]float64
	total := 0.0
	for i := 11; i <= 58; i++ {
		w[(i-1)%48] = mathext.GammaIncReg(p.ANum, (float64(i)+0.5)/p.BNum) - mathext.GammaIncReg(p.ANum, (float64(i)-0.5)/p.BNum)
		total += w[(i-1)%48]
	}
	var want [4]float64
	for k := range w {
		want[k/12] += w[k] / total
	}
	t.Logf("expected shares of 00-06, 06-12, 12-18, 18-24 h: %.4f", want)
	if !(want[2] > 2*want[0]) {
		t.Fatalf("the afternoon should be busier than the night: %v", want)
	}
	jobs := generate(t, p, 5, 0)
	const batches, per = 25, shapeJobs / 25
	for q := 0; q < 4; q++ {
		shares := make([]float64, batches)
		for b := range shares {
			for _, j := range jobs[b*per : (b+1)*per] {
				if int(math.Mod(j.Submit, 86400)/21600) == q {
					shares[b]++
				}
			}
			shares[b] /= per
		}
		m, sd := meanSD(shares)
		checkNear(t, "arrival share of quarter "+string(rune('0'+q)), m, want[q], 5*sd/math.Sqrt(batches))
	}
	// Off: every quarter has a quarter of the arrivals (batch means
	// again: arrivals come in bursts, so counts vary more than a
	// binomial's).
	p.DailyCycle = false
	jobs = generate(t, p, 5, 0)
	shares := make([]float64, batches)
	for b := range shares {
		for _, j := range jobs[b*per : (b+1)*per] {
			if math.Mod(j.Submit, 86400) < 21600 {
				shares[b]++
			}
		}
		shares[b] /= per
	}
	m, sd := meanSD(shares)
	checkNear(t, "night share without the cycle", m, 0.25, 5*sd/math.Sqrt(batches))
}

// Users: ids 1..U with P(k) ∝ 1/k; user 1 has 1/H_U of the jobs.
func TestUsersZipf(t *testing.T) {
	p := Default(128)
	p.Jobs = 20000
	p.Users = 10
	h := 0.0
	for k := 1; k <= 10; k++ {
		h += 1 / float64(k)
	}
	counts := map[int32]int{}
	for _, j := range generate(t, p, 8, 0) {
		counts[j.User]++
	}
	checkProp(t, "user 1", float64(counts[1]), 20000, 1/h)
	checkProp(t, "user 10", float64(counts[10]), 20000, 0.1/h)
	p.Users = 0
	for _, j := range generate(t, p, 8, 0)[:100] {
		if j.User != -1 {
			t.Fatalf("Users 0: user %d", j.User)
		}
	}
}

// A request model that gives less than the runtime stops the source
// with an error naming the job.
func TestRequestBelowRuntime(t *testing.T) {
	p := Default(128)
	p.Request = func(run float64, r *rand.Rand) float64 { return run - 1 }
	s, err := New(p, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Next()
	if err == nil || !strings.Contains(err.Error(), "job 1: the request model gave") {
		t.Fatalf("request below runtime: %v", err)
	}
	p.Request = func(float64, *rand.Rand) float64 { return math.NaN() }
	s, _ = New(p, 1, 0)
	if _, err := s.Next(); err == nil {
		t.Fatal("NaN request accepted")
	}
	// Exhausted: io.EOF, again and again.
	p = Default(4)
	p.Jobs = 1
	s, _ = New(p, 1, 0)
	if _, err := s.Next(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := s.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("after the last job: %v", err)
		}
	}
}

// Check names every bad field at once.
func TestCheck(t *testing.T) {
	p := Default(128)
	p.Procs = 0
	p.Jobs = MaxJobs + 1
	p.ArrivalFactor = math.NaN()
	p.RuntimeFactor = -1
	p.Users = -3
	p.StartHour = 24
	p.SerialProb = 1.5
	p.A2 = 0
	err := p.Check()
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("Check: %v", err)
	}
	var fields []string
	for _, pr := range ce.Problems {
		fields = append(fields, pr.Field)
	}
	want := []string{"Procs", "Jobs", "ArrivalFactor", "RuntimeFactor", "StartHour", "Users", "SerialProb", "Pow2Prob", "A2"}
	if !reflect.DeepEqual(fields, want) {
		t.Errorf("fields %v, want %v (%v)", fields, want, err)
	}
	for _, c := range []struct {
		edit func(*Params)
		msg  string
	}{
		{func(p *Params) { p.UHi = 8 }, "UHi 8: more than log2(Procs) = 7"},
		{func(p *Params) { p.UMed = 0.5 }, "ULow 1.2 (UMed 0.5, UHi 7): want 0 <= ULow <= UMed <= UHi"},
		{func(p *Params) { p.A2, p.B2 = 1000, 1 }, "A2 1000 (with B2 1): Gamma(1000, 1) has only"},
		{func(p *Params) { p.Load = 1e-9 }, "Load 1e-09: needs an arrival factor of"},
		{func(p *Params) { p.Load = math.Inf(1) }, "Load +Inf: want 0 (none)"},
		{func(p *Params) { p.Users = MaxUsers + 1 }, "Users 1048577: want 0 (no users) ..1048576"},
	} {
		p := Default(128)
		c.edit(&p)
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("want %q, got %v", c.msg, err)
		}
		if _, err := New(p, 1, 0); err == nil {
			t.Errorf("New accepted what Check refuses (%q)", c.msg)
		}
	}
}
