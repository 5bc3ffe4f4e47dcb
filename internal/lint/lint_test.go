package lint

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/schedlab/schedlab"

// deps maps every package of the module to its transitive dependencies
// inside the module, from `go list -deps`.
func deps(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, module+"/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Skipf("go list unavailable: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module+"/")
		for _, d := range f[1:] {
			if d == module || strings.HasPrefix(d, module+"/") {
				m[pkg] = append(m[pkg], strings.TrimPrefix(d, module+"/"))
			}
		}
		if _, ok := m[pkg]; !ok {
			m[pkg] = nil
		}
	}
	return m
}

func under(pkg, prefix string) bool { return pkg == prefix || strings.HasPrefix(pkg, prefix+"/") }

// TestForbiddenImports enforces DESIGN's boundaries on transitive imports:
//   - policies never see actual runtimes nor the live model: no policy
//     package depends on the kernel and models (engine), on job/actual, on
//     workloads (which produce actual jobs), on metrics or on anything
//     above them;
//   - the kernel knows the policy contracts (package policy), never a
//     concrete policy, a workload, a metric or an experiment;
//   - the vocabulary at the bottom (job, platform) depends on nothing
//     above it.
func TestForbiddenImports(t *testing.T) {
	rules := []struct {
		from      string
		forbidden []string
	}{
		{"policy", []string{"engine", "job/actual", "workload", "metrics", "experiment", "repro", "scenario", "internal/cli", "internal/naive", "validate"}},
		{"engine", []string{"policy/backfill", "policy/grid", "policy/gang", "workload", "metrics", "experiment", "repro", "scenario", "internal/cli", "registry"}},
		{"job", []string{"engine", "policy", "platform", "workload", "metrics", "experiment"}},
		{"platform", []string{"engine", "policy", "job", "workload", "metrics", "experiment"}},
		{"metrics", []string{"experiment", "repro", "scenario", "internal/cli", "policy/backfill", "policy/grid", "policy/gang"}},
	}
	all := deps(t)
	if len(all) < 10 {
		t.Fatalf("go list found only %d packages", len(all))
	}
	checked := 0
	for pkg, ds := range all {
		for _, r := range rules {
			if !under(pkg, r.from) || (r.from == "job" && under(pkg, "job/actual")) {
				continue
			}
			checked++
			for _, d := range ds {
				for _, f := range r.forbidden {
					if under(d, f) && !(r.from == "policy" && under(d, "policy")) {
						t.Errorf("%s depends on %s (forbidden for %s/...)", pkg, d, r.from)
					}
				}
			}
		}
	}
	if checked < 6 {
		t.Fatalf("only %d packages matched a rule: the rules no longer name the tree", checked)
	}
}

// The rule has teeth: a policy package that imported job/actual would be
// reported. (Checked on a made-up dependency list, since the real tree
// must pass.)
func TestForbiddenImportsDetects(t *testing.T) {
	if !under("job/actual", "job/actual") || under("jobs", "job") || !under("policy/grid", "policy") {
		t.Fatal("prefix matching is wrong")
	}
}
