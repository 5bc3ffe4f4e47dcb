package signal

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// 100 over [0, 10), 50 over [10, 30), 200 from 30 on.
func TestSignalByHand(t *testing.T) {
	s, err := Parse(strings.NewReader("time,value\n# a comment\n0,100\n10,50\n\n30,200\n"), "s.csv", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ at, want float64 }{{-5, 100}, {0, 100}, {9.5, 100}, {10, 50}, {29, 50}, {30, 200}, {1e9, 200}} {
		if got := s.At(c.at); got != c.want {
			t.Errorf("At(%g) = %g, want %g", c.at, got, c.want)
		}
	}
	// [5, 40]: 100x5 + 50x20 + 200x10 = 3500; [-2, 3]: 100x5; [12, 14]: 100.
	for _, c := range []struct{ a, b, want float64 }{{5, 40, 3500}, {-2, 3, 500}, {12, 14, 100}, {14, 12, 0}, {0, 30, 2000}} {
		if got := s.Integral(c.a, c.b); got != c.want {
			t.Errorf("Integral(%g, %g) = %g, want %g", c.a, c.b, got, c.want)
		}
	}
	for _, c := range []struct{ at, want float64 }{{0, 10}, {10, 30}, {29.9, 30}, {30, math.Inf(1)}} {
		if got := s.Next(c.at); got != c.want {
			t.Errorf("Next(%g) = %g, want %g", c.at, got, c.want)
		}
	}
	for _, c := range []struct{ a, b, low, at float64 }{{0, 5, 100, 0}, {0, 10, 50, 10}, {5, 100, 50, 10}, {12, 100, 50, 12}, {30, 50, 200, 30}} {
		if low, at := s.Lowest(c.a, c.b); low != c.low || at != c.at {
			t.Errorf("Lowest(%g, %g) = %g at %g, want %g at %g", c.a, c.b, low, at, c.low, c.at)
		}
	}
}

// A day of 300 over [0, 6), 100 over [6, 18), 300 over [18, 24)
// (hours as seconds), repeating.
func TestSignalPeriodic(t *testing.T) {
	s, err := Parse(strings.NewReader("0,300\n6,100\n18,300\nrepeat,24\n"), "day.csv", true)
	if err != nil {
		t.Fatal(err)
	}
	if s.At(30) != 100 || s.At(47.5) != 300 || s.At(48) != 300 || s.At(24*100+7) != 100 {
		t.Fatalf("At: %g %g %g %g", s.At(30), s.At(47.5), s.At(48), s.At(2407))
	}
	// A day: 300x6 + 100x12 + 300x6 = 4800. [3, 3 + 24x10 + 4]: from 3
	// to 243 is ten days, 48000; [243, 247] is 300x3 + 100x1 = 1000.
	if got := s.Integral(0, 24); got != 4800 {
		t.Errorf("a day: %g", got)
	}
	if got := s.Integral(3, 247); got != 49000 {
		t.Errorf("Integral(3, 247) = %g, want 49000", got)
	}
	// The change points: 6, 18, 30 (the day's end at 24 keeps 300).
	if n := s.Next(18); n != 30 {
		t.Errorf("Next(18) = %g, want 30", n)
	}
	if n := s.Next(20); n != 30 {
		t.Errorf("Next(20) = %g, want 30", n)
	}
	// From 20 (300): 100 first at 30 if the window reaches it.
	if low, at := s.Lowest(20, 29); low != 300 || at != 20 {
		t.Errorf("Lowest(20, 29) = %g at %g", low, at)
	}
	if low, at := s.Lowest(20, 1e6); low != 100 || at != 30 {
		t.Errorf("Lowest(20, 1e6) = %g at %g", low, at)
	}
	one, _ := Parse(strings.NewReader("0,5\nrepeat,10\n"), "one.csv", true)
	if !math.IsInf(one.Next(3), 1) || one.Integral(2, 37) != 175 {
		t.Errorf("one value: Next %g, Integral %g", one.Next(3), one.Integral(2, 37))
	}
}

// Integral against a sum over unit steps of a random signal with
// integer times (exact in floating point), periodic or not.
func TestIntegralAgainstUnitSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + r.IntN(8)
		ts, vs := []float64{0}, []float64{float64(r.IntN(9))}
		for len(ts) < n {
			ts = append(ts, ts[len(ts)-1]+float64(1+r.IntN(5)))
			vs = append(vs, float64(r.IntN(9)))
		}
		period := 0.0
		if trial%2 == 1 {
			period = ts[len(ts)-1] + float64(1+r.IntN(4))
		}
		s, err := New(ts, vs, period)
		if err != nil {
			t.Fatal(err)
		}
		at := func(u float64) float64 { // by the rows, unit by unit
			if period > 0 {
				u = math.Mod(u, period)
			}
			v := vs[0]
			for i := range ts {
				if ts[i] <= u {
					v = vs[i]
				}
			}
			return v
		}
		a := float64(r.IntN(60))
		b := a + float64(r.IntN(80))
		want := 0.0
		for u := a; u < b; u++ {
			want += at(u)
		}
		if got := s.Integral(a, b); got != want {
			t.Fatalf("trial %d %v %v period %g: Integral(%g, %g) = %g, want %g", trial, ts, vs, period, a, b, got, want)
		}
		low, first := at(a), a
		for u := a + 1; u <= b; u++ {
			if v := at(u); v < low {
				low, first = v, u
			}
		}
		if l, f := s.Lowest(a, b); l != low || f != first {
			t.Fatalf("trial %d %v %v period %g: Lowest(%g, %g) = %g at %g, want %g at %g", trial, ts, vs, period, a, b, l, f, low, first)
		}
		if got := s.At(b); got != at(b) {
			t.Fatalf("At(%g) = %g, want %g", b, got, at(b))
		}
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                                     "f.csv: no rows",
		"time,value\n":                         "f.csv: no rows",
		"5,1\n":                                "f.csv:1: field time: 5: the first row must be at 0",
		"0,1\n0,2\n":                           "f.csv:2: field time: 0 is not after the previous row's 0",
		"0,1\nx,2\n":                           "f.csv:2: field time: \"x\" is not a number",
		"0,1\n3,NaN\n":                         "f.csv:2: field value: \"NaN\" is not a number",
		"0,-1\n":                               "f.csv:1: field value: -1: want a value >= 0",
		"0,1\n3\n":                             "f.csv:2: \"3\": want two fields",
		"0,1,2\n":                              "want two fields",
		"time,val\n0,1\n":                      "f.csv:1: header",
		"0,1\nrepeat,0\n":                      "f.csv:2: field period",
		"0,1\n5,2\nrepeat,5\n":                 "f.csv:3: field period: 5 is not after",
		"0,1\nrepeat,9\n10,2\n":                "f.csv:3: a row after repeat (line 2)",
		"0,2e9\n":                              "magnitude at most",
		"0,1\n2e12,1\n":                        "at most 1e+12 s",
		"0," + strings.Repeat("1", 300) + "\n": "f.csv:1: line longer than 256 bytes",
	} {
		if _, err := Parse(strings.NewReader(in), "f.csv", true); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want an error with %q", in, err, want)
		}
	}
	if s, err := Parse(strings.NewReader("0,-3\r\n"), "p.csv", false); err != nil || s.At(0) != -3 {
		t.Errorf("a negative price: %v", err)
	}
	if _, err := ReadFile("/nonexistent/signal.csv", true); err == nil {
		t.Error("no error for a missing file")
	}
}
