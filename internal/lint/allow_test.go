package lint

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The layers as an allowlist: for each part of the tree, the packages of
// the module it may import directly (in its non-test files), and the
// ones its tests may import besides. A key names a package ("engine") or
// a subtree ("policy/..."); the most specific key that covers a package
// applies, so a new policy/foo is held to policy/...'s list the moment
// it exists. An entry of a list names a package or a subtree in the same
// way; the package's own subtree is always allowed. What no key covers
// is refused: a new top-level package needs its line here.
//
// The picture (docs/architecture.md): the vocabulary (job, platform)
// at the bottom; the policy contracts and options above it; the policies,
// which see job.Info and never job/actual, the engine or a workload; the
// engine (kernel and models), which knows the contracts but no policy;
// metrics as listeners on the engine; workloads; the thread-level
// transform (a source wrapper and a listener fold around the engine);
// the registry of the policies; scenarios; experiment (the runs of one
// model); sweep (the points of a scenario file: parallel replications,
// shards, summaries);
// reproductions; reports; the command line on top.
var allowImports = map[string][]string{
	"job":                      {"platform/nodes"}, // a job's request on nodes is part of its description
	"job/actual":               {"job", "platform/nodes"},
	"platform":                 {"internal/digits"},
	"platform/nodes":           {"platform"}, // a leaf like platform: the standard library and platform
	"platform/slurmconf":       {"platform/nodes"},
	"platform/nodes/nodestest": {"platform/nodes"}, // the node tests' scaffolding (imported by tests only)
	"platform/signal":          nil,                // a leaf: a time series (carbon intensity, price), the standard library only
	"platform/powercap":        nil,                // a leaf: a power cap over time and a pool's watts under it, the standard library only
	"policy/option":            nil,
	"policy":                   {"job", "platform", "platform/nodes", "policy/option"},
	"policy/...":               {"job", "platform", "platform/nodes", "platform/signal", "platform/powercap", "policy", "policy/...", "freeprofile", "rng", "internal/choose", "internal/idmap", "internal/enum", "internal/endheap", "internal/invariants"},
	"freeprofile":              nil,
	"rng":                      nil,
	"stats":                    nil,
	"validate":                 nil,
	"internal/...":             nil, // leaf utilities, unless listed below
	"engine":                   {"job", "job/actual", "platform", "platform/nodes", "platform/powercap", "policy", "internal/idmap", "internal/enum"},
	"engine/enginetest":        {"engine", "job", "job/actual", "platform", "policy", "validate", "workload"},
	"metrics":                  {"engine", "job", "job/actual", "platform", "platform/nodes", "platform/signal", "workload/swf", "internal/digits"},
	"workload":                 {"job", "job/actual", "rng", "workload/...", "internal/atomicfile", "internal/enum"},
	"workload/...":             {"job", "job/actual", "platform", "platform/nodes", "rng", "workload/swf", "workload/jobtable", "internal/enum", "internal/invariants", "policy/option", "workload/model", "workload/tsafrir", "workload/avail"},
	"workload/jobtable":        {"job", "job/actual", "platform", "platform/nodes", "workload/swf", "internal/..."},                                                           // the job table: SWF's fields and a nodes.Request a job
	"workload/gpumix":          {"job", "job/actual", "platform/nodes", "rng", "policy/option", "workload/jobtable", "workload/lublin", "workload/model", "workload/tsafrir"}, // lublin's jobs, a share of them asking for GPUs
	"threads":                  {"engine", "job", "job/actual", "metrics", "platform", "validate", "workload", "internal/digits"},
	"registry":                 {"policy", "policy/...", "metrics", "metrics/...", "workload/model", "workload/lublin", "workload/gpumix", "workload/synth"},
	"metrics/...":              {"engine", "job", "job/actual", "platform", "platform/nodes", "platform/signal", "policy", "metrics", "internal/digits"},
	"scenario":                 {"platform", "platform/nodes", "platform/powercap", "registry", "policy/option", "workload", "workload/..."},
	"experiment":               {"engine", "job", "job/actual", "platform", "platform/nodes", "platform/signal", "platform/powercap", "policy", "policy/...", "registry", "metrics", "metrics/energy", "metrics/nodeuse", "threads", "rng", "scenario", "validate", "workload", "workload/...", "internal/atomicfile", "internal/nodecheck"}, // metrics/nodeuse: summary.json's "nodes" section
	"sweep":                    {"experiment", "metrics", "scenario", "stats", "internal/atomicfile", "internal/addrspace"},
	"repro":                    {"experiment", "sweep", "metrics", "job", "job/actual", "platform", "policy", "policy/...", "registry", "report/plot", "rng", "scenario", "stats", "workload", "workload/...", "internal/atomicfile"},
	"report/plot":              nil,
	"report/...":               {"platform", "platform/nodes", "validate", "internal/atomicfile"}, // platform/nodes: the hostlists of allocated_nodes
	"cmd/schedlab/cli":         {"experiment", "sweep", "repro", "registry", "scenario", "metrics", "platform", "platform/nodes", "platform/slurmconf", "policy/option", "policy/external", "report/...", "workload", "workload/...", "internal/atomicfile", "cmd/schedlab/launch"},
	"cmd/libschedlab/inproc":   {"experiment", "metrics", "job", "policy/external"},
	"cmd/schedlab":             {"cmd/schedlab/cli", "internal/addrspace"},
	"cmd/schedlab/launch":      nil,
	"cmd/libschedlab/gym":      {"policy/external", "job", "platform/nodes"}, // job: the ids and users of the running jobs it keeps for the observation features; platform/nodes: what is free on a platform of nodes, and which jobs fit it
	"cmd/libschedlab":          {"cmd/libschedlab/gym", "cmd/libschedlab/inproc", "experiment", "job", "metrics/energy", "platform/nodes", "policy/external"},
	"tools/...":                {"..."}, // programs around the project: anything
	"internal/lint":            nil,
	"internal/testref":         {"job", "job/actual", "platform", "validate"},
	"internal/endheap":         {"job"},
	"internal/nodecheck":       {"platform/nodes", "validate"}, // a run on nodes in the independent checker's terms
}

// allowTestImports are what tests may import besides: the policies'
// tests run their policy through the engine on workloads and compare it
// with the independent references; the references' tests check with the
// independent checker; the goldens drive the command line.
var allowTestImports = map[string][]string{
	// policy/backfill's reference comparison (refnodes_diff_test.go) builds the node policies as the
	// registry builds them and compares them with the node reference
	"policy/...":       {"engine", "engine/enginetest", "job/actual", "metrics", "metrics/energy", "threads", "workload", "workload/...", "validate", "internal/testref", "internal/testref/nodesref", "registry", "internal/nodecheck", "platform/nodes/nodestest"},
	"engine":           {"policy/...", "rng", "validate", "workload", "workload/...", "internal/nodecheck", "platform/nodes/nodestest"}, // validate: the independent node checker of NodeCluster's runs
	"experiment":       {"internal/testref", "stats"},
	"sweep":            {"registry", "validate"},
	"registry":         {"job", "platform", "platform/nodes"}, // platform/nodes: a policy that runs on nodes only (slurm) built on nodes
	"report/...":       {"experiment"},
	"internal/testref": {"validate"},
	// the node reference's schedules checked by the independent checker
	"internal/testref/nodesref": {"validate"},
	"internal/golden":           {"cmd/schedlab/cli", "workload"},
	// the randomized run of every declared policy: through the run
	// paths, checked by the independent checker
	"internal/policyfuzz":    {"engine", "experiment", "job", "job/actual", "platform", "policy/option", "registry", "scenario", "validate"},
	"internal/...":           nil,
	"workload/...":           {"platform/nodes/nodestest"},
	"scenario":               nil,
	"cmd/schedlab/cli":       {"..."}, // the command line's tests build and drive anything
	"internal/lint":          nil,
	"repro":                  nil,
	"metrics":                {"platform/nodes/nodestest"},
	"metrics/...":            {"platform/nodes/nodestest"},
	"threads":                nil,
	"cmd/...":                nil,
	"tools/...":              {"..."},
	"job":                    nil,
	"job/actual":             nil,
	"platform":               nil,
	"platform/nodes":         {"validate", "internal/testref/nodesref"}, // allocations checked by the independent node checker and reference
	"freeprofile":            nil,
	"rng":                    nil,
	"stats":                  nil,
	"validate":               nil,
	"workload":               {"platform/nodes"}, // the requests a job table gives its jobs, written out in the tests
	"policy":                 nil,
	"policy/option":          nil,
	"report/plot":            nil,
	"cmd/schedlab/launch":    nil,
	"internal/digits":        nil,
	"cmd/libschedlab/inproc": {"experiment", "workload"},
	"engine/enginetest":      nil,
	"cmd/libschedlab/gym":    {"cmd/libschedlab/inproc", "experiment", "job", "platform", "platform/nodes/nodestest", "workload"},
}

// covers reports whether pattern ("x", "x/..." or "...") names pkg.
func covers(pattern, pkg string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return strings.HasPrefix(pkg, base+"/")
	}
	return pattern == pkg
}

// allowRule is the most specific key of table that covers pkg: an exact key
// beats a subtree, a deeper subtree a shallower one.
func allowRule(table map[string][]string, pkg string) (key string, ok bool) {
	best := -1
	for k := range table {
		if !covers(k, pkg) {
			continue
		}
		score := 2 * strings.Count(k, "/")
		if !strings.HasSuffix(k, "/...") {
			score += 1000 // an exact key
		}
		if score > best {
			best, key, ok = score, k, true
		}
	}
	return key, ok
}

// allowed reports whether pkg may import dep (test: in its tests).
func allowed(pkg, dep string, test bool) bool {
	if pkg == dep || strings.HasPrefix(dep, pkg+"/") {
		return true // its own subtree
	}
	k, ok := allowRule(allowImports, pkg)
	if !ok {
		return false
	}
	list := allowImports[k]
	if test {
		if tk, ok := allowRule(allowTestImports, pkg); ok {
			list = append(append([]string(nil), list...), allowTestImports[tk]...)
		}
	}
	for _, p := range list {
		if covers(p, dep) {
			return true
		}
	}
	return false
}

// importViolations checks direct imports (pkg -> non-test imports, and
// test imports) against the allowlist.
func importViolations(imports, testImports map[string][]string) []string {
	var bad []string
	for pkg, ds := range imports {
		if _, ok := allowRule(allowImports, pkg); !ok {
			bad = append(bad, fmt.Sprintf("%s: no rule in allowImports (add the package's layer)", pkg))
			continue
		}
		for _, d := range ds {
			if !allowed(pkg, d, false) {
				bad = append(bad, fmt.Sprintf("%s imports %s (not in its layer's allowlist)", pkg, d))
			}
		}
	}
	for pkg, ds := range testImports {
		for _, d := range ds {
			if !allowed(pkg, d, true) {
				bad = append(bad, fmt.Sprintf("%s's tests import %s (not in its layer's allowlist for tests)", pkg, d))
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// directImports lists every package's direct imports inside the module,
// and its test files' imports, in either build (buildTags).
func directImports(t *testing.T) (imports, testImports map[string][]string) {
	t.Helper()
	imports, testImports = map[string][]string{}, map[string][]string{}
	in := func(ds []string, s string) []string {
		for _, w := range strings.Fields(s) {
			if w == module || strings.HasPrefix(w, module+"/") {
				if d := strings.TrimPrefix(w, module+"/"); !slices.Contains(ds, d) {
					ds = append(ds, d)
				}
			}
		}
		return ds
	}
	for _, line := range goList(t, `{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`) {
		f := strings.SplitN(line, "|", 3)
		pkg := strings.TrimPrefix(f[0], module+"/")
		imports[pkg] = in(imports[pkg], f[1])
		testImports[pkg] = in(testImports[pkg], f[2])
	}
	return imports, testImports
}

func TestImportsAllowed(t *testing.T) {
	imports, testImports := directImports(t)
	if len(imports) < 30 {
		t.Fatalf("go list found only %d packages", len(imports))
	}
	for _, b := range importViolations(imports, testImports) {
		t.Error(b)
	}
}

// The allowlist has teeth: a new policy package that imports the engine
// or job/actual, an engine that imports a concrete policy, a workload
// that imports the engine, a package with no rule, and a reference whose
// tests import a policy are refused; a policy's test running the engine
// and a policy importing another policy are allowed.
func TestImportsAllowedDetects(t *testing.T) {
	bad := importViolations(map[string][]string{
		"policy/newthing": {"engine", "job/actual", "job", "policy/backfill"},
		"engine":          {"policy/backfill", "job"},
		"workload/zip":    {"engine"},
		"newtop":          {"job"},
	}, map[string][]string{
		"policy/newthing":  {"engine", "workload/synth"},
		"internal/testref": {"policy/rank"},
	})
	want := []string{
		"engine imports policy/backfill (not in its layer's allowlist)",
		"internal/testref's tests import policy/rank (not in its layer's allowlist for tests)",
		"newtop: no rule in allowImports (add the package's layer)",
		"policy/newthing imports engine (not in its layer's allowlist)",
		"policy/newthing imports job/actual (not in its layer's allowlist)",
		"workload/zip imports engine (not in its layer's allowlist)",
	}
	if strings.Join(bad, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations\n%s\nwant\n%s", strings.Join(bad, "\n"), strings.Join(want, "\n"))
	}
}
