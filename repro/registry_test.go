package repro

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/registry"
)

// The policies the reproductions name are registered, and the readings'
// alternatives are values of the registry's options.
func TestReproductionsUseTheRegistry(t *testing.T) {
	for _, ls := range zLocals {
		if _, err := registry.Lookup(registry.ModelGrid, registry.KindLocal, ls); err != nil {
			t.Error(err)
		}
	}
	for _, gs := range []string{"random", "realtime", "deferred", "hybrid"} {
		if _, err := registry.Lookup(registry.ModelGrid, registry.KindGrid, gs); err != nil {
			t.Error(err)
		}
	}
	for _, a := range []string{"1", "2"} {
		if _, err := registry.Lookup(registry.ModelGang, registry.KindApproach, a); err != nil {
			t.Error(err)
		}
	}
	for _, a := range []string{"1", "2"} {
		ap, _ := registry.Lookup(registry.ModelGang, registry.KindApproach, a)
		empty, _ := ap.Option("empty_queue")
		examine, _ := ap.Option("examine")
		if !slices.Contains(empty.Values, "idle") || !slices.Contains(examine.Values, "every") {
			t.Errorf("approach %s: the readings' options changed: empty_queue %v, examine %v", a, empty.Values, examine.Values)
		}
	}
}

// Readings hands out a fresh slice.
func TestReadingsFresh(t *testing.T) {
	r := GangReadings()
	r[0].Name = "x"
	if GangReadings()[0].Name != "design" {
		t.Error("Readings shares its slice")
	}
}

// zc drops the settings a grid scheduler has no option for.
func TestZcDropsUnreadSettings(t *testing.T) {
	for _, c := range []struct {
		in, want zcfg
	}{
		{zcfg{"sq", "random", 0.03, 1, 0.5}, zcfg{"sq", "random", 0.03, 0, 0}},
		{zcfg{"sq", "realtime", 0.03, 1, 0.5}, zcfg{"sq", "realtime", 0.03, 0, 0}},
		{zcfg{"sq", "deferred", 0.03, 1, 0.5}, zcfg{"sq", "deferred", 0.03, 1, 0}},
		{zcfg{"sq", "hybrid", 0.03, 1, 0.5}, zcfg{"sq", "hybrid", 0.03, 1, 0.5}},
		{zcfg{"sq", "hybrid", 0.03, 1, 0}, zcfg{"sq", "deferred", 0.03, 1, 0}},
		{zcfg{"sq", "hybrid", 0.03, 1, 1}, zcfg{"sq", "random", 0.03, 0, 0}},
	} {
		if got := zc(c.in.local, c.in.grid, c.in.ia, c.in.ai, c.in.frac); got != c.want {
			t.Errorf("zc(%+v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}
