package scenario

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// cluster is a valid synthetic cluster scenario; the cases below add a
// platform section at line 3.
const availBase = `model: cluster
stop: {completed: 100}
%s
workload: {mean_interarrival: 0.2}
policy: {queue: easy}
`

func withPlatform(p string) string { return strings.Replace(availBase, "%s", p, 1) }

// The keys of unavailable CPUs land in Platform; a list of windows is the
// windows of every point, failures.mtbf and on_failure are sweep axes.
func TestAvailKeys(t *testing.T) {
	src := withPlatform(`platform:
  procs: 8
  reservations: ["100:200:4", "150:300:4-7"]
  failures: {mtbf: [1000, 2000], mttr: 50, group: 2}
  on_failure: [kill, requeue]`)
	pts, err := Parse("a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 4 {
		t.Fatalf("%d points, want 2 x 2", len(pts))
	}
	p := pts[3].Scenario.Platform
	if !reflect.DeepEqual(p.Reservations, []string{"100:200:4", "150:300:4-7"}) || p.Failures != (Failures{MTBF: 2000, MTTR: 50, Group: 2}) || p.OnFailure != "requeue" {
		t.Errorf("platform %+v", p)
	}
	var labels []string
	for _, l := range pts[1].Labels {
		labels = append(labels, l.Key+"="+l.Value)
	}
	if got := strings.Join(labels, " "); got != "platform.failures.mtbf=1000 platform.on_failure=requeue" {
		t.Errorf("labels %s", got)
	}
	// The windows' hash is of their canonical form: "4" is "0-3".
	k := pts[1].Scenario.Key()
	want := "cluster_queue=easy_order=fcfs_ia=0.2_svc=1_procs=8_resv=2-" + reservationsKey([]string{"100:200:0-3", "150:300:4-7"})[2:] +
		"_mtbf=1000_mttr=50_fgroup=2_onfail=requeue_stop=100_warmup=0_seed=1_reps=1"
	if k != want {
		t.Errorf("key\n%s\nwant\n%s", k, want)
	}
	if k0 := pts[0].Scenario.Key(); !strings.HasSuffix(k0, "_mtbf=1000_mttr=50_fgroup=2_stop=100_warmup=0_seed=1_reps=1") {
		t.Errorf("key %s: kill is the default and is left out", k0)
	}
	if reservationsKey([]string{"100:200:4"}) == reservationsKey([]string{"100:201:4"}) {
		t.Errorf("distinct windows share a key")
	}
}

// Without the keys nothing changes: no field is set and the key is
// the key of before; on_failure is not read without failures.
func TestAvailUnset(t *testing.T) {
	pts, err := Parse("a.yaml", []byte(withPlatform("platform: {procs: 8}")))
	if err != nil {
		t.Fatal(err)
	}
	p := pts[0].Scenario.Platform
	if p.UsesAvailability() || p.OnFailure != "" || p.Reservations != nil {
		t.Errorf("platform %+v", p)
	}
	if k := pts[0].Scenario.Key(); k != "cluster_queue=easy_order=fcfs_ia=0.2_svc=1_procs=8_stop=100_warmup=0_seed=1_reps=1" {
		t.Errorf("key %s", k)
	}
	pts, err = Parse("a.yaml", []byte(withPlatform("platform: {procs: 8, events: f.jsonl}")))
	if err != nil {
		t.Fatal(err)
	}
	if p := pts[0].Scenario.Platform; p.OnFailure != "kill" || p.Events != "f.jsonl" {
		t.Errorf("with events: platform %+v", p)
	}
}

func TestAvailErrors(t *testing.T) {
	tests := []struct{ name, platform, want string }{
		{"bad window", `platform: {procs: 8, reservations: ["200:100:4"]}`,
			`a.yaml:3:37: platform.reservations: "200:100:4": END 100 is not after START 200`},
		{"window not a string", `platform: {procs: 8, reservations: [{start: 1}]}`,
			`a.yaml:3:37: platform.reservations: a window must be a quoted string "START:END:CPUS" (seconds, seconds, a CPU count or ids such as "0-49"; unquoted, YAML may read it as a mapping), got a mapping`},
		{"window off the machine", `platform: {procs: 8, reservations: "0:10:4-9"}`,
			`a.yaml:3:36: platform.reservations: "0:10:4-9": CPUS: CPU 9 is not on the machine (8 CPUs: ids 0-7) (platform.procs is 8)`},
		{"overlapping windows", `platform: {procs: 8, reservations: ["0:10:4", "5:20:2-5"]}`,
			`a.yaml:3:47: platform.reservations: "5:20:2-5" overlaps "0:10:4" (at 3:37) on the same CPUs`},
		{"failures without mttr", `platform: {procs: 8, failures: {mtbf: 100}}`,
			`a.yaml:3:22: platform.failures.mttr: required with platform.failures (the mean up and down times)`},
		{"failures not a mapping", `platform: {procs: 8, failures: 100}`,
			`a.yaml:3:32: platform.failures: must be a mapping, got 100`},
		{"unknown failure key", `platform: {procs: 8, failures: {mtbf: 100, mttr: 5, seed: 7}}`,
			`a.yaml:3:53: platform.failures.seed: unknown key (known: mtbf, mttr, group)`},
		{"bad mtbf", `platform: {procs: 8, failures: {mtbf: -1, mttr: 5}}`,
			`a.yaml:3:39: platform.failures.mtbf: must be > 0, got -1`},
		{"group too large", `platform: {procs: 8, failures: {mtbf: 10, mttr: 5, group: 9}}`,
			`a.yaml:3:59: platform.failures.group: groups of 9 CPUs on a machine of 8 (platform.procs)`},
		{"on_failure without failures", `platform: {procs: 8, on_failure: requeue}`,
			`a.yaml:3:22: platform.on_failure: needs failures (platform.events or platform.failures): it says what happens to a job on a CPU that goes down`},
		{"bad on_failure", `platform: {procs: 8, events: f, on_failure: retry}`,
			`a.yaml:3:45: platform.on_failure: unknown value "retry" (known: kill, requeue)`},
		{"window list swept", `platform: {procs: 8, reservations: [["0:1:1"]]}`,
			`a.yaml:3:37: platform.reservations: a window must be a quoted string "START:END:CPUS" (seconds, seconds, a CPU count or ids such as "0-49"; unquoted, YAML may read it as a mapping), got a list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("a.yaml", []byte(withPlatform(tt.platform)))
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("err = %v, want Errors", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	// A key of the cluster only.
	_, err := Parse("g.yaml", []byte(strings.Replace(grid, "platform: {sites: 4, procs_per_site: 8}", "platform: {sites: 4, procs_per_site: 8, events: f}", 1)))
	if err == nil || !strings.Contains(err.Error(), "platform.events: not used by model grid (only by cluster)") {
		t.Errorf("events in a grid: %v", err)
	}
}
