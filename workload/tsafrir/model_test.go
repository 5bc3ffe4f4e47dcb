package tsafrir

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"testing"
)

func stream(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7a5f)) }

func mustNew(t *testing.T, p Params, seed uint64) *Model {
	t.Helper()
	m, err := New(p, stream(seed))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestHeadTimesHandWorked(t *testing.T) {
	const m, h = 60, 3600
	for _, c := range []struct {
		max  int64
		want []int64
	}{
		// 18 h: the 14 joint values below it, then 15 h (5 h steps),
		// 16 h, 14 h (2 h steps), 17 h, 13 h (1 h steps).
		{18 * h, []int64{18 * h, 5 * m, 10 * m, 15 * m, 20 * m, 30 * m, 1 * h, 2 * h, 3 * h, 4 * h, 5 * h, 6 * h, 8 * h, 10 * h, 12 * h, 13 * h, 14 * h, 15 * h, 16 * h, 17 * h}},
		// 4 h: 8 joint values; 20-minute steps down from 4 h add 3:40
		// 3:20 2:40 2:20 1:40 1:20 0:40; 10-minute steps add 3:50 3:30
		// 3:10 2:50, the 20th.
		{4 * h, []int64{4 * h, 5 * m, 10 * m, 15 * m, 20 * m, 30 * m, 40 * m, 1 * h, 80 * m, 100 * m, 2 * h, 140 * m, 160 * m, 170 * m, 3 * h, 190 * m, 200 * m, 210 * m, 220 * m, 230 * m}},
		// 1 h: every 5 minutes below it; only 12 values.
		{1 * h, []int64{1 * h, 5 * m, 10 * m, 15 * m, 20 * m, 25 * m, 30 * m, 35 * m, 40 * m, 45 * m, 50 * m, 55 * m}},
	} {
		got := headTimes(c.max)
		if !slices.Equal(got, c.want) {
			t.Errorf("max %d: head %v, want %v", c.max, got, c.want)
		}
	}
}

// rank2to20 are the published head shares of popularity ranks 2..20,
// 14.0491 exp(-0.177531 x) + 0.462513 percent, worked out to 6 places.
var rank2to20 = []float64{10.312758, 8.710468, 7.368815, 6.245402, 5.304728, 4.51707, 3.857535, 3.305284, 2.842865, 2.455665, 2.131449, 1.859972, 1.632654, 1.442313, 1.282934, 1.14948, 1.037735, 0.944166, 0.865818}

func TestHandWorkedProbabilities(t *testing.T) {
	// 18 h and 21 values: the 20 head values of TestHeadTimesHandWorked
	// and one tail value. The ranks 2..20 sum to 67.267112%, so the
	// maximum gets 89 - 67.267112 = 21.732888%. The tail value is at
	// relative rank x = 1, i.e. 18 h itself, taken, so it moves by +30 s
	// (above the maximum: refused) then -30 s: 17:59:30 = 64,770 s, with
	// all of the tail's 11%.
	for seed := uint64(1); seed <= 20; seed++ {
		p := Default()
		p.Values = 21
		m := mustNew(t, p, seed)
		vs := m.Values()
		if len(vs) != 21 {
			t.Fatalf("%d values, want 21", len(vs))
		}
		var others []float64
		for _, v := range vs {
			switch {
			case v.Seconds == 64800:
				if !v.Head || math.Abs(v.Prob-0.21732888) > 1e-8 {
					t.Errorf("seed %d: the maximum %+v, want 0.21732888 in the head", seed, v)
				}
			case v.Seconds == 64770:
				if v.Head || math.Abs(v.Prob-0.11) > 1e-12 {
					t.Errorf("seed %d: the tail value %+v, want 0.11 outside the head", seed, v)
				}
			default:
				if !v.Head {
					t.Errorf("seed %d: unexpected tail value %+v", seed, v)
				}
				others = append(others, v.Prob*100)
			}
		}
		slices.Sort(others)
		want := slices.Clone(rank2to20)
		slices.Sort(want)
		for i := range want {
			if math.Abs(others[i]-want[i]) > 1e-6 {
				t.Fatalf("seed %d: head shares %v, want %v in some order", seed, others, want)
			}
		}
	}
}

func TestMaxPercentScalesTheHead(t *testing.T) {
	// MaxPercent 30: the maximum gets 30%, ranks 2..20 are scaled by
	// (89-30)/67.267112 = 0.877100 so the head keeps 89%; rank 2
	// becomes 10.312758 x 0.877100 = 9.045322%.
	p := Default()
	p.Values = 21
	p.MaxPercent = 30
	m := mustNew(t, p, 7)
	head, max2 := 0.0, 0.0
	for _, v := range m.Values() {
		if v.Head {
			head += v.Prob
		}
		if v.Seconds == 64800 && v.Prob != 0.30 {
			t.Errorf("the maximum has %g, want 0.30", v.Prob)
		}
		if v.Seconds != 64800 && v.Head {
			max2 = math.Max(max2, v.Prob)
		}
	}
	if math.Abs(head-0.89) > 1e-12 || math.Abs(max2-0.09045322) > 1e-8 {
		t.Errorf("head %g (want 0.89), largest non-maximum %g (want 0.09045322)", head, max2)
	}

	// A share below rank 2's makes the maximum rank 2 or lower; its value
	// still gets exactly that share.
	p.MaxPercent = 5
	m = mustNew(t, p, 7)
	if v := m.Values(); v[len(v)-1].Prob != 0.05 {
		t.Errorf("the maximum has %g, want 0.05", v[len(v)-1].Prob)
	}
}

func TestTwoTailValues(t *testing.T) {
	// 22 values: K = 22 gives a = 1 + 12.1039 x 22^-0.6026 = 2.879236;
	// x = 1/2 maps to (a-1)/2/(a-1/2) = 0.394924 of 18 h = 426.52 min,
	// rounded to 427 min = 25,620 s; x = 1 gives 64,770 s as above.
	// Shares: 21^-2.267 : 22^-2.267 of 11%, the larger to either value.
	p := Default()
	p.Values = 22
	s21, s22 := math.Pow(21, -2.267), math.Pow(22, -2.267)
	big, small := 0.11*s21/(s21+s22), 0.11*s22/(s21+s22)
	seen := map[bool]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		var tail []Value
		for _, v := range mustNew(t, p, seed).Values() {
			if !v.Head {
				tail = append(tail, v)
			}
		}
		if len(tail) != 2 || tail[0].Seconds != 25620 || tail[1].Seconds != 64770 {
			t.Fatalf("tail %+v, want 25620 s and 64770 s", tail)
		}
		a, b := tail[0].Prob, tail[1].Prob
		ok := (math.Abs(a-big) < 1e-12 && math.Abs(b-small) < 1e-12) || (math.Abs(a-small) < 1e-12 && math.Abs(b-big) < 1e-12)
		if !ok {
			t.Fatalf("tail shares %g %g, want %g and %g", a, b, big, small)
		}
		seen[a > b] = true
	}
	if len(seen) != 2 {
		t.Errorf("20 seeds never matched the tail shares both ways: the match is not random")
	}
}

func TestNumberOfValues(t *testing.T) {
	for _, c := range []struct {
		jobs  int
		power bool
		want  int
	}{
		{10_000, false, 90},  // a point of the fit
		{50_000, false, 257}, // 90 + 40,000 x 250/60,000 = 256.67
		{1_000_000, false, 565},
		{100, false, 21},    // 10 + 80 x 10/180 = 14, raised to 21
		{10_000, true, 101}, // 0.653566 x 10,000^0.547761 = 101.47
	} {
		p := Default()
		p.Jobs, p.ValuesPower = c.jobs, c.power
		if got := len(mustNew(t, p, 1).Values()); got != c.want {
			t.Errorf("jobs %d power %v: %d values, want %d", c.jobs, c.power, got, c.want)
		}
	}
}

func TestPublishedHistogramShape(t *testing.T) {
	// The paper: the 20 most popular values serve about 90% of the jobs
	// (the fit's 89%), and the maximum is the most popular value. These
	// hold exactly of the histogram, for every maximum and seed.
	for _, max := range []float64{2 * 3600, 4 * 3600, 18 * 3600, 36 * 3600, 120 * 3600} {
		for seed := uint64(1); seed <= 5; seed++ {
			p := Default()
			p.MaxEstimate = max
			vs := mustNew(t, p, seed).Values()
			probs := make([]float64, len(vs))
			head, sum := 0.0, 0.0
			for i, v := range vs {
				probs[i] = v.Prob
				sum += v.Prob
				if v.Head {
					head += v.Prob
				}
				if !(v.Prob > 0) || (i > 0 && v.Seconds <= vs[i-1].Seconds) || v.Seconds > max {
					t.Fatalf("max %g: bad value %+v", max, v)
				}
			}
			slices.Sort(probs)
			top20 := 0.0
			for _, q := range probs[len(probs)-20:] {
				top20 += q
			}
			last := vs[len(vs)-1]
			if math.Abs(sum-1) > 1e-12 || math.Abs(head-0.89) > 1e-12 || math.Abs(top20-0.89) > 1e-12 {
				t.Errorf("max %g: sum %g, head %g, top 20 %g; want 1, 0.89, 0.89", max, sum, head, top20)
			}
			if last.Seconds != max || last.Prob != probs[len(probs)-1] || math.Abs(last.Prob-0.21732888) > 1e-8 {
				t.Errorf("max %g: the maximum %+v is not the most popular value at 21.73%%", max, last)
			}
		}
	}
}

func TestPopRanks(t *testing.T) {
	// Whatever the draws: a permutation; the maximum gets its rank; each
	// time rank gets a rank the logs show at that time rank or earlier.
	firstSeen := map[int]int{}
	for tr := Top - 1; tr >= 0; tr-- {
		for _, p := range timeToPop[tr] {
			firstSeen[p] = tr
		}
	}
	for seed := uint64(0); seed < 300; seed++ {
		for _, c := range []struct {
			maxRank  int
			reserved bool
			h        int
		}{{1, false, Top}, {4, true, Top}, {1, false, 12}, {3, true, 12}} {
			got := popRanks(c.maxRank, c.reserved, c.h, stream(seed))
			if len(got) != c.h || got[0] != c.maxRank {
				t.Fatalf("%+v: %v", c, got)
			}
			s := slices.Sorted(slices.Values(got))
			for i, p := range s {
				if p != i+1 {
					t.Fatalf("%+v: %v is not a permutation of 1..%d", c, got, c.h)
				}
			}
			if c.h == Top {
				for tr, p := range got {
					if firstSeen[p] > tr && !(tr == 0) {
						t.Fatalf("%+v: time rank %d got rank %d, first seen at %d", c, tr, p, firstSeen[p])
					}
				}
			}
		}
	}
}

func TestSmallMaximum(t *testing.T) {
	// 1 h: a head of 12 values; shares of ranks 1..12 (rank 1 = 89% minus
	// ranks 2..12), every one of them a 5-minute multiple.
	p := Default()
	p.MaxEstimate = 3600
	vs := mustNew(t, p, 3).Values()
	head, n := 0.0, 0
	for _, v := range vs {
		if v.Head {
			head += v.Prob
			n++
			if int(v.Seconds)%300 != 0 {
				t.Errorf("head value %g is not a 5-minute multiple", v.Seconds)
			}
		}
	}
	want := 89 - sum(rank2to20[:11])
	if n != 12 || math.Abs(head-0.89) > 1e-12 || math.Abs(vs[len(vs)-1].Prob-want/100) > 1e-8 {
		t.Errorf("%d head values with %g, maximum %g; want 12, 0.89, %g", n, head, vs[len(vs)-1].Prob, want/100)
	}
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestCheckNamesTheField(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		field string
		set   func(*Params)
	}{
		{"MaxEstimate", func(p *Params) { p.MaxEstimate = 1800 }},
		{"MaxEstimate", func(p *Params) { p.MaxEstimate = 3600.5 }},
		{"MaxEstimate", func(p *Params) { p.MaxEstimate = nan }},
		{"MaxEstimate", func(p *Params) { p.MaxEstimate = MaxMaxEstimate + 1 }},
		{"MaxPercent", func(p *Params) { p.MaxPercent = 89 }},
		{"MaxPercent", func(p *Params) { p.MaxPercent = -1 }},
		{"Jobs", func(p *Params) { p.Jobs = 0 }},
		{"Jobs", func(p *Params) { p.Jobs = MaxJobs + 1 }},
		{"Values", func(p *Params) { p.Values = 20 }},
		{"Values", func(p *Params) { p.Values = MaxValues + 1 }},
		{"PowerA", func(p *Params) { p.ValuesPower, p.PowerA = true, 0 }},
		{"Jobs", func(p *Params) { p.ValuesPower, p.Jobs, p.PowerA, p.PowerB = true, MaxJobs, 1000, 1 }},
		{"HeadPercent", func(p *Params) { p.HeadPercent = 100 }},
		{"HeadPercent", func(p *Params) { p.HeadPercent = 60 }}, // ranks 2..20 alone take 67%
		{"HeadA", func(p *Params) { p.HeadA = nan }},
		{"HeadA", func(p *Params) { p.HeadA, p.HeadC = -1, 0 }},
		{"TailB", func(p *Params) { p.TailB = 21 }},
		{"TailB", func(p *Params) { p.TailB = nan }},
		{"TimeA", func(p *Params) { p.TimeA = 1 }},
	} {
		p := Default()
		c.set(&p)
		err := p.Check()
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: error %v, want one naming it", c.field, err)
		}
		if _, err2 := New(p, stream(1)); err2 == nil {
			t.Errorf("%s: New accepted %+v", c.field, p)
		}
	}
	if err := Default().Check(); err != nil {
		t.Errorf("the defaults fail: %v", err)
	}
	p := Default()
	p.MaxEstimate, p.TailB = 0, 99
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "MaxEstimate") || !strings.Contains(err.Error(), "TailB") {
		t.Errorf("want both problems listed, got %v", err)
	}
	if _, err := New(Default(), nil); err == nil || !strings.Contains(err.Error(), "r") {
		t.Errorf("nil stream: %v", err)
	}
}

func TestModelDeterministic(t *testing.T) {
	a, b := mustNew(t, Default(), 42), mustNew(t, Default(), 42)
	if !slices.Equal(a.Values(), b.Values()) {
		t.Fatal("same seed, different histograms")
	}
	if slices.Equal(a.Values(), mustNew(t, Default(), 43).Values()) {
		t.Error("seeds 42 and 43 gave the same histogram: the draws are not used")
	}
	ra, rb := stream(9), stream(9)
	for i := range 1000 {
		rt := float64(i * 61)
		if x, y := a.Request(rt, ra), b.Request(rt, rb); x != y {
			t.Fatalf("job %d: %g vs %g with the same stream", i, x, y)
		}
	}
}
