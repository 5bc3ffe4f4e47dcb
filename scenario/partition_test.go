package scenario

import (
	"errors"
	"strings"
	"testing"
)

func traceScenario(platform string) string {
	return "model: cluster\nstop: trace\nworkload: {trace: t.swf}\n" + platform + "\npolicy: {queue: easy}\n"
}

// platform.partitions reaches the point as written, and the key has
// them (hashed in canonical form: "a:4" and "a:0-3" are one partition).
func TestPartitionsKey(t *testing.T) {
	key := func(platform string) string {
		t.Helper()
		pts, err := Parse("p.yaml", []byte(traceScenario(platform)))
		if err != nil {
			t.Fatal(err)
		}
		return pts[0].Scenario.Key()
	}
	pts, err := Parse("p.yaml", []byte(traceScenario(`platform: {partitions: ["1:0-59", "odd:60-99:maxtime=3600:default"]}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := pts[0].Scenario.Platform.Partitions; strings.Join(got, "|") != "1:0-59|odd:60-99:maxtime=3600:default" {
		t.Errorf("partitions %q", got)
	}
	plain := key("platform: {}")
	a, b := key(`platform: {partitions: "a:4"}`), key(`platform: {partitions: ["a:0-3"]}`)
	c := key(`platform: {partitions: "a:5"}`)
	if !strings.Contains(a, "_parts=1-") {
		t.Errorf("key %s, want the partitions in it (parts=1-HASH)", a)
	}
	if strings.Contains(plain, "parts") {
		t.Errorf("key without partitions names them: %s", plain)
	}
	if a != b || a == c {
		t.Errorf("keys %s, %s (the same partition), %s (another)", a, b, c)
	}
	// Overlapping partitions are read as written (docs/partitions.md),
	// and their order is part of the key: it is the order they are served.
	pts, err = Parse("p.yaml", []byte(traceScenario(`platform: {partitions: ["a:0-3", "b:3-7"]}`)))
	if err != nil {
		t.Fatalf("overlapping partitions: %v", err)
	}
	if got := pts[0].Scenario.Platform.Partitions; strings.Join(got, "|") != "a:0-3|b:3-7" {
		t.Errorf("overlapping partitions %q", got)
	}
	if key(`platform: {partitions: ["a:0-3", "b:3-7"]}`) == key(`platform: {partitions: ["b:3-7", "a:0-3"]}`) {
		t.Errorf("the order of overlapping partitions is not in the key")
	}
}

func TestPartitionsErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"bad limit", traceScenario(`platform: {partitions: ["a:4:maxtime=0"]}`),
			`p.yaml:4:25: platform.partitions: "a:4:maxtime=0": maxtime "0": want a positive number of seconds`},
		{"not a string", traceScenario(`platform: {partitions: [{a: 4}]}`),
			`p.yaml:4:25: platform.partitions: a partition must be a quoted string "NAME:CPUS[:maxtime=S][:maxcpus=N][:users=U,...][:accounts=G,...][:qos=Q,...][:default]", got a mapping`},
		{"name twice", traceScenario(`platform: {partitions: ["a:0-3", "a:4-7"]}`),
			`p.yaml:4:34: platform.partitions: partition a is given twice`},
		{"two defaults", traceScenario(`platform: {partitions: ["a:0-3:default", "b:4-7:default"]}`),
			`p.yaml:4:42: platform.partitions: partitions a and b are both the default`},
		{"off the machine", "model: cluster\nstop: trace\nworkload: {trace: t.swf}\nplatform: {procs: 8, partitions: [\"a:0-3\", \"b:4-9\"]}\npolicy: {queue: easy}\n",
			`p.yaml:4:44: platform.partitions: "b:4-9": CPUS: CPU 9 is not on the machine (8 CPUs: ids 0-7) (platform.procs is 8)`},
		{"synthetic", withPlatform(`platform: {procs: 8, partitions: "a:4"}`),
			`a.yaml:3:22: platform.partitions: partitions route a trace's jobs by their partition (SWF field 16): give workload.trace`},
		{"overlapping with reservations", traceScenario(`platform: {reservations: "0:10:4", partitions: ["a:0-3", "b:2-5"]}`),
			`p.yaml:4:58: platform.partitions: overlapping partitions do not go with unavailable CPUs (platform.reservations) yet: partitions a and b share CPU 2`},
		{"overlapping with failures", traceScenario(`platform: {failures: {mtbf: 100, mttr: 10}, partitions: ["a:4", "b:3-3"]}`),
			`p.yaml:4:65: platform.partitions: overlapping partitions do not go with unavailable CPUs (platform.failures) yet: partitions a and b share CPU 3`},
		{"other model", "model: grid\nplatform: {sites: 2, procs_per_site: 4, partitions: \"a:4\"}\n",
			`platform.partitions`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "p.yaml"
			if strings.HasPrefix(tt.want, "a.yaml") {
				name = "a.yaml"
			}
			_, err := Parse(name, []byte(tt.src))
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("err = %v, want Errors", err)
			}
			if got := err.Error(); tt.name == "other model" && !strings.Contains(got, tt.want) || tt.name != "other model" && got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Disjoint partitions go with unavailable CPUs (docs/partitions.md):
// the file is read, with both in the point.
func TestPartitionsWithUnavailable(t *testing.T) {
	pts, err := Parse("p.yaml", []byte(traceScenario(`platform: {reservations: ["0:10:0-1", "5:20:4-7"], failures: {mtbf: 100, mttr: 10}, partitions: ["a:0-3", "b:4-7"]}`)))
	if err != nil {
		t.Fatal(err)
	}
	p := pts[0].Scenario.Platform
	if strings.Join(p.Partitions, "|") != "a:0-3|b:4-7" || len(p.Reservations) != 2 {
		t.Errorf("partitions %q, reservations %q", p.Partitions, p.Reservations)
	}
}
