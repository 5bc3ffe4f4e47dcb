package enum

import "testing"

type color int

func (c color) String() string { return [...]string{"red", "green"}[c] }

func TestParse(t *testing.T) {
	if v, err := Parse("order", "sjf", []string{"fcfs", "sjf"}, []int{1, 2}); err != nil || v != 2 {
		t.Errorf("Parse: %v %v", v, err)
	}
	if _, err := Parse("queue order", "lifo", []string{"fcfs", "sjf"}, []int{1, 2}); err == nil || err.Error() != `unknown queue order "lifo" (known: fcfs, sjf)` {
		t.Errorf("Parse error: %v", err)
	}
	if v, err := ParseNamed("colour", "green", color(0), color(1)); err != nil || v != 1 {
		t.Errorf("ParseNamed: %v %v", v, err)
	}
	if _, err := ParseNamed("colour", "blue", color(0), color(1)); err == nil || err.Error() != `unknown colour "blue" (known: red, green)` {
		t.Errorf("ParseNamed error: %v", err)
	}
}
