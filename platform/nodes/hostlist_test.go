package nodes

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Hand-worked expansions, after the semantics of Slurm's hostlist
// (scontrol show hostnames): ranges upwards, several ranges in one
// bracket in the order written, several brackets as a product with the
// first varying slowest, padding from the low end's digits.
func TestExpand(t *testing.T) {
	for _, c := range []struct {
		expr string
		want string // names joined by spaces
	}{
		{"node1", "node1"},
		{"node1,node2", "node1 node2"},
		{"gpu[01-04]", "gpu01 gpu02 gpu03 gpu04"},
		{"n[1-3,7,10-12]", "n1 n2 n3 n7 n10 n11 n12"},
		{"a[1-2]b[3-4]", "a1b3 a1b4 a2b3 a2b4"},
		{"rack[1-2]-n[01-02]", "rack1-n01 rack1-n02 rack2-n01 rack2-n02"},
		{"n[8-10]", "n8 n9 n10"},         // "8" has one digit: no padding
		{"n[08-10]", "n08 n09 n10"},      // "08" has two: padded to two
		{"n[098-100]", "n098 n099 n100"}, // a number longer than the padding prints whole
		{"n[08-100]", "n08 n09 " + seq("n", 10, 100)},
		{"n[001-3]", "n001 n002 n003"},
		{"n[7]", "n7"},
		{"n[3,1]", "n3 n1"}, // the order written
		{"[1-3]", "1 2 3"},
		{"x[1-2],y,x1", "x1 x2 y x1"}, // duplicates kept
		{"ib[0-1].node", "ib0.node ib1.node"},
		{"n[0-0]", "n0"},
	} {
		got, err := Expand(c.expr)
		if err != nil {
			t.Errorf("Expand(%q): %v", c.expr, err)
			continue
		}
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("Expand(%q) = %s, want %s", c.expr, s, c.want)
		}
		if n, err := Count(c.expr); err != nil || n != len(got) {
			t.Errorf("Count(%q) = %d, %v; want %d", c.expr, n, err, len(got))
		}
	}
}

func seq(prefix string, lo, hi int) string {
	var s []string
	for v := lo; v <= hi; v++ {
		s = append(s, fmt.Sprintf("%s%d", prefix, v))
	}
	return strings.Join(s, " ")
}

// Every malformed expression is refused with the column of the fault.
func TestExpandErrors(t *testing.T) {
	for _, c := range []struct {
		expr string
		col  int
		msg  string
	}{
		{"", 1, "no node names"},
		{"n1,", 4, "empty node name"},
		{",n1", 1, "empty node name"},
		{"n1,,n2", 4, "empty node name"},
		{"n[1-3", 2, "'[' without ']'"},
		{"n1-3]", 5, "']' without '['"},
		{"n[]", 3, "want a number"},
		{"n[1-]", 5, "want a number"},
		{"n[-1]", 3, "want a number"},
		{"n[3-1]", 3, "runs downwards"},
		{"n[1-3-5]", 6, "'-' in brackets"},
		{"n[1,[2]]", 5, "'[' inside brackets"},
		{"n[a-b]", 3, "want a number"},
		{"n[1-", 5, "ends inside brackets"},
		{"n 1", 2, "' ' may not appear"},
		{"n:1", 2, "':' may not appear"},
		{"n[1234567890123456789]", 3, "more than 18 digits"},
		{"n[1-300000]", 1, "more than 262144 names"},
		{"a[1-1000]b[1-1000]", 1, "more than 262144 names"},
		{"n[1-200000],m[1-200000]", 13, "more than 262144 names"},
		{strings.Repeat("x", 65), 1, "more than 64 (MaxNameLen)"},
		{strings.Repeat("x", 60) + "[1-10000]", 1, "names of 65 bytes"},
	} {
		_, err := Expand(c.expr)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Expand(%q): error %v, want an *Error", c.expr, err)
			continue
		}
		if e.Offset+1 != c.col || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("Expand(%q): %v, want column %d and %q", c.expr, err, c.col, c.msg)
		}
		if _, err2 := Count(c.expr); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Count(%q): %v, want %v", c.expr, err2, err)
		}
	}
}

// The limits: an expression of exactly MaxNames names expands; the
// product of brackets is counted without overflow.
func TestExpandLimits(t *testing.T) {
	n, err := Count(fmt.Sprintf("n[1-%d]", MaxNames))
	if err != nil || n != MaxNames {
		t.Fatalf("Count of MaxNames names: %d, %v", n, err)
	}
	// the sum of the ranges of one bracket would overflow an int64
	if _, err := Count("a[" + strings.Repeat("0-999999999999999999,", 20) + "0]"); err == nil || !strings.Contains(err.Error(), "more than 262144 names") {
		t.Errorf("huge sum: %v", err)
	}
	// 10^17 x 10^17 would overflow an int64 if multiplied as is
	if _, err := Count("a[1-99999999999999999]b[1-99999999999999999]"); err == nil || !strings.Contains(err.Error(), "more than 262144 names") {
		t.Errorf("huge product: %v", err)
	}
	if _, err := Expand(strings.Repeat("n,", MaxExprLen/2+1)); err == nil || !strings.Contains(err.Error(), "MaxExprLen") {
		t.Errorf("long text: %v", err)
	}
}

// Hand-worked compressions into the canonical form.
func TestCompress(t *testing.T) {
	for _, c := range []struct {
		names string // space-separated
		want  string
	}{
		{"n1", "n1"},
		{"n2 n1", "n[1-2]"},
		{"n1 n2 n3 n7 n10 n11 n12", "n[1-3,7,10-12]"},
		{"n12 n3 n10 n1 n7 n2 n11 n3", "n[1-3,7,10-12]"}, // sorted numerically, duplicates dropped
		{"gpu01 gpu02 gpu03 gpu04", "gpu[01-04]"},
		{"gpu09 gpu10 gpu11", "gpu[09-11]"}, // gpu10 joins the two-digit padded class
		{"n9 n10", "n[9-10]"},               // unpadded numbers of any width merge
		{"n1 n01", "n[1,01]"},               // distinct names: unpadded class first
		{"n08 n09 n10 n5 n6 n7 n8 n9", "n[5-9,08-10]"},
		{"n08 n100", "n[08,100]"}, // classes by their smallest numbers
		{"n100 n101 n01", "n[01,100-101]"},
		{"n01 n1", "n[1,01]"},
		{"a1b3 a1b4 a2b3 a2b4", "a1b[3-4],a2b[3-4]"}, // only the trailing number is compressed
		{"node1 node2", "node[1-2]"},
		{"login n1 n2", "login,n[1-2]"},
		{"n n1 n2", "n,n[1-2]"},  // a name without a number before its prefix's numbered names
		{"n10x n2x", "n2x,n10x"}, // prefixes in natural order
		{"b1 a1 a2", "a[1-2],b1"},
		{"rack2-n01 rack1-n01 rack1-n02", "rack1-n[01-02],rack2-n01"},
		{"1 2 3", "[1-3]"},
		{"n0 n00", "n[0,00]"},
		{"x", "x"},
	} {
		got, err := Compress(strings.Fields(c.names))
		if err != nil || got != c.want {
			t.Errorf("Compress(%s) = %q, %v; want %q", c.names, got, err, c.want)
		}
	}
	if got, err := Compress(nil); err != nil || got != "" {
		t.Errorf("Compress(nil) = %q, %v", got, err)
	}
	for _, bad := range [][]string{{""}, {"a b"}, {"n[1]"}, {"n,1"}, {strings.Repeat("x", 65)}} {
		if _, err := Compress(bad); err == nil {
			t.Errorf("Compress(%q): no error", bad)
		}
	}
}

// The round trips: Compress(Expand(x)) is canonical (a fixed point), and
// Expand(Compress(names)) is the sorted unique names.
func TestRoundTrip(t *testing.T) {
	for _, expr := range []string{
		"gpu[01-32]", "n[1-3,7,10-12]", "a[1-2]b[3-4]", "node1,node2", "n[5-10],n[08-10]",
		"n[08-100]", "x[1-2],y,x1", "n[0-3],n[000-003],n[00-03]", "c[1-4]n[1-8]", "[1-3],[01-03]",
		"n,n[1-2],m", "n[98-101],n[098-101]", fmt.Sprintf("n[1-%d]", MaxNames),
	} {
		names, err := Expand(expr)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, names)
	}
}

func checkRoundTrip(t *testing.T, names []string) {
	t.Helper()
	c, err := Compress(names)
	if err != nil {
		t.Fatalf("Compress(%q): %v", names, err)
	}
	if len(names) == 0 {
		if c != "" {
			t.Fatalf("Compress of no names = %q, want \"\"", c)
		}
		return // "" is no hostlist: Expand refuses it
	}
	back, err := Expand(c)
	if err != nil {
		t.Fatalf("Expand(Compress(%q) = %q): %v", names, c, err)
	}
	sorted, err := Sort(names)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back, sorted) {
		t.Fatalf("Expand(Compress(%q)) = %q, want %q (compressed %q)", names, back, sorted, c)
	}
	uniq := slices.Clone(names)
	slices.Sort(uniq)
	uniq = slices.Compact(uniq)
	got := slices.Clone(back)
	slices.Sort(got)
	if !slices.Equal(got, uniq) {
		t.Fatalf("Expand(Compress(%q)) as a set = %q, want %q", names, got, uniq)
	}
	if c2, err := Compress(back); err != nil || c2 != c {
		t.Fatalf("Compress is not canonical: %q, then %q", c, c2)
	}
}

func TestNatCompare(t *testing.T) {
	order := []string{"", "a", "a01b", "a1b", "a2b", "a10b", "ab", "b"}
	for i := range order {
		for j := range order {
			got := natCompare(order[i], order[j])
			if (got < 0) != (i < j) || (got == 0) != (i == j) {
				t.Errorf("natCompare(%q, %q) = %d", order[i], order[j], got)
			}
		}
	}
}

func FuzzHostlist(f *testing.F) {
	for _, s := range []string{"gpu[01-32]", "n[1-3,7,10-12]", "a[1-2]b[3-4]", "node1,node2", "n[08-100]", "x,y[0-1]z", "n[1-", "[1-3]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		n, cerr := Count(expr)
		if cerr == nil && n > 10000 {
			return // large lists are tested once, in TestRoundTrip and TestExpandLimits: here they would stall the fuzzer
		}
		names, err := Expand(expr)
		if (err == nil) != (cerr == nil) {
			t.Fatalf("Count and Expand disagree: %v, %v", cerr, err)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(expr) {
				t.Fatalf("error %v: want an *Error within the text", err)
			}
			return
		}
		if n != len(names) || n > MaxNames {
			t.Fatalf("Count %d, Expand %d names", n, len(names))
		}
		for _, name := range names {
			if msg := checkName(name); msg != "" {
				t.Fatalf("Expand(%q) made %q: %s", expr, name, msg)
			}
		}
		checkRoundTrip(t, names)
	})
}

// FuzzCompress starts from names: any valid names round-trip.
func FuzzCompress(f *testing.F) {
	f.Add("n1 n2 n3 n10 n01 n001 gpu09 gpu10 a1b2 x")
	f.Add("n08 n09 n10 n5 n100")
	f.Fuzz(func(t *testing.T, text string) {
		names := strings.Fields(text)
		for _, n := range names {
			if checkName(n) != "" {
				return
			}
		}
		checkRoundTrip(t, names)
	})
}

func BenchmarkExpandCompress(b *testing.B) {
	for b.Loop() {
		names, _ := Expand("c[1-64]n[001-128]")
		_, _ = Compress(names)
	}
}
