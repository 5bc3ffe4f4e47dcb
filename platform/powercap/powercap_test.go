package powercap

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestParseSteps(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		in           string
		times, watts []float64
		max          float64
	}{
		{"15000", []float64{0}, []float64{15000}, 15000},
		{"15000@0-86400,12000@86400-172800", []float64{0, 86400, 172800}, []float64{15000, 12000, inf}, inf},
		{"20000, 12000@3600-7200", []float64{0, 3600, 7200}, []float64{20000, 12000, 20000}, 20000},
		{"12000@7200-9000,12000@3600-7200", []float64{0, 3600, 9000}, []float64{inf, 12000, inf}, inf}, // sorted, merged
		{"5000@10-20,5000", []float64{0}, []float64{5000}, 5000},                                       // the window is the default
	} {
		c, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		ts, ws := c.Steps()
		if !slices.Equal(ts, tc.times) || !slices.Equal(ws, tc.watts) || c.Max() != tc.max {
			t.Errorf("%q: steps %v %v max %g, want %v %v %g", tc.in, ts, ws, c.Max(), tc.times, tc.watts, tc.max)
		}
	}
}

func TestParseErrors(t *testing.T) {
	many := strings.Repeat("1@1-2,", MaxWindows+1) + "5"
	for in, want := range map[string]string{
		"":                     "empty",
		"x":                    `item 1 "x": field watts: "x"`,
		"-5":                   `field watts: "-5"`,
		"100,200":              `item 2 "200": a second default cap`,
		"100@5":                `item 1 "100@5": field window: "5": want A-B`,
		"100@a-5":              `field start: "a"`,
		"100@0-b":              `field end: "b"`,
		"100@9-3":              `field end: the window's start 9 is not before its end 3`,
		"100@0-10,200@5-20":    "windows 100@0-10 and 200@5-20 overlap",
		"100@0-2e12":           `field end: "2e12"`,
		many:                   "items: at most 1000 windows",
		"NaN":                  `field watts: "NaN"`,
		"100@0-10,200@10-20,x": `item 3 "x"`,
	} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: error %v, want one containing %q", in, err, want)
		}
	}
}

// 4 CPUs at 10 W idle, 30 W computing: 40 W + 20 W a busy CPU.
func TestMaxBusy(t *testing.T) {
	m := Model{IdleW: 10, ComputeW: 30}
	for w, want := range map[float64]int{39: -1, 40: 0, 59.9: 0, 60: 1, 90: 2, 119: 3, 120: 4, 1e9: 4, math.Inf(1): 4} {
		if got := m.MaxBusy(4, w); got != want {
			t.Errorf("MaxBusy(4, %g) = %d, want %d", w, got, want)
		}
	}
	// with states: 2 busy, 1 off (1 W), 1 switching on (20 W): 40 + 40 - 9 + 10
	ms := Model{IdleW: 10, ComputeW: 30, OffW: 1, SwOnW: 20, SwOffW: 50}
	if got := ms.Power(4, 2, 1, 1, 0); got != 81 {
		t.Errorf("power %g, want 81", got)
	}
}
