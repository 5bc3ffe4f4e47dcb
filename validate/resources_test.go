package validate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseResources(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []Interval
	}{
		{"0", []Interval{{0, 0}}},
		{"7", []Interval{{7, 7}}},
		{"0-3", []Interval{{0, 3}}},
		{"0-3 8", []Interval{{0, 3}, {8, 8}}},
		{"0 2 4-5 7-100", []Interval{{0, 0}, {2, 2}, {4, 5}, {7, 100}}},
		{"10-11 13", []Interval{{10, 11}, {13, 13}}},
		{"2147483647", []Interval{{MaxCPU, MaxCPU}}},
		{"0-2147483647", []Interval{{0, MaxCPU}}}, // one token: no per-CPU expansion
	} {
		got, err := ParseResources(tc.s)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseResources(%q) = %v, %v; want %v", tc.s, got, err, tc.want)
		}
	}
}

func TestParseResourcesErrors(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		// Spaces: every token must be non-empty.
		{"", "empty, want at least one CPU id"},
		{" ", "token 1: empty (leading space)"},
		{" 0-3", "token 1: empty (leading space)"},
		{"0-3 ", "token 2: empty (trailing space)"},
		{"0-3  8", "token 2: empty (double space)"},
		{"0 2  4", "token 3: empty (double space)"},
		// Numbers.
		{"a", `token 1 "a": not a number (unexpected 'a')`},
		{"0 3x", `token 2 "3x": not a number (unexpected 'x')`},
		{"0\t1", `token 1 "0\t1": not a number (unexpected '\t')`},
		{"0,1", `token 1 "0,1": not a number (unexpected ',')`},
		{"+1", `token 1 "+1": not a number (unexpected '+')`},
		{"1.0", `token 1 "1.0": not a number (unexpected '.')`},
		{"x-3", `token 1 "x-3": lower bound: not a number (unexpected 'x')`},
		{"3-y", `token 1 "3-y": upper bound: not a number (unexpected 'y')`},
		{"03", `token 1 "03": leading zero`},
		{"0-07", `token 1 "0-07": upper bound: leading zero`},
		{"2147483648", `token 1 "2147483648": id exceeds 2147483647`},
		{"0-99999999999999999999999", `token 1 "0-99999999999999999999999": upper bound: id exceeds 2147483647`},
		// Signs and ranges.
		{"-1", `token 1 "-1": negative id`},
		{"0 -3", `token 2 "-3": negative id`},
		{"-", `token 1 "-": negative id`},
		{"3--1", `token 1 "3--1": upper bound: negative id`},
		{"3-", `token 1 "3-": upper bound: missing`},
		{"1-2-3", `token 1 "1-2-3": upper bound: not a number (unexpected '-')`},
		{"3-3", `token 1 "3-3": range of one CPU (want "3")`},
		{"5-3", `token 1 "5-3": reversed range (5 > 3)`},
		// Order between tokens.
		{"8 0-3", `token 2 "0-3": not ascending (after token 1 "8")`},
		{"0-3 2", `token 2 "2": overlaps token 1 "0-3"`},
		{"0-3 3-5", `token 2 "3-5": overlaps token 1 "0-3"`},
		{"0-5 2-3", `token 2 "2-3": overlaps token 1 "0-5"`},
		{"4 4", `token 2 "4": overlaps token 1 "4"`},
		{"0-1 2-3", `token 2 "2-3": adjacent to token 1 "0-1", not merged (want "0-3")`},
		{"0 1", `token 2 "1": adjacent to token 1 "0", not merged (want "0-1")`},
		{"0 5 6-9", `token 3 "6-9": adjacent to token 2 "5", not merged (want "5-9")`},
	} {
		got, err := ParseResources(tc.s)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseResources(%q) = %v, %v\nwant error %s", tc.s, got, err, tc.want)
		}
	}
}

func TestFormatResources(t *testing.T) {
	for _, tc := range []struct {
		ivs  []Interval
		want string
	}{
		{nil, ""},
		{[]Interval{{0, 0}}, "0"},
		{[]Interval{{0, 3}, {8, 8}}, "0-3 8"},
		// Any order; overlapping and adjacent intervals merge; empty ones vanish.
		{[]Interval{{8, 8}, {0, 3}}, "0-3 8"},
		{[]Interval{{0, 1}, {2, 3}}, "0-3"},
		{[]Interval{{0, 5}, {2, 3}, {9, 9}, {6, 7}}, "0-7 9"},
		{[]Interval{{4, 3}, {5, 5}}, "5"},
		{[]Interval{{MaxCPU - 1, MaxCPU}}, "2147483646-2147483647"},
	} {
		if got := FormatResources(tc.ivs); got != tc.want {
			t.Errorf("FormatResources(%v) = %q, want %q", tc.ivs, got, tc.want)
		}
	}
	for _, tc := range []struct {
		ids  []int
		want string
	}{
		{nil, ""},
		{[]int{5}, "5"},
		{[]int{0, 1, 2, 3, 8}, "0-3 8"},
		{[]int{8, 3, 1, 0, 2, 3}, "0-3 8"}, // any order, repeats merged
		{[]int{1, 3, 5}, "1 3 5"},
	} {
		if got := FormatCPUs(tc.ids); got != tc.want {
			t.Errorf("FormatCPUs(%v) = %q, want %q", tc.ids, got, tc.want)
		}
	}
	// FormatResources does not modify its argument.
	ivs := []Interval{{8, 8}, {0, 3}}
	FormatResources(ivs)
	if !reflect.DeepEqual(ivs, []Interval{{8, 8}, {0, 3}}) {
		t.Errorf("argument modified: %v", ivs)
	}
}

// FuzzResources checks both directions of the round trip: a string that
// parses is in normal form and formats back to itself; a set of ids
// (derived from the same bytes) formats to a string that parses back to
// that set.
func FuzzResources(f *testing.F) {
	for _, s := range []string{"0", "0-3 8", "0 2 4-5", "0-1 2-3", "8 0-3", "0-3 ", " 1", "03", "1-1",
		"2147483647", "2147483648", "0--1", "1-2-3", "\x00\x01\x02\x05\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ivs, err := ParseResources(s)
		if err == nil {
			if len(ivs) == 0 {
				t.Fatalf("%q: parsed to no CPU", s)
			}
			for i, iv := range ivs {
				if iv.Lo < 0 || iv.Hi > MaxCPU || iv.Lo > iv.Hi || i > 0 && iv.Lo <= ivs[i-1].Hi+1 {
					t.Fatalf("%q: not in normal form: %v", s, ivs)
				}
			}
			if back := FormatResources(ivs); back != s {
				t.Fatalf("%q parsed to %v, formats back to %q", s, ivs, back)
			}
		} else if !strings.HasPrefix(err.Error(), "token ") && s != "" {
			t.Fatalf("%q: error does not name the token: %v", s, err)
		}

		ids := make([]int, len(s))
		for i := range len(s) {
			ids[i] = int(s[i]) * (1 + i%3) // small ids, with runs and gaps
		}
		str := FormatCPUs(ids)
		if len(ids) == 0 {
			if str != "" {
				t.Fatalf("no ids formatted to %q", str)
			}
			return
		}
		got, err := ParseResources(str)
		if err != nil {
			t.Fatalf("FormatCPUs(%v) = %q does not parse: %v", ids, str, err)
		}
		set := slices.Compact(slices.Sorted(slices.Values(ids)))
		var back []int
		for _, iv := range got {
			for id := iv.Lo; id <= iv.Hi; id++ {
				back = append(back, id)
			}
		}
		if !slices.Equal(back, set) {
			t.Fatalf("ids %v formatted to %q, parse back to %v", set, str, back)
		}
	})
}

// bitTree agrees with a plain set on random operations, across sizes that
// give one, two and three levels.
func TestBitTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 5, 64, 65, 4096, 4097, 300000} {
		bt := newBitTree(n)
		set := make([]bool, n)
		for range 3000 {
			i := r.IntN(n)
			if r.IntN(3) == 0 {
				bt.clear(i)
				set[i] = false
			} else {
				bt.set(i)
				set[i] = true
			}
			q := r.IntN(n+2) - 1
			wantNext, wantPrev := -1, -1
			for k := max(q, 0); k < n; k++ {
				if set[k] {
					wantNext = k
					break
				}
			}
			for k := min(q, n-1); k >= 0; k-- {
				if set[k] {
					wantPrev = k
					break
				}
			}
			if got := bt.next(q); got != wantNext {
				t.Fatalf("n %d: next(%d) = %d, want %d", n, q, got, wantNext)
			}
			if got := bt.prev(q); got != wantPrev {
				t.Fatalf("n %d: prev(%d) = %d, want %d", n, q, got, wantPrev)
			}
		}
	}
}

func ExampleParseResources() {
	ivs, err := ParseResources("0-3 8")
	fmt.Println(ivs, err)
	_, err = ParseResources("0-1 2-3")
	fmt.Println(err)
	fmt.Println(FormatCPUs([]int{8, 2, 0, 3, 1}))
	// Output:
	// [0-3 8] <nil>
	// token 2 "2-3": adjacent to token 1 "0-1", not merged (want "0-3")
	// 0-3 8
}
