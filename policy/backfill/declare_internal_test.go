package backfill

import (
	"testing"

	"github.com/schedlab/schedlab/policy/option"
)

// Flexible's declared defaults are DefaultFlex()'s values, and what a
// scenario sets reaches FlexParams.
func TestFlexOptionsDefaults(t *testing.T) {
	v, err := option.Check(flexOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := flexFrom(v); f != DefaultFlex() {
		t.Errorf("the declared defaults give %+v, DefaultFlex is %+v", f, DefaultFlex())
	}
	v, err = option.Check(flexOptions(), map[string]string{"agefactor": "5", "deadline_k": "3", "deadline_max": "30",
		"deadline_min": "-1", "boostvalue": "0", "pin_reservation": "false"})
	if err != nil {
		t.Fatal(err)
	}
	if f, want := flexFrom(v), (FlexParams{AgeFactor: 5, K: 3, Max: 30, Min: -1, Boost: 0, Pin: false}); f != want {
		t.Errorf("set: %+v, want %+v", f, want)
	}
}
