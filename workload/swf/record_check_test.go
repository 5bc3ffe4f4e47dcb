//go:build invariants

package swf

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// parseLine skips its value checks when the fast path showed that every
// field passes them: the answers (record, field, error) must be those of
// the full checks on every line, valid or not.
func TestParseLineSkippedChecksSameAnswers(t *testing.T) {
	tokens := []string{"-1", "0", "1", "-0", "-2", "-01", "-1.0", "1.5", "2.0", "0.5", "-0.5",
		"999999999", "1000000000", "999999999.5", "1000000000000", "1000000000001", "1e3", "1.25e2",
		"9007199254740992", "9007199254740993", "123456789012345", "1234567890123456", "abc", "+3",
		".5", "5.", "-", "0x10", "3600", "86400.25"}
	rnd := rand.New(rand.NewPCG(1, 2))
	token := func() string {
		switch rnd.IntN(4) {
		case 0:
			return tokens[rnd.IntN(len(tokens))]
		case 1:
			return strconv.Itoa(rnd.IntN(1 << 31))
		case 2:
			return strconv.FormatFloat(rnd.Float64()*1e6, 'f', rnd.IntN(6), 64)
		}
		return strconv.Itoa(rnd.IntN(1000))
	}
	defer func() { alwaysCheck = false }()
	skipped := 0
	for k := range 200000 {
		n := NumFields
		if k%50 == 0 {
			n += rnd.IntN(3) - 1
		}
		f := make([]string, n)
		for i := range f {
			if rnd.IntN(3) == 0 {
				f[i] = token()
			} else {
				f[i] = strconv.Itoa(rnd.IntN(100000)) // a plain valid field
				if rnd.IntN(4) == 0 {
					f[i] = "-1"
				}
			}
		}
		line := []byte(strings.Join(f, " \t"[rnd.IntN(2):rnd.IntN(2)+1]))
		alwaysCheck = false
		r1, f1, e1 := parseLine(line)
		alwaysCheck = true
		r2, f2, e2 := parseLine(line)
		if r1 != r2 || f1 != f2 || fmt.Sprint(e1) != fmt.Sprint(e2) {
			t.Fatalf("%q: skipping checks gives %+v, %d, %v; full checks %+v, %d, %v", line, r1, f1, e1, r2, f2, e2)
		}
		if e1 == nil {
			skipped++
		}
	}
	if skipped < 10000 {
		t.Fatalf("only %d valid lines: the test does not exercise the skip", skipped)
	}
}
