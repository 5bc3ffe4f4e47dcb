package lint

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/schedlab/schedlab"

// buildTags are the builds the checks look at: the default one and the
// one with the tag invariants (test switches and counters, and the tests
// that need them; docs/testing.md). A file of either build is checked.
var buildTags = []string{"", "invariants"}

// goList runs `go list -f format` over the module, once per build of
// buildTags, and returns the output lines of all of them.
func goList(t *testing.T, format string) []string {
	t.Helper()
	var lines []string
	for _, tags := range buildTags {
		cmd := exec.Command("go", "list", "-tags", tags, "-f", format, module+"/...")
		cmd.Dir = "../.."
		out, err := cmd.Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				t.Fatalf("go list -tags %q: %v\n%s", tags, err, ee.Stderr)
			}
			t.Fatalf("go list -tags %q: %v", tags, err)
		}
		lines = append(lines, strings.Split(strings.TrimSpace(string(out)), "\n")...)
	}
	return lines
}

// deps maps every package of the module to its transitive dependencies
// inside the module, from `go list -deps` (in either build).
func deps(t *testing.T) map[string][]string {
	t.Helper()
	m := map[string][]string{}
	for _, line := range goList(t, `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`) {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module+"/")
		for _, d := range f[1:] {
			if (d == module || strings.HasPrefix(d, module+"/")) && !slices.Contains(m[pkg], strings.TrimPrefix(d, module+"/")) {
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

// TestForbiddenImports enforces the architecture's boundaries on transitive imports:
//   - policies never see actual runtimes nor the live model: no policy
//     package depends on the kernel and models (engine), on job/actual, on
//     workloads (which produce actual jobs), on metrics or on anything
//     above them;
//   - the kernel knows the policy contracts (package policy), never a
//     concrete policy, a workload, a metric or an experiment;
//   - the vocabulary at the bottom (job, platform) depends on nothing
//     above it; a job's request on nodes (platform/nodes.Request) is part
//     of its description, so job may use platform, never the other way;
//   - the runs of one model (experiment) never depend on the sweeps
//     (sweep) that run them;
//   - the HTML report (report/htmlreport) reads what the layers below
//     write: none of them imports it, and it never reaches the kernel or
//     the policies;
//   - the references (internal/testref, validate) import none of the
//     packages they check (references written inside test files are
//     checked by TestReferencesIndependent).
type rule struct {
	from      string
	forbidden []string
}

var rules = []rule{
	{"policy", []string{"engine", "job/actual", "workload", "metrics", "experiment", "sweep", "repro", "scenario", "cmd/schedlab/cli", "internal/testref", "validate", "report"}},
	// (engine/enginetest, the test harness above the kernel, runs it on
	// a workload of jobs: it has its own rule below.)
	{"engine", []string{"policy/backfill", "policy/grid", "policy/gang", "policy/plan", "policy/matrix", "policy/rank", "workload", "metrics", "experiment", "sweep", "repro", "scenario", "cmd/schedlab/cli", "registry", "report"}},
	{"job", []string{"engine", "policy", "workload", "metrics", "experiment", "sweep", "report"}},
	{"platform", []string{"engine", "policy", "job", "workload", "metrics", "experiment", "sweep", "report"}},
	{"metrics", []string{"experiment", "sweep", "repro", "scenario", "cmd/schedlab/cli", "policy/backfill", "policy/grid", "policy/gang", "policy/plan", "policy/matrix", "policy/rank", "report"}},
	// The HTML report reads what the layers below write; they never know
	// it. The runs of one model (experiment) never know the sweeps that
	// call them.
	{"experiment", []string{"report/htmlreport", "cmd/schedlab/cli", "sweep"}},
	{"sweep", []string{"report/htmlreport", "cmd/schedlab/cli"}},
	{"repro", []string{"report/htmlreport", "cmd/schedlab/cli"}},
	{"scenario", []string{"report/htmlreport", "cmd/schedlab/cli"}},
	{"validate", []string{"report"}},
	{"report/htmlreport", []string{"cmd/schedlab/cli", "policy", "engine"}},
	// The references stay independent of what they check: the naive
	// simulators (compared with the engine, the policies and the
	// profiles) and the schedule validator (run on the engine's output)
	// share no code with the kernel, the policies, the profiles or
	// anything above them. internal/testref imports nothing of the module.
	{"internal/testref", []string{"engine", "policy", "freeprofile", "job", "platform", "workload", "metrics", "experiment", "sweep", "repro", "scenario", "cmd/schedlab/cli", "registry", "validate", "report", "stats", "rng"}},
	{"validate", []string{"engine", "policy", "freeprofile", "internal/testref", "workload", "metrics", "experiment", "sweep", "repro", "scenario", "cmd/schedlab/cli", "registry"}},
	// The test harness every policy's tests use knows no concrete policy
	// (a policy's tests could not import it otherwise) and nothing above
	// the engine but the slice workload.
	{"engine/enginetest", []string{"policy/backfill", "policy/grid", "policy/gang", "policy/plan", "policy/matrix", "policy/rank", "metrics", "experiment", "sweep", "repro", "scenario", "cmd/schedlab/cli", "registry", "report"}},
	// The id map under the kernel and the policies is a leaf.
	{"internal/idmap", []string{"job", "platform", "engine", "policy", "workload", "metrics", "freeprofile", "stats", "experiment", "sweep", "repro", "scenario", "cmd/schedlab/cli", "registry", "validate", "report"}},
}

// violations applies the rules to a dependency map; it also returns how
// many packages a rule applied to.
func violations(all map[string][]string) (bad []string, checked int) {
	for pkg, ds := range all {
		for _, r := range rules {
			if !under(pkg, r.from) || (r.from == "job" && under(pkg, "job/actual")) || (r.from == "engine" && under(pkg, "engine/enginetest")) {
				continue
			}
			checked++
			for _, d := range ds {
				for _, f := range r.forbidden {
					if under(d, f) && !(r.from == "policy" && under(d, "policy")) {
						bad = append(bad, pkg+" depends on "+d+" (forbidden for "+r.from+"/...)")
					}
				}
			}
		}
	}
	return bad, checked
}

func TestForbiddenImports(t *testing.T) {
	all := deps(t)
	if len(all) < 10 {
		t.Fatalf("go list found only %d packages", len(all))
	}
	bad, checked := violations(all)
	for _, b := range bad {
		t.Error(b)
	}
	if checked < 6 {
		t.Fatalf("only %d packages matched a rule: the rules no longer name the tree", checked)
	}
}

// The rules have teeth: on a made-up tree, a policy that reaches
// job/actual through a helper, an engine that imports a concrete policy,
// an experiment importing the HTML report and a naive simulator using the
// profiles give exactly those four violations; a policy importing another
// policy package and the validator using the job vocabulary are allowed.
func TestForbiddenImportsDetects(t *testing.T) {
	bad, _ := violations(map[string][]string{
		"policy/grid":      {"job", "internal/helper", "job/actual"},
		"engine":           {"policy", "policy/backfill"},
		"policy/plan":      {"policy/backfill", "platform"},
		"jobs":             {"engine"}, // not the job package
		"experiment":       {"report/plot", "report/htmlreport"},
		"internal/testref": {"freeprofile"},
		"validate":         {"job"},
	})
	want := map[string]bool{
		"policy/grid depends on job/actual (forbidden for policy/...)":                 true,
		"engine depends on policy/backfill (forbidden for engine/...)":                 true,
		"experiment depends on report/htmlreport (forbidden for experiment/...)":       true,
		"internal/testref depends on freeprofile (forbidden for internal/testref/...)": true,
	}
	if len(bad) != len(want) {
		t.Fatalf("violations %q, want %d", bad, len(want))
	}
	for _, b := range bad {
		if !want[b] {
			t.Errorf("unexpected violation %q", b)
		}
	}
}
