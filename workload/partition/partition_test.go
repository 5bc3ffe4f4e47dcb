package partition

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	s, err := Parse(" batch : 50-99 : maxtime=3600 : users=7,3 : default", 128)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Canonical(), "batch:50-99:maxtime=3600:users=3,7:default"; got != want {
		t.Errorf("canonical %q, want %q", got, want)
	}
	c, err := Parse("2:8:qos=1:maxcpus=4", 8)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Canonical(), "2:0-7:maxcpus=4:qos=1"; got != want {
		t.Errorf("canonical %q, want %q", got, want)
	}
	for text, want := range map[string]string{
		"a":               "want NAME:CPUS",
		"a:9":             "CPUS: a count of 9, want 1..8",
		"a b:4":           `NAME "a b"`,
		"a:4:maxtime=0":   `maxtime "0": want a positive number of seconds`,
		"a:4:maxcpus=-1":  `maxcpus "-1": want a positive integer`,
		"a:4:users=x":     `users: "x" is not a number >= 0 (the trace's user numbers)`,
		"a:4:default=1":   "default takes no value",
		"a:4:nice=1":      `unknown limit "nice"`,
		"a:4:qos=1:qos=2": "qos given twice",
		"a:4:maxtime":     `limit "maxtime": want KEY=VALUE`,
	} {
		if _, err := Parse(text, 8); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", text, err, want)
		}
	}
}

func TestCheck(t *testing.T) {
	mk := func(texts ...string) []Spec {
		var ss []Spec
		for _, x := range texts {
			s, err := Parse(x, 16)
			if err != nil {
				t.Fatal(err)
			}
			ss = append(ss, s)
		}
		return ss
	}
	if i, err := Check(mk("a:0-7", "b:8-15:default")); err != nil || i != -1 {
		t.Errorf("good set: %d %v", i, err)
	}
	// Overlapping partitions are a good set too (docs/partitions.md).
	if i, err := Check(mk("a:0-7", "b:10-11 7", "c:4-12")); err != nil || i != -1 {
		t.Errorf("overlapping set: %d %v", i, err)
	}
	for _, c := range []struct {
		set  []Spec
		at   int
		want string
	}{
		{mk("a:0-7", "a:8-15"), 1, "partition a is given twice"},
		{mk("a:0-3:default", "b:4-7:default"), 1, "partitions a and b are both the default"},
	} {
		i, err := Check(c.set)
		if err == nil || i != c.at || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check: %d %v, want %d %q", i, err, c.at, c.want)
		}
	}
	if _, err := Check(make([]Spec, MaxPartitions+1)); err == nil || !strings.Contains(err.Error(), "at most 256") {
		t.Errorf("too many: %v", err)
	}
}
