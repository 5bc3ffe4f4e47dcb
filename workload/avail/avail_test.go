package avail

import (
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseReservation(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"100:200:10", "[100 200) 0-9"},
		{"100:200:0-49", "[100 200) 0-49"},
		{"0:1.5:8 0-3 4", "[0 1.5) 0-4 8"},
		{"5:6:7-7", "[5 6) 7"},
	} {
		w, err := ParseReservation(tc.in, 100)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := "[" + ftoa(w.Start) + " " + ftoa(w.End) + ") " + w.CPUs.String(); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"100:200", "want START:END:CPUS"},
		{"x:200:5", "START: \"x\" is not a finite number"},
		{"100:inf:5", "END: \"inf\" is not a finite"},
		{"200:100:5", "END 100 is not after START 200"},
		{"100:200:0", "a count of 0, want 1..100"},
		{"100:200:101", "a count of 101"},
		{"100:200:90-100", "CPU 100 is not on the machine"},
		{"100:200:9-3", "runs backwards"},
		{"100:200:a-b", "\"a\" is not a CPU id"},
	} {
		_, err := ParseReservation(tc.in, 100)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestCheckWindows(t *testing.T) {
	a, _ := ParseReservation("0:10:0-9", 100)
	b, _ := ParseReservation("5:15:9-12", 100)
	c, _ := ParseReservation("10:20:0-9", 100)
	if err := CheckWindows([]Window{a, c}, "reservation"); err != nil {
		t.Errorf("back-to-back windows: %v", err)
	}
	err := CheckWindows([]Window{a, c, b}, "reservation")
	if err == nil || !strings.Contains(err.Error(), "reservation 1 [0, 10) and reservation 3 [5, 15) overlap on CPU 9") {
		t.Errorf("overlap: %v", err)
	}
}

func TestEvents(t *testing.T) {
	in := `{"timestamp": 10, "type": "machine_unavailable", "resources": "0-49"}

{"timestamp": 10, "type": "machine_unavailable", "resources": "60 70-71"}
{"timestamp": 25.5, "type": "machine_available", "resources": "0-49 60"}
`
	e := NewEvents(strings.NewReader(in), "ev.jsonl", 100)
	var got []string
	for {
		ch, err := e.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ftoa(ch.Time)+map[bool]string{true: " down ", false: " up "}[ch.Down]+ch.CPUs.String())
	}
	if want := "10 down 0-49;10 down 60 70-71;25.5 up 0-49 60"; strings.Join(got, ";") != want {
		t.Errorf("got %q, want %q", strings.Join(got, ";"), want)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"timestamp": 1, "type": "machine_unavailable", "resources": "0"}` + "\n" + `{"timestamp": 0, "type": "machine_available", "resources": "0"}`, "ev.jsonl:2: field timestamp: 0 is before the previous event's 1"},
		{`{"type": "machine_unavailable", "resources": "0"}`, "ev.jsonl:1: field timestamp: missing"},
		{`{"timestamp": 1, "resources": "0"}`, "ev.jsonl:1: field type: missing"},
		{`{"timestamp": 1, "type": "reboot", "resources": "0"}`, `ev.jsonl:1: field type: "reboot", want machine_unavailable or machine_available`},
		{`{"timestamp": 1, "type": "machine_available"}`, "ev.jsonl:1: field resources: missing"},
		{`{"timestamp": 1, "type": "machine_available", "resources": "0-100"}`, "ev.jsonl:1: field resources: CPU 100 is not on the machine"},
		{`{"timestamp": "1", "type": "machine_available", "resources": "0"}`, `ev.jsonl:1: field timestamp: "1": want seconds of the trace's time (a number) or a date`},
		{`{"timestamp": "1996-10-01", "type": "machine_available", "resources": "0"}`, `ev.jsonl:1: field timestamp: the date "1996-10-01" needs the trace's start (its header's UnixStartTime)`},
		{`{"timestamp": true, "type": "machine_available", "resources": "0"}`, "ev.jsonl:1: field timestamp: true: want a number of seconds or a date"},
		{`{"timestamp": null, "type": "machine_available", "resources": "0"}`, "ev.jsonl:1: field timestamp: missing"},
		{`{"timestamp": 1, "type": "machine_available", "resources": "0"} {}`, "ev.jsonl:1: more than one JSON value"},
		{"\n\nnot json", "ev.jsonl:3: not a JSON object"},
	} {
		_, err := NewEvents(strings.NewReader(tc.in), "ev.jsonl", 100).nextAll()
		if err == io.EOF || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// With Dates, a timestamp may be a date, placed by the instant given
// (here a stand-in: 1996-10-01 is 100 s, with a time 100 s + its
// seconds of the day); its errors name the line.
func TestEventsDates(t *testing.T) {
	instant := func(s string) (float64, error) {
		var y, mo, d, h, mi, sec int
		if n, _ := fmt.Sscanf(s, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &sec); n == 3 || n == 6 {
			if y == 1996 && mo == 10 && d == 1 {
				return float64(100 + 3600*h + 60*mi + sec), nil
			}
		}
		return 0, fmt.Errorf("%q is not a day of the trace", s)
	}
	in := `{"timestamp": "1996-10-01", "type": "machine_unavailable", "resources": "0-3"}
{"timestamp": 200, "type": "machine_available", "resources": "0-1"}
{"timestamp": " 1996-10-01T00:10:00 ", "type": "machine_available", "resources": "2-3"}
`
	e := NewEvents(strings.NewReader(in), "ev.jsonl", 8).Dates(instant)
	var got []string
	for {
		ch, err := e.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ftoa(ch.Time)+" "+ch.CPUs.String())
	}
	if want := "100 0-3;200 0-1;700 2-3"; strings.Join(got, ";") != want {
		t.Errorf("got %q, want %q", strings.Join(got, ";"), want)
	}
	_, err := NewEvents(strings.NewReader(`{"timestamp": "1996-11-05", "type": "machine_available", "resources": "0"}`), "ev.jsonl", 8).Dates(instant).Next()
	if err == nil || err.Error() != `ev.jsonl:1: field timestamp: "1996-11-05" is not a day of the trace` {
		t.Errorf("got %v", err)
	}
}

// nextAll reads to the first error or the end.
func (e *Events) nextAll() (Change, error) {
	for {
		ch, err := e.Next()
		if err != nil {
			return ch, err
		}
	}
}

// The generator alternates down and up per group, deterministically per
// seed, with means near MTBF and MTTR.
func TestGenerator(t *testing.T) {
	f := Failures{MTBF: 1000, MTTR: 100, Seed: 3, GroupSize: 25}
	if err := f.Check(100); err != nil {
		t.Fatal(err)
	}
	a, b := NewGenerator(f, 100, 0), NewGenerator(f, 100, 0)
	down := map[string]float64{}
	var downSum float64
	var downs int
	last := math.Inf(-1)
	for range 40000 {
		x, _ := a.Next()
		y, _ := b.Next()
		if x.Time != y.Time || x.CPUs.String() != y.CPUs.String() || x.Down != y.Down {
			t.Fatal("not deterministic")
		}
		if x.Time < last {
			t.Fatalf("time %g before %g", x.Time, last)
		}
		last = x.Time
		k := x.CPUs.String()
		if _, isDown := down[k]; isDown == x.Down {
			t.Fatalf("group %s: down=%v twice in a row", k, x.Down)
		}
		if x.Down {
			down[k] = x.Time
		} else {
			downSum += x.Time - down[k]
			downs++
			delete(down, k)
		}
	}
	if m := downSum / float64(downs); math.Abs(m-100) > 5 {
		t.Errorf("mean down time %g, want about 100", m)
	}
	for _, tc := range []struct {
		f    Failures
		want string
	}{
		{Failures{MTBF: 0, MTTR: 1}, "mtbf 0"},
		{Failures{MTBF: 1, MTTR: -1}, "mttr -1"},
		{Failures{MTBF: 1, MTTR: 1, GroupSize: -1}, "group_size -1"},
	} {
		if err := tc.f.Check(100); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.f, err, tc.want)
		}
	}
}

// naiveNext is the generator's rule written plainly: the earliest
// pending change, ties to the lowest group, by a scan of the groups.
func naiveNext(g *Generator) Change {
	k := 0
	for i := range g.next {
		if g.next[i] < g.next[k] {
			k = i
		}
	}
	ch := Change{Time: g.next[k], CPUs: g.groups[k], Down: !g.down[k]}
	g.down[k] = !g.down[k]
	mean := g.mtbf
	if g.down[k] {
		mean = g.mttr
	}
	g.next[k] += g.r[k].ExpFloat64() * mean
	return ch
}

// The generator gives the changes of the plain rule (same times, groups
// and order, ties included: with means of 1e-300 s from t=1e6 every
// change is at 1e6), and a change costs no scan of every group: with
// the most groups (65,536) a run's 2,000,000 changes (the engine's
// bound) took minutes.
func TestGeneratorManyGroups(t *testing.T) {
	for _, f := range []Failures{{MTBF: 1000, MTTR: 100, Seed: 3, GroupSize: 1}, {MTBF: 1e-300, MTTR: 1e-300, Seed: 1, GroupSize: 3, From: 1e6}} {
		a, b := NewGenerator(f, 50, 2), NewGenerator(f, 50, 2)
		for i := range 20000 {
			x, _ := a.Next()
			y := naiveNext(b)
			if x.Time != y.Time || x.CPUs.String() != y.CPUs.String() || x.Down != y.Down {
				t.Fatalf("%+v: change %d: %+v, want %+v", f, i, x, y)
			}
		}
	}
	g := NewGenerator(Failures{MTBF: 1e6, MTTR: 1e3, Seed: 1, GroupSize: 1}, MaxGroups, 0)
	start := time.Now()
	for range 200_000 {
		g.Next()
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("200000 changes of %d groups took %v: a scan of every group a change", MaxGroups, d)
	}
}

// Reservations with dates: the ends may be dates with colons of their
// own, placed in the trace's time by the caller's instant; without one, a
// date is refused with the reason.
func TestParseReservationDates(t *testing.T) {
	// A trace whose time 0 is 1996-10-01T00:00:00 in its zone: a day is
	// 86400 s, and 06:00 is 21600 s.
	instant := func(s string) (float64, error) {
		switch strings.TrimSpace(s) {
		case "1996-10-01T00:00:00":
			return 0, nil
		case "1996-10-01T06:00:00":
			return 21600, nil
		case "1996-10-02":
			return 86400, nil
		}
		return 0, fmt.Errorf("%q: not a date of this trace", s)
	}
	for _, c := range []struct {
		text       string
		start, end float64
		cpus       int32
	}{
		{"1996-10-01T00:00:00:1996-10-01T06:00:00:50", 0, 21600, 49},
		{"100:1996-10-02:5", 100, 86400, 4},
		{"10:20:3", 10, 20, 2},
	} {
		w, err := ParseReservationAt(c.text, 100, instant)
		if err != nil || w.Start != c.start || w.End != c.end || w.CPUs[len(w.CPUs)-1] != c.cpus {
			t.Errorf("%q: %+v, %v; want [%g, %g) CPUs 0-%d", c.text, w, err, c.start, c.end, c.cpus)
		}
	}
	if _, err := ParseReservation("1996-10-01T00:00:00:1996-10-01T06:00:00:50", 100); err == nil || !strings.Contains(err.Error(), "a date needs the trace's start") {
		t.Errorf("without an instant: %v", err)
	}
}
