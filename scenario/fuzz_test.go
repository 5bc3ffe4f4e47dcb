package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, and
// whatever it returns must be consistent (points or errors, not both;
// every point's key made of the allowed characters).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../examples/*.yaml")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"", "model: grid\n", "- 1\n", "a: [1\n", "model: [grid]\n",
		"x: &a [1, 2]\nmodel: cluster\nplatform: {procs: *a}\n",
		"model: gang\nplatform: {sites: [[{procs: 8}], [{procs: 16}]]}\n",
		"model: grid\nplatform: {sites: [{procs: [1, 2]}, {procs: 3, speed: 2}]}\n",
		"model: cluster\nstop: trace\nworkload: {trace: a}\npolicy: {queue: [easy, backfill], depth: [1, 2]}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pts, err := Parse("fuzz.yaml", data)
		if err != nil {
			if pts != nil {
				t.Fatalf("points and an error")
			}
			es, ok := err.(Errors)
			if !ok || len(es) == 0 {
				t.Fatalf("error %T %v is not a non-empty Errors", err, err)
			}
			for _, e := range es {
				if !strings.HasPrefix(e.Error(), "fuzz.yaml") {
					t.Fatalf("error %q does not start with the file name", e)
				}
			}
			return
		}
		if len(pts) == 0 || len(pts) > MaxPoints {
			t.Fatalf("%d points", len(pts))
		}
		for i, p := range pts {
			if p.Index != i {
				t.Fatalf("point %d has index %d", i, p.Index)
			}
			if k := p.Scenario.Key(); !keyRE.MatchString(k) || len(k) > maxKeyLen {
				t.Fatalf("bad key %q", k)
			}
		}
	})
}
