package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/platform"
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

// FuzzHostile builds scenario files from a few numbers, for the inputs
// that cost time or memory rather than bytes: nesting of any depth (flow
// brackets, block indentation, "- - -" on one line), anchors and aliases
// fanning out over several levels ("billion laughs"), and numbers at the
// extremes (1e300, 1e-300, -0, 2^63, NaN written out) in a chosen
// setting. Parse must answer within seconds, never panic, name the file
// in every error, and every file it accepts must be within the limits of
// docs/limits.md.
func FuzzHostile(f *testing.F) {
	f.Add(uint16(3), uint8(0), uint8(2), uint8(2), "1e300", uint8(0))
	f.Add(uint16(32000), uint8(2), uint8(0), uint8(0), "1", uint8(1))
	f.Add(uint16(150), uint8(1), uint8(0), uint8(0), "1e-300", uint8(2))
	f.Add(uint16(99), uint8(2), uint8(0), uint8(0), "9223372036854775808", uint8(3))
	f.Add(uint16(0), uint8(0), uint8(9), uint8(9), ".nan", uint8(4))
	f.Add(uint16(1), uint8(1), uint8(3), uint8(3), "1e17", uint8(5))
	f.Fuzz(func(t *testing.T, depth uint16, form, fan, levels uint8, num string, at uint8) {
		if len(num) > 64 || strings.ContainsAny(num, "\n\r") {
			return
		}
		src := hostile(int(depth)%40000, form%3, int(fan)%12, int(levels)%12, num, int(at))
		start := time.Now()
		pts, err := Parse("fuzz.yaml", []byte(src))
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("Parse took %v on %d bytes", d, len(src))
		}
		if err != nil {
			if pts != nil {
				t.Fatalf("points and an error")
			}
			for _, e := range err.(Errors) {
				if !strings.HasPrefix(e.Error(), "fuzz.yaml") {
					t.Fatalf("error %q does not start with the file name", e)
				}
			}
			return
		}
		runs := 0
		for _, p := range pts {
			s := p.Scenario
			runs += s.Replications
			w := s.Workload
			for _, m := range []float64{w.MeanInterarrival, w.MeanService, w.GangMeanInterarrival} {
				if m != 0 && !(m >= MinMean && m <= MaxMean) {
					t.Fatalf("accepted a mean of %g", m)
				}
			}
			if s.Replications < 1 || s.Replications > MaxReplications {
				t.Fatalf("accepted %d replications", s.Replications)
			}
			if s.Platform.Procs > platform.MaxCPUs || totalProcs(&s) > platform.MaxCPUs {
				t.Fatalf("accepted %d procs", max(int64(s.Platform.Procs), totalProcs(&s)))
			}
			if ai, _ := strconv.ParseFloat(s.Policy.Options["allocation_interval"], 64); ai > 0 && float64(s.Stop.Completed)*w.MeanInterarrival/ai > MaxGridPasses {
				t.Fatalf("accepted %g grid passes", float64(s.Stop.Completed)*w.MeanInterarrival/ai)
			}
		}
		if runs > MaxRuns {
			t.Fatalf("accepted %d runs", runs)
		}
	})
}

// hostile writes a grid scenario whose setting number at (of seven:
// stop.completed, platform.sites, platform.procs_per_site,
// workload.mean_interarrival, workload.mean_service,
// policy.allocation_interval, replications) is num, with a value nested depth levels deep (form 0: flow brackets, 1:
// indented blocks, 2: "- " on one line) and fan aliases of each of levels
// anchors, the last one swept as the seed.
func hostile(depth int, form uint8, fan, levels int, num string, at int) string {
	vals := []string{"100", "2", "4", "0.5", "1", "0.3", "1"}
	vals[at%len(vals)] = num
	var b strings.Builder
	b.WriteString("model: grid\n")
	fmt.Fprintf(&b, "stop: {completed: %s}\nplatform: {sites: %s, procs_per_site: %s}\n", vals[0], vals[1], vals[2])
	fmt.Fprintf(&b, "workload: {mean_interarrival: %s, mean_service: %s}\n", vals[3], vals[4])
	fmt.Fprintf(&b, "policy: {grid: deferred, local: sq, allocation_interval: %s}\nreplications: %s\n", vals[5], vals[6])
	if fan > 0 && levels > 0 {
		fmt.Fprintf(&b, "metrics: &a0 [rt]\n")
		for l := 1; l <= levels; l++ {
			refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", l-1), fan), ", ")
			fmt.Fprintf(&b, "x%d: &a%d [%s]\n", l, l, refs)
		}
		fmt.Fprintf(&b, "seed: *a%d\n", levels)
	}
	switch {
	case depth == 0:
	case form == 0:
		b.WriteString("warmup: {jobs: " + strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) + "}\n")
	case form == 1:
		b.WriteString("warmup:\n")
		for i := 1; i <= depth && i < 400; i++ {
			b.WriteString(strings.Repeat(" ", i) + "k:\n")
		}
		b.WriteString(strings.Repeat(" ", min(depth, 400)) + " 1\n")
	default:
		b.WriteString("warmup:\n" + strings.Repeat("- ", depth) + "1\n")
	}
	return b.String()
}
