package htmlreport

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Impossible data is refused with the file, line and column or key: CPU
// ids beyond the machine (summary.json's procs, or the largest machine
// schedlab simulates when it gives none), and counts in summary.json that
// are not counts (1e999 used to skip the truncation check).
func TestImpossibleData(t *testing.T) {
	good := tinyRun(t) // 16 CPUs
	raw, err := os.ReadFile(filepath.Join(good, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := os.ReadFile(filepath.Join(good, "summary.json"))
	lines := strings.SplitAfter(string(raw), "\n")
	row := func(cpus string) string {
		return lines[0] + "1,0,2,10,0,5,5,0,5,1," + cpus + ",COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,,,\n"
	}
	for _, c := range []struct{ name, jobs, summary, want string }{
		{"CPU beyond procs", row("0-5000"), `{"jobs": 1, "procs": 100}`,
			`jobs.csv:2: column allocated_resources: "0-5000": CPU 5000 is beyond the machine \(100 CPUs: procs in .*summary.json\)`},
		{"CPU id at int32 max", row("0-2147483647"), `{"jobs": 1}`,
			`jobs.csv:2: column allocated_resources: "0-2147483647": CPU 2147483647 is beyond the machine \(4194304 CPUs: the largest machine schedlab simulates; .*summary.json gives no procs\)`},
		{"jobs 1e999", string(raw), strings.Replace(string(sum), `"jobs": 40`, `"jobs": 1e999`, 1),
			`summary.json: jobs: 1e999 is not a count in 0..9007199254740992`},
		{"jobs fractional", string(raw), strings.Replace(string(sum), `"jobs": 40`, `"jobs": 39.5`, 1),
			`summary.json: jobs: 39.5 is not a count`},
		{"procs 1e999", string(raw), `{"jobs": 40, "procs": 1e999}`, `summary.json: procs: 1e999 is not a count in 1..4194304`},
		{"tau 1e999", string(raw), `{"jobs": 40, "bounded_slowdown_tau": 1e999}`, `summary.json: bounded_slowdown_tau: 1e999 is not a finite number >= 0`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "jobs.csv"), c.jobs)
			write(t, filepath.Join(dir, "summary.json"), c.summary)
			_, err := Write(dir)
			if err == nil || !regexp.MustCompile(c.want).MatchString(err.Error()) {
				t.Fatalf("error %v, want match %q", err, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
				t.Error("report.html written")
			}
		})
	}
	// The last CPU of the machine is fine.
	dir := t.TempDir()
	write(t, filepath.Join(dir, "jobs.csv"), row("98-99"))
	write(t, filepath.Join(dir, "summary.json"), `{"jobs": 1, "procs": 100}`)
	if _, err := Write(dir); err != nil {
		t.Errorf("CPUs 98-99 of 100: %v", err)
	}
}
